//! The live view tells the truth: whenever a frame says SOLVED, the grid drawn in that same
//! frame is a valid, complete Sudoku. Run through the live view's own path (the demo starts
//! a worker thread, the app polls it and draws frames) on the 11 hardest puzzles from many
//! seeds, and through race panes.

use std::time::{Duration, Instant};

use ratatui::layout::Rect;

use kiln::cli::{self, Command};
use kiln::problems::sudoku::board::SudokuDemo;
use kiln::problems::sudoku::{self, Puzzle};
use kiln::search::worker::Speed;
use kiln_tui::{App, Glyphs, Options, Theme, Tui};

use kiln_tui::drawn;

const HARDEST: &str = include_str!("../../puzzles/sudoku/hardest11.txt");

fn hardest() -> Vec<Puzzle> {
    sudoku::parse_puzzles(HARDEST, "hardest11.txt").unwrap()
}

/// The 9x9 grids drawn on a screen, read back from the text: each grid row is a run of
/// nine digits (or blanks) on one line; a grid is nine such rows in a column band.
fn grids(lines: &[String]) -> Vec<Vec<u8>> {
    let mut found: Vec<Vec<u8>> = Vec::new();
    // Grids side by side (race panes) are told apart by the column their row starts in.
    let mut open: Vec<(usize, Vec<u8>)> = Vec::new();
    for line in lines {
        let chars: Vec<char> = line.chars().collect();
        let mut col = 0;
        while col < chars.len() {
            if let Some((digits, end)) = grid_row(&chars, col) {
                match open.iter_mut().find(|(c, _)| *c == col) {
                    Some((_, grid)) => grid.extend(digits),
                    None => open.push((col, digits)),
                }
                col = end;
            } else {
                col += 1;
            }
        }
        open.retain(|(_, grid)| {
            if grid.len() == 81 {
                found.push(grid.clone());
                false
            } else {
                true
            }
        });
    }
    found
}

/// Nine digits from `start`, each followed by one space or a box rule and space(s): the
/// shape of a grid row in the big board (`│ 1 2 3 │ ...`) and in a thumbnail (`1 2 3  ...`).
fn grid_row(chars: &[char], start: usize) -> Option<(Vec<u8>, usize)> {
    let mut digits = Vec::new();
    let mut i = start;
    while digits.len() < 9 {
        let c = *chars.get(i)?;
        let d = c.to_digit(10).filter(|d| *d > 0)?;
        digits.push(d as u8);
        i += 1;
        if digits.len() == 9 {
            break;
        }
        // Between digits: spaces and at most one rule.
        let gap_start = i;
        while i < chars.len() && (chars[i] == ' ' || chars[i] == '│' || chars[i] == '|') {
            i += 1;
        }
        if i - gap_start == 0 || i - gap_start > 3 {
            return None;
        }
    }
    (start == 0 || !chars[start - 1].is_ascii_digit()).then_some((digits, i))
}

fn valid(grid: &[u8]) -> bool {
    let units = (0..9).flat_map(|u| {
        [
            (0..9).map(|k| grid[u * 9 + k]).collect::<Vec<_>>(),
            (0..9).map(|k| grid[k * 9 + u]).collect(),
            (0..9)
                .map(|k| grid[(u / 3 * 3 + k / 3) * 9 + u % 3 * 3 + k % 3])
                .collect(),
        ]
    });
    units.into_iter().all(|mut unit| {
        unit.sort_unstable();
        unit == [1, 2, 3, 4, 5, 6, 7, 8, 9]
    })
}

/// Polls and draws `tui` like the event loop until `done` or 20 s; in every frame, at least
/// as many grids as `claims` counts SOLVED boards must be valid.
fn watch(
    tui: &mut impl Tui,
    what: &str,
    claims: impl Fn(&str) -> usize,
    mut done: impl FnMut(&[String]) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        tui.poll();
        let lines = drawn(tui, 80, 24);
        let text = lines.join("\n");
        let claims = claims(&text);
        if claims > 0 {
            let shown = grids(&lines);
            let good = shown.iter().filter(|g| valid(g)).count();
            assert!(
                good >= claims,
                "{what}: SOLVED {claims}x over {good} valid grids of {}:\n{text}",
                shown.len()
            );
        }
        if done(&lines) {
            return;
        }
        assert!(Instant::now() < deadline, "{what}: never finished:\n{text}");
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn the_grid_reader_reads_valid_and_invalid_grids() {
    let _cores = crate::common::busy();
    let solved =
        "123456789456789123789123456214365897365897214897214365531642978642978531978531642";
    let digits: Vec<u8> = solved.bytes().map(|b| b - b'0').collect();
    let mut lines = vec!["title".to_string()];
    for r in 0..9 {
        let row = &digits[r * 9..][..9];
        let cells: Vec<String> = row
            .chunks(3)
            .map(|c| format!("{} {} {}", c[0], c[1], c[2]))
            .collect();
        lines.push(format!(
            "   │ {} │ {} │ {} │   ",
            cells[0], cells[1], cells[2]
        ));
    }
    assert_eq!(grids(&lines), vec![digits.clone()]);
    assert!(valid(&digits));
    let mut swapped = digits;
    swapped.swap(0, 1);
    assert!(!valid(&swapped));
}

#[test]
fn solved_is_only_ever_shown_over_a_valid_board() {
    let _cores = crate::common::busy();
    let puzzles = hardest();
    for seed in 1..=6u64 {
        for index in 0..puzzles.len() {
            let mut spec = cli::default_sudoku().spec().unwrap();
            spec.run.seed = seed;
            let demo = SudokuDemo {
                puzzles: puzzles.clone(),
                spec,
                seeds: Vec::new(),
                trace: Default::default(),
                pace: Speed::Full,
            };
            let mut app = App::new(
                vec![Box::new(demo)],
                0,
                index,
                Some(Speed::Full),
                Theme::colour(false),
                Rect::new(0, 0, 80, 24),
                false,
            )
            .unwrap();
            let what = format!("puzzle {} seed {seed}", index + 1);
            let claims = |text: &str| usize::from(text.contains("SOLVED"));
            watch(&mut app, &what, claims, |lines| {
                lines[0].contains("SOLVED") || lines[0].contains("stopped")
            });
        }
    }
}

#[test]
fn race_panes_claim_solved_only_over_valid_boards() {
    let _cores = crate::common::busy();
    for (index, seed) in [(3, 1), (7, 2), (10, 3), (1, 4)] {
        let words = [
            "race",
            "puzzles/sudoku/hardest11.txt",
            "--index",
            &index.to_string(),
            "--seed",
            &seed.to_string(),
            "--presets",
            "kiln,geometric-restart",
        ];
        let Command::Race(args) = cli::command(&words) else {
            unreachable!()
        };
        // Flat out: what is drawn is checked, not the pace it is drawn at.
        let options = Options {
            fps: 20,
            glyphs: Glyphs::Unicode,
            attract: false,
            speed: Some(Speed::Full),
        };
        let (source, entrants) = args.entrants().unwrap();
        let screen = kiln_tui::terminal::local_area();
        let mut race =
            kiln::problems::demos::race(|_| source, &entrants, &options, screen).unwrap();
        let what = format!("race on puzzle {index} seed {seed}");
        // A pane's title reads "kiln #1 SOLVED ──".
        let claims = |text: &str| text.matches("SOLVED ─").count();
        // Until the top line names the winner (or a tie, or nobody).
        watch(&mut race, &what, claims, |lines| {
            [" wins", " tie at ", "nobody solved it"]
                .iter()
                .any(|verdict| lines[0].contains(verdict))
        });
    }
}
