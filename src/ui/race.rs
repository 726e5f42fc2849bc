//! Race mode: 2-4 solvers on the same puzzle, one pane each (board thumbnail, energy
//! sparkline, counters), and the order in which they finish.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

use super::format;
use super::help::Help;
use super::keys::{Action, View, close_help, footer, hint_spans};
use super::session::{RunState, Session};
use super::stats::sparkline;
use super::theme::Theme;
use super::{Flow, Tui};
use crate::anneal::worker::{Command, Speed};

/// One contestant: a name ("kiln", "ga", ...) and its live run.
pub struct Racer {
    pub name: String,
    pub session: Box<dyn Session>,
}

pub struct Race {
    title: String,
    racers: Vec<Racer>,
    /// Racers that reached the target, in the order they did.
    order: Vec<usize>,
    speed: Speed,
    help: bool,
    theme: Theme,
}

/// Columns a pane keeps beside the board for its counters.
const PANE_STATS_WIDTH: u16 = 15;

impl Race {
    pub fn new(title: String, racers: Vec<Racer>, speed: Speed, theme: Theme) -> Self {
        Race {
            title,
            racers,
            order: Vec::new(),
            speed,
            help: false,
            theme,
        }
    }

    fn everyone(&mut self, command: Command) {
        for racer in &mut self.racers {
            racer.session.send(command);
        }
    }

    /// 1-based finishing place of racer `i`, if it has finished.
    fn place(&self, i: usize) -> Option<usize> {
        self.order.iter().position(|&j| j == i).map(|p| p + 1)
    }

    fn pane_title(&self, i: usize) -> Line<'_> {
        let racer = &self.racers[i];
        let theme = &self.theme;
        let (word, style) = match (racer.session.state(), self.place(i)) {
            (_, Some(place)) => (format!("#{place} SOLVED"), theme.good),
            (RunState::Running, _) => ("running".to_string(), theme.dim),
            (RunState::Paused, _) => ("paused".to_string(), theme.warn),
            (RunState::Finished(_), _) => ("gave up".to_string(), theme.warn),
            (RunState::Crashed(_), _) => ("crashed".to_string(), theme.warn),
        };
        Line::from(vec![
            Span::styled(format!(" {} ", racer.name), theme.title),
            Span::styled(format!("{word} "), style),
        ])
    }

    fn render_pane(&self, i: usize, area: Rect, buf: &mut Buffer) {
        let theme = &self.theme;
        let block = Block::bordered()
            .border_set(theme.border_set())
            .border_style(theme.border)
            .title(self.pane_title(i));
        let inner = block.inner(area);
        block.render(area, buf);
        let session = &self.racers[i].session;
        let (board_w, board_h) = session.min_board_size();
        let fits = board_w + 1 + PANE_STATS_WIDTH <= inner.width && board_h <= inner.height;
        let stats = if fits {
            let [board, gap, stats] = Layout::horizontal([
                Constraint::Length(board_w),
                Constraint::Length(1),
                Constraint::Fill(1),
            ])
            .areas(inner);
            let _ = gap;
            let [board] = Layout::vertical([Constraint::Length(board_h)]).areas(board);
            session.render_board(board, buf, theme);
            stats
        } else {
            inner
        };
        let Some(now) = session.history().latest().copied() else {
            return;
        };
        let lines = vec![
            Line::from(vec![
                Span::styled("E ", theme.energy),
                Span::raw(format::energy(now.energy)),
                Span::styled(" best ", theme.dim),
                Span::raw(format::energy(now.best_energy)),
            ]),
            Line::from(vec![
                Span::styled("iter  ", theme.dim),
                Span::raw(format::si(now.iteration as f64)),
            ]),
            Line::from(vec![
                Span::styled("it/s  ", theme.dim),
                Span::raw(if *session.state() == RunState::Running {
                    format::si(session.history().rate())
                } else {
                    "-".to_string()
                }),
            ]),
            Line::from(vec![
                Span::styled("rest. ", theme.dim),
                Span::raw(format::count(now.restarts)),
            ]),
            Line::from(vec![
                Span::styled("time  ", theme.dim),
                Span::raw(format::elapsed(session.elapsed())),
            ]),
        ];
        let text_rows = lines.len() as u16;
        let [text, spark] =
            Layout::vertical([Constraint::Length(text_rows), Constraint::Fill(1)]).areas(stats);
        Paragraph::new(lines).render(text, buf);
        let energies = session.history().tail(spark.width as usize, |s| s.energy);
        let scale = session.history().energy_range();
        sparkline(&energies, scale, theme.energy, theme, spark, buf);
    }

    fn finish_line(&self) -> Line<'_> {
        let theme = &self.theme;
        let mut spans = vec![
            Span::styled(" kiln race ", theme.title),
            Span::raw(format!("· {} · ", self.title)),
            Span::styled("finished: ", theme.dim),
        ];
        if self.order.is_empty() {
            spans.push(Span::raw("nobody yet"));
        }
        for (place, &i) in self.order.iter().enumerate() {
            let seconds = format::elapsed(self.racers[i].session.elapsed());
            spans.push(Span::styled(
                format!("{}. {} ", place + 1, self.racers[i].name),
                theme.good,
            ));
            spans.push(Span::styled(format!("({seconds})  "), theme.dim));
        }
        Line::from(spans)
    }
}

impl Tui for Race {
    fn poll(&mut self) -> bool {
        let mut changed = false;
        for i in 0..self.racers.len() {
            changed |= self.racers[i].session.poll();
            let solved = self.racers[i].session.solved();
            if solved && !self.order.contains(&i) {
                self.order.push(i);
            }
        }
        // By the time each took, not by which report came in first: a racer that solved
        // the puzzle before its first step may be seen after one that took thousands.
        let racers = &self.racers;
        self.order.sort_by_key(|&i| racers[i].session.elapsed());
        changed
    }

    fn on_action(&mut self, action: Action) -> Flow {
        if let Some(flow) = close_help(&mut self.help, action) {
            return flow;
        }
        if let Some(command) = action.command() {
            if command == Command::Restart {
                self.order.clear();
            }
            self.everyone(command);
            return Flow::Continue;
        }
        match action {
            Action::Quit | Action::QuitNow => return Flow::Quit,
            Action::Help => self.help = true,
            Action::Faster | Action::Slower => {
                self.speed = if action == Action::Faster {
                    self.speed.faster()
                } else {
                    self.speed.slower()
                };
                self.everyone(Command::SetSpeed(self.speed));
            }
            Action::TogglePause
            | Action::Step
            | Action::Reheat
            | Action::Restart
            | Action::NextPuzzle
            | Action::PreviousPuzzle
            | Action::NextDemo
            | Action::PreviousDemo
            | Action::Attract
            | Action::Save
            | Action::Board(_) => {}
        }
        Flow::Continue
    }

    fn crashed(&self) -> Option<String> {
        self.racers.iter().find_map(|r| match r.session.state() {
            RunState::Crashed(message) => Some(format!("{}: {message}", r.name)),
            _ => None,
        })
    }

    fn render(&self, area: Rect, buf: &mut Buffer) {
        let theme = &self.theme;
        let [title, panes, hints] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Fill(1),
            Constraint::Length(1),
        ])
        .areas(area);
        Paragraph::new(self.finish_line()).render(title, buf);
        let rows = if self.racers.len() > 2 { 2 } else { 1 };
        let row_areas = Layout::vertical(vec![Constraint::Fill(1); rows]).split(panes);
        for (r, row) in row_areas.iter().enumerate() {
            let in_row: Vec<usize> = (0..self.racers.len()).filter(|i| i / 2 == r).collect();
            let cells = Layout::horizontal(vec![Constraint::Fill(1); 2]).split(*row);
            for (slot, i) in in_row.into_iter().enumerate() {
                self.render_pane(i, cells[slot], buf);
            }
        }
        Paragraph::new(Line::from(hint_spans(footer(View::Race), theme))).render(hints, buf);
        if self.help {
            Help {
                view: View::Race,
                board_keys: &[],
                theme,
            }
            .render(panes, buf);
        }
        theme.enforce(buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anneal::StopReason;
    use crate::ui::boards::sudoku::SudokuThumbnail;
    use crate::ui::testing::{frozen, frozen_solved, screen};

    #[test]
    fn a_racer_at_the_target_over_a_wrong_board_is_not_solved() {
        let racers = vec![Racer {
            name: "kiln".to_string(),
            session: Box::new(frozen(
                RunState::Finished(StopReason::Target),
                SudokuThumbnail::new(3),
            )),
        }];
        let mut race = Race::new("x".into(), racers, Speed::Full, Theme::colour(false));
        race.poll();
        let text = screen(&race, 80, 24).join("\n");
        assert!(!text.contains("SOLVED"), "{text}");
        assert!(text.contains("nobody yet"), "{text}");
    }

    fn race(n: usize, solved: &[usize]) -> Race {
        let names = ["kiln", "geometric-restart", "ga", "lundy"];
        let racers = (0..n)
            .map(|i| {
                let session: Box<dyn Session> = if solved.contains(&i) {
                    let state = RunState::Finished(StopReason::Target);
                    Box::new(frozen_solved(state, SudokuThumbnail::new(3)))
                } else {
                    Box::new(frozen(RunState::Running, SudokuThumbnail::new(3)))
                };
                Racer {
                    name: names[i].to_string(),
                    session,
                }
            })
            .collect();
        let mut race = Race::new(
            "hardest11.txt:1".into(),
            racers,
            Speed::Full,
            Theme::colour(false),
        );
        race.poll();
        race
    }

    #[test]
    fn two_panes_side_by_side_at_80x24() {
        let lines = screen(&race(2, &[1]), 80, 24);
        assert!(
            lines[0].starts_with(
                " kiln race · hardest11.txt:1 · finished: 1. geometric-restart (0.06 s)"
            ),
            "{}",
            lines[0]
        );
        assert!(lines[1].starts_with("╭ kiln running ─"), "{}", lines[1]);
        assert!(
            lines[1].contains("╭ geometric-restart #1 SOLVED ─"),
            "{}",
            lines[1]
        );
        // Both thumbnails, side by side, under their titles.
        assert_eq!(
            lines[2].matches(" 3  4 5 6  7 8 9").count(),
            2,
            "{}",
            lines[2]
        );
        assert!(lines[2].contains("E 4 best 4"));
        assert!(lines[23].starts_with(" space pause"));
    }

    #[test]
    fn two_panes_fill_a_160x48_screen() {
        let lines = screen(&race(2, &[]), 160, 48);
        assert!(lines[1].starts_with("╭ kiln running ─") && lines[1].ends_with("╮"));
        assert!(
            lines[1].contains("╮╭ geometric-restart running ─"),
            "{}",
            lines[1]
        );
        assert_eq!(
            lines[2].matches(" 3  4 5 6  7 8 9").count(),
            2,
            "{}",
            lines[2]
        );
        assert!(
            lines[46].starts_with("╰") && lines[46].ends_with("╯"),
            "{}",
            lines[46]
        );
        assert!(lines[47].starts_with(" space pause"));
    }

    #[test]
    fn four_panes_in_a_grid_at_80x24_and_160x48() {
        for (w, h) in [(80, 24), (160, 48)] {
            let lines = screen(&race(4, &[2, 0]), w, h);
            let text = lines.join("\n");
            // Both finished before the first look: they place in pane order.
            for name in [
                "kiln #1 SOLVED",
                "geometric-restart running",
                "ga #2 SOLVED",
                "lundy running",
            ] {
                assert!(text.contains(name), "{name} missing at {w}x{h}:\n{text}");
            }
            let boards = text.matches(" 3  4 5 6  7 8 9").count();
            assert_eq!(boards, 4, "{w}x{h}:\n{text}");
            assert!(
                lines[0].contains("finished: 1. kiln (0.06 s)  2. ga (0.06 s)"),
                "{}",
                lines[0]
            );
        }
    }

    #[test]
    fn keys_reach_every_racer() {
        let mut race = race(3, &[]);
        race.on_action(Action::TogglePause);
        assert!(
            race.racers
                .iter()
                .all(|r| *r.session.state() == RunState::Paused)
        );
        assert_eq!(race.on_action(Action::Quit), Flow::Quit);
    }

    #[test]
    fn tiny_terminals_do_not_panic() {
        for (w, h) in [(1, 1), (10, 5), (40, 12), (0, 0)] {
            screen(&race(4, &[1]), w, h);
        }
    }
}
