//! The application state: which demo and puzzle is live, the speed, the help popup; how keys
//! change it and how it is drawn.

use color_eyre::Result;
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

use super::format;
use super::help::Help;
use super::keys::{Action, KEYS};
use super::session::{Demo, RunState, Session};
use super::stats::{self, StatsPanel};
use super::theme::Theme;
use crate::anneal::StopReason;
use crate::anneal::worker::{Command, Speed};

pub struct App {
    demos: Vec<Box<dyn Demo>>,
    tab: usize,
    /// The puzzle shown last in each demo.
    puzzle: Vec<usize>,
    session: Box<dyn Session>,
    speed: Speed,
    help: bool,
    theme: Theme,
    /// Why the last puzzle change failed, shown until the next change.
    notice: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

impl App {
    /// Starts `demos[tab]` at puzzle `index`, at `speed` or the demo's own pace.
    pub fn new(
        demos: Vec<Box<dyn Demo>>,
        tab: usize,
        index: usize,
        speed: Option<Speed>,
        theme: Theme,
    ) -> Result<Self> {
        let speed = speed.unwrap_or_else(|| demos[tab].default_speed());
        let session = demos[tab].start(index, speed)?;
        let mut puzzle = vec![0; demos.len()];
        puzzle[tab] = index;
        Ok(App {
            demos,
            tab,
            puzzle,
            session,
            speed,
            help: false,
            theme,
            notice: None,
        })
    }

    pub fn session(&self) -> &dyn Session {
        self.session.as_ref()
    }

    /// Takes the worker's news; `true` if the screen should be redrawn.
    pub fn poll(&mut self) -> bool {
        self.session.poll()
    }

    pub fn on_action(&mut self, action: Action) -> Flow {
        if self.help {
            // Any key closes the help; quitting still works from it.
            self.help = false;
            return if action == Action::Quit {
                Flow::Quit
            } else {
                Flow::Continue
            };
        }
        match action {
            Action::Quit => return Flow::Quit,
            Action::Help => self.help = true,
            Action::TogglePause => self.session.send(Command::TogglePause),
            Action::Step => self.session.send(Command::Step),
            Action::Reheat => self.session.send(Command::Reheat),
            Action::Restart => self.session.send(Command::Restart),
            Action::Faster => self.set_speed(self.speed.faster()),
            Action::Slower => self.set_speed(self.speed.slower()),
            Action::NextPuzzle => self.switch(self.tab, Step::Forward),
            Action::PreviousPuzzle => self.switch(self.tab, Step::Back),
            Action::NextDemo => self.switch((self.tab + 1) % self.demos.len(), Step::Stay),
            Action::PreviousDemo => {
                let n = self.demos.len();
                self.switch((self.tab + n - 1) % n, Step::Stay)
            }
            Action::Board(key) => {
                self.session.board_key(key);
            }
        }
        Flow::Continue
    }

    fn set_speed(&mut self, speed: Speed) {
        self.speed = speed;
        self.session.send(Command::SetSpeed(speed));
    }

    fn switch(&mut self, tab: usize, step: Step) {
        let count = self.demos[tab].count().max(1);
        let current = self.puzzle[tab];
        let index = match step {
            Step::Forward => (current + 1) % count,
            Step::Back => (current + count - 1) % count,
            Step::Stay => current,
        };
        if tab == self.tab && index == current && step != Step::Stay {
            return;
        }
        let speed = if tab == self.tab {
            self.speed
        } else {
            self.demos[tab].default_speed()
        };
        match self.demos[tab].start(index, speed) {
            Ok(session) => {
                self.session = session;
                self.tab = tab;
                self.puzzle[tab] = index;
                self.speed = speed;
                self.notice = None;
            }
            Err(e) => self.notice = Some(format!("{e}")),
        }
    }

    /// The terminal size the current board needs.
    fn needed(&self) -> (u16, u16) {
        let (w, h) = self.session.min_board_size();
        (w + stats::WIDTH + 1, h.max(stats::MIN_HEIGHT) + 2)
    }

    fn title_line(&self) -> Line<'_> {
        let theme = &self.theme;
        let mut spans = vec![Span::styled(" kiln ", theme.title)];
        if self.demos.len() > 1 {
            for (i, demo) in self.demos.iter().enumerate() {
                let style = if i == self.tab { theme.key } else { theme.dim };
                spans.push(Span::styled(format!("[{}]", demo.name()), style));
            }
            spans.push(Span::raw(" "));
        }
        let count = self.demos[self.tab].count();
        spans.push(Span::raw(self.session.title().to_string()));
        if count > 1 {
            spans.push(Span::styled(
                format!(" ({}/{count})", self.puzzle[self.tab] + 1),
                theme.dim,
            ));
        }
        let (word, style) = match self.session.state() {
            RunState::Running => ("running", theme.good),
            RunState::Paused => ("PAUSED", theme.warn),
            RunState::Finished(StopReason::Target) => (self.session.target_word(), theme.good),
            RunState::Finished(_) => ("stopped", theme.warn),
            RunState::Crashed(_) => ("CRASHED", theme.warn),
        };
        spans.push(Span::raw(" · "));
        spans.push(Span::styled(word, style));
        if let Some(headline) = self.session.headline() {
            spans.push(Span::raw(" · "));
            spans.push(Span::raw(headline));
        }
        if let Some(notice) = &self.notice {
            spans.push(Span::styled(format!(" · {notice}"), theme.warn));
        }
        Line::from(spans)
    }

    fn hints(&self) -> Line<'_> {
        let theme = &self.theme;
        let mut spans = Vec::new();
        let board = self
            .session
            .board_keys()
            .iter()
            .map(|k| (k.key.to_string(), k.what));
        let general = KEYS
            .iter()
            .filter(|(key, _, _)| *key != "Tab" || self.demos.len() > 1)
            .map(|(key, hint, _)| (key.to_string(), *hint));
        for (key, hint) in general.chain(board) {
            spans.push(Span::styled(format!(" {key}"), theme.key));
            spans.push(Span::styled(format!(" {hint}"), theme.dim));
        }
        Line::from(spans)
    }

    fn banner(&self) -> Option<String> {
        let RunState::Finished(reason) = self.session.state() else {
            return None;
        };
        let s = self.session.history().latest()?;
        let mut text = match reason {
            StopReason::Target => format!(
                "{} in {}",
                self.session.target_word(),
                format::elapsed(s.elapsed)
            ),
            StopReason::MaxSteps => "step budget used up".to_string(),
            StopReason::TimeLimit => "time limit reached".to_string(),
            StopReason::Stopped => "stopped".to_string(),
        };
        text.push_str(&format!(
            " · {} iterations · {} restarts · best E {}",
            format::count(s.iteration),
            format::count(s.restarts),
            format::energy(s.best_energy)
        ));
        Some(text)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Forward,
    Back,
    Stay,
}

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let (need_w, need_h) = self.needed();
        if area.width < need_w || area.height < need_h {
            let [middle] = Layout::vertical([Constraint::Length(3)])
                .flex(Flex::Center)
                .areas(area);
            Paragraph::new(vec![
                Line::raw(format!("terminal too small (need {need_w}x{need_h})")),
                Line::raw(format!("now {}x{}; q quits", area.width, area.height)),
            ])
            .alignment(Alignment::Center)
            .wrap(Wrap { trim: true })
            .render(middle, buf);
            return;
        }
        let [title, body, hints] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Fill(1),
            Constraint::Length(1),
        ])
        .areas(area);
        let stats_width = (stats::WIDTH + (area.width.saturating_sub(need_w)) / 3).min(44);
        let [board, panel] =
            Layout::horizontal([Constraint::Fill(1), Constraint::Length(stats_width)]).areas(body);

        Paragraph::new(self.title_line()).render(title, buf);
        Paragraph::new(self.hints()).render(hints, buf);
        self.session.render_board(board, buf, &self.theme);
        StatsPanel {
            history: self.session.history(),
            floor: self.session.floor(),
            speed: self.speed,
            theme: &self.theme,
        }
        .render(panel, buf);

        if let Some(text) = self.banner() {
            let width = (text.chars().count() as u16 + 4).min(board.width);
            let [row] = Layout::vertical([Constraint::Length(3)])
                .flex(Flex::End)
                .areas(board);
            let [banner] = Layout::horizontal([Constraint::Length(width)])
                .flex(Flex::Center)
                .areas(row);
            Clear.render(banner, buf);
            Paragraph::new(Line::styled(text, self.theme.good))
                .alignment(Alignment::Center)
                .wrap(Wrap { trim: true })
                .block(
                    Block::bordered()
                        .border_set(self.theme.border_set())
                        .border_style(self.theme.good),
                )
                .render(banner, buf);
        }
        if self.help {
            Help {
                board_keys: self.session.board_keys(),
                theme: &self.theme,
            }
            .render(body, buf);
        }
    }
}
