//! `--output FILE` and `--force`, shared by every problem: the file's extension chooses
//! what is written, checked with the rest of the command line so that a run never ends on
//! a result it cannot write.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::headless::output::{Target, checked_target};
use crate::input::InputError;

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

/// What a result file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A TSPLIB tour file.
    Tour,
    /// A raw PBM image.
    Pbm,
    /// A picture of the result.
    Png,
    /// The same picture as SVG.
    Svg,
    /// One Sudoku solution per line.
    Txt,
}

/// The files a problem writes its results as, by extension; the first is also what a path
/// without an extension gets. Each problem keeps its own (`FORMATS` in its flags).
#[derive(Debug)]
pub struct Formats {
    /// The problem's subcommand, for messages.
    pub problem: &'static str,
    pub choices: &'static [(&'static str, Format)],
}

impl Formats {
    /// The format `path` names (by its extension, in any case) for this problem.
    pub fn format_of(&self, path: &Path) -> Result<Format, InputError> {
        let formats = self.choices;
        let Some(extension) = path.extension() else {
            return Ok(formats[0].1);
        };
        let extension = extension.to_string_lossy();
        if let Some(&(_, format)) = formats
            .iter()
            .find(|(name, _)| extension.eq_ignore_ascii_case(name))
        {
            return Ok(format);
        }
        let names: Vec<String> = formats.iter().map(|(name, _)| format!(".{name}")).collect();
        let (last, first) = names.split_last().expect("every problem writes something");
        let choices = if first.is_empty() {
            last.clone()
        } else {
            format!("{} or {last}", first.join(", "))
        };
        Err(InputError::new(
            "--output",
            format!(
                "cannot write .{extension} for {} (use {choices})",
                self.problem
            ),
        ))
    }
}

/// Where a run writes its result, and in which format.
#[derive(Debug, Clone)]
pub struct OutputFile {
    pub target: Target,
    pub format: Format,
}

impl OutputArgs {
    /// The format `--output` asks of `problem`, if given: checked with the command line.
    pub fn format(&self, formats: &Formats) -> Result<Option<Format>, InputError> {
        self.output
            .as_deref()
            .map(|path| formats.format_of(path))
            .transpose()
    }

    /// Where `--output` goes and how, checked against the run's own `inputs` (never
    /// replaced) and existing files (only with `--force`) before the run starts.
    pub fn file(
        &self,
        formats: &Formats,
        inputs: &[&Path],
    ) -> Result<Option<OutputFile>, InputError> {
        let Some(format) = self.format(formats)? else {
            return Ok(None);
        };
        let target = checked_target(self.output.as_deref(), self.force, inputs)?;
        Ok(target.map(|target| OutputFile { target, format }))
    }
}
