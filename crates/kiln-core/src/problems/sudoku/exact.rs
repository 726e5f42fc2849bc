//! Exact search (singles at every node, then branch on the cell with fewest candidates):
//! a checker for solvability and uniqueness, never a replacement for the annealer.

use super::grid::Geometry;
use super::propagate::{Board, Contradiction};

/// What the exact search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Solutions {
    /// No grid completes the givens.
    None,
    /// Exactly one, and here it is.
    Unique(Vec<u8>),
    /// At least two; one of them.
    Several(Vec<u8>),
    /// The node budget ran out first.
    Unknown,
}

impl Solutions {
    /// The word headless output uses.
    pub fn label(&self) -> &'static str {
        match self {
            Solutions::None => "none",
            Solutions::Unique(_) => "unique",
            Solutions::Several(_) => "several",
            Solutions::Unknown => "unknown",
        }
    }
}

/// Nodes the check may visit before annealing, per box side n. Enough for every 9x9 and
/// 16x16 of the developer set in milliseconds. A 25x25 node costs ~12 us and the hard
/// 25x25 ones run out even at 200k nodes (2.5 s), so there the check stays short: it still
/// catches givens that propagation and a shallow search refute.
pub fn node_limit(n: usize) -> u64 {
    match n {
        2 | 3 => 200_000,
        4 => 50_000,
        _ => 2_000,
    }
}

/// Counts the solutions of `cells`, up to two, visiting at most `node_limit` nodes.
pub fn count_solutions(geometry: &Geometry, cells: &[u8], node_limit: u64) -> Solutions {
    let Ok(board) = Board::new(geometry, cells) else {
        return Solutions::None;
    };
    let mut search = Search {
        found: Vec::new(),
        nodes: 0,
        node_limit,
    };
    let complete = search.run(board).is_ok();
    let mut found = search.found;
    match (found.len(), complete) {
        (0, true) => Solutions::None,
        (1, true) => Solutions::Unique(found.remove(0)),
        (0 | 1, false) => Solutions::Unknown,
        _ => Solutions::Several(found.remove(0)),
    }
}

struct Search {
    found: Vec<Vec<u8>>,
    nodes: u64,
    node_limit: u64,
}

/// Why a search stopped early.
struct Stop;

impl Search {
    fn run(&mut self, mut board: Board) -> Result<(), Stop> {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            return Err(Stop);
        }
        if let Err(Contradiction) = board.propagate() {
            return Ok(());
        }
        let best = (0..board.cells.len())
            .filter(|&c| board.cells[c] == 0)
            .min_by_key(|&c| board.candidates(c).count_ones());
        let Some(cell) = best else {
            self.found.push(board.cells);
            return if self.found.len() >= 2 {
                Err(Stop)
            } else {
                Ok(())
            };
        };
        let mut candidates = board.candidates(cell);
        while candidates != 0 {
            let value = candidates.trailing_zeros() as u8 + 1;
            candidates &= candidates - 1;
            let mut child = board.clone();
            child.place(cell, value);
            self.run(child)?;
        }
        Ok(())
    }
}
