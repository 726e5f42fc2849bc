//! A Sudoku grid as a picture, and the best grid as the JSON line a headless run prints.

use std::path::Path;

use image::Rgb;
use serde::Serialize;

use crate::export::canvas::{BLACK, Canvas, Surface};
use crate::export::font;
use crate::export::svg::Svg;
use crate::headless::output::Format;
use crate::problems::sudoku::{CellKind, SudokuSnapshot, first_clash, line_cost, line_of, symbol};
use kiln_tui::save::Export;

const PROPAGATED: Rgb<u8> = Rgb([0, 120, 120]);
const ANNEALED: Rgb<u8> = Rgb([30, 80, 200]);
/// Cells conflict learning filled, told apart from annealed ones.
const LEARNED: Rgb<u8> = Rgb([20, 140, 40]);
/// Behind a cell whose value repeats in its row or column, as the live board reverses it.
const CLASH: Rgb<u8> = Rgb([255, 200, 200]);
const CELL_LINE: Rgb<u8> = Rgb([170, 170, 170]);
const MARGIN: i64 = 6;

/// Where the cells of a grid go.
struct Layout {
    /// Pixels per font dot: big digits for 9x9, smaller for 16x16 and 25x25.
    scale: u32,
    /// Pixels per cell side.
    cell: i64,
    side: usize,
}

impl Layout {
    fn new(side: usize) -> Self {
        let scale = if side <= 9 { 4 } else { 3 };
        Layout {
            scale,
            cell: 12 * scale as i64,
            side,
        }
    }

    /// Width and height of the picture.
    fn size(&self) -> u32 {
        (2 * MARGIN + self.side as i64 * self.cell) as u32 + 1
    }

    /// The pixel of grid line `i` (0..=side), across or down.
    fn edge(&self, i: usize) -> i64 {
        MARGIN + i as i64 * self.cell
    }

    /// The top left pixel of a glyph centred in cell (row, col).
    fn glyph_at(&self, row: usize, col: usize) -> (i64, i64) {
        let s = self.scale as i64;
        let inset_x = (self.cell - font::WIDTH as i64 * s) / 2;
        let inset_y = (self.cell - font::HEIGHT as i64 * s) / 2;
        (self.edge(col) + inset_x, self.edge(row) + inset_y)
    }
}

/// The grid shown as a picture and the best grid as a JSON line, named after the puzzle
/// file; `source` is the puzzle's "FILE:LINE".
pub fn export(shown: &SudokuSnapshot, best: &SudokuSnapshot, source: &str) -> Export {
    let file = source.rsplit_once(':').map_or(source, |(file, _)| file);
    let name = Path::new(file).file_stem().unwrap_or_default();
    Export::new("sudoku", &name.to_string_lossy())
        .file("png", picture(shown))
        .file("json", json_line(best, source))
}

/// The grid as drawn live: box lines thick, givens bold black, propagated cells teal,
/// annealed ones blue, clashing cells on pink.
fn picture(s: &SudokuSnapshot) -> Vec<u8> {
    let size = Layout::new(s.geometry.side).size();
    let mut canvas = Canvas::new(size, size);
    draw(&mut canvas, s);
    canvas.into_png()
}

/// The same picture as SVG.
fn svg(s: &SudokuSnapshot) -> Vec<u8> {
    let size = Layout::new(s.geometry.side).size();
    let mut svg = Svg::new(size, size);
    draw(&mut svg, s);
    svg.into_bytes()
}

fn draw(canvas: &mut impl Surface, s: &SudokuSnapshot) {
    let (n, side) = (s.geometry.n, s.geometry.side);
    let layout = Layout::new(side);
    let conflicts = s.conflicts();
    for (cell, (&value, &kind)) in s.values.iter().zip(s.kinds.iter()).enumerate() {
        let (row, col) = (cell / side, cell % side);
        if conflicts[cell] {
            let (x, y) = (layout.edge(col), layout.edge(row));
            canvas.fill(x, y, layout.cell, layout.cell, CLASH);
        }
        let (x, y) = layout.glyph_at(row, col);
        let colour = match kind {
            CellKind::Given => BLACK,
            CellKind::Propagated => PROPAGATED,
            CellKind::Annealed => ANNEALED,
            CellKind::Learned => LEARNED,
        };
        canvas.glyph(symbol(value), (x, y), layout.scale, colour);
        if kind == CellKind::Given {
            // Bold: the same glyph again a pixel to the right.
            canvas.glyph(symbol(value), (x + 1, y), layout.scale, colour);
        }
    }
    // Lines reach a pixel past the outer edges so the thick corners close.
    let (start, end) = (layout.edge(0) - 1, layout.edge(side) + 2);
    for i in 0..=side {
        let (width, colour) = if i % n == 0 {
            (3, BLACK)
        } else {
            (1, CELL_LINE)
        };
        let at = layout.edge(i) - width / 2;
        canvas.fill(at, start, width, end - start, colour);
        canvas.fill(start, at, end - start, width, colour);
    }
}

/// What `--output` writes in `format` for one puzzle's best grid, the live view's at its
/// end as the headless run's: the picture the save key makes, or the grid's line.
pub fn output(best: &SudokuSnapshot, format: Format) -> Vec<u8> {
    match format {
        Format::Png => picture(best),
        Format::Svg => svg(best),
        // The only other format `sudoku::FORMATS` names.
        _ => format!("{}\n", line_of(&best.values)).into_bytes(),
    }
}

/// The fields of a headless run's JSON line that the grid itself tells.
#[derive(Serialize)]
struct Line<'a> {
    problem: &'static str,
    source: &'a str,
    size: usize,
    solved: bool,
    /// Missing values over rows and columns.
    energy: u32,
    solution: String,
    givens: usize,
}

/// The best grid as one JSON line with the headless run's field names; `source` is the
/// puzzle's "FILE:LINE".
fn json_line(best: &SudokuSnapshot, source: &str) -> Vec<u8> {
    let filled = best.values.iter().all(|&v| v != 0);
    let line = Line {
        problem: "sudoku",
        source,
        size: best.geometry.side,
        solved: filled && first_clash(&best.geometry, &best.values).is_none(),
        energy: line_cost(&best.geometry, &best.values),
        solution: line_of(&best.values),
        givens: best.kinds.iter().filter(|&&k| k == CellKind::Given).count(),
    };
    let mut bytes = serde_json::to_vec(&line).expect("a flat struct serialises");
    bytes.push(b'\n');
    bytes
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use image::RgbImage;

    use super::*;
    use crate::export::canvas::WHITE;
    use crate::problems::sudoku::{Geometry, swapped_4x4};

    fn decode(png: &[u8]) -> RgbImage {
        image::load_from_memory(png).unwrap().to_rgb8()
    }

    /// The colours inside cell (row, col), clear of the grid lines.
    fn colours_in(image: &RgbImage, layout: &Layout, row: usize, col: usize) -> Vec<Rgb<u8>> {
        let (x, y) = (layout.edge(col) + 2, layout.edge(row) + 2);
        let inner = layout.cell - 4;
        let mut colours: Vec<Rgb<u8>> = (y..y + inner)
            .flat_map(|py| (x..x + inner).map(move |px| (px, py)))
            .map(|(px, py)| *image.get_pixel(px as u32, py as u32))
            .collect();
        colours.sort_by_key(|c| c.0);
        colours.dedup();
        colours
    }

    #[test]
    fn givens_propagated_annealed_learned_and_clashing_cells_look_different() {
        let snapshot = swapped_4x4();
        let image = decode(&picture(&snapshot));
        let layout = Layout::new(4);
        assert_eq!(image.dimensions(), (layout.size(), layout.size()));
        // r1c1 is a given 1, r1c3 a propagated 3, r1c4 an annealed 4 with no clash.
        assert_eq!(colours_in(&image, &layout, 0, 0), [BLACK, WHITE]);
        assert_eq!(colours_in(&image, &layout, 0, 2), [PROPAGATED, WHITE]);
        assert_eq!(colours_in(&image, &layout, 0, 3), [ANNEALED, WHITE]);
        // r3c1 holds a 3 seen twice in its column: an annealed digit on pink.
        assert_eq!(colours_in(&image, &layout, 2, 0), [ANNEALED, CLASH]);
        // Filled by conflict learning, the same cells are drawn in the learner's colour.
        let image = decode(&picture(&crate::problems::sudoku::learned_4x4()));
        assert_eq!(colours_in(&image, &layout, 0, 3), [LEARNED, WHITE]);
        assert_eq!(colours_in(&image, &layout, 2, 0), [LEARNED, CLASH]);
    }

    #[test]
    fn box_lines_are_thick_and_black_cell_lines_thin_and_grey() {
        let image = decode(&picture(&swapped_4x4()));
        let layout = Layout::new(4);
        let y = (layout.edge(0) + layout.cell / 2 - 10) as u32;
        let across: Vec<Rgb<u8>> = (0..layout.size()).map(|x| *image.get_pixel(x, y)).collect();
        let box_edge = layout.edge(2) as usize;
        assert_eq!(across[box_edge - 1..=box_edge + 1], [BLACK; 3]);
        // Between r1c3 and r1c4, neither of which clashes.
        let cell_edge = layout.edge(3) as usize;
        assert_eq!(
            across[cell_edge - 1..=cell_edge + 1],
            [WHITE, CELL_LINE, WHITE]
        );
        assert_eq!(across[0], WHITE);
    }

    #[test]
    fn twenty_five_by_twenty_five_fits_with_letters() {
        let side = 25;
        let values: Vec<u8> = (0..side * side).map(|i| (i % side) as u8 + 1).collect();
        let snapshot = SudokuSnapshot {
            geometry: Arc::new(Geometry::new(5)),
            kinds: vec![CellKind::Annealed; side * side].into(),
            values,
        };
        let image = decode(&picture(&snapshot));
        let layout = Layout::new(25);
        assert_eq!(image.width(), layout.size());
        assert!(image.width() <= 1000, "{}", image.width());
        // Cell r1c25 holds P, drawn like any digit.
        assert!(colours_in(&image, &layout, 0, 24).contains(&ANNEALED));
    }

    #[test]
    fn files_are_named_after_the_puzzle_file_without_its_line() {
        let grid = swapped_4x4();
        let export = export(&grid, &grid, "puzzles/sudoku/hardest11.txt:3");
        assert_eq!(
            export,
            Export::new("sudoku", "hardest11")
                .file("png", picture(&grid))
                .file("json", json_line(&grid, "puzzles/sudoku/hardest11.txt:3"))
        );
    }

    #[test]
    fn the_json_line_says_whether_the_best_grid_solves_the_puzzle() {
        let line: serde_json::Value =
            serde_json::from_slice(&json_line(&swapped_4x4(), "four.txt:2")).unwrap();
        assert_eq!(line["problem"], "sudoku");
        assert_eq!(line["source"], "four.txt:2");
        assert_eq!(line["size"], 4);
        assert_eq!(line["solved"], false);
        assert_eq!(line["energy"], 4);
        assert_eq!(line["solution"], "1234341231434221");
        assert_eq!(line["givens"], 1);
        let mut solved = swapped_4x4();
        solved.values = vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        let bytes = json_line(&solved, "four.txt:2");
        assert!(bytes.ends_with(b"}\n"));
        let line: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(
            (line["solved"].clone(), line["energy"].clone()),
            (true.into(), 0.into())
        );
    }
}
