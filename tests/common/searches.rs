//! What the tests of the Sudoku searches share: a search run to its end on hard puzzles.
//! Included (`#[path]`) only by the test crates that use it.

use kiln::anneal::{Search, StopReason};
use kiln::problems::sudoku::{Prepared, SudokuSnapshot, is_valid_solution, read_puzzles};

/// Runs the search `start` builds (without propagation, seed 5) on each of the first four
/// "hardest" 9x9 puzzles until it stops, and checks that it stopped at the target with a
/// valid solution as its best.
pub fn solves_the_first_hardest<S: Search<Snapshot = SudokuSnapshot>>(
    start: impl Fn(&Prepared) -> S,
) {
    for puzzle in read_puzzles("puzzles/sudoku/hardest11.txt".as_ref())
        .unwrap()
        .iter()
        .take(4)
    {
        let mut search = start(&Prepared::new(puzzle, false));
        while search.stopped().is_none() {
            search.step_batch(1 << 14);
        }
        assert_eq!(
            search.stopped(),
            Some(StopReason::Target),
            "{}",
            puzzle.source
        );
        let best = search.best_snapshot();
        assert!(is_valid_solution(puzzle, &best.values), "{}", puzzle.source);
        assert_eq!(search.sample().best_energy, 0.0);
    }
}
