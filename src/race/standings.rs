//! How racers are ranked, live and headless alike, for every problem: one order, one
//! winner rule. The places are what the screen, the JSON ranking lines and the summaries
//! print; only how a margin is shown differs between them.

use std::cmp::Ordering;

use serde::Serialize;

use crate::headless::json::Seconds;
use crate::search::Finished;

/// What a race is won by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standings {
    /// Reaching the target (a solved Sudoku) first: only those that did are placed live,
    /// and the winner is the first of them.
    FirstSolved,
    /// The lowest energy: everyone is placed, by the best energy reached so far.
    BestEnergy,
}

/// Where one racer stands: live, so far; headless, at its end.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Standing {
    /// Whether it reached the target.
    pub solved: bool,
    /// Its best energy; none before its first sample, or for a puzzle with no solution.
    pub energy: Option<f64>,
    /// How long it ran, or took to reach the target.
    pub seconds: f64,
}

impl From<&Finished> for Standing {
    /// Where a finished run ends up: by its target, its energy and its time.
    fn from(run: &Finished) -> Standing {
        Standing {
            solved: run.is_solved(),
            energy: run.energy.map(|e| e.value()),
            seconds: run.seconds,
        }
    }
}

/// Ahead first: those that reached the target (by time), then the lowest energy, then
/// the least time; no energy last.
fn ahead(a: &Standing, b: &Standing) -> Ordering {
    let energy = |s: &Standing| s.energy.unwrap_or(f64::INFINITY);
    b.solved
        .cmp(&a.solved)
        .then_with(|| match a.solved && b.solved {
            true => Ordering::Equal,
            false => energy(a).total_cmp(&energy(b)),
        })
        .then_with(|| a.seconds.total_cmp(&b.seconds))
}

/// The racers' indices, first place first.
pub fn order(racers: &[Standing]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..racers.len()).collect();
    order.sort_by(|&a, &b| ahead(&racers[a], &racers[b]));
    order
}

/// Who won, and by how much, from the racers in finishing order.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Verdict {
    /// The winner's index in the finishing order (0) when it is ahead of the second;
    /// none on a tie, or when nobody reached a target the race is won by.
    #[serde(skip)]
    pub winner: Option<usize>,
    /// How far ahead.
    #[serde(flatten)]
    pub margin: Margin,
}

/// How far the winner finished ahead, in what the race is won by.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub enum Margin {
    /// The seconds between the first two, when both reached the target.
    #[serde(rename = "margin_seconds")]
    Seconds(Option<Seconds>),
    /// The second's energy less the first's.
    #[serde(rename = "margin_energy")]
    Energy(f64),
}

impl Standings {
    /// The verdict on `placed`, the racers in finishing order.
    pub fn verdict(self, placed: &[Standing]) -> Verdict {
        let (winner, margin) = match self {
            Standings::FirstSolved => {
                // In whole microseconds, as seconds are printed: the lead is the
                // difference one reads.
                let micros = |seconds: f64| (seconds * 1e6).round() as i64;
                match *placed {
                    [a, b, ..] if a.solved && b.solved => {
                        let lead = micros(b.seconds) - micros(a.seconds);
                        (lead > 0, Margin::Seconds(Some(Seconds(lead as f64 / 1e6))))
                    }
                    [a, ..] => (a.solved, Margin::Seconds(None)),
                    [] => (false, Margin::Seconds(None)),
                }
            }
            Standings::BestEnergy => {
                let energy = |s: &Standing| s.energy.unwrap_or(f64::INFINITY);
                match *placed {
                    [a, b, ..] => {
                        let lead = energy(&b) - energy(&a);
                        (lead > 0.0, Margin::Energy(lead))
                    }
                    _ => (!placed.is_empty(), Margin::Energy(0.0)),
                }
            }
        };
        Verdict {
            winner: winner.then_some(0),
            margin,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(solved: bool, energy: Option<f64>, seconds: f64) -> Standing {
        Standing {
            solved,
            energy,
            seconds,
        }
    }

    #[test]
    fn the_solved_come_first_by_time_then_the_lowest_energy_then_no_energy() {
        let racers = [
            at(false, Some(3.0), 1.0),
            at(true, Some(0.0), 2.0),
            at(false, None, 0.5),
            at(true, Some(0.0), 1.5),
            at(false, Some(3.0), 0.5),
        ];
        assert_eq!(order(&racers), [3, 1, 4, 0, 2]);
    }

    #[test]
    fn a_sudoku_race_is_won_by_a_microsecond_and_tied_within_one() {
        let (a, b) = (at(true, Some(0.0), 1.0), at(true, Some(0.0), 1.000_002));
        let won = Standings::FirstSolved.verdict(&[a, b]);
        assert_eq!(won.winner, Some(0));
        assert_eq!(won.margin, Margin::Seconds(Some(Seconds(0.000_002))));
        let tied = Standings::FirstSolved.verdict(&[a, at(true, Some(0.0), 1.000_000_4)]);
        assert_eq!(tied.winner, None);
        let alone = Standings::FirstSolved.verdict(&[a, at(false, Some(2.0), 0.5)]);
        assert_eq!(
            alone,
            Verdict {
                winner: Some(0),
                margin: Margin::Seconds(None)
            }
        );
        let nobody = Standings::FirstSolved.verdict(&[at(false, Some(2.0), 0.5)]);
        assert_eq!(nobody.winner, None);
    }

    #[test]
    fn an_energy_race_is_won_by_a_lower_energy_and_tied_at_the_same() {
        let (a, b) = (at(false, Some(7542.0), 1.0), at(false, Some(8010.0), 0.5));
        let placed: Vec<Standing> = order(&[b, a]).into_iter().map(|i| [b, a][i]).collect();
        assert_eq!(
            Standings::BestEnergy.verdict(&placed),
            Verdict {
                winner: Some(0),
                margin: Margin::Energy(468.0)
            }
        );
        assert_eq!(Standings::BestEnergy.verdict(&[a, a]).winner, None);
    }
}
