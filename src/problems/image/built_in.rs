//! Binary images in the list of built-in problems.

use std::io::Write;

use color_eyre::Result;

use super::{ImageArgs, build};
use crate::anneal::worker::Speed;
use crate::input::InputError;
use crate::problems::registry::{BuiltIn, shared_flags};
use crate::ui::boards::TraceSlot;
use crate::ui::boards::image::{DEFAULT_PACE, ImageDemo};
use crate::ui::demos::Startup;
use crate::ui::{BoardArea, Demo, Session};

impl ImageArgs {
    /// The run `self` asks for, as the live view draws it.
    fn demo(&self) -> Result<ImageDemo> {
        Ok(ImageDemo {
            runs: vec![self.clone()],
            trace: TraceSlot::open(&self.anneal)?,
        })
    }
}

impl BuiltIn for ImageArgs {
    fn check(&self) -> Result<(), InputError> {
        ImageArgs::check(self)
    }

    shared_flags!();

    fn headless(&self, out: &mut dyn Write, log: &mut dyn Write) -> Result<()> {
        super::headless(self, out, log)
    }

    fn live(&self) -> Result<Startup> {
        // The arguments are checked (and files read) before the screen changes.
        build(self)?;
        // A live run writes --output only at its end: refuse a bad one before it starts.
        self.output_file()?;
        Ok(Startup::one(self.demo()?, 0))
    }

    fn check_pane(&self) -> Result<()> {
        build(self)?;
        Ok(())
    }

    fn pane(&self, speed: Speed, area: BoardArea) -> Result<Box<dyn Session>> {
        self.demo()?.start(0, speed, area)
    }

    /// The single view's pace, so the pictures can be watched.
    fn race_pace(&self) -> Speed {
        Speed::Limited(DEFAULT_PACE)
    }
}
