//! The keyboard: one table that drives the key handling, the hint bar and the help popup.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::text::Span;

use super::theme::Theme;
use kiln_core::search::worker::Command;

/// What a key asks of the view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Pause the run, or resume it.
    TogglePause,
    /// Take one step and explain it (paused).
    Step,
    /// Raise the temperature again.
    Reheat,
    /// Run faster.
    Faster,
    /// Run slower.
    Slower,
    /// Start the next puzzle of the tab.
    NextPuzzle,
    /// Start the previous puzzle of the tab.
    PreviousPuzzle,
    /// Start the puzzle again.
    Restart,
    /// Go to the next tab.
    NextDemo,
    /// Go to the previous tab.
    PreviousDemo,
    /// Turn the attract loop (moving on by itself after a run ends) on or off.
    Attract,
    /// Show the explain panel (the acceptance rule, measured) instead of the stats, or back.
    Explain,
    /// Save the board as a picture and the best state as the headless run writes it.
    Save,
    /// Open the help, or turn its page, or close it.
    Help,
    /// `q` or Esc: quit, or close the help when it is open.
    Quit,
    /// Ctrl-C: quit, whatever is open.
    QuitNow,
    /// Esc where it does not quit (over SSH): closes the help, and nothing else.
    Dismiss,
    /// A key the current board handles (e.g. `b` for the best tour).
    Board(char),
}

/// What the event loop does after a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Keep going.
    Continue,
    /// End the event loop.
    Quit,
}

impl Action {
    /// The worker command a key stands for, when it stands for one.
    pub fn command(self) -> Option<Command> {
        match self {
            Action::TogglePause => Some(Command::TogglePause),
            Action::Step => Some(Command::Step),
            Action::Reheat => Some(Command::Reheat),
            Action::Restart => Some(Command::Restart),
            _ => None,
        }
    }
}

/// While the help is open any key closes it and does nothing else (so `q` and Esc close it
/// rather than quit); Ctrl-C still quits. The flow to follow, or `None` when the help was
/// not open.
pub fn close_help(help: &mut bool, action: Action) -> Option<Flow> {
    if !*help {
        return None;
    }
    *help = false;
    Some(if action == Action::QuitNow {
        Flow::Quit
    } else {
        Flow::Continue
    })
}

/// A hint bar: each key highlighted, then its hint.
pub fn hint_spans<'a>(
    hints: impl IntoIterator<Item = (String, &'a str)>,
    theme: &Theme,
) -> Vec<Span<'a>> {
    hints
        .into_iter()
        .flat_map(|(key, hint)| {
            [
                Span::styled(format!(" {key}"), theme.key),
                Span::styled(format!(" {hint}"), theme.dim),
            ]
        })
        .collect()
}

/// Which screen keys are listed for: the single-board view (with or without tabs to switch
/// between) or a race.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// The single-board view: `tabs` when it has more than one demo, `saves` when the save
    /// key writes files (not for the clients of `kiln serve`).
    Single {
        /// Whether there are tabs to switch between.
        tabs: bool,
        /// Whether `e` saves files.
        saves: bool,
    },
    /// The race's screen of panes side by side.
    Race,
}

/// Where a key works.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Works {
    Everywhere,
    /// The single-board view only.
    Single,
    /// The single-board view with more than one demo.
    Tabs,
    /// The single-board view where saving is on.
    Saving,
}

impl Works {
    fn in_view(self, view: View) -> bool {
        match (self, view) {
            (Works::Everywhere, _) => true,
            (Works::Single, View::Single { .. }) => true,
            (Works::Tabs, View::Single { tabs, .. }) => tabs,
            (Works::Saving, View::Single { saves, .. }) => saves,
            (_, View::Race) => false,
        }
    }
}

/// A key of the keyboard table.
pub struct Key {
    /// As shown, e.g. "space".
    pub key: &'static str,
    /// The footer's word, for the keys the footer shows.
    pub hint: Option<&'static str>,
    /// What it does, for the help.
    pub what: &'static str,
    works: Works,
}

const fn key(
    key: &'static str,
    hint: Option<&'static str>,
    what: &'static str,
    works: Works,
) -> Key {
    Key {
        key,
        hint,
        what,
        works,
    }
}

/// Every key, in the order the help lists them. The footer shows the few with a hint, and
/// always ends in `? help`, so it fits 80 columns.
pub const KEYS: &[Key] = &[
    key("space", Some("pause"), "pause / resume", Works::Everywhere),
    key(
        "s",
        None,
        "one step while paused, explained up to 20/s",
        Works::Everywhere,
    ),
    key(
        "r",
        Some("reheat"),
        "reheat: T hot again, uphill taken (R: restart)",
        Works::Everywhere,
    ),
    key(
        "+ -",
        Some("speed"),
        "speed (= _); 20/s or less: R starts a lesson",
        Works::Everywhere,
    ),
    key(
        "n p",
        Some("next"),
        "next / previous puzzle (also → ←)",
        Works::Single,
    ),
    key(
        "x",
        None,
        "explain: the acceptance rule, drawn and measured",
        Works::Single,
    ),
    key(
        "Tab",
        Some("demo"),
        "next demo (Shift-Tab: previous)",
        Works::Tabs,
    ),
    key(
        "a",
        None,
        "attract loop: move on by itself when a run ends",
        Works::Single,
    ),
    key(
        "e",
        Some("save"),
        "save board (PNG) and best state as new files here",
        Works::Saving,
    ),
    key(
        "?",
        Some("help"),
        "this help (also h, F1)",
        Works::Everywhere,
    ),
    key(
        "q",
        None,
        "quit (also Ctrl-C, Ctrl-D; Esc, not over SSH)",
        Works::Everywhere,
    ),
];

/// The keys that work in `view`.
pub fn keys_for(view: View) -> impl Iterator<Item = &'static Key> {
    KEYS.iter().filter(move |k| k.works.in_view(view))
}

/// The footer's (key, hint) pairs for `view` that fit in `width` columns, ending in
/// `? help`: a narrow terminal loses the last hints before help, never help itself.
pub fn footer(view: View, width: u16) -> Vec<(String, &'static str)> {
    let mut pairs: Vec<(String, &'static str)> = keys_for(view)
        .filter_map(|k| k.hint.map(|hint| (k.key.to_string(), hint)))
        .collect();
    let help = pairs.pop();
    // As `hint_spans` draws a pair: " key hint".
    let columns = |(key, hint): &(String, &str)| 2 + key.chars().count() + hint.chars().count();
    let mut left = usize::from(width).saturating_sub(help.as_ref().map_or(0, columns));
    pairs.retain(|pair| {
        let fits = columns(pair) <= left;
        if fits {
            left -= columns(pair);
        } else {
            left = 0;
        }
        fits
    });
    pairs.extend(help);
    pairs
}

/// What Esc does when nothing is open for it to close.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Esc {
    /// Quits, as `q` does (the local terminal).
    Quits,
    /// Nothing: a lone ESC from afar may be the first half of a key a slow link split.
    Dismisses,
}

/// The action of `key` where Esc does what `esc` says.
pub fn action_where(key: KeyEvent, esc: Esc) -> Option<Action> {
    if key.code == KeyCode::Esc && esc == Esc::Dismisses {
        return Some(Action::Dismiss);
    }
    action(key)
}

/// The action of `key` in the local terminal.
pub fn action(key: KeyEvent) -> Option<Action> {
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return matches!(key.code, KeyCode::Char('c') | KeyCode::Char('d'))
            .then_some(Action::QuitNow);
    }
    Some(match key.code {
        KeyCode::Char(' ') => Action::TogglePause,
        KeyCode::Char('s') => Action::Step,
        KeyCode::Char('r') => Action::Reheat,
        KeyCode::Char('+') | KeyCode::Char('=') => Action::Faster,
        KeyCode::Char('-') | KeyCode::Char('_') => Action::Slower,
        KeyCode::Char('n') | KeyCode::Right => Action::NextPuzzle,
        KeyCode::Char('p') | KeyCode::Left => Action::PreviousPuzzle,
        KeyCode::Char('R') => Action::Restart,
        KeyCode::Char('e') => Action::Save,
        KeyCode::Tab => Action::NextDemo,
        KeyCode::BackTab => Action::PreviousDemo,
        KeyCode::Char('a') => Action::Attract,
        KeyCode::Char('x') => Action::Explain,
        KeyCode::Char('?') | KeyCode::Char('h') | KeyCode::F(1) => Action::Help,
        KeyCode::Char('q') | KeyCode::Esc => Action::Quit,
        KeyCode::Char(c) => Action::Board(c),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(code: KeyCode, modifiers: KeyModifiers) -> Option<Action> {
        action(KeyEvent::new(code, modifiers))
    }

    #[test]
    fn every_documented_key_does_something() {
        assert_eq!(
            press(KeyCode::Char(' '), KeyModifiers::NONE),
            Some(Action::TogglePause)
        );
        assert_eq!(
            press(KeyCode::Char('R'), KeyModifiers::SHIFT),
            Some(Action::Restart)
        );
        assert_eq!(
            press(KeyCode::Char('c'), KeyModifiers::CONTROL),
            Some(Action::QuitNow)
        );
        assert_eq!(press(KeyCode::Esc, KeyModifiers::NONE), Some(Action::Quit));
        assert_eq!(
            press(KeyCode::Char('e'), KeyModifiers::NONE),
            Some(Action::Save)
        );
        assert_eq!(
            press(KeyCode::Char('b'), KeyModifiers::NONE),
            Some(Action::Board('b'))
        );
        assert_eq!(press(KeyCode::Char('x'), KeyModifiers::CONTROL), None);
    }
}

#[cfg(test)]
mod footer_tests {
    use super::*;

    #[test]
    fn the_footer_ends_in_help_and_fits_80_columns() {
        for view in [
            View::Single {
                tabs: true,
                saves: true,
            },
            View::Single {
                tabs: false,
                saves: false,
            },
            View::Race,
        ] {
            let spans = hint_spans(footer(view, 80), &Theme::monochrome(true));
            let text: String = spans.iter().map(|s| s.content.as_ref()).collect();
            assert!(text.ends_with("? help"), "{text:?}");
            assert!(text.len() <= 78, "{} columns: {text:?}", text.len());
            // Narrower: hints before help go, whole, from the end.
            for width in [60, 40, 20, 8] {
                let spans = hint_spans(footer(view, width), &Theme::monochrome(true));
                let narrow: String = spans.iter().map(|s| s.content.as_ref()).collect();
                assert!(narrow.ends_with("? help"), "{width}: {narrow:?}");
                assert!(
                    narrow.chars().count() <= usize::from(width),
                    "{width}: {narrow:?}"
                );
                assert!(
                    text.starts_with(narrow.trim_end_matches(" ? help")),
                    "{narrow:?}"
                );
            }
        }
    }

    #[test]
    fn a_race_lists_no_puzzle_or_tab_keys() {
        let keys: Vec<&str> = keys_for(View::Race).map(|k| k.key).collect();
        assert!(!keys.contains(&"n p") && !keys.contains(&"Tab") && !keys.contains(&"a"));
        assert!(keys.contains(&"space") && keys.contains(&"q"));
    }
}
