//! The built binary at its limits: numbers out of range, a full stderr, control characters
//! in input, non-finite results, exit codes and messages (docs/limits.md).

use std::io::Write;
use std::process::{Command, Output, Stdio};

use crate::common::scratch::scratch;
use crate::common::{kiln, lines};

/// Writes `bytes` to `name` in `dir` and returns the path as a string.
fn file(dir: &std::path::Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Exit code 2 and exactly one line on stderr that starts with `start`.
fn refused(args: &[&str], start: &str) -> String {
    let output = kiln(args);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {text}");
    assert!(text.starts_with(start), "{args:?}: {text}");
    assert_eq!(text.lines().count(), 1, "{args:?}: {text}");
    assert!(text.ends_with('\n'), "{args:?}: {text}");
    text
}

/// `kiln ARGS` with `input` on stdin.
fn kiln_with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kiln"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

const HARD: &str = "puzzles/sudoku/hardest11.txt";
const BERLIN: &str = "puzzles/tsp/berlin52.tsp";

#[test]
fn numbers_out_of_range_are_refused_when_parsed() {
    let _cores = crate::common::busy();
    let cases: [(&[&str], &str); 9] = [
        (
            &["sudoku", "--time-limit", "1e20"],
            "kiln: --time-limit: 1e20 is not in (0, 31536000]",
        ),
        (
            &["tsp", BERLIN, "--time-limit", "1.8e19"],
            "kiln: --time-limit: ",
        ),
        (&["image", "--time-limit", "1e20"], "kiln: --time-limit: "),
        (
            &["race", HARD, "--time-limit", "1e20"],
            "kiln: --time-limit: ",
        ),
        (
            &[
                "sudoku",
                "--preset",
                "ga",
                "--population",
                "18446744073709551615",
            ],
            "kiln: --population: 18446744073709551615 is not in [2, 20000]",
        ),
        (
            &["sudoku", "--preset", "ga", "--population", "100000000"],
            "kiln: --population: ",
        ),
        (&["sudoku", "--threads", "1000"], "kiln: --threads: "),
        (&["tsp", "--neighbours", "65535"], "kiln: --neighbours: "),
        (&["tsp", "--random", "1000000000"], "kiln: --random: "),
    ];
    for (args, start) in cases {
        let mut args = args.to_vec();
        args.push("--headless");
        refused(&args, start);
    }
    // The live view parses the same flags.
    refused(&["sudoku", "--time-limit", "1e20"], "kiln: --time-limit: ");
}

#[test]
fn command_line_errors_are_one_line_with_code_2() {
    let _cores = crate::common::busy();
    refused(
        &["sudoku", "--sed", "3"],
        "kiln: unexpected argument '--sed' (did you mean '--seed'?)",
    );
    refused(
        &["tsp", "--moves", "3opt"],
        "kiln: --moves: '3opt' is not one of ",
    );
    refused(&["race"], "kiln: missing <FILE>");
    refused(&["sudokku"], "kiln: unknown command 'sudokku'");
    refused(
        &["sudoku", "--threads"],
        "kiln: --threads: a value is required",
    );
    // Help and version print as clap prints them, with success.
    let help = kiln(&["--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&help.stdout).contains("Usage: kiln"));
    let version = kiln(&["--version"]);
    assert_eq!(version.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&version.stdout).starts_with("kiln "));
}

/// `kiln ARGS` through `sh` with stderr redirected as `redirect` says (`2>/dev/full`).
fn with_stderr(args: &str, redirect: &str) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!(
            "exec '{}' {args} {redirect}",
            env!("CARGO_BIN_EXE_kiln")
        ))
        .stdout(Stdio::piped())
        .output()
        .unwrap()
}

#[test]
fn a_failed_write_to_stderr_does_not_abort() {
    let _cores = crate::common::busy();
    for redirect in ["2>/dev/full", "2>&-"] {
        let solved = with_stderr("sudoku puzzles/sudoku/default.txt --headless", redirect);
        assert_eq!(solved.status.code(), Some(0), "{redirect}: {solved:?}");
        assert_eq!(lines(&solved)[0]["solved"], true);
        let bad = with_stderr("sudoku puzzles/sudoku/bad_clash.txt --headless", redirect);
        assert_eq!(bad.status.code(), Some(2), "{redirect}: {bad:?}");
        let flags = with_stderr("sudoku --time-limit 1e20", redirect);
        assert_eq!(flags.status.code(), Some(2), "{redirect}: {flags:?}");
        let unsolved = with_stderr("sudoku puzzles/sudoku/no_solution.txt --headless", redirect);
        assert_eq!(unsolved.status.code(), Some(1), "{redirect}: {unsolved:?}");
        let tsp = with_stderr("tsp --headless --max-steps 1000", redirect);
        assert_eq!(tsp.status.code(), Some(0), "{redirect}: {tsp:?}");
    }
}

/// No control character but the final newline.
fn assert_no_controls(text: &[u8]) {
    let body = text.strip_suffix(b"\n").unwrap_or(text);
    assert!(
        !body.iter().any(|&b| b < 0x20 || b == 0x7f),
        "{}",
        String::from_utf8_lossy(text)
    );
}

#[test]
fn control_characters_from_input_are_escaped() {
    let _cores = crate::common::busy();
    let dir = scratch("escapes");
    let tsp = file(
        &dir,
        "title.tsp",
        b"NODE_COORD_SECTION\n1 0 0\n2 \x1b]0;PWNED\x07\x1b[2J 5\n3 1 1\n",
    );
    let text = refused(&["tsp", &tsp, "--headless"], "kiln: ");
    assert!(text.contains("'2 \\e]0;PWNED\\x07\\e[2J 5'"), "{text}");

    let grid = b"1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 \x1bc\n";
    let reset = file(&dir, "reset.txt", grid);
    let output = kiln(&["sudoku", &reset, "--headless"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("'\\ec'"), "{}", stderr(&output));
    assert_no_controls(&output.stderr);

    let mut line = b"4.3.".repeat(20);
    line.push(0);
    let nul = file(&dir, "nul.txt", &line);
    let output = kiln(&["sudoku", &nul, "--headless"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("bad symbol '\\x00'"),
        "{}",
        stderr(&output)
    );
    assert_no_controls(&output.stderr);

    // Summaries quote the instance name.
    let named = file(
        &dir,
        "named.tsp",
        b"NAME: a\x1b[2Jb\nNODE_COORD_SECTION\n1 0 0\n2 3 0\n3 0 4\n",
    );
    let output = kiln(&["tsp", &named, "--headless", "--max-steps", "1000"]);
    assert!(output.status.success(), "{output:?}");
    assert!(
        stderr(&output).starts_with("a\\e[2Jb: length 12"),
        "{}",
        stderr(&output)
    );
    assert_no_controls(&output.stderr);
}

#[test]
fn weights_that_would_make_energies_infinite_are_refused() {
    let _cores = crate::common::busy();
    let noisy = "puzzles/image/toy_4x5_noisy.pbm";
    refused(
        &["image", noisy, "--denoise", "--beta", "1e308", "--headless"],
        "kiln: --beta: 1e308 is not in [0, 10000]",
    );
    refused(
        &["image", noisy, "--denoise", "--lambda", "1e5", "--headless"],
        "kiln: --lambda: ",
    );
    let dir = scratch("weights");
    let kernel = file(&dir, "huge.json", b"[[0, 1, 1e308]]");
    let text = refused(&["image", "--kernel", &kernel, "--headless"], "kiln: ");
    assert!(text.contains("weight of (0, 1) is 1e308"), "{text}");
}

#[test]
fn coordinates_whose_lengths_would_overflow_are_refused() {
    let _cores = crate::common::busy();
    let dir = scratch("coordinates");
    let huge = file(
        &dir,
        "huge.tsp",
        b"NODE_COORD_SECTION\n1 -1e308 0\n2 1e308 0\n3 0 1e308\n4 0 -1e308\n",
    );
    refused(
        &["tsp", &huge, "--headless"],
        &format!("kiln: {huge}:2:3: x coordinate -1e308 is outside -1000000000..1000000000"),
    );
    let geo = file(
        &dir,
        "geo.tsp",
        b"EDGE_WEIGHT_TYPE: GEO\nNODE_COORD_SECTION\n1 10 20\n2 1e300 20\n3 11 21\n",
    );
    refused(
        &["tsp", &geo, "--headless"],
        &format!("kiln: {geo}:4:3: GEO latitude 1e300 is outside -90..90"),
    );
    // Squared lengths of a wide instance would pass 2^53.
    let wide = file(
        &dir,
        "wide.tsp",
        b"NODE_COORD_SECTION\n1 -1e9 0\n2 1e9 0\n3 0 1e9\n",
    );
    refused(
        &["tsp", &wide, "--cost", "squared", "--headless"],
        "kiln: --cost: squared edge lengths of wide",
    );
}

#[test]
fn gap_is_reported_only_against_a_plausible_optimum() {
    let _cores = crate::common::busy();
    let output = kiln(&[
        "tsp",
        BERLIN,
        "--headless",
        "--optimum",
        "9000",
        "--max-steps",
        "200000",
    ]);
    assert!(output.status.success(), "{output:?}");
    let report = &lines(&output)[0];
    let length = report["length"].as_u64().unwrap();
    assert!(length < 9000, "{report}");
    assert_eq!(report["optimum"], 9000);
    assert!(report["gap"].is_null(), "{report}");
    let text = stderr(&output);
    assert!(
        text.contains(&format!(
            "berlin52: found a tour of length {length}, shorter than the optimum 9000 \
             (--optimum): no gap reported"
        )),
        "{text}"
    );
    refused(
        &["tsp", BERLIN, "--optimum", "0", "--headless"],
        "kiln: --optimum: 0 is not in [1, ",
    );
}

#[test]
fn every_command_exits_1_when_nothing_is_solved() {
    let _cores = crate::common::busy();
    // A puzzle without a solution, in a race and alone.
    let output = kiln(&["race", "puzzles/sudoku/no_solution.txt", "--headless"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let output = kiln(&["sudoku", "puzzles/sudoku/no_solution.txt", "--headless"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    // Every racer out of steps before the solution.
    let output = kiln(&[
        "race",
        HARD,
        "--index",
        "1",
        "--presets",
        "yarpiz,lundy",
        "--max-steps",
        "10",
        "--headless",
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(lines(&output).iter().all(|l| l["solved"] != true));
    assert!(
        stderr(&output).ends_with("kiln: 1 of 1 puzzle not solved\n"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn dash_reads_the_puzzle_from_stdin() {
    let _cores = crate::common::busy();
    let puzzle = std::fs::read("puzzles/sudoku/small4.txt").unwrap();
    let output = kiln_with_stdin(&["sudoku", "-", "--headless"], &puzzle);
    assert!(output.status.success(), "{}", stderr(&output));
    let reports = lines(&output);
    assert_eq!(
        reports[0]["source"].as_str().unwrap().split(':').next(),
        Some("stdin")
    );
    let tsp = std::fs::read(BERLIN).unwrap();
    let output = kiln_with_stdin(&["tsp", "-", "--headless", "--max-steps", "1000"], &tsp);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(lines(&output)[0]["n"], 52);
}

#[test]
fn a_byte_order_mark_is_skipped_and_latin1_located() {
    let _cores = crate::common::busy();
    let dir = scratch("encodings");
    let mut text = b"\xef\xbb\xbf".to_vec();
    text.extend(std::fs::read("puzzles/sudoku/small4.txt").unwrap());
    let bom = file(&dir, "bom.txt", &text);
    let output = kiln(&["sudoku", &bom, "--headless"]);
    assert!(output.status.success(), "{}", stderr(&output));

    let latin1 = file(
        &dir,
        "latin1.tsp",
        b"NAME: x\nCOMMENT: caf\xe9\nNODE_COORD_SECTION\n",
    );
    refused(
        &["tsp", &latin1, "--headless"],
        &format!("kiln: {latin1}:2:13: not UTF-8 text (byte 0xe9)"),
    );
}

#[test]
fn counts_agree_in_number_and_tsp_errors_have_columns() {
    let _cores = crate::common::busy();
    let dir = scratch("messages");
    let one = file(&dir, "one.tsp", b"NODE_COORD_SECTION\n1 0 0\n");
    refused(
        &["tsp", &one, "--headless"],
        &format!("kiln: {one}: 1 city: a tour needs at least 3\n"),
    );
    let short = file(&dir, "short.txt", b"5\n");
    refused(
        &["sudoku", &short, "--headless"],
        &format!("kiln: {short}:1:2: wrong length: 1 symbol, a puzzle has 16"),
    );
    let bad_y = file(
        &dir,
        "bad_y.tsp",
        b"NODE_COORD_SECTION\n1 0 0\n  2 1 y\n3 2 2\n",
    );
    refused(
        &["tsp", &bad_y, "--headless"],
        &format!("kiln: {bad_y}:3:7: expected 'id x y', found '2 1 y'"),
    );
    let bad_dimension = file(&dir, "dim.tsp", b"DIMENSION : many\n");
    refused(
        &["tsp", &bad_dimension, "--headless"],
        &format!("kiln: {bad_dimension}:1:13: DIMENSION 'many' is not a whole number"),
    );
}

#[test]
fn flags_that_apply_only_with_another_are_refused() {
    let _cores = crate::common::busy();
    refused(
        &["image", "--lambda", "2", "--headless"],
        "kiln: a flag given needs --denoise",
    );
    refused(
        &["sudoku", "--preset", "ga", "--focus", "0.5", "--headless"],
        "kiln: --focus applies only to box-swap annealing, not --preset ga",
    );
    refused(
        &[
            "sudoku",
            "--preset",
            "cell-linear",
            "--pairs",
            "0.5",
            "--headless",
        ],
        "kiln: --pairs applies only to box-swap annealing, not --preset cell-linear",
    );
    refused(
        &["sudoku", "--population", "50", "--headless"],
        "kiln: --population applies only with --preset ga",
    );
    refused(
        &[
            "race",
            HARD,
            "--presets",
            "kiln,lundy",
            "--mutation",
            "0.1",
            "--headless",
        ],
        "kiln: --mutation applies only with ga in --presets",
    );
    refused(
        &["sudoku", "--t-min", "2", "--t0", "1", "--headless"],
        "kiln: --t-min 2 is above --t0 1",
    );
    refused(
        &[
            "tsp",
            "--schedule",
            "linear",
            "--t-min",
            "1e6",
            "--headless",
        ],
        "kiln: --t-min 1000000 is above the start temperature",
    );
    refused(
        &["tsp", "--layout", "normal", "--headless"],
        "kiln: a flag given needs --random",
    );
}

#[test]
fn input_files_are_read_up_to_a_limit() {
    let _cores = crate::common::busy();
    refused(
        &["sudoku", "/dev/zero", "--headless"],
        "kiln: /dev/zero: larger than 256 MiB, kiln's limit for an input file",
    );
}

#[test]
fn plot_and_presets_refuse_the_flags_of_the_live_view_and_of_json() {
    let _cores = crate::common::busy();
    let plot = ["plot", "puzzles/none.csv", "-o", "none.svg"];
    for (command, args) in [("plot", &plot[..]), ("presets", &["presets"][..])] {
        for flag in [
            &["--headless"][..],
            &["--fps", "5"],
            &["--speed", "full"],
            &["--ascii"],
            &["--unicode"],
            &["--once"],
            &["--record", "x.cast"],
        ] {
            refused(
                &[args, flag].concat(),
                &format!("kiln: {}: `kiln {command}` has no live view", flag[0]),
            );
        }
    }
    // Without them, presets lists and plot reads its files.
    assert!(kiln(&["presets"]).status.success());
    refused(&plot, "kiln: puzzles/none.csv: cannot read");
}

#[test]
fn flags_the_run_would_ignore_are_refused() {
    let cases: [(&[&str], &str); 14] = [
        // The schedule in effect is the problem's default unless --schedule is given.
        (
            &["sudoku", "--alpha", "0.9"],
            "kiln: --alpha applies only to --schedule geometric, and this run's schedule is constant",
        ),
        (
            &["tsp", "--k", "0.1"],
            "kiln: --k applies only to --schedule lundy-mees, and this run's schedule is exponential",
        ),
        (
            &["image", "--schedule", "geometric", "--t-min", "0.1"],
            "kiln: --t-min applies only to the linear and exponential schedules",
        ),
        (
            &["sudoku", "--preset", "lundy", "--t-min", "0.1"],
            "kiln: --t-min applies only to the linear and exponential schedules, and this run's schedule is lundy-mees",
        ),
        (
            &["image", "--auto-acceptance", "0.5"],
            "kiln: --auto-acceptance applies only with --t0 auto",
        ),
        (
            &["tsp", "--stall", "1000"],
            "kiln: --stall needs --on-stall restart or reheat",
        ),
        (
            &["tsp", "--kick-share", "0.5", "--no-polish"],
            "kiln: --kick-share cannot be used with --no-polish",
        ),
        (
            &["tsp", "--moves", "swap", "--ils", "--kick-share", "0.5"],
            "kiln: --ils applies only to --moves two-opt",
        ),
        (
            &["tsp", "--ils", "--no-polish"],
            "kiln: --ils cannot be used with --no-polish",
        ),
        (
            &["sudoku", "--preset", "ga", "--t0", "0.3"],
            "kiln: --t0 does not apply to --preset ga",
        ),
        (
            &[
                "sudoku",
                "--preset",
                "reheat",
                "--stall",
                "100",
                "--on-stall",
                "nothing",
            ],
            "kiln: --stall needs --on-stall restart or reheat",
        ),
        // Only the live view has a pace, and moves on by itself.
        (
            &["sudoku", "--speed", "100"],
            "kiln: --speed: only the live view has a pace",
        ),
        (
            &["sudoku", "--once"],
            "kiln: --once: only the live view moves on",
        ),
        (
            &["sudoku", "--record", "x.cast"],
            "kiln: --record: only the live view is recorded, and this run is headless",
        ),
    ];
    for (args, message) in cases {
        refused(&[args, &["--headless"]].concat(), message);
    }
    // Where the flags are used, they are accepted.
    let used: [&[&str]; 7] = [
        &["sudoku", "--schedule", "geometric", "--alpha", "0.9999"],
        // Every preset runs as many chains as asked, and the box-swap ones take a focus.
        &["sudoku", "--preset", "kiln", "--threads", "2"],
        &["sudoku", "--preset", "reheat", "--focus", "0.5"],
        &["sudoku", "--preset", "yarpiz", "--alpha", "0.98"],
        &["sudoku", "--preset", "cell-linear", "--t-min", "0.01"],
        &["image", "--t0", "auto", "--auto-acceptance", "0.5"],
        &["tsp", "--random", "50", "--ils", "--kick-share", "0.5"],
    ];
    for args in used {
        let output = kiln(&[args, &["--time-limit", "0.2", "--headless"]].concat());
        assert!(
            output.status.code().is_some_and(|c| c <= 1),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

/// Issue 33: a stated optimum longer than a tour kiln has seen is no target: the run goes
/// on to its limit (and says the optimum is wrong) instead of stopping at "optimum".
/// A step budget, not a time limit: a run may land on the stated length exactly, and then
/// stopping is right, so only a run known to pass below it without landing on it can show
/// the rule (time-limited runs landed on 53,000 exactly on 2 seeds of 30).
#[test]
fn an_optimum_above_a_tour_seen_does_not_stop_the_run() {
    let _cores = crate::common::busy();
    for (file, optimum) in [("puzzles/tsp/pcb442.tsp", "53000"), (BERLIN, "10000")] {
        let args = [
            "tsp",
            file,
            "--optimum",
            optimum,
            "--max-steps",
            "3000000",
            "--seed",
            "1",
            "--headless",
        ];
        let output = kiln(&args);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            stderr(&output)
        );
        let line = &lines(&output)[0];
        assert_eq!(line["stop"], "steps", "{args:?}: {line}");
        assert!(line["length"].as_f64().unwrap() < optimum.parse().unwrap());
        assert!(
            stderr(&output).contains(&format!("shorter than the optimum {optimum}")),
            "{}",
            stderr(&output)
        );
    }
    // A right optimum still ends the run when it is reached.
    let output = kiln(&["tsp", BERLIN, "--time-limit", "5", "--headless"]);
    assert_eq!(lines(&output)[0]["stop"], "optimum");
}
