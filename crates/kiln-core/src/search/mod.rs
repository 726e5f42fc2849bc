//! What any search is, whatever it does: stepped in batches, sampled between them, run
//! on a worker thread or as chains side by side, traced, and stopped by a budget. The
//! annealer (`crate::anneal`) is one search; conflict learning and the genetic algorithm
//! (`problems::sudoku::{cdcl, ga}`) and the image rounds are others. Each sample names
//! its [`Phase`] and its [`Control`] (a temperature, a mutation rate, or none), so no
//! search claims a temperature it does not have.

use std::time::Duration;

mod budget;
pub mod explain;
mod finished;
pub mod interrupt;
mod observer;
mod parallel;
pub(crate) mod tally;
mod telemetry;
pub mod trace;
mod unpaced;
pub mod worker;

pub(crate) use budget::EPS;
pub use budget::{Budget, postpone};
pub use explain::{Decision, Explained, Sketch};
pub use finished::{Energy, Finished, Measure, Stop};
pub use observer::{Observer, Unobserved};
pub use parallel::{BATCH as PARALLEL_BATCH, Parallel, Sharing};
pub use telemetry::{Bound, Control, Outcome, Phase, PhaseWork, Planned, Sample, StopReason};
pub use trace::{Trace, Traced, run_traced};
pub use unpaced::Unpaced;

/// The one random generator kiln uses: seeded, fast, and the same on every platform.
pub type Rng = rand::rngs::Xoshiro256PlusPlus;

/// The seed of the `k`-th of several runs drawn from one `--seed` (independent chains,
/// rounds): the seed itself for the first, so a single run is the plain run.
pub fn nth_seed(seed: u64, k: usize) -> u64 {
    seed.wrapping_add((k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

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
    /// Raises the temperature (a genetic algorithm: its mutation rate) to `temperature`. A
    /// search with no such number ignores it, which is the default.
    fn reheat(&mut self, _temperature: f64) {}
    /// Starts again from a fresh random state.
    fn restart(&mut self);
    /// The worker sat idle for `idle` (paused, or waiting for its pace): a search with a
    /// deadline on the wall clock moves it by as much, so that every phase counts only the
    /// time spent searching, as a time limit does. Nothing to move is the default.
    fn waited(&mut self, _idle: Duration) {}
    /// Generations so far, for searches that have them (a genetic algorithm).
    fn generations(&self) -> Option<u64> {
        None
    }
    /// Of several chains, the one that reached the target (`None` for a single search).
    fn winner(&self) -> Option<usize> {
        None
    }
    /// The threads a batch of steps computes on at once: one, unless chains run side by
    /// side (a server counts them against its cores).
    fn threads(&self) -> usize {
        1
    }
    /// What each phase of the run did so far, in the order the phases ran (for reports: it
    /// takes a sample, so a caller that also shows acceptance rates asks at the end). A
    /// search of one phase is all that phase, which is the default.
    fn phases(&mut self) -> Vec<PhaseWork> {
        vec![PhaseWork::of(&self.sample())]
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
    fn waited(&mut self, idle: Duration) {
        (**self).waited(idle)
    }
    fn generations(&self) -> Option<u64> {
        (**self).generations()
    }
    fn winner(&self) -> Option<usize> {
        (**self).winner()
    }
    fn threads(&self) -> usize {
        (**self).threads()
    }
    fn phases(&mut self) -> Vec<PhaseWork> {
        (**self).phases()
    }
}
