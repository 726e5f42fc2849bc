//! One board per problem: how its snapshot is drawn and how its puzzles are started.

pub mod image;
pub mod sudoku;
pub mod tsp;

pub use kiln_tui::TraceSlot;
