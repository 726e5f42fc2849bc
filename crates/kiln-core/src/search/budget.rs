//! What a search may spend and where it may stop early: one type for every search (the
//! annealing runner, the genetic algorithm, chains side by side).

use std::time::Duration;

use super::StopReason;

/// Energies closer than this are equal (they are sums of f64 deltas).
pub(crate) const EPS: f64 = 1e-9;

/// A step budget, a time budget and a target energy; any may be absent.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Budget {
    /// Stop after this many steps (proposals, or evaluations for a population).
    pub max_steps: Option<u64>,
    /// Stop after this much time spent searching.
    pub time_limit: Option<Duration>,
    /// Stop as soon as the energy is at or below this (0 for Sudoku).
    pub target: Option<f64>,
}

impl Budget {
    /// Which budget `steps` and `elapsed` have used up, if any (a signal counts first):
    /// every search stops the same way.
    pub fn spent(&self, steps: u64, elapsed: Duration) -> Option<StopReason> {
        if super::interrupt::requested().is_some() {
            Some(StopReason::Interrupted)
        } else if self.max_steps.is_some_and(|m| steps >= m) {
            Some(StopReason::MaxSteps)
        } else if self.time_limit.is_some_and(|t| elapsed >= t) {
            Some(StopReason::TimeLimit)
        } else {
            None
        }
    }
}
