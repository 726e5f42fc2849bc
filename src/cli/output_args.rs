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

/// The problems that write results, each with the extensions it can write; the first is
/// also what a path without an extension gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    Tsp,
    Image,
    Sudoku,
}

impl Problem {
    fn name(self) -> &'static str {
        match self {
            Problem::Tsp => "tsp",
            Problem::Image => "image",
            Problem::Sudoku => "sudoku",
        }
    }

    fn formats(self) -> &'static [(&'static str, Format)] {
        match self {
            Problem::Tsp => &[
                ("tour", Format::Tour),
                ("png", Format::Png),
                ("svg", Format::Svg),
            ],
            Problem::Image => &[("pbm", Format::Pbm), ("png", Format::Png)],
            Problem::Sudoku => &[
                ("txt", Format::Txt),
                ("png", Format::Png),
                ("svg", Format::Svg),
            ],
        }
    }

    /// The format `path` names (by its extension, in any case) for this problem.
    pub fn format_of(self, path: &Path) -> Result<Format, InputError> {
        let formats = self.formats();
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
                self.name()
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
    pub fn format(&self, problem: Problem) -> Result<Option<Format>, InputError> {
        self.output
            .as_deref()
            .map(|path| problem.format_of(path))
            .transpose()
    }

    /// Where `--output` goes and how, checked against the run's own `inputs` (never
    /// replaced) and existing files (only with `--force`) before the run starts.
    pub fn file(
        &self,
        problem: Problem,
        inputs: &[&Path],
    ) -> Result<Option<OutputFile>, InputError> {
        let Some(format) = self.format(problem)? else {
            return Ok(None);
        };
        let target = checked_target(self.output.as_deref(), self.force, inputs)?;
        Ok(target.map(|target| OutputFile { target, format }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn format(problem: Problem, path: &str) -> Result<Format, String> {
        problem
            .format_of(Path::new(path))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn extensions_choose_the_format_in_any_case() {
        assert_eq!(format(Problem::Tsp, "t.tour"), Ok(Format::Tour));
        assert_eq!(format(Problem::Tsp, "t.PNG"), Ok(Format::Png));
        assert_eq!(format(Problem::Tsp, "dir.x/t.Svg"), Ok(Format::Svg));
        assert_eq!(format(Problem::Image, "i.pbm"), Ok(Format::Pbm));
        assert_eq!(format(Problem::Image, "i.png"), Ok(Format::Png));
        assert_eq!(format(Problem::Sudoku, "s.txt"), Ok(Format::Txt));
        assert_eq!(format(Problem::Sudoku, "s.svg"), Ok(Format::Svg));
    }

    #[test]
    fn no_extension_keeps_the_text_format() {
        assert_eq!(format(Problem::Tsp, "best"), Ok(Format::Tour));
        assert_eq!(format(Problem::Image, "/dev/stdout"), Ok(Format::Pbm));
        assert_eq!(format(Problem::Sudoku, "solutions"), Ok(Format::Txt));
    }

    #[test]
    fn other_extensions_are_refused_with_the_choices() {
        assert_eq!(
            format(Problem::Tsp, "t.jpg"),
            Err("--output: cannot write .jpg for tsp (use .tour, .png or .svg)".into())
        );
        assert_eq!(
            format(Problem::Image, "i.svg"),
            Err("--output: cannot write .svg for image (use .pbm or .png)".into())
        );
        assert_eq!(
            format(Problem::Sudoku, "s.tour"),
            Err("--output: cannot write .tour for sudoku (use .txt, .png or .svg)".into())
        );
    }
}
