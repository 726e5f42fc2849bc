//! A headless run that gets SIGINT, SIGTERM or SIGHUP stops within a moment and prints the
//! best state it has as a normal JSON line with the stop reason `interrupted`, writes its
//! `--output` file, and exits with 128 + the signal.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::scratch::scratch;

fn interrupted(args: &[&str], signal: &str, code: i32) -> serde_json::Value {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kiln"))
        .args(args)
        .arg("--headless")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
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
        assert!(
            sent.elapsed() < Duration::from_secs(5),
            "{args:?} still running after SIG{signal}"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    let took = sent.elapsed();
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
