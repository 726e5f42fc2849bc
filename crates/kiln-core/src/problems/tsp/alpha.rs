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

/// Trees of the subgradient ascent for `n` cities: `SMALL_TREES` below `SMALL_UP_TO`
/// cities, where 300 reached the optima of 439-1,084-city instances sooner than 100 or
/// 1,000 did; from there 100 up to 10,000 cities, where they left tours shorter at equal
/// wall time than 30 did (and 300 no shorter), falling to 60 from about 16,700, where 60
/// left 100,000-city tours shorter than 30 and 100 did; a time limit cuts it shorter still
/// (docs/tuning.md).
pub(super) fn ascent_trees(n: usize) -> usize {
    if n < SMALL_UP_TO {
        SMALL_TREES
    } else {
        (1_000_000 / n).clamp(60, 100)
    }
}

const SMALL_TREES: usize = 300;
const SMALL_UP_TO: usize = 2_000;

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
/// a spanning tree whose every city should have degree 2), of at most `iterations`
/// trees and ending by `until`: the best penalties found.
fn ascent(
    graph: &Sparse,
    distance: &impl Fn(u32, u32) -> u32,
    iterations: usize,
    until: Option<Instant>,
) -> Vec<i64> {
    let n = graph.len();
    let mut pi = vec![0i64; n];
    let mut best_pi = pi.clone();
    let mut best = i64::MIN;
    let mut last_v = vec![0i64; n];
    // The step, in scaled units; it doubles while the bound rises at first (LKH's initial
    // phase), then halves whenever the bound has not risen for a while.
    let mut step = SCALE / 10;
    let mut initial = true;
    let mut since_best = 0;
    for _ in 0..iterations {
        if until.is_some_and(|until| Instant::now() >= until) {
            break;
        }
        let tree = spanning_tree(graph, &pi, distance);
        let bound = tree.cost - 2 * pi.iter().sum::<i64>();
        if bound > best {
            best = bound;
            best_pi.clone_from(&pi);
            since_best = 0;
            if initial {
                step *= 2;
            }
        } else {
            initial = false;
            since_best += 1;
            if since_best >= 3 {
                step = (step / 2).max(1);
                since_best = 0;
            }
        }
        let mut norm = 0;
        for (a, last) in last_v.iter_mut().enumerate() {
            let v = i64::from(tree.degree[a]) - 2;
            norm += v * v;
            pi[a] += step * (7 * v + 3 * *last) / 10;
            *last = v;
        }
        if norm == 0 {
            // The tree is a path through every city: nothing to push.
            break;
        }
    }
    best_pi
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
/// of at most `iterations` trees of the ascent, or what of them ends by `until` (`u32::MAX`
/// at the root): the tree edges, those of alpha 0, are the ones an optimal tour most likely
/// uses.
pub(super) fn tree_parents(
    graph: &Sparse,
    distance: impl Fn(u32, u32) -> u32,
    iterations: usize,
    until: Option<Instant>,
) -> Vec<u32> {
    let pi = ascent(graph, &distance, iterations, until);
    spanning_tree(graph, &pi, &distance).parent
}

/// The alpha of every sparse edge, city by city in the graph's order (`Sparse::edges`),
/// under penalties `pi`: the edge's penalised weight less the heaviest on the spanning
/// tree's path between its ends.
fn alphas(graph: &Sparse, pi: &[i64], distance: &impl Fn(u32, u32) -> u32) -> Vec<i64> {
    let tree = spanning_tree(graph, pi, distance);
    let paths = PathMax::new(&tree);
    (0..graph.len())
        .flat_map(|a| {
            let paths = &paths;
            graph.edges(a).map(move |(b, length)| {
                weight(length, pi, a, b as usize) - paths.between(a as u32, b)
            })
        })
        .collect()
}

/// Each city's `k` candidates: the `k` of its sparse edges with the least alpha after
/// `iterations` of the ascent (or what of them ends by `until`), least alpha first, ties by
/// length, then index (LKH's order: the chain's narrow deeper levels try the likeliest
/// edges, not the nearest), in one flat array; and the ascent's penalties, in units of
/// 1/[`SCALE`] of a length.
pub(super) fn candidates(
    graph: &Sparse,
    k: usize,
    distance: impl Fn(u32, u32) -> u32,
    iterations: usize,
    until: Option<Instant>,
) -> (Vec<u32>, Vec<i64>) {
    let n = graph.len();
    let pi = ascent(graph, &distance, iterations, until);
    let alpha = alphas(graph, &pi, &distance);
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
    (lists, pi)
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
                let alpha = alphas(&graph, &pi, &distance);
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
        let (lists, penalties) = candidates(&graph, k, &distance, 0, None);
        assert!(penalties.iter().all(|&p| p == 0));
        let alpha = alphas(&graph, &vec![0; n], &distance);
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
