//! The problems kiln anneals, each with its model, parsers and moves.

pub mod demos;
pub mod image;
#[cfg(test)]
mod lesson_frames;
pub mod registry;
pub mod sudoku;
pub mod tsp;

pub use registry::{BuiltIn, ProblemCommand, RaceProblem, Shared, Words};
