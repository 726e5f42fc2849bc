//! From a parsed puzzle to something the runner can anneal: propagation, the exact check,
//! the per-size defaults and the run configuration.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::SeedableRng;

use super::SudokuArgs;
use super::anneal::SudokuAnneal;
use super::deduce::{Deduced, deduce};
use super::exact::{Solutions, count_solutions, node_limit};
use super::grid::{Geometry, Puzzle};
use super::presets::SudokuSearch;
use super::tempering::{Tempering, TemperingConfig};
use super::weighting::{Breakout, WeightingConfig};
use crate::anneal::{Parallel, Rng, RunConfig, Runner, nth_seed};
use crate::anneal_args::{AnnealArgs, Defaults, ScheduleKind, StallKind, StartTemperature};

/// Seconds per puzzle when no --time-limit is given, so nothing hangs.
pub const DEFAULT_TIME_LIMIT: f64 = 60.0;
/// The same for 25x25: the hardest generated ones took one chain 166 s and 531 s (one run
/// each, sudoku25_generated_dev3 lines 1 and 2), so they get ten minutes.
const LARGE_TIME_LIMIT: f64 = 600.0;

/// Chains a headless run uses when --threads is not given: two for 25x25, whose hardest
/// puzzles take minutes of restarts (two chains, about half the time on two cores); one
/// below, where a puzzle takes milliseconds. A fixed number, not the machine's core count,
/// so that a seed gives the same run everywhere.
pub fn default_threads(n: usize) -> usize {
    if n >= 5 { 2 } else { 1 }
}

/// Kiln's Sudoku schedule: a constant temperature near 0.3 and a fresh random fill when the
/// energy has not improved for a while (the window grows with the grid).
pub fn defaults(n: usize) -> Defaults {
    let (t0, stall) = match n {
        2 | 3 => (0.3, 1_000_000),
        // sudoku16_generated_dev10 at 100M steps with focus 0.2: a 2M window solved 8/10,
        // 5M 10/10, 60M 7/10. Solves per G steps (seeds 1-3, 20 s): T 0.27 6.3, 0.3 21.6,
        // 0.35 8.5, 0.4 1.8.
        4 => (0.3, 5_000_000),
        // The hard 25x25 ones (sudoku25_generated_dev3) solve fastest just below the
        // temperature where the chain stops settling. Solves per G steps on that file's
        // lines 1-2 with 4 cells of the solution added (3 variants x 4 seeds, 30 s): T 0.3
        // 0.42 and 0.26, 0.34 1.48 and 1.49, 0.36 1.3-1.9, 0.38 1.17; with 8 cells added:
        // 0.25 0.66, 0.3 3.1, 0.35 14.3, 0.38 20.6, 0.41 3.4, 0.44 0.37. On the file itself
        // (two chains, seeds 1-3, lines 1-3): T 0.3 7 solves in 195G steps, 0.34 8 in 128G,
        // 0.36 8 in 92G. But that edge is lower for sparse grids: one chain on the 100
        // Lewis-style 25x25 (0-95 % givens) took at most 0.44 s at 0.34 and 9.8 s at 0.36
        // (the empty grid), and at 0.38 five 30-35 % ones were not solved in 30 s. The
        // stall window matters little here (3M, 10M, 30M within noise at T 0.36).
        _ => (0.34, 10_000_000),
    };
    Defaults {
        schedule: ScheduleKind::Constant,
        t0: StartTemperature::Fixed(t0),
        stall: Some(stall),
        on_stall: StallKind::Restart,
        time_limit: Some(if n >= 5 {
            LARGE_TIME_LIMIT
        } else {
            DEFAULT_TIME_LIMIT
        }),
        ..Defaults::default()
    }
}

/// Fraction of conflict-focused moves per box side n.
pub fn default_focus(n: usize) -> f64 {
    match n {
        // top95 by iterations: 0 median 620k max 40M; 0.3 276k / 5.1M; 0.5 232k / 9.5M;
        // clue17_dev100 max: 0 93M, 0.3 17M, 0.5 2.0M.
        2 | 3 => 0.5,
        // sudoku16_generated_dev10 at 100M steps, stall 5M: 0 solved 4/10, 0.2 solved 10/10.
        4 => 0.2,
        _ => 0.5,
    }
}

/// Constraint weighting's window (steps without a new weighted low before a raise) and
/// decay period (raises between drops of every weight), tuned on 25x25 grids at T = 0.3.
/// Solutions per 20 s of sudoku25_generated_dev3 line 1 with 8 more givens from its
/// solution (a restart after each): window 500 15, 1000 72, 2000 67, 4000 78, 5000 61
/// (decay 3); decay 6 46; without weighting 13. Weighting is opt-in (--weighting): its
/// gain shrinks as puzzles get harder (line 1 with 4 more givens: 1 of 3 seeds solved in
/// 40 s, 2 of 3 without), it solves none of lines 1-2 in 60 s either, and on
/// sudoku16_generated_dev10 it is slower (max 555M steps against 85M). On the 45-50 %
/// 25x25 lines of lewis_style_dev300 it takes 0.63x the steps (seeds 1-10).
pub const WEIGHTING_WINDOW: u64 = 2_000;
pub const WEIGHTING_DECAY: u64 = 3;
/// The temperature weighting was tuned at (every size), used when --t0 is not given.
const WEIGHTING_TEMPERATURE: f64 = 0.3;

/// Steps each replica takes between offers to exchange temperatures.
const TEMPERING_SWEEP: u64 = 1_000;

/// Hottest rung of the tempering ladder when --t-hot is not given: on 25x25 grids the
/// energy jumps from about 20 to about 60 between T = 0.40 and 0.45, so the ladder spans
/// that transition. Tempering is opt-in (--replicas): on sudoku25_generated_dev3 line 3,
/// 4-16 replicas over 0.22-0.6 solved none of 10 runs of 0.6G-1.8G steps, one chain with
/// restarts 2 of 6 runs of 0.6G (seeds 1-6); lines 1-2 stayed at energy 2 either way.
pub const DEFAULT_T_HOT: f64 = 0.5;

/// A puzzle checked and made ready to anneal.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub puzzle: Puzzle,
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
    /// Time spent propagating.
    pub propagate_time: Duration,
    /// Time spent in the exact search.
    pub check_time: Duration,
}

impl Prepared {
    /// Propagates (when `propagate_singles`) and counts solutions up to two.
    pub fn new(puzzle: &Puzzle, propagate_singles: bool) -> Self {
        let geometry = Arc::new(Geometry::new(puzzle.n));
        let started = Instant::now();
        let forced = if propagate_singles {
            deduce(&geometry, &puzzle.cells).ok()
        } else {
            let all = (1u32 << geometry.side) - 1;
            let marks = puzzle.cells.iter().map(|&v| if v == 0 { all } else { 0 });
            Some(Deduced {
                cells: puzzle.cells.clone(),
                marks: marks.collect(),
            })
        };
        let propagate_time = started.elapsed();
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
            propagate_time,
            check_time: started.elapsed(),
        }
    }

    pub fn has_no_solution(&self) -> bool {
        self.solutions == Solutions::None
    }

    /// The annealing state, filled at random from `seed`, with this size's focus.
    pub fn problem(&self, seed: u64) -> SudokuAnneal {
        let mut rng = Rng::seed_from_u64(seed ^ 0x5eed_50d0_0000_0001u64);
        let mut problem = SudokuAnneal::with_marks(
            Arc::clone(&self.geometry),
            &self.puzzle.cells,
            &self.fixed,
            &self.marks,
            &mut rng,
        );
        problem.set_focus(default_focus(self.puzzle.n));
        problem
    }

    /// The run configuration from the shared flags over this size's defaults, stopping at
    /// energy 0. Errors name the flag.
    pub fn run_config(
        &self,
        args: &AnnealArgs,
        problem: &SudokuAnneal,
    ) -> Result<RunConfig, String> {
        let mut config = args.run_config(&defaults(self.puzzle.n), |acceptance| {
            crate::anneal::auto_temperature(problem, args.seed, acceptance, 10_000)
        })?;
        config.target_energy = Some(0.0);
        Ok(config)
    }

    /// The search the flags ask for: one annealing chain, or parallel tempering when more
    /// than one replica is wanted (its coldest rung at the chain's start temperature); with
    /// the chain's configuration, for displays.
    pub fn search(&self, args: &SudokuArgs) -> Result<(SudokuSearch, RunConfig), String> {
        let seed = args.anneal.seed;
        let mut problem = self.problem(seed);
        if let Some(focus) = args.focus {
            problem.set_focus(focus);
        }
        let config = self.run_config(&args.anneal, &problem)?;
        if args.weighting.weighting {
            let weighting = WeightingConfig {
                temperature: match args.anneal.t0 {
                    None => WEIGHTING_TEMPERATURE,
                    Some(_) => config.t0,
                },
                window: args.weighting.weight_window.unwrap_or(WEIGHTING_WINDOW),
                decay_every: args.weighting.weight_decay.unwrap_or(WEIGHTING_DECAY),
                restart_after: config.stagnation.map(|s| s.window),
                target_energy: config.target_energy,
                max_steps: config.max_steps,
                time_limit: config.time_limit,
            };
            return Ok((Box::new(Breakout::new(problem, weighting, seed)), config));
        }
        let replicas = args.tempering.replicas.unwrap_or(1) as usize;
        if replicas <= 1 {
            return Ok((Box::new(Runner::new(problem, config.clone(), seed)), config));
        }
        let tempering = TemperingConfig {
            replicas,
            t_cold: config.t0,
            t_hot: args.tempering.t_hot.unwrap_or(DEFAULT_T_HOT),
            sweep: TEMPERING_SWEEP,
            target_energy: config.target_energy,
            max_steps: config.max_steps,
            time_limit: config.time_limit,
        };
        Ok((Box::new(Tempering::new(problem, tempering, seed)), config))
    }

    /// The headless search: [`Prepared::search`] on `threads` chains side by side, each with
    /// its own seed and its share of --max-steps.
    pub fn parallel_search(
        &self,
        args: &SudokuArgs,
        threads: usize,
    ) -> Result<SudokuSearch, String> {
        if threads <= 1 {
            return Ok(self.search(args)?.0);
        }
        let chains = (0..threads)
            .map(|i| {
                let mut chain = args.clone();
                chain.anneal.seed = nth_seed(args.anneal.seed, i);
                chain.anneal.max_steps = args.anneal.max_steps.map(|m| m.div_ceil(threads as u64));
                Ok(self.search(&chain)?.0)
            })
            .collect::<Result<Vec<_>, String>>()?;
        let time_limit = self
            .run_config(&args.anneal, &self.problem(args.anneal.seed))?
            .time_limit;
        Ok(Box::new(Parallel::new(chains, time_limit)))
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
