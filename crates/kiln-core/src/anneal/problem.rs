//! The contract between the generic annealer and a concrete problem.

use rand::SeedableRng;

use crate::search::{Rng, Sketch};

/// `problem` in a fresh random state drawn from `seed` (its [`Problem::randomize`]): what
/// a run made from a seed usually starts from, e.g. the instance a live view's maker
/// returns for each run.
pub fn randomized<P: Problem>(mut problem: P, seed: u64) -> P {
    problem.randomize(&mut Rng::seed_from_u64(seed));
    problem
}

/// A state that can be annealed.
///
/// The runner calls `propose`, then `delta`, and `apply` only when it accepts, so `propose`
/// and `delta` must not change the state. `delta` must equal `energy()` after the move
/// minus `energy()` before it; every problem has a property test that checks exactly that.
///
/// A problem whose moves cannot be looked at before they are made (a Python annealer's
/// `move()` changes its state and at most says by how much) sets
/// [`Problem::MOVES_IN_PROPOSE`]: its `propose` makes the move, through interior
/// mutability, `delta` says what it changed, and the runner keeps it with `apply` or takes
/// it back with [`Problem::undo`].
///
/// # Example
///
/// Sorting a permutation: the energy counts the values out of place, a move swaps two
/// positions, and `delta` looks at those two alone. The loop at the end checks the
/// contract the way the property tests do.
///
/// ```
/// use kiln_core::anneal::Problem;
/// use kiln_core::search::Rng;
/// use rand::seq::SliceRandom;
/// use rand::{RngExt, SeedableRng};
///
/// struct Sort(Vec<usize>);
///
/// impl Problem for Sort {
///     type Move = (usize, usize);
///     type Snapshot = Vec<usize>;
///
///     fn energy(&self) -> f64 {
///         self.0.iter().enumerate().filter(|&(at, &v)| at != v).count() as f64
///     }
///     fn propose(&self, rng: &mut Rng) -> (usize, usize) {
///         let n = self.0.len();
///         (rng.random_range(0..n), rng.random_range(0..n))
///     }
///     fn delta(&self, &(i, j): &(usize, usize)) -> f64 {
///         let wrong = |at: usize, v: usize| f64::from(at != v);
///         let (a, b) = (self.0[i], self.0[j]);
///         wrong(i, b) + wrong(j, a) - wrong(i, a) - wrong(j, b)
///     }
///     fn apply(&mut self, &(i, j): &(usize, usize)) {
///         self.0.swap(i, j);
///     }
///     fn randomize(&mut self, rng: &mut Rng) {
///         self.0.shuffle(rng);
///     }
///     fn snapshot(&self) -> Vec<usize> {
///         self.0.clone()
///     }
/// }
///
/// let mut rng = Rng::seed_from_u64(1);
/// let mut sort = Sort(vec![3, 1, 4, 0, 2]);
/// for _ in 0..100 {
///     let before = (sort.snapshot(), sort.energy());
///     let mv = sort.propose(&mut rng);
///     let delta = sort.delta(&mv);
///     assert_eq!((sort.snapshot(), sort.energy()), before, "propose and delta only look");
///     sort.apply(&mv);
///     assert_eq!(sort.energy(), before.1 + delta, "delta is the change apply makes");
/// }
/// ```
pub trait Problem {
    /// A move: small and `Copy`, so the hot loop never allocates.
    type Move: Copy;
    /// What leaves the annealer: the board for the UI and the best state for the report.
    type Snapshot: Clone + Send + 'static;

    /// Whether `propose` makes the move it draws, to be kept by `apply` or taken back by
    /// `undo` (see the trait's docs). The runner then keeps a copy of a new best state
    /// before it proposes from it, not when an uphill move leaves it.
    const MOVES_IN_PROPOSE: bool = false;

    /// Full energy, recomputed from scratch (for checks and resynchronisation).
    fn energy(&self) -> f64;
    /// Draws a random move from the current state.
    fn propose(&self, rng: &mut Rng) -> Self::Move;
    /// Energy change `mv` would cause, computed locally.
    fn delta(&self, mv: &Self::Move) -> f64;
    /// Carries out `mv`.
    fn apply(&mut self, mv: &Self::Move);
    /// Takes back the move `propose` made, which the runner rejected; only called when
    /// [`Problem::MOVES_IN_PROPOSE`] holds.
    fn undo(&self, _mv: &Self::Move) {}
    /// Replaces the state by a fresh random one (a restart).
    fn randomize(&mut self, rng: &mut Rng);
    /// A copy of the state for the UI or the final report.
    fn snapshot(&self) -> Self::Snapshot;
    /// Copies the state into an existing snapshot; override to reuse its buffers.
    fn snapshot_into(&self, into: &mut Self::Snapshot) {
        *into = self.snapshot();
    }
    /// A step every delta is a whole multiple of (1 for counts, 0.25 for energies in
    /// quarters), so the runner can read acceptance probabilities from a table.
    fn delta_quantum(&self) -> f64 {
        1.0
    }
    /// Rough cost of one snapshot in bytes, so the runner can bound how often it copies.
    fn snapshot_cost(&self) -> usize {
        64
    }
    /// `mv` as a board marks it and a line names it, drawn in the state it was proposed
    /// in; `None` (the default) shows the decision alone. Called only for steps the UI
    /// explains, never in the hot loop.
    fn sketch(&self, _mv: &Self::Move) -> Option<Sketch> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anneal::toy::Bits;

    #[test]
    fn randomized_draws_the_state_from_its_seed_alone() {
        let bits = |seed| randomized(Bits::ones(64), seed).bits;
        let mut by_hand = Bits::ones(64);
        by_hand.randomize(&mut Rng::seed_from_u64(7));
        assert_eq!(bits(7), by_hand.bits);
        assert_ne!(bits(7), bits(8));
    }
}
