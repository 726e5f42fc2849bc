//! Solve times of hard 9x9 puzzles with kiln's own solver, as the binary runs it (set-up
//! included: propagation and the exact check, then the annealer). The annealing models'
//! step throughput is kiln-core's bench (`cargo bench -p kiln-core`).

use criterion::{Criterion, criterion_group, criterion_main};
use kiln::problems::sudoku::{read_puzzles, solver};

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

criterion_group!(benches, solve_times);
criterion_main!(benches);
