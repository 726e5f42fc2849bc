//! Sudoku, 4x4 to 25x25: parsing, propagation, an exact checker and the annealing model.

mod anneal;
mod args;
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

#[cfg(test)]
pub use anneal::swapped_4x4;
pub use anneal::{CellKind, Exchange, SudokuAnneal, SudokuSnapshot};
pub use args::{GaArgs, SudokuArgs};
pub use cell_linear::{CellLinear, SetCell};
pub use check::{first_clash, is_valid_solution, line_conflicts};
pub use deduce::{Deduced, deduce};
pub use exact::{Solutions, count_solutions, node_limit};
pub use ga::{GaConfig, Genetic, MAX_RATE, MIN_RATE, line_cost};
pub use grid::{Geometry, Puzzle, line_of, symbol, value_of};
pub use headless::{
    Report, output_file, puzzle_trace, selected_puzzles, solve, unsolved_is_failure,
};
pub use parse::{DEFAULT_SOURCE, default_puzzle, parse_puzzles, read_puzzles};
pub use prepare::{
    DEFAULT_PAIRS, DEFAULT_TIME_LIMIT, Prepared, default_focus, default_threads, defaults,
};
pub use presets::{Model, PRESETS, Plan, Preset, Solver, SudokuSearch, list_presets, plan, solver};
pub use propagate::{Contradiction, propagate};

/// Runs without a terminal: one JSON object per line on `out`, a summary on `log`.
pub fn headless(
    args: &SudokuArgs,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> color_eyre::Result<()> {
    headless::run(args, out, log)
}
