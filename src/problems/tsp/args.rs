//! `kiln tsp`'s flags, as clap reads them.

use std::path::PathBuf;

use clap::Args;

use super::spec::{Search, TspModel, TspSpec};
use super::{Cost, Init, Layout, MoveSet};
use crate::flags::anneal_args::AnnealArgs;
use crate::flags::batch_args::BatchArgs;
use crate::flags::output_args::OutputArgs;
use crate::flags::ranges::{self, real, whole};
use crate::flags::values::named;
use crate::headless::output::{Format, Formats};
use crate::input::InputError;
use crate::problems::registry::spec_of;

/// What `--output` writes for a tour, by extension.
pub const FORMATS: Formats = Formats {
    problem: "tsp",
    choices: &[
        ("tour", Format::Tour),
        ("png", Format::Png),
        ("svg", Format::Svg),
    ],
};

/// `kiln tsp`'s flags.
#[derive(Args, Debug, Clone)]
// --output's formats are the problem's own.
#[command(mut_arg("output", |a| a.help(
    "Write the final tour here: .tour (or no extension) a TSPLIB tour file, .png or .svg a \
     picture of the cities and the tour (over --tour's, dashed). Never over an existing file \
     without --force, never over an input."
)))]
pub struct TspArgs {
    /// TSPLIB .tsp file [default: --random, or the built-in berlin52].
    #[arg(help_heading = "Input")]
    pub file: Option<PathBuf>,
    /// Anneal N random cities instead of a file (placed from --seed).
    #[arg(long, value_name = "N", conflicts_with = "file", value_parser = whole(ranges::CITIES), help_heading = "Input")]
    pub random: Option<usize>,
    /// How --random places its cities: uniform over a square, one Gaussian cloud, or
    /// Gaussian islands [default: uniform].
    #[arg(long, value_parser = named::<Layout>(), requires = "random", help_heading = "Input")]
    pub layout: Option<Layout>,
    /// Moves: 2-opt reversals and Or-opt moves of 1-3 cities towards near neighbours, or
    /// the classroom solvers' swaps of two consecutive or two arbitrary cities.
    #[arg(long, value_parser = named::<MoveSet>(), default_value_t = MoveSet::TwoOpt, help_heading = "TSP model")]
    pub moves: MoveSet,
    /// What is minimised: the sum of edge lengths, or of their squares (punishes long
    /// edges); the reported length is always the TSPLIB length.
    #[arg(long, value_parser = named::<Cost>(), default_value_t = Cost::Euclidean, help_heading = "TSP model")]
    pub cost: Cost,
    /// Candidate list size: 2-opt/Or-opt moves join a city to one of its K nearest (at most
    /// all the other cities).
    #[arg(long, value_name = "K", default_value_t = 5, value_parser = whole(ranges::NEIGHBOURS), help_heading = "TSP model")]
    pub neighbours: u16,
    /// First tour: greedy nearest neighbour from a random city, or a random permutation.
    #[arg(long, value_parser = named::<Init>(), default_value_t = Init::Nearest, help_heading = "TSP model")]
    pub init: Init,
    /// Known optimal length [default: looked up by instance name in the built-in table].
    #[arg(long, value_name = "LENGTH", value_parser = whole(ranges::OPTIMUM), help_heading = "Input")]
    pub optimum: Option<u64>,
    /// A reference tour file (e.g. NAME.opt.tour), drawn beside ours and measured.
    #[arg(long, value_name = "FILE", help_heading = "Input")]
    pub tour: Option<PathBuf>,
    /// `--output` and `--force`.
    #[command(flatten)]
    pub output: OutputArgs,
    /// Anneal only: skip the iterated local search that ends a headless run (--moves
    /// two-opt).
    #[arg(long, help_heading = "TSP model")]
    pub no_polish: bool,
    /// Iterated local search after the anneal, for --kick-share of the budget: kick the
    /// tour (a double bridge), descend again, go on from it unless it is longer by more than
    /// a threshold that falls to 0 over each epoch (epochs double in length and restart from
    /// the best tour; the anneal before takes at most 10,000 steps per city). The default;
    /// the flag is kept for older command lines.
    #[arg(long, conflicts_with = "no_polish", help_heading = "TSP model")]
    pub ils: bool,
    /// The share of the step and time budget spent kicking and re-descending instead of
    /// annealing; 0 for a single greedy descent [default: 0.8].
    #[arg(long, value_name = "FRACTION", value_parser = real(ranges::KICK_SHARE), conflicts_with = "no_polish", help_heading = "TSP model")]
    pub kick_share: Option<f64>,
    /// Run this many independent chains (anneal and local search) on as many threads: the
    /// first to reach the optimum ends the run, else the shortest tour is reported; the
    /// seed decides every chain, and --max-steps counts all of them [default: 2 up to 5,000
    /// cities, else 1].
    #[arg(long, value_name = "N", value_parser = whole(ranges::CHAINS), help_heading = "TSP model")]
    pub threads: Option<u64>,
    /// The annealing flags every problem takes.
    #[command(flatten)]
    pub anneal: AnnealArgs,
    /// The batch flags.
    #[command(flatten)]
    pub batch: BatchArgs,
}

/// The share of the budget kicks take when `--kick-share` is not given: annealing finds the
/// region, the kicks its best tour (the shares compared: docs/tuning.md).
pub const DEFAULT_KICK_SHARE: f64 = 0.8;

impl TspArgs {
    /// The flags that choose what follows the anneal, and whether each was given.
    pub fn local_search_flags(&self) -> [(&'static str, bool); 3] {
        [
            ("--no-polish", self.no_polish),
            ("--ils", self.ils),
            ("--kick-share", self.kick_share.is_some()),
        ]
    }

    /// What clap cannot check: the local search flags apply only where there is one.
    pub fn check(&self) -> Result<(), InputError> {
        self.anneal.check()?;
        self.output.file(&FORMATS)?;
        // clap's `requires` lets it pass beside a FILE, which conflicts with --random.
        if self.layout.is_some() && self.file.is_some() {
            return Err(InputError::flags(
                "--layout applies only to --random, not to the cities of a file",
            ));
        }
        match crate::flags::first_given(&self.local_search_flags()) {
            Some(flag) if self.moves != MoveSet::TwoOpt => Err(InputError::flags(format!(
                "{flag} applies only to --moves two-opt, the moves the local search makes"
            ))),
            _ => Ok(()),
        }
    }

    /// The run these flags ask for (`check` has refused what cannot be run).
    pub fn spec(&self) -> Result<TspSpec, InputError> {
        Ok(TspSpec {
            model: TspModel {
                file: self.file.clone(),
                random: self.random,
                layout: self.layout.unwrap_or(Layout::Uniform),
                moves: self.moves,
                cost: self.cost,
                neighbours: self.neighbours,
                init: self.init,
                optimum: self.optimum,
                tour: self.tour.clone(),
                search: Search::of(self.moves, self.no_polish, self.kick_share),
                kick_share: self.kick_share.unwrap_or(DEFAULT_KICK_SHARE),
                threads: self.threads.map(|t| t as usize),
            },
            run: self.anneal.run(),
            batch: self.batch.batch(),
            output: self.output.file(&FORMATS)?,
        })
    }
}

impl TspSpec {
    /// The run `words` ask for, written as after `kiln tsp` (`["--random", "300"]`): how
    /// built-in runs are described. Words `kiln tsp` refuses panic.
    pub fn from_flags(words: &[&str]) -> Self {
        spec_of(words, TspArgs::spec)
    }
}
