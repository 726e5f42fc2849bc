//! Constraint weighting over the Sudoku model: weighted deltas match recomputation, the
//! weighted energy the search keeps survives raises and decays, and it solves puzzles
//! (headless too, behind --weighting).

use std::sync::Arc;

use clap::Parser;

mod common;
use common::{kiln, lines};
#[path = "common/searches.rs"]
mod searches;
use kiln::anneal::{Problem, Rng, Search};
use kiln::cli::{Cli, Command};
use kiln::problems::sudoku::{
    Breakout, Geometry, Prepared, SudokuAnneal, SudokuArgs, Weighted, WeightingConfig, read_puzzles,
};
use rand::{RngExt, SeedableRng};
use searches::solves_the_first_hardest;

/// The violated constraints of a grid, recomputed from its values: slot
/// line * (side + 1) + v for every value v missing from a line (rows, then columns).
fn missing_slots(side: usize, values: &[u8]) -> Vec<usize> {
    let mut counts = vec![0; 2 * side * (side + 1)];
    for (c, &v) in values.iter().enumerate() {
        counts[(c / side) * (side + 1) + v as usize] += 1;
        counts[(side + c % side) * (side + 1) + v as usize] += 1;
    }
    (0..counts.len())
        .filter(|&s| s % (side + 1) != 0 && counts[s] == 0)
        .collect()
}

fn weighted_energy(side: usize, values: &[u8], weights: &[u32]) -> i64 {
    missing_slots(side, values)
        .iter()
        .map(|&s| weights[s] as i64)
        .sum()
}

fn config(window: u64, decay_every: u64, max_steps: u64) -> WeightingConfig {
    WeightingConfig {
        temperature: 0.3,
        window,
        decay_every,
        restart_after: None,
        target_energy: Some(0.0),
        max_steps: Some(max_steps),
        time_limit: None,
    }
}

#[test]
fn every_weighted_delta_equals_the_recomputed_change() {
    let mut rng = Rng::seed_from_u64(7);
    for n in 2..=5 {
        let side = n * n;
        for round in 0..6 {
            let geometry = Arc::new(Geometry::new(n));
            let free = vec![0; side * side];
            let mut state = SudokuAnneal::new(geometry, &free, &free, &mut rng);
            state.set_focus(if round < 3 { 0.0 } else { 0.6 });
            let mut weights: Vec<u32> = (0..state.constraint_count())
                .map(|_| rng.random_range(1..10))
                .collect();
            for step in 0..2_000 {
                // Weights change between moves, as raises and decays change them.
                if step % 100 == 0 {
                    let w = rng.random_range(0..weights.len());
                    weights[w] += rng.random_range(1..5);
                }
                let before = weighted_energy(side, state.values(), &weights);
                let mv = state.propose(&mut rng);
                let delta = state.weighted_delta(&mv, &weights);
                state.apply(&mv);
                let after = weighted_energy(side, state.values(), &weights);
                assert_eq!(after - before, delta, "n={n} move {mv:?}");
            }
            let mut violated = Vec::new();
            state.for_each_violated(|c| violated.push(c));
            assert_eq!(violated, missing_slots(side, state.values()));
            assert_eq!(violated.len() as f64, state.energy());
        }
    }
}

#[test]
fn the_weighted_energy_stays_in_sync_through_raises_and_decays() {
    let puzzle = &read_puzzles("puzzles/sudoku/generated16.txt".as_ref()).unwrap()[0];
    // No propagation: many free cells, and the target is out of reach in this budget.
    let prepared = Prepared::new(puzzle, false);
    let side = prepared.geometry.side;
    let mut search = Breakout::new(prepared.problem(3), config(300, 4, u64::MAX), 3);
    for _ in 0..20 {
        search.step_batch(20_000);
        let sample = search.sample();
        let problem = search.problem();
        let weights = search.weights();
        assert!(weights.iter().all(|&w| w >= 1));
        assert_eq!(
            search.weighted_energy(),
            weighted_energy(side, problem.values(), weights)
        );
        assert_eq!(sample.energy, problem.energy());
        assert!(sample.best_energy <= sample.energy);
        for (cell, &given) in puzzle.cells.iter().enumerate() {
            assert!(
                given == 0 || problem.values()[cell] == given,
                "given {cell} moved"
            );
        }
    }
    assert!(search.raises() > 100, "raises = {}", search.raises());
    assert!(search.weights().iter().any(|&w| w > 1));
    assert_eq!(search.sample().iteration, 20 * 20_000);
}

#[test]
fn weighting_solves_hard_nine_by_nines_and_stops_at_the_target() {
    solves_the_first_hardest(|prepared| {
        Breakout::new(prepared.problem(5), config(2_000, 3, 200_000_000), 5)
    });
}

#[test]
fn headless_runs_weighting_with_its_flags() {
    let output = kiln(&[
        "sudoku",
        "puzzles/sudoku/hardest11.txt",
        "--index",
        "2",
        "--headless",
        "--no-propagate",
        "--weighting",
        "--weight-window",
        "3000",
        "--weight-decay",
        "4",
    ]);
    assert!(output.status.success(), "{output:?}");
    let report = &lines(&output)[0];
    assert_eq!(report["solved"], true);
    assert_eq!(report["energy"], 0);
    assert_eq!(report["stop"], "target");
}

#[test]
fn a_zero_weight_window_and_weighting_with_tempering_are_refused() {
    let cases: [(&[&str], &str); 2] = [
        (&["--weight-window", "0"], "--weight-window"),
        (&["--replicas", "4"], "cannot be used with"),
    ];
    for (extra, expected) in cases {
        let mut args = vec!["sudoku", "--headless", "--weighting"];
        args.extend_from_slice(extra);
        let output = kiln(&args);
        assert_eq!(output.status.code(), Some(2));
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains(expected), "{stderr}");
    }
}

/// `kiln sudoku FILE EXTRA...` as parsed from the command line.
fn sudoku_args(file: &str, extra: &[&str]) -> SudokuArgs {
    let words = ["kiln", "sudoku", file]
        .into_iter()
        .chain(extra.iter().copied());
    match Cli::try_parse_from(words).unwrap().command {
        Some(Command::Sudoku(a)) => a,
        other => panic!("{other:?}"),
    }
}

#[test]
fn weighting_keeps_its_tuned_temperature_unless_t0_is_given() {
    let file = "puzzles/sudoku/generated25.txt";
    let puzzle = &read_puzzles(file.as_ref()).unwrap()[0];
    let prepared = Prepared::new(puzzle, true);
    let temperature = |extra: &[&str]| {
        let (mut search, config) = prepared.search(&sudoku_args(file, extra)).unwrap();
        (search.sample().temperature, config.t0)
    };
    // 25x25 chains run hotter than weighting was tuned for.
    assert_eq!(temperature(&[]), (0.34, 0.34));
    assert_eq!(temperature(&["--weighting"]), (0.3, 0.34));
    assert_eq!(temperature(&["--weighting", "--t0", "0.4"]), (0.4, 0.4));
}
