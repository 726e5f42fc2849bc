//! `kiln sudoku`'s flags, as clap reads them, and the checks clap cannot make.

use std::path::PathBuf;

use clap::Args;

use super::Preset;
use super::spec::{Ga, SudokuModel, SudokuSpec};
use crate::flags::anneal_args::AnnealArgs;
use crate::flags::batch_args::BatchArgs;
use crate::flags::output_args::OutputArgs;
use crate::flags::ranges::{self, real, whole};
use crate::headless::output::{Format, Formats};
use crate::input::InputError;
use crate::problems::registry::spec_of;

/// What `--output` writes for Sudoku solutions, by extension.
pub const FORMATS: Formats = Formats {
    problem: "sudoku",
    choices: &[
        ("txt", Format::Txt),
        ("png", Format::Png),
        ("svg", Format::Svg),
    ],
};

/// `kiln sudoku`'s flags.
#[derive(Args, Debug, Clone)]
// --output's formats are the problem's own.
#[command(mut_arg("output", |a| a.help(
    "Write the best grids here: .txt (or no extension) one line per puzzle, in input order; \
     .png or .svg a picture of one puzzle's grid, givens bold (--index N picks it). Never \
     over an existing file without --force, never over an input."
)))]
pub struct SudokuArgs {
    /// Puzzle file: one puzzle per line, or grids of numbers [default: an embedded puzzle].
    #[arg(help_heading = "Input")]
    pub file: Option<PathBuf>,
    /// Solve only puzzle N of the file (1-based).
    #[arg(long, value_name = "N", value_parser = whole(ranges::INDEX), help_heading = "Input")]
    pub index: Option<usize>,
    /// Do not fix the cells naked and hidden singles force before annealing.
    #[arg(long, help_heading = "Sudoku model")]
    pub no_propagate: bool,
    /// Fraction of moves that start at a cell whose value repeats in its row or column
    /// [default: 0.2 for 16x16, else 0.5; 0 for the classroom presets].
    #[arg(long, value_name = "P", value_parser = real(ranges::SHARE), help_heading = "Sudoku model")]
    pub focus: Option<f64>,
    /// Fraction of swaps extended to a pair of swaps in two boxes that keeps every row (or
    /// every column) as it was [default: 0.3 ; 0 for the classroom presets].
    #[arg(long, value_name = "P", value_parser = real(ranges::SHARE), help_heading = "Sudoku model")]
    pub pairs: Option<f64>,
    /// Run this many independent chains on as many threads, the first to solve wins; the
    /// seed decides every chain [default: 2 for 25x25 with kiln's own annealer, else 1].
    #[arg(long, value_name = "N", value_parser = whole(ranges::CHAINS), help_heading = "Sudoku model")]
    pub threads: Option<u64>,
    /// The annealing flags every problem takes.
    #[command(flatten)]
    pub anneal: AnnealArgs,
    /// The batch flags.
    #[command(flatten)]
    pub batch: BatchArgs,
    /// `--output` and `--force`.
    #[command(flatten)]
    pub output: OutputArgs,
    /// Run a named preset (`kiln presets` lists them); other flags override its values
    /// [default: kiln].
    #[arg(
        long,
        alias = "presets",
        value_name = "NAME",
        help_heading = "Sudoku model"
    )]
    pub preset: Option<Preset>,
    /// The GA's flags.
    #[command(flatten)]
    pub ga: GaArgs,
}

/// The flags the GA ignores: it has no temperature, and restarts after `--stall`
/// generations without progress.
const NOT_GA: [&str; 8] = [
    "--schedule",
    "--t0",
    "--t-min",
    "--alpha",
    "--k",
    "--auto-acceptance",
    "--on-stall",
    "--reheat-t",
];

impl SudokuArgs {
    /// The preset that runs: the one named, or kiln's own.
    pub fn preset(&self) -> Preset {
        self.preset.unwrap_or(Preset::Kiln)
    }

    /// What clap cannot check: flags that the preset asked for would ignore.
    pub fn check(&self) -> Result<(), InputError> {
        self.anneal.check()?;
        self.output.file(&FORMATS)?;
        self.ga.check(self.preset() == Preset::Ga, "--preset ga")?;
        for (flag, given) in [("--focus", self.focus), ("--pairs", self.pairs)] {
            if given.is_some() && !self.preset().swaps_boxes() {
                return Err(InputError::flags(format!(
                    "{flag} applies only to box-swap annealing, not --preset {}",
                    self.preset()
                )));
            }
        }
        if self.preset() == Preset::Ga
            && let Some(flag) = self.anneal.run().given().find(|f| NOT_GA.contains(f))
        {
            return Err(InputError::flags(format!(
                "{flag} does not apply to --preset ga, which does not anneal"
            )));
        }
        Ok(())
    }

    /// The run these flags ask for (`check` has refused what cannot be run).
    pub fn spec(&self) -> Result<SudokuSpec, InputError> {
        Ok(SudokuSpec {
            model: SudokuModel {
                file: self.file.clone(),
                index: self.index,
                no_propagate: self.no_propagate,
                focus: self.focus,
                pairs: self.pairs,
                threads: self.threads,
                named: self.preset,
                ga: self.ga.ga(),
            },
            run: self.anneal.run(),
            batch: self.batch.batch(),
            output: self.output.file(&FORMATS)?,
        })
    }
}

/// The genetic algorithm's flags (`--preset ga`).
#[derive(Args, Debug, Clone, Default, PartialEq)]
#[command(next_help_heading = "Genetic algorithm (--preset ga)")]
pub struct GaArgs {
    /// Candidates per generation [default: 1000].
    #[arg(long, value_name = "N", value_parser = whole(ranges::POPULATION))]
    pub population: Option<u64>,
    /// Fraction of the population kept unchanged each generation [default: 0.05].
    #[arg(long, value_name = "FRACTION", value_parser = real(ranges::ELITES))]
    pub elites: Option<f64>,
    /// Starting mutation rate, then adapted by the 1/5 rule [default: 0.06].
    #[arg(long, value_name = "RATE", value_parser = real(ranges::MUTATION))]
    pub mutation: Option<f64>,
}

impl GaArgs {
    /// The GA's settings as given.
    pub fn ga(&self) -> Ga {
        Ga {
            population: self.population,
            elites: self.elites,
            mutation: self.mutation,
        }
    }

    /// Refuses GA flags where no GA runs (`with_ga`), which would otherwise be ignored;
    /// `ga_flag` says how to ask for one.
    pub fn check(&self, with_ga: bool, ga_flag: &str) -> Result<(), InputError> {
        let given = [
            ("--population", self.population.is_some()),
            ("--elites", self.elites.is_some()),
            ("--mutation", self.mutation.is_some()),
        ];
        match crate::flags::first_given(&given) {
            Some(flag) if !with_ga => Err(InputError::flags(format!(
                "{flag} applies only with {ga_flag}"
            ))),
            _ => Ok(()),
        }
    }
}

impl SudokuSpec {
    /// The run `words` ask for, written as after `kiln sudoku` (`["--preset", "ga"]`): how
    /// built-in runs are described. Words `kiln sudoku` refuses panic.
    pub fn from_flags(words: &[&str]) -> Self {
        spec_of(words, SudokuArgs::spec)
    }
}
