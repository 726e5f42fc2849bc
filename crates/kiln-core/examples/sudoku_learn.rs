//! Conflict learning alone (kiln's second chain on 25x25), on every puzzle of a file, one
//! core: `cargo run --release -p kiln-core --example sudoku_learn -- FILE [SEED]` prints
//! per puzzle the seconds, the conflicts and whether the grid found keeps the givens and
//! the rules. It is how docs/benchmarks.md measures the solver without annealing beside it.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use kiln_core::problems::sudoku::{
    ConflictLearning, Geometry, deduce, is_valid_solution, read_puzzles,
};
use kiln_core::search::{Budget, Search, StopReason};

/// Per puzzle, as kiln's own default time limit for one.
const TIME_LIMIT: Duration = Duration::from_secs(60);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(file), seed) = (args.first(), args.get(1)) else {
        eprintln!("usage: sudoku_learn FILE [SEED]");
        return ExitCode::from(2);
    };
    let Ok(seed) = seed.map_or(Ok(1), |s| s.parse::<u64>()) else {
        eprintln!("sudoku_learn: the seed must be a whole number");
        return ExitCode::from(2);
    };
    let puzzles = match read_puzzles(Path::new(file)) {
        Ok(puzzles) => puzzles,
        Err(e) => {
            eprintln!("sudoku_learn: {e}");
            return ExitCode::from(2);
        }
    };
    let mut unsolved = 0;
    for (line, puzzle) in puzzles.iter().enumerate() {
        let geometry = Arc::new(Geometry::new(puzzle.n));
        let started = Instant::now();
        let Ok(deduced) = deduce(&geometry, &puzzle.cells) else {
            println!("{}: no solution (propagation)", line + 1);
            unsolved += 1;
            continue;
        };
        let budget = Budget {
            time_limit: Some(TIME_LIMIT),
            ..Budget::default()
        };
        let (fixed, marks) = (&deduced.cells, &deduced.marks);
        let mut learner =
            ConflictLearning::new(geometry, &puzzle.cells, fixed, marks, budget, seed);
        while learner.stopped().is_none() {
            learner.step_batch(1 << 20);
        }
        let solved = learner.stopped() == Some(StopReason::Target)
            && is_valid_solution(puzzle, &learner.best_snapshot().values);
        unsolved += usize::from(!solved);
        println!(
            "{}: {} in {:.3} s, {} conflicts",
            line + 1,
            if solved { "solved" } else { "unsolved" },
            started.elapsed().as_secs_f64(),
            learner.conflicts()
        );
    }
    if unsolved == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
