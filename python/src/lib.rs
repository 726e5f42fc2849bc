//! `kiln_anneal._kiln`: the native half of the `kiln_anneal` Python package. The Python
//! half (`kiln_anneal/__init__.py`) is simanneal's `Annealer`; its runs come here, to
//! kiln's runner, headless or in kiln's live view.

#![deny(missing_docs)]

mod annealer;
mod headless;
mod live;

use pyo3::prelude::*;

use annealer::{Annealer, Keep};
use headless::Plan;

/// Anneals `annealer` from `tmax` to `tmin` over `steps` steps (exponential cooling, kiln's
/// Metropolis rule, moves drawn by the annealer's `move()`), calling its `update()`
/// `updates` times. Returns `(best_state, best_energy, steps, seconds, stop)`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (annealer, *, tmax, tmin, steps, updates, seed, keep, copy))]
fn anneal(
    py: Python<'_>,
    annealer: Py<PyAny>,
    tmax: f64,
    tmin: f64,
    steps: u64,
    updates: u64,
    seed: u64,
    keep: &str,
    copy: Py<PyAny>,
) -> PyResult<(Py<PyAny>, f64, u64, f64, &'static str)> {
    let annealer = Annealer::new(py, annealer, Keep::parse(keep)?, copy);
    let plan = Plan {
        tmax,
        tmin,
        steps,
        seed,
    };
    let run = headless::anneal(py, annealer, plan, updates)?;
    Ok((run.best, run.energy, run.steps, run.seconds, run.stop))
}

/// `steps` steps at `temperature`: `(energy, acceptance, improvement)`, for `auto()`.
#[pyfunction]
#[pyo3(signature = (annealer, *, temperature, steps, seed, keep, copy))]
fn explore(
    py: Python<'_>,
    annealer: Py<PyAny>,
    temperature: f64,
    steps: u64,
    seed: u64,
    keep: &str,
    copy: Py<PyAny>,
) -> PyResult<(f64, f64, f64)> {
    let annealer = Annealer::new(py, annealer, Keep::parse(keep)?, copy);
    headless::explore(py, annealer, temperature, steps, seed)
}

/// Anneals `annealer` as `anneal` does, in kiln's live view, until the user quits.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (annealer, *, tmax, tmin, steps, seed, keep, copy, draw, title, pace, record))]
fn watch(
    py: Python<'_>,
    annealer: Py<PyAny>,
    tmax: f64,
    tmin: f64,
    steps: u64,
    seed: u64,
    keep: &str,
    copy: Py<PyAny>,
    draw: Option<Py<PyAny>>,
    title: String,
    pace: u64,
    record: Option<std::path::PathBuf>,
) -> PyResult<(Py<PyAny>, f64, u64, f64, &'static str)> {
    let plan = Plan {
        tmax,
        tmin,
        steps,
        seed,
    };
    let options = live::Options {
        title,
        pace,
        record,
        draw,
    };
    live::watch(py, annealer, Keep::parse(keep)?, copy, plan, options)
}

#[pymodule]
#[pyo3(name = "_kiln")]
fn kiln(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(anneal, module)?)?;
    module.add_function(wrap_pyfunction!(explore, module)?)?;
    module.add_function(wrap_pyfunction!(watch, module)?)?;
    Ok(())
}
