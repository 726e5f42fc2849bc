//! The command line: `kiln [sudoku|tsp|image] ...`, headless or live.

/// clap's errors as kiln's one-line messages.
pub mod errors;
/// `kiln completions` and `kiln man`.
pub mod generate;
/// `kiln plot`'s flags.
pub mod plot_args;
/// `kiln race`'s flags.
pub mod race_args;
/// `kiln race PROBLEM ARGS...` into its panes.
pub mod race_plan;
/// `kiln serve`'s flags.
pub mod serve_args;

use std::path::PathBuf;

use clap::{Arg, Args, Parser, Subcommand};

use crate::cli::plot_args::PlotArgs;
use crate::cli::race_args::RaceArgs;
use crate::cli::serve_args::ServeArgs;
use crate::flags::{first_given, parse, ranges};
use crate::input::InputError;
use crate::problems::sudoku::SudokuArgs;
use crate::problems::{BuiltIn, ProblemCommand};
use crate::search::worker::Speed;
use kiln_tui::Glyphs;

fn parse_speed(s: &str) -> Result<Speed, String> {
    if s.eq_ignore_ascii_case("full") {
        return Ok(Speed::Full);
    }
    ranges::SPEED.parse(s).map(Speed::Limited)
}

const DEFAULT_FPS: u32 = 20;

/// kiln's command line.
#[derive(Parser, Debug)]
#[command(
    name = "kiln",
    version,
    about = "Simulated annealing, live in your terminal",
    long_about = "Simulated annealing, live in your terminal.\n\n\
        A bare `kiln` opens the demos: Sudoku, TSP and image tabs, one run after another. \
        Keys: space pause, s step, r reheat, + - speed, n p next/previous puzzle, \
        Tab next demo, e save, ? help, q quit.\n\n\
        `kiln COMMAND --headless` (or with stdout not a terminal) prints JSON lines instead."
)]
pub struct Cli {
    /// The command; none opens the demos.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The flags every command takes.
    #[command(flatten)]
    pub globals: Globals,
}

/// The flags of the live view and of JSON output, which every command takes (clap's
/// `global`: written before or after the command's name). `plot`, `presets` and `serve`
/// list those that do not apply to them only in hidden copies ([`hidden_globals`]).
#[derive(Args, Debug, Clone)]
pub struct Globals {
    /// Print JSON lines instead of opening the live view (implied when stdout is not a
    /// terminal).
    #[arg(long, global = true, help_heading = "Output")]
    pub headless: bool,
    /// Frames per second of the live view.
    #[arg(long, global = true, default_value_t = DEFAULT_FPS, value_parser = ranges::whole(ranges::FPS), help_heading = "Live view")]
    pub fps: u32,
    /// Steps per second the live view starts at (e.g. 1000), or `full` [default: the
    /// demo's pace].
    #[arg(long, global = true, value_name = "RATE|full", value_parser = parse_speed, help_heading = "Live view")]
    pub speed: Option<Speed>,
    /// Draw with plain ASCII (no braille, no box drawing). Chosen by itself for TERM=dumb,
    /// vt100 or linux and for a locale that is not UTF-8.
    #[arg(
        long,
        global = true,
        conflicts_with = "unicode",
        help_heading = "Live view"
    )]
    pub ascii: bool,
    /// Draw with braille and box drawing even where the terminal seems unable to.
    #[arg(long, global = true, help_heading = "Live view")]
    pub unicode: bool,
    /// Headless: print nothing on stderr but errors (no summary, no progress line).
    #[arg(long, global = true)]
    pub quiet: bool,
    /// Stay on the run when it ends (a bare `kiln` otherwise moves on to the next puzzle and
    /// demo by itself; `a` toggles this in the view).
    #[arg(long, global = true, help_heading = "Live view")]
    pub once: bool,
    /// Record the live view to FILE as an asciicast v2 file, which `asciinema play FILE`
    /// and the asciinema web player replay; never over an existing file.
    #[arg(
        long,
        global = true,
        value_name = "FILE.cast",
        help_heading = "Live view"
    )]
    pub record: Option<PathBuf>,
}

/// Hidden copies of the global flags `ids`, for a command they do not apply to: clap adds a
/// global flag to each command that has no flag of its name, so a hidden one keeps it out of
/// that command's --help. It still parses (its value reaches `Cli::globals` as the global
/// one's would), so that `Cli::check` can refuse it by name.
fn hidden_globals(ids: &[&str]) -> Vec<Arg> {
    let globals = Globals::augment_args(clap::Command::new("globals"));
    ids.iter()
        .map(|id| {
            let arg = globals.get_arguments().find(|arg| arg.get_id() == id);
            let arg = arg.unwrap_or_else(|| panic!("--{id} is not a global flag"));
            arg.clone().global(false).hide(true)
        })
        .collect()
}

/// The global flags of the live view and of JSON output.
const VIEW_AND_OUTPUT: [&str; 8] = [
    "headless", "fps", "speed", "ascii", "unicode", "quiet", "once", "record",
];

impl Cli {
    /// What clap cannot check: flags that apply only with a value of another flag, and
    /// flags whose values contradict each other.
    pub fn check(&self) -> Result<(), InputError> {
        match &self.command {
            Some(Command::Problem(problem)) => problem.get().check(),
            Some(Command::Race(args)) => args.check(),
            // Its own flags are checked as they are read (`ServeArgs::config`).
            Some(Command::Serve(_)) => match self.globals.record {
                Some(_) => Err(InputError::new(
                    "--record",
                    "`kiln serve` records each session with --record-dir DIR",
                )),
                None => Ok(()),
            },
            Some(Command::Presets) => self.refuse_view_flags("presets"),
            // Its own flags are checked as they are read (`PlotArgs::spec`).
            Some(Command::Plot(_)) => self.refuse_view_flags("plot"),
            Some(Command::Completions { .. }) => self.refuse_view_flags("completions"),
            Some(Command::Man) => self.refuse_view_flags("man"),
            None => Ok(()),
        }
    }

    /// Refuses the global flags of the live view and of JSON output (an `--fps` equal to
    /// the default goes unnoticed) for a command that has neither.
    fn refuse_view_flags(&self, command: &str) -> Result<(), InputError> {
        let g = &self.globals;
        let given = first_given(&[
            ("--headless", g.headless),
            ("--fps", g.fps != DEFAULT_FPS),
            ("--speed", g.speed.is_some()),
            ("--ascii", g.ascii),
            ("--unicode", g.unicode),
            ("--once", g.once),
            ("--record", g.record.is_some()),
        ]);
        match given {
            Some(flag) => Err(InputError::new(
                flag,
                format!("`kiln {command}` has no live view and prints no JSON lines"),
            )),
            None => Ok(()),
        }
    }

    /// Flags that only one of the two ways of running uses, refused in the other:
    /// `headless` (printing JSON) or the live view.
    pub fn check_view(&self, headless: bool) -> Result<(), InputError> {
        let refuse = |flag: &str, why: &str| Err(InputError::new(flag, why));
        if headless {
            if self.globals.speed.is_some() {
                return refuse(
                    "--speed",
                    "only the live view has a pace (a headless run goes at full speed)",
                );
            }
            if self.globals.once {
                return refuse("--once", "only the live view moves on when a run ends");
            }
            if self.globals.record.is_some() {
                return refuse(
                    "--record",
                    "only the live view is recorded, and this run is headless \
                     (--headless, or stdout is not a terminal)",
                );
            }
            return Ok(());
        }
        if let Some(path) = &self.globals.record {
            kiln_tui::record::check(path)?;
        }
        match &self.command {
            Some(Command::Problem(problem)) => check_live(problem.get()),
            _ => Ok(()),
        }
    }

    /// The problem and arguments of `kiln race PROBLEM ARGS...`.
    pub fn race_problem(&self) -> Option<(&'static str, &[String])> {
        match &self.command {
            Some(Command::Race(RaceArgs {
                problem: Some(problem),
                ..
            })) => Some(problem.words()),
            _ => None,
        }
    }

    /// Takes the global flags `pane` was given (a race's arguments are parsed as each
    /// pane's command line, so `kiln race tsp --moves a,b --headless` says it there).
    pub fn absorb_globals(&mut self, pane: &Cli) {
        let (mine, pane) = (&mut self.globals, &pane.globals);
        mine.headless |= pane.headless;
        mine.quiet |= pane.quiet;
        mine.once |= pane.once;
        mine.ascii |= pane.ascii;
        mine.unicode |= pane.unicode;
        mine.speed = mine.speed.or(pane.speed);
        mine.record = mine.record.take().or_else(|| pane.record.clone());
        if pane.fps != DEFAULT_FPS {
            mine.fps = pane.fps;
        }
    }

    /// The glyphs asked for, if any.
    pub fn glyphs(&self) -> Glyphs {
        match (self.globals.ascii, self.globals.unicode) {
            (true, _) => Glyphs::Ascii,
            (_, true) => Glyphs::Unicode,
            _ => Glyphs::Detect,
        }
    }
}

/// What `kiln` is asked to do.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// `kiln sudoku|tsp|image ...`: one of the built-in problems.
    #[command(flatten)]
    Problem(ProblemCommand),
    /// List the Sudoku presets (`kiln sudoku --preset NAME`) and their parameters.
    #[command(args = hidden_globals(&VIEW_AND_OUTPUT))]
    Presets,
    /// Race 2-4 values of any flag side by side: `kiln race tsp --moves swap,two-opt`
    /// (or Sudoku presets on a file: `kiln race FILE --presets a,b`).
    Race(RaceArgs),
    /// Draw traces (`--trace FILE`) as energy and temperature against steps or seconds.
    #[command(args = hidden_globals(&VIEW_AND_OUTPUT))]
    Plot(PlotArgs),
    /// Serve the live view over SSH: `ssh -p 2222 HOST` watches, with nothing to install.
    #[command(args = hidden_globals(&["headless", "quiet", "record"]))]
    Serve(ServeArgs),
    /// Print a completion script for bash, zsh or fish on stdout.
    ///
    /// Save it where your shell looks, e.g.
    /// `kiln completions bash > ~/.local/share/bash-completion/completions/kiln`,
    /// `kiln completions zsh > ~/.zfunc/_kiln` (with `fpath+=~/.zfunc` before `compinit`),
    /// `kiln completions fish > ~/.config/fish/completions/kiln.fish`.
    #[command(args = hidden_globals(&VIEW_AND_OUTPUT))]
    Completions {
        /// The shell that will read the script.
        #[arg(value_enum)]
        shell: generate::Shell,
    },
    /// Print the man page (roff) on stdout: every command on one page.
    ///
    /// The top page (the live view, the global options) comes first, then a section per
    /// command. Save it as kiln.1 where man looks, e.g.
    /// `kiln man > ~/.local/share/man/man1/kiln.1`, and read it with `man kiln`.
    #[command(args = hidden_globals(&VIEW_AND_OUTPUT))]
    Man,
}

/// Parses `kiln WORDS...`: how the built-in demos are described, in the user's own terms.
pub fn command(words: &[&str]) -> Command {
    Cli::parse_from(std::iter::once("kiln").chain(words.iter().copied()))
        .command
        .expect("a built-in demo names its subcommand")
}

/// Refuses the flags of `problem` that only a headless run takes (a batch's, its own
/// final local search), for a run in the live view.
pub fn check_live(problem: &dyn BuiltIn) -> Result<(), InputError> {
    let given = problem.shared();
    let (flags, why) = problem.headless_only().unwrap_or_else(|| {
        (
            vec![
                ("--jobs", given.jobs),
                ("--shard", given.shard),
                ("--seeds", given.seeds),
            ],
            "only headless runs make batches: add --headless",
        )
    });
    match first_given(&flags) {
        Some(flag) => Err(InputError::new(flag, why)),
        None => Ok(()),
    }
}

/// `kiln sudoku` with every flag at its default: what a bare `kiln` solves headless.
pub fn default_sudoku() -> SudokuArgs {
    parse(&[])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_global_flags_still_reach_the_globals() {
        for words in [
            &["plot", "t.csv", "--headless", "--fps", "5"][..],
            &["presets", "--headless", "--fps", "5"],
            &["serve", "--headless", "--fps", "5"],
            &["--headless", "--fps", "5", "serve"],
            &["completions", "bash", "--headless", "--fps", "5"],
            &["man", "--headless", "--fps", "5"],
        ] {
            let cli = Cli::try_parse_from(std::iter::once("kiln").chain(words.iter().copied()))
                .unwrap_or_else(|e| panic!("{words:?}: {e}"));
            assert!(cli.globals.headless && cli.globals.fps == 5, "{words:?}");
        }
    }
}
