//! The engine of kiln: a generic simulated annealer (the [`anneal::Problem`] trait,
//! schedules, budgets, the runner and a worker thread with pause, reheat and telemetry)
//! and the models of the problems kiln ships (Sudoku, the travelling salesman, binary
//! images). It knows nothing of terminals or command lines.
//!
//! # Example
//!
//! A problem is a state with an energy, random moves and their deltas; a [`anneal::Runner`]
//! anneals it within a budget. Here the state is a row of bits, the energy counts the ones
//! and a move flips one bit, so the run ends when every bit is clear.
//!
//! ```
//! use kiln_core::anneal::{Problem, Rng, RunConfig, Runner, Schedule, StopReason};
//! use rand::RngExt;
//!
//! struct Bits(Vec<bool>);
//!
//! impl Problem for Bits {
//!     type Move = usize;
//!     type Snapshot = Vec<bool>;
//!
//!     fn energy(&self) -> f64 {
//!         self.0.iter().filter(|&&b| b).count() as f64
//!     }
//!     fn propose(&self, rng: &mut Rng) -> usize {
//!         rng.random_range(0..self.0.len())
//!     }
//!     fn delta(&self, &i: &usize) -> f64 {
//!         if self.0[i] { -1.0 } else { 1.0 }
//!     }
//!     fn apply(&mut self, &i: &usize) {
//!         self.0[i] = !self.0[i];
//!     }
//!     fn randomize(&mut self, rng: &mut Rng) {
//!         self.0.iter_mut().for_each(|b| *b = rng.random());
//!     }
//!     fn snapshot(&self) -> Vec<bool> {
//!         self.0.clone()
//!     }
//! }
//!
//! let mut config = RunConfig::new(Schedule::Geometric { alpha: 0.999 }, 2.0);
//! config.budget.target = Some(0.0);
//! config.budget.max_steps = Some(1_000_000);
//! let mut runner = Runner::new(Bits(vec![true; 32]), config, 7);
//! assert_eq!(runner.run(|_sample| true), StopReason::Target);
//! let (best, energy) = runner.best();
//! assert_eq!(energy, 0.0);
//! assert!(best.iter().all(|&b| !b));
//! ```

#![deny(missing_docs)]

pub mod anneal;
pub mod files;
pub mod input;
pub mod messages;
pub mod named;
pub mod problems;

pub use named::Named;
