//! One board per problem: how its snapshot is drawn and how its puzzles are started.

pub mod sudoku;
