//! `kiln tsp ... --headless`: anneal for part of the budget (at most a fixed number of steps
//! per city before the kicks), then kick and re-descend from the best tour for the rest (or,
//! with `--kick-share 0`, descend greedily once), print one JSON line (and a tour file).

use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

use color_eyre::eyre::WrapErr;
use rand::SeedableRng;
use serde::Serialize;

use super::TspSnapshot;
use super::ils::{self, Budget, KickStats};
use super::problem::{Cost, MoveSet};
use super::setup::build;
use super::spec::{Search, TspModel, TspSpec};
use crate::anneal::{BATCH, Problem, Rng, RunConfig};
use crate::headless::json::{self, Stop};
use crate::headless::output::Format;
use crate::headless::progress::Progress;
use crate::headless::report::{self, Counts};
use crate::messages::say;
use crate::search::{StopReason, interrupt, run_traced};

/// One line of output: the fields, their order and their meaning are docs/json.md's.
#[derive(Serialize)]
struct Report {
    problem: &'static str,
    source: String,
    name: String,
    n: usize,
    seed: u64,
    /// TSPLIB length of the final tour (always, whatever `cost` was minimised).
    length: u64,
    optimum: Option<u64>,
    gap: Option<f64>,
    iterations: u64,
    /// Wall time of the whole solve: set-up, annealing and polish.
    #[serde(serialize_with = "json::seconds")]
    seconds: f64,
    #[serde(serialize_with = "json::seconds")]
    anneal_seconds: f64,
    #[serde(serialize_with = "json::per_second")]
    steps_per_second: f64,
    /// Length of the best annealed tour, before the greedy polish.
    annealed_length: u64,
    /// Iterated local search after the anneal: kicks made, kicks that shortened the best
    /// tour, and move evaluations (the polish's counterpart of steps).
    kicks: u64,
    kick_improvements: u64,
    kick_evaluations: u64,
    reference_length: Option<u64>,
    metric: &'static str,
    moves: MoveSet,
    cost: Cost,
    energy: f64,
    t0: f64,
    schedule: String,
    restarts: u64,
    reheats: u64,
    /// What ran: annealing alone, annealing then a greedy descent, or annealing then the
    /// iterated local search.
    search: Search,
    /// The annealer's reason (kept for scripts written before `stop`).
    reason: StopReason,
    /// Why the whole run ended, polish included.
    stop: Stop,
    /// 1-based city ids in visiting order.
    tour: Vec<u32>,
    /// Why `--output` could not be written, when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    output_error: Option<String>,
    /// The final tour and the reference tour, for `--output`.
    #[serde(skip)]
    best: TspSnapshot,
    #[serde(skip)]
    reference: Option<Vec<u32>>,
    /// Whether `optimum` is the user's (`--optimum`) rather than the built-in table's.
    #[serde(skip)]
    optimum_given: bool,
}

/// The share of the budget taken from the annealer: the kicks' (`--kick-share`), or a
/// sliver of time for the descent so that it ends within the time limit too.
fn share(model: &TspModel) -> f64 {
    match model.search {
        Search::Anneal => 0.0,
        Search::AnnealDescent => DESCENT_SHARE,
        Search::AnnealIls => model.kick_share,
    }
}

/// The share of the time limit kept for the final descent. From an annealed tour it makes
/// few moves: well under 1 % of the budget at every size we measured (docs/benchmarks.md).
const DESCENT_SHARE: f64 = 0.01;

/// The most steps the anneal takes before the kicks, per city, however long the time limit:
/// annealing finds the region in a few thousand steps per city and the kicks find the best
/// tour in it, so an anneal that spanned a share of a generous limit only delayed the answer
/// (docs/benchmarks.md, "Anytime").
const ANNEAL_STEPS_PER_CITY: u64 = 20_000;

/// Mixed into the seed for the kicks' own generator.
const KICK_SEED: u64 = 0x6b69_636b;

/// Takes `share` of the time budget (and, for the kicks, of the step budget) from the
/// annealer for what follows it, which ends with the time limit of the whole run (counted
/// from `started`, setup included) or after its evaluations. Before the kicks the annealer
/// takes at most `ANNEAL_STEPS_PER_CITY` steps for each of the `n` cities.
fn split_budget(
    mut config: RunConfig,
    search: Search,
    share: f64,
    started: Instant,
    n: usize,
) -> (RunConfig, Budget) {
    // The time limit counts from the start of the run: what setup took is spent.
    let left = config
        .budget
        .time_limit
        .map(|limit| limit.saturating_sub(started.elapsed()));
    // A descent is not counted in steps: the annealer keeps them all.
    let step_share = if search == Search::AnnealIls {
        share
    } else {
        0.0
    };
    let budget = Budget {
        evaluations: config
            .budget
            .max_steps
            .map_or(u64::MAX, |steps| (steps as f64 * step_share) as u64),
        // A limit no clock can reach is no deadline.
        deadline: left.and_then(|left| Instant::now().checked_add(left)),
        target: None,
    };
    config.budget.max_steps = config
        .budget
        .max_steps
        .map(|steps| (steps as f64 * (1.0 - step_share)) as u64);
    if search == Search::AnnealIls {
        let cap = ANNEAL_STEPS_PER_CITY * n as u64;
        config.budget.max_steps = Some(config.budget.max_steps.map_or(cap, |s| s.min(cap)));
    }
    config.budget.time_limit = left.map(|left| left.mul_f64(1.0 - share));
    (config, budget)
}

/// Why a polished run ended: the kicks stop at the known optimum (and do not start when the
/// anneal reached it), or when their evaluations or the time are spent; a polish that ended
/// before either (a tour too small to kick) leaves the annealer's reason.
fn kicks_stop(kicks: &KickStats, budget: &Budget, energy: f64, annealed: StopReason) -> Stop {
    if budget.target.is_some_and(|optimum| energy == optimum) {
        Stop::Optimum
    } else if kicks.evaluations >= budget.evaluations {
        Stop::Steps
    } else if budget.deadline.is_some_and(|d| Instant::now() >= d) {
        Stop::Time
    } else {
        annealed.into()
    }
}

/// `--headless`: one run, or one for each seed of `--seeds`.
pub fn headless(
    spec: &TspSpec,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> color_eyre::Result<()> {
    report::per_seed(spec, spec.output_file()?.as_ref(), run, out, log)?;
    Ok(())
}

fn run(spec: &TspSpec) -> color_eyre::Result<Report> {
    let started = Instant::now();
    let (args, seed) = (&spec.model, spec.run.seed);
    let mut setup = build(spec)?;
    let mut trace = spec.run.open_trace(None)?;
    let t0 = setup.config.t0;
    let schedule = setup.config.schedule.to_string();
    let search = args.search;
    let share = share(args);
    // One line for the whole run: the anneal's steps, then the kicks' evaluations.
    let budget = setup.config.budget;
    let mut progress = Progress::start(budget.time_limit, budget.max_steps);
    let local_budget;
    (setup.config, local_budget) = split_budget(
        setup.config,
        search,
        share,
        started,
        setup.problem.order().len(),
    );
    // Keep a handle on the model (cheap: tables are shared) to polish the best tour.
    let mut polished = setup.problem.clone();
    // The run the live view would make of these flags, with the polish's share taken out.
    let (loaded, launch) = setup.launch(seed);
    let mut runner = launch.search;
    run_traced(&mut runner, BATCH, &mut trace, &mut progress);
    // A tour shorter than the stated optimum shows it is none: the run goes on without it
    // (the summary says so), as it would have without --optimum.
    if runner.stopped() == Some(StopReason::Target)
        && runner.best().1 < runner.config().budget.target.unwrap_or(f64::INFINITY) - 0.5
    {
        runner.forget_target();
        run_traced(&mut runner, BATCH, &mut trace, &mut progress);
    }
    let outcome = runner.finish();
    polished.set_order(&outcome.best.tour);
    let annealed_length = polished.length();
    // The energy is the length only for the Euclidean cost.
    let local_budget = Budget {
        target: loaded
            .optimum
            .filter(|&o| args.cost == Cost::Euclidean && annealed_length >= o)
            .map(|o| o as f64),
        ..local_budget
    };
    let mut descent_cut = false;
    let kicks = match search {
        Search::AnnealIls => {
            let mut rng = Rng::seed_from_u64(seed ^ KICK_SEED);
            let annealed = outcome.iterations;
            ils::iterate(&mut polished, &mut rng, local_budget, |kicks, best| {
                progress.show_at(started.elapsed(), best, annealed + kicks.evaluations);
            })
        }
        Search::AnnealDescent => {
            descent_cut = !polished.polish(local_budget.deadline).local_optimum;
            KickStats::default()
        }
        Search::Anneal => KickStats::default(),
    };
    drop(progress);
    // One pass over the tour: at a million cities each takes a hundredth of a second.
    let energy = polished.energy();
    // The annealing may have ended on its budget and the local search on a signal.
    let stop = match (interrupt::requested(), search) {
        (Some(_), _) => Stop::Interrupted,
        (None, Search::AnnealIls) => kicks_stop(&kicks, &local_budget, energy, outcome.reason),
        (None, Search::AnnealDescent) if descent_cut => Stop::Time,
        // The annealer's only target is the known optimum.
        (None, _) if outcome.reason == StopReason::Target => Stop::Optimum,
        (None, _) => outcome.reason.into(),
    };
    let length = polished.length();
    let seconds = started.elapsed().as_secs_f64();
    let anneal_seconds = outcome.elapsed.as_secs_f64();

    trace.finish().wrap_err("writing the --trace file")?;
    Ok(Report {
        problem: "tsp",
        source: loaded.source.clone(),
        name: loaded.instance.name.clone(),
        n: loaded.instance.len(),
        seed,
        length,
        optimum: loaded.optimum,
        gap: loaded.gap(length),
        iterations: outcome.iterations,
        seconds,
        anneal_seconds,
        steps_per_second: outcome.iterations as f64 / anneal_seconds.max(1e-9),
        annealed_length,
        kicks: kicks.kicks,
        kick_improvements: kicks.improvements,
        kick_evaluations: kicks.evaluations,
        reference_length: loaded.reference_length(),
        metric: loaded.instance.metric.name(),
        moves: args.moves,
        cost: args.cost,
        energy,
        t0,
        schedule,
        restarts: outcome.restarts,
        reheats: outcome.reheats,
        search,
        reason: match stop {
            Stop::Interrupted => StopReason::Interrupted,
            _ => outcome.reason,
        },
        stop,
        tour: polished.order().iter().map(|c| c + 1).collect(),
        output_error: None,
        best: TspSnapshot {
            instance: Arc::clone(&loaded.instance),
            tour: polished.order().to_vec(),
        },
        reference: loaded.reference,
        optimum_given: args.optimum.is_some(),
    })
}

impl report::Report for Report {
    fn output(&self, format: Format) -> color_eyre::Result<Vec<u8>> {
        let reference = self.reference.as_deref();
        Ok(super::picture::output(&self.best, reference, format))
    }

    fn output_failed(&mut self, error: String) {
        self.output_error = Some(error);
    }

    fn summary(&self, log: &mut dyn Write) {
        let length = self.length;
        let gap = self
            .gap
            .map(|g| format!(", gap {g:.2}%"))
            .unwrap_or_default();
        say(
            log,
            format_args!(
                "{}: length {length}{gap} in {:.2} s ({} steps, {:.1}M/s)",
                self.name,
                self.seconds,
                self.iterations,
                self.steps_per_second / 1e6
            ),
        );
        // A tour shorter than the optimum shows it is none.
        if let Some(optimum) = self.optimum.filter(|&o| length < o) {
            let from = match self.optimum_given {
                true => "--optimum",
                false => "the built-in table",
            };
            say(
                log,
                format_args!(
                    "{}: found a tour of length {length}, shorter than the optimum {optimum} \
                     ({from}): no gap reported",
                    self.name
                ),
            );
        }
    }

    fn counts(&self) -> Counts {
        Counts {
            seconds: self.seconds,
            iterations: self.iterations,
            ..Counts::default()
        }
    }
}
