//! A Sudoku run as the command line asked for it (`SudokuArgs::spec`).

use std::path::PathBuf;

use super::Preset;
use crate::headless::spec::Spec;

/// A Sudoku run: the puzzles, the preset and its overrides.
pub type SudokuSpec = Spec<SudokuModel>;

/// The puzzles and how they are solved; `None` takes the preset's or the size's default.
#[derive(Debug, Clone, Default)]
pub struct SudokuModel {
    /// A puzzle file; without one, the embedded puzzle.
    pub file: Option<PathBuf>,
    /// Only puzzle N of the file (1-based).
    pub index: Option<usize>,
    /// `--no-propagate`: anneal the grid as given, with no cells filled by deduction.
    pub no_propagate: bool,
    /// `--focus`: the share of moves aimed at conflicting cells.
    pub focus: Option<f64>,
    /// `--pairs`: the share of paired swaps.
    pub pairs: Option<f64>,
    /// Chains side by side.
    pub threads: Option<u64>,
    /// The preset named (`--preset`); kiln's own runs without one.
    pub named: Option<Preset>,
    /// The genetic algorithm's settings.
    pub ga: Ga,
}

/// The genetic algorithm's settings (`--preset ga`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ga {
    /// `--population`: candidates per generation.
    pub population: Option<u64>,
    /// `--elites`: the share kept unchanged each generation.
    pub elites: Option<f64>,
    /// `--mutation`: the starting mutation rate.
    pub mutation: Option<f64>,
}

impl SudokuModel {
    /// The preset that runs: the one named, or kiln's own.
    pub fn preset(&self) -> Preset {
        self.named.unwrap_or(Preset::Kiln)
    }
}
