//! The annealing runner as a [`Search`], so the worker, chains side by side and traces run
//! it like any other search.

use std::time::Duration;

use super::{Problem, Runner};
use crate::search::{Explained, Sample, Search, StopReason};

impl<P: Problem + Send + 'static> Search for Runner<P> {
    type Snapshot = P::Snapshot;

    fn step_batch(&mut self, n: u64) -> u64 {
        Runner::step_batch(self, n)
    }
    fn step_explained(&mut self) -> Option<Explained> {
        Runner::step_explained(self)
    }
    fn sample(&mut self) -> Sample {
        Runner::sample(self)
    }
    fn stopped(&self) -> Option<StopReason> {
        Runner::stopped(self)
    }
    fn snapshot(&self) -> P::Snapshot {
        self.problem().snapshot()
    }
    fn best_snapshot(&mut self) -> P::Snapshot {
        self.best().0.clone()
    }
    fn reheat(&mut self, temperature: f64) {
        Runner::reheat(self, temperature)
    }
    fn restart(&mut self) {
        Runner::restart(self)
    }
    fn waited(&mut self, idle: Duration) {
        Runner::postpone(self, idle)
    }
}
