//! Maximum flow on a small graph with a source and a sink, for the exact block polish of
//! denoising: with fixed surroundings, the best labelling of a block of pixels is a minimum
//! s-t cut (Greig, Porteous & Seheult 1989), and the cut is read off the search trees the
//! flow leaves.
//!
//! The algorithm is Boykov & Kolmogorov's (2004): two search trees, one from each terminal,
//! grow until they touch, the path through the touching arc is augmented, and the nodes it
//! cut off are adopted again or freed. On pixel grids it reuses its trees where Dinic's
//! algorithm rebuilds its levels for every phase: on 64x64 blocks at n8 that took tens of
//! milliseconds a block, too slow for a polish that solves hundreds.
//!
//! Capacities are `f64`: the weights are lambda and beta, usually multiples of a quarter,
//! and a residual below [`EPSILON`] counts as saturated.

use std::collections::VecDeque;

/// Residual capacity below which an arc is saturated.
const EPSILON: f64 = 1e-9;
/// No arc: the end of an adjacency list, or the parent of a free node.
const NONE: u32 = u32::MAX;
/// The parent of a tree's root: the terminal itself.
const TERMINAL: u32 = u32::MAX - 1;
/// The parent of a node whose arc to its parent was saturated, until it is adopted or freed.
const ORPHAN: u32 = u32::MAX - 2;

/// Which search tree a node is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tree {
    Free,
    Source,
    Sink,
}

/// A flow network whose buffers are kept between uses: [`Flow::reset`] empties it without
/// freeing, so a polish that solves many blocks allocates once.
#[derive(Debug, Default, Clone)]
pub struct Flow {
    /// First arc out of each node.
    head: Vec<u32>,
    /// Next arc out of the same node.
    next: Vec<u32>,
    /// Where each arc goes; arc `a ^ 1` is its reverse.
    to: Vec<u32>,
    /// Residual capacity of each arc.
    cap: Vec<f64>,
    /// Capacities from the source and to the sink, as added.
    from_source: Vec<f64>,
    to_sink: Vec<f64>,
    /// Residual terminal capacity of each node: from the source if positive, to the sink
    /// if negative.
    terminal: Vec<f64>,
    tree: Vec<Tree>,
    /// The arc joining each tree node to its parent, in the direction flow goes (parent to
    /// node in the source tree, node to parent in the sink tree), or a marker.
    parent: Vec<u32>,
    /// When each node's distance to its terminal was last known to be right, and that
    /// distance: adoption prefers short paths and stops walking at a node known to be
    /// rooted.
    stamp: Vec<u32>,
    distance: Vec<u32>,
    clock: u32,
    active: VecDeque<u32>,
    queued: Vec<bool>,
    orphans: VecDeque<u32>,
}

impl Flow {
    /// Empties the network and gives it `nodes` nodes (the terminals not counted) without
    /// arcs.
    pub fn reset(&mut self, nodes: usize) {
        refill(&mut self.head, nodes, NONE);
        self.next.clear();
        self.to.clear();
        self.cap.clear();
        refill(&mut self.from_source, nodes, 0.0);
        refill(&mut self.to_sink, nodes, 0.0);
    }

    /// Adds an arc from `a` to `b` of capacity `forward` and one back of capacity
    /// `backward` (0 for a one-way arc).
    pub fn add_edge(&mut self, a: usize, b: usize, forward: f64, backward: f64) {
        for (from, to, cap) in [(a, b, forward), (b, a, backward)] {
            self.next.push(self.head[from]);
            self.head[from] = self.to.len() as u32;
            self.to.push(to as u32);
            self.cap.push(cap);
        }
    }

    /// Adds capacity from the source to `node` and from `node` to the sink.
    pub fn add_terminal(&mut self, node: usize, from_source: f64, to_sink: f64) {
        self.from_source[node] += from_source;
        self.to_sink[node] += to_sink;
    }

    /// Pushes a maximum flow from the source to the sink and returns its value. Afterwards
    /// [`Flow::source_side`] tells the side of a minimum cut each node is on.
    pub fn max_flow(&mut self) -> f64 {
        let nodes = self.head.len();
        // A node's flow straight from the source to the sink needs no search.
        let mut total = 0.0;
        self.terminal.clear();
        for (s, t) in self.from_source.iter().zip(&self.to_sink) {
            total += s.min(*t);
            self.terminal.push(s - t);
        }
        self.tree.clear();
        self.parent.clear();
        refill(&mut self.queued, nodes, false);
        self.active.clear();
        self.orphans.clear();
        refill(&mut self.stamp, nodes, 0);
        refill(&mut self.distance, nodes, 1);
        self.clock = 0;
        for v in 0..nodes {
            let (tree, parent) = match self.terminal[v] {
                c if c > EPSILON => (Tree::Source, TERMINAL),
                c if c < -EPSILON => (Tree::Sink, TERMINAL),
                _ => (Tree::Free, NONE),
            };
            self.tree.push(tree);
            self.parent.push(parent);
            if tree != Tree::Free {
                self.activate(v as u32);
            }
        }
        let mut current = None;
        loop {
            let v = match current.filter(|&v: &u32| self.tree[v as usize] != Tree::Free) {
                Some(v) => v,
                None => match self.next_active() {
                    Some(v) => v,
                    None => return total,
                },
            };
            current = None;
            if let Some(bridge) = self.grow(v) {
                // The node may have more arcs to the other tree: grow from it again.
                current = Some(v);
                self.clock += 1;
                total += self.augment(bridge);
                self.clock += 1;
                self.adopt();
            }
        }
    }

    /// Whether `node` is on the source side of the minimum cut the last maximum flow found.
    pub fn source_side(&self, node: usize) -> bool {
        self.tree[node] == Tree::Source
    }

    fn activate(&mut self, v: u32) {
        if !std::mem::replace(&mut self.queued[v as usize], true) {
            self.active.push_back(v);
        }
    }

    /// The next active node still in a tree.
    fn next_active(&mut self) -> Option<u32> {
        while let Some(v) = self.active.pop_front() {
            self.queued[v as usize] = false;
            if self.tree[v as usize] != Tree::Free {
                return Some(v);
            }
        }
        None
    }

    /// The node an arc leaves.
    fn tail(&self, arc: u32) -> usize {
        self.to[arc as usize ^ 1] as usize
    }

    /// The node `v`'s parent arc leads to, in its tree.
    fn parent_node(&self, v: usize, tree: Tree) -> usize {
        let arc = self.parent[v];
        if tree == Tree::Source {
            self.tail(arc)
        } else {
            self.to[arc as usize] as usize
        }
    }

    /// Grows `v`'s tree by the free nodes next to it; returns an arc from the source tree
    /// to the sink tree with room, if one of `v`'s arcs is one.
    fn grow(&mut self, v: u32) -> Option<u32> {
        let v = v as usize;
        let tree = self.tree[v];
        let mut e = self.head[v];
        while e != NONE {
            let w = self.to[e as usize] as usize;
            let arc = outward(tree, e);
            if self.cap[arc as usize] > EPSILON {
                if self.tree[w] == Tree::Free {
                    self.tree[w] = tree;
                    self.parent[w] = arc;
                    self.stamp[w] = self.stamp[v];
                    self.distance[w] = self.distance[v] + 1;
                    self.activate(w as u32);
                } else if self.tree[w] != tree {
                    return Some(arc);
                } else if self.stamp[w] <= self.stamp[v] && self.distance[w] > self.distance[v] {
                    // A shorter way to the same terminal: shorter paths are orphaned less.
                    self.parent[w] = arc;
                    self.stamp[w] = self.stamp[v];
                    self.distance[w] = self.distance[v] + 1;
                }
            }
            e = self.next[e as usize];
        }
        None
    }

    /// Pushes the most the path through `bridge` takes; the nodes whose parent arc (or
    /// terminal capacity) it saturates become orphans. Returns the flow pushed.
    fn augment(&mut self, bridge: u32) -> f64 {
        let ends = [
            (self.tail(bridge), Tree::Source),
            (self.to[bridge as usize] as usize, Tree::Sink),
        ];
        let mut pushed = self.cap[bridge as usize];
        for (mut x, tree) in ends {
            while self.parent[x] != TERMINAL {
                pushed = pushed.min(self.cap[self.parent[x] as usize]);
                x = self.parent_node(x, tree);
            }
            pushed = pushed.min(self.terminal[x].abs());
        }
        self.cap[bridge as usize] -= pushed;
        self.cap[bridge as usize ^ 1] += pushed;
        for (mut x, tree) in ends {
            while self.parent[x] != TERMINAL {
                let arc = self.parent[x] as usize;
                let up = self.parent_node(x, tree);
                self.cap[arc] -= pushed;
                self.cap[arc ^ 1] += pushed;
                if self.cap[arc] <= EPSILON {
                    self.orphan(x);
                }
                x = up;
            }
            let sign = if tree == Tree::Source { 1.0 } else { -1.0 };
            self.terminal[x] -= sign * pushed;
            if self.terminal[x] * sign <= EPSILON {
                self.terminal[x] = 0.0;
                self.orphan(x);
            }
        }
        pushed
    }

    fn orphan(&mut self, x: usize) {
        self.parent[x] = ORPHAN;
        self.orphans.push_back(x as u32);
    }

    /// Finds every orphan a new parent in its own tree whose path reaches the terminal,
    /// or frees it (and orphans its children).
    fn adopt(&mut self) {
        while let Some(x) = self.orphans.pop_front() {
            let x = x as usize;
            let tree = self.tree[x];
            let mut best = (NONE, u32::MAX);
            let mut e = self.head[x];
            while e != NONE {
                let w = self.to[e as usize] as usize;
                let arc = outward(tree, e) ^ 1;
                if self.tree[w] == tree
                    && self.cap[arc as usize] > EPSILON
                    && let Some(d) = self.rooted_distance(w, tree)
                    && d < best.1
                {
                    best = (arc, d);
                }
                e = self.next[e as usize];
            }
            if best.0 != NONE {
                self.parent[x] = best.0;
                self.stamp[x] = self.clock;
                self.distance[x] = best.1 + 1;
                continue;
            }
            let mut e = self.head[x];
            while e != NONE {
                let w = self.to[e as usize] as usize;
                if self.tree[w] == tree {
                    if self.cap[outward(tree, e) as usize ^ 1] > EPSILON {
                        self.activate(w as u32);
                    }
                    let p = self.parent[w];
                    if p != TERMINAL && p != ORPHAN && self.parent_node(w, tree) == x {
                        self.orphan(w);
                    }
                }
                e = self.next[e as usize];
            }
            self.tree[x] = Tree::Free;
            self.parent[x] = NONE;
        }
    }

    /// `w`'s distance to its terminal if its path of parents reaches it (no orphan on the
    /// way); marks the nodes walked as known for this clock.
    fn rooted_distance(&mut self, w: usize, tree: Tree) -> Option<u32> {
        let mut d = 0;
        let mut j = w;
        loop {
            if self.stamp[j] == self.clock {
                d += self.distance[j];
                break;
            }
            d += 1;
            match self.parent[j] {
                TERMINAL => {
                    self.stamp[j] = self.clock;
                    self.distance[j] = 1;
                    break;
                }
                ORPHAN => return None,
                _ => j = self.parent_node(j, tree),
            }
        }
        let (mut j, mut k) = (w, d);
        while self.stamp[j] != self.clock {
            self.stamp[j] = self.clock;
            self.distance[j] = k;
            k -= 1;
            j = self.parent_node(j, tree);
        }
        Some(d)
    }
}

/// The arc flow would take along `e` (out of a node) between a node of `tree` and its
/// neighbour: `e` itself out of the source tree, its reverse into the sink tree. Its reverse
/// is the arc that would make the neighbour the node's parent.
fn outward(tree: Tree, e: u32) -> u32 {
    if tree == Tree::Source { e } else { e ^ 1 }
}

/// Empties `v` and gives it `len` copies of `value`, keeping its buffer.
fn refill<T: Clone>(v: &mut Vec<T>, len: usize, value: T) {
    v.clear();
    v.resize(len, value);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_textbook_network() {
        // CLRS figure 26.1 (s = 0, t = 5 there; nodes 1-4 here 0-3): maximum flow 23.
        let mut flow = Flow::default();
        flow.reset(4);
        flow.add_terminal(0, 16.0, 0.0);
        flow.add_terminal(1, 13.0, 0.0);
        flow.add_terminal(2, 0.0, 20.0);
        flow.add_terminal(3, 0.0, 4.0);
        for (a, b, c) in [
            (1, 0, 4.0),
            (0, 2, 12.0),
            (2, 1, 9.0),
            (1, 3, 14.0),
            (3, 2, 7.0),
        ] {
            flow.add_edge(a, b, c, 0.0);
        }
        assert_eq!(flow.max_flow(), 23.0);
        // The minimum cut {s, 1, 2, 4} | {3, t}: 12 + 7 + 4.
        let side: Vec<bool> = (0..4).map(|v| flow.source_side(v)).collect();
        assert_eq!(side, [true, true, false, true]);
        // Used again after a reset; both terminals at one node.
        flow.reset(1);
        flow.add_terminal(0, 2.5, 1.0);
        assert_eq!(flow.max_flow(), 1.0);
        assert!(flow.source_side(0));
    }

    /// The cost of the cut that puts the nodes of `source` on the source side.
    fn cut_cost(
        terminals: &[(f64, f64)],
        arcs: &[(usize, usize, f64, f64)],
        source: impl Fn(usize) -> bool,
    ) -> f64 {
        let mut cost = 0.0;
        for (v, &(s, t)) in terminals.iter().enumerate() {
            cost += if source(v) { t } else { s };
        }
        for &(a, b, forward, backward) in arcs {
            match (source(a), source(b)) {
                (true, false) => cost += forward,
                (false, true) => cost += backward,
                _ => {}
            }
        }
        cost
    }

    proptest! {
        /// On random small networks the flow equals the cheapest of all cuts (found by
        /// trying every one), and the cut it reports costs that much.
        #[test]
        fn equals_the_cheapest_cut(
            terminals in prop::collection::vec((0u8..6, 0u8..6), 1..9),
            raw in prop::collection::vec((0usize..8, 0usize..8, 0u8..5, 0u8..5), 0..20),
        ) {
            let n = terminals.len();
            let terminals: Vec<(f64, f64)> =
                terminals.iter().map(|&(s, t)| (s as f64 * 0.25, t as f64 * 0.5)).collect();
            let arcs: Vec<(usize, usize, f64, f64)> = raw
                .iter()
                .map(|&(a, b, f, r)| (a % n, b % n, f as f64 * 0.75, r as f64))
                .filter(|&(a, b, ..)| a != b)
                .collect();
            let mut flow = Flow::default();
            flow.reset(n);
            for (v, &(s, t)) in terminals.iter().enumerate() {
                flow.add_terminal(v, s, t);
            }
            for &(a, b, f, r) in &arcs {
                flow.add_edge(a, b, f, r);
            }
            let value = flow.max_flow();
            let cheapest = (0..1u32 << n)
                .map(|set| cut_cost(&terminals, &arcs, |v| set >> v & 1 == 1))
                .fold(f64::INFINITY, f64::min);
            prop_assert!((value - cheapest).abs() < 1e-9, "flow {value}, cheapest cut {cheapest}");
            let reported = cut_cost(&terminals, &arcs, |v| flow.source_side(v));
            prop_assert!((reported - cheapest).abs() < 1e-9, "cut {reported}, cheapest {cheapest}");
        }
    }
}
