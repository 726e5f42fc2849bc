//! The annealing flags every problem shares, and how they become a `RunConfig`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, ValueEnum};

use crate::anneal::{RunConfig, Schedule, Stagnation, StallAction, Trace};
use crate::cli::ranges::{self, real, whole};
use crate::input::InputError;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScheduleKind {
    Constant,
    Geometric,
    Linear,
    LundyMees,
    Exponential,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StallKind {
    Reheat,
    Restart,
    Nothing,
}

/// A start temperature: a number, or `auto` (from sampled uphill deltas).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StartTemperature {
    Fixed(f64),
    Auto,
}

/// Flags shared by every problem. Unset ones take the problem's defaults.
#[derive(Args, Debug, Clone, Default, PartialEq)]
#[command(next_help_heading = "Annealing")]
pub struct AnnealArgs {
    /// Seed for every random choice of the run (same seed, same run).
    #[arg(long, default_value_t = 1, value_parser = whole(ranges::SEED))]
    pub seed: u64,
    /// Stop after this many seconds (per puzzle or instance) [default: Sudoku 60 (25x25:
    /// 600), TSP 1, image 2 (denoising 1); none with --max-steps for TSP and denoising].
    #[arg(long, value_name = "SECS", value_parser = real(ranges::SECONDS))]
    pub time_limit: Option<f64>,
    /// Stop after this many proposed moves.
    #[arg(long, value_name = "N", value_parser = whole(ranges::STEPS))]
    pub max_steps: Option<u64>,
    /// Cooling schedule [default: Sudoku constant, TSP and image exponential].
    #[arg(long, value_enum)]
    pub schedule: Option<ScheduleKind>,
    /// Start temperature (Tmax for exponential), or `auto` [default: Sudoku 0.3 (25x25:
    /// 0.34), TSP and image from the instance's typical move].
    #[arg(long, value_name = "T|auto", value_parser = start_temperature)]
    pub t0: Option<StartTemperature>,
    /// Final temperature for the linear and exponential schedules [default: 3/100 of the
    /// start temperature for TSP, 1/100 for patterns, 0.05 lambda for denoising].
    #[arg(long, value_name = "T", value_parser = real(ranges::TEMPERATURE))]
    pub t_min: Option<f64>,
    /// Geometric cooling factor per step: T <- alpha * T.
    #[arg(long, value_parser = real(ranges::COOLING_FACTOR))]
    pub alpha: Option<f64>,
    /// Lundy-Mees constant: T = T0 / (1 + k*i).
    #[arg(long, value_parser = real(ranges::LUNDY_K))]
    pub k: Option<f64>,
    /// Target acceptance rate of uphill moves for `--t0 auto` [default: 0.8].
    #[arg(long, value_name = "RATE", value_parser = real(ranges::ACCEPTANCE))]
    pub auto_acceptance: Option<f64>,
    /// Steps without improvement before --on-stall acts [default: Sudoku 1M (16x16: 5M,
    /// 25x25: 10M)].
    #[arg(long, value_name = "STEPS", value_parser = whole(ranges::STEPS))]
    pub stall: Option<u64>,
    /// What to do when stalled [default: Sudoku restart, else nothing].
    #[arg(long, value_enum)]
    pub on_stall: Option<StallKind>,
    /// Temperature a reheat raises T to [default: the start temperature].
    #[arg(long, value_name = "T", value_parser = real(ranges::TEMPERATURE))]
    pub reheat_t: Option<f64>,
    /// Write the run's history to this CSV file (never overwritten): step, seconds,
    /// temperature, energy, best energy, acceptance, restarts, reheats. `kiln plot` draws it.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub trace: Option<PathBuf>,
}

/// A problem's own choices, used where the user gave no flag.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Defaults {
    pub schedule: ScheduleKind,
    pub t0: StartTemperature,
    pub t_min: f64,
    pub alpha: f64,
    pub k: f64,
    pub auto_acceptance: f64,
    pub stall: Option<u64>,
    pub on_stall: StallKind,
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

impl AnnealArgs {
    pub fn schedule(&self, d: &Defaults) -> Schedule {
        match self.schedule.unwrap_or(d.schedule) {
            ScheduleKind::Constant => Schedule::Constant,
            ScheduleKind::Geometric => Schedule::Geometric {
                alpha: self.alpha.unwrap_or(d.alpha),
            },
            ScheduleKind::Linear => Schedule::Linear {
                t_min: self.t_min.unwrap_or(d.t_min),
            },
            ScheduleKind::LundyMees => Schedule::LundyMees {
                k: self.k.unwrap_or(d.k),
            },
            ScheduleKind::Exponential => Schedule::Exponential {
                t_min: self.t_min.unwrap_or(d.t_min),
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
        self.check_used(d).map_err(InputError::flags)?;
        let schedule = self.schedule(d);
        let t0 = match self.t0.unwrap_or(d.t0) {
            StartTemperature::Fixed(t) => t,
            StartTemperature::Auto => auto_t0(self.auto_acceptance.unwrap_or(d.auto_acceptance)),
        };
        if let Some(t_min) = self.t_min
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
        config.budget.max_steps = self.max_steps;
        config.budget.time_limit = self
            .time_limit
            .or(d.time_limit)
            .map(Duration::from_secs_f64);
        if schedule.needs_budget()
            && config.budget.max_steps.is_none()
            && config.budget.time_limit.is_none()
        {
            return Err(InputError::flags(format!(
                "--schedule {schedule} cools over a budget: give --max-steps or --time-limit"
            )));
        }
        let window = self.stall.or(d.stall);
        let action = match self.on_stall.unwrap_or(d.on_stall) {
            StallKind::Nothing => None,
            StallKind::Restart => Some(StallAction::Restart),
            StallKind::Reheat => Some(StallAction::Reheat {
                temperature: self.reheat_t.unwrap_or(t0),
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
        [
            ("--schedule", self.schedule.is_some()),
            ("--t0", self.t0.is_some()),
            ("--t-min", self.t_min.is_some()),
            ("--alpha", self.alpha.is_some()),
            ("--k", self.k.is_some()),
            ("--auto-acceptance", self.auto_acceptance.is_some()),
            ("--stall", self.stall.is_some()),
            ("--on-stall", self.on_stall.is_some()),
            ("--reheat-t", self.reheat_t.is_some()),
        ]
        .into_iter()
        .filter_map(|(flag, given)| given.then_some(flag))
    }

    /// Refuses flags this run would ignore: a schedule's parameter given with another
    /// schedule (the one given, or the problem's default), `--auto-acceptance` with a
    /// fixed start temperature, a `--stall` window with nothing to do at a stall.
    fn check_used(&self, d: &Defaults) -> Result<(), String> {
        use ScheduleKind::{Exponential, Geometric, Linear, LundyMees};
        let schedule = self.schedule.unwrap_or(d.schedule);
        let name = schedule
            .to_possible_value()
            .map_or_else(String::new, |v| v.get_name().to_string());
        let wrong_schedule = |flag: &str, used_by: &str| {
            Err(format!(
                "{flag} applies only to {used_by}, and this run's schedule is {name} \
                 (choose one with --schedule)"
            ))
        };
        if self.alpha.is_some() && schedule != Geometric {
            return wrong_schedule("--alpha", "--schedule geometric");
        }
        if self.k.is_some() && schedule != LundyMees {
            return wrong_schedule("--k", "--schedule lundy-mees");
        }
        if self.t_min.is_some() && !matches!(schedule, Linear | Exponential) {
            return wrong_schedule("--t-min", "the linear and exponential schedules");
        }
        if self.auto_acceptance.is_some() && self.t0.unwrap_or(d.t0) != StartTemperature::Auto {
            return Err(
                "--auto-acceptance applies only with --t0 auto, and this run's start \
                 temperature is fixed"
                    .to_string(),
            );
        }
        if self.stall.is_some() && self.on_stall.unwrap_or(d.on_stall) == StallKind::Nothing {
            return Err("--stall needs --on-stall restart or reheat".to_string());
        }
        Ok(())
    }

    /// What clap cannot check: a final temperature above the start one.
    pub fn check(&self) -> Result<(), InputError> {
        if let (Some(t_min), Some(StartTemperature::Fixed(t0))) = (self.t_min, self.t0)
            && t_min > t0
        {
            return Err(InputError::flags(format!(
                "--t-min {t_min} is above --t0 {t0}"
            )));
        }
        Ok(())
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

    /// These flags for the run of one `seed`; when it is one of `several`, its trace is
    /// named by it: `t.csv` becomes `t-s7.csv`.
    pub fn for_seed(&self, seed: u64, several: bool) -> AnnealArgs {
        let trace = match &self.trace {
            Some(path) if several => Some(with_part(path, &format!("s{seed}"))),
            trace => trace.clone(),
        };
        AnnealArgs {
            seed,
            trace,
            ..self.clone()
        }
    }

    /// The temperature the UI's reheat key raises T to.
    pub fn reheat_temperature(&self, config: &RunConfig) -> f64 {
        self.reheat_t.unwrap_or(config.t0)
    }
}

/// `path` with `-part` before its extension.
pub(crate) fn with_part(path: &Path, part: &str) -> PathBuf {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{part}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{part}"),
    };
    path.with_file_name(name)
}

/// `--t0`: a temperature or `auto`.
pub fn start_temperature(text: &str) -> Result<StartTemperature, String> {
    if text.eq_ignore_ascii_case("auto") {
        return Ok(StartTemperature::Auto);
    }
    ranges::START_TEMPERATURE
        .parse(text)
        .map(StartTemperature::Fixed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_or_a_temperature() {
        assert_eq!(start_temperature("AUTO"), Ok(StartTemperature::Auto));
        assert_eq!(start_temperature("0"), Ok(StartTemperature::Fixed(0.0)));
        assert!(start_temperature("1e17").is_err());
        assert!(start_temperature("hot").is_err());
    }
    use clap::Parser;

    #[derive(Parser)]
    struct Wrap {
        #[command(flatten)]
        a: AnnealArgs,
    }

    fn parse(args: &[&str]) -> AnnealArgs {
        Wrap::try_parse_from(std::iter::once("x").chain(args.iter().copied()))
            .unwrap()
            .a
    }

    #[test]
    fn flags_reach_the_config() {
        let a = parse(&[
            "--schedule",
            "geometric",
            "--alpha",
            "0.5",
            "--t0",
            "2",
            "--max-steps",
            "9",
            "--stall",
            "100",
            "--on-stall",
            "reheat",
            "--reheat-t",
            "7",
        ]);
        let c = a
            .run_config(&Defaults::default(), |_| unreachable!())
            .unwrap();
        assert_eq!(c.schedule, Schedule::Geometric { alpha: 0.5 });
        assert_eq!(c.t0, 2.0);
        assert_eq!(c.budget.max_steps, Some(9));
        assert_eq!(
            c.stagnation,
            Some(Stagnation {
                window: 100,
                action: StallAction::Reheat { temperature: 7.0 }
            })
        );
    }

    #[test]
    fn auto_t0_uses_the_acceptance_flag() {
        let a = parse(&[
            "--t0",
            "auto",
            "--auto-acceptance",
            "0.3",
            "--time-limit",
            "1",
        ]);
        let c = a.run_config(&Defaults::default(), |p| p * 10.0).unwrap();
        assert_eq!(c.t0, 3.0);
    }

    #[test]
    fn budgeted_schedule_without_budget_is_an_error() {
        let a = parse(&["--schedule", "linear", "--t0", "1"]);
        let e = a.run_config(&Defaults::default(), |_| 1.0).unwrap_err();
        assert!(e.to_string().contains("--max-steps or --time-limit"), "{e}");
    }

    #[test]
    fn a_final_temperature_above_the_start_is_refused() {
        let a = parse(&["--t-min", "2", "--t0", "1"]);
        assert_eq!(
            a.check().unwrap_err().to_string(),
            "--t-min 2 is above --t0 1"
        );
        // Also against a start temperature the flags do not give.
        let a = parse(&["--t-min", "2", "--time-limit", "1"]);
        assert!(a.check().is_ok());
        let e = a.run_config(&Defaults::default(), |_| 1.0).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("--t-min 2 is above the start temperature 1"),
            "{e}"
        );
    }

    #[test]
    fn a_part_goes_before_the_extension_the_extension() {
        assert_eq!(
            with_part(Path::new("d/t.csv"), "2"),
            PathBuf::from("d/t-2.csv")
        );
        assert_eq!(with_part(Path::new("t"), "ga"), PathBuf::from("t-ga"));
    }

    #[test]
    fn bad_values_are_rejected_by_the_parser() {
        assert!(Wrap::try_parse_from(["x", "--alpha", "1.5"]).is_err());
        assert!(Wrap::try_parse_from(["x", "--t0", "hot"]).is_err());
        assert!(Wrap::try_parse_from(["x", "--time-limit", "-1"]).is_err());
    }
}
