//! What a search may spend and where it may stop early: one type for every search (the
//! annealing runner, the genetic algorithm, chains side by side).

use std::time::{Duration, Instant};

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
    /// Stop at this moment on the wall clock, whatever the search has spent: a headless
    /// run's time limit counts from its start, setup included, and searches built one
    /// after another (chains, populations) all end on time.
    pub deadline: Option<Instant>,
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
        } else if self.time_limit.is_some_and(|t| elapsed >= t) || self.past_deadline() {
            Some(StopReason::TimeLimit)
        } else {
            None
        }
    }

    /// Whether the wall clock has passed the deadline (never, without one): what a long
    /// setup looks at between its parts.
    pub fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Moves the deadline (if any) `by` later: see [`postpone`].
    pub fn postpone(&mut self, by: Duration) {
        postpone(&mut self.deadline, by);
    }
}

/// Moves `deadline` (if any) `by` later: the time a live run sat idle (paused, or waiting
/// for its pace) is not time spent searching, so a deadline, like a time limit, does not
/// count it.
pub fn postpone(deadline: &mut Option<Instant>, by: Duration) {
    if let Some(d) = deadline {
        *d = d.checked_add(by).unwrap_or(*d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deadline_ends_the_budget_whatever_was_spent() {
        let passed = Budget {
            deadline: Some(Instant::now()),
            ..Budget::default()
        };
        assert!(passed.past_deadline());
        assert_eq!(passed.spent(0, Duration::ZERO), Some(StopReason::TimeLimit));
        let ahead = Budget {
            deadline: Instant::now().checked_add(Duration::from_secs(3600)),
            ..Budget::default()
        };
        assert!(!ahead.past_deadline());
        assert_eq!(ahead.spent(0, Duration::ZERO), None);
    }
}
