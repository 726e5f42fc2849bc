//! The flags of issue 22 ("Files and flags"): `kiln plot` and `kiln presets` name the flag
//! they refuse, each command's --help lists only the flags that apply to it, `--seeds`
//! shows its syntax, and presets are raced and run under both `--preset` and `--presets`.

use crate::common::{kiln, lines};

/// Exit code 2 and exactly `message` on stderr.
fn refused(args: &[&str], message: &str) {
    let output = kiln(args);
    assert_eq!(output.status.code(), Some(2), "{args:?}");
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        format!("{message}\n")
    );
    assert!(output.stdout.is_empty(), "{args:?}");
}

#[test]
fn plot_names_the_flag_given_before_asking_for_its_output() {
    let no_view = "has no live view and prints no JSON lines";
    refused(
        &["plot", "x.csv", "--headless"],
        &format!("kiln: --headless: `kiln plot` {no_view}"),
    );
    refused(
        &["--fps", "5", "plot", "x.csv"],
        &format!("kiln: --fps: `kiln plot` {no_view}"),
    );
    refused(
        &["presets", "--speed", "full"],
        &format!("kiln: --speed: `kiln presets` {no_view}"),
    );
    refused(
        &["plot", "x.csv"],
        "kiln: --output: `kiln plot` needs the figure's file, FILE.svg or FILE.png",
    );
    refused(
        &["plot", "x.csv", "-o", "x.gif"],
        "kiln: --output: x.gif: can write .svg or .png figures only",
    );
}

/// The flags `kiln COMMAND --help` lists.
fn help_flags(command: &[&str]) -> String {
    let output = kiln(&[command, &["--help"]].concat());
    assert!(output.status.success(), "{command:?}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn help_lists_only_the_flags_that_apply() {
    let view = ["--fps", "--speed", "--ascii", "--unicode", "--once"];
    let output = ["--headless", "--quiet"];
    for command in [&["plot"][..], &["presets"]] {
        let help = help_flags(command);
        for flag in view.iter().chain(&output) {
            assert!(!help.contains(flag), "{command:?} lists {flag}:\n{help}");
        }
    }
    // The SSH server draws the live view, and prints no JSON.
    let help = help_flags(&["serve"]);
    for flag in view {
        assert!(help.contains(flag), "serve does not list {flag}:\n{help}");
    }
    for flag in output {
        assert!(!help.contains(flag), "serve lists {flag}:\n{help}");
    }
    for command in [&["sudoku"][..], &["tsp"], &["image"], &["race"], &[]] {
        let help = help_flags(command);
        for flag in view.iter().chain(&output) {
            assert!(help.contains(flag), "{command:?} does not list {flag}");
        }
    }
    // A recording: of the live view, and of each session over SSH.
    let record = "--record <FILE.cast>";
    for command in [&["sudoku"][..], &["tsp"], &["image"], &["race"], &[]] {
        assert!(help_flags(command).contains(record), "{command:?}");
    }
    for command in [&["plot"][..], &["presets"], &["serve"]] {
        assert!(!help_flags(command).contains(record), "{command:?}");
    }
    assert!(help_flags(&["serve"]).contains("--record-dir <DIR>"));
}

#[test]
fn seeds_written_otherwise_show_the_syntax() {
    let syntax = "is not a seed list; write a range as A..B (e.g. 1..20) or a list as 1,2,3";
    for seeds in ["1-20", "1:20", "1..x"] {
        refused(
            &["sudoku", "--headless", "--seeds", seeds],
            &format!("kiln: --seeds: '{seeds}' {syntax}"),
        );
    }
}

/// What tells the runs of `kiln ARGS` apart: its exit code, and each run's preset, pane,
/// raced values, energy and steps.
fn runs(args: &[&str]) -> (Option<i32>, Vec<[String; 5]>) {
    let output = kiln(args);
    let runs = lines(&output)
        .iter()
        .filter(|line| line.get("iterations").is_some())
        .map(|line| {
            ["preset", "pane", "raced", "energy", "iterations"].map(|k| line[k].to_string())
        })
        .collect();
    (output.status.code(), runs)
}

#[test]
fn presets_are_taken_as_preset_and_presets_alike() {
    let _cores = crate::common::busy();
    let file = "puzzles/sudoku/hardest11.txt";
    let run = [
        "--index",
        "2",
        "--max-steps",
        "20000",
        "--headless",
        "--quiet",
    ];
    let with = |words: &[&str]| runs(&[words, &run].concat());
    // The older race of a file's puzzles, documented as --presets.
    let race = with(&["race", file, "--presets", "lundy,reheat"]);
    assert_eq!(race.1.len(), 2);
    assert_eq!(with(&["race", file, "--preset", "lundy,reheat"]), race);
    // A race of any flag of `kiln sudoku`, documented as --preset: the pane's JSON names
    // the flag so, however it was written.
    let raced = with(&["race", "sudoku", file, "--preset", "lundy,reheat"]);
    assert_eq!(raced.1.len(), 2);
    assert_eq!(raced.1[0][2], r#"{"preset":"lundy"}"#);
    assert_eq!(
        with(&["race", "sudoku", file, "--presets", "lundy,reheat"]),
        raced
    );
    assert_eq!(
        with(&["race", "sudoku", file, "--presets=lundy,reheat"]),
        raced
    );
    // One run.
    let one = with(&["sudoku", file, "--preset", "reheat"]);
    assert_eq!(one.1[0][0], r#""reheat""#);
    assert_eq!(with(&["sudoku", file, "--presets", "reheat"]), one);
}
