//! Maximum flow (Dinic's algorithm) on a small graph, for the exact block polish of
//! denoising: with fixed surroundings, the best labelling of a block of pixels is a minimum
//! s-t cut (Greig, Porteous & Seheult 1989), and the cut is read off the residual graph of
//! a maximum flow.
//!
//! Capacities are `f64`: the weights are lambda and beta, usually multiples of a quarter,
//! and a residual below [`EPSILON`] counts as saturated.

/// Residual capacity below which an edge is saturated.
const EPSILON: f64 = 1e-9;
/// No edge (the end of an adjacency list).
const NONE: u32 = u32::MAX;

/// A flow network whose buffers are kept between uses: [`Flow::reset`] empties it without
/// freeing, so a polish that solves many blocks allocates once.
#[derive(Debug, Default, Clone)]
pub struct Flow {
    /// First edge out of each node.
    head: Vec<u32>,
    /// Next edge out of the same node.
    next: Vec<u32>,
    /// Where each edge goes; edge `e ^ 1` is its reverse.
    to: Vec<u32>,
    /// Residual capacity of each edge.
    cap: Vec<f64>,
    /// BFS distance from the source in the residual graph, -1 if unreached.
    level: Vec<i32>,
    /// The edge each node's search goes on from.
    cursor: Vec<u32>,
    queue: Vec<u32>,
    /// The edges of the path being searched.
    path: Vec<u32>,
}

impl Flow {
    /// Empties the network and gives it `nodes` nodes without edges.
    pub fn reset(&mut self, nodes: usize) {
        self.head.clear();
        self.head.resize(nodes, NONE);
        self.next.clear();
        self.to.clear();
        self.cap.clear();
    }

    /// Adds an edge from `a` to `b` of capacity `forward` and one back of capacity
    /// `backward` (0 for a one-way edge).
    pub fn add_edge(&mut self, a: usize, b: usize, forward: f64, backward: f64) {
        for (from, to, cap) in [(a, b, forward), (b, a, backward)] {
            self.next.push(self.head[from]);
            self.head[from] = self.to.len() as u32;
            self.to.push(to as u32);
            self.cap.push(cap);
        }
    }

    /// Pushes a maximum flow from `source` to `sink` and returns its value. Afterwards
    /// [`Flow::source_side`] tells the side of a minimum cut each node is on.
    pub fn max_flow(&mut self, source: usize, sink: usize) -> f64 {
        let mut total = 0.0;
        while self.levels(source, sink) {
            self.cursor.clone_from(&self.head);
            total += self.blocking_flow(source, sink);
        }
        total
    }

    /// Whether `node` is reachable from the source in the residual graph of the last
    /// maximum flow: the source side of the minimum cut with the smallest source side.
    pub fn source_side(&self, node: usize) -> bool {
        self.level[node] >= 0
    }

    /// Breadth-first distances from `source` over unsaturated edges; whether `sink` is
    /// reached.
    fn levels(&mut self, source: usize, sink: usize) -> bool {
        self.level.clear();
        self.level.resize(self.head.len(), -1);
        self.queue.clear();
        self.level[source] = 0;
        self.queue.push(source as u32);
        let mut next = 0;
        while next < self.queue.len() {
            let v = self.queue[next] as usize;
            next += 1;
            let mut e = self.head[v];
            while e != NONE {
                let w = self.to[e as usize] as usize;
                if self.cap[e as usize] > EPSILON && self.level[w] < 0 {
                    self.level[w] = self.level[v] + 1;
                    self.queue.push(w as u32);
                }
                e = self.next[e as usize];
            }
        }
        self.level[sink] >= 0
    }

    /// Saturates every shortest augmenting path (a depth-first search over the level graph,
    /// kept on an explicit stack: a path can be as long as the block has pixels).
    fn blocking_flow(&mut self, source: usize, sink: usize) -> f64 {
        let mut total = 0.0;
        self.path.clear();
        let mut v = source;
        loop {
            if v == sink {
                let pushed = self
                    .path
                    .iter()
                    .map(|&e| self.cap[e as usize])
                    .fold(f64::INFINITY, f64::min);
                for &e in &self.path {
                    self.cap[e as usize] -= pushed;
                    self.cap[e as usize ^ 1] += pushed;
                }
                total += pushed;
                self.path.clear();
                v = source;
                continue;
            }
            let mut e = self.cursor[v];
            while e != NONE {
                let w = self.to[e as usize] as usize;
                if self.cap[e as usize] > EPSILON && self.level[w] == self.level[v] + 1 {
                    break;
                }
                e = self.next[e as usize];
            }
            self.cursor[v] = e;
            if e != NONE {
                self.path.push(e);
                v = self.to[e as usize] as usize;
                continue;
            }
            // A dead end: no path to the sink goes through v any more.
            let Some(back) = self.path.pop() else {
                return total;
            };
            if v != source {
                self.level[v] = -1;
            }
            v = self.to[back as usize ^ 1] as usize;
            self.cursor[v] = self.next[back as usize];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_textbook_network() {
        // CLRS figure 26.1: maximum flow 23.
        let mut flow = Flow::default();
        flow.reset(6);
        for (a, b, c) in [
            (0, 1, 16.0),
            (0, 2, 13.0),
            (2, 1, 4.0),
            (1, 3, 12.0),
            (3, 2, 9.0),
            (2, 4, 14.0),
            (4, 3, 7.0),
            (3, 5, 20.0),
            (4, 5, 4.0),
        ] {
            flow.add_edge(a, b, c, 0.0);
        }
        assert_eq!(flow.max_flow(0, 5), 23.0);
        // The minimum cut {s, 1, 2, 4} | {3, t}: 12 + 7 + 4.
        let side: Vec<bool> = (0..6).map(|v| flow.source_side(v)).collect();
        assert_eq!(side, [true, true, true, false, true, false]);
        // Used again after a reset.
        flow.reset(2);
        flow.add_edge(0, 1, 2.5, 1.0);
        assert_eq!(flow.max_flow(0, 1), 2.5);
        assert!(!flow.source_side(1));
    }
}
