//! Budgets are kept on the wall clock: a run ends within max(10 %, 0.2 s) of --time-limit,
//! however many chains share the cores.

use std::process::Command;
use std::time::{Duration, Instant};

fn wall(args: &[&str]) -> Duration {
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_kiln"))
        .args(args)
        .arg("--headless")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    started.elapsed()
}

#[test]
fn chains_share_the_time_limit() {
    for threads in ["1", "16"] {
        let took = wall(&[
            "sudoku",
            "puzzles/sudoku/generated25.txt",
            "--threads",
            threads,
            "--time-limit",
            "1",
        ]);
        assert!(
            took < Duration::from_millis(1300),
            "--threads {threads}: {took:?} for a 1 s limit"
        );
    }
}

#[test]
fn large_tours_keep_the_time_limit_setup_included() {
    for n in ["50000", "100000"] {
        let took = wall(&["tsp", "--random", n, "--time-limit", "1"]);
        assert!(
            took < Duration::from_millis(1300),
            "{n} cities: {took:?} for a 1 s limit"
        );
    }
}
