//! Conflict-focused moves: the (line, value) pairs that occur more than once are kept in an
//! indexed set updated in O(1) per count change, so a move can start at a cell whose value
//! repeats in its row or column and swap it with another free cell of its box.

/// The set of count-table slots above 1, with O(1) insert, remove and uniform pick.
#[derive(Debug, Clone)]
pub(super) struct Duplicates {
    /// The slots in the set, in no order.
    slots: Vec<u16>,
    /// Where each slot sits in `slots`, or ABSENT.
    position: Vec<u16>,
}

const ABSENT: u16 = u16::MAX;

impl Duplicates {
    pub(super) fn new(table_len: usize) -> Self {
        Duplicates {
            slots: Vec::with_capacity(table_len),
            position: vec![ABSENT; table_len],
        }
    }

    pub(super) fn clear(&mut self) {
        for &s in &self.slots {
            self.position[s as usize] = ABSENT;
        }
        self.slots.clear();
    }

    pub(super) fn len(&self) -> usize {
        self.slots.len()
    }

    pub(super) fn get(&self, i: usize) -> usize {
        self.slots[i] as usize
    }

    #[inline(always)]
    pub(super) fn insert(&mut self, slot: usize) {
        self.position[slot] = self.slots.len() as u16;
        self.slots.push(slot as u16);
    }

    #[inline(always)]
    pub(super) fn remove(&mut self, slot: usize) {
        let at = self.position[slot] as usize;
        let last = self.slots.pop().expect("a slot in the set");
        if at < self.slots.len() {
            self.slots[at] = last;
            self.position[last as usize] = at as u16;
        }
        self.position[slot] = ABSENT;
    }
}

/// Where free cells sit, flattened so a focused proposal reads only short slices.
#[derive(Debug, Clone)]
pub(super) struct FreeCells {
    /// Free cells of each line (rows, then columns): `line_cells[line_start[l]..line_start[l + 1]]`.
    line_cells: Vec<u16>,
    line_start: Vec<u16>,
    /// Free cells of each box, likewise.
    box_cells: Vec<u16>,
    box_start: Vec<u16>,
    /// Per cell, its box.
    box_of: Vec<u8>,
    /// Per count-table slot, its line and value.
    slot_line: Vec<u8>,
    slot_value: Vec<u8>,
}

/// Flattens lists of cells into one array plus start offsets.
fn flatten(lists: impl Iterator<Item = Vec<usize>>) -> (Vec<u16>, Vec<u16>) {
    let mut cells = Vec::new();
    let mut start = vec![0u16];
    for list in lists {
        cells.extend(list.iter().map(|&c| c as u16));
        start.push(cells.len() as u16);
    }
    (cells, start)
}

impl FreeCells {
    pub(super) fn new(geometry: &super::grid::Geometry, free: &[bool]) -> Self {
        let side = geometry.side;
        let free_of = |unit: usize| -> Vec<usize> {
            geometry.units[unit]
                .iter()
                .copied()
                .filter(|&c| free[c])
                .collect()
        };
        let (line_cells, line_start) = flatten((0..2 * side).map(free_of));
        let (box_cells, box_start) = flatten((2 * side..3 * side).map(free_of));
        let slots = 2 * side * (side + 1);
        FreeCells {
            line_cells,
            line_start,
            box_cells,
            box_start,
            box_of: geometry.box_of.iter().map(|&b| b as u8).collect(),
            slot_line: (0..slots).map(|s| (s / (side + 1)) as u8).collect(),
            slot_value: (0..slots).map(|s| (s % (side + 1)) as u8).collect(),
        }
    }

    /// A free cell that holds the repeated value of `slot`, chosen by `r`, if any.
    #[inline(always)]
    pub(super) fn repeated_cell(&self, slot: usize, values: &[u8], r: u32) -> Option<usize> {
        let line = self.slot_line[slot] as usize;
        let value = self.slot_value[slot];
        let cells =
            &self.line_cells[self.line_start[line] as usize..self.line_start[line + 1] as usize];
        let mut found = [0u16; 32];
        let mut n = 0;
        for &c in cells {
            found[n] = c;
            n += (values[c as usize] == value) as usize;
        }
        (n > 0).then(|| found[pick(r, n)] as usize)
    }

    /// Another free cell of `cell`'s box, chosen by `r`, if the box has one.
    #[inline(always)]
    pub(super) fn box_partner(&self, cell: usize, r: u32) -> Option<usize> {
        let b = self.box_of[cell] as usize;
        let cells = &self.box_cells[self.box_start[b] as usize..self.box_start[b + 1] as usize];
        if cells.len() < 2 {
            return None;
        }
        // Uniform over the others: draw among len-1 and let `cell` stand for the last one.
        let i = pick(r, cells.len() - 1);
        let other = cells[i] as usize;
        Some(if other == cell {
            cells[cells.len() - 1] as usize
        } else {
            other
        })
    }
}

/// `r` scaled to 0..n (multiply-shift).
#[inline(always)]
pub(super) fn pick(r: u32, n: usize) -> usize {
    ((r as u64 * n as u64) >> 32) as usize
}
