//! Runs without a terminal: batches of seeds and files, the JSON lines they print, the
//! progress line on stderr, the files they write and the signals that stop them.

pub mod batch;
pub mod interrupt;
pub mod json;
pub mod output;
pub mod progress;
pub mod report;
pub mod spec;
