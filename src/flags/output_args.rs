//! `--output FILE` and `--force`, shared by every problem: the file's extension chooses
//! what is written, checked with the rest of the command line so that a run never ends on
//! a result it cannot write.

use std::path::PathBuf;

use clap::Args;

use crate::headless::output::{Formats, OutputFile};
use crate::input::InputError;
use kiln_core::files::Target;

/// `--output` and `--force`.
#[derive(Args, Debug, Clone, Default, PartialEq)]
pub struct OutputArgs {
    /// Write the result here, in the format the extension names (each problem's help lists
    /// its own). Never over an existing file without --force, never over an input.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "seeds",
        help_heading = "Output"
    )]
    pub output: Option<PathBuf>,
    /// Let --output replace an existing file.
    #[arg(long, requires = "output", help_heading = "Output")]
    pub force: bool,
}

impl OutputArgs {
    /// Where `--output` goes and in which format (refused if `formats` has no format for
    /// its extension); the file is checked against the run's inputs when the run starts.
    pub fn file(&self, formats: &Formats) -> Result<Option<OutputFile>, InputError> {
        let Some(path) = &self.output else {
            return Ok(None);
        };
        Ok(Some(OutputFile {
            format: formats.format_of(path)?,
            target: Target::new(path, self.force),
        }))
    }
}
