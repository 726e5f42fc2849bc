//! Race mode: 2-4 runs of one problem side by side, same seed and budget, ranked by the
//! energy they reach (a Sudoku: solved first, by seconds). `kiln race PROBLEM ARGS...`
//! races the values of any flag (`panes`); `kiln race FILE --presets a,b`, the older form,
//! races Sudoku presets over every puzzle of a file (this module).

mod headless;
pub mod panes;

pub use headless::headless_plan;
pub use panes::{Pane, Plan, Refusal, plan};

use std::io::Write;
use std::path::PathBuf;
use std::thread;
use std::time::Duration;

use clap::{Args, Subcommand};
use color_eyre::eyre::WrapErr;
use serde::Serialize;

use crate::anneal::{Trace, interrupt};
use crate::anneal_args::AnnealArgs;
use crate::cli::Command;
use crate::cli::ranges::{self, whole};
use crate::input::InputError;
use crate::json::{self, Stop};
use crate::messages::say;
use crate::problems::sudoku::{
    GaArgs, Preset, Puzzle, Report, SudokuArgs, selected_puzzles, solve, unsolved_is_failure,
};
use crate::progress::BatchProgress;

/// Race mode runs this many solvers at most (one pane each in the TUI).
pub const MAX_RACERS: usize = 4;

#[derive(Args, Debug, Clone)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct RaceArgs {
    #[command(subcommand)]
    pub problem: Option<RaceProblem>,
    /// Puzzle file; every puzzle in it is raced in turn unless --index picks one.
    #[arg(required = true)]
    pub file: Option<PathBuf>,
    /// Race only puzzle N of the file (1-based).
    #[arg(long, value_name = "N", value_parser = whole(ranges::INDEX))]
    pub index: Option<usize>,
    /// Two to four presets, comma-separated (`kiln presets` lists them).
    #[arg(
        long,
        alias = "preset",
        value_name = "A,B,..",
        value_delimiter = ',',
        default_value = "kiln,geometric-restart,ga"
    )]
    pub presets: Vec<Preset>,
    /// No singles propagation, even for presets that use it.
    #[arg(long)]
    pub no_propagate: bool,
    #[command(flatten)]
    pub anneal: AnnealArgs,
    #[command(flatten)]
    pub ga: GaArgs,
}

/// `kiln race PROBLEM ARGS...`: the problem whose flags are raced.
#[derive(Subcommand, Debug, Clone)]
pub enum RaceProblem {
    /// Race any flag of `kiln sudoku`: `kiln race sudoku FILE --index 1 --preset kiln,ga`.
    #[command(disable_help_flag = true)]
    Sudoku(Words),
    /// Race any flag of `kiln tsp`: `kiln race tsp --moves swap,two-opt`.
    #[command(disable_help_flag = true)]
    Tsp(Words),
    /// Race any flag of `kiln image`: `kiln race image --kernel n8,8-16`.
    #[command(disable_help_flag = true)]
    Image(Words),
}

/// The problem's own arguments, as `kiln PROBLEM` takes them; a flag given A,B,.. races
/// its values (2 to 4 panes in all).
#[derive(Args, Debug, Clone)]
pub struct Words {
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "ARGS"
    )]
    pub words: Vec<String>,
}

impl RaceProblem {
    /// The problem's command name and its arguments.
    pub fn words(&self) -> (&'static str, &[String]) {
        match self {
            RaceProblem::Sudoku(w) => ("sudoku", &w.words),
            RaceProblem::Tsp(w) => ("tsp", &w.words),
            RaceProblem::Image(w) => ("image", &w.words),
        }
    }
}

impl RaceArgs {
    /// What clap cannot check: the GA's flags apply only when a GA races.
    pub fn check(&self) -> Result<(), InputError> {
        self.anneal.check()?;
        self.ga
            .check(self.presets.contains(&Preset::Ga), "ga in --presets")
    }

    /// The racers, checked: 2 to 4 presets, none twice.
    pub fn racers(&self) -> Result<Vec<Preset>, InputError> {
        let p = &self.presets;
        if !(2..=MAX_RACERS).contains(&p.len()) {
            return Err(InputError::new(
                "--presets",
                format!("a race needs 2 to {MAX_RACERS} presets, not {}", p.len()),
            ));
        }
        if let Some(twice) = p.iter().enumerate().find(|(i, a)| p[..*i].contains(a)) {
            return Err(InputError::new(
                "--presets",
                format!("{} is named twice", twice.1),
            ));
        }
        Ok(p.clone())
    }

    /// The flags of racer `preset`: the race's own, with its preset.
    fn racer(&self, preset: Option<Preset>) -> SudokuArgs {
        SudokuArgs {
            file: self.file.clone(),
            index: self.index,
            no_propagate: self.no_propagate,
            anneal: self.anneal.clone(),
            batch: Default::default(),
            output: Default::default(),
            preset,
            focus: None,
            pairs: None,
            threads: None,
            ga: self.ga.clone(),
        }
    }

    /// Each racer's preset and command, its trace named by the preset (`t-kiln.csv`) and
    /// refused if that file exists, before any racer starts (what the race screen runs).
    pub fn racer_args(&self) -> Result<Vec<(Preset, Command)>, InputError> {
        self.racers()?
            .into_iter()
            .map(|preset| {
                let mut racer = self.racer(Some(preset));
                if let Some(path) = &racer.anneal.trace {
                    let path = crate::anneal_args::with_part(path, preset.name());
                    Trace::check_new(&path)?;
                    racer.anneal.trace = Some(path);
                }
                Ok((preset, Command::Sudoku(racer)))
            })
            .collect()
    }

    /// The puzzles to race.
    pub fn puzzles(&self) -> Result<Vec<Puzzle>, InputError> {
        selected_puzzles(&self.racer(None))
    }

    /// One trace per racer on puzzle `number` (1-based) of `count`: `FILE` gets the pane's
    /// preset, and the puzzle's number when there are several (`t-ga-2.csv`).
    pub fn traces(&self, number: usize, count: usize) -> Result<Vec<Trace>, InputError> {
        self.racers()?
            .into_iter()
            .map(|preset| {
                let part = match count {
                    1 => preset.name().to_string(),
                    _ => format!("{}-{number}", preset.name()),
                };
                self.anneal.open_trace(Some(&part))
            })
            .collect()
    }
}

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
}

/// Runs every racer of one race on its own thread, each with its trace, and ranks them.
pub fn race(
    args: &RaceArgs,
    traces: Vec<Trace>,
    puzzle: &Puzzle,
) -> color_eyre::Result<Vec<Report>> {
    let racers = args.racers()?;
    // Racers run side by side: one line for the race, none of their own.
    let progress = BatchProgress::start(racers.len());
    let progress = &progress;
    let mut reports: Vec<Report> = thread::scope(|scope| {
        let handles: Vec<_> = racers
            .into_iter()
            .zip(traces)
            .map(|(preset, mut trace)| {
                let racer = args.racer(Some(preset));
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
        let line = Ranking {
            race: puzzle.source.clone(),
            seed: args.anneal.seed,
            time_limit: time_limit(args).as_secs_f64(),
            ranking,
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
