//! Every move's local delta equals the change of the fully recomputed energy, for both
//! costs, over many random instances and tours; applying a move keeps a permutation.

use std::sync::Arc;

use kiln_core::anneal::{Problem, Rng};
use kiln_core::problems::tsp::ils::{self, Budget, Descent, Halt};
use kiln_core::problems::tsp::tour::Run;
use kiln_core::problems::tsp::{Cost, Init, Instance, Layout, Move, MoveSet, TspProblem, random};
use rand::{RngExt, SeedableRng};

/// Applies `mv` and checks the delta and the tour; returns whether it changed anything.
fn check(p: &mut TspProblem, mv: Move) {
    let before = p.energy();
    let delta = p.delta(&mv);
    p.apply(&mv);
    let after = p.energy();
    assert_eq!(delta, after - before, "{mv:?} on n = {}", p.order().len());
    let mut seen = p.order().to_vec();
    seen.sort_unstable();
    assert!(
        seen.iter().enumerate().all(|(i, &c)| c == i as u32),
        "{mv:?}"
    );
}

/// A 2-opt problem on `instance` from a random tour (Euclidean cost, `k` candidates).
fn random_tour(instance: Instance, k: usize, rng: &mut Rng) -> TspProblem {
    TspProblem::new(
        Arc::new(instance),
        MoveSet::TwoOpt,
        Cost::Euclidean,
        k,
        Init::Random,
        rng,
    )
}

fn problems(seed: u64) -> impl Iterator<Item = (TspProblem, Rng)> {
    let mut rng = Rng::seed_from_u64(seed);
    (0..60).flat_map(move |round| {
        let n = 3 + round % 40;
        let layout = [Layout::Uniform, Layout::Normal, Layout::Clustered][round % 3];
        let instance = Arc::new(random::instance(n, layout, rng.random()));
        [Cost::Euclidean, Cost::Squared].map(|cost| {
            let mut r = Rng::seed_from_u64(rng.random());
            let k = 1 + round % 12;
            let p = TspProblem::new(
                instance.clone(),
                MoveSet::TwoOpt,
                cost,
                k,
                Init::Random,
                &mut r,
            );
            (p, r)
        })
    })
}

#[test]
fn two_opt_on_both_sides() {
    for (mut p, mut rng) in problems(1) {
        let n = p.order().len() as u32;
        for _ in 0..200 {
            let a = rng.random_range(0..n);
            let c = (a + rng.random_range(1..n)) % n;
            let mv = p.two_opt(a, c, rng.random());
            check(&mut p, mv);
            // `a` and `c` are now neighbours.
            let pa = p.order().iter().position(|&x| x == a).unwrap();
            let around = [
                p.order()[(pa + 1) % n as usize],
                p.order()[(pa + n as usize - 1) % n as usize],
            ];
            assert!(around.contains(&c));
        }
    }
}

#[test]
fn or_opt_runs_of_1_to_3_both_directions_both_sides() {
    let mut made = [0usize; 3];
    for (mut p, mut rng) in problems(2) {
        let n = p.order().len() as u32;
        for _ in 0..300 {
            let a = rng.random_range(0..n);
            let c = (a + rng.random_range(1..n)) % n;
            let len = rng.random_range(1..=3);
            if let Some(mv) = p.or_opt(a, c, len, rng.random(), rng.random()) {
                check(&mut p, mv);
                made[len as usize - 1] += 1;
            }
        }
    }
    assert!(made.iter().all(|&m| m > 1000), "{made:?}");
}

#[test]
fn swaps_adjacent_and_arbitrary() {
    for (mut p, mut rng) in problems(3) {
        let n = p.order().len() as u32;
        for _ in 0..200 {
            let i = rng.random_range(0..n);
            check(&mut p, Move::Swap { i, j: (i + 1) % n });
            let j = (i + rng.random_range(2..n.max(3))) % n;
            if j != i && (j + 1) % n != i {
                check(&mut p, Move::Swap { i, j });
            }
        }
    }
}

#[test]
fn proposals_of_every_move_set() {
    for moves in [MoveSet::TwoOpt, MoveSet::SwapAdjacent, MoveSet::Swap] {
        for n in [3usize, 4, 5, 17, 60] {
            let instance = Arc::new(random::instance(n, Layout::Clustered, n as u64));
            for cost in [Cost::Euclidean, Cost::Squared] {
                let mut rng = Rng::seed_from_u64(7);
                let mut p =
                    TspProblem::new(instance.clone(), moves, cost, 10, Init::Nearest, &mut rng);
                for _ in 0..2000 {
                    let mv = p.propose(&mut rng);
                    check(&mut p, mv);
                }
            }
        }
    }
}

/// The tour's edges, each as (smaller city, larger city), sorted.
fn edges(order: &[u32]) -> Vec<(u32, u32)> {
    let mut edges: Vec<(u32, u32)> = (0..order.len())
        .map(|i| {
            let (a, b) = (order[i], order[(i + 1) % order.len()]);
            (a.min(b), a.max(b))
        })
        .collect();
    edges.sort_unstable();
    edges
}

/// Every proposal changes the tour's edges (a 3-city tour has no other tour), whatever the
/// tour, the move set and the number of candidates, the few ones included where a city's
/// candidates may all be its tour neighbours.
#[test]
fn no_proposal_is_a_no_op() {
    for moves in [MoveSet::TwoOpt, MoveSet::SwapAdjacent, MoveSet::Swap] {
        for (round, n) in [4usize, 5, 6, 9, 17, 60, 200].into_iter().enumerate() {
            let layout = [Layout::Uniform, Layout::Clustered][round % 2];
            let instance = Arc::new(random::instance(n, layout, n as u64));
            for (k, init) in [
                (1, Init::Nearest),
                (2, Init::Nearest),
                (5, Init::Nearest),
                (5, Init::Random),
                (12, Init::Random),
            ] {
                let mut rng = Rng::seed_from_u64(k as u64);
                let mut p =
                    TspProblem::new(instance.clone(), moves, Cost::Euclidean, k, init, &mut rng);
                for _ in 0..3000 {
                    let mv = p.propose(&mut rng);
                    let before = edges(p.order());
                    p.apply(&mv);
                    assert_ne!(
                        before,
                        edges(p.order()),
                        "{moves:?} {mv:?} on n = {n}, k = {k}"
                    );
                }
            }
        }
    }
}

#[test]
fn duplicate_points_and_the_reported_length() {
    let text = "NODE_COORD_SECTION\n1 0 0\n2 0 0\n3 10 0\n4 10 0\n5 5 5\n6 0 0\n";
    let instance = Arc::new(kiln_core::problems::tsp::tsplib::parse(text, "d").unwrap());
    let mut rng = Rng::seed_from_u64(1);
    let mut p = TspProblem::new(
        instance,
        MoveSet::TwoOpt,
        Cost::Squared,
        3,
        Init::Random,
        &mut rng,
    );
    for _ in 0..500 {
        let mv = p.propose(&mut rng);
        check(&mut p, mv);
    }
    // Squared cost is minimised but the length is still the TSPLIB sum.
    let order = p.order().to_vec();
    assert_eq!(p.length(), p.instance().tour_length(&order));
}

#[test]
fn polish_reaches_a_local_optimum_and_never_lengthens() {
    let mut rng = Rng::seed_from_u64(5);
    let mut p = random_tour(random::instance(200, Layout::Uniform, 5), 8, &mut rng);
    let before = p.energy();
    let first = p.polish(None);
    assert!(first.moves > 0 && first.halt == Halt::LocalOptimum);
    assert!(p.energy() < before);
    assert_eq!(p.energy(), before + first.delta);
    // Don't-look bits re-examine only cities whose own edges changed, so a chain through
    // cities changed later may be left: a pass over every city finds next to nothing.
    let again = p.polish(None);
    assert!(
        again.halt == Halt::LocalOptimum && again.moves * 50 <= first.moves,
        "{first:?} {again:?}"
    );
    assert_eq!(p.polish(None).moves, 0);
    // No single move from any city is left.
    for a in 0..200 {
        let (best, _) = p.best_move_from(a);
        assert!(best.is_none_or(|(d, _)| d >= 0.0), "{a}: {best:?}");
    }
}

#[test]
fn polish_stops_at_its_deadline_short_of_a_local_optimum() {
    let mut rng = Rng::seed_from_u64(7);
    let mut p = random_tour(random::instance(5_000, Layout::Uniform, 7), 5, &mut rng);
    let before = p.energy();
    // A deadline already passed: a random tour of 5,000 cities is far from a local optimum.
    let cut = p.polish(Some(std::time::Instant::now()));
    assert!(cut.halt == Halt::Stopped, "{cut:?}");
    assert_eq!(p.energy(), before + cut.delta);
    let full = p.polish(None);
    assert!(
        full.halt == Halt::LocalOptimum && full.moves > 0,
        "{full:?}"
    );
}

#[test]
fn a_descent_in_pieces_ends_on_the_tour_of_one_run() {
    let mut rng = Rng::seed_from_u64(9);
    let mut whole = random_tour(random::instance(1_000, Layout::Clustered, 9), 5, &mut rng);
    let mut pieces = whole.clone();
    let one = whole.polish(None);
    let mut descent = Descent::new(1_000);
    descent.queue_all();
    let (mut paused, mut evaluations, mut delta) = (0, 0, 0.0);
    loop {
        let piece = descent.run_piece(&mut pieces, None, 500);
        evaluations += piece.evaluations;
        delta += piece.delta;
        match piece.halt {
            Halt::Paused => paused += 1,
            halt => {
                assert_eq!(halt, Halt::LocalOptimum);
                break;
            }
        }
    }
    assert!(
        paused > 100,
        "{paused} pauses of {} evaluations",
        one.evaluations
    );
    assert_eq!(pieces.order(), whole.order());
    assert_eq!((evaluations, delta), (one.evaluations, one.delta));
}

#[test]
fn or_opt_of_any_segment_to_any_place() {
    // The kicks move long segments: every length, every insertion point, both ways.
    for (mut p, mut rng) in problems(4).take(40) {
        let n = p.order().len() as u32;
        for start in 0..n {
            let len = rng.random_range(1..n - 1);
            let after = (start + len + rng.random_range(0..n - len - 1)) % n;
            let reversed = rng.random();
            check(
                &mut p,
                Move::OrOpt {
                    start,
                    len,
                    after,
                    reversed,
                },
            );
        }
    }
}

#[test]
fn descent_reports_its_delta_and_kicks_never_lengthen() {
    for (mut p, rng) in problems(5).step_by(7) {
        let n = p.order().len();
        let before = p.energy();
        let mut descent = Descent::new(n);
        descent.queue_all();
        let stats = descent.run(&mut p, None);
        assert_eq!(before + stats.delta, p.energy());
        assert!(stats.delta <= 0.0);
        // A local optimum: nothing left to do.
        descent.queue_all();
        assert_eq!(descent.run(&mut p, None).moves, 0);

        let descended = p.energy();
        let budget = Budget {
            evaluations: 20_000,
            deadline: None,
            target: None,
        };
        let kicks = ils::iterate(&mut p, rng.clone(), budget);
        assert!(p.energy() <= descended);
        assert!(kicks.evaluations >= 20_000 || n < 8);
        let mut seen = p.order().to_vec();
        seen.sort_unstable();
        assert_eq!(seen, (0..n as u32).collect::<Vec<_>>());
    }
}

#[test]
fn kicks_find_the_optimum_of_berlin52() {
    let text = include_str!("../../../../puzzles/tsp/berlin52.tsp");
    let instance = kiln_core::problems::tsp::tsplib::parse(text, "b").unwrap();
    let mut rng = Rng::seed_from_u64(1);
    let mut p = random_tour(instance, 6, &mut rng);
    let budget = Budget {
        evaluations: 2_000_000,
        deadline: None,
        target: Some(7542.0),
    };
    let kicks = ils::iterate(&mut p, rng.clone(), budget);
    assert_eq!(p.length(), 7542);
    // Stopped there, long before the budget.
    assert!(kicks.evaluations < 1_000_000, "{kicks:?}");
}

/// The tour with `run` reversed in place (never the complement, unlike the tour's own
/// reversal): the tour a look through it sees.
fn reversed_literally(order: &mut [u32], run: Run) {
    let n = order.len();
    let (mut a, mut b) = (run.first as usize, (run.first + run.span) as usize % n);
    for _ in 0..(run.span as usize).div_ceil(2) {
        order.swap(a, b);
        a = (a + 1) % n;
        b = (b + n - 1) % n;
    }
}

#[test]
fn looking_through_reversals_sees_the_tour_they_would_make() {
    for (p, mut rng) in problems(11) {
        let n = p.order().len() as u32;
        if n < 5 {
            continue;
        }
        let mut seen = p.order().to_vec();
        let mut runs = Vec::new();
        for _ in 0..6 {
            let (a, c) = (rng.random_range(0..n), rng.random_range(0..n));
            if a == c {
                continue;
            }
            // The block from a's neighbour on one side to c turned round, as a chain's
            // steps are.
            let x = p.neighbour_through(&runs, a, rng.random());
            if x == c {
                continue;
            }
            let run = p.block_run_through(&runs, a, x, c);
            reversed_literally(&mut seen, run);
            runs.push(run);
            for (k, &city) in seen.iter().enumerate() {
                let k = k as u32;
                let before = seen[((k + n - 1) % n) as usize];
                let after = seen[((k + 1) % n) as usize];
                assert_eq!(p.neighbour_through(&runs, city, false), before, "{runs:?}");
                assert_eq!(p.neighbour_through(&runs, city, true), after, "{runs:?}");
            }
        }
    }
}

#[test]
fn undoing_recorded_reversals_restores_the_tour_they_started_from() {
    for (mut p, mut rng) in problems(13) {
        let n = p.order().len() as u32;
        if n < 5 {
            continue;
        }
        let start = p.order().to_vec();
        p.record(true);
        let mut marks = Vec::new();
        for _ in 0..20 {
            marks.push((p.recorded(), p.order().to_vec()));
            let mv = p.propose(&mut rng);
            p.apply(&mv);
        }
        let mut before = Vec::new();
        p.order_before_recorded(&mut before);
        assert_eq!(before, start);
        for (mark, order) in marks.into_iter().rev().step_by(3) {
            p.undo_to(mark);
            assert_eq!(p.order(), &order[..]);
        }
        p.undo_to(0);
        assert_eq!(p.order(), &start[..]);
        p.record(false);
        assert_eq!(p.recorded(), 0);
    }
}

#[test]
fn the_best_move_from_a_city_gains_there_and_beats_every_two_opt_that_does() {
    for (p, _) in problems(17) {
        let n = p.order().len() as u32;
        if n < 5 {
            continue;
        }
        for a in 0..n {
            let (best, _) = p.best_move_from(a);
            // Every 2-opt that makes an edge at `a` shorter than the one it breaks there is
            // among the moves weighed.
            for &c in p.candidates(a) {
                for after in [true, false] {
                    let broken = if after { p.next(a) } else { p.prev(a) };
                    if p.cost(a, c) < p.cost(a, broken) {
                        let d = p.delta(&p.two_opt(a, c, after));
                        assert!(best.is_some_and(|(b, _)| b <= d), "{a} {c} {after}");
                    }
                }
            }
            let Some((delta, mv)) = best else { continue };
            let around = |q: &TspProblem| [q.prev(a), q.next(a)];
            let mut q = p.clone();
            let was = around(&q);
            check(&mut q, mv);
            assert_eq!(q.energy(), p.energy() + delta);
            // It leaves `a` beside a city nearer than one it parts `a` from.
            let now = around(&q);
            let gains = now.iter().any(|&x| {
                was.iter()
                    .filter(|y| !now.contains(y))
                    .any(|&y| p.cost(a, x) < p.cost(a, y))
            });
            assert!(gains || delta == 0.0, "{mv:?} from {a}");
        }
    }
}

#[test]
fn from_100_cities_the_descent_has_alpha_lists_and_still_weighs_every_gaining_two_opt() {
    let mut rng = Rng::seed_from_u64(3);
    let problem = |n, moves, rng: &mut Rng| {
        let instance = Arc::new(random::instance(n, Layout::Clustered, 3));
        let mut p = TspProblem::new(instance, moves, Cost::Euclidean, 5, Init::Nearest, rng);
        p.choose_local_candidates(None);
        p
    };
    let small = problem(99, MoveSet::TwoOpt, &mut rng);
    assert!(small.alpha_time().is_none() && small.candidates_nearest_first());
    let least = problem(100, MoveSet::TwoOpt, &mut rng);
    assert!(least.alpha_time().is_some() && !least.candidates_nearest_first());
    assert!(
        problem(2_000, MoveSet::Swap, &mut rng)
            .alpha_time()
            .is_none()
    );
    let mut p = problem(2_000, MoveSet::TwoOpt, &mut rng);
    assert!(p.alpha_time().is_some() && !p.candidates_nearest_first());
    // With no time left they are not made.
    let mut late = TspProblem::new(
        p.instance().clone(),
        MoveSet::TwoOpt,
        Cost::Euclidean,
        5,
        Init::Nearest,
        &mut rng,
    );
    late.choose_local_candidates(Some(std::time::Instant::now()));
    assert!(late.alpha_time().is_none() && late.candidates_nearest_first());
    // Least alpha first, a far candidate may come before a near one: the gain criterion
    // must not end a city's list at the first that fails it.
    let mut out_of_order = 0;
    for a in 0..2_000 {
        let (best, _) = p.best_move_from(a);
        let list = p.candidates(a);
        out_of_order += list.windows(2).any(|w| p.cost(a, w[0]) > p.cost(a, w[1])) as u32;
        for &c in list {
            for after in [true, false] {
                let broken = if after { p.next(a) } else { p.prev(a) };
                if p.cost(a, c) < p.cost(a, broken) {
                    let d = p.delta(&p.two_opt(a, c, after));
                    assert!(best.is_some_and(|(b, _)| b <= d), "{a} {c} {after}");
                }
            }
        }
    }
    assert!(out_of_order > 500, "{out_of_order}");
    let before = p.energy();
    let first = p.polish(None);
    assert!(
        first.halt == Halt::LocalOptimum && p.energy() < before,
        "{first:?}"
    );
    // Don't-look bits leave a few moves for a second pass (7 of 741 here).
    let again = p.polish(None);
    assert!(again.moves * 20 <= first.moves, "{first:?} {again:?}");
}
