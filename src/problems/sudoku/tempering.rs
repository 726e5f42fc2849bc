//! Parallel tempering (replica exchange): K copies of a problem, each running Metropolis at
//! its own temperature of a geometric ladder; every `sweep` steps per replica, neighbours on
//! the ladder offer to trade temperatures. Cold replicas polish, hot ones wander, and a good
//! state found hot drifts down the ladder: an alternative to restarting one chain at a fixed
//! temperature. Generic over the problem (nothing here is Sudoku-specific) and a `Search`,
//! so headless and the TUI drive it like a `Runner`.

use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};

use crate::anneal::{Problem, Rng, Sample, Search, StopReason, Tally, budget_spent};

/// Uphill deltas up to this many quanta read their probability from a per-slot table.
const TABLE: usize = 32;
/// Energies closer than this are equal.
const EPS: f64 = 1e-9;

/// The ladder and the budget.
#[derive(Debug, Clone, PartialEq)]
pub struct TemperingConfig {
    /// Number of replicas (at least 1).
    pub replicas: usize,
    /// Coldest and hottest temperature; the others are geometric in between.
    pub t_cold: f64,
    pub t_hot: f64,
    /// Metropolis steps per replica between exchange rounds.
    pub sweep: u64,
    /// Stop at or below this energy.
    pub target_energy: Option<f64>,
    /// Budget in steps summed over all replicas.
    pub max_steps: Option<u64>,
    pub time_limit: Option<Duration>,
}

/// `count` temperatures from `cold` to `hot`, geometric.
pub fn ladder(count: usize, cold: f64, hot: f64) -> Vec<f64> {
    if count < 2 {
        return vec![cold];
    }
    let ratio = (hot / cold).powf(1.0 / (count - 1) as f64);
    (0..count).map(|k| cold * ratio.powi(k as i32)).collect()
}

/// The replicas, their ladder and the bookkeeping of a run.
pub struct Tempering<P: Problem> {
    replicas: Vec<P>,
    energies: Vec<f64>,
    /// Temperature of each ladder slot, coldest first.
    temperatures: Vec<f64>,
    /// exp(-d * quantum / T) per slot for d < TABLE.
    tables: Vec<[f64; TABLE]>,
    /// Which replica sits at each slot.
    at_slot: Vec<usize>,
    quantum: f64,
    config: TemperingConfig,
    target: f64,
    rng: Rng,
    iterations: u64,
    best: P::Snapshot,
    best_energy: f64,
    tally: Tally,
    exchanges_tried: u64,
    exchanges_done: u64,
    /// Exchange rounds so far; their parity picks the pairs offered.
    rounds: u64,
    /// Where the current round is: the slot running and its steps so far (a batch may end
    /// inside a round).
    slot: usize,
    slot_steps: u64,
    stopped: Option<StopReason>,
}

impl<P: Problem + Clone> Tempering<P> {
    /// Replica 0 is `problem`; the others are fresh random states from `seed`.
    pub fn new(problem: P, config: TemperingConfig, seed: u64) -> Self {
        let mut rng = Rng::seed_from_u64(seed);
        let count = config.replicas.max(1);
        let mut replicas = vec![problem];
        for _ in 1..count {
            let mut other = replicas[0].clone();
            other.randomize(&mut rng);
            replicas.push(other);
        }
        let energies: Vec<f64> = replicas.iter().map(Problem::energy).collect();
        let quantum = match replicas[0].delta_quantum() {
            q if q > 0.0 => q,
            _ => 1.0,
        };
        let coldest = lowest(&energies);
        let mut tempering = Tempering {
            best: replicas[coldest].snapshot(),
            best_energy: energies[coldest],
            replicas,
            energies,
            temperatures: Vec::new(),
            tables: Vec::new(),
            at_slot: (0..count).collect(),
            quantum,
            target: config.target_energy.unwrap_or(f64::NEG_INFINITY),
            rng,
            iterations: 0,
            tally: Tally::default(),
            exchanges_tried: 0,
            exchanges_done: 0,
            rounds: 0,
            slot: 0,
            slot_steps: 0,
            stopped: None,
            config,
        };
        tempering.set_ladder(tempering.config.t_hot);
        tempering.check_target();
        tempering
    }

    fn set_ladder(&mut self, hot: f64) {
        self.config.t_hot = hot;
        self.temperatures = ladder(self.replicas.len(), self.config.t_cold, hot);
        let quantum = self.quantum;
        self.tables = self
            .temperatures
            .iter()
            .map(|&t| std::array::from_fn(|d| (-(d as f64) * quantum / t.max(1e-300)).exp()))
            .collect();
    }

    pub fn temperatures(&self) -> &[f64] {
        &self.temperatures
    }
    pub fn replicas(&self) -> &[P] {
        &self.replicas
    }
    /// The energy the run keeps for each replica (equal to `replicas()[i].energy()`).
    pub fn energies(&self) -> &[f64] {
        &self.energies
    }
    /// Accepted over offered temperature exchanges so far.
    pub fn exchange_rate(&self) -> f64 {
        self.exchanges_done as f64 / self.exchanges_tried.max(1) as f64
    }

    /// Up to `steps` Metropolis steps on the replica at `slot`, fewer if it reaches the
    /// target; returns the steps done.
    fn run_slot(&mut self, slot: usize, steps: u64) -> u64 {
        let r = self.at_slot[slot];
        let (table, t) = (&self.tables[slot], self.temperatures[slot]);
        let hopeless = 40.0 * t;
        let per_quantum = 1.0 / self.quantum;
        let problem = &mut self.replicas[r];
        let mut energy = self.energies[r];
        let mut accepted = 0;
        let mut done = 0;
        while done < steps {
            done += 1;
            let mv = problem.propose(&mut self.rng);
            let delta = problem.delta(&mv);
            let accept = delta <= 0.0
                || (delta <= hopeless && {
                    let q = delta * per_quantum;
                    let p = if q < TABLE as f64 && q.fract() == 0.0 {
                        table[q as usize]
                    } else {
                        (-delta / t).exp()
                    };
                    self.rng.random::<f64>() < p
                });
            if !accept {
                continue;
            }
            problem.apply(&mv);
            energy += delta;
            accepted += 1;
            // A new best of the whole run: rare (the best only falls), so copy at once.
            if energy < self.best_energy - EPS {
                self.best_energy = energy;
                problem.snapshot_into(&mut self.best);
                if energy <= self.target + EPS {
                    self.stopped = Some(StopReason::Target);
                    break;
                }
            }
        }
        self.energies[r] = energy;
        self.tally.accepted += accepted;
        done
    }

    /// Offers each neighbour pair of one parity (alternating between rounds) an exchange.
    fn exchange(&mut self) {
        let start = (self.rounds % 2) as usize;
        self.rounds += 1;
        for slot in (start..self.temperatures.len().saturating_sub(1)).step_by(2) {
            let (a, b) = (self.at_slot[slot], self.at_slot[slot + 1]);
            let (ta, tb) = (self.temperatures[slot], self.temperatures[slot + 1]);
            let log_p = (self.energies[a] - self.energies[b]) * (1.0 / ta - 1.0 / tb);
            self.exchanges_tried += 1;
            if log_p >= 0.0 || self.rng.random::<f64>() < log_p.exp() {
                self.at_slot.swap(slot, slot + 1);
                self.exchanges_done += 1;
            }
        }
    }

    fn check_target(&mut self) {
        if self.best_energy <= self.target + EPS {
            self.stopped = Some(StopReason::Target);
        }
    }

    fn check_budget(&mut self) {
        self.stopped = budget_spent(
            self.config.max_steps,
            self.config.time_limit,
            self.iterations,
            self.tally.elapsed,
        );
    }

    /// The replica with the lowest current energy.
    fn leader(&self) -> usize {
        lowest(&self.energies)
    }
}

fn lowest(energies: &[f64]) -> usize {
    (0..energies.len())
        .min_by(|&a, &b| energies[a].total_cmp(&energies[b]))
        .unwrap_or(0)
}

impl<P: Problem + Clone + Send + 'static> Search for Tempering<P> {
    type Snapshot = P::Snapshot;

    /// Rounds of `sweep` steps per replica, then an exchange; a batch may end mid-round.
    fn step_batch(&mut self, n: u64) -> u64 {
        if self.stopped.is_some() {
            return 0;
        }
        let started = Instant::now();
        let first = self.iterations;
        let sweep = self.config.sweep.max(1);
        while self.iterations - first < n && self.stopped.is_none() {
            let steps = (sweep - self.slot_steps).min(n - (self.iterations - first));
            let done = self.run_slot(self.slot, steps);
            self.iterations += done;
            self.slot_steps += done;
            if self.slot_steps == sweep {
                self.slot_steps = 0;
                self.slot += 1;
                if self.slot == self.temperatures.len() {
                    self.slot = 0;
                    self.exchange();
                }
            }
        }
        self.tally.proposed += self.iterations - first;
        self.tally.elapsed += started.elapsed();
        if self.stopped.is_none() {
            self.check_budget();
        }
        self.iterations - first
    }

    fn sample(&mut self) -> Sample {
        self.tally.sample(
            self.iterations,
            self.temperatures[0],
            self.energies[self.at_slot[0]],
            self.best_energy,
        )
    }

    fn stopped(&self) -> Option<StopReason> {
        self.stopped
    }

    fn snapshot(&self) -> P::Snapshot {
        self.replicas[self.leader()].snapshot()
    }

    fn best_snapshot(&mut self) -> P::Snapshot {
        self.best.clone()
    }

    /// Makes `temperature` the hottest rung of the ladder (the coldest stays).
    fn reheat(&mut self, temperature: f64) {
        self.tally.reheats += 1;
        self.set_ladder(temperature.max(self.config.t_cold));
    }

    /// Fresh random states for every replica.
    fn restart(&mut self) {
        self.tally.restarts += 1;
        self.stopped = None;
        for (problem, energy) in self.replicas.iter_mut().zip(&mut self.energies) {
            problem.randomize(&mut self.rng);
            *energy = problem.energy();
        }
    }
}
