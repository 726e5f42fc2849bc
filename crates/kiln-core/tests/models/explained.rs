//! A step explained is the step the hot loop takes: the same moves and the same run, and
//! the numbers shown are the runner's own (a taken move's dE is the energy change, the
//! decision is u < p, and the marked places are the ones that changed).

use std::collections::HashSet;
use std::sync::Arc;

use kiln_core::anneal::{Problem, Rng, RunConfig, Runner, Schedule, auto_temperature};
use kiln_core::problems::image::{Bitmap, Denoise, Edges, Kernel, Neighbourhood, Pattern};
use kiln_core::problems::sudoku::{BoxSwaps, CellValues, Geometry, PartialFill, deduce};
use kiln_core::problems::tsp::{Cost, Init, MoveSet, TspProblem, TspSnapshot, random};
use kiln_core::search::Explained;
use kiln_core::search::explain::{Acceptance, Measured};
use rand::SeedableRng;

use crate::sudoku_model::full_grid;

const STEPS: usize = 3_000;

/// Runs `problem` `STEPS` steps explained and, from a copy, in one batch: both end in the
/// same state. Every explained step is checked against the runner, and `marks` checks
/// its sketch against the states before and after it. Returns the decisions, for the
/// caller to see that both kinds of move came up.
fn explained_run<P>(
    problem: P,
    what: &str,
    marks: impl Fn(&P::Snapshot, &P::Snapshot, &Explained),
) -> Vec<Explained>
where
    P: Problem + Clone,
    P::Snapshot: PartialEq + std::fmt::Debug,
{
    // Hot enough that uphill moves are taken and refused alike.
    let t = auto_temperature(&problem, 3, 0.3, 500);
    let config = RunConfig::new(Schedule::Constant, t);
    let mut batch = Runner::new(problem.clone(), config.clone(), 11);
    let mut explained = Runner::new(problem, config, 11);
    batch.step_batch(STEPS as u64);
    let mut told = Vec::new();
    for step in 0..STEPS {
        let before = (explained.problem().snapshot(), explained.energy());
        let e = explained
            .step_explained()
            .expect("a running runner explains");
        let d = e.decision;
        let after = explained.energy();
        let at = format!("{what}, step {step}: {d:?}");
        assert_eq!(d.energy, before.1, "{at}: the energy before");
        assert_eq!(d.temperature, t, "{at}");
        match d.u {
            Some(u) => assert_eq!(d.accepted, u < d.p, "{at}: taken iff u < p"),
            None if d.delta <= 0.0 => assert!(d.accepted && d.p == 1.0, "{at}"),
            None => assert!(!d.accepted && d.p < 1e-17, "{at}: refused unseen"),
        }
        let expected = if d.accepted {
            before.1 + d.delta
        } else {
            before.1
        };
        assert_eq!(after, expected, "{at}: a taken move changes E by dE");
        let full = explained.problem().energy();
        assert!((full - after).abs() < 1e-6 * full.abs().max(1.0), "{at}");
        let sketch = e.sketch.as_ref().expect("every built-in move is sketched");
        assert!(
            !sketch.words.is_empty() && !sketch.places.is_empty(),
            "{at}"
        );
        marks(&before.0, &explained.problem().snapshot(), &e);
        told.push(e);
    }
    assert_eq!(explained.iterations(), batch.iterations(), "{what}");
    assert_eq!(
        explained.problem().snapshot(),
        batch.problem().snapshot(),
        "{what}: explaining changes nothing"
    );
    let uphill = |taken: bool| {
        told.iter()
            .any(|e| e.decision.uphill() && e.decision.accepted == taken)
    };
    assert!(
        uphill(true) && uphill(false),
        "{what}: uphill taken and refused"
    );
    told
}

/// The places a taken move marks are the ones whose values changed (all of them, and
/// nothing else); a refused move changes nothing.
fn changed_places(before: &[u8], after: &[u8], e: &Explained, what: &str) {
    let changed: HashSet<u32> = (0..before.len())
        .filter(|&i| before[i] != after[i])
        .map(|i| i as u32)
        .collect();
    let marked: HashSet<u32> = e.sketch.as_ref().unwrap().places.iter().copied().collect();
    if e.decision.accepted {
        assert!(
            changed.is_subset(&marked),
            "{what}: {changed:?} vs {marked:?}"
        );
    } else {
        assert!(
            changed.is_empty(),
            "{what}: a refused move changed {changed:?}"
        );
    }
}

/// A 9x9 puzzle: every `k`-th cell of a valid grid given, the rest empty.
fn every_kth_given(k: usize) -> Vec<u8> {
    let grid = full_grid(3);
    let given = |(i, &v): (usize, &u8)| if i % k == 0 { v } else { 0 };
    grid.iter().enumerate().map(given).collect()
}

#[test]
fn sudoku_swaps_and_pairs_are_explained_as_taken() {
    let mut rng = Rng::seed_from_u64(1);
    let givens = every_kth_given(3);
    let geometry = Arc::new(Geometry::new(3));
    let mut swaps = BoxSwaps::new(geometry.clone(), &givens, &givens, &mut rng);
    swaps.set_pairs(0.5);
    let told = explained_run(swaps, "swaps", |b, a, e| {
        changed_places(&b.values, &a.values, e, "swaps")
    });
    let words: Vec<&str> = told
        .iter()
        .map(|e| e.sketch.as_ref().unwrap().words.as_str())
        .collect();
    assert!(words.iter().all(|w| w.starts_with("swap r")), "{words:?}");
    assert!(
        words.iter().any(|w| w.contains(", then r")),
        "a pair is named"
    );
    let linear = CellValues::new(geometry, &givens, &givens, &mut rng);
    explained_run(linear, "cell-linear", |b, a, e| {
        changed_places(&b.values, &a.values, e, "cell-linear")
    });
}

#[test]
fn a_partial_fill_names_the_cell_it_fills_and_the_cells_it_empties() {
    let mut rng = Rng::seed_from_u64(4);
    let givens = every_kth_given(4);
    let geometry = Arc::new(Geometry::new(3));
    let deduced = deduce(&geometry, &givens).unwrap();
    let partial = PartialFill::new(geometry, &givens, &deduced.cells, &deduced.marks, &mut rng);
    let told = explained_run(partial, "partial fill", |b, a, e| {
        changed_places(&b.values, &a.values, e, "partial fill")
    });
    let words: Vec<&str> = (told.iter())
        .map(|e| e.sketch.as_ref().unwrap().words.as_str())
        .collect();
    assert!(
        words
            .iter()
            .all(|w| w.starts_with('r') && w.contains(" <- ")),
        "{words:?}"
    );
    assert!(
        words.iter().any(|w| w.contains(", emptying r")),
        "{words:?}"
    );
}

fn edges(s: &TspSnapshot) -> HashSet<(u32, u32)> {
    let n = s.tour.len();
    (0..n)
        .map(|i| {
            let (a, b) = (s.tour[i], s.tour[(i + 1) % n]);
            (a.min(b), a.max(b))
        })
        .collect()
}

#[test]
fn tsp_moves_name_the_edges_they_drop_and_add() {
    for moves in [MoveSet::TwoOpt, MoveSet::Swap, MoveSet::SwapAdjacent] {
        let mut rng = Rng::seed_from_u64(2);
        // Renumbered, as a run's cities are: the words name them by the file's numbers.
        let instance = random::instance(60, random::Layout::Uniform, 5).in_curve_order();
        let labelled = instance.clone();
        let tsp = TspProblem::new(
            Arc::new(instance),
            moves,
            Cost::Euclidean,
            8,
            Init::Random,
            &mut rng,
        );
        let what = format!("{moves:?}");
        explained_run(tsp, &what, |before, after, e| {
            let sketch = e.sketch.as_ref().unwrap();
            let named: HashSet<u32> = (sketch.removed.iter().chain(&sketch.added))
                .flat_map(|&(a, b)| [a, b])
                .map(|c| labelled.label(c) + 1)
                .collect();
            // After the kind ("2-opt: ..."), whose digits name no city.
            let cities = sketch.words.rsplit(':').next().unwrap();
            let said: HashSet<u32> = (cities.split(|c: char| !c.is_ascii_digit()))
                .filter_map(|w| w.parse().ok())
                .collect();
            assert!(said.is_subset(&named), "{what}: {}", sketch.words);
            assert!(said.len() >= 2, "{what}: {}", sketch.words);
            let key = |&(a, b): &(u32, u32)| (a.min(b), a.max(b));
            let (was, now) = (edges(before), edges(after));
            assert!(sketch.removed.iter().map(key).all(|x| was.contains(&x)));
            if e.decision.accepted {
                let gone: HashSet<_> = was.difference(&now).copied().collect();
                let new: HashSet<_> = now.difference(&was).copied().collect();
                let removed: HashSet<_> = sketch.removed.iter().map(key).collect();
                let added: HashSet<_> = sketch.added.iter().map(key).collect();
                // A dropped edge may come back in (a swap of neighbours): compare the
                // net change.
                let net_gone: HashSet<_> = removed.difference(&added).copied().collect();
                let net_new: HashSet<_> = added.difference(&removed).copied().collect();
                assert_eq!((gone, new), (net_gone, net_new), "{what}: {}", sketch.words);
            } else {
                assert_eq!(was, now, "{what}");
            }
        });
    }
}

#[test]
fn image_swaps_and_flips_mark_the_pixels_they_change() {
    let mut rng = Rng::seed_from_u64(3);
    let image = Bitmap::random(24, 16, 0.4, &mut rng);
    let kernel = Kernel::from_spec("n8").unwrap();
    let pattern = Pattern::new(image.clone(), kernel, Edges::Wrap).unwrap();
    explained_run(pattern, "pattern", |b, a, e| {
        changed_places(&b.bits, &a.bits, e, "pattern")
    });
    let denoise = Denoise::new(&image, 1.0, 0.75, Neighbourhood::Eight);
    explained_run(denoise, "denoise", |b, a, e| {
        changed_places(&b.bits, &a.bits, e, "denoise")
    });
}

/// Runs `problem` at constant temperature `t` for `steps` explained steps: the acceptance
/// of the latest ones, as the explain panel measures it.
fn measured_at<P: Problem>(problem: P, t: f64, steps: usize) -> Measured {
    let mut runner = Runner::new(problem, RunConfig::new(Schedule::Constant, t), 5);
    let mut acceptance = Acceptance::default();
    for _ in 0..steps {
        let told = runner
            .step_explained()
            .expect("a run without a budget goes on");
        acceptance.record(&told.decision);
    }
    acceptance.measured()
}

/// Every bucket with enough moves takes its share within four standard deviations of the
/// rule's; the table is printed for the record (`--nocapture`).
fn agrees(what: &str, t: f64, m: &Measured) {
    eprintln!(
        "{what} at T = {t:.4}: {} uphill of {}",
        m.uphill, m.proposals
    );
    let mut checked = 0;
    for (k, b) in m.buckets.iter().enumerate() {
        let (Some(seen), Some(rule)) = (b.measured(), b.expected()) else {
            continue;
        };
        let n = f64::from(b.proposed);
        eprintln!(
            "  dE/T {:>4.1}+  rule {rule:.3}  taken {seen:.3}  moves {n}",
            k as f64 * 0.5
        );
        if n >= 100.0 {
            let sigma = (rule * (1.0 - rule) / n).sqrt().max(1e-3);
            assert!(
                (seen - rule).abs() < 4.0 * sigma,
                "{what}: bucket {k}: {seen} vs {rule}"
            );
            checked += 1;
        }
    }
    assert!(checked > 0, "{what}: no bucket had enough moves");
}

#[test]
fn the_measured_acceptance_follows_the_rule_on_every_problem_at_two_temperatures() {
    let mut rng = Rng::seed_from_u64(4);
    let givens = every_kth_given(4);
    let sudoku = BoxSwaps::new(Arc::new(Geometry::new(3)), &givens, &givens, &mut rng);
    let instance = Arc::new(random::instance(200, random::Layout::Uniform, 9));
    let tsp = TspProblem::new(
        instance,
        MoveSet::TwoOpt,
        Cost::Euclidean,
        8,
        Init::Random,
        &mut rng,
    );
    let image = Bitmap::random(64, 48, 0.4, &mut rng);
    let pattern = Pattern::new(image, Kernel::from_spec("n8").unwrap(), Edges::Wrap).unwrap();
    for acceptance in [0.5, 0.1] {
        let t = auto_temperature(&sudoku, 1, acceptance, 2000);
        agrees("sudoku", t, &measured_at(sudoku.clone(), t, 20_000));
        let t = auto_temperature(&tsp, 1, acceptance, 2000);
        agrees("tsp", t, &measured_at(tsp.clone(), t, 20_000));
        let t = auto_temperature(&pattern, 1, acceptance, 2000);
        agrees("image", t, &measured_at(pattern.clone(), t, 20_000));
    }
}
