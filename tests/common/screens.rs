//! What the tests that read a terminal's screen share. Included (`#[path]`) only by the
//! test crates that drive a pseudo-terminal.

use std::thread;
use std::time::{Duration, Instant};

/// Reads the screen with `text` until `done` says so, within 20 s; the screen that was.
/// A screen that never gets there fails the test with `what` and the last screen.
pub fn wait_until(what: &str, text: impl Fn() -> String, done: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let screen = text();
        if done(&screen) {
            return screen;
        }
        assert!(
            Instant::now() < deadline,
            "never saw {what}; the screen:\n{screen}"
        );
        thread::sleep(Duration::from_millis(20));
    }
}
