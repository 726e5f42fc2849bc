//! Test doubles for screen tests: a session frozen at one moment on a 9x9 Sudoku grid, and
//! a board that draws the grid as plain digits. Built for this crate's tests and, with the
//! `testing` feature, for crates that test screens of their own boards.

use std::sync::Arc;
use std::time::{Duration, Instant};

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::history::History;
use crate::session::{Board, BoardKey, RunState, Session, put};
use crate::theme::Theme;
use kiln_core::problems::sudoku::{CellKind, Geometry, SudokuSnapshot};
use kiln_core::search::worker::Command;
use kiln_core::search::{Budget, Control, Phase, Sample};

/// A session frozen at one moment, so a whole screen can be compared as text.
pub struct Frozen<V> {
    history: History,
    state: RunState,
    board: SudokuSnapshot,
    view: V,
    elapsed: Duration,
    /// When the first sample came in (the others 100 ms apart).
    start: Instant,
}

/// A 9x9 board solved but for r1c1 and r1c2 swapped (columns 1 and 2 clash), after four
/// samples with the energy falling 40, 20, 10, 4 over 3M iterations of a 4M-step budget.
pub fn frozen<V: Board<SudokuSnapshot>>(state: RunState, view: V) -> Frozen<V> {
    let mut frozen = frozen_solved(state, view);
    frozen.board.values.swap(0, 1);
    frozen
}

/// The same moment with the board solved.
pub fn frozen_solved<V: Board<SudokuSnapshot>>(state: RunState, view: V) -> Frozen<V> {
    let solved =
        "123456789456789123789123456214365897365897214897214365531642978642978531978531642";
    let values: Vec<u8> = solved.bytes().map(|b| b - b'0').collect();
    let kinds: Vec<CellKind> = (0..81)
        .map(|i| {
            if i % 3 == 2 {
                CellKind::Given
            } else {
                CellKind::Annealed
            }
        })
        .collect();
    let mut history = History::default().with_budget(Budget {
        max_steps: Some(4_000_000),
        ..Budget::default()
    });
    let t = Instant::now();
    for (i, e) in [40.0, 20.0, 10.0, 4.0].into_iter().enumerate() {
        let sample = Sample {
            phase: Phase::Anneal,
            iteration: 1_000_000 * i as u64,
            control: Control::Temperature(0.3),
            energy: e,
            best_energy: e,
            acceptance: 0.25,
            restarts: 2,
            reheats: 1,
            elapsed: Duration::from_millis(20 * i as u64),
        };
        history.push_at(sample, t + Duration::from_millis(100 * i as u64));
    }
    Frozen {
        history,
        state,
        board: SudokuSnapshot {
            geometry: Arc::new(Geometry::new(3)),
            kinds: kinds.into(),
            values,
        },
        view,
        elapsed: Duration::from_millis(60),
        start: t,
    }
}

impl<V> Frozen<V> {
    /// The same session, having run for `elapsed` (a race places its finishers by this).
    pub fn after(self, elapsed: Duration) -> Self {
        Frozen { elapsed, ..self }
    }

    /// The same session gone on to `phase`, steered by `control`: one more sample, a
    /// million steps and 100 ms after the last.
    pub fn then(mut self, phase: Phase, control: Control) -> Self {
        let last = *self.history.latest().expect("a frozen session has samples");
        let sample = Sample {
            phase,
            control,
            iteration: last.iteration + 1_000_000,
            ..last
        };
        self.history
            .push_at(sample, self.start + Duration::from_millis(400));
        self
    }
}

impl<V: Board<SudokuSnapshot>> Session for Frozen<V> {
    fn title(&self) -> &str {
        "9x9 frozen.txt:1"
    }
    fn poll(&mut self) -> bool {
        false
    }
    fn history(&self) -> &History {
        &self.history
    }
    fn state(&self) -> &RunState {
        &self.state
    }
    fn solved(&self) -> bool {
        self.state == RunState::Finished(kiln_core::search::StopReason::Target)
            && self.view.at_target(&self.board)
    }
    fn elapsed(&self) -> Duration {
        self.elapsed
    }
    fn send(&mut self, command: Command) {
        if command == Command::TogglePause {
            self.state = RunState::Paused;
        }
    }
    fn min_board_size(&self) -> (u16, u16) {
        self.view.min_size(Some(&self.board))
    }
    fn render_board(&self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        self.view.render(&self.board, area, buf, theme);
    }
    fn headline(&self) -> Option<String> {
        self.view.headline(&self.board, None)
    }
    fn progress(&self) -> f64 {
        self.history.progress()
    }
    fn energy_means(&self) -> &'static str {
        self.view.energy_means()
    }
    fn board_keys(&self) -> &'static [BoardKey] {
        &[]
    }
    fn board_key(&mut self, _: char) -> bool {
        false
    }
    fn target_word(&self) -> &'static str {
        "SOLVED"
    }
}

/// A board that draws a Sudoku grid as rows of digits, with a fixed headline: the plainest
/// board a screen test of the view around it needs.
#[derive(Debug, Clone)]
pub struct Digits(pub &'static str);

impl Board<SudokuSnapshot> for Digits {
    fn min_size(&self, snapshot: Option<&SudokuSnapshot>) -> (u16, u16) {
        let side = snapshot.map_or(9, |s| s.geometry.side) as u16;
        (2 * side - 1, side)
    }

    fn render(&self, s: &SudokuSnapshot, area: Rect, buf: &mut Buffer, theme: &Theme) {
        for (y, row) in s.values.chunks(s.geometry.side).enumerate() {
            let digits: Vec<String> = row.iter().map(u8::to_string).collect();
            put(buf, area, (0, y), &digits.join(" "), theme.annealed);
        }
    }

    fn headline(&self, _: &SudokuSnapshot, _: Option<f64>) -> Option<String> {
        Some(self.0.to_string())
    }

    fn energy_means(&self) -> &'static str {
        "digits missing in rows, columns; 0 = solved"
    }

    fn at_target(&self, s: &SudokuSnapshot) -> bool {
        s.is_solved()
    }
}
