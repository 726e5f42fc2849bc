//! Sudoku, 4x4 to 25x25: parsing, propagation, an exact checker and the annealing models
//! (box swaps, cell-linear and a genetic algorithm).

pub mod anneal;
pub mod cell_linear;
pub mod check;
pub mod deduce;
pub mod exact;
pub mod fill;
pub mod focus;
pub mod ga;
pub mod grid;
pub mod learn;
pub mod parse;
pub mod partial;
pub mod propagate;

#[doc(hidden)]
pub use anneal::swapped_4x4;
pub use anneal::{CellKind, Exchange, SudokuAnneal, SudokuSnapshot};
pub use cell_linear::{CellLinear, SetCell};
pub use check::{first_clash, is_valid_solution, line_conflicts};
pub use deduce::{Deduced, deduce};
pub use exact::{Solutions, count_solutions, node_limit};
pub use ga::{GaConfig, Genetic, MAX_RATE, MIN_RATE, line_cost};
pub use grid::{Geometry, Puzzle, line_of, symbol, value_of};
pub use learn::Learner;
pub use parse::{DEFAULT_SOURCE, default_puzzle, parse_puzzles, read_puzzles};
pub use partial::{PartialFill, Place};
pub use propagate::{Contradiction, propagate};
