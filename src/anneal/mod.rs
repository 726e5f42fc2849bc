//! The generic annealing engine. It knows nothing of terminals or of any one problem.

mod problem;
mod runner;
mod schedule;
pub mod worker;

pub use problem::{Problem, Rng};
pub use runner::{
    Outcome, RunConfig, Runner, Sample, Stagnation, StallAction, StopReason, auto_temperature,
};
pub use schedule::{Clock, Schedule};

#[cfg(test)]
pub(crate) mod toy;
