//! Parsers on good and bad input: sizes, both formats, comments, and exact error text.

use kiln_core::problems::sudoku::{default_puzzle, parse_puzzles, read_puzzles};

fn error(text: &str) -> String {
    parse_puzzles(text, "t.txt").unwrap_err().to_string()
}

#[test]
fn one_puzzle_per_line_of_every_size_with_comments() {
    let text = format!(
        "# a comment\n{}\n\n  # indented comment\n{}\n{}\n{}\n",
        "1..4.41..14.4..1",
        ".".repeat(81),
        "G".to_string() + &".".repeat(255),
        "P".to_string() + &"0".repeat(624),
    );
    let puzzles = parse_puzzles(&text, "t.txt").unwrap();
    let sizes: Vec<usize> = puzzles.iter().map(|p| p.side()).collect();
    assert_eq!(sizes, [4, 9, 16, 25]);
    let sources: Vec<&str> = puzzles.iter().map(|p| p.source.as_str()).collect();
    assert_eq!(sources, ["t.txt:2", "t.txt:5", "t.txt:6", "t.txt:7"]);
    assert_eq!(puzzles[0].cells[..4], [1, 0, 0, 4]);
    assert_eq!(puzzles[2].cells[0], 16);
    assert_eq!(puzzles[3].cells[0], 25);
    assert_eq!(puzzles[0].to_line(), "1..4.41..14.4..1");
}

#[test]
fn grid_files_with_tabs_zero_and_minus_one() {
    let puzzles = read_puzzles("../../puzzles/sudoku/grid_format.txt".as_ref()).unwrap();
    assert_eq!(puzzles.len(), 2);
    let hardest = read_puzzles("../../puzzles/sudoku/hardest11.txt".as_ref()).unwrap();
    assert_eq!(puzzles[0].cells, hardest[0].cells);
    assert_eq!(puzzles[0].source, "../../puzzles/sudoku/grid_format.txt:2");
    assert_eq!(puzzles[1].side(), 4);
    assert_eq!(puzzles[1].to_line(), "1..4.41..14.4..1");
    assert_eq!(puzzles[1].source, "../../puzzles/sudoku/grid_format.txt:13");
}

#[test]
fn every_shipped_file_parses() {
    for entry in std::fs::read_dir("../../puzzles/sudoku").unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.ends_with(".txt") && !name.starts_with("bad_") {
            assert!(read_puzzles(&path).is_ok(), "{name}");
        }
    }
    assert_eq!(default_puzzle().givens(), 23);
}

#[test]
fn wrong_length_names_line_and_column() {
    assert_eq!(
        error("# c\n12345678\n"),
        "t.txt:2:9: wrong length: 8 symbols, a puzzle has 16 (one of 16, 81, 256, 625)"
    );
    assert_eq!(
        error(&".".repeat(82)),
        "t.txt:1:82: wrong length: 82 symbols, a puzzle has 81 (one of 16, 81, 256, 625)"
    );
}

#[test]
fn bad_symbol_names_its_column() {
    let line = format!("....x{}", ".".repeat(76));
    assert_eq!(
        error(&line),
        "t.txt:1:5: bad symbol 'x': a 9x9 puzzle uses 1-9 and . or 0 for empty"
    );
    let line = format!("G{}", ".".repeat(80));
    assert_eq!(
        error(&line),
        "t.txt:1:1: bad symbol 'G': a 9x9 puzzle uses 1-9 and . or 0 for empty"
    );
}

#[test]
fn equal_givens_name_both_cells() {
    assert_eq!(
        error(&format!("7...7{}", ".".repeat(76))),
        "t.txt:1:5: r1c1 and r1c5 both give 7 in row 1"
    );
    let mut column = ".".repeat(81).into_bytes();
    column[2] = b'3';
    column[9 * 6 + 2] = b'3';
    assert_eq!(
        error(std::str::from_utf8(&column).unwrap()),
        "t.txt:1:57: r1c3 and r7c3 both give 3 in column 3"
    );
    assert_eq!(
        error("1....1.........."),
        "t.txt:1:6: r1c1 and r2c2 both give 1 in box 1"
    );
    assert_eq!(
        error("1 0 0 0\n0 0 0 0\n0 0 0 0\n1 0 0 0\n"),
        "t.txt:4:1: r1c1 and r4c1 both give 1 in column 1"
    );
}

#[test]
fn bad_grids() {
    assert_eq!(
        error("1 2 3\n"),
        "t.txt:1:1: a grid row has 3 numbers; a grid has 4, 9, 16 or 25 per row"
    );
    assert_eq!(
        error("1 2 3 4\n0 0 0 0\n"),
        "t.txt:2:8: the grid ends after 2 of 4 rows"
    );
    assert_eq!(
        error("1 2 3 4\n0 0 0 0\n0 0 0\n0 0 0 0\n"),
        "t.txt:3:1: a grid row has 3 numbers, expected 4"
    );
    assert_eq!(
        error("1 2 3 4\n0 0 0 0\n0 0 9 0\n0 0 0 0\n"),
        "t.txt:3:5: bad number '9': expected 1-4, or 0 or -1 for empty"
    );
    assert_eq!(error("# only a comment\n"), "t.txt: no puzzle in the file");
}
