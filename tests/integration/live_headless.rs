//! One pipeline: the live view at full speed, driven as the event loop drives it, ends on
//! the result the headless run with the same flags prints (the same seed and
//! `--max-steps`), credited to the same phase: a 9x9 Sudoku annealed, a 25x25 solved by
//! conflict learning beside annealing, and the denoised image (annealing, then the exact
//! polish).

use std::path::Path;
use std::time::{Duration, Instant};

use ratatui::layout::Rect;
use serde_json::Value;

use crate::common::scratch::scratch;
use crate::common::{busy, kiln, lines};
use kiln::cli::{self, Command};
use kiln::search::worker::Speed;
use kiln::search::{Phase, Sample};
use kiln_tui::{App, RunState, Theme, Tui, drawn};

/// What a finished live run of `kiln WORDS --output OUT` ended on: its last sample, its
/// last frame and the best state as `--output` writes it.
struct LiveEnd {
    sample: Sample,
    screen: String,
    output: Vec<u8>,
}

fn live(words: &[&str], out: &Path, (width, height): (u16, u16)) -> LiveEnd {
    let mut words = words.to_vec();
    let out_arg = out.display().to_string();
    words.extend(["--output", &out_arg]);
    let Command::Problem(problem) = cli::command(&words) else {
        unreachable!("a problem's command")
    };
    let start = problem.get().live().unwrap();
    let mut app = App::new(
        start.demos,
        start.tab,
        start.index,
        Some(Speed::Full),
        Theme::monochrome(false),
        Rect::new(0, 0, width, height),
        false,
    )
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while !matches!(app.session().state(), RunState::Finished(_)) {
        assert!(Instant::now() < deadline, "{words:?}: never finished");
        app.poll();
        std::thread::sleep(Duration::from_millis(2));
    }
    app.session().write_output().unwrap();
    LiveEnd {
        sample: *app.session().history().latest().unwrap(),
        screen: drawn(&app, width, height).join("\n"),
        output: std::fs::read(out).unwrap(),
    }
}

fn headless(words: &[&str], out: &Path) -> Value {
    let mut words = words.to_vec();
    let out_arg = out.display().to_string();
    words.extend(["--headless", "--output", &out_arg]);
    let output = kiln(&words);
    let text = String::from_utf8_lossy(&output.stderr);
    lines(&output)
        .pop()
        .unwrap_or_else(|| panic!("{words:?}: {text}"))
}

/// Runs `words` live on a screen of `size` and headless, each writing its best to a file
/// of `extension`.
fn both(
    test: &str,
    words: &[&str],
    extension: &str,
    size: (u16, u16),
) -> (LiveEnd, Value, Vec<u8>) {
    let dir = scratch(test);
    let live_end = live(words, &dir.join(format!("live.{extension}")), size);
    let out = dir.join(format!("headless.{extension}"));
    let line = headless(words, &out);
    let written = std::fs::read(&out).unwrap();
    (live_end, line, written)
}

fn sudoku_words<'a>(file: &'a str, index: &'a str, seed: &'a str, steps: &'a str) -> Vec<&'a str> {
    vec![
        "sudoku",
        file,
        "--index",
        index,
        "--seed",
        seed,
        "--max-steps",
        steps,
    ]
}

#[test]
fn a_9x9_ends_live_where_it_ends_headless() {
    let _cores = busy();
    // One chain, stopped by its budget short of a solution, and one that solves.
    for (index, seed, steps) in [("3", "3", "30000"), ("3", "3", "3000000")] {
        let words = sudoku_words("puzzles/sudoku/hardest11.txt", index, seed, steps);
        let (live, line, written) = both("live-9x9", &words, "txt", (80, 24));
        assert_eq!(live.output, written, "{words:?}");
        assert_eq!(live.sample.best_energy, line["energy"].as_f64().unwrap());
        assert_eq!(live.sample.iteration, line["iterations"].as_u64().unwrap());
        assert_eq!(live.sample.restarts, line["restarts"].as_u64().unwrap());
        assert_eq!(live.sample.phase, Phase::Anneal);
        assert_eq!(line["algorithm"], "anneal");
        assert_eq!(line["phases"][0]["phase"], "anneal");
        let credit = match line["solved"].as_bool().unwrap() {
            true => "SOLVED by annealing in",
            false => "found by annealing",
        };
        assert!(live.screen.contains(credit), "{}", live.screen);
    }
}

#[test]
fn a_25x25_solved_by_conflict_learning_is_credited_to_it_live_and_headless() {
    let _cores = busy();
    // Line 5 with seed 2: the learner solves it in about a second, long before box swaps.
    let words = sudoku_words("puzzles/sudoku/minimal25.txt", "5", "2", "200000000");
    let (live, line, written) = both("live-25x25", &words, "txt", (100, 40));
    assert_eq!(line["solved"], true, "{line}");
    assert_eq!(live.output, written);
    assert_eq!(live.sample.best_energy, 0.0);
    // The learner counts its steps by its work, however the view slices it, so it solves
    // at the same step live; the box swaps beside it run on to the end of the batch the
    // solve fell in, which headless is 2^20 steps (both chains), live a tick's.
    let (live_steps, steps) = (live.sample.iteration, line["iterations"].as_u64().unwrap());
    assert!(
        live_steps.abs_diff(steps) < 1 << 20,
        "{live_steps} live, {steps} headless"
    );
    assert_eq!(live.sample.phase, Phase::ConflictLearning);
    assert_eq!(live.sample.control, kiln::search::Control::None);
    assert_eq!(line["solved_by"], "conflict-learning");
    // Never credited to annealing: the line says what ran and what each part did.
    assert_eq!(line["algorithm"], "anneal+conflict-learning");
    let phases = line["phases"].as_array().unwrap();
    let names: Vec<&str> = phases
        .iter()
        .map(|p| p["phase"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["anneal", "conflict-learning"], "{line}");
    let steps: u64 = phases.iter().map(|p| p["steps"].as_u64().unwrap()).sum();
    assert_eq!(steps, line["iterations"].as_u64().unwrap());
    assert!(
        phases
            .iter()
            .all(|p| p["chains"] == 1 && p["steps"].as_u64() > Some(0))
    );
    // The 25x25 board needs more than 80x24.
    assert!(
        live.screen
            .lines()
            .next()
            .unwrap()
            .contains("2 chains: box swaps, conflict learning"),
        "{}",
        live.screen
    );
    assert!(
        live.screen.contains("phase      conflict learning"),
        "{}",
        live.screen
    );
    assert!(live.screen.contains("no temperature"), "{}", live.screen);
    assert!(
        live.screen.contains("SOLVED by conflict learning in"),
        "{}",
        live.screen
    );
}

#[test]
fn a_denoised_image_ends_live_where_it_ends_headless_polish_included() {
    let _cores = busy();
    let words = [
        "image",
        "--denoise",
        "--size",
        "96x64",
        "--seed",
        "4",
        "--max-steps",
        "1500000",
    ];
    let (live, line, written) = both("live-image", &words, "pbm", (80, 24));
    assert_eq!(live.output, written);
    assert_eq!(live.sample.best_energy, line["energy"].as_f64().unwrap());
    assert_eq!(live.sample.iteration, line["iterations"].as_u64().unwrap());
    let phases = line["phases"].as_array().unwrap();
    let names: Vec<&str> = phases
        .iter()
        .map(|p| p["phase"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["anneal", "polish"], "{line}");
    assert_eq!(phases[0]["steps"], line["iterations"]);
    // The polish lowered the energy here, so the result is its: named and credited.
    assert!(line["polish_gain"].as_f64().unwrap() < 0.0, "{line}");
    assert_eq!(live.sample.phase, Phase::Polish);
    assert!(
        live.screen.contains("found by exact polish"),
        "{}",
        live.screen
    );
    assert!(
        live.screen.contains("phase      exact polish"),
        "{}",
        live.screen
    );
    assert!(live.screen.contains("no temperature"), "{}", live.screen);
}
