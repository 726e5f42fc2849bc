//! What the worker thread can drive: the annealing `Runner`, or another search such as the
//! genetic algorithm of race mode, as long as it steps in batches and reports samples.

use super::{Explained, Problem, Runner, Sample, StopReason};

/// A search the worker thread can run, pause, reheat and show: stepped in batches, with
/// telemetry between them.
pub trait Search: Send + 'static {
    /// What leaves the search: the board for the UI and the best state for the report.
    type Snapshot: Clone + Send + 'static;

    /// Runs up to `n` steps (proposals, or evaluations for a population); returns how many.
    fn step_batch(&mut self, n: u64) -> u64;
    /// Takes one step, as `step_batch(1)` would, and explains it; `None` for a search
    /// that cannot (a population's step is no single move) or has stopped.
    fn step_explained(&mut self) -> Option<Explained> {
        self.step_batch(1);
        None
    }
    /// Telemetry since the previous sample.
    fn sample(&mut self) -> Sample;
    /// Why the search has ended, if it has.
    fn stopped(&self) -> Option<StopReason>;
    /// The current state.
    fn snapshot(&self) -> Self::Snapshot;
    /// The best state found so far.
    fn best_snapshot(&mut self) -> Self::Snapshot;
    /// Raises the temperature (or its equivalent) to `temperature`.
    fn reheat(&mut self, temperature: f64);
    /// Starts again from a fresh random state.
    fn restart(&mut self);
    /// Generations so far, for searches that have them (a genetic algorithm).
    fn generations(&self) -> Option<u64> {
        None
    }
    /// Of several chains, the one that reached the target (`None` for a single search).
    fn winner(&self) -> Option<usize> {
        None
    }
}

/// A boxed search is a search, so solvers of different kinds can share one type (race mode).
impl<S: Clone + Send + 'static> Search for Box<dyn Search<Snapshot = S>> {
    type Snapshot = S;

    fn step_batch(&mut self, n: u64) -> u64 {
        (**self).step_batch(n)
    }
    fn step_explained(&mut self) -> Option<Explained> {
        (**self).step_explained()
    }
    fn sample(&mut self) -> Sample {
        (**self).sample()
    }
    fn stopped(&self) -> Option<StopReason> {
        (**self).stopped()
    }
    fn snapshot(&self) -> S {
        (**self).snapshot()
    }
    fn best_snapshot(&mut self) -> S {
        (**self).best_snapshot()
    }
    fn reheat(&mut self, temperature: f64) {
        (**self).reheat(temperature)
    }
    fn restart(&mut self) {
        (**self).restart()
    }
    fn generations(&self) -> Option<u64> {
        (**self).generations()
    }
    fn winner(&self) -> Option<usize> {
        (**self).winner()
    }
}

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
}
