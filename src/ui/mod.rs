//! The live terminal UI.

mod app;
pub mod boards;
mod format;
mod help;
mod history;
pub mod keys;
pub mod race;
mod session;
mod stats;
mod terminal;
#[cfg(test)]
mod testing;
mod theme;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use color_eyre::Result;
use color_eyre::eyre::eyre;
use crossterm::event::{self, Event, KeyEventKind};

pub use app::App;
pub use history::History;
pub use keys::Flow;
pub use session::{BoardArea, BoardKey, BoardView, Demo, Live, RunState, Session};
pub use theme::Theme;

use crate::anneal::worker::Speed;

/// How the UI was asked to look and behave.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    pub fps: u32,
    pub ascii: bool,
    /// Start at this speed instead of the demo's default.
    pub speed: Option<Speed>,
}

/// SIGTERM, SIGHUP and SIGINT ask the event loop to end. Once the terminal is gone,
/// crossterm's `event::poll` spins without ever returning (crossterm#793), so if the loop
/// has not ended by itself a second later, this thread restores what it can and exits.
fn watch_signals(stop: Arc<AtomicBool>) -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT])?;
    std::thread::Builder::new()
        .name("kiln-signals".to_string())
        .spawn(move || {
            if signals.forever().next().is_some() {
                stop.store(true, Ordering::Relaxed);
                std::thread::sleep(Duration::from_secs(1));
                terminal::restore();
                std::process::exit(0);
            }
        })?;
    Ok(())
}

/// A full-screen program the event loop can drive: the single-board app or a race.
pub trait Tui {
    /// Takes what the workers reported; `true` if the screen should be redrawn.
    fn poll(&mut self) -> bool;
    fn on_action(&mut self, action: keys::Action) -> Flow;
    /// The panic message of an annealing thread that died, if one did.
    fn crashed(&self) -> Option<String>;
    fn render(&self, area: ratatui::layout::Rect, buf: &mut ratatui::buffer::Buffer);
    /// The terminal now has this size.
    fn resize(&mut self, _screen: ratatui::layout::Rect) {}
}

/// Runs the TUI on `demos` until the user quits; the terminal is restored on every way out.
pub fn run(demos: Vec<Box<dyn Demo>>, tab: usize, index: usize, options: Options) -> Result<()> {
    let theme = Theme::from_env(options.ascii);
    let (width, height) = crossterm::terminal::size().unwrap_or((80, 24));
    let screen = ratatui::layout::Rect::new(0, 0, width, height);
    let mut app = App::new(demos, tab, index, options.speed, theme, screen)?;
    drive(&mut app, options.fps)?;
    // The terminal is restored by now, so a failure reads as a plain line.
    app.write_output()
}

/// The event loop: draws at most `fps` frames a second and only when something changed.
pub fn drive(ui: &mut impl Tui, fps: u32) -> Result<()> {
    let stop = Arc::new(AtomicBool::new(false));
    watch_signals(Arc::clone(&stop))?;
    let mut screen = terminal::Screen::enter()?;
    let frame = Duration::from_secs_f64(1.0 / fps.max(1) as f64);
    let mut dirty = true;
    let mut last_draw = Instant::now() - frame;
    while !stop.load(Ordering::Relaxed) {
        dirty |= ui.poll();
        if let Some(message) = ui.crashed() {
            return Err(eyre!("the annealing thread panicked: {message}"));
        }
        if dirty && last_draw.elapsed() >= frame {
            screen.draw(|f| ui.render(f.area(), f.buffer_mut()))?;
            dirty = false;
            last_draw = Instant::now();
        }
        // Wait for a key until the next frame is due; nothing is drawn while nothing changes.
        let wait = if dirty {
            frame.saturating_sub(last_draw.elapsed())
        } else {
            frame
        };
        if event::poll(wait)? {
            match event::read()? {
                Event::Key(key) if key.kind == KeyEventKind::Press => {
                    if let Some(action) = keys::action(key) {
                        if ui.on_action(action) == Flow::Quit {
                            break;
                        }
                        dirty = true;
                    }
                }
                Event::Resize(width, height) => {
                    screen.terminal.autoresize()?;
                    ui.resize(ratatui::layout::Rect::new(0, 0, width, height));
                    dirty = true;
                }
                _ => {}
            }
        }
    }
    Ok(())
}
