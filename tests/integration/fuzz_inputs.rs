//! Every parser, fed generated and mutated input: no panic, and every error is one line that
//! names the file and shows no raw control character (text from a file must never drive the
//! user's terminal); and every trace the plot's reader takes is drawn, in bounded time. The cases are a fixed number per parser, from proptest's seed, so the
//! suite stays quick; `PROPTEST_CASES=100000 cargo test --release --test fuzz_inputs` digs
//! deeper.

use std::sync::mpsc;
use std::time::Duration;

use proptest::prelude::*;
use proptest::test_runner::TestRunner;

use kiln::input::InputError;
use kiln::plot::{self, Series, XAxis};
use kiln::problems::image::{file, kernel};
use kiln::problems::sudoku;
use kiln::problems::tsp::{tour_file, tsplib};
use kiln::search::trace;

const SOURCE: &str = "fuzzed.in";
const CASES: u32 = 1500;

const SUDOKU_LINE: &str = include_str!("../../puzzles/sudoku/hardest11.txt");
const SUDOKU_GRID: &str = include_str!("../../puzzles/sudoku/grid_format.txt");
const TSPLIB: &str = include_str!("../../puzzles/tsp/berlin52.tsp");
const TOUR: &str = include_str!("../../puzzles/tsp/berlin52.opt.tour");
const PBM: &[u8] = include_bytes!("../../puzzles/image/toy_4x5_noisy.pbm");
const KERNEL: &str = include_str!("../../puzzles/kernels/ring3.json");
const TRACE: &str = include_str!("../../puzzles/gallery/plots/race-ga.csv");
/// Numbers at the edges of what a log axis or a linear axis takes.
const DRAWABLE: [&str; 11] = [
    "0",
    "-0",
    "1",
    "-1",
    "0.5",
    "1e-300",
    "5e-324",
    "1e300",
    "-1e300",
    "1e17",
    "100000000000000016",
];
/// Numbers the reader refuses in a trace.
const REFUSED: [&str; 5] = ["inf", "-inf", "NaN", "1.7976931348623157e308", "1e301"];

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

/// Traces of a few rows in order whose temperatures and energies are at the edges, now
/// and then refused ones, with steps from 0 to the largest.
fn edge_traces() -> impl Strategy<Value = String> {
    let edge = || {
        prop_oneof![
            20 => prop::sample::select(&DRAWABLE[..]),
            1 => prop::sample::select(&REFUSED[..]),
        ]
    };
    // A temperature below 0 is refused too.
    let temperature = edge().prop_map(|t| t.trim_start_matches('-'));
    let step = prop::sample::select(&[0u64, 1, 1000, u64::MAX / 4][..]);
    let row = (step, 0u32..3, temperature, edge(), edge());
    prop::collection::vec(row, 1..8).prop_map(|rows| {
        let mut text = format!("{}\n", trace::HEADER);
        let (mut at, mut seconds) = (0u64, 0u32);
        for (step, wait, temperature, energy, best) in rows {
            at = at.saturating_add(step);
            seconds += wait;
            text += &format!("{at},{seconds},{temperature},{energy},{best},0.5,0,0\n");
        }
        text
    })
}

/// The plot's reader and figure on `text`: a readable error, or a figure on both x axes.
fn plotted(text: &str) -> Result<(), TestCaseError> {
    match trace::parse(text, SOURCE) {
        Err(e) => readable(&e),
        Ok(samples) => {
            let series = [Series {
                name: "fuzzed".to_string(),
                samples,
            }];
            for x in [XAxis::Steps, XAxis::Seconds] {
                let svg = plot::svg(&series, x);
                prop_assert!(svg.is_ok(), "{x:?}: {svg:?}");
            }
            Ok(())
        }
    }
}

/// Mutated kiln traces and traces of edge values, through the reader and the figure. A case
/// that does not end (the way an unplottable trace used to fail) fails the test after a
/// minute instead of holding the suite.
#[test]
fn plot_traces() {
    let (done, finished) = mpsc::channel();
    std::thread::spawn(move || {
        let mut runner = TestRunner::new(ProptestConfig {
            cases: CASES / 5,
            ..ProptestConfig::default()
        });
        let traces = prop_oneof![
            mutated(TRACE.as_bytes()).prop_map(|bytes| text(&bytes)),
            edge_traces(),
        ];
        let result = runner.run(&traces, |text| plotted(&text));
        let _ = done.send(result.map_err(|e| e.to_string()));
    });
    match finished.recv_timeout(Duration::from_secs(60)) {
        Ok(result) => result.unwrap(),
        Err(_) => panic!("a trace kept the plot busy for a minute"),
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
    trace::parse(TRACE, SOURCE).unwrap();
}
