//! Every parser, fed generated and mutated input: no panic, and every error is one line that
//! names the file and shows no raw control character (text from a file must never drive the
//! user's terminal). The cases are a fixed number per parser, from proptest's seed, so the
//! suite stays quick; `PROPTEST_CASES=100000 cargo test --release --test fuzz_inputs` digs
//! deeper.

use proptest::prelude::*;

use kiln::input::InputError;
use kiln::problems::image::{file, kernel};
use kiln::problems::sudoku;
use kiln::problems::tsp::{tour_file, tsplib};

const SOURCE: &str = "fuzzed.in";
const CASES: u32 = 1500;

const SUDOKU_LINE: &str = include_str!("../../puzzles/sudoku/hardest11.txt");
const SUDOKU_GRID: &str = include_str!("../../puzzles/sudoku/grid_format.txt");
const TSPLIB: &str = include_str!("../../puzzles/tsp/berlin52.tsp");
const TOUR: &str = include_str!("../../puzzles/tsp/berlin52.opt.tour");
const PBM: &[u8] = include_bytes!("../../puzzles/image/toy_4x5_noisy.pbm");
const KERNEL: &str = include_str!("../../puzzles/kernels/ring3.json");

/// A PNG of the toy image, made by kiln's own writer.
fn png() -> Vec<u8> {
    let image = file::parse(PBM, "toy").unwrap();
    kiln::problems::image::png::write(&image).unwrap()
}

/// An error a person can read: one line, naming the file, nothing that steers a terminal.
fn readable(error: &InputError) -> Result<(), TestCaseError> {
    let text = format!("kiln: {error}");
    prop_assert!(!text.contains('\n'), "more than one line: {text:?}");
    prop_assert!(text.contains(SOURCE), "does not name the file: {text:?}");
    prop_assert!(
        !text.chars().any(|c| c.is_control()),
        "a raw control character: {text:?}"
    );
    Ok(())
}

/// `seed` with a few bytes changed, inserted, deleted or cut off, or plain noise.
fn mutated(seed: &'static [u8]) -> impl Strategy<Value = Vec<u8>> {
    let edits = prop::collection::vec((0usize..usize::MAX, any::<u8>(), 0u8..4), 1..8);
    let edited = edits.prop_map(move |edits| {
        let mut bytes = seed.to_vec();
        for (at, byte, kind) in edits {
            let i = at % (bytes.len() + 1);
            match kind {
                0 if i < bytes.len() => bytes[i] = byte,
                1 => bytes.insert(i, byte),
                2 if i < bytes.len() => {
                    bytes.remove(i);
                }
                _ => bytes.truncate(i),
            }
        }
        bytes
    });
    prop_oneof![
        4 => edited,
        1 => prop::collection::vec(any::<u8>(), 0..300),
    ]
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: CASES, ..ProptestConfig::default() })]

    #[test]
    fn sudoku_lines(bytes in mutated(SUDOKU_LINE.as_bytes())) {
        if let Err(e) = sudoku::parse_puzzles(&text(&bytes), SOURCE) {
            readable(&e)?;
        }
    }

    #[test]
    fn sudoku_grids(bytes in mutated(SUDOKU_GRID.as_bytes())) {
        if let Err(e) = sudoku::parse_puzzles(&text(&bytes), SOURCE) {
            readable(&e)?;
        }
    }

    #[test]
    fn tsplib_files(bytes in mutated(TSPLIB.as_bytes())) {
        if let Err(e) = tsplib::parse(&text(&bytes), SOURCE) {
            readable(&e)?;
        }
    }

    #[test]
    fn tour_files(bytes in mutated(TOUR.as_bytes())) {
        if let Err(e) = tour_file::parse(&text(&bytes), SOURCE, 52) {
            readable(&e)?;
        }
    }

    #[test]
    fn pbm_files(bytes in mutated(PBM)) {
        if let Err(e) = file::parse(&bytes, SOURCE) {
            readable(&e)?;
        }
    }

    #[test]
    fn kernel_files(bytes in mutated(KERNEL.as_bytes())) {
        if let Err(e) = kernel::parse(&text(&bytes), SOURCE, "fuzzed") {
            readable(&e)?;
        }
    }
}

proptest! {
    // PNG decoding is the slow one: fewer cases.
    #![proptest_config(ProptestConfig { cases: CASES / 5, ..ProptestConfig::default() })]

    #[test]
    fn png_files(edits in prop::collection::vec((0usize..usize::MAX, any::<u8>()), 1..6)) {
        let mut bytes = png();
        for (at, byte) in edits {
            let i = at % bytes.len();
            bytes[i] = byte;
        }
        if let Err(e) = file::parse(&bytes, SOURCE) {
            readable(&e)?;
        }
    }
}

#[test]
fn the_seeds_parse() {
    sudoku::parse_puzzles(SUDOKU_LINE, SOURCE).unwrap();
    sudoku::parse_puzzles(SUDOKU_GRID, SOURCE).unwrap();
    tsplib::parse(TSPLIB, SOURCE).unwrap();
    tour_file::parse(TOUR, SOURCE, 52).unwrap();
    file::parse(PBM, SOURCE).unwrap();
    file::parse(&png(), SOURCE).unwrap();
    kernel::parse(KERNEL, SOURCE, "ring3").unwrap();
}
