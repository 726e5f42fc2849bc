//! Alpha-nearness candidates (Helsgaun 2000, the heart of LKH): alpha(i, j) is how much
//! longer the minimum spanning tree gets when the edge (i, j) is forced into it, i.e. the
//! edge's length less the longest edge on the tree's path from i to j (0 for a tree
//! edge). Edge lengths are first lifted by node penalties pi (a short subgradient ascent
//! towards the Held-Karp bound, which pushes the tree towards degree 2 everywhere, like a
//! tour), so that alpha ranks the edges an optimal tour uses far better than distance
//! alone does.
//!
//! Everything is done on a sparse graph (the quadrant lists of `nearest`, a few more per
//! city than the descent uses, made symmetric): O(n k log n), not LKH's O(n^2).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Instant;

/// Lengths are scaled by this before penalties are added, so that integer penalties can
/// be finer than one unit of length (LKH's PRECISION).
pub(super) const SCALE: i64 = 100;

/// How long the subgradient ascent goes on for `n` cities, and how its step falls: LKH's
/// periods below `SMALL_UP_TO` cities, where (with the kicks' descents stopping once
/// undone) they reached the optima of 439-1,084-city instances sooner than 300 trees of
/// the schedule used above; from there 100 trees up to 10,000 cities, where they left
/// tours shorter at equal wall time than 30 did (and 300 no shorter, nor LKH's periods cut
/// at 100 trees), falling to 60 from about 16,700, where 60 left 100,000-city tours
/// shorter than 30 and 100 did; a time limit cuts it shorter still (docs/tuning.md).
pub(super) fn ascent_schedule(n: usize) -> Schedule {
    if n < SMALL_UP_TO {
        Schedule::Periods
    } else {
        Schedule::Stalls {
            trees: (1_000_000 / n).clamp(60, 100),
        }
    }
}

const SMALL_UP_TO: usize = 2_000;

/// How long the ascent goes on and how its step falls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Schedule {
    /// LKH's (`Ascent.c`): the step starts at one unit of length and doubles while the
    /// bound rises (the initial phase); then periods of trees, the first n/8 long (at
    /// least [`FIRST_PERIOD_MIN`]; LKH's n/2, with three times the trees, reached the
    /// optima of four of the six instances later), each half the one before with half
    /// the step, a period doubled again when its last tree raised the bound. It ends by
    /// itself, after 190-710 trees at 439-1,084 cities.
    Periods,
    /// At most `trees` trees, the first (without penalties) included: the step doubles
    /// while the bound rises at first, then halves whenever it has not risen for
    /// [`STALL_TREES`] trees.
    Stalls { trees: usize },
}

/// The shortest first period of [`Schedule::Periods`].
const FIRST_PERIOD_MIN: usize = 50;

/// Trees without a rise after which [`Schedule::Stalls`] halves its step.
const STALL_TREES: u32 = 3;

/// The sparse graph's edges per city for `k` candidates: room for the alpha-nearest to
/// differ from the nearest.
pub(super) fn sparse_k(k: usize) -> usize {
    (2 * k).max(10)
}

/// A symmetric sparse graph: the neighbours of `a` are `to[starts[a]..starts[a + 1]]`,
/// with the lengths of the edges to them in `length`.
pub(super) struct Sparse {
    starts: Vec<u32>,
    to: Vec<u32>,
    length: Vec<u32>,
}

impl Sparse {
    /// The graph of the edges from every city to the `k` of `lists` (n k of them, flat),
    /// both ways, each once.
    pub(super) fn new(
        n: usize,
        k: usize,
        lists: &[u32],
        distance: impl Fn(u32, u32) -> u32,
    ) -> Self {
        let mut degree = vec![0u32; n + 1];
        for (i, &b) in lists.iter().enumerate() {
            degree[i / k] += 1;
            degree[b as usize] += 1;
        }
        let mut starts = vec![0u32; n + 1];
        for a in 0..n {
            starts[a + 1] = starts[a] + degree[a];
        }
        let mut to = vec![0u32; starts[n] as usize];
        let mut next: Vec<u32> = starts[..n].to_vec();
        let mut put = |a: usize, b: u32| {
            to[next[a] as usize] = b;
            next[a] += 1;
        };
        for (i, &b) in lists.iter().enumerate() {
            put(i / k, b);
            put(b as usize, (i / k) as u32);
        }
        // Each city's neighbours sorted and once each, packed to the front.
        let mut packed = 0usize;
        let mut packed_starts = vec![0u32; n + 1];
        for a in 0..n {
            let (from, until) = (starts[a] as usize, starts[a + 1] as usize);
            to[from..until].sort_unstable();
            let mut last = None;
            for i in from..until {
                let b = to[i];
                if last != Some(b) {
                    to[packed] = b;
                    packed += 1;
                    last = Some(b);
                }
            }
            packed_starts[a + 1] = packed as u32;
        }
        to.truncate(packed);
        to.shrink_to_fit();
        let mut length = Vec::with_capacity(packed);
        for a in 0..n {
            let edges = packed_starts[a] as usize..packed_starts[a + 1] as usize;
            length.extend(to[edges].iter().map(|&b| distance(a as u32, b)));
        }
        Sparse {
            starts: packed_starts,
            to,
            length,
        }
    }

    fn len(&self) -> usize {
        self.starts.len() - 1
    }

    fn edges(&self, a: usize) -> impl Iterator<Item = (u32, u32)> + '_ {
        let range = self.starts[a] as usize..self.starts[a + 1] as usize;
        self.to[range.clone()]
            .iter()
            .copied()
            .zip(self.length[range].iter().copied())
    }
}

/// A minimum spanning tree of the sparse graph under penalties, rooted at city 0:
/// each city's parent and the (penalised) weight of the edge to it, the cities in the
/// order they joined (parents first), and each city's degree.
struct Tree {
    parent: Vec<u32>,
    weight: Vec<i64>,
    order: Vec<u32>,
    degree: Vec<u32>,
    /// The sum of the tree's penalised weights.
    cost: i64,
}

fn weight(length: u32, pi: &[i64], a: usize, b: usize) -> i64 {
    i64::from(length) * SCALE + pi[a] + pi[b]
}

/// Prim's algorithm on `graph` with lengths lifted by `pi`. A part of the graph that the
/// rest does not reach (far clusters) joins the tree through its nearest city to the
/// tree, found by a scan, with `distance`.
fn spanning_tree(graph: &Sparse, pi: &[i64], distance: &impl Fn(u32, u32) -> u32) -> Tree {
    let n = graph.len();
    let mut parent = vec![u32::MAX; n];
    let mut weight_to = vec![i64::MAX; n];
    let mut done = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut degree = vec![0u32; n];
    let mut heap: BinaryHeap<Reverse<(i64, u32)>> = BinaryHeap::with_capacity(n);
    let mut cost = 0;
    let mut next_unreached = 0usize;
    weight_to[0] = 0;
    heap.push(Reverse((0, 0)));
    while order.len() < n {
        let Some(Reverse((w, a))) = heap.pop() else {
            // A part the sparse edges do not reach: join its first city by the nearest
            // edge to the tree.
            while done[next_unreached] {
                next_unreached += 1;
            }
            let a = next_unreached;
            let (d, b) = order
                .iter()
                .map(|&b| (distance(a as u32, b), b))
                .min()
                .expect("the tree has its root");
            let w = weight(d, pi, a, b as usize);
            parent[a] = b;
            weight_to[a] = w;
            heap.push(Reverse((w, a as u32)));
            continue;
        };
        let a = a as usize;
        if done[a] || w != weight_to[a] {
            continue;
        }
        done[a] = true;
        order.push(a as u32);
        if parent[a] != u32::MAX {
            cost += w;
            degree[a] += 1;
            degree[parent[a] as usize] += 1;
        }
        for (b, length) in graph.edges(a) {
            let b = b as usize;
            let w = weight(length, pi, a, b);
            if !done[b] && w < weight_to[b] {
                weight_to[b] = w;
                parent[b] = a as u32;
                heap.push(Reverse((w, b as u32)));
            }
        }
    }
    Tree {
        parent,
        weight: weight_to,
        order,
        degree,
        cost,
    }
}

/// Penalties from a subgradient ascent on the tree's lower bound (the Held-Karp bound of
/// a spanning tree whose every city should have degree 2), on `schedule` and ending by
/// `until`: the best penalties found.
fn ascent(
    graph: &Sparse,
    distance: &impl Fn(u32, u32) -> u32,
    schedule: Schedule,
    until: Option<Instant>,
) -> Vec<i64> {
    let mut climb = Climb::new(graph, distance);
    let out_of_time = || until.is_some_and(|until| Instant::now() >= until);
    match schedule {
        Schedule::Periods => climb.periods(out_of_time),
        Schedule::Stalls { trees } => climb.stalls(trees, out_of_time),
    }
    climb.best_pi
}

/// An ascent under way: the penalties, the tree's last two degrees less 2 at every city,
/// and the best bound and its penalties.
struct Climb<'a, D> {
    graph: &'a Sparse,
    distance: &'a D,
    pi: Vec<i64>,
    v: Vec<i64>,
    last_v: Vec<i64>,
    now: Bound,
    best: Bound,
    best_pi: Vec<i64>,
}

impl<'a, D: Fn(u32, u32) -> u32> Climb<'a, D> {
    /// From no penalties, and their tree.
    fn new(graph: &'a Sparse, distance: &'a D) -> Self {
        let n = graph.len();
        let pi = vec![0i64; n];
        let mut v = vec![0i64; n];
        let now = Bound::of(&spanning_tree(graph, &pi, distance), &pi, &mut v);
        Climb {
            graph,
            distance,
            best_pi: pi.clone(),
            pi,
            v,
            last_v: vec![0i64; n],
            now,
            best: now,
        }
    }

    /// Moves the penalties a `step` along the degrees (with a little of the last tree's),
    /// at every city or only where the degree is off 2, and makes their tree.
    fn push(&mut self, step: i64, settled_too: bool) {
        for ((pi, &v), last) in self.pi.iter_mut().zip(&self.v).zip(&mut self.last_v) {
            if settled_too || v != 0 {
                *pi += step * (7 * v + 3 * *last) / 10;
            }
            *last = v;
        }
        let tree = spanning_tree(self.graph, &self.pi, self.distance);
        self.now = Bound::of(&tree, &self.pi, &mut self.v);
    }

    /// Keeps the penalties if `better`.
    fn keep_if(&mut self, better: bool) -> bool {
        if better {
            self.best = self.now;
            self.best_pi.clone_from(&self.pi);
        }
        better
    }

    /// [`Schedule::Periods`], stopped early by `out_of_time`.
    fn periods(&mut self, out_of_time: impl Fn() -> bool) {
        // LKH's, the first tree's degrees standing in for the one before it.
        self.last_v.clone_from(&self.v);
        let n = self.graph.len();
        let first_period = (n / 8).max(FIRST_PERIOD_MIN);
        let (mut period, mut step) = (first_period, SCALE);
        let mut initial = true;
        let mut trees = 0;
        while period > 0 && step > 0 && !self.now.is_path() {
            let mut p = 1;
            while p <= period && step > 0 && !self.now.is_path() {
                // A guard: the bound of a spanning tree (one edge short of a tour) can
                // drift up as all penalties fall together.
                if trees == 2 * n || out_of_time() {
                    return;
                }
                self.push(step, false);
                trees += 1;
                if self.keep_if(self.now.better_than(&self.best)) {
                    if initial {
                        step *= 2;
                    }
                    if p == period {
                        period = (2 * period).min(first_period);
                    }
                } else if initial && p > period / 2 {
                    initial = false;
                    p = 0;
                    step = 3 * step / 4;
                }
                p += 1;
            }
            period /= 2;
            step /= 2;
        }
    }

    /// [`Schedule::Stalls`] of at most `trees` trees, stopped early by `out_of_time`.
    fn stalls(&mut self, trees: usize, out_of_time: impl Fn() -> bool) {
        // The step, in scaled units; the first tree's bound counts as a rise.
        let mut step = SCALE / 10 * 2;
        let mut initial = true;
        let mut since_best = 0;
        for _ in 1..trees {
            if out_of_time() {
                return;
            }
            self.push(step, true);
            if self.keep_if(self.now.value > self.best.value) {
                since_best = 0;
                if initial {
                    step *= 2;
                }
            } else {
                initial = false;
                since_best += 1;
                if since_best >= STALL_TREES {
                    step = (step / 2).max(1);
                    since_best = 0;
                }
            }
        }
    }
}

/// A spanning tree's lower bound under penalties, and how far it is from a path: the sum
/// of the squares of its cities' degrees less 2.
#[derive(Debug, Clone, Copy)]
struct Bound {
    value: i64,
    norm: i64,
}

impl Bound {
    /// The bound of `tree` under `pi`, each city's degree less 2 left in `v`.
    fn of(tree: &Tree, pi: &[i64], v: &mut [i64]) -> Bound {
        let mut norm = 0;
        for (v, &degree) in v.iter_mut().zip(&tree.degree) {
            *v = i64::from(degree) - 2;
            norm += *v * *v;
        }
        Bound {
            value: tree.cost - 2 * pi.iter().sum::<i64>(),
            norm,
        }
    }

    /// A higher bound, or as high from a tree nearer a path.
    fn better_than(&self, other: &Bound) -> bool {
        (self.value, -self.norm) > (other.value, -other.norm)
    }

    /// Whether the tree is a path through every city (two ends of degree 1, the rest 2):
    /// the shape the ascent pushes it towards.
    fn is_path(&self) -> bool {
        self.norm <= 2
    }
}

/// The longest edge on tree paths, by binary lifting: `up[l][a]` is `a`'s ancestor 2^l
/// levels up and `longest[l][a]` the heaviest edge on the way there.
struct PathMax {
    depth: Vec<u32>,
    up: Vec<Vec<u32>>,
    longest: Vec<Vec<i64>>,
}

impl PathMax {
    fn new(tree: &Tree) -> Self {
        let n = tree.parent.len();
        let mut depth = vec![0u32; n];
        for &a in &tree.order[1..] {
            depth[a as usize] = depth[tree.parent[a as usize] as usize] + 1;
        }
        let levels = (usize::BITS - n.leading_zeros()).max(1) as usize;
        let root = tree.order[0];
        let mut up = vec![
            (0..n)
                .map(|a| match tree.parent[a] {
                    u32::MAX => root,
                    p => p,
                })
                .collect::<Vec<u32>>(),
        ];
        let mut longest = vec![
            (0..n)
                // Penalised weights may be negative: the root's "edge" to itself is
                // lighter than any.
                .map(|a| {
                    if a as u32 == root {
                        i64::MIN
                    } else {
                        tree.weight[a]
                    }
                })
                .collect::<Vec<i64>>(),
        ];
        for l in 1..levels {
            let (below, far) = (&up[l - 1], &longest[l - 1]);
            let next_up = (0..n).map(|a| below[below[a] as usize]).collect();
            let next_longest = (0..n).map(|a| far[a].max(far[below[a] as usize])).collect();
            up.push(next_up);
            longest.push(next_longest);
        }
        PathMax { depth, up, longest }
    }

    /// The heaviest edge on the tree path between `a` and `b`.
    fn between(&self, a: u32, b: u32) -> i64 {
        let (mut a, mut b) = (a as usize, b as usize);
        if self.depth[a] < self.depth[b] {
            std::mem::swap(&mut a, &mut b);
        }
        let mut heaviest = i64::MIN;
        let mut rise = self.depth[a] - self.depth[b];
        let mut l = 0;
        while rise > 0 {
            if rise & 1 == 1 {
                heaviest = heaviest.max(self.longest[l][a]);
                a = self.up[l][a] as usize;
            }
            rise >>= 1;
            l += 1;
        }
        if a == b {
            return heaviest;
        }
        for l in (0..self.up.len()).rev() {
            if self.up[l][a] != self.up[l][b] {
                heaviest = heaviest.max(self.longest[l][a]).max(self.longest[l][b]);
                a = self.up[l][a] as usize;
                b = self.up[l][b] as usize;
            }
        }
        heaviest.max(self.longest[0][a]).max(self.longest[0][b])
    }
}

/// Each city's parent in the minimum spanning tree of the sparse graph under the penalties
/// of the ascent on `schedule`, or what of it ends by `until` (`u32::MAX`
/// at the root): the tree edges, those of alpha 0, are the ones an optimal tour most likely
/// uses.
pub(super) fn tree_parents(
    graph: &Sparse,
    distance: impl Fn(u32, u32) -> u32,
    schedule: Schedule,
    until: Option<Instant>,
) -> Vec<u32> {
    let pi = ascent(graph, &distance, schedule, until);
    spanning_tree(graph, &pi, &distance).parent
}

/// The alpha of every sparse edge, city by city in the graph's order (`Sparse::edges`),
/// under penalties `pi`: the edge's penalised weight less the heaviest on the path between
/// its ends in `tree`, the spanning tree under `pi`.
fn alphas(graph: &Sparse, pi: &[i64], tree: &Tree) -> Vec<i64> {
    let paths = PathMax::new(tree);
    (0..graph.len())
        .flat_map(|a| {
            let paths = &paths;
            graph.edges(a).map(move |(b, length)| {
                weight(length, pi, a, b as usize) - paths.between(a as u32, b)
            })
        })
        .collect()
}

/// What alpha-nearness was measured on: the ascent's penalties, in units of 1/[`SCALE`] of
/// a length, and each city's parent in the spanning tree under them (`u32::MAX` at the
/// root), whose edges are the ones an optimal tour most likely uses.
#[derive(Debug, Clone)]
pub(super) struct Measured {
    pub(super) penalties: Vec<i64>,
    pub(super) parents: Vec<u32>,
}

/// Each city's `k` candidates: the `k` of its sparse edges with the least alpha after
/// the ascent on `schedule` (or what of it ends by `until`), least alpha first, ties by
/// length, then index (LKH's order: the chain's narrow deeper levels try the likeliest
/// edges, not the nearest), in one flat array; and what they were measured on.
pub(super) fn candidates(
    graph: &Sparse,
    k: usize,
    distance: impl Fn(u32, u32) -> u32,
    schedule: Schedule,
    until: Option<Instant>,
) -> (Vec<u32>, Measured) {
    let n = graph.len();
    let pi = ascent(graph, &distance, schedule, until);
    let tree = spanning_tree(graph, &pi, &distance);
    let alpha = alphas(graph, &pi, &tree);
    let mut lists = Vec::with_capacity(n * k);
    let mut ranked: Vec<(i64, u32, u32)> = Vec::new();
    for a in 0..n {
        let first = graph.starts[a] as usize;
        ranked.clear();
        ranked.extend(
            (graph.edges(a).zip(&alpha[first..])).map(|((b, length), &alpha)| (alpha, length, b)),
        );
        if k < ranked.len() {
            ranked.select_nth_unstable(k);
        }
        let chosen = &mut ranked[..k];
        chosen.sort_unstable();
        lists.extend(chosen.iter().map(|&(_, _, b)| b));
    }
    let measured = Measured {
        penalties: pi,
        parents: tree.parent,
    };
    (lists, measured)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Cities from proptest's coordinates, with the rounded Euclidean distance.
    fn distance_of(points: &[(i32, i32)]) -> impl Fn(u32, u32) -> u32 + '_ {
        move |a, b| {
            let (p, q) = (points[a as usize], points[b as usize]);
            let (dx, dy) = (f64::from(p.0 - q.0), f64::from(p.1 - q.1));
            (dx.hypot(dy) + 0.5) as u32
        }
    }

    /// The complete graph's lists: every other city.
    fn all_others(n: usize) -> Vec<u32> {
        (0..n as u32)
            .flat_map(|a| (0..n as u32).filter(move |&b| b != a))
            .collect()
    }

    /// Kruskal's minimum spanning tree weight over the graph's edges, with `forced` taken
    /// first.
    fn tree_weight(graph: &Sparse, pi: &[i64], forced: Option<(usize, u32, u32)>) -> i64 {
        let n = graph.len();
        let mut edges: Vec<(i64, usize, u32)> = (0..n)
            .flat_map(|a| graph.edges(a).map(move |(b, length)| (a, b, length)))
            .map(|(a, b, length)| (weight(length, pi, a, b as usize), a, b))
            .collect();
        edges.sort_unstable();
        if let Some((a, b, length)) = forced {
            edges.insert(0, (weight(length, pi, a, b as usize), a, b));
        }
        let mut root: Vec<usize> = (0..n).collect();
        fn find(root: &mut [usize], mut a: usize) -> usize {
            while root[a] != a {
                root[a] = root[root[a]];
                a = root[a];
            }
            a
        }
        let mut total = 0;
        for (w, a, b) in edges {
            let (ra, rb) = (find(&mut root, a), find(&mut root, b as usize));
            if ra != rb {
                root[ra] = rb;
                total += w;
            }
        }
        total
    }

    proptest! {
        /// alpha(i, j) is, by definition, how much heavier the lightest spanning tree
        /// that holds (i, j) is than the lightest of all; a tree edge's is 0.
        #[test]
        fn alpha_is_what_forcing_the_edge_in_costs(
            points in prop::collection::vec((0i32..60, 0i32..60), 3..24),
            penalties in prop::collection::vec(-300i64..300, 24),
        ) {
            let n = points.len();
            let distance = distance_of(&points);
            let graph = Sparse::new(n, n - 1, &all_others(n), &distance);
            for pi in [vec![0; n], penalties[..n].to_vec()] {
                let alpha = alphas(&graph, &pi, &spanning_tree(&graph, &pi, &distance));
                let lightest = tree_weight(&graph, &pi, None);
                let mut i = 0;
                for a in 0..n {
                    for (b, length) in graph.edges(a) {
                        let forced = tree_weight(&graph, &pi, Some((a, b, length)));
                        prop_assert_eq!(alpha[i], forced - lightest, "edge {}-{}", a, b);
                        i += 1;
                    }
                }
                // A spanning tree's n - 1 edges, each seen from both ends.
                prop_assert!(alpha.iter().filter(|&&a| a == 0).count() >= 2 * (n - 1));
                prop_assert!(alpha.iter().all(|&a| a >= 0));
            }
        }
    }

    #[test]
    fn both_schedules_raise_the_bound_and_a_passed_deadline_leaves_no_penalties() {
        // 80 cities scattered by a fixed LCG, whose plain tree is far from a path.
        let mut x = 12345u64;
        let mut next = || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((x >> 33) % 1000) as i32
        };
        let points: Vec<(i32, i32)> = (0..80).map(|_| (next(), next())).collect();
        let n = points.len();
        let distance = distance_of(&points);
        let graph = Sparse::new(n, n - 1, &all_others(n), &distance);
        let bound = |pi: &[i64]| {
            Bound::of(&spanning_tree(&graph, pi, &distance), pi, &mut vec![0; n]).value
        };
        let plain = bound(&vec![0; n]);
        for schedule in [Schedule::Periods, Schedule::Stalls { trees: 100 }] {
            let pi = ascent(&graph, &distance, schedule, None);
            assert!(
                bound(&pi) > plain,
                "{schedule:?}: {} <= {plain}",
                bound(&pi)
            );
            let late = ascent(&graph, &distance, schedule, Some(Instant::now()));
            assert!(late.iter().all(|&p| p == 0), "{schedule:?}");
        }
    }

    #[test]
    fn tree_edges_come_first_and_lists_are_sound() {
        // Two far rows that no sparse edge joins: the tree joins them through the scan.
        let mut points: Vec<(i32, i32)> = (0..30).map(|i| (i * 3, 0)).collect();
        points.extend((0..30).map(|i| (i * 3 + 1, 5000)));
        let n = points.len();
        let distance = distance_of(&points);
        let k = 3;
        let near: Vec<u32> = (0..n as u32)
            .flat_map(|a| {
                let mut others: Vec<u32> = (0..n as u32).filter(|&b| b != a).collect();
                others.sort_by_key(|&b| (distance(a, b), b));
                others.truncate(4);
                others
            })
            .collect();
        let graph = Sparse::new(n, 4, &near, &distance);
        let tree = spanning_tree(&graph, &vec![0; n], &distance);
        assert_eq!(tree.order.len(), n);
        // No ascent: penalties would make other trees the lightest.
        let (lists, measured) =
            candidates(&graph, k, &distance, Schedule::Stalls { trees: 0 }, None);
        assert!(measured.penalties.iter().all(|&p| p == 0));
        assert_eq!(measured.parents, tree.parent);
        let alpha = alphas(&graph, &vec![0; n], &tree);
        for a in 0..n {
            let list = &lists[a * k..][..k];
            let mut seen = list.to_vec();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), k, "city {a}: {list:?}");
            assert!(!list.contains(&(a as u32)));
            // Least alpha first.
            let of = |b: u32| {
                let edges = graph.starts[a] as usize..graph.starts[a + 1] as usize;
                alpha[edges.clone()][graph.to[edges].iter().position(|&c| c == b).unwrap()]
            };
            assert!(
                list.windows(2).all(|w| of(w[0]) <= of(w[1])),
                "city {a}: {list:?}"
            );
            // On a row, each city's row neighbours are its tree edges: alpha 0.
            let row = (a / 30) * 30;
            for b in [a.wrapping_sub(1), a + 1] {
                if (row..row + 30).contains(&b) {
                    assert!(list.contains(&(b as u32)), "city {a}: {list:?}");
                }
            }
        }
    }
}
