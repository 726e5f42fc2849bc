//! Sudoku, 4x4 to 25x25: parsing, propagation, an exact checker and the annealing models.

mod args;
pub mod board;
mod built_in;
mod headless;
mod model;
pub mod picture;
mod prepare;
mod presets;
pub mod race;
mod spec;

use std::io::Write;

pub use kiln_core::problems::sudoku::*;

pub use args::{FORMATS, GaArgs, SudokuArgs};
pub use headless::{
    Report, output_file, puzzle_trace, selected_puzzles, solve, unsolved_is_failure,
};
pub use model::Model;
pub use prepare::{
    DEFAULT_PAIRS, DEFAULT_TIME_LIMIT, Prepared, default_focus, default_threads, defaults,
};
pub use presets::{
    PRESETS, Plan, Preset, Solver, SudokuSearch, list_presets, plan, solver, watched_solver,
};
pub use spec::{Ga, SudokuModel, SudokuSpec};

/// Runs without a terminal: one JSON object per line on `out`, a summary on `log`.
pub fn headless(
    spec: &SudokuSpec,
    out: &mut crate::headless::report::Lines,
    log: &mut dyn Write,
) -> color_eyre::Result<()> {
    headless::run(spec, out, log)
}
