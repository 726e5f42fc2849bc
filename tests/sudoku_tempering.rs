//! Parallel tempering over the Sudoku model: replicas stay valid, the energies it keeps
//! match full recomputation, and it solves puzzles (headless too).

use std::process::Command;
#[path = "common/searches.rs"]
mod searches;
use searches::solves_the_first_hardest;

use kiln::anneal::{Problem, Search};
use kiln::problems::sudoku::{Prepared, Tempering, TemperingConfig, ladder, read_puzzles};

fn config(replicas: usize, max_steps: u64) -> TemperingConfig {
    TemperingConfig {
        replicas,
        t_cold: 0.3,
        t_hot: 0.8,
        sweep: 500,
        target_energy: Some(0.0),
        max_steps: Some(max_steps),
        time_limit: None,
    }
}

#[test]
fn the_ladder_is_geometric_from_cold_to_hot() {
    let t = ladder(5, 0.25, 4.0);
    assert_eq!(t.len(), 5);
    for (k, want) in [0.25, 0.5, 1.0, 2.0, 4.0].iter().enumerate() {
        assert!((t[k] - want).abs() < 1e-12, "{t:?}");
    }
    assert_eq!(ladder(1, 0.3, 0.9), vec![0.3]);
}

#[test]
fn replicas_stay_box_permutations_with_givens_and_energies_in_sync() {
    let puzzle = &read_puzzles("puzzles/sudoku/generated16.txt".as_ref()).unwrap()[0];
    // No propagation: many free cells, and the target is out of reach in this budget.
    let prepared = Prepared::new(puzzle, false);
    let geometry = &prepared.geometry;
    let mut search = Tempering::new(prepared.problem(3), config(6, u64::MAX), 3);
    for _ in 0..20 {
        search.step_batch(20_000);
        for (replica, &energy) in search.replicas().iter().zip(search.energies()) {
            assert_eq!(replica.energy(), energy);
            let values = replica.values();
            for (cell, &given) in puzzle.cells.iter().enumerate() {
                assert!(given == 0 || values[cell] == given, "given {cell} moved");
            }
            for b in 0..geometry.side {
                let mut seen = 0u32;
                for &cell in geometry.box_cells(b) {
                    seen |= 1 << (values[cell] - 1);
                }
                assert_eq!(seen, (1 << geometry.side) - 1, "box {b} not a permutation");
            }
        }
    }
    let sample = search.sample();
    assert_eq!(sample.iteration, 20 * 20_000);
    let lowest = search
        .energies()
        .iter()
        .copied()
        .fold(f64::INFINITY, f64::min);
    assert!(sample.best_energy <= lowest);
    assert!(
        search.exchange_rate() > 0.0,
        "no exchange was ever accepted"
    );
}

#[test]
fn tempering_solves_hard_nine_by_nines_and_stops_at_the_target() {
    solves_the_first_hardest(|prepared| {
        Tempering::new(prepared.problem(5), config(4, 200_000_000), 5)
    });
}

#[test]
fn headless_runs_tempering_with_the_replicas_flag() {
    let output = Command::new(env!("CARGO_BIN_EXE_kiln"))
        .args(["sudoku", "puzzles/sudoku/hardest11.txt", "--index", "2"])
        .args([
            "--headless",
            "--no-propagate",
            "--replicas",
            "4",
            "--t-hot",
            "0.7",
        ])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let line = String::from_utf8(output.stdout).unwrap();
    let report: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    assert_eq!(report["solved"], true);
    assert_eq!(report["energy"], 0);
    assert_eq!(report["stop"], "target");
    assert_eq!(report["source"], "puzzles/sudoku/hardest11.txt:2");
}
