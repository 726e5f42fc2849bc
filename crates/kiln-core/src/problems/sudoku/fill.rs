//! Random box fills that respect candidate marks: a random matching of a box's missing
//! values to its free cells using only allowed pairs, completed at random where no such
//! matching covers everything. Only fills are restricted; moves still go anywhere.

use rand::Rng as _;
use rand::seq::SliceRandom;

use crate::search::Rng;

/// One box's free cells, missing values and which value may go where.
#[derive(Debug, Clone)]
pub(super) struct BoxFill {
    free: Vec<usize>,
    missing: Vec<u8>,
    /// Per free cell, bit i set when missing[i] is among its marks.
    allowed: Vec<u32>,
    /// Scratch: the free cell (index) each missing value is matched to, or NONE.
    owner: Vec<u8>,
    /// Scratch: free cells in random order.
    order: Vec<u8>,
}

const NONE: u8 = u8::MAX;

impl BoxFill {
    /// `marks` is indexed by cell, bit v-1 for value v.
    pub(super) fn new(free: Vec<usize>, missing: Vec<u8>, marks: &[u32]) -> Self {
        let allowed = free
            .iter()
            .map(|&cell| {
                missing
                    .iter()
                    .enumerate()
                    .filter(|&(_, &v)| marks[cell] & (1 << (v - 1)) != 0)
                    .fold(0u32, |acc, (i, _)| acc | 1 << i)
            })
            .collect();
        let k = free.len();
        BoxFill {
            owner: vec![NONE; k],
            order: (0..k as u8).collect(),
            free,
            missing,
            allowed,
        }
    }

    /// Writes a random fill of this box into `values`.
    pub(super) fn fill(&mut self, values: &mut [u8], rng: &mut Rng) {
        let k = self.free.len();
        self.owner.fill(NONE);
        self.order.shuffle(rng);
        for i in 0..k {
            let cell = self.order[i];
            let start = if k > 0 {
                rng.next_u32() as usize % k
            } else {
                0
            };
            let mut seen = 0u32;
            self.augment(cell, start, &mut seen);
        }
        // Values no allowed matching placed go to the cells left over, in random order.
        let mut taken = 0u32;
        for (value, &cell) in self.owner.iter().enumerate() {
            if cell != NONE {
                values[self.free[cell as usize]] = self.missing[value];
                taken |= 1 << cell;
            }
        }
        let mut spare = (0..k).filter(|&v| self.owner[v] == NONE);
        for &cell in self.order.iter() {
            if taken & (1 << cell) == 0 {
                let v = spare.next().expect("as many values as cells");
                values[self.free[cell as usize]] = self.missing[v];
            }
        }
    }

    /// Kuhn's augmenting path from free cell `cell`, trying values from `start` on.
    fn augment(&mut self, cell: u8, start: usize, seen: &mut u32) -> bool {
        let k = self.free.len();
        let allowed = self.allowed[cell as usize];
        for j in 0..k {
            let v = (start + j) % k;
            if allowed & (1 << v) == 0 || *seen & (1 << v) != 0 {
                continue;
            }
            *seen |= 1 << v;
            let holder = self.owner[v];
            if holder == NONE || self.augment(holder, start, seen) {
                self.owner[v] = cell;
                return true;
            }
        }
        false
    }
}
