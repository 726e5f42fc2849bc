//! The built binary: `kiln presets`, `kiln sudoku --preset`, and `kiln race` headless.

use kiln::problems::sudoku::{PRESETS, is_valid_solution, read_puzzles};
use serde_json::Value;

use crate::common::{kiln, lines};

#[test]
fn presets_lists_every_preset_with_its_parameters() {
    let _cores = crate::common::busy();
    let output = kiln(&["presets"]);
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    let names: Vec<&str> = text
        .lines()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    let expected: Vec<&str> = PRESETS.iter().map(|p| p.name()).collect();
    assert_eq!(names, expected);
    for needle in [
        "T <- T/1.00002",
        "0.99*T every 20 steps",
        "T0 = 100",
        "300 equal steps",
        "5% elites",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
}

#[test]
fn a_race_prints_one_line_per_solver_and_a_ranking() {
    let _cores = crate::common::busy();
    let file = "puzzles/sudoku/hardest11.txt";
    let output = kiln(&[
        "race",
        file,
        "--index",
        "2",
        "--presets",
        "kiln,yarpiz",
        "--seed",
        "5",
        "--time-limit",
        "5",
    ]);
    assert!(output.status.success(), "{output:?}");
    let out = lines(&output);
    assert_eq!(out.len(), 3, "{out:?}");
    let puzzle = &read_puzzles(file.as_ref()).unwrap()[1];
    for (line, preset) in out.iter().zip(["kiln", "yarpiz"]) {
        assert_eq!(line["preset"], preset);
        assert_eq!(line["algorithm"], "anneal");
        assert_eq!(line["source"], format!("{file}:2"));
        assert_eq!(line["seed"], 5);
        assert_eq!(line["solved"], true, "{line}");
        assert!(is_valid_solution(
            puzzle,
            &line["solution"]
                .as_str()
                .unwrap()
                .bytes()
                .map(|b| b - b'0')
                .collect::<Vec<_>>()
        ));
        assert!(
            line["iterations"].as_u64().unwrap() > 0 || line["propagated"].as_u64().unwrap() > 0
        );
    }
    let ranking = &out[2];
    assert_eq!(ranking["race"], format!("{file}:2"));
    assert_eq!(ranking["time_limit"], 5.0);
    let standings = ranking["ranking"].as_array().unwrap();
    assert_eq!(standings.len(), 2);
    assert_eq!(standings[0]["rank"], 1);
    assert_eq!(standings[1]["rank"], 2);
    // Both solved: the faster one wins, and each solver line carries its rank.
    let seconds = |s: &Value| s["seconds"].as_f64().unwrap();
    assert!(seconds(&standings[0]) <= seconds(&standings[1]));
    for s in standings {
        let line = out.iter().find(|l| l["preset"] == s["preset"]).unwrap();
        assert_eq!(line["rank"], s["rank"]);
        assert_eq!(line["seconds"], s["seconds"]);
    }
}

#[test]
fn an_unsolved_racer_ranks_after_the_solved_one() {
    let _cores = crate::common::busy();
    let output = kiln(&[
        "race",
        "puzzles/sudoku/hardest11.txt",
        "--index",
        "1",
        "--presets",
        "ga,kiln",
        "--population",
        "20",
        "--max-steps",
        "2000",
    ]);
    assert!(output.status.success(), "{output:?}");
    let out = lines(&output);
    assert_eq!(out[0]["algorithm"], "ga");
    assert_eq!(out[0]["solved"], false);
    assert!(out[0]["generations"].as_u64().unwrap() >= 1);
    assert_eq!(out[0]["stop"], "steps");
    assert_eq!(
        (out[0]["rank"].as_u64(), out[1]["rank"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(out[2]["ranking"][0]["preset"], "kiln");
}

#[test]
fn sudoku_with_a_preset_adds_algorithm_and_generations() {
    let _cores = crate::common::busy();
    let output = kiln(&[
        "sudoku",
        "puzzles/sudoku/small4.txt",
        "--headless",
        "--preset",
        "ga",
    ]);
    assert!(output.status.success(), "{output:?}");
    for line in lines(&output) {
        assert_eq!(line["algorithm"], "ga");
        assert_eq!(line["preset"], "ga");
        assert_eq!(line["solved"], true);
        assert!(line.get("generations").is_some());
        assert!(line.get("rank").is_none());
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("sudoku --preset ga: solved 2/2"),
        "{stderr}"
    );
    let output = kiln(&[
        "sudoku",
        "puzzles/sudoku/small4.txt",
        "--headless",
        "--preset",
        "cell-linear",
    ]);
    assert!(output.status.success(), "{output:?}");
    assert!(
        lines(&output)
            .iter()
            .all(|l| l["preset"] == "cell-linear" && l.get("generations").is_none())
    );
}

#[test]
fn bad_race_arguments_exit_with_code_2() {
    let _cores = crate::common::busy();
    let output = kiln(&["race", "puzzles/sudoku/small4.txt", "--presets", "kiln"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr).trim(),
        "kiln: --presets: a race needs 2 to 4 presets, not 1"
    );
    let output = kiln(&[
        "race",
        "puzzles/sudoku/small4.txt",
        "--presets",
        "kiln,kiln",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("kiln is named twice"));
    let output = kiln(&[
        "race",
        "puzzles/sudoku/small4.txt",
        "--index",
        "3",
        "--presets",
        "kiln,ga",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let output = kiln(&["sudoku", "puzzles/sudoku/small4.txt", "--preset", "fast"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("'fast' is not a preset"));
}
