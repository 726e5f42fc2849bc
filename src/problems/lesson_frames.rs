//! The lesson as a person sees it: each problem of the bare demo at 2 steps/s, paused,
//! stepped with `s`; every frame read back at 80x24 and 200x50 must show the move marked
//! on the board and a decision line whose numbers agree with the panel and with the rule
//! (a taken move's dE is the change of the energy shown; the decision is u < p).

use std::time::{Duration, Instant};

use ratatui::layout::Rect;

use super::demos;
use super::image::ImageArgs;
use super::registry::BuiltIn;
use super::sudoku::SudokuArgs;
use super::tsp::TspArgs;
use crate::search::worker::Speed;
use kiln_tui::keys::Action;
use kiln_tui::{App, Theme, Tui, drawn};

/// The decision line's numbers: dE, p, u (if drawn) and whether the move was taken.
#[derive(Debug)]
struct Told {
    delta: f64,
    p: f64,
    u: Option<f64>,
    accepted: bool,
}

/// The number after `label` in `text` ("Energy 39  best 39" -> 39).
fn number_after(text: &str, label: &str) -> Option<f64> {
    let rest = &text[text.find(label)? + label.len()..];
    let word = rest.split_whitespace().next()?;
    word.trim_start_matches('+').replace(',', "").parse().ok()
}

/// The decision line's numbers, in its full (`dE = +2`) or tight (`dE=+2`) form.
fn told(screen: &[String]) -> Option<Told> {
    let line = screen
        .iter()
        .find(|l| l.contains("dE = ") || l.contains("dE="))?;
    let line = line.replace(" = ", "=");
    let p = match line.find(")=") {
        Some(at) => number_after(&line, &line[at..at + 2])?,
        None => 1.0,
    };
    Some(Told {
        delta: number_after(&line, "dE=")?,
        p,
        u: number_after(&line, "u="),
        accepted: line.trim_end().ends_with("accepted"),
    })
}

fn energy(screen: &[String]) -> f64 {
    let line = screen
        .iter()
        .find(|l| l.contains("Energy "))
        .expect("the panel");
    number_after(line, "Energy ").expect("an energy")
}

fn iteration(screen: &[String]) -> u64 {
    let line = screen
        .iter()
        .find(|l| l.contains("iteration"))
        .expect("the panel");
    number_after(line, "iteration").expect("a count") as u64
}

/// Polls `app` until its 80x24 screen satisfies `done`; that screen.
fn until(app: &mut App, done: impl Fn(&[String]) -> bool) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        app.poll();
        let screen = drawn(app, 80, 24);
        if done(&screen) {
            return screen;
        }
        assert!(Instant::now() < deadline, "{}", screen.join("\n"));
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The cells of the board's part of the screen (left of the panel, above the lesson)
/// that hold `mark`.
fn marks(screen: &[String], mark: char) -> usize {
    let panel = screen[1].find('|').unwrap_or(screen[1].len());
    screen[1..screen.len() - 3]
        .iter()
        .map(|row| row.chars().take(panel).filter(|&c| c == mark).count())
        .sum()
}

#[test]
fn each_step_at_two_a_second_is_marked_and_its_decision_agrees_with_the_screen() {
    // Sudoku cells get `>`, tours `#` for the edges put in, images `@`.
    for (tab, mark) in [(0, '>'), (1, '#'), (2, '@')] {
        let startup = demos::bare();
        let screen = Rect::new(0, 0, 80, 24);
        let theme = Theme::monochrome(true);
        let mut app = App::new(
            startup.demos,
            tab,
            0,
            Some(Speed::Limited(2)),
            theme,
            screen,
            false,
        )
        .expect("the bare demo starts");
        app.on_action(Action::TogglePause);
        let mut before = until(&mut app, |s| s[0].contains("PAUSED"));
        let (mut uphill, mut taken) = (0, 0);
        for step in 0..12 {
            let steps = iteration(&before);
            app.on_action(Action::Step);
            let after = until(&mut app, |s| iteration(s) == steps + 1 && told(s).is_some());
            let what = format!("tab {tab}, step {step}:\n{}", after.join("\n"));
            let t = told(&after).expect("a decision line");
            let change = energy(&after) - energy(&before);
            if t.accepted {
                assert!((change - t.delta).abs() < 1e-3, "{what}");
                taken += 1;
            } else {
                assert_eq!(change, 0.0, "{what}");
            }
            match t.u {
                Some(u) => assert_eq!(t.accepted, u < t.p, "{what}"),
                None => assert!(t.accepted == (t.delta <= 0.0), "{what}"),
            }
            uphill += usize::from(t.delta > 0.0);
            assert!(marks(&after, mark) > 0, "{what}");
            let wide = drawn(&app, 200, 50);
            let line = wide
                .iter()
                .find(|l| l.contains("dE = "))
                .expect("the lesson");
            assert!(line.contains(" <-> ") || line.contains("drop "), "{line}");
            assert!(marks(&wide, mark) > 0, "200x50: {}", wide.join("\n"));
            before = after;
        }
        assert!(
            uphill > 0 && taken > 0,
            "tab {tab}: {uphill} uphill, {taken} taken"
        );
    }
}

/// The temperature the panel shows.
fn temperature(screen: &[String]) -> Option<f64> {
    screen.iter().find_map(|l| number_after(l, "Temperature "))
}

#[test]
fn a_lesson_at_five_a_second_cools_visibly_within_its_first_minute_on_every_problem() {
    let problems: [(&str, Box<dyn BuiltIn>); 3] = [
        ("sudoku", Box::new(crate::flags::parse::<SudokuArgs>(&[]))),
        ("tsp", Box::new(crate::flags::parse::<TspArgs>(&[]))),
        ("image", Box::new(crate::flags::parse::<ImageArgs>(&[]))),
    ];
    for (name, args) in problems {
        let startup = args.live().expect("the default run starts");
        let mut app = App::new(
            startup.demos,
            startup.tab,
            startup.index,
            Some(Speed::Limited(5)),
            Theme::monochrome(true),
            Rect::new(0, 0, 80, 24),
            false,
        )
        .expect("the default run starts");
        let start = until(&mut app, |s| temperature(s).is_some());
        let hot = temperature(&start).expect("a temperature");
        // The lesson's first minute, 300 steps at 5/s, taken at 1,000/s: 5 -> 1k is seven
        // rungs up the ladder.
        for _ in 0..7 {
            app.on_action(Action::Faster);
        }
        let minute = until(&mut app, |s| iteration(s) >= 300);
        let cooled = temperature(&minute).expect("a temperature");
        let what = format!("{name}: T {hot} -> {cooled}\n{}", minute.join("\n"));
        assert!(cooled < 0.8 * hot, "{what}");
        assert!(
            minute[0].contains("running"),
            "not over after a minute: {what}"
        );
    }
}
