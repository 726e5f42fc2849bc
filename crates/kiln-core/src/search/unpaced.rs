//! A search that runs at full speed on a thread of its own for as long as it is driven,
//! whatever pace its driver keeps: a helper that has nothing to watch step by step
//! (conflict learning) beside a chain the live view shows at a watchable pace. A driver
//! that stops calling `step_batch` (a paused view) stops it within `LEASE`.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use super::{Explained, PhaseWork, Sample, Search, StopReason};

/// How long after the last `step_batch` the helper goes on.
const LEASE: Duration = Duration::from_millis(100);
/// Steps the helper takes between looks at its lease and at those waiting for it.
const SLICE: u64 = 1 << 12;

/// What the driver and the helper's thread share.
struct Shared<S> {
    search: Mutex<S>,
    /// The helper runs until this moment.
    until: Mutex<Instant>,
    woken: Condvar,
    quit: AtomicBool,
    /// Steps the helper took that `step_batch` has not reported yet.
    unreported: AtomicU64,
    /// Callers waiting for the search: the helper lets them in between slices.
    waiting: AtomicUsize,
}

impl<S> Shared<S> {
    fn search(&self) -> MutexGuard<'_, S> {
        self.waiting.fetch_add(1, Ordering::AcqRel);
        let guard = self.search.lock().unwrap_or_else(|e| e.into_inner());
        self.waiting.fetch_sub(1, Ordering::AcqRel);
        guard
    }
}

/// `S` stepped flat out on its own thread while driven (see the module's notes).
pub struct Unpaced<S: Search> {
    shared: Arc<Shared<S>>,
    thread: Option<JoinHandle<()>>,
}

impl<S: Search> Unpaced<S> {
    /// Runs `search` on a thread of its own, from the first `step_batch` on.
    pub fn new(search: S) -> Self {
        let shared = Arc::new(Shared {
            search: Mutex::new(search),
            until: Mutex::new(Instant::now()),
            woken: Condvar::new(),
            quit: AtomicBool::new(false),
            unreported: AtomicU64::new(0),
            waiting: AtomicUsize::new(0),
        });
        let helper = Arc::clone(&shared);
        let thread = thread::Builder::new()
            .name("kiln-helper".to_string())
            .spawn(move || run(&helper))
            .expect("the OS refused to start a helper thread");
        Unpaced {
            shared,
            thread: Some(thread),
        }
    }
}

/// The helper's loop: slices while the lease runs and the search has not stopped.
fn run<S: Search>(shared: &Shared<S>) {
    loop {
        {
            let mut until = shared.until.lock().unwrap_or_else(|e| e.into_inner());
            while !shared.quit.load(Ordering::Acquire) && Instant::now() >= *until {
                until = (shared.woken)
                    .wait_timeout(until, LEASE)
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
            }
        }
        if shared.quit.load(Ordering::Acquire) {
            return;
        }
        while shared.waiting.load(Ordering::Acquire) > 0 {
            thread::yield_now();
        }
        let mut search = shared.search.lock().unwrap_or_else(|e| e.into_inner());
        if search.stopped().is_some() {
            // Nothing to do until a restart revives it or the driver goes.
            drop(search);
            thread::sleep(LEASE / 4);
            continue;
        }
        let done = search.step_batch(SLICE);
        shared.unreported.fetch_add(done, Ordering::AcqRel);
    }
}

impl<S: Search> Search for Unpaced<S> {
    type Snapshot = S::Snapshot;

    /// Extends the helper's lease; returns the steps it took since the last call, however
    /// many `n` asked for.
    fn step_batch(&mut self, _n: u64) -> u64 {
        let done = self.shared.unreported.swap(0, Ordering::AcqRel);
        *self.shared.until.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now() + LEASE;
        self.shared.woken.notify_one();
        done
    }

    fn step_explained(&mut self) -> Option<Explained> {
        self.step_batch(1);
        None
    }

    fn sample(&mut self) -> Sample {
        self.shared.search().sample()
    }

    fn stopped(&self) -> Option<StopReason> {
        self.shared.search().stopped()
    }

    fn snapshot(&self) -> S::Snapshot {
        self.shared.search().snapshot()
    }

    fn best_snapshot(&mut self) -> S::Snapshot {
        self.shared.search().best_snapshot()
    }

    fn reheat(&mut self, temperature: f64) {
        self.shared.search().reheat(temperature);
    }

    fn restart(&mut self) {
        self.shared.search().restart();
    }

    fn waited(&mut self, idle: Duration) {
        self.shared.search().waited(idle);
    }

    fn generations(&self) -> Option<u64> {
        self.shared.search().generations()
    }

    fn winner(&self) -> Option<usize> {
        self.shared.search().winner()
    }

    fn threads(&self) -> usize {
        self.shared.search().threads()
    }

    fn phases(&mut self) -> Vec<PhaseWork> {
        self.shared.search().phases()
    }
}

impl<S: Search> Drop for Unpaced<S> {
    fn drop(&mut self) {
        self.shared.quit.store(true, Ordering::Release);
        self.shared.woken.notify_one();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anneal::toy::Bits;
    use crate::anneal::{RunConfig, Runner, Schedule};

    fn hot() -> Runner<Bits> {
        Runner::new(Bits::ones(64), RunConfig::new(Schedule::Constant, 5.0), 1)
    }

    #[test]
    fn runs_flat_out_while_driven_and_stops_when_the_driver_does() {
        let mut helper = Unpaced::new(hot());
        assert_eq!(helper.sample().iteration, 0, "nothing before it is driven");
        // Driven with one step a tick for 0.2 s, it takes far more than those 10.
        let mut reported = 0;
        for _ in 0..10 {
            reported += helper.step_batch(1);
            thread::sleep(Duration::from_millis(20));
        }
        let driven = helper.sample().iteration;
        assert!(driven > 10 * SLICE, "{driven} steps");
        // Left alone, it stops within its lease.
        thread::sleep(LEASE * 2);
        let idle = helper.sample().iteration;
        thread::sleep(LEASE * 2);
        assert_eq!(helper.sample().iteration, idle);
        reported += helper.step_batch(0);
        assert_eq!(reported, idle, "every step it took is reported once");
    }

    #[test]
    fn a_helper_that_reaches_its_target_says_so() {
        let mut config = RunConfig::new(Schedule::Constant, 0.0);
        config.budget.target = Some(0.0);
        let mut helper = Unpaced::new(Runner::new(Bits::ones(64), config, 1));
        let deadline = Instant::now() + Duration::from_secs(10);
        while helper.stopped().is_none() {
            assert!(Instant::now() < deadline, "never reached the target");
            helper.step_batch(1);
            thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(helper.stopped(), Some(StopReason::Target));
    }
}
