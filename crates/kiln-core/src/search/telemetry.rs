//! What every search reports, whatever it is: which phase it is in, the one number that
//! steers it (if it has one), energies, counters, and why it ended.

use std::time::Duration;

/// Which kind of search produced a sample: what a display or a report names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Phase {
    /// Simulated annealing: random moves accepted by the Metropolis rule.
    #[default]
    Anneal,
    /// Conflict-driven clause learning: decisions, propagation and learnt clauses.
    ConflictLearning,
    /// A genetic algorithm: a population bred and mutated.
    Genetic,
    /// Local search after annealing: greedy descents, and kicks taken or refused by a
    /// falling threshold (a TSP's iterated local search).
    LocalSearch,
    /// An exact polish of an annealed result (the image's strip descents and minimum cuts):
    /// it only ever lowers the energy, and has no temperature.
    Polish,
    /// Annealing again from the best tour at a lower temperature, when the local search's
    /// kicks stall (a TSP run's later rounds).
    Reanneal,
}

impl Phase {
    /// The phase in a few words, e.g. "conflict learning".
    pub fn name(self) -> &'static str {
        match self {
            Phase::Anneal => "annealing",
            Phase::ConflictLearning => "conflict learning",
            Phase::Genetic => "genetic algorithm",
            Phase::LocalSearch => "local search",
            Phase::Polish => "exact polish",
            Phase::Reanneal => "re-annealing",
        }
    }

    /// The phase [`Phase::name`] names, e.g. when a trace is read back.
    pub fn named(name: &str) -> Option<Phase> {
        [
            Phase::Anneal,
            Phase::ConflictLearning,
            Phase::Genetic,
            Phase::LocalSearch,
            Phase::Polish,
            Phase::Reanneal,
        ]
        .into_iter()
        .find(|phase| phase.name() == name)
    }

    /// The phase as the JSON reports name it, e.g. "conflict-learning" (docs/json.md).
    pub fn key(self) -> &'static str {
        match self {
            Phase::Anneal => "anneal",
            Phase::ConflictLearning => "conflict-learning",
            Phase::Genetic => "genetic",
            Phase::LocalSearch => "local-search",
            Phase::Polish => "polish",
            Phase::Reanneal => "reanneal",
        }
    }
}

/// One phase of a run as it was planned: which, and its share of the run's budget.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Planned {
    /// The phase.
    pub phase: Phase,
    /// Its share of the budget, 0..=1.
    pub share: f64,
    /// Whether the phase takes exactly that share or may take less or more of it.
    pub bound: Bound,
}

/// How a phase's planned share binds it: a phase capped in steps within a time budget
/// ends when either runs out, so of the time it takes at most its share (and the phase
/// after it at least the rest).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The phase takes its share.
    Exactly,
    /// It may end sooner.
    AtMost,
    /// It may start sooner, and take more.
    AtLeast,
}

impl Bound {
    /// The share written with its bound, e.g. "≤20%".
    pub fn show(self, share: f64) -> String {
        let sign = match self {
            Bound::Exactly => "",
            Bound::AtMost => "≤",
            Bound::AtLeast => "≥",
        };
        format!("{sign}{:.0}%", share * 100.0)
    }
}

/// What one phase of a run did: its steps and its time, summed over the chains that ran
/// it side by side (a report's `phases`, docs/json.md).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PhaseWork {
    /// Which search ran.
    pub phase: Phase,
    /// Chains that ran the phase side by side.
    pub chains: usize,
    /// Steps (proposals, solver work or evaluations) taken in the phase.
    pub steps: u64,
    /// Time spent in the phase, summed over its chains.
    pub time: Duration,
}

impl PhaseWork {
    /// What one chain of `sample`'s phase did, as `sample` counts it.
    pub fn of(sample: &Sample) -> Self {
        PhaseWork {
            phase: sample.phase,
            chains: 1,
            steps: sample.iteration,
            time: sample.elapsed,
        }
    }

    /// `works` with each phase once, in the order phases first appear, their chains,
    /// steps and times added up.
    pub fn merged(works: impl IntoIterator<Item = PhaseWork>) -> Vec<PhaseWork> {
        let mut merged: Vec<PhaseWork> = Vec::new();
        for work in works {
            match merged.iter_mut().find(|m| m.phase == work.phase) {
                Some(m) => {
                    m.chains += work.chains;
                    m.steps += work.steps;
                    m.time += work.time;
                }
                None => merged.push(work),
            }
        }
        merged
    }
}

/// The number that steers a search, named for what it is: annealing has a temperature, a
/// genetic algorithm a mutation rate, conflict learning nothing of the kind.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Control {
    /// An annealing temperature.
    Temperature(f64),
    /// A genetic algorithm's mutation rate (a probability per child).
    MutationRate(f64),
    /// A local search's acceptance threshold: how much longer than the state it came from
    /// a new one may be and still be taken.
    Threshold(f64),
    /// The search has no such number.
    #[default]
    None,
}

impl Control {
    /// The temperature, for a search that has one.
    pub fn temperature(self) -> Option<f64> {
        match self {
            Control::Temperature(t) => Some(t),
            _ => None,
        }
    }

    /// The number as a curve draws it (a temperature or a rate; 0 for none).
    pub fn level(self) -> f64 {
        match self {
            Control::Temperature(x) | Control::MutationRate(x) | Control::Threshold(x) => x,
            Control::None => 0.0,
        }
    }
}

impl Control {
    /// What the number is called on screen ("Temperature", "Threshold"); `None` for a
    /// search that has no such number.
    pub fn label(self) -> Option<&'static str> {
        match self {
            Control::Temperature(_) => Some("Temperature"),
            Control::MutationRate(_) => Some("Mutation rate"),
            Control::Threshold(_) => Some("Threshold"),
            Control::None => None,
        }
    }
}

/// Why a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The energy reached the budget's target.
    Target,
    /// The step budget is spent.
    MaxSteps,
    /// The time budget is spent.
    TimeLimit,
    /// Stopped from outside: the UI, an observer or a caller.
    Stopped,
    /// A signal (SIGINT, SIGTERM, SIGHUP) asked a headless run to stop.
    Interrupted,
    /// The search proved that no state reaches the target (a Sudoku with no solution,
    /// refuted by conflict learning).
    Refuted,
}

/// One telemetry record: cheap to make, sent every batch.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Sample {
    /// Which search took the steps.
    pub phase: Phase,
    /// Steps taken since the run began (proposals, solver work or evaluations).
    pub iteration: u64,
    /// The number that steers the search now, if it has one.
    pub control: Control,
    /// Energy of the current state.
    pub energy: f64,
    /// Lowest energy seen in the whole run, across restarts and reheats.
    pub best_energy: f64,
    /// Accepted / proposed since the previous sample (0 for a search without moves).
    pub acceptance: f64,
    /// Restarts since the run began.
    pub restarts: u64,
    /// Reheats since the run began.
    pub reheats: u64,
    /// Time spent searching (pauses excluded).
    pub elapsed: Duration,
}

/// The result of a finished run.
#[derive(Debug, Clone)]
pub struct Outcome<S> {
    /// The best state found and its energy.
    pub best: S,
    /// Energy of `best`.
    pub energy: f64,
    /// Steps taken in all.
    pub iterations: u64,
    /// Restarts in all.
    pub restarts: u64,
    /// Reheats in all.
    pub reheats: u64,
    /// Time spent searching (pauses excluded).
    pub elapsed: Duration,
    /// Why the run ended.
    pub reason: StopReason,
}
