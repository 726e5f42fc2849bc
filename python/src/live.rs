//! `watch()`: kiln's live view of a Python annealer, the keys and panels of `kiln`'s own
//! problems, the board drawn by the annealer's `draw(state) -> str` (or its energy
//! alone). The run steps on kiln's worker thread, attached to Python a batch at a time;
//! the event loop on the caller's thread looks for Ctrl-C (Python's) and for an error the
//! annealer's code raised, and either ends the view with the terminal restored.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use color_eyre::eyre::eyre;
use kiln_core::anneal::{Launch, Runner};
use kiln_core::search::worker::Speed;
use kiln_core::search::{Explained, Sample, Search, StopReason};
use kiln_tui::keys::Action;
use kiln_tui::{App, Board, BoardArea, Demo, Flow, Glyphs, Live, Session, Tab, Theme, Tui};
use pyo3::exceptions::{PyOSError, PyRuntimeError};
use pyo3::intern;
use pyo3::prelude::*;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::annealer::{Annealer, Keep, Shot};
use crate::headless::{Plan, interrupt, stop_name};

/// Frames a second, as `kiln`'s own live view draws.
const FPS: u32 = 20;
/// How often the event loop looks for Ctrl-C, which Python sees only on its main thread.
const SIGNAL_LOOK: Duration = Duration::from_millis(100);

/// What the live view is asked for.
pub(crate) struct Options {
    pub(crate) title: String,
    pub(crate) pace: u64,
    pub(crate) record: Option<PathBuf>,
    /// The annealer's `draw(state) -> str`, if it has one.
    pub(crate) draw: Option<Py<PyAny>>,
}

/// The best state of the run shown when it ended, and its totals.
struct Outcome {
    best: Shot,
    energy: f64,
    steps: u64,
    seconds: f64,
    reason: Option<StopReason>,
}

/// What the annealing thread tells the caller's: the first error the annealer's code
/// raised, and how the run shown ended.
#[derive(Default)]
struct Shared {
    failure: Mutex<Option<PyErr>>,
    outcome: Mutex<Option<Outcome>>,
}

impl Shared {
    fn fail(&self, error: PyErr) {
        let mut failure = self.failure.lock().unwrap_or_else(PoisonError::into_inner);
        failure.get_or_insert(error);
    }

    fn failed(&self) -> bool {
        (self.failure.lock().unwrap_or_else(PoisonError::into_inner)).is_some()
    }
}

/// The annealer's runner, attached to Python for a whole batch (a step's calls then cost
/// no attachment each), its boards drawn as text by `draw`.
struct Attached {
    runner: Runner<Annealer>,
    draw: Option<Py<PyAny>>,
    shared: Arc<Shared>,
}

impl Attached {
    /// Ends the run on the annealer's first error, for the caller's thread to raise.
    fn look(&mut self) {
        if let Some(error) = self.runner.problem().failure() {
            self.runner.stop();
            self.shared.fail(error);
        }
    }

    /// `state` as the annealer's `draw` draws it, or the energy when it has none.
    fn drawn(&self, py: Python<'_>, state: &Py<PyAny>, energy: f64) -> Arc<str> {
        let Some(draw) = &self.draw else {
            return format!("energy {energy}").into();
        };
        match draw
            .call1(py, (state,))
            .and_then(|text| text.extract::<String>(py))
        {
            Ok(text) => text.into(),
            Err(error) => {
                self.shared.fail(error);
                "".into()
            }
        }
    }
}

impl Search for Attached {
    type Snapshot = Arc<str>;

    fn step_batch(&mut self, n: u64) -> u64 {
        let done = Python::attach(|_| self.runner.step_batch(n));
        self.look();
        done
    }
    fn step_explained(&mut self) -> Option<Explained> {
        let told = Python::attach(|_| self.runner.step_explained());
        self.look();
        told
    }
    fn sample(&mut self) -> Sample {
        self.runner.sample()
    }
    fn stopped(&self) -> Option<StopReason> {
        self.runner.stopped()
    }
    fn snapshot(&self) -> Arc<str> {
        Python::attach(|py| {
            let object = self.runner.problem().object().bind(py);
            match object.getattr(intern!(py, "state")) {
                Ok(state) => self.drawn(py, &state.unbind(), self.runner.energy()),
                Err(error) => {
                    self.shared.fail(error);
                    "".into()
                }
            }
        })
    }
    fn best_snapshot(&mut self) -> Arc<str> {
        let (best, energy) = self.runner.best();
        let best = best.clone();
        Python::attach(|py| self.drawn(py, &best.0, energy))
    }
    fn reheat(&mut self, temperature: f64) {
        self.runner.reheat(temperature)
    }
    fn restart(&mut self) {
        self.runner.restart();
        self.look();
    }
    fn waited(&mut self, idle: Duration) {
        self.runner.postpone(idle);
    }
}

/// The run hands over its best state when the view lets it go.
impl Drop for Attached {
    fn drop(&mut self) {
        let reason = self.runner.stopped();
        let seconds = self.runner.sample().elapsed.as_secs_f64();
        let (best, energy) = self.runner.best();
        let outcome = Outcome {
            best: best.clone(),
            energy,
            steps: self.runner.problem().moves(),
            seconds,
            reason,
        };
        *self
            .shared
            .outcome
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(outcome);
    }
}

/// The board: the text `draw` made, line by line.
struct Text;

impl Board<Arc<str>> for Text {
    fn min_size(&self, text: Option<&Arc<str>>) -> (u16, u16) {
        let text = text.map_or("", |t| t);
        let width = text.lines().map(|l| l.chars().count()).max().unwrap_or(0);
        let clamp = |n: usize| u16::try_from(n).unwrap_or(u16::MAX).max(1);
        (clamp(width), clamp(text.lines().count()))
    }
    fn render(&self, text: &Arc<str>, area: Rect, buf: &mut Buffer, theme: &Theme) {
        for (y, line) in text.lines().enumerate() {
            kiln_tui::put(buf, area, (0, y), line, theme.annealed);
        }
    }
    fn energy_means(&self) -> &'static str {
        "what your energy() returns"
    }
    /// A finished run shows the state `watch()` returns.
    fn best_at_end(&self) -> bool {
        true
    }
}

/// The annealer as the view's one tab.
struct Watched {
    object: Py<PyAny>,
    keep: Keep,
    copy: Py<PyAny>,
    plan: Plan,
    draw: Option<Py<PyAny>>,
    title: String,
    tab: &'static str,
    pace: u64,
    shared: Arc<Shared>,
}

impl Demo for Watched {
    fn tab(&self) -> Tab {
        Tab {
            name: self.tab,
            count: 1,
            pace: Speed::Limited(self.pace),
        }
    }

    fn start(&self, _: usize, speed: Speed, _: BoardArea) -> color_eyre::Result<Box<dyn Session>> {
        let config = self.plan.config();
        let search = Python::attach(|py| {
            let object = self.object.clone_ref(py);
            let annealer = Annealer::new(py, object, self.keep, self.copy.clone_ref(py));
            Attached {
                runner: Runner::new(annealer, config.clone(), self.plan.seed),
                draw: self.draw.as_ref().map(|d| d.clone_ref(py)),
                shared: Arc::clone(&self.shared),
            }
        });
        if let Some(error) = search.runner.problem().failure() {
            self.shared.fail(error);
            return Err(eyre!("the annealer raised an error"));
        }
        let launch = Launch::annealing(self.title.clone(), search, &config, config.t0);
        Ok(Box::new(Live::start(launch, Text, speed)))
    }
}

/// The app, ended by Ctrl-C or by an error in the annealer's code as by its quit key.
struct Embedded<'a> {
    app: App,
    shared: &'a Shared,
    stop: &'a AtomicBool,
    interrupted: bool,
    looked: Instant,
}

impl Tui for Embedded<'_> {
    fn poll(&mut self) -> bool {
        if self.looked.elapsed() >= SIGNAL_LOOK {
            self.looked = Instant::now();
            let signal = Python::attach(|py| {
                let error = py.check_signals().err()?;
                Some(interrupt(py, error).err())
            });
            match signal {
                None => {}
                Some(None) => self.interrupted = true,
                Some(Some(error)) => self.shared.fail(error),
            }
        }
        if self.shared.failed() || self.interrupted {
            self.stop.store(true, Ordering::Relaxed);
        }
        self.app.poll()
    }
    fn on_action(&mut self, action: Action) -> Flow {
        self.app.on_action(action)
    }
    fn crashed(&self) -> Option<String> {
        self.app.crashed()
    }
    fn render(&self, area: Rect, buf: &mut Buffer) {
        self.app.render(area, buf)
    }
    fn resize(&mut self, screen: Rect) {
        self.app.resize(screen)
    }
}

/// Opens the live view on `object` until the user quits (or Ctrl-C, or an error in the
/// annealer's code, which is raised once the terminal is restored). Returns the best
/// state of the run and its energy, steps, seconds and why it stopped.
pub(crate) fn watch(
    py: Python<'_>,
    object: Py<PyAny>,
    keep: Keep,
    copy: Py<PyAny>,
    plan: Plan,
    options: Options,
) -> PyResult<(Py<PyAny>, f64, u64, f64, &'static str)> {
    if let Some(path) = &options.record {
        kiln_tui::record::check(path).map_err(|e| PyOSError::new_err(e.to_string()))?;
    }
    let shared = Arc::new(Shared::default());
    let watched = Watched {
        object,
        keep,
        copy,
        plan,
        draw: options.draw,
        tab: Box::leak(options.title.clone().into_boxed_str()),
        title: options.title,
        pace: options.pace.max(1),
        shared: Arc::clone(&shared),
    };
    let record = options.record;
    let stop = AtomicBool::new(false);
    let interrupted = py.detach(|| -> color_eyre::Result<bool> {
        let theme = Theme::from_env(Glyphs::Detect);
        let screen = kiln_tui::terminal::local_area();
        let demos: Vec<Box<dyn Demo>> = vec![Box::new(watched)];
        let app = App::new(demos, 0, 0, None, theme, screen, false)?;
        let mut ui = Embedded {
            app,
            shared: &shared,
            stop: &stop,
            interrupted: false,
            looked: Instant::now(),
        };
        let driven = kiln_tui::drive_until(&mut ui, FPS, record.as_deref(), &stop, || Ok(()));
        let interrupted = ui.interrupted;
        // Dropped while detached: the annealing thread may be waiting to attach.
        drop(ui);
        driven.map(|()| interrupted)
    });
    if let Some(error) = shared
        .failure
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take()
    {
        return Err(error);
    }
    let interrupted = interrupted.map_err(|e| PyRuntimeError::new_err(format!("{e:#}")))?;
    let outcome = shared
        .outcome
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    let outcome = outcome.ok_or_else(|| PyRuntimeError::new_err("the run left no result"))?;
    let reason = outcome.reason.unwrap_or(StopReason::Stopped);
    Ok((
        outcome.best.0.clone_ref(py),
        outcome.energy,
        outcome.steps,
        outcome.seconds,
        stop_name(reason, interrupted),
    ))
}
