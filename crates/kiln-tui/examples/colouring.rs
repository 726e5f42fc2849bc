//! Graph colouring, annealed live. The graph is a grid of vertices from the seed, each joined
//! to its right and lower neighbours and across one diagonal of each square, each edge with
//! a chance of 4 in 5: a planar graph, so four colours always suffice. A move recolours one
//! vertex and the energy is the number of edges whose ends share a colour, drawn `#`.
//! `cargo run --release --example colouring -- [SIDE]` (default 10) opens the live view;
//! `--headless` prints one JSON line instead, `--seed` and `--record` as kiln's.

use std::process::ExitCode;
use std::sync::Arc;

use kiln_core::anneal::{Problem, Rng, randomized};
use kiln_tui::watch::{self, Watch};
use kiln_tui::{Board, Theme, put};
use rand::{RngExt, SeedableRng};
use ratatui::{buffer::Buffer, layout::Rect};

/// Colours, as the letters a vertex of each is drawn as.
const COLOURS: &str = "ABCD";

/// A grid of `side` x `side` vertices, numbered row by row, and edges as (lower, higher).
#[derive(Clone)]
struct Graph {
    side: usize,
    edges: Vec<(usize, usize)>,
    neighbours: Vec<Vec<usize>>,
}

impl Graph {
    fn new(side: usize, seed: u64) -> Self {
        let mut rng = Rng::seed_from_u64(seed);
        let (mut edges, mut neighbours) = (Vec::new(), vec![Vec::new(); side * side]);
        for v in 0..side * side {
            let (right, down) = (v % side + 1 < side, v / side + 1 < side);
            // One diagonal a square, so that no two edges cross.
            let diagonal = [(v, v + side + 1), (v + 1, v + side)][rng.random_range(0..2)];
            let square = [(v, v + 1), (v, v + side), diagonal];
            for ((a, b), there) in square.into_iter().zip([right, down, right && down]) {
                if there && rng.random_bool(0.8) {
                    edges.push((a, b));
                    neighbours[a].push(b);
                    neighbours[b].push(a);
                }
            }
        }
        Graph {
            side,
            edges,
            neighbours,
        }
    }

    /// The edges whose ends share a colour.
    fn clashes(&self, colours: &[u8]) -> usize {
        let clash = |&&(a, b): &&(usize, usize)| colours[a] == colours[b];
        self.edges.iter().filter(clash).count()
    }
}

struct Colouring {
    graph: Arc<Graph>,
    colours: Vec<u8>,
}

impl Problem for Colouring {
    /// A vertex and its new colour.
    type Move = (usize, u8);
    type Snapshot = Vec<u8>;

    fn energy(&self) -> f64 {
        self.graph.clashes(&self.colours) as f64
    }

    fn propose(&self, rng: &mut Rng) -> (usize, u8) {
        let vertex = rng.random_range(0..self.colours.len());
        let other = rng.random_range(1..COLOURS.len() as u8);
        (vertex, (self.colours[vertex] + other) % COLOURS.len() as u8)
    }

    /// Only the vertex's own edges change: those to its new colour clash, to its old no more.
    fn delta(&self, &(vertex, colour): &(usize, u8)) -> f64 {
        let neighbours = &self.graph.neighbours[vertex];
        let with = |c: u8| neighbours.iter().filter(|&&n| self.colours[n] == c).count() as f64;
        with(colour) - with(self.colours[vertex])
    }

    fn apply(&mut self, &(vertex, colour): &(usize, u8)) {
        self.colours[vertex] = colour;
    }

    fn randomize(&mut self, rng: &mut Rng) {
        let colours = 0..COLOURS.len() as u8;
        self.colours.fill_with(|| rng.random_range(colours.clone()));
    }

    fn snapshot(&self) -> Vec<u8> {
        self.colours.clone()
    }
}

/// Draws vertices two columns and two rows apart with their edges between them: `-`, `|`,
/// `\` and `/`, or `#` for an edge whose ends share a colour.
impl Board<Vec<u8>> for Graph {
    fn min_size(&self, _: Option<&Vec<u8>>) -> (u16, u16) {
        let cells = 2 * self.side as u16 - 1;
        (cells, cells)
    }

    fn energy_means(&self) -> &'static str {
        "edges whose ends share a colour; 0 = solved"
    }

    fn render(&self, colours: &Vec<u8>, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let side = self.side;
        let styles = [theme.good, theme.energy, theme.temperature, theme.reference];
        for (v, &c) in colours.iter().enumerate() {
            let at = (2 * (v % side), 2 * (v / side));
            let c = usize::from(c);
            put(buf, area, at, &COLOURS[c..=c], styles[c]);
        }
        // An edge is drawn halfway between its ends, by its step down (0, 1) and across.
        for &(a, b) in &self.edges {
            let (down, across) = (b / side - a / side, b % side + 1 - a % side);
            let (glyph, style) = match colours[a] == colours[b] {
                true => ("#", theme.conflict),
                false => ([["", "", "-"], ["/", "|", "\\"]][down][across], theme.dim),
            };
            let at = (a % side + b % side, a / side + b / side);
            put(buf, area, at, glyph, style);
        }
    }
}

/// The live view or headless run of the graph `seed` makes, each run starting from a
/// colouring its own seed makes, stopping when no edge clashes.
fn watch(side: usize, seed: u64) -> Watch<Colouring, Graph> {
    let graph = Arc::new(Graph::new(side, seed));
    let (board, edges) = (Graph::clone(&graph), graph.edges.len());
    let make = move |seed| {
        let (graph, colours) = (graph.clone(), vec![0; side * side]);
        randomized(Colouring { graph, colours }, seed)
    };
    let watch = Watch::new(format!("{side}x{side} colouring"), make, board).target(0.0);
    watch.report(move |_| serde_json::json!({ "edges": edges }))
}

fn main() -> ExitCode {
    watch::main(|args| Ok(watch(args.number("SIDE", 2..=40, 10)?, args.seed())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// The vertex rows of the map drawn on a screen, top to bottom: each row's colours, and
    /// whether a horizontal edge is drawn after each vertex but the last.
    fn rows_drawn(screen: &[String], side: usize) -> Vec<(Vec<u8>, Vec<bool>)> {
        let row = |line: &str| {
            let cells: Vec<char> = line.chars().collect();
            (0..cells.len().saturating_sub(2 * side)).find_map(|x| {
                let colour = |c: usize| COLOURS.find(cells[x + 2 * c]);
                let colours: Option<Vec<u8>> =
                    (0..side).map(|c| colour(c).map(|i| i as u8)).collect();
                let between: Vec<char> = (0..side - 1).map(|c| cells[x + 2 * c + 1]).collect();
                let edges = between.iter().all(|c| " -#".contains(*c));
                edges.then_some(())?;
                Some((colours?, between.iter().map(|&c| c != ' ').collect()))
            })
        };
        screen.iter().filter_map(|line| row(line)).collect()
    }

    #[test]
    fn every_delta_is_the_energy_change() {
        let graph = Arc::new(Graph::new(9, 3));
        let mut colouring = Colouring {
            graph,
            colours: vec![0; 81],
        };
        let mut rng = Rng::seed_from_u64(7);
        colouring.randomize(&mut rng);
        for _ in 0..5000 {
            let (vertex, colour) = colouring.propose(&mut rng);
            assert_ne!(colouring.colours[vertex], colour, "a move recolours");
            let (before, delta) = (colouring.energy(), colouring.delta(&(vertex, colour)));
            colouring.apply(&(vertex, colour));
            assert_eq!(colouring.energy() - before, delta, "{vertex} to {colour}");
        }
    }

    /// Edges join grid neighbours, at most one diagonal a square, about 4 in 5 of them.
    #[test]
    fn the_seed_makes_a_planar_grid_graph() {
        let graph = Graph::new(20, 5);
        let (x, y) = (|v: usize| v % 20, |v: usize| v / 20);
        let mut squares = std::collections::HashSet::new();
        for &(a, b) in &graph.edges {
            let near = y(b) - y(a) <= 1 && x(a).abs_diff(x(b)) <= 1;
            assert!(a < b && near, "{a}-{b}");
            if x(a) != x(b) && y(a) != y(b) {
                assert!(
                    squares.insert((x(a).min(x(b)), y(a))),
                    "crossing diagonals at {a}-{b}"
                );
            }
        }
        let possible = 3 * 19 * 19 + 2 * 19;
        assert!((0.75..0.85).contains(&(graph.edges.len() as f64 / possible as f64)));
        assert_ne!(graph.edges, Graph::new(20, 6).edges);
    }

    #[test]
    fn headless_it_colours_a_twenty_by_twenty_map() {
        let outcome = watch(20, 1).solve().unwrap();
        assert_eq!(outcome.reason, kiln_core::anneal::StopReason::Target);
        assert_eq!(outcome.energy, 0.0);
        assert_eq!(Graph::new(20, 1).clashes(&outcome.best), 0);
    }

    #[test]
    fn the_live_view_shows_solved_over_a_map_without_clashes() {
        let solved = |rows: &[String]| rows.concat().contains("SOLVED");
        let text = (watch(8, 2).screen_until((80, 24), Duration::from_secs(20), solved)).unwrap();
        let shown = text.join("\n");
        assert!(shown.contains("SOLVED"), "{shown}");
        let rows = rows_drawn(&text, 8);
        assert_eq!(rows.len(), 8, "{shown}");
        let graph = Graph::new(8, 2);
        let colours: Vec<u8> = rows.iter().flat_map(|r| r.0.clone()).collect();
        assert_eq!(graph.clashes(&colours), 0, "{shown}");
        for (y, (_, drawn)) in rows.iter().enumerate() {
            for (x, &edge) in drawn.iter().enumerate() {
                let v = 8 * y + x;
                assert_eq!(
                    edge,
                    graph.edges.contains(&(v, v + 1)),
                    "{v}-{}\n{shown}",
                    v + 1
                );
            }
        }
    }
}
