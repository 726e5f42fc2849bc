//! The flags of issue 22 ("Files and flags"): `kiln plot` and `kiln presets` name the flag
//! they refuse, each command's --help lists only the flags that apply to it, and `--seeds`
//! shows its syntax.

use crate::common::kiln;

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
