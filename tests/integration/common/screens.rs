//! What the tests that look at screens share: for a program in a pseudo-terminal, the
//! terminal, its screen as vt100 reads it, and waiting for the screen. The live view driven
//! in this process is read with `kiln_tui::drawn`.

use std::io::{Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, MasterPty, PtyPair, PtySize, native_pty_system};

/// How long a screen or an exit is waited for.
const WAIT: Duration = Duration::from_secs(20);

pub(crate) fn size(cols: u16, rows: u16) -> PtySize {
    PtySize {
        rows,
        cols,
        pixel_width: 0,
        pixel_height: 0,
    }
}

/// A new pseudo-terminal of `cols` x `rows` (to look at before a program runs in it).
pub(crate) fn open(cols: u16, rows: u16) -> PtyPair {
    native_pty_system().openpty(size(cols, rows)).unwrap()
}

/// A program running in a pseudo-terminal, its output read into a vt100 screen.
pub(crate) struct Pty {
    pub master: Box<dyn MasterPty + Send>,
    pub child: Box<dyn Child + Send + Sync>,
    /// The keyboard: `press` writes to it; dropping it (and `master`) closes the terminal.
    pub writer: Box<dyn Write + Send>,
    pub screen: Arc<Mutex<vt100::Parser>>,
    /// Bytes the program wrote.
    bytes: Arc<AtomicUsize>,
}

impl Pty {
    /// Runs `cmd` in `pair`, a terminal of `cols` x `rows`.
    pub(crate) fn spawn(pair: PtyPair, cmd: CommandBuilder, cols: u16, rows: u16) -> Pty {
        let child = pair.slave.spawn_command(cmd).unwrap();
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().unwrap();
        let writer = pair.master.take_writer().unwrap();
        let screen = Arc::new(Mutex::new(vt100::Parser::new(rows, cols, 0)));
        let bytes = Arc::new(AtomicUsize::new(0));
        let (parser, counter) = (Arc::clone(&screen), Arc::clone(&bytes));
        thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                counter.fetch_add(n, Ordering::Relaxed);
                parser.lock().unwrap().process(&buf[..n]);
            }
        });
        Pty {
            master: pair.master,
            child,
            writer,
            screen,
            bytes,
        }
    }

    pub(crate) fn text(&self) -> String {
        self.screen.lock().unwrap().screen().contents()
    }

    /// Reads the screen until `done` says so; the screen that was. A screen that never
    /// gets there fails the test with `what` and the last screen.
    pub(crate) fn wait_until(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let text = self.text();
            if done(&text) {
                return text;
            }
            assert!(
                Instant::now() < deadline,
                "never saw {what}; the screen:\n{text}"
            );
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// The screen once it has stopped changing: the same for half a second.
    pub(crate) fn settled(&self) -> vt100::Screen {
        let deadline = Instant::now() + WAIT;
        let mut last = self.screen.lock().unwrap().screen().clone();
        loop {
            thread::sleep(Duration::from_millis(500));
            let now = self.screen.lock().unwrap().screen().clone();
            if now.contents_formatted() == last.contents_formatted() {
                return now;
            }
            assert!(
                Instant::now() < deadline,
                "the screen never settled:\n{}",
                now.contents()
            );
            last = now;
        }
    }

    pub(crate) fn wait_for(&self, what: &str) -> String {
        self.wait_until(&format!("{what:?}"), |text| text.contains(what))
    }

    pub(crate) fn press(&mut self, keys: impl AsRef<[u8]>) {
        self.writer.write_all(keys.as_ref()).unwrap();
        self.writer.flush().unwrap();
    }

    /// The terminal is now `cols` x `rows` (the screen first, so what the program draws
    /// for the new size is read at that size).
    pub(crate) fn resize(&self, cols: u16, rows: u16) {
        self.screen
            .lock()
            .unwrap()
            .screen_mut()
            .set_size(rows, cols);
        self.master.resize(size(cols, rows)).unwrap();
    }

    /// Resizes the terminal to `cols` x `rows` and waits for the live view drawn at that
    /// size: its footer (with "? help") on the new last row.
    pub(crate) fn resize_view(&self, cols: u16, rows: u16) {
        self.resize(cols, rows);
        let last = usize::from(rows) - 1;
        self.wait_until(&format!("the footer on row {rows}"), |t| {
            t.lines().nth(last).is_some_and(|l| l.contains("? help"))
        });
    }

    /// The program's exit code, once it has exited.
    pub(crate) fn wait_exit(&mut self) -> u32 {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                // Let the reader take the last bytes (the restore sequence).
                thread::sleep(Duration::from_millis(200));
                return status.exit_code();
            }
            assert!(
                Instant::now() < deadline,
                "the program did not exit; the screen:\n{}",
                self.text()
            );
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Bytes the program writes per second over `over`.
    pub(crate) fn output_rate(&self, over: Duration) -> f64 {
        let before = self.bytes.load(Ordering::Relaxed);
        thread::sleep(over);
        (self.bytes.load(Ordering::Relaxed) - before) as f64 / over.as_secs_f64()
    }
}
