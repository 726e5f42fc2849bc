//! Batches on several threads: `--jobs` changes the time a batch takes, never its lines;
//! `--shard` splits a batch into parts that add up to the whole; `--seeds` repeats a run.

use crate::common::{kiln, lines, without_fields};
use serde_json::Value;

const PUZZLES: &str = "puzzles/sudoku/top95_first10.txt";

/// `line` without the fields that measure time, which no two runs share; the rest is
/// left byte for byte as kiln printed it.
fn without_times(line: &str) -> String {
    let Value::Object(fields) = serde_json::from_str(line).unwrap() else {
        panic!("not a JSON object: {line}");
    };
    let timed: Vec<&str> = fields
        .keys()
        .map(String::as_str)
        .filter(|key| key.ends_with("seconds") || *key == "steps_per_second")
        .collect();
    without_fields(line, &timed)
}

/// Stdout of a successful or merely unsolved run (exit 0 or 1), time fields removed.
fn timeless_lines(args: &[&str]) -> Vec<String> {
    let output = kiln(args);
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(without_times)
        .collect()
}

fn with_jobs<'a>(args: &[&'a str], jobs: &'a str) -> Vec<&'a str> {
    [args, &["--jobs", jobs]].concat()
}

#[test]
fn time_fields_are_removed_and_nothing_else() {
    let _cores = crate::common::busy();
    let line = r#"{"a":1,"seconds":0.5,"b":[1,2],"check_seconds":[2e-5,1],"steps_per_second":3.0}"#;
    assert_eq!(without_times(line), r#"{"a":1,"b":[1,2]}"#);
}

#[test]
fn one_job_or_two_print_the_same_lines_in_the_same_order() {
    let _cores = crate::common::busy();
    let sudoku = ["sudoku", PUZZLES, "--headless", "--max-steps", "20000"];
    let tsp = [
        "tsp",
        "puzzles/tsp/berlin52.tsp",
        "--headless",
        "--max-steps",
        "20000",
        "--seeds",
        "1..6",
    ];
    for args in [&sudoku[..], &tsp[..]] {
        let one = timeless_lines(&with_jobs(args, "1"));
        assert!(one.len() >= 6, "{args:?}: {one:?}");
        assert_eq!(one, timeless_lines(&with_jobs(args, "2")), "{args:?}");
    }
}

#[test]
fn two_shards_make_the_whole_batch() {
    let _cores = crate::common::busy();
    let whole = ["sudoku", PUZZLES, "--headless", "--max-steps", "20000"];
    let all = timeless_lines(&whole);
    let first = timeless_lines(&[&whole[..], &["--shard", "1/2"]].concat());
    let second = timeless_lines(&[&whole[..], &["--shard", "2/2"]].concat());
    assert_eq!(all.len(), 10);
    assert_eq!((first.len(), second.len()), (5, 5));
    let mut both = [first, second].concat();
    both.sort();
    let mut sorted = all.clone();
    sorted.sort();
    assert_eq!(both, sorted);
    // The shard's lines keep the file's line numbers: part 2 of 2 has the even ones.
    let sources: Vec<Value> = lines(&kiln(&[&whole[..], &["--shard", "2/2"]].concat()))
        .iter()
        .map(|line| line["source"].clone())
        .collect();
    assert_eq!(sources[0], format!("{PUZZLES}:2"));
    assert_eq!(sources[4], format!("{PUZZLES}:10"));
}

#[test]
fn seeds_repeat_a_run_once_each_in_order() {
    let _cores = crate::common::busy();
    let runs = [
        vec![
            "sudoku",
            "--headless",
            "--max-steps",
            "1000",
            "--seeds",
            "1..3",
        ],
        vec![
            "tsp",
            "--headless",
            "--max-steps",
            "1000",
            "--seeds",
            "1..3",
        ],
        vec![
            "image",
            "--headless",
            "--max-steps",
            "1000",
            "--seeds",
            "1..3",
        ],
    ];
    for args in &runs {
        let seeds: Vec<Value> = lines(&kiln(args))
            .iter()
            .map(|line| line["seed"].clone())
            .collect();
        assert_eq!(seeds, [1, 2, 3], "{args:?}");
    }
}

#[test]
fn bad_batch_flags_are_one_line_errors() {
    let _cores = crate::common::busy();
    for (flags, says) in [
        (["--jobs", "0"], "kiln: --jobs: 0 is not in [1, 1024]"),
        (["--shard", "3/2"], "kiln: --shard: '3/2' is not a shard"),
        (["--seeds", "5..1"], "kiln: --seeds: 5..1 is empty"),
    ] {
        for command in ["sudoku", "tsp"] {
            let output = kiln(&[&[command, "--headless"][..], &flags].concat());
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{flags:?}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(stderr.starts_with(says), "{stderr}");
        }
    }
}
