//! The shape of an n^2 x n^2 grid, its symbols, and a puzzle read from a file.

/// Box sides kiln accepts: 4x4, 9x9, 16x16 and 25x25 grids.
pub(super) const BOX_SIDES: std::ops::RangeInclusive<usize> = 2..=5;

/// Where every cell sits: its row, column and box, and the cells of every unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Geometry {
    /// Box side n (3 for 9x9).
    pub n: usize,
    /// Row length n^2 (9 for 9x9), also the number of symbols.
    pub side: usize,
    /// Row of each cell (0-based), indexed by cell in reading order.
    pub row_of: Vec<usize>,
    /// Column of each cell (0-based).
    pub col_of: Vec<usize>,
    /// Box of each cell (0-based, boxes in reading order).
    pub box_of: Vec<usize>,
    /// Cells of each unit: rows 0..side, then columns, then boxes.
    pub units: Vec<Vec<usize>>,
}

impl Geometry {
    /// The geometry of the grid with boxes of side `n` (3 for 9x9).
    pub fn new(n: usize) -> Self {
        let side = n * n;
        let cells = side * side;
        let row_of: Vec<usize> = (0..cells).map(|c| c / side).collect();
        let col_of: Vec<usize> = (0..cells).map(|c| c % side).collect();
        let box_of: Vec<usize> = (0..cells)
            .map(|c| (row_of[c] / n) * n + col_of[c] / n)
            .collect();
        let mut units = vec![Vec::with_capacity(side); 3 * side];
        for c in 0..cells {
            units[row_of[c]].push(c);
            units[side + col_of[c]].push(c);
            units[2 * side + box_of[c]].push(c);
        }
        Geometry {
            n,
            side,
            row_of,
            col_of,
            box_of,
            units,
        }
    }

    /// Cells in the grid, side^2 (81 for 9x9).
    pub fn cells(&self) -> usize {
        self.side * self.side
    }

    /// The cells of box `b`, in reading order.
    pub fn box_cells(&self, b: usize) -> &[usize] {
        &self.units[2 * self.side + b]
    }

    /// `r1c5` for cell 4: how error messages and people name cells (1-based).
    pub fn cell_name(&self, cell: usize) -> String {
        format!("r{}c{}", self.row_of[cell] + 1, self.col_of[cell] + 1)
    }
}

/// The box side for a grid of `cells` cells, if it is a size kiln handles.
pub(super) fn box_side_for_cells(cells: usize) -> Option<usize> {
    BOX_SIDES.clone().find(|n| n * n * n * n == cells)
}

/// The character for a value: `1`-`9`, then `A`-`P` for 10..25, `.` for empty (0).
pub fn symbol(value: u8) -> char {
    match value {
        0 => '.',
        1..=9 => (b'0' + value) as char,
        _ => (b'A' + value - 10) as char,
    }
}

/// The value of a symbol character: `Some(0)` for a blank, `None` if it is no symbol.
pub fn value_of(c: char) -> Option<u8> {
    match c {
        '.' | '0' => Some(0),
        '1'..='9' => Some(c as u8 - b'0'),
        'A'..='P' => Some(c as u8 - b'A' + 10),
        'a'..='p' => Some(c as u8 - b'a' + 10),
        _ => None,
    }
}

/// A puzzle: the givens (0 = empty) and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// Box side n (3 for 9x9).
    pub n: usize,
    /// Row by row, 0 for an empty cell, 1..=n^2 for a given.
    pub cells: Vec<u8>,
    /// "FILE:LINE" of its first line.
    pub source: String,
}

impl Puzzle {
    /// Row length n^2 (9 for 9x9), also the number of symbols.
    pub fn side(&self) -> usize {
        self.n * self.n
    }
    /// How many cells are filled in.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }
    /// The one-line form: n^4 symbols, `.` for empty.
    pub fn to_line(&self) -> String {
        line_of(&self.cells)
    }
}

/// n^4 symbols for a grid of values.
pub fn line_of(values: &[u8]) -> String {
    values.iter().map(|&v| symbol(v)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_round_trip() {
        for v in 0..=25u8 {
            assert_eq!(value_of(symbol(v)), Some(v));
        }
        assert_eq!(value_of('x'), None);
        assert_eq!(symbol(16), 'G');
    }

    #[test]
    fn boxes_and_names() {
        let g = Geometry::new(3);
        assert_eq!(g.box_of[80], 8);
        assert_eq!(g.box_cells(4)[0], 30);
        assert_eq!(g.cell_name(4), "r1c5");
        assert_eq!(box_side_for_cells(256), Some(4));
        assert_eq!(box_side_for_cells(80), None);
    }
}
