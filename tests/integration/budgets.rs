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

/// The limit every run below is given, and how far past it a run may end: the issue's
/// max(10 %, 0.2 s), plus a little for starting the process on a busy machine.
const LIMIT: &str = "2";
const ALLOWED: Duration = Duration::from_millis(2300);

/// One test, so the runs do not share the cores with each other.
#[test]
fn runs_end_within_their_time_limit() {
    let _cores = crate::common::alone();
    let runs: [&[&str]; 6] = [
        &["sudoku", "puzzles/sudoku/generated25.txt", "--threads", "1"],
        // More chains than cores share the limit; they do not each get it. (A classroom
        // preset, as kiln's own runs conflict learning in every other chain on 25x25,
        // which solves this puzzle in about half a second.)
        &[
            "sudoku",
            "puzzles/sudoku/generated25.txt",
            "--preset",
            "geometric-restart",
            "--threads",
            "16",
        ],
        // Setup included: candidate lists and the first descent of 100,000 cities.
        &["tsp", "--random", "50000"],
        &["tsp", "--random", "100000"],
        // Setup included: building the largest images accepted, and denoising's ICM pass.
        &["image", "--size", "4096x4096"],
        &["image", "--denoise", "--size", "4096x4096"],
    ];
    for args in runs {
        let mut args = args.to_vec();
        args.extend(["--time-limit", LIMIT]);
        let took = wall(&args);
        assert!(took < ALLOWED, "{args:?}: {took:?}");
    }
}
