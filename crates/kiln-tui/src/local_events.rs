//! The local terminal's keys and resizes. Its bytes are read here and made into keys by the
//! same parser SSH clients get ([`Keys`]), not by crossterm's reader, which holds every key
//! after the start of a bracketed paste until the paste's end (which may never come).

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, ErrorKind, Read};
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossterm::event::{Event, KeyEvent};
use mio::unix::SourceFd;
use mio::{Interest, Poll, Token};
use signal_hook::SigId;
use signal_hook::consts::SIGWINCH;

use crate::key_bytes::Keys;
use crate::{Events, Input};

const TTY: Token = Token(0);

/// The controlling terminal, read without blocking (its own open file, so the shell's
/// stdin keeps its modes), with a poll to wait on.
pub(crate) struct LocalEvents {
    tty: File,
    poll: Poll,
    polled: mio::Events,
    keys: Keys,
    held: VecDeque<KeyEvent>,
    /// Set by SIGWINCH: the terminal's size is read again on the next call. A resize is
    /// noticed within one wait of the event loop (a frame's time).
    resized: Arc<AtomicBool>,
    winch: SigId,
}

impl LocalEvents {
    /// Opens the controlling terminal; an error if the process has none.
    pub(crate) fn open() -> io::Result<LocalEvents> {
        let tty = File::options()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open("/dev/tty")?;
        let poll = Poll::new()?;
        poll.registry()
            .register(&mut SourceFd(&tty.as_raw_fd()), TTY, Interest::READABLE)?;
        let resized = Arc::new(AtomicBool::new(false));
        let winch = signal_hook::flag::register(SIGWINCH, Arc::clone(&resized))?;
        Ok(LocalEvents {
            tty,
            poll,
            polled: mio::Events::with_capacity(4),
            keys: Keys::new(),
            held: VecDeque::new(),
            resized,
            winch,
        })
    }

    /// Reads what the terminal has sent into keys; `false` once it is gone. The poll
    /// wakes once for new bytes, so everything there is read now.
    fn read(&mut self) -> bool {
        let mut buf = [0u8; 1024];
        loop {
            match self.tty.read(&mut buf) {
                Ok(0) => return false,
                Ok(n) => {
                    let keys = self.keys.feed(&buf[..n], Instant::now());
                    self.held.extend(keys);
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => return true,
                Err(_) => return false,
            }
        }
    }
}

impl Drop for LocalEvents {
    fn drop(&mut self) {
        signal_hook::low_level::unregister(self.winch);
    }
}

impl Events for LocalEvents {
    fn next(&mut self, timeout: Duration) -> io::Result<Input> {
        if self.resized.swap(false, Ordering::Relaxed) {
            let (width, height) = crossterm::terminal::size()?;
            return Ok(Input::Event(Event::Resize(width, height)));
        }
        if self.held.is_empty() {
            let now = Instant::now();
            let expired = self.keys.expire(now);
            self.held.extend(expired);
            if self.held.is_empty() {
                let hold = self
                    .keys
                    .deadline()
                    .map_or(timeout, |at| at.saturating_duration_since(now));
                match self.poll.poll(&mut self.polled, Some(timeout.min(hold))) {
                    Err(e) if e.kind() != ErrorKind::Interrupted => return Err(e),
                    _ => {}
                }
                if !self.read() {
                    return Ok(Input::Closed);
                }
            }
        }
        Ok(self
            .held
            .pop_front()
            .map_or(Input::Nothing, |key| Input::Event(Event::Key(key))))
    }
}
