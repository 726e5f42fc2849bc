//! The counters every search keeps for its telemetry, so that all of them sample alike.

use std::time::Duration;

use super::{Control, Phase, Sample};

/// Restarts, reheats and time over the whole run; proposals and acceptances since the
/// previous sample.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Tally {
    /// Moves accepted since the previous sample.
    pub(crate) accepted: u64,
    /// Moves proposed since the previous sample.
    pub(crate) proposed: u64,
    /// Restarts since the run began.
    pub(crate) restarts: u64,
    /// Reheats since the run began.
    pub(crate) reheats: u64,
    /// Time spent searching (pauses excluded).
    pub(crate) elapsed: Duration,
}

impl Tally {
    /// Where the search stands, with the acceptance rate since the previous sample (0 when
    /// nothing was proposed); the next sample counts from here.
    pub(crate) fn sample(
        &mut self,
        iteration: u64,
        phase: Phase,
        control: Control,
        energy: f64,
        best_energy: f64,
    ) -> Sample {
        let acceptance = if self.proposed == 0 {
            0.0
        } else {
            self.accepted as f64 / self.proposed as f64
        };
        self.accepted = 0;
        self.proposed = 0;
        Sample {
            phase,
            iteration,
            control,
            energy,
            best_energy,
            acceptance,
            restarts: self.restarts,
            reheats: self.reheats,
            elapsed: self.elapsed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acceptance_covers_only_the_proposals_since_the_previous_sample() {
        let mut tally = Tally {
            accepted: 3,
            proposed: 12,
            restarts: 2,
            reheats: 1,
            elapsed: Duration::from_millis(5),
        };
        let first = tally.sample(12, Phase::Anneal, Control::Temperature(0.5), 4.0, 3.0);
        assert_eq!(first.acceptance, 0.25);
        assert_eq!((first.iteration, first.restarts, first.reheats), (12, 2, 1));
        assert_eq!((first.energy, first.best_energy), (4.0, 3.0));
        assert_eq!(
            tally
                .sample(12, Phase::Anneal, Control::Temperature(0.5), 4.0, 3.0)
                .acceptance,
            0.0
        );
        tally.proposed = 10;
        tally.accepted = 10;
        let third = tally.sample(22, Phase::Anneal, Control::Temperature(0.4), 3.0, 3.0);
        assert_eq!(third.acceptance, 1.0);
        assert_eq!(third.restarts, 2, "run totals are never reset");
    }
}
