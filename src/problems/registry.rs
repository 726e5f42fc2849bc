//! The one list of kiln's built-in problems. Each problem's flags implement [`BuiltIn`],
//! which carries everything the front ends ask of a problem (its checks, its headless
//! run, its live view and what a race pane of it runs, resolved), and
//! [`ProblemCommand`] is the list itself: adding a problem is its folder and one line in
//! `problems!` below.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use color_eyre::Result;

use super::image::ImageArgs;
use super::sudoku::SudokuArgs;
use super::tsp::TspArgs;
use crate::headless::report::Lines;
use crate::input::InputError;
use crate::problems::demos::Startup;
use crate::race::lineup::PaneMaker;
use crate::search::worker::Speed;
use kiln_tui::{BoardArea, Demo, Session};

/// Which of the flags every problem shares were given, of those the command line refuses
/// in some uses (a batch's in the live view, `--output` in a race).
pub struct Shared {
    /// `--jobs`.
    pub jobs: bool,
    /// `--shard`.
    pub shard: bool,
    /// `--seeds`.
    pub seeds: bool,
    /// `--output`.
    pub output: bool,
}

/// A built-in problem, as the command line, headless runs, the live view, races and the
/// server see it.
pub trait BuiltIn {
    /// What clap cannot check: flags that apply only with a value of another flag, and
    /// flags whose values contradict each other.
    fn check(&self) -> Result<(), InputError>;
    /// The flags every problem has, as given or not.
    fn shared(&self) -> Shared;
    /// The `--trace` file, to name it by a race pane.
    fn trace_mut(&mut self) -> &mut Option<PathBuf>;
    /// Flags of this problem that only a headless run takes, beyond a batch's, and why.
    fn headless_only(&self) -> Option<(Vec<(&'static str, bool)>, &'static str)> {
        None
    }
    /// Runs without a terminal: one JSON object per line on `out`, a summary on `log`.
    fn headless(&self, out: &mut Lines, log: &mut dyn Write) -> Result<()>;
    /// The live view of `kiln PROBLEM ...`, its input read and checked before the screen
    /// changes.
    fn live(&self) -> Result<Startup>;
    /// What a race pane of it runs, its flags resolved once: what the pane would refuse
    /// once started is refused here, before any pane starts.
    fn racer(&self) -> Result<Box<dyn PaneMaker>>;
}

/// A problem's headless run of one spec.
type Headless<S> = fn(&S, &mut Lines, &mut dyn Write) -> Result<()>;

/// The race pane of a problem whose live view is a tab of its runs: `tab` makes the tab
/// of the one run `spec` (the pane is its first run), `headless` is the problem's headless
/// run, and a race of it starts at `pace` steps a second, the tab's own.
pub(crate) fn tab_pane<S, D>(
    spec: S,
    tab: fn(S) -> Result<D>,
    headless: Headless<S>,
    pace: u64,
) -> Box<dyn PaneMaker>
where
    S: Clone + Send + Sync + 'static,
    D: Demo + 'static,
{
    Box::new(TabPane {
        spec,
        tab,
        headless,
        pace,
    })
}

/// What [`tab_pane`] makes.
struct TabPane<S, D> {
    spec: S,
    tab: fn(S) -> Result<D>,
    headless: Headless<S>,
    pace: u64,
}

impl<S: Clone + Send + Sync, D: Demo> PaneMaker for TabPane<S, D> {
    fn headless(&self, out: &mut Lines, log: &mut dyn Write) -> Result<()> {
        (self.headless)(&self.spec, out, log)
    }

    fn pane(&self, speed: Speed, area: BoardArea) -> Result<Box<dyn Session>> {
        (self.tab)(self.spec.clone())?.start(0, speed, area)
    }

    fn race_pace(&self) -> Speed {
        Speed::Limited(self.pace)
    }
}

/// `words` as the user would type them after `kiln PROBLEM`, read by the problem's parser
/// `A` into its spec with `spec`: how built-in runs are written, in the user's own terms.
/// Words the problem refuses are the caller's mistake, and panic.
pub(crate) fn spec_of<A: Args, S>(words: &[&str], spec: fn(&A) -> Result<S, InputError>) -> S {
    spec(&crate::flags::parse(words)).unwrap_or_else(|e| panic!("{words:?}: {e}"))
}

/// `BuiltIn::shared` and `BuiltIn::trace_mut` for flags with the shared `batch`, `output`
/// and `anneal` fields.
macro_rules! shared_flags {
    () => {
        fn shared(&self) -> $crate::problems::Shared {
            $crate::problems::Shared {
                jobs: self.batch.jobs.is_some(),
                shard: self.batch.shard.is_some(),
                seeds: self.batch.seeds.is_some(),
                output: self.output.output.is_some(),
            }
        }

        fn trace_mut(&mut self) -> &mut Option<std::path::PathBuf> {
            &mut self.anneal.trace
        }
    };
}
pub(crate) use shared_flags;

/// The problem's own arguments, as `kiln PROBLEM` takes them; a flag given A,B,.. races
/// its values (2 to 4 panes in all).
#[derive(Args, Debug, Clone)]
pub struct Words {
    /// The problem's flags and input; a flag given A,B,.. races its values.
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "ARGS"
    )]
    pub words: Vec<String>,
}

/// Declares the problem subcommands (`kiln PROBLEM`, `kiln race PROBLEM`) and their one
/// dispatch.
macro_rules! problems {
    ($($(#[$doc:meta])* $variant:ident($name:literal, $args:ty, race: $race:literal),)+) => {
        /// `kiln PROBLEM ...`: the built-in problems, each a subcommand.
        #[derive(Subcommand, Debug, Clone)]
        pub enum ProblemCommand {
            $($(#[$doc])* #[command(name = $name)] $variant($args),)+
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

        /// `kiln race PROBLEM ARGS...`: the problem whose flags are raced.
        #[derive(Subcommand, Debug, Clone)]
        pub enum RaceProblem {
            $(
                #[doc = concat!("Race any flag of `kiln ", $name, "`.")]
                #[command(
                    name = $name,
                    disable_help_flag = true,
                    about = concat!("Race any flag of `kiln ", $name, "`: `", $race, "`")
                )]
                $variant(Words),
            )+
        }

        impl RaceProblem {
            /// The problem's command name and its arguments.
            pub fn words(&self) -> (&'static str, &[String]) {
                match self {
                    $(RaceProblem::$variant(w) => ($name, &w.words),)+
                }
            }
        }
    };
}

problems! {
    /// Solve Sudoku puzzles (4x4 to 25x25) by annealing.
    Sudoku("sudoku", SudokuArgs, race: "kiln race sudoku FILE --index 1 --preset kiln,ga"),
    /// Anneal travelling-salesman tours (TSPLIB or random instances).
    Tsp("tsp", TspArgs, race: "kiln race tsp --moves swap,two-opt"),
    /// Pattern formation and denoising on binary images.
    Image("image", ImageArgs, race: "kiln race image --kernel n8,8-16"),
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::super::{image, sudoku, tsp};
    use crate::headless::output::{Format, Formats};

    fn format(formats: &Formats, path: &str) -> Result<Format, String> {
        formats
            .format_of(Path::new(path))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn extensions_choose_the_format_in_any_case() {
        assert_eq!(format(&tsp::FORMATS, "t.tour"), Ok(Format::Tour));
        assert_eq!(format(&tsp::FORMATS, "t.PNG"), Ok(Format::Png));
        assert_eq!(format(&tsp::FORMATS, "dir.x/t.Svg"), Ok(Format::Svg));
        assert_eq!(format(&image::FORMATS, "i.pbm"), Ok(Format::Pbm));
        assert_eq!(format(&image::FORMATS, "i.png"), Ok(Format::Png));
        assert_eq!(format(&sudoku::FORMATS, "s.txt"), Ok(Format::Txt));
        assert_eq!(format(&sudoku::FORMATS, "s.svg"), Ok(Format::Svg));
    }

    #[test]
    fn no_extension_keeps_the_text_format() {
        assert_eq!(format(&tsp::FORMATS, "best"), Ok(Format::Tour));
        assert_eq!(format(&image::FORMATS, "/dev/stdout"), Ok(Format::Pbm));
        assert_eq!(format(&sudoku::FORMATS, "solutions"), Ok(Format::Txt));
    }

    #[test]
    fn other_extensions_are_refused_with_the_choices() {
        assert_eq!(
            format(&tsp::FORMATS, "t.jpg"),
            Err("--output: cannot write .jpg for tsp (use .tour, .png or .svg)".into())
        );
        assert_eq!(
            format(&image::FORMATS, "i.svg"),
            Err("--output: cannot write .svg for image (use .pbm or .png)".into())
        );
        assert_eq!(
            format(&sudoku::FORMATS, "s.tour"),
            Err("--output: cannot write .tour for sudoku (use .txt, .png or .svg)".into())
        );
    }
}
