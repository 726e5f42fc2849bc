//! Entering and leaving the full-screen terminal, and putting it back on every exit path.

use std::io::{self, BufWriter, Stdout, Write};
use std::panic;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;

use crossterm::terminal::{
    BeginSynchronizedUpdate, EndSynchronizedUpdate, EnterAlternateScreen, LeaveAlternateScreen,
    disable_raw_mode, enable_raw_mode,
};
use crossterm::{cursor, execute, queue};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use crate::anneal::worker::WORKER_THREAD;

/// Output is buffered so a frame leaves in one write, which matters over SSH, and counted
/// so the event loop can keep to a byte budget.
pub(super) type Backend = CrosstermBackend<Counted<BufWriter<Stdout>>>;

/// A writer that counts the bytes through it (the backend keeps the writer to itself,
/// so the count is shared).
pub(super) struct Counted<W> {
    inner: W,
    written: Arc<AtomicU64>,
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.written.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// The terminal in raw mode on the alternate screen; dropping it restores the terminal.
pub(super) struct Screen {
    pub terminal: Terminal<Backend>,
    written: Arc<AtomicU64>,
}

impl Screen {
    pub(super) fn enter() -> io::Result<Screen> {
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
        let written = Arc::new(AtomicU64::new(0));
        let out = Counted {
            inner: out,
            written: Arc::clone(&written),
        };
        let terminal = Terminal::new(CrosstermBackend::new(out)).inspect_err(|_| restore())?;
        Ok(Screen { terminal, written })
    }

    /// Draws a frame between synchronized-update escapes, so the terminal shows it whole;
    /// returns the bytes it took.
    pub(super) fn draw(&mut self, render: impl FnOnce(&mut ratatui::Frame)) -> io::Result<u64> {
        let before = self.written.load(Ordering::Relaxed);
        queue!(self.terminal.backend_mut(), BeginSynchronizedUpdate)?;
        self.terminal.draw(render)?;
        execute!(self.terminal.backend_mut(), EndSynchronizedUpdate)?;
        Ok(self.written.load(Ordering::Relaxed) - before)
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        let _ = self.terminal.backend_mut().flush();
        restore();
    }
}

/// Leaves raw mode and the alternate screen and shows the cursor. Safe to call twice.
pub(super) fn restore() {
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
