//! The two directions of one client's view: frames out through a short queue that a slow
//! client never lets grow (the view skips frames instead), and keys and resizes in.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossterm::event::Event;
use crossterm::terminal::LeaveAlternateScreen;
use crossterm::{cursor, queue};
use tokio::sync::mpsc::Sender;
use tokio::sync::mpsc::error::TrySendError;

use kiln_tui::key_bytes::Keys;
use kiln_tui::keys::Esc;
use kiln_tui::{Events, Input, Sink};

/// Frames that may wait for a client at once: one on its way, one behind it, and room
/// for the bytes that restore the client's terminal at the end.
pub(super) const QUEUE: usize = 3;

/// The view's bytes, sent a frame at a time to the task that writes them to the channel.
pub(super) struct Frames {
    queue: Sender<Vec<u8>>,
    frame: Vec<u8>,
}

impl Frames {
    pub(super) fn new(queue: Sender<Vec<u8>>) -> Frames {
        Frames {
            queue,
            frame: Vec::new(),
        }
    }
}

impl Write for Frames {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.frame.extend_from_slice(buf);
        Ok(buf.len())
    }

    /// A frame leaves whole at its end (`end_frame`), not at each flush of the backend.
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Sink for Frames {
    /// Room for this frame and for the restoring bytes after it.
    fn ready(&self) -> bool {
        self.queue.capacity() >= 2
    }

    fn end_frame(&mut self) -> io::Result<()> {
        if self.frame.is_empty() {
            return Ok(());
        }
        match self.queue.try_send(std::mem::take(&mut self.frame)) {
            Ok(()) => Ok(()),
            // Drawn only when ready, so only the restoring bytes can find the queue full,
            // behind frames a stalled client is not taking: they would not reach it either.
            Err(TrySendError::Full(_)) => Ok(()),
            Err(TrySendError::Closed(_)) => Err(io::ErrorKind::BrokenPipe.into()),
        }
    }

    fn restore(&mut self) {
        let _ = queue!(self, LeaveAlternateScreen, cursor::Show);
        let _ = self.end_frame();
    }
}

/// Why a client's input ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ended {
    /// The client closed the channel or went away.
    Left,
    /// No key for longer than `--idle`.
    Idle,
}

/// When someone last did something in a run that several clients watch.
pub struct Activity(Mutex<Instant>);

impl Activity {
    pub fn new() -> Activity {
        Activity(Mutex::new(Instant::now()))
    }

    pub fn touch(&self) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }

    fn last(&self) -> Instant {
        *self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A client's keys and resizes, as the event loop reads them; a client that sends nothing
/// for `idle` is closed, unless it watches a run someone steers (`follow`).
pub(super) struct ClientEvents {
    events: Receiver<Event>,
    /// The client's key parser, which the connection feeds: what it holds (a lone ESC)
    /// is read here once the client has sent nothing more for a moment.
    keys: Arc<Mutex<Keys>>,
    /// Keys read from the parser's hold, not yet given to the loop.
    held: VecDeque<Event>,
    idle: Duration,
    last: Instant,
    /// The shared run's activity: a watcher of a talk types nothing, yet is not idle
    /// while the presenter is not.
    watched: Option<Arc<Activity>>,
    pub ended: Option<Ended>,
}

impl ClientEvents {
    pub(super) fn new(
        events: Receiver<Event>,
        keys: Arc<Mutex<Keys>>,
        idle: Duration,
    ) -> ClientEvents {
        ClientEvents {
            events,
            keys,
            held: VecDeque::new(),
            idle,
            last: Instant::now(),
            watched: None,
            ended: None,
        }
    }

    /// Counts `activity` as this client's own.
    pub(super) fn follow(&mut self, activity: Arc<Activity>) {
        self.watched = Some(activity);
    }

    fn keys(&self) -> std::sync::MutexGuard<'_, Keys> {
        self.keys.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn got(&mut self, event: Event) -> Input {
        self.last = Instant::now();
        Input::Event(event)
    }

    fn closed(&mut self, why: Ended) -> Input {
        self.ended = Some(why);
        Input::Closed
    }
}

impl Events for ClientEvents {
    fn next(&mut self, timeout: Duration) -> io::Result<Input> {
        let last = match &self.watched {
            Some(activity) => self.last.max(activity.last()),
            None => self.last,
        };
        let left = self.idle.saturating_sub(last.elapsed());
        if left.is_zero() {
            return Ok(self.closed(Ended::Idle));
        }
        // Keys parsed before the hold ran out come first, then what it held.
        match self.events.try_recv() {
            Ok(event) => return Ok(self.got(event)),
            Err(TryRecvError::Disconnected) => return Ok(self.closed(Ended::Left)),
            Err(TryRecvError::Empty) => {}
        }
        let now = Instant::now();
        let expired = self.keys().expire(now);
        self.held.extend(expired.into_iter().map(Event::Key));
        if let Some(event) = self.held.pop_front() {
            return Ok(self.got(event));
        }
        let hold = self
            .keys()
            .deadline()
            .map_or(timeout, |at| at.saturating_duration_since(now));
        Ok(
            match self.events.recv_timeout(timeout.min(left).min(hold)) {
                Ok(event) => self.got(event),
                Err(RecvTimeoutError::Timeout) => Input::Nothing,
                Err(RecvTimeoutError::Disconnected) => self.closed(Ended::Left),
            },
        )
    }

    /// A lone ESC may be the first half of a key a slow link split: it closes the help,
    /// but never ends a session (`q` does).
    fn esc(&self) -> Esc {
        Esc::Dismisses
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    fn parser() -> Arc<Mutex<Keys>> {
        Arc::new(Mutex::new(Keys::new()))
    }

    #[test]
    fn a_held_esc_comes_after_the_keys_before_it_and_only_once_the_hold_is_over() {
        let (tx, rx) = std::sync::mpsc::channel();
        let keys = parser();
        let mut events = ClientEvents::new(rx, Arc::clone(&keys), Duration::from_secs(60));
        let start = Instant::now();
        for key in keys.lock().unwrap().feed(b"a\x1b", start) {
            tx.send(Event::Key(key)).unwrap();
        }
        let key = |code| Event::Key(KeyEvent::new(code, KeyModifiers::NONE));
        let first = events.next(Duration::ZERO).unwrap();
        assert!(matches!(first, Input::Event(e) if e == key(KeyCode::Char('a'))));
        // Waits no longer than the hold, then reads the Esc.
        let mut waited = Vec::new();
        loop {
            match events.next(Duration::from_secs(5)).unwrap() {
                Input::Event(e) => {
                    assert_eq!(e, key(KeyCode::Esc));
                    break;
                }
                Input::Nothing => waited.push(start.elapsed()),
                Input::Closed => panic!("closed"),
            }
        }
        assert!(start.elapsed() >= kiln_tui::key_bytes::HOLD);
        assert!(start.elapsed() < Duration::from_secs(2), "{waited:?}");
        assert!(matches!(
            events.next(Duration::from_millis(10)).unwrap(),
            Input::Nothing
        ));
    }

    #[test]
    fn a_slow_client_is_not_ready_and_its_queue_stays_bounded() {
        let (tx, mut rx) = tokio::sync::mpsc::channel(QUEUE);
        let mut frames = Frames::new(tx);
        let mut sent = 0;
        for _ in 0..100 {
            if frames.ready() {
                frames.write_all(b"frame").unwrap();
                frames.end_frame().unwrap();
                sent += 1;
            }
        }
        assert_eq!(sent, QUEUE - 1);
        // The end still fits, and nothing more is queued after it.
        frames.restore();
        frames.write_all(b"more").unwrap();
        frames.end_frame().unwrap();
        let mut queued = Vec::new();
        while let Ok(frame) = rx.try_recv() {
            queued.push(frame);
        }
        assert_eq!(queued.len(), QUEUE);
        assert!(String::from_utf8_lossy(&queued[QUEUE - 1]).contains("\x1b[?1049l"));
        drop(rx);
        frames.write_all(b"gone").unwrap();
        assert_eq!(
            frames.end_frame().unwrap_err().kind(),
            io::ErrorKind::BrokenPipe
        );
    }

    #[test]
    fn a_client_that_types_nothing_is_idle() {
        let (tx, rx) = std::sync::mpsc::channel();
        let mut events = ClientEvents::new(rx, parser(), Duration::from_millis(30));
        tx.send(Event::Resize(80, 24)).unwrap();
        assert!(matches!(
            events.next(Duration::ZERO).unwrap(),
            Input::Event(_)
        ));
        while !matches!(
            events.next(Duration::from_millis(5)).unwrap(),
            Input::Closed
        ) {}
        assert_eq!(events.ended, Some(Ended::Idle));
        // Watching a run someone steers is not being idle.
        let (_keys, rx) = std::sync::mpsc::channel();
        let mut events = ClientEvents::new(rx, parser(), Duration::from_millis(30));
        let activity = Arc::new(Activity::new());
        events.follow(Arc::clone(&activity));
        for _ in 0..10 {
            activity.touch();
            assert!(matches!(
                events.next(Duration::from_millis(10)).unwrap(),
                Input::Nothing
            ));
        }
        let (tx, rx) = std::sync::mpsc::channel::<Event>();
        drop(tx);
        let mut events = ClientEvents::new(rx, parser(), Duration::from_secs(60));
        assert!(matches!(
            events.next(Duration::from_secs(1)).unwrap(),
            Input::Closed
        ));
        assert_eq!(events.ended, Some(Ended::Left));
    }
}
