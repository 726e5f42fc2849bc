//! Each preset's parameters reach the engine: the plan maps names to the documented
//! schedule, start temperature, stall rule and limits, flags override them, and the
//! solver built from a plan runs with exactly those values.

use std::time::Duration;

use clap::Parser;

use kiln::anneal::{Checkpoint, RunConfig, Schedule, Stagnation, StallAction};
use kiln::cli::{Cli, Command};
use kiln::problems::ProblemCommand;
use kiln::problems::sudoku::{
    DEFAULT_TIME_LIMIT, Model, PRESETS, Plan, Preset, SudokuSpec, plan, read_puzzles, solver,
};
use kiln::search::Control;

/// `kiln sudoku --preset NAME EXTRA...` as read from the command line.
fn args(preset: &str, extra: &[&str]) -> SudokuSpec {
    let words = ["kiln", "sudoku", "--preset", preset]
        .into_iter()
        .chain(extra.iter().copied());
    match Cli::try_parse_from(words).unwrap().command {
        Some(Command::Problem(ProblemCommand::Sudoku(a))) => a.spec().unwrap(),
        other => panic!("{other:?}"),
    }
}

fn plan_for(preset: &str, extra: &[&str], free_cells: usize) -> Plan {
    plan(&args(preset, extra), 3, 0, free_cells, |_| 42.0).unwrap()
}

fn restart_every(every: u64) -> Option<Checkpoint> {
    Some(Checkpoint {
        every,
        min_gain: f64::INFINITY,
        action: StallAction::Restart,
    })
}

fn annealing(schedule: Schedule, t0: f64) -> RunConfig {
    let mut c = RunConfig::new(schedule, t0);
    c.budget.time_limit = Some(Duration::from_secs_f64(DEFAULT_TIME_LIMIT));
    c.budget.target = Some(0.0);
    c
}

#[test]
fn geometric_restart() {
    let p = plan_for("geometric-restart", &[], 60);
    let mut expected = annealing(
        Schedule::Geometric {
            alpha: 1.0 / 1.00002,
        },
        0.5,
    );
    expected.checkpoint = Some(Checkpoint {
        every: 50_000,
        min_gain: 4.0,
        action: StallAction::Restart,
    });
    assert_eq!(p.config, expected);
    assert_eq!((p.model, p.propagate, p.ga), (Model::BoxSwap, false, None));
    assert_eq!(p.focus, 0.0, "the classroom solvers draw swaps uniformly");
    assert_eq!(p.pairs, 0.0, "and swap one pair of cells at a time");
}

#[test]
fn yarpiz() {
    let p = plan_for("yarpiz", &[], 60);
    let mut expected = annealing(
        Schedule::Stepped {
            alpha: 0.99,
            every: 20,
        },
        0.04,
    );
    expected.checkpoint = restart_every(350 * 20);
    assert_eq!(p.config, expected);
    assert!(!p.propagate);
}

#[test]
fn reheat() {
    let p = plan_for("reheat", &[], 60);
    let mut expected = annealing(Schedule::Geometric { alpha: 0.99999 }, 0.5);
    expected.stagnation = Some(Stagnation {
        window: 100_000,
        action: StallAction::Reheat { temperature: 0.5 },
    });
    assert_eq!(p.config, expected);
}

#[test]
fn lundy() {
    let p = plan_for("lundy", &[], 60);
    let Schedule::LundyMees { k } = p.config.schedule else {
        panic!("{:?}", p.config.schedule)
    };
    assert_eq!(p.config.t0, 100.0);
    // T reaches Tmin = 0.01 at step 100,000, where the restart comes.
    let t_end = p.config.schedule.temperature(
        100.0,
        kiln::anneal::Clock {
            steps: 100_000,
            progress: None,
        },
    );
    assert!((t_end - 0.01).abs() < 1e-12, "k = {k}, T = {t_end}");
    assert_eq!(p.config.checkpoint, restart_every(100_000));
}

#[test]
fn cell_linear_sweeps_scale_with_the_empty_cells() {
    let p = plan_for("cell-linear", &[], 58);
    let hold = 200 * 58;
    let mut expected = annealing(
        Schedule::Levels {
            t_min: 0.05,
            levels: 300,
            every: hold,
        },
        0.5,
    );
    expected.checkpoint = restart_every(300 * hold);
    assert_eq!(p.config, expected);
    assert_eq!((p.model, p.propagate), (Model::CellValues, false));
}

#[test]
fn kiln_is_the_tuned_default_with_propagation() {
    let p = plan_for("kiln", &[], 60);
    let mut expected = annealing(Schedule::Constant, 0.3);
    expected.stagnation = Some(Stagnation {
        window: 1_000_000,
        action: StallAction::Restart,
    });
    assert_eq!(p.config, expected);
    assert!(p.propagate);
    assert_eq!(p.focus, kiln::problems::sudoku::default_focus(3));
    assert_eq!(p.pairs, kiln::problems::sudoku::DEFAULT_PAIRS);
    assert_eq!(plan_for("kiln", &["--pairs", "0"], 60).pairs, 0.0);
    assert!(!plan_for("kiln", &["--no-propagate"], 60).propagate);
}

#[test]
fn ga_flags_reach_its_config() {
    let p = plan_for(
        "ga",
        &[
            "--population",
            "300",
            "--elites",
            "0.1",
            "--mutation",
            "0.2",
            "--max-steps",
            "9000",
            "--stall",
            "50",
        ],
        60,
    );
    let ga = p.ga.unwrap();
    assert_eq!(p.model, Model::Genetic);
    assert_eq!((ga.population, ga.elites, ga.mutation), (300, 0.1, 0.2));
    assert_eq!(
        (ga.stall_generations, ga.budget.max_steps),
        (50, Some(9000))
    );
    assert_eq!(
        ga.budget.time_limit,
        Some(Duration::from_secs_f64(DEFAULT_TIME_LIMIT))
    );
    let d = plan_for("ga", &[], 60).ga.unwrap();
    assert_eq!(
        (d.population, d.elites, d.mutation, d.stall_generations),
        (1000, 0.05, 0.06, 100)
    );
}

#[test]
fn explicit_flags_override_the_preset() {
    let p = plan_for(
        "yarpiz",
        &["--alpha", "0.9", "--t0", "0.2", "--time-limit", "3"],
        60,
    );
    assert_eq!(
        p.config.schedule,
        Schedule::Stepped {
            alpha: 0.9,
            every: 20
        }
    );
    assert_eq!(p.config.t0, 0.2);
    assert_eq!(p.config.budget.time_limit, Some(Duration::from_secs(3)));
    // A schedule flag replaces the preset's schedule, stall flags its restart rule.
    let p = plan_for(
        "yarpiz",
        &[
            "--schedule",
            "constant",
            "--stall",
            "10",
            "--on-stall",
            "restart",
        ],
        60,
    );
    assert_eq!(p.config.schedule, Schedule::Constant);
    assert_eq!(p.config.checkpoint, None);
    assert_eq!(p.config.stagnation.unwrap().window, 10);
    let p = plan_for("cell-linear", &["--t-min", "0.1", "--max-steps", "77"], 10);
    assert_eq!(
        p.config.schedule,
        Schedule::Levels {
            t_min: 0.1,
            levels: 300,
            every: 2000
        }
    );
    assert_eq!(p.config.budget.max_steps, Some(77));
    assert_eq!(plan_for("lundy", &["--t0", "auto"], 60).config.t0, 42.0);
}

#[test]
fn names_round_trip_and_unknown_names_are_refused() {
    for preset in PRESETS {
        assert_eq!(preset.name().parse::<Preset>(), Ok(preset));
    }
    let e = "annealing".parse::<Preset>().unwrap_err();
    assert!(
        e.starts_with("'annealing' is not a preset (one of geometric-restart, yarpiz"),
        "{e}"
    );
}

#[test]
fn the_solver_runs_with_the_planned_parameters() {
    let puzzle = read_puzzles("puzzles/sudoku/hardest11.txt".as_ref())
        .unwrap()
        .swap_remove(0);
    // Yarpiz: T0 = 0.04 times 0.99 per 20 steps, a restart (back to T0) every 7,000.
    let a = args("yarpiz", &[]);
    let mut s = solver(&puzzle, &a).unwrap();
    assert!(
        s.label
            .starts_with("yarpiz: 9x9 from puzzles/sudoku/hardest11.txt:1"),
        "{}",
        s.label
    );
    s.search.step_batch(6_990);
    let sample = s.search.sample();
    if s.search.stopped().is_none() {
        assert!((sample.control.level() - 0.04 * 0.99f64.powi(349)).abs() < 1e-12);
        s.search.step_batch(10);
        let sample = s.search.sample();
        assert_eq!(
            (sample.restarts, sample.control),
            (1, Control::Temperature(0.04))
        );
    }
    // Geometric-restart: T = 0.5 / 1.00002^i (refreshed as a batch starts).
    let a = args("geometric-restart", &["--seed", "3"]);
    let mut s = solver(&puzzle, &a).unwrap();
    s.search.step_batch(1024);
    s.search.step_batch(1);
    let t = s.search.sample().control.level();
    assert!((t - 0.5 / 1.00002f64.powi(1024)).abs() < 1e-12, "{t}");
    // The GA reports its mutation rate (no temperature) and counts generations.
    let a = args("ga", &["--population", "50", "--mutation", "0.3"]);
    let mut s = solver(&puzzle, &a).unwrap();
    assert_eq!(s.search.sample().control, Control::MutationRate(0.3));
    // One generation: 50 children minus round(5% of 50) = 3 elites.
    assert_eq!(s.search.step_batch(1), 50 - 3);
    assert_eq!(s.search.generations(), Some(1));
}

#[test]
fn displays_know_each_solvers_temperature_span() {
    let puzzle = read_puzzles("puzzles/sudoku/hardest11.txt".as_ref())
        .unwrap()
        .swap_remove(0);
    let span = |name: &str| {
        let a = args(name, &[]);
        let s = solver(&puzzle, &a).unwrap();
        s.temperature_span()
    };
    assert_eq!(span("ga"), (1.0, Some(0.01)));
    assert_eq!(span("kiln"), (0.3, None));
    let (high, low) = span("lundy");
    assert_eq!(high, 100.0);
    assert!((low.unwrap() - 0.01).abs() < 1e-6, "{low:?}");
    let (high, low) = span("cell-linear");
    assert_eq!(high, 0.5);
    assert!((low.unwrap() - 0.05).abs() < 1e-12, "{low:?}");
    let (high, low) = span("yarpiz");
    assert_eq!((high, low), (0.04, Some(0.04 * 0.99f64.powi(349))));
}

#[test]
fn every_solver_runs_in_the_tui_worker() {
    use kiln::search::worker::{Command, Report, Speed, Worker};
    let puzzle = read_puzzles("puzzles/sudoku/small4.txt".as_ref())
        .unwrap()
        .swap_remove(0);
    for preset in PRESETS {
        let a = args(preset.name(), &["--population", "20"]);
        let mut s = solver(&puzzle, &a).unwrap();
        if s.search.stopped().is_some() {
            // Solved before the first step (the worker would wait for a command): the
            // random fill or first population already holds a solution.
            let board = s.search.best_snapshot();
            assert!(kiln::problems::sudoku::is_valid_solution(
                &puzzle,
                &board.values
            ));
            continue;
        }
        let worker = Worker::spawn(s.search, Speed::Full, s.reheat_to);
        let finished = (0..500).find_map(|_| {
            std::thread::sleep(Duration::from_millis(10));
            worker
                .drain()
                .find_map(|r| matches!(r.report, Report::Finished(_)).then_some(()))
        });
        assert!(finished.is_some(), "{preset} never finished a 4x4");
        // Ask for the best board (the mailbox holds whatever was published last).
        worker.take_snapshot();
        worker.send(Command::ShowBest(true));
        let board = (0..500)
            .find_map(|_| {
                std::thread::sleep(Duration::from_millis(2));
                worker.take_snapshot()
            })
            .expect("a board");
        assert!(
            kiln::problems::sudoku::is_valid_solution(&puzzle, &board.values),
            "{preset}"
        );
    }
}

#[test]
fn a_run_of_several_chains_is_shown_with_the_whole_step_budget() {
    let puzzle = read_puzzles("puzzles/sudoku/hardest11.txt".as_ref())
        .unwrap()
        .swap_remove(0);
    let a = args("kiln", &["--threads", "2", "--max-steps", "1000"]);
    let s = solver(&puzzle, &a).unwrap();
    // Each chain runs its share; the display counts both chains' steps.
    assert_eq!(s.plan.config.budget.max_steps, Some(500));
    assert_eq!(s.launch("t".into()).budget.max_steps, Some(1000));
}
