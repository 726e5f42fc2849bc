//! Which demos (tabs) the TUI opens with, from the command line.

use color_eyre::Result;

use crate::anneal::worker::Speed;
use crate::cli::{self, Command};
use crate::problems::image::ImageArgs;
use crate::problems::sudoku::{self, Puzzle};
use crate::problems::tsp::TspArgs;
use crate::race::RaceArgs;
use crate::ui::boards::image::ImageDemo;
use crate::ui::boards::sudoku::SudokuDemo;
use crate::ui::boards::sudoku::SudokuThumbnail;
use crate::ui::boards::tsp::TspDemo;
use crate::ui::race::{Race, Racer};
use crate::ui::{Demo, History, Live, Options, Theme};

/// The puzzles `n`/`p` walk through when kiln starts with no file: the embedded default,
/// then the 11 "hardest" and a 16x16.
fn embedded_sudokus() -> Vec<Puzzle> {
    let mut puzzles = vec![sudoku::default_puzzle()];
    for (text, source) in [
        (
            include_str!("../puzzles/sudoku/hardest11.txt"),
            "puzzles/sudoku/hardest11.txt",
        ),
        (
            include_str!("../puzzles/sudoku/generated16.txt"),
            "puzzles/sudoku/generated16.txt",
        ),
    ] {
        puzzles.extend(sudoku::parse_puzzles(text, source).expect("embedded puzzles parse"));
    }
    puzzles
}

/// Parses built-in demo runs, each written as the user would type it.
fn presets<T>(runs: &[&[&str]], pick: impl Fn(Command) -> Option<T>) -> Vec<T> {
    runs.iter()
        .map(|words| pick(cli::command(words)).expect("a preset parses as its own subcommand"))
        .collect()
}

/// The image runs `n`/`p` walk through with no arguments: stripes, clusters, a maze and
/// dots forming from random noise, then a noisy picture cleaned up. Each fills the board
/// one pixel per braille dot and cools from where its pattern forms (or, denoising, where
/// the noise still shows) to where the picture stops flickering.
pub(crate) fn image_presets() -> Vec<ImageArgs> {
    let runs = [
        "image --kernel stripes --density 0.5 --t0 3.5 --t-min 0.3",
        "image --kernel n8 --density 0.12 --t0 0.6 --t-min 0.3",
        "image --kernel maze --density 0.5 --t0 1.5 --t-min 0.15",
        "image --kernel dots --density 0.2 --t0 2 --t-min 0.2",
        "image --denoise --no-icm --rounds 1 --schedule linear --t0 1.2 --t-min 0.2",
    ];
    let words: Vec<Vec<&str>> = runs
        .iter()
        .map(|r| r.split_whitespace().collect())
        .collect();
    let runs: Vec<&[&str]> = words.iter().map(Vec::as_slice).collect();
    presets(&runs, |c| match c {
        Command::Image(args) => Some(args),
        _ => None,
    })
}

/// The tours `n`/`p` walk through with no arguments: berlin52 beside its optimal tour,
/// then random cities in islands, in a uniform square and in a Gaussian cloud.
fn tsp_presets() -> Vec<TspArgs> {
    let runs: &[&[&str]] = &[
        &["tsp"],
        &["tsp", "--random", "300", "--layout", "clustered"],
        &["tsp", "--random", "500", "--layout", "uniform"],
        &["tsp", "--random", "1000", "--layout", "normal"],
    ];
    presets(runs, |c| match c {
        Command::Tsp(args) => Some(args),
        _ => None,
    })
}

/// What the TUI opens with: its tabs, the tab shown first and the puzzle it starts on.
pub struct Startup {
    pub demos: Vec<Box<dyn Demo>>,
    pub tab: usize,
    pub index: usize,
}

impl Startup {
    /// A single demo, opened at puzzle `index`.
    fn one(demo: impl Demo + 'static, index: usize) -> Self {
        Startup {
            demos: vec![Box::new(demo)],
            tab: 0,
            index,
        }
    }
}

pub fn for_command(command: Option<&Command>) -> Result<Startup> {
    match command {
        None => {
            let args = cli::default_sudoku();
            let demos: Vec<Box<dyn Demo>> = vec![
                Box::new(SudokuDemo {
                    puzzles: embedded_sudokus(),
                    args,
                }),
                Box::new(TspDemo {
                    runs: tsp_presets(),
                }),
                Box::new(ImageDemo {
                    runs: image_presets(),
                }),
            ];
            Ok(Startup {
                demos,
                tab: 0,
                index: 0,
            })
        }
        Some(Command::Sudoku(args)) => {
            // Checks --index against the file with the headless run's own message.
            sudoku::selected_puzzles(args)?;
            let all = sudoku::SudokuArgs {
                index: None,
                ..args.clone()
            };
            let puzzles = sudoku::selected_puzzles(&all)?;
            let index = args.index.map_or(0, |i| i - 1);
            let demo = SudokuDemo {
                puzzles,
                args: args.clone(),
            };
            Ok(Startup::one(demo, index))
        }
        // The arguments are checked (and files read) before the screen changes.
        Some(Command::Image(args)) => {
            crate::problems::image::build(args)?;
            Ok(Startup::one(
                ImageDemo {
                    runs: vec![args.clone()],
                },
                0,
            ))
        }
        Some(Command::Presets | Command::Race(_)) => {
            unreachable!("presets print and races have their own screen")
        }
        Some(Command::Tsp(args)) => {
            crate::problems::tsp::load(args)?;
            Ok(Startup::one(
                TspDemo {
                    runs: vec![args.clone()],
                },
                0,
            ))
        }
    }
}

/// The race screen for `kiln race`: one pane per preset on the first selected puzzle, all
/// at full speed unless `--speed` says otherwise.
pub fn race(args: &RaceArgs, options: &Options) -> Result<Race> {
    let puzzles = args.puzzles()?;
    let puzzle = puzzles
        .first()
        .ok_or_else(|| color_eyre::eyre::eyre!("no puzzle to race"))?;
    let speed = options.speed.unwrap_or(Speed::Full);
    let racers = args
        .solvers(puzzle)?
        .into_iter()
        .map(|solver| {
            let (high, low) = solver.temperature_span();
            let budget = solver.budget();
            let session = Live::with_search(
                solver.label.clone(),
                solver.search,
                SudokuThumbnail::new(puzzle.n),
                speed,
                solver.reheat_to,
                History::new(high, low),
                budget,
            );
            Racer {
                name: solver.preset.name().to_string(),
                session: Box::new(session),
            }
        })
        .collect();
    let source = puzzle.source.rsplit('/').next().unwrap_or(&puzzle.source);
    Ok(Race::new(
        source.to_string(),
        racers,
        speed,
        Theme::from_env(options.ascii),
    ))
}
