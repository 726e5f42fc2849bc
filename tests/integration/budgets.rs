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
    let runs: [&[&str]; 5] = [
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
    ];
    for args in runs {
        let mut args = args.to_vec();
        args.extend(["--time-limit", LIMIT]);
        let took = wall(&args);
        assert!(took < ALLOWED, "{args:?}: {took:?}");
    }
}

/// Denoising the largest image accepted, setup and ICM included: the polish stops at its
/// deadline inside one component's growth, and the result's last copies are kept out of
/// the time (2.2-3.7 s before, issue 33).
#[test]
fn denoising_the_largest_image_ends_within_its_time_limit() {
    let _cores = crate::common::alone();
    let took = wall(&[
        "image",
        "--denoise",
        "--size",
        "4096x4096",
        "--time-limit",
        LIMIT,
    ]);
    assert!(took < ALLOWED, "{took:?}");
}

/// `args` headless under `limit` seconds: its wall time, and the `seconds` its line reports
/// (with a Sudoku's exact check, which they leave out).
fn timed(args: &[&str], limit: &str) -> (Duration, f64) {
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_kiln"))
        .args(args)
        .args(["--time-limit", limit, "--headless"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("RUST_BACKTRACE")
        .output()
        .unwrap();
    let took = started.elapsed();
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line: serde_json::Value =
        serde_json::from_slice(out.stdout.split(|&b| b == b'\n').next().unwrap()).unwrap();
    let check = line["check_seconds"].as_f64().unwrap_or(0.0);
    (took, line["seconds"].as_f64().unwrap() + check)
}

/// Issue 33: setups that once ran past the limit, the clock not started: populations and
/// chains made one after another, 64 rounds of a 4096x4096 image. Each ends within
/// max(10 %, 0.2 s) of its limit (and 0.1 s to start the process), and the seconds it
/// reports are the wall time.
#[test]
fn setup_chains_and_populations_are_within_the_limit() {
    let _cores = crate::common::alone();
    let dir = crate::common::scratch::scratch("budgets");
    let empty = dir.join("empty25.txt");
    std::fs::write(&empty, format!("{}\n", ".".repeat(625))).unwrap();
    let empty = empty.to_str().unwrap();
    let minimal = "puzzles/sudoku/minimal25.txt";
    let runs: [(&[&str], &str, f64); 3] = [
        // 8 populations of 20,000 25x25 grids: 3 s to make, one after another.
        (
            &[
                "sudoku",
                minimal,
                "--index",
                "1",
                "--preset",
                "ga",
                "--threads",
                "8",
                "--population",
                "20000",
            ],
            "0.5",
            0.5,
        ),
        // 64 chains, half of them conflict learners whose clauses take a tenth of a
        // second each.
        (&["sudoku", empty, "--threads", "64"], "0.2", 0.2),
        (
            &[
                "image",
                "--denoise",
                "--size",
                "4096x4096",
                "--rounds",
                "64",
            ],
            "1",
            1.0,
        ),
    ];
    for (args, limit, seconds) in runs {
        let (took, reported) = timed(args, limit);
        let allowed = seconds + f64::max(0.1 * seconds, 0.2) + 0.1;
        assert!(took.as_secs_f64() < allowed, "{args:?}: {took:?}");
        assert!(
            took.as_secs_f64() - reported < 0.2,
            "{args:?}: {took:?} on the wall clock, {reported} s reported"
        );
    }
}

/// Issue 33: the largest instances, whose setup and report are passes over a million
/// cities or 16 million pixels each: a million cities set up along the curve (its lists
/// measured until the setup's deadline), the passes after the search kept out of its time;
/// denoising set up too late for a round ends on its start. Each ends within
/// max(10 %, 0.2 s) of its limit, and 0.1 s to start the process (before: 2.1-3.5 s of a
/// 1 s limit; 0.74-0.99 s of 0.2 s; 2.9 s of 1 s).
#[test]
fn the_largest_instances_end_within_the_limit() {
    let _cores = crate::common::alone();
    let runs: [(&[&str], &str, f64); 3] = [
        (&["tsp", "--random", "1000000"], "1", 1.0),
        (&["image", "--denoise", "--size", "4096x4096"], "0.2", 0.2),
        // A random first tour: each of its reversals moves up to half the cities, and the
        // annealer reads the clock between chunks of a batch, not only after it.
        (&["tsp", "--random", "300000", "--init", "random"], "1", 1.0),
    ];
    for (args, limit, seconds) in runs {
        let (took, _) = timed(args, limit);
        let allowed = seconds + f64::max(0.1 * seconds, 0.2) + 0.1;
        assert!(took.as_secs_f64() < allowed, "{args:?}: {took:?}");
    }
}
