//! Cooling schedules. Each is a closed form of the schedule clock, so a reheat or a restart
//! only has to reset the clock, and the runner can evaluate it every few hundred steps.

use std::fmt;

/// How the temperature falls from its start value `t0`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Schedule {
    /// T = t0 for ever (kiln's Sudoku default: restarts do the rest).
    Constant,
    /// T = t0 * alpha^i: the classic T <- alpha*T applied every step.
    Geometric {
        /// Factor applied each step; just below 1 cools slowly.
        alpha: f64,
    },
    /// T falls in a straight line from t0 to `t_min` over the budget.
    Linear {
        /// Temperature at the end of the budget.
        t_min: f64,
    },
    /// Lundy–Mees / hyperbolic: T = t0 / (1 + k*i).
    LundyMees {
        /// How fast the temperature falls: larger cools sooner.
        k: f64,
    },
    /// T = t0 * (t_min/t0)^progress: exponential from Tmax = t0 to Tmin over the budget.
    Exponential {
        /// Temperature at the end of the budget (Tmin).
        t_min: f64,
    },
    /// T = t0 * alpha^floor(i / every): alpha applied once per `every` steps (an outer
    /// loop of `every` sub-iterations at a fixed temperature, as in Yarpiz's SA).
    Stepped {
        /// Factor applied once per hold.
        alpha: f64,
        /// Steps each temperature is held for.
        every: u64,
    },
    /// From t0 down to `t_min` in `levels` equal steps, each held for `every` steps, then
    /// t_min for ever (a linear schedule over a fixed ladder of temperatures).
    Levels {
        /// The lowest rung, held to the end.
        t_min: f64,
        /// Rungs on the ladder, `t0` and `t_min` included.
        levels: u64,
        /// Steps each rung is held for.
        every: u64,
    },
}

/// Where the schedule is: steps since its last reset and the fraction of the budget used.
#[derive(Debug, Clone, Copy, Default)]
pub struct Clock {
    /// Steps since the last reset (the start, a reheat or a restart).
    pub steps: u64,
    /// 0..=1; `None` when the run has no step or time budget.
    pub progress: Option<f64>,
}

impl Schedule {
    /// Whether this schedule needs a step or time budget to know its horizon.
    pub fn needs_budget(&self) -> bool {
        matches!(self, Schedule::Linear { .. } | Schedule::Exponential { .. })
    }

    /// How many steps the temperature stays put, for schedules that change it in steps:
    /// the runner refreshes the temperature exactly at these boundaries.
    pub fn hold(&self) -> Option<u64> {
        match *self {
            Schedule::Stepped { every, .. } | Schedule::Levels { every, .. } => Some(every.max(1)),
            _ => None,
        }
    }

    /// The temperature at `clock` for a schedule that started at `t0`; never below 0.
    pub fn temperature(&self, t0: f64, clock: Clock) -> f64 {
        let progress = clock.progress.unwrap_or(0.0).clamp(0.0, 1.0);
        let t = match *self {
            Schedule::Constant => t0,
            Schedule::Geometric { alpha } => t0 * alpha.powf(clock.steps as f64),
            Schedule::Linear { t_min } => t0 + (t_min - t0) * progress,
            Schedule::LundyMees { k } => t0 / (1.0 + k * clock.steps as f64),
            Schedule::Exponential { t_min } => {
                if t0 <= 0.0 || t_min <= 0.0 {
                    t0 + (t_min - t0) * progress
                } else {
                    t0 * (t_min / t0).powf(progress)
                }
            }
            Schedule::Stepped { alpha, every } => {
                t0 * alpha.powf((clock.steps / every.max(1)) as f64)
            }
            Schedule::Levels {
                t_min,
                levels,
                every,
            } => {
                let last = levels.saturating_sub(1);
                if last == 0 {
                    t0
                } else {
                    let level = (clock.steps / every.max(1)).min(last);
                    t0 + (t_min - t0) * level as f64 / last as f64
                }
            }
        };
        t.max(0.0)
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Schedule::Constant => write!(f, "constant"),
            Schedule::Geometric { alpha } => write!(f, "geometric(alpha={alpha})"),
            Schedule::Linear { t_min } => write!(f, "linear(tmin={t_min})"),
            Schedule::LundyMees { k } => write!(f, "lundy-mees(k={k})"),
            Schedule::Exponential { t_min } => write!(f, "exponential(tmin={t_min})"),
            Schedule::Stepped { alpha, every } => {
                write!(f, "stepped(alpha={alpha} every {every} steps)")
            }
            Schedule::Levels {
                t_min,
                levels,
                every,
            } => write!(f, "levels(tmin={t_min}, {levels} x {every} steps)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(steps: u64, progress: f64) -> Clock {
        Clock {
            steps,
            progress: Some(progress),
        }
    }

    #[test]
    fn geometric_multiplies_by_alpha_each_step() {
        let s = Schedule::Geometric { alpha: 0.5 };
        assert_eq!(s.temperature(8.0, at(0, 0.0)), 8.0);
        assert_eq!(s.temperature(8.0, at(3, 0.0)), 1.0);
    }

    #[test]
    fn linear_reaches_t_min_at_the_end_of_the_budget() {
        let s = Schedule::Linear { t_min: 1.0 };
        assert_eq!(s.temperature(3.0, at(0, 0.0)), 3.0);
        assert_eq!(s.temperature(3.0, at(0, 0.5)), 2.0);
        assert_eq!(s.temperature(3.0, at(0, 1.0)), 1.0);
        assert_eq!(s.temperature(3.0, at(0, 7.0)), 1.0);
    }

    #[test]
    fn lundy_mees_is_hyperbolic() {
        let s = Schedule::LundyMees { k: 0.5 };
        assert_eq!(s.temperature(10.0, at(2, 0.0)), 5.0);
        assert_eq!(s.temperature(10.0, at(18, 0.0)), 1.0);
    }

    #[test]
    fn exponential_goes_from_tmax_to_tmin() {
        let s = Schedule::Exponential { t_min: 0.01 };
        assert!((s.temperature(1.0, at(0, 0.5)) - 0.1).abs() < 1e-12);
        assert!((s.temperature(1.0, at(0, 1.0)) - 0.01).abs() < 1e-12);
    }

    #[test]
    fn stepped_applies_alpha_once_per_hold() {
        let s = Schedule::Stepped {
            alpha: 0.5,
            every: 20,
        };
        assert_eq!(s.hold(), Some(20));
        assert_eq!(s.temperature(8.0, at(19, 0.0)), 8.0);
        assert_eq!(s.temperature(8.0, at(20, 0.0)), 4.0);
        assert_eq!(s.temperature(8.0, at(65, 0.0)), 1.0);
    }

    #[test]
    fn levels_walk_down_a_linear_ladder_and_stay_at_the_bottom() {
        let s = Schedule::Levels {
            t_min: 1.0,
            levels: 3,
            every: 10,
        };
        assert_eq!(s.hold(), Some(10));
        assert_eq!(s.temperature(3.0, at(9, 0.0)), 3.0);
        assert_eq!(s.temperature(3.0, at(10, 0.0)), 2.0);
        assert_eq!(s.temperature(3.0, at(29, 0.0)), 1.0);
        assert_eq!(s.temperature(3.0, at(1000, 0.0)), 1.0);
        assert_eq!(Schedule::Constant.hold(), None);
    }

    #[test]
    fn constant_ignores_the_clock() {
        assert_eq!(Schedule::Constant.temperature(0.3, at(1_000_000, 0.9)), 0.3);
    }
}
