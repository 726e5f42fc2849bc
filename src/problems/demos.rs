//! Which demos (tabs) the TUI opens with, and the race screen of a race resolved at the
//! command line.

use color_eyre::Result;
use ratatui::layout::Rect;

use crate::problems::image::ImageSpec;
use crate::problems::image::board::ImageDemo;
use crate::problems::sudoku::board::{DEFAULT_PACE, SudokuDemo};
use crate::problems::sudoku::{self, SudokuSpec};
use crate::problems::tsp::TspSpec;
use crate::problems::tsp::board::TspDemo;
use crate::race::lineup::{Entrant, Lineup};
use crate::race::screen::{Race, Racer, board_area};
use crate::search::worker::Speed;
use kiln_tui::TraceSlot;
use kiln_tui::{Demo, Options, Theme};

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
        pace: Speed::Limited(DEFAULT_PACE),
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
/// then random cities in islands, in a uniform square and in a Gaussian cloud. The show
/// anneals alone (`--no-polish`, named on screen): the local search would end berlin52
/// within a second of its start, before anyone sees a tour untangle.
fn tsp_presets() -> Vec<TspSpec> {
    presets(
        &[
            "--no-polish",
            "--random 300 --layout clustered --no-polish",
            "--random 500 --layout uniform --no-polish",
            "--random 1000 --layout normal --no-polish",
        ],
        TspSpec::from_flags,
    )
}

/// What the TUI opens with: its tabs, the tab shown first and the puzzle it starts on.
pub struct Startup {
    /// The tabs.
    pub demos: Vec<Box<dyn Demo>>,
    /// The tab shown first.
    pub tab: usize,
    /// The puzzle (or run) it starts on.
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
    let area = board_area(
        screen,
        entrants.len(),
        crate::problems::image::board::MIN_SIZE,
    );
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

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use kiln_tui::keys::{Action, keys_for};
    use kiln_tui::{App, BoardArea, RunState, Session, Theme, Tui};
    use ratatui::layout::Rect;

    use super::*;
    use crate::problems::sudoku::board::SudokuDemo;
    use crate::problems::sudoku::{self, SudokuSpec};
    use crate::problems::tsp::TspSpec;
    use crate::search::worker::Speed;

    const BUDGET: u64 = 1_000_000;

    fn screen(app: &App, width: u16, height: u16) -> Vec<String> {
        kiln_tui::drawn(app, width, height)
    }

    /// Whether `text` stands whole on a row of `rows`, inside a popup's border: a border
    /// before it, then nothing but spaces up to the border after it.
    fn boxed(rows: &[String], text: &str) -> bool {
        rows.iter().any(|row| {
            row.split_once(&format!("│{text}"))
                .is_some_and(|(_, rest)| rest.trim_start_matches(' ').starts_with('│'))
        })
    }

    /// The lines the help must show whole on `app`'s current tab: every key, the board's
    /// own, and a line for each thing in the stats panel.
    fn help_lines(app: &App) -> Vec<String> {
        let keys = keys_for(app.view())
            .map(|k| (k.key.to_string(), k.what))
            .chain(
                app.session()
                    .board_keys()
                    .iter()
                    .map(|k| (k.key.to_string(), k.what)),
            )
            .map(|(key, what)| format!(" {key:<7}{what}"));
        let panel = kiln_tui::help::panel_terms(app.session().energy_means())
            .map(|(term, what)| format!(" {term:<12}{what}"));
        keys.chain(panel).collect()
    }

    #[test]
    fn the_help_shows_the_keys_and_the_panel_whole_at_80x24_and_on_two_pages_at_60x20() {
        let start = bare();
        let screen80 = Rect::new(0, 0, 80, 24);
        let mut app = App::new(
            start.demos,
            start.tab,
            start.index,
            None,
            Theme::colour(false),
            screen80,
            false,
        )
        .unwrap();
        // Every tab: TSP's two keys of its own make the tallest help.
        for tab in ["Sudoku", "TSP", "Image"] {
            assert!(screen(&app, 80, 24)[0].contains(&format!("[{tab}]")));
            let lines = help_lines(&app);
            assert!(lines.iter().any(|l| l.contains("Progress")), "{lines:?}");
            // 80x24: one page holds it all.
            app.resize(screen80);
            app.on_action(Action::Help);
            let page = screen(&app, 80, 24);
            for line in &lines {
                assert!(
                    boxed(&page, line),
                    "{tab} 80x24 misses {line:?}:\n{}",
                    page.join("\n")
                );
            }
            assert!(page.join("\n").contains("any key closes this help"));
            app.on_action(Action::Help);
            assert!(!screen(&app, 80, 24).join("\n").contains("any key closes"));
            // 60x20: the keys, then `?` turns to the panel, then any key closes.
            app.resize(Rect::new(0, 0, 60, 20));
            app.on_action(Action::Help);
            let keys = screen(&app, 60, 20);
            assert!(
                keys.join("\n")
                    .contains("? the stats panel · any other key closes")
            );
            app.on_action(Action::Help);
            let panel = screen(&app, 60, 20);
            for line in &lines {
                assert!(
                    boxed(&keys, line) || boxed(&panel, line),
                    "{tab} 60x20 misses {line:?}:\n{}\n{}",
                    keys.join("\n"),
                    panel.join("\n")
                );
            }
            app.on_action(Action::Help);
            assert!(!screen(&app, 60, 20).join("\n").contains("any key closes"));
            app.on_action(Action::NextDemo);
        }
    }

    #[test]
    fn a_resized_image_is_drawn_one_pixel_per_dot_again() {
        let demo = ImageDemo {
            runs: image_presets(),
            trace: TraceSlot::default(),
        };
        let mut app = App::new(
            vec![Box::new(demo)],
            0,
            0,
            None,
            Theme::colour(false),
            Rect::new(0, 0, 80, 24),
            false,
        )
        .unwrap();
        app.on_action(Action::Faster);
        let speed = app.speed();
        // 48x22 cells of 2x4 dots.
        assert!(screen(&app, 80, 24)[0].contains("random 96x88"));
        app.resize(Rect::new(0, 0, 120, 40));
        // As the terminal keeps its new size, the run starts again sized to it.
        std::thread::sleep(Duration::from_millis(400));
        app.poll();
        let title = &screen(&app, 120, 40)[0];
        assert!(title.contains("random 156x152"), "{title}");
        assert!(title.contains(" 1/5 "), "{title}");
        assert_eq!(app.speed(), speed);
    }

    /// Runs `session` until it has taken some steps, then pauses it: its progress and the
    /// steps of the sample it was read from.
    fn progress_after_some_steps(mut session: Box<dyn Session>) -> (f64, u64) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while session
            .history()
            .latest()
            .is_none_or(|s| s.iteration < 5_000)
        {
            assert!(Instant::now() < deadline, "no steps in 10 s");
            std::thread::sleep(Duration::from_millis(10));
            session.poll();
        }
        assert_eq!(*session.state(), RunState::Running);
        let steps = session.history().latest().map(|s| s.iteration).unwrap();
        (session.progress(), steps)
    }

    #[test]
    fn progress_is_the_step_budget_used_on_a_sudoku_as_on_a_tour() {
        let area = BoardArea {
            width: 48,
            height: 22,
        };
        let budget = BUDGET.to_string();
        let sudoku = SudokuDemo {
            puzzles: vec![sudoku::default_puzzle()],
            spec: SudokuSpec::from_flags(&["--no-propagate", "--max-steps", &budget]),
            seeds: Vec::new(),
            trace: TraceSlot::default(),
            pace: Speed::Limited(200_000),
        };
        let tsp = TspDemo {
            runs: vec![TspSpec::from_flags(&["--max-steps", &budget])],
            trace: TraceSlot::default(),
        };
        let speed = Speed::Limited(200_000);
        for (name, session) in [
            ("sudoku", sudoku.start(0, speed, area).unwrap()),
            ("tsp", tsp.start(0, speed, area).unwrap()),
        ] {
            let (progress, steps) = progress_after_some_steps(session);
            // Steps of the budget, not how far the energy has fallen.
            assert_eq!(progress, steps as f64 / BUDGET as f64, "{name}");
            assert!(progress > 0.0 && progress < 1.0, "{name}: {progress}");
        }
    }
}
