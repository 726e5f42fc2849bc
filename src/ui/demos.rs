//! Which demos (tabs) the TUI opens with, from the command line.

use color_eyre::Result;
use ratatui::layout::Rect;

use crate::anneal::worker::Speed;
use crate::cli::{self, Command};
use crate::input::InputError;
use crate::problems::image::ImageArgs;
use crate::problems::sudoku;
use crate::problems::tsp::TspArgs;
use crate::race::{Plan, RaceArgs};
use crate::ui::boards::TraceSlot;
use crate::ui::boards::image::ImageDemo;
use crate::ui::boards::sudoku::SudokuDemo;
use crate::ui::boards::sudoku::SudokuThumbnail;
use crate::ui::boards::tsp::TspDemo;
use crate::ui::race::{Race, Racer, Standings, board_area};
use crate::ui::{BoardArea, Demo, Live, Options, Session, Theme};

/// The Sudoku show of a bare `kiln`: the embedded default (AI Escargot), then the
/// "hardest" puzzles, each with the seed it is shown with.
///
/// The show anneals without propagation, cooling from T = 2 to about 0.25 over 600k steps
/// (20 s at the demo's 30k steps/s) and reheating to 1 when 60k steps bring nothing new,
/// within 1.8M steps (a minute). A seed decides how long a puzzle takes; each one here
/// solves in 10-60 s at that pace (`tests/live_demos.rs` holds them to it).
const SUDOKU_SHOW: &[(usize, u64)] = &[
    (0, 3),
    (1, 3),
    (2, 2),
    (3, 1),
    (4, 1),
    (5, 4),
    (6, 3),
    (7, 8),
    (8, 1),
    (9, 4),
    (10, 2),
    (11, 1),
];

/// The flags of the Sudoku show (see `SUDOKU_SHOW`).
const SUDOKU_SHOW_FLAGS: &[&str] = &[
    "sudoku",
    "--no-propagate",
    "--schedule",
    "geometric",
    "--t0",
    "2",
    "--alpha",
    "0.999996534",
    "--stall",
    "60000",
    "--on-stall",
    "reheat",
    "--reheat-t",
    "1",
    "--max-steps",
    "1800000",
];

/// The Sudoku tab of a bare `kiln`.
pub fn sudoku_show() -> SudokuDemo {
    let mut all = vec![sudoku::default_puzzle()];
    all.extend(
        sudoku::parse_puzzles(
            include_str!("../../puzzles/sudoku/hardest11.txt"),
            "puzzles/sudoku/hardest11.txt",
        )
        .expect("embedded puzzles parse"),
    );
    let Command::Sudoku(args) = cli::command(SUDOKU_SHOW_FLAGS) else {
        unreachable!("the show's flags parse as the sudoku command")
    };
    SudokuDemo {
        puzzles: SUDOKU_SHOW.iter().map(|&(i, _)| all[i].clone()).collect(),
        seeds: SUDOKU_SHOW.iter().map(|&(_, seed)| seed).collect(),
        args,
        trace: TraceSlot::default(),
    }
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

/// The demos of a bare `kiln`: the Sudoku show, tours and images.
pub fn bare() -> Startup {
    let demos: Vec<Box<dyn Demo>> = vec![
        Box::new(sudoku_show()),
        Box::new(TspDemo {
            runs: tsp_presets(),
            trace: TraceSlot::default(),
        }),
        Box::new(ImageDemo {
            runs: image_presets(),
            trace: TraceSlot::default(),
        }),
    ];
    Startup {
        demos,
        tab: 0,
        index: 0,
    }
}

pub fn for_command(command: Option<&Command>) -> Result<Startup> {
    match command {
        None => Ok(bare()),
        Some(Command::Sudoku(args)) => {
            // Checks --index against the file with the headless run's own message.
            let selected = sudoku::selected_puzzles(args)?;
            // A live run writes --output at its end, of the one puzzle it shows.
            if args.output.output.is_some() && selected.len() != 1 {
                return Err(InputError::new(
                    "--output",
                    "the live view writes the puzzle it shows: choose one with --index (or add --headless)",
                )
                .into());
            }
            sudoku::output_file(args, selected.len())?;
            let all = sudoku::SudokuArgs {
                index: None,
                ..args.clone()
            };
            let puzzles = sudoku::selected_puzzles(&all)?;
            let index = args.index.map_or(0, |i| i - 1);
            let demo = SudokuDemo {
                puzzles,
                args: args.clone(),
                seeds: Vec::new(),
                trace: TraceSlot::open(&args.anneal)?,
            };
            Ok(Startup::one(demo, index))
        }
        // The arguments are checked (and files read) before the screen changes.
        Some(Command::Image(args)) => {
            crate::problems::image::build(args)?;
            // A live run writes --output only at its end: refuse a bad one before it starts.
            args.output_file()?;
            Ok(Startup::one(
                ImageDemo {
                    runs: vec![args.clone()],
                    trace: TraceSlot::open(&args.anneal)?,
                },
                0,
            ))
        }
        Some(
            Command::Presets
            | Command::Race(_)
            | Command::Plot(_)
            | Command::Serve(_)
            | Command::Completions { .. }
            | Command::Man,
        ) => {
            unreachable!(
                "presets, completions and man print, plots draw, races and the server have their own screens"
            )
        }
        Some(Command::Tsp(args)) => {
            crate::problems::tsp::load(args)?;
            // A live run writes --output only at its end: refuse a bad one before it starts.
            args.output_file()?;
            Ok(Startup::one(
                TspDemo {
                    runs: vec![args.clone()],
                    trace: TraceSlot::open(&args.anneal)?,
                },
                0,
            ))
        }
    }
}

/// The session of one race pane running `command` at `speed`, its board in `area`: the
/// problem's own board (a Sudoku's thumbnail, to fit four), traced if `--trace` says so.
fn pane_session(command: &Command, speed: Speed, area: BoardArea) -> Result<Box<dyn Session>> {
    match command {
        Command::Sudoku(args) => {
            let puzzle = first_puzzle(sudoku::selected_puzzles(args)?)?;
            let solver = sudoku::solver(&puzzle, args)?;
            let side = puzzle.side();
            let title = format!("{side}x{side} {}", file_name(&puzzle.source));
            let launch = solver.launch(title).traced(args.anneal.open_trace(None)?);
            let view = SudokuThumbnail::new(puzzle.n);
            Ok(Box::new(Live::start(launch, view, speed)))
        }
        Command::Tsp(args) => TspDemo {
            runs: vec![args.clone()],
            trace: TraceSlot::open(&args.anneal)?,
        }
        .start(0, speed, area),
        Command::Image(args) => ImageDemo {
            runs: vec![args.clone()],
            trace: TraceSlot::open(&args.anneal)?,
        }
        .start(0, speed, area),
        _ => unreachable!("a race is of a problem"),
    }
}

/// The puzzle a race runs: the first selected.
fn first_puzzle(puzzles: Vec<sudoku::Puzzle>) -> Result<sudoku::Puzzle> {
    puzzles
        .into_iter()
        .next()
        .ok_or_else(|| color_eyre::eyre::eyre!("no puzzle to race"))
}

/// A puzzle's source without its directories (`easy20.txt:1`), for a race's title.
fn file_name(source: &str) -> &str {
    source.rsplit('/').next().unwrap_or(source)
}

/// The pace a race of `command`'s problem starts at, unless `--speed` says: Sudoku at full
/// speed (a race to solve), the others at their single view's pace, so the boards can be
/// watched.
fn race_speed(command: &Command, options: &Options) -> Speed {
    let pace = match command {
        Command::Tsp(_) => Speed::Limited(crate::ui::boards::tsp::DEFAULT_PACE),
        Command::Image(_) => Speed::Limited(crate::ui::boards::image::DEFAULT_PACE),
        _ => Speed::Full,
    };
    options.speed.unwrap_or(pace)
}

/// The race screen of `panes` (name, command), titled by `title` from the first pane's
/// own title.
fn race_screen(
    title: impl FnOnce(&str) -> String,
    panes: &[(String, &Command)],
    options: &Options,
    screen: Rect,
) -> Result<Race> {
    let first = panes[0].1;
    let speed = race_speed(first, options);
    // Only an image is sized to its board (as large as it is at least).
    let area = board_area(screen, panes.len(), crate::ui::boards::image::MIN_SIZE);
    let racers = panes
        .iter()
        .map(|(name, command)| {
            Ok(Racer {
                name: name.clone(),
                session: pane_session(command, speed, area)?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let standings = match first {
        Command::Sudoku(_) => Standings::FirstSolved,
        _ => Standings::BestEnergy,
    };
    Ok(Race::new(
        title(racers[0].session.title()),
        racers,
        standings,
        speed,
        Theme::from_env(options.glyphs),
    ))
}

/// The race screen of `kiln race PROBLEM ARGS...` on `screen`: one pane per raced value,
/// titled by what the first pane runs and the raced flags.
pub fn race_plan(plan: &Plan, options: &Options, screen: Rect) -> Result<Race> {
    let panes: Vec<(String, &Command)> = plan
        .panes
        .iter()
        .map(|p| (p.name.clone(), p.command()))
        .collect();
    let flags = plan.flags_typed();
    race_screen(
        |first| format!("{first} · {flags}"),
        &panes,
        options,
        screen,
    )
}

/// The race screen of `kiln race FILE --presets a,b,..`: one pane per preset on the first
/// selected puzzle, each with its own trace (`t-kiln.csv`).
pub fn race(args: &RaceArgs, options: &Options) -> Result<Race> {
    let puzzle = first_puzzle(args.puzzles()?)?;
    let commands = args.racer_args()?;
    let panes: Vec<(String, &Command)> = commands
        .iter()
        .map(|(preset, command)| (preset.name().to_string(), command))
        .collect();
    let source = file_name(&puzzle.source);
    race_screen(
        |_| source.to_string(),
        &panes,
        options,
        crate::ui::terminal::local_area(),
    )
}
