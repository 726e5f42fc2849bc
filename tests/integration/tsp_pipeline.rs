//! One TSP pipeline, whoever watches: the live view at full speed ends on the tour the
//! headless run with the same seed and step budget ends on, names the phase it is in, and a
//! trace follows the run through every phase to its result.

use std::fs;
use std::path::Path;

use crate::common::scratch::scratch;
use crate::common::{kiln, lines};
use crate::tui_pty::Tui;

fn puzzle(name: &str) -> String {
    format!("{}/puzzles/tsp/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// pcb442 under another name in `dir`, whose optimum kiln does not know: runs of it end at
/// their step budget. A run that reaches a known optimum ends within a batch, and what the
/// other chain did by then depends on the batches, which a live view makes smaller, so the
/// phases' shares can differ by a point between the two views.
fn board_without_optimum(dir: &Path) -> String {
    let text = fs::read_to_string(puzzle("pcb442.tsp")).unwrap();
    let path = dir.join("board442.tsp");
    fs::write(&path, text.replacen("NAME : pcb442", "NAME : board442", 1)).unwrap();
    path.to_str().unwrap().to_string()
}

/// The cities of a TSPLIB tour file, 1-based, in order.
fn tour_of(path: &Path) -> Vec<u64> {
    let text = fs::read_to_string(path).unwrap();
    text.lines().filter_map(|l| l.trim().parse().ok()).collect()
}

/// The cities of a headless line's tour, 1-based, in order.
fn json_tour(json: &serde_json::Value) -> Vec<u64> {
    json["tour"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect()
}

#[test]
fn the_live_view_at_full_speed_ends_on_the_headless_tour() {
    let _cores = crate::common::busy();
    let dir = scratch("tsp-pipeline");
    let runs = [
        ("board442.tsp", board_without_optimum(&dir), "3000000"),
        ("berlin52.tsp", puzzle("berlin52.tsp"), "60000"),
    ];
    for (file, path, steps) in runs {
        let flags = [path.as_str(), "--max-steps", steps, "--seed", "1"];
        let headless = kiln(&[&["tsp", "--headless"], &flags[..]].concat());
        assert!(headless.status.success(), "{headless:?}");
        let json = &lines(&headless)[0];
        let length = json["length"].as_u64().unwrap();
        let tour = json_tour(json);
        assert_eq!(json["phases"][1]["phase"], "local-search", "{json}");

        let output = format!("live-{file}.tour");
        let live = [&["tsp", "--speed", "full", "--output", &output], &flags[..]].concat();
        let mut tui = Tui::start_in(&dir, &live, 80, 24, &[]);
        let screen = tui.wait_until("the end banner", |s| s.contains("best found by"));
        tui.press("q");
        assert_eq!(tui.wait_exit(), 0);
        assert_eq!(tour_of(&dir.join(&output)), tour, "{file}: {screen}");
        // The title's tour and the panel's energy are the result, on the same screen.
        assert!(screen.contains(&format!("len {length}")), "{screen}");
        assert!(screen.contains(&format!("Energy {length}")), "{screen}");
        assert!(screen.contains("local search"), "{screen}");
        assert_eq!(json["chains"], 2, "{json}");
        let used = used_shares(json);
        assert!(screen.contains(&used), "{file}: {used}:\n{screen}");
    }
}

#[test]
fn a_frame_at_80x24_names_the_phase_running_and_its_share() {
    let _cores = crate::common::busy();
    let dir = scratch("tsp-phase");
    let path = board_without_optimum(&dir);
    // 600,000 steps of annealing at 1M a second, then the local search.
    let args = ["tsp", &path, "--max-steps", "3000000", "--speed", "1000000"];
    let mut tui = Tui::start_in(&dir, &args, 80, 24, &[]);
    let annealing = tui.wait_for("phase      annealing");
    assert!(
        annealing.contains("planned    20% of budget"),
        "{annealing}"
    );
    assert!(annealing.contains("Temperature "), "{annealing}");
    // Two chains run: the board says whose tour it draws.
    assert!(annealing.contains("leading tour of 2"), "{annealing}");
    let local = tui.wait_for("phase      local search");
    assert!(local.contains("planned    80% of budget"), "{local}");
    assert!(local.contains("Threshold "), "{local}");
    assert!(!local.contains("Temperature "), "{local}");
    // At a pace as at full speed, the banner gives the shares each phase used.
    let end = tui.wait_until("the end banner", |s| s.contains("best found by"));
    tui.press("q");
    assert_eq!(tui.wait_exit(), 0);
    let headless = kiln(&[&args[..4], &["--headless"]].concat());
    assert!(headless.status.success(), "{headless:?}");
    let used = used_shares(&lines(&headless)[0]);
    assert!(end.contains(&used), "{used}:\n{end}");
}

/// The end banner's line for the run of headless line `json`: each phase's share of the
/// steps the run took, as its `phases` count them.
fn used_shares(json: &serde_json::Value) -> String {
    let phases = json["phases"].as_array().unwrap();
    let steps = |p: &serde_json::Value| p["steps"].as_u64().unwrap() as f64;
    let total: f64 = phases.iter().map(steps).sum();
    let parts: Vec<String> = phases
        .iter()
        .map(|p| {
            let name = match p["phase"].as_str().unwrap() {
                "anneal" => "annealing",
                "local-search" => "local search",
                "reanneal" => "re-annealing",
                other => panic!("phase {other}"),
            };
            format!("{:.0}% {name}", steps(p) / total * 100.0)
        })
        .collect();
    format!("after {}", parts.join(" + "))
}

#[test]
fn kicks_that_stall_re_anneal_live_as_headless_and_the_trace_names_it() {
    let _cores = crate::common::busy();
    let dir = scratch("tsp-reanneal");
    let trace = dir.join("t.csv");
    // 60 cities: the kicks find their best tour within their first epoch (1.2M
    // evaluations), the second finds nothing shorter: they anneal again, then kick again.
    let flags = [
        "--random",
        "60",
        "--max-steps",
        "8000000",
        "--seed",
        "2",
        "--threads",
        "1",
    ];
    let traced = ["tsp", "--headless", "--trace", trace.to_str().unwrap()];
    let headless = kiln(&[&traced[..], &flags[..]].concat());
    assert!(headless.status.success(), "{headless:?}");
    let json = &lines(&headless)[0];
    assert!(json["reanneals"].as_u64().unwrap() >= 1, "{json}");
    let phases: Vec<&str> = json["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["phase"].as_str().unwrap())
        .collect();
    assert_eq!(phases, ["anneal", "local-search", "reanneal"], "{json}");
    let text = fs::read_to_string(&trace).unwrap();
    let named: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.rsplit(',').next().unwrap())
        .collect();
    let first = named
        .iter()
        .position(|&p| p == "re-annealing")
        .expect(&text);
    assert!(named[..first].contains(&"local search"), "{text}");
    assert_eq!(named.last(), Some(&"local search"), "{text}");

    let tour = json_tour(json);
    let live = [
        &["tsp", "--speed", "full", "--output", "live.tour"],
        &flags[..],
    ]
    .concat();
    let mut tui = Tui::start_in(&dir, &live, 80, 24, &[]);
    let screen = tui.wait_until("the end banner", |s| s.contains("best found by"));
    tui.press("q");
    assert_eq!(tui.wait_exit(), 0);
    assert_eq!(tour_of(&dir.join("live.tour")), tour, "{screen}");
    // The banner at 80 columns breaks its credit before the last "+": the re-anneals'
    // share stays beside their name, on a line of its own.
    let used = used_shares(json);
    let (head, last) = used.rsplit_once(" + ").unwrap();
    assert!(last.ends_with("% re-annealing"), "{used}");
    assert!(screen.contains(head), "{used}:\n{screen}");
    let line = format!("+ {last}");
    assert!(
        screen.lines().any(|l| l
            .trim_start()
            .trim_start_matches('│')
            .trim_start()
            .starts_with(&line)),
        "{used}:\n{screen}"
    );
}

#[test]
fn a_time_limited_frame_shows_the_capped_anneal_as_at_most_its_share() {
    let _cores = crate::common::busy();
    let dir = scratch("tsp-capped");
    // 2,000 cities: the anneal's cap of 40M steps takes a second or more, the 20 % of 30 s
    // it would take without the cap six.
    let args = [
        "tsp",
        "--random",
        "2000",
        "--time-limit",
        "30",
        "--speed",
        "full",
    ];
    let mut tui = Tui::start_in(&dir, &args, 80, 24, &[]);
    let annealing = tui.wait_for("planned    ≤20% of budget");
    assert!(annealing.contains("phase      annealing"), "{annealing}");
    assert!(annealing.contains("Temperature "), "{annealing}");
    tui.press("q");
    assert_eq!(tui.wait_exit(), 0);
}

#[test]
fn a_trace_follows_every_phase_to_the_reported_result() {
    let _cores = crate::common::busy();
    let dir = scratch("tsp-trace");
    let trace = dir.join("t.csv");
    let out = kiln(&[
        "tsp",
        "--random",
        "200",
        "--max-steps",
        "2000000",
        "--seed",
        "3",
        "--headless",
        "--trace",
        trace.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    let json = &lines(&out)[0];
    let text = fs::read_to_string(&trace).unwrap();
    let rows = kiln::search::trace::parse(&text, "t.csv").unwrap();
    assert!(
        text.lines().nth(1).unwrap().ends_with(",annealing"),
        "{text}"
    );
    let last = text.lines().last().unwrap();
    assert!(last.ends_with(",local search"), "{last}");
    let end = rows.last().unwrap();
    let length = json["length"].as_f64().unwrap();
    assert_eq!((end.energy, end.best_energy), (length, length), "{last}");
    // The trace counts every chain's steps, as the phases do; the tour is the leading
    // chain's, whose own steps are the report's.
    let phases = json["phases"].as_array().unwrap();
    let steps: u64 = phases.iter().map(|p| p["steps"].as_u64().unwrap()).sum();
    assert_eq!(end.iteration, steps, "{last}");
    assert_eq!(json["chains"], 2, "{json}");
    let own =
        json["anneal_steps"].as_u64().unwrap() + json["local_search_evaluations"].as_u64().unwrap();
    assert!(own < steps && steps < 3 * own, "{json}");
}
