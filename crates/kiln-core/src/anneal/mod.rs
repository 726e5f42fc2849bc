//! The generic annealing engine. It knows nothing of terminals or of any one problem.

mod budget;
pub mod explain;
pub mod interrupt;
mod launch;
mod observer;
mod parallel;
mod problem;
mod runner;
mod schedule;
mod search;
pub(crate) mod tally;
pub mod trace;
pub mod worker;

pub use budget::Budget;
pub use explain::{Decision, Explained, Sketch};
pub use launch::Launch;
pub use observer::{Observer, Unobserved};
pub use parallel::Parallel;
pub use problem::{Problem, Rng, nth_seed, randomized};
pub use runner::{
    BATCH, Checkpoint, Outcome, RunConfig, Runner, Sample, Stagnation, StallAction, StopReason,
    auto_temperature,
};
pub use schedule::{Clock, Schedule};
pub use search::Search;
pub use trace::{Trace, Traced, run_traced};

#[cfg(test)]
pub(crate) mod toy;
