//! Race mode: 2-4 runs of one problem side by side, same seed and budget, ranked by the
//! energy they reach (a Sudoku: solved first, by seconds). `kiln race PROBLEM ARGS...`
//! races the values of any flag (`panes`); `kiln race FILE --presets a,b`, the older form,
//! races Sudoku presets over every puzzle of a file (this module).

mod headless;
pub mod panes;

pub use headless::headless_plan;
pub use panes::{Pane, Plan, Refusal, plan};

pub use crate::cli::race_args::{MAX_RACERS, RaceArgs};

use std::io::Write;
use std::thread;
use std::time::Duration;

use color_eyre::eyre::WrapErr;
use serde::Serialize;

use crate::anneal::{Trace, interrupt};
use crate::headless::json::{self, Seconds, Stop};
use crate::headless::progress::BatchProgress;
use crate::messages::say;
use crate::problems::sudoku::{Puzzle, Report, solve, unsolved_is_failure};

/// Finishing order: solved before unsolved; solved by seconds; unsolved by the energy left,
/// then seconds. Returns indices into `reports`, winner first.
pub fn finishing_order(reports: &[Report]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..reports.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&reports[a], &reports[b]);
        b.solved
            .cmp(&a.solved)
            .then_with(|| match a.solved {
                true => std::cmp::Ordering::Equal,
                false => a
                    .energy
                    .unwrap_or(u64::MAX)
                    .cmp(&b.energy.unwrap_or(u64::MAX)),
            })
            .then_with(|| a.seconds.total_cmp(&b.seconds))
    });
    order
}

#[derive(Debug, Serialize)]
struct Standing {
    rank: usize,
    preset: &'static str,
    algorithm: &'static str,
    solved: bool,
    #[serde(serialize_with = "json::seconds")]
    seconds: f64,
    iterations: u64,
    energy: Option<u64>,
    stop: Stop,
}

/// The line after a race's reports.
#[derive(Debug, Serialize)]
struct Ranking {
    race: String,
    seed: u64,
    #[serde(serialize_with = "json::seconds")]
    time_limit: f64,
    ranking: Vec<Standing>,
    winner: Option<&'static str>,
    margin_seconds: Option<Seconds>,
}

/// A Sudoku race's winner and lead, from (name, solved, seconds) in finishing order: the
/// first place wins if it solved the puzzle and the second did not solve it as fast; its
/// lead is the seconds between them, when both solved.
fn first_solved<'a>(places: &[(&'a str, bool, f64)]) -> (Option<&'a str>, Option<Seconds>) {
    // In whole microseconds, as seconds are printed: the lead is the difference one reads.
    let micros = |seconds: f64| (seconds * 1e6).round() as i64;
    match *places {
        [(first, true, a), (_, true, b), ..] => {
            let lead = micros(b) - micros(a);
            (
                (lead > 0).then_some(first),
                Some(Seconds(lead as f64 / 1e6)),
            )
        }
        [(first, true, _), ..] => (Some(first), None),
        _ => (None, None),
    }
}

/// Runs every racer of one race on its own thread, each with its trace, and ranks them.
pub fn race(
    args: &RaceArgs,
    traces: Vec<Trace>,
    puzzle: &Puzzle,
) -> color_eyre::Result<Vec<Report>> {
    let racers = (args.racers()?.into_iter())
        .map(|preset| args.racer(Some(preset)))
        .collect::<Result<Vec<_>, _>>()?;
    // Racers run side by side: one line for the race, none of their own.
    let progress = BatchProgress::start(racers.len());
    let progress = &progress;
    let mut reports: Vec<Report> = thread::scope(|scope| {
        let handles: Vec<_> = racers
            .into_iter()
            .zip(traces)
            .map(|(racer, mut trace)| {
                scope.spawn(move || {
                    let report = solve(puzzle, &racer, &mut trace)?;
                    progress.done();
                    trace.finish().wrap_err("writing the --trace file")?;
                    Ok(report)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect::<color_eyre::Result<_>>()
    })?;
    let order = finishing_order(&reports);
    for (rank, &i) in order.iter().enumerate() {
        reports[i].rank = Some(rank + 1);
    }
    Ok(reports)
}

/// `kiln race FILE --presets a,b,..`: one JSON line per solver (in the order given, with its
/// rank) and a ranking line per puzzle; the finishing order on stderr.
pub fn headless_race(
    args: &RaceArgs,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> color_eyre::Result<()> {
    args.racers()?;
    let puzzles = args.puzzles()?;
    let (mut solved, mut impossible) = (0, 0);
    for (i, puzzle) in puzzles.iter().enumerate() {
        // An interrupt ends the batch after the puzzle it cut short.
        if interrupt::requested().is_some() {
            break;
        }
        let traces = args.traces(i + 1, puzzles.len())?;
        let reports = race(args, traces, puzzle)?;
        solved += reports.iter().any(|r| r.solved) as usize;
        impossible += reports.iter().any(|r| r.error.is_some()) as usize;
        for report in &reports {
            serde_json::to_writer(&mut *out, report)?;
            writeln!(out)?;
        }
        let mut ranking: Vec<Standing> = reports
            .iter()
            .map(|r| Standing {
                rank: r.rank.unwrap_or(0),
                preset: r.preset,
                algorithm: r.algorithm,
                solved: r.solved,
                seconds: r.seconds,
                iterations: r.iterations,
                energy: r.energy,
                stop: r.stop,
            })
            .collect();
        ranking.sort_by_key(|s| s.rank);
        let order: Vec<String> = ranking
            .iter()
            .map(|s| match s.solved {
                true => format!("{}. {} {:.4} s", s.rank, s.preset, s.seconds),
                false => format!("{}. {} unsolved", s.rank, s.preset),
            })
            .collect();
        let places: Vec<_> = ranking
            .iter()
            .map(|s| (s.preset, s.solved, s.seconds))
            .collect();
        let (winner, margin_seconds) = first_solved(&places);
        let line = Ranking {
            race: puzzle.source.clone(),
            seed: args.anneal.seed,
            time_limit: time_limit(args).as_secs_f64(),
            ranking,
            winner,
            margin_seconds,
        };
        serde_json::to_writer(&mut *out, &line)?;
        writeln!(out)?;
        out.flush()?;
        say(
            log,
            format_args!("race {}: {}", puzzle.source, order.join(", ")),
        );
    }
    // A race is won when some racer solves the puzzle; one nobody solves fails the run.
    unsolved_is_failure(puzzles.len(), solved, impossible)
}

/// The seconds a race is allowed (for displays): the flag or the default.
pub fn time_limit(args: &RaceArgs) -> Duration {
    Duration::from_secs_f64(
        args.anneal
            .time_limit
            .unwrap_or(crate::problems::sudoku::DEFAULT_TIME_LIMIT),
    )
}
