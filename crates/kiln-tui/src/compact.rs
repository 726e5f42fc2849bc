//! What a frame costs on the wire. ratatui sends only the cells that changed, a cursor
//! move (6 to 10 bytes) before each run of them; on a busy board (an image annealing, a
//! tour's braille) most runs are a cell or two apart, and the moves cost more than the
//! cells. This backend writes the few unchanged cells between two changes on a row
//! instead, where that is cheaper, from its copy of what the terminal shows. It also gives
//! ratatui the size kiln gave the screen, never the process's own terminal's (which a
//! remote client's screen is not, and which is not clamped).

use ratatui::backend::{Backend, ClearType, WindowSize};
use ratatui::buffer::{Buffer, Cell};
use ratatui::layout::{Position, Rect, Size};

pub struct Compact<B> {
    inner: B,
    /// What the terminal shows.
    shown: Buffer,
    /// The cells of the frame being drawn (a buffer kept between frames).
    cells: Vec<(u16, u16)>,
}

/// Bytes of a cursor move to column `x`, row `y`: `ESC [ row ; column H`.
fn move_cost(x: u16, y: u16) -> usize {
    let digits = |n: u16| n.checked_ilog10().map_or(1, |d| d as usize + 1);
    4 + digits(y + 1) + digits(x + 1)
}

/// Whether writing `cell` moves the cursor exactly one column: one character that is
/// neither wide nor combining (ASCII, box drawing, blocks and braille, kiln's boards).
fn narrow(cell: &Cell) -> bool {
    let mut chars = cell.symbol().chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => (' '..='~').contains(&c) || ('\u{2500}'..='\u{28ff}').contains(&c),
        _ => false,
    }
}

fn same_style(a: &Cell, b: &Cell) -> bool {
    (a.fg, a.bg, a.underline_color, a.modifier) == (b.fg, b.bg, b.underline_color, b.modifier)
}

impl<B: Backend> Compact<B> {
    /// `inner`, drawing a screen of `area` (which starts blank).
    pub fn new(inner: B, area: Rect) -> Compact<B> {
        Compact {
            inner,
            shown: Buffer::empty(area),
            cells: Vec::new(),
        }
    }

    pub fn inner(&self) -> &B {
        &self.inner
    }

    pub fn inner_mut(&mut self) -> &mut B {
        &mut self.inner
    }

    /// The screen's size as kiln gave it.
    pub fn area(&self) -> Rect {
        self.shown.area
    }

    /// The screen is now `area`; ratatui clears it next.
    pub fn resize(&mut self, area: Rect) {
        self.shown = Buffer::empty(area);
    }

    /// Whether writing the unchanged cells after (`from`, `y`) up to `to` costs fewer
    /// bytes than a cursor move to `to`, with no change of style on the way.
    fn fill_is_cheaper(&self, from: u16, to: u16, y: u16) -> bool {
        let last = &self.shown[(from, y)];
        if !narrow(last) {
            return false;
        }
        let mut bytes = 0;
        for x in from + 1..to {
            let cell = &self.shown[(x, y)];
            if !narrow(cell) || !same_style(cell, last) {
                return false;
            }
            bytes += cell.symbol().len();
        }
        bytes < move_cost(to, y)
    }
}

impl<B: Backend> Backend for Compact<B> {
    type Error = B::Error;

    fn draw<'a, I>(&mut self, content: I) -> Result<(), Self::Error>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        let mut cells = std::mem::take(&mut self.cells);
        cells.clear();
        let area = self.shown.area;
        for (x, y, cell) in content {
            if !area.contains(Position { x, y }) {
                continue;
            }
            if let Some(&(last_x, last_y)) = cells.last()
                && last_y == y
                && x > last_x + 1
                && self.fill_is_cheaper(last_x, x, y)
            {
                cells.extend((last_x + 1..x).map(|x| (x, y)));
            }
            self.shown[(x, y)] = cell.clone();
            // A wide character covers the next cell too (ratatui then skips it): what that
            // cell shows is not known, so no fill may write it.
            if !narrow(cell) && x + 1 < area.right() {
                self.shown[(x + 1, y)].set_symbol("");
            }
            cells.push((x, y));
        }
        let shown = &self.shown;
        let result = self
            .inner
            .draw(cells.iter().map(|&(x, y)| (x, y, &shown[(x, y)])));
        self.cells = cells;
        result
    }

    fn hide_cursor(&mut self) -> Result<(), Self::Error> {
        self.inner.hide_cursor()
    }

    fn show_cursor(&mut self) -> Result<(), Self::Error> {
        self.inner.show_cursor()
    }

    fn get_cursor_position(&mut self) -> Result<Position, Self::Error> {
        self.inner.get_cursor_position()
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> Result<(), Self::Error> {
        self.inner.set_cursor_position(position)
    }

    fn clear(&mut self) -> Result<(), Self::Error> {
        self.shown.reset();
        self.inner.clear()
    }

    /// kiln's screens fill the window from its top-left corner, so ratatui clears them
    /// whole (all, or after the cursor at the origin): what is shown is then blank.
    fn clear_region(&mut self, clear_type: ClearType) -> Result<(), Self::Error> {
        self.shown.reset();
        self.inner.clear_region(clear_type)
    }

    fn size(&self) -> Result<Size, Self::Error> {
        Ok(self.shown.area.as_size())
    }

    fn window_size(&mut self) -> Result<WindowSize, Self::Error> {
        Ok(WindowSize {
            columns_rows: self.shown.area.as_size(),
            pixels: Size::default(),
        })
    }

    fn flush(&mut self) -> Result<(), Self::Error> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use ratatui::Terminal;
    use ratatui::backend::CrosstermBackend;
    use ratatui::style::{Color, Style};

    #[test]
    fn a_cursor_move_costs_its_digits() {
        assert_eq!(move_cost(0, 0), 6);
        assert_eq!(move_cost(9, 9), 8);
        assert_eq!(move_cost(99, 199), 10);
    }

    type Frame = Vec<(u16, u16, &'static str, Color)>;

    /// The bytes of `frames` drawn one after the other (each over the last), by a plain
    /// crossterm backend and by a compact one.
    fn bytes(frames: &[Frame], (w, h): (u16, u16)) -> (Vec<u8>, Vec<u8>) {
        let mut plain = Terminal::with_options(
            CrosstermBackend::new(Vec::new()),
            ratatui::TerminalOptions {
                viewport: ratatui::Viewport::Fixed(Rect::new(0, 0, w, h)),
            },
        )
        .unwrap();
        let area = Rect::new(0, 0, w, h);
        let mut compact = Terminal::with_options(
            Compact::new(CrosstermBackend::new(Vec::new()), area),
            ratatui::TerminalOptions {
                viewport: ratatui::Viewport::Fixed(area),
            },
        )
        .unwrap();
        let mut now: Frame = Vec::new();
        for frame in frames {
            now.extend(frame.iter().copied());
            let draw = |f: &mut ratatui::Frame| {
                for &(x, y, s, c) in &now {
                    f.buffer_mut().set_string(x, y, s, Style::default().fg(c));
                }
            };
            plain.draw(draw).unwrap();
            compact.draw(draw).unwrap();
        }
        (
            plain.backend().writer().clone(),
            compact.backend().inner().writer().clone(),
        )
    }

    /// What a terminal shows after `bytes`: each cell's text (blank or space alike) and
    /// attributes.
    fn screen(bytes: &[u8], (w, h): (u16, u16)) -> Vec<String> {
        let mut parser = vt100::Parser::new(h, w, 0);
        parser.process(bytes);
        let screen = parser.screen();
        (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| {
                let cell = screen.cell(y, x).unwrap();
                let text = match cell.contents() {
                    "" => " ",
                    text => text,
                };
                format!(
                    "{text}{:?}{:?}{}{}",
                    cell.fgcolor(),
                    cell.bgcolor(),
                    cell.bold(),
                    cell.inverse()
                )
            })
            .collect()
    }

    #[test]
    fn a_busy_row_costs_fewer_bytes_and_shows_the_same() {
        let size = (60, 2);
        let mut frames = vec![(0..60).map(|x| (x, 0, "⣿", Color::Red)).collect::<Frame>()];
        // Every other cell changes: ratatui moves the cursor before each.
        frames.push((0..30).map(|x| (2 * x, 0, "⠁", Color::Red)).collect());
        let (plain, compact) = bytes(&frames, size);
        assert_eq!(screen(&plain, size), screen(&compact, size));
        let (first, _) = bytes(&frames[..1], size);
        let (plain, compact) = (plain.len() - first.len(), compact.len() - first.len());
        // 30 moves of 6-7 bytes and 30 cells of 3 bytes, against one move and 59 cells.
        assert!(compact * 10 < plain * 7, "{compact} against {plain} bytes");
    }

    #[test]
    fn no_fill_writes_over_the_cell_a_wide_character_covered() {
        let size = (24, 3);
        let frames: [Frame; 3] = [
            vec![(21, 2, "a", Color::Reset)],
            vec![(19, 2, "x世y", Color::Reset)],
            vec![(20, 2, "⣿", Color::Reset), (22, 2, "a", Color::Reset)],
        ];
        let (plain, compact) = bytes(&frames, size);
        assert_eq!(screen(&plain, size), screen(&compact, size));
    }

    fn frame() -> impl Strategy<Value = Frame> {
        let text = prop::sample::select(vec!["a", "bc", "⣿", "⠁⠂", " ", "世", "x世y", "─┼"]);
        let colour = prop::sample::select(vec![Color::Reset, Color::Red, Color::Blue]);
        prop::collection::vec((0u16..24, 0u16..3, text, colour), 0..12)
    }

    proptest! {
        /// Whatever the frames, the terminal shows exactly what it shows without the
        /// compaction, in no more bytes.
        #[test]
        fn the_screen_is_the_same_in_no_more_bytes(frames in prop::collection::vec(frame(), 1..6)) {
            let size = (24, 3);
            let (plain, compact) = bytes(&frames, size);
            prop_assert_eq!(screen(&plain, size), screen(&compact, size));
            prop_assert!(compact.len() <= plain.len());
        }
    }
}
