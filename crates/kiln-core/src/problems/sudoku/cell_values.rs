//! The `cell-linear` classroom model: no box permutations. Every free cell holds any value,
//! a move writes a random other value into one free cell, and the energy counts duplicates
//! in rows, columns and boxes (a value k times in a unit adds k - 1).

use std::sync::Arc;

use rand::Rng as _;

use super::grid::Geometry;
use super::snapshot::{CellKind, SudokuSnapshot, grid_snapshots};
use crate::anneal::Problem;
use crate::search::{Rng, Sketch};

/// Write `value` into `cell`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SetCell {
    cell: u16,
    value: u8,
}

/// The state of the cell-linear model: a value in every cell, givens and propagated cells
/// fixed.
#[derive(Debug, Clone)]
pub struct CellValues {
    geometry: Arc<Geometry>,
    kinds: Arc<[CellKind]>,
    /// 1..=side in every cell.
    values: Vec<u8>,
    /// The cells the annealer may change.
    free: Vec<u16>,
    /// counts[unit * (side + 1) + v]: how often v occurs in the unit (rows, columns, boxes).
    counts: Vec<u8>,
    /// Per cell, the offsets of its row, column and box in `counts`.
    units: Vec<[u16; 3]>,
}

impl CellValues {
    /// `fixed` holds the givens and any propagated cells (0 = free); the free cells start
    /// with random values from `rng`.
    pub fn new(geometry: Arc<Geometry>, givens: &[u8], fixed: &[u8], rng: &mut Rng) -> Self {
        let side = geometry.side;
        let kinds = CellKind::of_cells(givens, fixed);
        let units = (0..geometry.cells())
            .map(|c| {
                let offset = |unit: usize| (unit * (side + 1)) as u16;
                [
                    offset(geometry.row_of[c]),
                    offset(side + geometry.col_of[c]),
                    offset(2 * side + geometry.box_of[c]),
                ]
            })
            .collect();
        let free = (0..geometry.cells())
            .filter(|&c| fixed[c] == 0)
            .map(|c| c as u16)
            .collect();
        let mut state = CellValues {
            values: fixed.to_vec(),
            counts: vec![0; 3 * side * (side + 1)],
            free,
            units,
            kinds,
            geometry,
        };
        state.randomize(rng);
        state
    }

    /// How many cells the annealer changes (a sweep is one move per free cell).
    pub fn free_cells(&self) -> usize {
        self.free.len()
    }

    /// The grid row by row, every cell filled (1..=side).
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    fn recount(&mut self) {
        self.counts.fill(0);
        for (cell, &v) in self.values.iter().enumerate() {
            for unit in self.units[cell] {
                self.counts[unit as usize + v as usize] += 1;
            }
        }
    }
}

impl Problem for CellValues {
    type Move = SetCell;
    type Snapshot = SudokuSnapshot;

    fn energy(&self) -> f64 {
        let side = self.geometry.side;
        let duplicates: usize = self
            .counts
            .chunks(side + 1)
            .flat_map(|unit| unit[1..].iter())
            .map(|&n| (n as usize).saturating_sub(1))
            .sum();
        duplicates as f64
    }

    #[inline(always)]
    fn propose(&self, rng: &mut Rng) -> SetCell {
        if self.free.is_empty() {
            return SetCell {
                cell: 0,
                value: self.values[0],
            };
        }
        let side = self.geometry.side as u64;
        let r = rng.next_u64();
        let i = ((r as u128 * self.free.len() as u128) >> 64) as usize;
        let cell = self.free[i];
        // Any value but the current one: draw from side - 1 and skip over it.
        let current = self.values[cell as usize];
        let r = rng.next_u64();
        let mut value = 1 + ((r as u128 * (side - 1).max(1) as u128) >> 64) as u8;
        if value >= current && side > 1 {
            value += 1;
        }
        SetCell { cell, value }
    }

    #[inline(always)]
    fn delta(&self, m: &SetCell) -> f64 {
        let cell = m.cell as usize;
        let old = self.values[cell] as usize;
        let new = m.value as usize;
        if old == new {
            return 0.0;
        }
        let mut d = 0i32;
        for unit in self.units[cell] {
            let unit = unit as usize;
            d += (self.counts[unit + new] >= 1) as i32 - (self.counts[unit + old] >= 2) as i32;
        }
        d as f64
    }

    #[inline(always)]
    fn apply(&mut self, m: &SetCell) {
        let cell = m.cell as usize;
        let old = self.values[cell] as usize;
        self.values[cell] = m.value;
        for unit in self.units[cell] {
            self.counts[unit as usize + old] -= 1;
            self.counts[unit as usize + m.value as usize] += 1;
        }
    }

    fn randomize(&mut self, rng: &mut Rng) {
        let side = self.geometry.side as u64;
        for &cell in &self.free {
            let r = rng.next_u64();
            self.values[cell as usize] = 1 + ((r as u128 * side as u128) >> 64) as u8;
        }
        self.recount();
    }

    grid_snapshots!();

    /// "r3c4: 7 -> 5".
    fn sketch(&self, m: &SetCell) -> Option<Sketch> {
        let cell = usize::from(m.cell);
        Some(Sketch {
            words: format!(
                "{}: {} -> {}",
                self.geometry.cell_name(cell),
                self.values[cell],
                m.value
            ),
            places: vec![m.cell.into()],
            ..Sketch::default()
        })
    }
}
