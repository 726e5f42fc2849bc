//! The progress line of headless runs: shown on a terminal's stderr and erased at the end,
//! never written to a stderr that is not a terminal, and silenced with the summary by
//! `--quiet`.

use std::io::Read;
use std::sync::{Arc, Mutex};
use std::thread;

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

use crate::common::kiln;

fn stderr_lines(output: &std::process::Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stderr)
        .lines()
        .map(String::from)
        .collect()
}

/// What a terminal shows of `kiln args` with stdout sent to /dev/null: every screen seen
/// while it ran (one per read), and the last.
fn on_a_terminal(args: &str) -> (Vec<String>, String) {
    let (rows, cols) = (10, 100);
    let pair = native_pty_system()
        .openpty(PtySize {
            rows,
            cols,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = CommandBuilder::new("sh");
    cmd.args(["-c", &format!("exec \"$KILN\" {args} > /dev/null")]);
    cmd.env("KILN", env!("CARGO_BIN_EXE_kiln"));
    cmd.env("TERM", "xterm-256color");
    cmd.cwd(env!("CARGO_MANIFEST_DIR"));
    let mut child = pair.slave.spawn_command(cmd).unwrap();
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let screens = Arc::clone(&seen);
    let reading = thread::spawn(move || {
        let mut parser = vt100::Parser::new(rows, cols, 0);
        let mut buf = [0u8; 4096];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            parser.process(&buf[..n]);
            screens.lock().unwrap().push(parser.screen().contents());
        }
        parser.screen().contents()
    });
    assert!(child.wait().unwrap().success());
    // The reader ends when the terminal closes: with the master gone.
    drop(pair.master);
    let last = reading.join().unwrap();
    let seen = seen.lock().unwrap().clone();
    (seen, last)
}

#[test]
fn a_long_run_shows_its_progress_on_a_terminal_and_erases_it() {
    let _cores = crate::common::busy();
    let (seen, last) = on_a_terminal("tsp --random 2000 --time-limit 2.5 --headless");
    let progress = seen
        .iter()
        .find(|screen| screen.contains("best"))
        .unwrap_or_else(|| panic!("no progress line in {seen:#?}"));
    for part in ["elapsed", "steps/s", "s left"] {
        assert!(progress.contains(part), "{part} not in {progress:?}");
    }
    // Erased, not overwritten: no part of the line is left beside the summary.
    let summary = last.trim();
    assert!(
        summary.starts_with("random2000-uniform-1: length")
            && !summary.contains('\n')
            && !summary.contains("elapsed")
            && !summary.contains("left"),
        "the last screen holds more than the summary: {last:?}"
    );
}

#[test]
fn stderr_that_is_not_a_terminal_gets_only_the_summary() {
    let _cores = crate::common::busy();
    // Long enough that a progress line would have been drawn.
    let output = kiln(&[
        "tsp",
        "--random",
        "300",
        "--time-limit",
        "1.5",
        "--headless",
    ]);
    assert!(output.status.success());
    let log = stderr_lines(&output);
    assert_eq!(log.len(), 1, "{log:?}");
    assert!(log[0].starts_with("random300-uniform-1: length"), "{log:?}");
}

#[test]
fn quiet_prints_nothing_on_stderr_but_errors() {
    let _cores = crate::common::busy();
    let output = kiln(&["tsp", "--random", "50", "--max-steps", "10000", "--quiet"]);
    assert!(output.status.success());
    assert_eq!(stderr_lines(&output), Vec::<String>::new());
    assert_eq!(String::from_utf8_lossy(&output.stdout).lines().count(), 1);
    let output = kiln(&["sudoku", "puzzles/sudoku/no_solution.txt", "--quiet"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr_lines(&output),
        ["kiln: 1 of 1 puzzle has no solution"]
    );
}
