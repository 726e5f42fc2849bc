//! The annealing flags every problem shares, read into a `Run` (problems/spec.rs), which
//! makes them a `RunConfig` with the problem's defaults.

use std::path::PathBuf;

use clap::Args;

use crate::flags::ranges::{self, real, whole};
use crate::headless::spec::{Cooling, Limits, Run, ScheduleKind, StallKind, StartTemperature};
use crate::input::InputError;

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
    /// Write the run's history, every phase of it, to this CSV file (never overwritten):
    /// step, seconds, temperature, energy, best energy, acceptance, restarts, reheats,
    /// phase. `kiln plot` draws it.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub trace: Option<PathBuf>,
}

impl AnnealArgs {
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

    /// The run these flags ask for.
    pub fn run(&self) -> Run {
        Run {
            seed: self.seed,
            cooling: Cooling {
                schedule: self.schedule,
                t0: self.t0,
                t_min: self.t_min,
                alpha: self.alpha,
                k: self.k,
                auto_acceptance: self.auto_acceptance,
                stall: self.stall,
                on_stall: self.on_stall,
                reheat_t: self.reheat_t,
            },
            limits: Limits {
                time_limit: self.time_limit,
                max_steps: self.max_steps,
                clock: None,
            },
            trace: self.trace.clone(),
            lesson: false,
        }
    }
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
    use crate::anneal::{Schedule, Stagnation, StallAction};
    use crate::headless::spec::Defaults;

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

    fn flags(args: &[&str]) -> AnnealArgs {
        Wrap::try_parse_from(std::iter::once("x").chain(args.iter().copied()))
            .unwrap()
            .a
    }

    fn parse(args: &[&str]) -> Run {
        flags(args).run()
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
        let a = flags(&["--t-min", "2", "--t0", "1"]);
        assert_eq!(
            a.check().unwrap_err().to_string(),
            "--t-min 2 is above --t0 1"
        );
        // Also against a start temperature the flags do not give.
        let a = flags(&["--t-min", "2", "--time-limit", "1"]);
        assert!(a.check().is_ok());
        let e = a
            .run()
            .run_config(&Defaults::default(), |_| 1.0)
            .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("--t-min 2 is above the start temperature 1"),
            "{e}"
        );
    }

    #[test]
    fn bad_values_are_rejected_by_the_parser() {
        assert!(Wrap::try_parse_from(["x", "--alpha", "1.5"]).is_err());
        assert!(Wrap::try_parse_from(["x", "--t0", "hot"]).is_err());
        assert!(Wrap::try_parse_from(["x", "--time-limit", "-1"]).is_err());
    }
}
