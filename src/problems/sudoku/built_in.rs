//! Sudoku in the list of built-in problems.

use std::io::Write;

use color_eyre::Result;

use super::{Puzzle, SudokuArgs, SudokuSpec, output_file, selected_puzzles, solver};
use crate::anneal::worker::Speed;
use crate::input::InputError;
use crate::problems::registry::{BuiltIn, shared_flags};
use crate::race::lineup::PaneMaker;
use crate::ui::boards::TraceSlot;
use crate::ui::boards::sudoku::{DEFAULT_PACE, SudokuDemo, SudokuThumbnail, paced};
use crate::ui::demos::{Startup, file_name};
use crate::ui::race::Standings;
use crate::ui::{BoardArea, Live, Session};

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

    fn headless(&self, out: &mut dyn Write, log: &mut dyn Write) -> Result<()> {
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
    fn headless(&self, out: &mut dyn Write, log: &mut dyn Write) -> Result<()> {
        super::headless(&self.spec, out, log)
    }

    fn pane(&self, speed: Speed, _area: BoardArea) -> Result<Box<dyn Session>> {
        let (spec, puzzle) = (&self.spec, &self.puzzle);
        let solver = solver(puzzle, &paced(spec, puzzle, speed)?)?;
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

    fn spec(flags: &[&str]) -> SudokuSpec {
        let file = ["puzzles/sudoku/easy20.txt", "--index", "1"];
        let args: SudokuArgs = crate::cli::parse(&[&file[..], flags].concat());
        args.spec().unwrap()
    }

    fn budget(flags: &[&str], speed: Speed) -> Option<u64> {
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
}
