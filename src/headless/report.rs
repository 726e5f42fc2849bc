//! The one headless pipeline: every problem's runs (a file's puzzles, the seeds of
//! `--seeds`, or one run) are solved on `--jobs` threads and each run's [`Report`] is
//! printed as its JSON line in input order, summed up in a [`Tally`], and added to the
//! `--output` file, which is written before the last line so that the line can say how
//! that went.

use std::io::Write;
use std::time::Duration;

use serde::Serialize;

use super::batch;
use super::output::{Format, OutputFile};
use crate::headless::spec::Spec;
use crate::messages::say;

/// What a headless run prints and writes.
pub trait Report: Serialize + Send {
    /// What this run adds to the `--output` file, written as `format`.
    fn output(&self, format: Format) -> color_eyre::Result<Vec<u8>>;
    /// Says in the line why the `--output` file could not be written.
    fn output_failed(&mut self, error: String);
    /// What stderr says of the run after its line.
    fn summary(&self, log: &mut dyn Write);
    /// What the batch's tally counts of the run.
    fn counts(&self) -> Counts;
}

/// One run, as a tally counts it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Counts {
    /// Wall time of the run.
    pub seconds: f64,
    /// Steps (or evaluations) it took.
    pub iterations: u64,
    /// Whether it reached its goal (a solved Sudoku).
    pub solved: bool,
    /// The input has no solution: nothing was searched.
    pub impossible: bool,
}

/// What the runs printed add up to.
#[derive(Debug, Default)]
pub struct Tally {
    seconds: Vec<f64>,
    iterations: u64,
    anneal_time: Duration,
    /// Runs that reached their goal.
    pub solved: usize,
    /// Runs whose input has no solution.
    pub impossible: usize,
}

impl Tally {
    fn add(&mut self, counts: Counts) {
        self.seconds.push(counts.seconds);
        self.iterations += counts.iterations;
        self.anneal_time += Duration::from_secs_f64(counts.seconds);
        self.solved += counts.solved as usize;
        self.impossible += counts.impossible as usize;
    }

    /// `what: solved S/RUNS, median .., max .., R iterations/s`; `what` names the command.
    pub fn say(&mut self, log: &mut dyn Write, what: &str, runs: usize) {
        self.seconds.sort_by(f64::total_cmp);
        // An interrupt or an empty shard may leave nothing to summarise.
        let (median, max) = match self.seconds.last() {
            Some(&max) => (self.seconds[self.seconds.len() / 2], max),
            None => (0.0, 0.0),
        };
        let rate = self.iterations as f64 / self.anneal_time.as_secs_f64().max(1e-9);
        say(
            log,
            format_args!(
                "{what}: solved {}/{runs}, median {median:.4} s, max {max:.4} s, \
                 {:.1}M iterations/s",
                self.solved,
                rate / 1e6
            ),
        );
    }
}

/// Solves each of `runs` with `solve` on `jobs` threads and prints their reports in order:
/// the JSON line on `out`, the summary on `log`. A report that cannot be drawn into
/// `output` fails the batch once its line is out; a batch cut short by a signal writes
/// what it has. The lines printed are kept whatever becomes of the file; its failure is
/// returned (exit code 3) after them.
pub fn run<T: Sync, R: Report>(
    runs: &[T],
    jobs: usize,
    output: Option<&OutputFile>,
    solve: impl Fn(&T) -> color_eyre::Result<R> + Sync,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> color_eyre::Result<Tally> {
    let mut tally = Tally::default();
    let mut bytes = Vec::new();
    let mut printed = 0;
    let mut written = None;
    let print = |mut report: R| {
        printed += 1;
        let drawn = output.map(|file| report.output(file.format));
        if let (Some(file), Some(Ok(drawn))) = (output, &drawn) {
            bytes.extend(drawn);
            // The file is written before the last line, which says how that went.
            if printed == runs.len() {
                let result = file.target.write(&bytes);
                if let Err(failed) = &result {
                    report.output_failed(failed.to_string());
                }
                written = Some(result);
            }
        }
        serde_json::to_writer(&mut *out, &report)?;
        writeln!(out)?;
        out.flush()?;
        report.summary(log);
        tally.add(report.counts());
        drawn.transpose()?;
        Ok(())
    };
    batch::run_in_order(runs, jobs, solve, print)?;
    match (written, output) {
        (Some(written), _) => written?,
        (None, Some(file)) => file.target.write(&bytes)?,
        (None, None) => {}
    }
    Ok(tally)
}

/// The runs of a problem whose batch is its seeds: one per seed of `--seeds` (this
/// shard's), or the one run, each of `spec` for its seed; `output` is the checked
/// `--output` file.
pub fn per_seed<M: Clone + Sync, R: Report>(
    spec: &Spec<M>,
    output: Option<&OutputFile>,
    solve: impl Fn(&Spec<M>) -> color_eyre::Result<R> + Sync,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> color_eyre::Result<Tally> {
    let seeds = spec.batch.selected_seeds(spec.run.seed)?;
    let several = spec.batch.several_seeds();
    let solve = |&seed: &u64| solve(&spec.for_seed(seed, several));
    run(&seeds, spec.batch.jobs(1), output, solve, out, log)
}
