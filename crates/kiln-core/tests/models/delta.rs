//! The property every `Problem` promises (see `anneal::Problem`): a move's delta equals the
//! change of the full energy. One walk checks it for any problem.

use kiln_core::anneal::{Problem, Rng};

/// Walks `problem` through `steps` moves from `rng`, applying each, and checks every delta
/// against the recomputed energy (and, at the end, that the deltas summed along the way
/// agree with it). `after(problem, move)` sees each move once it is applied, for a
/// problem's own invariants. `what` names the case in a failure.
pub(crate) fn walk<P: Problem>(
    problem: &mut P,
    rng: &mut Rng,
    steps: usize,
    what: &str,
    mut after: impl FnMut(&P, &P::Move),
) {
    let start = problem.energy();
    let mut energy = start;
    let mut summed = start;
    for step in 0..steps {
        let mv = problem.propose(rng);
        let delta = problem.delta(&mv);
        problem.apply(&mv);
        let now = problem.energy();
        assert!(
            (now - energy - delta).abs() <= 1e-9 * energy.abs().max(1.0),
            "{what}, step {step}: delta {delta} but the energy changed by {}",
            now - energy
        );
        after(problem, &mv);
        energy = now;
        summed += delta;
    }
    assert!(
        (summed - energy).abs() <= 1e-6 * energy.abs().max(1.0),
        "{what}: deltas sum to {} but the energy went {start} -> {energy}",
        summed - start
    );
}
