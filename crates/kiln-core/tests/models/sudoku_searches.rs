//! The race-mode models: the cell-linear annealing state and the genetic algorithm.

use std::sync::Arc;

use rand::SeedableRng;

use crate::delta;

use kiln_core::anneal::{Problem, Rng, RunConfig, Runner, Schedule};
use kiln_core::problems::sudoku::{
    CellKind, CellValues, GaConfig, Genetic, Geometry, PartialFill, Puzzle, deduce, first_clash,
    is_valid_solution, line_cost, read_puzzles,
};
use kiln_core::search::{Budget, Control, Search, StopReason};

fn puzzle(file: &str, index: usize) -> Puzzle {
    read_puzzles(file.as_ref()).unwrap().swap_remove(index)
}

#[test]
fn cell_linear_delta_equals_the_full_recomputation() {
    for (file, index) in [
        ("../../puzzles/sudoku/hardest11.txt", 0),
        ("../../puzzles/sudoku/small4.txt", 1),
        ("../../puzzles/sudoku/generated16.txt", 0),
    ] {
        let p = puzzle(file, index);
        let geometry = Arc::new(Geometry::new(p.n));
        for seed in 0..5 {
            let mut rng = Rng::seed_from_u64(seed);
            let mut state = CellValues::new(geometry.clone(), &p.cells, &p.cells, &mut rng);
            delta::walk(
                &mut state,
                &mut rng,
                5_000,
                &format!("{file} seed {seed}"),
                |_, _| {},
            );
            // Givens never move.
            for (cell, &given) in p.cells.iter().enumerate() {
                assert!(given == 0 || state.values()[cell] == given);
            }
        }
    }
}

#[test]
fn partial_fill_delta_equals_the_full_recomputation_and_no_rule_is_ever_broken() {
    for (file, index) in [
        ("../../puzzles/sudoku/hardest11.txt", 0),
        ("../../puzzles/sudoku/small4.txt", 1),
        ("../../puzzles/sudoku/generated16.txt", 0),
        ("../../puzzles/sudoku/generated25.txt", 0),
    ] {
        let p = puzzle(file, index);
        let geometry = Arc::new(Geometry::new(p.n));
        let deduced = deduce(&geometry, &p.cells).unwrap();
        for seed in 0..3 {
            let mut rng = Rng::seed_from_u64(seed);
            let mut state = PartialFill::new(
                geometry.clone(),
                &p.cells,
                &deduced.cells,
                &deduced.marks,
                &mut rng,
            );
            let what = format!("{file} seed {seed}");
            delta::walk(&mut state, &mut rng, 5_000, &what, |state, _| {
                let values = state.values();
                assert_eq!(first_clash(&geometry, values), None, "{what}");
                for (cell, &v) in values.iter().enumerate() {
                    let fixed = deduced.cells[cell];
                    assert!(fixed == 0 || v == fixed, "{what}: r{cell} left its value");
                    let candidate = (deduced.marks[cell] >> (v.max(1) - 1)) & 1 == 1;
                    assert!(fixed != 0 || v == 0 || candidate, "{what}: {v} in {cell}");
                }
                let empty = values.iter().filter(|&&v| v == 0).count();
                assert_eq!(state.energy(), empty as f64, "{what}");
            });
        }
    }
}

#[test]
fn partial_fill_solves_a_16x16_at_constant_temperature() {
    let p = puzzle("../../puzzles/sudoku/generated16.txt", 0);
    let geometry = Arc::new(Geometry::new(p.n));
    let deduced = deduce(&geometry, &p.cells).unwrap();
    let mut rng = Rng::seed_from_u64(5);
    let state = PartialFill::new(geometry, &p.cells, &deduced.cells, &deduced.marks, &mut rng);
    let mut config = RunConfig::new(Schedule::Constant, 0.3);
    config.budget.target = Some(0.0);
    config.budget.max_steps = Some(2_000_000_000);
    let mut runner = Runner::new(state, config, 5);
    assert_eq!(runner.run(|_| true), StopReason::Target);
    assert!(is_valid_solution(&p, &runner.best().0.values));
}

#[test]
fn cell_linear_energy_counts_duplicates_in_rows_columns_and_boxes() {
    // 4x4: one free cell, the rest a solved grid; the wrong value clashes in its row,
    // its column and its box.
    let solved: Vec<u8> = "1234341221434321".bytes().map(|b| b - b'0').collect();
    let mut fixed = solved.clone();
    fixed[0] = 0;
    let geometry = Arc::new(Geometry::new(2));
    let mut rng = Rng::seed_from_u64(3);
    let state = CellValues::new(geometry, &fixed, &fixed, &mut rng);
    let v = state.values()[0];
    let expected = if v == 1 { 0.0 } else { 3.0 };
    assert_eq!(state.energy(), expected, "value {v}");
    assert_eq!(state.free_cells(), 1);
    assert_eq!(state.snapshot().kinds[0], CellKind::Annealed);
}

/// Every box of `values` holds each value once, and every given is where it was.
fn boxes_are_permutations_keeping(geometry: &Geometry, givens: &[u8], values: &[u8]) -> bool {
    let side = geometry.side;
    let boxes_ok = (0..side).all(|b| {
        let mut seen: Vec<u8> = geometry.box_cells(b).iter().map(|&c| values[c]).collect();
        seen.sort_unstable();
        seen == (1..=side as u8).collect::<Vec<_>>()
    });
    let givens_ok = givens.iter().zip(values).all(|(&g, &v)| g == 0 || g == v);
    boxes_ok && givens_ok
}

#[test]
fn ga_operators_keep_boxes_permutations_and_givens_fixed() {
    let p = puzzle("../../puzzles/sudoku/hardest11.txt", 5);
    let geometry = Arc::new(Geometry::new(p.n));
    let config = GaConfig {
        population: 60,
        mutation: 0.9,
        stall_generations: 7,
        ..GaConfig::default()
    };
    let mut ga = Genetic::new(geometry.clone(), &p.cells, &p.cells, config, 11);
    for _ in 0..40 {
        // One generation at a time: crossover, mutation, elitism and restarts all happen.
        ga.step_batch(1);
        let mut last = 0;
        for (values, cost) in ga.population() {
            assert!(boxes_are_permutations_keeping(&geometry, &p.cells, values));
            assert_eq!(cost, line_cost(&geometry, values));
            assert!(cost >= last, "population not sorted by cost");
            last = cost;
        }
        let snapshot = ga.best_snapshot();
        assert!(boxes_are_permutations_keeping(
            &geometry,
            &p.cells,
            &snapshot.values
        ));
    }
    let sample = ga.sample();
    assert_eq!(ga.generations(), Some(40));
    assert!(
        sample.restarts >= 1,
        "stall of 7 generations never restarted"
    );
    assert!(sample.best_energy <= sample.energy);
    assert_eq!(sample.control, Control::MutationRate(ga.rate()));
}

#[test]
fn the_mutation_rate_follows_the_one_fifth_rule() {
    let p = puzzle("../../puzzles/sudoku/hardest11.txt", 0);
    let geometry = Arc::new(Geometry::new(p.n));
    let config = GaConfig {
        population: 200,
        mutation: 0.5,
        stall_generations: 1_000,
        ..GaConfig::default()
    };
    let mut ga = Genetic::new(geometry, &p.cells, &p.cells, config, 4);
    // Late in a run few mutations improve a child: the rate falls towards its floor.
    ga.step_batch(200 * 100);
    assert!(ga.rate() < 0.5, "rate {}", ga.rate());
    ga.reheat(0.8);
    assert_eq!(ga.sample().control, Control::MutationRate(0.8));
}

#[test]
fn the_ga_solves_an_easy_puzzle() {
    let p = puzzle("../../puzzles/sudoku/easy20.txt", 4);
    let geometry = Arc::new(Geometry::new(p.n));
    let config = GaConfig {
        budget: Budget {
            max_steps: Some(2_000_000),
            ..Budget::default()
        },
        ..GaConfig::default()
    };
    let mut ga = Genetic::new(geometry, &p.cells, &p.cells, config, 1);
    while ga.stopped().is_none() {
        ga.step_batch(10_000);
    }
    assert_eq!(ga.stopped(), Some(StopReason::Target));
    assert!(is_valid_solution(&p, &ga.best_snapshot().values));
    assert_eq!(ga.sample().best_energy, 0.0);
}
