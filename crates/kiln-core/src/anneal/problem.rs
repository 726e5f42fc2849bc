//! The contract between the generic annealer and a concrete problem.

/// The one random generator kiln uses: seeded, fast, and the same on every platform.
pub type Rng = rand::rngs::Xoshiro256PlusPlus;

/// The seed of the `k`-th of several runs drawn from one `--seed` (independent chains,
/// rounds): the seed itself for the first, so a single run is the plain run.
pub fn nth_seed(seed: u64, k: usize) -> u64 {
    seed.wrapping_add((k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// A state that can be annealed.
///
/// The runner calls `propose`, then `delta`, and `apply` only when it accepts, so `propose`
/// and `delta` must not change the state. `delta` must equal `energy()` after the move
/// minus `energy()` before it; every problem has a property test that checks exactly that.
pub trait Problem {
    /// A move: small and `Copy`, so the hot loop never allocates.
    type Move: Copy;
    /// What leaves the annealer: the board for the UI and the best state for the report.
    type Snapshot: Clone + Send + 'static;

    /// Full energy, recomputed from scratch (for checks and resynchronisation).
    fn energy(&self) -> f64;
    /// Draws a random move from the current state.
    fn propose(&self, rng: &mut Rng) -> Self::Move;
    /// Energy change `mv` would cause, computed locally.
    fn delta(&self, mv: &Self::Move) -> f64;
    /// Carries out `mv`.
    fn apply(&mut self, mv: &Self::Move);
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
}
