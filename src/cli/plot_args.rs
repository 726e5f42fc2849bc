//! The flags of `kiln plot`, read into the figure's `plot::Spec`.

use std::path::PathBuf;

use clap::Args;

use crate::flags::values::value_enum;
use crate::input::InputError;
use crate::plot::{self, XAxis};

value_enum!(XAxis);

/// `kiln plot`'s flags.
#[derive(Args, Debug, Clone)]
pub struct PlotArgs {
    /// Trace files written by `--trace`, or images (.pbm, .png) to draw side by side; each
    /// is named by its file name.
    #[arg(required = true, value_name = "TRACE")]
    pub traces: Vec<PathBuf>,
    /// The figure to write: FILE.svg or FILE.png (required).
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// What the horizontal axis counts.
    #[arg(long, value_enum, default_value_t = XAxis::Steps)]
    pub x: XAxis,
}

impl PlotArgs {
    /// The figure these flags ask for, with what clap cannot check: the figure's file.
    /// `--output` is not required by clap, whose message would come before `Cli::check`
    /// names a flag `kiln plot` refuses (and said "a flag given needs --output" when none
    /// was given).
    pub fn spec(&self) -> Result<plot::Spec, InputError> {
        let output = self.output.clone().ok_or_else(|| {
            InputError::new(
                "--output",
                "`kiln plot` needs the figure's file, FILE.svg or FILE.png",
            )
        })?;
        Ok(plot::Spec {
            traces: self.traces.clone(),
            format: plot::format_of(&output)?,
            output,
            x: self.x,
        })
    }
}
