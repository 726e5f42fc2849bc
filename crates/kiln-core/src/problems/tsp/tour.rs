//! A tour as an array of cities plus the position of every city, so that both neighbours
//! of a city and segment reversals are cheap.

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Tour {
    order: Vec<u32>,
    pos: Vec<u32>,
}

impl Tour {
    /// `order` must be a permutation of 0..n.
    pub(crate) fn new(order: Vec<u32>) -> Self {
        let mut pos = vec![0; order.len()];
        for (i, &c) in order.iter().enumerate() {
            pos[c as usize] = i as u32;
        }
        Tour { order, pos }
    }

    pub(crate) fn len(&self) -> usize {
        self.order.len()
    }

    pub(crate) fn order(&self) -> &[u32] {
        &self.order
    }

    /// Replaces the order, reusing the buffers.
    pub(crate) fn set_order(&mut self, order: &[u32]) {
        self.order.clear();
        self.order.extend_from_slice(order);
        for (i, &c) in order.iter().enumerate() {
            self.pos[c as usize] = i as u32;
        }
    }

    #[inline(always)]
    pub(crate) fn pos(&self, city: u32) -> u32 {
        self.pos[city as usize]
    }

    /// The city at position `i` taken cyclically; `i < 2n`.
    #[inline(always)]
    pub(crate) fn at(&self, i: u32) -> u32 {
        let n = self.order.len() as u32;
        self.order[if i >= n { i - n } else { i } as usize]
    }

    #[inline(always)]
    pub(crate) fn next(&self, city: u32) -> u32 {
        self.at(self.pos(city) + 1)
    }

    #[inline(always)]
    pub(crate) fn prev(&self, city: u32) -> u32 {
        self.at(self.pos(city) + self.order.len() as u32 - 1)
    }

    /// Where position `p` goes when the cyclic run of positions `i..=j` is reversed (its
    /// `i + o` and `j - o` swap places): its own inverse.
    #[inline(always)]
    fn mirrored(&self, (i, j): (u32, u32), p: u32) -> u32 {
        let n = self.order.len() as u32;
        let wrap = |p: u32| if p >= n { p - n } else { p };
        let span = wrap(j + n - i);
        let o = wrap(p + n - i);
        if o <= span { wrap(i + span - o) } else { p }
    }

    /// The position of `city` once `runs` are reversed one after the other (each given in
    /// the tour the ones before it leave), without reversing them.
    #[inline(always)]
    pub(crate) fn pos_through(&self, runs: &[(u32, u32)], city: u32) -> u32 {
        runs.iter().fold(self.pos(city), |p, &run| self.mirrored(run, p))
    }

    /// The neighbours (previous, next) of `city` once `runs` are reversed.
    #[inline(always)]
    pub(crate) fn neighbours_through(&self, runs: &[(u32, u32)], city: u32) -> (u32, u32) {
        let n = self.order.len() as u32;
        let p = self.pos_through(runs, city);
        let at = |q: u32| {
            let q = runs.iter().rev().fold(q, |q, &run| self.mirrored(run, q));
            self.order[q as usize]
        };
        (at(if p == 0 { n - 1 } else { p - 1 }), at(if p + 1 == n { 0 } else { p + 1 }))
    }

    /// Reverses the cyclic run of positions from `i` forward to `j` (inclusive). When that
    /// run is more than half the tour, its complement is reversed instead: the cycle comes
    /// out the same (read the other way round) at less than half the cost.
    pub(crate) fn reverse(&mut self, i: u32, j: u32) {
        let n = self.order.len() as u32;
        let len = (j + n - i) % n + 1;
        let (mut i, mut j, len) = if 2 * len > n {
            ((j + 1) % n, (i + n - 1) % n, n - len)
        } else {
            (i, j, len)
        };
        for _ in 0..len / 2 {
            let (a, b) = (self.order[i as usize], self.order[j as usize]);
            self.order[i as usize] = b;
            self.order[j as usize] = a;
            self.pos[b as usize] = i;
            self.pos[a as usize] = j;
            i = if i + 1 == n { 0 } else { i + 1 };
            j = if j == 0 { n - 1 } else { j - 1 };
        }
    }

    /// The 2-opt exchange that removes edges (t1,t2) and (t3,t4) and adds (t1,t3) and
    /// (t2,t4). t2 must follow t1 in the same direction as t4 follows t3.
    pub(crate) fn exchange(&mut self, t1: u32, t2: u32, t3: u32, t4: u32) {
        if self.next(t1) == t2 {
            self.reverse(self.pos(t2), self.pos(t3));
        } else {
            self.reverse(self.pos(t1), self.pos(t4));
        }
    }

    /// Swaps the cities at positions `i` and `j`.
    pub(crate) fn swap(&mut self, i: u32, j: u32) {
        self.order.swap(i as usize, j as usize);
        self.pos[self.order[i as usize] as usize] = i;
        self.pos[self.order[j as usize] as usize] = j;
    }
}
