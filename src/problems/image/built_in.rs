//! Binary images in the list of built-in problems.

use std::io::Write;

use color_eyre::Result;

use super::spec::ImageSpec;
use super::{ImageArgs, build};
use crate::headless::report::Lines;
use crate::input::InputError;
use crate::problems::demos::Startup;
use crate::problems::image::board::{DEFAULT_PACE, ImageDemo};
use crate::problems::registry::{BuiltIn, shared_flags, tab_pane};
use crate::race::lineup::PaneMaker;
use kiln_tui::TraceSlot;

/// The run `spec` asks for, as the live view draws it.
fn demo(spec: ImageSpec) -> Result<ImageDemo> {
    Ok(ImageDemo {
        trace: TraceSlot::of(spec.run.open_trace(None)?),
        runs: vec![spec],
    })
}

impl BuiltIn for ImageArgs {
    fn check(&self) -> Result<(), InputError> {
        ImageArgs::check(self)
    }

    shared_flags!();

    fn headless(&self, out: &mut Lines, log: &mut dyn Write) -> Result<()> {
        super::headless(&self.spec()?, out, log)
    }

    fn live(&self) -> Result<Startup> {
        // The arguments are checked (and files read) before the screen changes.
        let spec = self.spec()?;
        build(&spec)?;
        // A live run writes --output only at its end: refuse a bad one before it starts.
        spec.output_file()?;
        Ok(Startup::one(demo(spec)?, 0))
    }

    /// A pane of the single view's tab, at its pace, so the pictures can be watched.
    fn racer(&self) -> Result<Box<dyn PaneMaker>> {
        let spec = self.spec()?;
        build(&spec)?;
        Ok(tab_pane(spec, demo, super::headless, DEFAULT_PACE))
    }
}
