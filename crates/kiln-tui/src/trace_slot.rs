//! The `--trace` file of a live view.

use std::sync::Mutex;

use kiln_core::anneal::Trace;

/// The `--trace` file of a live view: created before the screen changes, so that an
/// existing file is refused before anything runs, and written by the first run the view
/// starts. Runs started after it (`n`, `p`, a restart) are not traced.
#[derive(Default)]
pub struct TraceSlot(Mutex<Option<Trace>>);

impl TraceSlot {
    /// A slot holding `trace` for the first run.
    pub fn of(trace: Trace) -> Self {
        TraceSlot(Mutex::new(Some(trace)))
    }

    /// The trace for a run starting now: the file the first time, nothing after.
    pub fn take(&self) -> Trace {
        let mut slot = self.0.lock().unwrap_or_else(|e| e.into_inner());
        slot.take().unwrap_or_else(Trace::off)
    }
}
