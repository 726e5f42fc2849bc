//! What the UI remembers of a run's telemetry: recent samples for the sparklines, the first
//! one for the progress gauge, and the energy and temperature ranges of the whole run, the
//! fixed scales of the plots and gauges.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use crate::anneal::Sample;

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

#[derive(Debug, Clone)]
pub struct History {
    recent: VecDeque<Sample>,
    first: Option<Sample>,
    t_low: f64,
    t_high: f64,
    e_low: f64,
    e_high: f64,
    /// (when it was published, iteration) of recent samples: iterations per second are
    /// measured on the wall clock, so a slowed-down run shows its real pace.
    arrivals: VecDeque<(Instant, u64)>,
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
            first: None,
            t_low: t_low.unwrap_or(f64::INFINITY),
            t_high,
            e_low: f64::INFINITY,
            e_high: f64::NEG_INFINITY,
            arrivals: VecDeque::new(),
        }
    }

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
        self.first.get_or_insert(sample);
        self.t_low = self.t_low.min(sample.temperature);
        self.t_high = self.t_high.max(sample.temperature);
        if sample.energy.is_finite() {
            self.e_low = self.e_low.min(sample.energy);
            self.e_high = self.e_high.max(sample.energy);
        }
        if self.recent.len() == KEEP {
            self.recent.pop_front();
        }
        self.recent.push_back(sample);
    }

    pub fn latest(&self) -> Option<&Sample> {
        self.recent.back()
    }

    pub fn first(&self) -> Option<&Sample> {
        self.first.as_ref()
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

    /// 1 - (E - floor) / (E0 - floor), clamped to 0..=1 (0 when nothing is known yet).
    pub fn progress(&self, floor: f64) -> f64 {
        match (self.first, self.latest()) {
            (Some(first), Some(now)) if first.energy > floor => {
                let done = 1.0 - (now.energy - floor) / (first.energy - floor);
                if done.is_finite() {
                    done.clamp(0.0, 1.0)
                } else {
                    0.0
                }
            }
            (Some(_), Some(now)) if now.energy <= floor => 1.0,
            _ => 0.0,
        }
    }

    /// Where T sits between the lowest and highest temperature seen, on a log scale.
    pub fn temperature_ratio(&self) -> f64 {
        let Some(now) = self.latest() else { return 0.0 };
        let (low, high, t) = (
            self.t_low.max(1e-12),
            self.t_high.max(1e-12),
            now.temperature.max(1e-12),
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
            temperature,
            elapsed: Duration::from_millis(ms),
            ..Sample::default()
        }
    }

    #[test]
    fn progress_and_rate_follow_the_samples() {
        let mut h = History::default();
        let t = Instant::now();
        h.push_at(sample(0, 40.0, 1.0, 0), t);
        h.push_at(sample(1000, 10.0, 0.1, 1), t + Duration::from_millis(100));
        assert_eq!(h.progress(0.0), 0.75);
        assert_eq!(h.rate(), 10_000.0);
        assert_eq!(h.temperature_ratio(), 0.0);
        h.push(sample(2000, 0.0, 1.0, 200));
        assert_eq!(h.progress(0.0), 1.0);
        assert_eq!(h.temperature_ratio(), 1.0);
        assert_eq!(h.tail(2, |s| s.energy), vec![10.0, 0.0]);
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
        let mut h = History::default();
        assert_eq!(h.progress(0.0), 0.0);
        h.push(sample(0, 0.0, 0.0, 0));
        h.push(sample(0, f64::NAN, f64::NAN, 0));
        let (p, t) = (h.progress(0.0), h.temperature_ratio());
        assert!((0.0..=1.0).contains(&p) && (0.0..=1.0).contains(&t));
    }
}
