use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Parser;

use kiln::cli::{Cli, Command};
use kiln::input::InputError;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if let Some(input) = e.downcast_ref::<InputError>() {
                eprintln!("kiln: {input}");
                ExitCode::from(2)
            } else {
                eprintln!("kiln: {e:#}");
                ExitCode::FAILURE
            }
        }
    }
}

fn run(cli: Cli) -> color_eyre::Result<()> {
    let headless = cli.headless || !std::io::stdout().is_terminal();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut log = std::io::stderr();
    let _ = headless;
    match &cli.command {
        Some(Command::Sudoku(args)) => kiln::problems::sudoku::headless(args, &mut out, &mut log),
        Some(Command::Tsp(args)) => kiln::problems::tsp::headless(args, &mut out, &mut log),
        Some(Command::Image(args)) => kiln::problems::image::headless(args, &mut out, &mut log),
        None => color_eyre::eyre::bail!("the TUI is not built yet"),
    }
}
