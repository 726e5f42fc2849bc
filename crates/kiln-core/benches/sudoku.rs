//! Sudoku annealing throughput: raw 9x9 box-swap steps (no propagation), and 25x25 steps
//! on the hard generated puzzle after propagation (box swaps and the partial fill). The
//! solve times of kiln's whole solver are the binary crate's bench (`sudoku_solve`).

use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kiln_core::anneal::{Rng, RunConfig, Runner, Schedule};
use kiln_core::problems::sudoku::{
    BoxSwaps, Deduced, Geometry, PartialFill, Puzzle, deduce, read_puzzles,
};
use rand::SeedableRng;

const STEPS: u64 = 1 << 20;

/// kiln's defaults for 9x9 and 25x25 (the binary's `default_focus` and `DEFAULT_PAIRS`):
/// a share of conflict-focused moves and of row- or column-keeping pairs.
const FOCUS: f64 = 0.5;
const PAIRS: f64 = 0.3;

/// The first puzzle of `file`, its geometry and what the models start from: its cells and
/// marks after propagation, or as given (every value possible) without it.
fn prepared(file: &str, propagate: bool) -> (Puzzle, Arc<Geometry>, Deduced) {
    let puzzle = read_puzzles(format!("../../puzzles/sudoku/{file}").as_ref()).unwrap()[0].clone();
    let geometry = Arc::new(Geometry::new(puzzle.n));
    let deduced = if propagate {
        deduce(&geometry, &puzzle.cells).unwrap()
    } else {
        Deduced::as_given(&geometry, &puzzle.cells)
    };
    (puzzle, geometry, deduced)
}

fn box_swaps(file: &str, propagate: bool, focus: f64, pairs: f64) -> BoxSwaps {
    let (puzzle, geometry, deduced) = prepared(file, propagate);
    let mut rng = Rng::seed_from_u64(1);
    let mut problem = BoxSwaps::with_marks(
        geometry,
        &puzzle.cells,
        &deduced.cells,
        &deduced.marks,
        &mut rng,
    );
    problem.set_focus(focus);
    problem.set_pairs(pairs);
    problem
}

fn throughput(c: &mut Criterion) {
    let mut group = c.benchmark_group("sudoku_9x9_steps");
    group.throughput(Throughput::Elements(STEPS));
    // Uniform single swaps (the classroom presets), then kiln's 9x9 defaults.
    for (name, focus, pairs) in [("uniform", 0.0, 0.0), ("default", FOCUS, PAIRS)] {
        let problem = box_swaps("hardest11.txt", false, focus, pairs);
        // No target: every step is counted, none ends the run early.
        let mut runner = Runner::new(problem, RunConfig::new(Schedule::Constant, 0.3), 1);
        group.bench_function(format!("no_propagate_T0.3_{name}"), |b| {
            b.iter(|| runner.step_batch(STEPS))
        });
    }
    group.finish();

    // The hard generated 25x25 after propagation: box swaps with kiln's focus and pairs
    // at the temperature they had for 25x25, and the partial fill kiln now anneals it as.
    let mut group = c.benchmark_group("sudoku_25x25_steps");
    group.throughput(Throughput::Elements(STEPS));
    let problem = box_swaps("generated25.txt", true, FOCUS, PAIRS);
    let mut runner = Runner::new(problem, RunConfig::new(Schedule::Constant, 0.34), 1);
    group.bench_function("generated25_T0.34_default", |b| {
        b.iter(|| runner.step_batch(STEPS))
    });
    let (puzzle, geometry, deduced) = prepared("generated25.txt", true);
    let mut rng = Rng::seed_from_u64(1);
    let partial = PartialFill::new(
        geometry,
        &puzzle.cells,
        &deduced.cells,
        &deduced.marks,
        &mut rng,
    );
    let mut runner = Runner::new(partial, RunConfig::new(Schedule::Constant, 0.3), 1);
    group.bench_function("generated25_partial_T0.3", |b| {
        b.iter(|| runner.step_batch(STEPS))
    });
    group.finish();
}

criterion_group!(benches, throughput);
criterion_main!(benches);
