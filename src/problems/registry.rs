//! The one list of kiln's built-in problems. Each problem's flags implement [`BuiltIn`],
//! which carries everything the front ends ask of a problem (its checks, its headless
//! run, its live view, its race pane and how a race of it is ranked), and
//! [`ProblemCommand`] is the list itself: adding a problem is its folder and one line in
//! `problems!` below.

use std::io::Write;

use clap::Subcommand;
use color_eyre::Result;

use super::image::ImageArgs;
use super::sudoku::SudokuArgs;
use super::tsp::TspArgs;
use crate::anneal::worker::Speed;
use crate::cli::anneal_args::AnnealArgs;
use crate::cli::output_args::OutputArgs;
use crate::headless::batch::BatchArgs;
use crate::input::InputError;
use crate::ui::demos::Startup;
use crate::ui::race::Standings;
use crate::ui::{BoardArea, Session};

/// The flags every problem shares.
pub struct Shared<'a> {
    pub batch: &'a BatchArgs,
    pub output: &'a OutputArgs,
    pub anneal: &'a AnnealArgs,
}

/// A built-in problem, as the command line, headless runs, the live view, races and the
/// server see it.
pub trait BuiltIn {
    /// What clap cannot check: flags that apply only with a value of another flag, and
    /// flags whose values contradict each other.
    fn check(&self) -> Result<(), InputError>;
    /// The flags every problem has.
    fn shared(&self) -> Shared<'_>;
    /// The annealing flags, to adjust (a race pane's trace file).
    fn anneal_mut(&mut self) -> &mut AnnealArgs;
    /// Flags of this problem that only a headless run takes, beyond a batch's, and why.
    fn headless_only(&self) -> Option<(Vec<(&'static str, bool)>, &'static str)> {
        None
    }
    /// Runs without a terminal: one JSON object per line on `out`, a summary on `log`.
    fn headless(&self, out: &mut dyn Write, log: &mut dyn Write) -> Result<()>;
    /// The live view of `kiln PROBLEM ...`, its input read and checked before the screen
    /// changes.
    fn live(&self) -> Result<Startup>;
    /// What a race pane of it would refuse once started, refused before any pane starts.
    fn check_pane(&self) -> Result<()>;
    /// One race pane running it at `speed`, its board in `area`.
    fn pane(&self, speed: Speed, area: BoardArea) -> Result<Box<dyn Session>>;
    /// The pace a race of it starts at, unless `--speed` says.
    fn race_pace(&self) -> Speed;
    /// How a race of it is ranked.
    fn standings(&self) -> Standings;
}

/// Declares the problem subcommands and their one dispatch.
macro_rules! problems {
    ($($(#[$doc:meta])* $variant:ident($args:ty),)+) => {
        /// `kiln PROBLEM ...`: the built-in problems, each a subcommand.
        #[derive(Subcommand, Debug, Clone)]
        pub enum ProblemCommand {
            $($(#[$doc])* $variant($args),)+
        }

        impl ProblemCommand {
            /// The problem behind the subcommand.
            pub fn get(&self) -> &dyn BuiltIn {
                match self {
                    $(ProblemCommand::$variant(args) => args,)+
                }
            }

            /// The same, to change.
            pub fn get_mut(&mut self) -> &mut dyn BuiltIn {
                match self {
                    $(ProblemCommand::$variant(args) => args,)+
                }
            }
        }
    };
}

problems! {
    /// Solve Sudoku puzzles (4x4 to 25x25) by annealing.
    Sudoku(SudokuArgs),
    /// Anneal travelling-salesman tours (TSPLIB or random instances).
    Tsp(TspArgs),
    /// Pattern formation and denoising on binary images.
    Image(ImageArgs),
}
