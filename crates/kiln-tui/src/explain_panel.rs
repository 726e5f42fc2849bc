//! The explain panel (`x`), in the stats panel's place: the Metropolis rule with the live
//! temperature, its acceptance curve p(dE) = min(1, exp(-dE/T)), and over it the share of
//! uphill moves actually taken among the latest few thousand, per bucket of dE/T, so a
//! class can see the rule and the run agree.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Block, Chart, Dataset, GraphType, Paragraph, Widget};

use super::format;
use super::theme::Theme;
use kiln_core::anneal::explain::{BUCKET_WIDTH, BUCKETS, Measured};

/// The curve is drawn out to this many temperatures of dE, where p is below 1 %.
const REACH: f64 = 5.0;
/// Points on the drawn curve.
const CURVE_POINTS: usize = 60;

pub(super) struct ExplainPanel<'a> {
    /// The temperature now, if a sample has come.
    pub temperature: Option<f64>,
    pub measured: Option<&'a Measured>,
    pub theme: &'a Theme,
}

/// The rule's curve, dE from 0 to `REACH` T.
fn curve(t: f64) -> Vec<(f64, f64)> {
    (0..=CURVE_POINTS)
        .map(|i| {
            let x = REACH * i as f64 / CURVE_POINTS as f64;
            (x * t, (-x).exp())
        })
        .collect()
}

/// The share taken in each bucket with moves in it, at the bucket's mean dE at `t`.
fn seen(measured: &Measured, t: f64) -> Vec<(f64, f64)> {
    measured
        .buckets
        .iter()
        .filter_map(|b| Some((b.mean_x()? * t, b.measured()?)))
        .filter(|&(x, _)| x <= REACH * t)
        .collect()
}

/// An axis label with three significant digits at most (whole numbers from 100 up).
fn round_label(x: f64) -> String {
    let decimals = match x.abs() {
        x if x >= 100.0 => 0,
        x if x >= 10.0 => 1,
        _ => 2,
    };
    let text = format!("{x:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// "1.2-1.5": a bucket's range of dE/T, the last one open.
fn bucket_range(k: usize) -> String {
    let low = k as f64 * BUCKET_WIDTH;
    if k + 1 == BUCKETS {
        format!(">{low:.1}")
    } else {
        format!("{low:.1}-{:.1}", low + BUCKET_WIDTH)
    }
}

/// The table under the chart: per bucket of dE/T, the share the rule gives and the share
/// taken, the fullest buckets first, as many as `rows` allows.
fn table(measured: &Measured, rows: usize) -> Vec<String> {
    let mut filled: Vec<usize> = (0..BUCKETS)
        .filter(|&k| measured.buckets[k].proposed > 0)
        .collect();
    filled.sort_by_key(|&k| std::cmp::Reverse(measured.buckets[k].proposed));
    filled.truncate(rows.saturating_sub(1));
    filled.sort_unstable();
    let mut lines = vec![format!(
        "{:<8}{:>6}{:>7}{:>7}",
        "dE/T", "rule", "taken", "moves"
    )];
    for k in filled {
        let b = &measured.buckets[k];
        lines.push(format!(
            "{:<8}{:>6.3}{:>7.3}{:>7}",
            bucket_range(k),
            b.expected().unwrap_or(0.0),
            b.measured().unwrap_or(0.0),
            format::count(b.proposed.into())
        ));
    }
    lines
}

impl Widget for ExplainPanel<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let block = Block::bordered()
            .border_set(theme.border_set())
            .border_style(theme.border)
            .title(Span::styled(" Metropolis rule (x) ", theme.title));
        let inner = block.inner(area);
        block.render(area, buf);
        let t_text = self
            .temperature
            .map_or("-".to_string(), format::temperature);
        let head = vec![
            Line::raw("a move dE worse is taken with"),
            Line::from(vec![
                Span::raw("p = exp(-dE/T)   "),
                Span::styled(format!("T = {t_text}"), theme.temperature),
            ]),
        ];
        let [head_area, chart_area, legend_area, body_area] = Layout::vertical([
            Constraint::Length(2),
            Constraint::Min(6),
            Constraint::Length(1),
            Constraint::Length(8),
        ])
        .areas(inner);
        Paragraph::new(head).render(head_area, buf);
        let Some(t) = self.temperature.filter(|t| *t > 0.0) else {
            Paragraph::new("T = 0: only moves that are not uphill are taken")
                .render(chart_area, buf);
            return;
        };
        let rule = curve(t);
        let taken = self.measured.map(|m| seen(m, t)).unwrap_or_default();
        let (line_marker, point_marker) = if theme.ascii {
            (Marker::Custom('.'), Marker::Custom('o'))
        } else {
            (Marker::Braille, Marker::Custom('●'))
        };
        let datasets = vec![
            Dataset::default()
                .graph_type(GraphType::Line)
                .marker(line_marker)
                .style(theme.temperature)
                .data(&rule),
            Dataset::default()
                .graph_type(GraphType::Scatter)
                .marker(point_marker)
                .style(theme.energy)
                .data(&taken),
        ];
        let x_max = REACH * t;
        Chart::new(datasets)
            .legend_position(None)
            .x_axis(
                Axis::default()
                    .bounds([0.0, x_max])
                    .style(theme.dim)
                    .labels(["0".to_string(), format!("dE {}", round_label(x_max))]),
            )
            .y_axis(
                Axis::default()
                    .bounds([0.0, 1.0])
                    .style(theme.dim)
                    .labels(["0", "p 1"]),
            )
            .render(chart_area, buf);
        let (line_sample, point_sample) = if theme.ascii {
            ("...", "o")
        } else {
            ("⠒⠒⠒", "●")
        };
        Paragraph::new(Line::from(vec![
            Span::styled(line_sample, theme.temperature),
            Span::raw(" rule  "),
            Span::styled(point_sample, theme.energy),
            Span::raw(" taken (latest)"),
        ]))
        .render(legend_area, buf);
        let Some(m) = self.measured.filter(|m| m.proposals > 0) else {
            Paragraph::new("measuring the moves...").render(body_area, buf);
            return;
        };
        let share = if m.uphill > 0 {
            format!(
                "{:.1}%",
                100.0 * f64::from(m.uphill_taken) / f64::from(m.uphill)
            )
        } else {
            "-".to_string()
        };
        let mut lines = vec![
            format!(
                "uphill taken {share}: {}/{}",
                format::count(m.uphill_taken.into()),
                format::count(m.uphill.into())
            ),
            format!("of the last {} moves", format::count(m.proposals.into())),
        ];
        lines.extend(table(m, usize::from(body_area.height).saturating_sub(2)));
        Paragraph::new(lines.into_iter().map(Line::raw).collect::<Vec<_>>()).render(body_area, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_core::anneal::Decision;
    use kiln_core::anneal::explain::Acceptance;

    #[test]
    fn the_table_shows_the_rule_and_the_share_taken_per_bucket() {
        let mut acceptance = Acceptance::default();
        // 10 moves at dE/T = 1 (4 taken), 2 at dE/T = 3 (none), 5 downhill.
        let at = |x: f64, accepted| Decision {
            delta: x,
            temperature: 1.0,
            p: (-x).exp(),
            u: Some(0.5),
            accepted,
            energy: 0.0,
        };
        for i in 0..10 {
            acceptance.record(&at(1.0, i < 4));
        }
        for _ in 0..2 {
            acceptance.record(&at(3.0, false));
        }
        for _ in 0..5 {
            acceptance.record(&at(-1.0, true));
        }
        let lines = table(&acceptance.measured(), 3);
        assert_eq!(lines.len(), 3);
        assert_eq!(
            lines[1],
            format!("1.0-1.5  {:.3}  0.400     10", (-1f64).exp())
        );
        assert_eq!(
            lines[2],
            format!("3.0-3.5  {:.3}  0.000      2", (-3f64).exp())
        );
        // With room for one bucket, the fuller one.
        assert_eq!(table(&acceptance.measured(), 2)[1], lines[1]);
    }
}
