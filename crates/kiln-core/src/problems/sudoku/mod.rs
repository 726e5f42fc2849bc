//! Sudoku, 4x4 to 25x25: parsing, propagation, an exact checker, the annealed models (box
//! swaps, partial fill, cell values) and the searches that do not anneal (conflict learning
//! in `cdcl`, the genetic algorithm in `ga`). All of them show a `SudokuSnapshot`.

pub mod box_swaps;
pub mod cdcl;
pub mod cell_values;
pub mod check;
pub mod deduce;
pub mod exact;
pub mod fill;
pub mod focus;
pub mod ga;
pub mod grid;
pub mod parse;
pub mod partial_fill;
pub mod propagate;
pub mod snapshot;

pub use box_swaps::{BoxSwaps, Exchange};
pub use cdcl::ConflictLearning;
pub use cell_values::{CellValues, SetCell};
pub use check::{first_clash, is_valid_solution, line_conflicts};
pub use deduce::{Deduced, deduce};
pub use exact::{Solutions, count_solutions, node_limit};
pub use ga::{GaConfig, Genetic, MAX_RATE, MIN_RATE, line_cost};
pub use grid::{Geometry, Puzzle, line_of, symbol, value_of};
pub use parse::{DEFAULT_SOURCE, default_puzzle, parse_puzzles, read_puzzles};
pub use partial_fill::{PartialFill, Place};
pub use propagate::{Contradiction, propagate};
pub use snapshot::{CellKind, SudokuSnapshot};
#[doc(hidden)]
pub use snapshot::{learned_4x4, swapped_4x4};
