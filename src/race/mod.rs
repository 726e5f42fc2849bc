//! Races: several runs side by side, live (`screen`) or headless, ranked the same way.
//! The planner that reads `kiln race PROBLEM ARGS...` is the command line's
//! (`cli::race_plan`); each problem's pane comes from its slice.

mod headless;
pub mod lineup;
pub mod screen;
pub mod standings;

pub use headless::headless_lineup;
pub use lineup::{Entrant, Lineup, PaneMaker};

/// Race mode runs this many solvers at most (one pane each in the TUI).
pub const MAX_RACERS: usize = 4;
