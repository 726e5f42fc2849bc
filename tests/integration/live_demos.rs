//! The demos of a bare `kiln` are worth watching: every item runs 10-60 s at its demo's
//! default pace, and its temperature moves.
//!
//! A run cools over steps, so its length at a pace is its steps over that pace: each item
//! runs here at full speed through the live view's own path, and its final step count says
//! how long it takes on screen.

use std::time::{Duration, Instant};

use kiln::search::StopReason;
use kiln::search::worker::Speed;
use kiln_tui::{BoardArea, RunState, Session};

/// The board area of an 80x24 screen.
const AREA: BoardArea = BoardArea {
    width: 48,
    height: 22,
};

fn run_to_the_end(session: &mut Box<dyn Session>, what: &str) -> (u64, f64, f64) {
    let deadline = Instant::now() + Duration::from_secs(120);
    let (mut t_high, mut t_low) = (f64::MIN, f64::MAX);
    loop {
        session.poll();
        if let Some(s) = session.history().latest() {
            t_high = t_high.max(s.control.level());
            t_low = t_low.min(s.control.level());
        }
        match session.state() {
            RunState::Finished(reason) => {
                let s = session
                    .history()
                    .latest()
                    .expect("a finished run has samples");
                if *reason == StopReason::Target {
                    assert!(session.solved(), "{what}: at the target but not solved");
                }
                return (s.iteration, t_high, t_low);
            }
            RunState::Crashed(message) => panic!("{what}: crashed: {message}"),
            _ => {}
        }
        assert!(
            Instant::now() < deadline,
            "{what}: still running after 120 s"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn every_default_demo_item_runs_10_to_60_seconds_with_a_moving_temperature() {
    let _cores = crate::common::busy();
    let startup = kiln::problems::demos::bare();
    let mut table = Vec::new();
    for demo in &startup.demos {
        let tab = demo.tab();
        let Speed::Limited(rate) = tab.pace else {
            panic!("{}: a demo runs at a watchable pace", tab.name);
        };
        for index in 0..tab.count {
            let what = format!("{} {}", tab.name, index + 1);
            let mut session = demo.start(index, Speed::Full, AREA).unwrap();
            let (steps, t_high, t_low) = run_to_the_end(&mut session, &what);
            let seconds = steps as f64 / rate as f64;
            table.push(format!(
                "{what}: {seconds:.1} s, T {t_high:.3} .. {t_low:.3}"
            ));
            // A tour at its known optimum has nothing left to show: it may end sooner.
            let shortest = if session.solved() && tab.name == "TSP" {
                3.0
            } else {
                10.0
            };
            assert!(
                (shortest..=60.0).contains(&seconds),
                "{what}: {seconds:.1} s at {rate}/s ({steps} steps)"
            );
            // At least a factor 1.5: a clear slope on the log-scale sparkline.
            assert!(
                t_high > 1.5 * t_low,
                "{what}: the temperature hardly moved ({t_high} .. {t_low})"
            );
        }
    }
    println!("{}", table.join("\n"));
}

#[test]
fn a_finished_tour_is_drawn_as_the_best_one_found() {
    let args: kiln::problems::tsp::TspArgs = kiln::flags::parse(&[
        "--random",
        "300",
        "--seed",
        "4",
        "--max-steps",
        "200000",
        "--t0",
        "50",
    ]);
    // The tour as a race pane runs it.
    let pane = kiln::problems::BuiltIn::racer(&args).unwrap();
    let mut session = pane.pane(Speed::Full, AREA).unwrap();
    run_to_the_end(&mut session, "tsp");
    let best = session.history().latest().unwrap().best_energy.round() as u64;
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        session.poll();
        let headline = session.headline().unwrap();
        // "best B · len L": the tour drawn is L long.
        let drawn: u64 = headline.rsplit("len ").next().unwrap().parse().unwrap();
        if drawn == best {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "drawn {drawn}, best {best}: {headline}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}
