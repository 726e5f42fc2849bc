//! Sequential k-opt moves (the steps of a Lin-Kernighan chain): whether one leaves a
//! single tour, and the block reversals (2-opt exchanges) that make it, found once for
//! every way its segments can be rearranged.

use std::collections::HashMap;
use std::sync::OnceLock;

/// The edges a chain's step breaks at most.
pub(super) const STEP_EDGES: usize = 3;

/// A block reversal: the cities from `x` to `y` between `u` and `v` turned round, i.e. the
/// 2-opt exchange that breaks (u, x) and (y, v) and joins (u, y) and (x, v).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Reversal {
    /// The city before the block.
    pub(super) u: u32,
    /// The block's first city.
    pub(super) x: u32,
    /// Its last.
    pub(super) y: u32,
    /// The city after it.
    pub(super) v: u32,
}

/// Each arrangement's [`key`] and the reversals that make it.
type Plans = HashMap<u32, Vec<(u8, u8)>>;

/// The reversals of blocks of segments (positions `a..=b` of the segments after the first)
/// that turn `m` segments in order into each signed arrangement, fewest first found by a
/// breadth-first search once per `m`.
fn plans(m: usize) -> &'static Plans {
    static PLANS: OnceLock<Vec<Plans>> = OnceLock::new();
    &PLANS.get_or_init(|| (0..=STEP_EDGES).map(plan_all).collect())[m]
}

/// An arrangement of segments 1..m (segment 0 first and forward): 4 bits a place.
fn key(arrangement: &[(u8, bool)]) -> u32 {
    arrangement.iter().fold(0, |k, &(s, forward)| {
        k << 4 | (s as u32) << 1 | forward as u32
    })
}

fn plan_all(m: usize) -> Plans {
    let mut plans = HashMap::new();
    if m < 2 {
        return plans;
    }
    let start: Vec<(u8, bool)> = (1..m as u8).map(|s| (s, true)).collect();
    plans.insert(key(&start), Vec::new());
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(arrangement) = queue.pop_front() {
        let path = plans[&key(&arrangement)].clone();
        for a in 0..arrangement.len() {
            for b in a..arrangement.len() {
                let mut next = arrangement.clone();
                next[a..=b].reverse();
                for place in &mut next[a..=b] {
                    place.1 = !place.1;
                }
                let k = key(&next);
                if let std::collections::hash_map::Entry::Vacant(e) = plans.entry(k) {
                    let mut longer = path.clone();
                    longer.push((a as u8 + 1, b as u8 + 1));
                    e.insert(longer);
                    queue.push_back(next);
                }
            }
        }
    }
    plans
}

/// A sequential k-opt move: its cities `t[0..2k]` (it breaks (t[2i], t[2i+1]) and joins
/// (t[2i+1], t[2i+2]) and (t[2k-1], t[0])), where they lie in the tour looked at, and,
/// bit `i` of `follows`, whether t[2i+1] follows t[2i] there.
#[derive(Debug, Clone, Copy)]
pub(super) struct Step<'a> {
    /// The move's cities.
    pub(super) t: &'a [u32],
    /// Their positions in the tour looked at: a chain knows them from finding the cities,
    /// and looking them up again through its reversals cost a sixth of its time.
    pub(super) at: &'a [u32],
    /// Bit `i`: whether t[2i+1] follows t[2i].
    pub(super) follows: u32,
}

impl Step<'_> {
    /// Where the first (in tour order) of the cities of edge `i` lies.
    #[inline(always)]
    fn first_at(&self, i: u8) -> u32 {
        let i = i as usize;
        self.at[2 * i + (self.follows >> i & 1 == 0) as usize]
    }

    /// Which of its edges come in which order along the tour looked at.
    #[inline(always)]
    fn tour_order(&self) -> [u8; STEP_EDGES] {
        let mut order: [u8; STEP_EDGES] = std::array::from_fn(|i| i as u8);
        // At most three: an insertion sort in place.
        for j in 1..self.t.len() / 2 {
            for i in (0..j).rev() {
                if self.first_at(order[i]) > self.first_at(order[i + 1]) {
                    order.swap(i, i + 1);
                }
            }
        }
        order
    }
}

/// The arrangement a `k`-edge move whose edges come in `order` along the tour leaves
/// ([`Segments::walk`] by its shape).
#[inline(always)]
fn arrangement(k: usize, order: &[u8], follows: u32) -> Option<Arrangement> {
    arrangements(k)[shape(k, order, follows & ((1 << k) - 1))]
}

/// The segments a move leaves: segment j runs from the second city of broken edge j to
/// the first of edge j + 1, the edges in tour order; each (position, first, second), and
/// which of the move's edges it is.
struct Segments {
    edges: [(u32, u32, u32); STEP_EDGES],
    order: [u8; STEP_EDGES],
    k: usize,
}

/// A new tour as the segments after segment 0, each entered at its start or not.
type Arrangement = [(u8, bool); STEP_EDGES];

/// A move's shape: which of its edges come in which order along the tour, and which way
/// each is broken (`follows`). Whether it closes, and how, depends on nothing else.
fn shape(k: usize, order: &[u8], follows: u32) -> usize {
    order[..k]
        .iter()
        .fold(follows as usize, |s, &i| s * k + i as usize)
}

/// The arrangement each shape of a `k`-edge move leaves, `None` when it leaves more than
/// one cycle: found once by walking a move of every shape (walking each move a chain
/// weighs cost the local search 6-7 % of its time).
fn arrangements(k: usize) -> &'static [Option<Arrangement>] {
    static TABLES: OnceLock<Vec<Vec<Option<Arrangement>>>> = OnceLock::new();
    &TABLES.get_or_init(|| (0..=STEP_EDGES).map(arrange_all).collect())[k]
}

fn arrange_all(k: usize) -> Vec<Option<Arrangement>> {
    let shapes = (1 << k) * k.pow(k as u32);
    let mut table = vec![None; if k < 2 { 0 } else { shapes }];
    for (index, entry) in table.iter_mut().enumerate() {
        let (follows, mut code) = (index / k.pow(k as u32), index % k.pow(k as u32));
        // Edge `order[j]` is the j-th along a tour whose cities lie at their own number.
        let mut order = [0u8; STEP_EDGES];
        for j in (0..k).rev() {
            order[j] = (code % k) as u8;
            code /= k;
        }
        if (1..k).any(|j| order[..j].contains(&order[j])) {
            continue;
        }
        let mut t = [0u32; 2 * STEP_EDGES];
        for (j, &i) in order[..k].iter().enumerate() {
            let (a, b) = (2 * j as u32, 2 * j as u32 + 1);
            let i = i as usize;
            (t[2 * i], t[2 * i + 1]) = if follows >> i & 1 == 1 {
                (a, b)
            } else {
                (b, a)
            };
        }
        let step = Step {
            t: &t[..2 * k],
            at: &t[..2 * k],
            follows: follows as u32,
        };
        *entry = Segments::of(step).walk(step.t);
    }
    table
}

impl Segments {
    fn of(step: Step) -> Self {
        let k = step.t.len() / 2;
        let order = step.tour_order();
        let mut edges = [(0u32, 0u32, 0u32); STEP_EDGES];
        for (edge, &i) in edges.iter_mut().zip(&order[..k]) {
            let (a, b) = (step.t[2 * i as usize], step.t[2 * i as usize + 1]);
            *edge = if step.follows >> i & 1 == 1 {
                (step.first_at(i), a, b)
            } else {
                (step.first_at(i), b, a)
            };
        }
        Segments { edges, order, k }
    }

    /// The segment `city` ends, and whether it is that segment's start.
    fn of_city(&self, city: u32) -> (usize, bool) {
        let k = self.k;
        for (j, e) in self.edges[..k].iter().enumerate() {
            if e.2 == city {
                return (j, true);
            }
            if e.1 == city {
                return (if j == 0 { k - 1 } else { j - 1 }, false);
            }
        }
        unreachable!("a move's city ends a segment")
    }

    fn ends(&self, j: usize) -> (u32, u32) {
        (self.edges[j].2, self.edges[(j + 1) % self.k].1)
    }

    /// The new tour as segments after segment 0 (each entered at its start or not), or
    /// `None` when the move leaves more than one cycle.
    fn walk(&self, t: &[u32]) -> Option<Arrangement> {
        let k = self.k;
        let joined_to = |city: u32| {
            let i = t.iter().position(|&c| c == city).expect("a move's city");
            t[match i {
                0 => 2 * k - 1,
                i if i == 2 * k - 1 => 0,
                i if i % 2 == 1 => i + 1,
                i => i - 1,
            }]
        };
        let mut arrangement = [(0u8, true); STEP_EDGES];
        let mut at = self.ends(0).1;
        for place in arrangement.iter_mut().take(k - 1) {
            let (s, start) = self.of_city(joined_to(at));
            if s == 0 {
                return None;
            }
            *place = (s as u8, start);
            at = if start {
                self.ends(s).1
            } else {
                self.ends(s).0
            };
        }
        (self.of_city(joined_to(at)) == (0, true)).then_some(arrangement)
    }
}

/// Whether `step` leaves one tour of the tour looked at.
#[inline]
pub(super) fn closes(step: Step) -> bool {
    let k = step.t.len() / 2;
    arrangement(k, &step.tour_order(), step.follows).is_some()
}

/// The reversals that make `step` (which [`closes`]) in the tour looked at, into `out`.
pub(super) fn reversals(step: Step, out: &mut Vec<Reversal>) {
    let segments = Segments::of(step);
    let k = segments.k;
    out.clear();
    let Some(arrangement) = arrangement(k, &segments.order, step.follows) else {
        debug_assert!(false, "a step that does not close");
        return;
    };
    let plan = &plans(k)[&key(&arrangement[..k - 1])];
    // Play the plan on the segments as they lie, naming each block's cities.
    let mut lying = [(0u8, true); STEP_EDGES];
    for (s, place) in lying.iter_mut().enumerate().take(k) {
        *place = (s as u8, true);
    }
    let first = |(s, forward): (u8, bool)| {
        let (a, b) = segments.ends(s as usize);
        if forward { a } else { b }
    };
    let last = |(s, forward): (u8, bool)| {
        let (a, b) = segments.ends(s as usize);
        if forward { b } else { a }
    };
    for &(a, b) in plan {
        let (a, b) = (a as usize, b as usize);
        out.push(Reversal {
            u: last(lying[a - 1]),
            x: first(lying[a]),
            y: last(lying[b]),
            v: first(lying[(b + 1) % k]),
        });
        lying[a..=b].reverse();
        for place in &mut lying[a..=b] {
            place.1 = !place.1;
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::anneal::Problem;
    use crate::problems::tsp::problem::{Cost, Init, Move, MoveSet, TspProblem};
    use crate::problems::tsp::tour::Run;
    use crate::problems::tsp::{Layout, random};
    use crate::search::Rng;
    use rand::{RngExt, SeedableRng};
    use std::collections::BTreeSet;
    use std::sync::Arc;

    /// A tour's edges, each (smaller city, larger).
    pub(in crate::problems::tsp) fn edges(order: &[u32]) -> BTreeSet<(u32, u32)> {
        let n = order.len();
        (0..n)
            .map(|i| {
                let (a, b) = (order[i], order[(i + 1) % n]);
                (a.min(b), a.max(b))
            })
            .collect()
    }

    /// The edges left when breaking (t[2i], t[2i+1]) and joining (t[2i+1], t[2i+2]) and
    /// (t[last], t[0]) in the tour `order`, if they make one tour: a brute-force walk, for
    /// the chain's tests too.
    pub(in crate::problems::tsp) fn one_tour(
        order: &[u32],
        t: &[u32],
    ) -> Option<BTreeSet<(u32, u32)>> {
        let n = order.len();
        let key = |a: u32, b: u32| (a.min(b), a.max(b));
        let mut left: Vec<(u32, u32)> = edges(order).into_iter().collect();
        for pair in t.chunks(2) {
            let at = left.iter().position(|&e| e == key(pair[0], pair[1]))?;
            left.swap_remove(at);
        }
        for i in 0..t.len() / 2 {
            left.push(key(t[2 * i + 1], t[(2 * i + 2) % t.len()]));
        }
        let mut next = vec![Vec::new(); n];
        for &(a, b) in &left {
            next[a as usize].push(b);
            next[b as usize].push(a);
        }
        if next.iter().any(|e| e.len() != 2 || e[0] == e[1]) {
            return None;
        }
        let (mut prev, mut at, mut seen) = (0, next[0][0], 1);
        while at != 0 {
            let step = if next[at as usize][0] == prev { 1 } else { 0 };
            (prev, at) = (at, next[at as usize][step]);
            seen += 1;
        }
        (seen == n).then(|| left.into_iter().collect())
    }

    #[test]
    fn a_sequential_move_is_made_exactly_when_it_leaves_one_tour() {
        let instance = Arc::new(random::instance(14, Layout::Uniform, 3));
        let mut rng = Rng::seed_from_u64(5);
        let (mut made, mut refused) = (0, 0);
        for trial in 0..4000 {
            let problem = TspProblem::new(
                Arc::clone(&instance),
                MoveSet::TwoOpt,
                Cost::Euclidean,
                5,
                Init::Random,
                &mut rng,
            );
            // Half the time through a reversal not made, as a chain's later steps look.
            let runs: Vec<Run> = if trial % 2 == 0 {
                Vec::new()
            } else {
                let (i, j) = (rng.random_range(0..14u32), rng.random_range(0..14u32));
                vec![Run {
                    first: i.min(j),
                    span: i.max(j) - i.min(j),
                }]
            };
            let mut seen = problem.clone();
            if let Some(&run) = runs.first() {
                seen.apply(&Move::Reverse {
                    i: run.first,
                    j: run.first + run.span,
                });
            }
            let k = rng.random_range(2..=STEP_EDGES);
            let (mut t, mut follows) = (Vec::new(), 0);
            while t.len() < 2 * k {
                let a = rng.random_range(0..14u32);
                let after = rng.random();
                let b = problem.neighbour_through(&runs, a, after);
                if !t.contains(&a) && !t.contains(&b) {
                    follows |= (after as u32) << (t.len() / 2);
                    t.extend([a, b]);
                }
            }
            let at: Vec<u32> = t.iter().map(|&c| problem.pos_through(&runs, c)).collect();
            let step = Step {
                t: &t,
                at: &at,
                follows,
            };
            let mut out = Vec::new();
            let expected = one_tour(seen.order(), &t);
            assert_eq!(closes(step), expected.is_some(), "{t:?}");
            if let Some(expected) = expected {
                reversals(step, &mut out);
                for r in &out {
                    seen.exchange(r.u, r.x, r.y, r.v);
                }
                assert_eq!(edges(seen.order()), expected, "{t:?}");
                made += 1;
            } else {
                refused += 1;
            }
        }
        assert!(
            made > 500 && refused > 500,
            "{made} made, {refused} refused"
        );
    }

    #[test]
    fn every_arrangement_of_the_segments_has_a_plan() {
        // (m - 1)! 2^(m - 1) signed arrangements of the segments after the first.
        for (m, count) in [(2, 2), (3, 8)] {
            assert_eq!(plans(m).len(), count, "{m} segments");
        }
        assert!(plans(3).values().all(|p| p.len() <= 3));
    }
}
