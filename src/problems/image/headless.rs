//! `kiln image --headless`: one run, one JSON line on stdout, a summary on stderr.

use std::io::Write;
use std::time::{Duration, Instant};

use color_eyre::eyre::WrapErr;

use super::bitmap::Bitmap;
use super::report::{ModeReport, Ran, Report};
use super::rounds::{Rounds, RoundsReport, time_for_a_round};
use super::setup::{Mode, build};
use super::spec::ImageSpec;
use crate::anneal::{BATCH, Problem, RunConfig, Runner};
use crate::headless::progress::Progress;
use crate::headless::report;
use crate::headless::report::Lines;
use crate::search::{Outcome, Search, StopReason, Trace, run_traced};

/// Time per pixel kept at the end of a pattern run's limit for the work after it (the best
/// image's copy, the report, freeing its 270 MB at 4096x4096: 0.07 s there on a busy
/// machine).
const PATTERN_END_SECONDS_PER_PIXEL: f64 = 5e-9;

/// `--headless`: one run, or one for each seed of `--seeds`.
pub fn headless(spec: &ImageSpec, out: &mut Lines, log: &mut dyn Write) -> color_eyre::Result<()> {
    report::per_seed(spec, (spec.output_file()?.as_ref(), 1), run, out, log)?;
    Ok(())
}

fn run(spec: &ImageSpec) -> color_eyre::Result<Report> {
    let started = Instant::now();
    // Every part of the run ends by the limit's deadline, setup and rounds included.
    let spec = &ImageSpec {
        run: spec.run.clocked(),
        ..spec.clone()
    };
    let setup = build(spec)?;
    let mut config = setup.run_config(&spec.run)?;
    // The time limit counts from the start of the run: reading and building are spent.
    config.budget.time_limit = config
        .budget
        .time_limit
        .map(|limit| limit.saturating_sub(started.elapsed()));
    let mut trace = spec.run.open_trace(None)?;
    let seed = spec.run.seed;
    let t0 = config.t0;
    // Moved, not copied: at 4096x4096 a pattern problem holds 270 MB.
    let (outcome, mode) = match setup.mode {
        Mode::Pattern(p) => {
            let mode = ModeReport::pattern(&p);
            let reserve =
                Duration::from_secs_f64(setup.input.len() as f64 * PATTERN_END_SECONDS_PER_PIXEL);
            config.budget.deadline = (config.budget.deadline)
                .map(|deadline| deadline.checked_sub(reserve).unwrap_or(deadline));
            (anneal(p, config, seed, &mut trace), mode)
        }
        // Set up too late for a round: the result is the start (after ICM).
        Mode::Denoise(d, plan) if !time_for_a_round(&config, d.pixels()) => {
            let outcome = Outcome {
                best: d.snapshot(),
                energy: setup.icm.map_or(setup.input_energy, |(energy, _)| energy),
                iterations: 0,
                restarts: 0,
                reheats: 0,
                elapsed: Duration::ZERO,
                reason: StopReason::TimeLimit,
            };
            let mode = ModeReport::Denoise {
                rounds: 0,
                report: RoundsReport::default(),
                plan,
                phases: Vec::new(),
            };
            (outcome, mode)
        }
        Mode::Denoise(d, plan) => {
            let mut progress = Progress::start(config.budget.time_limit, config.budget.max_steps);
            let mut rounds = Rounds::new(d, plan, config, seed);
            let count = rounds.rounds();
            run_traced(&mut rounds, BATCH, &mut trace, &mut progress);
            let phases = rounds.phases();
            let (outcome, report) = rounds.finish();
            let mode = ModeReport::Denoise {
                rounds: count,
                report,
                plan,
                phases,
            };
            (outcome, mode)
        }
    };
    let ran = Ran {
        input: &setup.input,
        source: &setup.source,
        title: &setup.title,
        clean: setup.clean.as_ref(),
        input_energy: setup.input_energy,
        icm: setup.icm,
        seconds: started.elapsed().as_secs_f64(),
    };
    let report = Report::new(ran, spec, outcome, t0, mode);
    trace.finish().wrap_err("writing the --trace file")?;
    Ok(report)
}

/// Runs to the configured budget, tracing the run, and returns the best image found.
fn anneal<P: Problem<Snapshot = Bitmap> + Send + 'static>(
    problem: P,
    config: RunConfig,
    seed: u64,
    trace: &mut Trace,
) -> Outcome<Bitmap> {
    let mut progress = Progress::start(config.budget.time_limit, config.budget.max_steps);
    let mut runner = Runner::new(problem, config, seed);
    run_traced(&mut runner, BATCH, trace, &mut progress);
    runner.finish()
}
