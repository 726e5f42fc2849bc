//! `kiln image --headless`: one run, one JSON line on stdout, a summary on stderr.

use std::io::Write;
use std::time::Instant;

use color_eyre::eyre::WrapErr;
use serde_json::{Value, json};

use super::ImageArgs;
use super::bitmap::Bitmap;
use super::denoise::Neighbourhood;
use super::file;
use super::rounds::Rounds;
use super::setup::{self, Mode, build};
use crate::anneal::{BATCH, Outcome, Problem, RunConfig, Runner, Trace, run_traced};
use crate::batch;
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
    let output = args.output_target()?;
    let mut config = setup.run_config(args)?;
    // The time limit counts from the start of the run: reading and building are spent.
    config.time_limit = config
        .time_limit
        .map(|limit| limit.saturating_sub(started.elapsed()));
    let mut trace = args.anneal.open_trace(None)?;
    let seed = args.anneal.seed;
    let t0 = config.t0;
    let about = json!({
        "problem": "image",
        "source": setup.source,
        "width": setup.input.width,
        "height": setup.input.height,
        "initial_energy": setup.input_energy,
    });
    // Moved, not copied: at 4096x4096 a pattern problem holds 270 MB.
    let (outcome, mut fields) = match setup.mode {
        Mode::Pattern(p) => {
            let extra = json!({
                "mode": "pattern",
                "kernel": p.kernel().name,
                "edges": p.edges(),
                "black_pixels": p.black_pixels(),
            });
            (anneal(p, config, seed, &mut trace), extra)
        }
        Mode::Denoise(d, plan) => {
            let mut rounds = Rounds::new(d, plan, config, seed);
            let count = rounds.rounds();
            run_traced(&mut rounds, BATCH, &mut trace);
            let (outcome, report) = rounds.finish();
            let extra = json!({
                "mode": "denoise",
                "lambda": args.lambda.unwrap_or(1.0),
                "beta": args.beta.unwrap_or(1.0),
                "neighbourhood": args.neighbourhood.unwrap_or(Neighbourhood::Four).size(),
                "noise": setup::noise(args),
                "icm_energy": setup.icm.map(|(e, _)| e),
                "icm_sweeps": setup.icm.map(|(_, s)| s),
                "rounds": count,
                "round_energies": report.round_energies,
                "multiscale_energy": report.start_energies.first(),
                "multiscale_energies": report.start_energies,
                "multiscale_seconds": plan.multiscale.then_some(report.start_seconds),
            });
            (outcome, extra)
        }
    };
    // The result is printed whatever becomes of the file.
    let written = match output {
        Some(target) => Some(target.write(&file::encode(&target.path, &outcome.best)?)),
        None => None,
    };
    let seconds = started.elapsed().as_secs_f64();
    let pixel_error = setup
        .clean
        .as_ref()
        .and_then(|c| outcome.best.pixel_error(c));
    merge(&mut fields, about);
    merge(
        &mut fields,
        report(args, &outcome, seconds, pixel_error, t0),
    );
    if let Some(Err(failed)) = &written {
        merge(&mut fields, json!({ "output_error": failed.to_string() }));
    }
    writeln!(out, "{fields}")?;
    say(
        log,
        format_args!(
            "{}: energy {} -> {} in {} steps, {:.2} s ({:.1} M steps/s){}",
            setup.title,
            setup.input_energy,
            outcome.energy,
            outcome.iterations,
            seconds,
            steps_per_second(&outcome) / 1e6,
            pixel_error.map_or(String::new(), |e| format!(
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
    let mut runner = Runner::new(problem, config, seed);
    run_traced(&mut runner, BATCH, trace);
    runner.finish()
}

fn report(
    args: &ImageArgs,
    outcome: &Outcome<Bitmap>,
    seconds: f64,
    pixel_error: Option<usize>,
    t0: f64,
) -> Value {
    json!({
        "seed": args.anneal.seed,
        "energy": outcome.energy,
        "iterations": outcome.iterations,
        "seconds": seconds,
        "steps_per_second": steps_per_second(outcome),
        "t0": t0,
        "restarts": outcome.restarts,
        "reheats": outcome.reheats,
        "stop_reason": outcome.reason,
        "pixel_error": pixel_error,
        "output": args.output.as_ref().map(|p| p.display().to_string()),
    })
}

/// Steps per second of annealing (multi-scale starts included, reading and building not).
fn steps_per_second(outcome: &Outcome<Bitmap>) -> f64 {
    outcome.iterations as f64 / outcome.elapsed.as_secs_f64().max(1e-9)
}

fn merge(into: &mut Value, from: Value) {
    if let (Value::Object(into), Value::Object(from)) = (into, from) {
        into.extend(from);
    }
}
