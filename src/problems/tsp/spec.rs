//! A TSP run as the command line asked for it (`TspArgs::spec`).

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{Cost, Init, Layout, MoveSet};
use crate::headless::output::OutputFile;
use crate::headless::spec::Spec;
use crate::input::InputError;

/// A TSP run: the instance, the model and what follows the anneal.
pub type TspSpec = Spec<TspModel>;

/// Where the cities come from, how they are annealed and what follows.
#[derive(Debug, Clone)]
pub struct TspModel {
    /// A TSPLIB file; with neither it nor `random`, the built-in berlin52.
    pub file: Option<PathBuf>,
    /// `--random N`: N cities drawn from the seed.
    pub random: Option<usize>,
    /// `--layout`: how random cities are laid out.
    pub layout: Layout,
    /// `--moves`: the moves the annealer proposes.
    pub moves: MoveSet,
    /// `--cost`: what the annealer minimises.
    pub cost: Cost,
    /// `--neighbours`: candidates per city.
    pub neighbours: u16,
    /// `--init`: the starting tour.
    pub init: Init,
    /// `--optimum`: the known optimal length, over the built-in table's.
    pub optimum: Option<u64>,
    /// A reference tour file, drawn beside ours and measured.
    pub tour: Option<PathBuf>,
    /// What follows the anneal.
    pub search: Search,
    /// The share of the budget the kicks take (`Search::AnnealIls`).
    pub kick_share: f64,
    /// `--threads`: independent chains run side by side (`TspModel::chains` when not given).
    pub threads: Option<usize>,
}

/// Chains a run makes when `--threads` is not given, up to `CHAINS_UP_TO` cities: two runs
/// of one instance end further apart than anything tuning one run moved, so the shorter of
/// two at 783-1,002 cities, and the first of two to reach the optimum, are worth a second
/// core; at 2,000 and 5,000 cities and 10 s the better of two was shorter on 6 runs of 8.
/// At 10,000 cities two chains each kicked 5-20 % less than one alone (memory shared, and
/// the chains wait for each other at every batch) and the better of two ended a little
/// longer (docs/benchmarks.md).
pub(super) const DEFAULT_CHAINS: usize = 2;
const CHAINS_UP_TO: usize = 5_000;

impl TspModel {
    /// The chains a run of `cities` cities makes.
    pub fn chains(&self, cities: usize) -> usize {
        self.threads.unwrap_or(match cities <= CHAINS_UP_TO {
            true => DEFAULT_CHAINS,
            false => 1,
        })
    }
}

/// What follows the anneal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Search {
    /// Nothing (`--no-polish`, or moves the local search does not make).
    #[serde(rename = "anneal")]
    Anneal,
    /// A greedy 2-opt/Or-opt descent from the best annealed tour (`--kick-share 0`).
    #[serde(rename = "anneal+descent")]
    AnnealDescent,
    /// Iterated local search taking `--kick-share` of the budget (the default).
    #[serde(rename = "anneal+ils")]
    AnnealIls,
}

impl Search {
    /// What `--no-polish` and `--kick-share` ask for with `moves`: only the default move
    /// set is polished, the seed's swap moves are shown as they are.
    pub fn of(moves: MoveSet, no_polish: bool, kick_share: Option<f64>) -> Search {
        if no_polish || moves != MoveSet::TwoOpt {
            Search::Anneal
        } else if kick_share == Some(0.0) {
            Search::AnnealDescent
        } else {
            Search::AnnealIls
        }
    }
}

impl TspSpec {
    /// `--output`, checked against the run's own inputs before it starts.
    pub fn output_file(&self) -> Result<Option<OutputFile>, InputError> {
        let model = &self.model;
        let inputs: Vec<&Path> = [&model.file, &model.tour]
            .into_iter()
            .flatten()
            .map(PathBuf::as_path)
            .collect();
        self.checked_output(&inputs)
    }
}
