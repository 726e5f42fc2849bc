//! End to end: the built binary with --headless on the shipped files, its JSON checked.

use std::process::Output;

use serde_json::Value;

use crate::common::kiln;

/// `kiln image` with `args`, headless.
fn headless(args: &[&str]) -> Output {
    kiln(&[&["image"], args, &["--headless"]].concat())
}

fn json(args: &[&str]) -> Value {
    let out = headless(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    serde_json::from_str(&stdout).unwrap()
}

#[test]
fn default_run_is_a_256_pattern_with_the_8_16_kernel() {
    let _cores = crate::common::busy();
    let v = json(&["--max-steps", "200000"]);
    assert_eq!(v["problem"], "image");
    assert_eq!(v["mode"], "pattern");
    assert_eq!(v["kernel"], "8-16");
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(256), Some(256))
    );
    assert_eq!(v["black_pixels"], 19661); // round(0.3 * 65536)
    assert_eq!(v["seed"], 1);
    assert!(v["energy"].as_f64().unwrap() < v["initial_energy"].as_f64().unwrap());
    assert!(v["iterations"].as_u64().unwrap() >= 200_000);
    assert!(v["pixel_error"].is_null() && v["output"].is_null());
    assert!(v["seconds"].as_f64().unwrap() > 0.0);
}

#[test]
fn the_same_seed_gives_the_same_pattern() {
    let _cores = crate::common::busy();
    let run = |seed: &str| {
        json(&[
            "--size",
            "40x30",
            "--density",
            "0.1",
            "--kernel",
            "n8",
            "--seed",
            seed,
            "--max-steps",
            "50000",
        ])["energy"]
            .clone()
    };
    assert_eq!(run("3"), run("3"));
}

#[test]
fn denoising_the_toy_reaches_every_exact_minimum() {
    let _cores = crate::common::busy();
    let truth: Value = serde_json::from_str(
        &std::fs::read_to_string("puzzles/image/ground_truth_slice.json").unwrap(),
    )
    .unwrap();
    let toy = &truth["instances"][0];
    assert_eq!(toy["name"], "toy_4x5");
    for r in toy["results"].as_array().unwrap() {
        let (n, beta) = (r["neighbourhood"].to_string(), r["beta"].to_string());
        let v = json(&[
            "puzzles/image/toy_4x5_noisy.pbm",
            "--denoise",
            "--neighbourhood",
            &n,
            "--beta",
            &beta,
            "--clean",
            "puzzles/image/toy_4x5_clean.pbm",
            "--max-steps",
            "20000",
        ]);
        assert_eq!(v["mode"], "denoise");
        assert_eq!(v["energy"], r["min_energy"], "n{n} beta {beta}");
        assert!(v["pixel_error"].is_u64());
    }
}

#[test]
fn denoising_shapes_gets_within_a_tenth_of_a_percent() {
    let _cores = crate::common::busy();
    let v = json(&[
        "puzzles/image/shapes_128_noisy.pbm",
        "--denoise",
        "--beta",
        "0.75",
        "--clean",
        "puzzles/image/shapes_128_clean.pbm",
        "--time-limit",
        "0.5",
    ]);
    let ratio = v["energy"].as_f64().unwrap() / 2286.5; // exact minimum, ground_truth_slice
    assert!(ratio <= 1.001, "ratio {ratio}");
    assert!(v["icm_energy"].as_f64().unwrap() < v["initial_energy"].as_f64().unwrap());
    assert!(v["pixel_error"].as_u64().unwrap() < 200);
}

/// n8, beta 1: the exact minimum drops whole shapes. From the ICM start the annealing
/// usually keeps them (about +1.9 %); the multi-scale start has them gone. The final polish
/// (strips and blocks) reaches the minimum from either.
#[test]
fn the_multiscale_start_lets_strong_coupling_drop_whole_shapes() {
    let _cores = crate::common::busy();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "puzzles/image/shapes_128_noisy.pbm",
            "--denoise",
            "--neighbourhood",
            "8",
            "--beta",
            "1.0",
            "--max-steps",
            "15000000",
            // Steps only: the outcome must not depend on the machine's load.
            "--time-limit",
            "100",
            // One run: this is about where it starts, not about fusing rounds.
            "--rounds",
            "1",
        ];
        args.extend_from_slice(extra);
        json(&args)
    };
    let exact = 3745.0; // ground_truth_slice
    let v = run(&[]);
    let ratio = v["energy"].as_f64().unwrap() / exact;
    assert!(ratio <= 1.001, "ratio {ratio}");
    assert!(v["multiscale_energy"].as_f64().unwrap() >= v["energy"].as_f64().unwrap());
    assert!(v["multiscale_seconds"].as_f64().unwrap() > 0.0);
    let without = run(&["--no-multiscale"]);
    assert!(without["multiscale_energy"].is_null());
    let annealed = without["round_energies"][0].as_f64().unwrap();
    assert!(annealed / exact > 1.005, "annealed {annealed}");
    let polished = without["energy"].as_f64().unwrap() / exact;
    assert!(polished <= 1.001, "polished {polished}");
}

#[test]
fn denoising_runs_in_rounds_and_reports_each() {
    let _cores = crate::common::busy();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "puzzles/image/shapes_128_noisy.pbm",
            "--denoise",
            "--max-steps",
            "4000000",
        ];
        args.extend_from_slice(extra);
        json(&args)
    };
    let v = run(&["--rounds", "3"]);
    assert_eq!(v["rounds"], 3);
    assert_eq!(v["restarts"], 2);
    assert_eq!(v["iterations"], 4_000_000);
    let rounds: Vec<f64> = v["round_energies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_f64().unwrap())
        .collect();
    assert_eq!(rounds.len(), 3);
    assert_eq!(v["multiscale_energies"].as_array().unwrap().len(), 3);
    let energy = v["energy"].as_f64().unwrap();
    assert!(rounds.iter().all(|&e| energy <= e), "{v}");
    // 4M steps over 128x128 pixels give 244 per pixel: 4 rounds of at least 60.
    assert_eq!(run(&[])["rounds"], 4);
    let (code, err) = failure(&["--denoise", "--rounds", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("--rounds"), "{err}");
}

#[test]
fn noise_is_added_to_a_clean_input_and_the_output_is_written() {
    let _cores = crate::common::busy();
    let dir = crate::common::scratch::scratch("image-headless");
    let out = dir.join("den.png");
    let v = json(&[
        "puzzles/image/shapes_128_clean.pbm",
        "--denoise",
        "--noise",
        "0.1",
        "--beta",
        "0.75",
        "--max-steps",
        "3000000",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert_eq!(v["noise"], 0.1);
    assert_eq!(v["output"], out.to_str().unwrap());
    // Pixel error counts against the clean input: far below the ~1600 flipped pixels.
    assert!(v["pixel_error"].as_u64().unwrap() < 400, "{v}");
    let written = kiln::problems::image::file::load(&out).unwrap();
    assert_eq!((written.width, written.height), (128, 128));
}

#[test]
fn without_a_file_denoising_cleans_the_built_in_shapes_at_the_given_size() {
    let _cores = crate::common::busy();
    let v = json(&["--denoise", "--size", "96x64", "--max-steps", "2000000"]);
    assert_eq!(v["source"], "shapes 96x64");
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(96), Some(64))
    );
    assert_eq!(v["noise"], 0.1);
    // About 600 pixels are flipped; denoising leaves a few along the edges.
    assert!(v["pixel_error"].as_u64().unwrap() < 250, "{v}");
    let native = json(&["--denoise", "--max-steps", "100000"]);
    assert_eq!(native["source"], "shapes 128x128");
}

#[test]
fn custom_kernels_and_free_edges_run() {
    let _cores = crate::common::busy();
    let v = json(&[
        "--size",
        "64x48",
        "--kernel",
        "puzzles/kernels/ring3.json",
        "--edges",
        "free",
        "--max-steps",
        "100000",
    ]);
    assert_eq!(v["kernel"], "ring3");
    assert_eq!(v["edges"], "free");
}

fn failure(args: &[&str]) -> (i32, String) {
    let out = headless(args);
    assert!(out.stdout.is_empty());
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn bad_input_exits_with_code_2_and_one_line() {
    let _cores = crate::common::busy();
    let cases: &[(&[&str], &str)] = &[
        (
            &["puzzles/image/missing.pbm"],
            "kiln: puzzles/image/missing.pbm: cannot read: ",
        ),
        (
            &["--kernel", "n5"],
            "kiln: --kernel: unknown kernel 'n5' (n4, n8, 8-16, maze, dots or stripes, optionally with -attract or -repel, or a .json file)",
        ),
        (
            &["--size", "3x3"],
            "kiln: random 3x3 d=0.3: kernel 8-16 spans 5x5 pixels, more than the 3x3 image: with wrapped edges its offsets would alias (use a larger image or --edges free)",
        ),
        (
            &[
                "puzzles/image/toy_4x5_noisy.pbm",
                "--denoise",
                "--clean",
                "puzzles/image/shapes_128_clean.pbm",
            ],
            "kiln: puzzles/image/shapes_128_clean.pbm: clean image is 128x128 but the input is 5x4",
        ),
    ];
    for (args, expected) in cases {
        let (code, stderr) = failure(args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.starts_with(expected), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

#[test]
fn bad_kernel_files_name_the_problem() {
    let _cores = crate::common::busy();
    let dir = crate::common::scratch::scratch("image-kernels");
    let cases = [
        (
            "syntax",
            "[[0, 1, -1],\n oops]",
            ":2:2: bad JSON: expected value",
        ),
        (
            "asym",
            "[[0, 1, -1], [0, -1, 2]]",
            ": kernel is not symmetric: w(0, 1) = -1 but w(0, -1) = 2",
        ),
        (
            "centre",
            "{\"matrix\": [[1,1,1],[1,0,1],[1,1,1]]}",
            ": matrix centre must be the string \"x\" (the pixel itself)",
        ),
        (
            "even",
            "{\"matrix\": [[1,1],[1,1]]}",
            ": matrix must be square with an odd side of at most 65, found 2 rows",
        ),
        (
            "self",
            "[[0, 0, 1]]",
            ": offset (0, 0) is the pixel itself and cannot have a weight",
        ),
        (
            "twice",
            "[[0, 1, 1], [0, 1, 1]]",
            ": offset (0, 1) is given twice",
        ),
        (
            "shape",
            "[[0, 1]]",
            ": offsets[0]: expected [dy, dx, weight] with integer dy, dx",
        ),
    ];
    for (name, text, expected) in cases {
        let path = dir.join(format!("{name}.json"));
        std::fs::write(&path, text).unwrap();
        let (code, stderr) = failure(&["--kernel", path.to_str().unwrap()]);
        assert_eq!(code, 2, "{stderr}");
        assert_eq!(
            stderr.trim_end(),
            format!("kiln: {}{expected}", path.display())
        );
    }
}
