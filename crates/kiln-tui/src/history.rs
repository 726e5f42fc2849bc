//! What the UI remembers of a run's telemetry: recent samples for the sparklines, the
//! budget for the progress gauge, and the energy and temperature ranges of the whole run,
//! the fixed scales of the plots and gauges.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use kiln_core::search::{Budget, Control, Phase, PhaseWork, Planned, Sample};

/// Samples kept for the sparklines (wider than any panel).
const KEEP: usize = 400;

/// How a sparkline maps values to heights: between `low` and `high`, on a log scale if
/// `log`. A fixed range for the whole run keeps small wiggles near the end small, where a
/// range fitted to the visible window would blow them up into a barcode.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    pub low: f64,
    pub high: f64,
    pub log: bool,
}

/// What a run reported so far: its samples (thinned as they grow), for the plots and the
/// stats panel, and the budget they are measured against.
#[derive(Debug, Clone)]
pub struct History {
    recent: VecDeque<Sample>,
    t_low: f64,
    t_high: f64,
    e_low: f64,
    e_high: f64,
    /// When the run stops at the latest (its step and time budgets)...
    budget: Budget,
    /// ...counted from these steps and this time: 0, or where a finished run stood when it
    /// was revived with a fresh budget.
    origin: (u64, Duration),
    /// (when it was published, iteration) of recent samples: iterations per second are
    /// measured on the wall clock, so a slowed-down run shows its real pace.
    arrivals: VecDeque<(Instant, u64)>,
    /// The phases the run was planned to go through, with their shares of the budget.
    plan: Vec<Planned>,
    /// The steps each phase took, in the order the phases first came: as the samples
    /// tell it while the run goes on (a sample straddling a phase boundary counts for the
    /// later phase), as the search counted them once it has finished.
    spent: Vec<(Phase, u64)>,
    /// The phase whose sample last lowered the best energy.
    found_by: Option<Phase>,
}

impl Default for History {
    /// A history that learns its temperature range from the samples alone.
    fn default() -> Self {
        History::new(0.0, None)
    }
}

/// Wall-clock stretch the iteration rate is averaged over.
const RATE_WINDOW: Duration = Duration::from_secs(1);

impl History {
    /// A history whose temperature gauge spans `t_high` down to `t_low` (the schedule's
    /// start and end), widened by whatever temperatures are seen.
    pub fn new(t_high: f64, t_low: Option<f64>) -> Self {
        History {
            recent: VecDeque::new(),
            t_low: t_low.unwrap_or(f64::INFINITY),
            t_high,
            e_low: f64::INFINITY,
            e_high: f64::NEG_INFINITY,
            budget: Budget::default(),
            origin: (0, Duration::ZERO),
            arrivals: VecDeque::new(),
            plan: Vec::new(),
            spent: Vec::new(),
            found_by: None,
        }
    }

    /// The same history for a run that goes through the phases of `plan`.
    pub fn with_plan(mut self, plan: Vec<Planned>) -> Self {
        self.plan = plan;
        self
    }

    /// The plan for `phase`, if the run has a plan naming it.
    pub fn planned(&self, phase: Phase) -> Option<Planned> {
        self.plan.iter().find(|p| p.phase == phase).copied()
    }

    /// What each phase did, as the search counted it at the run's end: the steps the
    /// shares are of from now on (until the run is revived).
    pub fn finished_with(&mut self, work: Vec<PhaseWork>) {
        self.spent = work.iter().map(|w| (w.phase, w.steps)).collect();
    }

    /// The phases that ran, in order, each with its share of the steps taken: the work
    /// each actually did, whatever share of the budget it was planned.
    pub fn phase_shares(&self) -> Vec<(Phase, f64)> {
        let total: u64 = self.spent.iter().map(|(_, steps)| steps).sum();
        let share = |steps: u64| steps as f64 / total.max(1) as f64;
        self.spent
            .iter()
            .map(|&(p, steps)| (p, share(steps)))
            .collect()
    }

    /// The phase whose sample last lowered the best energy: what found the result.
    pub fn found_by(&self) -> Option<Phase> {
        self.found_by
    }

    /// The same history for a run that stops at `budget`, for the progress gauge.
    pub fn with_budget(mut self, budget: Budget) -> Self {
        self.budget = budget;
        self
    }

    /// A finished run goes on (a reheat or restart after its end) with a budget as large as
    /// the one it was given, counted from where it stood: its newest sample.
    pub fn revived(&mut self) {
        if let Some(now) = self.latest() {
            self.origin = (now.iteration, now.elapsed);
        }
    }

    /// Adds a sample taken now.
    #[cfg(test)]
    pub fn push(&mut self, sample: Sample) {
        self.push_at(sample, Instant::now());
    }

    /// Takes in `sample`, published at `now`.
    pub fn push_at(&mut self, sample: Sample, now: Instant) {
        self.arrivals.push_back((now, sample.iteration));
        while self.arrivals.len() > 2 && now.duration_since(self.arrivals[1].0) >= RATE_WINDOW {
            self.arrivals.pop_front();
        }
        // A search without a temperature (conflict learning) does not stretch the scale
        // down to a made-up 0.
        if sample.control != Control::None {
            self.t_low = self.t_low.min(sample.control.level());
            self.t_high = self.t_high.max(sample.control.level());
        }
        let before = self.recent.back();
        // A sample's steps since the one before are its phase's: an estimate, as a sample
        // published after a phase boundary also counts the earlier phase's last steps
        // (`finished_with` puts the search's own count in their place).
        let steps = sample.iteration - before.map_or(0, |b| b.iteration.min(sample.iteration));
        match self
            .spent
            .iter_mut()
            .find(|(phase, _)| *phase == sample.phase)
        {
            Some((_, spent)) => *spent += steps,
            None => self.spent.push((sample.phase, steps)),
        }
        if before.is_none_or(|b| sample.best_energy < b.best_energy) {
            self.found_by = Some(sample.phase);
        }
        if sample.energy.is_finite() {
            self.e_low = self.e_low.min(sample.energy);
            self.e_high = self.e_high.max(sample.energy);
        }
        if self.recent.len() == KEEP {
            self.recent.pop_front();
        }
        self.recent.push_back(sample);
    }

    /// The newest sample, if any came yet.
    pub fn latest(&self) -> Option<&Sample> {
        self.recent.back()
    }

    /// Iterations per wall-clock second over about the last second.
    pub fn rate(&self) -> f64 {
        match (self.arrivals.front(), self.arrivals.back()) {
            (Some((t0, i0)), Some((t1, i1))) if t1 > t0 => {
                i1.saturating_sub(*i0) as f64 / t1.duration_since(*t0).as_secs_f64()
            }
            _ => 0.0,
        }
    }

    /// The energies of the whole run, from the lowest to the highest seen.
    pub fn energy_range(&self) -> Scale {
        Scale {
            low: self.e_low,
            high: self.e_high,
            log: false,
        }
    }

    /// The schedule's temperatures, on a log scale.
    pub fn temperature_range(&self) -> Scale {
        Scale {
            low: self.t_low,
            high: self.t_high,
            log: true,
        }
    }

    /// The last `n` values of `f`, oldest first.
    pub fn tail(&self, n: usize, f: impl Fn(&Sample) -> f64) -> Vec<f64> {
        let skip = self.recent.len().saturating_sub(n);
        self.recent.iter().skip(skip).map(f).collect()
    }

    /// 0..=1: how much of its budget the run has used, the same on every board: its steps
    /// of the step budget or its time of the time budget, whichever is further along. The
    /// run stops at 1, or sooner at its target; 0 for a run with neither budget.
    pub fn progress(&self) -> f64 {
        let Some(now) = self.latest() else { return 0.0 };
        let (steps, time) = self.origin;
        let by_steps = self
            .budget
            .max_steps
            .map(|max| now.iteration.saturating_sub(steps) as f64 / max.max(1) as f64);
        let by_time = self.budget.time_limit.map(|limit| {
            let spent = now.elapsed.saturating_sub(time).as_secs_f64();
            if limit.is_zero() {
                1.0
            } else {
                spent / limit.as_secs_f64()
            }
        });
        let used = match (by_steps, by_time) {
            (Some(a), Some(b)) => a.max(b),
            (a, b) => a.or(b).unwrap_or(0.0),
        };
        if used.is_finite() {
            used.clamp(0.0, 1.0)
        } else {
            0.0
        }
    }

    /// Where T sits between the lowest and highest temperature seen, on a log scale.
    pub fn temperature_ratio(&self) -> f64 {
        let Some(now) = self.latest() else { return 0.0 };
        let (low, high, t) = (
            self.t_low.max(1e-12),
            self.t_high.max(1e-12),
            now.control.level().max(1e-12),
        );
        if high / low <= 1.000_001 {
            return 1.0;
        }
        ((t / low).ln() / (high / low).ln()).clamp(0.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn sample(iteration: u64, energy: f64, temperature: f64, ms: u64) -> Sample {
        Sample {
            iteration,
            energy,
            control: kiln_core::search::Control::Temperature(temperature),
            elapsed: Duration::from_millis(ms),
            ..Sample::default()
        }
    }

    fn steps(max: u64) -> Budget {
        Budget {
            max_steps: Some(max),
            ..Budget::default()
        }
    }

    #[test]
    fn progress_and_rate_follow_the_samples() {
        let mut h = History::default().with_budget(steps(4000));
        let t = Instant::now();
        h.push_at(sample(0, 40.0, 1.0, 0), t);
        h.push_at(sample(1000, 10.0, 0.1, 1), t + Duration::from_millis(100));
        // A quarter of the steps, whatever the energy did.
        assert_eq!(h.progress(), 0.25);
        assert_eq!(h.rate(), 10_000.0);
        assert_eq!(h.temperature_ratio(), 0.0);
        h.push(sample(2000, 0.0, 1.0, 200));
        assert_eq!(h.progress(), 0.5);
        assert_eq!(h.temperature_ratio(), 1.0);
        assert_eq!(h.tail(2, |s| s.energy), vec![10.0, 0.0]);
    }

    #[test]
    fn progress_is_the_budget_used_whichever_runs_out_first() {
        let timed = |time_limit| Budget {
            time_limit: Some(Duration::from_millis(time_limit)),
            ..steps(1000)
        };
        // 100 of 1000 steps, 300 of 400 ms: the time limit comes first.
        let mut h = History::default().with_budget(timed(400));
        h.push(sample(100, 5.0, 1.0, 300));
        assert!((h.progress() - 0.75).abs() < 1e-12, "{}", h.progress());
        let mut h = History::default().with_budget(timed(3000));
        h.push(sample(100, 5.0, 1.0, 300));
        assert_eq!(h.progress(), 0.1);
        // Used up, and past it: full.
        h.push(sample(1200, 5.0, 1.0, 300));
        assert_eq!(h.progress(), 1.0);
        // Revived after its end, the run counts a fresh budget from where it stood.
        h.revived();
        assert_eq!(h.progress(), 0.0);
        h.push(sample(1700, 5.0, 1.0, 400));
        assert_eq!(h.progress(), 0.5);
        // Without a budget there is nothing to show.
        let mut h = History::default();
        h.push(sample(100, 5.0, 1.0, 300));
        assert_eq!(h.progress(), 0.0);
    }

    #[test]
    fn temperature_gauge_spans_the_schedule() {
        let mut h = History::new(1.0, Some(0.01));
        h.push(sample(0, 1.0, 1.0, 0));
        assert_eq!(h.temperature_ratio(), 1.0);
        h.push(sample(1, 1.0, 0.1, 1));
        assert!((h.temperature_ratio() - 0.5).abs() < 1e-12);
    }

    #[test]
    fn ratios_stay_in_range_whatever_comes() {
        let mut h = History::default().with_budget(Budget {
            time_limit: Some(Duration::ZERO),
            ..steps(0)
        });
        assert_eq!(h.progress(), 0.0);
        h.push(sample(0, 0.0, 0.0, 0));
        h.push(sample(0, f64::NAN, f64::NAN, 0));
        let (p, t) = (h.progress(), h.temperature_ratio());
        assert!((0.0..=1.0).contains(&p) && (0.0..=1.0).contains(&t));
    }

    #[test]
    fn the_shares_of_a_finished_run_are_the_work_each_phase_did() {
        use kiln_core::search::Phase;
        let mut history = History::default();
        let at = |iteration, phase| Sample {
            phase,
            ..sample(iteration, 1.0, 1.0, 0)
        };
        // The anneal's last sample came at 384k of its 600k steps; the next, in the local
        // search, counts the rest of the anneal as its own.
        history.push(at(0, Phase::Anneal));
        history.push(at(384_000, Phase::Anneal));
        history.push(at(2_956_404, Phase::LocalSearch));
        let percent = |history: &History| -> Vec<(Phase, u64)> {
            let shares = history.phase_shares();
            shares
                .iter()
                .map(|&(p, s)| (p, (s * 100.0).round() as u64))
                .collect()
        };
        assert_eq!(
            percent(&history),
            [(Phase::Anneal, 13), (Phase::LocalSearch, 87)]
        );
        let work = |phase, steps| PhaseWork {
            phase,
            chains: 1,
            steps,
            time: Duration::ZERO,
        };
        history.finished_with(vec![
            work(Phase::Anneal, 599_999),
            work(Phase::LocalSearch, 2_356_405),
        ]);
        assert_eq!(
            percent(&history),
            [(Phase::Anneal, 20), (Phase::LocalSearch, 80)]
        );
        // A run revived after its end goes on counting from there.
        history.push(at(2_956_404 + 3_000_000, Phase::LocalSearch));
        assert_eq!(
            percent(&history),
            [(Phase::Anneal, 10), (Phase::LocalSearch, 90)]
        );
    }
}
