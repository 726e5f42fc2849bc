//! Which demos (tabs) the TUI opens with, and the race screen of a race resolved at the
//! command line.

use color_eyre::Result;
use ratatui::layout::Rect;

use crate::problems::image::ImageSpec;
use crate::problems::sudoku::{self, SudokuSpec};
use crate::problems::tsp::TspSpec;
use crate::race::lineup::{Entrant, Lineup};
use crate::ui::boards::TraceSlot;
use crate::ui::boards::image::ImageDemo;
use crate::ui::boards::sudoku::SudokuDemo;
use crate::ui::boards::tsp::TspDemo;
use crate::ui::race::{Race, Racer, board_area};
use crate::ui::{Demo, Options, Theme};

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
    SudokuDemo {
        puzzles: SUDOKU_SHOW.iter().map(|&(i, _)| all[i].clone()).collect(),
        seeds: SUDOKU_SHOW.iter().map(|&(_, seed)| seed).collect(),
        spec: SudokuSpec::from_flags(SUDOKU_SHOW_FLAGS),
        trace: TraceSlot::default(),
    }
}

/// Reads built-in demo runs of one problem, each written as the user would type its
/// flags, into their specs.
fn presets<S>(runs: &[&str], spec: fn(&[&str]) -> S) -> Vec<S> {
    runs.iter()
        .map(|run| spec(&run.split_whitespace().collect::<Vec<_>>()))
        .collect()
}

/// The image runs `n`/`p` walk through with no arguments: stripes, clusters, a maze and
/// dots forming from random noise, then a noisy picture cleaned up. Each fills the board
/// one pixel per braille dot and cools from where its pattern forms (or, denoising, where
/// the noise still shows) to where the picture stops flickering.
pub(crate) fn image_presets() -> Vec<ImageSpec> {
    presets(
        &[
            "--kernel stripes --density 0.5 --t0 3.5 --t-min 0.3",
            "--kernel n8 --density 0.12 --t0 0.6 --t-min 0.3",
            "--kernel maze --density 0.5 --t0 1.5 --t-min 0.15",
            "--kernel dots --density 0.2 --t0 2 --t-min 0.2",
            "--denoise --no-icm --rounds 1 --schedule linear --t0 1.2 --t-min 0.2",
        ],
        ImageSpec::from_flags,
    )
}

/// The tours `n`/`p` walk through with no arguments: berlin52 beside its optimal tour,
/// then random cities in islands, in a uniform square and in a Gaussian cloud.
fn tsp_presets() -> Vec<TspSpec> {
    presets(
        &[
            "",
            "--random 300 --layout clustered",
            "--random 500 --layout uniform",
            "--random 1000 --layout normal",
        ],
        TspSpec::from_flags,
    )
}

/// What the TUI opens with: its tabs, the tab shown first and the puzzle it starts on.
pub struct Startup {
    pub demos: Vec<Box<dyn Demo>>,
    pub tab: usize,
    pub index: usize,
}

impl Startup {
    /// A single demo, opened at puzzle `index`.
    pub fn one(demo: impl Demo + 'static, index: usize) -> Self {
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

/// A puzzle's source without its directories (`easy20.txt:1`), for a race's title.
pub fn file_name(source: &str) -> &str {
    source.rsplit('/').next().unwrap_or(source)
}

/// The race screen of `entrants` on `screen`, titled by `title` from the first pane's own
/// title.
pub fn race(
    title: impl FnOnce(&str) -> String,
    entrants: &[Entrant],
    options: &Options,
    screen: Rect,
) -> Result<Race> {
    let first = &entrants[0].maker;
    // Unless --speed says, at the single view's pace: a race is there to be watched.
    let speed = options.speed.unwrap_or(first.race_pace());
    // Only an image is sized to its board (as large as it is at least).
    let area = board_area(screen, entrants.len(), crate::ui::boards::image::MIN_SIZE);
    let racers = entrants
        .iter()
        .map(|entrant| {
            Ok(Racer {
                name: entrant.name.clone(),
                session: entrant.maker.pane(speed, area)?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let standings = first.standings();
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
pub fn race_lineup(lineup: &Lineup, options: &Options, screen: Rect) -> Result<Race> {
    let flags = lineup.flags_typed();
    race(
        |first| format!("{first} · {flags}"),
        &lineup.entrants,
        options,
        screen,
    )
}
