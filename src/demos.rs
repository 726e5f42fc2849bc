//! Which demos (tabs) the TUI opens with, from the command line.

use color_eyre::Result;

use crate::cli::{self, Command};
use crate::problems::image::ImageArgs;
use crate::problems::sudoku::{self, Puzzle};
use crate::ui::Demo;
use crate::ui::boards::image::ImageDemo;
use crate::ui::boards::sudoku::SudokuDemo;

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

/// The image runs `n`/`p` walk through with no arguments: stripes, clusters, mazes.
fn image_presets() -> Vec<ImageArgs> {
    [
        &["image", "--kernel", "8-16", "--density", "0.3"][..],
        &["image", "--kernel", "n8", "--density", "0.1"],
        &["image", "--kernel", "8-16", "--density", "0.4"],
        &["image", "--kernel", "n8-repel", "--density", "0.3"],
    ]
    .iter()
    .map(|words| match cli::command(words) {
        Command::Image(args) => args,
        _ => unreachable!("an image preset parses as the image command"),
    })
    .collect()
}

/// What the TUI opens with: its tabs, the tab shown first and the puzzle it starts on.
pub struct Startup {
    pub demos: Vec<Box<dyn Demo>>,
    pub tab: usize,
    pub index: usize,
}

pub fn for_command(command: Option<&Command>) -> Result<Startup> {
    match command {
        None => {
            let args = cli::default_sudoku();
            let demos: Vec<Box<dyn Demo>> = vec![
                Box::new(SudokuDemo {
                    puzzles: embedded_sudokus(),
                    anneal: args.anneal,
                    propagate: true,
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
                anneal: args.anneal.clone(),
                propagate: !args.no_propagate,
            };
            Ok(Startup {
                demos: vec![Box::new(demo)],
                tab: 0,
                index,
            })
        }
        Some(Command::Image(args)) => {
            // Checks the arguments (and reads the file) before the screen changes.
            crate::problems::image::build(args)?;
            let demos: Vec<Box<dyn Demo>> = vec![Box::new(ImageDemo {
                runs: vec![args.clone()],
            })];
            Ok(Startup {
                demos,
                tab: 0,
                index: 0,
            })
        }
        Some(_) => color_eyre::eyre::bail!(
            "the live view of this problem is not built yet; use --headless"
        ),
    }
}
