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
pub use presets::{
    GaArgs, Model, PRESETS, Plan, Preset, Solver, SudokuSearch, list_presets, plan, solver,
};
pub use propagate::{Contradiction, propagate};

#[derive(Args, Debug, Clone)]
pub struct SudokuArgs {
    /// Puzzle file: one puzzle per line, or grids of numbers [default: an embedded puzzle].
    #[arg(help_heading = "Input")]
    pub file: Option<PathBuf>,
    /// Solve only puzzle N of the file (1-based).
    #[arg(long, value_name = "N", value_parser = whole(ranges::INDEX), help_heading = "Input")]
    pub index: Option<usize>,
    /// Do not fix the cells naked and hidden singles force before annealing.
    #[arg(long, help_heading = "Sudoku model")]
    pub no_propagate: bool,
    /// Fraction of moves that start at a cell whose value repeats in its row or column
    /// [default: 0.2 for 16x16, else 0.5; 0 for the classroom presets].
    #[arg(long, value_name = "P", value_parser = real(ranges::FOCUS), help_heading = "Sudoku model")]
    pub focus: Option<f64>,
    /// Run this many independent chains on as many threads, the first to solve wins; the
    /// seed decides every chain [default: 2 for 25x25 with kiln's own annealer, else 1].
    #[arg(long, value_name = "N", value_parser = whole(ranges::CHAINS), help_heading = "Sudoku model")]
    pub threads: Option<u64>,
    #[command(flatten)]
    pub anneal: AnnealArgs,
    #[command(flatten)]
    pub batch: BatchArgs,
    /// Run a named preset (`kiln presets` lists them); other flags override its values
    /// [default: kiln].
    #[arg(long, value_name = "NAME", help_heading = "Sudoku model")]
    pub preset: Option<Preset>,
    #[command(flatten)]
    pub ga: GaArgs,
}

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
    /// The preset that runs: the one named, or kiln's own.
    pub fn preset(&self) -> Preset {
        self.preset.unwrap_or(Preset::Kiln)
    }

    /// What clap cannot check: flags that the preset asked for would ignore.
    pub fn check(&self) -> Result<(), InputError> {
        self.anneal.check()?;
        self.ga.check(self.preset() == Preset::Ga, "--preset ga")?;
        if self.focus.is_some() && self.preset().model() != Model::BoxSwap {
            return Err(InputError::flags(format!(
                "--focus applies only to box-swap annealing, not --preset {}",
                self.preset()
            )));
        }
        if self.preset() == Preset::Ga
            && let Some(flag) = self.anneal.given().find(|f| NOT_GA.contains(f))
        {
            return Err(InputError::flags(format!(
                "{flag} does not apply to --preset ga, which does not anneal"
            )));
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
    headless::run(args, out, log)
}
