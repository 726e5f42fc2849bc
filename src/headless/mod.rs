//! Runs without a terminal: batches of seeds and files, the JSON lines they print, the
//! progress line on stderr, the files they write and the signals that stop them.

/// Batches: seeds, shards and the threads they run on.
pub mod batch;
/// Signals that stop a headless run.
pub mod interrupt;
/// What JSON lines share: stop reasons, seconds and rates.
pub mod json;
/// `--output` files and their formats.
pub mod output;
/// The progress line on stderr.
pub mod progress;
/// The one pipeline from runs to printed lines.
pub mod report;
/// Specs: the command line resolved into what a run needs.
pub mod spec;
