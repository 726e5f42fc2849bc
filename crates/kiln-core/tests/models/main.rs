//! The engine's model tests: every model's move deltas equal the full recomputation (the
//! contract `anneal::Problem` promises), parsers fed good and bad input, and what each
//! search does. One crate, one link; paths are from this crate's folder, as `cargo test`
//! runs it.

mod delta;
mod explained;
mod image_coarse;
mod image_delta;
mod sudoku_model;
mod sudoku_parse;
mod sudoku_searches;
mod tsp_moves;
mod tsp_parser;
