//! A one-line progress display on stderr for long headless runs: elapsed time, best energy,
//! steps per second and time left, redrawn about once a second from the samples the run
//! takes between batches, and erased when the run ends. A batch of several runs shows one
//! line for the batch instead (runs done of all). Nothing is shown unless `main` enabled it
//! (stderr is a terminal and there is no `--quiet`), so piped stderr gets only the summary.
//! indicatif draws the line: it knows how to erase it on any terminal.

use std::sync::atomic::{AtomicU8, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::search::{Observer, Sample};

/// How often the line is redrawn: often enough to look alive, rarely enough to cost nothing
/// (indicatif holds its terminal to the same rate).
const EVERY: Duration = Duration::from_secs(1);

const OFF: u8 = 0;
/// Each run shows its own line.
const RUNS: u8 = 1;
/// A batch shows one line; its runs show none.
const BATCH: u8 = 2;

static SHOWN: AtomicU8 = AtomicU8::new(OFF);

/// Lets headless runs show progress on stderr, which must be a terminal.
pub fn enable() {
    SHOWN.store(RUNS, Ordering::Relaxed);
}

fn line(template: &str) -> ProgressBar {
    let style = ProgressStyle::with_template(template).expect("a valid template");
    ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(1)).with_style(style)
}

/// The progress line of one run, or nothing.
pub struct Progress {
    bar: Option<ProgressBar>,
    time_limit: Option<Duration>,
    max_steps: Option<u64>,
    drawn: Instant,
}

impl Progress {
    /// No display (a run among others, a test).
    pub fn off() -> Self {
        Progress {
            bar: None,
            time_limit: None,
            max_steps: None,
            drawn: Instant::now(),
        }
    }

    /// The display of a run with this budget, if progress is shown and no batch shows its
    /// own line.
    pub fn start(time_limit: Option<Duration>, max_steps: Option<u64>) -> Self {
        let shown = SHOWN.load(Ordering::Relaxed) == RUNS;
        Progress {
            bar: shown.then(|| line("{msg}")),
            time_limit,
            max_steps,
            ..Progress::off()
        }
    }

    /// Whether it wants samples.
    pub fn is_on(&self) -> bool {
        self.bar.is_some()
    }

    /// Shows `sample` if the line is due.
    pub fn show(&mut self, sample: &Sample) {
        self.show_at(sample.elapsed, sample.best_energy, sample.iteration);
    }

    /// Shows the run at `elapsed` with its best energy and the steps made so far, if the
    /// line is due (the first after a second, so a short run shows nothing).
    pub fn show_at(&mut self, elapsed: Duration, best: f64, steps: u64) {
        let Some(bar) = &self.bar else { return };
        if self.drawn.elapsed() < EVERY {
            return;
        }
        self.drawn = Instant::now();
        bar.set_message(self.describe(elapsed, best, steps));
    }

    fn describe(&self, elapsed: Duration, best: f64, steps: u64) -> String {
        let seconds = elapsed.as_secs_f64();
        let rate = steps as f64 / seconds.max(1e-9);
        let by_time = self.time_limit.map(|l| l.as_secs_f64() - seconds);
        let by_steps = self
            .max_steps
            .map(|max| max.saturating_sub(steps) as f64 / rate.max(1e-9));
        let left = match (by_time, by_steps) {
            (Some(a), Some(b)) => format!(", {:.0} s left", a.min(b).max(0.0)),
            (Some(a), None) | (None, Some(a)) => format!(", {:.0} s left", a.max(0.0)),
            (None, None) => String::new(),
        };
        format!(
            "elapsed {seconds:.0} s, best {best}, {:.1}M steps/s{left}",
            rate / 1e6
        )
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The progress line of a batch: runs done of all, and the time since it started.
pub struct BatchProgress {
    bar: Option<ProgressBar>,
}

impl BatchProgress {
    /// The line of a batch of `runs`, if progress is shown and there are several; while it
    /// lives the runs show none of their own.
    pub fn start(runs: usize) -> Self {
        let shown = runs > 1
            && SHOWN
                .compare_exchange(RUNS, BATCH, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok();
        let bar = shown.then(|| {
            let bar = line("elapsed {elapsed}, {pos}/{len} runs done");
            bar.set_length(runs as u64);
            bar.enable_steady_tick(EVERY);
            bar
        });
        BatchProgress { bar }
    }

    /// One more run is done.
    pub fn done(&self) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
    }

    /// Runs `print` with the line out of the way, so what it writes to the terminal is not
    /// drawn over.
    pub fn suspend<R>(&self, print: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(print),
            None => print(),
        }
    }
}

impl Drop for BatchProgress {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
            SHOWN.store(RUNS, Ordering::Relaxed);
        }
    }
}

impl Observer for Progress {
    fn is_on(&self) -> bool {
        Progress::is_on(self)
    }
    fn observe(&mut self, sample: &Sample) {
        self.show(sample);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(seconds: Option<u64>, max_steps: Option<u64>) -> Progress {
        Progress {
            bar: None,
            time_limit: seconds.map(Duration::from_secs),
            max_steps,
            drawn: Instant::now(),
        }
    }

    #[test]
    fn time_left_is_the_nearer_of_the_time_limit_and_the_steps_at_this_rate() {
        let at = |p: &Progress| p.describe(Duration::from_secs(2), 4.0, 4_000_000);
        assert_eq!(
            at(&budget(Some(10), None)),
            "elapsed 2 s, best 4, 2.0M steps/s, 8 s left"
        );
        assert_eq!(
            at(&budget(Some(10), Some(10_000_000))),
            "elapsed 2 s, best 4, 2.0M steps/s, 3 s left"
        );
        assert_eq!(at(&budget(None, None)), "elapsed 2 s, best 4, 2.0M steps/s");
    }

    #[test]
    fn a_run_shows_nothing_unless_enabled() {
        assert!(!Progress::start(None, Some(1)).is_on());
        assert!(BatchProgress::start(3).bar.is_none());
    }
}
