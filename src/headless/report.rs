//! The one headless pipeline: every problem's runs (a file's puzzles, the seeds of
//! `--seeds`, or one run) are solved on `--jobs` threads and each run's [`Report`] is
//! printed as its JSON line in input order, summed up in a [`Tally`], and added to the
//! `--output` file, which is written before the last line so that the line can say how
//! that went.

use std::io::Write;
use std::time::Duration;

use serde::{Serialize, Serializer};
use serde_json::value::RawValue;

use super::batch;
use super::output::{Format, OutputFile};
use crate::headless::spec::Spec;
use crate::messages::say;
use crate::search::{Finished, Stop};

/// What a headless run prints and writes.
pub trait Report: Serialize + Send {
    /// What this run adds to the `--output` file, written as `format`.
    fn output(&self, format: Format) -> color_eyre::Result<Vec<u8>>;
    /// Says in the line why the `--output` file could not be written.
    fn output_failed(&mut self, error: String);
    /// What stderr says of the run after its line.
    fn summary(&self, log: &mut dyn Write);
    /// How the run ended: what the tally counts, a race ranks and the live banner says.
    fn finished(&self) -> Finished;
}

/// Where a batch's lines go: each run's line is written to `out` with the fields `after`
/// holds appended (a race pane's `pane` and `raced`), and each run's [`Finished`] is kept
/// for whoever ran the batch (a race ranks by them), whether or not the batch failed.
pub struct Lines<'a> {
    out: &'a mut dyn Write,
    after: After,
    finished: Vec<Finished>,
}

/// Fields added after a line's own, in their order, as JSON already.
#[derive(Default)]
struct After(Vec<(&'static str, Box<RawValue>)>);

impl Serialize for After {
    fn serialize<S: Serializer>(&self, out: S) -> Result<S::Ok, S::Error> {
        out.collect_map(self.0.iter().map(|(name, value)| (name, value)))
    }
}

/// A run's line: its report's fields, then the added ones.
#[derive(Serialize)]
struct Tagged<'a, R> {
    #[serde(flatten)]
    report: &'a R,
    #[serde(flatten)]
    after: &'a After,
}

impl<'a> Lines<'a> {
    /// Lines written to `out` as the runs print them.
    pub fn to(out: &'a mut dyn Write) -> Self {
        Lines {
            out,
            after: After::default(),
            finished: Vec::new(),
        }
    }

    /// Adds field `name`, set to `value`, after every line's own fields.
    pub fn after(mut self, name: &'static str, value: &impl Serialize) -> serde_json::Result<Self> {
        self.after
            .0
            .push((name, serde_json::value::to_raw_value(value)?));
        Ok(self)
    }

    /// The runs printed so far, in their order.
    pub fn finished(&self) -> &[Finished] {
        &self.finished
    }

    fn print<R: Report>(&mut self, report: &R) -> color_eyre::Result<()> {
        let line = Tagged {
            report,
            after: &self.after,
        };
        serde_json::to_writer(&mut *self.out, &line)?;
        writeln!(self.out)?;
        self.out.flush()?;
        self.finished.push(report.finished());
        Ok(())
    }
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
    fn add(&mut self, run: Finished) {
        self.seconds.push(run.seconds);
        self.iterations += run.iterations;
        self.anneal_time += Duration::from_secs_f64(run.seconds);
        self.solved += run.is_solved() as usize;
        self.impossible += (run.stop == Stop::NoSolution) as usize;
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
    out: &mut Lines,
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
        out.print(&report)?;
        report.summary(log);
        tally.add(report.finished());
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
/// `--output` file, and each run takes `threads` threads (the batch runs as many at once
/// as the cores hold).
pub fn per_seed<M: Clone + Sync, R: Report>(
    spec: &Spec<M>,
    (output, threads): (Option<&OutputFile>, usize),
    solve: impl Fn(&Spec<M>) -> color_eyre::Result<R> + Sync,
    out: &mut Lines,
    log: &mut dyn Write,
) -> color_eyre::Result<Tally> {
    let seeds = spec.batch.selected_seeds(spec.run.seed)?;
    let several = spec.batch.several_seeds();
    let solve = |&seed: &u64| solve(&spec.for_seed(seed, several));
    run(&seeds, spec.batch.jobs(threads), output, solve, out, log)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Energy;
    use std::io;

    /// A run's report as a problem might print it.
    #[derive(Serialize)]
    struct Fake {
        energy: u64,
        stop: Stop,
    }

    impl Report for Fake {
        fn output(&self, _format: Format) -> color_eyre::Result<Vec<u8>> {
            Ok(Vec::new())
        }
        fn output_failed(&mut self, _error: String) {}
        fn summary(&self, _log: &mut dyn Write) {}
        fn finished(&self) -> Finished {
            Finished {
                stop: self.stop,
                solved: Some(self.energy == 0),
                energy: Some(Energy::Whole(self.energy)),
                measure: None,
                seconds: 1.5,
                iterations: 7,
            }
        }
    }

    #[test]
    fn lines_print_each_report_then_the_added_fields_and_keep_how_it_finished() {
        let mut bytes = Vec::new();
        let mut lines = (Lines::to(&mut bytes).after("pane", &"b/a"))
            .and_then(|lines| lines.after("raced", &[1, 2]))
            .unwrap();
        let runs = [(3, Stop::Steps), (0, Stop::Target)];
        let solve = |&(energy, stop): &(u64, Stop)| Ok(Fake { energy, stop });
        let tally = run(&runs, 2, None, solve, &mut lines, &mut io::sink()).unwrap();
        let finished = lines.finished().to_vec();
        assert_eq!(
            String::from_utf8(bytes).unwrap(),
            "{\"energy\":3,\"stop\":\"steps\",\"pane\":\"b/a\",\"raced\":[1,2]}\n\
             {\"energy\":0,\"stop\":\"target\",\"pane\":\"b/a\",\"raced\":[1,2]}\n"
        );
        assert_eq!(finished.len(), 2);
        assert_eq!(finished[0].energy, Some(Energy::Whole(3)));
        assert!(finished[1].is_solved() && !finished[0].is_solved());
        assert_eq!((tally.solved, tally.impossible), (1, 0));
    }

    #[test]
    fn plain_lines_are_the_reports_alone() {
        let mut bytes = Vec::new();
        let report = Fake {
            energy: 2,
            stop: Stop::NoSolution,
        };
        let mut lines = Lines::to(&mut bytes);
        lines.print(&report).unwrap();
        assert_eq!(lines.finished()[0].stop, Stop::NoSolution);
        assert_eq!(
            String::from_utf8(bytes).unwrap(),
            serde_json::to_string(&report).unwrap() + "\n"
        );
    }
}
