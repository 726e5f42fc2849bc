//! Named presets that reproduce the classroom solvers' algorithms on kiln's engine, plus the
//! genetic algorithm. A preset is a pure mapping (`plan`) from its name, the puzzle's size
//! and the flags to a model, a propagation switch and a run configuration; explicit flags
//! override the preset's values. `solver` turns a plan into something the worker, the
//! headless run and race mode can all drive.

use std::fmt;
use std::str::FromStr;

use rand::SeedableRng;

use super::cdcl::ConflictLearning;
use super::cell_values::CellValues;
use super::ga::{GaConfig, Genetic, MAX_RATE, MIN_RATE};
use super::grid::Puzzle;
use super::model::Model;
use super::partial_fill::PartialFill;
use super::prepare::{
    DEFAULT_PAIRS, DEFAULT_TIME_LIMIT, FILL_SALT, Prepared, default_focus, default_threads,
    defaults,
};
use super::snapshot::SudokuSnapshot;
use super::spec::SudokuSpec;
use crate::anneal::{
    Checkpoint, Launch, Problem, Rng, RunConfig, Runner, Schedule, StallAction, auto_temperature,
};
use crate::headless::spec::{Defaults, ScheduleKind, StallKind, StartTemperature};
use crate::input::InputError;
use crate::search::{Budget, Parallel, Search, Sharing, Unpaced};

/// A named way to solve Sudoku (`--preset`): the classroom solvers kiln is compared with,
/// and its own. `kiln presets` prints what each does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Preset {
    /// `geometric-restart`.
    GeometricRestart,
    /// `yarpiz`: Yarpiz's stepped schedule.
    Yarpiz,
    /// `reheat`.
    Reheat,
    /// `lundy`: the Lundy-Mees schedule.
    Lundy,
    /// `cell-linear`: single cells, any value.
    CellValues,
    /// `kiln`: kiln's own, the default.
    Kiln,
    /// `ga`: the genetic algorithm.
    Ga,
}

/// Every preset, in the order `kiln presets` lists them.
pub const PRESETS: [Preset; 7] = [
    Preset::GeometricRestart,
    Preset::Yarpiz,
    Preset::Reheat,
    Preset::Lundy,
    Preset::CellValues,
    Preset::Kiln,
    Preset::Ga,
];

/// Geometric-restart's "T <- T/1.00002".
const GEOMETRIC_RESTART_ALPHA: f64 = 1.0 / 1.000_02;
/// Yarpiz: 350 outer iterations of 20 sub-iterations each.
const YARPIZ_INNER: u64 = 20;
const YARPIZ_OUTER: u64 = 350;
/// Lundy: T0 = 100 down to Tmin = 0.01 in 100,000 steps, so k = (T0/Tmin - 1) / steps.
const LUNDY_STEPS: u64 = 100_000;
const LUNDY_T0: f64 = 100.0;
const LUNDY_T_MIN: f64 = 0.01;
/// Cell-linear: 300 temperatures, 200 sweeps at each.
const CELL_LINEAR_LEVELS: u64 = 300;
const CELL_LINEAR_SWEEPS: u64 = 200;
const CELL_LINEAR_T0: f64 = 0.5;
const CELL_LINEAR_T_MIN: f64 = 0.05;
/// The box side from which kiln's own preset anneals a partial fill in its first chain
/// (and every other one), box swaps in the rest (up to `LEARNING_FROM`): the partial fill
/// solves the minimal 16x16 puzzles that box swaps leave at two or three clashes, box swaps
/// the sparse grids with many solutions that the partial fill leaves dozens of cells short
/// (docs/benchmarks.md); on 9x9 both take milliseconds, and box swaps show the clashes.
const PARTIAL_FROM: usize = 4;
/// The box side from which kiln's own preset runs conflict learning in its second chain
/// (and every other one) and box swaps in the rest: annealing alone leaves minimal 25x25
/// puzzles two cells short (docs/benchmarks.md), where learning solves them in seconds;
/// box swaps solve the sparse grids learning finds hardest.
const LEARNING_FROM: usize = 5;
/// Reheat: steps without a new best before T goes back to T0.
const REHEAT_STALL: u64 = 100_000;

impl Preset {
    /// The preset's name, as `--preset` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Preset::GeometricRestart => "geometric-restart",
            Preset::Yarpiz => "yarpiz",
            Preset::Reheat => "reheat",
            Preset::Lundy => "lundy",
            Preset::CellValues => "cell-linear",
            Preset::Kiln => "kiln",
            Preset::Ga => "ga",
        }
    }

    /// The algorithm and its parameters, one line (what `kiln presets` prints).
    pub fn description(self) -> &'static str {
        match self {
            Preset::GeometricRestart => {
                "box swaps, no propagation; T0 = 0.5, T <- T/1.00002 every step; restart when \
                 the best energy improved by <= 4 over the last 50,000 steps"
            }
            Preset::Yarpiz => {
                "box swaps, no propagation; T0 = 0.04, T <- 0.99*T every 20 steps; restart \
                 after 350 temperatures (7,000 steps)"
            }
            Preset::Reheat => {
                "box swaps, no propagation; T0 = 0.5, T <- 0.99999*T every step; reheat to \
                 T0 after 100,000 steps without a new best"
            }
            Preset::Lundy => {
                "box swaps, no propagation; T = T0/(1 + k*i), T0 = 100, k = 0.09999 (Tmin = \
                 0.01 at step 100,000); restart every 100,000 steps"
            }
            Preset::CellValues => {
                "one cell gets a random value, energy = duplicates in rows, columns and boxes, \
                 no propagation; T from 0.5 down to 0.05 in 300 equal steps of 200 sweeps (a \
                 sweep = one move per empty cell); then restart"
            }
            Preset::Kiln => {
                "after propagation (singles, locked candidates, naked pairs), box swaps, half \
                 aimed at conflicts, 30% paired with a swap in another box that keeps every \
                 row (or column); constant T = 0.3 (0.34 for 25x25), restart after 1,000,000 \
                 steps without a new best (longer for 16x16 and 25x25); 16x16 runs two \
                 chains, the first annealing instead a fill that breaks no rule (a candidate \
                 goes into an empty cell and empties the cells it clashes with, energy = \
                 empty cells) at T = 0.3; 25x25 runs two, box swaps and conflict-driven \
                 clause learning (a SAT solver's search, not annealing)"
            }
            Preset::Ga => {
                "genetic algorithm on box permutations, no propagation; population 1000, 5% \
                 elites, tournaments of 3, box crossover, in-box swap mutation from rate 0.06 \
                 adapted by the 1/5 rule; new population after 100 generations without progress"
            }
        }
    }

    /// What chain `chain` of the preset searches with on a grid of box side `n`.
    pub fn model(self, n: usize, chain: usize) -> Model {
        match self {
            Preset::CellValues => Model::CellValues,
            Preset::Ga => Model::Genetic,
            Preset::Kiln if n >= LEARNING_FROM => {
                [Model::BoxSwap, Model::ConflictLearning][chain % 2]
            }
            Preset::Kiln if n >= PARTIAL_FROM && chain.is_multiple_of(2) => Model::PartialFill,
            _ => Model::BoxSwap,
        }
    }

    /// Whether singles propagation runs first (`--no-propagate` turns it off for any).
    pub fn propagates(self) -> bool {
        self == Preset::Kiln
    }

    /// Whether the preset anneals box swaps (kiln's own does in every chain on small grids,
    /// in every other chain on large ones).
    pub fn swaps_boxes(self) -> bool {
        self.model(3, 0) == Model::BoxSwap
    }

    /// What `chains` chains of the preset run on a grid of box side `n`, the `algorithm`
    /// field of reports: "anneal", "ga", or "anneal+conflict-learning" when chains of both
    /// kinds run side by side (a solve by conflict learning is never credited to annealing).
    pub fn algorithm(self, n: usize, chains: usize) -> &'static str {
        let models: Vec<Model> = (0..chains.max(1)).map(|i| self.model(n, i)).collect();
        let learns = models.contains(&Model::ConflictLearning);
        let anneals =
            (models.iter()).any(|m| !matches!(m, Model::ConflictLearning | Model::Genetic));
        match (self, anneals, learns) {
            (Preset::Ga, ..) => "ga",
            (_, true, true) => "anneal+conflict-learning",
            (_, false, true) => "conflict-learning",
            _ => "anneal",
        }
    }

    /// The preset's values for the shared flags, before the user's flags override them.
    fn defaults(self, n: usize, model: Model) -> Defaults {
        let base = Defaults {
            time_limit: Some(DEFAULT_TIME_LIMIT),
            stall: None,
            on_stall: StallKind::Nothing,
            ..Defaults::default()
        };
        match self {
            Preset::GeometricRestart => Defaults {
                schedule: ScheduleKind::Geometric,
                t0: StartTemperature::Fixed(0.5),
                alpha: GEOMETRIC_RESTART_ALPHA,
                ..base
            },
            Preset::Yarpiz => Defaults {
                schedule: ScheduleKind::Geometric,
                t0: StartTemperature::Fixed(0.04),
                alpha: 0.99,
                ..base
            },
            Preset::Reheat => Defaults {
                schedule: ScheduleKind::Geometric,
                t0: StartTemperature::Fixed(0.5),
                alpha: 0.999_99,
                stall: Some(REHEAT_STALL),
                on_stall: StallKind::Reheat,
                ..base
            },
            Preset::Lundy => Defaults {
                schedule: ScheduleKind::LundyMees,
                t0: StartTemperature::Fixed(LUNDY_T0),
                k: (LUNDY_T0 / LUNDY_T_MIN - 1.0) / LUNDY_STEPS as f64,
                t_min: LUNDY_T_MIN,
                ..base
            },
            Preset::CellValues => Defaults {
                schedule: ScheduleKind::Linear,
                t0: StartTemperature::Fixed(CELL_LINEAR_T0),
                t_min: CELL_LINEAR_T_MIN,
                ..base
            },
            Preset::Kiln | Preset::Ga => defaults(n, model),
        }
    }
}

/// `kiln presets`: every preset with its parameters.
pub fn list_presets(out: &mut dyn std::io::Write) -> std::io::Result<()> {
    for preset in PRESETS {
        writeln!(out, "{:<18} {}", preset.name(), preset.description())?;
    }
    Ok(())
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        PRESETS
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                let names: Vec<_> = PRESETS.iter().map(|p| p.name()).collect();
                format!("'{s}' is not a preset (one of {})", names.join(", "))
            })
    }
}

/// Everything a preset decides, with the user's flags on top.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The preset it comes from.
    pub preset: Preset,
    /// What the first chain searches with.
    pub model: Model,
    /// Whether the puzzle is propagated (singles, locked candidates, naked pairs) first.
    pub propagate: bool,
    /// The annealing run (for the GA: its time limit and, as `max_steps`, its evaluations).
    pub config: RunConfig,
    /// The GA's settings (only for `Model::Genetic`).
    pub ga: Option<GaConfig>,
    /// Fraction of box-swap moves aimed at conflicts: kiln's own; the classroom solvers
    /// drew their swaps uniformly.
    pub focus: f64,
    /// Fraction of swaps extended to a pair of swaps that keeps every row or every column:
    /// kiln's own.
    pub pairs: f64,
    /// Independent chains side by side, the first to solve wins.
    pub threads: usize,
}

/// The plan for chain `chain` of `spec` (its preset, or kiln's own) on a grid of box side
/// `n` whose model leaves `free_cells` cells to the search (the cell-linear sweep).
/// `auto_t0(acceptance)` is called only for `--t0 auto`. Errors name the flag.
pub fn plan(
    spec: &SudokuSpec,
    n: usize,
    chain: usize,
    free_cells: usize,
    auto_t0: impl FnOnce(f64) -> f64,
) -> Result<Plan, InputError> {
    let args = &spec.model;
    let preset = args.preset();
    let anneal = &spec.run.cooling;
    let model = preset.model(n, chain);
    let d = preset.defaults(n, model);
    let mut config = spec.run.run_config(&d, auto_t0)?;
    config.budget.target = Some(0.0);
    // What the shared flags cannot say: temperatures held for a number of steps, and the
    // periodic restart rules. A --schedule flag replaces the first, --stall/--on-stall the
    // second.
    let unconditional = |every| Checkpoint {
        every,
        min_gain: f64::INFINITY,
        action: StallAction::Restart,
    };
    let sweep = free_cells.max(1) as u64;
    let (schedule, checkpoint) = match preset {
        Preset::GeometricRestart => (
            None,
            Some(Checkpoint {
                every: 50_000,
                min_gain: 4.0,
                action: StallAction::Restart,
            }),
        ),
        Preset::Yarpiz => (
            Some(Schedule::Stepped {
                alpha: anneal.alpha.unwrap_or(d.alpha),
                every: YARPIZ_INNER,
            }),
            Some(unconditional(YARPIZ_INNER * YARPIZ_OUTER)),
        ),
        Preset::Lundy => (None, Some(unconditional(LUNDY_STEPS))),
        Preset::CellValues => {
            let every = CELL_LINEAR_SWEEPS * sweep;
            (
                Some(Schedule::Levels {
                    t_min: anneal.t_min.unwrap_or(d.t_min),
                    levels: CELL_LINEAR_LEVELS,
                    every,
                }),
                Some(unconditional(CELL_LINEAR_LEVELS * every)),
            )
        }
        Preset::Reheat | Preset::Kiln | Preset::Ga => (None, None),
    };
    if let Some(schedule) = schedule
        && anneal.schedule.is_none()
    {
        config.schedule = schedule;
    }
    if anneal.stall.is_none() && anneal.on_stall.is_none() {
        config.checkpoint = checkpoint;
    }
    let ga = (model == Model::Genetic).then(|| {
        let base = GaConfig::default();
        GaConfig {
            population: args.ga.population.map_or(base.population, |p| p as usize),
            elites: args.ga.elites.unwrap_or(base.elites),
            mutation: args.ga.mutation.unwrap_or(base.mutation),
            stall_generations: anneal.stall.unwrap_or(base.stall_generations),
            budget: config.budget,
        }
    });
    let (focus, pairs) = match preset {
        Preset::Kiln => (default_focus(n), DEFAULT_PAIRS),
        _ => (0.0, 0.0),
    };
    Ok(Plan {
        preset,
        model,
        propagate: preset.propagates() && !args.no_propagate,
        config,
        ga,
        focus: args.focus.unwrap_or(focus),
        pairs: args.pairs.unwrap_or(pairs),
        threads: threads(spec, n),
    })
}

/// The chains a run of `spec` on a grid of box side `n` runs side by side: --threads, or
/// kiln's default for the size; one for the classroom presets, which ran one chain.
pub(super) fn threads(spec: &SudokuSpec, n: usize) -> usize {
    let args = &spec.model;
    let default = match args.preset() {
        Preset::Kiln => default_threads(n),
        _ => 1,
    };
    args.threads.map_or(default, |t| t as usize)
}

/// A search the worker (or a headless loop) can drive, whatever the preset.
pub type SudokuSearch = Box<dyn Search<Snapshot = SudokuSnapshot>>;

/// A preset ready to run on one puzzle: what every Sudoku run (headless, live, a race
/// pane) is built as.
pub struct Solver {
    /// The preset it runs.
    pub preset: Preset,
    /// "geometric-restart: 9x9 from FILE:LINE, 23 givens, 0 propagated", for pane titles.
    pub label: String,
    /// The puzzle, propagated if the plan says so.
    pub prepared: Prepared,
    /// What the preset decided, with the user's flags on top.
    pub plan: Plan,
    /// The search, ready to step.
    pub search: SudokuSearch,
    /// What the UI's reheat key should raise the temperature (GA: mutation rate) to.
    pub reheat_to: f64,
    /// The whole run's budget: the plan is one chain's, and the run's steps are all its
    /// chains' together.
    pub budget: Budget,
}

impl Solver {
    /// What solved the puzzle: `propagation` when it left no cell open, else the model of
    /// the chain that reached the target (the only chain's, when one ran); ask only once
    /// the run has reached its target.
    pub fn solved_by(&self) -> &'static str {
        if !self.prepared.fixed.contains(&0) {
            return "propagation";
        }
        let chain = self.search.winner().unwrap_or(0);
        self.preset.model(self.prepared.puzzle.n, chain).name()
    }

    /// Which search each chain runs, when chains of different kinds run side by side
    /// ("2 chains: box swaps, conflict learning"), for the live view's title bar.
    pub fn chains(&self) -> Option<String> {
        let n = self.prepared.puzzle.n;
        let models: Vec<Model> = (0..self.plan.threads)
            .map(|i| self.preset.model(n, i))
            .collect();
        let kinds: Vec<String> = models.iter().map(|m| m.name().replace('-', " ")).collect();
        let mixed = models.iter().any(|&m| m != models[0]);
        mixed.then(|| format!("{} chains: {}", kinds.len(), kinds.join(", ")))
    }

    /// The temperatures a display should span: from the start (or reheat) temperature
    /// down to where one cooling run ends, when that is known (for the GA: the range of
    /// its mutation rate).
    pub fn temperature_span(&self) -> (f64, Option<f64>) {
        match self.plan.model {
            Model::Genetic => (MAX_RATE, Some(MIN_RATE)),
            _ => self.plan.config.temperature_span(self.reheat_to),
        }
    }
    /// The run, titled `title`, for the live view.
    pub fn launch(self, title: String) -> Launch<SudokuSearch> {
        Launch {
            title,
            span: self.temperature_span(),
            reheat_to: self.reheat_to,
            budget: self.budget,
            search: self.search,
            // The phases a solver goes through are named by its samples.
            plan: Vec::new(),
        }
    }
}

/// Builds the run `spec` asks for on `puzzle` (seed, preset or kiln's own, budget,
/// overrides): the one way every Sudoku run is set up. Several chains each get their own
/// seed and their share of the steps (`Run::chain`); the plan is the first chain's.
pub fn solver(puzzle: &Puzzle, spec: &SudokuSpec) -> Result<Solver, InputError> {
    build(puzzle, spec, false)
}

/// `solver` for a run watched at a rising pace: conflict learning, which has no moves to
/// watch, runs flat out on its own thread beside the chain the view shows (`Unpaced`), so
/// that a 25x25 reaches its verdict while the box swaps go at a pace that can be followed.
pub fn watched_solver(puzzle: &Puzzle, spec: &SudokuSpec) -> Result<Solver, InputError> {
    build(puzzle, spec, true)
}

fn build(puzzle: &Puzzle, spec: &SudokuSpec, unpaced: bool) -> Result<Solver, InputError> {
    let preset = spec.model.preset();
    check_populations(puzzle, spec)?;
    let prepared = Prepared::new(puzzle, preset.propagates() && !spec.model.no_propagate);
    let free_cells = prepared.fixed.iter().filter(|&&v| v == 0).count();
    let threads = threads(spec, puzzle.n);
    let mut chains: Vec<(Plan, SudokuSearch)> = Vec::with_capacity(threads);
    for i in 0..threads {
        // Chains are made one after another (a conflict learner's clauses take a tenth of
        // a second on a 25x25): those a headless run's deadline leaves no time to make
        // would never take a step, and are not made.
        if chains
            .first()
            .is_some_and(|(plan, _)| plan.config.budget.past_deadline())
        {
            break;
        }
        let mut chain = SudokuSpec {
            run: spec.run.chain(i, threads),
            ..spec.clone()
        };
        // A learner beside a watched chain runs flat out until its verdict or the run's
        // end: a share of the steps a pace allows would stop it long before either.
        if unpaced && preset.model(prepared.puzzle.n, i) == Model::ConflictLearning {
            chain.run.limits.max_steps = None;
        }
        let (plan, search) = self::chain(&prepared, &chain, i, free_cells)?;
        let search: SudokuSearch = match plan.model {
            Model::ConflictLearning if unpaced => Box::new(Unpaced::new(search)),
            _ => search,
        };
        chains.push((plan, search));
    }
    let mut plan = chains[0].0.clone();
    plan.threads = chains.len();
    let budget = Budget {
        max_steps: (chains.iter())
            .map(|(plan, _)| plan.config.budget.max_steps)
            .sum(),
        ..plan.config.budget
    };
    // Without a step budget a chain's cheap steps (conflict learning's beside an
    // anneal's) need not wait for the other's. A learner that runs unpaced returns at
    // once from every batch, and would take it all from the chain watched.
    let sharing = if unpaced {
        Sharing::Lockstep
    } else {
        Sharing::for_budget(spec.run.limits.max_steps)
    };
    let search = match chains.len() {
        1 => chains.swap_remove(0).1,
        _ => Box::new(Parallel::new(
            chains.into_iter().map(|(_, search)| search).collect(),
            plan.config.budget.time_limit,
            sharing,
        )),
    };
    let reheat_to = match plan.model {
        Model::Genetic => 0.5,
        _ => spec.run.reheat_temperature(&plan.config),
    };
    Ok(Solver {
        preset,
        label: format!("{preset}: {}", prepared.title()),
        prepared,
        plan,
        search,
        reheat_to,
        budget,
    })
}

/// The most memory the genetic algorithm's populations may take, over all chains: each
/// chain holds two generations of candidates, a grid each.
const MAX_POPULATIONS_BYTES: usize = 512 << 20;

/// Refuses a genetic algorithm whose populations would not fit `MAX_POPULATIONS_BYTES`
/// (`--population 20000 --threads 64` on a 25x25 would take 1.7 GB), before any is made.
fn check_populations(puzzle: &Puzzle, spec: &SudokuSpec) -> Result<(), InputError> {
    let chains = threads(spec, puzzle.n);
    let genetic = (0..chains).any(|i| spec.model.preset().model(puzzle.n, i) == Model::Genetic);
    if !genetic {
        return Ok(());
    }
    let population = spec
        .model
        .ga
        .population
        .map_or(GaConfig::default().population, |p| p as usize);
    // A candidate: its grid, its cost and the vector that holds them.
    let candidate = puzzle.cells.len() + 32;
    let bytes = chains * 2 * population * candidate;
    if bytes <= MAX_POPULATIONS_BYTES {
        return Ok(());
    }
    let side = puzzle.side();
    Err(InputError::flags(format!(
        "--population {population} on {chains} threads holds {} candidate {side}x{side} \
         grids ({} MB), over the {} MB kiln allows: give a smaller --population or fewer \
         --threads",
        chains * 2 * population,
        bytes >> 20,
        MAX_POPULATIONS_BYTES >> 20
    )))
}

/// Plans a chain from its `--t0 auto` temperature for an acceptance rate.
type PlanWith<'a> = dyn Fn(&dyn Fn(f64) -> f64) -> Result<Plan, InputError> + 'a;

/// The plan of a chain annealing `problem` as it starts (`--t0 auto` samples it), from
/// `plan_with(auto_t0)`, and its run, after `tune` gives the problem the plan's move mix.
fn annealed<P>(
    mut problem: P,
    plan_with: &PlanWith,
    seed: u64,
    tune: impl FnOnce(&mut P, &Plan),
) -> Result<(Plan, SudokuSearch), InputError>
where
    P: Problem<Snapshot = SudokuSnapshot> + Send + 'static,
{
    let plan = plan_with(&|a| auto_temperature(&problem, seed, a, 10_000))?;
    tune(&mut problem, &plan);
    let search = Box::new(Runner::new(problem, plan.config.clone(), seed));
    Ok((plan, search))
}

/// The plan and the search of one chain.
fn chain(
    prepared: &Prepared,
    spec: &SudokuSpec,
    index: usize,
    free_cells: usize,
) -> Result<(Plan, SudokuSearch), InputError> {
    let seed = spec.run.seed;
    let n = prepared.puzzle.n;
    let plan_with = |auto: &dyn Fn(f64) -> f64| plan(spec, n, index, free_cells, auto);
    let (geometry, givens, fixed) = (&prepared.geometry, &prepared.puzzle.cells, &prepared.fixed);
    let mut fill = Rng::seed_from_u64(seed ^ FILL_SALT);
    Ok(match spec.model.preset().model(n, index) {
        Model::BoxSwap => annealed(prepared.problem(seed), &plan_with, seed, |p, plan| {
            p.set_focus(plan.focus);
            p.set_pairs(plan.pairs);
        })?,
        Model::CellValues => {
            let problem = CellValues::new(geometry.clone(), givens, fixed, &mut fill);
            annealed(problem, &plan_with, seed, |_, _| {})?
        }
        Model::PartialFill => {
            let marks = &prepared.marks;
            let problem = PartialFill::new(geometry.clone(), givens, fixed, marks, &mut fill);
            annealed(problem, &plan_with, seed, |_, _| {})?
        }
        Model::ConflictLearning => {
            let plan = plan_with(&|_| 1.0)?;
            let budget = plan.config.budget;
            let marks = &prepared.marks;
            let learner =
                ConflictLearning::new(geometry.clone(), givens, fixed, marks, budget, seed);
            (plan, Box::new(learner))
        }
        Model::Genetic => {
            let plan = plan_with(&|_| 1.0)?;
            let ga = plan.ga.clone().unwrap_or_default();
            let ga = Genetic::new(geometry.clone(), givens, fixed, ga, seed);
            (plan, Box::new(ga))
        }
    })
}
