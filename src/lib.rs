//! kiln: simulated annealing, live in your terminal.

pub mod anneal_args;
pub mod batch;
pub mod cli;
pub mod demos;
pub mod export;
pub mod interrupt;
pub mod json;
pub mod output;
pub mod output_args;
pub mod plot;
pub mod problems;
pub mod progress;
pub mod race;
pub mod serve;
pub mod serve_args;
pub mod ui;

pub use kiln_core::{Named, anneal, input, messages};
