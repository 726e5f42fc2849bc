//! Entering and leaving the full-screen terminal, and putting it back on every exit path.
//! The same screen also draws into a remote terminal (an SSH channel), which says its own
//! size and may not take a frame at once.

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
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};

use super::compact::Compact;
use kiln_core::anneal::worker::WORKER_THREAD;

/// The largest screen kiln draws, in cells. Every size a terminal or an SSH client reports
/// goes through [`screen_area`] before anything is allocated for it: a client may claim
/// 100000x100000, and a screen's buffers, frames and boards grow with its area.
pub const MAX_SCREEN: (u16, u16) = (500, 200);

/// The screen kiln draws for a terminal that says it is `width` x `height`: at most
/// [`MAX_SCREEN`] (a larger terminal gets its top-left corner), and 80x24's side for a side
/// of 0 (a pty request that leaves the size out).
pub fn screen_area(width: u32, height: u32) -> Rect {
    let side = |n: u32, default: u16, max: u16| match n {
        0 => default,
        n => n.min(u32::from(max)) as u16,
    };
    Rect::new(
        0,
        0,
        side(width, 80, MAX_SCREEN.0),
        side(height, 24, MAX_SCREEN.1),
    )
}

/// The local terminal's screen area, clamped as every reported size is.
pub fn local_area() -> Rect {
    let (width, height) = crossterm::terminal::size().unwrap_or((80, 24));
    screen_area(width.into(), height.into())
}

/// Where a screen's bytes go: the local terminal, or a remote one that may be slow.
pub trait Sink: Write {
    /// Whether a frame drawn now would be taken at once; a slow client's frames are skipped
    /// rather than queued.
    fn ready(&self) -> bool {
        true
    }

    /// Ends a frame: what was written since the last one leaves in one piece.
    fn end_frame(&mut self) -> io::Result<()> {
        self.flush()
    }

    /// The terminal is now `area` (a recording notes the new size).
    fn resized(&mut self, _area: Rect) -> io::Result<()> {
        Ok(())
    }

    /// Puts the terminal back as it was before the screen was entered.
    fn restore(&mut self);
}

/// A sink chosen as the program runs (recorded or not).
impl<S: Sink + ?Sized> Sink for Box<S> {
    fn ready(&self) -> bool {
        (**self).ready()
    }

    fn end_frame(&mut self) -> io::Result<()> {
        (**self).end_frame()
    }

    fn resized(&mut self, area: Rect) -> io::Result<()> {
        (**self).resized(area)
    }

    fn restore(&mut self) {
        (**self).restore();
    }
}

/// Output is buffered so a frame leaves in one write, which matters over SSH.
impl Sink for LocalOut {
    fn restore(&mut self) {
        let _ = self.flush();
        restore();
    }
}

/// A writer that counts the bytes through it (the backend keeps the writer to itself,
/// so the count is shared).
pub struct Counted<W> {
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

/// A full-screen terminal: the local one in raw mode on the alternate screen, or a remote
/// one; dropping it restores the terminal. Its size is always the one last reported through
/// [`screen_area`], never queried by ratatui behind it (which would take a terminal's
/// claimed size unclamped).
pub struct Screen<W: Sink> {
    pub terminal: Terminal<Compact<CrosstermBackend<Counted<W>>>>,
    written: Arc<AtomicU64>,
}

/// The local terminal's output, buffered.
pub type LocalOut = BufWriter<Stdout>;

fn counted<W>(inner: W) -> (Counted<W>, Arc<AtomicU64>) {
    let written = Arc::new(AtomicU64::new(0));
    let out = Counted {
        inner,
        written: Arc::clone(&written),
    };
    (out, written)
}

/// Takes the local terminal (raw mode, the alternate screen) for a screen whose bytes go
/// through `sink`, which is given the terminal and its size (a recording wraps it).
pub fn enter_local<W: Sink>(
    sink: impl FnOnce(LocalOut, Rect) -> io::Result<W>,
) -> io::Result<Screen<W>> {
    install_panic_hook();
    enable_raw_mode()?;
    let out = BufWriter::with_capacity(1 << 16, io::stdout());
    let area = local_area();
    sink(out, area)
        .and_then(|out| Screen::new(out, area))
        .inspect_err(|_| restore())
}

impl<W: Sink> Screen<W> {
    /// A terminal of `area`'s size (from [`screen_area`]) that `out` writes to, on its
    /// alternate screen.
    pub fn new(mut out: W, area: Rect) -> io::Result<Screen<W>> {
        // With NO_COLOR, crossterm writes colour changes as an empty SGR, which resets bold
        // and reverse video too; the monochrome theme asks for no colour but needs those.
        crossterm::style::force_color_output(true);
        queue!(out, EnterAlternateScreen, cursor::Hide)?;
        out.flush()?;
        let (out, written) = counted(out);
        let viewport = Viewport::Fixed(area);
        let backend = Compact::new(CrosstermBackend::new(out), area);
        let terminal = Terminal::with_options(backend, TerminalOptions { viewport })?;
        Ok(Screen { terminal, written })
    }

    /// Whether a frame drawn now would go out at once.
    pub fn ready(&self) -> bool {
        self.terminal.backend().inner().writer().inner.ready()
    }

    /// Where the bytes go, behind the count.
    fn sink(&mut self) -> &mut W {
        &mut self.terminal.backend_mut().inner_mut().writer_mut().inner
    }

    /// Draws a frame between synchronized-update escapes, so the terminal shows it whole;
    /// returns the bytes it took.
    pub(super) fn draw(&mut self, render: impl FnOnce(&mut ratatui::Frame)) -> io::Result<u64> {
        let before = self.written.load(Ordering::Relaxed);
        queue!(
            self.terminal.backend_mut().inner_mut(),
            BeginSynchronizedUpdate
        )?;
        self.terminal.draw(render)?;
        let out = self.terminal.backend_mut().inner_mut().writer_mut();
        queue!(out, EndSynchronizedUpdate)?;
        out.inner.end_frame()?;
        Ok(self.written.load(Ordering::Relaxed) - before)
    }

    /// The terminal is now `area` (from [`screen_area`]).
    pub fn resize(&mut self, area: Rect) -> io::Result<()> {
        self.sink().resized(area)?;
        self.terminal.backend_mut().resize(area);
        self.terminal.resize(area)
    }

    /// The screen's size as last reported (ratatui's own `size` asks the process's
    /// terminal, which is not a remote client's, and is not clamped).
    pub fn area(&self) -> Rect {
        self.terminal.backend().area()
    }
}

impl<W: Sink> Drop for Screen<W> {
    fn drop(&mut self) {
        self.sink().restore();
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
