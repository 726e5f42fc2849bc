//! Entering and leaving the full-screen terminal, and putting it back on every exit path.

use std::io::{self, BufWriter, Stdout, Write};
use std::panic;
use std::thread;

use crossterm::terminal::{
    BeginSynchronizedUpdate, EndSynchronizedUpdate, EnterAlternateScreen, LeaveAlternateScreen,
    disable_raw_mode, enable_raw_mode,
};
use crossterm::{cursor, execute, queue};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use crate::anneal::worker::WORKER_THREAD;

/// Output is buffered so a frame leaves in one write, which matters over SSH.
pub type Backend = CrosstermBackend<BufWriter<Stdout>>;

/// The terminal in raw mode on the alternate screen; dropping it restores the terminal.
pub struct Screen {
    pub terminal: Terminal<Backend>,
}

impl Screen {
    pub fn enter() -> io::Result<Screen> {
        install_panic_hook();
        // With NO_COLOR, crossterm writes colour changes as an empty SGR, which resets bold
        // and reverse video too; the monochrome theme asks for no colour but needs those.
        crossterm::style::force_color_output(true);
        enable_raw_mode()?;
        let mut out = BufWriter::with_capacity(1 << 16, io::stdout());
        if let Err(e) = execute!(out, EnterAlternateScreen, cursor::Hide) {
            restore();
            return Err(e);
        }
        let terminal = Terminal::new(CrosstermBackend::new(out)).inspect_err(|_| restore())?;
        Ok(Screen { terminal })
    }

    /// Draws a frame between synchronized-update escapes, so the terminal shows it whole.
    pub fn draw(&mut self, render: impl FnOnce(&mut ratatui::Frame)) -> io::Result<()> {
        queue!(self.terminal.backend_mut(), BeginSynchronizedUpdate)?;
        self.terminal.draw(render)?;
        execute!(self.terminal.backend_mut(), EndSynchronizedUpdate)?;
        Ok(())
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        let _ = self.terminal.backend_mut().flush();
        restore();
    }
}

/// Leaves raw mode and the alternate screen and shows the cursor. Safe to call twice.
pub fn restore() {
    let _ = disable_raw_mode();
    let mut out = io::stdout();
    let _ = execute!(out, LeaveAlternateScreen, cursor::Show);
}

/// A panic on the UI thread restores the terminal before the message is printed. The
/// annealing thread's panics are caught and reported to the UI, which ends the app and
/// shows the message after restoring, so the hook stays quiet for that thread.
fn install_panic_hook() {
    let previous = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        if thread::current().name() == Some(WORKER_THREAD) {
            return;
        }
        restore();
        previous(info);
    }));
}
