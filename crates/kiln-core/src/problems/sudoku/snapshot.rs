//! What every Sudoku search shows and reports, whichever it is: the grid and why each cell
//! holds its value.

use std::sync::Arc;

use super::check::{first_clash, line_conflicts};
use super::grid::Geometry;

/// Why a cell holds its value (for the UI).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellKind {
    /// In the puzzle as read.
    Given,
    /// Forced by singles propagation before annealing.
    Propagated,
    /// Placed and moved by the annealer.
    Annealed,
    /// Placed by conflict learning (a chain that does not anneal).
    Learned,
}

impl CellKind {
    /// The kind of every cell, from the givens and the fixed cells as the models take them
    /// (0 = not given, not fixed).
    pub(super) fn of_cells(givens: &[u8], fixed: &[u8]) -> Arc<[CellKind]> {
        givens
            .iter()
            .zip(fixed)
            .map(|(&g, &f)| match (g, f) {
                (0, 0) => CellKind::Annealed,
                (0, _) => CellKind::Propagated,
                _ => CellKind::Given,
            })
            .collect()
    }
}

/// What the UI draws and the report prints: the grid and why each cell holds its value.
#[derive(Debug, Clone, PartialEq)]
pub struct SudokuSnapshot {
    /// The grid's shape, shared with the model.
    pub geometry: Arc<Geometry>,
    /// Why each cell holds its value, row by row.
    pub kinds: Arc<[CellKind]>,
    /// Row by row, 1..=side.
    pub values: Vec<u8>,
}

/// A 4x4 grid, solved but for one swap in the bottom-left box: r3c1 clashes in its row and
/// column, r1c4 nowhere; r1c1 is a given and r1c3 propagated (for tests of what is drawn).
#[doc(hidden)]
pub fn swapped_4x4() -> SudokuSnapshot {
    #[rustfmt::skip]
    let values = vec![
        1, 2, 3, 4,
        3, 4, 1, 2,
        3, 1, 4, 3,
        4, 2, 2, 1,
    ];
    let mut kinds = vec![CellKind::Annealed; 16];
    kinds[0] = CellKind::Given;
    kinds[2] = CellKind::Propagated;
    SudokuSnapshot {
        geometry: Arc::new(Geometry::new(2)),
        kinds: kinds.into(),
        values,
    }
}

/// The same grid with its annealed cells filled by conflict learning instead.
#[doc(hidden)]
pub fn learned_4x4() -> SudokuSnapshot {
    let swapped = swapped_4x4();
    let kinds = (swapped.kinds.iter())
        .map(|&kind| match kind {
            CellKind::Annealed => CellKind::Learned,
            other => other,
        })
        .collect();
    SudokuSnapshot { kinds, ..swapped }
}

impl SudokuSnapshot {
    /// A copy of `values`, sharing the grid's shape and cell kinds.
    pub(super) fn of(geometry: &Arc<Geometry>, kinds: &Arc<[CellKind]>, values: &[u8]) -> Self {
        SudokuSnapshot {
            geometry: Arc::clone(geometry),
            kinds: Arc::clone(kinds),
            values: values.to_vec(),
        }
    }

    /// Copies `values` into this snapshot, reusing its buffer.
    pub(super) fn refresh(
        &mut self,
        geometry: &Arc<Geometry>,
        kinds: &Arc<[CellKind]>,
        values: &[u8],
    ) {
        self.values.clear();
        self.values.extend_from_slice(values);
        if !Arc::ptr_eq(&self.kinds, kinds) {
            self.kinds = Arc::clone(kinds);
            self.geometry = Arc::clone(geometry);
        }
    }

    /// Per cell: whether it is wrong: its value repeats in its row or column (box swaps),
    /// or the annealer left it empty (the partial fill).
    pub fn conflicts(&self) -> Vec<bool> {
        let mut wrong = line_conflicts(&self.geometry, &self.values);
        for (cell, w) in wrong.iter_mut().enumerate() {
            *w |= self.values[cell] == 0 && self.kinds[cell] == CellKind::Annealed;
        }
        wrong
    }

    /// Every cell filled and no symbol repeated in a row, column or box.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0) && first_clash(&self.geometry, &self.values).is_none()
    }
}

/// The `Problem` methods that copy a model's grid out, for every model that keeps its grid
/// as `geometry`, `kinds` and `values` (the fields of a `SudokuSnapshot`).
macro_rules! grid_snapshots {
    () => {
        fn snapshot(&self) -> SudokuSnapshot {
            SudokuSnapshot::of(&self.geometry, &self.kinds, &self.values)
        }

        fn snapshot_into(&self, into: &mut SudokuSnapshot) {
            into.refresh(&self.geometry, &self.kinds, &self.values);
        }

        fn snapshot_cost(&self) -> usize {
            self.values.len()
        }
    };
}
pub(super) use grid_snapshots;
