//! Reading puzzle files: one puzzle per line (n^4 symbols) or grids of n^2 numbers per row.

use std::path::Path;

use super::check::first_clash;
use super::grid::{BOX_SIDES, Geometry, Puzzle, box_side_for_cells, value_of};
use crate::input::{InputError, excerpt, tokens};
use crate::messages::count;

/// The puzzle kiln solves when given no file (AI Escargot, from Norvig's hardest.txt).
pub const DEFAULT_SOURCE: &str = "puzzles/sudoku/default.txt";
const DEFAULT_TEXT: &str = include_str!("../../../../../puzzles/sudoku/default.txt");

/// The embedded default puzzle.
pub fn default_puzzle() -> Puzzle {
    parse_puzzles(DEFAULT_TEXT, DEFAULT_SOURCE)
        .ok()
        .and_then(|mut p| p.pop())
        .expect("the embedded puzzle parses")
}

/// Reads every puzzle of a file.
pub fn read_puzzles(path: &Path) -> Result<Vec<Puzzle>, InputError> {
    let text = InputError::read_to_string(path)?;
    parse_puzzles(&text, &crate::input::source_name(path))
}

/// Where each cell's symbol was written, for error messages.
type Positions = Vec<(usize, usize)>;

/// Parses `text`; `source` names it in errors and in each puzzle's "FILE:LINE".
pub fn parse_puzzles(text: &str, source: &str) -> Result<Vec<Puzzle>, InputError> {
    let err = |line: usize, column: usize, message: String| {
        InputError::new(source, message)
            .at_line(line)
            .at_column(column)
    };
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .peekable();
    let mut puzzles = Vec::new();
    while let Some((number, line)) = lines.next() {
        let (n, cells, positions) = if line.trim().contains(char::is_whitespace) {
            let mut rows = vec![(number, line)];
            let width = tokens(line).count();
            while rows.len() < width {
                match lines.peek() {
                    Some(&(next, l)) if next == rows.last().map_or(0, |r| r.0) + 1 => {
                        rows.push((next, l));
                        lines.next();
                    }
                    _ => break,
                }
            }
            parse_grid(&rows, &err)?
        } else {
            parse_line(number, line, &err)?
        };
        let geometry = Geometry::new(n);
        if let Some(clash) = first_clash(&geometry, &cells) {
            let (line, column) = positions[clash.second];
            let message = format!(
                "{} and {} both give {} in {}",
                geometry.cell_name(clash.first),
                geometry.cell_name(clash.second),
                super::grid::symbol(clash.value),
                clash.unit
            );
            return Err(err(line, column, message));
        }
        puzzles.push(Puzzle {
            n,
            cells,
            source: format!("{source}:{number}"),
        });
    }
    if puzzles.is_empty() {
        return Err(InputError::new(source, "no puzzle in the file"));
    }
    Ok(puzzles)
}

fn sizes_text() -> String {
    let sizes: Vec<String> = BOX_SIDES.map(|n| (n * n * n * n).to_string()).collect();
    sizes.join(", ")
}

/// Format (a): the whole puzzle on one line.
fn parse_line(
    number: usize,
    line: &str,
    err: &impl Fn(usize, usize, String) -> InputError,
) -> Result<(usize, Vec<u8>, Positions), InputError> {
    let indent = line.chars().take_while(|c| c.is_whitespace()).count();
    // Symbols one at a time up to one more than the largest puzzle: a line of a gigabyte
    // costs no more than one of 626 symbols.
    let largest = BOX_SIDES.map(|n| n * n * n * n).max().unwrap_or(625);
    let symbols: Vec<char> = line.trim().chars().take(largest + 1).collect();
    let Some(n) = box_side_for_cells(symbols.len()) else {
        let nearest = BOX_SIDES
            .map(|n| n * n * n * n)
            .min_by_key(|&c| c.abs_diff(symbols.len()))
            .unwrap_or(81);
        return Err(err(
            number,
            indent + symbols.len().min(nearest) + 1,
            format!(
                "wrong length: {}, a puzzle has {} (one of {})",
                if symbols.len() > largest {
                    format!("more than {largest} symbols")
                } else {
                    count(symbols.len(), "symbol", "symbols")
                },
                nearest,
                sizes_text()
            ),
        ));
    };
    let side = n * n;
    let mut cells = Vec::with_capacity(symbols.len());
    for (i, &c) in symbols.iter().enumerate() {
        match value_of(c) {
            Some(v) if (v as usize) <= side => cells.push(v),
            _ => {
                return Err(err(
                    number,
                    indent + i + 1,
                    format!(
                        "bad symbol '{c}': a {side}x{side} puzzle uses 1-{} and . or 0 for empty",
                        super::grid::symbol(side as u8)
                    ),
                ));
            }
        }
    }
    let positions = (0..cells.len()).map(|i| (number, indent + i + 1)).collect();
    Ok((n, cells, positions))
}

/// Format (b): n^2 consecutive lines of n^2 numbers, 0 or -1 for empty.
fn parse_grid(
    rows: &[(usize, &str)],
    err: &impl Fn(usize, usize, String) -> InputError,
) -> Result<(usize, Vec<u8>, Positions), InputError> {
    let (first, first_line) = rows[0];
    let width = tokens(first_line).count();
    let Some(n) = BOX_SIDES.clone().find(|n| n * n == width) else {
        return Err(err(
            first,
            1,
            format!(
                "a grid row has {}; a grid has 4, 9, 16 or 25 per row",
                count(width, "number", "numbers")
            ),
        ));
    };
    if rows.len() < width {
        let (last, line) = rows[rows.len() - 1];
        return Err(err(
            last,
            line.chars().count() + 1,
            format!("the grid ends after {} of {width} rows", rows.len()),
        ));
    }
    let mut cells = Vec::with_capacity(width * width);
    let mut positions = Vec::with_capacity(width * width);
    for &(number, line) in rows {
        let row: Vec<(usize, &str)> = tokens(line).collect();
        if row.len() != width {
            return Err(err(
                number,
                1,
                format!(
                    "a grid row has {}, expected {width}",
                    count(row.len(), "number", "numbers")
                ),
            ));
        }
        for (column, token) in row {
            let value = match token.parse::<i64>() {
                Ok(-1) | Ok(0) => 0,
                Ok(v) if (1..=width as i64).contains(&v) => v as u8,
                _ => {
                    return Err(err(
                        number,
                        column,
                        format!(
                            "bad number '{}': expected 1-{width}, or 0 or -1 for empty",
                            excerpt(token)
                        ),
                    ));
                }
            };
            cells.push(value);
            positions.push((number, column));
        }
    }
    Ok((n, cells, positions))
}
