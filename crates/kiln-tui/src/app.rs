//! The application state: which demo and puzzle is live, the speed, the help popup, the
//! attract loop; how keys change it and how it is drawn.

use std::time::{Duration, Instant};

use std::path::Path;

use color_eyre::Result;
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

use super::Tui;
use super::explain_panel::ExplainPanel;
use super::format;
use super::help::{self, Help, WithPanel};
use super::history::History;
use super::keys::{Action, Flow, View, close_help, footer, hint_spans};
use super::lesson;
use super::session::{BoardArea, Demo, RISE_EVERY, RunState, Session};
use super::stats::{self, StatsPanel};
use super::theme::Theme;
use crate::save::saved_message;
use kiln_core::search::worker::{Command, Speed};
use kiln_core::search::{Stop, StopReason};

/// How long a notice (files saved, a puzzle that would not start) stays in the title.
const NOTICE_TIME: Duration = Duration::from_secs(4);

/// A line for the title, and when it goes.
struct Notice {
    text: String,
    until: Instant,
}

impl Notice {
    fn new(text: String) -> Notice {
        Notice {
            text,
            until: Instant::now() + NOTICE_TIME,
        }
    }
}

/// The single-board live view: a tab per demo, the board of the run shown, its stats or
/// explain panel, the lesson line at slow speeds, the title and the footer's keys.
pub struct App {
    demos: Vec<Box<dyn Demo>>,
    tab: usize,
    /// The puzzle shown last in each demo.
    puzzle: Vec<usize>,
    session: Box<dyn Session>,
    speed: Speed,
    help: bool,
    /// Whether the help was turned to its second page, the stats panel's (where it takes
    /// two).
    panel_page: bool,
    /// Whether the explain panel (`x`) is shown in the stats panel's place.
    explain: bool,
    theme: Theme,
    /// Drawn for a watcher of a shared run, whose keys steer nothing.
    watching: bool,
    /// Why the last puzzle change failed, or which files were saved: shown in the title for
    /// `NOTICE_TIME`, or until the next change.
    notice: Option<Notice>,
    /// The terminal's size, for sizing the next run's board.
    screen: Rect,
    /// The board the current run was started for.
    board: BoardArea,
    /// When the terminal last changed size, until the change is acted on (`refit`).
    resized: Option<Instant>,
    /// Whether a finished run makes way for the next one by itself.
    attract: bool,
    /// When the attract loop moves on from the finished run shown.
    advance_at: Option<Instant>,
    /// The whole seconds of the countdown last drawn: the screen changes when they do.
    countdown: Option<u64>,
    /// Whether the save key writes files (not for the clients of `kiln serve`).
    saves: bool,
    /// How long the run has been running at the rung of a rising pace it is on, as of
    /// `polled`.
    on_rung: Duration,
    polled: Instant,
}

/// How long a finished run's banner stays before the attract loop moves on.
const HOLD: Duration = Duration::from_secs(5);
/// How long a new terminal size must last before a run sized to the screen is started
/// again at it: a window dragged to a new size restarts the run once, not at every step.
const SETTLE: Duration = Duration::from_millis(300);

/// The areas of a screen: title row, board, stats panel, the lesson's rows (if any) and
/// the hint row.
struct Areas {
    title: Rect,
    board: Rect,
    panel: Rect,
    lesson: Rect,
    hints: Rect,
}

/// Splits the screen so the board gets most of it: the stats panel takes about a third of
/// the width, between its minimum and a width past which it has nothing more to show;
/// `lesson` rows across the whole width go under both, and the hint row under them unless
/// the lesson took it.
fn areas(area: Rect, lesson: u16, footer: bool) -> Areas {
    let [title, body, lesson, hints] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(lesson),
        Constraint::Length(footer.into()),
    ])
    .areas(area);
    let stats_width = (area.width * 7 / 20).clamp(stats::WIDTH, stats::MAX_WIDTH);
    let [board, panel] =
        Layout::horizontal([Constraint::Fill(1), Constraint::Length(stats_width)]).areas(body);
    Areas {
        title,
        board,
        panel,
        lesson,
        hints,
    }
}

/// The board area of a screen of `screen`'s size.
fn board_area(screen: Rect) -> BoardArea {
    let board = areas(screen, 0, true).board;
    BoardArea {
        width: board.width,
        height: board.height,
    }
}

impl App {
    /// Starts `demos[tab]` at puzzle `index`, at `speed` or the demo's own pace.
    pub fn new(
        demos: Vec<Box<dyn Demo>>,
        tab: usize,
        index: usize,
        speed: Option<Speed>,
        theme: Theme,
        screen: Rect,
        attract: bool,
    ) -> Result<Self> {
        let speed = speed.unwrap_or_else(|| demos[tab].tab().pace);
        let board = board_area(screen);
        let session = demos[tab].start(index, speed, board)?;
        let mut puzzle = vec![0; demos.len()];
        puzzle[tab] = index;
        Ok(App {
            demos,
            tab,
            puzzle,
            session,
            speed,
            help: false,
            panel_page: false,
            explain: false,
            theme,
            watching: false,
            notice: None,
            screen,
            board,
            resized: None,
            attract,
            advance_at: None,
            countdown: None,
            saves: true,
            on_rung: Duration::ZERO,
            polled: Instant::now(),
        })
    }

    /// The same app with the save key turned off: it is run for someone who must not make
    /// kiln write files (a client of `kiln serve`).
    pub fn without_saving(mut self) -> Self {
        self.saves = false;
        self
    }

    /// Draws with `theme` from now on (each client of a shared run has its own terminal).
    pub fn set_theme(&mut self, theme: Theme) {
        self.theme = theme;
    }

    /// Whether the frames drawn from now on are for someone whose keys steer the run (a
    /// shared run's watchers are told of no key they cannot use).
    pub fn set_steering(&mut self, steering: bool) {
        self.watching = !steering;
    }

    /// Moves the attract loop on: the next puzzle, and after a tab's last the next tab.
    fn advance(&mut self) {
        let next = self.puzzle[self.tab] + 1;
        if next < self.demos[self.tab].tab().count || self.demos.len() == 1 {
            self.switch(self.tab, Step::Forward);
        } else {
            let tab = (self.tab + 1) % self.demos.len();
            self.puzzle[tab] = 0;
            self.switch(tab, Step::Stay);
        }
    }

    /// Starts the attract loop's countdown when the run ends; moves on when it runs out.
    fn tick_attract(&mut self) -> bool {
        let finished = matches!(self.session.state(), RunState::Finished(_));
        if !(self.attract && finished) {
            self.advance_at = None;
            return false;
        }
        let due = *self.advance_at.get_or_insert_with(|| Instant::now() + HOLD);
        if Instant::now() < due {
            return false;
        }
        self.advance();
        true
    }

    /// Whole seconds until the attract loop moves on, while it counts down.
    fn seconds_left(&self) -> Option<u64> {
        self.advance_at.map(|due| {
            due.saturating_duration_since(Instant::now())
                .as_secs_f64()
                .ceil() as u64
        })
    }

    /// Steps a rising pace up a rung once the run has been running `RISE_EVERY` on the
    /// one it is on (time paused or ended does not count); `true` if it did.
    fn tick_rise(&mut self) -> bool {
        let now = Instant::now();
        if *self.session.state() == RunState::Running {
            self.on_rung += now.saturating_duration_since(self.polled);
        }
        self.polled = now;
        if !matches!(self.speed, Speed::Rising(_)) || self.on_rung < RISE_EVERY {
            return false;
        }
        self.set_speed(self.speed.risen());
        true
    }

    /// Starts the current puzzle again from its beginning: a fresh run, counters and plots.
    fn restart(&mut self) {
        self.switch(self.tab, Step::Again);
    }

    /// Once the terminal has kept a new size for `SETTLE`, starts a run sized to the screen
    /// (an image filling the board) again at the new board size: the same tab, item and
    /// speed, paused if it was. A run that has ended stays as it is, drawn scaled, as does
    /// one whose size comes from its input (a file, `--size`, a Sudoku, a tour). `true` if
    /// it started again.
    fn refit(&mut self) -> bool {
        let Some(at) = self.resized else {
            return false;
        };
        if at.elapsed() < SETTLE {
            return false;
        }
        self.resized = None;
        let (need_w, need_h) = self.needed();
        let fits = self.screen.width >= need_w && self.screen.height >= need_h;
        let paused = *self.session.state() == RunState::Paused;
        let live = paused || *self.session.state() == RunState::Running;
        let sized = self.demos[self.tab].sized_to_board(self.puzzle[self.tab]);
        if !(fits && live && sized) || board_area(self.screen) == self.board {
            return false;
        }
        self.restart();
        if paused {
            self.session.send(Command::TogglePause);
        }
        true
    }

    fn action(&mut self, action: Action) -> Flow {
        // With the help on two pages, `?` turns from the keys to the stats panel.
        if self.help
            && action == Action::Help
            && !self.panel_page
            && help::two_pages(self.view(), self.session.board_keys(), self.screen)
        {
            self.panel_page = true;
            return Flow::Continue;
        }
        if let Some(flow) = close_help(&mut self.help, action) {
            self.panel_page = false;
            return flow;
        }
        if action == Action::Restart {
            self.restart();
            return Flow::Continue;
        }
        if let Some(command) = action.command() {
            self.session.send(command);
            return Flow::Continue;
        }
        match action {
            Action::Quit | Action::QuitNow => return Flow::Quit,
            Action::Help => self.help = true,
            Action::Faster => self.set_speed(self.speed.faster()),
            Action::Slower => self.set_speed(self.speed.slower()),
            Action::NextPuzzle => self.switch(self.tab, Step::Forward),
            Action::PreviousPuzzle => self.switch(self.tab, Step::Back),
            Action::NextDemo => self.switch((self.tab + 1) % self.demos.len(), Step::Stay),
            Action::PreviousDemo => {
                let n = self.demos.len();
                self.switch((self.tab + n - 1) % n, Step::Stay)
            }
            Action::Attract => self.attract = !self.attract,
            Action::Explain => {
                self.explain = !self.explain;
                self.session.send(Command::Explain(self.explain));
            }
            Action::Board(key) => {
                self.session.board_key(key);
            }
            Action::Save if !self.saves => {
                self.notice = Some(Notice::new("saving is off here".to_string()));
            }
            // Into the directory kiln was started in.
            Action::Save => {
                self.notice = Some(Notice::new(match self.session.save(Path::new(".")) {
                    Ok(paths) => saved_message(&paths),
                    Err(e) => format!("not saved: {e}"),
                }));
            }
            Action::TogglePause
            | Action::Step
            | Action::Reheat
            | Action::Restart
            | Action::Dismiss => {}
        }
        Flow::Continue
    }

    /// Writes the best state to the current run's `--output` file, if it has one.
    pub fn write_output(&self) -> Result<()> {
        self.session.write_output()
    }

    fn set_speed(&mut self, speed: Speed) {
        self.speed = speed;
        self.on_rung = Duration::ZERO;
        self.session.send(Command::SetSpeed(speed));
    }

    fn switch(&mut self, tab: usize, step: Step) {
        let count = self.demos[tab].tab().count.max(1);
        let current = self.puzzle[tab];
        let index = match step {
            Step::Forward => (current + 1) % count,
            Step::Back => (current + count - 1) % count,
            Step::Stay | Step::Again => current,
        };
        if tab == self.tab && index == current && matches!(step, Step::Forward | Step::Back) {
            return;
        }
        // A rising pace starts each run from its foot again.
        let speed = if tab == self.tab && !matches!(self.speed, Speed::Rising(_)) {
            self.speed
        } else {
            self.demos[tab].tab().pace
        };
        let board = board_area(self.screen);
        match self.demos[tab].start(index, speed, board) {
            Ok(session) => {
                self.session = session;
                if self.explain {
                    self.session.send(Command::Explain(true));
                }
                self.board = board;
                self.tab = tab;
                self.puzzle[tab] = index;
                self.speed = speed;
                self.on_rung = Duration::ZERO;
                self.notice = None;
            }
            Err(e) => self.notice = Some(Notice::new(format!("{e}"))),
        }
    }

    /// The terminal size the current board needs.
    fn needed(&self) -> (u16, u16) {
        let (w, h) = self.session.min_board_size();
        (w + stats::WIDTH + 1, h.max(stats::MIN_HEIGHT) + 2)
    }

    /// "kiln [Sudoku] 3/13 · running · 9x9 hardest11.txt:3 · ...": what matters most first,
    /// as a narrow terminal cuts the end.
    fn title_line(&self) -> Line<'_> {
        let theme = &self.theme;
        let mut spans = vec![Span::styled(" kiln ", theme.title)];
        if self.demos.len() > 1 {
            spans.push(Span::styled(
                format!("[{}] ", self.demos[self.tab].tab().name),
                theme.key,
            ));
        }
        let count = self.demos[self.tab].tab().count;
        if count > 1 {
            spans.push(Span::styled(
                format!("{}/{count} ", self.puzzle[self.tab] + 1),
                theme.dim,
            ));
        }
        let (word, style) = match self.session.state() {
            RunState::Running => ("running", theme.good),
            RunState::Paused => (" PAUSED ", theme.badge),
            RunState::Finished(StopReason::Target) if self.session.solved() => {
                (self.session.target_word(), theme.good)
            }
            RunState::Finished(_) => ("stopped", theme.warn),
            RunState::Crashed(_) => ("CRASHED", theme.warn),
        };
        spans.push(Span::styled(word, style));
        if let Some(notice) = &self.notice {
            spans.push(Span::styled(format!(" · {}", notice.text), theme.warn));
        }
        // The numbers first: a narrow terminal cuts the end of the line.
        if let Some(headline) = self.session.headline() {
            spans.push(Span::raw(format!(" · {headline}")));
        }
        spans.push(Span::raw(format!(" · {}", self.session.title())));
        Line::from(spans)
    }

    /// The run shown.
    pub fn session(&self) -> &dyn Session {
        self.session.as_ref()
    }

    /// The speed runs go at (the next one starts at it too).
    pub fn speed(&self) -> Speed {
        self.speed
    }

    /// Which keys this view has, for the footer and the help.
    pub fn view(&self) -> View {
        View::Single {
            tabs: self.demos.len() > 1,
            saves: self.saves,
        }
    }

    fn hints(&self, width: u16) -> Line<'_> {
        Line::from(hint_spans(footer(self.view(), width), &self.theme))
    }

    /// Two lines about a finished run: how it ended, and what it took.
    fn banner(&self) -> Option<Vec<String>> {
        let run = self.session.finished()?;
        let s = self.session.history().latest()?;
        let best = format::energy(s.best_energy);
        // Credited to the phase of the state shown: the chain that won, or the polish that
        // lowered the result.
        let by = s.phase.name();
        let headline = match run.stop {
            _ if run.stop.reached() && run.is_solved() => format!(
                "{} by {by} in {}",
                self.session.target_word(),
                format::elapsed(Duration::from_secs_f64(run.seconds))
            ),
            // Never claimed over a board that does not show it.
            Stop::Target | Stop::Optimum => {
                format!("ended · board not at the target · E {best}")
            }
            Stop::NoSolution => "no solution · conflict learning proved it".to_string(),
            stop => format!("{} · best E {best}", stop.said()),
        };
        let effort = format!(
            "{} iterations · {} restarts",
            format::count(run.iterations),
            format::count(s.restarts)
        );
        let mut lines = vec![headline];
        // A run of phases one after another says each one's share and which found the
        // best; a run of one phase per chain, which phase found it when a budget ended it.
        let credit = credit(self.session.history());
        if credit.is_empty()
            && let Stop::Steps | Stop::Time = run.stop
        {
            lines.push(format!("found by {by}"));
        }
        lines.extend(credit);
        lines.push(effort);
        if let Some(left) = self.seconds_left() {
            lines.push(format!("next in {left} s · a stays"));
        }
        Some(lines)
    }
}

/// Who made the result of a run of several phases, e.g. "after 20% annealing + 80% local
/// search" and "best found by local search"; nothing for a run of one phase.
fn credit(history: &History) -> Vec<String> {
    let shares = history.phase_shares();
    if shares.len() < 2 {
        return Vec::new();
    }
    let parts: Vec<String> = shares
        .iter()
        .map(|(phase, share)| format!("{:.0}% {}", share * 100.0, phase.name()))
        .collect();
    let mut lines = vec![format!("after {}", parts.join(" + "))];
    lines.extend(
        history
            .found_by()
            .map(|p| format!("best found by {}", p.name())),
    );
    lines
}

impl Tui for App {
    fn poll(&mut self) -> bool {
        let refitted = self.refit();
        let changed = self.session.poll();
        let moved = self.tick_attract();
        let risen = self.tick_rise();
        // A notice goes by itself, or it would stand before the title for good.
        let expired = self
            .notice
            .take_if(|notice| notice.until <= Instant::now())
            .is_some();
        // The banner's countdown is redrawn when its whole seconds change, not every frame.
        let left = self.seconds_left();
        let counted = left != self.countdown;
        self.countdown = left;
        refitted || moved || changed || counted || expired || risen
    }

    fn on_action(&mut self, action: Action) -> Flow {
        self.action(action)
    }

    fn crashed(&self) -> Option<String> {
        match self.session.state() {
            RunState::Crashed(message) => Some(message.clone()),
            _ => None,
        }
    }

    fn render(&self, area: Rect, buf: &mut Buffer) {
        Widget::render(self, area, buf);
        self.theme.enforce(buf);
    }

    fn resize(&mut self, screen: Rect) {
        if screen != self.screen {
            self.screen = screen;
            self.resized = Some(Instant::now());
        }
    }
}

/// What a terminal smaller than the board needs is told, in as few columns as it has.
fn too_small(area: Rect, (need_w, need_h): (u16, u16), buf: &mut Buffer) {
    let now = format!("now {}x{}", area.width, area.height);
    let lines = if area.width >= 32 {
        vec![
            format!("terminal too small (need {need_w}x{need_h})"),
            format!("{now}; q quits"),
        ]
    } else {
        vec![
            format!("need {need_w}x{need_h}"),
            now,
            "q quits".to_string(),
        ]
    };
    let [middle] = Layout::vertical([Constraint::Length(lines.len() as u16)])
        .flex(Flex::Center)
        .areas(area);
    Paragraph::new(lines.into_iter().map(Line::raw).collect::<Vec<_>>())
        .alignment(Alignment::Center)
        .render(middle, buf);
}

/// A badge at the top of the board, so a paused run is told from a slow one at a glance.
fn paused_badge(board: Rect, buf: &mut Buffer, theme: &Theme, watching: bool) {
    let text = if watching {
        " PAUSED "
    } else {
        " PAUSED · space resumes "
    };
    let width = (text.len() as u16).min(board.width);
    let [badge] = Layout::horizontal([Constraint::Length(width)])
        .flex(Flex::Center)
        .areas(Rect { height: 1, ..board });
    Paragraph::new(Span::styled(text, theme.badge)).render(badge, buf);
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Forward,
    Back,
    /// The tab's current puzzle (switching tabs).
    Stay,
    /// The current puzzle once more, from its beginning.
    Again,
}

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let (need_w, need_h) = self.needed();
        if area.width < need_w || area.height < need_h {
            too_small(area, (need_w, need_h), buf);
            return;
        }
        // The lesson takes the rows the board and the panel can spare, and the footer's
        // when they spare too few (the keys are in the help); with one row for
        // two lines, the decision (the board marks the move).
        let mut lesson = self
            .session
            .moved()
            .map(|moved| lesson::lines(moved, area.width))
            .unwrap_or_default();
        let spare = area.height.saturating_sub(need_h);
        let room = usize::from(spare) + 1;
        if lesson.len() > room {
            lesson.drain(..lesson.len() - room);
        }
        let footer = lesson.len() <= usize::from(spare);
        let Areas {
            title,
            board,
            panel,
            lesson: lesson_area,
            hints,
        } = areas(area, lesson.len() as u16, footer);

        Paragraph::new(format::fit(self.title_line(), title.width)).render(title, buf);
        Paragraph::new(self.hints(hints.width)).render(hints, buf);
        self.session.render_board(board, buf, &self.theme);
        let lesson: Vec<Line> = lesson
            .into_iter()
            .map(|l| format::fit(Line::styled(l, self.theme.key), lesson_area.width))
            .collect();
        Paragraph::new(lesson).render(lesson_area, buf);
        if self.explain {
            ExplainPanel {
                temperature: self
                    .session
                    .history()
                    .latest()
                    .and_then(|s| s.control.temperature()),
                measured: self.session.measured(),
                theme: &self.theme,
            }
            .render(panel, buf);
        } else {
            StatsPanel {
                history: self.session.history(),
                progress: self.session.progress(),
                speed: self.speed,
                running: *self.session.state() == RunState::Running,
                elapsed: self.session.elapsed(),
                theme: &self.theme,
            }
            .render(panel, buf);
        }
        if *self.session.state() == RunState::Paused {
            paused_badge(board, buf, &self.theme, self.watching);
        }

        if let Some(text) = self.banner() {
            // Wrapped here, not by the paragraph, so that the box is as tall as its lines.
            let room = usize::from(board.width.saturating_sub(4)).max(1);
            let text: Vec<String> = text.iter().flat_map(|l| format::wrap(l, room)).collect();
            let longest = text.iter().map(|l| l.chars().count()).max().unwrap_or(0);
            let width = (longest as u16 + 4).min(board.width);
            let [row] = Layout::vertical([Constraint::Length(text.len() as u16 + 2)])
                .flex(Flex::End)
                .areas(board);
            let [banner] = Layout::horizontal([Constraint::Length(width)])
                .flex(Flex::Center)
                .areas(row);
            Clear.render(banner, buf);
            Paragraph::new(
                text.into_iter()
                    .map(|l| Line::styled(l, self.theme.good))
                    .collect::<Vec<_>>(),
            )
            .alignment(Alignment::Center)
            .wrap(Wrap { trim: true })
            .block(
                Block::bordered()
                    .border_set(self.theme.border_set())
                    .border_style(self.theme.good),
            )
            .render(banner, buf);
        }
        // Over the whole screen: at 80x24 the keys and the panel's lines fit one page.
        if self.help {
            WithPanel {
                help: Help {
                    view: self.view(),
                    board_keys: self.session.board_keys(),
                    theme: &self.theme,
                },
                energy: self.session.energy_means(),
                panel_page: self.panel_page,
            }
            .render(area, buf);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::keys::keys_for;
    use crate::session::Tab;
    use crate::testing::{Digits, frozen, frozen_solved};

    /// A demo whose runs are frozen in `.0`, on a solved board when `.1`.
    struct FrozenDemo(RunState, bool);

    impl Demo for FrozenDemo {
        fn tab(&self) -> Tab {
            Tab::new("Sudoku", 3, 1_000)
        }
        fn start(&self, _: usize, _: Speed, _: BoardArea) -> Result<Box<dyn Session>> {
            let view = Digits("27 givens +0 propagated");
            Ok(if self.1 {
                Box::new(frozen_solved(self.0.clone(), view))
            } else {
                Box::new(frozen(self.0.clone(), view))
            })
        }
    }

    fn screen(app: &App, width: u16, height: u16) -> Vec<String> {
        crate::drawn(app, width, height)
    }

    fn app(state: RunState) -> App {
        app_of(FrozenDemo(state, false))
    }

    fn app_of(demo: FrozenDemo) -> App {
        App::new(
            vec![Box::new(demo)],
            0,
            0,
            None,
            Theme::colour(false),
            Rect::new(0, 0, 80, 24),
            false,
        )
        .unwrap()
    }

    #[test]
    fn help_lists_every_key_of_the_view_and_closes_without_quitting() {
        let mut app = app(RunState::Running);
        for closer in [Action::Quit, Action::Help, Action::Step] {
            app.on_action(Action::Help);
            let text = screen(&app, 80, 24).join("\n");
            for key in keys_for(View::Single {
                tabs: false,
                saves: true,
            }) {
                assert!(text.contains(key.what), "help misses {:?}", key.what);
            }
            assert!(!text.contains("next demo"), "no tabs, no Tab key: {text}");
            assert_eq!(app.on_action(closer), Flow::Continue, "{closer:?}");
            assert!(!screen(&app, 80, 24).join("\n").contains("this help"));
        }
        app.on_action(Action::Help);
        assert_eq!(app.on_action(Action::QuitNow), Flow::Quit);
    }

    #[test]
    fn pausing_shows_a_badge() {
        let mut app = app(RunState::Running);
        app.on_action(Action::TogglePause);
        let lines = screen(&app, 80, 24);
        assert!(lines[0].contains(" PAUSED "), "{}", lines[0]);
        assert!(lines[1].contains("PAUSED · space resumes"), "{}", lines[1]);
        assert!(lines.iter().any(|l| l.contains("iter/s     -")));
    }

    #[test]
    fn a_solved_run_gets_a_banner() {
        let app = app_of(FrozenDemo(RunState::Finished(StopReason::Target), true));
        let text = screen(&app, 80, 24).join("\n");
        assert!(
            text.contains("│   SOLVED by annealing in 0.06 s   │"),
            "{text}"
        );
        assert!(
            text.contains("│ 3,000,000 iterations · 2 restarts │"),
            "{text}"
        );
        assert!(screen(&app, 80, 24)[0].contains(" SOLVED ·"));
    }

    #[test]
    fn a_banner_narrower_than_its_lines_wraps_them_and_keeps_them_all() {
        let app = app_of(FrozenDemo(RunState::Finished(StopReason::Target), true));
        let text = screen(&app, 58, 24).join("\n");
        for words in [
            "SOLVED by annealing",
            "0.06 s",
            "3,000,000 iterations",
            "2 restarts",
        ] {
            assert!(text.contains(words), "{words:?} missing: {text}");
        }
    }

    #[test]
    fn a_refuted_run_says_there_is_no_solution() {
        let app = app_of(FrozenDemo(RunState::Finished(StopReason::Refuted), false));
        let text = screen(&app, 80, 24).join("\n");
        assert!(
            text.contains("no solution · conflict learning proved it"),
            "{text}"
        );
        assert!(!text.contains("SOLVED"), "{text}");
    }

    #[test]
    fn no_solved_banner_over_a_board_that_is_not_solved() {
        let app = app_of(FrozenDemo(RunState::Finished(StopReason::Target), false));
        let text = screen(&app, 80, 24).join("\n");
        assert!(!text.contains("SOLVED"), "{text}");
        assert!(text.contains("board not at the target"), "{text}");
    }

    #[test]
    fn a_notice_leaves_the_title_after_a_few_seconds() {
        let mut app = app(RunState::Running).without_saving();
        app.on_action(Action::Save);
        assert!(screen(&app, 80, 24)[0].contains("saving is off here"));
        app.poll();
        assert!(screen(&app, 80, 24)[0].contains("saving is off here"));
        app.notice.as_mut().unwrap().until = Instant::now();
        assert!(app.poll(), "the title changes: redraw");
        assert!(!screen(&app, 80, 24)[0].contains("saving is off here"));
    }

    #[test]
    fn the_footer_fits_80_columns_and_ends_in_help() {
        let lines = screen(&app(RunState::Running), 80, 24);
        assert!(lines[23].trim_end().ends_with("? help"), "{}", lines[23]);
    }

    #[test]
    fn where_saving_is_off_neither_the_footer_nor_the_help_offers_it() {
        let saving = screen(&app(RunState::Running), 80, 24);
        assert!(saving[23].contains("e save"), "{}", saving[23]);
        let mut app = app(RunState::Running).without_saving();
        assert!(!screen(&app, 80, 24)[23].contains("e save"));
        app.on_action(Action::Help);
        let help = screen(&app, 80, 24).join("\n");
        assert!(help.contains("pause"), "{help}");
        assert!(!help.contains("save board"), "{help}");
    }

    /// The item and board of every run a demo started.
    type Started = Arc<Mutex<Vec<(usize, BoardArea)>>>;

    /// A demo of frozen runs that records the board each run was started for, made to the
    /// size of its board when `sized`.
    struct Recording {
        boards: Started,
        sized: bool,
        state: RunState,
    }

    impl Demo for Recording {
        fn tab(&self) -> Tab {
            Tab::new("Image", 3, 1_000)
        }
        fn start(&self, index: usize, _: Speed, area: BoardArea) -> Result<Box<dyn Session>> {
            self.boards.lock().unwrap().push((index, area));
            let view = Digits("");
            Ok(Box::new(frozen(self.state.clone(), view)))
        }
        fn sized_to_board(&self, _: usize) -> bool {
            self.sized
        }
    }

    fn recording(sized: bool, state: RunState) -> (App, Started) {
        let boards = Arc::new(Mutex::new(Vec::new()));
        let demo = Recording {
            boards: Arc::clone(&boards),
            sized,
            state,
        };
        let app = App::new(
            vec![Box::new(demo)],
            0,
            1,
            Some(Speed::Limited(50)),
            Theme::colour(false),
            Rect::new(0, 0, 80, 24),
            false,
        )
        .unwrap();
        (app, boards)
    }

    /// A demo of frozen runs in `.1` whose tab starts at a rising pace; it records the
    /// speed each run was started at.
    struct Rising(Arc<Mutex<Vec<Speed>>>, RunState);

    impl Demo for Rising {
        fn tab(&self) -> Tab {
            Tab::new("Sudoku", 3, 30_000).rising()
        }
        fn start(&self, _: usize, speed: Speed, _: BoardArea) -> Result<Box<dyn Session>> {
            self.0.lock().unwrap().push(speed);
            Ok(Box::new(frozen(self.1.clone(), Digits(""))))
        }
    }

    fn rising(state: RunState) -> (App, Arc<Mutex<Vec<Speed>>>) {
        let speeds = Arc::new(Mutex::new(Vec::new()));
        let demo = Rising(Arc::clone(&speeds), state);
        let screen = Rect::new(0, 0, 80, 24);
        let app = App::new(
            vec![Box::new(demo)],
            0,
            0,
            None,
            Theme::colour(false),
            screen,
            false,
        );
        (app.unwrap(), speeds)
    }

    #[test]
    fn a_rising_pace_climbs_a_rung_per_while_of_running_until_a_key_holds_it() {
        let (mut app, speeds) = rising(RunState::Running);
        app.poll();
        assert_eq!(app.speed, Speed::Rising(30_000));
        app.on_rung = RISE_EVERY;
        assert!(app.poll(), "a new rung is drawn");
        assert_eq!(app.speed, Speed::Rising(50_000));
        let panel = screen(&app, 80, 24).join("\n");
        assert!(panel.contains("50.0k/s rising"), "{panel}");
        // The next puzzle starts from the foot of the ladder again.
        app.on_action(Action::NextPuzzle);
        assert_eq!(app.speed, Speed::Rising(30_000));
        // A key holds the pace where it takes it, for this run and the next.
        app.on_action(Action::Faster);
        assert_eq!(app.speed, Speed::Limited(50_000));
        app.on_rung = 10 * RISE_EVERY;
        app.poll();
        app.on_action(Action::NextPuzzle);
        assert_eq!(app.speed, Speed::Limited(50_000));
        let started = speeds.lock().unwrap().clone();
        let expected = [
            Speed::Rising(30_000),
            Speed::Rising(30_000),
            Speed::Limited(50_000),
        ];
        assert_eq!(started, expected);
    }

    #[test]
    fn a_paused_run_does_not_climb() {
        let (mut app, _) = rising(RunState::Paused);
        app.on_rung = RISE_EVERY / 2;
        app.polled -= RISE_EVERY;
        app.poll();
        assert_eq!(
            (app.speed, app.on_rung),
            (Speed::Rising(30_000), RISE_EVERY / 2)
        );
    }

    /// As if the terminal had kept its size for `SETTLE`.
    fn settle(app: &mut App) -> bool {
        if let Some(at) = app.resized.as_mut() {
            *at -= SETTLE;
        }
        app.poll()
    }

    const SMALL: BoardArea = BoardArea {
        width: 48,
        height: 22,
    };
    const LARGE: BoardArea = BoardArea {
        width: 78,
        height: 38,
    };

    #[test]
    fn a_resize_starts_a_run_sized_to_the_screen_again_once_the_size_settles() {
        let (mut app, boards) = recording(true, RunState::Running);
        app.on_action(Action::TogglePause);
        // A window dragged from 80x24 to 120x40: nothing until the size has lasted.
        for (w, h) in [(90, 28), (100, 33), (120, 40)] {
            app.resize(Rect::new(0, 0, w, h));
            app.poll();
        }
        assert_eq!(*boards.lock().unwrap(), vec![(1, SMALL)]);
        assert!(settle(&mut app), "a restart is drawn");
        // Once, at the last size: the same item and speed, still paused.
        assert_eq!(*boards.lock().unwrap(), vec![(1, SMALL), (1, LARGE)]);
        assert_eq!(app.speed, Speed::Limited(50));
        assert_eq!(*app.session.state(), RunState::Paused);
        settle(&mut app);
        // The same board again (a size that changes the board by nothing) starts nothing.
        app.resize(Rect::new(0, 0, 120, 40));
        app.resize(Rect::new(0, 0, 121, 40));
        app.resize(Rect::new(0, 0, 120, 40));
        settle(&mut app);
        assert_eq!(boards.lock().unwrap().len(), 2);
    }

    #[test]
    fn a_resize_leaves_a_run_sized_by_its_input_or_one_that_ended() {
        for (sized, state) in [
            (false, RunState::Running),
            (true, RunState::Finished(StopReason::MaxSteps)),
        ] {
            let (mut app, boards) = recording(sized, state.clone());
            app.resize(Rect::new(0, 0, 120, 40));
            settle(&mut app);
            assert_eq!(
                *boards.lock().unwrap(),
                vec![(1, SMALL)],
                "{sized} {state:?}"
            );
            // A run started after it is sized to the new screen.
            app.on_action(Action::NextPuzzle);
            assert_eq!(boards.lock().unwrap()[1], (2, LARGE));
        }
    }

    #[test]
    fn quit_keys_quit() {
        assert_eq!(app(RunState::Running).on_action(Action::Quit), Flow::Quit);
    }
}
