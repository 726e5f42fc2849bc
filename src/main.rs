use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;

use kiln::cli::race_plan::{self as race, Plan, Refusal};
use kiln::cli::{Cli, Command};
use kiln::headless::report::Lines;
use kiln::input::InputError;
use kiln::messages::warn;
use kiln::problems::{BuiltIn, ProblemCommand};

/// Exit codes (docs/limits.md): 0 done or solved, 1 not solved (or failed after the input
/// was accepted), 2 bad input or flags.
const BAD_INPUT: u8 = 2;
/// The run was done and printed, but its --output file could not be written.
const OUTPUT_FAILED: u8 = 3;

fn main() -> ExitCode {
    let mut cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return command_line_error(&e),
    };
    install_hooks();
    if let Err(e) = cli.check() {
        warn(format_args!("{e}"));
        return ExitCode::from(BAD_INPUT);
    }
    let race = match cli
        .race_problem()
        .map(|(problem, words)| race::plan(problem, words))
    {
        None => None,
        Some(Ok(plan)) => Some(plan),
        Some(Err(Refusal::Parse(e))) => return command_line_error(&e),
        Some(Err(Refusal::Race(e))) => {
            warn(format_args!("{e}"));
            return ExitCode::from(BAD_INPUT);
        }
    };
    if let Some(plan) = &race {
        cli.absorb_globals(&plan.panes[0].cli);
    }
    let result = run(cli, race);
    // A run cut short by a signal has printed what it had; the exit code says why it ended.
    if let Some(signal) = kiln::search::interrupt::requested() {
        return ExitCode::from(kiln::search::interrupt::exit_code(signal));
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`kiln ... | head`): stop quietly, as command-line tools do.
        Err(e) if reader_gone(&e) => ExitCode::SUCCESS,
        Err(e) => {
            if let Some(input) = e.downcast_ref::<InputError>() {
                warn(format_args!("{input}"));
                ExitCode::from(BAD_INPUT)
            } else if let Some(failed) = e.downcast_ref::<kiln_core::files::OutputFailed>() {
                warn(format_args!("{failed}"));
                ExitCode::from(OUTPUT_FAILED)
            } else {
                warn(format_args!("{e:#}"));
                ExitCode::FAILURE
            }
        }
    }
}

/// `--help` and `--version` print as clap prints them; every other command-line error is
/// one line and exit code 2, like kiln's other errors.
fn command_line_error(e: &clap::Error) -> ExitCode {
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            ExitCode::from(BAD_INPUT)
        }
        _ => {
            warn(format_args!("{}", kiln::cli::errors::one_line(e)));
            ExitCode::from(BAD_INPUT)
        }
    }
}

/// color-eyre's panic hook, with a report that cannot itself panic: color-eyre's own
/// writes it with `eprintln!`, which aborts the process when stderr is closed or full.
fn install_hooks() {
    // Errors are printed as one line, never with their report: color-eyre's error hook would
    // only resolve a backtrace (0.3 s and 130 MB under RUST_BACKTRACE=1) for nothing.
    let (panic_hook, _) = color_eyre::config::HookBuilder::default().into_hooks();
    std::panic::set_hook(Box::new(move |info| {
        let _ = writeln!(std::io::stderr(), "{}", panic_hook.panic_report(info));
    }));
}

fn reader_gone(e: &color_eyre::Report) -> bool {
    e.chain().any(|cause| {
        let io = cause
            .downcast_ref::<std::io::Error>()
            .map(std::io::Error::kind);
        let json = cause
            .downcast_ref::<serde_json::Error>()
            .and_then(serde_json::Error::io_error_kind);
        io.or(json) == Some(std::io::ErrorKind::BrokenPipe)
    })
}

/// What a command line that anneals asks for, once the commands that only print, draw or
/// serve are done.
enum Anneal<'a> {
    /// A bare `kiln`: the demos live, the default Sudoku headless.
    Bare,
    Problem(&'a ProblemCommand),
    /// `kiln race FILE --presets ...` (a race of flags is the
    /// `Plan` beside it, resolved into a `Lineup` once the view is known).
    Race(&'a kiln::cli::race_args::RaceArgs),
}

fn run(cli: Cli, race: Option<Plan>) -> color_eyre::Result<()> {
    let anneal = match &cli.command {
        Some(Command::Presets) => {
            return Ok(kiln::problems::sudoku::list_presets(&mut std::io::stdout())?);
        }
        Some(Command::Plot(args)) => return kiln::plot::run(&args.spec()?),
        Some(Command::Completions { shell }) => {
            return Ok(kiln::cli::generate::completions(
                *shell,
                &mut std::io::stdout(),
            )?);
        }
        Some(Command::Man) => return Ok(kiln::cli::generate::man(&mut std::io::stdout())?),
        Some(Command::Serve(args)) => {
            let options = kiln_tui::Options {
                fps: cli.globals.fps,
                glyphs: cli.glyphs(),
                attract: !cli.globals.once,
                speed: cli.globals.speed,
            };
            return kiln::serve::run(&args.config(options)?);
        }
        Some(Command::Problem(problem)) => Anneal::Problem(problem),
        Some(Command::Race(args)) => Anneal::Race(args),
        None => Anneal::Bare,
    };
    let headless = cli.globals.headless || !std::io::stdout().is_terminal();
    cli.check_view(headless)?;
    let race = race.map(|plan| plan.resolve(headless)).transpose()?;
    if !headless {
        let options = kiln_tui::Options {
            fps: cli.globals.fps,
            glyphs: cli.glyphs(),
            // The bare demos loop for ever; a run of the user's own stays when it ends.
            attract: matches!(anneal, Anneal::Bare) && !cli.globals.once,
            speed: cli.globals.speed,
        };
        let record = cli.globals.record.as_deref();
        if let Some(lineup) = &race {
            let mut race = kiln::problems::demos::race_lineup(
                lineup,
                &options,
                kiln_tui::terminal::local_area(),
            )?;
            return kiln_tui::drive(&mut race, options.fps, record);
        }
        let start = match anneal {
            Anneal::Race(args) => {
                let (source, entrants) = args.entrants()?;
                let mut race = kiln::problems::demos::race(
                    |_| source,
                    &entrants,
                    &options,
                    kiln_tui::terminal::local_area(),
                )?;
                return kiln_tui::drive(&mut race, options.fps, record);
            }
            Anneal::Problem(problem) => problem.get().live()?,
            Anneal::Bare => kiln::problems::demos::bare(),
        };
        return kiln_tui::run(start.demos, start.tab, start.index, options, record);
    }
    kiln::headless::interrupt::install()?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    // Errors are not logged: they come back here and `main` prints them, quiet or not.
    let mut log: Box<dyn Write> = match cli.globals.quiet {
        true => Box::new(std::io::sink()),
        false => Box::new(std::io::stderr()),
    };
    if !cli.globals.quiet && std::io::stderr().is_terminal() {
        kiln::headless::progress::enable();
    }
    if let Some(lineup) = &race {
        return kiln::race::headless_lineup(lineup, &mut out, &mut log);
    }
    match anneal {
        Anneal::Problem(problem) => problem.get().headless(&mut Lines::to(&mut out), &mut log),
        Anneal::Race(args) => {
            kiln::problems::sudoku::race::headless_race(&args.spec()?, &mut out, &mut log)
        }
        Anneal::Bare => kiln::cli::default_sudoku().headless(&mut Lines::to(&mut out), &mut log),
    }
}
