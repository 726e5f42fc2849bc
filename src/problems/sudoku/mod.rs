//! Sudoku, 4x4 to 25x25: parsing, propagation, an exact checker and the annealing model.

mod anneal;
mod cell_linear;
mod check;
mod deduce;
mod exact;
mod fill;
mod focus;
mod ga;
mod grid;
mod headless;
mod parse;
mod prepare;
mod presets;
mod propagate;
mod tempering;
mod weighting;

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use crate::anneal_args::AnnealArgs;
use crate::batch::BatchArgs;
use crate::cli::ranges::{self, real, whole};
use crate::input::InputError;

#[cfg(test)]
pub use anneal::swapped_4x4;
pub use anneal::{CellKind, SudokuAnneal, SudokuSnapshot, Swap};
pub use cell_linear::{CellLinear, SetCell};
pub use check::{first_clash, is_valid_solution, line_conflicts};
pub use deduce::{Deduced, deduce};
pub use exact::{Solutions, count_solutions, node_limit};
pub use ga::{GaConfig, Genetic, MAX_RATE, MIN_RATE, line_cost};
pub use grid::{Geometry, Puzzle, line_of, symbol, value_of};
pub use headless::{Report, puzzle_trace, selected_puzzles, solve, unsolved_is_failure};
pub use parse::{DEFAULT_SOURCE, default_puzzle, parse_puzzles, read_puzzles};
pub use prepare::{DEFAULT_TIME_LIMIT, Prepared, default_focus, default_threads, defaults};
pub use presets::{GaArgs, Model, PRESETS, Plan, Preset, Solver, SudokuSearch, plan, solver};
pub use propagate::{Contradiction, propagate};
pub use tempering::{Tempering, TemperingConfig, ladder};
pub use weighting::{Breakout, Weighted, WeightingConfig};

#[derive(Args, Debug, Clone)]
pub struct SudokuArgs {
    /// Puzzle file: one puzzle per line, or grids of numbers (default: an embedded puzzle).
    pub file: Option<PathBuf>,
    /// Solve only puzzle N of the file (1-based).
    #[arg(long, value_name = "N", value_parser = whole(ranges::INDEX))]
    pub index: Option<usize>,
    /// Do not fix the cells naked and hidden singles force before annealing.
    #[arg(long)]
    pub no_propagate: bool,
    /// Fraction of moves that start at a cell whose value repeats in its row or column
    /// (default: per size, see `default_focus`).
    #[arg(long, value_name = "P", value_parser = real(ranges::FOCUS))]
    pub focus: Option<f64>,
    /// Headless: run this many independent chains on as many threads, the first to solve
    /// wins (default 2 for 25x25, else 1). The seed decides every chain.
    #[arg(long, value_name = "N", value_parser = whole(ranges::CHAINS))]
    pub threads: Option<u64>,
    #[command(flatten)]
    pub tempering: TemperingArgs,
    #[command(flatten)]
    pub weighting: WeightingArgs,
    #[command(flatten)]
    pub anneal: AnnealArgs,
    #[command(flatten)]
    pub batch: BatchArgs,
    /// Run a named preset (`kiln presets` lists them); other flags override its values.
    #[arg(long, value_name = "NAME")]
    pub preset: Option<Preset>,
    #[command(flatten)]
    pub ga: GaArgs,
}

/// Parallel tempering instead of one annealing chain.
#[derive(Args, Debug, Clone, Default, PartialEq)]
pub struct TemperingArgs {
    /// Parallel tempering with this many replicas (default 1: one annealing chain, with
    /// restarts). The coldest replica runs at --t0; --stall and --on-stall do not apply.
    #[arg(long, value_name = "K", value_parser = whole(ranges::CHAINS))]
    pub replicas: Option<u64>,
    /// Hottest temperature of the tempering ladder (default 0.5).
    #[arg(long, value_name = "T", value_parser = real(ranges::TEMPERATURE), requires = "replicas")]
    pub t_hot: Option<f64>,
}

/// Constraint weighting instead of plain annealing.
#[derive(Args, Debug, Clone, Default, PartialEq)]
pub struct WeightingArgs {
    /// Constraint weighting: a value missing from a line gains weight while the search
    /// stays stuck, and the chain anneals the summed weights (--t0 is its temperature,
    /// --stall restarts it with fresh weights).
    #[arg(long, conflicts_with = "replicas")]
    pub weighting: bool,
    /// Steps without a new low of the weighted energy before the violated constraints gain
    /// weight (default 2000).
    #[arg(long, value_name = "STEPS", value_parser = whole(ranges::STEPS), requires = "weighting")]
    pub weight_window: Option<u64>,
    /// Every this many raises all weights drop by one towards 1 (0: never; default 3).
    #[arg(long, value_name = "RAISES", value_parser = whole(ranges::WEIGHT_DECAY), requires = "weighting")]
    pub weight_decay: Option<u64>,
}

/// The schedule flags, which searches that hold their own temperatures ignore.
const COOLING: [&str; 4] = ["--schedule", "--t-min", "--alpha", "--k"];
/// The flags the GA ignores: it has no temperature, and restarts after `--stall`
/// generations without progress.
const NOT_GA: [&str; 8] = [
    "--schedule",
    "--t0",
    "--t-min",
    "--alpha",
    "--k",
    "--auto-acceptance",
    "--on-stall",
    "--reheat-t",
];

impl SudokuArgs {
    /// What clap cannot check: flags that the search these flags ask for would ignore.
    pub fn check(&self) -> Result<(), InputError> {
        self.anneal.check()?;
        self.ga
            .check(self.preset == Some(Preset::Ga), "--preset ga")?;
        let refuse = |flag: &str, why: &str| Err(InputError::flags(format!("{flag} {why}")));
        let unused = |ignored: &[&str]| self.anneal.given().find(|f| ignored.contains(f));
        if let Some(preset) = self.preset {
            let own = [
                ("--focus", self.focus.is_some()),
                ("--threads", self.threads.is_some()),
                ("--replicas", self.tempering.replicas.is_some()),
                ("--weighting", self.weighting.weighting),
            ];
            if let Some(flag) = crate::cli::first_given(&own) {
                return refuse(
                    flag,
                    &format!("does not apply to --preset {preset}, which runs its own search"),
                );
            }
            if let (Preset::Ga, Some(flag)) = (preset, unused(&NOT_GA)) {
                return refuse(flag, "does not apply to --preset ga, which does not anneal");
            }
        }
        if self.tempering.replicas.is_some_and(|k| k > 1)
            && let Some(flag) = unused(&[&COOLING[..], &["--stall", "--on-stall"]].concat())
        {
            return refuse(
                flag,
                "does not apply to parallel tempering (--replicas), whose replicas keep \
                 their temperatures",
            );
        }
        if self.weighting.weighting
            && let Some(flag) = unused(&COOLING)
        {
            return refuse(
                flag,
                "does not apply to --weighting, which anneals at the one temperature --t0",
            );
        }
        Ok(())
    }
}

/// Runs without a terminal: one JSON object per line on `out`, a summary on `log`.
pub fn headless(
    args: &SudokuArgs,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> color_eyre::Result<()> {
    if let Some(preset) = args.preset {
        if args.batch != BatchArgs::default() {
            return Err(InputError::new(
                "--preset",
                "--jobs, --shard and --seeds apply to runs without a preset",
            )
            .into());
        }
        return crate::race::headless_preset(preset, args, out, log);
    }
    headless::run(args, out, log)
}
