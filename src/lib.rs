//! kiln: simulated annealing, live in your terminal. The engine and the problems' models
//! are the `kiln-core` crate (re-exported here as `anneal`, `search`, `input`, `messages`
//! and the models under `problems`); this crate adds the command line, headless runs, the
//! live view, races, pictures and the SSH server.

pub mod cli;
pub mod export;
pub mod flags;
pub mod headless;
pub mod plot;
pub mod problems;
pub mod race;
pub mod serve;

pub use kiln_core::{Named, anneal, input, messages, search};
