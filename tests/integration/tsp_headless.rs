//! The built binary, headless, on shipped instances: JSON checked against recomputation.

use kiln::problems::tsp::{tour_file, tsplib};

use crate::common::kiln;

const PUZZLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/tsp");

/// `kiln tsp` with `args`, headless.
fn headless(args: &[&str]) -> std::process::Output {
    kiln(&[&["tsp"], args, &["--headless"]].concat())
}

fn json(output: &std::process::Output) -> serde_json::Value {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout.clone()).unwrap();
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    serde_json::from_str(&stdout).unwrap()
}

/// The tour as 0-based indices, after checking it is a permutation of 1..=n.
fn tour(report: &serde_json::Value, n: usize) -> Vec<u32> {
    let tour: Vec<u32> = report["tour"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u32 - 1)
        .collect();
    let mut sorted = tour.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..n as u32).collect::<Vec<_>>());
    tour
}

#[test]
fn berlin52_reaches_its_optimum_and_writes_a_tour_file() {
    let _cores = crate::common::busy();
    let file = format!("{PUZZLES}/berlin52.tsp");
    let dir = crate::common::scratch::scratch("tsp-tour");
    let out = dir.join("best.tour");
    let output = headless(&[
        &file,
        "--time-limit",
        "0.3",
        "--seed",
        "3",
        "--tour",
        &format!("{PUZZLES}/berlin52.opt.tour"),
        "--output",
        out.to_str().unwrap(),
    ]);
    let report = json(&output);
    assert_eq!(report["problem"], "tsp");
    assert_eq!(report["name"], "berlin52");
    assert_eq!(report["n"], 52);
    assert_eq!(report["seed"], 3);
    assert_eq!(report["optimum"], 7542);
    assert_eq!(report["reference_length"], 7542);
    // The default: annealing for a fifth of the budget, then kicks (unless the anneal
    // reached the optimum, where the kicks stop before they start).
    assert_eq!(report["search"], "anneal+ils");
    assert!(report["iterations"].as_u64().unwrap() > 1_000);
    assert!(report["seconds"].as_f64().unwrap() < 2.0);

    let instance = tsplib::parse(&std::fs::read_to_string(&file).unwrap(), "b").unwrap();
    let ours = tour(&report, 52);
    let length = instance.tour_length(&ours);
    assert_eq!(report["length"], length);
    let gap = 100.0 * (length as f64 - 7542.0) / 7542.0;
    assert!((report["gap"].as_f64().unwrap() - gap).abs() < 1e-9);
    assert_eq!(length, 7542, "gap {gap}");

    let written = tour_file::parse(&std::fs::read_to_string(&out).unwrap(), "o", 52).unwrap();
    assert_eq!(written, ours);
}

#[test]
fn random_instance_without_a_file_and_the_seed_moves() {
    let _cores = crate::common::busy();
    for moves in ["two-opt", "swap-adjacent", "swap"] {
        let report = json(&headless(&[
            "--random",
            "200",
            "--layout",
            "clustered",
            "--moves",
            moves,
            "--cost",
            "squared",
            "--max-steps",
            "200000",
        ]));
        assert_eq!(report["n"], 200);
        assert_eq!(report["optimum"], serde_json::Value::Null);
        assert_eq!(report["gap"], serde_json::Value::Null);
        assert_eq!(report["reason"], "max_steps");
        tour(&report, 200);
    }
}

#[test]
fn bad_input_exits_with_code_2_and_one_line() {
    let _cores = crate::common::busy();
    let dir = crate::common::scratch::scratch("tsp-bad");
    let bad = dir.join("bad.tsp");
    std::fs::write(&bad, "NAME: bad\nEDGE_WEIGHT_TYPE: EXPLICIT\n").unwrap();
    let output = headless(&[bad.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(
        stderr,
        format!(
            "kiln: {}:2:19: EDGE_WEIGHT_TYPE EXPLICIT (a distance matrix) is not supported: \
             kiln needs city coordinates\n",
            bad.display()
        )
    );
    let output = headless(&["--random", "2"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "kiln: --random: 2 is not in [3, 1000000] (cities; a tour needs 3)\n"
    );
}

#[test]
fn the_step_budget_is_split_between_annealing_and_kicks_only_when_kicking() {
    let _cores = crate::common::busy();
    let file = format!("{PUZZLES}/ch150.tsp");
    // One chain: the budget below is its own.
    let args = ["--max-steps", "400000", "--kick-share", "0.75"];
    // An unreachable optimum, so the kicks do not stop early at the real one.
    let report = json(&headless(&[
        &file,
        "--threads",
        "1",
        args[0],
        args[1],
        "--ils",
        args[2],
        args[3],
        "--optimum",
        "1",
    ]));
    assert_eq!(report["search"], "anneal+ils");
    // The runner stops on a batch boundary (2^14 steps), the kicks after a whole descent.
    let annealed = report["iterations"].as_u64().unwrap();
    assert!(
        (100_000..100_000 + (1 << 14)).contains(&annealed),
        "{annealed}"
    );
    let evaluations = report["kick_evaluations"].as_u64().unwrap();
    assert!((300_000..310_000).contains(&evaluations), "{evaluations}");
    assert!(report["kicks"].as_u64().unwrap() > 0);
    assert!(report["length"].as_u64().unwrap() <= report["annealed_length"].as_u64().unwrap());

    // Without --ils, the kicks are the default all the same.
    let plain = json(&headless(&[
        &file,
        "--threads",
        "1",
        args[0],
        args[1],
        args[2],
        args[3],
        "--optimum",
        "1",
    ]));
    assert_eq!(plain["search"], "anneal+ils");
    assert_eq!(plain["length"], report["length"]);

    // Annealing alone, and annealing then one descent, take every step.
    let descent = &["--kick-share", "0"][..];
    for (flags, search) in [
        (&["--no-polish"][..], "anneal"),
        (descent, "anneal+descent"),
    ] {
        let one = [&file, "--threads", "1", args[0], args[1]];
        let report = json(&headless(&[&one[..], flags].concat()));
        assert_eq!(report["search"], search);
        assert_eq!(report["kicks"], 0);
        assert_eq!(report["kick_evaluations"], 0);
        let annealed = report["iterations"].as_u64().unwrap();
        assert!(
            (400_000..400_000 + (1 << 14)).contains(&annealed),
            "{annealed}"
        );
        let (length, annealed) = (&report["length"], &report["annealed_length"]);
        if search == "anneal" {
            assert_eq!(length, annealed);
        } else {
            assert!(length.as_u64() <= annealed.as_u64(), "{report}");
        }
    }
    // The seed's swap moves have no local search.
    let report = json(&headless(&[&file, args[0], args[1], "--moves", "swap"]));
    assert_eq!(report["search"], "anneal");

    let output = headless(&[&file, "--ils", "--kick-share", "1"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("1 is not in [0, 1)"), "{stderr}");
}

/// A generous time limit does not delay the answer: the anneal before the kicks ends at its
/// cap of steps per city (on main it took a fifth of the limit), and the kicks reach ch150's
/// optimum well within the limit.
#[test]
fn a_generous_time_limit_does_not_delay_the_optimum() {
    let _cores = crate::common::busy();
    let file = format!("{PUZZLES}/ch150.tsp");
    let report = json(&headless(&[&file, "--time-limit", "600", "--seed", "1"]));
    assert_eq!(report["stop"], "optimum", "{report}");
    assert!(
        report["iterations"].as_u64().unwrap() <= 20_000 * 150,
        "{report}"
    );
    assert!(report["seconds"].as_f64().unwrap() < 60.0, "{report}");
}

#[test]
fn chains_share_the_steps_and_the_shorter_tour_is_reported() {
    let file = format!("{PUZZLES}/ch150.tsp");
    // An unreachable optimum, so that no chain ends the run early.
    let run = |threads: &str, steps: &str, seed: &str| {
        json(&headless(&[
            &file,
            "--threads",
            threads,
            "--max-steps",
            steps,
            "--seed",
            seed,
            "--optimum",
            "1",
        ]))
    };
    let length = |r: &serde_json::Value| r["length"].as_u64().unwrap();
    // Seed 5: the first chain's tour is reported; seed 6: the second's, shorter.
    for seed in ["5", "6"] {
        let two = run("2", "600000", seed);
        assert_eq!(two["chains"], 2, "{two}");
        // The steps are the reported chain's; the phases count both chains'.
        let anneal = &two["phases"][0];
        assert_eq!(
            (&anneal["phase"], &anneal["chains"]),
            (&"anneal".into(), &2.into())
        );
        let own = two["anneal_steps"].as_u64().unwrap()
            + two["local_search_evaluations"].as_u64().unwrap();
        let all: u64 = (two["phases"].as_array().unwrap().iter())
            .map(|p| p["steps"].as_u64().unwrap())
            .sum();
        assert!((2 * own).abs_diff(all) < all / 10, "{two}");
        // The first chain runs on the run's own seed: alone with its half of the steps it
        // ends on the same tour, which the pair reports unless the second found a shorter.
        let first = run("1", "300000", seed);
        assert_eq!(first["chain"], 1, "{first}");
        match two["chain"].as_u64().unwrap() {
            1 => assert_eq!(tour(&two, 150), tour(&first, 150), "{two}\n{first}"),
            2 => assert!(length(&two) < length(&first), "{two}\n{first}"),
            other => panic!("chain {other} of 2"),
        }
        // Chains on threads end on the same tour every time.
        assert_eq!(tour(&run("2", "600000", seed), 150), tour(&two, 150));
    }
    let three = run("3", "600000", "5");
    assert_eq!(three["chains"], 3, "{three}");
    // Above 250 cities the second chain's first anneal is capped at a fifth of the
    // first's (2,000 steps a city against 10,000): of 5M steps each, at half for the
    // kicks, the first anneals its 2.5M, the second 884,000 (pcb442).
    let pcb442 = json(&headless(&[
        &format!("{PUZZLES}/pcb442.tsp"),
        "--max-steps",
        "10000000",
        "--kick-share",
        "0.5",
        "--optimum",
        "1",
    ]));
    assert_eq!(pcb442["chains"], 2, "{pcb442}");
    assert_eq!(
        pcb442["phases"][0]["steps"],
        2_500_000 + 884_000,
        "{pcb442}"
    );
    // Without --threads: two chains up to 5,000 cities, one above.
    for (cities, chains) in [("5000", 2), ("5001", 1)] {
        let report = json(&headless(&["--random", cities, "--max-steps", "100000"]));
        assert_eq!(report["chains"], chains, "{cities} cities");
    }
}

#[test]
fn from_2000_cities_about_one_kick_in_10_walks_a_window_anew() {
    let _cores = crate::common::busy();
    for (cities, windows) in [("1999", false), ("2000", true)] {
        let report = json(&headless(&[
            "--random",
            cities,
            "--threads",
            "1",
            "--max-steps",
            "3000000",
            "--optimum",
            "1",
        ]));
        assert!(report["alpha_seconds"].is_number(), "{report}");
        let kicks = report["kicks"].as_u64().unwrap();
        let window_kicks = report["window_kicks"].as_u64().unwrap();
        assert!(kicks >= 500, "{kicks} kicks");
        if windows {
            assert!(
                (kicks / 20..=kicks / 5).contains(&window_kicks),
                "{window_kicks} window kicks of {kicks}"
            );
        } else {
            assert_eq!(window_kicks, 0, "{report}");
        }
    }
}
