//! The rules: no repeated symbol in a unit, and a solution that keeps the givens.

use super::grid::{Geometry, Puzzle};

/// Two cells of one unit holding the same value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clash {
    /// The earlier cell in reading order.
    pub first: usize,
    /// The later cell in reading order.
    pub second: usize,
    /// The value both hold.
    pub value: u8,
    /// "row 1", "column 5" or "box 2" (1-based).
    pub unit: String,
}

/// The first repeated non-zero value in reading order, checking rows, then columns, then
/// boxes for each cell.
pub fn first_clash(geometry: &Geometry, cells: &[u8]) -> Option<Clash> {
    let side = geometry.side;
    // seen[unit * (side + 1) + value] = 1 + the cell that holds it.
    let mut seen = vec![0usize; 3 * side * (side + 1)];
    for (cell, &value) in cells.iter().enumerate() {
        if value == 0 {
            continue;
        }
        let units = [
            ("row", geometry.row_of[cell], 0),
            ("column", geometry.col_of[cell], side),
            ("box", geometry.box_of[cell], 2 * side),
        ];
        for (kind, index, base) in units {
            let slot = &mut seen[(base + index) * (side + 1) + value as usize];
            if *slot != 0 {
                return Some(Clash {
                    first: *slot - 1,
                    second: cell,
                    value,
                    unit: format!("{kind} {}", index + 1),
                });
            }
            *slot = cell + 1;
        }
    }
    None
}

/// Whether `grid` solves `puzzle`: same size, every given kept, every row, column and box a
/// permutation of 1..=n^2.
pub fn is_valid_solution(puzzle: &Puzzle, grid: &[u8]) -> bool {
    let side = puzzle.side();
    grid.len() == puzzle.cells.len()
        && grid.iter().all(|&v| (1..=side as u8).contains(&v))
        && puzzle
            .cells
            .iter()
            .zip(grid)
            .all(|(&given, &v)| given == 0 || given == v)
        && first_clash(&Geometry::new(puzzle.n), grid).is_none()
}

/// Per cell: whether its value repeats in its row or its column (what annealing leaves
/// wrong; boxes are always permutations). Empty cells are never conflicted.
pub fn line_conflicts(geometry: &Geometry, values: &[u8]) -> Vec<bool> {
    let side = geometry.side;
    let mut counts = vec![0u8; 2 * side * (side + 1)];
    let slot = |line: usize, v: u8| line * (side + 1) + v as usize;
    for (cell, &v) in values.iter().enumerate() {
        counts[slot(geometry.row_of[cell], v)] += 1;
        counts[slot(side + geometry.col_of[cell], v)] += 1;
    }
    values
        .iter()
        .enumerate()
        .map(|(cell, &v)| {
            v != 0
                && (counts[slot(geometry.row_of[cell], v)] > 1
                    || counts[slot(side + geometry.col_of[cell], v)] > 1)
        })
        .collect()
}
