//! The generic annealing engine. It knows nothing of terminals or of any one problem.

pub mod interrupt;
mod parallel;
mod problem;
mod runner;
mod schedule;
mod search;
mod tally;
pub mod trace;
pub mod worker;

pub use parallel::Parallel;
pub use problem::{Problem, Rng, nth_seed};
pub use runner::{
    BATCH, Checkpoint, Outcome, RunConfig, Runner, Sample, Stagnation, StallAction, StopReason,
    auto_temperature, budget_spent,
};
pub use schedule::{Clock, Schedule};
pub use search::Search;
pub use tally::Tally;
pub use trace::{Trace, run_traced};

#[cfg(test)]
pub(crate) mod toy;
