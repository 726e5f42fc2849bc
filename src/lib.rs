//! kiln: simulated annealing, live in your terminal.

pub mod anneal;
pub mod anneal_args;
pub mod batch;
pub mod cli;
pub mod demos;
pub mod export;
pub mod input;
pub mod json;
pub mod messages;
pub mod output;
pub mod output_args;
pub mod plot;
pub mod problems;
pub mod progress;
pub mod race;
pub mod serve;
pub mod serve_args;
pub mod ui;
