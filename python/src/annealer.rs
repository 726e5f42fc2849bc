//! A Python annealer as kiln's `Problem`: its `move()` changes `state` as it is proposed
//! (and says by how much, or `energy()` does), so the runner takes rejected moves back
//! with the annealer's own `undo()` or by swapping in a spare copy of the state.

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use kiln_core::anneal::{Problem, Rng};
use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyList;

/// How a rejected move is taken back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keep {
    /// The annealer's `undo()` takes back its last move: no copy at all.
    Undo,
    /// The state is a list of immutable things: it is copied into one spare list before
    /// each move (no allocation), and a rejection swaps the two.
    List,
    /// A fresh copy (the annealer's `copy_state`) before each move; a rejection swaps it in.
    Copy,
}

impl Keep {
    pub(crate) fn parse(name: &str) -> PyResult<Keep> {
        match name {
            "undo" => Ok(Keep::Undo),
            "list" => Ok(Keep::List),
            "copy" => Ok(Keep::Copy),
            other => Err(PyValueError::new_err(format!(
                "no way to keep a state: {other}"
            ))),
        }
    }
}

/// A copy of the annealer's state (a best state, or one to draw); cloned by reference.
#[derive(Clone)]
pub(crate) struct Shot(pub(crate) Arc<Py<PyAny>>);

/// What a move made: its energy change.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Moved(f64);

/// Moves since the counts were last taken, as simanneal's `update()` reports them.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Counts {
    pub(crate) trials: u64,
    pub(crate) accepts: u64,
    pub(crate) improves: u64,
}

/// The user's annealer, stepped by kiln's runner.
pub(crate) struct Annealer {
    object: Py<PyAny>,
    keep: Keep,
    /// Copies a state: the annealer's `copy_state`, or `list` for a list of immutables.
    copy: Py<PyAny>,
    /// The state before the move under way (`Keep::List`, `Keep::Copy`).
    spare: RefCell<Option<Py<PyAny>>>,
    /// The energy of the state as the runner knows it, for moves that return nothing.
    energy: Cell<f64>,
    counts: Cell<Counts>,
    /// Moves made in all (a move that raised is not one).
    moves: Cell<u64>,
    /// The first error the annealer's code raised; once set, nothing more is called.
    failure: RefCell<Option<PyErr>>,
    /// A copy of the state the run started from, which a restart goes back to.
    start: Option<Py<PyAny>>,
}

impl Annealer {
    /// `object`'s state and moves, taken back as `keep` says, copied by `copy`.
    pub(crate) fn new(py: Python<'_>, object: Py<PyAny>, keep: Keep, copy: Py<PyAny>) -> Self {
        let mut annealer = Annealer {
            object,
            keep,
            copy,
            spare: RefCell::new(None),
            energy: Cell::new(f64::NAN),
            counts: Cell::new(Counts::default()),
            moves: Cell::new(0),
            failure: RefCell::new(None),
            start: None,
        };
        annealer.start = annealer.copied(py).map_err(|e| annealer.fail(e)).ok();
        if keep == Keep::List {
            *annealer.spare.get_mut() = Some(PyList::empty(py).into_any().unbind());
        }
        annealer
    }

    /// Takes the error the annealer's code raised, if it did.
    pub(crate) fn failure(&self) -> Option<PyErr> {
        self.failure.borrow_mut().take()
    }

    /// Whether the annealer's code has raised.
    pub(crate) fn failed(&self) -> bool {
        self.failure.borrow().is_some()
    }

    /// The moves since the last call.
    pub(crate) fn take_counts(&self) -> Counts {
        self.counts.take()
    }

    /// Moves made in all: the run's steps, but for those a failed run rejected unmade.
    pub(crate) fn moves(&self) -> u64 {
        self.moves.get()
    }

    /// The annealer object.
    pub(crate) fn object(&self) -> &Py<PyAny> {
        &self.object
    }

    fn fail(&self, error: PyErr) {
        self.failure.borrow_mut().get_or_insert(error);
    }

    fn copied(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let state = self.object.bind(py).getattr(intern!(py, "state"))?;
        self.copy.call1(py, (state,))
    }

    /// The annealer's `energy()`, which must be a finite number.
    fn full_energy(&self, py: Python<'_>) -> PyResult<f64> {
        let energy = self.object.bind(py).call_method0(intern!(py, "energy"))?;
        finite(energy.extract()?, "energy()")
    }

    fn try_move(&self, py: Python<'_>) -> PyResult<f64> {
        let object = self.object.bind(py);
        match self.keep {
            Keep::Undo => {}
            Keep::List => {
                let state = object.getattr(intern!(py, "state"))?;
                if let Some(spare) = &*self.spare.borrow() {
                    spare
                        .bind(py)
                        .cast::<PyList>()?
                        .set_slice(0, usize::MAX, &state)?;
                }
            }
            Keep::Copy => *self.spare.borrow_mut() = Some(self.copied(py)?),
        }
        let said = object.call_method0(intern!(py, "move"))?;
        let delta = if said.is_none() {
            self.full_energy(py)? - self.energy.get()
        } else {
            finite(said.extract()?, "move()")?
        };
        let mut counts = self.counts.get();
        counts.trials += 1;
        self.counts.set(counts);
        self.moves.set(self.moves.get() + 1);
        Ok(delta)
    }

    fn try_undo(&self, py: Python<'_>) -> PyResult<()> {
        let object = self.object.bind(py);
        if self.keep == Keep::Undo {
            object.call_method0(intern!(py, "undo"))?;
            return Ok(());
        }
        let mut spare = self.spare.borrow_mut();
        if let Some(before) = spare.take() {
            let moved = object.getattr(intern!(py, "state"))?;
            object.setattr(intern!(py, "state"), before)?;
            *spare = Some(moved.unbind());
        }
        Ok(())
    }
}

/// `value`, or the error that `what` gave a value that is not a finite number.
fn finite(value: f64, what: &str) -> PyResult<f64> {
    if value.is_finite() {
        Ok(value)
    } else {
        let value = value.to_string().to_lowercase();
        Err(PyValueError::new_err(format!(
            "{what} returned {value}: the energy must be a finite number"
        )))
    }
}

impl Problem for Annealer {
    type Move = Moved;
    type Snapshot = Shot;
    const MOVES_IN_PROPOSE: bool = true;

    fn energy(&self) -> f64 {
        if self.failed() {
            return 0.0;
        }
        let energy = Python::attach(|py| self.full_energy(py)).unwrap_or_else(|e| {
            self.fail(e);
            0.0
        });
        self.energy.set(energy);
        energy
    }

    fn propose(&self, _rng: &mut Rng) -> Moved {
        // A failed run rejects every move until its driver stops it, without calling in.
        if self.failed() {
            return Moved(f64::INFINITY);
        }
        Moved(Python::attach(|py| self.try_move(py)).unwrap_or_else(|e| {
            self.fail(e);
            f64::INFINITY
        }))
    }

    fn delta(&self, &Moved(delta): &Moved) -> f64 {
        delta
    }

    fn apply(&mut self, &Moved(delta): &Moved) {
        self.energy.set(self.energy.get() + delta);
        let mut counts = self.counts.get();
        counts.accepts += 1;
        counts.improves += u64::from(delta < 0.0);
        self.counts.set(counts);
    }

    fn undo(&self, _: &Moved) {
        if !self.failed()
            && let Err(e) = Python::attach(|py| self.try_undo(py))
        {
            self.fail(e);
        }
    }

    /// A restart goes back to the state the run started from.
    fn randomize(&mut self, _rng: &mut Rng) {
        let Some(start) = &self.start else {
            return;
        };
        let restored = Python::attach(|py| {
            let state = self.copy.call1(py, (start,))?;
            self.object.bind(py).setattr(intern!(py, "state"), state)
        });
        if let Err(e) = restored {
            self.fail(e);
        }
    }

    fn snapshot(&self) -> Shot {
        let copy = Python::attach(|py| {
            self.copied(py).unwrap_or_else(|e| {
                self.fail(e);
                py.None()
            })
        });
        Shot(Arc::new(copy))
    }

    /// A best state is copied whenever it is left, however often.
    fn snapshot_cost(&self) -> usize {
        16
    }
}
