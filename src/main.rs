use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Parser;

use kiln::cli::{Cli, Command};
use kiln::input::InputError;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let _ = color_eyre::install();
    let result = run(cli);
    // A run cut short by a signal has printed what it had; the exit code says why it ended.
    if let Some(signal) = kiln::anneal::interrupt::requested() {
        return ExitCode::from(kiln::anneal::interrupt::exit_code(signal));
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`kiln ... | head`): stop quietly, as command-line tools do.
        Err(e) if reader_gone(&e) => ExitCode::SUCCESS,
        Err(e) => {
            if let Some(input) = e.downcast_ref::<InputError>() {
                eprintln!("kiln: {input}");
                ExitCode::from(2)
            } else if let Some(failed) = e.downcast_ref::<kiln::output::OutputFailed>() {
                eprintln!("kiln: {failed}");
                ExitCode::from(3)
            } else {
                eprintln!("kiln: {e:#}");
                ExitCode::FAILURE
            }
        }
    }
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

fn run(cli: Cli) -> color_eyre::Result<()> {
    if let Some(Command::Presets) = &cli.command {
        return Ok(kiln::race::list_presets(&mut std::io::stdout())?);
    }
    if let Some(Command::Plot(args)) = &cli.command {
        return kiln::plot::run(args);
    }
    let headless = cli.headless || !std::io::stdout().is_terminal();
    let traced = cli
        .command
        .as_ref()
        .and_then(Command::anneal_args)
        .is_some_and(|a| a.trace.is_some());
    if !headless && traced {
        return Err(InputError::new(
            "--trace",
            "only headless runs write a trace: add --headless",
        )
        .into());
    }
    if !headless {
        let options = kiln::ui::Options {
            fps: cli.fps,
            glyphs: cli.glyphs(),
            // The bare demos loop for ever; a run of the user's own stays when it ends.
            attract: cli.command.is_none() && !cli.once,
            speed: cli.speed,
        };
        if let Some(Command::Race(args)) = &cli.command {
            let mut race = kiln::demos::race(args, &options)?;
            return kiln::ui::drive(&mut race, options.fps);
        }
        let start = kiln::demos::for_command(cli.command.as_ref())?;
        return kiln::ui::run(start.demos, start.tab, start.index, options);
    }
    kiln::anneal::interrupt::install()?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut log = std::io::stderr();
    let default_sudoku;
    let command = match &cli.command {
        Some(command) => command,
        None => {
            default_sudoku = Command::Sudoku(kiln::cli::default_sudoku());
            &default_sudoku
        }
    };
    match command {
        Command::Sudoku(args) => kiln::problems::sudoku::headless(args, &mut out, &mut log),
        Command::Tsp(args) => kiln::problems::tsp::headless(args, &mut out, &mut log),
        Command::Image(args) => kiln::problems::image::headless(args, &mut out, &mut log),
        Command::Race(args) => kiln::race::headless_race(args, &mut out, &mut log),
        Command::Presets | Command::Plot(_) => unreachable!("done before anything else"),
    }
}
