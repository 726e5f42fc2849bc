//! What each problem's setup hands to whoever runs it, live or headless: one value.

use super::RunConfig;
use crate::search::{Bound, Budget, Phase, Planned, Search, Trace, Traced};

/// A search ready to run, and what a display needs to know of it.
pub struct Launch<S> {
    /// e.g. "9x9 hardest11.txt" or "berlin52 (52 cities)".
    pub title: String,
    /// The search itself, ready for its first batch.
    pub search: S,
    /// From the start (or reheat) temperature down to where one cooling ends, when that is
    /// known (a GA: the range of its mutation rate).
    pub span: (f64, Option<f64>),
    /// What a reheat raises the temperature (a GA: its mutation rate) to.
    pub reheat_to: f64,
    /// When the run stops, for a display to show how far along it is.
    pub budget: Budget,
    /// The phases the run goes through, in order, with their shares of the budget.
    pub plan: Vec<Planned>,
}

impl<S> Launch<S> {
    /// An annealing search that runs within `config`.
    pub fn annealing(title: String, search: S, config: &RunConfig, reheat_to: f64) -> Self {
        Launch {
            title,
            search,
            span: config.temperature_span(reheat_to),
            reheat_to,
            budget: config.budget,
            plan: vec![Planned {
                phase: Phase::Anneal,
                share: 1.0,
                bound: Bound::Exactly,
            }],
        }
    }

    /// The same run, going through the phases of `plan`.
    pub fn with_plan(self, plan: Vec<Planned>) -> Self {
        Launch { plan, ..self }
    }
}

impl<S: Search> Launch<S> {
    /// The same run with its samples written to `trace`, on the thread that runs it.
    pub fn traced(self, trace: Trace) -> Launch<Traced<S>> {
        Launch {
            title: self.title,
            search: Traced::new(self.search, trace),
            span: self.span,
            reheat_to: self.reheat_to,
            budget: self.budget,
            plan: self.plan,
        }
    }
}
