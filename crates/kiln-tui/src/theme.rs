//! Colours and glyphs. With `NO_COLOR` the monochrome theme marks meaning with reverse
//! video, bold and glyphs only; with `--ascii` no glyph needs UTF-8.

use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::{bar, border};

/// The colours and glyphs everything is drawn with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Theme {
    /// Only ASCII glyphs (a terminal that cannot show others, or `--ascii`).
    pub ascii: bool,
    /// No colours (`NO_COLOR`, a dumb terminal).
    pub monochrome: bool,
    /// The title bar.
    pub title: Style,
    /// What matters less (labels, hints).
    pub dim: Style,
    /// A key in the footer and the help.
    pub key: Style,
    /// Borders and grid lines.
    pub border: Style,
    /// A cell the puzzle gave.
    pub given: Style,
    /// A cell filled by propagation before the run.
    pub propagated: Style,
    /// A cell the annealer fills.
    pub annealed: Style,
    /// A cell another search filled (conflict learning), told apart from annealed ones.
    pub learned: Style,
    /// A cell in a row or column that is missing digits.
    pub conflict: Style,
    /// The energy plot.
    pub energy: Style,
    /// The temperature plot.
    pub temperature: Style,
    /// The gauges' bars.
    pub gauge: Style,
    /// Good news (SOLVED, a gap closing).
    pub good: Style,
    /// Bad news (a crash, a refusal).
    pub warn: Style,
    /// A reference to compare with (a known optimum).
    pub reference: Style,
    /// A state that must not be missed (PAUSED).
    pub badge: Style,
    /// What the move just explained changed (cells, pixels, the edges it put in).
    pub moved: Style,
    /// What it took away (a tour's dropped edges).
    pub dropped: Style,
}

/// Which glyphs to draw with: as the terminal allows, or as asked (`--ascii`, `--unicode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Glyphs {
    /// As the terminal allows.
    #[default]
    Detect,
    /// ASCII only.
    Ascii,
    /// Unicode box drawing and braille.
    Unicode,
}

/// What a terminal can show, from `TERM` and the locale.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Terminal {
    unicode: bool,
    colour: bool,
}

impl Terminal {
    fn detect(term: Option<String>, utf8_locale: bool) -> Self {
        let term = term.unwrap_or_default();
        // The Linux console's font has no braille, a VT100 no UTF-8 and no colour, and a
        // dumb terminal nothing at all; xterm-likes of every name manage both.
        let (unicode, colour) = match term.as_str() {
            "" | "dumb" => (false, false),
            t if t.starts_with("vt") => (false, false),
            t if t.starts_with("linux") => (false, true),
            _ => (true, true),
        };
        Terminal {
            unicode: unicode && utf8_locale,
            colour,
        }
    }
}

/// Whether the locale says UTF-8, read as the C library would: `LC_ALL`, then `LC_CTYPE`,
/// then `LANG`; none set counts as UTF-8, as most terminals are today.
fn locale_is_utf8(env: impl Fn(&str) -> Option<String>) -> bool {
    let locale = ["LC_ALL", "LC_CTYPE", "LANG"]
        .into_iter()
        .find_map(|name| env(name).filter(|v| !v.is_empty()));
    match locale {
        None => true,
        Some(l) => {
            let l = l.to_ascii_lowercase();
            l.contains("utf-8") || l.contains("utf8")
        }
    }
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
    /// The colour theme, with ASCII glyphs if `ascii`.
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
            learned: Style::new().fg(Color::LightGreen),
            conflict: Style::new()
                .fg(Color::LightRed)
                .add_modifier(Modifier::REVERSED),
            energy: Style::new().fg(Color::LightRed),
            temperature: Style::new().fg(Color::LightBlue),
            gauge: Style::new().fg(Color::Green),
            good: Style::new().fg(Color::Green).add_modifier(Modifier::BOLD),
            warn: Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            reference: Style::new().fg(Color::DarkGray),
            badge: Style::new()
                .fg(Color::Yellow)
                .add_modifier(Modifier::BOLD | Modifier::REVERSED),
            moved: Style::new()
                .fg(Color::LightMagenta)
                .add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            dropped: Style::new().fg(Color::Red),
        }
    }

    /// No colours, with ASCII glyphs if `ascii`.
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
            learned: Style::new().add_modifier(Modifier::ITALIC),
            conflict: Style::new().add_modifier(Modifier::REVERSED),
            energy: plain,
            temperature: plain,
            gauge: plain,
            good: bold,
            warn: bold,
            reference: plain,
            badge: bold.add_modifier(Modifier::REVERSED),
            moved: bold.add_modifier(Modifier::UNDERLINED),
            dropped: plain,
        }
    }

    /// The theme the terminal can show: monochrome with `NO_COLOR` (no-color.org) or on a
    /// terminal without colour; plain ASCII where the terminal or the locale cannot draw
    /// braille and box drawing, unless `glyphs` says otherwise.
    pub fn from_env(glyphs: Glyphs) -> Self {
        Theme::for_terminal(glyphs, |name| std::env::var(name).ok())
    }

    /// The theme for a terminal whose variables (`TERM`, the locale, `NO_COLOR`) `env`
    /// looks up: this process's, or those a remote client sent.
    pub fn for_terminal(glyphs: Glyphs, env: impl Fn(&str) -> Option<String>) -> Self {
        let terminal = Terminal::detect(env("TERM"), locale_is_utf8(&env));
        let ascii = match glyphs {
            Glyphs::Ascii => true,
            Glyphs::Unicode => false,
            Glyphs::Detect => !terminal.unicode,
        };
        let no_color = env("NO_COLOR").is_some_and(|v| !v.is_empty());
        if no_color || !terminal.colour {
            Theme::monochrome(ascii)
        } else {
            Theme::colour(ascii)
        }
    }

    /// With `ascii`, replaces whatever is left in `buf` that needs UTF-8 (the `·` between
    /// title fields, marks) by a plain stand-in, so nothing drawn needs what the terminal
    /// lacks.
    pub fn enforce(&self, buf: &mut ratatui::buffer::Buffer) {
        if !self.ascii {
            return;
        }
        for cell in &mut buf.content {
            if !cell.symbol().is_ascii() {
                let plain = match cell.symbol() {
                    "·" => "-",
                    "◂" => "<",
                    "▴" => "^",
                    "…" => ".",
                    "→" => ">",
                    "←" => "<",
                    // A chart's axes.
                    "│" => "|",
                    "─" => "-",
                    "└" => "+",
                    _ => "?",
                };
                cell.set_symbol(plain);
            }
        }
    }

    /// The bars the plots are drawn with.
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

#[cfg(test)]
mod tests {
    use super::*;

    fn detect(term: &str, utf8: bool) -> Terminal {
        Terminal::detect(Some(term.to_string()), utf8)
    }

    #[test]
    fn old_and_plain_terminals_get_ascii() {
        for term in ["dumb", "vt100", "vt220", "linux", ""] {
            assert!(!detect(term, true).unicode, "{term}");
        }
        assert!(!detect("dumb", true).colour && !detect("vt100", true).colour);
        assert!(detect("linux", true).colour);
        assert!(detect("xterm-256color", true).unicode);
        assert!(detect("tmux-256color", true).colour);
        assert!(!detect("xterm-256color", false).unicode);
    }

    #[test]
    fn ascii_stands_in_for_what_needs_utf_8() {
        let mut buf = ratatui::buffer::Buffer::with_lines(["n p (also → ←) · ◂"]);
        Theme::monochrome(true).enforce(&mut buf);
        let text: String = buf.content.iter().map(|c| c.symbol()).collect();
        assert_eq!(text, "n p (also > <) - <");
    }

    #[test]
    fn the_locale_is_read_in_the_c_library_order() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert!(locale_is_utf8(env(&[])));
        assert!(locale_is_utf8(env(&[("LANG", "en_GB.UTF-8")])));
        assert!(!locale_is_utf8(env(&[("LANG", "C")])));
        assert!(!locale_is_utf8(env(&[
            ("LC_ALL", "C"),
            ("LANG", "en_US.utf8")
        ])));
        assert!(locale_is_utf8(env(&[
            ("LC_ALL", ""),
            ("LANG", "en_US.utf8")
        ])));
        assert!(!locale_is_utf8(env(&[("LC_CTYPE", "POSIX")])));
    }
}
