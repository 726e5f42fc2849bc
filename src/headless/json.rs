//! What every headless JSON line shares (the contract is docs/json.md): its phases, and
//! times printed to the microsecond. Energies and counts are printed
//! as they are: only fields that depend on the clock are rounded, so the rest of a line is
//! the same on every machine for the same seed and `--max-steps`.

use serde::{Serialize, Serializer};

use crate::search::PhaseWork;

/// One phase of a run as a report's `phases` array lists it: what ran, on how many chains,
/// for how many steps and how long.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PhaseLine {
    /// `anneal`, `conflict-learning`, `genetic` or `polish`.
    pub phase: &'static str,
    /// Chains that ran it side by side.
    pub chains: usize,
    /// Its steps, all chains together.
    pub steps: u64,
    /// Its wall time.
    pub seconds: Seconds,
}

impl PhaseLine {
    /// The phases of a run, in the order they ran.
    pub fn all(works: &[PhaseWork]) -> Vec<PhaseLine> {
        (works.iter())
            .map(|w| PhaseLine {
                phase: w.phase.key(),
                chains: w.chains,
                steps: w.steps,
                seconds: Seconds(w.time.as_secs_f64()),
            })
            .collect()
    }
}

/// Seconds as printed: rounded to the microsecond, which is below what a run can measure
/// of itself and keeps the binary noise of a sum of durations (`0.13288001500000002`) out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Seconds(pub f64);

impl Serialize for Seconds {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // A whole number of microseconds divided once is the nearest double to the decimal,
        // which prints with no more digits than the decimal has.
        serializer.serialize_f64((self.0 * 1e6).round() / 1e6)
    }
}

/// `#[serde(serialize_with = "json::seconds")]` for a plain `f64` field of seconds.
pub fn seconds<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    Seconds(*value).serialize(serializer)
}

/// `#[serde(serialize_with = "json::per_second")]` for a rate measured against the clock:
/// whole steps per second (the fraction is noise of the clock).
pub fn per_second<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(value.round())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn printed<T: Serialize>(value: T) -> String {
        serde_json::to_string(&value).unwrap()
    }

    #[test]
    fn seconds_print_to_the_microsecond_without_noise() {
        assert_eq!(printed(Seconds(0.132_880_015_000_000_02)), "0.13288");
        assert_eq!(printed(Seconds(0.003_018_553_999_999_999_7)), "0.003019");
        assert_eq!(printed(Seconds(60.0)), "60.0");
        assert_eq!(printed(Seconds(1.763e-6)), "2e-6");
        assert_eq!(printed(Seconds(4e-7)), "0.0");
    }

    #[test]
    fn rates_print_whole() {
        #[derive(Serialize)]
        struct Rate(#[serde(serialize_with = "per_second")] f64);
        assert_eq!(printed(Rate(28_362_357.479_153_667)), "28362357.0");
    }
}
