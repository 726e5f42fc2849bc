//! kiln: simulated annealing, live in your terminal. The engine and the problems' models
//! are the `kiln-core` crate (re-exported here as `anneal`, `search`, `input`, `messages`
//! and the models under `problems`); this crate adds the command line, headless runs, the
//! live view, races, pictures and the SSH server.

#![deny(missing_docs)]

/// The command line, read once at the edge into specs.
pub mod cli;
/// Pictures of boards and figures of traces.
pub mod export;
/// The flags problems share, their ranges and value parsers.
pub mod flags;
/// Runs without a terminal: batches, JSON lines, output files.
pub mod headless;
/// `kiln plot`: figures of `--trace` files.
pub mod plot;
/// The built-in problems, one slice each, and the registry that lists them.
pub mod problems;
/// Races: several runs side by side, live or headless.
pub mod race;
/// `kiln serve`: the live view over SSH.
pub mod serve;

pub use kiln_core::{Named, anneal, input, messages, search};
