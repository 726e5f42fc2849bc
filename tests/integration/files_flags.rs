//! Files and flags (issue 22): every mistake ends as one short line, `kiln: WHERE: WHY`,
//! and exit code 2, or does what docs/limits.md says.

use std::process::Output;

use crate::common::kiln;
use crate::common::scratch::scratch;

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Exit code 2 and exactly `expected` as the one line on stderr.
fn refused_with(args: &[&str], expected: &str) {
    let output = kiln(args);
    assert_eq!(
        output.status.code(),
        Some(2),
        "{args:?}: {}",
        stderr(&output)
    );
    assert_eq!(stderr(&output), format!("{expected}\n"), "{args:?}");
    assert!(output.stdout.is_empty(), "{args:?}: refused before any run");
}

#[test]
fn a_huge_line_is_quoted_in_part() {
    let _cores = crate::common::busy();
    let dir = scratch("huge-line");
    let long = "x".repeat(1 << 20);
    let digits = "9".repeat(1 << 20);
    let cases = [
        (
            "first.tsp",
            format!("{long}\n"),
            &["tsp"][..],
            format!(
                "first.tsp:1:1: expected 'KEY : value', found '{}...'",
                &long[..40]
            ),
        ),
        (
            "city.tsp",
            format!("NODE_COORD_SECTION\n1 {digits} 2\n"),
            &["tsp"],
            format!(
                "city.tsp:2:3: expected 'id x y', found '1 {}...'",
                &digits[..38]
            ),
        ),
        (
            "grid.txt",
            format!("1 2 3 4\n1 2 3 4\n1 2 3 4\n1 2 3 {digits}\n"),
            &["sudoku"],
            format!(
                "grid.txt:4:7: bad number '{}...': expected 1-4, or 0 or -1 for empty",
                &digits[..40]
            ),
        ),
        (
            "a.tour",
            format!("TOUR_SECTION\n{digits}\n"),
            &["tsp", "puzzles/tsp/berlin52.tsp", "--tour"],
            format!(
                "a.tour:2:1: '{}...' is not a city id in 1..=52",
                &digits[..40]
            ),
        ),
    ];
    for (name, text, command, expected) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let mut args = command.to_vec();
        args.extend([path.to_str().unwrap(), "--headless"]);
        refused_with(
            &args,
            &format!("kiln: {}/{expected}", dir.to_str().unwrap()),
        );
    }
}

/// Every city of a tour line exactly once.
fn a_valid_tour(line: &serde_json::Value) -> bool {
    let n = line["n"].as_u64().unwrap();
    let mut tour: Vec<u64> = line["tour"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    tour.sort_unstable();
    tour == (1..=n).collect::<Vec<u64>>()
}

#[test]
fn a_million_cities_in_a_second_still_give_a_tour() {
    // How long it takes is measured in docs/limits.md, not here: only that the setup's
    // cheaper path still ends in a valid line.
    let _cores = crate::common::busy();
    let output = kiln(&[
        "tsp",
        "--random",
        "1000000",
        "--time-limit",
        "1",
        "--headless",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let lines = crate::common::lines(&output);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["n"], 1_000_000);
    assert!(a_valid_tour(&lines[0]));
}

#[test]
fn an_empty_shard_is_refused() {
    let _cores = crate::common::busy();
    refused_with(
        &[
            "sudoku",
            "puzzles/sudoku/easy20.txt",
            "--headless",
            "--shard",
            "21/30",
        ],
        "kiln: --shard 21/30: puzzles/sudoku/easy20.txt holds 20 puzzles, so this shard is empty",
    );
    refused_with(
        &[
            "sudoku",
            "puzzles/sudoku/easy20.txt",
            "--headless",
            "--index",
            "3",
            "--seeds",
            "1..2",
            "--shard",
            "3/3",
        ],
        "kiln: --shard 3/3: --index 3 picks 1 puzzle and --seeds gives 2 seeds, so this shard \
         is empty",
    );
    refused_with(
        &["tsp", "--headless", "--shard", "2/2"],
        "kiln: --shard 2/2: without --seeds there is one run, so this shard is empty",
    );
    refused_with(
        &["image", "--headless", "--seeds", "1..2", "--shard", "3/4"],
        "kiln: --shard 3/4: --seeds gives 2 seeds, so this shard is empty",
    );
    // The last shard that holds a puzzle still runs.
    let output = kiln(&[
        "sudoku",
        "puzzles/sudoku/easy20.txt",
        "--headless",
        "--shard",
        "20/30",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        crate::common::lines(&output)[0]["source"],
        "puzzles/sudoku/easy20.txt:20"
    );
}

#[test]
fn a_sudoku_output_that_cannot_be_written_is_reported_in_the_line() {
    let _cores = crate::common::busy();
    for (shard, puzzles) in [("1/20", 1), ("1/10", 2)] {
        let output = kiln(&[
            "sudoku",
            "puzzles/sudoku/easy20.txt",
            "--headless",
            "--shard",
            shard,
            "--output",
            "/dev/full",
        ]);
        assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
        let lines = crate::common::lines(&output);
        assert_eq!(lines.len(), puzzles);
        let (last, before) = lines.split_last().unwrap();
        assert!(
            last["output_error"].as_str().unwrap().contains("/dev/full"),
            "{last}"
        );
        assert!(before.iter().all(|line| line.get("output_error").is_none()));
        assert!(
            stderr(&output).contains("not written"),
            "{}",
            stderr(&output)
        );
    }
}

#[test]
fn a_plain_pbm_after_a_byte_order_mark_is_read() {
    let _cores = crate::common::busy();
    let dir = scratch("bom-pbm");
    let mut text = "\u{feff}P1\n8 8\n".to_string();
    for y in 0..8 {
        let row: Vec<&str> = (0..8)
            .map(|x| if (x + y) % 3 == 0 { "1" } else { "0" })
            .collect();
        text += &(row.join(" ") + "\n");
    }
    let path = dir.join("bom.pbm");
    std::fs::write(&path, text).unwrap();
    let output = kiln(&[
        "image",
        path.to_str().unwrap(),
        "--kernel",
        "n4",
        "--max-steps",
        "1000",
        "--headless",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let lines = crate::common::lines(&output);
    assert_eq!(
        (lines[0]["width"].as_u64(), lines[0]["height"].as_u64()),
        (Some(8), Some(8))
    );
}

#[test]
fn stdin_is_given_to_one_input_only() {
    let _cores = crate::common::busy();
    refused_with(
        &["tsp", "-", "--tour", "-", "--headless"],
        "kiln: --tour -: standard input is already the cities file; give the tour as a file",
    );
    refused_with(
        &["image", "-", "--denoise", "--clean", "-", "--headless"],
        "kiln: --clean -: standard input is already the image; give the clean image as a file",
    );
}

/// Exit code 2 and one line on stderr that starts with `start`.
fn refused_starting(args: &[&str], start: &str) -> String {
    let output = kiln(args);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {text}");
    assert!(text.starts_with(start), "{args:?}: {text}");
    assert_eq!(text.lines().count(), 1, "{args:?}: {text}");
    text
}

#[test]
fn flags_a_run_would_ignore_are_refused() {
    let _cores = crate::common::busy();
    let dir = scratch("ignored");
    refused_with(
        &["tsp", "puzzles/tsp/berlin52.tsp", "--layout", "clustered"],
        "kiln: --layout applies only to --random, not to the cities of a file",
    );
    refused_with(
        &["image", "--denoise", "--density", "0.4", "--headless"],
        "kiln: --denoise cannot be used with --density",
    );
    // A tour of another instance, though every id in it is one of berlin52's.
    for dimension in ["51", "4294967296"] {
        let tour = dir.join(format!("d{dimension}.tour"));
        let ids: Vec<String> = (1..=52).map(|i| i.to_string()).collect();
        let text = format!(
            "TYPE: TOUR\nDIMENSION: {dimension}\nTOUR_SECTION\n{}\n-1\n",
            ids.join("\n")
        );
        std::fs::write(&tour, text).unwrap();
        let tour = tour.to_str().unwrap();
        refused_with(
            &[
                "tsp",
                "puzzles/tsp/berlin52.tsp",
                "--tour",
                tour,
                "--headless",
            ],
            &format!("kiln: {tour}:2: DIMENSION '{dimension}' is not the instance's 52 cities"),
        );
    }
}

#[test]
fn runs_that_cannot_fit_their_memory_or_time_are_refused() {
    let _cores = crate::common::busy();
    refused_starting(
        &[
            "sudoku",
            "puzzles/sudoku/minimal25.txt",
            "--index",
            "1",
            "--preset",
            "ga",
            "--threads",
            "64",
            "--population",
            "20000",
            "--time-limit",
            "2",
            "--headless",
        ],
        "kiln: --population 20000 on 64 threads holds 2560000 candidate 25x25 grids",
    );
    refused_starting(
        &[
            "tsp",
            "--random",
            "1000000",
            "--neighbours",
            "100",
            "--time-limit",
            "1",
            "--headless",
        ],
        "kiln: --neighbours 100 for 1000000 cities makes 100000000 candidates",
    );
    refused_starting(
        &[
            "tsp",
            "--random",
            "1000000",
            "--time-limit",
            "0.05",
            "--headless",
        ],
        "kiln: --time-limit 0.05 is too short for 1000000 cities",
    );
    // Building a 4096x4096 pattern took 0.45-0.5 s, and a limit of 0.3 s ran for 0.87 s;
    // denoising's setup takes 0.17 s.
    refused_starting(
        &[
            "image",
            "--size",
            "4096x4096",
            "--time-limit",
            "0.3",
            "--headless",
        ],
        "kiln: --time-limit 0.3 is too short for a 4096x4096 image: setting it up takes \
         about 0.50 s",
    );
    refused_starting(
        &[
            "image",
            "--denoise",
            "--size",
            "4096x4096",
            "--time-limit",
            "0.1",
            "--headless",
        ],
        "kiln: --time-limit 0.1 is too short for a 4096x4096 image",
    );
}

#[test]
fn a_kernel_file_is_bounded_and_its_far_offset_named() {
    let _cores = crate::common::busy();
    let dir = scratch("kernels");
    // One offset 200,000 times (2.2 MB): parsed whole, it took 22 times the file.
    let repeated = dir.join("repeated.json");
    let entries = vec!["[0, 1, 1]"; 200_000].join(",");
    std::fs::write(&repeated, format!("{{\"offsets\": [{entries}]}}")).unwrap();
    let repeated = repeated.to_str().unwrap();
    refused_with(
        &["image", "--kernel", repeated, "--headless"],
        &format!("kiln: {repeated}: larger than 1024 KiB, the most such a file holds"),
    );
    let far = dir.join("far.json");
    std::fs::write(&far, r#"{"offsets": [[0, 1, 1], [0, 33, 1]]}"#).unwrap();
    let far = far.to_str().unwrap();
    refused_with(
        &["image", "--kernel", far, "--headless"],
        &format!(
            "kiln: {far}: offsets[1]: offset (0, 33) is too far (at most 32 in each direction)"
        ),
    );
}

#[test]
fn error_lines_quote_values_in_part() {
    let _cores = crate::common::busy();
    let dir = scratch("quoted");
    let digits = "9".repeat(100_000);
    for args in [
        &["tsp", "--random", &digits][..],
        &["tsp", "--layout", &digits],
        &["sudoku", "--seeds", &digits],
        &["image", "--size", &digits],
        &["sudoku", "--time-limit", &digits],
    ] {
        let text = refused_starting(args, "kiln: ");
        assert!(text.len() < 200, "{args:?}: {} bytes", text.len());
        assert!(text.contains(&format!("{}...", &digits[..40])), "{text}");
    }
    // A trace's time of 1e300 seconds, quoted as written rather than in 301 digits.
    let trace = dir.join("t.csv");
    std::fs::write(
        &trace,
        "step,seconds,temperature,energy,best_energy,acceptance,restarts,reheats\n0,1e300,1,1,1,0,0,0\n",
    )
    .unwrap();
    let trace = trace.to_str().unwrap();
    let png = dir.join("t.png");
    refused_with(
        &["plot", trace, "--output", png.to_str().unwrap()],
        &format!("kiln: {trace}:2: seconds: '1e300' is not a time in seconds"),
    );
}
