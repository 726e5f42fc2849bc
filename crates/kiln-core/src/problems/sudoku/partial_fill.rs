//! The partial-fill model: the grid never breaks a rule, and some cells stay empty. A move
//! writes one of an empty cell's candidates into it and empties the cells of its row,
//! column and box that held that value; the energy is the number of empty cells. This is
//! PartialCol, the graph-colouring local search, read as Sudoku: where box swaps wander
//! among grids that are wrong in many places, every state here is right as far as it goes,
//! and the candidates propagation leaves are the only values ever tried.

use std::sync::Arc;

use rand::Rng as _;
use rand::seq::SliceRandom;

use super::grid::Geometry;
use super::snapshot::{CellKind, SudokuSnapshot, grid_snapshots};
use crate::anneal::Problem;
use crate::search::{Rng, Sketch};

/// Write `value` into the empty `cell`, emptying the cells that hold it in its units.
/// Value 0 stands still (nothing is empty, or the cell has no candidate at all).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    cell: u16,
    value: u8,
}

/// No cell: an empty slot of the holder table or of the empty-cell index.
const NONE: u16 = u16::MAX;

/// The state of the partial-fill model.
#[derive(Debug, Clone)]
pub struct PartialFill {
    geometry: Arc<Geometry>,
    kinds: Arc<[CellKind]>,
    /// 0 for an empty cell, else 1..=side; no value repeats in a unit.
    values: Vec<u8>,
    /// holders[unit * (side + 1) + v]: the free cell of the unit that holds v, or NONE.
    holders: Vec<u16>,
    /// Per cell, the offsets of its row, column and box in `holders`.
    units: Vec<[u16; 3]>,
    /// Per cell, its candidates' range in `candidates` (empty for fixed cells).
    ranges: Vec<(u32, u8)>,
    /// Every free cell's candidates, one after another.
    candidates: Vec<u8>,
    /// The free cells left empty, in no order, and where each sits in it (or NONE).
    empty: Vec<u16>,
    position: Vec<u16>,
    /// The free cells, in reading order.
    free: Vec<u16>,
}

impl PartialFill {
    /// `fixed` holds the givens and the propagated cells (0 = free), `givens` tells them
    /// apart, and `marks` (bit v-1 per cell) the values left possible; a free cell only
    /// ever holds one of those that no fixed cell of its units holds. The free cells start
    /// as a random greedy fill from `rng`.
    pub fn new(
        geometry: Arc<Geometry>,
        givens: &[u8],
        fixed: &[u8],
        marks: &[u32],
        rng: &mut Rng,
    ) -> Self {
        let side = geometry.side;
        let units: Vec<[u16; 3]> = (0..geometry.cells())
            .map(|c| {
                [
                    geometry.row_of[c],
                    side + geometry.col_of[c],
                    2 * side + geometry.box_of[c],
                ]
                .map(|unit| (unit * (side + 1)) as u16)
            })
            .collect();
        let mut taken = vec![false; 3 * side * (side + 1)];
        for (cell, &v) in fixed.iter().enumerate() {
            for unit in units[cell] {
                taken[unit as usize + v as usize] |= v != 0;
            }
        }
        let (mut ranges, mut candidates) = (Vec::new(), Vec::new());
        for cell in 0..fixed.len() {
            let start = candidates.len() as u32;
            if fixed[cell] == 0 {
                candidates.extend((1..=side as u8).filter(|&v| {
                    marks[cell] >> (v - 1) & 1 == 1
                        && units[cell].iter().all(|&u| !taken[u as usize + v as usize])
                }));
            }
            ranges.push((start, (candidates.len() as u32 - start) as u8));
        }
        let mut state = PartialFill {
            kinds: CellKind::of_cells(givens, fixed),
            values: fixed.to_vec(),
            holders: vec![NONE; taken.len()],
            units,
            ranges,
            candidates,
            empty: Vec::new(),
            position: vec![NONE; fixed.len()],
            free: (0..fixed.len() as u16)
                .filter(|&c| fixed[c as usize] == 0)
                .collect(),
            geometry,
        };
        state.randomize(rng);
        state
    }

    /// The grid row by row, 0 for an empty cell.
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    #[inline(always)]
    fn candidates_of(&self, cell: usize) -> &[u8] {
        let (start, len) = self.ranges[cell];
        &self.candidates[start as usize..][..len as usize]
    }

    /// The distinct cells that hold `value` in `cell`'s units (at most three).
    #[inline(always)]
    fn holders_of(&self, cell: usize, value: u8) -> ([u16; 3], usize) {
        let mut found = [NONE; 3];
        let mut k = 0;
        for unit in self.units[cell] {
            let h = self.holders[unit as usize + value as usize];
            if h != NONE && !found[..k].contains(&h) {
                found[k] = h;
                k += 1;
            }
        }
        (found, k)
    }

    /// Empties a filled cell (value 0) or fills an empty one, keeping the holder table and
    /// the empty-cell index.
    fn set(&mut self, cell: usize, value: u8) {
        let (slot_value, holder) = match value {
            0 => (self.values[cell], NONE),
            _ => (value, cell as u16),
        };
        for unit in self.units[cell] {
            self.holders[unit as usize + slot_value as usize] = holder;
        }
        self.values[cell] = value;
        if value == 0 {
            self.position[cell] = self.empty.len() as u16;
            self.empty.push(cell as u16);
        } else {
            let at = self.position[cell] as usize;
            let last = self.empty.pop().expect("the cell was empty");
            if last as usize != cell {
                self.empty[at] = last;
                self.position[last as usize] = at as u16;
            }
            self.position[cell] = NONE;
        }
    }
}

impl Problem for PartialFill {
    type Move = Place;
    type Snapshot = SudokuSnapshot;

    /// The empty cells, as the index keeps them (the delta walk counts them afresh).
    fn energy(&self) -> f64 {
        self.empty.len() as f64
    }

    #[inline(always)]
    fn propose(&self, rng: &mut Rng) -> Place {
        let r = rng.next_u64();
        let Some(&cell) = self
            .empty
            .get(((r as u32 as u64 * self.empty.len() as u64) >> 32) as usize)
        else {
            return Place { cell: 0, value: 0 };
        };
        let candidates = self.candidates_of(cell as usize);
        let value = candidates
            .get((((r >> 32) * candidates.len() as u64) >> 32) as usize)
            .copied()
            .unwrap_or(0);
        Place { cell, value }
    }

    #[inline(always)]
    fn delta(&self, m: &Place) -> f64 {
        if m.value == 0 {
            return 0.0;
        }
        let (_, emptied) = self.holders_of(m.cell as usize, m.value);
        emptied as f64 - 1.0
    }

    #[inline(always)]
    fn apply(&mut self, m: &Place) {
        if m.value == 0 {
            return;
        }
        let (emptied, k) = self.holders_of(m.cell as usize, m.value);
        for &h in &emptied[..k] {
            self.set(h as usize, 0);
        }
        self.set(m.cell as usize, m.value);
    }

    /// A greedy fill: the free cells in random order, each given a random candidate that
    /// clashes with nothing placed so far, or left empty when every one does.
    fn randomize(&mut self, rng: &mut Rng) {
        self.holders.fill(NONE);
        self.empty.clear();
        for (at, &cell) in self.free.iter().enumerate() {
            self.values[cell as usize] = 0;
            self.position[cell as usize] = at as u16;
            self.empty.push(cell);
        }
        let mut order = self.free.clone();
        order.shuffle(rng);
        for cell in order {
            let cell = cell as usize;
            let candidates = self.candidates_of(cell);
            if candidates.is_empty() {
                continue;
            }
            let start = (rng.next_u64() % candidates.len() as u64) as usize;
            let fits = (0..candidates.len())
                .map(|i| candidates[(start + i) % candidates.len()])
                .find(|&v| self.holders_of(cell, v).1 == 0);
            if let Some(value) = fits {
                self.set(cell, value);
            }
        }
    }

    grid_snapshots!();

    /// "r3c4 <- 7, emptying r3c9 r5c4".
    fn sketch(&self, m: &Place) -> Option<Sketch> {
        let cell = usize::from(m.cell);
        if m.value == 0 {
            return Some(Sketch {
                words: "nothing to place".into(),
                ..Sketch::default()
            });
        }
        let (emptied, k) = self.holders_of(cell, m.value);
        let name = |c: usize| self.geometry.cell_name(c);
        let mut words = format!("{} <- {}", name(cell), super::grid::symbol(m.value));
        if k > 0 {
            let names: Vec<String> = emptied[..k].iter().map(|&h| name(h.into())).collect();
            words += &format!(", emptying {}", names.join(" "));
        }
        Some(Sketch {
            words,
            places: std::iter::once(m.cell)
                .chain(emptied[..k].iter().copied())
                .map(u32::from)
                .collect(),
            ..Sketch::default()
        })
    }
}
