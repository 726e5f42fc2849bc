//! End to end: `--trace FILE` on headless runs and races, and `kiln plot` on the traces.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::scratch::scratch;
use crate::common::{kiln, lines};
use kiln::search::{Phase, trace};

fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn run_ok(args: &[&str]) -> std::process::Output {
    let out = kiln(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn read(path: &Path) -> Vec<kiln::search::Sample> {
    let text = std::fs::read_to_string(path).unwrap();
    trace::parse(&text, arg(path)).unwrap()
}

#[test]
fn an_image_run_of_a_hundred_million_steps_traces_first_last_and_bests() {
    let _cores = crate::common::busy();
    let dir = scratch("image");
    let file = dir.join("pattern.csv");
    let out = run_ok(&[
        "image",
        "--headless",
        "--size",
        "64x64",
        "--max-steps",
        "100000000",
        "--trace",
        arg(&file),
    ]);
    let report = &lines(&out)[0];
    let rows = read(&file);
    // 6100 samples of 2^14 steps: every one of the first 512, then thinned.
    assert!(rows.len() < 3000, "{} rows", rows.len());
    assert!(std::fs::metadata(&file).unwrap().len() < 200_000);
    assert_eq!(rows[0].iteration, 0);
    let last = rows.last().unwrap();
    assert_eq!(last.iteration, report["iterations"].as_u64().unwrap());
    assert_eq!(last.best_energy, report["energy"].as_f64().unwrap());
    // Rows are in order and the best column never rises.
    for pair in rows.windows(2) {
        assert!(pair[0].iteration < pair[1].iteration);
        assert!(pair[1].best_energy <= pair[0].best_energy);
    }
}

#[test]
fn a_short_run_leaves_enough_rows_to_show_its_shape_and_a_constant_t_is_labelled() {
    let dir = scratch("short");
    let (file, picture) = (dir.join("s.csv"), dir.join("s.svg"));
    // 389,482 steps, which once made two rows (one batch of 2^20 steps).
    let out = run_ok(&[
        "sudoku",
        "puzzles/sudoku/hardest11.txt",
        "--index",
        "6",
        "--no-propagate",
        "--headless",
        "--trace",
        arg(&file),
    ]);
    let steps = lines(&out)[0]["iterations"].as_u64().unwrap();
    let rows = read(&file);
    let batch = trace::FIRST_TRACED_BATCH;
    assert!(
        rows.len() as u64 >= steps / batch,
        "{} rows of {steps} steps",
        rows.len()
    );
    assert!(rows.len() >= 150, "{} rows", rows.len());
    run_ok(&["plot", arg(&file), "--output", arg(&picture)]);
    let svg = std::fs::read_to_string(&picture).unwrap();
    assert!(
        svg.contains("constant T = 0.3"),
        "no label for the constant T"
    );
}

#[test]
fn a_sudoku_file_writes_one_trace_per_puzzle_and_never_overwrites() {
    let _cores = crate::common::busy();
    let dir = scratch("sudoku");
    let file = dir.join("s.csv");
    let args = [
        "sudoku",
        "--headless",
        "puzzles/sudoku/forum_hardest_5.txt",
        "--trace",
        arg(&file),
    ];
    run_ok(&args);
    for n in 1..=5 {
        let rows = read(&dir.join(format!("s-{n}.csv")));
        assert!(rows[0].best_energy > 0.0);
        assert_eq!(rows.last().unwrap().best_energy, 0.0, "puzzle {n} solved");
    }
    let again = kiln(&args);
    assert_eq!(again.status.code(), Some(2));
    let err = String::from_utf8_lossy(&again.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("kiln: --trace: ") && err.contains("already exists"));
}

#[test]
fn a_race_writes_one_trace_per_pane_and_they_plot() {
    let _cores = crate::common::busy();
    let dir = scratch("race");
    let file = dir.join("race.csv");
    run_ok(&[
        "race",
        "--headless",
        "puzzles/sudoku/forum_hardest_5.txt",
        "--index",
        "1",
        "--presets",
        "kiln,ga",
        // kiln solves it in 0.3-0.7 s of the wall clock, which a time limit now is (setup
        // included): room for a busy machine.
        "--time-limit",
        "2",
        "--trace",
        arg(&file),
    ]);
    let panes = [dir.join("race-kiln.csv"), dir.join("race-ga.csv")];
    for pane in &panes {
        assert!(!read(pane).is_empty());
    }
    let svg = dir.join("race.svg");
    run_ok(&[
        "plot",
        arg(&panes[0]),
        arg(&panes[1]),
        "--output",
        arg(&svg),
        "--x",
        "seconds",
    ]);
    let text = std::fs::read_to_string(&svg).unwrap();
    let texts: Vec<&str> = text
        .split("</text>")
        .filter_map(|t| Some(t.rsplit_once('>')?.1.trim()))
        .collect();
    // The legend names the panes by what their files' names do not share, "race-", and
    // the energy panel's caption starts with it.
    for words in ["kiln", "ga", "energy", "temperature"] {
        assert!(texts.contains(&words), "{words} missing from {texts:?}");
    }
    assert!(texts.iter().any(|t| t.starts_with("race: Energy")));
    assert!(texts.iter().any(|t| t.starts_with("seconds")));
}

#[test]
fn plot_draws_images_side_by_side_large_enough_to_read() {
    let _cores = crate::common::busy();
    let dir = scratch("images");
    let (n8, repel) = (dir.join("kernel-n8.pbm"), dir.join("kernel-n8-repel.png"));
    for (kernel, file) in [("n8", &n8), ("n8-repel", &repel)] {
        let size = ["--size", "128x128", "--max-steps", "100000", "--headless"];
        run_ok(
            &[
                &["image", "--kernel", kernel, "--output", arg(file)],
                &size[..],
            ]
            .concat(),
        );
    }
    let figure = dir.join("kernels.png");
    run_ok(&["plot", arg(&n8), arg(&repel), "-o", arg(&figure)]);
    let picture = image::open(&figure).unwrap().to_rgb8();
    // Two 128-pixel images, each pixel a 4x4 square, with room around and for the names.
    assert!(picture.width() >= 2 * 512, "{}", picture.width());
    assert!(picture.height() >= 512, "{}", picture.height());
    let black = picture.pixels().filter(|p| p.0 == [0, 0, 0]).count();
    let image = kiln::problems::image::file::load(&n8).unwrap();
    let repelled = kiln::problems::image::file::load(&repel).unwrap();
    let pixels = image.black_pixels() + repelled.black_pixels();
    // Text is anti-aliased grey, so the black of the figure is the images' black, 16 a pixel.
    assert!(
        black >= 16 * pixels && black < 16 * pixels + 2000,
        "{black} of {pixels}"
    );
    let trace = dir.join("t.csv");
    std::fs::write(&trace, format!("{}\n0,0,1e0,3,3,0,0,0\n", trace::HEADER)).unwrap();
    let out = kiln(&["plot", arg(&n8), arg(&trace), "-o", arg(&figure)]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim(),
        format!(
            "kiln: {}: a trace among images (.pbm, .png): a figure draws traces or images, not both",
            trace.display()
        )
    );
}

#[test]
fn a_race_of_any_flag_traces_each_pane_under_its_name_and_refuses_an_existing_one() {
    let _cores = crate::common::busy();
    let dir = scratch("race-any");
    let file = dir.join("race.csv");
    let args = [
        "race",
        "tsp",
        "--random",
        "60",
        "--moves",
        "swap,two-opt",
        "--layout",
        "uniform,clustered",
        "--max-steps",
        "200000",
        "--headless",
        "--trace",
        arg(&file),
    ];
    run_ok(&args);
    for pane in [
        "swap-uniform",
        "swap-clustered",
        "two-opt-uniform",
        "two-opt-clustered",
    ] {
        let rows = read(&dir.join(format!("race-{pane}.csv")));
        assert_eq!(rows[0].iteration, 0, "{pane}");
        // The whole run: 2-opt goes on with the local search (its last kick may pass the
        // budget by a few thousand evaluations), the swap moves anneal alone.
        let last = rows.last().unwrap();
        let local = pane.starts_with("two-opt");
        assert_eq!(last.phase == Phase::LocalSearch, local, "{pane}");
        assert!(
            last.iteration > 0 && last.iteration <= 200_000 + 50_000 * u64::from(local),
            "{pane}: {}",
            last.iteration
        );
    }
    // One pane's file is there: nothing runs, nothing is written over.
    std::fs::remove_file(dir.join("race-swap-uniform.csv")).unwrap();
    let kept = std::fs::read(dir.join("race-two-opt-clustered.csv")).unwrap();
    let output = kiln(&args);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(
        err.starts_with("kiln: --trace: ")
            && err.contains("race-swap-clustered.csv: already exists"),
        "{err}"
    );
    assert!(!dir.join("race-swap-uniform.csv").exists());
    assert_eq!(
        std::fs::read(dir.join("race-two-opt-clustered.csv")).unwrap(),
        kept
    );
}

#[test]
fn plot_writes_a_png_that_decodes() {
    let _cores = crate::common::busy();
    let dir = scratch("png");
    let file = dir.join("tsp.csv");
    run_ok(&[
        "tsp",
        "--headless",
        "puzzles/tsp/berlin52.tsp",
        "--max-steps",
        "2000000",
        "--trace",
        arg(&file),
    ]);
    let png = dir.join("tsp.png");
    run_ok(&["plot", arg(&file), "-o", arg(&png)]);
    let picture = image::open(&png).unwrap();
    assert_eq!((picture.width(), picture.height()), (1000, 800));
}

#[test]
fn plot_refuses_bad_traces_and_formats_in_one_line() {
    let _cores = crate::common::busy();
    let dir = scratch("bad");
    let bad = dir.join("bad.csv");
    std::fs::write(
        &bad,
        format!("{}\n1,0.5,1e0,3,3,0.5,0,0\n2,x\n", trace::HEADER),
    )
    .unwrap();
    let out = kiln(&["plot", arg(&bad), "-o", arg(&dir.join("f.svg"))]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim(),
        format!(
            "kiln: {}:3: 2 fields, a row has 9 (8 in traces without the phase)",
            bad.display()
        )
    );
    let out = kiln(&["plot", arg(&bad), "-o", arg(&dir.join("f.gif"))]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("can write .svg or .png"));
}

/// `kiln plot TRACE -o OUT`, killed (and the test failed) when it has not ended within
/// `limit`: the way an unplottable trace used to fail was to spin for ever.
fn plot_within(trace: &Path, out: &Path, limit: Duration) -> (Output, Duration) {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_kiln"))
        .args(["plot", arg(trace), "-o", arg(out)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!(
                "kiln plot {} still running after {limit:?}",
                trace.display()
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    (child.wait_with_output().unwrap(), started.elapsed())
}

/// A trace of `rows` written as kiln writes them.
fn write_trace(path: &Path, rows: impl IntoIterator<Item = String>) {
    let mut text = format!("{}\n", trace::HEADER);
    for row in rows {
        text.push_str(&row);
        text.push('\n');
    }
    std::fs::write(path, text).unwrap();
}

#[test]
fn plot_refuses_values_it_cannot_draw_at_their_line_and_at_once() {
    let _cores = crate::common::busy();
    let dir = scratch("unplottable");
    let cases = [
        ("1e0", "inf", "energy: 'inf' is not a finite number"),
        ("1e0", "-inf", "energy: '-inf' is not a finite number"),
        ("NaN", "3", "temperature: 'NaN' is not a finite number"),
        ("-2e-1", "3", "temperature: '-2e-1' is negative"),
        (
            "1e0",
            "1e305",
            "energy: '1e305' is out of range (at most 1e300 either side of 0)",
        ),
    ];
    for (temperature, energy, why) in cases {
        let file = dir.join("t.csv");
        write_trace(
            &file,
            [
                "0,0.0,1e0,5,5,0.5,0,0".to_string(),
                format!("1000,0.1,{temperature},{energy},3,0.5,0,0"),
            ],
        );
        let (out, took) = plot_within(&file, &dir.join("t.svg"), Duration::from_secs(5));
        assert_eq!(out.status.code(), Some(2), "{energy} {temperature}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr).trim_end(),
            format!("kiln: {}:3: {why}", file.display())
        );
        assert!(took < Duration::from_secs(2), "{took:?}");
        assert!(!dir.join("t.svg").exists());
    }
}

#[test]
fn plot_draws_extreme_values_without_spinning() {
    let _cores = crate::common::busy();
    let dir = scratch("extreme");
    // Each pair of rows once sent an axis computation into an endless loop or an
    // allocation without end: log axes spanning past f64::MAX, a linear axis narrower
    // than its values' precision, the largest step there is.
    let cases = [
        [
            "0,0,1e300,1e300,1e300,0,0,0",
            "1,1,1e-300,1e-300,1e-300,0,0,0",
        ],
        ["0,0,1,5e-324,5e-324,0,0,0", "1,1,5e-324,1e300,1e300,0,0,0"],
        [
            "0,0,1,1e17,1e17,0,0,0",
            "1,1,1,100000000000000016,1e17,0,0,0",
        ],
        [
            "0,0,0,-1e300,-1e300,0,0,0",
            "18446744073709551615,1e9,0,1e300,1e300,0,0,0",
        ],
    ];
    for (n, rows) in cases.iter().enumerate() {
        let file = dir.join(format!("extreme-{n}.csv"));
        write_trace(&file, rows.map(String::from));
        let svg = dir.join(format!("extreme-{n}.svg"));
        let (out, _) = plot_within(&file, &svg, Duration::from_secs(10));
        assert!(
            out.status.success(),
            "{rows:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(std::fs::metadata(&svg).unwrap().len() < 100_000, "{rows:?}");
    }
}

#[test]
fn plot_thins_a_long_trace_to_the_width_of_the_figure() {
    let _cores = crate::common::busy();
    let dir = scratch("long");
    let file = dir.join("long.csv");
    // A falling energy with noise and a spike every 10,000 rows, as a long run with restarts.
    let rows = (0..100_000u64).map(|i| {
        let energy = 1e5 * (-(i as f64) / 2e4).exp() + (i * 7919 % 100) as f64;
        let energy = if i % 10_000 == 5_000 { 3e5 } else { energy };
        format!(
            "{},{:.6},{:.6e},{energy},{energy},0.3,0,0",
            i * 1000,
            i as f64 * 1e-4,
            10.0 / (1.0 + i as f64)
        )
    });
    write_trace(&file, rows);
    let svg = dir.join("long.svg");
    let (out, _) = plot_within(&file, &svg, Duration::from_secs(30));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Every row drawn made 2.1 MB; at most 4 points per pixel column and line, 0.14 MB.
    let size = std::fs::metadata(&svg).unwrap().len();
    assert!(size < 300_000, "{size} bytes");
}
