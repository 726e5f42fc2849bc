//! Colours and glyphs. With `NO_COLOR` the monochrome theme marks meaning with reverse
//! video, bold and glyphs only; with `--ascii` no glyph needs UTF-8.

use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::{bar, border};

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Theme {
    pub ascii: bool,
    pub monochrome: bool,
    pub title: Style,
    pub dim: Style,
    pub key: Style,
    pub border: Style,
    pub given: Style,
    pub propagated: Style,
    pub annealed: Style,
    /// A cell in a row or column that is missing digits.
    pub conflict: Style,
    pub energy: Style,
    pub temperature: Style,
    pub gauge: Style,
    pub good: Style,
    pub warn: Style,
    pub reference: Style,
}

/// Sparkline levels that need no UTF-8.
const ASCII_BARS: bar::Set<'static> = bar::Set {
    full: "#",
    seven_eighths: "#",
    three_quarters: "=",
    five_eighths: "=",
    half: "-",
    three_eighths: "-",
    one_quarter: "_",
    one_eighth: "_",
    empty: " ",
};

impl Theme {
    pub fn colour(ascii: bool) -> Self {
        Theme {
            ascii,
            monochrome: false,
            title: Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            dim: Style::new().fg(Color::DarkGray),
            key: Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
            border: Style::new().fg(Color::DarkGray),
            given: Style::new().fg(Color::White).add_modifier(Modifier::BOLD),
            propagated: Style::new().fg(Color::Cyan),
            annealed: Style::new().fg(Color::Yellow),
            conflict: Style::new()
                .fg(Color::LightRed)
                .add_modifier(Modifier::REVERSED),
            energy: Style::new().fg(Color::LightRed),
            temperature: Style::new().fg(Color::LightBlue),
            gauge: Style::new().fg(Color::Green),
            good: Style::new().fg(Color::Green).add_modifier(Modifier::BOLD),
            warn: Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            reference: Style::new().fg(Color::DarkGray),
        }
    }

    pub fn monochrome(ascii: bool) -> Self {
        let plain = Style::new();
        let bold = Style::new().add_modifier(Modifier::BOLD);
        Theme {
            ascii,
            monochrome: true,
            title: bold,
            dim: plain,
            key: bold,
            border: plain,
            given: bold,
            propagated: Style::new().add_modifier(Modifier::UNDERLINED),
            annealed: plain,
            conflict: Style::new().add_modifier(Modifier::REVERSED),
            energy: plain,
            temperature: plain,
            gauge: plain,
            good: bold,
            warn: bold,
            reference: plain,
        }
    }

    /// Monochrome when `NO_COLOR` is set to anything non-empty (no-color.org).
    pub fn from_env(ascii: bool) -> Self {
        match std::env::var_os("NO_COLOR") {
            Some(v) if !v.is_empty() => Theme::monochrome(ascii),
            _ => Theme::colour(ascii),
        }
    }

    pub fn bars(&self) -> bar::Set<'static> {
        if self.ascii {
            ASCII_BARS
        } else {
            bar::NINE_LEVELS
        }
    }

    /// Box-drawing borders, or `+`, `-` and `|` without UTF-8.
    pub fn border_set(&self) -> border::Set<'static> {
        if self.ascii {
            border::Set {
                top_left: "+",
                top_right: "+",
                bottom_left: "+",
                bottom_right: "+",
                vertical_left: "|",
                vertical_right: "|",
                horizontal_top: "-",
                horizontal_bottom: "-",
            }
        } else {
            border::ROUNDED
        }
    }

    /// (filled, empty) cells of a gauge.
    pub fn gauge_cells(&self) -> (&'static str, &'static str) {
        if self.ascii {
            ("#", ".")
        } else {
            ("█", "░")
        }
    }
}
