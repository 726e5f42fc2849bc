//! The stats panel: energy and temperature sparklines, gauges and counters.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Sparkline, Widget};

use super::format::{self, Si};
use super::history::{History, Scale};
use super::theme::Theme;
use kiln_core::search::Control;
use kiln_core::search::worker::Speed;

pub(super) struct StatsPanel<'a> {
    pub history: &'a History,
    /// 0..=1, see `Session::progress`.
    pub progress: f64,
    pub speed: Speed,
    /// Rates are shown only while the run runs: a paused or finished run has none.
    pub running: bool,
    /// Running time as the viewer saw it.
    pub elapsed: std::time::Duration,
    pub theme: &'a Theme,
}

/// Rows the panel needs at the least (inside its border): labels, two 1-row sparklines,
/// three gauges, the phase and the counters.
pub(super) const MIN_HEIGHT: u16 = 18;
pub(super) const WIDTH: u16 = 32;
/// Past this width the panel has nothing more to show.
pub(super) const MAX_WIDTH: u16 = 44;

/// A series scaled to the u64 a `Sparkline` takes (1..=100; 0 for a value that is not a
/// number), lowest value at the bottom.
fn bars(values: &[f64], scale: Scale) -> Vec<u64> {
    let map = |v: f64| if scale.log { v.max(1e-12).ln() } else { v };
    let (low, high) = (map(scale.low), map(scale.high));
    values
        .iter()
        .map(|&v| {
            // Before the log: `NaN.max(1e-12)` is 1e-12, and a value that is no number
            // (a search without a temperature) would draw as the lowest bar.
            let v = if v.is_nan() { v } else { map(v) };
            if !v.is_finite() {
                0
            } else if high > low {
                1 + ((v - low) / (high - low) * 99.0).clamp(0.0, 99.0).round() as u64
            } else {
                50
            }
        })
        .collect()
}

/// A sparkline of `values` on `scale`.
pub fn sparkline(
    values: &[f64],
    scale: Scale,
    style: Style,
    theme: &Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    // The lowest bar is an eighth of a row, not nothing: a series that has settled near the
    // run's lowest energy (a tour late in its cooling) would otherwise draw as a blank.
    let floor = 100u64.div_ceil(8 * u64::from(area.height.max(1)));
    let data = bars(values, scale).into_iter().map(|bar| match bar {
        0 => 0,
        bar => floor + (bar - 1) * (100 - floor) / 99,
    });
    Sparkline::default()
        .data(data.collect::<Vec<u64>>())
        .max(100)
        .bar_set(theme.bars())
        .style(style)
        .render(area, buf);
}

/// The columns of the last `width` samples (as the sparklines draw them) in which the run
/// was reheated.
fn reheat_columns(history: &History, width: usize) -> Vec<usize> {
    let reheats = history.tail(width + 1, |s| s.reheats as f64);
    // The sample before the window, when there is one, says whether its first column rose.
    let before = reheats.len().saturating_sub(width);
    (before.max(1)..reheats.len())
        .filter(|&i| reheats[i] > reheats[i - 1])
        .map(|i| i - before)
        .collect()
}

fn reheat_mark(theme: &Theme) -> &'static str {
    if theme.ascii { "^" } else { "↑" }
}

fn gauge_line<'a>(label: &'a str, ratio: f64, width: u16, theme: &Theme) -> Line<'a> {
    let ratio = if ratio.is_finite() {
        ratio.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let bar_width = (width as usize).saturating_sub(label.len() + 5);
    let filled = (ratio * bar_width as f64).round() as usize;
    let (full, empty) = theme.gauge_cells();
    Line::from(vec![
        Span::raw(label),
        Span::styled(full.repeat(filled), theme.gauge),
        Span::styled(empty.repeat(bar_width - filled), theme.dim),
        Span::raw(format!(" {:>3.0}%", ratio * 100.0)),
    ])
}

fn counter<'a>(label: &'a str, value: String, theme: &Theme) -> Line<'a> {
    Line::from(vec![
        Span::styled(format!("{label:<11}"), theme.dim),
        Span::raw(value),
    ])
}

impl Widget for StatsPanel<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let block = Block::new()
            .borders(Borders::LEFT)
            .border_set(theme.border_set())
            .border_style(theme.border);
        let inner = block.inner(area);
        block.render(area, buf);
        let Some(now) = self.history.latest().copied() else {
            Paragraph::new("starting...").render(inner, buf);
            return;
        };
        // Spare rows go to the two sparklines.
        let spare = inner.height.saturating_sub(MIN_HEIGHT);
        let spark = 1 + spare / 2;
        let [e_label, e_spark, t_label, t_spark, gauges, counters] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(spark),
            Constraint::Length(1),
            Constraint::Length(spark),
            Constraint::Length(4),
            Constraint::Min(0),
        ])
        .areas(inner);
        let width = inner.width as usize;

        Paragraph::new(Line::from(vec![
            Span::styled("Energy ", theme.energy),
            Span::raw(format::energy(now.energy)),
            Span::styled("  best ", theme.dim),
            Span::raw(format::energy(now.best_energy)),
        ]))
        .render(e_label, buf);
        let energies = self.history.tail(width, |s| s.energy);
        sparkline(
            &energies,
            self.history.energy_range(),
            theme.energy,
            theme,
            e_spark,
            buf,
        );

        // A search without a temperature leaves its columns blank, never a made-up 0.
        let temperatures = self.history.tail(width, |s| match s.control {
            Control::None => f64::NAN,
            control => control.level(),
        });
        let reheated = reheat_columns(self.history, width);
        // Each search's own number, or none: never a made-up temperature of 0.
        let mut label = match now.control.label() {
            Some(name) => vec![
                Span::styled(format!("{name} "), theme.temperature),
                Span::raw(format::temperature(now.control.level())),
            ],
            None => vec![Span::styled("no temperature", theme.dim)],
        };
        if !reheated.is_empty() {
            label.push(Span::styled(
                format!("  {} reheat", reheat_mark(theme)),
                theme.warn,
            ));
        }
        Paragraph::new(Line::from(label)).render(t_label, buf);
        sparkline(
            &temperatures,
            self.history.temperature_range(),
            theme.temperature,
            theme,
            t_spark,
            buf,
        );
        // A reheat is marked at the top of its column, so a saw-tooth reads as reheats
        // and not as a schedule that cannot make up its mind.
        for column in reheated {
            let x = t_spark.x + column as u16;
            if x < t_spark.right() {
                buf[(x, t_spark.y)]
                    .set_symbol(reheat_mark(theme))
                    .set_style(theme.warn);
            }
        }

        Paragraph::new(vec![
            Line::raw(""),
            gauge_line("Progress ", self.progress, inner.width, theme),
            match now.control {
                Control::None => counter("T (log)", "none".to_string(), theme),
                _ => gauge_line(
                    "T (log)  ",
                    self.history.temperature_ratio(),
                    inner.width,
                    theme,
                ),
            },
            gauge_line(
                "Accepted ",
                if self.running { now.acceptance } else { 0.0 },
                inner.width,
                theme,
            ),
        ])
        .render(gauges, buf);

        let rate = if self.running {
            format::si(self.history.rate(), Si::Panel)
        } else {
            "-".to_string()
        };
        let speed = match self.speed {
            Speed::Full => "full".to_string(),
            Speed::Limited(rate) => format!("{}/s", format::si(rate as f64, Si::Panel)),
            Speed::Rising(rate) => format!("{}/s rising", format::si(rate as f64, Si::Panel)),
        };
        // The phase's share of the budget as planned, when it has part of it: what each
        // phase used is the end banner's. The row takes the blank above the counters.
        let planned = match self.history.planned(now.phase) {
            Some(plan) if plan.share < 1.0 => counter(
                "planned",
                format!("{} of budget", plan.bound.show(plan.share)),
                theme,
            ),
            _ => Line::raw(""),
        };
        let phase = counter("phase", now.phase.name().to_string(), theme);
        let (first, second) = if planned.width() == 0 {
            (planned, phase)
        } else {
            (phase, planned)
        };
        Paragraph::new(vec![
            first,
            second,
            counter("iteration", format::count(now.iteration), theme),
            counter("iter/s", rate, theme),
            counter("best E", format::energy(now.best_energy), theme),
            counter("restarts", format::count(now.restarts), theme),
            counter("reheats", format::count(now.reheats), theme),
            counter("elapsed", format::elapsed(self.elapsed), theme),
            counter("speed", speed, theme),
        ])
        .style(Style::new())
        .render(counters, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn linear(low: f64, high: f64) -> Scale {
        Scale {
            low,
            high,
            log: false,
        }
    }

    fn sample(iteration: u64, reheats: u64) -> kiln_core::search::Sample {
        kiln_core::search::Sample {
            iteration,
            control: kiln_core::search::Control::Temperature(1.0 / (1 + iteration % 5) as f64),
            energy: 10.0,
            best_energy: 10.0,
            reheats,
            ..Default::default()
        }
    }

    /// The temperature sparkline's row of a 32-column panel drawn from `reheats` (one
    /// sample each), and its label.
    fn temperature_rows(reheats: &[u64]) -> (String, String) {
        let mut history = History::new(1.0, Some(0.01));
        for (i, &r) in reheats.iter().enumerate() {
            history.push(sample(i as u64, r));
        }
        let rows = rows_of(&history, MIN_HEIGHT + 1);
        let label = rows.iter().position(|r| r.contains("Temperature")).unwrap();
        (rows[label].clone(), rows[label + 1].clone())
    }

    /// Every row of a 32-column panel `height` rows high drawn from `history`.
    fn rows_of(history: &History, height: u16) -> Vec<String> {
        let theme = Theme::monochrome(true);
        let area = Rect::new(0, 0, WIDTH, height);
        let mut buf = Buffer::empty(area);
        let panel = StatsPanel {
            history,
            progress: 0.0,
            speed: Speed::Full,
            running: true,
            elapsed: std::time::Duration::ZERO,
            theme: &theme,
        };
        panel.render(area, &mut buf);
        (0..area.height)
            .map(|y| (0..area.width).map(|x| buf[(x, y)].symbol()).collect())
            .collect()
    }

    /// Every row of a 32-column panel drawn from `samples`.
    fn panel_rows(samples: &[kiln_core::search::Sample]) -> Vec<String> {
        let mut history = History::default();
        for &s in samples {
            history.push(s);
        }
        rows_of(&history, MIN_HEIGHT)
    }

    #[test]
    fn conflict_learning_is_named_and_shows_no_temperature_not_a_zero() {
        use kiln_core::search::Phase;
        let annealing = (0..6).map(|i| sample(i, 0));
        let learning = (6..10).map(|i| kiln_core::search::Sample {
            phase: Phase::ConflictLearning,
            control: Control::None,
            ..sample(i, 0)
        });
        let rows = panel_rows(&annealing.chain(learning).collect::<Vec<_>>());
        let text = rows.join("\n");
        assert!(text.contains("no temperature"), "{text}");
        assert!(text.contains("phase      conflict learning"), "{text}");
        assert!(text.contains("T (log)    none"), "{text}");
        assert!(!text.contains("Temperature"), "{text}");
        // The sparkline draws the annealing columns and leaves the learner's blank.
        let label = rows
            .iter()
            .position(|r| r.contains("no temperature"))
            .unwrap();
        let spark: Vec<char> = rows[label + 1].chars().skip(1).collect();
        assert!(
            spark[..6].iter().all(|c| *c != ' '),
            "{:?}",
            rows[label + 1]
        );
        assert!(
            spark[6..10].iter().all(|c| *c == ' '),
            "{:?}",
            rows[label + 1]
        );
        // An annealer's panel names its phase and its temperature.
        let text = panel_rows(&[sample(0, 0), sample(1, 0)]).join("\n");
        assert!(text.contains("phase      annealing"), "{text}");
        assert!(text.contains("Temperature 0.5000"), "{text}");
    }

    #[test]
    fn a_phase_s_share_of_the_budget_is_said_to_be_the_planned_one() {
        use kiln_core::search::{Bound, Phase, Planned};
        let plan = vec![
            Planned {
                phase: Phase::Anneal,
                share: 0.2,
                bound: Bound::Exactly,
            },
            Planned {
                phase: Phase::LocalSearch,
                share: 0.8,
                bound: Bound::Exactly,
            },
        ];
        let mut history = History::default().with_plan(plan);
        history.push(sample(0, 0));
        history.push(kiln_core::search::Sample {
            phase: Phase::LocalSearch,
            control: Control::Threshold(0.5),
            ..sample(1, 0)
        });
        let rows = rows_of(&history, MIN_HEIGHT);
        let text = rows.join("\n");
        let phase = rows.iter().position(|r| r.contains("phase")).unwrap();
        assert_eq!(rows[phase].trim_end(), "|phase      local search", "{text}");
        assert_eq!(
            rows[phase + 1].trim_end(),
            "|planned    80% of budget",
            "{text}"
        );
        // Every counter still fits.
        assert!(text.contains("speed      full"), "{text}");
        // A run of one phase has no plan to speak of: a blank row, then its phase.
        let text = panel_rows(&[sample(0, 0), sample(1, 0)]).join("\n");
        assert!(!text.contains("planned"), "{text}");
    }

    #[test]
    fn reheats_are_marked_on_the_temperature_sparkline_where_they_happened() {
        let (label, spark) = temperature_rows(&[0, 0, 0, 1, 1, 1, 2, 2]);
        assert!(label.contains("^ reheat"), "{label}");
        let marks: Vec<usize> = spark
            .char_indices()
            .filter(|c| c.1 == '^')
            .map(|c| c.0)
            .collect();
        // Columns 3 and 6, one past the panel's left border.
        assert_eq!(marks, [4, 7], "{spark}");
        let (label, spark) = temperature_rows(&[0; 8]);
        assert!(
            !label.contains("reheat") && !spark.contains('^'),
            "{label}\n{spark}"
        );
    }

    #[test]
    fn bars_scale_into_1_to_100() {
        assert_eq!(bars(&[0.0, 5.0, 10.0], linear(0.0, 10.0)), vec![1, 51, 100]);
        assert_eq!(bars(&[3.0, 3.0], linear(3.0, 3.0)), vec![50, 50]);
        assert_eq!(bars(&[f64::NAN, 1.0], linear(0.0, 1.0)), vec![0, 100]);
        let log = Scale {
            low: 0.01,
            high: 1.0,
            log: true,
        };
        assert_eq!(bars(&[0.01, 0.1, 1.0], log), vec![1, 51, 100]);
        assert_eq!(bars(&[f64::NAN, 1.0], log), vec![0, 100]);
    }

    #[test]
    fn a_series_at_the_bottom_of_its_scale_still_draws() {
        for rows in [1, 2, 5] {
            let area = Rect::new(0, 0, 4, rows);
            let mut buf = Buffer::empty(area);
            let theme = Theme::colour(false);
            let settled = [2.0, 3.0, 2.0, 3.0];
            sparkline(
                &settled,
                linear(0.0, 20_000.0),
                Style::default(),
                &theme,
                area,
                &mut buf,
            );
            let bottom: String = (0..4).map(|x| buf[(x, rows - 1)].symbol()).collect();
            assert!(!bottom.contains(' '), "{rows} rows: {bottom:?}");
            // And the top of the scale fills the area.
            let mut buf = Buffer::empty(area);
            sparkline(
                &[20_000.0],
                linear(0.0, 20_000.0),
                Style::default(),
                &theme,
                area,
                &mut buf,
            );
            assert_eq!(buf[(0, 0)].symbol(), "█");
        }
    }

    #[test]
    fn a_converged_series_stays_flat_on_the_run_scale() {
        // Energy 200 at the start, wiggling between 2 and 3 at the end: low bars, not a
        // barcode from 1 to 100.
        let heights = bars(&[2.0, 3.0, 2.0, 3.0], linear(0.0, 200.0));
        assert!(heights.iter().all(|&h| h <= 3), "{heights:?}");
    }

    #[test]
    fn gauge_never_overflows_its_width() {
        let theme = Theme::monochrome(true);
        for ratio in [f64::NAN, -1.0, 0.0, 0.5, 1.0, 2.0] {
            let line = gauge_line("Progress ", ratio, 30, &theme);
            assert_eq!(line.width(), 30, "ratio {ratio}");
        }
    }
}
