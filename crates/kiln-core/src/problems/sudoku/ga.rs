//! The classroom genetic algorithm on kiln's Sudoku model: every candidate fills each box
//! with a permutation of its missing values (givens and propagated cells fixed), so only
//! rows and columns can clash; the cost is the number of values missing from rows and
//! columns (the annealer's energy). Each generation keeps the elites, fills the rest with
//! children of tournament winners (whole boxes from either parent, so boxes stay
//! permutations), mutates a child with probability `rate` by swapping two free cells of one
//! box, and adapts `rate` by Rechenberg's 1/5 success rule. A population whose best has not
//! improved for `stall_generations` is replaced by a fresh random one (a restart).

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};

use super::box_swaps::BoxSwaps;
use super::grid::Geometry;
use super::snapshot::{CellKind, SudokuSnapshot};
use crate::anneal::Problem;
use crate::search::tally::Tally;
use crate::search::{Budget, Control, Phase, Rng, Sample, Search, StopReason};

/// Rechenberg's factor: the rate grows by 1/C after a generation with more than 1/5
/// successful mutations and shrinks by C after one with fewer.
const RECHENBERG: f64 = 0.85;
/// Bounds of the adapted mutation rate (a probability per child).
pub const MIN_RATE: f64 = 0.01;
/// The upper bound of the mutation rate: every child gets a swap.
pub const MAX_RATE: f64 = 1.0;
/// Candidates drawn per tournament; the cheapest wins.
const TOURNAMENT: usize = 3;
/// Candidates made between looks at the deadline while a population is made.
const DEADLINE_EVERY: usize = 64;

/// How the genetic algorithm runs: the size of its population, its elites, mutation
/// and restarts, and its budget.
#[derive(Debug, Clone, PartialEq)]
pub struct GaConfig {
    /// Candidates in each generation (at least two).
    pub population: usize,
    /// Fraction of the population copied unchanged into the next generation (at least one).
    pub elites: f64,
    /// Starting mutation rate (probability that a child gets one swap).
    pub mutation: f64,
    /// Generations without a better population best before a restart.
    pub stall_generations: u64,
    /// Evaluations (children and fresh candidates) count as steps; a GA stops at cost 0.
    pub budget: Budget,
}

impl Default for GaConfig {
    fn default() -> Self {
        GaConfig {
            population: 1000,
            elites: 0.05,
            mutation: 0.06,
            stall_generations: 100,
            budget: Budget::default(),
        }
    }
}

#[derive(Debug, Clone)]
struct Candidate {
    values: Vec<u8>,
    cost: u32,
}

/// The genetic algorithm on one puzzle, run as a [`Search`] so the worker and race mode
/// drive it as they drive the annealer.
pub struct Genetic {
    geometry: Arc<Geometry>,
    kinds: Arc<[CellKind]>,
    /// The annealing state, used only for its random box-permutation fills.
    filler: BoxSwaps,
    /// Free cells of each box.
    boxes: Vec<Vec<u16>>,
    /// Boxes with two or more free cells (where a swap is possible).
    swappable: Vec<u16>,
    config: GaConfig,
    rng: Rng,
    /// Sorted by cost at the start of every generation.
    population: Vec<Candidate>,
    next: Vec<Candidate>,
    best: Candidate,
    rate: f64,
    evaluations: u64,
    generations: u64,
    stale: u64,
    /// Mutations count as proposals, improving ones as acceptances.
    tally: Tally,
    stopped: Option<StopReason>,
}

/// Values missing from rows and columns (0 = solved, boxes being permutations).
pub fn line_cost(geometry: &Geometry, values: &[u8]) -> u32 {
    let side = geometry.side;
    let mut missing = 0;
    for line in 0..side {
        let (mut row, mut col) = (0u32, 0u32);
        for i in 0..side {
            row |= 1 << values[line * side + i];
            col |= 1 << values[i * side + line];
        }
        missing += 2 * side as u32 - row.count_ones() - col.count_ones();
    }
    missing
}

impl Genetic {
    /// `fixed` holds the givens and propagated cells (0 = free); `seed` drives everything.
    pub fn new(
        geometry: Arc<Geometry>,
        givens: &[u8],
        fixed: &[u8],
        config: GaConfig,
        seed: u64,
    ) -> Self {
        // The time limit counts from here: a large population takes a while to make.
        let started = Instant::now();
        let mut rng = Rng::seed_from_u64(seed);
        let filler = BoxSwaps::new(Arc::clone(&geometry), givens, fixed, &mut rng);
        let kinds = filler.snapshot().kinds;
        let boxes: Vec<Vec<u16>> = (0..geometry.side)
            .map(|b| {
                let cells = geometry.box_cells(b).iter();
                cells
                    .filter(|&&c| fixed[c] == 0)
                    .map(|&c| c as u16)
                    .collect()
            })
            .collect();
        let swappable = (0..boxes.len())
            .filter(|&b| boxes[b].len() >= 2)
            .map(|b| b as u16)
            .collect();
        let population_size = config.population.max(2);
        let blank = Candidate {
            values: fixed.to_vec(),
            cost: u32::MAX,
        };
        let mut ga = Genetic {
            kinds,
            filler,
            boxes,
            swappable,
            rng,
            population: vec![blank.clone(); population_size],
            next: vec![blank.clone(); population_size],
            best: blank,
            rate: config.mutation.clamp(MIN_RATE, MAX_RATE),
            config,
            geometry,
            evaluations: 0,
            generations: 0,
            stale: 0,
            tally: Tally::default(),
            stopped: None,
        };
        ga.seed_population();
        ga.tally.elapsed = started.elapsed();
        ga
    }

    /// Replaces the whole population by random box-permutation fills: those made before
    /// the budget's deadline, at least two (20,000 candidates of a 25x25 take 0.4 s, and
    /// chains make theirs one after another).
    fn seed_population(&mut self) {
        let size = self.next.len();
        self.population.resize(size, self.next[0].clone());
        for made in 0..size {
            if made >= 2 && made % DEADLINE_EVERY == 0 && self.config.budget.past_deadline() {
                self.population.truncate(made);
                self.stopped = Some(StopReason::TimeLimit);
                break;
            }
            let candidate = &mut self.population[made];
            self.filler.randomize(&mut self.rng);
            candidate.values.copy_from_slice(self.filler.values());
            candidate.cost = line_cost(&self.geometry, &candidate.values);
        }
        self.evaluations += self.population.len() as u64;
        self.stale = 0;
        self.rate = self.config.mutation.clamp(MIN_RATE, MAX_RATE);
        self.population.sort_by_key(|c| c.cost);
        self.note_best();
    }

    fn note_best(&mut self) {
        if self.population[0].cost < self.best.cost {
            self.best.clone_from(&self.population[0]);
            self.stale = 0;
        }
        if self.best.cost == 0 {
            self.stopped = Some(StopReason::Target);
        }
    }

    fn elites(&self) -> usize {
        let n = self.population.len();
        ((self.config.elites * n as f64).round() as usize).clamp(1, n - 1)
    }

    /// The cheapest of `TOURNAMENT` random candidates.
    fn tournament(&mut self) -> usize {
        let n = self.population.len();
        (0..TOURNAMENT)
            .map(|_| self.rng.random_range(0..n))
            .min_by_key(|&i| self.population[i].cost)
            .unwrap_or(0)
    }

    /// Writes into `child` the boxes of `a`, each replaced by `b`'s with probability 1/2.
    fn crossover(&mut self, a: usize, b: usize, child: &mut [u8]) {
        child.copy_from_slice(&self.population[a].values);
        let other = &self.population[b].values;
        for cells in &self.boxes {
            if self.rng.random::<bool>() {
                for &c in cells {
                    child[c as usize] = other[c as usize];
                }
            }
        }
    }

    /// Swaps two free cells of one random box.
    fn mutate(&mut self, child: &mut [u8]) {
        if self.swappable.is_empty() {
            return;
        }
        let b = self.swappable[self.rng.random_range(0..self.swappable.len())];
        let cells = &self.boxes[b as usize];
        let i = self.rng.random_range(0..cells.len());
        let j = (i + self.rng.random_range(1..cells.len())) % cells.len();
        child.swap(cells[i] as usize, cells[j] as usize);
    }

    fn generation(&mut self) {
        let elites = self.elites();
        let mut next = std::mem::take(&mut self.next);
        for (slot, elite) in next.iter_mut().zip(&self.population[..elites]) {
            slot.clone_from(elite);
        }
        let (mut mutations, mut successes) = (0u64, 0u64);
        for child in &mut next[elites..] {
            let (a, b) = (self.tournament(), self.tournament());
            self.crossover(a, b, &mut child.values);
            child.cost = line_cost(&self.geometry, &child.values);
            if self.rng.random::<f64>() < self.rate {
                let before = child.cost;
                self.mutate(&mut child.values);
                child.cost = line_cost(&self.geometry, &child.values);
                mutations += 1;
                successes += (child.cost < before) as u64;
            }
        }
        self.evaluations += (next.len() - elites) as u64;
        self.next = std::mem::replace(&mut self.population, next);
        self.population.sort_by_key(|c| c.cost);
        self.generations += 1;
        self.stale += 1;
        self.note_best();
        self.tally.proposed += mutations;
        self.tally.accepted += successes;
        if mutations > 0 {
            // Rechenberg: more than 1/5 successes means the search can afford more change.
            let ratio = successes as f64 / mutations as f64;
            if ratio > 0.2 {
                self.rate /= RECHENBERG;
            } else if ratio < 0.2 {
                self.rate *= RECHENBERG;
            }
            self.rate = self.rate.clamp(MIN_RATE, MAX_RATE);
        }
        if self.stopped.is_none() && self.stale >= self.config.stall_generations {
            self.tally.restarts += 1;
            self.seed_population();
        }
    }

    fn check_budget(&mut self) {
        if self.stopped.is_some() {
            return;
        }
        self.stopped = self
            .config
            .budget
            .spent(self.evaluations, self.tally.elapsed);
    }

    /// The current mutation rate.
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// Every candidate of the current population, cheapest first (for tests and views).
    pub fn population(&self) -> impl Iterator<Item = (&[u8], u32)> {
        self.population
            .iter()
            .map(|c| (c.values.as_slice(), c.cost))
    }

    fn snapshot_of(&self, candidate: &Candidate) -> SudokuSnapshot {
        SudokuSnapshot {
            geometry: Arc::clone(&self.geometry),
            kinds: Arc::clone(&self.kinds),
            values: candidate.values.clone(),
        }
    }
}

impl Search for Genetic {
    type Snapshot = SudokuSnapshot;

    /// Runs whole generations until about `n` evaluations are done (at least one).
    fn step_batch(&mut self, n: u64) -> u64 {
        if self.stopped.is_some() {
            return 0;
        }
        let started = Instant::now();
        let first = self.evaluations;
        let before = self.tally.elapsed;
        // The budget is looked at after every generation: a batch holds many of them.
        while self.stopped.is_none() && self.evaluations - first < n {
            self.generation();
            self.tally.elapsed = before + started.elapsed();
            self.check_budget();
        }
        self.evaluations - first
    }

    /// iteration = evaluations, control = the mutation rate, energy = the current
    /// population's best cost, acceptance = improving mutations / mutations.
    fn sample(&mut self) -> Sample {
        self.tally.sample(
            self.evaluations,
            Phase::Genetic,
            Control::MutationRate(self.rate),
            self.population[0].cost as f64,
            self.best.cost as f64,
        )
    }

    fn stopped(&self) -> Option<StopReason> {
        self.stopped
    }

    fn snapshot(&self) -> SudokuSnapshot {
        self.snapshot_of(&self.population[0])
    }

    fn best_snapshot(&mut self) -> SudokuSnapshot {
        self.snapshot_of(&self.best)
    }

    /// A reheat sets the mutation rate (what the GA has instead of a temperature).
    fn reheat(&mut self, temperature: f64) {
        self.tally.reheats += 1;
        self.rate = temperature.clamp(MIN_RATE, MAX_RATE);
    }

    fn waited(&mut self, idle: Duration) {
        self.config.budget.postpone(idle);
    }

    fn restart(&mut self) {
        self.tally.restarts += 1;
        if self.stopped != Some(StopReason::Target) {
            self.stopped = None;
        }
        self.seed_population();
    }

    fn generations(&self) -> Option<u64> {
        Some(self.generations)
    }
}
