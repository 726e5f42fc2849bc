//! `kiln completions SHELL` and `kiln man` (issue 23 item 6): what they print names kiln's
//! commands and flags, bash's script is valid bash, and they refuse what kiln refuses
//! elsewhere, in one line with exit code 2.

use std::process::{Command, Stdio};

use crate::common::kiln;

const COMMANDS: [&str; 9] = [
    "sudoku",
    "tsp",
    "image",
    "presets",
    "race",
    "plot",
    "serve",
    "completions",
    "man",
];

/// A few flags, of the top command and of several subcommands.
const FLAGS: [&str; 5] = ["--time-limit", "--headless", "--fps", "--moves", "--listen"];

/// stdout of `kiln ARGS`, which must succeed quietly.
fn printed(args: &[&str]) -> String {
    let output = kiln(args);
    assert_eq!(output.status.code(), Some(0), "{args:?}: {output:?}");
    assert!(output.stderr.is_empty(), "{args:?}: {output:?}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn each_shell_s_script_names_the_commands_and_flags() {
    for shell in ["bash", "zsh", "fish"] {
        let script = printed(&["completions", shell]);
        for word in COMMANDS.iter().chain(&FLAGS) {
            // fish writes a long flag as `-l time-limit`.
            let word = word.trim_start_matches('-');
            assert!(script.contains(word), "{shell}'s script lacks {word}");
        }
        // The shell names in `kiln completions <TAB>`.
        assert!(script.contains("zsh"), "{shell}'s script lacks the shells");
    }
}

#[test]
fn bash_s_script_is_valid_bash() {
    let script = printed(&["completions", "bash"]);
    let dir = crate::common::scratch::scratch("completions");
    let path = dir.join("kiln.bash");
    std::fs::write(&path, script).unwrap();
    let check = Command::new("bash").arg("-n").arg(&path).output().unwrap();
    assert!(check.status.success(), "bash -n: {check:?}");
    // Sourced, it registers its function for `kiln`.
    let complete = Command::new("bash")
        .arg("-c")
        .arg(format!("source '{}' && complete -p kiln", path.display()))
        .output()
        .unwrap();
    assert!(complete.status.success(), "{complete:?}");
    assert!(String::from_utf8_lossy(&complete.stdout).contains("_kiln"));
}

#[test]
fn the_man_page_holds_every_command() {
    let page = printed(&["man"]);
    assert!(
        page.starts_with(".TH kiln 1 "),
        "{}",
        &page[..page.len().min(200)]
    );
    // roff's definition of `\*(Aq` (how `'` is typeset) comes once, not with every piece.
    assert_eq!(
        page.matches(".ds Aq").count(),
        2,
        "the `'` preamble repeats"
    );
    for command in COMMANDS {
        let heading = format!(".SH \"KILN {}\"", command.to_uppercase());
        assert!(page.contains(&heading), "no section {heading}");
    }
    // roff writes a flag's hyphens as `\-`.
    for flag in FLAGS {
        let flag = flag.replace('-', "\\-");
        assert!(page.contains(&flag), "the page lacks {flag}");
    }
    // One page: the subcommands are not sent to pages of their own, nor is `kiln help`.
    assert!(!page.contains("kiln-sudoku(1)"));
    assert!(!page.contains("KILN HELP"));
}

/// Exit code 2, nothing on stdout, and one line on stderr that starts with `start`.
fn refused(args: &[&str], start: &str) {
    let output = kiln(args);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
    assert!(output.stdout.is_empty(), "{args:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.starts_with(start), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
}

#[test]
fn a_bad_shell_or_a_view_flag_is_refused_in_one_line() {
    refused(
        &["completions", "tcsh"],
        "kiln: <SHELL>: 'tcsh' is not one of bash, zsh, fish",
    );
    refused(&["completions"], "kiln: missing <SHELL>");
    let no_view = "has no live view and prints no JSON lines";
    refused(
        &["completions", "bash", "--headless"],
        &format!("kiln: --headless: `kiln completions` {no_view}"),
    );
    refused(
        &["--fps", "5", "man"],
        &format!("kiln: --fps: `kiln man` {no_view}"),
    );
    refused(&["man", "sudoku"], "kiln: unexpected argument 'sudoku'");
}

#[test]
fn help_lists_no_view_flags() {
    for command in ["completions", "man"] {
        let help = printed(&[command, "--help"]);
        for flag in [
            "--headless",
            "--fps",
            "--speed",
            "--ascii",
            "--once",
            "--quiet",
            "--record",
        ] {
            assert!(!help.contains(flag), "{command} --help lists {flag}");
        }
    }
    assert!(printed(&["completions", "--help"]).contains("bash, zsh, fish"));
    assert!(printed(&["man", "--help"]).contains("every command on one page"));
}

#[test]
fn a_reader_that_goes_away_ends_them_quietly() {
    for args in [&["completions", "bash"][..], &["man"]] {
        // A pipe whose reading end is closed before kiln starts: its first write fails.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let output = Command::new(env!("CARGO_BIN_EXE_kiln"))
            .args(args)
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{args:?}: {output:?}");
        assert!(output.stderr.is_empty(), "{args:?}: {output:?}");
    }
}
