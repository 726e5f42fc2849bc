//! Candidate bitmasks and the two singles rules, used to fix forced cells before annealing
//! and at every node of the exact search.

use super::grid::Geometry;

/// The givens contradict each other (some cell or some unit has no place left).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contradiction;

/// A partly filled grid with the values each row, column and box already holds.
#[derive(Debug, Clone)]
pub(super) struct Board<'g> {
    pub geometry: &'g Geometry,
    /// 0 for empty, else 1..=side.
    pub cells: Vec<u8>,
    /// Bit v-1 set when value v is used in the unit (rows, then columns, then boxes).
    used: Vec<u32>,
    all: u32,
}

impl<'g> Board<'g> {
    /// Fails when two givens clash.
    pub(super) fn new(geometry: &'g Geometry, cells: &[u8]) -> Result<Self, Contradiction> {
        let mut board = Board {
            geometry,
            cells: vec![0; cells.len()],
            used: vec![0; 3 * geometry.side],
            all: (1u32 << geometry.side) - 1,
        };
        for (cell, &v) in cells.iter().enumerate() {
            if v != 0 {
                if board.candidates(cell) & (1 << (v - 1)) == 0 {
                    return Err(Contradiction);
                }
                board.place(cell, v);
            }
        }
        Ok(board)
    }

    fn unit_ids(&self, cell: usize) -> [usize; 3] {
        let g = self.geometry;
        [
            g.row_of[cell],
            g.side + g.col_of[cell],
            2 * g.side + g.box_of[cell],
        ]
    }

    /// Values still possible in an empty cell, as a bitmask (bit v-1 for value v).
    pub(super) fn candidates(&self, cell: usize) -> u32 {
        let [r, c, b] = self.unit_ids(cell);
        self.all & !(self.used[r] | self.used[c] | self.used[b])
    }

    pub(super) fn place(&mut self, cell: usize, value: u8) {
        self.cells[cell] = value;
        for u in self.unit_ids(cell) {
            self.used[u] |= 1 << (value - 1);
        }
    }

    /// Naked singles (a cell with one candidate) and hidden singles (a value with one place
    /// in a unit), repeated until nothing changes. Returns how many cells it filled.
    pub(super) fn propagate(&mut self) -> Result<usize, Contradiction> {
        let mut filled = 0;
        loop {
            let before = filled;
            for cell in 0..self.cells.len() {
                if self.cells[cell] != 0 {
                    continue;
                }
                let c = self.candidates(cell);
                if c == 0 {
                    return Err(Contradiction);
                }
                if c.is_power_of_two() {
                    self.place(cell, c.trailing_zeros() as u8 + 1);
                    filled += 1;
                }
            }
            for unit in 0..self.geometry.units.len() {
                filled += self.hidden_singles(unit)?;
            }
            if filled == before {
                return Ok(filled);
            }
        }
    }

    fn hidden_singles(&mut self, unit: usize) -> Result<usize, Contradiction> {
        // once: values possible somewhere; twice: possible in two or more cells.
        let (mut once, mut twice) = (0u32, 0u32);
        for &cell in &self.geometry.units[unit] {
            if self.cells[cell] == 0 {
                let c = self.candidates(cell);
                twice |= once & c;
                once |= c;
            }
        }
        if (once | self.used[unit]) != self.all {
            return Err(Contradiction);
        }
        let mut singles = once & !twice;
        let mut filled = 0;
        while singles != 0 {
            let bit = singles & singles.wrapping_neg();
            singles &= !bit;
            let home = self.geometry.units[unit]
                .iter()
                .copied()
                .find(|&cell| self.cells[cell] == 0 && self.candidates(cell) & bit != 0);
            // An earlier single of this loop may have taken the only cell: a contradiction.
            let Some(cell) = home else {
                return Err(Contradiction);
            };
            self.place(cell, bit.trailing_zeros() as u8 + 1);
            filled += 1;
        }
        Ok(filled)
    }
}

/// The givens plus every cell the singles force, or a contradiction.
pub fn propagate(geometry: &Geometry, cells: &[u8]) -> Result<Vec<u8>, Contradiction> {
    let mut board = Board::new(geometry, cells)?;
    board.propagate()?;
    Ok(board.cells)
}
