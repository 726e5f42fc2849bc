//! Annealing without a terminal: simanneal's `anneal()` (exponential cooling from Tmax to
//! Tmin over `steps`, `updates` calls of the annealer's `update()`) and the runs at a fixed
//! temperature its `auto()` explores with, both on kiln's runner.

use kiln_core::anneal::{RunConfig, Runner, Schedule};
use kiln_core::search::StopReason;
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::intern;
use pyo3::prelude::*;

use crate::annealer::{Annealer, Counts};

/// Steps between looks at the annealer's errors, Ctrl-C and `user_exit`: a few
/// milliseconds of Python moves.
const LOOK_EVERY: u64 = 1 << 10;

/// A run's schedule and seed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Plan {
    pub(crate) tmax: f64,
    pub(crate) tmin: f64,
    pub(crate) steps: u64,
    pub(crate) seed: u64,
}

impl Plan {
    /// Exponential cooling from Tmax to Tmin over the steps, as simanneal's.
    pub(crate) fn config(&self) -> RunConfig {
        let mut config = RunConfig::new(Schedule::Exponential { t_min: self.tmin }, self.tmax);
        config.budget.max_steps = Some(self.steps);
        config
    }
}

/// How a run ended: its best state and energy, steps, time and why it stopped.
pub(crate) struct Finished {
    pub(crate) best: Py<PyAny>,
    pub(crate) energy: f64,
    pub(crate) steps: u64,
    pub(crate) seconds: f64,
    pub(crate) stop: &'static str,
}

/// The stop reasons of kiln's headless JSON, for the Python side's `last_run`.
pub(crate) fn stop_name(reason: StopReason, interrupted: bool) -> &'static str {
    match reason {
        _ if interrupted => "interrupted",
        StopReason::Target => "target",
        StopReason::MaxSteps => "max_steps",
        StopReason::TimeLimit => "time_limit",
        StopReason::Stopped => "stopped",
        StopReason::Interrupted => "interrupted",
        StopReason::Refuted => "refuted",
    }
}

/// Whether `error` is Ctrl-C, which ends a run with its best state rather than an error.
pub(crate) fn interrupt(py: Python<'_>, error: PyErr) -> PyResult<()> {
    if error.is_instance_of::<PyKeyboardInterrupt>(py) {
        Ok(())
    } else {
        Err(error)
    }
}

/// Runs `steps` more steps in slices, raising what the annealer's code raised; `true` if
/// Ctrl-C or the annealer's `user_exit` asked the run to end.
fn advance(py: Python<'_>, runner: &mut Runner<Annealer>, steps: u64) -> PyResult<bool> {
    let end = runner.iterations() + steps;
    while runner.stopped().is_none() && runner.iterations() < end {
        runner.step_batch((end - runner.iterations()).min(LOOK_EVERY));
        if let Some(error) = runner.problem().failure() {
            interrupt(py, error)?;
            return Ok(true);
        }
        if let Err(error) = py.check_signals() {
            interrupt(py, error)?;
            return Ok(true);
        }
        let object = runner.problem().object().bind(py);
        if object.getattr(intern!(py, "user_exit"))?.is_truthy()? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Reports progress through the annealer's `update(step, T, E, acceptance, improvement)`.
fn update(py: Python<'_>, runner: &Runner<Annealer>, counts: Option<Counts>) -> PyResult<()> {
    let rates = counts.map(|c| {
        let trials = c.trials.max(1) as f64;
        (c.accepts as f64 / trials, c.improves as f64 / trials)
    });
    let (acceptance, improvement) = (rates.map(|r| r.0), rates.map(|r| r.1));
    let args = (
        runner.iterations(),
        runner.temperature(),
        runner.energy(),
        acceptance,
        improvement,
    );
    runner
        .problem()
        .object()
        .call_method1(py, intern!(py, "update"), args)?;
    Ok(())
}

/// A runner on `annealer`, or what its first `energy()` or copy raised.
fn start(annealer: Annealer, config: RunConfig, seed: u64) -> PyResult<Runner<Annealer>> {
    let runner = Runner::new(annealer, config, seed);
    match runner.problem().failure() {
        Some(error) => Err(error),
        None => Ok(runner),
    }
}

/// simanneal's `anneal()`: cools as `plan` says, calling `update()` `updates` times.
pub(crate) fn anneal(
    py: Python<'_>,
    annealer: Annealer,
    plan: Plan,
    updates: u64,
) -> PyResult<Finished> {
    let mut runner = start(annealer, plan.config(), plan.seed)?;
    if updates > 0 {
        update(py, &runner, None)?;
    }
    let mut interrupted = false;
    let (mut mark, marks) = (0, updates.max(1));
    while runner.stopped().is_none() && !interrupted {
        mark += 1;
        let at = plan.steps * mark / marks;
        let steps = at.saturating_sub(runner.iterations());
        interrupted = advance(py, &mut runner, steps)?;
        if updates > 1 && !interrupted {
            let counts = runner.problem().take_counts();
            update(py, &runner, Some(counts))?;
        }
    }
    let reason = runner.stopped().unwrap_or(StopReason::Stopped);
    let steps = runner.problem().moves();
    let outcome = runner.finish();
    Ok(Finished {
        best: Py::clone_ref(&outcome.best.0, py),
        energy: outcome.energy,
        steps,
        seconds: outcome.elapsed.as_secs_f64(),
        stop: stop_name(reason, interrupted),
    })
}

/// `steps` steps at the fixed `temperature` from the annealer's state, as simanneal's
/// `auto()` explores: the energy it ends at, and the shares of moves accepted and of moves
/// that lowered the energy.
pub(crate) fn explore(
    py: Python<'_>,
    annealer: Annealer,
    temperature: f64,
    steps: u64,
    seed: u64,
) -> PyResult<(f64, f64, f64)> {
    let mut config = RunConfig::new(Schedule::Constant, temperature);
    config.budget.max_steps = Some(steps);
    let mut runner = start(annealer, config, seed)?;
    if advance(py, &mut runner, steps)? {
        return Err(PyKeyboardInterrupt::new_err("auto() was interrupted"));
    }
    let counts = runner.problem().take_counts();
    let trials = counts.trials.max(1) as f64;
    Ok((
        runner.energy(),
        counts.accepts as f64 / trials,
        counts.improves as f64 / trials,
    ))
}
