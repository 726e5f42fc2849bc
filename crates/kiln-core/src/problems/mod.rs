//! The problems kiln anneals, each with its model, parsers and moves.

pub mod image;
pub mod sudoku;
pub mod tsp;
