//! Constraint weighting ("breakout", as PAWS and SAPS do for SAT): every constraint carries a
//! weight, starting at 1, and the search runs Metropolis on the summed weights of the
//! violated constraints. When the weighted energy has not reached a new low for a window of
//! steps, the constraints violated then gain weight, so the minimum the chain sits in rises
//! until a neighbouring state is cheaper; every few raises all weights fall back by one
//! towards 1, so old minima are forgotten. The weighted energy is 0 exactly when the true
//! one is, and samples and reports carry the true energy. Generic over any `Weighted`
//! problem (nothing here is Sudoku-specific).

use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};

use crate::anneal::{Problem, Rng, Sample, Search, StopReason, Tally, budget_spent};

/// A problem whose energy counts violated constraints, so each can carry a weight.
pub trait Weighted: Problem {
    /// Number of constraints: weights are indexed 0..this.
    fn constraint_count(&self) -> usize;
    /// Change in the summed weights of the violated constraints that `mv` would cause.
    fn weighted_delta(&self, mv: &Self::Move, weights: &[u32]) -> i64;
    /// Calls `f` with every violated constraint.
    fn for_each_violated(&self, f: impl FnMut(usize));
}

/// Uphill weighted deltas below this read their acceptance probability from a table.
const TABLE: usize = 64;

/// The temperature and the weight schedule.
#[derive(Debug, Clone, PartialEq)]
pub struct WeightingConfig {
    /// Metropolis temperature on the weighted energy (0: only moves that do not go uphill).
    pub temperature: f64,
    /// Steps without a new low of the weighted energy before the violated constraints
    /// gain weight.
    pub window: u64,
    /// After this many raises every weight above 1 drops by 1 (0: never).
    pub decay_every: u64,
    /// Steps without a new best (true) energy of the current restart before a fresh random
    /// state with every weight back at 1 (None: never).
    pub restart_after: Option<u64>,
    /// Stop at or below this (true) energy.
    pub target_energy: Option<f64>,
    pub max_steps: Option<u64>,
    pub time_limit: Option<Duration>,
}

/// One chain on the weighted energy, with its weights and the bookkeeping of a run.
pub struct Breakout<P: Problem> {
    problem: P,
    weights: Vec<u32>,
    /// Summed weights of the violated constraints.
    weighted: i64,
    /// The problem's own energy.
    energy: f64,
    /// exp(-d / T) for d < TABLE.
    table: [f64; TABLE],
    config: WeightingConfig,
    target: f64,
    rng: Rng,
    /// Lowest weighted energy since the last raise, and the steps since it was reached.
    low: i64,
    since_low: u64,
    raises: u64,
    /// Best true energy of the current restart, and the steps since it was reached.
    restart_best: f64,
    since_best: u64,
    iterations: u64,
    best: P::Snapshot,
    best_energy: f64,
    tally: Tally,
    stopped: Option<StopReason>,
    /// Scratch for the violated constraints.
    violated: Vec<usize>,
}

impl<P: Weighted> Breakout<P> {
    /// Starts from `problem`'s state with every weight 1.
    pub fn new(problem: P, config: WeightingConfig, seed: u64) -> Self {
        let energy = problem.energy();
        let mut search = Breakout {
            weights: vec![1; problem.constraint_count()],
            weighted: 0,
            energy,
            table: [0.0; TABLE],
            target: config.target_energy.unwrap_or(f64::NEG_INFINITY),
            rng: Rng::seed_from_u64(seed),
            low: 0,
            since_low: 0,
            raises: 0,
            restart_best: energy,
            since_best: 0,
            iterations: 0,
            best: problem.snapshot(),
            best_energy: energy,
            tally: Tally::default(),
            stopped: None,
            violated: Vec::new(),
            problem,
            config,
        };
        search.set_temperature(search.config.temperature);
        search.resync();
        search
    }

    pub fn problem(&self) -> &P {
        &self.problem
    }
    pub fn weights(&self) -> &[u32] {
        &self.weights
    }
    /// The summed weights of the violated constraints, as the search keeps it.
    pub fn weighted_energy(&self) -> i64 {
        self.weighted
    }
    /// How often the violated constraints have gained weight.
    pub fn raises(&self) -> u64 {
        self.raises
    }

    fn set_temperature(&mut self, t: f64) {
        self.config.temperature = t.max(0.0);
        let t = self.config.temperature;
        self.table = std::array::from_fn(|d| {
            if t > 0.0 {
                (-(d as f64) / t).exp()
            } else {
                (d == 0) as u8 as f64
            }
        });
    }

    /// Recomputes the violated constraints and the weighted energy from the state, and
    /// starts a new low.
    fn resync(&mut self) {
        self.violated.clear();
        let violated = &mut self.violated;
        self.problem.for_each_violated(|c| violated.push(c));
        self.weighted = self.violated.iter().map(|&c| self.weights[c] as i64).sum();
        self.low = self.weighted;
        self.since_low = 0;
    }

    /// Raises the weights of the violated constraints by one (every `decay_every` raises,
    /// first lowers every weight above 1 by one).
    fn raise(&mut self) {
        self.raises += 1;
        let decay = self.config.decay_every;
        if decay > 0 && self.raises.is_multiple_of(decay) {
            for w in &mut self.weights {
                *w = (*w - 1).max(1);
            }
        }
        self.resync();
        for &c in &self.violated {
            self.weights[c] += 1;
        }
        self.weighted += self.violated.len() as i64;
        self.low = self.weighted;
    }

    /// A fresh random state with every weight back at 1.
    fn start_over(&mut self) {
        self.tally.restarts += 1;
        self.problem.randomize(&mut self.rng);
        self.energy = self.problem.energy();
        self.weights.fill(1);
        self.restart_best = self.energy;
        self.since_best = 0;
        self.resync();
    }

    /// Up to `steps` Metropolis steps on the weighted energy; fewer if the target is hit.
    fn run(&mut self, steps: u64) -> u64 {
        let t = self.config.temperature;
        let hopeless = 40.0 * t;
        let mut done = 0;
        while done < steps {
            done += 1;
            let mv = self.problem.propose(&mut self.rng);
            let delta = self.problem.weighted_delta(&mv, &self.weights);
            let accept = delta <= 0
                || ((delta as f64) <= hopeless && {
                    let p = match self.table.get(delta as usize) {
                        Some(&p) => p,
                        None => (-(delta as f64) / t).exp(),
                    };
                    self.rng.random::<f64>() < p
                });
            if accept {
                self.energy += self.problem.delta(&mv);
                self.problem.apply(&mv);
                self.weighted += delta;
                self.tally.accepted += 1;
                if self.energy < self.restart_best {
                    self.restart_best = self.energy;
                    self.since_best = 0;
                }
                if self.energy < self.best_energy {
                    self.best_energy = self.energy;
                    self.problem.snapshot_into(&mut self.best);
                }
                if self.energy <= self.target {
                    self.stopped = Some(StopReason::Target);
                    break;
                }
            }
            self.since_best += 1;
            if self
                .config
                .restart_after
                .is_some_and(|w| self.since_best >= w)
            {
                self.start_over();
                continue;
            }
            if self.weighted < self.low {
                self.low = self.weighted;
                self.since_low = 0;
            } else {
                self.since_low += 1;
                if self.since_low >= self.config.window {
                    self.raise();
                }
            }
        }
        done
    }

    fn check_budget(&mut self) {
        self.stopped = budget_spent(
            self.config.max_steps,
            self.config.time_limit,
            self.iterations,
            self.tally.elapsed,
        );
    }
}

impl<P: Weighted + Send + 'static> Search for Breakout<P> {
    type Snapshot = P::Snapshot;

    fn step_batch(&mut self, n: u64) -> u64 {
        if self.stopped.is_some() {
            return 0;
        }
        let started = Instant::now();
        let steps = match self.config.max_steps {
            Some(max) => n.min(max.saturating_sub(self.iterations)),
            None => n,
        };
        let done = self.run(steps);
        self.iterations += done;
        self.tally.proposed += done;
        self.tally.elapsed += started.elapsed();
        if self.stopped.is_none() {
            self.check_budget();
        }
        done
    }

    fn sample(&mut self) -> Sample {
        self.tally.sample(
            self.iterations,
            self.config.temperature,
            self.energy,
            self.best_energy,
        )
    }

    fn stopped(&self) -> Option<StopReason> {
        self.stopped
    }

    fn snapshot(&self) -> P::Snapshot {
        self.problem.snapshot()
    }

    fn best_snapshot(&mut self) -> P::Snapshot {
        self.best.clone()
    }

    /// Sets the temperature (weights stay).
    fn reheat(&mut self, temperature: f64) {
        self.tally.reheats += 1;
        self.set_temperature(temperature);
    }

    fn restart(&mut self) {
        self.stopped = None;
        self.start_over();
    }
}
