//! One board per problem: how its snapshot is drawn and how its puzzles are started.

pub mod image;
pub mod sudoku;
pub mod tsp;

use crate::anneal::RunConfig;
use crate::anneal_args::AnnealArgs;

/// A live run cools over steps, not seconds: where the user gave no budget, the problem's
/// default time budget becomes the steps it would take at `rate` steps/s, so slowing the
/// view down slows the cooling with it and the same run unfolds at every speed.
pub fn step_budget(config: &mut RunConfig, args: &AnnealArgs, rate: f64) {
    if args.time_limit.is_none()
        && config.budget.max_steps.is_none()
        && let Some(limit) = config.budget.time_limit.take()
    {
        config.budget.max_steps = Some((limit.as_secs_f64() * rate) as u64);
    }
}
