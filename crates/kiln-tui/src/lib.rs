//! kiln's live view, for any annealing problem: write a [`Problem`](kiln_core::anneal::Problem)
//! and a [`Board`] that draws its snapshot, and [`Watch`] runs it in the terminal with the
//! whole view: the board, the energy and temperature plots, the stats panel, keys to pause,
//! step, speed up and reheat, the lesson line that explains each move at slow speeds, the
//! help, a recording of the screen (asciicast) and a headless mode that prints one JSON
//! line. kiln's own problems are drawn by the same [`App`] through their [`Demo`]s.
//!
//! It depends on the engine (`kiln-core`), ratatui and crossterm (termwiz parses the keys a
//! terminal sends), and on no command-line parser, network server or plotting crate.

mod app;
mod cast;
mod compact;
mod explain_panel;
pub mod format;
pub mod help;
mod history;
pub mod key_bytes;
pub mod keys;
mod lesson;
mod local_events;
mod pace;
pub mod record;
pub mod save;
mod session;
mod stats;
pub mod terminal;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
mod theme;
mod trace_slot;
pub mod watch;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use color_eyre::Result;
use color_eyre::eyre::eyre;
use crossterm::event::{Event, KeyEventKind};

pub use app::App;
pub use history::History;
pub use keys::Flow;
pub use session::{Board, BoardArea, BoardKey, Demo, Live, RunState, Session, Tab, put};
pub use stats::sparkline;
pub use terminal::{MAX_SCREEN, Screen, Sink, screen_area};
pub use theme::{Glyphs, Theme};
pub use trace_slot::TraceSlot;
pub use watch::Watch;

use kiln_core::search::interrupt;
use kiln_core::search::worker::Speed;

/// How the UI was asked to look and behave.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Frames a second at most.
    pub fps: u32,
    /// Which glyphs to draw with.
    pub glyphs: Glyphs,
    /// Whether a finished run makes way for the next by itself.
    pub attract: bool,
    /// Start at this speed instead of the demo's default.
    pub speed: Option<Speed>,
}

/// SIGTERM, SIGHUP and SIGINT ask the event loop to end, and kiln to exit with the
/// signal's code. If the loop has not ended by itself a second later (a frame stuck on a
/// terminal that went away), this thread restores what it can and exits.
fn watch_signals(stop: Arc<AtomicBool>) -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT])?;
    std::thread::Builder::new()
        .name("kiln-signals".to_string())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                interrupt::record(signal);
                stop.store(true, Ordering::Relaxed);
                std::thread::sleep(Duration::from_secs(1));
                terminal::restore();
                std::process::exit(i32::from(interrupt::exit_code(signal)));
            }
        })?;
    Ok(())
}

/// A full-screen program the event loop can drive: the single-board app or a race.
pub trait Tui {
    /// Takes what the workers reported; `true` if the screen should be redrawn.
    fn poll(&mut self) -> bool;
    /// Whether someone's key changed the screen since the last call (a presenter's, for
    /// those who watch), to be drawn as soon as a key of one's own would be.
    fn keyed_elsewhere(&mut self) -> bool {
        false
    }
    /// Does what a key asks; `Flow::Quit` ends the loop.
    fn on_action(&mut self, action: keys::Action) -> Flow;
    /// The panic message of an annealing thread that died, if one did.
    fn crashed(&self) -> Option<String>;
    /// Draws the whole screen into `buf`.
    fn render(&self, area: ratatui::layout::Rect, buf: &mut ratatui::buffer::Buffer);
    /// The terminal now has this size.
    fn resize(&mut self, _screen: ratatui::layout::Rect) {}
}

/// The screen `tui` draws at `width` x `height`, row by row, as a person would read it:
/// how tests (and `Watch::screen_until`) see a frame without a terminal.
pub fn drawn(tui: &impl Tui, width: u16, height: u16) -> Vec<String> {
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(width, height))
        .expect("a test backend has no terminal to fail");
    terminal
        .draw(|f| tui.render(f.area(), f.buffer_mut()))
        .expect("a test backend has no terminal to fail");
    let buf = terminal.backend().buffer();
    (0..height)
        .map(|y| (0..width).map(|x| buf[(x, y)].symbol()).collect())
        .collect()
}

/// Runs the TUI on `demos` until the user quits, recording it to `record` if given; the
/// terminal is restored on every way out.
pub fn run(
    demos: Vec<Box<dyn Demo>>,
    tab: usize,
    index: usize,
    options: Options,
    record: Option<&Path>,
) -> Result<()> {
    let theme = Theme::from_env(options.glyphs);
    let screen = terminal::local_area();
    let mut app = App::new(
        demos,
        tab,
        index,
        options.speed,
        theme,
        screen,
        options.attract,
    )?;
    drive(&mut app, options.fps, record)?;
    // The terminal is restored by now, so a failure reads as a plain line.
    app.write_output()
}

/// What the event loop was given while it waited.
pub enum Input {
    /// A key or a resize.
    Event(Event),
    /// Nothing came in time.
    Nothing,
    /// The terminal went away (a remote client left, or stayed idle too long).
    Closed,
}

/// Where the event loop's keys and resizes come from: the local terminal or a remote one.
pub trait Events {
    /// Waits at most `timeout` for the next input.
    fn next(&mut self, timeout: Duration) -> std::io::Result<Input>;

    /// What Esc does here when nothing is open for it to close.
    fn esc(&self) -> keys::Esc {
        keys::Esc::Quits
    }
}

/// Runs `ui` in the local terminal until the user quits or a signal comes, recording what
/// the terminal is sent to a new file at `record` if given (`--record`).
pub fn drive(ui: &mut impl Tui, fps: u32, record: Option<&Path>) -> Result<()> {
    let stop = Arc::new(AtomicBool::new(false));
    drive_until(ui, fps, record, &stop, || watch_signals(Arc::clone(&stop)))
}

/// Runs `ui` in the local terminal as [`drive`] does, until the user quits or `stop` is
/// set, with signals left to the caller: a program that embeds the view (a Python
/// module, whose Ctrl-C is Python's) sets `stop` itself. `signals` is called once the
/// terminal is known to be there, before it is taken.
pub fn drive_until(
    ui: &mut impl Tui,
    fps: u32,
    record: Option<&Path>,
    stop: &AtomicBool,
    signals: impl FnOnce() -> std::io::Result<()>,
) -> Result<()> {
    // Without a controlling terminal nothing tells kiln when its terminal goes away (no
    // SIGHUP comes).
    let Ok(mut events) = local_events::LocalEvents::open() else {
        return Err(eyre!(
            "the live view needs a controlling terminal; use --headless for JSON"
        ));
    };
    // Made only now that the run is set up, so a run that never started leaves no file.
    let recording = record
        .map(|path| record::create(path).map(|file| (file, path)))
        .transpose()?;
    signals()?;
    let mut screen = terminal::enter_local(|out, area| -> std::io::Result<Box<dyn Sink>> {
        Ok(match recording {
            None => Box::new(out),
            Some((file, path)) => {
                let term = std::env::var("TERM").ok();
                Box::new(record::Recorded::new(
                    out,
                    file,
                    path,
                    area,
                    term.as_deref(),
                )?)
            }
        })
    })?;
    event_loop(ui, fps, &mut screen, &mut events, stop)
}

/// The event loop, for a local or a remote terminal: draws at most `fps` frames a second,
/// within a byte budget, only when something changed and only when the terminal can take
/// the frame; ends when the user quits, the terminal goes away or `stop` is set.
pub fn event_loop<W: Sink>(
    ui: &mut impl Tui,
    fps: u32,
    screen: &mut Screen<W>,
    events: &mut impl Events,
    stop: &AtomicBool,
) -> Result<()> {
    let size = screen.area();
    let mut pacer = pace::Pacer::new(fps, size.width, size.height, Instant::now());
    let idle = Duration::from_secs_f64(1.0 / f64::from(fps.max(1)));
    let mut dirty = true;
    // A key's effect is drawn without waiting for the byte budget.
    let mut urgent = true;
    while !stop.load(Ordering::Relaxed) {
        dirty |= ui.poll();
        if ui.keyed_elsewhere() {
            dirty = true;
            urgent = true;
        }
        if let Some(message) = ui.crashed() {
            return Err(eyre!("the annealing thread panicked: {message}"));
        }
        let wait = pacer.wait(Instant::now(), urgent);
        if dirty && wait.is_zero() && screen.ready() {
            let bytes = screen.draw(|f| ui.render(f.area(), f.buffer_mut()))?;
            pacer.drawn(Instant::now(), bytes);
            dirty = false;
            urgent = false;
        }
        // Wait for a key until the next frame is due; nothing is drawn while nothing changes.
        let wait = if dirty { wait.min(idle) } else { idle };
        match events.next(wait)? {
            Input::Event(Event::Key(key)) if key.kind == KeyEventKind::Press => {
                if let Some(action) = keys::action_where(key, events.esc()) {
                    if ui.on_action(action) == Flow::Quit {
                        break;
                    }
                    dirty = true;
                    urgent = true;
                }
            }
            Input::Event(Event::Resize(width, height)) => {
                let area = terminal::screen_area(width.into(), height.into());
                screen.resize(area)?;
                ui.resize(area);
                pacer.resize(area.width, area.height);
                dirty = true;
                urgent = true;
            }
            Input::Event(_) | Input::Nothing => {}
            Input::Closed => break,
        }
    }
    Ok(())
}
