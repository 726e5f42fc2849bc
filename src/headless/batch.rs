//! Batches: the puzzles of a file and the seeds of `--seeds` run on a pool of `--jobs`
//! threads, printed in input order; `--shard K/N` picks one machine's share of them.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;

use crate::headless::progress::BatchProgress;
use crate::input::InputError;
use crate::messages::count;
use crate::search::interrupt;

/// The runs share nothing, but were written for the main thread's 8 MiB stack.
const STACK_SIZE: usize = 8 << 20;

/// `--shard K/N`: part K (1-based) of N, the items K, K+N, K+2N, ... of a batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 1-based, at most `count`.
    pub part: usize,
    /// How many shards the batch is cut into.
    pub count: usize,
}

impl Shard {
    /// Whether the item at 0-based `index` of the batch belongs to this shard.
    pub fn selects(&self, index: usize) -> bool {
        index % self.count == self.part - 1
    }
}

/// The runs of a batch: the seeds of `--seeds`, this machine's `--shard` of them and the
/// threads (`--jobs`) they run on.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Batch {
    /// `--seeds`; without it, the run's own seed.
    pub seeds: Option<Vec<u64>>,
    /// `--shard`: the part of the seeds this machine runs.
    pub shard: Option<Shard>,
    /// `--jobs`: threads the runs share.
    pub jobs: Option<usize>,
}

impl Batch {
    /// The seeds to run: `--seeds`, or the one `seed` of the run.
    pub fn seeds(&self, seed: u64) -> Vec<u64> {
        self.seeds.clone().unwrap_or_else(|| vec![seed])
    }

    /// Whether the batch runs several seeds (each run's trace is then named by its seed).
    pub fn several_seeds(&self) -> bool {
        self.seeds.as_ref().is_some_and(|seeds| seeds.len() > 1)
    }

    /// This shard's share of the seeds, when the batch is of seeds alone.
    pub fn selected_seeds(&self, seed: u64) -> Result<Vec<u64>, InputError> {
        let given = self.seeds(seed).len();
        self.select(self.seeds(seed), || match &self.seeds {
            Some(_) => format!("--seeds gives {}", count(given, "seed", "seeds")),
            None => "without --seeds there is one run".to_string(),
        })
    }

    /// This shard's share of `items` (all of them without `--shard`), in order. A shard
    /// past the end of the batch is refused rather than run as nothing: `what` says what
    /// the batch holds, as in "FILE holds 20 puzzles".
    pub fn select<T>(
        &self,
        items: Vec<T>,
        what: impl Fn() -> String,
    ) -> Result<Vec<T>, InputError> {
        let Some(shard) = self.shard else {
            return Ok(items);
        };
        let selected: Vec<T> = items
            .into_iter()
            .enumerate()
            .filter_map(|(i, item)| shard.selects(i).then_some(item))
            .collect();
        if selected.is_empty() {
            return Err(InputError::new(
                format!("--shard {}/{}", shard.part, shard.count),
                format!("{}, so this shard is empty", what()),
            ));
        }
        Ok(selected)
    }

    /// Threads for the batch: `--jobs`, or as many as the cores can keep busy when each run
    /// uses `threads_per_run` of them.
    pub fn jobs(&self, threads_per_run: usize) -> usize {
        self.jobs.unwrap_or_else(|| {
            let cores = thread::available_parallelism().map_or(1, |n| n.get());
            (cores / threads_per_run.max(1)).max(1)
        })
    }
}

/// Runs `work` on each of `items` on `jobs` threads and hands the results to `emit` in
/// item order, each as soon as it and all before it are done (with the batch's progress
/// line out of the way). An interrupt, a failed `work` or a failed `emit` stops new items
/// from starting; the first failure in item order is returned once the items under way
/// have finished.
pub fn run_in_order<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    work: impl Fn(&T) -> color_eyre::Result<R> + Sync,
    mut emit: impl FnMut(R) -> color_eyre::Result<()>,
) -> color_eyre::Result<()> {
    // Items are taken in order, so the ones started are always a prefix: none is missing
    // when the batch stops early.
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let progress = BatchProgress::start(items.len());
    let (sender, receiver) = mpsc::channel();
    thread::scope(|scope| {
        for _ in 0..jobs.min(items.len()) {
            let (sender, next, failed, work) = (sender.clone(), &next, &failed, &work);
            let worker = move || {
                while !failed.load(Ordering::Relaxed) && interrupt::requested().is_none() {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(index) else { break };
                    if sender.send((index, work(item))).is_err() {
                        break;
                    }
                }
            };
            thread::Builder::new()
                .name("kiln-job".into())
                .stack_size(STACK_SIZE)
                .spawn_scoped(scope, worker)?;
        }
        drop(sender);
        let mut waiting = BTreeMap::new();
        let mut printed = 0;
        let mut failure = None;
        for (index, result) in receiver {
            waiting.insert(index, result);
            while let Some(result) = waiting.remove(&printed) {
                printed += 1;
                progress.done();
                if failure.is_none()
                    && let Err(error) = result.and_then(|r| progress.suspend(|| emit(r)))
                {
                    failed.store(true, Ordering::Relaxed);
                    failure = Some(error);
                }
            }
        }
        failure.map_or(Ok(()), Err)
    })
}
