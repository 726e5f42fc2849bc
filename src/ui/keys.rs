//! The keyboard: one table that drives the key handling, the hint bar and the help popup.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

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
    Help,
    Quit,
    /// A key the current board handles (e.g. `b` for the best tour).
    Board(char),
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
            press(KeyCode::Char('b'), KeyModifiers::NONE),
            Some(Action::Board('b'))
        );
        assert_eq!(press(KeyCode::Char('x'), KeyModifiers::CONTROL), None);
    }
}
