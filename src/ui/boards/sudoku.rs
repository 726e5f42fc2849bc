//! The Sudoku board: box borders, givens / propagated / annealed cells told apart, and the
//! cells that clash in a row or column in reverse video, with `<` / `^` marks beside the
//! rows and under the columns that still miss digits (readable without colour).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

use crate::anneal::worker::Speed;
use crate::anneal::Runner;
use crate::anneal_args::AnnealArgs;
use crate::problems::sudoku::{CellKind, Prepared, Puzzle, SudokuSnapshot, symbol};
use crate::ui::session::{BoardView, Demo, Live, Session};
use crate::ui::theme::Theme;

pub struct SudokuView {
    n: usize,
}

/// Width and height of the grid drawn for box side `n`, marks included.
fn grid_size(n: usize) -> (u16, u16) {
    let width = 1 + n * (2 * n + 2) + 2;
    let height = 1 + n * (n + 1) + 1;
    (width as u16, height as u16)
}

impl BoardView<SudokuSnapshot> for SudokuView {
    fn min_size(&self, _: Option<&SudokuSnapshot>) -> (u16, u16) {
        grid_size(self.n)
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
        let mut row_bad = vec![false; side];
        let mut col_bad = vec![false; side];
        for (cell, bad) in conflicts.iter().enumerate() {
            if *bad {
                row_bad[g.row_of[cell]] = true;
                col_bad[g.col_of[cell]] = true;
            }
        }
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
                    buf[(x + dx as u16, y)].set_symbol(line.horizontal).set_style(theme.border);
                }
            }
            let x = x0 + (n * box_width) as u16;
            buf[(x, y)].set_symbol(line.corner(band, n, n)).set_style(theme.border);
        }
        for row in 0..side {
            let y = y0 + (1 + row + row / n) as u16;
            for stack in 0..=n {
                let x = x0 + (stack * box_width) as u16;
                buf[(x, y)].set_symbol(line.vertical).set_style(theme.border);
            }
            for col in 0..side {
                let cell = row * side + col;
                let x = x0 + (1 + (col / n) * box_width + (col % n) * 2 + 1) as u16;
                let style = cell_style(s.kinds[cell], conflicts[cell], theme);
                let mut text = [0u8; 4];
                let glyph = symbol(s.values[cell]).encode_utf8(&mut text);
                buf[(x, y)].set_symbol(glyph).set_style(style);
            }
            if row_bad[row] {
                let x = x0 + (n * box_width + 1) as u16;
                buf[(x, y)].set_symbol(line.row_mark).set_style(theme.energy);
            }
        }
        let y = y0 + height - 1;
        for col in 0..side {
            if col_bad[col] {
                let x = x0 + (1 + (col / n) * box_width + (col % n) * 2 + 1) as u16;
                buf[(x, y)].set_symbol(line.col_mark).set_style(theme.energy);
            }
        }
    }
}

fn cell_style(kind: CellKind, conflict: bool, theme: &Theme) -> Style {
    let base = match kind {
        CellKind::Given => theme.given,
        CellKind::Propagated => theme.propagated,
        CellKind::Annealed => theme.annealed,
    };
    if conflict { base.patch(theme.conflict) } else { base }
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
            Lines { horizontal: "-", vertical: "|", row_mark: "<", col_mark: "^", ascii }
        } else {
            Lines { horizontal: "─", vertical: "│", row_mark: "◂", col_mark: "▴", ascii }
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

/// The Sudoku tab: a list of puzzles, each annealed with the command line's flags.
pub struct SudokuDemo {
    pub puzzles: Vec<Puzzle>,
    pub anneal: AnnealArgs,
    pub propagate: bool,
}

impl Demo for SudokuDemo {
    fn name(&self) -> &str {
        "Sudoku"
    }

    fn count(&self) -> usize {
        self.puzzles.len()
    }

    fn start(&self, index: usize, speed: Speed) -> color_eyre::Result<Box<dyn Session>> {
        let puzzle = self
            .puzzles
            .get(index)
            .ok_or_else(|| color_eyre::eyre::eyre!("no puzzle {}", index + 1))?;
        let prepared = Prepared::new(puzzle, self.propagate);
        if prepared.has_no_solution() {
            color_eyre::eyre::bail!("{}: this puzzle has no solution", puzzle.source);
        }
        let problem = prepared.problem(self.anneal.seed);
        let config = prepared
            .run_config(&self.anneal, &problem)
            .map_err(|e| color_eyre::eyre::eyre!(e))?;
        let reheat_to = self.anneal.reheat_temperature(&config);
        let runner = Runner::new(problem, config, self.anneal.seed);
        let view = SudokuView { n: puzzle.n };
        Ok(Box::new(Live::start(prepared.title(), runner, view, speed, reheat_to)))
    }

    fn default_speed(&self) -> Speed {
        Speed::Limited(10_000)
    }
}
