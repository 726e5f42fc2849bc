//! Your own problem, live: a [`Problem`] (from `kiln-core`) and a [`Board`] that draws its
//! snapshots are all the live view needs. The runner, the stats panel, the keys, pacing,
//! help and the banner come with it, as they do for kiln's own problems. [`main`] is a
//! whole program's `main` on top of it: `--seed`, `--record`, and `--headless` for one JSON
//! line of the outcome.
//!
//! ```no_run
//! # use kiln_core::anneal::{Problem, Rng};
//! # use kiln_tui::{Board, Theme, watch::Watch};
//! # use ratatui::{buffer::Buffer, layout::Rect};
//! # #[derive(Clone)] struct Bits(Vec<bool>);
//! # impl Problem for Bits {
//! #     type Move = usize;
//! #     type Snapshot = Vec<bool>;
//! #     fn energy(&self) -> f64 { self.0.iter().filter(|&&b| b).count() as f64 }
//! #     fn propose(&self, rng: &mut Rng) -> usize { rand::RngExt::random_range(rng, 0..self.0.len()) }
//! #     fn delta(&self, &i: &usize) -> f64 { if self.0[i] { -1.0 } else { 1.0 } }
//! #     fn apply(&mut self, &i: &usize) { self.0[i] = !self.0[i] }
//! #     fn randomize(&mut self, _rng: &mut Rng) {}
//! #     fn snapshot(&self) -> Vec<bool> { self.0.clone() }
//! # }
//! #[derive(Clone)]
//! struct Row;
//! impl Board<Vec<bool>> for Row {
//!     fn min_size(&self, _: Option<&Vec<bool>>) -> (u16, u16) { (32, 1) }
//!     fn render(&self, bits: &Vec<bool>, area: Rect, buf: &mut Buffer, theme: &Theme) {
//!         let text: String = bits.iter().map(|&b| if b { '#' } else { '.' }).collect();
//!         buf.set_string(area.x, area.y, text, theme.good);
//!     }
//! }
//! Watch::new("bits", |_seed| Bits(vec![true; 32]), Row).target(0.0).run()?;
//! # Ok::<(), color_eyre::Report>(())
//! ```

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use color_eyre::Result;
use color_eyre::eyre::WrapErr;
use ratatui::layout::Rect;

use super::session::{Board, BoardArea, Demo, Live, Session, Tab};
use super::{App, Glyphs, Options, Theme, Tui};
use crate::TraceSlot;
use kiln_core::anneal::worker::Speed;
use kiln_core::anneal::{
    BATCH, Launch, Outcome, Problem, RunConfig, Runner, Schedule, Trace, Unobserved,
    auto_temperature, nth_seed, run_traced,
};
use kiln_core::input::InputError;

mod args;
pub use args::{Args, ArgsError, main};

/// Steps a second a watched problem starts at: slow enough to follow a small board, and
/// `+` and `-` change it.
const DEFAULT_PACE: u64 = 1000;
/// The step budget of a run that was given no configuration.
const DEFAULT_STEPS: u64 = 200_000;
/// Where the default schedule ends, as a share of its start temperature.
const COOLED: f64 = 1e-3;
/// The share of uphill moves the default start temperature accepts.
const START_ACCEPTANCE: f64 = 0.5;

/// The seed of a watch that was given none, and of [`main`] without `--seed`.
const DEFAULT_SEED: u64 = 1;

/// Makes the instance a run anneals from the run's seed.
type Make<P> = Arc<dyn Fn(u64) -> P + Send + Sync>;

/// Makes the fields a headless [`main`] adds to its line from the best state.
type Report<S> = Arc<dyn Fn(&S) -> serde_json::Value + Send + Sync>;

/// A problem of your own, ready to be annealed live ([`Watch::run`]), headless
/// ([`Watch::solve`]) or inside another view ([`Watch::demo`]).
pub struct Watch<P: Problem, B> {
    title: String,
    /// The tab's name: the title, kept for the life of the program as tabs' names are.
    tab: &'static str,
    make: Make<P>,
    board: B,
    config: Option<RunConfig>,
    target: Option<f64>,
    seed: u64,
    instances: usize,
    pace: u64,
    /// The `--trace` file of the first run, as kiln's own live views keep it.
    trace: TraceSlot,
    /// Where [`Watch::run`] records the view, as `--record` does.
    record: Option<PathBuf>,
    /// What [`Watch::report`] adds to a headless [`main`]'s line.
    report: Option<Report<P::Snapshot>>,
}

impl<P, B> Watch<P, B>
where
    P: Problem + Send + 'static,
    B: Board<P::Snapshot> + Clone + 'static,
{
    /// Anneals the instances `make` builds from a seed, drawn by `board`. Without
    /// [`Watch::config`] a run cools exponentially over 200,000 steps from a start
    /// temperature at which half the uphill moves are taken.
    pub fn new(
        title: impl Into<String>,
        make: impl Fn(u64) -> P + Send + Sync + 'static,
        board: B,
    ) -> Self {
        let title = title.into();
        Watch {
            tab: Box::leak(title.clone().into_boxed_str()),
            title,
            make: Arc::new(make),
            board,
            config: None,
            target: None,
            seed: DEFAULT_SEED,
            instances: 1,
            pace: DEFAULT_PACE,
            trace: TraceSlot::default(),
            record: None,
            report: None,
        }
    }

    /// How every run goes: schedule, start temperature, budget, stagnation handling.
    pub fn config(mut self, config: RunConfig) -> Self {
        self.config = Some(config);
        self
    }

    /// Stops a run, and shows the board's target word, once its energy is at or below
    /// `energy` (0 for a puzzle with no conflicts left).
    pub fn target(mut self, energy: f64) -> Self {
        self.target = Some(energy);
        self
    }

    /// The seed of the first instance and run; the k-th takes `nth_seed(seed, k)`.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// How many instances `n` and `p` walk through (each built from its own seed).
    pub fn instances(mut self, count: usize) -> Self {
        self.instances = count.max(1);
        self
    }

    /// Steps a second the live view starts at.
    pub fn pace(mut self, steps_per_second: u64) -> Self {
        self.pace = steps_per_second.max(1);
        self
    }

    /// Writes the history of the first run (not of those `n`, `p` or a restart start) to
    /// a new CSV file at `path`, as `--trace` does; an existing file is refused.
    pub fn trace(mut self, path: &Path) -> Result<Self, InputError> {
        self.trace = TraceSlot::of(Trace::create(path)?);
        Ok(self)
    }

    /// Records the live view of [`Watch::run`] to a new asciicast v2 file at `path`
    /// (`asciinema play` replays it), as `--record` does; an existing file is refused now,
    /// and the file is made when the view opens.
    pub fn record(mut self, path: &Path) -> Result<Self, InputError> {
        super::record::check(path)?;
        self.record = Some(path.to_path_buf());
        Ok(self)
    }

    /// Adds to the JSON line a headless [`main`] prints the fields of the object `fields`
    /// makes of the best state (a knapsack's value and weight, say); anything but an
    /// object is added as `report`.
    pub fn report(
        mut self,
        fields: impl Fn(&P::Snapshot) -> serde_json::Value + Send + Sync + 'static,
    ) -> Self {
        self.report = Some(Arc::new(fields));
        self
    }

    /// The run of instance `index`, with the seed that made it.
    fn runner(&self, index: usize) -> (Runner<P>, RunConfig) {
        let seed = nth_seed(self.seed, index);
        let problem = (self.make)(seed);
        let mut config = self.config.clone().unwrap_or_else(|| {
            let t0 = auto_temperature(&problem, seed, START_ACCEPTANCE, 1000);
            let mut config = RunConfig::new(Schedule::Exponential { t_min: t0 * COOLED }, t0);
            config.budget.max_steps = Some(DEFAULT_STEPS);
            config
        });
        if self.target.is_some() {
            config.budget.target = self.target;
        }
        (Runner::new(problem, config.clone(), seed), config)
    }

    /// Anneals the first instance to the end of its budget (or its target), without a
    /// terminal, writing its trace if [`Watch::trace`] asked for one.
    pub fn solve(&self) -> Result<Outcome<P::Snapshot>> {
        let (mut runner, _) = self.runner(0);
        let mut trace = self.trace.take();
        run_traced(&mut runner, BATCH, &mut trace, &mut Unobserved);
        trace.finish().wrap_err("writing the trace")?;
        Ok(runner.finish())
    }

    /// Runs the live view at full speed without a terminal, drawing frames of
    /// `width` x `height` cells ([`super::drawn`]) until `until` holds for
    /// one or `within` has passed, and returns the last frame's rows: how a test sees what
    /// a person would.
    pub fn screen_until(
        self,
        (width, height): (u16, u16),
        within: Duration,
        until: impl Fn(&[String]) -> bool,
    ) -> Result<Vec<String>> {
        let screen = Rect::new(0, 0, width, height);
        let theme = Theme::monochrome(false);
        let demos = vec![self.demo()];
        let mut app = App::new(demos, 0, 0, Some(Speed::Full), theme, screen, false)?;
        let deadline = Instant::now() + within;
        loop {
            app.poll();
            let rows = super::drawn(&app, width, height);
            if until(&rows) || Instant::now() > deadline {
                return Ok(rows);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The problem as a tab of the live view.
    pub fn demo(self) -> Box<dyn Demo> {
        Box::new(self)
    }

    /// Opens the live view on it until the user quits (recording it if
    /// [`Watch::record`] said so); the terminal is restored on every way out.
    pub fn run(mut self) -> Result<()> {
        let options = Options {
            fps: 20,
            glyphs: Glyphs::Detect,
            attract: false,
            speed: None,
        };
        let record = self.record.take();
        super::run(vec![self.demo()], 0, 0, options, record.as_deref())
    }
}

impl<P, B> Demo for Watch<P, B>
where
    P: Problem + Send + 'static,
    B: Board<P::Snapshot> + Clone + 'static,
{
    fn tab(&self) -> Tab {
        Tab {
            name: self.tab,
            count: self.instances,
            pace: Speed::Limited(self.pace),
        }
    }

    fn start(&self, index: usize, speed: Speed, _area: BoardArea) -> Result<Box<dyn Session>> {
        let (runner, config) = self.runner(index % self.instances);
        let title = match self.instances {
            1 => self.title.clone(),
            n => format!("{} {}/{n}", self.title, index % n + 1),
        };
        let reheat_to = config.t0;
        let launch = Launch::annealing(title, runner, &config, reheat_to);
        let launch = launch.traced(self.trace.take());
        Ok(Box::new(Live::start(launch, self.board.clone(), speed)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_core::anneal::trace;
    use rand::RngExt;

    /// A row of bits to clear, one flip a move.
    pub(super) struct Bits(pub(super) Vec<bool>);

    impl Problem for Bits {
        type Move = usize;
        type Snapshot = Vec<bool>;
        fn energy(&self) -> f64 {
            self.0.iter().filter(|&&b| b).count() as f64
        }
        fn propose(&self, rng: &mut kiln_core::anneal::Rng) -> usize {
            rng.random_range(0..self.0.len())
        }
        fn delta(&self, &i: &usize) -> f64 {
            if self.0[i] { -1.0 } else { 1.0 }
        }
        fn apply(&mut self, &i: &usize) {
            self.0[i] = !self.0[i];
        }
        fn randomize(&mut self, _: &mut kiln_core::anneal::Rng) {}
        fn snapshot(&self) -> Vec<bool> {
            self.0.clone()
        }
    }

    #[derive(Clone)]
    pub(super) struct Row;

    impl Board<Vec<bool>> for Row {
        fn min_size(&self, _: Option<&Vec<bool>>) -> (u16, u16) {
            (40, 1)
        }
        fn render(
            &self,
            bits: &Vec<bool>,
            area: Rect,
            buf: &mut ratatui::buffer::Buffer,
            _: &Theme,
        ) {
            let text: String = bits.iter().map(|&b| if b { '#' } else { '_' }).collect();
            buf.set_string(area.x, area.y, text, ratatui::style::Style::default());
        }
    }

    fn watch() -> Watch<Bits, Row> {
        Watch::new("bits", |_| Bits(vec![true; 40]), Row).target(0.0)
    }

    #[test]
    fn a_watched_run_is_traced_live_and_headless() {
        let dir = tempfile::tempdir().unwrap();
        let (live, headless) = (dir.path().join("live.csv"), dir.path().join("headless.csv"));
        let cleared = |rows: &[String]| rows.iter().any(|r| r.contains(&"_".repeat(40)));
        let screen = (watch().trace(&live).unwrap())
            .screen_until((80, 24), Duration::from_secs(20), cleared)
            .unwrap();
        assert!(screen.concat().contains("SOLVED"), "{}", screen.join("\n"));
        let outcome = watch().trace(&headless).unwrap().solve().unwrap();
        assert_eq!(outcome.energy, 0.0);
        for path in [&live, &headless] {
            let text = std::fs::read_to_string(path).unwrap();
            let rows = trace::parse(&text, "trace").unwrap();
            assert_eq!(rows[0].energy, 40.0, "{}", path.display());
            assert_eq!(rows.last().unwrap().best_energy, 0.0, "{}", path.display());
        }
        assert!(
            watch().trace(&live).is_err(),
            "an existing trace is refused"
        );
        let error = watch()
            .record(&live)
            .err()
            .expect("an existing file is refused");
        assert!(error.to_string().contains("exists"), "{error}");
        assert!(watch().record(&dir.path().join("new.cast")).is_ok());
    }
}
