//! A finished run as every front end shows it: the headless line, a race's ranking and the
//! live view's banner read the same value, so they say the same thing in the same words.

use serde::{Serialize, Serializer};

use super::StopReason;

/// Why a run ended: the headless `stop` field prints its key (docs/json.md), the live
/// view's banner its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stop {
    /// The energy target was reached: a Sudoku solved.
    Target,
    /// The known optimum was reached: nothing shorter exists, so the run ended early.
    Optimum,
    /// The step budget (`--max-steps`) was spent.
    Steps,
    /// The time limit was reached.
    Time,
    /// A signal (SIGINT, SIGTERM, SIGHUP) asked the run to stop.
    Interrupted,
    /// The caller stopped the run (an observer, or the viewer).
    Stopped,
    /// The exact check proved the puzzle has no solution before any search (nothing was
    /// annealed), or conflict learning proved it during the run.
    NoSolution,
}

impl From<StopReason> for Stop {
    fn from(reason: StopReason) -> Self {
        match reason {
            StopReason::Target => Stop::Target,
            StopReason::MaxSteps => Stop::Steps,
            StopReason::TimeLimit => Stop::Time,
            StopReason::Stopped => Stop::Stopped,
            StopReason::Interrupted => Stop::Interrupted,
            StopReason::Refuted => Stop::NoSolution,
        }
    }
}

impl Stop {
    /// Whether the run ended at what it was looking for (a target or the optimum).
    pub fn reached(self) -> bool {
        matches!(self, Stop::Target | Stop::Optimum)
    }

    /// The words a person reads for it.
    pub fn said(self) -> &'static str {
        match self {
            Stop::Target => "target reached",
            Stop::Optimum => "optimum reached",
            Stop::Steps => "step budget used up",
            Stop::Time => "time limit reached",
            Stop::Interrupted | Stop::Stopped => "stopped",
            Stop::NoSolution => "no solution",
        }
    }
}

/// An energy as the problem counts it: a Sudoku's missing values are a whole number, a
/// tour's length or an image's energy a real one. Printed as the problem's line prints it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Energy {
    /// A count.
    Whole(u64),
    /// A real number.
    Real(f64),
}

impl Energy {
    /// As a number to compare.
    pub fn value(self) -> f64 {
        match self {
            Energy::Whole(n) => n as f64,
            Energy::Real(x) => x,
        }
    }
}

impl Serialize for Energy {
    fn serialize<S: Serializer>(&self, out: S) -> Result<S::Ok, S::Error> {
        match *self {
            Energy::Whole(n) => out.serialize_u64(n),
            Energy::Real(x) => out.serialize_f64(x),
        }
    }
}

/// The measure a problem is judged by when it is not the energy (a tour's `length` where the
/// energy may be another cost), by the name its headless line gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Measure {
    /// Its field in the headless line.
    pub name: &'static str,
    /// Its value.
    pub value: u64,
}

/// How a finished run ended and what it reached.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Finished {
    /// Why it ended.
    pub stop: Stop,
    /// Whether it reached its target, for a problem whose runs have one to reach (a
    /// Sudoku's solution); none for one that only lowers an energy.
    pub solved: Option<bool>,
    /// The best energy; none when nothing was searched (a puzzle with no solution).
    pub energy: Option<Energy>,
    /// What the problem is judged by besides the energy, if anything.
    pub measure: Option<Measure>,
    /// Wall time of the run.
    pub seconds: f64,
    /// Steps (or evaluations) it took.
    pub iterations: u64,
}

impl Finished {
    /// Whether it reached its target.
    pub fn is_solved(&self) -> bool {
        self.solved == Some(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_has_its_key_and_its_words() {
        let printed = |stop: Stop| serde_json::to_string(&stop).unwrap();
        assert_eq!(printed(StopReason::MaxSteps.into()), "\"steps\"");
        assert_eq!(printed(StopReason::TimeLimit.into()), "\"time\"");
        assert_eq!(printed(StopReason::Refuted.into()), "\"no-solution\"");
        assert_eq!(
            Stop::from(StopReason::MaxSteps).said(),
            "step budget used up"
        );
        assert!(Stop::Optimum.reached() && !Stop::Time.reached());
    }

    #[test]
    fn an_energy_prints_as_its_problem_counts_it() {
        assert_eq!(serde_json::to_string(&Energy::Whole(3)).unwrap(), "3");
        assert_eq!(serde_json::to_string(&Energy::Real(3.0)).unwrap(), "3.0");
        assert_eq!(Energy::Whole(3).value(), Energy::Real(3.0).value());
    }
}
