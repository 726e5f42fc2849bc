//! The `?` popup: every key, including the current board's own, and in the single-board
//! view a line for each thing the stats panel shows. Where the two do not fit one popup
//! (a 60x20 terminal), they are two pages and `?` turns from the keys to the panel.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget};

use super::keys::{View, keys_for};
use super::session::BoardKey;
use super::theme::Theme;

/// The keys of `view` and the board's own.
pub struct Help<'a> {
    /// The view whose keys are listed.
    pub view: View,
    /// The board's own keys.
    pub board_keys: &'a [BoardKey],
    /// The colours and glyphs drawn with.
    pub theme: &'a Theme,
}

/// The stats panel's words, as the panel labels them, and what each shows in a line a
/// teacher would say; `energy` is what the energy counts on the board shown.
pub fn panel_terms(energy: &str) -> [(&'static str, &str); 8] {
    [
        ("Energy", energy),
        ("best", "the lowest energy found so far"),
        (
            "Temperature",
            "a move d worse is taken with chance e^(-d/T)",
        ),
        ("Progress", "how much of its step or time budget is used"),
        ("T (log)", "T on a log scale: 100% = start, 0% = cooled"),
        ("Accepted", "share of proposed moves taken, last 40 ms"),
        ("iteration", "moves proposed so far; iter/s: per second"),
        ("restarts", "fresh random starts; reheats: T raised again"),
    ]
}

/// Columns of a term in the panel's lines.
const TERM: usize = 12;

/// What closes the help, on the popup's bottom border.
const CLOSES: &str = " any key closes this help ";
/// ... and on the first of two pages.
const TURNS: &str = " ? the stats panel · any other key closes ";
/// The panel's section heading (and its page's title).
const PANEL: &str = " the stats panel ";

impl<'a> Help<'a> {
    fn key_lines(&self) -> Vec<Line<'a>> {
        let theme = self.theme;
        let board = self.board_keys.iter().map(|k| (k.key.to_string(), k.what));
        keys_for(self.view)
            .map(|k| (k.key.to_string(), k.what))
            .chain(board)
            .map(|(key, what)| {
                Line::from(vec![
                    Span::styled(format!(" {key:<7}"), theme.key),
                    Span::raw(what),
                ])
            })
            .collect()
    }
}

impl Widget for Help<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let lines = self.key_lines();
        popup(" keys ", lines, None, CLOSES, self.theme, area, buf);
    }
}

/// The single-board view's help: the keys, then the stats panel, on one page where they
/// fit `area` and on two where they do not.
pub struct WithPanel<'a> {
    /// The keys' page.
    pub help: Help<'a>,
    /// What the energy counts on the board shown (`Board::energy_means`).
    pub energy: &'a str,
    /// Whether the panel's page was turned to (shown only when there are two pages).
    pub panel_page: bool,
}

/// Whether the keys of `view` and `board_keys` and the panel's lines need two pages in
/// `area`: the popup is as tall as its lines and its borders.
pub fn two_pages(view: View, board_keys: &[BoardKey], area: Rect) -> bool {
    let keys = keys_for(view).count() + board_keys.len();
    let one_page = keys + 1 + panel_terms("").len() + 2;
    one_page > usize::from(area.height)
}

impl WithPanel<'_> {
    fn panel_lines(&self) -> Vec<Line<'static>> {
        let theme = self.help.theme;
        panel_terms(self.energy)
            .into_iter()
            .map(|(term, what)| {
                let style = match term {
                    "Energy" => theme.energy,
                    "Temperature" => theme.temperature,
                    _ => theme.key,
                };
                Line::from(vec![
                    Span::styled(format!(" {term:<TERM$}"), style),
                    Span::raw(what.to_string()),
                ])
            })
            .collect()
    }
}

impl Widget for WithPanel<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.help.theme;
        let panel = self.panel_lines();
        if two_pages(self.help.view, self.help.board_keys, area) {
            if self.panel_page {
                popup(PANEL, panel, None, CLOSES, theme, area, buf);
            } else {
                popup(
                    " keys ",
                    self.help.key_lines(),
                    None,
                    TURNS,
                    theme,
                    area,
                    buf,
                );
            }
        } else {
            let keys = self.help.key_lines();
            popup(" keys ", keys, Some(panel), CLOSES, theme, area, buf);
        }
    }
}

/// Draws a bordered popup centred in `area`, `title` on its top border and `footer` on
/// its bottom one: `lines`, then, under a rule headed `PANEL`, `more`.
fn popup<'a>(
    title: &'a str,
    mut lines: Vec<Line<'a>>,
    more: Option<Vec<Line<'a>>>,
    footer: &'a str,
    theme: &Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    let widest = lines
        .iter()
        .chain(more.iter().flatten())
        .map(Line::width)
        .max()
        .unwrap_or(0)
        .max(footer.chars().count());
    // A column of room to the right, as on the left, inside the border.
    let inner = widest + 1;
    // The row of the rule, inside the border, to join it to the border.
    let mut rule_row = None;
    if let Some(more) = more {
        rule_row = Some(lines.len() as u16);
        let rule = theme.border_set().horizontal_top;
        let heading = PANEL.chars().count() + 1;
        lines.push(Line::from(vec![
            Span::styled(rule, theme.border),
            Span::styled(PANEL, theme.title),
            Span::styled(rule.repeat(inner.saturating_sub(heading)), theme.border),
        ]));
        lines.extend(more);
    }
    let width = (inner + 2).min(usize::from(u16::MAX)) as u16;
    let height = (lines.len() + 2).min(usize::from(u16::MAX)) as u16;
    let popup = centred(area, width, height);
    Clear.render(popup, buf);
    let block = Block::bordered()
        .border_set(theme.border_set())
        .border_style(theme.border)
        .title(Span::styled(title, theme.title))
        .title_bottom(Span::styled(footer, theme.dim));
    Paragraph::new(lines).block(block).render(popup, buf);
    if let Some(row) = rule_row {
        let y = popup.y + 1 + row;
        let (left, right) = if theme.ascii {
            ("+", "+")
        } else {
            ("├", "┤")
        };
        if y + 1 < popup.bottom() && popup.width >= 2 {
            buf[(popup.x, y)].set_symbol(left);
            buf[(popup.right() - 1, y)].set_symbol(right);
        }
    }
}

/// A box of `width` x `height` in the middle of `area` (no larger than it), as help boxes
/// are drawn.
pub fn centred(area: Rect, width: u16, height: u16) -> Rect {
    let [row] = Layout::vertical([Constraint::Length(height)])
        .flex(Flex::Center)
        .areas(area);
    let [popup] = Layout::horizontal([Constraint::Length(width)])
        .flex(Flex::Center)
        .areas(row);
    popup
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_panel_line_fits_a_60_column_popup() {
        // The popup of a 60-column terminal has 58 columns inside its border, one kept
        // free on the right.
        for (term, what) in panel_terms("digits missing in rows, columns; 0 = solved") {
            let width = 1 + TERM + what.chars().count();
            assert!(width <= 57, "{term}: {width} columns");
            assert!(term.len() < TERM, "{term}");
        }
        for key in keys_for(View::Single {
            tabs: true,
            saves: true,
        }) {
            let width = 8 + key.what.chars().count();
            assert!(width <= 57, "{}: {width} columns", key.key);
        }
    }
}
