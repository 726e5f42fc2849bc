//! The TSP board: the tour and its cities on a braille canvas (plain characters with
//! `--ascii`), scaled to fit with the instance's own aspect ratio; the reference (optimal)
//! tour dotted beneath when there is one, and a one-line legend under the canvas.

use std::sync::Arc;

use color_eyre::Result;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line as TextLine, Span};
use ratatui::widgets::Widget;
use ratatui::widgets::canvas::{Canvas, Line, Painter, Shape};

use crate::problems::tsp::{Cost, Loaded, Point, Search, TspSnapshot, TspSpec, build};
use crate::search::Sketch;
use crate::search::worker::Speed;
use kiln_tui::Theme;
use kiln_tui::TraceSlot;
use kiln_tui::save::{Export, Output};
use kiln_tui::{Board, BoardArea, BoardKey, Demo, Live, Session, Tab};

/// The TSP board: the cities and the tour on a braille canvas.
pub struct TspView {
    loaded: Arc<Loaded>,
    /// The energy is the tour length (not its squares), so the best energy is a length.
    energy_is_length: bool,
    best: bool,
    reference: bool,
    /// Chains run side by side: the tour drawn is the leading one's.
    chains: usize,
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

/// How each mark is drawn on the canvas, and the legend's sample of it (the sample is what
/// the mark looks like on the board, so the legend needs no colour to be read).
struct Marks {
    tour: Marker,
    reference: Marker,
    city: Marker,
    /// Grid points per cell (x, y) of the city marker: a city lights its whole cell.
    city_cell: (usize, usize),
    tour_sample: &'static str,
    reference_sample: &'static str,
    city_sample: &'static str,
}

/// A city is a full braille cell, on the same grid as the tour so it sits exactly where
/// the tour's lines meet, and unlike any cell a line lights.
const BRAILLE_MARKS: Marks = Marks {
    tour: Marker::Braille,
    reference: Marker::Braille,
    city: Marker::Braille,
    city_cell: (2, 4),
    tour_sample: "⠒⠒⠒",
    reference_sample: "⠂⠂⠂",
    city_sample: "⣿",
};

/// A character canvas is too coarse for a dotted line to read as one, so the reference
/// tour also gets a character of its own.
const ASCII_MARKS: Marks = Marks {
    tour: Marker::Custom('.'),
    reference: Marker::Custom(':'),
    city: Marker::Custom('o'),
    city_cell: (1, 1),
    tour_sample: "...",
    reference_sample: ": :",
    city_sample: "o",
};

/// Board cells per city needed for cities to get a marker of their own: denser, the
/// markers would cover the tour. Every city is on the tour, so without markers each is
/// still a lit dot.
const CELLS_PER_MARKED_CITY: u32 = 8;

fn cities_marked(cities: usize, canvas: Rect) -> bool {
    cities as u64 * CELLS_PER_MARKED_CITY as u64 <= canvas.area() as u64
}

/// The reference tour lights one grid point in this many along its segments.
const DOT_SPACING: usize = 2;

/// A line lit at every `DOT_SPACING`th grid point: the reference tour, told from ours
/// (solid) by its texture even where colours are not shown.
struct DottedLine {
    from: Point,
    to: Point,
    color: Color,
}

impl Shape for DottedLine {
    fn draw(&self, painter: &mut Painter) {
        // The bounds are fitted around the cities, so no segment needs clipping.
        let (Some(a), Some(b)) = (
            painter.get_point(self.from.x, self.from.y),
            painter.get_point(self.to.x, self.to.y),
        ) else {
            return;
        };
        // One step per grid point along the longer axis, as a solid line would light.
        let steps = a.0.abs_diff(b.0).max(a.1.abs_diff(b.1)).max(1);
        for i in (0..=steps).step_by(DOT_SPACING) {
            let t = i as f64 / steps as f64;
            let along = |p: usize, q: usize| (p as f64 + t * (q as f64 - p as f64)).round();
            painter.paint(
                along(a.0, b.0) as usize,
                along(a.1, b.1) as usize,
                self.color,
            );
        }
    }
}

/// Lights the whole cell each city falls in (cells of `cell` grid points).
struct CityMarks<'a> {
    cities: &'a [Point],
    cell: (usize, usize),
    color: Color,
}

impl Shape for CityMarks<'_> {
    fn draw(&self, painter: &mut Painter) {
        let (w, h) = self.cell;
        for p in self.cities {
            let Some((x, y)) = painter.get_point(p.x, p.y) else {
                continue;
            };
            let (left, top) = (x - x % w, y - y % h);
            for (dx, dy) in (0..w).flat_map(|dx| (0..h).map(move |dy| (dx, dy))) {
                painter.paint(left + dx, top + dy, self.color);
            }
        }
    }
}

/// The segments of a closed tour, the last one back to the start.
fn segments<'a>(cities: &'a [Point], tour: &'a [u32]) -> impl Iterator<Item = (Point, Point)> + 'a {
    let next = tour.iter().cycle().skip(1);
    tour.iter()
        .zip(next)
        .map(|(&a, &b)| (cities[a as usize], cities[b as usize]))
}

/// The canvas a tour is drawn on (the area less its legend row) and its bounds.
fn canvas_of(s: &TspSnapshot, area: Rect) -> (Rect, [f64; 2], [f64; 2]) {
    let canvas = Rect {
        height: area.height.saturating_sub(1),
        ..area
    };
    let cities = &s.instance.cities;
    let (x_bounds, y_bounds) = fitted_bounds(cities.iter().map(|p| (p.x, p.y)), canvas);
    (canvas, x_bounds, y_bounds)
}

fn colour(style: Style) -> Color {
    style.fg.unwrap_or(Color::Reset)
}

/// A legend entry: a sample of a mark, in the mark's style, and what it stands for.
struct Entry {
    sample: &'static str,
    word: String,
    style: Style,
}

/// The one-line key to the marks: whole entries only, as many as fit in `width`.
fn legend(entries: &[Entry], width: u16, theme: &Theme) -> TextLine<'static> {
    let mut spans = Vec::new();
    let mut used = 0;
    for e in entries {
        let separator = if spans.is_empty() { "" } else { "  " };
        let entry = [
            Span::raw(separator),
            Span::styled(e.sample, e.style),
            Span::styled(format!(" {}", e.word), theme.dim),
        ];
        used += entry.iter().map(Span::width).sum::<usize>();
        if used > width as usize {
            break;
        }
        spans.extend(entry);
    }
    TextLine::from(spans)
}

/// The legend's entries for what the board shows: the reference tour and the city markers
/// only when they are drawn; with several chains, the tour drawn is the leading one's (the
/// chain with the shortest tour so far).
fn legend_entries(
    marks: &Marks,
    (reference, cities): (bool, bool),
    chains: usize,
    theme: &Theme,
) -> Vec<Entry> {
    let entry = |sample, word, style| Entry {
        sample,
        word,
        style,
    };
    let tour = match chains {
        1 => "tour".to_string(),
        _ => format!("leading tour of {chains}"),
    };
    let mut entries = vec![entry(marks.tour_sample, tour, theme.temperature)];
    if reference {
        entries.push(entry(
            marks.reference_sample,
            "optimal".into(),
            theme.reference,
        ));
    }
    if cities {
        entries.push(entry(marks.city_sample, "city".into(), theme.given));
    }
    entries
}

impl Board<TspSnapshot> for TspView {
    /// Small enough for a race's four panes at 80x24 (each 38x9 inside its border, 22
    /// columns of it the board's): a 7-row canvas still shows a tour's shape.
    fn min_size(&self, _: Option<&TspSnapshot>) -> (u16, u16) {
        (20, 8)
    }

    fn render(&self, s: &TspSnapshot, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let cities = &s.instance.cities;
        let (canvas, x_bounds, y_bounds) = canvas_of(s, area);
        let marks = if theme.ascii {
            &ASCII_MARKS
        } else {
            &BRAILLE_MARKS
        };
        let reference = self.loaded.reference.as_ref().filter(|_| self.reference);
        let marked = cities_marked(cities.len(), canvas);
        Canvas::default()
            .x_bounds(x_bounds)
            .y_bounds(y_bounds)
            .paint(|ctx| {
                if let Some(reference) = reference {
                    ctx.marker(marks.reference);
                    let color = colour(theme.reference);
                    for (from, to) in segments(cities, reference) {
                        ctx.draw(&DottedLine { from, to, color });
                    }
                }
                ctx.marker(marks.tour);
                for (p, q) in segments(cities, &s.tour) {
                    ctx.draw(&Line::new(p.x, p.y, q.x, q.y, colour(theme.temperature)));
                }
                if marked {
                    ctx.marker(marks.city);
                    ctx.draw(&CityMarks {
                        cities,
                        cell: marks.city_cell,
                        color: colour(theme.given),
                    });
                }
            })
            .render(canvas, buf);
        let entries = legend_entries(marks, (reference.is_some(), marked), self.chains, theme);
        let key = legend(&entries, area.width, theme);
        buf.set_line(area.x, canvas.bottom(), &key, area.width);
    }

    /// The edges the move put in drawn solid over the tour, those it took out dotted (in
    /// ASCII: `#` and `x`).
    fn mark(
        &self,
        s: &TspSnapshot,
        sketch: &Sketch,
        _: bool,
        area: Rect,
        buf: &mut Buffer,
        theme: &Theme,
    ) {
        let cities = &s.instance.cities;
        let (canvas, x_bounds, y_bounds) = canvas_of(s, area);
        let (dropped, added) = if theme.ascii {
            (Marker::Custom('x'), Marker::Custom('#'))
        } else {
            (Marker::Braille, Marker::Braille)
        };
        let city = |c: u32| cities[c as usize];
        Canvas::default()
            .x_bounds(x_bounds)
            .y_bounds(y_bounds)
            .paint(|ctx| {
                ctx.marker(dropped);
                for &(a, b) in &sketch.removed {
                    let (from, to, color) = (city(a), city(b), colour(theme.dropped));
                    ctx.draw(&DottedLine { from, to, color });
                }
                ctx.layer();
                ctx.marker(added);
                for &(a, b) in &sketch.added {
                    let (p, q) = (city(a), city(b));
                    ctx.draw(&Line::new(p.x, p.y, q.x, q.y, colour(theme.moved)));
                }
            })
            .render(canvas, buf);
    }

    /// The gap first, as it is the number that says how good the run is, then the best
    /// length it is the gap of; short, so the whole title fits in 80 columns.
    fn headline(&self, s: &TspSnapshot, best_energy: Option<f64>) -> Option<String> {
        let length = s.length();
        let best = best_energy
            .filter(|_| self.energy_is_length)
            .map(|b| b.round() as u64);
        let mut parts = Vec::new();
        if let Some(gap) = self.loaded.gap(best.unwrap_or(length)) {
            parts.push(format!("gap {gap:.2}%"));
        }
        if self.best {
            parts.push(format!("best tour {length}"));
        } else {
            parts.extend(best.map(|b| format!("best {b}")));
            parts.push(format!("len {length}"));
        }
        Some(parts.join(" · "))
    }

    fn energy_means(&self) -> &'static str {
        if self.energy_is_length {
            "the length of the tour"
        } else {
            "the tour's squared edge lengths, summed"
        }
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

    fn best_at_end(&self) -> bool {
        true
    }

    fn target_word(&self) -> &'static str {
        "OPTIMAL"
    }

    fn export(&self, shown: &TspSnapshot, best: &TspSnapshot) -> Option<Export> {
        let reference = self.loaded.reference.as_deref().filter(|_| self.reference);
        Some(super::picture::export(shown, best, reference))
    }
}

/// The TSP tab: one run per entry of `n`/`p`.
pub struct TspDemo {
    /// The runs, one after another.
    pub runs: Vec<TspSpec>,
    /// Where `--trace` writes, if it was given.
    pub trace: TraceSlot,
}

/// Steps per second the headless default time budget stands for (see `Run::live_steps`).
const TYPICAL_RATE: f64 = 20e6;
/// The pace the TSP tab starts at: a tour's budget is about 20M steps, so at 1M steps/s it
/// untangles in 20 seconds.
pub(crate) const DEFAULT_PACE: u64 = 1_000_000;

impl Demo for TspDemo {
    fn tab(&self) -> Tab {
        Tab::new("TSP", self.runs.len(), DEFAULT_PACE)
    }

    fn start(&self, index: usize, speed: Speed, _area: BoardArea) -> Result<Box<dyn Session>> {
        let spec = &self.runs[index % self.runs.len()];
        let mut setup = build(spec)?;
        let default_time = setup.config.budget.time_limit;
        // A lesson is about annealing: its whole budget anneals one chain (and the panel
        // says so), where at a watching pace the local search takes the end of the run.
        let lesson_spec;
        let mut spec = spec;
        if let Some(steps) = spec.run.lesson_steps(speed) {
            setup.config.lesson(steps);
            let mut annealing = spec.clone();
            annealing.model.search = Search::Anneal;
            annealing.model.threads = Some(1);
            lesson_spec = annealing;
            spec = &lesson_spec;
        } else if let Some(steps) = spec.run.live_steps(default_time, TYPICAL_RATE) {
            setup.config.budget.max_steps = Some(steps);
            setup.config.budget.time_limit = None;
        }
        let (loaded, launch) = setup.launch(spec, std::time::Instant::now());
        let view = TspView {
            loaded: Arc::new(loaded),
            energy_is_length: spec.model.cost == Cost::Euclidean,
            best: false,
            reference: true,
            chains: launch.search.chains(),
        };
        let output = spec.output_file()?.map(|file| {
            let loaded = Arc::clone(&view.loaded);
            let encode: kiln_tui::save::Encode<TspSnapshot> = Box::new(move |best| {
                Ok(super::picture::output(
                    best,
                    loaded.reference.as_deref(),
                    file.format,
                ))
            });
            Output {
                target: file.target,
                encode,
            }
        });
        Ok(Box::new(
            Live::start(launch.traced(self.trace.take()), view, speed).with_output(output),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::tsp::setup::{BUILT_IN, BUILT_IN_TOUR, known_optimum};
    use crate::problems::tsp::{Instance, Metric, tour_file, tsplib};

    fn instance_of(name: &str, points: impl IntoIterator<Item = (f64, f64)>) -> Arc<Instance> {
        Arc::new(Instance {
            name: name.into(),
            comment: String::new(),
            metric: Metric::Euc2d,
            cities: points.into_iter().map(|(x, y)| Point { x, y }).collect(),
            labels: None,
        })
    }

    fn view_of(
        instance: &Arc<Instance>,
        optimum: Option<u64>,
        reference: Option<Vec<u32>>,
    ) -> TspView {
        let loaded = Loaded {
            instance: Arc::clone(instance),
            source: instance.name.clone(),
            optimum,
            reference,
        };
        TspView {
            loaded: Arc::new(loaded),
            energy_is_length: true,
            best: false,
            reference: true,
            chains: 1,
        }
    }

    /// Four cities on the corners of a 10x10 square, toured around it, with the crossing
    /// tour as the (hidden) reference.
    fn square() -> (TspView, TspSnapshot) {
        let corners = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)];
        let instance = instance_of("square", corners);
        let mut view = view_of(&instance, Some(40), Some(vec![0, 2, 1, 3]));
        view.reference = false;
        let tour = vec![0, 1, 2, 3];
        (view, TspSnapshot { instance, tour })
    }

    /// berlin52 toured in file order, with its optimal tour as the reference.
    fn berlin52() -> (TspView, TspSnapshot) {
        let instance = Arc::new(tsplib::parse(BUILT_IN, "berlin52").unwrap());
        let optimal = tour_file::parse(BUILT_IN_TOUR, "berlin52", instance.len()).unwrap();
        let view = view_of(&instance, known_optimum("berlin52"), Some(optimal));
        let tour = (0..instance.len() as u32).collect();
        (view, TspSnapshot { instance, tour })
    }

    fn render(view: &TspView, s: &TspSnapshot, theme: &Theme, (w, h): (u16, u16)) -> Vec<String> {
        let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
        view.render(s, buf.area, &mut buf, theme);
        (0..h)
            .map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect())
            .collect()
    }

    /// Braille dots lit in `text`.
    fn dots(text: &str) -> u32 {
        text.chars()
            .filter(|c| ('\u{2800}'..='\u{28ff}').contains(c))
            .map(|c| (c as u32 - 0x2800).count_ones())
            .sum()
    }

    /// The cell a city is drawn in, mapped as the canvas maps points (2x4 dots a cell).
    fn cell_of(p: Point, s: &TspSnapshot, canvas: Rect) -> (usize, usize) {
        let ([left, right], [bottom, top]) =
            fitted_bounds(s.instance.cities.iter().map(|p| (p.x, p.y)), canvas);
        let (dots_x, dots_y) = (2.0 * canvas.width as f64, 4.0 * canvas.height as f64);
        let x = ((p.x - left) * (dots_x - 1.0) / (right - left)).round() as usize;
        let y = ((top - p.y) * (dots_y - 1.0) / (top - bottom)).round() as usize;
        (x / 2, y / 4)
    }

    #[test]
    fn draws_the_tour_square_and_centred() {
        let (view, s) = square();
        let lines = render(&view, &s, &Theme::colour(false), (12, 7));
        // A square of 10 units on a 12x6 canvas (12 units wide, 12 tall) above the legend:
        // the outline touches the first and last canvas rows and leaves the middle empty.
        assert!(lines[0].trim() != "" && lines[5].trim() != "", "{lines:#?}");
        assert_eq!(
            lines[2].chars().filter(|c| *c != ' ').count(),
            2,
            "{lines:#?}"
        );
        assert!(lines.iter().all(|l| l.chars().count() == 12));
    }

    #[test]
    fn cities_are_marked_where_they_are() {
        let (view, s) = square();
        let lines = render(&view, &s, &Theme::colour(false), (12, 7));
        let marked: Vec<(usize, usize)> = lines[..6]
            .iter()
            .enumerate()
            .flat_map(|(y, l)| {
                l.chars()
                    .enumerate()
                    .filter(|(_, c)| *c == '⣿')
                    .map(move |(x, _)| (x, y))
            })
            .collect();
        assert_eq!(marked, [(0, 0), (11, 0), (0, 5), (11, 5)], "{lines:#?}");
    }

    #[test]
    fn every_berlin52_city_is_marked() {
        let (view, s) = berlin52();
        let lines = render(&view, &s, &Theme::colour(false), (48, 22));
        let canvas = Rect::new(0, 0, 48, 21);
        for &p in s.instance.cities.iter() {
            let (x, y) = cell_of(p, &s, canvas);
            assert_eq!(
                lines[y].chars().nth(x),
                Some('⣿'),
                "city at {p:?}\n{}",
                lines.join("\n")
            );
        }
    }

    /// 1000 cities on a 40x25 grid, toured row by row: no two rows of it share a cell row
    /// of dots, so no cell is full unless a city marks it.
    #[test]
    fn dense_cities_are_left_as_dots_of_the_tour() {
        let grid = (0..1000).map(|i| ((i % 40) as f64, (i / 40) as f64));
        let instance = instance_of("grid", grid);
        let view = view_of(&instance, None, None);
        let boustrophedon =
            |r: u32| (0..40).map(move |c| 40 * r + if r.is_multiple_of(2) { c } else { 39 - c });
        let tour = (0..25).flat_map(boustrophedon);
        let s = TspSnapshot {
            instance,
            tour: tour.collect(),
        };
        let lines = render(&view, &s, &Theme::colour(false), (48, 22));
        let text = lines.concat();
        assert!(!text.contains('⣿') && !text.contains("city"), "{lines:#?}");
        assert!(dots(&text) > 1000, "the tour is drawn: {lines:#?}");
    }

    #[test]
    fn the_reference_tour_is_dotted_in_monochrome() {
        let (mut view, mut s) = square();
        let theme = Theme::monochrome(false);
        // Dots inside the square, off its sides: there only the diagonals of the crossing
        // tour 0-2-1-3 pass, drawn as ours (solid) or as the reference (dotted).
        let inside = |lines: &[String]| -> u32 {
            lines[1..5]
                .iter()
                .map(|l| dots(&l.chars().skip(1).take(10).collect::<String>()))
                .sum()
        };
        assert!(view.key('o'));
        let dotted = inside(&render(&view, &s, &theme, (24, 13)));
        s.tour = vec![0, 2, 1, 3];
        assert!(view.key('o'));
        let solid = inside(&render(&view, &s, &theme, (24, 13)));
        assert!(
            dotted > 0 && 3 * dotted <= 2 * solid,
            "{dotted} dots vs {solid}"
        );
    }

    #[test]
    fn the_reference_tour_crosses_the_middle() {
        let (mut view, s) = square();
        let without = render(&view, &s, &Theme::colour(false), (12, 7));
        assert!(view.key('o'));
        let with = render(&view, &s, &Theme::colour(false), (12, 7));
        assert_ne!(
            without[2], with[2],
            "the diagonals add dots inside the square"
        );
    }

    #[test]
    fn the_legend_names_what_is_drawn_and_fits_48_columns() {
        let (mut view, s) = berlin52();
        let lines = render(&view, &s, &Theme::colour(false), (48, 22));
        let legend = lines[21].trim_end();
        assert_eq!(legend, "⠒⠒⠒ tour  ⠂⠂⠂ optimal  ⣿ city");
        assert!(lines[..21].iter().all(|l| !l.contains("tour")));
        assert!(view.key('o'));
        let lines = render(&view, &s, &Theme::colour(false), (48, 22));
        assert_eq!(lines[21].trim_end(), "⠒⠒⠒ tour  ⣿ city");
    }

    #[test]
    fn with_chains_the_legend_says_whose_tour_is_drawn() {
        let (mut view, s) = berlin52();
        view.chains = 2;
        let lines = render(&view, &s, &Theme::colour(false), (48, 22));
        assert_eq!(
            lines[21].trim_end(),
            "⠒⠒⠒ leading tour of 2  ⠂⠂⠂ optimal  ⣿ city"
        );
    }

    #[test]
    fn a_narrow_legend_keeps_whole_entries() {
        let (view, s) = berlin52();
        let lines = render(&view, &s, &Theme::colour(false), (20, 10));
        assert_eq!(lines[9].trim_end(), "⠒⠒⠒ tour");
    }

    #[test]
    fn ascii_mode_draws_plain_characters() {
        let (mut view, s) = square();
        assert!(view.key('o'));
        let lines = render(&view, &s, &Theme::monochrome(true), (36, 13));
        assert!(lines.concat().is_ascii(), "{lines:#?}");
        let canvas = lines[..12].concat();
        assert_eq!(canvas.matches('o').count(), 4, "{lines:#?}");
        assert!(canvas.contains('.') && canvas.contains(':'), "{lines:#?}");
        assert_eq!(lines[12].trim_end(), "... tour  : : optimal  o city");
    }

    #[test]
    fn headline_puts_the_gap_in_percent_first() {
        let (mut view, s) = square();
        assert_eq!(
            view.headline(&s, Some(40.0)).unwrap(),
            "gap 0.00% · best 40 · len 40"
        );
        assert!(view.key('b') && view.wants_best());
        assert_eq!(
            view.headline(&s, Some(40.0)).unwrap(),
            "gap 0.00% · best tour 40"
        );
    }

    #[test]
    fn headline_without_a_best_gives_the_gap_of_the_tour() {
        let (mut view, s) = square();
        view.energy_is_length = false;
        assert_eq!(
            view.headline(&s, Some(1600.0)).unwrap(),
            "gap 0.00% · len 40"
        );
    }

    /// The title bar at 80 columns has about 40 left after " kiln running · berlin52 (52
    /// cities) · ".
    #[test]
    fn a_berlin52_headline_fits_an_80_column_title() {
        let (view, s) = berlin52();
        let line = view.headline(&s, Some(7542.0)).unwrap();
        assert!(
            line.starts_with("gap 0.00%") && line.chars().count() <= 40,
            "{line}"
        );
    }
}
