//! Propagation stronger than singles, run once before annealing: pencil marks per cell,
//! narrowed by singles, locked candidates (pointing and claiming) and naked pairs until
//! nothing changes. It fixes more cells on large grids and leaves candidate masks that the
//! annealer's random fills honour.

use super::grid::Geometry;
use super::propagate::{Board, Contradiction};

/// What deduction leaves for the annealer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deduced {
    /// Givens plus forced cells (0 = still open).
    pub cells: Vec<u8>,
    /// Per cell, bit v-1 set when v is still possible (0 for filled cells).
    pub marks: Vec<u32>,
}

impl Deduced {
    /// The puzzle as given, nothing deduced: its cells, and every value possible in each
    /// open cell (what the models start from when propagation is off).
    pub fn as_given(geometry: &Geometry, cells: &[u8]) -> Self {
        let all = (1u32 << geometry.side) - 1;
        Deduced {
            cells: cells.to_vec(),
            marks: cells
                .iter()
                .map(|&v| if v == 0 { all } else { 0 })
                .collect(),
        }
    }
}

struct Pencil<'g> {
    geometry: &'g Geometry,
    cells: Vec<u8>,
    marks: Vec<u32>,
    changed: bool,
}

impl Pencil<'_> {
    fn place(&mut self, cell: usize, value: u8) -> Result<(), Contradiction> {
        let bit = 1u32 << (value - 1);
        if self.marks[cell] & bit == 0 {
            return Err(Contradiction);
        }
        let g = self.geometry;
        self.cells[cell] = value;
        self.marks[cell] = 0;
        for unit in [
            g.row_of[cell],
            g.side + g.col_of[cell],
            2 * g.side + g.box_of[cell],
        ] {
            for &peer in &g.units[unit] {
                self.marks[peer] &= !bit;
            }
        }
        self.changed = true;
        Ok(())
    }

    /// Removes `bits` from `cell`'s marks; an open cell left with none is a contradiction.
    fn eliminate(&mut self, cell: usize, bits: u32) -> Result<(), Contradiction> {
        if self.marks[cell] & bits != 0 {
            self.marks[cell] &= !bits;
            self.changed = true;
            if self.marks[cell] == 0 {
                return Err(Contradiction);
            }
        }
        Ok(())
    }

    fn naked_singles(&mut self) -> Result<(), Contradiction> {
        for cell in 0..self.cells.len() {
            let m = self.marks[cell];
            if self.cells[cell] == 0 && m == 0 {
                return Err(Contradiction);
            }
            if m.is_power_of_two() {
                self.place(cell, m.trailing_zeros() as u8 + 1)?;
            }
        }
        Ok(())
    }

    /// A value with one place left in a unit goes there; with none, a contradiction.
    fn hidden_singles(&mut self, unit: usize) -> Result<(), Contradiction> {
        let g = self.geometry;
        let (mut once, mut twice, mut placed) = (0u32, 0u32, 0u32);
        for &cell in &g.units[unit] {
            let m = self.marks[cell];
            twice |= once & m;
            once |= m;
            if self.cells[cell] != 0 {
                placed |= 1 << (self.cells[cell] - 1);
            }
        }
        if once | placed != (1u32 << g.side) - 1 {
            return Err(Contradiction);
        }
        let mut singles = once & !twice;
        while singles != 0 {
            let bit = singles & singles.wrapping_neg();
            singles &= !bit;
            let home = g.units[unit]
                .iter()
                .copied()
                .find(|&cell| self.marks[cell] & bit != 0);
            let Some(cell) = home else {
                return Err(Contradiction);
            };
            self.place(cell, bit.trailing_zeros() as u8 + 1)?;
        }
        Ok(())
    }

    /// Where value `bit` may go in `unit`, all inside the unit `other_of` maps to: then it
    /// can go nowhere else in that other unit. Covers pointing (box to line) and claiming
    /// (line to box).
    fn locked(
        &mut self,
        unit: usize,
        other_of: impl Fn(usize) -> usize,
    ) -> Result<(), Contradiction> {
        let g = self.geometry;
        for v in 0..g.side {
            let bit = 1u32 << v;
            let mut homes = g.units[unit]
                .iter()
                .copied()
                .filter(|&c| self.marks[c] & bit != 0)
                .map(&other_of);
            let Some(first) = homes.next() else {
                continue;
            };
            if homes.all(|o| o == first) {
                for &cell in &g.units[first] {
                    if !g.units[unit].contains(&cell) {
                        self.eliminate(cell, bit)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Two cells of a unit with the same two candidates take both values from the rest.
    fn naked_pairs(&mut self, unit: usize) -> Result<(), Contradiction> {
        let cells = &self.geometry.units[unit];
        for (i, &a) in cells.iter().enumerate() {
            let pair = self.marks[a];
            if pair.count_ones() != 2 {
                continue;
            }
            let Some(&b) = cells[i + 1..].iter().find(|&&b| self.marks[b] == pair) else {
                continue;
            };
            for &other in cells {
                if other != a && other != b {
                    self.eliminate(other, pair)?;
                }
            }
        }
        Ok(())
    }

    fn round(&mut self) -> Result<(), Contradiction> {
        let g = self.geometry;
        let side = g.side;
        self.naked_singles()?;
        for unit in 0..3 * side {
            self.hidden_singles(unit)?;
        }
        for b in 0..side {
            let unit = 2 * side + b;
            self.locked(unit, |c| g.row_of[c])?;
            self.locked(unit, |c| side + g.col_of[c])?;
        }
        for line in 0..side {
            self.locked(line, |c| 2 * side + g.box_of[c])?;
            self.locked(side + line, |c| 2 * side + g.box_of[c])?;
        }
        for unit in 0..3 * side {
            self.naked_pairs(unit)?;
        }
        Ok(())
    }
}

/// The givens plus every cell these rules force, with the marks left, or a contradiction.
pub fn deduce(geometry: &Geometry, cells: &[u8]) -> Result<Deduced, Contradiction> {
    let board = Board::new(geometry, cells)?;
    let marks = (0..cells.len())
        .map(|c| {
            if cells[c] == 0 {
                board.candidates(c)
            } else {
                0
            }
        })
        .collect();
    let mut pencil = Pencil {
        geometry,
        cells: cells.to_vec(),
        marks,
        changed: true,
    };
    while pencil.changed {
        pencil.changed = false;
        pencil.round()?;
    }
    Ok(Deduced {
        cells: pencil.cells,
        marks: pencil.marks,
    })
}
