//! Races: several runs side by side, live (`screen`) or headless, ranked the same way.
//! The planner that reads `kiln race PROBLEM ARGS...` is the command line's
//! (`cli::race_plan`); each problem's pane comes from its slice.

mod headless;
pub mod lineup;
pub mod screen;

pub use headless::headless_lineup;
pub use lineup::{Entrant, Lineup, PaneMaker};

use crate::headless::json::Seconds;

/// Race mode runs this many solvers at most (one pane each in the TUI).
pub const MAX_RACERS: usize = 4;

/// A Sudoku race's winner and lead, from (name, solved, seconds) in finishing order: the
/// first place wins if it solved the puzzle and the second did not solve it as fast; its
/// lead is the seconds between them, when both solved.
pub(crate) fn first_solved<'a>(
    places: &[(&'a str, bool, f64)],
) -> (Option<&'a str>, Option<Seconds>) {
    // In whole microseconds, as seconds are printed: the lead is the difference one reads.
    let micros = |seconds: f64| (seconds * 1e6).round() as i64;
    match *places {
        [(first, true, a), (_, true, b), ..] => {
            let lead = micros(b) - micros(a);
            (
                (lead > 0).then_some(first),
                Some(Seconds(lead as f64 / 1e6)),
            )
        }
        [(first, true, _), ..] => (Some(first), None),
        _ => (None, None),
    }
}
