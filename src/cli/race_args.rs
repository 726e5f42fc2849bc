//! `kiln race`'s flags: the older form (a Sudoku file raced over presets) and
//! `kiln race PROBLEM ARGS...`, whose arguments each pane reads as its own command line.

use std::path::PathBuf;

use clap::Args;

use crate::flags::anneal_args::AnnealArgs;
use crate::flags::ranges::{self, whole};
use crate::headless::spec::with_part;
use crate::input::InputError;
use crate::problems::demos::file_name;
use crate::problems::sudoku::race::PresetRace;
use crate::problems::sudoku::{GaArgs, Preset, Puzzle, SudokuArgs, selected_puzzles};
use crate::problems::{BuiltIn, RaceProblem};
use crate::race::MAX_RACERS;
use crate::race::lineup::Entrant;
use crate::search::Trace;

/// `kiln race`'s flags.
#[derive(Args, Debug, Clone)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct RaceArgs {
    /// `kiln race PROBLEM ARGS...`: a race of any flag; without it, Sudoku presets.
    #[command(subcommand)]
    pub problem: Option<RaceProblem>,
    /// Puzzle file; every puzzle in it is raced in turn unless --index picks one.
    #[arg(required = true)]
    pub file: Option<PathBuf>,
    /// Race only puzzle N of the file (1-based).
    #[arg(long, value_name = "N", value_parser = whole(ranges::INDEX))]
    pub index: Option<usize>,
    /// Two to four presets, comma-separated (`kiln presets` lists them).
    #[arg(
        long,
        alias = "preset",
        value_name = "A,B,..",
        value_delimiter = ',',
        default_value = "kiln,geometric-restart,ga"
    )]
    pub presets: Vec<Preset>,
    /// No singles propagation, even for presets that use it.
    #[arg(long)]
    pub no_propagate: bool,
    /// The annealing flags every preset takes.
    #[command(flatten)]
    pub anneal: AnnealArgs,
    /// The genetic algorithm's flags.
    #[command(flatten)]
    pub ga: GaArgs,
}

impl RaceArgs {
    /// What clap cannot check: the GA's flags apply only when a GA races.
    pub fn check(&self) -> Result<(), InputError> {
        self.anneal.check()?;
        self.ga
            .check(self.presets.contains(&Preset::Ga), "ga in --presets")
    }

    /// The racers, checked: 2 to 4 presets, none twice.
    pub fn racers(&self) -> Result<Vec<Preset>, InputError> {
        let p = &self.presets;
        if !(2..=MAX_RACERS).contains(&p.len()) {
            return Err(InputError::new(
                "--presets",
                format!("a race needs 2 to {MAX_RACERS} presets, not {}", p.len()),
            ));
        }
        if let Some(twice) = p.iter().enumerate().find(|(i, a)| p[..*i].contains(a)) {
            return Err(InputError::new(
                "--presets",
                format!("{} is named twice", twice.1),
            ));
        }
        Ok(p.clone())
    }

    /// The race these flags ask for: its racers, checked, and its puzzles.
    pub fn spec(&self) -> Result<PresetRace, InputError> {
        Ok(PresetRace {
            racers: (self.racers()?.into_iter())
                .map(|preset| Ok((preset, self.racer_flags(Some(preset)).spec()?)))
                .collect::<Result<_, InputError>>()?,
            puzzles: self.puzzles()?,
            run: self.anneal.run(),
        })
    }

    /// The flags of racer `preset`: the race's own, with its preset.
    fn racer_flags(&self, preset: Option<Preset>) -> SudokuArgs {
        SudokuArgs {
            file: self.file.clone(),
            index: self.index,
            no_propagate: self.no_propagate,
            anneal: self.anneal.clone(),
            batch: Default::default(),
            output: Default::default(),
            preset,
            focus: None,
            pairs: None,
            threads: None,
            ga: self.ga.clone(),
        }
    }

    /// What the race screen runs: the first selected puzzle's file name (its title), and
    /// one pane per preset, resolved, its trace named by the preset (`t-kiln.csv`) and
    /// refused if that file exists, before any racer starts.
    pub fn entrants(&self) -> color_eyre::Result<(String, Vec<Entrant>)> {
        let puzzles = self.puzzles()?;
        let puzzle = puzzles
            .first()
            .ok_or_else(|| color_eyre::eyre::eyre!("no puzzle to race"))?;
        // Every racer's trace is checked before any racer reads its flags.
        let mut racers = Vec::new();
        for preset in self.racers()? {
            let mut racer = self.racer_flags(Some(preset));
            if let Some(path) = &racer.anneal.trace {
                let path = with_part(path, preset.name());
                Trace::check_new(&path)?;
                racer.anneal.trace = Some(path);
            }
            racers.push((preset, racer));
        }
        let entrants = racers
            .into_iter()
            .map(|(preset, racer)| {
                Ok(Entrant {
                    name: preset.name().to_string(),
                    raced: vec![("presets".to_string(), preset.name().to_string())],
                    maker: racer.racer()?,
                })
            })
            .collect::<color_eyre::Result<_>>()?;
        Ok((file_name(&puzzle.source).to_string(), entrants))
    }

    /// The puzzles to race.
    pub fn puzzles(&self) -> Result<Vec<Puzzle>, InputError> {
        selected_puzzles(&self.racer_flags(None).spec()?)
    }
}
