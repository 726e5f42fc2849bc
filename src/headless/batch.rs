//! Batches: the puzzles of a file and the seeds of `--seeds` run on a pool of `--jobs`
//! threads, printed in input order; `--shard K/N` picks one machine's share of them.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;

use clap::Args;

use crate::anneal::interrupt;
use crate::cli::anneal_args::AnnealArgs;
use crate::cli::ranges::{self, Seeds, Shard, whole};
use crate::headless::progress::BatchProgress;
use crate::input::InputError;
use crate::messages::count;

/// The runs share nothing, but were written for the main thread's 8 MiB stack.
const STACK_SIZE: usize = 8 << 20;

/// Flags of every command that can run a batch.
#[derive(Args, Debug, Clone, Default, PartialEq)]
#[command(next_help_heading = "Batches")]
pub struct BatchArgs {
    /// Run the batch on this many threads; the output is the same for any number
    /// [default: one per core, fewer when each run uses several chains].
    #[arg(long, value_name = "N", value_parser = whole(ranges::JOBS))]
    pub jobs: Option<usize>,
    /// Run only items K, K+N, K+2N, ... of the batch (K counts from 1), to spread a batch
    /// over machines; lines keep their puzzle's line number in `source`.
    #[arg(long, value_name = "K/N", value_parser = ranges::shard)]
    pub shard: Option<Shard>,
    /// Repeat the run for each seed: a range A..B (both included) or a list like 1,5,9.
    #[arg(long, value_name = "SEEDS", value_parser = ranges::seeds, conflicts_with = "seed")]
    pub seeds: Option<Seeds>,
}

impl BatchArgs {
    /// The seeds to run: `--seeds`, or the one `--seed`.
    pub fn seeds(&self, anneal: &AnnealArgs) -> Vec<u64> {
        self.seeds
            .as_ref()
            .map_or_else(|| vec![anneal.seed], |seeds| seeds.0.clone())
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

/// One run's stdout and stderr, held until the runs before it are printed.
struct Captured {
    out: Vec<u8>,
    log: Vec<u8>,
    result: color_eyre::Result<()>,
}

/// Runs `run` once for each seed of `batch` (on `--jobs` threads, printing each run's
/// output and log in seed order), or just once with `args` when there is no `--seeds`.
/// `anneal` finds the seed and trace flags in `args`; with several seeds each run's trace
/// is named by its seed.
pub fn per_seed<A: Clone + Sync>(
    args: &A,
    batch: &BatchArgs,
    anneal: fn(&mut A) -> &mut AnnealArgs,
    run: impl Fn(&A, &mut dyn Write, &mut dyn Write) -> color_eyre::Result<()> + Sync,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> color_eyre::Result<()> {
    if batch.seeds.is_none() && batch.shard.is_none() {
        return run(args, out, log);
    }
    let mut own = args.clone();
    let all_seeds = batch.seeds(anneal(&mut own));
    let given = all_seeds.len();
    let several = given > 1;
    let seeds = batch.select(all_seeds, || match &batch.seeds {
        Some(_) => format!("--seeds gives {}", count(given, "seed", "seeds")),
        None => "without --seeds there is one run".to_string(),
    })?;
    let seeded = |&seed: &u64| {
        let mut args = args.clone();
        let flags = anneal(&mut args);
        *flags = flags.for_seed(seed, several);
        let (mut out, mut log) = (Vec::new(), Vec::new());
        let result = run(&args, &mut out, &mut log);
        Ok(Captured { out, log, result })
    };
    let print = |captured: Captured| {
        out.write_all(&captured.out)?;
        out.flush()?;
        // As `say` does: a failed write to stderr is no reason to stop.
        let _ = log.write_all(&captured.log);
        captured.result
    };
    run_in_order(&seeds, batch.jobs(1), seeded, print)
}
