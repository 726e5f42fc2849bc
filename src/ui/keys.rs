//! The keyboard: one table that drives the key handling, the hint bar and the help popup.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::text::Span;

use super::theme::Theme;
use crate::anneal::worker::Command;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    TogglePause,
    Step,
    Reheat,
    Faster,
    Slower,
    NextPuzzle,
    PreviousPuzzle,
    Restart,
    NextDemo,
    PreviousDemo,
    /// Save the board as a picture and the best state as the headless run writes it.
    Save,
    Help,
    Quit,
    /// A key the current board handles (e.g. `b` for the best tour).
    Board(char),
}

/// What the event loop does after a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
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

/// While the help is open any key closes it, and quitting still quits: the flow to follow,
/// or `None` when the help was not open.
pub fn close_help(help: &mut bool, action: Action) -> Option<Flow> {
    if !*help {
        return None;
    }
    *help = false;
    Some(if action == Action::Quit {
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

/// (key as shown, short hint, what it does in the help)
pub const KEYS: &[(&str, &str, &str)] = &[
    ("space", "pause", "pause / resume the annealer"),
    (
        "s",
        "step",
        "one step (one tick of the current speed) while paused",
    ),
    (
        "r",
        "reheat",
        "reheat: raise T back to the reheat temperature",
    ),
    (
        "+ -",
        "speed",
        "faster / slower (10 steps/s ... full speed)",
    ),
    ("n p", "puzzle", "next / previous puzzle"),
    ("R", "restart", "restart from a fresh random state"),
    (
        "e",
        "save",
        "save the board (PNG) and the best state as new files here",
    ),
    ("Tab", "demo", "switch between Sudoku, TSP and image demos"),
    ("?", "help", "this help"),
    ("q", "quit", "quit (also Esc, Ctrl-C)"),
];

pub fn action(key: KeyEvent) -> Option<Action> {
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return matches!(key.code, KeyCode::Char('c') | KeyCode::Char('d')).then_some(Action::Quit);
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
            Some(Action::Quit)
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
