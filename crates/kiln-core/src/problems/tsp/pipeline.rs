//! A TSP run as one search of named phases: annealing, then (unless annealing is all that
//! was asked for) a local search from the best annealed tour, the iterated one with kicks
//! or a single greedy descent. The live view and the headless run step this same value,
//! so the same seed and step budget end on the same tour whoever watches.

use std::time::{Duration, Instant};

use rand::SeedableRng;

use super::ils::{self, Descent, KickStats, Kicks};
use super::problem::{TspProblem, TspSnapshot};
use crate::anneal::{Problem, Runner};
use crate::search::{
    Control, Explained, Outcome, Phase, PhaseWork, Rng, Sample, Search, StopReason,
};
use crate::search::{EPS, interrupt};

/// What follows the anneal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Then {
    /// Nothing: annealing alone.
    Nothing,
    /// One greedy descent from the best annealed tour.
    Descent,
    /// The iterated local search, its kicks drawn from this seed.
    Kicks {
        /// The kicks' own seed.
        seed: u64,
    },
}

/// The local search after the anneal, on a copy of the problem.
struct LocalSearch {
    problem: TspProblem,
    way: Way,
    /// The energy of the tour it started from.
    annealed: f64,
    /// Its stats at the previous sample, for the acceptance since then.
    sampled: KickStats,
    elapsed: Duration,
    stopped: Option<StopReason>,
    /// Why the anneal before it ended: the run's reason if the local search runs out of
    /// things to do before its budget (a descent at its local optimum, a tiny tour).
    anneal_reason: StopReason,
}

enum Way {
    Descent {
        descent: Descent,
        deadline: Option<Instant>,
        stats: KickStats,
        energy: f64,
    },
    Kicks(Box<Kicks>),
}

impl LocalSearch {
    fn stats(&self) -> KickStats {
        match &self.way {
            Way::Descent { stats, .. } => *stats,
            Way::Kicks(kicks) => kicks.stats(),
        }
    }

    fn energy(&self) -> f64 {
        match &self.way {
            Way::Descent { energy, .. } => *energy,
            // Ended, the kicks leave the best tour in the problem.
            Way::Kicks(kicks) if self.stopped.is_some() => kicks.best_energy(),
            Way::Kicks(kicks) => kicks.current_energy(),
        }
    }

    fn best_energy(&self) -> f64 {
        match &self.way {
            Way::Descent { energy, .. } => *energy,
            Way::Kicks(kicks) => kicks.best_energy(),
        }
    }

    fn threshold(&self) -> f64 {
        match &self.way {
            // A greedy descent takes only moves that shorten the tour.
            Way::Descent { .. } => 0.0,
            Way::Kicks(kicks) => kicks.threshold(),
        }
    }

    /// One descent, or one kick and its descent; returns its evaluations.
    fn step(&mut self) -> u64 {
        let started = Instant::now();
        let done = match &mut self.way {
            Way::Descent {
                descent,
                deadline,
                stats,
                energy,
            } => {
                let descended = descent.run(&mut self.problem, *deadline);
                stats.evaluations += descended.evaluations;
                *energy += descended.delta;
                self.stopped = Some(if interrupt::requested().is_some() {
                    StopReason::Interrupted
                } else if !descended.local_optimum {
                    StopReason::TimeLimit
                } else {
                    self.anneal_reason
                });
                descended.evaluations.max(1)
            }
            Way::Kicks(kicks) => {
                let done = kicks.step(&mut self.problem);
                if kicks.ended() {
                    kicks.finish(&mut self.problem);
                    self.stopped = Some(kicks.reason().unwrap_or(self.anneal_reason));
                }
                done
            }
        };
        self.elapsed += started.elapsed();
        done
    }
}

/// Annealing, then the local search `Then` names, as one [`Search`].
pub struct TspPipeline {
    runner: Runner<TspProblem>,
    then: Then,
    /// The local search's budget; a run revived after its end (a reheat or restart) gets
    /// one as large in evaluations, with no deadline of its own.
    budget: ils::Budget,
    local: Option<LocalSearch>,
    /// The best tour of local searches that a reheat or restart left behind.
    kept: Option<(f64, Vec<u32>)>,
    /// Evaluations and time of those local searches.
    earlier: (u64, Duration),
}

/// What a finished pipeline hands over.
pub struct PipelineOutcome {
    /// The best tour found and its energy.
    pub best: TspSnapshot,
    /// Energy of `best`.
    pub energy: f64,
    /// The anneal's own outcome (its best tour is the one the local search started from).
    pub anneal: Outcome<TspSnapshot>,
    /// What the local search did (all zero when none ran).
    pub local: KickStats,
    /// Time the local search took.
    pub local_elapsed: Duration,
    /// Whether a local search ran (not when the anneal reached the target, say).
    pub local_ran: bool,
    /// Energy of the tour the local search started from.
    pub annealed_energy: f64,
    /// Which phase found `best`.
    pub found_by: Phase,
    /// Why the whole run ended.
    pub reason: StopReason,
}

impl TspPipeline {
    /// Anneals with `runner`, then does `then` within `budget` (its target is the
    /// runner's, if the annealed tour does not undercut it).
    pub fn new(runner: Runner<TspProblem>, then: Then, budget: ils::Budget) -> Self {
        let mut pipeline = TspPipeline {
            runner,
            then,
            budget,
            local: None,
            kept: None,
            earlier: (0, Duration::ZERO),
        };
        // A start tour already below a stated optimum shows it is none.
        pipeline.after_anneal_batch();
        pipeline
    }

    /// The phase running now (or that ran last).
    pub fn phase(&self) -> Phase {
        match self.local {
            Some(_) => Phase::LocalSearch,
            None => Phase::Anneal,
        }
    }

    /// Whether the anneal's end starts a local search.
    fn goes_on(&self, reason: StopReason) -> bool {
        self.then != Then::Nothing && matches!(reason, StopReason::MaxSteps | StopReason::TimeLimit)
    }

    /// After a batch of the anneal: a stated optimum the tour went below was none, so the
    /// anneal goes on without it.
    fn after_anneal_batch(&mut self) {
        if self.runner.stopped() == Some(StopReason::Target) {
            let target = self.runner.config().budget.target.unwrap_or(f64::INFINITY);
            if self.runner.best().1 < target - 0.5 {
                self.runner.forget_target();
            }
        }
    }

    /// Starts the local search from the best annealed tour.
    fn start_local(&mut self, anneal_reason: StopReason) {
        let mut problem = self.runner.problem().clone();
        let (best, annealed) = self.runner.best();
        problem.set_order(&best.tour);
        let budget = ils::Budget {
            target: self
                .runner
                .config()
                .budget
                .target
                .filter(|&t| annealed >= t - EPS),
            ..self.budget
        };
        let way = match self.then {
            Then::Kicks { seed } => Way::Kicks(Box::new(Kicks::new(
                &problem,
                Rng::seed_from_u64(seed),
                budget,
            ))),
            _ => {
                let mut descent = Descent::new(problem.order().len());
                descent.queue_all();
                Way::Descent {
                    descent,
                    deadline: budget.deadline,
                    stats: KickStats::default(),
                    energy: annealed,
                }
            }
        };
        self.local = Some(LocalSearch {
            problem,
            way,
            annealed,
            sampled: KickStats::default(),
            elapsed: Duration::ZERO,
            stopped: None,
            anneal_reason,
        });
    }

    /// Leaves the local search (a reheat or restart goes back to annealing), keeping its
    /// best tour.
    fn back_to_annealing(&mut self) {
        let Some(local) = self.local.take() else {
            return;
        };
        let energy = local.best_energy();
        let tour = match &local.way {
            Way::Kicks(kicks) => kicks.best_order(&local.problem),
            Way::Descent { .. } => local.problem.order().to_vec(),
        };
        if self.kept.as_ref().is_none_or(|(e, _)| energy < *e) {
            self.kept = Some((energy, tour));
        }
        self.earlier.0 += local.stats().evaluations;
        self.earlier.1 += local.elapsed;
        // A revived run's local search has a fresh budget, with no deadline of its own.
        self.budget.deadline = None;
    }

    /// Evaluations and time of all local searches so far.
    fn local_spent(&self) -> (u64, Duration) {
        let (mut evaluations, mut elapsed) = self.earlier;
        if let Some(local) = &self.local {
            evaluations += local.stats().evaluations;
            elapsed += local.elapsed;
        }
        (evaluations, elapsed)
    }

    /// The best energy of the whole run, and the phase that found it, given the anneal's.
    fn best_of(&self, annealed: f64) -> (f64, Phase) {
        let mut best = (annealed, Phase::Anneal);
        let local = self.local.as_ref().map(LocalSearch::best_energy);
        let kept = self.kept.as_ref().map(|(e, _)| *e);
        for energy in local.into_iter().chain(kept) {
            if energy < best.0 - EPS {
                best = (energy, Phase::LocalSearch);
            }
        }
        best
    }

    /// The best energy of the whole run, and the phase that found it.
    fn best(&mut self) -> (f64, Phase) {
        let annealed = self.runner.best().1;
        self.best_of(annealed)
    }

    fn best_tour(&mut self) -> TspSnapshot {
        let (energy, phase) = self.best();
        let mut snapshot = self.runner.best().0.clone();
        if phase == Phase::LocalSearch {
            let local = self
                .local
                .as_ref()
                .filter(|l| l.best_energy() <= energy + EPS);
            snapshot.tour = match local {
                Some(local) => match &local.way {
                    Way::Kicks(kicks) => kicks.best_order(&local.problem),
                    Way::Descent { .. } => local.problem.order().to_vec(),
                },
                None => self
                    .kept
                    .as_ref()
                    .map(|(_, t)| t.clone())
                    .unwrap_or_default(),
            };
        }
        snapshot
    }

    /// Ends the run and hands over its best tour and what each phase did.
    pub fn finish(mut self) -> PipelineOutcome {
        let (energy, found_by) = self.best();
        let best = self.best_tour();
        let reason = self.stopped().unwrap_or(StopReason::Stopped);
        let (evaluations, local_elapsed) = self.local_spent();
        let (mut local, annealed_energy) = match &self.local {
            Some(l) => (l.stats(), l.annealed),
            None => (KickStats::default(), self.runner.best().1),
        };
        local.evaluations = evaluations;
        PipelineOutcome {
            best,
            energy,
            anneal: self.runner.finish(),
            local,
            local_elapsed,
            local_ran: self.local.is_some() || self.kept.is_some(),
            annealed_energy,
            found_by,
            reason,
        }
    }
}

impl Search for TspPipeline {
    type Snapshot = TspSnapshot;

    /// A batch stops where a phase ends, so every sample belongs to one phase; a batch of
    /// the local search takes whole kicks, and may go past `n`.
    fn step_batch(&mut self, n: u64) -> u64 {
        if self.stopped().is_some() {
            return 0;
        }
        if self.local.is_none() {
            match self.runner.stopped() {
                Some(reason) => self.start_local(reason),
                None => {
                    let done = self.runner.step_batch(n);
                    self.after_anneal_batch();
                    return done;
                }
            }
        }
        let Some(local) = &mut self.local else {
            return 0;
        };
        let mut done = 0;
        while done < n && local.stopped.is_none() {
            done += local.step();
        }
        done
    }

    fn step_explained(&mut self) -> Option<Explained> {
        if self.local.is_none() && self.runner.stopped().is_none() {
            let told = self.runner.step_explained();
            self.after_anneal_batch();
            return told;
        }
        self.step_batch(1);
        None
    }

    fn sample(&mut self) -> Sample {
        let mut sample = self.runner.sample();
        // The anneal's best as its sample counts it: finding its tour would copy it.
        let (best_energy, _) = self.best_of(sample.best_energy);
        let (evaluations, elapsed) = self.local_spent();
        sample.iteration += evaluations;
        sample.elapsed += elapsed;
        sample.best_energy = best_energy;
        if let Some(local) = &mut self.local {
            let stats = local.stats();
            let kicks = stats.kicks - local.sampled.kicks;
            let taken = stats.taken - local.sampled.taken;
            local.sampled = stats;
            sample.phase = Phase::LocalSearch;
            sample.control = Control::Threshold(local.threshold());
            sample.energy = local.energy();
            sample.acceptance = if kicks == 0 {
                0.0
            } else {
                taken as f64 / kicks as f64
            };
        } else if self.stopped().is_some() {
            // Annealing alone ends on its best tour, the run's result.
            sample.energy = best_energy;
        }
        sample
    }

    fn stopped(&self) -> Option<StopReason> {
        match &self.local {
            Some(local) => local.stopped,
            None => self.runner.stopped().filter(|&r| !self.goes_on(r)),
        }
    }

    fn snapshot(&self) -> TspSnapshot {
        match &self.local {
            Some(local) => local.problem.snapshot(),
            None => self.runner.problem().snapshot(),
        }
    }

    fn best_snapshot(&mut self) -> TspSnapshot {
        self.best_tour()
    }

    fn reheat(&mut self, temperature: f64) {
        self.back_to_annealing();
        self.runner.reheat(temperature);
    }

    fn restart(&mut self) {
        self.back_to_annealing();
        self.runner.restart();
    }

    /// The anneal's steps, then the local searches' evaluations, as a report counts them.
    fn phases(&mut self) -> Vec<PhaseWork> {
        let annealed = self.runner.sample();
        let mut phases = vec![PhaseWork {
            phase: Phase::Anneal,
            chains: 1,
            steps: annealed.iteration,
            time: annealed.elapsed,
        }];
        if self.local.is_some() || self.kept.is_some() {
            let (steps, time) = self.local_spent();
            phases.push(PhaseWork {
                phase: Phase::LocalSearch,
                chains: 1,
                steps,
                time,
            });
        }
        phases
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::anneal::{RunConfig, Schedule};
    use crate::problems::tsp::random::{self, Layout};
    use crate::problems::tsp::{Cost, Init, MoveSet};

    /// A 120-city run of `steps` anneal steps, then `then` for `evaluations`.
    fn pipeline(then: Then, steps: u64, evaluations: u64) -> TspPipeline {
        let instance = Arc::new(random::instance(120, Layout::Uniform, 7));
        let mut rng = Rng::seed_from_u64(7);
        let problem = TspProblem::new(
            instance,
            MoveSet::TwoOpt,
            Cost::Euclidean,
            5,
            Init::Nearest,
            &mut rng,
        );
        let mut config = RunConfig::new(Schedule::Linear { t_min: 1.0 }, 200.0);
        config.budget.max_steps = Some(steps);
        let budget = ils::Budget {
            evaluations,
            deadline: None,
            target: None,
        };
        TspPipeline::new(Runner::new(problem, config, 7), then, budget)
    }

    /// Steps `p` to its end in batches of `batch`, sampling after each; the samples.
    fn run(p: &mut TspPipeline, batch: u64) -> Vec<Sample> {
        let mut samples = vec![p.sample()];
        while p.stopped().is_none() {
            p.step_batch(batch);
            samples.push(p.sample());
        }
        samples
    }

    #[test]
    fn the_tour_does_not_depend_on_how_the_steps_are_batched() {
        let kicks = Then::Kicks { seed: 3 };
        let ends: Vec<_> = [1, 997, 16_384, u64::MAX]
            .into_iter()
            .map(|batch| {
                let mut p = pipeline(kicks, 20_000, 200_000);
                run(&mut p, batch);
                let outcome = p.finish();
                (outcome.best.tour, outcome.energy, outcome.local.kicks)
            })
            .collect();
        assert!(ends[0].2 > 10, "{} kicks", ends[0].2);
        for end in &ends[1..] {
            assert_eq!(end, &ends[0]);
        }
    }

    #[test]
    fn samples_name_each_phase_and_the_best_goes_on_across_them() {
        let mut p = pipeline(Then::Kicks { seed: 3 }, 20_000, 200_000);
        let samples = run(&mut p, 2048);
        let first_local = samples
            .iter()
            .position(|s| s.phase == Phase::LocalSearch)
            .expect("a local search");
        assert!(
            samples[..first_local]
                .iter()
                .all(|s| s.phase == Phase::Anneal && matches!(s.control, Control::Temperature(_)))
        );
        assert!(
            samples[first_local..]
                .iter()
                .all(|s| s.phase == Phase::LocalSearch
                    && matches!(s.control, Control::Threshold(t) if t >= 0.0))
        );
        // The anneal's batches end where it ends: its last sample has all its steps.
        assert_eq!(samples[first_local - 1].iteration, 20_000);
        for pair in samples.windows(2) {
            assert!(pair[1].best_energy <= pair[0].best_energy);
            assert!(pair[1].iteration >= pair[0].iteration);
        }
        // The run ends on its best tour, and says why it ended.
        let last = samples.last().unwrap();
        assert_eq!(last.energy, last.best_energy);
        assert_eq!(p.snapshot().length() as f64, last.energy);
        assert_eq!(p.stopped(), Some(StopReason::MaxSteps));
        let outcome = p.finish();
        assert_eq!(outcome.best.length() as f64, outcome.energy);
        assert_eq!(outcome.energy, last.best_energy);
        assert!(outcome.local.evaluations >= 200_000);
        assert!(outcome.energy <= outcome.annealed_energy);
    }

    #[test]
    fn annealing_alone_ends_on_its_best_tour_and_a_descent_takes_no_uphill_step() {
        let mut alone = pipeline(Then::Nothing, 20_000, 0);
        let samples = run(&mut alone, 4096);
        assert!(samples.iter().all(|s| s.phase == Phase::Anneal));
        let last = samples.last().unwrap();
        assert_eq!(last.energy, last.best_energy);
        assert_eq!(alone.finish().found_by, Phase::Anneal);

        let mut descent = pipeline(Then::Descent, 20_000, u64::MAX);
        let samples = run(&mut descent, 4096);
        let last = samples.last().unwrap();
        assert_eq!(
            (last.phase, last.control),
            (Phase::LocalSearch, Control::Threshold(0.0))
        );
        // A descent at its local optimum leaves the anneal's reason.
        assert_eq!(descent.stopped(), Some(StopReason::MaxSteps));
    }

    #[test]
    fn a_reheat_in_the_local_search_anneals_again_and_keeps_the_best() {
        let mut p = pipeline(Then::Kicks { seed: 3 }, 20_000, 100_000);
        run(&mut p, 4096);
        let best = p.sample().best_energy;
        p.reheat(200.0);
        assert_eq!(p.stopped(), None);
        assert_eq!(p.phase(), Phase::Anneal);
        let samples = run(&mut p, 4096);
        assert!(samples.iter().all(|s| s.best_energy <= best));
        assert_eq!(p.phase(), Phase::LocalSearch);
        let outcome = p.finish();
        assert!(outcome.energy <= best);
        assert_eq!(outcome.best.length() as f64, outcome.energy);
    }
}
