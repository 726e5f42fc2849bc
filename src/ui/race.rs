//! Race mode: 2-4 runs of one problem, one pane each (the problem's board, counters and
//! an energy sparkline), and the standings on top: for Sudoku the order in which the
//! racers solve the puzzle, for the others the best energy each has reached so far.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

use super::format;
use super::help::Help;
use super::keys::{Action, View, close_help, footer, hint_spans};
use super::session::{BoardArea, RunState, Session};
use super::stats::sparkline;
use super::theme::Theme;
use super::{Flow, Tui};
use crate::anneal::worker::{Command, Speed};

/// One contestant: a name ("kiln", "two-opt", ...) and its live run.
pub struct Racer {
    pub name: String,
    pub session: Box<dyn Session>,
}

/// How racers are placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standings {
    /// Those that reached the target (a solved Sudoku), by the time they took.
    FirstSolved,
    /// All of them by the best energy reached so far, then by time.
    BestEnergy,
}

pub struct Race {
    title: String,
    racers: Vec<Racer>,
    standings: Standings,
    /// Racers that reached the target, in the order they did.
    order: Vec<usize>,
    speed: Speed,
    help: bool,
    theme: Theme,
}

/// Columns a pane keeps beside the board for its counters.
const PANE_STATS_WIDTH: u16 = 15;
/// Rows below which panes are not stacked two high.
const MIN_PANE_HEIGHT: u16 = 10;

/// Where `n` panes go in `area`: a 2x2 grid (the third and fourth pane below the first
/// two) for more than two when the area is tall enough, side by side otherwise.
fn pane_areas(n: usize, area: Rect) -> Vec<Rect> {
    let grid = n > 2 && area.height >= 2 * MIN_PANE_HEIGHT;
    let (rows, columns) = if grid { (2, 2) } else { (1, n.max(1)) };
    let row_areas = Layout::vertical(vec![Constraint::Fill(1); rows]).split(area);
    (0..n)
        .map(|i| {
            let cells =
                Layout::horizontal(vec![Constraint::Fill(1); columns]).split(row_areas[i / columns]);
            cells[i % columns]
        })
        .collect()
}

/// The screen's rows for the standings, the panes and the key hints.
fn screen_rows(area: Rect) -> [Rect; 3] {
    Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(1),
    ])
    .areas(area)
}

/// The cells each board of a race of `n` has on `screen` (so an image can be sized to its
/// pane as it is to the single view).
pub fn board_area(screen: Rect, n: usize) -> BoardArea {
    let [_, panes, _] = screen_rows(screen);
    let pane = pane_areas(n, panes)[0];
    BoardArea {
        width: pane.width.saturating_sub(3 + PANE_STATS_WIDTH),
        height: pane.height.saturating_sub(2),
    }
}

impl Race {
    pub fn new(
        title: String,
        racers: Vec<Racer>,
        standings: Standings,
        speed: Speed,
        theme: Theme,
    ) -> Self {
        Race {
            title,
            racers,
            standings,
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

    /// The best energy racer `i` has reached (none before its first sample).
    fn best(&self, i: usize) -> f64 {
        let history = self.racers[i].session.history();
        history.latest().map_or(f64::INFINITY, |s| s.best_energy)
    }

    /// Who is placed, first place first: the finishers, or everyone by best energy.
    fn placed(&self) -> Vec<usize> {
        match self.standings {
            Standings::FirstSolved => self.order.clone(),
            Standings::BestEnergy => {
                let mut all: Vec<usize> = (0..self.racers.len()).collect();
                all.sort_by(|&a, &b| {
                    self.best(a).total_cmp(&self.best(b)).then_with(|| {
                        let elapsed = |i: usize| self.racers[i].session.elapsed();
                        elapsed(a).cmp(&elapsed(b))
                    })
                });
                all
            }
        }
    }

    fn pane_title(&self, i: usize, placed: &[usize]) -> Line<'_> {
        let racer = &self.racers[i];
        let theme = &self.theme;
        let place = placed.iter().position(|&j| j == i).map(|p| p + 1);
        let solved = racer.session.solved();
        let (word, style) = match (racer.session.state(), self.standings, place) {
            (_, Standings::FirstSolved, Some(place)) => (format!("#{place} SOLVED"), theme.good),
            (RunState::Crashed(_), _, _) => ("crashed".to_string(), theme.warn),
            (state, Standings::BestEnergy, Some(place)) => {
                let word = match state {
                    _ if solved => racer.session.target_word(),
                    RunState::Running => "running",
                    RunState::Paused => "paused",
                    _ => "done",
                };
                let style = if place == 1 { theme.good } else { theme.dim };
                (format!("#{place} {word}"), style)
            }
            (RunState::Running, _, _) => ("running".to_string(), theme.dim),
            (RunState::Paused, _, _) => ("paused".to_string(), theme.warn),
            (RunState::Finished(_), _, _) => ("gave up".to_string(), theme.warn),
        };
        Line::from(vec![
            Span::styled(format!(" {} ", racer.name), theme.title),
            Span::styled(format!("{word} "), style),
        ])
    }

    fn render_pane(&self, i: usize, placed: &[usize], area: Rect, buf: &mut Buffer) {
        let theme = &self.theme;
        let block = Block::bordered()
            .border_set(theme.border_set())
            .border_style(theme.border)
            .title(self.pane_title(i, placed));
        let inner = block.inner(area);
        block.render(area, buf);
        let session = &self.racers[i].session;
        let (board_w, board_h) = session.min_board_size();
        let fits = board_w + 1 + PANE_STATS_WIDTH <= inner.width && board_h <= inner.height;
        let stats = if fits {
            let [board, _gap, stats] = Layout::horizontal([
                Constraint::Fill(1),
                Constraint::Length(1),
                Constraint::Length(PANE_STATS_WIDTH),
            ])
            .areas(inner);
            session.render_board(board, buf, theme);
            stats
        } else {
            inner
        };
        let Some(now) = session.history().latest().copied() else {
            return;
        };
        let counter = |label: &'static str, value: String| {
            Line::from(vec![Span::styled(label, theme.dim), Span::raw(value)])
        };
        let lines = vec![
            Line::from(vec![
                Span::styled("E     ", theme.energy),
                Span::raw(format::energy(now.energy)),
            ]),
            counter("best  ", format::energy(now.best_energy)),
            counter("iter  ", format::si(now.iteration as f64)),
            counter(
                "it/s  ",
                if *session.state() == RunState::Running {
                    format::si(session.history().rate())
                } else {
                    "-".to_string()
                },
            ),
            counter("rest. ", format::count(now.restarts)),
            counter("time  ", format::elapsed(session.elapsed())),
        ];
        let text_rows = lines.len() as u16;
        let [text, spark] =
            Layout::vertical([Constraint::Length(text_rows), Constraint::Fill(1)]).areas(stats);
        Paragraph::new(lines).render(text, buf);
        let energies = session.history().tail(spark.width as usize, |s| s.energy);
        let scale = session.history().energy_range();
        sparkline(&energies, scale, theme.energy, theme, spark, buf);
    }

    /// " kiln race · TITLE · best: 1. a 7542  2. b 7910": the title left out when the
    /// standings would not fit `width` with it.
    fn standings_line(&self, placed: &[usize], width: u16) -> Line<'_> {
        let theme = &self.theme;
        let label = match self.standings {
            Standings::FirstSolved => "finished: ",
            Standings::BestEnergy => "best: ",
        };
        let mut spans = vec![Span::styled(" kiln race ", theme.title)];
        let title = Span::raw(format!("· {} · ", self.title));
        spans.push(Span::styled(label, theme.dim));
        if placed.is_empty() {
            spans.push(Span::raw("nobody yet"));
        }
        for (place, &i) in placed.iter().enumerate() {
            let racer = &self.racers[i];
            let detail = match self.standings {
                Standings::FirstSolved => format!("({})  ", format::elapsed(racer.session.elapsed())),
                Standings::BestEnergy if self.best(i).is_finite() => {
                    format!("{}  ", format::energy(self.best(i)))
                }
                Standings::BestEnergy => "-  ".to_string(),
            };
            let style = if place == 0 { theme.good } else { theme.title };
            spans.push(Span::styled(format!("{}. {} ", place + 1, racer.name), style));
            spans.push(Span::styled(detail, theme.dim));
        }
        let mut line = Line::from(spans);
        if line.width() + title.width() <= usize::from(width) {
            line.spans.insert(1, title);
        } else {
            line.spans.insert(1, Span::raw("· "));
        }
        line
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
        let [title, panes, hints] = screen_rows(area);
        let placed = self.placed();
        Paragraph::new(self.standings_line(&placed, title.width)).render(title, buf);
        for (i, pane) in pane_areas(self.racers.len(), panes).into_iter().enumerate() {
            self.render_pane(i, &placed, pane, buf);
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
        let mut race = Race::new(
            "x".into(),
            racers,
            Standings::FirstSolved,
            Speed::Full,
            Theme::colour(false),
        );
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
            Standings::FirstSolved,
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
        // Both thumbnails, side by side, under their titles, and the counters beside them.
        let text = lines.join("\n");
        assert_eq!(text.matches(" 3  4 5 6  7 8 9").count(), 2, "{text}");
        assert_eq!(text.matches("best  4").count(), 2, "{text}");
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
        let text = lines.join("\n");
        assert_eq!(text.matches(" 3  4 5 6  7 8 9").count(), 2, "{text}");
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
