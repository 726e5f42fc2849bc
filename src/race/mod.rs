//! Presets headless (`kiln sudoku --preset NAME`), `kiln presets`, and race mode: several
//! presets on the same puzzle in parallel threads, same seed and time limit, ranked by
//! solved first, then seconds (unsolved ones by energy, then seconds).

use std::io::Write;
use std::path::PathBuf;
use std::thread;
use std::time::Duration;

use clap::Args;
use color_eyre::eyre::WrapErr;
use serde::Serialize;

use crate::anneal::{Search, Trace, interrupt};
use crate::anneal_args::AnnealArgs;
use crate::cli::ranges::{self, whole};
use crate::input::InputError;
use crate::json::{self, Stop};
use crate::messages::say;
use crate::problems::sudoku::{
    GaArgs, PRESETS, Preset, Puzzle, Report, Solver, SudokuArgs, puzzle_trace, selected_puzzles,
    solver, unsolved_is_failure,
};
use crate::progress::Progress;

/// Race mode runs this many solvers at most (one pane each in the TUI).
pub const MAX_RACERS: usize = 4;

#[derive(Args, Debug, Clone)]
pub struct RaceArgs {
    /// Puzzle file; every puzzle in it is raced in turn unless --index picks one.
    pub file: PathBuf,
    /// Race only puzzle N of the file (1-based).
    #[arg(long, value_name = "N", value_parser = whole(ranges::INDEX))]
    pub index: Option<usize>,
    /// Two to four presets, comma-separated (`kiln presets` lists them).
    #[arg(
        long,
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

    /// The puzzles to race.
    pub fn puzzles(&self) -> Result<Vec<Puzzle>, InputError> {
        selected_puzzles(&SudokuArgs {
            file: Some(self.file.clone()),
            index: self.index,
            no_propagate: self.no_propagate,
            anneal: self.anneal.clone(),
            batch: Default::default(),
            preset: None,
            focus: None,
            threads: None,
            tempering: Default::default(),
            weighting: Default::default(),
            ga: self.ga.clone(),
        })
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

    /// One solver per racer on `puzzle` (what the race TUI runs, one worker each).
    pub fn solvers(&self, puzzle: &Puzzle) -> Result<Vec<Solver>, InputError> {
        self.racers()?
            .into_iter()
            .map(|p| solver(p, puzzle, &self.anneal, &self.ga, self.no_propagate))
            .collect::<Result<_, _>>()
            .map_err(InputError::flags)
    }
}

/// One solver's result: the `kiln sudoku` report plus who produced it.
#[derive(Debug, Serialize)]
pub struct PresetReport {
    #[serde(flatten)]
    pub report: Report,
    /// "anneal" or "ga".
    pub algorithm: &'static str,
    pub preset: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generations: Option<u64>,
    /// 1 = winner (race mode only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rank: Option<usize>,
}

/// Runs `solver` to its stop condition, tracing it, and checks the best grid against the
/// rules.
pub fn run_solver(
    mut solver: Solver,
    puzzle: &Puzzle,
    seed: u64,
    mut trace: Trace,
) -> color_eyre::Result<PresetReport> {
    let mut report = Report::prepared(puzzle, &solver.prepared, seed);
    let mut generations = None;
    if report.error.is_none() {
        // Racers run side by side: no line of their own would stay readable.
        report.run(puzzle, &mut solver.search, &mut trace, &mut Progress::off())?;
        generations = solver.search.generations();
    }
    trace.finish().wrap_err("writing the --trace file")?;
    Ok(PresetReport {
        report,
        algorithm: solver.preset.algorithm(),
        preset: solver.preset.name(),
        generations,
        rank: None,
    })
}

/// `kiln sudoku FILE --preset NAME`: like `kiln sudoku --headless`, with the preset's model
/// and parameters, and `algorithm`/`preset` (and `generations`) in every line.
pub fn headless_preset(
    preset: Preset,
    args: &SudokuArgs,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> color_eyre::Result<()> {
    let puzzles = selected_puzzles(args)?;
    let mut reports = Vec::with_capacity(puzzles.len());
    for (i, puzzle) in puzzles.iter().enumerate() {
        // An interrupt ends the batch after the puzzle it cut short.
        if interrupt::requested().is_some() {
            break;
        }
        let solver = solver(preset, puzzle, &args.anneal, &args.ga, args.no_propagate)
            .map_err(InputError::flags)?;
        let trace = puzzle_trace(args, i + 1, puzzles.len())?;
        let report = run_solver(solver, puzzle, args.anneal.seed, trace)?;
        serde_json::to_writer(&mut *out, &report)?;
        writeln!(out)?;
        out.flush()?;
        reports.push(report.report);
    }
    summarize(&format!("sudoku --preset {preset}"), &reports, log)
}

/// The stderr summary (solved k/m, median and max seconds, iterations/s) and the exit
/// status of a headless run: failing when a puzzle has no solution or was not solved.
fn summarize(what: &str, reports: &[Report], log: &mut dyn Write) -> color_eyre::Result<()> {
    let mut seconds: Vec<f64> = reports.iter().map(|r| r.seconds).collect();
    seconds.sort_by(f64::total_cmp);
    let solved = reports.iter().filter(|r| r.solved).count();
    let impossible = reports.iter().filter(|r| r.error.is_some()).count();
    let iterations: u64 = reports.iter().map(|r| r.iterations).sum();
    let time: f64 = seconds.iter().sum();
    say(
        log,
        format_args!(
            "{what}: solved {solved}/{}, median {:.4} s, max {:.4} s, {:.1}M iterations/s",
            reports.len(),
            seconds[seconds.len() / 2],
            seconds[seconds.len() - 1],
            iterations as f64 / time.max(1e-9) / 1e6
        ),
    );
    unsolved_is_failure(reports.len(), solved, impossible)
}

/// `kiln presets`: every preset with its parameters.
pub fn list_presets(out: &mut dyn Write) -> std::io::Result<()> {
    for preset in PRESETS {
        writeln!(out, "{:<18} {}", preset.name(), preset.description())?;
    }
    Ok(())
}

/// Finishing order: solved before unsolved; solved by seconds; unsolved by the energy left,
/// then seconds. Returns indices into `reports`, winner first.
pub fn finishing_order(reports: &[&Report]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..reports.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (reports[a], reports[b]);
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

/// Runs every solver of one race on its own thread, each with its trace, and ranks them.
pub fn race(
    solvers: Vec<Solver>,
    traces: Vec<Trace>,
    puzzle: &Puzzle,
    seed: u64,
) -> color_eyre::Result<Vec<PresetReport>> {
    let mut reports: Vec<PresetReport> = thread::scope(|scope| {
        let handles: Vec<_> = solvers
            .into_iter()
            .zip(traces)
            .map(|(s, trace)| scope.spawn(move || run_solver(s, puzzle, seed, trace)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect::<color_eyre::Result<_>>()
    })?;
    let plain: Vec<&Report> = reports.iter().map(|r| &r.report).collect();
    let order = finishing_order(&plain);
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
        let solvers = args.solvers(puzzle)?;
        let traces = args.traces(i + 1, puzzles.len())?;
        let reports = race(solvers, traces, puzzle, args.anneal.seed)?;
        solved += reports.iter().any(|r| r.report.solved) as usize;
        impossible += reports.iter().any(|r| r.report.error.is_some()) as usize;
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
                solved: r.report.solved,
                seconds: r.report.seconds,
                iterations: r.report.iterations,
                energy: r.report.energy,
                stop: r.report.stop,
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
