//! The built binary, headless: JSON lines checked against the rules, exit codes.

use kiln::problems::sudoku::{is_valid_solution, read_puzzles};

use crate::common::{kiln, lines};

#[test]
fn solves_every_puzzle_of_a_file_with_valid_solutions() {
    let _cores = crate::common::busy();
    let file = "puzzles/sudoku/hardest11.txt";
    let output = kiln(&["sudoku", file, "--headless", "--seed", "7"]);
    assert!(output.status.success(), "{output:?}");
    let reports = lines(&output);
    let puzzles = read_puzzles(file.as_ref()).unwrap();
    assert_eq!(reports.len(), puzzles.len());
    for (r, p) in reports.iter().zip(&puzzles) {
        for field in [
            "problem",
            "source",
            "size",
            "seed",
            "solved",
            "energy",
            "iterations",
            "restarts",
            "reheats",
            "seconds",
            "solution",
        ] {
            assert!(r.get(field).is_some(), "missing {field} in {r}");
        }
        assert_eq!(r["problem"], "sudoku");
        assert_eq!(r["source"], p.source.as_str());
        assert_eq!(r["size"], 9);
        assert_eq!(r["seed"], 7);
        assert_eq!(r["solved"], true);
        assert_eq!(r["energy"], 0);
        assert_eq!(r["solutions"], "unique");
        let solution: Vec<u8> = r["solution"]
            .as_str()
            .unwrap()
            .chars()
            .map(|c| c.to_digit(10).unwrap() as u8)
            .collect();
        assert!(is_valid_solution(p, &solution), "{r}");
    }
    let summary = String::from_utf8_lossy(&output.stderr);
    assert!(
        summary.starts_with("sudoku: solved 11/11, median "),
        "{summary}"
    );
}

#[test]
fn index_and_no_propagate_and_the_embedded_default() {
    let _cores = crate::common::busy();
    let output = kiln(&[
        "sudoku",
        "puzzles/sudoku/small4.txt",
        "--headless",
        "--index",
        "2",
        "--no-propagate",
    ]);
    assert!(output.status.success(), "{output:?}");
    let reports = lines(&output);
    assert_eq!(reports.len(), 1);
    assert_eq!(reports[0]["source"], "puzzles/sudoku/small4.txt:3");
    assert_eq!(reports[0]["propagated"], 0);
    assert_eq!(reports[0]["solved"], true);

    let output = kiln(&["sudoku", "--headless", "--max-steps", "50000000"]);
    assert!(output.status.success(), "{output:?}");
    let reports = lines(&output);
    assert_eq!(reports[0]["source"], "puzzles/sudoku/default.txt:2");
    assert_eq!(reports[0]["solved"], true);
}

#[test]
fn a_16x16_and_a_grid_file_are_solved() {
    let _cores = crate::common::busy();
    for file in [
        "puzzles/sudoku/multisolution16.txt",
        "puzzles/sudoku/grid_format.txt",
    ] {
        let output = kiln(&["sudoku", file, "--headless"]);
        assert!(output.status.success(), "{file}: {output:?}");
        let puzzles = read_puzzles(file.as_ref()).unwrap();
        for (r, p) in lines(&output).iter().zip(&puzzles) {
            let solution: Vec<u8> = r["solution"]
                .as_str()
                .unwrap()
                .chars()
                .map(|c| kiln::problems::sudoku::value_of(c).unwrap())
                .collect();
            assert!(is_valid_solution(p, &solution), "{r}");
        }
    }
}

#[test]
fn no_solution_is_reported_without_annealing() {
    let _cores = crate::common::busy();
    let output = kiln(&["sudoku", "puzzles/sudoku/no_solution.txt", "--headless"]);
    assert_eq!(output.status.code(), Some(1));
    let r = &lines(&output)[0];
    assert_eq!(r["solved"], false);
    assert_eq!(r["error"], "no solution");
    assert_eq!(r["iterations"], 0);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("1 of 1 puzzle has no solution"), "{stderr}");
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let _cores = crate::common::busy();
    let output = kiln(&["sudoku", "puzzles/sudoku/bad_clash.txt", "--headless"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "kiln: puzzles/sudoku/bad_clash.txt:2:5: r1c1 and r1c5 both give 7 in row 1\n"
    );
    assert!(output.stdout.is_empty());
    let output = kiln(&[
        "sudoku",
        "puzzles/sudoku/small4.txt",
        "--headless",
        "--index",
        "3",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "kiln: --index: 3 is not a puzzle number: the input has puzzles 1-2\n"
    );
}

#[test]
fn a_reader_that_goes_away_ends_the_run_quietly() {
    let _cores = crate::common::busy();
    use std::process::Stdio;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_kiln"))
        .args(["sudoku", "puzzles/sudoku/top95_first10.txt", "--headless"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the reading end before kiln has solved anything: its first line cannot be written.
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn threads_run_chains_side_by_side_within_the_step_budget() {
    let _cores = crate::common::busy();
    let output = kiln(&[
        "sudoku",
        "puzzles/sudoku/hardest11.txt",
        "--index",
        "3",
        "--headless",
        "--threads",
        "3",
    ]);
    assert!(output.status.success(), "{output:?}");
    let r = &lines(&output)[0];
    assert_eq!(r["threads"], 3);
    assert_eq!(r["solved"], true);
    // 25x25 runs two chains by default; --max-steps is their total.
    let output = kiln(&[
        "sudoku",
        "puzzles/sudoku/generated25.txt",
        "--headless",
        "--max-steps",
        "2000000",
    ]);
    let r = &lines(&output)[0];
    assert_eq!(r["threads"], 2);
    assert_eq!(r["iterations"], 2_000_000, "{r}");
    assert_eq!(r["stop"], "steps");
    let output = kiln(&["sudoku", "--headless", "--threads", "0"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn minimal_25x25_is_solved_by_conflict_learning_and_says_so() {
    let _cores = crate::common::busy();
    // Line 8 takes conflict learning about 1,400 conflicts; annealing alone stalls there.
    let output = kiln(&[
        "sudoku",
        "puzzles/sudoku/minimal25.txt",
        "--index",
        "8",
        "--headless",
        "--time-limit",
        "60",
    ]);
    assert!(output.status.success(), "{output:?}");
    let r = &lines(&output)[0];
    assert_eq!(r["solved"], true, "{r}");
    assert_eq!(r["solved_by"], "conflict-learning", "{r}");
    assert_eq!(r["stop"], "target");
    // A 9x9 anneals, and one that propagation fills says so.
    let output = kiln(&["sudoku", "puzzles/sudoku/easy20.txt", "--headless"]);
    let by: Vec<String> = lines(&output)
        .iter()
        .map(|r| r["solved_by"].as_str().unwrap().to_string())
        .collect();
    assert!(
        by.iter().all(|b| b == "box-swaps" || b == "propagation"),
        "{by:?}"
    );
    assert!(by.iter().any(|b| b == "propagation"), "{by:?}");
}

#[test]
fn a_25x25_with_no_solution_is_refuted_not_run_to_its_limit() {
    let _cores = crate::common::busy();
    let output = kiln(&["sudoku", "puzzles/sudoku/no_solution25.txt", "--headless"]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let r = &lines(&output)[0];
    // The check before the run cannot tell; conflict learning proves it during the run.
    assert_eq!(r["solutions"], "unknown", "{r}");
    assert_eq!(r["stop"], "no-solution", "{r}");
    assert_eq!(r["error"], "no solution", "{r}");
    assert_eq!(r["solved"], false);
    assert!(String::from_utf8_lossy(&output.stderr).contains("has no solution"));
}
