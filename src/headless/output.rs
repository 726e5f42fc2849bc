//! The result files a run writes (`--output`): which formats each problem writes, chosen
//! by the file's extension, and what a JSON line says of a file that was not written. The
//! writing itself, never over a file, is `kiln_core::files`.

use std::path::Path;

use kiln_core::files::{OutputFailed, Target};
use kiln_core::input::InputError;

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
    /// (extension, format), the default first.
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
    /// Where it is written.
    pub target: Target,
    /// What is written there.
    pub format: Format,
}

/// What a JSON line says of its `--output` file: why it was not written, if it was not.
pub fn output_error(written: Option<&Result<(), OutputFailed>>) -> Option<String> {
    match written {
        Some(Err(failed)) => Some(failed.to_string()),
        _ => None,
    }
}
