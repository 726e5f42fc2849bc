//! `kiln sudoku [FILE] --headless`: solve each puzzle, one JSON line each, a summary on
//! stderr, and a failing exit when a puzzle has no solution or was not solved.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use color_eyre::eyre::{WrapErr, bail};
use serde::Serialize;

use super::SudokuSnapshot;
use super::check::is_valid_solution;
use super::grid::{Puzzle, line_of};
use super::presets::{Solver, SudokuSearch, solver, threads};
use super::spec::SudokuSpec;
use crate::headless::json::{self, PhaseLine};
use crate::headless::output::{Format, OutputFile};
use crate::headless::progress::Progress;
use crate::headless::report;
use crate::headless::report::Lines;
use crate::input::{InputError, source_name};
use crate::messages::count;
use crate::search::{Energy, Finished, Stop};
use crate::search::{PARALLEL_BATCH, Search, Trace, run_traced};

/// Steps between checks of the stop conditions (the search checks its own budget and
/// stops at the target within a batch); chains on threads share a batch.
const BATCH: u64 = PARALLEL_BATCH;

/// One line of output: the fields, their order and their meaning are docs/json.md's.
#[derive(Debug, Serialize)]
pub struct Report {
    /// "sudoku".
    pub problem: &'static str,
    /// The puzzle's file and line.
    pub source: String,
    /// The grid's side (9, 16, 25, ...).
    pub size: usize,
    /// The run's seed.
    pub seed: u64,
    /// Whether the best grid breaks no rule.
    pub solved: bool,
    /// Missing values over rows and columns of the best grid (absent: never annealed).
    pub energy: Option<u64>,
    /// Steps of every chain and phase together.
    pub iterations: u64,
    /// Restarts of every chain together.
    pub restarts: u64,
    /// Reheats of every chain together.
    pub reheats: u64,
    /// Propagation plus annealing (the exact check is not part of the solve).
    #[serde(serialize_with = "json::seconds")]
    pub seconds: f64,
    /// The best grid found (or the givens when there was nothing to anneal).
    pub solution: String,
    /// Cells the puzzle gives.
    pub givens: usize,
    /// Cells propagation filled before the search.
    pub propagated: usize,
    /// The exact search's verdict: "unique", "several", "none" or "unknown".
    pub solutions: &'static str,
    /// How long the exact search took.
    #[serde(serialize_with = "json::seconds")]
    pub check_seconds: f64,
    /// Chains run side by side (`iterations` counts them all).
    pub threads: usize,
    /// Why the run ended.
    pub stop: Stop,
    /// "no solution" when the puzzle has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'static str>,
    /// What the chains ran: "anneal", "ga" or "anneal+conflict-learning".
    pub algorithm: &'static str,
    /// The preset that ran (`kiln` unless --preset says otherwise).
    pub preset: &'static str,
    /// What solved it: `propagation`, or what the winning chain searched with
    /// (`partial-fill`, `box-swaps`, `conflict-learning`, ...); absent when unsolved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solved_by: Option<&'static str>,
    /// Generations, for a genetic algorithm.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generations: Option<u64>,
    /// What each kind of search did: steps and time per phase, chains of one kind added
    /// up (their steps make `iterations`); absent when nothing was searched.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub phases: Vec<PhaseLine>,
    /// 1 = winner (races only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rank: Option<usize>,
    /// Why `--output` could not be written, when it could not (on the batch's last line:
    /// the file holds every puzzle and is written once they are all solved).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_error: Option<String>,
    /// The best grid with where each value came from, for a picture (`--output x.png`);
    /// absent when nothing was annealed.
    #[serde(skip)]
    pub best: Option<SudokuSnapshot>,
}

/// The puzzles the spec selects: the file's (or the embedded one), maybe only one.
pub fn selected_puzzles(spec: &SudokuSpec) -> Result<Vec<Puzzle>, InputError> {
    let args = &spec.model;
    let mut puzzles = match &args.file {
        Some(path) => super::parse::read_puzzles(path)?,
        None => vec![super::parse::default_puzzle()],
    };
    if let Some(index) = args.index {
        if index == 0 || index > puzzles.len() {
            return Err(InputError::new(
                "--index",
                format!(
                    "{index} is not a puzzle number: the input has puzzles 1-{}",
                    puzzles.len()
                ),
            ));
        }
        puzzles = vec![puzzles.swap_remove(index - 1)];
    }
    Ok(puzzles)
}

/// The trace of puzzle `number` (1-based) of `count`: the `--trace` file itself for a single
/// puzzle, `FILE-N` for each of several.
pub fn puzzle_trace(spec: &SudokuSpec, number: usize, count: usize) -> Result<Trace, InputError> {
    let part = (count > 1).then(|| number.to_string());
    spec.run.open_trace(part.as_deref())
}

/// Solves one puzzle as `spec` asks (kiln's annealer or a preset) and checks the result
/// against the rules.
pub fn solve(puzzle: &Puzzle, spec: &SudokuSpec, trace: &mut Trace) -> color_eyre::Result<Report> {
    // The time limit counts from here: propagation, the chains and their populations are
    // made within it.
    let spec = &SudokuSpec {
        run: spec.run.clocked(),
        ..spec.clone()
    };
    let started = spec.run.limits.clock.unwrap_or_else(Instant::now);
    let mut solver = solver(puzzle, spec)?;
    let mut report = Report::prepared(puzzle, &solver, spec.run.seed);
    if report.error.is_none() {
        let mut progress = Progress::start(
            solver.plan.config.budget.time_limit,
            spec.run.limits.max_steps,
        );
        report.run(puzzle, &mut solver.search, trace, &mut progress)?;
        report.solved_by = report.solved.then(|| solver.solved_by());
    }
    // On the wall clock: setup and chains waiting for a core count too.
    let check = solver.prepared.check_time;
    report.seconds = started.elapsed().saturating_sub(check).as_secs_f64();
    Ok(report)
}

impl Report {
    /// What is known before any search: the puzzle, what propagation fixed and what the
    /// exact check found (a puzzle with no solution gets its error here and no search).
    pub fn prepared(puzzle: &Puzzle, solver: &Solver, seed: u64) -> Report {
        let prepared = &solver.prepared;
        Report {
            problem: "sudoku",
            source: puzzle.source.clone(),
            size: puzzle.side(),
            seed,
            solved: false,
            energy: None,
            iterations: 0,
            restarts: 0,
            reheats: 0,
            // Set once the run has ended (`solve`).
            seconds: 0.0,
            solution: line_of(&prepared.fixed),
            givens: puzzle.givens(),
            propagated: prepared.propagated,
            solutions: prepared.solutions.label(),
            check_seconds: prepared.check_time.as_secs_f64(),
            threads: solver.plan.threads,
            // What a puzzle with a solution ends on is set once it has run.
            stop: Stop::NoSolution,
            error: prepared.has_no_solution().then_some("no solution"),
            algorithm: (solver.preset).algorithm(puzzle.n, solver.plan.threads),
            preset: solver.preset.name(),
            solved_by: None,
            generations: None,
            phases: Vec::new(),
            rank: None,
            output_error: None,
            best: None,
        }
    }

    /// Runs `search` to its stop condition, tracing it and showing its progress, and
    /// records how it went; the best grid counts as solved only once it is checked against
    /// the givens and the rules.
    pub fn run(
        &mut self,
        puzzle: &Puzzle,
        search: &mut SudokuSearch,
        trace: &mut Trace,
        progress: &mut Progress,
    ) -> color_eyre::Result<()> {
        run_traced(search, BATCH, trace, progress);
        let sample = search.sample();
        let best = search.best_snapshot();
        self.energy = Some(sample.best_energy.round() as u64);
        self.iterations = sample.iteration;
        self.restarts = sample.restarts;
        self.reheats = sample.reheats;
        self.solution = line_of(&best.values);
        self.stop = search.stopped().map_or(Stop::Stopped, Stop::from);
        if self.stop == Stop::NoSolution {
            self.error = Some("no solution");
        }
        self.generations = search.generations();
        // A grid propagation solved was never searched: no phase ran.
        if sample.iteration > 0 {
            self.phases = PhaseLine::all(&search.phases());
        }
        self.solved = sample.best_energy == 0.0 && is_valid_solution(puzzle, &best.values);
        if sample.best_energy == 0.0 && !self.solved {
            bail!(
                "{}: the search reached energy 0 with a grid that breaks the rules (a bug)",
                puzzle.source
            );
        }
        self.best = Some(best);
        Ok(())
    }
}

/// One run of a batch: a puzzle (numbered from 1 among those selected) with one seed.
struct Run<'a> {
    number: usize,
    puzzle: &'a Puzzle,
    seed: u64,
}

/// Every puzzle with every seed, puzzle by puzzle.
fn every_run<'a>(puzzles: &'a [Puzzle], seeds: &[u64]) -> Vec<Run<'a>> {
    let numbered = puzzles.iter().enumerate();
    numbered
        .flat_map(|(i, puzzle)| {
            seeds.iter().map(move |&seed| Run {
                number: i + 1,
                puzzle,
                seed,
            })
        })
        .collect()
}

/// The most chains any of `puzzles` runs side by side.
fn chains_per_puzzle(spec: &SudokuSpec, puzzles: &[Puzzle]) -> usize {
    let chains = |puzzle: &Puzzle| threads(spec, puzzle.n);
    puzzles.iter().map(chains).max().unwrap_or(1)
}

/// Solves every selected puzzle with every seed (this shard's share of them) on `--jobs`
/// threads, one JSON line each in input order.
pub(super) fn run(
    spec: &SudokuSpec,
    out: &mut Lines,
    log: &mut dyn Write,
) -> color_eyre::Result<()> {
    let args = &spec.model;
    let puzzles = selected_puzzles(spec)?;
    let output = output_file(spec, puzzles.len())?;
    let seeds = spec.batch.seeds(spec.run.seed);
    let runs = spec.batch.select(every_run(&puzzles, &seeds), || {
        let mut what = match (args.index, &args.file) {
            (Some(index), _) => format!("--index {index} picks 1 puzzle"),
            (None, Some(path)) => format!(
                "{} holds {}",
                source_name(path),
                count(puzzles.len(), "puzzle", "puzzles")
            ),
            (None, None) => "without a file there is 1 puzzle".to_string(),
        };
        if seeds.len() > 1 {
            what += &format!(" and --seeds gives {}", count(seeds.len(), "seed", "seeds"));
        }
        what
    })?;
    let jobs = spec.batch.jobs(chains_per_puzzle(spec, &puzzles));
    let solve_run = |run: &Run| {
        let spec = spec.for_seed(run.seed, seeds.len() > 1);
        let mut trace = puzzle_trace(&spec, run.number, puzzles.len())?;
        let report = solve(run.puzzle, &spec, &mut trace)?;
        trace.finish().wrap_err("writing the --trace file")?;
        Ok(report)
    };
    let mut tally = report::run(&runs, jobs, output.as_ref(), solve_run, out, log)?;
    let what = match args.named {
        Some(preset) => format!("sudoku --preset {preset}"),
        None => "sudoku".to_string(),
    };
    tally.say(log, &what, runs.len());
    unsolved_is_failure(runs.len(), tally.solved, tally.impossible)
}

/// `--output`, checked before any puzzle is solved: a picture is of one puzzle's grid.
pub fn output_file(spec: &SudokuSpec, puzzles: usize) -> Result<Option<OutputFile>, InputError> {
    let inputs: Vec<&Path> = spec.model.file.as_deref().into_iter().collect();
    let file = spec.checked_output(&inputs)?;
    match &file {
        Some(file) if file.format != Format::Txt && puzzles > 1 => Err(InputError::new(
            "--output",
            format!(
                "a picture shows one grid and the input has {puzzles} puzzles: choose one \
                 with --index, or write .txt"
            ),
        )),
        _ => Ok(file),
    }
}

impl report::Report for Report {
    /// Its line of the `.txt`, or the picture of its best grid (the only report: a picture
    /// is of one puzzle).
    fn output(&self, format: Format) -> color_eyre::Result<Vec<u8>> {
        match (&self.best, format) {
            (_, Format::Txt) => Ok(format!("{}\n", self.solution).into_bytes()),
            (Some(best), _) => Ok(super::picture::output(best, format)),
            (None, _) => bail!(
                "{}: no grid to draw: the puzzle has no solution",
                self.source
            ),
        }
    }

    fn output_failed(&mut self, error: String) {
        self.output_error = Some(error);
    }

    /// Nothing: the batch's tally says how the puzzles went.
    fn summary(&self, _log: &mut dyn Write) {}

    fn finished(&self) -> Finished {
        Finished {
            stop: self.stop,
            solved: Some(self.solved),
            energy: self.energy.map(Energy::Whole),
            measure: None,
            seconds: self.seconds,
            iterations: self.iterations,
        }
    }
}

/// The exit status every Sudoku command shares: an error (exit code 1) when a puzzle has no
/// solution or was not solved.
pub fn unsolved_is_failure(
    puzzles: usize,
    solved: usize,
    impossible: usize,
) -> color_eyre::Result<()> {
    let of = count(puzzles, "puzzle", "puzzles");
    if impossible > 0 {
        bail!(
            "{impossible} of {of} {} no solution",
            if impossible == 1 { "has" } else { "have" }
        );
    }
    if solved < puzzles {
        bail!("{} of {of} not solved", puzzles - solved);
    }
    Ok(())
}
