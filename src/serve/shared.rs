//! `kiln serve --shared`: one run that every client watches. One client presents (steers
//! it), the others watch; each sees it at its own size, in its own terminal's colours,
//! with a status line saying who presents.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget};

use super::channel::Activity;
use kiln_tui::keys::Action;
use kiln_tui::{App, Flow, Theme, Tui};

/// The shared run and who watches it.
pub struct Stage {
    show: Mutex<Show>,
    /// Whether presenting needs the presenter key (`--presenter-key`).
    keyed: bool,
    /// The presenter's last key.
    activity: Arc<Activity>,
}

struct Show {
    app: App,
    /// Bumped whenever any screen should change: every client redraws when it does.
    generation: u64,
    /// Bumped by each of the presenter's keys: every client draws its effect at once.
    keys: u64,
    /// In the order they came.
    viewers: Vec<Viewer>,
    next_id: u64,
}

struct Viewer {
    id: u64,
    /// "user@address".
    who: String,
    holds_key: bool,
}

impl Show {
    /// The earliest client with the presenter key, or without `--presenter-key` the
    /// earliest client.
    fn presenter(&self, keyed: bool) -> Option<&Viewer> {
        self.viewers.iter().find(|v| v.holds_key || !keyed)
    }
}

impl Stage {
    /// Starts `app` and a thread that takes its workers' reports `fps` times a second
    /// until `stop`.
    pub fn start(app: App, keyed: bool, fps: u32, stop: Arc<AtomicBool>) -> Arc<Stage> {
        let stage = Arc::new(Stage {
            show: Mutex::new(Show {
                app,
                generation: 0,
                keys: 0,
                viewers: Vec::new(),
                next_id: 0,
            }),
            keyed,
            activity: Arc::new(Activity::new()),
        });
        let ticking = Arc::clone(&stage);
        let frame = Duration::from_secs_f64(1.0 / f64::from(fps.max(1)));
        std::thread::Builder::new()
            .name("kiln-shared".to_string())
            .spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    {
                        let mut show = ticking.lock();
                        if show.app.poll() {
                            show.generation += 1;
                        }
                    }
                    std::thread::sleep(frame);
                }
            })
            .expect("the OS refused to start the shared run's thread");
        stage
    }

    /// When the presenter last pressed a key.
    pub fn activity(&self) -> Arc<Activity> {
        Arc::clone(&self.activity)
    }

    fn lock(&self) -> MutexGuard<'_, Show> {
        // A client's thread that panicked mid-draw leaves a show that can still be drawn.
        self.show.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new client's view of the run.
    pub fn join(self: &Arc<Stage>, who: String, holds_key: bool, theme: Theme) -> SharedView {
        let mut show = self.lock();
        let id = show.next_id;
        show.next_id += 1;
        show.viewers.push(Viewer { id, who, holds_key });
        show.generation += 1;
        SharedView {
            stage: Arc::clone(self),
            id,
            seen: None,
            keys_seen: show.keys,
            help: false,
            theme,
        }
    }
}

/// One client's view of the shared run.
pub struct SharedView {
    stage: Arc<Stage>,
    id: u64,
    /// The generation last drawn.
    seen: Option<u64>,
    /// The presenter's keys last seen.
    keys_seen: u64,
    /// A watcher's own help is open (a presenter's is the run's).
    help: bool,
    theme: Theme,
}

/// What a watcher's `?` opens: what the screen is and the keys that work here.
fn watcher_help(area: Rect, buf: &mut Buffer, theme: &Theme) {
    let lines = [
        "You watch someone else's run: it follows their keys.",
        "",
        "? or Esc  close this help",
        "q         leave",
    ];
    let width = (lines.iter().map(|l| l.len()).max().unwrap_or(0) as u16 + 4).min(area.width);
    let height = (lines.len() as u16 + 2).min(area.height);
    let popup = kiln_tui::help::centred(area, width, height);
    Clear.render(popup, buf);
    Paragraph::new(lines.map(Line::raw).to_vec())
        .block(Block::bordered().title(" help ").style(theme.badge))
        .render(popup, buf);
}

/// The run's part of a client's screen, above the status line.
fn split(area: Rect) -> (Rect, Rect) {
    let [run, status] = Layout::vertical([Constraint::Fill(1), Constraint::Length(1)]).areas(area);
    (run, status)
}

impl SharedView {
    fn presents(&self, show: &Show) -> bool {
        show.presenter(self.stage.keyed)
            .is_some_and(|p| p.id == self.id)
    }

    fn status(&self, show: &Show) -> Line<'static> {
        let watching = show.viewers.len().saturating_sub(1);
        let text = if self.presents(show) {
            format!(" you present · {watching} watching · q leaves")
        } else {
            match show.presenter(self.stage.keyed) {
                Some(p) => format!(" {} presents · you watch (read-only) · q leaves", p.who),
                None => " waiting for the presenter · you watch (read-only) · q leaves".to_string(),
            }
        };
        Line::from(Span::styled(text, self.theme.badge))
    }
}

impl Tui for SharedView {
    fn poll(&mut self) -> bool {
        let generation = self.stage.lock().generation;
        let changed = self.seen != Some(generation);
        self.seen = Some(generation);
        changed
    }

    fn keyed_elsewhere(&mut self) -> bool {
        let keys = self.stage.lock().keys;
        let pressed = keys != self.keys_seen;
        self.keys_seen = keys;
        pressed
    }

    fn on_action(&mut self, action: Action) -> Flow {
        let mut show = self.stage.lock();
        if !self.presents(&show) {
            // A watcher's keys steer nothing: they open and close their own help, and leave.
            return match action {
                Action::Help => {
                    self.help = !self.help;
                    Flow::Continue
                }
                Action::Quit | Action::Dismiss if self.help => {
                    self.help = false;
                    Flow::Continue
                }
                Action::Quit | Action::QuitNow => Flow::Quit,
                _ => Flow::Continue,
            };
        }
        let flow = show.app.on_action(action);
        show.generation += 1;
        show.keys += 1;
        self.stage.activity.touch();
        flow
    }

    fn crashed(&self) -> Option<String> {
        self.stage.lock().app.crashed()
    }

    fn render(&self, area: Rect, buf: &mut Buffer) {
        let mut show = self.stage.lock();
        let (run, status) = split(area);
        show.app.set_theme(self.theme);
        let presents = self.presents(&show);
        show.app.set_steering(presents);
        if presents {
            Tui::render(&show.app, run, buf);
        } else {
            // The run's footer lists the presenter's keys, none of which work here: a
            // watcher's last row is the status line, which says what they can do.
            Tui::render(&show.app, area, buf);
            Clear.render(status, buf);
        }
        Paragraph::new(self.status(&show)).render(status, buf);
        if self.help && !presents {
            watcher_help(run, buf, &self.theme);
        }
        self.theme.enforce(buf);
    }

    /// The presenter's size decides the size of the next run's board.
    fn resize(&mut self, screen: Rect) {
        let mut show = self.stage.lock();
        if self.presents(&show) {
            show.app.resize(split(screen).0);
        }
    }
}

impl Drop for SharedView {
    fn drop(&mut self) {
        let mut show = self.stage.lock();
        show.viewers.retain(|v| v.id != self.id);
        show.generation += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_tui::Theme;
    use kiln_tui::drawn as screen;

    #[test]
    fn a_watcher_opens_and_closes_help_of_their_own_and_is_not_told_to_press_space() {
        let theme = Theme::colour(false);
        let area = Rect::new(0, 0, 80, 24);
        let app = crate::serve::demo_app(theme, area, false, None).unwrap();
        let stop = Arc::new(AtomicBool::new(true));
        let stage = Stage::start(app, false, 20, stop);
        let presenter = stage.join("ann@127.0.0.1".to_string(), false, theme);
        let mut watcher = stage.join("bob@127.0.0.2".to_string(), false, theme);
        let watched = screen(&watcher, 80, 24).join("\n");
        assert!(!watched.contains("space"), "{watched}");
        for close in [Action::Help, Action::Dismiss, Action::Quit] {
            assert_eq!(watcher.on_action(Action::Help), Flow::Continue);
            let open = screen(&watcher, 80, 24).join("\n");
            assert!(open.contains("close this help"), "{open}");
            assert!(
                !screen(&presenter, 80, 24)
                    .join("\n")
                    .contains("close this help")
            );
            assert_eq!(watcher.on_action(close), Flow::Continue);
            let closed = screen(&watcher, 80, 24).join("\n");
            assert!(!closed.contains("close this help"), "{close:?}: {closed}");
        }
        assert_eq!(watcher.on_action(Action::Quit), Flow::Quit);
    }

    #[test]
    fn a_watcher_is_offered_only_what_a_watcher_can_do() {
        let theme = Theme::colour(false);
        let area = Rect::new(0, 0, 80, 24);
        let app = crate::serve::demo_app(theme, area, false, None).unwrap();
        let stop = Arc::new(AtomicBool::new(true));
        let stage = Stage::start(app, false, 20, stop);
        let presenter = stage.join("ann@127.0.0.1".to_string(), false, theme);
        let watcher = stage.join("bob@127.0.0.2".to_string(), false, theme);
        let shown = screen(&presenter, 80, 24).join("\n");
        assert!(
            shown.contains("reheat") && shown.contains("you present"),
            "{shown}"
        );
        let lines = screen(&watcher, 80, 24);
        let text = lines.join("\n");
        for key in ["pause", "reheat", "speed", "help"] {
            assert!(!text.contains(key), "a watcher is offered {key}:\n{text}");
        }
        assert!(
            lines[23].contains("ann@127.0.0.1 presents") && lines[23].contains("q leaves"),
            "{text}"
        );
        // The run itself is still drawn above it.
        assert!(lines[0].contains("kiln"), "{text}");
    }
}
