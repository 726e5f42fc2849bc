//! The `?` popup: every key, including the current board's own.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget};

use super::keys::{View, keys_for};
use super::session::BoardKey;
use super::theme::Theme;

pub(super) struct Help<'a> {
    pub view: View,
    pub board_keys: &'a [BoardKey],
    pub theme: &'a Theme,
}

impl Widget for Help<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let mut lines: Vec<Line> = keys_for(self.view)
            .map(|k| {
                Line::from(vec![
                    Span::styled(format!(" {:<7}", k.key), theme.key),
                    Span::raw(k.what),
                ])
            })
            .collect();
        for k in self.board_keys {
            lines.push(Line::from(vec![
                Span::styled(format!(" {:<7}", k.key), theme.key),
                Span::raw(k.what),
            ]));
        }
        lines.push(Line::raw(""));
        lines.push(Line::styled(" any key closes this help", theme.dim));
        let width = lines.iter().map(Line::width).max().unwrap_or(0) as u16 + 3;
        let height = lines.len() as u16 + 2;
        let [row] = Layout::vertical([Constraint::Length(height)])
            .flex(Flex::Center)
            .areas(area);
        let [popup] = Layout::horizontal([Constraint::Length(width)])
            .flex(Flex::Center)
            .areas(row);
        Clear.render(popup, buf);
        let block = Block::bordered()
            .border_set(theme.border_set())
            .border_style(theme.border)
            .title(Span::styled(" keys ", theme.title));
        Paragraph::new(lines).block(block).render(popup, buf);
    }
}
