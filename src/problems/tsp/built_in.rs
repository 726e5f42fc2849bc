//! The travelling salesman in the list of built-in problems.

use std::io::Write;

use color_eyre::Result;

use super::spec::TspSpec;
use super::{TspArgs, load};
use crate::flags::first_given;
use crate::headless::report::Lines;
use crate::input::InputError;
use crate::problems::demos::Startup;
use crate::problems::registry::{BuiltIn, shared_flags, tab_pane};
use crate::problems::tsp::board::{DEFAULT_PACE, TspDemo};
use crate::race::lineup::PaneMaker;
use kiln_tui::TraceSlot;

/// The tour `spec` asks for, as the live view draws it.
fn demo(spec: TspSpec) -> Result<TspDemo> {
    Ok(TspDemo {
        trace: TraceSlot::of(spec.run.open_trace(None)?),
        runs: vec![spec],
    })
}

impl BuiltIn for TspArgs {
    fn check(&self) -> Result<(), InputError> {
        TspArgs::check(self)
    }

    shared_flags!();

    fn headless_only(&self) -> Option<(Vec<(&'static str, bool)>, &'static str)> {
        let flags = self.local_search_flags();
        first_given(&flags).map(|_| {
            (
                flags.to_vec(),
                "only headless runs end with a local search: add --headless",
            )
        })
    }

    fn headless(&self, out: &mut Lines, log: &mut dyn Write) -> Result<()> {
        super::headless(&self.spec()?, out, log)
    }

    fn live(&self) -> Result<Startup> {
        let spec = self.spec()?;
        load(&spec)?;
        // A live run writes --output only at its end: refuse a bad one before it starts.
        spec.output_file()?;
        Ok(Startup::one(demo(spec)?, 0))
    }

    /// A pane of the single view's tab, at its pace, so the tours can be watched.
    fn racer(&self) -> Result<Box<dyn PaneMaker>> {
        let spec = self.spec()?;
        load(&spec)?;
        Ok(tab_pane(spec, demo, super::headless, DEFAULT_PACE))
    }
}
