//! The Sudoku board: box borders, givens / propagated / annealed cells told apart, and the
//! cells that clash in a row or column in reverse video, with `<` / `^` marks beside the
//! rows and under the columns that still miss digits (readable without colour).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

use crate::anneal::worker::Speed;
use crate::export::{self, Export};
use color_eyre::eyre::{bail, eyre};

use crate::problems::sudoku::{
    CellKind, Prepared, Puzzle, SudokuArgs, SudokuSearch, SudokuSnapshot, solver, symbol,
};
use crate::ui::history::History;
use crate::ui::session::final_temperature;
use crate::ui::session::{BoardArea, BoardView, Demo, Live, Session};
use crate::ui::theme::Theme;

pub struct SudokuView {
    n: usize,
    /// "23 givens +1 propagated", for the title bar.
    origin: String,
    /// The puzzle's "FILE:LINE", for saved files.
    source: String,
}

/// Width and height of the grid drawn for box side `n`, marks included.
fn grid_size(n: usize) -> (u16, u16) {
    let width = 1 + n * (2 * n + 2) + 2;
    let height = 1 + n * (n + 1) + 1;
    (width as u16, height as u16)
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

impl BoardView<SudokuSnapshot> for SudokuView {
    fn min_size(&self, _: Option<&SudokuSnapshot>) -> (u16, u16) {
        grid_size(self.n)
    }

    fn floor(&self) -> Option<f64> {
        Some(0.0)
    }

    fn headline(&self, _: &SudokuSnapshot, _: Option<f64>) -> Option<String> {
        Some(self.origin.clone())
    }

    fn render(&self, s: &SudokuSnapshot, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let g = &s.geometry;
        let (n, side) = (g.n, g.side);
        let (width, height) = grid_size(n);
        if area.width < width || area.height < height {
            return;
        }
        let x0 = area.x + (area.width - width) / 2;
        let y0 = area.y + (area.height - height) / 2;
        let conflicts = s.conflicts();
        let row_bad: Vec<bool> = (0..side)
            .map(|r| has_repeat(&s.values[r * side..][..side]))
            .collect();
        let col_bad: Vec<bool> = (0..side)
            .map(|c| {
                has_repeat(
                    &(0..side)
                        .map(|r| s.values[r * side + c])
                        .collect::<Vec<_>>(),
                )
            })
            .collect();
        let line = Lines::new(theme.ascii);
        let box_width = 2 * n + 2;
        // Horizontal rules between bands of boxes.
        for band in 0..=n {
            let y = y0 + (band * (n + 1)) as u16;
            for stack in 0..n {
                let x = x0 + (stack * box_width) as u16;
                let corner = line.corner(band, stack, n);
                buf[(x, y)].set_symbol(corner).set_style(theme.border);
                for dx in 1..box_width {
                    buf[(x + dx as u16, y)]
                        .set_symbol(line.horizontal)
                        .set_style(theme.border);
                }
            }
            let x = x0 + (n * box_width) as u16;
            buf[(x, y)]
                .set_symbol(line.corner(band, n, n))
                .set_style(theme.border);
        }
        for (row, &bad) in row_bad.iter().enumerate() {
            let y = y0 + (1 + row + row / n) as u16;
            for stack in 0..=n {
                let x = x0 + (stack * box_width) as u16;
                buf[(x, y)]
                    .set_symbol(line.vertical)
                    .set_style(theme.border);
            }
            for col in 0..side {
                let cell = row * side + col;
                let x = x0 + (1 + (col / n) * box_width + (col % n) * 2 + 1) as u16;
                let style = cell_style(s.kinds[cell], conflicts[cell], theme);
                let mut text = [0u8; 4];
                let glyph = symbol(s.values[cell]).encode_utf8(&mut text);
                buf[(x, y)].set_symbol(glyph).set_style(style);
            }
            if bad {
                let x = x0 + (n * box_width + 1) as u16;
                buf[(x, y)]
                    .set_symbol(line.row_mark)
                    .set_style(theme.energy);
            }
        }
        let y = y0 + height - 1;
        for (col, &bad) in col_bad.iter().enumerate() {
            if bad {
                let x = x0 + (1 + (col / n) * box_width + (col % n) * 2 + 1) as u16;
                buf[(x, y)]
                    .set_symbol(line.col_mark)
                    .set_style(theme.energy);
            }
        }
    }

    fn export(&self, shown: &SudokuSnapshot, best: &SudokuSnapshot) -> Option<Export> {
        Some(export::sudoku::export(shown, best, &self.source))
    }
}

/// Whether a row or column holds some value twice (and so misses another).
fn has_repeat(line: &[u8]) -> bool {
    let mut seen = 0u64;
    line.iter().any(|&v| {
        let bit = 1u64 << v;
        let repeat = seen & bit != 0;
        seen |= bit;
        repeat
    })
}

fn cell_style(kind: CellKind, conflict: bool, theme: &Theme) -> Style {
    let base = match kind {
        CellKind::Given => theme.given,
        CellKind::Propagated => theme.propagated,
        CellKind::Annealed => theme.annealed,
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
    pub fn new(n: usize) -> Self {
        SudokuThumbnail { n }
    }
}

impl BoardView<SudokuSnapshot> for SudokuThumbnail {
    fn min_size(&self, _: Option<&SudokuSnapshot>) -> (u16, u16) {
        let side = self.n * self.n;
        ((2 * side + self.n - 1) as u16, side as u16)
    }

    fn floor(&self) -> Option<f64> {
        Some(0.0)
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
/// flags (a preset, the GA, parallel tempering or kiln's own annealer).
pub struct SudokuDemo {
    pub puzzles: Vec<Puzzle>,
    pub args: SudokuArgs,
}

/// What a live run of one puzzle starts from.
struct Start {
    search: SudokuSearch,
    /// Knows the temperatures the display should span.
    history: History,
    reheat_to: f64,
    budget: Option<u64>,
    propagated: usize,
}

impl SudokuDemo {
    fn search(&self, puzzle: &Puzzle) -> color_eyre::Result<Start> {
        let a = &self.args;
        if let Some(preset) = a.preset {
            let s =
                solver(preset, puzzle, &a.anneal, &a.ga, a.no_propagate).map_err(|e| eyre!(e))?;
            if s.prepared.has_no_solution() {
                bail!("{}: this puzzle has no solution", puzzle.source);
            }
            let (high, low) = s.temperature_span();
            let budget = s.budget();
            let propagated = s.prepared.propagated;
            return Ok(Start {
                search: s.search,
                history: History::new(high, low),
                reheat_to: s.reheat_to,
                budget,
                propagated,
            });
        }
        let prepared = Prepared::new(puzzle, !a.no_propagate);
        if prepared.has_no_solution() {
            bail!("{}: this puzzle has no solution", puzzle.source);
        }
        let (search, config) = prepared.search(a).map_err(|e| eyre!(e))?;
        let reheat_to = a.anneal.reheat_temperature(&config);
        let history = History::new(config.t0.max(reheat_to), final_temperature(&config));
        Ok(Start {
            search,
            history,
            reheat_to,
            budget: config.max_steps,
            propagated: prepared.propagated,
        })
    }
}

impl Demo for SudokuDemo {
    fn name(&self) -> &str {
        "Sudoku"
    }

    fn count(&self) -> usize {
        self.puzzles.len()
    }

    fn start(
        &self,
        index: usize,
        speed: Speed,
        _area: BoardArea,
    ) -> color_eyre::Result<Box<dyn Session>> {
        let puzzle = self
            .puzzles
            .get(index)
            .ok_or_else(|| eyre!("no puzzle {}", index + 1))?;
        let start = self.search(puzzle)?;
        let origin = format!(
            "{} givens +{} propagated",
            puzzle.givens(),
            start.propagated
        );
        let view = SudokuView::new(puzzle.n, origin).from_source(&puzzle.source);
        let side = puzzle.side();
        let file = puzzle.source.rsplit('/').next().unwrap_or(&puzzle.source);
        let mut title = format!("{side}x{side} {file}");
        if let Some(preset) = self.args.preset {
            title = format!("{preset} · {title}");
        }
        Ok(Box::new(Live::with_search(
            title,
            start.search,
            view,
            speed,
            start.reheat_to,
            start.history,
            start.budget,
        )))
    }

    /// The embedded puzzle takes about a million steps (median over seeds): half a minute.
    fn default_speed(&self) -> Speed {
        Speed::Limited(30_000)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::style::Modifier;

    use super::*;
    use crate::problems::sudoku::Geometry;

    /// A 4x4 grid, solved but for one swap in the bottom-left box.
    fn swapped_4x4() -> SudokuSnapshot {
        #[rustfmt::skip]
        let values = vec![
            1, 2, 3, 4,
            3, 4, 1, 2,
            3, 1, 4, 3,
            4, 2, 2, 1,
        ];
        let mut kinds = vec![CellKind::Annealed; 16];
        kinds[0] = CellKind::Given;
        kinds[2] = CellKind::Propagated;
        SudokuSnapshot {
            geometry: Arc::new(Geometry::new(2)),
            kinds: kinds.into(),
            values,
        }
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
}
