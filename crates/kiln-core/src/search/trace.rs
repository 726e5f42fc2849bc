//! A run's history as CSV (`--trace FILE`): one row per kept sample, thinned so the file
//! stays bounded however long the run, and read back by `kiln plot`.
//!
//! Which samples are kept: every one of the first [`ROWS_PER_STRIDE`]; then every second
//! for as many rows again, then every fourth, and so on (the file grows with the logarithm
//! of the run's length); and whatever the stride, the first and the last sample and every
//! new best, a best being new when it beats the last one written by more than
//! `BEST_RESOLUTION` of its size (so integer energies below 1000, Sudoku's, keep every
//! one, and a long image run does not write a row per batch while it cools).

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::time::Duration;

use super::EPS;
use super::Observer;
use super::{Control, Phase, Sample, Search};
use crate::input::{InputError, excerpt};

/// The first line of every trace: its columns, one per field of a sample, the last naming
/// the phase (e.g. "annealing", "local search"); its `temperature` is the phase's control
/// (a local search's threshold, a mutation rate; 0 for a phase with none). A file read back
/// must start with it or with [`HEADER_WITHOUT_PHASE`].
pub const HEADER: &str =
    "step,seconds,temperature,energy,best_energy,acceptance,restarts,reheats,phase";
/// The header of traces written before the phase column (all annealing), still read.
pub const HEADER_WITHOUT_PHASE: &str =
    "step,seconds,temperature,energy,best_energy,acceptance,restarts,reheats";
/// Rows written at each stride before the stride doubles.
pub const ROWS_PER_STRIDE: u64 = 512;
/// Steps in the first batches of a traced run (see [`run_traced`]).
pub const FIRST_TRACED_BATCH: u64 = 2048;
/// A new best is written when it is this fraction (of its magnitude) below the last one
/// written.
const BEST_RESOLUTION: f64 = 1e-3;

/// Writes samples as CSV rows, or does nothing at all (no `--trace`).
pub struct Trace<W: Write = BufWriter<File>> {
    out: Option<W>,
    /// Samples offered so far.
    seen: u64,
    /// Every `stride`-th sample is written.
    stride: u64,
    /// Rows written for the stride since it last doubled.
    at_stride: u64,
    written_best: f64,
    /// The latest sample and whether it was written: the last one is written at the end.
    latest: Option<(Sample, bool)>,
    /// The first write that failed: later rows are dropped and `finish` reports it.
    error: Option<io::Error>,
}

impl Trace {
    /// A trace that records nothing.
    pub fn off() -> Self {
        Trace::with_writer(None)
    }

    /// A trace into a new file at `path`; an existing file is an error, never overwritten.
    pub fn create(path: &Path) -> Result<Self, InputError> {
        let file = File::options()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| match e.kind() {
                io::ErrorKind::AlreadyExists => exists(path),
                _ => InputError::new("--trace", format!("{}: cannot create: {e}", path.display())),
            })?;
        Ok(Trace::new(BufWriter::new(file)))
    }

    /// Refuses `path` if a file is there, as `create` would: so that runs that create
    /// their traces side by side (a race's panes) refuse before any of them starts.
    pub fn check_new(path: &Path) -> Result<(), InputError> {
        match path.exists() {
            true => Err(exists(path)),
            false => Ok(()),
        }
    }
}

fn exists(path: &Path) -> InputError {
    InputError::new(
        "--trace",
        format!(
            "{}: already exists (a trace is never overwritten)",
            path.display()
        ),
    )
}

impl<W: Write> Trace<W> {
    /// A trace into `out`, starting with the header.
    pub fn new(out: W) -> Self {
        let mut trace = Trace::with_writer(Some(out));
        if let Some(out) = &mut trace.out
            && let Err(e) = writeln!(out, "{HEADER}")
        {
            trace.error = Some(e);
        }
        trace
    }

    fn with_writer(out: Option<W>) -> Self {
        Trace {
            out,
            seen: 0,
            stride: 1,
            at_stride: 0,
            written_best: f64::INFINITY,
            latest: None,
            error: None,
        }
    }

    /// Whether samples are recorded (they need not be taken otherwise).
    pub fn is_on(&self) -> bool {
        self.out.is_some()
    }

    /// Offers a sample: it is written when it is due by the stride or a new best.
    pub fn record(&mut self, sample: &Sample) {
        if self.out.is_none() {
            return;
        }
        self.seen += 1;
        let due = self.seen == 1 || self.seen.is_multiple_of(self.stride);
        if due {
            self.at_stride += 1;
            if self.at_stride == ROWS_PER_STRIDE {
                self.stride *= 2;
                self.at_stride = 0;
            }
        }
        let threshold = (self.written_best.abs() * BEST_RESOLUTION).max(EPS);
        let new_best = sample.best_energy < self.written_best - threshold;
        let write = due || new_best;
        if write {
            self.write_row(sample);
        }
        self.latest = Some((*sample, write));
    }

    /// Writes the last sample (unless it was) and flushes; returns the writer, or the
    /// first error met on the way.
    pub fn finish(mut self) -> io::Result<Option<W>> {
        if let Some((sample, false)) = self.latest {
            self.write_row(&sample);
        }
        if let (Some(out), None) = (&mut self.out, &self.error)
            && let Err(e) = out.flush()
        {
            self.error = Some(e);
        }
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.out),
        }
    }

    fn write_row(&mut self, s: &Sample) {
        let Some(out) = &mut self.out else { return };
        if self.error.is_some() {
            return;
        }
        self.written_best = self.written_best.min(s.best_energy);
        // Straight into the buffered writer: no allocation per row.
        let written = writeln!(
            out,
            "{},{:.6},{:.6e},{},{},{:.6},{},{},{}",
            s.iteration,
            s.elapsed.as_secs_f64(),
            s.control.level(),
            s.energy,
            s.best_energy,
            s.acceptance,
            s.restarts,
            s.reheats,
            s.phase.name()
        );
        if let Err(e) = written {
            self.error = Some(e);
        }
    }
}

/// Steps `search` in batches of `batch` until it stops, offering `trace` and `observer` a
/// sample after every batch (and taking none at all when both are off, so a plain run is
/// unchanged); the two share one sample, which counts acceptance since the last.
///
/// A traced run starts with batches of [`FIRST_TRACED_BATCH`] steps, doubled every
/// [`ROWS_PER_STRIDE`] samples up to `batch`, so that a short run still leaves a few
/// hundred rows to draw its shape from, and a long one samples no more often than it
/// writes.
pub fn run_traced<S: Search, W: Write>(
    search: &mut S,
    batch: u64,
    trace: &mut Trace<W>,
    observer: &mut dyn Observer,
) {
    super::interrupt::search_begun();
    let watched = trace.is_on() || observer.is_on();
    let mut steps = batch;
    if trace.is_on() {
        trace.record(&search.sample());
        steps = batch.min(FIRST_TRACED_BATCH);
    }
    let mut samples = 0u64;
    while search.stopped().is_none() {
        search.step_batch(steps);
        if watched {
            let sample = search.sample();
            trace.record(&sample);
            observer.observe(&sample);
            samples += 1;
            if samples.is_multiple_of(ROWS_PER_STRIDE) {
                steps = (steps * 2).min(batch);
            }
        }
    }
}

/// A search that offers every sample taken of it to a trace: how a live run is traced, on
/// its annealing thread (which samples at every publication, a few dozen times a second,
/// and at every key). Dropping it (the run's end) writes a last sample if steps were made
/// since the one before, and finishes the file.
pub struct Traced<S: Search> {
    search: S,
    trace: Option<Trace>,
    /// The step of the last sample offered.
    last_step: Option<u64>,
}

impl<S: Search> Traced<S> {
    /// `search`, with every sample taken of it offered to `trace`.
    pub fn new(search: S, trace: Trace) -> Self {
        Traced {
            search,
            trace: Some(trace),
            last_step: None,
        }
    }
}

impl<S: Search> Search for Traced<S> {
    type Snapshot = S::Snapshot;

    fn step_batch(&mut self, n: u64) -> u64 {
        self.search.step_batch(n)
    }
    fn step_explained(&mut self) -> Option<super::Explained> {
        self.search.step_explained()
    }
    fn sample(&mut self) -> Sample {
        let sample = self.search.sample();
        if let Some(trace) = &mut self.trace {
            trace.record(&sample);
            self.last_step = Some(sample.iteration);
        }
        sample
    }
    fn stopped(&self) -> Option<super::StopReason> {
        self.search.stopped()
    }
    fn snapshot(&self) -> S::Snapshot {
        self.search.snapshot()
    }
    fn best_snapshot(&mut self) -> S::Snapshot {
        self.search.best_snapshot()
    }
    fn reheat(&mut self, temperature: f64) {
        self.search.reheat(temperature)
    }
    fn restart(&mut self) {
        self.search.restart()
    }
    fn waited(&mut self, idle: Duration) {
        self.search.waited(idle)
    }
    fn generations(&self) -> Option<u64> {
        self.search.generations()
    }
    fn winner(&self) -> Option<usize> {
        self.search.winner()
    }
    fn threads(&self) -> usize {
        self.search.threads()
    }
    fn phases(&mut self) -> Vec<super::PhaseWork> {
        self.search.phases()
    }
}

impl<S: Search> Drop for Traced<S> {
    fn drop(&mut self) {
        let Some(mut trace) = self.trace.take() else {
            return;
        };
        if !trace.is_on() {
            return;
        }
        // A search that panicked is not sampled again (a second panic would abort).
        if !std::thread::panicking() {
            let sample = self.search.sample();
            if self.last_step != Some(sample.iteration) {
                trace.record(&sample);
            }
        }
        if let Err(e) = trace.finish() {
            crate::messages::warn(format_args!("writing the --trace file: {e}"));
        }
    }
}

/// The largest magnitude an energy or temperature read back may have: far above any kiln
/// writes (energies stay below 2^53, temperatures below 1e16), and far enough below
/// `f64::MAX` that the margins `kiln plot` puts around them stay finite.
pub const MAX_VALUE: f64 = 1e300;

/// Reads a trace back; `source` names it in errors, which give the line. Rows go in step
/// (and so time) order, as kiln writes them: `kiln plot` thins each line by the pixel
/// column its points fall in, which takes them in order.
pub fn parse(text: &str, source: &str) -> Result<Vec<Sample>, InputError> {
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, header)) if [HEADER, HEADER_WITHOUT_PHASE].contains(&header.trim()) => {}
        _ => {
            return Err(InputError::new(
                source,
                format!("not a kiln trace: the first line should be `{HEADER}`"),
            )
            .at_line(1));
        }
    }
    let mut samples: Vec<Sample> = Vec::new();
    for (i, line) in lines.filter(|(_, line)| !line.trim().is_empty()) {
        let sample = parse_row(line)
            .and_then(|s| in_order(samples.last(), s))
            .map_err(|e| InputError::new(source, e).at_line(i + 1))?;
        samples.push(sample);
    }
    if samples.is_empty() {
        return Err(InputError::new(source, "the trace has no rows"));
    }
    Ok(samples)
}

fn parse_row(line: &str) -> Result<Sample, String> {
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    let (
        [
            step,
            seconds,
            temperature,
            energy,
            best,
            acceptance,
            restarts,
            reheats,
        ],
        phase,
    ) = match fields[..] {
        [a, b, c, d, e, f, g, h] => ([a, b, c, d, e, f, g, h], Phase::Anneal),
        [a, b, c, d, e, f, g, h, name] => {
            let phase = Phase::named(name)
                .ok_or_else(|| format!("phase: '{}' is no phase kiln runs", excerpt(name)))?;
            ([a, b, c, d, e, f, g, h], phase)
        }
        _ => {
            return Err(format!(
                "{} fields, a row has 9 (8 in traces without the phase)",
                fields.len()
            ));
        }
    };
    let elapsed: f64 = number(seconds, "seconds")?;
    let t = plotted(temperature, "temperature")?;
    if t < 0.0 {
        return Err(format!(
            "temperature: '{}' is negative",
            excerpt(temperature)
        ));
    }
    let control = match phase {
        Phase::Anneal | Phase::Reanneal => Control::Temperature(t),
        Phase::Genetic => Control::MutationRate(t),
        Phase::LocalSearch => Control::Threshold(t),
        Phase::ConflictLearning | Phase::Polish => Control::None,
    };
    Ok(Sample {
        phase,
        iteration: number(step, "step")?,
        elapsed: Duration::try_from_secs_f64(elapsed)
            .map_err(|_| format!("seconds: '{}' is not a time in seconds", excerpt(seconds)))?,
        control,
        energy: plotted(energy, "energy")?,
        best_energy: plotted(best, "best_energy")?,
        acceptance: number(acceptance, "acceptance")?,
        restarts: number(restarts, "restarts")?,
        reheats: number(reheats, "reheats")?,
    })
}

fn number<T: std::str::FromStr>(field: &str, name: &str) -> Result<T, String> {
    field
        .parse()
        .map_err(|_| format!("{name}: '{}' is not a number", excerpt(field)))
}

/// A value `kiln plot` draws: finite (Rust reads `inf` and `NaN` as numbers) and within
/// [`MAX_VALUE`].
fn plotted(field: &str, name: &str) -> Result<f64, String> {
    let value: f64 = number(field, name)?;
    match value.abs() <= MAX_VALUE {
        true => Ok(value),
        false if value.is_finite() => Err(format!(
            "{name}: '{}' is out of range (at most {MAX_VALUE:e} either side of 0)",
            excerpt(field)
        )),
        false => Err(format!(
            "{name}: '{}' is not a finite number",
            excerpt(field)
        )),
    }
}

/// `sample`, unless it goes back in steps or seconds from the row before.
fn in_order(before: Option<&Sample>, sample: Sample) -> Result<Sample, String> {
    let Some(before) = before else {
        return Ok(sample);
    };
    if sample.iteration < before.iteration {
        return Err(format!(
            "step {} comes after step {} (rows go in step order)",
            sample.iteration, before.iteration
        ));
    }
    if sample.elapsed < before.elapsed {
        return Err(format!(
            "{} seconds come after {} (rows go in time order)",
            sample.elapsed.as_secs_f64(),
            before.elapsed.as_secs_f64()
        ));
    }
    Ok(sample)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(i: u64, energy: f64, best: f64) -> Sample {
        Sample {
            phase: Phase::Anneal,
            iteration: i * 1000,
            control: Control::Temperature(1.0 / (1.0 + i as f64)),
            energy,
            best_energy: best,
            acceptance: 0.25,
            restarts: i / 100,
            reheats: 0,
            elapsed: Duration::from_millis(i),
        }
    }

    fn written(samples: impl Iterator<Item = Sample>) -> Vec<Sample> {
        let mut trace = Trace::new(Vec::new());
        samples.for_each(|s| trace.record(&s));
        let bytes = trace.finish().unwrap().unwrap();
        parse(std::str::from_utf8(&bytes).unwrap(), "t.csv").unwrap()
    }

    #[test]
    fn rows_read_back_as_written() {
        let samples: Vec<_> = (0..10).map(|i| sample(i, 50.0 - i as f64, 40.5)).collect();
        let back = written(samples.iter().copied());
        assert_eq!(back.len(), samples.len());
        for (a, b) in samples.iter().zip(&back) {
            assert_eq!(
                (a.iteration, a.energy, a.best_energy),
                (b.iteration, b.energy, b.best_energy)
            );
            let (ta, tb) = (a.control.level(), b.control.level());
            assert!((ta - tb).abs() < 1e-6 * ta);
            assert_eq!(a.elapsed, b.elapsed);
            assert_eq!(
                (a.restarts, a.reheats, a.acceptance),
                (b.restarts, b.reheats, b.acceptance)
            );
        }
    }

    #[test]
    fn each_row_names_its_phase_and_its_control_reads_back_as_that_phase_has_it() {
        let phases = [
            (Phase::Anneal, Control::Temperature(2.5)),
            (Phase::LocalSearch, Control::Threshold(0.5)),
            (Phase::ConflictLearning, Control::None),
            (Phase::Genetic, Control::MutationRate(0.25)),
        ];
        let samples = phases
            .iter()
            .enumerate()
            .map(|(i, &(phase, control))| Sample {
                phase,
                control,
                ..sample(i as u64, 9.0 - i as f64, 5.0)
            });
        let back = written(samples);
        let read: Vec<_> = back.iter().map(|s| (s.phase, s.control)).collect();
        assert_eq!(read, phases);
        // A trace from before the phase column is all annealing.
        let old = format!("{HEADER_WITHOUT_PHASE}\n1,0.1,1e0,3,3,0.5,0,0\n");
        let back = parse(&old, "old.csv").unwrap();
        assert_eq!(
            (back[0].phase, back[0].control),
            (Phase::Anneal, Control::Temperature(1.0))
        );
    }

    #[test]
    fn a_long_run_stays_bounded_with_first_last_and_bests() {
        // Ten million batches (10^11 steps at Sudoku's batch size), the energy falling
        // throughout from 10^6: the worst case for bests.
        let n = 10_000_000u64;
        let best_at = |i: u64| 1e6 * (-(i as f64) / n as f64 * 13.0).exp();
        let back = written((0..n).map(|i| sample(i, best_at(i) + 1.0, best_at(i))));
        assert!(back.len() < 25_000, "{} rows", back.len());
        assert_eq!(back[0].iteration, 0);
        assert_eq!(back.last().unwrap().iteration, (n - 1) * 1000);
        // Each written best is within the resolution of the true best at that step.
        for pair in back.windows(2) {
            assert!(pair[1].best_energy <= pair[0].best_energy);
            let gap = (pair[0].best_energy - pair[1].best_energy) / pair[0].best_energy;
            assert!(gap < 2.0 * BEST_RESOLUTION, "{gap}");
        }
    }

    #[test]
    fn every_integer_best_below_a_thousand_is_written() {
        // A plateau that drops one unit at a time at scattered batches, long after the
        // stride has thinned the plateau out.
        let best = |i: u64| 900.0 - (i / 997) as f64;
        let back = written((0..900 * 997).map(|i| sample(i, best(i), best(i))));
        for level in 1..900 {
            let first = (level * 997) as u64 * 1000;
            assert!(
                back.iter()
                    .any(|s| s.iteration == first && s.best_energy == best(level as u64 * 997)),
                "best at step {first} missing"
            );
        }
    }

    #[test]
    fn off_writes_nothing() {
        let mut trace = Trace::off();
        trace.record(&sample(1, 1.0, 1.0));
        assert!(!trace.is_on());
        assert!(trace.finish().unwrap().is_none());
    }

    #[test]
    fn bad_rows_name_file_and_line() {
        let text = format!("{HEADER}\n1,0.1,1e0,3,3,0.5,0,0\n2,0.2,x,3,3,0.5,0,0\n");
        let e = parse(&text, "a.csv").unwrap_err();
        assert_eq!(e.to_string(), "a.csv:3: temperature: 'x' is not a number");
        let e = parse("step,energy\n", "b.csv").unwrap_err();
        assert!(
            e.to_string().starts_with("b.csv:1: not a kiln trace"),
            "{e}"
        );
        let e = parse(&format!("{HEADER}\n1,2\n"), "c.csv").unwrap_err();
        assert_eq!(
            e.to_string(),
            "c.csv:2: 2 fields, a row has 9 (8 in traces without the phase)"
        );
        let e = parse(
            &format!("{HEADER}\n1,0.1,1e0,3,3,0.5,0,0,polishing\n"),
            "d.csv",
        );
        assert_eq!(
            e.unwrap_err().to_string(),
            "d.csv:2: phase: 'polishing' is no phase kiln runs"
        );
    }

    #[test]
    fn values_a_plot_cannot_draw_are_refused_at_their_line() {
        let row =
            |t: &str, e: &str| format!("{HEADER}\n0,0,1,5,5,0.5,0,0\n9,1,{t},{e},5,0.5,0,0\n");
        let cases = [
            (row("1", "inf"), "energy: 'inf' is not a finite number"),
            (row("1", "-inf"), "energy: '-inf' is not a finite number"),
            (row("1", "NaN"), "energy: 'NaN' is not a finite number"),
            (row("NaN", "5"), "temperature: 'NaN' is not a finite number"),
            (row("inf", "5"), "temperature: 'inf' is not a finite number"),
            (row("-1e-3", "5"), "temperature: '-1e-3' is negative"),
            (
                row("1", "-1e301"),
                "energy: '-1e301' is out of range (at most 1e300 either side of 0)",
            ),
        ];
        for (text, why) in cases {
            let e = parse(&text, "t.csv").unwrap_err();
            assert_eq!(e.to_string(), format!("t.csv:3: {why}"));
        }
        // The edges of what is drawn are read.
        let ok = parse(&row("0", "-1e300"), "t.csv").unwrap();
        assert_eq!(
            (ok[1].control, ok[1].energy),
            (Control::Temperature(0.0), -1e300)
        );
    }

    #[test]
    fn rows_that_go_back_are_refused() {
        let text = format!("{HEADER}\n5,1,1,5,5,0.5,0,0\n5,1,1,4,4,0.5,0,0\n4,2,1,3,3,0.5,0,0\n");
        let e = parse(&text, "t.csv").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.csv:4: step 4 comes after step 5 (rows go in step order)"
        );
        let text = format!("{HEADER}\n5,1.5,1,5,5,0.5,0,0\n6,1.25,1,4,4,0.5,0,0\n");
        let e = parse(&text, "t.csv").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.csv:3: 1.25 seconds come after 1.5 (rows go in time order)"
        );
    }

    #[test]
    fn an_existing_file_is_not_overwritten() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let path = dir.join("exists.csv");
        std::fs::write(&path, "keep").unwrap();
        let e = Trace::create(&path).err().expect("refused");
        assert!(e.to_string().starts_with("--trace: "), "{e}");
        assert!(e.to_string().contains("already exists"), "{e}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "keep");
    }
}
