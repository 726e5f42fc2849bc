//! One board per problem: how its snapshot is drawn and how its puzzles are started.

pub mod image;
pub mod sudoku;
pub mod tsp;

use std::sync::Mutex;

use crate::anneal::{RunConfig, Trace};
use crate::cli::anneal_args::AnnealArgs;
use crate::input::InputError;

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

/// The `--trace` file of a live view: created before the screen changes, so that an
/// existing file is refused before anything runs, and written by the first run the view
/// starts. Runs started after it (`n`, `p`, a restart) are not traced.
#[derive(Default)]
pub struct TraceSlot(Mutex<Option<Trace>>);

impl TraceSlot {
    /// The trace `args` ask for (none without `--trace`).
    pub fn open(args: &AnnealArgs) -> Result<Self, InputError> {
        Ok(TraceSlot::of(args.open_trace(None)?))
    }

    pub fn of(trace: Trace) -> Self {
        TraceSlot(Mutex::new(Some(trace)))
    }

    /// The trace for a run starting now: the file the first time, nothing after.
    pub fn take(&self) -> Trace {
        let mut slot = self.0.lock().unwrap_or_else(|e| e.into_inner());
        slot.take().unwrap_or_else(Trace::off)
    }
}
