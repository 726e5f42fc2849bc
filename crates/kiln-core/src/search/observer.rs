//! How a run driven to its end shows itself to the outside (a progress line, a dashboard)
//! without the engine knowing what is watching.

use super::Sample;

/// Whoever watches a run between its batches.
pub trait Observer {
    /// Whether it wants samples at all: a run nobody watches takes none.
    fn is_on(&self) -> bool {
        true
    }
    /// The run's newest sample (acceptance counted since the one before).
    fn observe(&mut self, sample: &Sample);
}

/// Nobody watching.
#[derive(Debug, Clone, Copy, Default)]
pub struct Unobserved;

impl Observer for Unobserved {
    fn is_on(&self) -> bool {
        false
    }
    fn observe(&mut self, _sample: &Sample) {}
}
