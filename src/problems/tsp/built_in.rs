//! The travelling salesman in the list of built-in problems.

use std::io::Write;

use color_eyre::Result;

use super::spec::TspSpec;
use super::{TspArgs, load};
use crate::anneal::worker::Speed;
use crate::cli::first_given;
use crate::input::InputError;
use crate::problems::registry::{BuiltIn, shared_flags};
use crate::ui::boards::TraceSlot;
use crate::ui::boards::tsp::{DEFAULT_PACE, TspDemo};
use crate::ui::demos::Startup;
use crate::ui::{BoardArea, Demo, Session};

/// The tour `spec` asks for, as the live view draws it.
fn demo(spec: TspSpec) -> Result<TspDemo> {
    Ok(TspDemo {
        trace: TraceSlot::open(&spec.run)?,
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

    fn headless(&self, out: &mut dyn Write, log: &mut dyn Write) -> Result<()> {
        super::headless(&self.spec()?, out, log)
    }

    fn live(&self) -> Result<Startup> {
        let spec = self.spec()?;
        load(&spec)?;
        // A live run writes --output only at its end: refuse a bad one before it starts.
        spec.output_file()?;
        Ok(Startup::one(demo(spec)?, 0))
    }

    fn check_pane(&self) -> Result<()> {
        load(&self.spec()?)?;
        Ok(())
    }

    fn pane(&self, speed: Speed, area: BoardArea) -> Result<Box<dyn Session>> {
        demo(self.spec()?)?.start(0, speed, area)
    }

    /// The single view's pace, so the tours can be watched.
    fn race_pace(&self) -> Speed {
        Speed::Limited(DEFAULT_PACE)
    }
}
