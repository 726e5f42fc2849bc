//! `kiln image --headless`: one run, one JSON line on stdout, a summary on stderr.

use std::io::Write;
use std::time::Instant;

use color_eyre::eyre::WrapErr;

use super::ImageArgs;
use super::bitmap::Bitmap;
use super::report::{ModeReport, Ran, Report};
use super::rounds::Rounds;
use super::setup::{Mode, build};
use crate::anneal::{BATCH, Outcome, Problem, RunConfig, Runner, Trace, run_traced};
use crate::export;
use crate::headless::batch;
use crate::headless::progress::Progress;
use crate::messages::{count, say};

/// `--headless`: one run, or one for each seed of `--seeds`.
pub fn headless(
    args: &ImageArgs,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> color_eyre::Result<()> {
    batch::per_seed(args, &args.batch, |args| &mut args.anneal, run, out, log)
}

fn run(args: &ImageArgs, out: &mut dyn Write, log: &mut dyn Write) -> color_eyre::Result<()> {
    let started = Instant::now();
    let setup = build(args)?;
    let output = args.output_file()?;
    let mut config = setup.run_config(args)?;
    // The time limit counts from the start of the run: reading and building are spent.
    config.budget.time_limit = config
        .budget
        .time_limit
        .map(|limit| limit.saturating_sub(started.elapsed()));
    let mut trace = args.anneal.open_trace(None)?;
    let seed = args.anneal.seed;
    let t0 = config.t0;
    // Moved, not copied: at 4096x4096 a pattern problem holds 270 MB.
    let (outcome, mode) = match setup.mode {
        Mode::Pattern(p) => {
            let mode = ModeReport::pattern(&p);
            (anneal(p, config, seed, &mut trace), mode)
        }
        Mode::Denoise(d, plan) => {
            let mut progress = Progress::start(config.budget.time_limit, config.budget.max_steps);
            let mut rounds = Rounds::new(d, plan, config, seed);
            let count = rounds.rounds();
            run_traced(&mut rounds, BATCH, &mut trace, &mut progress);
            let (outcome, report) = rounds.finish();
            let mode = ModeReport::Denoise {
                rounds: count,
                report,
                plan,
            };
            (outcome, mode)
        }
    };
    // The result is printed whatever becomes of the file.
    let written = match output {
        Some(file) => Some(
            file.target
                .write(&export::image::output(&outcome.best, file.format)?),
        ),
        None => None,
    };
    let ran = Ran {
        input: &setup.input,
        source: &setup.source,
        clean: setup.clean.as_ref(),
        input_energy: setup.input_energy,
        icm: setup.icm,
        seconds: started.elapsed().as_secs_f64(),
    };
    let mut report = Report::new(ran, args, &outcome, t0, mode);
    report.output_error = crate::headless::output::output_error(written.as_ref());
    serde_json::to_writer(&mut *out, &report)?;
    writeln!(out)?;
    let seconds = started.elapsed().as_secs_f64();
    say(
        log,
        format_args!(
            "{}: energy {} -> {} in {} steps, {:.2} s ({:.1} M steps/s){}",
            setup.title,
            setup.input_energy,
            outcome.energy,
            outcome.iterations,
            seconds,
            outcome.iterations as f64 / outcome.elapsed.as_secs_f64().max(1e-9) / 1e6,
            report.pixel_error().map_or(String::new(), |e| format!(
                ", {} wrong",
                count(e, "pixel", "pixels")
            )),
        ),
    );
    trace.finish().wrap_err("writing the --trace file")?;
    match written {
        Some(Err(failed)) => Err(failed.into()),
        _ => Ok(()),
    }
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
