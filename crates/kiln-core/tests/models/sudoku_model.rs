//! The annealing model, propagation and the exact checker.

use std::sync::Arc;

use kiln_core::anneal::{Problem, Rng};
use kiln_core::problems::sudoku::{
    BoxSwaps, CellKind, Deduced, Geometry, Puzzle, Solutions, count_solutions, deduce,
    is_valid_solution, propagate, read_puzzles,
};
use rand::{RngExt, SeedableRng};

use crate::delta;

/// A valid full grid of box side n (the usual shifted pattern).
pub(crate) fn full_grid(n: usize) -> Vec<u8> {
    let side = n * n;
    (0..side * side)
        .map(|c| {
            let (r, col) = (c / side, c % side);
            ((n * (r % n) + r / n + col) % side + 1) as u8
        })
        .collect()
}

/// How many (line, value) pairs occur more than once in rows and columns.
fn repeated_in_lines(n: usize, values: &[u8]) -> usize {
    let side = n * n;
    let mut counts = vec![0; 2 * side * (side + 1)];
    for (c, &v) in values.iter().enumerate() {
        counts[(c / side) * (side + 1) + v as usize] += 1;
        counts[(side + c % side) * (side + 1) + v as usize] += 1;
    }
    counts.iter().filter(|&&k| k > 1).count()
}

fn puzzle_of(cells: Vec<u8>, n: usize) -> Puzzle {
    Puzzle {
        n,
        cells,
        source: "test".into(),
    }
}

fn file(name: &str) -> Vec<Puzzle> {
    read_puzzles(format!("../../puzzles/sudoku/{name}").as_ref()).unwrap()
}

/// The box-swap model of `p` filled at random from `seed`, from its cells and marks after
/// propagation (or as given, every value possible, without it), and what it started from.
fn box_swaps(p: &Puzzle, propagate: bool, seed: u64) -> (BoxSwaps, Deduced) {
    let geometry = Arc::new(Geometry::new(p.n));
    let deduced = if propagate {
        deduce(&geometry, &p.cells).unwrap()
    } else {
        Deduced::as_given(&geometry, &p.cells)
    };
    let mut rng = Rng::seed_from_u64(seed);
    let (cells, marks) = (&deduced.cells, &deduced.marks);
    let state = BoxSwaps::with_marks(geometry, &p.cells, cells, marks, &mut rng);
    (state, deduced)
}

#[test]
fn every_delta_equals_the_recomputed_energy_change() {
    let mut rng = Rng::seed_from_u64(42);
    for n in 2..=5 {
        for round in 0..6 {
            let geometry = Arc::new(Geometry::new(n));
            let keep = rng.random_range(0.0..0.9);
            let fixed: Vec<u8> = full_grid(n)
                .into_iter()
                .map(|v| if rng.random::<f64>() < keep { v } else { 0 })
                .collect();
            let mut state =
                kiln_core::problems::sudoku::BoxSwaps::new(geometry, &fixed, &fixed, &mut rng);
            if round % 2 == 1 {
                state.randomize(&mut rng);
            }
            // Half the rounds mix in conflict-focused moves, and some row- and
            // column-keeping pairs.
            state.set_focus(if round < 3 { 0.0 } else { 0.6 });
            state.set_pairs(if round % 3 == 2 { 0.0 } else { 0.5 });
            let what = format!("n={n} round {round}");
            delta::walk(&mut state, &mut rng, 2_000, &what, |state, _| {
                assert_eq!(state.repeated(), repeated_in_lines(n, state.values()));
            });
            // Moves never touch fixed cells.
            let values = state.snapshot().values;
            assert!(fixed.iter().zip(&values).all(|(&f, &v)| f == 0 || f == v));
        }
    }
}

#[test]
fn a_solved_state_has_energy_zero_and_boxes_are_permutations() {
    let mut rng = Rng::seed_from_u64(1);
    let grid = full_grid(3);
    let geometry = Arc::new(Geometry::new(3));
    let state =
        kiln_core::problems::sudoku::BoxSwaps::new(geometry.clone(), &grid, &grid, &mut rng);
    assert_eq!(state.energy(), 0.0);
    let empty = vec![0; 81];
    let state =
        kiln_core::problems::sudoku::BoxSwaps::new(geometry.clone(), &empty, &empty, &mut rng);
    let values = state.values();
    for b in 0..9 {
        let mut v: Vec<u8> = geometry.box_cells(b).iter().map(|&c| values[c]).collect();
        v.sort();
        assert_eq!(v, (1..=9).collect::<Vec<u8>>());
    }
    assert!(state.energy() > 0.0);
}

#[test]
fn the_exact_search_counts_zero_one_and_several() {
    let g = Geometry::new(3);
    for p in file("hardest11.txt") {
        let Solutions::Unique(s) = count_solutions(&g, &p.cells, 1_000_000) else {
            panic!("{} should be unique", p.source);
        };
        assert!(is_valid_solution(&p, &s));
    }
    let none = &file("no_solution.txt")[0];
    assert_eq!(count_solutions(&g, &none.cells, 1_000_000), Solutions::None);
    let several = &file("several4.txt")[0];
    let Solutions::Several(s) = count_solutions(&Geometry::new(2), &several.cells, 1_000) else {
        panic!("several4 has several solutions");
    };
    assert!(is_valid_solution(several, &s));
    let multi16 = &file("multisolution16.txt")[0];
    assert!(matches!(
        count_solutions(&Geometry::new(4), &multi16.cells, 1_000_000),
        Solutions::Several(_)
    ));
    // A tiny budget on an empty 9x9 grid is not enough to find two.
    assert_eq!(count_solutions(&g, &[0; 81], 3), Solutions::Unknown);
}

#[test]
fn propagation_fills_forced_cells_and_finds_contradictions() {
    let g = Geometry::new(3);
    // Line 5 of hardest11 falls to singles alone.
    let easy = &file("hardest11.txt")[4];
    let filled = propagate(&g, &easy.cells).unwrap();
    assert!(is_valid_solution(easy, &filled));
    // Line 1 does not, but singles keep the givens and agree with the solution.
    let hard = &file("hardest11.txt")[0];
    let partial = propagate(&g, &hard.cells).unwrap();
    let Solutions::Unique(solution) = count_solutions(&g, &hard.cells, 1_000_000) else {
        panic!()
    };
    assert!(partial.contains(&0));
    assert!(
        partial
            .iter()
            .zip(&solution)
            .all(|(&p, &s)| p == 0 || p == s)
    );
    assert!(propagate(&g, &file("no_solution.txt")[0].cells).is_err());
    // A hidden single: 1 is given in rows 1, 2 and columns 2, 3, so in box 1 it must go
    // to r3c1, although that cell has other candidates.
    let mut cells = vec![0u8; 81];
    cells[3] = 1; // r1c4
    cells[9 + 6] = 1; // r2c7
    cells[3 * 9 + 1] = 1; // r4c2
    cells[6 * 9 + 2] = 1; // r7c3
    let forced = propagate(&g, &cells).unwrap();
    assert_eq!(forced[18], 1);
}

#[test]
fn propagated_puzzles_mark_cell_kinds_and_conflicts() {
    let p = &file("hardest11.txt")[1];
    let (state, deduced) = box_swaps(p, true, 3);
    let propagated = deduced.cells.iter().filter(|&&v| v != 0).count() - p.givens();
    assert!(propagated > 0);
    let snapshot = state.snapshot();
    let count = |k| snapshot.kinds.iter().filter(|&&x| x == k).count();
    assert_eq!(count(CellKind::Given), p.givens());
    assert_eq!(count(CellKind::Propagated), propagated);
    assert_eq!(count(CellKind::Annealed), 81 - p.givens() - propagated);
    let conflicts = snapshot.conflicts();
    assert_eq!(conflicts.len(), 81);
    assert!(conflicts.iter().any(|&c| c), "a random fill has conflicts");
    assert!(
        !box_swaps(p, false, 3)
            .0
            .snapshot()
            .kinds
            .contains(&CellKind::Propagated)
    );
}

#[test]
fn the_rules_checker_rejects_broken_grids() {
    let p = puzzle_of(vec![0; 81], 3);
    let mut grid = full_grid(3);
    assert!(is_valid_solution(&p, &grid));
    grid.swap(0, 1);
    assert!(!is_valid_solution(&p, &grid));
    let given = puzzle_of(
        std::iter::once(2)
            .chain(std::iter::repeat_n(0, 80))
            .collect(),
        3,
    );
    assert!(!is_valid_solution(&given, &full_grid(3)));
}

#[test]
fn deduction_keeps_the_solution_and_fills_honour_its_marks() {
    for p in file("generated16.txt").iter().chain(&file("hardest11.txt")) {
        let geometry = Geometry::new(p.n);
        let Solutions::Unique(solution) = count_solutions(&geometry, &p.cells, 1_000_000) else {
            panic!("{} should be unique", p.source);
        };
        let deduced = deduce(&geometry, &p.cells).unwrap();
        for (cell, &v) in solution.iter().enumerate() {
            let fixed = deduced.cells[cell];
            assert!(fixed == 0 || fixed == v, "{} fixed a wrong value", p.source);
            if fixed == 0 {
                assert_ne!(deduced.marks[cell] & 1 << (v - 1), 0, "{}", p.source);
            }
        }
        // A fill is a matching inside the marks whenever one exists (the solution is one).
        let values = box_swaps(p, true, 7).0.snapshot().values;
        for (cell, &v) in values.iter().enumerate() {
            let m = deduced.marks[cell];
            assert!(m == 0 || m & 1 << (v - 1) != 0, "{} cell {cell}", p.source);
        }
    }
}
