//! Sudoku annealing: raw 9x9 step throughput (no propagation), 25x25 step throughput on the
//! hard generated puzzle, and solve times of hard
//! puzzles (set-up included: propagation and the exact check, then kiln's own annealer).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kiln::anneal::{Rng, RunConfig, Runner, Schedule};
use kiln::problems::sudoku::{DEFAULT_PAIRS, PartialFill, Prepared, read_puzzles, solver};
use rand::SeedableRng;

fn throughput(c: &mut Criterion) {
    let puzzle = &read_puzzles("puzzles/sudoku/hardest11.txt".as_ref()).unwrap()[0];
    let prepared = Prepared::new(puzzle, false);
    const STEPS: u64 = 1 << 20;
    let mut group = c.benchmark_group("sudoku_9x9_steps");
    group.throughput(Throughput::Elements(STEPS));
    // Uniform single swaps (the classroom presets), then kiln's 9x9 defaults (a share of
    // conflict-focused moves and of paired swaps).
    for (name, focus, pairs) in [
        ("uniform", 0.0, 0.0),
        (
            "default",
            kiln::problems::sudoku::default_focus(3),
            DEFAULT_PAIRS,
        ),
    ] {
        let mut problem = prepared.problem(1);
        problem.set_focus(focus);
        problem.set_pairs(pairs);
        // No target: every step is counted, none ends the run early.
        let mut runner = Runner::new(problem, RunConfig::new(Schedule::Constant, 0.3), 1);
        group.bench_function(format!("no_propagate_T0.3_{name}"), |b| {
            b.iter(|| runner.step_batch(STEPS))
        });
    }
    group.finish();

    // The hard generated 25x25 after propagation: box swaps with kiln's 9x9 focus and pairs
    // at the temperature they had for 25x25, and the partial fill kiln now anneals it as.
    let puzzle = &read_puzzles("puzzles/sudoku/generated25.txt".as_ref()).unwrap()[0];
    let prepared = Prepared::new(puzzle, true);
    let mut group = c.benchmark_group("sudoku_25x25_steps");
    group.throughput(Throughput::Elements(STEPS));
    let mut runner = Runner::new(
        prepared.problem(1),
        RunConfig::new(Schedule::Constant, 0.34),
        1,
    );
    group.bench_function("generated25_T0.34_default", |b| {
        b.iter(|| runner.step_batch(STEPS))
    });
    let mut rng = Rng::seed_from_u64(1);
    let partial = PartialFill::new(
        prepared.geometry.clone(),
        &puzzle.cells,
        &prepared.fixed,
        &prepared.marks,
        &mut rng,
    );
    let mut runner = Runner::new(partial, RunConfig::new(Schedule::Constant, 0.3), 1);
    group.bench_function("generated25_partial_T0.3", |b| {
        b.iter(|| runner.step_batch(STEPS))
    });
    group.finish();
}

fn solve_times(c: &mut Criterion) {
    let mut group = c.benchmark_group("sudoku_solve");
    group.sample_size(10);
    for (file, index) in [
        ("hardest11.txt", 0),
        ("hardest11.txt", 5),
        ("top95_first10.txt", 0),
        ("forum_hardest_5.txt", 0),
    ] {
        let puzzle =
            read_puzzles(format!("puzzles/sudoku/{file}").as_ref()).unwrap()[index].clone();
        let mut spec = kiln::cli::default_sudoku().spec().unwrap();
        group.bench_function(puzzle.source.clone(), |b| {
            b.iter(|| {
                spec.run.seed += 1;
                let mut solver = solver(&puzzle, &spec).unwrap();
                while solver.search.stopped().is_none() {
                    solver.search.step_batch(1 << 14);
                }
                assert_eq!(solver.search.sample().best_energy, 0.0);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, throughput, solve_times);
criterion_main!(benches);
