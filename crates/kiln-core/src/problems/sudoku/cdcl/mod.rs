//! Conflict learning on a Sudoku: the grid as clauses (one variable per open cell and
//! candidate; every cell holds one value, every unit holds every value once) for a small
//! CDCL solver, run as a search the worker can step, sample and show. Its state is a
//! partial grid that breaks no rule, like the partial fill's, so the two are shown and
//! compared alike (energy = empty cells).

mod solver;

use std::sync::Arc;
use std::time::Instant;

use rand::SeedableRng;

pub use solver::{Cdcl, Lit, Status, Var};

use super::grid::Geometry;
use super::propagate::Board;
use super::snapshot::{CellKind, SudokuSnapshot};
use crate::search::tally::Tally;
use crate::search::{Budget, Control, Phase, Rng, Sample, Search, StopReason};

/// Solver work (watch visits and assignments) per 100 steps, so that a step takes about as
/// long as a box swap on a 25x25 grid: chains side by side run equal steps per batch, and
/// the faster one would wait (the rates it was set from: docs/tuning.md).
const WORK_PER_100_STEPS: u64 = 130;

/// A Sudoku searched by conflict learning.
pub struct ConflictLearning {
    geometry: Arc<Geometry>,
    kinds: Arc<[CellKind]>,
    fixed: Vec<u8>,
    /// The (cell, value) each variable stands for.
    meaning: Vec<(u32, u8)>,
    solver: Cdcl,
    budget: Budget,
    tally: Tally,
    steps: u64,
    stopped: Option<StopReason>,
    /// Open cells, and the fewest left empty at any conflict-free point so far.
    open: usize,
    best_empty: usize,
    best: Vec<u8>,
}

impl ConflictLearning {
    /// The clauses of the grid with `fixed` cells (givens and forced, 0 = open) and `marks`
    /// (per open cell, bit v-1 when v is still possible).
    pub fn new(
        geometry: Arc<Geometry>,
        givens: &[u8],
        fixed: &[u8],
        marks: &[u32],
        budget: Budget,
        seed: u64,
    ) -> Self {
        let side = geometry.side;
        let mut meaning = Vec::new();
        let mut var_of = vec![Var::MAX; fixed.len() * side];
        // Marks without propagation allow every value: the fixed cells' peers lose theirs
        // here. Fixed cells that clash leave no candidate anywhere, so nothing to satisfy.
        let board = Board::new(&geometry, fixed).ok();
        for (cell, &mark) in marks.iter().enumerate() {
            if fixed[cell] != 0 {
                continue;
            }
            let mark = board.as_ref().map_or(0, |b| mark & b.candidates(cell));
            for value in 1..=side as u8 {
                if mark & (1 << (value - 1)) != 0 {
                    var_of[cell * side + value as usize - 1] = meaning.len() as Var;
                    meaning.push((cell as u32, value));
                }
            }
        }
        let mut solver = Cdcl::new(meaning.len(), &mut Rng::seed_from_u64(seed));
        let lit = |cell: usize, value: usize| {
            let var = var_of[cell * side + value - 1];
            (var != Var::MAX).then(|| Lit::new(var, true))
        };
        let mut pairs = Vec::new();
        let mut at_least_one = |solver: &mut Cdcl, lits: Vec<Lit>| {
            for (i, &a) in lits.iter().enumerate() {
                for &b in &lits[i + 1..] {
                    pairs.push((a.min(b), a.max(b)));
                }
            }
            solver.add_clause(&lits);
        };
        for cell in (0..fixed.len()).filter(|&c| fixed[c] == 0) {
            let lits = (1..=side).filter_map(|v| lit(cell, v)).collect();
            at_least_one(&mut solver, lits);
        }
        for unit in &geometry.units {
            for value in 1..=side {
                if unit.iter().any(|&c| fixed[c] as usize == value) {
                    continue;
                }
                let lits = unit.iter().filter_map(|&c| lit(c, value)).collect();
                at_least_one(&mut solver, lits);
            }
        }
        // Cells sharing a row and a box (or a column and a box) meet twice.
        pairs.sort_unstable();
        pairs.dedup();
        for (a, b) in pairs {
            solver.add_clause(&[!a, !b]);
        }
        let kinds = (CellKind::of_cells(givens, fixed).iter())
            .map(|&kind| match kind {
                CellKind::Annealed => CellKind::Learned,
                other => other,
            })
            .collect();
        let open = fixed.iter().filter(|&&v| v == 0).count();
        ConflictLearning {
            open,
            best_empty: open,
            best: fixed.to_vec(),
            geometry,
            kinds,
            fixed: fixed.to_vec(),
            meaning,
            solver,
            budget,
            tally: Tally::default(),
            steps: 0,
            stopped: None,
        }
    }

    /// The grid the solver's assignment stands for (unassigned cells empty).
    fn grid(&self) -> Vec<u8> {
        self.grid_of(self.solver.trail())
    }

    /// The grid an assignment (a trail) stands for.
    fn grid_of(&self, trail: &[Lit]) -> Vec<u8> {
        let mut values = self.fixed.clone();
        for lit in trail.iter().filter(|l| l.positive()) {
            let (cell, value) = self.meaning[lit.var() as usize];
            values[cell as usize] = value;
        }
        values
    }

    fn empty(&self) -> usize {
        self.open - self.solver.true_count()
    }

    fn snapshot_of(&self, values: Vec<u8>) -> SudokuSnapshot {
        SudokuSnapshot {
            geometry: Arc::clone(&self.geometry),
            kinds: Arc::clone(&self.kinds),
            values,
        }
    }

    /// Conflicts so far (each one a clause learnt).
    pub fn conflicts(&self) -> u64 {
        self.solver.conflicts()
    }
}

impl Search for ConflictLearning {
    type Snapshot = SudokuSnapshot;

    fn step_batch(&mut self, n: u64) -> u64 {
        if self.stopped.is_some() {
            return 0;
        }
        let left = self.budget.max_steps.unwrap_or(u64::MAX) - self.steps;
        let n = n.min(left);
        let started = Instant::now();
        let before = self.tally.elapsed;
        let work = self.solver.work();
        let mut fewest = self.best_empty;
        let open = self.open;
        let mut deepest = None;
        let status = self.solver.solve(n * WORK_PER_100_STEPS / 100, |solver| {
            let empty = open - solver.true_count();
            if empty < fewest {
                fewest = empty;
                deepest = Some(solver.trail().to_vec());
            }
        });
        if let Some(trail) = deepest {
            self.best_empty = fewest;
            self.best = self.grid_of(&trail);
        }
        // The slice ends at the first decision after its work is spent, a propagation's
        // worth late at most. Steps follow the solver's whole work, not the slices it came
        // in, so the same work counts the same steps however it is sliced (the live view's
        // ticks, a headless run's batches) and a run ends alike live and headless; never
        // past the step budget, which holds exactly. A slice that did anything counts at
        // least one (a single step in the live view).
        let spent = self.solver.work() - work;
        let by_work = self.solver.work() * 100 / WORK_PER_100_STEPS;
        let done = match spent {
            0 => 0,
            _ => by_work.saturating_sub(self.steps).clamp(1, left.max(1)),
        };
        self.steps += done;
        self.tally.proposed += done;
        self.tally.elapsed = before + started.elapsed();
        match status {
            Status::Satisfied => {
                self.best = self.grid();
                self.best_empty = 0;
                self.stopped = Some(StopReason::Target);
            }
            Status::Refuted => self.stopped = Some(StopReason::Refuted),
            Status::Unknown => {
                self.stopped = self.budget.spent(self.steps, self.tally.elapsed);
            }
        }
        done
    }

    /// iteration = steps (solver work), no control (there is no temperature), energy =
    /// empty cells now, acceptance = 0 (no moves to accept).
    fn sample(&mut self) -> Sample {
        let (empty, best) = (self.empty() as f64, self.best_empty as f64);
        let (phase, control) = (Phase::ConflictLearning, Control::None);
        self.tally.sample(self.steps, phase, control, empty, best)
    }

    fn stopped(&self) -> Option<StopReason> {
        self.stopped
    }

    fn snapshot(&self) -> SudokuSnapshot {
        self.snapshot_of(self.grid())
    }

    fn best_snapshot(&mut self) -> SudokuSnapshot {
        self.snapshot_of(self.best.clone())
    }

    /// Back to no decisions, keeping what was learnt (a SAT solver's restart).
    fn restart(&mut self) {
        self.tally.restarts += 1;
        self.solver.restart_search();
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::problems::sudoku::{deduce, is_valid_solution, parse_puzzles};

    fn learner(text: &str, budget: Budget) -> (crate::problems::sudoku::Puzzle, ConflictLearning) {
        let puzzle = parse_puzzles(text, "test").unwrap().remove(0);
        let geometry = Arc::new(Geometry::new(puzzle.n));
        let deduced = deduce(&geometry, &puzzle.cells).unwrap();
        let (cells, marks) = (&deduced.cells, &deduced.marks);
        let learner = ConflictLearning::new(geometry, &puzzle.cells, cells, marks, budget, 1);
        (puzzle, learner)
    }

    fn run(learner: &mut ConflictLearning) {
        while learner.stopped().is_none() {
            learner.step_batch(100_000);
        }
    }

    #[test]
    fn solves_a_minimal_25x25_and_keeps_the_givens() {
        // Line 8 of minimal25.txt: about 1,400 conflicts, where annealing stalls at two
        // empty cells.
        let text = include_str!("../../../../../../puzzles/sudoku/minimal25.txt");
        let line = text.lines().nth(7).unwrap();
        let budget = Budget {
            time_limit: Some(Duration::from_secs(60)),
            ..Budget::default()
        };
        let (puzzle, mut learner) = learner(line, budget);
        run(&mut learner);
        assert_eq!(learner.stopped(), Some(StopReason::Target));
        let sample = learner.sample();
        assert_eq!(sample.best_energy, 0.0);
        assert!(learner.conflicts() > 100, "solved by deduction alone?");
        assert!(is_valid_solution(&puzzle, &learner.best_snapshot().values));
    }

    #[test]
    fn a_grid_with_no_solution_is_refuted_within_its_budget() {
        // r1c9 has no candidate (it must be 9, and r5c9 is); without propagation's marks.
        let text = include_str!("../../../../../../puzzles/sudoku/no_solution.txt");
        let puzzle = parse_puzzles(text, "test").unwrap().remove(0);
        let geometry = Arc::new(Geometry::new(puzzle.n));
        let marks = vec![(1u32 << geometry.side) - 1; puzzle.cells.len()];
        let budget = Budget {
            max_steps: Some(1_000_000),
            ..Budget::default()
        };
        let mut learner =
            ConflictLearning::new(geometry, &puzzle.cells, &puzzle.cells, &marks, budget, 1);
        run(&mut learner);
        assert_eq!(learner.stopped(), Some(StopReason::Refuted));
        assert!(learner.sample().best_energy > 0.0);
        assert!(learner.sample().iteration < 1_000_000);
    }

    #[test]
    fn it_claims_no_temperature_and_a_reheat_changes_nothing() {
        let text = include_str!("../../../../../../puzzles/sudoku/minimal25.txt");
        let (_, mut learner) = learner(text.lines().next().unwrap(), Budget::default());
        learner.step_batch(1_000);
        learner.reheat(5.0);
        let sample = learner.sample();
        assert_eq!(sample.phase, Phase::ConflictLearning);
        assert_eq!(sample.control, Control::None);
        assert_eq!(sample.control.temperature(), None);
        assert_eq!(sample.reheats, 0, "a reheat of nothing is not counted");
    }

    #[test]
    fn its_grid_never_breaks_a_rule() {
        let text = include_str!("../../../../../../puzzles/sudoku/minimal25.txt");
        let (puzzle, mut learner) = learner(text.lines().next().unwrap(), Budget::default());
        for _ in 0..50 {
            learner.step_batch(20_000);
            let grid = learner.snapshot().values;
            let geometry = Geometry::new(puzzle.n);
            for unit in &geometry.units {
                let mut seen = 0u32;
                for &cell in unit.iter().filter(|&&c| grid[c] != 0) {
                    let bit = 1 << (grid[cell] - 1);
                    assert_eq!(seen & bit, 0, "a value twice in a unit");
                    seen |= bit;
                }
            }
            let empty = grid.iter().filter(|&&v| v == 0).count() as f64;
            assert_eq!(learner.sample().energy, empty);
        }
    }
}
