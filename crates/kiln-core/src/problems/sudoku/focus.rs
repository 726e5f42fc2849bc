//! Conflict-focused moves: the (line, value) pairs that occur more than once are kept in an
//! indexed set, and each pair's free cells in a list, both updated in O(1) per count change,
//! so a move can start at a cell whose value repeats in its row or column and swap it with
//! another free cell of its box without scanning anything.

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

/// Which of a cell's two lines a list entry belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Line {
    Row = 0,
    Column = 1,
}

/// Per count-table slot (line, value), the free cells of the line that hold the value.
/// Every box holds each value once (the parser refuses givens that clash, propagation
/// only places what fits) and a line crosses n boxes, so a list never grows past n.
#[derive(Debug, Clone)]
pub(super) struct Holders {
    /// The list of slot s is `cells[s * cap..][..len[s]]`, in no order.
    cells: Vec<u16>,
    len: Vec<u8>,
    /// Per cell, its index in its row's list and in its column's list.
    at: Vec<[u8; 2]>,
    cap: usize,
}

impl Holders {
    pub(super) fn new(table_len: usize, cells: usize, n: usize) -> Self {
        Holders {
            cells: vec![0; table_len * n],
            len: vec![0; table_len],
            at: vec![[0; 2]; cells],
            cap: n,
        }
    }

    pub(super) fn clear(&mut self) {
        self.len.fill(0);
    }

    #[inline(always)]
    pub(super) fn push(&mut self, slot: usize, cell: usize, line: Line) {
        let i = self.len[slot];
        debug_assert!((i as usize) < self.cap, "a value held twice in one box");
        self.cells[slot * self.cap + i as usize] = cell as u16;
        self.at[cell][line as usize] = i;
        self.len[slot] = i + 1;
    }

    #[inline(always)]
    fn remove(&mut self, slot: usize, cell: usize, line: Line) {
        let base = slot * self.cap;
        let i = self.at[cell][line as usize];
        let last_index = self.len[slot] - 1;
        let last = self.cells[base + last_index as usize];
        self.cells[base + i as usize] = last;
        self.at[last as usize][line as usize] = i;
        self.len[slot] = last_index;
    }

    /// Free cells `a` (holding x, in line `la`) and `b` (holding y, in line `lb`) have
    /// swapped values; `la` and `lb` are count-table offsets of two lines of one kind.
    #[inline(always)]
    pub(super) fn swapped(
        &mut self,
        line: Line,
        (la, a, x): (usize, usize, usize),
        (lb, b, y): (usize, usize, usize),
    ) {
        let k = line as usize;
        if la == lb {
            // Same line: each value stays in it, held by the other cell now.
            let (ia, ib) = (self.at[a][k], self.at[b][k]);
            self.cells[(la + x) * self.cap + ia as usize] = b as u16;
            self.cells[(la + y) * self.cap + ib as usize] = a as u16;
            self.at[b][k] = ia;
            self.at[a][k] = ib;
        } else {
            self.remove(la + x, a, line);
            self.remove(lb + y, b, line);
            self.push(lb + x, b, line);
            self.push(la + y, a, line);
        }
    }

    /// The free cells holding the value of `slot`.
    #[inline(always)]
    fn list(&self, slot: usize) -> &[u16] {
        &self.cells[slot * self.cap..][..self.len[slot] as usize]
    }

    /// The first free cell of `slot` that `wanted` accepts.
    #[inline(always)]
    pub(super) fn find(&self, slot: usize, wanted: impl Fn(usize) -> bool) -> Option<usize> {
        self.list(slot)
            .iter()
            .map(|&c| c as usize)
            .find(|&c| wanted(c))
    }

    /// A free cell holding the value of `slot`, chosen by `r`, if any.
    #[inline(always)]
    pub(super) fn pick(&self, slot: usize, r: u32) -> Option<usize> {
        let list = self.list(slot);
        (!list.is_empty()).then(|| list[pick(r, list.len())] as usize)
    }
}

/// Per free cell, the free cells of its box, flattened so a focused proposal reads one
/// short slice.
#[derive(Debug, Clone)]
pub(super) struct BoxPartners {
    box_cells: Vec<u16>,
    /// Per cell, the start and end of its box's free cells in `box_cells`.
    span: Vec<(u16, u16)>,
}

impl BoxPartners {
    pub(super) fn new(geometry: &super::grid::Geometry, free: &[bool]) -> Self {
        let side = geometry.side;
        let mut box_cells = Vec::new();
        let mut box_span = Vec::with_capacity(side);
        for b in 0..side {
            let start = box_cells.len() as u16;
            box_cells.extend(
                geometry
                    .box_cells(b)
                    .iter()
                    .filter(|&&c| free[c])
                    .map(|&c| c as u16),
            );
            box_span.push((start, box_cells.len() as u16));
        }
        BoxPartners {
            box_cells,
            span: geometry.box_of.iter().map(|&b| box_span[b]).collect(),
        }
    }

    /// Whether two free cells share a box.
    #[inline(always)]
    pub(super) fn same_box(&self, a: usize, b: usize) -> bool {
        self.span[a].0 == self.span[b].0
    }

    /// Another free cell of `cell`'s box, chosen by `r`, if the box has one.
    #[inline(always)]
    pub(super) fn partner(&self, cell: usize, r: u32) -> Option<usize> {
        let (start, end) = self.span[cell];
        let cells = &self.box_cells[start as usize..end as usize];
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

#[cfg(test)]
impl Holders {
    /// Each slot's cells, sorted, after checking every cell's recorded index points back at
    /// it.
    pub(super) fn sorted_lists(&self, line_of: impl Fn(usize, Line) -> bool) -> Vec<Vec<u16>> {
        (0..self.len.len())
            .map(|slot| {
                let list = self.list(slot);
                for (i, &cell) in list.iter().enumerate() {
                    let line = if line_of(slot, Line::Row) {
                        Line::Row
                    } else {
                        Line::Column
                    };
                    assert_eq!(self.at[cell as usize][line as usize] as usize, i);
                }
                let mut sorted = list.to_vec();
                sorted.sort_unstable();
                sorted
            })
            .collect()
    }
}
