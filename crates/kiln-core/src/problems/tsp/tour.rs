//! A tour as an array of cities plus the position of every city, so that both neighbours
//! of a city and segment reversals are cheap; the reversals made can be recorded, to be
//! undone in the time they took rather than by copying the whole tour back.

/// A cyclic run of positions a chain looks through as if reversed: its first position and
/// how many come after it in the run (its length less one), kept rather than its last
/// position because every look needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// The run's first position.
    pub first: u32,
    /// Positions in the run after the first.
    pub span: u32,
}

#[derive(Debug, Clone)]
pub(crate) struct Tour {
    order: Vec<u32>,
    pos: Vec<u32>,
    /// The reversals made since recording started, when it did.
    recorded: Option<Vec<(u32, u32)>>,
}

impl Tour {
    /// `order` must be a permutation of 0..n.
    pub(crate) fn new(order: Vec<u32>) -> Self {
        let mut pos = vec![0; order.len()];
        for (i, &c) in order.iter().enumerate() {
            pos[c as usize] = i as u32;
        }
        Tour {
            order,
            pos,
            recorded: None,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.order.len()
    }

    pub(crate) fn order(&self) -> &[u32] {
        &self.order
    }

    /// Replaces the order, reusing the buffers (and forgets what was recorded).
    pub(crate) fn set_order(&mut self, order: &[u32]) {
        if let Some(recorded) = &mut self.recorded {
            recorded.clear();
        }
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

    /// Where position `p` goes when `run` is reversed (its `first + o` and `first + span -
    /// o` swap places): its own inverse.
    #[inline(always)]
    fn mirrored(&self, run: Run, p: u32) -> u32 {
        let n = self.order.len() as u32;
        let wrap = |p: u32| if p >= n { p - n } else { p };
        let o = wrap(p + n - run.first);
        if o <= run.span {
            wrap(run.first + run.span - o)
        } else {
            p
        }
    }

    /// The cyclic run of positions from `i` forward to `j` (inclusive).
    pub(crate) fn run(&self, i: u32, j: u32) -> Run {
        let n = self.order.len() as u32;
        Run {
            first: i,
            span: if j >= i { j - i } else { j + n - i },
        }
    }

    /// The position of `city` once `runs` are reversed one after the other (each given in
    /// the tour the ones before it leave), without reversing them.
    #[inline(always)]
    pub(crate) fn pos_through(&self, runs: &[Run], city: u32) -> u32 {
        runs.iter()
            .fold(self.pos(city), |p, &run| self.mirrored(run, p))
    }

    /// The city after `city` (`after`) or before it once `runs` are reversed: one side
    /// only, because a chain needs one and each side costs a look back through the runs.
    #[inline(always)]
    pub(crate) fn neighbour_through(&self, runs: &[Run], city: u32, after: bool) -> u32 {
        self.beside_through(runs, self.pos_through(runs, city), after)
            .0
    }

    /// The city after position `p` (`after`) or before it once `runs` are reversed, and
    /// its position there: a chain that knows where a city lies looks only back.
    #[inline(always)]
    pub(crate) fn beside_through(&self, runs: &[Run], p: u32, after: bool) -> (u32, u32) {
        let n = self.order.len() as u32;
        let q = match after {
            true if p + 1 == n => 0,
            true => p + 1,
            false if p == 0 => n - 1,
            false => p - 1,
        };
        let at = runs.iter().rev().fold(q, |q, &run| self.mirrored(run, q));
        (self.order[at as usize], q)
    }

    /// Reverses the cyclic run of positions from `i` forward to `j` (inclusive). When that
    /// run is more than half the tour, its complement is reversed instead: the cycle comes
    /// out the same (read the other way round) at less than half the cost.
    pub(crate) fn reverse(&mut self, i: u32, j: u32) {
        if let Some(recorded) = &mut self.recorded {
            recorded.push((i, j));
        }
        self.reverse_unrecorded(i, j);
    }

    /// Starts recording the reversals made (from none), or stops.
    pub(crate) fn record(&mut self, on: bool) {
        self.recorded = on.then(Vec::new);
    }

    /// Whether the reversals made are recorded.
    pub(crate) fn recording(&self) -> bool {
        self.recorded.is_some()
    }

    /// How many reversals were recorded.
    pub(crate) fn recorded(&self) -> usize {
        self.recorded.as_ref().map_or(0, Vec::len)
    }

    /// Forgets the reversals recorded (recording goes on).
    pub(crate) fn forget_recorded(&mut self) {
        if let Some(recorded) = &mut self.recorded {
            recorded.clear();
        }
    }

    /// Undoes the reversals recorded after the first `mark`, last first: each is its own
    /// inverse (the same run, or the same complement, reversed again).
    pub(crate) fn undo_to(&mut self, mark: usize) {
        let Some(mut recorded) = self.recorded.take() else {
            return;
        };
        for &(i, j) in recorded[mark..].iter().rev() {
            self.reverse_unrecorded(i, j);
        }
        recorded.truncate(mark);
        self.recorded = Some(recorded);
    }

    /// The order before the reversals recorded, into `into`: a copy of the order with
    /// them undone, the tour left as it is.
    pub(crate) fn order_before_recorded(&self, into: &mut Vec<u32>) {
        into.clear();
        into.extend_from_slice(&self.order);
        for &(i, j) in self.recorded.iter().flatten().rev() {
            reverse_run(into, i, j, |_, _| {});
        }
    }

    fn reverse_unrecorded(&mut self, i: u32, j: u32) {
        let pos = &mut self.pos;
        reverse_run(&mut self.order, i, j, |city, p| pos[city as usize] = p);
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

    /// Swaps the cities at positions `i` and `j` (not recorded: only the annealer swaps).
    pub(crate) fn swap(&mut self, i: u32, j: u32) {
        debug_assert!(self.recorded.is_none(), "swaps are not recorded");
        self.order.swap(i as usize, j as usize);
        self.pos[self.order[i as usize] as usize] = i;
        self.pos[self.order[j as usize] as usize] = j;
    }
}

/// Reverses the cyclic run of positions from `i` forward to `j` (inclusive) of `order`, or
/// its complement when that is shorter; `moved(city, position)` is told where each city
/// it moves goes (the tour keeps its positions with it, a copy of the order needs none).
#[inline(always)]
fn reverse_run(order: &mut [u32], i: u32, j: u32, mut moved: impl FnMut(u32, u32)) {
    let n = order.len() as u32;
    let len = (j + n - i) % n + 1;
    let (mut i, mut j, len) = if 2 * len > n {
        ((j + 1) % n, (i + n - 1) % n, n - len)
    } else {
        (i, j, len)
    };
    for _ in 0..len / 2 {
        let (a, b) = (order[i as usize], order[j as usize]);
        order[i as usize] = b;
        order[j as usize] = a;
        moved(b, i);
        moved(a, j);
        i = if i + 1 == n { 0 } else { i + 1 };
        j = if j == 0 { n - 1 } else { j - 1 };
    }
}
