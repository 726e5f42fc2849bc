//! A headless run that gets SIGINT, SIGTERM or SIGHUP stops within a moment and prints the
//! best state it has as a normal JSON line with the stop reason `interrupted`, writes its
//! `--output` file, and exits with 128 + the signal.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::scratch::scratch;

/// `kiln ARGS --headless` started with its stdout piped, sent SIG`signal` after `wait`
/// (still running then): the child, and how long it took to end after the signal.
fn signalled(
    args: &[&str],
    signal: &str,
    wait: Duration,
) -> (std::process::Child, std::process::ExitStatus, Duration) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kiln"))
        .args(args)
        .arg("--headless")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(wait);
    assert!(
        child.try_wait().unwrap().is_none(),
        "{args:?} ended by itself"
    );
    let sent = Instant::now();
    let killed = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if sent.elapsed() > Duration::from_secs(5) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} still running 5 s after SIG{signal}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    (child, status, sent.elapsed())
}

fn interrupted(args: &[&str], signal: &str, code: i32) -> serde_json::Value {
    let (mut child, status, took) = signalled(args, signal, Duration::from_millis(1500));
    assert!(
        took < Duration::from_millis(700),
        "{args:?}: {took:?} to stop"
    );
    assert_eq!(status.code(), Some(code), "{args:?} after SIG{signal}");
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let line = out
        .lines()
        .last()
        .unwrap_or_else(|| panic!("no JSON line: {out:?}"));
    serde_json::from_str(line).unwrap()
}

#[test]
fn sigint_keeps_the_best_tour_and_writes_the_output() {
    let _cores = crate::common::alone();
    let dir = scratch("tsp");
    let output = dir.join("best.tour");
    let output = output.to_str().unwrap();
    let args = [
        "tsp",
        "--random",
        "3000",
        "--time-limit",
        "60",
        "--output",
        output,
    ];
    let line = interrupted(&args, "INT", 130);
    assert_eq!(line["reason"], "interrupted", "{line}");
    assert_eq!(line["tour"].as_array().unwrap().len(), 3000);
    let tour = std::fs::read_to_string(output).unwrap();
    assert!(tour.ends_with("-1\nEOF\n"), "{tour}");
}

#[test]
fn sigterm_keeps_the_best_grid_of_a_long_sudoku() {
    let _cores = crate::common::alone();
    // Box swaps alone: the default's second chain, conflict learning, solves this one in
    // about half a second, before the signal comes.
    let args = [
        "sudoku",
        "puzzles/sudoku/generated25.txt",
        "--threads",
        "1",
        "--time-limit",
        "60",
    ];
    let line = interrupted(&args, "TERM", 143);
    assert_eq!(line["stop"], "interrupted", "{line}");
    assert_eq!(line["solution"].as_str().unwrap().len(), 625, "{line}");
}

#[test]
fn sighup_keeps_the_best_image() {
    let _cores = crate::common::alone();
    let args = ["image", "--size", "512x512", "--max-steps", "100000000000"];
    let line = interrupted(&args, "HUP", 129);
    assert_eq!(line["stop_reason"], "interrupted", "{line}");
}

fn fifo(dir: &std::path::Path, name: &str) -> String {
    let path = dir.join(name);
    let made = Command::new("mkfifo").arg(&path).status().unwrap();
    assert!(made.success());
    path.to_str().unwrap().to_string()
}

/// Issue 33: reading a FIFO no one writes, waiting for a reader of an --output FIFO, or
/// setting up a million cities, the first SIGINT ends the run within a moment (a second,
/// on a busy machine; before, the first two never ended and the third took 1.6-5.6 s).
#[test]
fn sigint_ends_a_run_that_waits_or_sets_up() {
    let _cores = crate::common::alone();
    let dir = scratch("fifos");
    let input = fifo(&dir, "in.txt");
    let output = fifo(&dir, "out.tour");
    let runs: [&[&str]; 3] = [
        &["sudoku", &input],
        &[
            "tsp",
            "--random",
            "200",
            "--time-limit",
            "0.1",
            "--output",
            &output,
        ],
        // Its exact candidate lists alone take over a second.
        &["tsp", "--random", "1000000", "--time-limit", "60"],
    ];
    for args in runs {
        let (_, status, took) = signalled(args, "INT", Duration::from_millis(600));
        assert_eq!(status.code(), Some(130), "{args:?}");
        assert!(took < Duration::from_secs(1), "{args:?}: {took:?}");
    }
}
