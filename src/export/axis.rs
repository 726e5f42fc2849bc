//! A figure's axis, linear or logarithmic, labelled as a reader writes numbers: "0.01",
//! "200", "20M" on either, never plotters' "1e-2" for a power of ten.
//!
//! One type for both scales lets a chart choose its scales at run time (time on a log axis
//! only when the runs span decades) without a chart type per combination.

use std::ops::Range;

use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;

use kiln_tui::format::{Si, si};

/// The most labels on a log axis.
pub(crate) const MAX_LOG_TICKS: usize = 12;
/// Runs whose lengths differ by this factor (a decade) or more are laid out on a log axis:
/// on a linear one the shortest is squeezed into the left tenth or less, where its shape
/// cannot be read (a win in 0.22 s beside a run of 20 s is a few pixels).
const SPAN: f64 = 10.0;
/// A log time axis reaches at most this far below the longest run's end (a first sample
/// after a few microseconds would otherwise squeeze the runs into the right of the figure)...
const DEEPEST: f64 = 1e-4;
/// ...and at least this far below the shortest run's end, which then spans a decade.
const SHORTEST_SHOWN: f64 = 0.1;

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Axis {
    range: Range<f64>,
    log: bool,
}

impl Axis {
    pub(crate) fn linear(range: Range<f64>) -> Self {
        Axis { range, log: false }
    }

    /// A log axis over `range`, whose ends are positive.
    pub(crate) fn log(range: Range<f64>) -> Self {
        Axis { range, log: true }
    }

    pub(crate) fn is_log(&self) -> bool {
        self.log
    }

    /// Where `value` is along the axis: 0 at its start, 1 at its end. Values below a log
    /// axis's start are at its start.
    pub(crate) fn fraction(&self, value: f64) -> f64 {
        let Range { start, end } = self.range;
        match self.log {
            true => (value.max(start).log10() - start.log10()) / (end.log10() - start.log10()),
            false => (value - start) / (end - start),
        }
    }

    /// The time axis (steps or seconds) for runs ending at `ends` whose smallest positive
    /// time is `first`: log when the runs' lengths span [`SPAN`] or more, from the power of
    /// ten below where the runs can be told apart; otherwise linear from 0. A time before
    /// the log axis's start is drawn at its start.
    pub(crate) fn for_runs(ends: &[f64], first: f64) -> Self {
        let longest = ends.iter().copied().fold(0.0, f64::max);
        let shortest = ends
            .iter()
            .copied()
            .filter(|&e| e > 0.0)
            .fold(f64::INFINITY, f64::min);
        if longest <= 0.0 {
            return Axis::linear(0.0..1.0);
        }
        if longest < shortest * SPAN {
            return Axis::linear(0.0..longest * 1.02);
        }
        let start = first.max(longest * DEEPEST).min(shortest * SHORTEST_SHOWN);
        Axis::log(10f64.powi(start.log10().floor() as i32)..longest * 1.05)
    }
}

impl Ranged for Axis {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let pixels = f64::from(limit.1 - limit.0);
        limit.0 + (self.fraction(*value) * pixels).round() as i32
    }

    /// A log axis's labels are its only lines: light lines at 2..9 of every decade
    /// crowd a short log axis into a grey band.
    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        match self.log {
            false => RangedCoordf64::from(self.range.clone()).key_points(hint),
            true if hint.weight().allow_light_points() => Vec::new(),
            true => log_ticks(self.range.start, self.range.end),
        }
    }

    fn range(&self) -> Range<f64> {
        self.range.clone()
    }
}

impl ValueFormatter<f64> for Axis {
    fn format_ext(&self, value: &f64) -> String {
        match *value {
            // A tick's three decimals would round these to 0.
            v if self.log && v < 1e-4 => format!("{v:.0e}"),
            v if self.log && v < 1e-3 => v.to_string(),
            v => si(v, Si::Tick),
        }
    }
}

/// 1, 2 and 5 times the powers of ten between `lo` and `hi` (both positive): plotters' own
/// log axis labels only the decades' first digits, which leaves a short axis unlabelled.
/// A long axis gets at most [`MAX_LOG_TICKS`] decades instead (energies from 1e-300 to
/// 1e300 made 1800 labels on top of each other).
fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let decades = lo.log10().floor() as i32..=hi.log10().ceil() as i32;
    let within = |t: &f64| (lo..=hi).contains(t);
    let ticks: Vec<f64> = decades
        .clone()
        .flat_map(|d| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(d)))
        .filter(within)
        .collect();
    if ticks.len() <= MAX_LOG_TICKS {
        return ticks;
    }
    let every = decades.clone().count().div_ceil(MAX_LOG_TICKS);
    decades
        .step_by(every)
        .map(|d| 10f64.powi(d))
        .filter(within)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::coord::ranged1d::BoldPoints;

    fn labels(axis: &Axis) -> Vec<String> {
        let ticks = axis.key_points(BoldPoints(10));
        ticks.iter().map(|t| axis.format_ext(t)).collect()
    }

    #[test]
    fn log_ticks_are_one_two_five() {
        assert_eq!(
            log_ticks(30_000.0, 330_000.0),
            [50_000.0, 100_000.0, 200_000.0]
        );
        assert_eq!(log_ticks(0.9, 11.0), [1.0, 2.0, 5.0, 10.0]);
        assert_eq!(log_ticks(0.5, 2e5), [1.0, 10.0, 100.0, 1e3, 1e4, 1e5]);
        assert!(log_ticks(1e-300, 1e300).len() <= MAX_LOG_TICKS);
    }

    #[test]
    fn runs_spanning_decades_get_a_log_time_axis_labelled_in_plain_numbers() {
        // The top95 race: kiln won in 0.22 s, the GA ran its 20 s; the first sample after
        // the start was at 0.08 s.
        let axis = Axis::for_runs(&[0.22, 1.02, 0.65, 20.0], 0.08);
        assert!(axis.is_log());
        assert_eq!(axis.range().start, 0.01, "a decade below the shortest run");
        let ticks = [
            "0.01", "0.02", "0.05", "0.1", "0.2", "0.5", "1", "2", "5", "10", "20",
        ];
        assert_eq!(labels(&axis), ticks);
        // The winner spans the left third of the figure, not its first pixel.
        let won = axis.map(&0.22, (0, 1000));
        assert!((300..500).contains(&won), "0.22 s at pixel {won}");
        assert_eq!(
            axis.map(&0.0, (0, 1000)),
            0,
            "the start is at the left edge"
        );
        // Steps on the same rule.
        let steps = Axis::for_runs(&[3_401_061.0, 122_415_050.0], 1_048_576.0);
        assert_eq!(
            labels(&steps),
            [
                "100k", "200k", "500k", "1M", "2M", "5M", "10M", "20M", "50M", "100M"
            ]
        );
    }

    #[test]
    fn runs_of_like_lengths_stay_linear_from_zero() {
        let axis = Axis::for_runs(&[20e6, 20e6, 19.9e6], 16_384.0);
        assert!(!axis.is_log());
        assert_eq!(axis.range().start, 0.0);
        assert!(
            labels(&axis).contains(&"10M".to_string()),
            "{:?}",
            labels(&axis)
        );
        // Just under a decade: linear; a run that never moved (ends at 0) is no length.
        assert!(!Axis::for_runs(&[1.0, 9.9, 0.0], 0.5).is_log());
        assert!(Axis::for_runs(&[1.0, 10.0], 0.5).is_log());
        assert!(!Axis::for_runs(&[0.0], 0.0).is_log());
    }

    #[test]
    fn a_log_time_axis_starts_at_most_four_decades_below_the_longest_run() {
        let axis = Axis::for_runs(&[0.5, 100.0], 1e-7);
        assert_eq!(axis.range().start, 0.01);
    }

    #[test]
    fn log_labels_below_a_ten_thousandth_are_written_as_powers_of_ten() {
        let axis = Axis::log(1e-6..1.0);
        assert_eq!(
            labels(&axis),
            ["1e-6", "1e-5", "0.0001", "0.001", "0.01", "0.1", "1"]
        );
    }
}
