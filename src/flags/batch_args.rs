//! The flags of every command that can run a batch.

use clap::Args;

use crate::flags::ranges::{self, Seeds, whole};
use crate::headless::batch::{Batch, Shard};

/// The flags that make a run a batch.
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
    /// The batch the flags ask for.
    pub fn batch(&self) -> Batch {
        Batch {
            seeds: self.seeds.as_ref().map(|s| s.0.clone()),
            shard: self.shard,
            jobs: self.jobs,
        }
    }
}
