//! `--output` writes what its extension names, for every problem, and refuses what it
//! cannot write before anything runs: TSP `.tour`/`.png`/`.svg`, images `.pbm`/`.png`,
//! Sudoku `.txt`/`.png`/`.svg`.

use std::fs;
use std::path::Path;
use std::process::Output;

use kiln::problems::sudoku::{is_valid_solution, parse_puzzles};
use kiln::problems::{image, tsp};

use crate::common::scratch::scratch;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A short headless run of `args` writing `--output path`.
fn run(args: &[&str], path: &Path) -> Output {
    let mut all = args.to_vec();
    all.extend(["--headless", "--quiet", "--output", path.to_str().unwrap()]);
    crate::common::kiln(&all)
}

fn ok(out: &Output) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}

fn is_png(path: &Path) -> (u32, u32) {
    let picture = ::image::open(path).unwrap();
    (picture.width(), picture.height())
}

fn is_svg(path: &Path) {
    let text = fs::read_to_string(path).unwrap();
    assert!(
        text.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{text}"
    );
    assert!(text.trim_end().ends_with("</svg>"));
}

#[test]
fn tsp_writes_a_tour_file_or_a_picture() {
    let _cores = crate::common::busy();
    let dir = scratch("tsp");
    let reference = format!("{ROOT}/puzzles/tsp/berlin52.opt.tour");
    let args = ["tsp", "--tour", &reference, "--max-steps", "20000"];
    for name in ["best.tour", "best", "best.png", "best.SVG"] {
        let path = dir.join(name);
        ok(&run(&args, &path));
        match name {
            "best.png" => assert_eq!(is_png(&path).0, 801),
            "best.SVG" => {
                is_svg(&path);
                let text = fs::read_to_string(&path).unwrap();
                assert_eq!(text.matches("<circle").count(), 52, "a dot per city");
                assert!(text.contains("stroke-dasharray"), "the reference, dashed");
            }
            _ => {
                let text = fs::read_to_string(&path).unwrap();
                let tour = tsp::tour_file::parse(&text, name, 52).unwrap();
                assert_eq!(tour.len(), 52);
            }
        }
    }
}

#[test]
fn images_are_written_as_pbm_or_png() {
    let _cores = crate::common::busy();
    let dir = scratch("image");
    let args = ["image", "--size", "24x16", "--max-steps", "20000"];
    for name in ["best.pbm", "best", "best.Png"] {
        let path = dir.join(name);
        ok(&run(&args, &path));
        let written = image::file::load(&path).unwrap();
        assert_eq!((written.width, written.height), (24, 16));
        let bytes = fs::read(&path).unwrap();
        let magic: &[u8] = if name.ends_with("Png") {
            b"\x89PNG"
        } else {
            b"P4\n"
        };
        assert!(bytes.starts_with(magic), "{name}");
    }
}

#[test]
fn sudoku_writes_one_solution_line_per_puzzle_in_input_order() {
    let _cores = crate::common::busy();
    let dir = scratch("sudoku-txt");
    let text = fs::read_to_string(format!("{ROOT}/puzzles/sudoku/easy20.txt")).unwrap();
    let three: String = text.lines().take(3).map(|l| format!("{l}\n")).collect();
    let input = dir.join("three.txt");
    fs::write(&input, &three).unwrap();
    let puzzles = parse_puzzles(&three, "three.txt").unwrap();
    let path = dir.join("solved.txt");
    ok(&run(
        &["sudoku", input.to_str().unwrap(), "--jobs", "2"],
        &path,
    ));
    let solved = fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = solved.lines().collect();
    assert_eq!(lines.len(), 3, "{solved}");
    for (puzzle, line) in puzzles.iter().zip(lines) {
        let grid = parse_puzzles(line, "solved.txt").unwrap().remove(0);
        assert!(is_valid_solution(puzzle, &grid.cells), "{line}");
    }
    // Never over a file without --force.
    let again = run(&["sudoku", input.to_str().unwrap()], &path);
    assert_eq!(again.status.code(), Some(2));
    assert!(again.stdout.is_empty(), "refused before the run");
    assert_eq!(fs::read_to_string(&path).unwrap(), solved);
}

#[test]
fn a_sudoku_picture_is_of_one_puzzle() {
    let _cores = crate::common::busy();
    let dir = scratch("sudoku-picture");
    let file = format!("{ROOT}/puzzles/sudoku/easy20.txt");
    let several = run(&["sudoku", &file], &dir.join("all.png"));
    assert_eq!(several.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&several.stderr);
    assert!(stderr.contains("choose one with --index"), "{stderr}");
    assert!(several.stdout.is_empty(), "refused before the run");
    let png = dir.join("two.png");
    ok(&run(&["sudoku", &file, "--index", "2"], &png));
    assert_eq!(is_png(&png), (445, 445));
    let svg = dir.join("two.svg");
    ok(&run(&["sudoku", &file, "--index", "2"], &svg));
    is_svg(&svg);
}

#[test]
fn an_extension_a_problem_cannot_write_is_refused_in_one_line() {
    let _cores = crate::common::busy();
    let dir = scratch("refused");
    let cases = [
        (
            &["tsp"][..],
            "t.jpg",
            ".jpg for tsp (use .tour, .png or .svg)",
        ),
        (
            &["image", "--size", "8x8"][..],
            "i.svg",
            ".svg for image (use .pbm or .png)",
        ),
        (
            &["sudoku"][..],
            "s.tour",
            ".tour for sudoku (use .txt, .png or .svg)",
        ),
    ];
    for (args, name, why) in cases {
        let out = run(args, &dir.join(name));
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!("kiln: --output: cannot write {why}\n")
        );
        assert!(out.stdout.is_empty());
    }
    // Refused with the command line, before the view opens, as in a headless run.
    let live = crate::common::kiln(&["tsp", "--output", dir.join("t.gif").to_str().unwrap()]);
    assert_eq!(live.status.code(), Some(2));
    let seeds = run(&["sudoku", "--seeds", "2"], &dir.join("s.txt"));
    assert_eq!(seeds.status.code(), Some(2), "--output with --seeds");
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 0, "nothing written");
}
