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
    // The winner, and how much sooner it solved the puzzle than the second.
    let margin = ranking["margin_seconds"].as_f64().unwrap();
    assert!(
        (margin - (seconds(&standings[1]) - seconds(&standings[0]))).abs() < 1e-9,
        "{ranking}"
    );
    let winner = if margin > 0.0 {
        standings[0]["preset"].clone()
    } else {
        Value::Null
    };
    assert_eq!(ranking["winner"], winner, "{ranking}");
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
    // The only one to solve it wins, by no number of seconds.
    assert_eq!(out[2]["winner"], "kiln", "{}", out[2]);
    assert_eq!(out[2]["margin_seconds"], Value::Null, "{}", out[2]);
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

/// `kiln race PROBLEM ARGS... --headless`: its lines, after checking what every race
/// prints: one line per pane in the order of the values, each the problem's own line with
/// `pane` and `raced`, all with the same seed, then a ranking line that places every pane
/// once by its line's energy (then seconds).
fn raced(args: &[&str], flag: &str, panes: &[&str]) -> Vec<Value> {
    let mut command = vec!["race"];
    command.extend(args);
    command.push("--headless");
    let output = kiln(&command);
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let out = lines(&output);
    assert_eq!(out.len(), panes.len() + 1, "{out:?}");
    let (lines, ranking) = out.split_at(panes.len());
    for (line, pane) in lines.iter().zip(panes) {
        assert_eq!(line["problem"], args[0], "{line}");
        assert_eq!(line["pane"], *pane, "{line}");
        assert_eq!(line["raced"][flag], *pane, "{line}");
        assert_eq!(line["seed"], lines[0]["seed"], "{line}");
    }
    let ranking = &ranking[0];
    assert_eq!(ranking["race"], "ranking");
    assert_eq!(ranking["problem"], args[0]);
    assert_eq!(ranking["raced"], serde_json::json!([flag]));
    let entries = ranking["ranking"].as_array().unwrap();
    let order: Vec<&str> = ranking["order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(order.len(), panes.len());
    for (rank, (entry, name)) in (1..).zip(entries.iter().zip(&order)) {
        assert_eq!(entry["rank"], rank);
        assert_eq!(entry["pane"], *name);
        let line = lines.iter().find(|l| l["pane"] == *name).unwrap();
        for field in ["energy", "seconds", "stop"] {
            assert_eq!(entry[field], line[field], "{field} of {name}");
        }
    }
    let key = |e: &Value| {
        (
            e["energy"].as_f64().unwrap(),
            e["seconds"].as_f64().unwrap(),
        )
    };
    assert!(
        entries.windows(2).all(|w| key(&w[0]) <= key(&w[1])),
        "{ranking}"
    );
    out
}

#[test]
fn a_tsp_race_runs_each_move_on_the_same_cities_and_ranks_by_length() {
    let _cores = crate::common::busy();
    let out = raced(
        &[
            "tsp",
            "puzzles/tsp/berlin52.tsp",
            "--moves",
            "swap-adjacent,swap,two-opt",
            "--max-steps",
            "200000",
            "--seed",
            "3",
        ],
        "moves",
        &["swap-adjacent", "swap", "two-opt"],
    );
    for line in &out[..3] {
        assert_eq!(line["moves"], line["pane"]);
        assert_eq!(line["seed"], 3);
        assert_eq!(line["name"], "berlin52");
    }
    for entry in out[3]["ranking"].as_array().unwrap() {
        assert_eq!(entry["length"].as_f64(), entry["energy"].as_f64());
    }
    // 2-opt with its local search reaches berlin52's optimum; swapping neighbours does not.
    assert_eq!(out[3]["order"][0], "two-opt", "{}", out[3]);
    let adjacent = (out[3]["ranking"].as_array().unwrap().iter())
        .find(|entry| entry["pane"] == "swap-adjacent")
        .unwrap();
    assert!(adjacent["length"].as_u64().unwrap() > 7542, "{}", out[3]);
    // It wins by the length between it and the second, in what the race is ranked by.
    let ranking = &out[3];
    let energy = |place: usize| ranking["ranking"][place]["energy"].as_f64().unwrap();
    assert_eq!(ranking["winner"], "two-opt", "{ranking}");
    assert_eq!(
        ranking["margin_energy"].as_f64(),
        Some(energy(1) - energy(0)),
        "{ranking}"
    );
    assert!(energy(1) > energy(0), "{ranking}");
    assert!(ranking.get("margin_seconds").is_none(), "{ranking}");
}

#[test]
fn an_image_race_runs_each_kernel_on_the_same_start() {
    let _cores = crate::common::busy();
    let out = raced(
        &[
            "image",
            "--kernel",
            "n8,8-16",
            "--density",
            "0.3",
            "--size",
            "48x48",
            "--max-steps",
            "100000",
        ],
        "kernel",
        &["n8", "8-16"],
    );
    assert_eq!(out[0]["kernel"], "n8");
    assert_eq!(out[1]["kernel"], "8-16");
    assert_eq!(out[0]["black_pixels"], out[1]["black_pixels"]);
    assert_eq!(out[0]["width"], 48);
}

#[test]
fn a_sudoku_race_of_presets_ranks_the_solved_first_by_time() {
    let _cores = crate::common::busy();
    let out = raced(
        &[
            "sudoku",
            "puzzles/sudoku/easy20.txt",
            "--index",
            "1",
            "--preset",
            "kiln,lundy,ga",
            "--max-steps",
            "20000",
        ],
        "preset",
        &["kiln", "lundy", "ga"],
    );
    for line in &out[..3] {
        assert_eq!(line["preset"], line["pane"]);
        assert_eq!(line["source"], "puzzles/sudoku/easy20.txt:1");
    }
    let entries = out[3]["ranking"].as_array().unwrap();
    let solved: Vec<bool> = entries.iter().map(|e| e["solved"] == true).collect();
    assert!(solved[0], "{}", out[3]);
    assert!(solved.windows(2).all(|w| w[0] >= w[1]), "{}", out[3]);
    // Kiln's propagation solves it before lundy's first thousands of steps: kiln wins, by
    // the seconds between them.
    let ranking = &out[3];
    assert_eq!((solved[0], solved[1]), (true, true), "{ranking}");
    assert_eq!(ranking["winner"], "kiln", "{ranking}");
    let seconds = |place: usize| entries[place]["seconds"].as_f64().unwrap();
    let margin = ranking["margin_seconds"].as_f64().unwrap();
    assert!(
        (margin - (seconds(1) - seconds(0))).abs() < 1e-9,
        "{ranking}"
    );
    assert!(ranking.get("margin_energy").is_none(), "{ranking}");
}

#[test]
fn two_raced_flags_race_every_combination() {
    let _cores = crate::common::busy();
    let output = kiln(&[
        "race",
        "tsp",
        "--random",
        "60",
        "--moves",
        "swap,two-opt",
        "--layout",
        "uniform,clustered",
        "--max-steps",
        "50000",
        "--headless",
    ]);
    assert!(output.status.success(), "{output:?}");
    let out = lines(&output);
    let panes: Vec<&str> = out[..4]
        .iter()
        .map(|l| l["pane"].as_str().unwrap())
        .collect();
    assert_eq!(
        panes,
        [
            "swap/uniform",
            "swap/clustered",
            "two-opt/uniform",
            "two-opt/clustered"
        ]
    );
    assert_eq!(
        out[1]["raced"],
        serde_json::json!({"moves": "swap", "layout": "clustered"})
    );
    assert_eq!(out[4]["raced"], serde_json::json!(["moves", "layout"]));
}

#[test]
fn races_of_one_pane_five_panes_or_an_unknown_value_are_refused_in_one_line() {
    let _cores = crate::common::busy();
    let refusals: [(&[&str], &str); 5] = [
        (
            &["race", "tsp", "--random", "50", "--moves", "swap"],
            "kiln: race: give one flag 2 to 4 comma-separated values to race (e.g. kiln race tsp --moves swap,two-opt)",
        ),
        (
            &["race", "tsp", "--random", "50", "--seed", "1,2,3,4,5"],
            "kiln: --seed: a race has 2 to 4 panes, not 5",
        ),
        (
            &["race", "image", "--kernel", "n8,sideways"],
            "kiln: --kernel: unknown kernel 'sideways'",
        ),
        (
            &[
                "race",
                "sudoku",
                "puzzles/sudoku/easy20.txt",
                "--preset",
                "kiln,ga",
            ],
            "kiln: race: a race runs one puzzle, and the file has 20: choose one with --index N",
        ),
        // Outside a race a list is not a value, as before.
        (
            &["tsp", "--moves", "swap,two-opt"],
            "kiln: --moves: 'swap,two-opt' is not one of",
        ),
    ];
    for (args, message) in refusals {
        let mut args = args.to_vec();
        args.push("--headless");
        let output = kiln(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8(output.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with(message), "{args:?}: {err}");
    }
}
