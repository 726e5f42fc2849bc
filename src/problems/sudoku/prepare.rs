//! From a parsed puzzle to something the runner can anneal: propagation, the exact check,
//! the per-size defaults and the run configuration.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::SeedableRng;

use super::box_swaps::BoxSwaps;
use super::deduce::{Deduced, deduce};
use super::exact::{Solutions, count_solutions, node_limit};
use super::grid::{Geometry, Puzzle};
use super::model::Model;
use crate::anneal::Rng;
use crate::headless::spec::{Defaults, ScheduleKind, StallKind, StartTemperature};

/// Seconds per puzzle when no --time-limit is given, so nothing hangs.
pub const DEFAULT_TIME_LIMIT: f64 = 60.0;
/// The same for 25x25: the hardest generated ones took one chain 166 s and 531 s (one run
/// each, sudoku25_generated_dev3 lines 1 and 2), so they get ten minutes.
const LARGE_TIME_LIMIT: f64 = 600.0;

/// Chains a run uses when --threads is not given: two from 16x16 on (for 16x16 a partial
/// fill and box swaps, the first for minimal puzzles, the second for sparse grids with many
/// solutions; for 25x25 box swaps and conflict learning, as annealing alone leaves minimal
/// 25x25 puzzles two cells short for minutes); one below, where a puzzle takes milliseconds.
/// A fixed number, not the machine's core count, so that a seed gives the
/// same run everywhere.
pub fn default_threads(n: usize) -> usize {
    if n >= 4 { 2 } else { 1 }
}

/// Kiln's Sudoku schedule for a chain of `model`: a constant temperature near 0.3; box swaps
/// get a fresh random fill when the energy has not improved for a while (the window grows
/// with the grid), the partial fill never restarts, as it keeps moving at any energy.
pub fn defaults(n: usize, model: Model) -> Defaults {
    let time_limit = Some(if n >= 5 {
        LARGE_TIME_LIMIT
    } else {
        DEFAULT_TIME_LIMIT
    });
    if model == Model::PartialFill {
        // The temperature that solved most of the minimal 25x25 set (docs/tuning.md).
        return Defaults {
            schedule: ScheduleKind::Constant,
            t0: StartTemperature::Fixed(0.3),
            time_limit,
            ..Defaults::default()
        };
    }
    let (t0, stall) = match n {
        2 | 3 => (0.3, 1_000_000),
        // The window and temperature that solved most 16x16 (docs/tuning.md).
        4 => (0.3, 5_000_000),
        // Just below the temperature where the chain stops settling (docs/tuning.md).
        _ => (0.34, 10_000_000),
    };
    Defaults {
        schedule: ScheduleKind::Constant,
        t0: StartTemperature::Fixed(t0),
        stall: Some(stall),
        on_stall: StallKind::Restart,
        time_limit,
        ..Defaults::default()
    }
}

/// Fraction of conflict-focused moves per box side n.
pub fn default_focus(n: usize) -> f64 {
    match n {
        // The share that cut the worst 9x9 runs most (docs/tuning.md).
        2 | 3 => 0.5,
        // Solved every 16x16 of the tuning set where no focus solved under half.
        4 => 0.2,
        _ => 0.5,
    }
}

/// Fraction of swaps extended to a row- or column-keeping pair: no Sudoku set solves slower
/// with it, the hardest faster (docs/tuning.md).
pub const DEFAULT_PAIRS: f64 = 0.3;

/// Mixed into the seed for a random fill, so it is drawn apart from the run's own moves.
pub(super) const FILL_SALT: u64 = 0x5eed_50d0_0000_0001;

/// A puzzle checked and made ready to anneal.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The puzzle as read.
    pub puzzle: Puzzle,
    /// Its rows, columns and boxes.
    pub geometry: Arc<Geometry>,
    /// Givens plus the cells propagation forced (0 = left to the annealer).
    pub fixed: Vec<u8>,
    /// Per cell, the values propagation left possible (bit v-1; all for open cells when
    /// propagation is off, 0 for fixed cells). Random fills honour them where they can.
    pub marks: Vec<u32>,
    /// How many cells propagation forced (0 with propagation off).
    pub propagated: usize,
    /// What the exact search says (`None` also when propagation found a contradiction).
    pub solutions: Solutions,
    /// Time spent in the exact search.
    pub check_time: Duration,
}

impl Prepared {
    /// Propagates (when `propagate_singles`) and counts solutions up to two.
    pub fn new(puzzle: &Puzzle, propagate_singles: bool) -> Self {
        let geometry = Arc::new(Geometry::new(puzzle.n));
        let forced = if propagate_singles {
            deduce(&geometry, &puzzle.cells).ok()
        } else {
            Some(Deduced::as_given(&geometry, &puzzle.cells))
        };
        let started = Instant::now();
        let (fixed, marks, solutions) = match forced {
            Some(Deduced { cells, marks }) => {
                let solutions = count_solutions(&geometry, &cells, node_limit(puzzle.n));
                (cells, marks, solutions)
            }
            None => (
                puzzle.cells.clone(),
                vec![0; puzzle.cells.len()],
                Solutions::None,
            ),
        };
        let propagated = fixed.iter().filter(|&&v| v != 0).count() - puzzle.givens();
        Prepared {
            puzzle: puzzle.clone(),
            geometry,
            fixed,
            marks,
            propagated,
            solutions,
            check_time: started.elapsed(),
        }
    }

    /// Whether the exact check proved that the puzzle has no solution.
    pub fn has_no_solution(&self) -> bool {
        self.solutions == Solutions::None
    }

    /// The annealing state, filled at random from `seed`, with this size's focus and pairs.
    pub fn problem(&self, seed: u64) -> BoxSwaps {
        let mut rng = Rng::seed_from_u64(seed ^ FILL_SALT);
        let mut problem = BoxSwaps::with_marks(
            Arc::clone(&self.geometry),
            &self.puzzle.cells,
            &self.fixed,
            &self.marks,
            &mut rng,
        );
        problem.set_focus(default_focus(self.puzzle.n));
        problem.set_pairs(DEFAULT_PAIRS);
        problem
    }

    /// "9x9 from FILE:LINE, 24 givens, 12 propagated": a title for the UI.
    pub fn title(&self) -> String {
        let side = self.puzzle.side();
        format!(
            "{side}x{side} from {}, {} givens, {} propagated",
            self.puzzle.source,
            self.puzzle.givens(),
            self.propagated
        )
    }
}
