//! The plug-in points of the UI. A `Demo` is a problem with its list of puzzles (a tab);
//! a `Session` is one puzzle being annealed live. The event loop knows only these traits,
//! so a new board needs a `Board` and a `Demo`, and no change to the loop.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use std::path::{Path, PathBuf};

use color_eyre::Result;
use color_eyre::eyre::eyre;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

use super::history::History;
use super::theme::Theme;
use crate::save::{Export, Output};
use kiln_core::anneal::Launch;
use kiln_core::search::explain::Measured;
use kiln_core::search::worker::{Command, Report, Speed, Stamped, Worker};
use kiln_core::search::{Energy, Explained, Finished, Search, Sketch, StopReason};

/// Where a session's run stands.
#[derive(Debug, Clone, PartialEq)]
pub enum RunState {
    /// Annealing.
    Running,
    /// Paused by the viewer.
    Paused,
    /// Ended, for this reason.
    Finished(StopReason),
    /// The annealing thread panicked with this message.
    Crashed(String),
}

/// A key a board handles itself (e.g. `b` for the best tour), for the hints and help.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardKey {
    /// The key.
    pub key: char,
    /// What it does, for the help.
    pub what: &'static str,
}

/// Draws one kind of snapshot.
pub trait Board<S>: Send {
    /// Smallest (width, height) the board can be drawn in.
    fn min_size(&self, snapshot: Option<&S>) -> (u16, u16);
    /// Draws `snapshot` into `area`.
    fn render(&self, snapshot: &S, area: Rect, buf: &mut Buffer, theme: &Theme);
    /// Marks the move just explained on the board `render` drew in `area` (the cells
    /// swapped, the edges dropped and added); `accepted` says whether it was carried out,
    /// so `snapshot` shows the state after it.
    fn mark(
        &self,
        _snapshot: &S,
        _sketch: &Sketch,
        _accepted: bool,
        _area: Rect,
        _buf: &mut Buffer,
        _theme: &Theme,
    ) {
    }
    /// Extra words for the title bar (e.g. tour length and gap), from the newest board and
    /// the lowest energy seen.
    fn headline(&self, _snapshot: &S, _best_energy: Option<f64>) -> Option<String> {
        None
    }
    /// What the energy counts, in a few words, for the help (at most 44 columns).
    fn energy_means(&self) -> &'static str {
        "what the annealer lowers"
    }
    /// The keys the board handles itself.
    fn keys(&self) -> &'static [BoardKey] {
        &[]
    }
    /// Handles a board key; `true` if it changed what is shown.
    fn key(&mut self, _key: char) -> bool {
        false
    }
    /// Whether the board wants the best state rather than the current one.
    fn wants_best(&self) -> bool {
        false
    }
    /// Whether a finished run shows the best state it found rather than where it ended
    /// (a tour: the shortest one, which the title's length and gap describe).
    fn best_at_end(&self) -> bool {
        false
    }
    /// What "finished at the target" means for this board (e.g. "SOLVED").
    fn target_word(&self) -> &'static str {
        "SOLVED"
    }
    /// Whether `snapshot` itself is at the target (a valid, complete Sudoku grid), so a
    /// banner claims only what the board drawn shows.
    fn at_target(&self, _snapshot: &S) -> bool {
        true
    }
    /// The files the `e` key saves: `shown` drawn as the board draws it, `best` as the
    /// headless run writes it; `None` for a board that saves nothing.
    fn export(&self, _shown: &S, _best: &S) -> Option<Export> {
        None
    }
}

/// Writes `text` in `style` at cell `(x, y)` of `area` (counted from its top left), cut
/// at the area's edges: a board can draw cell by cell, at any size the view gives it,
/// without checking where the area ends.
pub fn put(buf: &mut Buffer, area: Rect, (x, y): (usize, usize), text: &str, style: Style) {
    let (Ok(x), Ok(y)) = (u16::try_from(x), u16::try_from(y)) else {
        return;
    };
    if x < area.width && y < area.height {
        let room = usize::from(area.width - x);
        buf.set_stringn(area.x + x, area.y + y, text, room, style);
    }
}

/// One live run, seen from the event loop.
pub trait Session: Send {
    /// e.g. "Sudoku 9x9 · hardest.txt:6".
    fn title(&self) -> &str;
    /// Takes what the worker reported; `true` if anything changed.
    fn poll(&mut self) -> bool;
    /// What the run reported so far.
    fn history(&self) -> &History;
    /// Where the run stands.
    fn state(&self) -> &RunState;
    /// Whether the run reached its target and the board drawn confirms it.
    fn solved(&self) -> bool;
    /// Running time as the viewer saw it: pauses and the time since the end excluded.
    fn elapsed(&self) -> Duration;
    /// Sends a command to the annealing thread.
    fn send(&mut self, command: Command);
    /// Smallest (width, height) the board can be drawn in.
    fn min_board_size(&self) -> (u16, u16);
    /// Draws the board, with the move just explained marked on it.
    fn render_board(&self, area: Rect, buf: &mut Buffer, theme: &Theme);
    /// Extra words for the title bar (see `Board::headline`).
    fn headline(&self) -> Option<String>;
    /// The step just taken, explained, while steps are followed one by one.
    fn moved(&self) -> Option<&Explained> {
        None
    }
    /// The acceptance measured over the latest decisions, once asked for (`x`).
    fn measured(&self) -> Option<&Measured> {
        None
    }
    /// 0..=1: how much of its budget the run has used (see `History::progress`).
    fn progress(&self) -> f64;
    /// What the energy counts, for the help (see `Board::energy_means`).
    fn energy_means(&self) -> &'static str {
        "what the annealer lowers"
    }
    /// The board's own keys (see `Board::keys`).
    fn board_keys(&self) -> &'static [BoardKey];
    /// Handles a board key; `true` if it changed what is shown.
    fn board_key(&mut self, key: char) -> bool;
    /// What "finished at the target" means here (see `Board::target_word`).
    fn target_word(&self) -> &'static str;
    /// Saves the board as shown and the best state found as new files in `dir`.
    fn save(&self, _dir: &Path) -> Result<Vec<PathBuf>> {
        Err(eyre!("this board cannot be saved"))
    }
    /// How the run ended, once it has: the value a headless run's line and a race's
    /// ranking are made of, read from what the worker reported.
    fn finished(&self) -> Option<Finished> {
        let RunState::Finished(reason) = self.state() else {
            return None;
        };
        let latest = self.history().latest();
        Some(Finished {
            stop: (*reason).into(),
            solved: Some(self.solved()),
            energy: latest.map(|s| Energy::Real(s.best_energy)),
            measure: None,
            seconds: self.elapsed().as_secs_f64(),
            iterations: latest.map_or(0, |s| s.iteration),
        })
    }
    /// Writes the best state to the run's `--output` file, if it has one.
    fn write_output(&self) -> Result<()> {
        Ok(())
    }
}

/// The cells a board has to draw in when a run starts, so a demo can size its puzzle to
/// the screen (an image demo with one pixel per braille dot, say).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardArea {
    /// Columns.
    pub width: u16,
    /// Rows.
    pub height: u16,
}

/// What the tabs show of a demo, and the pace its runs start at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tab {
    /// e.g. "Sudoku".
    pub name: &'static str,
    /// How many puzzles `n`/`p` walk through.
    pub count: usize,
    /// The pace a fresh demo of this problem starts at.
    pub pace: Speed,
}

impl Tab {
    /// A tab of `count` puzzles, started at `pace` steps a second.
    pub fn new(name: &'static str, count: usize, pace: u64) -> Tab {
        Tab {
            name,
            count,
            pace: Speed::Limited(pace),
        }
    }

    /// The same tab, its runs starting at `pace` and rising a rung of the speed ladder
    /// every `RISE_EVERY` of running (`Speed::Rising`).
    pub fn rising(self) -> Tab {
        Tab {
            pace: Speed::Rising(self.pace.rate().unwrap_or(1)),
            ..self
        }
    }
}

/// How long a rising pace holds each rung: from 30k steps/s, full speed after 40 s.
pub(crate) const RISE_EVERY: Duration = Duration::from_secs(4);

/// A problem in the UI: its puzzles and how to start one.
pub trait Demo: Send {
    /// What its tab shows, and the pace its runs start at.
    fn tab(&self) -> Tab;
    /// Starts annealing puzzle `index` (0-based) at `speed`, for a board drawn in `area`.
    fn start(&self, index: usize, speed: Speed, area: BoardArea) -> Result<Box<dyn Session>>;
    /// Whether puzzle `index` is made to the size of the board it starts in (an image one
    /// pixel per braille dot), so a run is started again when the terminal is resized.
    fn sized_to_board(&self, _index: usize) -> bool {
        false
    }
}

/// Time that runs only while the run does.
#[derive(Debug, Clone, Copy)]
struct Stopwatch {
    before: Duration,
    since: Option<Instant>,
}

impl Stopwatch {
    fn started() -> Self {
        Stopwatch {
            before: Duration::ZERO,
            since: Some(Instant::now()),
        }
    }

    fn stop(&mut self, at: Instant) {
        if let Some(since) = self.since.take() {
            self.before += at.saturating_duration_since(since);
        }
    }

    fn start(&mut self, at: Instant) {
        self.since.get_or_insert(at);
    }

    fn read(&self) -> Duration {
        self.before + self.since.map(|s| s.elapsed()).unwrap_or_default()
    }
}

/// The one `Session` implementation: a worker running search `E`, drawn by `V`.
///
/// What is shown is one moment: the newest board, with the counters, plots and state of the
/// publication it belongs to. Reports of later publications wait until their board comes.
pub struct Live<E: Search, V> {
    title: String,
    worker: Worker<E::Snapshot>,
    view: V,
    snapshot: Option<E::Snapshot>,
    history: History,
    state: RunState,
    /// Reports that belong to a board not taken yet.
    pending: VecDeque<Stamped>,
    /// The step the board shows the result of, while steps are followed one by one.
    moved: Option<Explained>,
    measured: Option<Measured>,
    watch: Stopwatch,
    output: Option<Output<E::Snapshot>>,
}

impl<E, V> Live<E, V>
where
    E: Search,
    V: Board<E::Snapshot>,
{
    /// Runs `launch` live, drawn by `view`.
    pub fn start(launch: Launch<E>, view: V, speed: Speed) -> Self {
        let Launch {
            title,
            search,
            span: (high, low),
            reheat_to,
            budget,
            plan,
        } = launch;
        let snapshot = Some(search.snapshot());
        Live {
            title,
            worker: Worker::spawn(search, speed, reheat_to),
            view,
            snapshot,
            history: History::new(high, low).with_budget(budget).with_plan(plan),
            state: RunState::Running,
            output: None,
            pending: VecDeque::new(),
            moved: None,
            measured: None,
            watch: Stopwatch::started(),
        }
    }
}

impl<E, V> Live<E, V>
where
    E: Search,
    V: Board<E::Snapshot>,
{
    /// The run goes on, after a pause or its end.
    fn resume(&mut self, at: Instant) {
        if matches!(self.state, RunState::Finished(_)) && self.view.best_at_end() {
            self.worker.send(Command::ShowBest(self.view.wants_best()));
        }
        self.state = RunState::Running;
        self.watch.start(at);
    }

    /// Takes in one report of the moment about to be shown.
    fn apply(&mut self, report: Report, at: Instant) {
        match report {
            Report::Sample(sample) => self.history.push_at(sample, at),
            Report::Paused(true) => {
                self.state = RunState::Paused;
                self.watch.stop(at);
            }
            Report::Paused(false) => self.resume(at),
            Report::Revived => {
                // A fresh budget from here, as the runner gives it.
                self.history.revived();
                self.resume(at);
            }
            Report::Finished(reason) => {
                self.state = RunState::Finished(reason);
                self.watch.stop(at);
                if self.view.best_at_end() {
                    self.worker.send(Command::ShowBest(true));
                }
            }
            Report::Phases(work) => self.history.finished_with(work),
            Report::Crashed(message) => self.state = RunState::Crashed(message),
            Report::Moved(moved) => self.moved = moved.map(|m| *m),
            Report::Acceptance(measured) => self.measured = Some(*measured),
        }
    }

    /// Writes the best state to `output` when the run ends (`--output`).
    pub fn with_output(mut self, output: Option<Output<E::Snapshot>>) -> Self {
        self.output = output;
        self
    }

    fn best(&self) -> Result<E::Snapshot> {
        self.worker
            .best()
            .ok_or_else(|| eyre!("the annealer did not hand over its best state"))
    }
}

impl<E, V> Session for Live<E, V>
where
    E: Search,
    V: Board<E::Snapshot>,
{
    fn title(&self) -> &str {
        &self.title
    }

    fn poll(&mut self) -> bool {
        let frame = self.worker.take_frame();
        self.pending.extend(self.worker.drain());
        // A crash ends everything at once, whatever the board shows.
        if let Some(message) = self.pending.iter().find_map(|s| match &s.report {
            Report::Crashed(message) => Some(message.clone()),
            _ => None,
        }) {
            self.state = RunState::Crashed(message);
            return true;
        }
        let Some(frame) = frame else {
            return false;
        };
        while let Some(stamped) = self.pending.front() {
            if stamped.seq > frame.seq {
                break;
            }
            let Some(Stamped { at, report, .. }) = self.pending.pop_front() else {
                break;
            };
            self.apply(report, at);
        }
        self.snapshot = Some(frame.board);
        true
    }

    fn solved(&self) -> bool {
        self.state == RunState::Finished(StopReason::Target)
            && self
                .snapshot
                .as_ref()
                .is_some_and(|s| self.view.at_target(s))
    }

    fn elapsed(&self) -> Duration {
        self.watch.read()
    }

    fn history(&self) -> &History {
        &self.history
    }

    fn state(&self) -> &RunState {
        &self.state
    }

    fn send(&mut self, command: Command) {
        self.worker.send(command);
    }

    fn min_board_size(&self) -> (u16, u16) {
        self.view.min_size(self.snapshot.as_ref())
    }

    fn render_board(&self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let Some(snapshot) = &self.snapshot else {
            return;
        };
        self.view.render(snapshot, area, buf, theme);
        // The best state is not where the move was made.
        if let Some(moved) = self.moved.as_ref().filter(|_| !self.view.wants_best())
            && let Some(sketch) = &moved.sketch
        {
            let accepted = moved.decision.accepted;
            self.view.mark(snapshot, sketch, accepted, area, buf, theme);
        }
    }

    fn moved(&self) -> Option<&Explained> {
        self.moved.as_ref()
    }

    fn measured(&self) -> Option<&Measured> {
        self.measured.as_ref()
    }

    fn headline(&self) -> Option<String> {
        let best = self.history.latest().map(|s| s.best_energy);
        self.snapshot
            .as_ref()
            .and_then(|s| self.view.headline(s, best))
    }

    fn progress(&self) -> f64 {
        self.history.progress()
    }

    fn energy_means(&self) -> &'static str {
        self.view.energy_means()
    }

    fn board_keys(&self) -> &'static [BoardKey] {
        self.view.keys()
    }

    fn board_key(&mut self, key: char) -> bool {
        let before = self.view.wants_best();
        let changed = self.view.key(key);
        if self.view.wants_best() != before {
            self.worker.send(Command::ShowBest(self.view.wants_best()));
        }
        changed
    }

    fn target_word(&self) -> &'static str {
        self.view.target_word()
    }

    fn save(&self, dir: &Path) -> Result<Vec<PathBuf>> {
        let shown = self
            .snapshot
            .as_ref()
            .ok_or_else(|| eyre!("nothing drawn yet"))?;
        let export = self
            .view
            .export(shown, &self.best()?)
            .ok_or_else(|| eyre!("this board cannot be saved"))?;
        Ok(export.save_in(dir)?)
    }

    fn write_output(&self) -> Result<()> {
        match &self.output {
            Some(output) => output.write(&self.best()?),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_writes_within_its_area_and_cuts_at_the_edges() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 10, 4));
        let area = Rect::new(2, 1, 5, 2);
        put(&mut buf, area, (0, 0), "ab", Style::default());
        put(&mut buf, area, (3, 1), "xyz", Style::default());
        put(&mut buf, area, (5, 0), "!", Style::default());
        put(&mut buf, area, (0, 2), "!", Style::default());
        put(&mut buf, area, (usize::MAX, 0), "!", Style::default());
        let rows: Vec<String> = (0..4)
            .map(|y| (0..10).map(|x| buf[(x, y)].symbol()).collect())
            .collect();
        assert_eq!(
            rows,
            ["          ", "  ab      ", "     xy   ", "          "]
        );
    }
}
