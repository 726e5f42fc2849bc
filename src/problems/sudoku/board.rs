//! The Sudoku board: box borders, givens / propagated / annealed cells told apart, and the
//! cells that clash in a row or column in reverse video, with `<` / `^` marks beside the
//! rows and under the columns that still miss digits (readable without colour).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use crate::search::Sketch;
use crate::search::worker::Speed;
use color_eyre::Result;
use color_eyre::eyre::{bail, eyre};
use kiln_tui::save::{Export, Output};

use crate::anneal::Schedule;
use crate::headless::spec::{ScheduleKind, StartTemperature};
use crate::problems::sudoku::{
    self, CellKind, Puzzle, Solver, SudokuSnapshot, SudokuSpec, solver, symbol, watched_solver,
};
use kiln_tui::Theme;
use kiln_tui::TraceSlot;
use kiln_tui::{Board, BoardArea, Demo, Live, Session, Tab};

/// The Sudoku board: the grid, its clashing cells lit, the givens and learned cells apart.
pub struct SudokuView {
    n: usize,
    /// "23 givens +1 propagated", for the title bar.
    origin: String,
    /// The puzzle's "FILE:LINE", for saved files.
    source: String,
}

/// How large a grid is drawn: a cell is `2 * height` columns by `height` rows (1, 3 or 5),
/// its symbol in the middle, so a large screen gets a large board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cells {
    n: usize,
    width: usize,
    height: usize,
}

impl Cells {
    /// The largest cells whose grid fits `area`, at least the smallest.
    fn fitting(n: usize, area: Rect) -> Self {
        [5, 3]
            .into_iter()
            .map(|height| Cells::of(n, height))
            .find(|c| {
                let (w, h) = c.grid_size();
                w <= area.width && h <= area.height
            })
            .unwrap_or(Cells::of(n, 1))
    }

    /// The cells of the grid drawn in `area`, and where it is drawn; `None` if not even
    /// the smallest grid fits.
    fn placed(n: usize, area: Rect) -> Option<Placed> {
        let cells = Cells::fitting(n, area);
        let (width, height) = cells.grid_size();
        if area.width < width || area.height < height {
            return None;
        }
        Some(Placed {
            cells,
            x0: area.x + (area.width - width) / 2,
            y0: area.y + (area.height - height) / 2,
        })
    }

    fn of(n: usize, height: usize) -> Self {
        Cells {
            n,
            width: 2 * height.max(1),
            height,
        }
    }

    /// Columns from one box rule to the next: the rule, the cells and one spare column,
    /// which with the cells' own left margin centres the symbols in the box.
    fn box_width(&self) -> usize {
        1 + self.n * self.width + 1
    }

    fn box_height(&self) -> usize {
        1 + self.n * self.height
    }

    /// Width and height of the grid, the row and column marks included.
    fn grid_size(&self) -> (u16, u16) {
        let width = self.n * self.box_width() + 1 + 2;
        let height = self.n * self.box_height() + 1 + 1;
        (width as u16, height as u16)
    }

    /// The column of the first column of cell column `col`'s area, from the grid's left.
    fn cell_x(&self, col: usize) -> usize {
        (col / self.n) * self.box_width() + 1 + (col % self.n) * self.width
    }

    fn cell_y(&self, row: usize) -> usize {
        (row / self.n) * self.box_height() + 1 + (row % self.n) * self.height
    }
}

/// A grid's cells and its top-left corner on screen.
struct Placed {
    cells: Cells,
    x0: u16,
    y0: u16,
}

impl Placed {
    /// Where grid position (`x`, `y`) falls on screen.
    fn at(&self, x: usize, y: usize) -> (u16, u16) {
        (self.x0 + x as u16, self.y0 + y as u16)
    }
}

/// Width and height of the smallest grid drawn for box side `n`, marks included.
fn grid_size(n: usize) -> (u16, u16) {
    Cells::of(n, 1).grid_size()
}

impl SudokuView {
    /// A view of grids with box side `n`; `origin` goes in the title bar.
    pub fn new(n: usize, origin: String) -> Self {
        SudokuView {
            n,
            origin,
            source: String::new(),
        }
    }

    /// Names saved files and results after the puzzle at `source` ("FILE:LINE").
    pub fn from_source(self, source: &str) -> Self {
        SudokuView {
            source: source.to_string(),
            ..self
        }
    }
}

impl Board<SudokuSnapshot> for SudokuView {
    fn at_target(&self, s: &SudokuSnapshot) -> bool {
        s.is_solved()
    }

    fn min_size(&self, _: Option<&SudokuSnapshot>) -> (u16, u16) {
        grid_size(self.n)
    }

    fn energy_means(&self) -> &'static str {
        "digits missing in rows, columns; 0 = solved"
    }

    /// The origin, and which search the grid shown is from when it is not an annealer's.
    fn headline(&self, s: &SudokuSnapshot, _: Option<f64>) -> Option<String> {
        let learned = s.kinds.contains(&CellKind::Learned);
        Some(if learned {
            format!("{} · conflict learning", self.origin)
        } else {
            self.origin.clone()
        })
    }

    fn render(&self, s: &SudokuSnapshot, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let g = &s.geometry;
        let (n, side) = (g.n, g.side);
        let Some(placed) = Cells::placed(n, area) else {
            return;
        };
        let (cells, at) = (placed.cells, |x, y| placed.at(x, y));
        let height = cells.grid_size().1;
        let conflicts = s.conflicts();
        let line = Lines::new(theme.ascii);
        let (box_width, box_height) = (cells.box_width(), cells.box_height());
        // The rules: horizontal ones between bands of boxes, vertical ones between stacks.
        for y in 0..n * box_height + 1 {
            let on_rule = y % box_height == 0;
            for x in 0..n * box_width + 1 {
                let on_stack = x % box_width == 0;
                let glyph = match (on_rule, on_stack) {
                    (true, true) => line.corner(y / box_height, x / box_width, n),
                    (true, false) => line.horizontal,
                    (false, true) => line.vertical,
                    (false, false) => continue,
                };
                buf[at(x, y)].set_symbol(glyph).set_style(theme.border);
            }
        }
        let middle = (cells.width / 2, cells.height / 2);
        for row in 0..side {
            for col in 0..side {
                let cell = row * side + col;
                let style = cell_style(s.kinds[cell], conflicts[cell], theme);
                let (x, y) = (cells.cell_x(col), cells.cell_y(row));
                // A large cell is a block of its style, so a clash shows as a patch; the
                // smallest keeps the gap between symbols plain.
                let left = if cells.height == 1 { middle.0 } else { 1 };
                for dy in 0..cells.height {
                    for dx in left..cells.width {
                        buf[at(x + dx, y + dy)].set_symbol(" ").set_style(style);
                    }
                }
                let mut text = [0u8; 4];
                let glyph = symbol(s.values[cell]).encode_utf8(&mut text);
                buf[at(x + middle.0, y + middle.1)].set_symbol(glyph);
            }
            if has_repeat(&s.values[row * side..][..side]) {
                let (x, y) = (n * box_width + 1, cells.cell_y(row) + middle.1);
                buf[at(x, y)]
                    .set_symbol(line.row_mark)
                    .set_style(theme.energy);
            }
        }
        for col in 0..side {
            let column: Vec<u8> = (0..side).map(|r| s.values[r * side + col]).collect();
            if has_repeat(&column) {
                let (x, y) = (cells.cell_x(col) + middle.0, height as usize - 1);
                buf[at(x, y)]
                    .set_symbol(line.col_mark)
                    .set_style(theme.energy);
            }
        }
        let below = placed.y0 + height;
        if below < area.bottom() {
            let legend = Line::from(legend(s, theme)).centered();
            legend.render(Rect::new(area.x, below, area.width, 1), buf);
        }
    }

    /// The cells the move changed get a `>` before their symbol and the move's style.
    fn mark(
        &self,
        s: &SudokuSnapshot,
        sketch: &Sketch,
        _: bool,
        area: Rect,
        buf: &mut Buffer,
        theme: &Theme,
    ) {
        let Some(placed) = Cells::placed(s.geometry.n, area) else {
            return;
        };
        let (cells, at) = (placed.cells, |x, y| placed.at(x, y));
        let side = s.geometry.side;
        let middle = (cells.width / 2, cells.height / 2);
        for &cell in &sketch.places {
            let (row, col) = (cell as usize / side, cell as usize % side);
            let (x, y) = (cells.cell_x(col) + middle.0, cells.cell_y(row) + middle.1);
            buf[at(x - 1, y)].set_symbol(">").set_style(theme.moved);
            buf[at(x, y)].set_style(theme.moved);
        }
    }

    fn export(&self, shown: &SudokuSnapshot, best: &SudokuSnapshot) -> Option<Export> {
        Some(super::picture::export(shown, best, &self.source))
    }
}

/// Whether a row or column holds some value twice (and so misses another); empty cells (0)
/// hold none.
fn has_repeat(line: &[u8]) -> bool {
    let mut seen = 0u64;
    line.iter().filter(|&&v| v != 0).any(|&v| {
        let bit = 1u64 << v;
        let repeat = seen & bit != 0;
        seen |= bit;
        repeat
    })
}

/// The kinds of cell the grid holds, each named in its own style: which cells the puzzle
/// gave, propagation fixed, annealing or conflict learning filled.
fn legend(s: &SudokuSnapshot, theme: &Theme) -> Vec<Span<'static>> {
    let kinds = [
        (CellKind::Given, "given"),
        (CellKind::Propagated, "propagated"),
        (CellKind::Annealed, "annealed"),
        (CellKind::Learned, "learned"),
    ];
    let present = kinds.into_iter().filter(|(kind, _)| s.kinds.contains(kind));
    let mut spans = Vec::new();
    for (kind, name) in present {
        if !spans.is_empty() {
            spans.push(Span::styled(" · ", theme.dim));
        }
        spans.push(Span::styled(name, cell_style(kind, false, theme)));
    }
    spans
}

fn cell_style(kind: CellKind, conflict: bool, theme: &Theme) -> Style {
    let base = match kind {
        CellKind::Given => theme.given,
        CellKind::Propagated => theme.propagated,
        CellKind::Annealed => theme.annealed,
        CellKind::Learned => theme.learned,
    };
    if conflict {
        base.patch(theme.conflict)
    } else {
        base
    }
}

/// The glyphs of the grid lines, box-drawing or ASCII.
struct Lines {
    horizontal: &'static str,
    vertical: &'static str,
    row_mark: &'static str,
    col_mark: &'static str,
    ascii: bool,
}

impl Lines {
    fn new(ascii: bool) -> Self {
        if ascii {
            Lines {
                horizontal: "-",
                vertical: "|",
                row_mark: "<",
                col_mark: "^",
                ascii,
            }
        } else {
            Lines {
                horizontal: "─",
                vertical: "│",
                row_mark: "◂",
                col_mark: "▴",
                ascii,
            }
        }
    }

    /// The joint at band `band` (0..=n) and stack boundary `stack` (0..=n).
    fn corner(&self, band: usize, stack: usize, n: usize) -> &'static str {
        if self.ascii {
            return "+";
        }
        let top = band == 0;
        let bottom = band == n;
        let left = stack == 0;
        let right = stack == n;
        match (top, bottom, left, right) {
            (true, _, true, _) => "┌",
            (true, _, _, true) => "┐",
            (true, _, _, _) => "┬",
            (_, true, true, _) => "└",
            (_, true, _, true) => "┘",
            (_, true, _, _) => "┴",
            (_, _, true, _) => "├",
            (_, _, _, true) => "┤",
            _ => "┼",
        }
    }
}

/// A small Sudoku board for race panes: no rules, a gap between boxes, bands of boxes told
/// apart by underlining their last row; clashing cells reversed as on the full board.
pub struct SudokuThumbnail {
    n: usize,
}

impl SudokuThumbnail {
    /// A thumbnail for grids of side `n`.
    pub fn new(n: usize) -> Self {
        SudokuThumbnail { n }
    }
}

impl Board<SudokuSnapshot> for SudokuThumbnail {
    fn at_target(&self, s: &SudokuSnapshot) -> bool {
        s.is_solved()
    }

    fn min_size(&self, _: Option<&SudokuSnapshot>) -> (u16, u16) {
        let side = self.n * self.n;
        ((2 * side + self.n - 1) as u16, side as u16)
    }

    fn render(&self, s: &SudokuSnapshot, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let (n, side) = (s.geometry.n, s.geometry.side);
        let (width, height) = self.min_size(Some(s));
        if area.width < width || area.height < height {
            return;
        }
        let x0 = area.x + (area.width - width) / 2;
        let y0 = area.y + (area.height - height) / 2;
        let conflicts = s.conflicts();
        for row in 0..side {
            let band_end = row % n == n - 1 && row + 1 < side;
            for col in 0..side {
                let cell = row * side + col;
                let x = x0 + (col * 2 + col / n) as u16;
                let mut style = cell_style(s.kinds[cell], conflicts[cell], theme);
                if band_end {
                    style = style.add_modifier(ratatui::style::Modifier::UNDERLINED);
                }
                let mut text = [0u8; 4];
                buf[(x, y0 + row as u16)]
                    .set_symbol(symbol(s.values[cell]).encode_utf8(&mut text))
                    .set_style(style);
            }
        }
    }
}

/// The Sudoku tab: a list of puzzles, each solved as `kiln sudoku` would with the same
/// flags (a preset, the GA or kiln's own annealer).
pub struct SudokuDemo {
    /// The puzzles, one after another.
    pub puzzles: Vec<Puzzle>,
    /// How each is solved.
    pub spec: SudokuSpec,
    /// The seed of puzzle `i`, where a curated show chose one; the others use `spec`'s.
    pub seeds: Vec<u64>,
    /// Where `--trace` writes, if it was given.
    pub trace: TraceSlot,
    /// The pace a run starts at: `Speed::Rising` from `DEFAULT_PACE` for a puzzle opened to
    /// be watched; the show of a bare `kiln` holds `DEFAULT_PACE`, at which its seeds were
    /// chosen to solve in 10-60 s.
    pub pace: Speed,
}

/// The pace the Sudoku tab starts at, rising a rung every few seconds (`Speed::Rising`)
/// until a speed key holds it; a Sudoku race holds it.
pub(crate) const DEFAULT_PACE: u64 = 30_000;

/// How much hotter than the preset's constant temperature a lesson starts, and how much
/// colder it ends: kiln's 0.3 becomes 0.9, where a move one digit worse is taken a third
/// of the time, cooling to 0.1, where it is taken once in 20,000.
const LESSON_SPAN: f64 = 3.0;

/// A live run at `speed` (a single view or a race pane), without a budget of the user's:
/// - at a rising pace (a watched run's default), the headless run's own budget: the pace
///   reaches full speed well within it;
/// - at a lesson's pace (20 steps/s or slower), the steps of a lesson (`Run::lesson_steps`),
///   and a constant temperature turned into a cooling from `LESSON_SPAN` times hotter to
///   as many times colder over them;
/// - at a pace held, the steps its default time would take at that pace
///   (`Run::live_steps`): a minute for a 9x9. Its default time alone counts time spent
///   annealing, which a pace stretches without end: a run that never solves (the GA, on a
///   hard puzzle) would go on for hours.
pub fn paced(spec: &SudokuSpec, puzzle: &Puzzle, speed: Speed) -> Result<SudokuSpec> {
    let mut spec = spec.clone();
    let Speed::Limited(rate) = speed else {
        return Ok(spec);
    };
    if spec.run.limits.given() {
        return Ok(spec);
    }
    let config = solver(puzzle, &spec)?.plan.config;
    if let Some(steps) = spec.run.lesson_steps(speed) {
        spec.run.limits.max_steps = Some(steps);
        spec.run.lesson = true;
        let cooling = &mut spec.run.cooling;
        if config.schedule == Schedule::Constant && cooling.schedule.is_none() {
            cooling.schedule = Some(ScheduleKind::Exponential);
            cooling.t0 = Some(StartTemperature::Fixed(config.t0 * LESSON_SPAN));
            cooling.t_min = Some(config.t0 / LESSON_SPAN);
        }
    } else {
        spec.run.limits.max_steps = spec.run.live_steps(config.budget.time_limit, rate as f64);
    }
    Ok(spec)
}

/// The run of `puzzle` the view shows at `speed` (see `paced`): at any pace, conflict
/// learning (which has no moves to watch) runs flat out beside it, in a race pane as in
/// the single view; at full speed, step for step as headless.
pub fn watched(spec: &SudokuSpec, puzzle: &Puzzle, speed: Speed) -> Result<Solver> {
    let spec = paced(spec, puzzle, speed)?;
    Ok(match speed {
        Speed::Full => solver(puzzle, &spec)?,
        Speed::Limited(_) | Speed::Rising(_) => watched_solver(puzzle, &spec)?,
    })
}

impl Demo for SudokuDemo {
    fn tab(&self) -> Tab {
        Tab {
            pace: self.pace,
            ..Tab::new("Sudoku", self.puzzles.len(), DEFAULT_PACE)
        }
    }

    fn start(&self, index: usize, speed: Speed, _area: BoardArea) -> Result<Box<dyn Session>> {
        let puzzle = self
            .puzzles
            .get(index)
            .ok_or_else(|| eyre!("no puzzle {}", index + 1))?;
        let mut spec = self.spec.clone();
        if let Some(&seed) = self.seeds.get(index) {
            spec.run.seed = seed;
        }
        let solver = watched(&spec, puzzle, speed)?;
        if solver.prepared.has_no_solution() {
            bail!("{}: this puzzle has no solution", puzzle.source);
        }
        let mut origin = format!(
            "{} givens +{} propagated",
            puzzle.givens(),
            solver.prepared.propagated
        );
        if let Some(chains) = solver.chains() {
            origin = format!("{origin} · {chains}");
        }
        let view = SudokuView::new(puzzle.n, origin).from_source(&puzzle.source);
        let side = puzzle.side();
        let file = puzzle.source.rsplit('/').next().unwrap_or(&puzzle.source);
        let mut title = format!("{side}x{side} {file}");
        if let Some(preset) = self.spec.model.named {
            title = format!("{preset} · {title}");
        }
        // --output is of the one puzzle selected (the demo may also list the file's others).
        let selected = index == self.spec.model.index.map_or(0, |i| i - 1);
        let output = match sudoku::output_file(&self.spec, 1)? {
            Some(file) if selected => Some(Output {
                target: file.target,
                encode: Box::new(move |best: &SudokuSnapshot| {
                    Ok(super::picture::output(best, file.format))
                }),
            }),
            _ => None,
        };
        Ok(Box::new(
            Live::start(solver.launch(title).traced(self.trace.take()), view, speed)
                .with_output(output),
        ))
    }
}

#[cfg(test)]
mod tests {
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::style::Modifier;

    use super::*;
    use crate::problems::sudoku::{learned_4x4, swapped_4x4};
    use kiln_tui::testing::{frozen, frozen_solved};
    use kiln_tui::{App, RunState};

    #[test]
    fn the_title_names_conflict_learning_when_the_grid_is_its() {
        let view = SudokuView::new(2, "30 givens".to_string());
        let annealed = swapped_4x4();
        assert_eq!(view.headline(&annealed, None).unwrap(), "30 givens");
        let learned = learned_4x4();
        assert_eq!(
            view.headline(&learned, None).unwrap(),
            "30 givens · conflict learning"
        );
    }

    fn render(snapshot: &SudokuSnapshot, theme: &Theme) -> Buffer {
        let view = SudokuView::new(2, String::new());
        let (w, h) = view.min_size(Some(snapshot));
        let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
        view.render(snapshot, buf.area, &mut buf, theme);
        buf
    }

    #[test]
    fn draws_boxes_and_marks_rows_and_columns_missing_digits() {
        let buf = render(&swapped_4x4(), &Theme::colour(false));
        let expected = Buffer::with_lines([
            "┌─────┬─────┐  ",
            "│ 1 2 │ 3 4 │  ",
            "│ 3 4 │ 1 2 │  ",
            "├─────┼─────┤  ",
            "│ 3 1 │ 4 3 │◂ ",
            "│ 4 2 │ 2 1 │◂ ",
            "└─────┴─────┘  ",
            "  ▴ ▴          ",
        ]);
        for y in 0..8 {
            for x in 0..15 {
                assert_eq!(
                    buf[(x, y)].symbol(),
                    expected[(x, y)].symbol(),
                    "at ({x}, {y})"
                );
            }
        }
    }

    #[test]
    fn clashing_cells_are_reversed_in_both_themes() {
        for theme in [Theme::colour(false), Theme::monochrome(true)] {
            let buf = render(&swapped_4x4(), &theme);
            let reversed = |x: u16, y: u16| buf[(x, y)].modifier.contains(Modifier::REVERSED);
            // r3c1 (3 twice in column 1 and row 3) and r4c2 (2 twice in row 4).
            assert!(reversed(2, 4) && reversed(4, 5));
            // r1c1 is a given with no clash; r3c3 holds a 4 seen nowhere else in its lines.
            assert!(!reversed(2, 1) && !reversed(8, 4));
        }
    }

    #[test]
    fn cell_kinds_are_styled_apart() {
        let theme = Theme::colour(false);
        let buf = render(&swapped_4x4(), &theme);
        assert_eq!(buf[(2, 1)].fg, theme.given.fg.unwrap());
        assert_eq!(buf[(8, 1)].fg, theme.propagated.fg.unwrap());
        assert_eq!(buf[(10, 1)].fg, theme.annealed.fg.unwrap());
        // r1c2 is annealed too, but clashes: the conflict colour wins.
        assert_eq!(buf[(4, 1)].fg, theme.conflict.fg.unwrap());
    }

    #[test]
    fn learned_cells_are_styled_apart_from_annealed_ones_and_a_legend_says_which() {
        let view = SudokuView::new(2, String::new());
        let (w, h) = view.min_size(None);
        // A row to spare under the grid, and room beside it for the legend.
        let area = Rect::new(0, 0, w + 26, h + 1);
        let row = |buf: &Buffer, y: u16| -> String {
            (0..area.width).map(|x| buf[(x, y)].symbol()).collect()
        };
        for theme in [Theme::colour(false), Theme::monochrome(false)] {
            let draw = |s: &SudokuSnapshot| {
                let mut buf = Buffer::empty(area);
                view.render(s, area, &mut buf, &theme);
                buf
            };
            let annealed = draw(&swapped_4x4());
            let learned = draw(&learned_4x4());
            // r1c4, a 4 with no clash, at the grid's column 10 (the grid is centred).
            let cell = (13 + 10, 1);
            assert_eq!(annealed[cell].symbol(), "4");
            assert_eq!(learned[cell].symbol(), "4");
            assert_ne!(annealed[cell].style(), learned[cell].style());
            assert_eq!(row(&annealed, h).trim(), "given · propagated · annealed");
            assert_eq!(row(&learned, h).trim(), "given · propagated · learned");
            let word = row(&learned, h).find("learned").unwrap();
            let x = row(&learned, h)[..word].chars().count() as u16;
            assert_eq!(learned[(x, h)].style(), learned[cell].style());
        }
    }

    #[test]
    fn the_thumbnail_is_compact_and_still_shows_clashes() {
        let view = SudokuThumbnail::new(2);
        let snapshot = swapped_4x4();
        assert_eq!(view.min_size(Some(&snapshot)), (9, 4));
        let mut buf = Buffer::empty(Rect::new(0, 0, 9, 4));
        view.render(&snapshot, buf.area, &mut buf, &Theme::monochrome(true));
        let lines: Vec<String> = (0..4)
            .map(|y| (0..9).map(|x| buf[(x, y)].symbol()).collect())
            .collect();
        assert_eq!(lines, ["1 2  3 4 ", "3 4  1 2 ", "3 1  4 3 ", "4 2  2 1 "]);
        assert!(buf[(0, 2)].modifier.contains(Modifier::REVERSED));
        assert!(buf[(0, 1)].modifier.contains(Modifier::UNDERLINED));
        assert!(!buf[(0, 3)].modifier.contains(Modifier::UNDERLINED));
    }

    #[test]
    fn ascii_mode_uses_no_box_drawing() {
        let buf = render(&swapped_4x4(), &Theme::monochrome(true));
        let text: String = buf.content.iter().map(|c| c.symbol()).collect();
        assert!(text.is_ascii(), "{text}");
        assert!(text.starts_with("+-----+-----+"));
    }

    /// A demo whose runs are frozen in `.0`, on a solved board when `.1`: the app as it
    /// draws a Sudoku board.
    struct FrozenDemo(RunState, bool);

    impl Demo for FrozenDemo {
        fn tab(&self) -> Tab {
            Tab::new("Sudoku", 3, 1_000)
        }
        fn start(&self, _: usize, _: Speed, _: BoardArea) -> Result<Box<dyn Session>> {
            let view = SudokuView::new(3, "27 givens +0 propagated".to_string());
            Ok(if self.1 {
                Box::new(frozen_solved(self.0.clone(), view))
            } else {
                Box::new(frozen(self.0.clone(), view))
            })
        }
    }

    fn screen(app: &App, width: u16, height: u16) -> Vec<String> {
        kiln_tui::drawn(app, width, height)
    }

    fn app(state: RunState) -> App {
        App::new(
            vec![Box::new(FrozenDemo(state, false))],
            0,
            0,
            None,
            Theme::colour(false),
            Rect::new(0, 0, 80, 24),
            false,
        )
        .unwrap()
    }

    /// The lines of the screen but the wall-clock one, which moves with the test machine.
    fn steady(lines: Vec<String>) -> Vec<String> {
        lines
            .into_iter()
            .filter(|l| !l.contains("elapsed"))
            .collect()
    }

    #[test]
    fn full_screen_at_80x24() {
        let expected = [
            " kiln 1/3 running · 27 givens +0 propagated · 9x9 frozen.txt:1                  ",
            "                                                │Energy 4  best 4               ",
            "                                                │█                              ",
            "                                                │█▃                             ",
            "                                                │██▅▁                           ",
            "          ┌───────┬───────┬───────┐             │Temperature 0.3000             ",
            "          │ 2 1 3 │ 4 5 6 │ 7 8 9 │             │                               ",
            "          │ 4 5 6 │ 7 8 9 │ 1 2 3 │             │▄▄▄▄                           ",
            "          │ 7 8 9 │ 1 2 3 │ 4 5 6 │             │████                           ",
            "          ├───────┼───────┼───────┤             │                               ",
            "          │ 2 1 4 │ 3 6 5 │ 8 9 7 │             │Progress █████████████░░░░  75%",
            "          │ 3 6 5 │ 8 9 7 │ 2 1 4 │             │T (log)  █████████████████ 100%",
            "          │ 8 9 7 │ 2 1 4 │ 3 6 5 │             │Accepted ████░░░░░░░░░░░░░  25%",
            "          ├───────┼───────┼───────┤             │                               ",
            "          │ 5 3 1 │ 6 4 2 │ 9 7 8 │             │phase      annealing           ",
            "          │ 6 4 2 │ 9 7 8 │ 5 3 1 │             │iteration  3,000,000           ",
            "          │ 9 7 8 │ 5 3 1 │ 6 4 2 │             │iter/s     10.0M               ",
            "          └───────┴───────┴───────┘             │best E     4                   ",
            "            ▴ ▴                                 │restarts   2                   ",
            "                given · annealed                │reheats    1                   ",
            "                                                │speed      1.0k/s              ",
            "                                                │                               ",
            " space pause r reheat + - speed n p next e save ? help                          ",
        ];
        assert_eq!(steady(screen(&app(RunState::Running), 80, 24)), expected);
    }

    #[test]
    fn full_screen_at_120x40() {
        let expected = [
            " kiln 1/3 running · 27 givens +0 propagated · 9x9 frozen.txt:1                                                          ",
            "                                                                              │Energy 4  best 4                         ",
            "                                                                              │█                                        ",
            "                                                                              │█                                        ",
            "       ┌───────────────────┬───────────────────┬───────────────────┐          │█                                        ",
            "       │                   │                   │                   │          │█                                        ",
            "       │   2     1     3   │   4     5     6   │   7     8     9   │          │█                                        ",
            "       │                   │                   │                   │          │█                                        ",
            "       │                   │                   │                   │          │█▇                                       ",
            "       │   4     5     6   │   7     8     9   │   1     2     3   │          │██                                       ",
            "       │                   │                   │                   │          │██                                       ",
            "       │                   │                   │                   │          │██▇                                      ",
            "       │   7     8     9   │   1     2     3   │   4     5     6   │          │███▁                                     ",
            "       │                   │                   │                   │          │Temperature 0.3000                       ",
            "       ├───────────────────┼───────────────────┼───────────────────┤          │                                         ",
            "       │                   │                   │                   │          │                                         ",
            "       │   2     1     4   │   3     6     5   │   8     9     7   │          │                                         ",
            "       │                   │                   │                   │          │                                         ",
            "       │                   │                   │                   │          │                                         ",
            "       │   3     6     5   │   8     9     7   │   2     1     4   │          │▄▄▄▄                                     ",
            "       │                   │                   │                   │          │████                                     ",
            "       │                   │                   │                   │          │████                                     ",
            "       │   8     9     7   │   2     1     4   │   3     6     5   │          │████                                     ",
            "       │                   │                   │                   │          │████                                     ",
            "       ├───────────────────┼───────────────────┼───────────────────┤          │████                                     ",
            "       │                   │                   │                   │          │                                         ",
            "       │   5     3     1   │   6     4     2   │   9     7     8   │          │Progress ████████████████████░░░░░░░  75%",
            "       │                   │                   │                   │          │T (log)  ███████████████████████████ 100%",
            "       │                   │                   │                   │          │Accepted ███████░░░░░░░░░░░░░░░░░░░░  25%",
            "       │   6     4     2   │   9     7     8   │   5     3     1   │          │                                         ",
            "       │                   │                   │                   │          │phase      annealing                     ",
            "       │                   │                   │                   │          │iteration  3,000,000                     ",
            "       │   9     7     8   │   5     3     1   │   6     4     2   │          │iter/s     10.0M                         ",
            "       │                   │                   │                   │          │best E     4                             ",
            "       └───────────────────┴───────────────────┴───────────────────┘          │restarts   2                             ",
            "           ▴     ▴                                                            │reheats    1                             ",
            "                                                                              │speed      1.0k/s                        ",
            "                                                                              │                                         ",
            " space pause r reheat + - speed n p next e save ? help                                                                  ",
        ];
        assert_eq!(steady(screen(&app(RunState::Running), 120, 40)), expected);
    }

    /// Opened to be watched, without `--speed`: a minimal 25x25 that annealing leaves
    /// unsolved for minutes is solved by conflict learning running flat out beside the
    /// box swaps, which the view still shows at a pace that can be followed.
    #[test]
    fn a_watched_25x25_is_solved_by_conflict_learning_beside_the_chain_shown() {
        use crate::problems::registry::BuiltIn;
        use kiln_tui::Tui;
        let file = ["puzzles/sudoku/minimal25.txt", "--index", "8"];
        let startup = crate::flags::parse::<sudoku::SudokuArgs>(&file)
            .live()
            .unwrap();
        let screen = Rect::new(0, 0, 100, 36);
        let theme = Theme::monochrome(true);
        let (tab, index) = (startup.tab, startup.index);
        let mut app = App::new(startup.demos, tab, index, None, theme, screen, false).unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        let lines = loop {
            app.poll();
            let lines = kiln_tui::drawn(&app, 100, 36);
            if lines[0].contains("SOLVED") {
                break lines;
            }
            let text = lines.join("\n");
            assert!(std::time::Instant::now() < deadline, "{text}");
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let text = lines.join("\n");
        assert!(lines[0].contains("conflict learning"), "{text}");
        assert!(
            app.speed().rate().is_some_and(|rate| rate <= 2_000_000),
            "{:?}\n{text}",
            app.speed()
        );
    }

    #[test]
    fn a_tiny_terminal_gets_a_message_not_a_panic() {
        let lines = screen(&app(RunState::Running), 40, 10);
        let text = lines.join("\n");
        assert!(text.contains("terminal too small (need 60x20)"), "{text}");
        let tiny = screen(&app(RunState::Running), 10, 5).join("\n");
        assert!(
            tiny.contains("need 60x20") && tiny.contains("q quits"),
            "{tiny}"
        );
        for (w, h) in [(1, 1), (0, 0), (59, 19), (59, 20), (3, 40)] {
            screen(&app(RunState::Running), w, h);
        }
    }
}
