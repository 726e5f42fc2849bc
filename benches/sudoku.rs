//! Sudoku annealing: raw 9x9 step throughput (no propagation) and solve times of hard puzzles.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kiln::anneal::{RunConfig, Runner, Schedule};
use kiln::problems::sudoku::{Prepared, read_puzzles};

fn throughput(c: &mut Criterion) {
    let puzzle = &read_puzzles("puzzles/sudoku/hardest11.txt".as_ref()).unwrap()[0];
    let prepared = Prepared::new(puzzle, false);
    const STEPS: u64 = 1 << 20;
    let mut group = c.benchmark_group("sudoku_9x9_steps");
    group.throughput(Throughput::Elements(STEPS));
    // Uniform swaps only, then the 9x9 default share of conflict-focused ones.
    for focus in [0.0, kiln::problems::sudoku::default_focus(3)] {
        let mut problem = prepared.problem(1);
        problem.set_focus(focus);
        // No target: every step is counted, none ends the run early.
        let mut runner = Runner::new(problem, RunConfig::new(Schedule::Constant, 0.3), 1);
        group.bench_function(format!("no_propagate_T0.3_focus{focus}"), |b| {
            b.iter(|| runner.step_batch(STEPS))
        });
    }
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
        let prepared = Prepared::new(&puzzle, true);
        let args = kiln::anneal_args::AnnealArgs::default();
        let mut seed = 0;
        group.bench_function(puzzle.source.clone(), |b| {
            b.iter(|| {
                seed += 1;
                let problem = prepared.problem(seed);
                let config = prepared.run_config(&args, &problem).unwrap();
                let mut runner = Runner::new(problem, config, seed);
                runner.run(|_| true);
                assert_eq!(runner.finish().energy, 0.0);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, throughput, solve_times);
criterion_main!(benches);
