//! `kiln tsp ... --headless`: anneal for part of the budget (at most a fixed number of steps
//! per city before the kicks), then kick and re-descend from the best tour for the rest (or,
//! with `--kick-share 0`, descend greedily once), print one JSON line (and a tour file).

use std::io::Write;
use std::time::Instant;

use color_eyre::eyre::WrapErr;
use serde::Serialize;

use super::TspSnapshot;
use super::problem::{Cost, MoveSet};
use super::setup::build;
use super::spec::{DEFAULT_CHAINS, Search, TspSpec};
use crate::anneal::BATCH;
use crate::headless::json::{self, PhaseLine, Seconds};
use crate::headless::output::Format;
use crate::headless::progress::Progress;
use crate::headless::report;
use crate::headless::report::Lines;
use crate::messages::say;
use crate::search::{Energy, Finished, Measure, Stop};
use crate::search::{PARALLEL_BATCH, Search as _, StopReason, run_traced};

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
    /// Length of the first anneal's best tour, before the local search.
    annealed_length: u64,
    /// Iterated local search after the anneal: kicks made, kicks that shortened the best
    /// tour, and move evaluations (the polish's counterpart of steps).
    kicks: u64,
    kick_improvements: u64,
    kick_evaluations: u64,
    /// Kicks that walked a window of the tour anew (among `kicks`).
    window_kicks: u64,
    reference_length: Option<u64>,
    metric: &'static str,
    moves: MoveSet,
    cost: Cost,
    energy: f64,
    t0: f64,
    schedule: String,
    restarts: u64,
    reheats: u64,
    /// Re-anneals from the best tour, made when the kicks stalled.
    reanneals: u32,
    /// Trial tours the kicks started again from when they stalled.
    trials: u32,
    /// What ran: annealing alone, annealing then a greedy descent, or annealing then the
    /// iterated local search.
    search: Search,
    /// The annealer's reason (kept for scripts written before `stop`).
    reason: StopReason,
    /// Why the whole run ended, polish included.
    stop: Stop,
    /// Steps of the anneal (re-anneals included), and move evaluations of the local
    /// search after it.
    anneal_steps: u64,
    local_search_evaluations: u64,
    #[serde(serialize_with = "json::seconds")]
    local_search_seconds: f64,
    /// Set-up time of the local search's alpha-nearness candidate lists; null when it
    /// has the annealer's quadrant lists.
    alpha_seconds: Option<Seconds>,
    /// The phases that ran, in order, as every problem lists them (all chains).
    phases: Vec<PhaseLine>,
    /// Independent chains run side by side (`--threads`), and which of them (from 1) found
    /// the reported tour: the fields above and below are that chain's but `phases`.
    chains: usize,
    chain: usize,
    /// The phase that found the reported tour (`anneal`, `local-search` or `reanneal`).
    found_by: &'static str,
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

/// `--headless`: one run, or one for each seed of `--seeds`.
pub fn headless(spec: &TspSpec, out: &mut Lines, log: &mut dyn Write) -> color_eyre::Result<()> {
    let output = spec.output_file()?;
    // The most threads a run takes: the instance decides, and it is not read yet.
    let threads = spec.model.threads.unwrap_or(DEFAULT_CHAINS);
    report::per_seed(spec, (output.as_ref(), threads), run, out, log)?;
    Ok(())
}

fn run(spec: &TspSpec) -> color_eyre::Result<Report> {
    let started = Instant::now();
    let (args, seed) = (&spec.model, spec.run.seed);
    let setup = build(spec)?;
    let alpha_seconds = (setup.problem.alpha_time()).map(|time| Seconds(time.as_secs_f64()));
    let mut trace = spec.run.open_trace(None)?;
    let t0 = setup.config.t0;
    let schedule = setup.config.schedule.to_string();
    // One line for the whole run: the anneal's steps, then the local search's evaluations.
    let budget = setup.config.budget;
    let mut progress = Progress::start(budget.time_limit, budget.max_steps);
    // The run the live view makes of these flags: the same phases, the same budgets.
    let (loaded, launch) = setup.launch(spec, started);
    let mut chains = launch.search;
    // A thread per chain starts with every batch: chains take longer ones.
    let batch = match chains.chains() {
        1 => BATCH,
        _ => PARALLEL_BATCH,
    };
    run_traced(&mut chains, batch, &mut trace, &mut progress);
    drop(progress);
    // A local search's steps are its move evaluations.
    let phases = PhaseLine::all(&chains.phases());
    let threads = chains.chains();
    // The run may end on the chains' wall clock, with the reported chain still running.
    let reason = chains.stopped();
    let (chain, pipeline) = chains.into_leader();
    let outcome = pipeline.finish();
    let annealed = &outcome.anneal;
    let reason = reason.unwrap_or(outcome.reason);
    let stop = match reason {
        // The run's only target is the known optimum.
        StopReason::Target => Stop::Optimum,
        reason => reason.into(),
    };
    let best = outcome.best;
    let length = best.length();
    let seconds = started.elapsed().as_secs_f64();
    let anneal_seconds = annealed.elapsed.as_secs_f64();
    let local_seconds = outcome.local_elapsed.as_secs_f64();

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
        iterations: annealed.iterations,
        seconds,
        anneal_seconds,
        steps_per_second: annealed.iterations as f64 / anneal_seconds.max(1e-9),
        annealed_length: outcome.annealed_length,
        kicks: outcome.local.kicks,
        kick_improvements: outcome.local.improvements,
        // The kicks' evaluations, as before there was a phase for a descent's too.
        kick_evaluations: match args.search {
            Search::AnnealIls => outcome.local.evaluations,
            _ => 0,
        },
        window_kicks: outcome.local.windows,
        reference_length: loaded.reference_length(),
        metric: loaded.instance.metric.name(),
        moves: args.moves,
        cost: args.cost,
        energy: outcome.energy,
        t0,
        schedule,
        restarts: annealed.restarts,
        reheats: annealed.reheats,
        reanneals: outcome.reanneals,
        trials: outcome.trials,
        search: args.search,
        reason: match (stop, annealed.reason) {
            (Stop::Interrupted, _) => StopReason::Interrupted,
            // An anneal the chains' wall clock ended before it ended itself.
            (_, StopReason::Stopped) => reason,
            (_, annealed) => annealed,
        },
        stop,
        anneal_steps: annealed.iterations,
        local_search_evaluations: outcome.local.evaluations,
        local_search_seconds: local_seconds,
        alpha_seconds,
        phases,
        chains: threads,
        chain: chain + 1,
        found_by: outcome.found_by.key(),
        tour: (best.tour.iter())
            .map(|&c| best.instance.label(c) + 1)
            .collect(),
        output_error: None,
        best,
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

    fn finished(&self) -> Finished {
        Finished {
            stop: self.stop,
            solved: None,
            energy: Some(Energy::Real(self.energy)),
            // Ranked by length whatever cost was minimised.
            measure: Some(Measure {
                name: "length",
                value: self.length,
            }),
            seconds: self.seconds,
            iterations: self.iterations,
        }
    }
}
