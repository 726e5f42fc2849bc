//! Simulated annealing: the [`Problem`] trait a model implements, the cooling
//! [`Schedule`]s, and the [`Runner`] (the Metropolis loop, stall handling, the budget), a
//! [`Search`](crate::search::Search) like any other. It knows nothing of terminals or of
//! any one problem.

mod launch;
mod problem;
mod runner;
mod runner_search;
mod schedule;

/// The generator a [`Problem`]'s moves draw from (the one every search uses).
pub use crate::search::Rng;
pub use launch::Launch;
pub use problem::{Problem, randomized};
pub use runner::{BATCH, Checkpoint, RunConfig, Runner, Stagnation, StallAction, auto_temperature};
pub use schedule::{Clock, Schedule};

#[cfg(test)]
pub(crate) mod toy;
