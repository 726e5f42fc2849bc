//! One step told as a lesson: the move proposed, its energy change, and the Metropolis
//! decision on it, with the numbers the runner used. The hot loop never builds any of
//! this; a runner asked to explain a step takes that one step by the same code and
//! reports what it did (see `Runner::step_explained`).

use std::collections::VecDeque;

/// The Metropolis rule applied to one proposal, with the runner's own numbers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decision {
    /// The energy change the move would make (after minus before).
    pub delta: f64,
    /// The temperature it was judged at.
    pub temperature: f64,
    /// The probability of taking it: 1 for a move that does not raise the energy,
    /// `exp(-delta / temperature)` for one that does.
    pub p: f64,
    /// The uniform draw in [0, 1) compared with `p`; `None` when no draw was needed (a
    /// move that does not raise the energy is always taken, and one so far uphill that
    /// `p` is below 1e-17 never is).
    pub u: Option<f64>,
    /// Whether the move was taken: `u < p` (or `p` is 1).
    pub accepted: bool,
    /// The energy before the move.
    pub energy: f64,
}

impl Decision {
    /// The decision on a move of `delta` at `temperature` from `energy`, given what the
    /// runner drew (`u`) and decided; `p` is worked out here, so a move the runner
    /// rejected without drawing (far uphill) still shows its probability.
    pub(crate) fn new(
        delta: f64,
        temperature: f64,
        energy: f64,
        u: Option<f64>,
        accepted: bool,
    ) -> Self {
        let p = if delta <= 0.0 {
            1.0
        } else {
            (-delta / temperature).exp()
        };
        Decision {
            delta,
            temperature,
            p,
            u,
            accepted,
            energy,
        }
    }

    /// Whether the move would raise the energy.
    pub fn uphill(&self) -> bool {
        self.delta > 0.0
    }
}

/// A move as a board marks it and a line names it, in the problem's own places: cells of a
/// grid (row by row), cities of a tour (0-based) or pixels of an image (row by row).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Sketch {
    /// The move in a few words, e.g. "swap r3c4 <-> r3c6".
    pub words: String,
    /// The places the move changes.
    pub places: Vec<u32>,
    /// Links between places the move takes away (a tour's edges), as pairs of places.
    pub removed: Vec<(u32, u32)>,
    /// Links it puts in.
    pub added: Vec<(u32, u32)>,
}

/// One step, explained: the move (if the problem can sketch it) and the decision.
#[derive(Debug, Clone, PartialEq)]
pub struct Explained {
    /// The move, drawn in the state it was proposed in.
    pub sketch: Option<Sketch>,
    /// The Metropolis decision on it.
    pub decision: Decision,
}

/// How many of the latest decisions the acceptance is measured over.
pub const RECENT: usize = 4096;
/// Width of a bucket of uphill moves, in temperatures (dE / T).
pub const BUCKET_WIDTH: f64 = 0.5;
/// Buckets of uphill moves: dE / T from 0 to 6 in halves, the last taking all above.
pub const BUCKETS: usize = 12;

/// The latest decisions, kept to compare the acceptance measured with the rule's.
#[derive(Debug, Clone, Default)]
pub struct Acceptance {
    /// (dE / T, p, taken) of the latest decisions, oldest first.
    recent: VecDeque<(f32, f32, bool)>,
}

impl Acceptance {
    /// Counts `decision` among the latest, forgetting the oldest beyond [`RECENT`].
    pub fn record(&mut self, decision: &Decision) {
        if self.recent.len() == RECENT {
            self.recent.pop_front();
        }
        let x = if decision.uphill() {
            decision.delta / decision.temperature
        } else {
            0.0
        };
        self.recent
            .push_back((x as f32, decision.p as f32, decision.accepted));
    }

    /// Forgets everything (a restart: a new run's moves).
    pub fn clear(&mut self) {
        self.recent.clear();
    }

    /// What the latest decisions add up to.
    pub fn measured(&self) -> Measured {
        let mut m = Measured::default();
        for &(x, p, taken) in &self.recent {
            m.proposals += 1;
            if x <= 0.0 {
                continue;
            }
            m.uphill += 1;
            m.uphill_taken += u32::from(taken);
            let k = ((f64::from(x) / BUCKET_WIDTH) as usize).min(BUCKETS - 1);
            let bucket = &mut m.buckets[k];
            bucket.proposed += 1;
            bucket.taken += u32::from(taken);
            bucket.x_sum += f64::from(x);
            bucket.p_sum += f64::from(p);
        }
        m
    }
}

/// Uphill moves whose dE / T fell in one bucket.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Bucket {
    /// Moves proposed.
    pub proposed: u32,
    /// Moves taken.
    pub taken: u32,
    /// Sum of their dE / T.
    pub x_sum: f64,
    /// Sum of the probabilities the rule gave them.
    pub p_sum: f64,
}

impl Bucket {
    /// The share taken, if any were proposed.
    pub fn measured(&self) -> Option<f64> {
        (self.proposed > 0).then(|| f64::from(self.taken) / f64::from(self.proposed))
    }
    /// The share the rule expects: the mean of their probabilities.
    pub fn expected(&self) -> Option<f64> {
        (self.proposed > 0).then(|| self.p_sum / f64::from(self.proposed))
    }
    /// Their mean dE / T.
    pub fn mean_x(&self) -> Option<f64> {
        (self.proposed > 0).then(|| self.x_sum / f64::from(self.proposed))
    }
}

/// The acceptance of the latest decisions, per bucket of dE / T.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Measured {
    /// Decisions counted (uphill or not).
    pub proposals: u32,
    /// Of those, moves that would raise the energy.
    pub uphill: u32,
    /// Uphill moves taken.
    pub uphill_taken: u32,
    /// Uphill moves by dE / T (see [`BUCKET_WIDTH`]).
    pub buckets: [Bucket; BUCKETS],
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decision(delta: f64, accepted: bool) -> Decision {
        Decision::new(delta, 2.0, 10.0, None, accepted)
    }

    #[test]
    fn downhill_is_certain_and_uphill_follows_the_rule() {
        assert_eq!(decision(-3.0, true).p, 1.0);
        assert_eq!(decision(0.0, true).p, 1.0);
        assert_eq!(decision(2.0, false).p, (-1f64).exp());
    }

    #[test]
    fn buckets_count_uphill_moves_by_their_delta_over_t() {
        let mut acceptance = Acceptance::default();
        for _ in 0..3 {
            acceptance.record(&decision(-1.0, true));
        }
        // dE / T = 1.1 twice (one taken), 7 once (never in the last bucket's range but
        // counted there).
        acceptance.record(&decision(2.2, true));
        acceptance.record(&decision(2.2, false));
        acceptance.record(&decision(14.0, false));
        let m = acceptance.measured();
        assert_eq!((m.proposals, m.uphill, m.uphill_taken), (6, 3, 1));
        assert_eq!(m.buckets[2].proposed, 2);
        assert_eq!(m.buckets[2].measured(), Some(0.5));
        assert!((m.buckets[2].mean_x().unwrap() - 1.1).abs() < 1e-6);
        assert!((m.buckets[2].expected().unwrap() - (-1.1f64).exp()).abs() < 1e-6);
        assert_eq!(m.buckets[BUCKETS - 1].proposed, 1);
        assert_eq!(m.buckets[0].measured(), None);
    }

    #[test]
    fn only_the_latest_decisions_count() {
        let mut acceptance = Acceptance::default();
        acceptance.record(&decision(1.0, true));
        for _ in 0..RECENT {
            acceptance.record(&decision(-1.0, true));
        }
        assert_eq!(acceptance.measured().uphill, 0);
        assert_eq!(acceptance.measured().proposals, RECENT as u32);
    }
}
