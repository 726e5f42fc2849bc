//! The TSP board: the tour and its cities on a braille canvas (plain characters with
//! `--ascii`), scaled to fit with the instance's own aspect ratio; the reference (optimal)
//! tour faintly beneath when there is one.

use std::sync::Arc;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Color;
use ratatui::symbols::Marker;
use ratatui::widgets::Widget;
use ratatui::widgets::canvas::{Canvas, Context, Line, Points};

use crate::anneal::Runner;
use crate::anneal::worker::Speed;
use crate::export::{self, Export, Output};
use crate::problems::tsp::{Cost, Loaded, TspArgs, TspSnapshot, build};
use crate::ui::boards::step_budget;
use crate::ui::session::{BoardArea, BoardKey, BoardView, Demo, Live, Session};
use crate::ui::theme::Theme;

pub struct TspView {
    loaded: Arc<Loaded>,
    /// The energy is the tour length (not its squares), so the best energy is a length.
    energy_is_length: bool,
    best: bool,
    reference: bool,
}

const KEYS: &[BoardKey] = &[
    BoardKey {
        key: 'b',
        what: "show the best tour found / the current tour",
    },
    BoardKey {
        key: 'o',
        what: "show / hide the reference (optimal) tour",
    },
];

/// Canvas bounds around `points` that fill `area` without stretching: a cell is about twice
/// as tall as it is wide.
fn fitted_bounds(points: impl Iterator<Item = (f64, f64)>, area: Rect) -> ([f64; 2], [f64; 2]) {
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for (x, y) in points {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    if x0 > x1 {
        return ([0.0, 1.0], [0.0, 1.0]);
    }
    let (w_cells, h_cells) = (area.width.max(1) as f64, 2.0 * area.height.max(1) as f64);
    let span = ((x1 - x0) / w_cells).max((y1 - y0) / h_cells).max(1e-9) * 1.02;
    let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    (
        [cx - span * w_cells / 2.0, cx + span * w_cells / 2.0],
        [cy - span * h_cells / 2.0, cy + span * h_cells / 2.0],
    )
}

fn draw_tour(ctx: &mut Context, loaded: &Loaded, tour: &[u32], color: Color) {
    let cities = &loaded.instance.cities;
    for (i, &a) in tour.iter().enumerate() {
        let b = tour[(i + 1) % tour.len()];
        let (p, q) = (cities[a as usize], cities[b as usize]);
        ctx.draw(&Line {
            x1: p.x,
            y1: p.y,
            x2: q.x,
            y2: q.y,
            color,
        });
    }
}

fn colour(style: ratatui::style::Style) -> Color {
    style.fg.unwrap_or(Color::Reset)
}

impl BoardView<TspSnapshot> for TspView {
    fn min_size(&self, _: Option<&TspSnapshot>) -> (u16, u16) {
        (20, 10)
    }

    fn render(&self, s: &TspSnapshot, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let cities = &s.instance.cities;
        let (x_bounds, y_bounds) = fitted_bounds(cities.iter().map(|p| (p.x, p.y)), area);
        let coords: Vec<(f64, f64)> = cities.iter().map(|p| (p.x, p.y)).collect();
        let (line, dot) = if theme.ascii {
            (Marker::Custom('.'), Marker::Custom('o'))
        } else {
            (Marker::Braille, Marker::Braille)
        };
        let reference = self.loaded.reference.as_ref().filter(|_| self.reference);
        Canvas::default()
            .marker(line)
            .x_bounds(x_bounds)
            .y_bounds(y_bounds)
            .paint(|ctx| {
                if let Some(reference) = reference {
                    draw_tour(ctx, &self.loaded, reference, colour(theme.reference));
                    ctx.layer();
                }
                draw_tour(ctx, &self.loaded, &s.tour, colour(theme.temperature));
                ctx.layer();
                ctx.marker(dot);
                ctx.draw(&Points {
                    coords: &coords,
                    color: colour(theme.given),
                });
            })
            .render(area, buf);
    }

    fn headline(&self, s: &TspSnapshot, best_energy: Option<f64>) -> Option<String> {
        let length = s.length();
        let what = if self.best { "best tour" } else { "length" };
        let mut line = format!("{what} {length}");
        if let Some(best) = best_energy.filter(|_| self.energy_is_length) {
            line.push_str(&format!(" · best {best:.0}"));
            if let Some(gap) = self.loaded.gap(best as u64) {
                line.push_str(&format!(" · gap {gap:.2}%"));
            }
        } else if let Some(gap) = self.loaded.gap(length) {
            line.push_str(&format!(" · gap {gap:.2}%"));
        }
        Some(line)
    }

    fn floor(&self) -> Option<f64> {
        None
    }

    fn keys(&self) -> &'static [BoardKey] {
        KEYS
    }

    fn key(&mut self, key: char) -> bool {
        match key {
            'b' => self.best = !self.best,
            'o' if self.loaded.reference.is_some() => self.reference = !self.reference,
            _ => return false,
        }
        true
    }

    fn wants_best(&self) -> bool {
        self.best
    }

    fn target_word(&self) -> &'static str {
        "OPTIMAL"
    }

    fn export(&self, shown: &TspSnapshot, best: &TspSnapshot) -> Option<Export> {
        let reference = self.loaded.reference.as_deref().filter(|_| self.reference);
        Some(export::tsp::export(shown, best, reference))
    }
}

/// The TSP tab: one set of arguments per entry of `n`/`p`.
pub struct TspDemo {
    pub runs: Vec<TspArgs>,
}

/// Steps per second the headless default time budget stands for (see `step_budget`).
const TYPICAL_RATE: f64 = 20e6;

impl Demo for TspDemo {
    fn name(&self) -> &str {
        "TSP"
    }

    fn count(&self) -> usize {
        self.runs.len()
    }

    fn start(
        &self,
        index: usize,
        speed: Speed,
        _area: BoardArea,
    ) -> color_eyre::Result<Box<dyn Session>> {
        let args = &self.runs[index % self.runs.len()];
        let mut setup = build(args)?;
        step_budget(&mut setup.config, &args.anneal, TYPICAL_RATE);
        let title = format!(
            "{} ({} cities)",
            setup.loaded.instance.name,
            setup.loaded.instance.len()
        );
        let view = TspView {
            loaded: Arc::new(setup.loaded),
            energy_is_length: args.cost == Cost::Euclidean,
            best: false,
            reference: true,
        };
        let runner = Runner::new(setup.problem, setup.config, args.anneal.seed);
        let output = args.output.clone().map(|path| Output {
            path,
            encode: |best, _| Ok(export::tsp::tour(best)),
        });
        Ok(Box::new(
            Live::start(title, runner, view, speed, setup.reheat_temperature).with_output(output),
        ))
    }

    /// A tour's budget is about 20M steps: at 1M steps/s it untangles in 20 seconds.
    fn default_speed(&self) -> Speed {
        Speed::Limited(1_000_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::tsp::{Instance, Metric, Point};

    /// Four cities on the corners of a 10x10 square, toured around it, with the crossing
    /// tour as the reference.
    fn square() -> (TspView, TspSnapshot) {
        let cities: Vec<Point> = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]
            .into_iter()
            .map(|(x, y)| Point { x, y })
            .collect();
        let instance = Arc::new(Instance {
            name: "square".into(),
            comment: String::new(),
            metric: Metric::Euc2d,
            cities: cities.into(),
        });
        let loaded = Loaded {
            instance: Arc::clone(&instance),
            source: "square".into(),
            optimum: Some(40),
            reference: Some(vec![0, 2, 1, 3]),
        };
        let view = TspView {
            loaded: Arc::new(loaded),
            energy_is_length: true,
            best: false,
            reference: false,
        };
        (
            view,
            TspSnapshot {
                instance,
                tour: vec![0, 1, 2, 3],
            },
        )
    }

    fn render(view: &TspView, s: &TspSnapshot, theme: &Theme) -> Vec<String> {
        let mut buf = Buffer::empty(Rect::new(0, 0, 12, 6));
        view.render(s, buf.area, &mut buf, theme);
        (0..6)
            .map(|y| (0..12).map(|x| buf[(x, y)].symbol()).collect())
            .collect()
    }

    #[test]
    fn draws_the_tour_square_and_centred() {
        let (view, s) = square();
        let lines = render(&view, &s, &Theme::colour(false));
        // A square of 10 units in a 12x6 area (12 units wide, 12 tall): the outline touches
        // the first and last rows and leaves the middle empty.
        assert!(lines[0].trim() != "" && lines[5].trim() != "", "{lines:#?}");
        assert_eq!(
            lines[2].chars().filter(|c| *c != ' ').count(),
            2,
            "{lines:#?}"
        );
        assert!(lines.iter().all(|l| l.chars().count() == 12));
    }

    #[test]
    fn the_reference_tour_crosses_the_middle() {
        let (mut view, s) = square();
        let without = render(&view, &s, &Theme::colour(false));
        assert!(view.key('o'));
        let with = render(&view, &s, &Theme::colour(false));
        assert_ne!(
            without[2], with[2],
            "the diagonals add dots inside the square"
        );
    }

    #[test]
    fn ascii_mode_draws_plain_characters() {
        let (view, s) = square();
        let lines = render(&view, &s, &Theme::monochrome(true));
        let text = lines.concat();
        assert!(
            text.is_ascii() && text.contains('o') && text.contains('.'),
            "{lines:#?}"
        );
    }

    #[test]
    fn headline_gives_length_best_and_gap() {
        let (mut view, s) = square();
        assert_eq!(
            view.headline(&s, Some(40.0)).unwrap(),
            "length 40 · best 40 · gap 0.00%"
        );
        assert!(view.key('b') && view.wants_best());
        assert_eq!(
            view.headline(&s, Some(44.0)).unwrap(),
            "best tour 40 · best 44 · gap 10.00%"
        );
    }
}
