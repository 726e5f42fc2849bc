//! The problems kiln anneals, each with its model, parsers and moves.

pub mod image;
pub mod registry;
pub mod spec;
pub mod sudoku;
pub mod tsp;

pub use registry::{BuiltIn, ProblemCommand, RaceProblem, Shared, Words};
