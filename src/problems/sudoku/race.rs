//! `kiln race FILE --presets a,b,..`: Sudoku's presets raced on the same puzzles.

use std::io::Write;
use std::thread;
use std::time::Duration;

use color_eyre::eyre::WrapErr;
use serde::Serialize;

use crate::headless::json;
use crate::headless::progress::BatchProgress;
use crate::headless::report::Report as _;
use crate::headless::spec::Run;
use crate::input::InputError;
use crate::messages::say;
use crate::problems::sudoku::{Preset, Puzzle, Report, SudokuSpec, solve, unsolved_is_failure};
use crate::race::standings::{self, Standings, Verdict};
use crate::search::Stop;
use crate::search::{Trace, interrupt};

/// `kiln race FILE --presets a,b,..` as the command line asked for it.
pub struct PresetRace {
    /// Each racer's preset and run: the race's flags with its preset.
    pub racers: Vec<(Preset, SudokuSpec)>,
    /// The puzzles raced in turn.
    pub puzzles: Vec<Puzzle>,
    /// The race's own seed, budget and trace.
    pub run: Run,
}

impl PresetRace {
    /// One trace per racer on puzzle `number` (1-based) of `count`: `FILE` gets the
    /// racer's preset, and the puzzle's number when there are several (`t-ga-2.csv`).
    pub fn traces(&self, number: usize, count: usize) -> Result<Vec<Trace>, InputError> {
        self.racers
            .iter()
            .map(|(preset, _)| {
                let part = match count {
                    1 => preset.name().to_string(),
                    _ => format!("{}-{number}", preset.name()),
                };
                self.run.open_trace(Some(&part))
            })
            .collect()
    }
}

/// A racer's entry in the ranking line.
#[derive(Debug, Serialize)]
struct Place {
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
    ranking: Vec<Place>,
    winner: Option<&'static str>,
    /// Its `margin_seconds`.
    #[serde(flatten)]
    verdict: Verdict,
}

/// Runs every racer of one race on its own thread, each with its trace, and ranks them.
pub fn race(
    race: &PresetRace,
    traces: Vec<Trace>,
    puzzle: &Puzzle,
) -> color_eyre::Result<Vec<Report>> {
    // Racers run side by side: one line for the race, none of their own.
    let progress = BatchProgress::start(race.racers.len());
    let progress = &progress;
    let mut reports: Vec<Report> = thread::scope(|scope| {
        let handles: Vec<_> = (race.racers.iter())
            .zip(traces)
            .map(|((_, racer), mut trace)| {
                scope.spawn(move || {
                    let report = solve(puzzle, racer, &mut trace)?;
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
    let order = standings::order(&reports.iter().map(standing).collect::<Vec<_>>());
    for (rank, &i) in order.iter().enumerate() {
        reports[i].rank = Some(rank + 1);
    }
    Ok(reports)
}

/// `kiln race FILE --presets a,b,..`: one JSON line per solver (in the order given, with its
/// rank) and a ranking line per puzzle; the finishing order on stderr.
pub fn headless_race(
    race: &PresetRace,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> color_eyre::Result<()> {
    let puzzles = &race.puzzles;
    let (mut solved, mut impossible) = (0, 0);
    for (i, puzzle) in puzzles.iter().enumerate() {
        // An interrupt ends the batch after the puzzle it cut short.
        if interrupt::requested().is_some() {
            break;
        }
        let traces = race.traces(i + 1, puzzles.len())?;
        let reports = self::race(race, traces, puzzle)?;
        solved += reports.iter().any(|r| r.solved) as usize;
        impossible += reports.iter().any(|r| r.error.is_some()) as usize;
        for report in &reports {
            serde_json::to_writer(&mut *out, report)?;
            writeln!(out)?;
        }
        let mut placed: Vec<&Report> = reports.iter().collect();
        placed.sort_by_key(|r| r.rank);
        let ranking: Vec<Place> = placed
            .iter()
            .map(|r| Place {
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
        let order: Vec<String> = ranking
            .iter()
            .map(|s| match s.solved {
                true => format!("{}. {} {:.4} s", s.rank, s.preset, s.seconds),
                false => format!("{}. {} unsolved", s.rank, s.preset),
            })
            .collect();
        let placed: Vec<_> = placed.into_iter().map(standing).collect();
        let verdict = Standings::FirstSolved.verdict(&placed);
        let winner = verdict.winner.map(|i| ranking[i].preset);
        let line = Ranking {
            race: puzzle.source.clone(),
            seed: race.run.seed,
            time_limit: time_limit(&race.run).as_secs_f64(),
            ranking,
            winner,
            verdict,
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

/// Where a report stands in the race.
fn standing(report: &Report) -> standings::Standing {
    (&report.finished()).into()
}

/// The seconds a race of `run` is allowed: the flag or the default.
fn time_limit(run: &Run) -> Duration {
    Duration::from_secs_f64(
        run.limits
            .time_limit
            .unwrap_or(crate::problems::sudoku::DEFAULT_TIME_LIMIT),
    )
}
