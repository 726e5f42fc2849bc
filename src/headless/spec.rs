//! A run as the command line asked for it, read once. Each problem's flags become a
//! [`Spec`]: its model's options, the [`Run`] (seed, cooling choices, budget, trace), the
//! [`Batch`] and the `--output` file. Setups, boards, races and batches take specs; only
//! `cli/` and each problem's `args.rs` see clap's structs. A choice the user did not make
//! stays `None` here and takes the problem's [`Defaults`] when the run is set up, since a
//! default may depend on what is loaded (a tour's typical edge, a Sudoku's size).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::Named;
use crate::anneal::{RunConfig, Schedule, Stagnation, StallAction};
use crate::headless::batch::Batch;
use crate::headless::output::OutputFile;
use crate::input::InputError;
use crate::search::worker::Speed;
use crate::search::{Trace, nth_seed};

/// How long a lesson takes (`Run::lesson_steps`): three minutes at its pace, so that the
/// temperature falls a third of its way in the first minute, and a class at 2 steps/s
/// follows 360 moves.
pub const LESSON: Duration = Duration::from_secs(180);

/// A cooling schedule, named as `--schedule` takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScheduleKind {
    /// `constant`: T stays at the start temperature.
    Constant,
    /// `geometric`: T = t0 alpha^i.
    Geometric,
    /// `linear`: T falls in a straight line to t-min over the budget.
    Linear,
    /// `lundy-mees`: T = t0 / (1 + k i).
    LundyMees,
    /// `exponential`: T = t0 (t_min / t0)^progress, over the budget.
    Exponential,
}

impl Named for ScheduleKind {
    const ALL: &'static [Self] = &[
        Self::Constant,
        Self::Geometric,
        Self::Linear,
        Self::LundyMees,
        Self::Exponential,
    ];
    fn name(self) -> &'static str {
        match self {
            Self::Constant => "constant",
            Self::Geometric => "geometric",
            Self::Linear => "linear",
            Self::LundyMees => "lundy-mees",
            Self::Exponential => "exponential",
        }
    }
}

/// What a stalled run does, named as `--on-stall` takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StallKind {
    /// `reheat`: back to the reheat temperature, from the current state.
    Reheat,
    /// `restart`: a fresh start state at the start temperature.
    Restart,
    /// `nothing`: the run goes on cooling.
    Nothing,
}

impl Named for StallKind {
    const ALL: &'static [Self] = &[Self::Reheat, Self::Restart, Self::Nothing];
    fn name(self) -> &'static str {
        match self {
            Self::Reheat => "reheat",
            Self::Restart => "restart",
            Self::Nothing => "nothing",
        }
    }
}

/// A start temperature: a number, or `auto` (from sampled uphill deltas).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StartTemperature {
    /// The temperature given.
    Fixed(f64),
    /// `auto`: the temperature at which sampled uphill moves are accepted at
    /// `--auto-acceptance`'s rate.
    Auto,
}

/// A problem's own choices, used where the user gave no flag.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Defaults {
    /// `--schedule`.
    pub schedule: ScheduleKind,
    /// `--t0`.
    pub t0: StartTemperature,
    /// `--t-min`.
    pub t_min: f64,
    /// `--alpha`.
    pub alpha: f64,
    /// `--k`.
    pub k: f64,
    /// `--auto-acceptance`.
    pub auto_acceptance: f64,
    /// `--stall`: steps without a new best before the stall action.
    pub stall: Option<u64>,
    /// `--on-stall`.
    pub on_stall: StallKind,
    /// `--time-limit` in seconds, for a run given no budget.
    pub time_limit: Option<f64>,
}

impl Default for Defaults {
    fn default() -> Self {
        Defaults {
            schedule: ScheduleKind::Exponential,
            t0: StartTemperature::Auto,
            t_min: 1e-3,
            alpha: 0.999_99,
            k: 1e-4,
            auto_acceptance: 0.8,
            stall: None,
            on_stall: StallKind::Nothing,
            time_limit: None,
        }
    }
}

/// How the user asked the run to cool and what to do at a stall; `None` is the problem's
/// default.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Cooling {
    /// `--schedule`.
    pub schedule: Option<ScheduleKind>,
    /// `--t0`.
    pub t0: Option<StartTemperature>,
    /// `--t-min`.
    pub t_min: Option<f64>,
    /// `--alpha`.
    pub alpha: Option<f64>,
    /// `--k`.
    pub k: Option<f64>,
    /// `--auto-acceptance`.
    pub auto_acceptance: Option<f64>,
    /// `--stall`.
    pub stall: Option<u64>,
    /// `--on-stall`.
    pub on_stall: Option<StallKind>,
    /// `--reheat-t`: the temperature a reheat (key or stall) goes back to.
    pub reheat_t: Option<f64>,
}

/// The budget the user gave: `--time-limit` seconds and `--max-steps`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Limits {
    /// `--time-limit` in seconds.
    pub time_limit: Option<f64>,
    /// `--max-steps`.
    pub max_steps: Option<u64>,
    /// When a headless run began: its time limit (the user's or the problem's) is a
    /// deadline on the wall clock from here, setup included. `None` in the live view,
    /// whose runs pause and resume.
    pub clock: Option<Instant>,
}

impl Limits {
    /// Whether the user gave a budget at all.
    pub fn given(&self) -> bool {
        self.time_limit.is_some() || self.max_steps.is_some()
    }
}

/// One annealing run as asked for: every random choice flows from `seed`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Run {
    /// `--seed`: every random choice of the run flows from it.
    pub seed: u64,
    /// The cooling flags.
    pub cooling: Cooling,
    /// The budget flags.
    pub limits: Limits,
    /// The `--trace` file of this run.
    pub trace: Option<PathBuf>,
    /// Whether the run is a lesson (`lesson_steps`), its budget in `limits`: its
    /// configuration looks at the schedule every step (`RunConfig::lesson`).
    pub lesson: bool,
}

impl Run {
    /// The schedule the flags ask for, the problem's `d` filling in what they leave out.
    pub fn schedule(&self, d: &Defaults) -> Schedule {
        let c = &self.cooling;
        match c.schedule.unwrap_or(d.schedule) {
            ScheduleKind::Constant => Schedule::Constant,
            ScheduleKind::Geometric => Schedule::Geometric {
                alpha: c.alpha.unwrap_or(d.alpha),
            },
            ScheduleKind::Linear => Schedule::Linear {
                t_min: c.t_min.unwrap_or(d.t_min),
            },
            ScheduleKind::LundyMees => Schedule::LundyMees {
                k: c.k.unwrap_or(d.k),
            },
            ScheduleKind::Exponential => Schedule::Exponential {
                t_min: c.t_min.unwrap_or(d.t_min),
            },
        }
    }

    /// Builds the run configuration; `auto_t0(acceptance)` is called only for `--t0 auto`.
    /// Errors name the flag when the combination cannot work.
    pub fn run_config(
        &self,
        d: &Defaults,
        auto_t0: impl FnOnce(f64) -> f64,
    ) -> Result<RunConfig, InputError> {
        let c = &self.cooling;
        self.check_used(d).map_err(InputError::flags)?;
        let schedule = self.schedule(d);
        let t0 = match c.t0.unwrap_or(d.t0) {
            StartTemperature::Fixed(t) => t,
            StartTemperature::Auto => auto_t0(c.auto_acceptance.unwrap_or(d.auto_acceptance)),
        };
        if let Some(t_min) = c.t_min
            && matches!(
                schedule,
                Schedule::Linear { .. } | Schedule::Exponential { .. }
            )
            && t_min > t0
        {
            return Err(InputError::flags(format!(
                "--t-min {t_min} is above the start temperature {t0}: the schedule would heat"
            )));
        }
        let mut config = RunConfig::new(schedule, t0);
        config.budget.max_steps = self.limits.max_steps;
        config.budget.time_limit = self
            .limits
            .time_limit
            .or(d.time_limit)
            .map(Duration::from_secs_f64);
        config.budget.deadline = (self.limits.clock)
            .zip(config.budget.time_limit)
            .and_then(|(clock, limit)| clock.checked_add(limit));
        if let Some(steps) = self.limits.max_steps.filter(|_| self.lesson) {
            config.lesson(steps);
        }
        if schedule.needs_budget()
            && config.budget.max_steps.is_none()
            && config.budget.time_limit.is_none()
        {
            return Err(InputError::flags(format!(
                "--schedule {schedule} cools over a budget: give --max-steps or --time-limit"
            )));
        }
        let window = c.stall.or(d.stall);
        let action = match c.on_stall.unwrap_or(d.on_stall) {
            StallKind::Nothing => None,
            StallKind::Restart => Some(StallAction::Restart),
            StallKind::Reheat => Some(StallAction::Reheat {
                temperature: c.reheat_t.unwrap_or(t0),
            }),
        };
        config.stagnation = match (window, action) {
            (Some(window), Some(action)) => Some(Stagnation { window, action }),
            (None, Some(_)) => return Err(InputError::flags("--on-stall needs --stall STEPS")),
            _ => None,
        };
        Ok(config)
    }

    /// The names of the cooling and stall flags given, for refusing those a search that
    /// does not use them would ignore.
    pub fn given(&self) -> impl Iterator<Item = &'static str> {
        let c = &self.cooling;
        [
            ("--schedule", c.schedule.is_some()),
            ("--t0", c.t0.is_some()),
            ("--t-min", c.t_min.is_some()),
            ("--alpha", c.alpha.is_some()),
            ("--k", c.k.is_some()),
            ("--auto-acceptance", c.auto_acceptance.is_some()),
            ("--stall", c.stall.is_some()),
            ("--on-stall", c.on_stall.is_some()),
            ("--reheat-t", c.reheat_t.is_some()),
        ]
        .into_iter()
        .filter_map(|(flag, given)| given.then_some(flag))
    }

    /// Refuses flags this run would ignore: a schedule's parameter given with another
    /// schedule (the one given, or the problem's default), `--auto-acceptance` with a
    /// fixed start temperature, a `--stall` window with nothing to do at a stall.
    fn check_used(&self, d: &Defaults) -> Result<(), String> {
        use ScheduleKind::{Exponential, Geometric, Linear, LundyMees};
        let c = &self.cooling;
        let schedule = c.schedule.unwrap_or(d.schedule);
        let name = schedule.name();
        let wrong_schedule = |flag: &str, used_by: &str| {
            Err(format!(
                "{flag} applies only to {used_by}, and this run's schedule is {name} \
                 (choose one with --schedule)"
            ))
        };
        if c.alpha.is_some() && schedule != Geometric {
            return wrong_schedule("--alpha", "--schedule geometric");
        }
        if c.k.is_some() && schedule != LundyMees {
            return wrong_schedule("--k", "--schedule lundy-mees");
        }
        if c.t_min.is_some() && !matches!(schedule, Linear | Exponential) {
            return wrong_schedule("--t-min", "the linear and exponential schedules");
        }
        if c.auto_acceptance.is_some() && c.t0.unwrap_or(d.t0) != StartTemperature::Auto {
            return Err(
                "--auto-acceptance applies only with --t0 auto, and this run's start \
                 temperature is fixed"
                    .to_string(),
            );
        }
        if c.stall.is_some() && c.on_stall.unwrap_or(d.on_stall) == StallKind::Nothing {
            return Err("--stall needs --on-stall restart or reheat".to_string());
        }
        Ok(())
    }

    /// The temperature the UI's reheat key raises T to.
    pub fn reheat_temperature(&self, config: &RunConfig) -> f64 {
        self.cooling.reheat_t.unwrap_or(config.t0)
    }

    /// This run with its clock started now (see `Limits::clock`).
    pub fn clocked(&self) -> Run {
        let mut run = self.clone();
        run.limits.clock = Some(Instant::now());
        run
    }

    /// The `--trace` file, or a trace that records nothing; `part` names one run of
    /// several (a puzzle's number, a race pane's preset): `t.csv` becomes `t-2.csv`.
    pub fn open_trace(&self, part: Option<&str>) -> Result<Trace, InputError> {
        match (&self.trace, part) {
            (None, _) => Ok(Trace::off()),
            (Some(path), None) => Trace::create(path),
            (Some(path), Some(part)) => Trace::create(&with_part(path, part)),
        }
    }

    /// The run of one `seed`; when it is one of `several`, its trace is named by it:
    /// `t.csv` becomes `t-s7.csv`.
    pub fn for_seed(&self, seed: u64, several: bool) -> Run {
        let trace = match &self.trace {
            Some(path) if several => Some(with_part(path, &format!("s{seed}"))),
            trace => trace.clone(),
        };
        Run {
            seed,
            trace,
            ..self.clone()
        }
    }

    /// Chain `k` of `chains` run side by side: its own seed, drawn from the run's, and its
    /// share of the steps.
    pub fn chain(&self, k: usize, chains: usize) -> Run {
        let mut limits = self.limits;
        if chains > 1 {
            limits.max_steps = limits.max_steps.map(|m| m.div_ceil(chains as u64));
        }
        Run {
            seed: nth_seed(self.seed, k),
            limits,
            ..self.clone()
        }
    }

    /// A live run cools over steps, not seconds: without a budget of the user's, the
    /// problem's default time (`default`) is worth the steps it would take at `rate`
    /// steps/s, so that slowing the view down slows the cooling with it and the same run
    /// unfolds at every speed. `None` when the user gave a budget.
    pub fn live_steps(&self, default: Option<Duration>, rate: f64) -> Option<u64> {
        let default = default.filter(|_| !self.limits.given())?;
        Some((default.as_secs_f64() * rate) as u64)
    }

    /// The steps of a lesson, a run started at 20 steps/s or slower (where each move is
    /// followed) without a budget of the user's: `LESSON` at its pace, over which the
    /// schedule cools from hot, where uphill moves are taken, to cold, where they are
    /// refused. `None` at a faster pace or with a budget of the user's.
    pub fn lesson_steps(&self, speed: Speed) -> Option<u64> {
        let rate = speed.rate().filter(|_| speed.one_by_one())?;
        (!self.limits.given()).then(|| (LESSON.as_secs_f64() * rate as f64) as u64)
    }
}

/// `path` with `-part` before its extension.
pub fn with_part(path: &Path, part: &str) -> PathBuf {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{part}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{part}"),
    };
    path.with_file_name(name)
}

/// A problem's run as the command line asked for it: `model` holds the problem's own
/// options (`TspModel`, ...).
#[derive(Debug, Clone)]
pub struct Spec<M> {
    /// The problem's own options.
    pub model: M,
    /// Seed, cooling, budget and trace.
    pub run: Run,
    /// `--batch` and its kin: how many runs, on how many threads.
    pub batch: Batch,
    /// Where `--output` goes and in which format; checked against existing files and the
    /// run's inputs each time a run starts (`checked_output`).
    pub output: Option<OutputFile>,
}

impl<M> Spec<M> {
    /// `--output`, refused if it would replace one of `inputs` or (without `--force`) an
    /// existing file.
    pub fn checked_output(&self, inputs: &[&Path]) -> Result<Option<OutputFile>, InputError> {
        let Some(file) = &self.output else {
            return Ok(None);
        };
        file.target.check(inputs)?;
        Ok(Some(file.clone()))
    }

    /// The same spec for the run of one `seed` of the batch (see `Run::for_seed`).
    pub fn for_seed(&self, seed: u64, several: bool) -> Self
    where
        M: Clone,
    {
        Spec {
            run: self.run.for_seed(seed, several),
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(cooling: Cooling, limits: Limits) -> Run {
        Run {
            cooling,
            limits,
            ..Run::default()
        }
    }

    #[test]
    fn a_chain_has_its_own_seed_and_its_share_of_the_steps() {
        let whole = Run {
            seed: 7,
            limits: Limits {
                max_steps: Some(1001),
                time_limit: Some(3.0),
                clock: None,
            },
            ..Run::default()
        };
        let second = whole.chain(1, 2);
        assert_eq!(second.seed, nth_seed(7, 1));
        assert_eq!(second.limits.max_steps, Some(501));
        assert_eq!(second.limits.time_limit, Some(3.0));
        assert_eq!(whole.chain(0, 1), whole);
    }

    #[test]
    fn a_live_run_without_a_budget_counts_its_default_time_in_steps() {
        let minute = Some(Duration::from_secs(60));
        let free = run(Cooling::default(), Limits::default());
        assert_eq!(free.live_steps(minute, 30_000.0), Some(1_800_000));
        assert_eq!(free.live_steps(None, 30_000.0), None);
        for given in [
            Limits {
                max_steps: Some(5),
                time_limit: None,
                clock: None,
            },
            Limits {
                max_steps: None,
                time_limit: Some(2.0),
                clock: None,
            },
        ] {
            let run = run(Cooling::default(), given);
            assert_eq!(run.live_steps(minute, 30_000.0), None);
        }
    }

    #[test]
    fn a_lesson_lasts_its_minutes_at_its_pace_unless_the_user_gave_a_budget() {
        let free = run(Cooling::default(), Limits::default());
        assert_eq!(free.lesson_steps(Speed::Limited(2)), Some(360));
        assert_eq!(free.lesson_steps(Speed::Limited(20)), Some(3600));
        for fast in [Speed::Limited(50), Speed::Rising(30_000), Speed::Full] {
            assert_eq!(free.lesson_steps(fast), None, "{fast:?}");
        }
        let given = Limits {
            max_steps: Some(5),
            ..Limits::default()
        };
        assert_eq!(
            run(Cooling::default(), given).lesson_steps(Speed::Limited(2)),
            None
        );
    }

    #[test]
    fn a_part_goes_before_the_extension() {
        assert_eq!(
            with_part(Path::new("d/t.csv"), "2"),
            PathBuf::from("d/t-2.csv")
        );
        assert_eq!(with_part(Path::new("t"), "ga"), PathBuf::from("t-ga"));
    }

    #[test]
    fn several_seeds_trace_to_files_named_by_seed() {
        let one = Run {
            trace: Some(PathBuf::from("t.csv")),
            ..Run::default()
        };
        assert_eq!(one.for_seed(7, true).trace, Some(PathBuf::from("t-s7.csv")));
        assert_eq!(one.for_seed(7, false).trace, Some(PathBuf::from("t.csv")));
        assert_eq!(one.for_seed(7, true).seed, 7);
    }
}
