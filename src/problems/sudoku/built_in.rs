//! Sudoku in the list of built-in problems.

use std::io::Write;

use color_eyre::Result;

use super::{Puzzle, SudokuArgs, SudokuSpec, output_file, selected_puzzles, solver};
use crate::headless::report::Lines;
use crate::input::InputError;
use crate::problems::demos::{Startup, file_name};
use crate::problems::registry::{BuiltIn, shared_flags};
use crate::problems::sudoku::board::{DEFAULT_PACE, SudokuDemo, SudokuThumbnail, watched};
use crate::race::lineup::PaneMaker;
use crate::race::standings::Standings;
use crate::search::worker::Speed;
use kiln_tui::TraceSlot;
use kiln_tui::{BoardArea, Live, Session};

/// The one puzzle a race pane runs.
fn only_puzzle(spec: &SudokuSpec) -> Result<Puzzle> {
    let mut puzzles = selected_puzzles(spec)?;
    if puzzles.len() != 1 {
        return Err(InputError::new(
            "race",
            format!(
                "a race runs one puzzle, and the file has {}: choose one with --index N \
                 (`kiln race FILE --presets` races them in turn)",
                puzzles.len()
            ),
        )
        .into());
    }
    Ok(puzzles.remove(0))
}

impl BuiltIn for SudokuArgs {
    fn check(&self) -> Result<(), InputError> {
        SudokuArgs::check(self)
    }

    shared_flags!();

    fn headless(&self, out: &mut Lines, log: &mut dyn Write) -> Result<()> {
        super::headless(&self.spec()?, out, log)
    }

    fn live(&self) -> Result<Startup> {
        let spec = self.spec()?;
        // Checks --index against the file with the headless run's own message.
        let selected = selected_puzzles(&spec)?;
        // A live run writes --output at its end, of the one puzzle it shows.
        if spec.output.is_some() && selected.len() != 1 {
            return Err(InputError::new(
                "--output",
                "the live view writes the puzzle it shows: choose one with --index (or add --headless)",
            )
            .into());
        }
        output_file(&spec, selected.len())?;
        let mut all = spec.clone();
        all.model.index = None;
        let demo = SudokuDemo {
            puzzles: selected_puzzles(&all)?,
            seeds: Vec::new(),
            trace: TraceSlot::of(spec.run.open_trace(None)?),
            spec,
            pace: Speed::Rising(DEFAULT_PACE),
        };
        Ok(Startup::one(demo, self.index.map_or(0, |i| i - 1)))
    }

    fn racer(&self) -> Result<Box<dyn PaneMaker>> {
        let spec = self.spec()?;
        let puzzle = only_puzzle(&spec)?;
        solver(&puzzle, &spec)?;
        Ok(Box::new(SudokuPane { spec, puzzle }))
    }
}

/// A race pane of Sudoku: the run its flags ask for, on the one puzzle they select.
struct SudokuPane {
    spec: SudokuSpec,
    puzzle: Puzzle,
}

impl PaneMaker for SudokuPane {
    fn headless(&self, out: &mut Lines, log: &mut dyn Write) -> Result<()> {
        super::headless(&self.spec, out, log)
    }

    fn pane(&self, speed: Speed, _area: BoardArea) -> Result<Box<dyn Session>> {
        let (spec, puzzle) = (&self.spec, &self.puzzle);
        let solver = watched(spec, puzzle, speed)?;
        let side = puzzle.side();
        let title = format!("{side}x{side} {}", file_name(&puzzle.source));
        let launch = solver.launch(title).traced(spec.run.open_trace(None)?);
        // A thumbnail, to fit four.
        let view = SudokuThumbnail::new(puzzle.n);
        Ok(Box::new(Live::start(launch, view, speed)))
    }

    /// The single view's pace, so the grids can be watched as they solve.
    fn race_pace(&self) -> Speed {
        Speed::Limited(DEFAULT_PACE)
    }

    fn standings(&self) -> Standings {
        Standings::FirstSolved
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anneal::Schedule;

    fn spec(flags: &[&str]) -> SudokuSpec {
        let file = ["puzzles/sudoku/easy20.txt", "--index", "1"];
        let args: SudokuArgs = crate::flags::parse(&[&file[..], flags].concat());
        args.spec().unwrap()
    }

    fn budget(flags: &[&str], speed: Speed) -> Option<u64> {
        use crate::problems::sudoku::board::paced;
        let spec = spec(flags);
        let puzzle = only_puzzle(&spec).unwrap();
        paced(&spec, &puzzle, speed).unwrap().run.limits.max_steps
    }

    #[test]
    fn a_paced_pane_has_the_steps_of_its_default_minute_at_the_pace() {
        assert_eq!(budget(&[], Speed::Limited(30_000)), Some(1_800_000));
        assert_eq!(
            budget(&["--preset", "ga"], Speed::Limited(1000)),
            Some(60_000)
        );
        // Flat out, or with a budget of the user's, nothing changes.
        assert_eq!(budget(&[], Speed::Full), None);
        assert_eq!(
            budget(&["--max-steps", "500"], Speed::Limited(30_000)),
            Some(500)
        );
        let timed = ["--time-limit", "2"];
        assert_eq!(budget(&timed, Speed::Limited(30_000)), None);
    }

    #[test]
    fn a_rising_pace_keeps_the_headless_budget() {
        assert_eq!(budget(&[], Speed::Rising(30_000)), None);
        let spec = spec(&[]);
        let puzzle = only_puzzle(&spec).unwrap();
        let watched = watched(&spec, &puzzle, Speed::Rising(30_000)).unwrap();
        let limit = watched.plan.config.budget.time_limit;
        assert_eq!(limit, Some(std::time::Duration::from_secs(60)));
    }

    #[test]
    fn a_lesson_cools_from_hot_to_cold_over_its_three_minutes() {
        let kiln = spec(&[]);
        let puzzle = only_puzzle(&kiln).unwrap();
        let lesson = watched(&kiln, &puzzle, Speed::Limited(5)).unwrap();
        let config = &lesson.plan.config;
        assert_eq!(config.budget.max_steps, Some(900));
        assert_eq!(config.chunk, 1, "the temperature is looked at every step");
        let Schedule::Exponential { t_min } = config.schedule else {
            panic!("{:?}", config.schedule);
        };
        assert!(
            (config.t0 - 0.9).abs() + (t_min - 0.1).abs() < 1e-12,
            "{config:?}"
        );
        // A schedule the user chose is theirs.
        let chosen = spec(&["--schedule", "constant"]);
        let held = watched(&chosen, &puzzle, Speed::Limited(5)).unwrap();
        assert_eq!(held.plan.config.schedule, Schedule::Constant);
        assert_eq!(held.plan.config.budget.max_steps, Some(900));
    }
}
