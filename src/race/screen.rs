//! Race mode: 2-4 runs of one problem, one pane each (the problem's board, counters with
//! the temperature or what stands in for it, and an energy sparkline), and the standings on top: for Sudoku the order in which the
//! racers solve the puzzle, for the others the best energy each has reached so far; once
//! the race is decided, the winner and by how much.

use std::time::Duration;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

use super::standings::{self, Standing, Standings};
use crate::search::Control;
use crate::search::worker::{Command, Speed};
use kiln_tui::format::{self, Si};
use kiln_tui::help::Help;
use kiln_tui::keys::{Action, View, close_help, footer, hint_spans};
use kiln_tui::{BoardArea, RunState, Session, Theme, sparkline};
use kiln_tui::{Flow, Tui};

/// One contestant: a name ("kiln", "two-opt", ...) and its live run.
pub struct Racer {
    /// The pane's name.
    pub name: String,
    /// Its run.
    pub session: Box<dyn Session>,
}

/// Racers side by side, each in its pane, with their standings.
pub struct Race {
    title: String,
    racers: Vec<Racer>,
    standings: Standings,
    /// Racers that have reached the target (a reheat after it does not undo that).
    finished: Vec<usize>,
    speed: Speed,
    help: bool,
    theme: Theme,
}

/// Columns a pane keeps beside the board for its counters.
const PANE_STATS_WIDTH: u16 = 15;
/// The sparkline's height at most: a line of bars, not a wall.
const SPARKLINE_ROWS: u16 = 6;
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
            let cells = Layout::horizontal(vec![Constraint::Fill(1); columns])
                .split(row_areas[i / columns]);
            cells[i % columns]
        })
        .collect()
}

/// Where a pane's board and counters go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PaneLayout {
    /// The board on the left, a column of counters and the sparkline on the right.
    Beside { board: Rect, stats: Rect },
    /// The board on top, two lines of counters and a sparkline row below.
    Below { board: Rect, stats: Rect },
    /// No room for the board: the counters alone.
    Alone(Rect),
}

/// Rows under a board in `PaneLayout::Below`: three of counters, one of sparkline.
const BELOW_ROWS: u16 = 4;

impl PaneLayout {
    /// The layout of a pane's `inner` area for a board of at least `min` (width, height):
    /// beside if it fits there, else below, else none.
    fn of(inner: Rect, (width, height): (u16, u16)) -> PaneLayout {
        if width + 1 + PANE_STATS_WIDTH <= inner.width && height <= inner.height {
            let [board, _gap, stats] = Layout::horizontal([
                Constraint::Fill(1),
                Constraint::Length(1),
                Constraint::Length(PANE_STATS_WIDTH),
            ])
            .areas(inner);
            PaneLayout::Beside { board, stats }
        } else if width <= inner.width && height + BELOW_ROWS <= inner.height {
            let [board, stats] =
                Layout::vertical([Constraint::Fill(1), Constraint::Length(BELOW_ROWS)])
                    .areas(inner);
            PaneLayout::Below { board, stats }
        } else {
            PaneLayout::Alone(inner)
        }
    }
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

/// The cells each board of at least `min` (width, height) has in a race of `n` on
/// `screen` (so an image can be sized to its pane as it is to the single view).
pub fn board_area(screen: Rect, n: usize, min: (u16, u16)) -> BoardArea {
    let [_, panes, _] = screen_rows(screen);
    let inner = Block::bordered().inner(pane_areas(n, panes)[0]);
    let board = match PaneLayout::of(inner, min) {
        PaneLayout::Beside { board, .. } | PaneLayout::Below { board, .. } => board,
        PaneLayout::Alone(inner) => inner,
    };
    BoardArea {
        width: board.width,
        height: board.height,
    }
}

impl Race {
    /// A race of `racers`, placed by `standings`, each run at `speed`.
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
            finished: Vec::new(),
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

    /// Who is placed, first place first (in the order headless races rank): those that
    /// reached the target, or everyone by best energy.
    fn placed(&self) -> Vec<usize> {
        // A finished racer stands where its run ended, as a headless one would.
        let racers: Vec<Standing> = (0..self.racers.len())
            .map(|i| match self.racers[i].session.finished() {
                Some(run) => Standing::from(&run),
                None => Standing {
                    solved: false,
                    energy: Some(self.best(i)).filter(|e| e.is_finite()),
                    seconds: self.racers[i].session.elapsed().as_secs_f64(),
                },
            })
            .collect();
        let mut placed = standings::order(&racers);
        if self.standings == Standings::FirstSolved {
            placed.retain(|&i| racers[i].solved);
        }
        placed
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
        let layout = PaneLayout::of(inner, session.min_board_size());
        if let PaneLayout::Beside { board, .. } | PaneLayout::Below { board, .. } = layout {
            session.render_board(board, buf, theme);
        }
        let Some(now) = session.history().latest().copied() else {
            return;
        };
        let counter = |label: &'static str, value: String| {
            vec![Span::styled(label, theme.dim), Span::raw(value)]
        };
        let energy = vec![
            Span::styled("E     ", theme.energy),
            Span::raw(format::energy(now.energy)),
        ];
        let best = counter("best  ", format::energy(now.best_energy));
        let iterations = counter("iter  ", format::si(now.iteration as f64, Si::Panel));
        let rate = counter(
            "it/s  ",
            if *session.state() == RunState::Running {
                format::si(session.history().rate(), Si::Panel)
            } else {
                "-".to_string()
            },
        );
        let restarts = counter("rest. ", format::count(now.restarts));
        let time = counter("time  ", format::elapsed(session.elapsed()));
        let control = control_spans(now.control, theme);
        let (lines, stats) = match layout {
            PaneLayout::Beside { stats, .. } | PaneLayout::Alone(stats) => {
                let lines = [energy, best, control, iterations, rate, restarts, time];
                (lines.into_iter().map(Line::from).collect::<Vec<_>>(), stats)
            }
            // Three lines of counters under the board, the labels shortened to fit.
            PaneLayout::Below { stats, .. } => {
                let join = |parts: Vec<Vec<Span<'static>>>| {
                    let mut spans = Vec::new();
                    for (n, part) in parts.into_iter().enumerate() {
                        if n > 0 {
                            spans.push(Span::raw("  "));
                        }
                        spans.extend(part.into_iter().map(|s| {
                            Span::styled(s.content.trim_end().to_string() + " ", s.style)
                        }));
                    }
                    Line::from(spans)
                };
                let lines = vec![
                    join(vec![energy, best, restarts]),
                    join(vec![iterations, rate, time]),
                    join(vec![control]),
                ];
                (lines, stats)
            }
        };
        let text_rows = lines.len() as u16;
        let spark_rows = stats.height.saturating_sub(text_rows).min(SPARKLINE_ROWS);
        let [text, spark] = Layout::vertical([
            Constraint::Length(text_rows),
            Constraint::Length(spark_rows),
        ])
        .areas(stats);
        Paragraph::new(lines).render(text, buf);
        let energies = session.history().tail(spark.width as usize, |s| s.energy);
        let scale = session.history().energy_range();
        sparkline(&energies, scale, theme.energy, theme, spark, buf);
    }

    /// Whether every racer has stopped: finished, or crashed.
    fn all_stopped(&self) -> bool {
        self.racers.iter().all(|r| {
            matches!(
                r.session.state(),
                RunState::Finished(_) | RunState::Crashed(_)
            )
        })
    }

    /// Who won and by how much, once that is settled: a Sudoku race when its first two have
    /// solved the puzzle (later ones can only place behind them) or everyone has stopped,
    /// an energy race when everyone has stopped (until then a lower energy may still come).
    fn verdict(&self, placed: &[usize]) -> Option<String> {
        match self.standings {
            Standings::FirstSolved => self.solved_verdict(placed),
            Standings::BestEnergy if self.all_stopped() => self.energy_verdict(placed),
            Standings::BestEnergy => None,
        }
    }

    /// "kiln wins by 2.31 s", in hundredths of a second as the panes show the times.
    fn solved_verdict(&self, placed: &[usize]) -> Option<String> {
        let name = |i: usize| &self.racers[i].name;
        let elapsed = |i: usize| self.racers[i].session.elapsed();
        let shown = |i: usize| (elapsed(i).as_secs_f64() * 100.0).round() as u64;
        match *placed {
            [first, second, ..] => Some(match shown(second).saturating_sub(shown(first)) {
                0 => format!(
                    "{} and {} tie at {}",
                    name(first),
                    name(second),
                    format::elapsed(elapsed(first))
                ),
                margin => format!(
                    "{} wins by {}",
                    name(first),
                    format::elapsed(Duration::from_millis(margin * 10))
                ),
            }),
            _ if !self.all_stopped() => None,
            [first] => Some(format!("{} wins: nobody else solved it", name(first))),
            [] => Some("nobody solved it".to_string()),
        }
    }

    /// "two-opt wins: 7542, 6.2 % below swap (8010)": the first two by best energy, as
    /// the standings show them.
    fn energy_verdict(&self, placed: &[usize]) -> Option<String> {
        let [first, second, ..] = *placed else {
            return None;
        };
        let (a, b) = (self.best(first), self.best(second));
        let (name_a, name_b) = (&self.racers[first].name, &self.racers[second].name);
        let (shown_a, shown_b) = (format::energy(a), format::energy(b));
        Some(if shown_a == shown_b {
            format!("{name_a} and {name_b} tie at {shown_a}")
        } else {
            format!(
                "{name_a} wins: {shown_a}, {} below {name_b} ({shown_b})",
                below(a, b)
            )
        })
    }

    /// The places so far: " finished: 1. a (0.06 s)" for a Sudoku, "1. a 7542  2. b 7910"
    /// (best energies) for the others.
    fn places(&self, placed: &[usize]) -> Vec<Span<'_>> {
        let theme = &self.theme;
        let mut spans = Vec::new();
        if self.standings == Standings::FirstSolved {
            spans.push(Span::styled("finished: ", theme.dim));
        }
        if placed.is_empty() {
            spans.push(Span::raw("nobody yet"));
        }
        for (place, &i) in placed.iter().enumerate() {
            let racer = &self.racers[i];
            let detail = match self.standings {
                Standings::FirstSolved => format!("({})", format::elapsed(racer.session.elapsed())),
                Standings::BestEnergy if self.best(i).is_finite() => format::energy(self.best(i)),
                Standings::BestEnergy => "-".to_string(),
            };
            let style = if place == 0 { theme.good } else { theme.title };
            let gap = if place == 0 { "" } else { "  " };
            spans.push(Span::styled(
                format!("{gap}{}. {} ", place + 1, racer.name),
                style,
            ));
            spans.push(Span::styled(detail, theme.dim));
        }
        spans
    }

    /// " kiln race · TITLE · " and the places so far, or the verdict once there is one
    /// (the panes' titles keep the places), in `width` columns.
    fn standings_line(&self, placed: &[usize], width: u16) -> Line<'_> {
        let theme = &self.theme;
        let mut spans = vec![Span::styled(" kiln race ", theme.title)];
        match self.verdict(placed) {
            Some(verdict) => spans.push(Span::styled(verdict, theme.good)),
            None => spans.extend(self.places(placed)),
        }
        let mut line = Line::from(spans);
        // The whole title, or its first part (what the first pane runs, without the raced
        // flags), or none: whichever leaves the standings whole.
        let first = self.title.split(" · ").next().unwrap_or_default();
        let title = [self.title.as_str(), first]
            .into_iter()
            .map(|t| format!("· {t} · "))
            .find(|t| line.width() + t.chars().count() <= usize::from(width))
            .unwrap_or_else(|| "· ".to_string());
        line.spans.insert(1, Span::raw(title));
        // Still too long on a narrow screen: cut at a word, with an ellipsis.
        format::fit(line, width)
    }
}

/// A pane's line for the number that steers its search now, so that schedules can be
/// compared by eye: the temperature, a local search's acceptance threshold, a genetic
/// algorithm's mutation rate, or "no temperature" (conflict learning): never a made-up 0.
fn control_spans(control: Control, theme: &Theme) -> Vec<Span<'static>> {
    let label = match control {
        Control::Temperature(_) => "T     ",
        Control::Threshold(_) => "thr.  ",
        Control::MutationRate(_) => "mut.  ",
        Control::None => return vec![Span::styled("no temperature", theme.dim)],
    };
    vec![
        Span::styled(label, theme.temperature),
        Span::raw(format::temperature(control.level())),
    ]
}

/// How far energy `a` is below `b`: a percentage of `b` where that means something (both
/// at least 0, and the gap at least a tenth of a percent), else the difference itself.
fn below(a: f64, b: f64) -> String {
    let percent = (b - a) / b * 100.0;
    if a >= 0.0 && percent >= 0.1 {
        format!("{percent:.1} %")
    } else {
        format::energy(b - a)
    }
}

impl Tui for Race {
    fn poll(&mut self) -> bool {
        let mut changed = false;
        for i in 0..self.racers.len() {
            changed |= self.racers[i].session.poll();
            let solved = self.racers[i].session.solved();
            if solved && !self.finished.contains(&i) {
                self.finished.push(i);
            }
        }
        changed
    }

    fn on_action(&mut self, action: Action) -> Flow {
        if let Some(flow) = close_help(&mut self.help, action) {
            return flow;
        }
        if let Some(command) = action.command() {
            if command == Command::Restart {
                self.finished.clear();
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
            | Action::Explain
            | Action::Save
            | Action::Dismiss
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
        let footer = footer(View::Race, hints.width);
        Paragraph::new(Line::from(hint_spans(footer, theme))).render(hints, buf);
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
    use crate::problems::sudoku::board::SudokuThumbnail;
    use crate::search::{Phase, StopReason};
    use kiln_tui::drawn as screen;
    use kiln_tui::testing::{frozen, frozen_solved};

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
        assert!(text.contains("nobody solved it"), "{text}");
    }

    /// The text of `area` on `lines`, row by row.
    pub(super) fn cells(lines: &[String], area: Rect) -> Vec<String> {
        lines[area.y as usize..area.bottom() as usize]
            .iter()
            .map(|l| {
                l.chars()
                    .skip(area.x as usize)
                    .take(area.width as usize)
                    .collect()
            })
            .collect()
    }

    const NAMES: [&str; 4] = ["kiln", "geometric-restart", "ga", "lundy"];

    /// A race of frozen racers named from `NAMES`, each in its state after its seconds: a
    /// racer finished at the target has solved the puzzle, any other has not.
    fn race_of(standings: Standings, racers: &[(RunState, f64)]) -> Race {
        let racers = racers
            .iter()
            .zip(NAMES)
            .map(|((state, seconds), name)| {
                let view = SudokuThumbnail::new(3);
                let session = match state {
                    RunState::Finished(StopReason::Target) => frozen_solved(state.clone(), view),
                    _ => frozen(state.clone(), view),
                };
                Racer {
                    name: name.to_string(),
                    session: Box::new(session.after(Duration::from_secs_f64(*seconds))),
                }
            })
            .collect();
        let mut race = Race::new(
            "hardest11.txt:1".into(),
            racers,
            standings,
            Speed::Full,
            Theme::colour(false),
        );
        race.poll();
        race
    }

    /// A Sudoku race of `n` racers, those in `solved` done at the target, the others running,
    /// all 0.06 s in.
    fn race(n: usize, solved: &[usize]) -> Race {
        let racers: Vec<(RunState, f64)> = (0..n)
            .map(|i| match solved.contains(&i) {
                true => (RunState::Finished(StopReason::Target), 0.06),
                false => (RunState::Running, 0.06),
            })
            .collect();
        race_of(Standings::FirstSolved, &racers)
    }

    /// The standings line of `race` at `width` columns, without the padding.
    fn top(race: &Race, width: u16) -> String {
        screen(race, width, 24)[0].trim_end().to_string()
    }

    const SOLVED: RunState = RunState::Finished(StopReason::Target);
    const GAVE_UP: RunState = RunState::Finished(StopReason::MaxSteps);

    #[test]
    fn the_first_two_to_solve_name_the_winner_and_the_margin() {
        let one = race_of(
            Standings::FirstSolved,
            &[
                (SOLVED, 17.94),
                (RunState::Running, 20.0),
                (RunState::Running, 20.0),
            ],
        );
        assert_eq!(
            top(&one, 80),
            " kiln race · hardest11.txt:1 · finished: 1. kiln (17.94 s)"
        );
        // The third may still be running: it can only come third.
        let two = race_of(
            Standings::FirstSolved,
            &[(SOLVED, 17.94), (SOLVED, 27.25), (RunState::Running, 30.0)],
        );
        assert_eq!(
            top(&two, 80),
            " kiln race · hardest11.txt:1 · kiln wins by 9.31 s"
        );
        assert_eq!(
            top(&two, 60),
            " kiln race · hardest11.txt:1 · kiln wins by 9.31 s"
        );
        // Placed by time, not by pane.
        let late = race_of(Standings::FirstSolved, &[(SOLVED, 61.5), (SOLVED, 3.25)]);
        assert_eq!(
            top(&late, 80),
            " kiln race · hardest11.txt:1 · geometric-restart wins by 58.25 s"
        );
    }

    #[test]
    fn a_lone_solver_wins_once_everyone_else_has_stopped() {
        let running = race_of(
            Standings::FirstSolved,
            &[(SOLVED, 4.2), (GAVE_UP, 60.0), (RunState::Running, 60.0)],
        );
        assert!(top(&running, 80).ends_with("finished: 1. kiln (4.20 s)"));
        let stopped = race_of(
            Standings::FirstSolved,
            &[(SOLVED, 4.2), (GAVE_UP, 60.0), (GAVE_UP, 60.0)],
        );
        assert_eq!(
            top(&stopped, 80),
            " kiln race · hardest11.txt:1 · kiln wins: nobody else solved it"
        );
        let nobody = race_of(Standings::FirstSolved, &[(GAVE_UP, 60.0), (GAVE_UP, 60.0)]);
        assert_eq!(
            top(&nobody, 80),
            " kiln race · hardest11.txt:1 · nobody solved it"
        );
    }

    #[test]
    fn equal_times_or_energies_are_a_tie() {
        let sudoku = race_of(Standings::FirstSolved, &[(SOLVED, 2.004), (SOLVED, 1.996)]);
        assert_eq!(
            top(&sudoku, 80),
            " kiln race · hardest11.txt:1 · geometric-restart and kiln tie at 2.00 s"
        );
        // Every frozen racer ends at energy 4; an energy race is decided when all stop.
        let running = race_of(
            Standings::BestEnergy,
            &[(GAVE_UP, 1.0), (RunState::Running, 1.0)],
        );
        assert!(top(&running, 80).ends_with("1. kiln 4  2. geometric-restart 4"));
        let energy = race_of(Standings::BestEnergy, &[(GAVE_UP, 1.0), (GAVE_UP, 1.0)]);
        assert_eq!(
            top(&energy, 80),
            " kiln race · hardest11.txt:1 · kiln and geometric-restart tie at 4"
        );
    }

    #[test]
    fn a_margin_of_energy_is_a_percentage_where_one_means_something() {
        assert_eq!(below(7542.0, 8010.0), "5.8 %");
        assert_eq!(below(7542.0, 7543.0), "1");
        assert_eq!(below(-338.0, -326.0), "12");
        assert_eq!(below(-2.0, 10.0), "12");
        assert_eq!(below(0.0, 0.5), "100.0 %");
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
                lines[0].contains("· kiln and ga tie at 0.06 s"),
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
    fn each_pane_shows_its_search_s_temperature_or_what_stands_in_for_it() {
        let then = |phase, control| {
            Box::new(frozen(RunState::Running, SudokuThumbnail::new(3)).then(phase, control))
        };
        let sessions: [(&str, Box<dyn Session>); 4] = [
            (
                "anneal",
                Box::new(frozen(RunState::Running, SudokuThumbnail::new(3))),
            ),
            ("ils", then(Phase::LocalSearch, Control::Threshold(12.5))),
            ("cdcl", then(Phase::ConflictLearning, Control::None)),
            ("ga", then(Phase::Genetic, Control::MutationRate(0.01))),
        ];
        let racers = sessions
            .into_iter()
            .map(|(name, session)| Racer {
                name: name.to_string(),
                session,
            })
            .collect();
        let race = Race::new(
            "x".into(),
            racers,
            Standings::FirstSolved,
            Speed::Full,
            Theme::colour(false),
        );
        let shown = [
            ("anneal", "T     0.3000"),
            ("ils", "thr.  12.5000"),
            ("cdcl", "no temperature"),
            ("ga", "mut.  0.0100"),
        ];
        // Beside the board (a 2x2 grid at 80x24), and below it in four narrow columns.
        for (w, h, below) in [(80, 24, false), (88, 19, true)] {
            let lines = screen(&race, w, h);
            let text = lines.join("\n");
            let [_, panes, _] = screen_rows(Rect::new(0, 0, w, h));
            let areas = pane_areas(4, panes);
            for ((name, control), area) in shown.iter().zip(areas) {
                let pane = cells(&lines, Block::bordered().inner(area)).join("\n");
                let control = if below {
                    control.split_whitespace().collect::<Vec<_>>().join(" ")
                } else {
                    control.to_string()
                };
                assert!(
                    pane.contains(&control),
                    "{name} at {w}x{h}: {control}\n{text}"
                );
                let zero = ["T     0 ", " T 0 "].iter().any(|z| pane.contains(z));
                assert!(!zero, "{name}: a made-up 0:\n{text}");
            }
        }
    }

    #[test]
    fn tiny_terminals_do_not_panic() {
        for (w, h) in [(1, 1), (10, 5), (40, 12), (0, 0)] {
            screen(&race(4, &[1]), w, h);
        }
    }
}

/// Real races of each problem, run to their end and drawn into a `TestBackend`: what a
/// person sees at 80x24 with two panes and at 160x48 with four.
#[cfg(test)]
mod screens {
    use std::time::{Duration, Instant};

    use super::tests::cells;
    use super::*;
    use crate::problems::demos::race_lineup;
    use kiln_tui::drawn as screen;
    use kiln_tui::{Glyphs, Options};

    /// `kiln race LINE` on a `width` x `height` screen, every pane run to its end.
    fn finished(line: &str, width: u16, height: u16) -> Race {
        let words: Vec<String> = line.split_whitespace().map(String::from).collect();
        let plan = crate::cli::race_plan::plan(&words[0], &words[1..]).expect("a race");
        let lineup = plan.resolve(false).unwrap();
        let screen = Rect::new(0, 0, width, height);
        let mut race = race_lineup(&lineup, &at(Some(Speed::Full)), screen).unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        let done = |race: &Race| {
            race.racers
                .iter()
                .all(|r| matches!(r.session.state(), RunState::Finished(_)))
        };
        while !done(&race) {
            assert!(Instant::now() < deadline, "{line}: a pane never finished");
            race.poll();
            std::thread::sleep(Duration::from_millis(5));
        }
        race
    }

    /// Marks of a braille board (a tour, an image): dots, not blank cells.
    fn braille(row: &str) -> usize {
        row.chars()
            .filter(|c| ('\u{2801}'..='\u{28ff}').contains(c))
            .count()
    }

    /// Marks of a Sudoku grid: its rows of nine digits or more (no counter has as many).
    fn grid_rows(row: &str) -> usize {
        usize::from(row.chars().filter(char::is_ascii_digit).count() >= 9)
    }

    /// What every finished race screen shows: the verdict on top, whole, then each pane
    /// whole, titled by its raced values, with its board (at least `inked` marks counted by
    /// `marks`) and its counters, and the keys at the bottom.
    fn check(race: &Race, (width, height): (u16, u16), marks: fn(&str) -> usize, inked: usize) {
        let lines = screen(race, width, height);
        let text = lines.join("\n");
        assert!(lines[0].starts_with(" kiln race · "), "{text}");
        let verdict = race
            .verdict(&race.placed())
            .expect("a finished race has a verdict");
        assert!(lines[0].contains(&format!("· {verdict}")), "{text}");
        let [_, panes, _] = screen_rows(Rect::new(0, 0, width, height));
        let areas = pane_areas(race.racers.len(), panes);
        if areas.len() == 4 {
            // Two by two.
            assert_eq!((areas[2].y, areas[3].x), (areas[0].bottom(), areas[1].x));
        }
        for (racer, area) in race.racers.iter().zip(&areas) {
            let name = &racer.name;
            let pane = cells(&lines, *area);
            assert!(
                pane[0].starts_with(&format!("╭ {name} ")),
                "{name}:\n{text}"
            );
            assert!(pane[0].ends_with('╮'), "{name} cut off:\n{text}");
            let bottom = pane.last().unwrap();
            assert!(bottom.starts_with('╰') && bottom.ends_with('╯'), "{text}");
            let drawn: usize = pane.iter().map(|row| marks(row)).sum();
            assert!(
                drawn >= inked,
                "{name}: {drawn} marks on the board:\n{text}"
            );
            let inside = pane.join("\n");
            for label in ["E ", "best ", "iter ", "it/s ", "rest. ", "time "] {
                assert!(inside.contains(label), "{name}: no {label}:\n{text}");
            }
            assert!(
                control(&inside).is_some(),
                "{name}: no temperature line:\n{text}"
            );
        }
        let keys = &lines[height as usize - 1];
        assert!(keys.starts_with(" space pause"), "{text}");
    }

    /// A pane's temperature or its stand-in as read off the screen ("T 30.9545", "thr. 0",
    /// "no temperature"): a label and a number (a temperature above 0), or the words for
    /// none.
    fn control(pane: &str) -> Option<String> {
        pane.lines().find_map(|row| {
            let words: Vec<&str> = row
                .split(|c: char| c.is_whitespace() || c == '│')
                .filter(|w| !w.is_empty())
                .collect();
            words.windows(2).find_map(|pair| match *pair {
                [label @ ("T" | "thr." | "mut."), value] => value
                    .parse::<f64>()
                    .is_ok_and(|v| v > 0.0 || (v == 0.0 && label == "thr."))
                    .then(|| format!("{label} {value}")),
                ["no", "temperature"] => Some("no temperature".to_string()),
                _ => None,
            })
        })
    }

    /// The options of a live view given `--speed` or not.
    fn at(speed: Option<Speed>) -> Options {
        Options {
            fps: 20,
            glyphs: Glyphs::Unicode,
            attract: false,
            speed,
        }
    }

    #[test]
    fn a_sudoku_race_starts_at_the_pace_of_a_single_run_in_both_forms() {
        let words = ["puzzles/sudoku/easy20.txt", "--index", "1"];
        let plan = |extra: &[&str]| {
            let line: Vec<String> = words.iter().chain(extra).map(|w| w.to_string()).collect();
            crate::cli::race_plan::plan("sudoku", &line).expect("a race")
        };
        let raced = plan(&["--preset", "kiln,lundy"]);
        // What `kiln sudoku` opens at: its tab's pace, which rises there; a race holds it.
        let opened = raced.panes[0].problem.get().live().unwrap().demos[0]
            .tab()
            .pace;
        assert!(matches!(opened, Speed::Rising(_)), "{opened:?}");
        let single = Speed::Limited(opened.rate().unwrap());
        let raced = raced.resolve(false).unwrap();
        let screen = Rect::new(0, 0, 80, 24);
        let race = race_lineup(&raced, &at(None), screen).unwrap();
        assert_eq!(race.speed, single);
        // The older form, `kiln race FILE --presets a,b`.
        let line = ["race"]
            .iter()
            .chain(&words)
            .chain(&["--presets", "kiln,lundy"]);
        let crate::cli::Command::Race(args) =
            crate::cli::command(&line.copied().collect::<Vec<_>>())
        else {
            panic!("not a race");
        };
        let (source, entrants) = args.entrants().unwrap();
        let mut race =
            crate::problems::demos::race(|_| source, &entrants, &at(None), screen).unwrap();
        assert_eq!(race.speed, single);
        // + and - walk the ladder from there, for every racer.
        race.on_action(Action::Faster);
        assert_eq!(race.speed, single.faster());
        race.on_action(Action::Slower);
        race.on_action(Action::Slower);
        assert_eq!(race.speed, single.faster().slower().slower());
        // --speed full is a flat-out race.
        let race = race_lineup(&raced, &at(Some(Speed::Full)), screen).unwrap();
        assert_eq!(race.speed, Speed::Full);
    }

    #[test]
    fn a_live_race_traces_each_pane_on_its_own_thread() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let file = dir.join("t.csv");
        let race = finished(
            &format!(
                "image --kernel n8,stripes --size 32x32 --max-steps 300000 --trace {}",
                file.display()
            ),
            80,
            24,
        );
        // The traces are finished when the runs end: with the race.
        drop(race);
        for pane in ["n8", "stripes"] {
            let path = dir.join(format!("t-{pane}.csv"));
            let text = std::fs::read_to_string(&path).unwrap();
            let rows = crate::search::trace::parse(&text, "t.csv").unwrap();
            assert_eq!(rows[0].iteration, 0, "{text}");
            assert_eq!(rows.last().unwrap().iteration, 300_000, "{text}");
        }
    }

    #[test]
    fn tsp_races_at_80x24_and_160x48() {
        let race = finished(
            "tsp puzzles/tsp/berlin52.tsp --moves swap,two-opt --max-steps 100000",
            80,
            24,
        );
        check(&race, (80, 24), braille, 40);
        let lines = screen(&race, 80, 24);
        assert_eq!(
            lines[0].trim_end(),
            " kiln race · berlin52 (52 cities) · two-opt wins: 7542, 9.3 % below swap (8315)"
        );
        let lines = screen(&race, 60, 20);
        assert_eq!(
            lines[0].trim_end(),
            " kiln race · two-opt wins: 7542, 9.3 % below swap (8315)"
        );
        let race = finished(
            "tsp --random 100 --moves swap,two-opt --layout uniform,clustered --max-steps 100000",
            160,
            48,
        );
        let names: Vec<&str> = race.racers.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "swap/uniform",
                "swap/clustered",
                "two-opt/uniform",
                "two-opt/clustered"
            ]
        );
        // A clustered tour of 100 cities is short: its pane draws fewer marks (194 with the
        // TSP defaults of issue 16) than a uniform one.
        check(&race, (160, 48), braille, 150);
        // Four small tours at 80x24, two by two, each beside its counters.
        check(&race, (80, 24), braille, 60);
    }

    #[test]
    fn image_races_at_80x24_and_160x48() {
        let race = finished(
            "image --kernel n8,8-16 --density 0.3 --max-steps 200000",
            80,
            24,
        );
        check(&race, (80, 24), braille, 100);
        let race = finished(
            "image --kernel n8,8-16,stripes,maze --max-steps 200000",
            160,
            48,
        );
        check(&race, (160, 48), braille, 300);
    }

    #[test]
    fn sudoku_races_at_80x24_and_160x48() {
        let race = finished(
            "sudoku puzzles/sudoku/easy20.txt --index 1 --preset kiln,lundy --max-steps 30000",
            80,
            24,
        );
        // Both solve within a second at full speed: who wins, or whether they tie, is the
        // machine's.
        let top = screen(&race, 80, 24)[0].clone();
        assert!(
            top.starts_with(" kiln race · 9x9 easy20.txt:1 · ")
                && (top.contains(" wins by ") || top.contains(" tie at ")),
            "{top}"
        );
        check(&race, (80, 24), grid_rows, 9);
        let race = finished(
            "sudoku puzzles/sudoku/easy20.txt --index 1 --preset kiln,lundy,ga,geometric-restart \
             --max-steps 30000",
            160,
            48,
        );
        check(&race, (160, 48), grid_rows, 9);
    }
}
