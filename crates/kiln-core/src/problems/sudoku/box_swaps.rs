//! The box-swap model, annealing's default for Sudoku: every box holds a permutation of its missing values, a move swaps
//! two free cells of one box (or two cells in each of two boxes, keeping every row or every
//! column), and the energy counts the values missing from rows and columns.

use std::sync::Arc;

use rand::Rng as _;

use super::fill::BoxFill;
use super::focus::{BoxPartners, Duplicates, Holders, Line, pick};
use super::grid::Geometry;
use super::snapshot::{CellKind, SudokuSnapshot, grid_snapshots};
use crate::anneal::Problem;
use crate::search::{Rng, Sketch};

/// A swap of two free cells of one box, with everything `delta` and `apply` need, so the
/// hot loop never divides or looks anything up twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Swap {
    a: u16,
    b: u16,
    /// Offsets of the cells' rows and columns in the count table.
    row_a: u16,
    row_b: u16,
    col_a: u16,
    col_b: u16,
}

/// What a move keeps unchanged besides the boxes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Keeps {
    Boxes,
    /// Two swaps in two boxes of one band that trade the same two values between the same
    /// two rows in opposite directions: every row keeps its values.
    Rows,
    /// Likewise in two boxes of one stack: every column keeps its values.
    Columns,
}

/// One swap, or two that together keep every row (or every column) as it was: a path
/// across the barrier a single swap would have to climb.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exchange {
    first: Swap,
    /// Applied after `first` unless the move keeps only the boxes.
    second: Swap,
    keeps: Keeps,
}

/// The state the annealer works on.
#[derive(Debug, Clone)]
pub struct BoxSwaps {
    geometry: Arc<Geometry>,
    kinds: Arc<[CellKind]>,
    /// 1..=side in every cell.
    values: Vec<u8>,
    /// counts[line * (side + 1) + v]: how often v occurs in the line (rows, then columns).
    counts: Vec<u8>,
    /// Every pair of free cells in one box; a move is one of them, drawn uniformly.
    swaps: Vec<Swap>,
    /// Free cells and missing values of each box, for fresh random fills.
    boxes: Vec<BoxFill>,
    /// The count slots above 1: where conflict-focused moves start.
    duplicates: Duplicates,
    /// Per count slot, the free cells holding its value: kept only while focused moves or
    /// pairs draw from it, since keeping it slows uniform swaps by about 5 %.
    holders: Option<Holders>,
    partners: BoxPartners,
    /// Per cell, the count-table offsets of its row and column.
    line_offsets: Vec<(u16, u16)>,
    /// A move is conflict-focused with probability focus / 2^32.
    focus: u32,
    /// A swap is extended to a row- or column-keeping pair with probability pairs / 2^32.
    pairs: u32,
}

impl BoxSwaps {
    /// `fixed` holds the givens and the propagated cells (0 = free); `givens` tells them
    /// apart. The free cells start as a random fill from `rng`.
    pub fn new(geometry: Arc<Geometry>, givens: &[u8], fixed: &[u8], rng: &mut Rng) -> Self {
        let all = vec![u32::MAX; fixed.len()];
        Self::with_marks(geometry, givens, fixed, &all, rng)
    }

    /// Like `new`, but random fills put values where `marks` (bit v-1 per cell) allow them,
    /// as far as a box's values can be matched to its cells that way.
    pub fn with_marks(
        geometry: Arc<Geometry>,
        givens: &[u8],
        fixed: &[u8],
        marks: &[u32],
        rng: &mut Rng,
    ) -> Self {
        let side = geometry.side;
        let kinds = CellKind::of_cells(givens, fixed);
        let offset = |line: usize| (line * (side + 1)) as u16;
        let mut swaps = Vec::new();
        let mut boxes = Vec::with_capacity(side);
        for b in 0..side {
            let cells = geometry.box_cells(b);
            let free: Vec<usize> = cells.iter().copied().filter(|&c| fixed[c] == 0).collect();
            let missing: Vec<u8> = (1..=side as u8)
                .filter(|v| !cells.iter().any(|&c| fixed[c] == *v))
                .collect();
            for (i, &a) in free.iter().enumerate() {
                for &c in &free[i + 1..] {
                    swaps.push(Swap {
                        a: a as u16,
                        b: c as u16,
                        row_a: offset(geometry.row_of[a]),
                        row_b: offset(geometry.row_of[c]),
                        col_a: offset(side + geometry.col_of[a]),
                        col_b: offset(side + geometry.col_of[c]),
                    });
                }
            }
            boxes.push(BoxFill::new(free, missing, marks));
        }
        if swaps.is_empty() {
            // Nothing is free: one do-nothing swap keeps `propose` total.
            swaps.push(Swap {
                a: 0,
                b: 0,
                row_a: 0,
                row_b: 0,
                col_a: offset(side),
                col_b: offset(side),
            });
        }
        let table = 2 * side * (side + 1);
        let free: Vec<bool> = fixed.iter().map(|&v| v == 0).collect();
        let mut state = BoxSwaps {
            values: fixed.to_vec(),
            counts: vec![0; table],
            kinds,
            swaps,
            boxes,
            duplicates: Duplicates::new(table),
            holders: None,
            partners: BoxPartners::new(&geometry, &free),
            line_offsets: (0..fixed.len())
                .map(|c| {
                    (
                        offset(geometry.row_of[c]),
                        offset(side + geometry.col_of[c]),
                    )
                })
                .collect(),
            focus: 0,
            pairs: 0,
            geometry,
        };
        state.randomize(rng);
        state
    }

    /// The grid's shape.
    pub fn geometry(&self) -> &Arc<Geometry> {
        &self.geometry
    }
    /// The grid row by row, every cell filled (1..=side).
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    /// Makes this fraction (0..=1) of the moves start at a cell whose value repeats in its
    /// row or column; the rest are uniform over all swaps.
    pub fn set_focus(&mut self, fraction: f64) {
        self.focus = (fraction.clamp(0.0, 1.0) * u32::MAX as f64) as u32;
        self.keep_holders();
    }

    /// Makes this fraction (0..=1) of the swaps try to become a pair that keeps every row
    /// or every column.
    pub fn set_pairs(&mut self, fraction: f64) {
        self.pairs = (fraction.clamp(0.0, 1.0) * u32::MAX as f64) as u32;
        self.keep_holders();
    }

    /// Builds the holder lists when a kind of move needs them, drops them when none does.
    fn keep_holders(&mut self) {
        let needed = self.focus > 0 || self.pairs > 0;
        if needed != self.holders.is_some() {
            self.holders =
                needed.then(|| Holders::new(self.counts.len(), self.values.len(), self.geometry.n));
            self.recount();
        }
    }

    /// How many (line, value) pairs occur more than once: the bookkeeping focused moves
    /// draw from (for tests).
    pub fn repeated(&self) -> usize {
        self.duplicates.len()
    }

    fn recount(&mut self) {
        self.counts.fill(0);
        if let Some(holders) = &mut self.holders {
            holders.clear();
        }
        for (cell, &v) in self.values.iter().enumerate() {
            let (row, col) = self.line_offsets[cell];
            let (row, col) = (row as usize + v as usize, col as usize + v as usize);
            self.counts[row] += 1;
            self.counts[col] += 1;
            if let Some(holders) = &mut self.holders
                && self.kinds[cell] == CellKind::Annealed
            {
                holders.push(row, cell, Line::Row);
                holders.push(col, cell, Line::Column);
            }
        }
        self.duplicates.clear();
        for slot in 0..self.counts.len() {
            if self.counts[slot] > 1 {
                self.duplicates.insert(slot);
            }
        }
    }

    /// A uniform swap, chosen by `r`.
    #[inline(always)]
    fn uniform(&self, r: u32) -> Swap {
        self.swaps[pick(r, self.swaps.len())]
    }

    /// A swap of a cell whose value repeats in a line with another free cell of its box.
    #[inline(always)]
    fn focused(&self, r: u64) -> Option<Swap> {
        let slot = self.duplicates.get(pick(r as u32, self.duplicates.len()));
        let a = self.holders.as_ref()?.pick(slot, (r >> 32) as u32)?;
        let b = self
            .partners
            .partner(a, (r >> 16) as u32 ^ (r << 16) as u32)?;
        Some(self.swap_of(a, b))
    }

    #[inline(always)]
    fn swap_of(&self, a: usize, b: usize) -> Swap {
        let (row_a, col_a) = self.line_offsets[a];
        let (row_b, col_b) = self.line_offsets[b];
        Swap {
            a: a as u16,
            b: b as u16,
            row_a,
            row_b,
            col_a,
            col_b,
        }
    }

    /// `first` (a holds x, b holds y) and a swap in another box of the band (or stack)
    /// between a cell c of a's row (column) holding y and a cell d of b's row (column)
    /// holding x, if there are such free cells: each of the two lines gets back the value
    /// `first` takes from it.
    #[inline(always)]
    fn paired(&self, first: Swap, r: u64) -> Option<Exchange> {
        let x = self.values[first.a as usize] as usize;
        let y = self.values[first.b as usize] as usize;
        let (keeps, line_a, line_b) = if r & 1 == 0 {
            (Keeps::Rows, first.row_a, first.row_b)
        } else {
            (Keeps::Columns, first.col_a, first.col_b)
        };
        let holders = self.holders.as_ref()?;
        let c = holders.pick(line_a as usize + y, (r >> 32) as u32)?;
        if self.partners.same_box(c, first.a as usize) {
            return None;
        }
        let d = holders.find(line_b as usize + x, |d| self.partners.same_box(d, c))?;
        Some(Exchange {
            first,
            second: self.swap_of(c, d),
            keeps,
        })
    }

    #[inline(always)]
    fn line_pair_delta(&self, la: u16, lb: u16, x: usize, y: usize) -> i32 {
        if la == lb {
            0
        } else {
            self.line_delta(la as usize, lb as usize, x, y)
        }
    }

    #[inline(always)]
    fn apply_swap(&mut self, m: &Swap) {
        let (a, b) = (m.a as usize, m.b as usize);
        if a == b {
            // The do-nothing swap of a grid with nothing free.
            return;
        }
        let x = self.values[a] as usize;
        let y = self.values[b] as usize;
        self.values[a] = y as u8;
        self.values[b] = x as u8;
        for (line, la, lb) in [
            (Line::Row, m.row_a, m.row_b),
            (Line::Column, m.col_a, m.col_b),
        ] {
            let (la, lb) = (la as usize, lb as usize);
            if la != lb {
                self.shift(la + x, lb + x);
                self.shift(lb + y, la + y);
            }
            if let Some(holders) = &mut self.holders {
                holders.swapped(line, (la, a, x), (lb, b, y));
            }
        }
    }

    /// Moves one occurrence of a value between two count slots, keeping `duplicates`.
    #[inline(always)]
    fn shift(&mut self, from: usize, to: usize) {
        self.counts[from] -= 1;
        if self.counts[from] == 1 {
            self.duplicates.remove(from);
        }
        self.counts[to] += 1;
        if self.counts[to] == 2 {
            self.duplicates.insert(to);
        }
    }

    /// Change in missing values of lines `la` and `lb` when `x` moves from `la` to `lb`
    /// and `y` from `lb` to `la`.
    #[inline(always)]
    fn line_delta(&self, la: usize, lb: usize, x: usize, y: usize) -> i32 {
        let c = &self.counts;
        (c[la + x] == 1) as i32 - (c[la + y] == 0) as i32 + (c[lb + y] == 1) as i32
            - (c[lb + x] == 0) as i32
    }
}

impl Problem for BoxSwaps {
    type Move = Exchange;
    type Snapshot = SudokuSnapshot;

    fn energy(&self) -> f64 {
        let side = self.geometry.side;
        let missing = self
            .counts
            .chunks(side + 1)
            .map(|line| line[1..].iter().filter(|&&n| n == 0).count())
            .sum::<usize>();
        missing as f64
    }

    #[inline(always)]
    fn propose(&self, rng: &mut Rng) -> Exchange {
        // One random word decides the kind and picks a uniform swap (multiply-shift).
        let r = rng.next_u64();
        let first = if (r as u32) < self.focus
            && self.duplicates.len() > 0
            && let Some(swap) = self.focused(rng.next_u64())
        {
            swap
        } else {
            self.uniform((r >> 32) as u32)
        };
        if self.pairs > 0 {
            let r = rng.next_u64();
            if ((r >> 1) as u32) < self.pairs
                && let Some(pair) = self.paired(first, r)
            {
                return pair;
            }
        }
        Exchange {
            first,
            second: first,
            keeps: Keeps::Boxes,
        }
    }

    #[inline(always)]
    fn delta(&self, m: &Exchange) -> f64 {
        let value = |cell: u16| self.values[cell as usize] as usize;
        let (f, s) = (&m.first, &m.second);
        let (x, y) = (value(f.a), value(f.b));
        let d = match m.keeps {
            Keeps::Boxes => {
                self.line_pair_delta(f.row_a, f.row_b, x, y)
                    + self.line_pair_delta(f.col_a, f.col_b, x, y)
            }
            // The two swaps' other lines are disjoint (different boxes of one band or
            // stack), so their changes add up.
            Keeps::Rows => {
                self.line_pair_delta(f.col_a, f.col_b, x, y)
                    + self.line_pair_delta(s.col_a, s.col_b, y, x)
            }
            Keeps::Columns => {
                self.line_pair_delta(f.row_a, f.row_b, x, y)
                    + self.line_pair_delta(s.row_a, s.row_b, y, x)
            }
        };
        d as f64
    }

    #[inline(always)]
    fn apply(&mut self, m: &Exchange) {
        self.apply_swap(&m.first);
        if m.keeps != Keeps::Boxes {
            self.apply_swap(&m.second);
        }
    }

    /// "swap r3c4 <-> r3c6", and "then r5c4 <-> r5c6" for the second swap of a pair.
    fn sketch(&self, m: &Exchange) -> Option<Sketch> {
        let swaps: &[Swap] = if m.keeps == Keeps::Boxes {
            std::slice::from_ref(&m.first)
        } else {
            &[m.first, m.second]
        };
        let name = |cell: u16| self.geometry.cell_name(cell.into());
        let words: Vec<String> = swaps
            .iter()
            .map(|s| format!("{} <-> {}", name(s.a), name(s.b)))
            .collect();
        Some(Sketch {
            words: format!("swap {}", words.join(", then ")),
            places: swaps
                .iter()
                .flat_map(|s| [s.a.into(), s.b.into()])
                .collect(),
            ..Sketch::default()
        })
    }

    fn randomize(&mut self, rng: &mut Rng) {
        for fill in &mut self.boxes {
            fill.fill(&mut self.values, rng);
        }
        self.recount();
    }

    grid_snapshots!();
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};

    use super::*;

    impl BoxSwaps {
        fn holder_lists(&self) -> Vec<Vec<u16>> {
            let rows = self.geometry.side * (self.geometry.side + 1);
            self.holders
                .as_ref()
                .expect("lists kept with focus or pairs")
                .sorted_lists(|slot, line| (slot < rows) == (line == Line::Row))
        }
    }

    #[test]
    fn the_focus_lists_match_a_recount_after_every_move() {
        let mut rng = Rng::seed_from_u64(7);
        for n in 2..=5 {
            let geometry = Arc::new(Geometry::new(n));
            let cells = geometry.cells();
            // Holes in a valid grid (the usual shifted pattern), as parsed puzzles are.
            let side = n * n;
            let fixed: Vec<u8> = (0..cells)
                .map(|c| {
                    let (r, col) = (c / side, c % side);
                    let v = ((n * (r % n) + r / n + col) % side + 1) as u8;
                    if rng.random::<f64>() < 0.3 { v } else { 0 }
                })
                .collect();
            let mut state = BoxSwaps::new(geometry, &fixed, &fixed, &mut rng);
            state.set_focus(0.7);
            state.set_pairs(0.5);
            for _ in 0..3_000 {
                let m = state.propose(&mut rng);
                state.apply(&m);
                let mut fresh = state.clone();
                fresh.recount();
                assert_eq!(state.holder_lists(), fresh.holder_lists());
            }
        }
    }
}
