//! A TSP run as one search of named phases: annealing, then (unless annealing is all that
//! was asked for) a local search from the best annealed tour, the iterated one with kicks
//! or a single greedy descent. The live view and the headless run step this same value,
//! so the same seed and step budget end on the same tour whoever watches.

use std::time::{Duration, Instant};

use rand::SeedableRng;

use super::ils::{self, Descent, Halt, KickStats, Kicks};
use super::problem::{TspProblem, TspSnapshot};
use super::trial::TrialTours;
use crate::anneal::{Problem, Runner};
use crate::search::{
    Control, Explained, Outcome, Phase, PhaseWork, Rng, Sample, Search, StopReason,
};
use crate::search::{EPS, interrupt, postpone};

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
        descent: Box<Descent>,
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

    /// One descent (or a piece of about `piece` evaluations of one), or one kick and its
    /// descent; returns its evaluations.
    fn step(&mut self, piece: u64) -> u64 {
        let started = Instant::now();
        let done = match &mut self.way {
            Way::Descent {
                descent,
                deadline,
                stats,
                energy,
            } => {
                let descended = descent.run_piece(&mut self.problem, *deadline, piece);
                stats.evaluations += descended.evaluations;
                *energy += descended.delta;
                self.stopped = match descended.halt {
                    Halt::Paused => None,
                    _ if interrupt::requested().is_some() => Some(StopReason::Interrupted),
                    Halt::Stopped => Some(StopReason::TimeLimit),
                    Halt::LocalOptimum => Some(self.anneal_reason),
                };
                descended.evaluations.max(1)
            }
            Way::Kicks(kicks) => {
                let done = kicks.step(&mut self.problem, piece);
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
    /// What those local searches did, and their time.
    earlier: (KickStats, Duration),
    /// The best energy of the run so far and the phase that found it (a later phase takes
    /// the credit only for a strictly shorter tour).
    found: (f64, Phase),
    /// Re-anneals begun so far.
    reanneals: u32,
    /// Trial tours the kicks started again from so far.
    trials: u32,
    /// What trial tours are made from, once the first is.
    trial_tours: Option<TrialTours>,
    /// Steps of the re-anneals that have ended.
    reannealed: u64,
    /// The first anneal, once it has ended.
    first: Option<FirstAnneal>,
    /// The local search's budget as it was given, for a run revived after its end.
    given: ils::Budget,
}

/// What the first anneal did: the phases and the report tell it apart from re-anneals.
#[derive(Debug, Clone, Copy)]
struct FirstAnneal {
    steps: u64,
    time: Duration,
    energy: f64,
    length: u64,
}

/// Steps a city of the first re-anneal, doubling with each: the first anneal of up to 250
/// cities takes a tenth of it (`src/problems/tsp/setup.rs`), and the instances whose kicks
/// stall get a longer one (docs/tuning.md).
const REANNEAL_STEPS_PER_CITY: u64 = 20_000;

/// The share of the time left a re-anneal may take, as the first anneal may take of the
/// whole: the kicks after it need the rest.
const REANNEAL_SHARE: f64 = 0.2;

/// A re-anneal's start temperature, as a share of the first anneal's: hot enough to leave
/// the best tour's region, cool enough to keep some of it (docs/tuning.md).
const REANNEAL_START: f64 = 0.5;

/// Mixed into the kicks' seed for the trial tours' generator.
const TRIAL_SEED: u64 = 0x7472_6961;

/// `a` and `b` added up: what local searches one after the other did.
fn sum(a: KickStats, b: KickStats) -> KickStats {
    KickStats {
        kicks: a.kicks + b.kicks,
        improvements: a.improvements + b.improvements,
        taken: a.taken + b.taken,
        windows: a.windows + b.windows,
        evaluations: a.evaluations + b.evaluations,
    }
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
    /// Energy of the tour the first local search started from.
    pub annealed_energy: f64,
    /// TSPLIB length of the first anneal's best tour.
    pub annealed_length: u64,
    /// Re-anneals made when the kicks stalled.
    pub reanneals: u32,
    /// Trial tours the kicks started again from when they stalled.
    pub trials: u32,
    /// Which phase found `best`.
    pub found_by: Phase,
    /// Why the whole run ended.
    pub reason: StopReason,
}

impl TspPipeline {
    /// Anneals with `runner`, then does `then` within `budget` (its target is the
    /// runner's, if the annealed tour does not undercut it).
    pub fn new(runner: Runner<TspProblem>, then: Then, budget: ils::Budget) -> Self {
        let found = (runner.energy(), Phase::Anneal);
        let mut pipeline = TspPipeline {
            runner,
            then,
            budget,
            local: None,
            kept: None,
            earlier: (KickStats::default(), Duration::ZERO),
            found,
            reanneals: 0,
            trials: 0,
            trial_tours: None,
            reannealed: 0,
            first: None,
            given: budget,
        };
        // A start tour already below a stated optimum shows it is none.
        pipeline.after_anneal_batch();
        pipeline
    }

    /// The phase running now (or that ran last).
    pub fn phase(&self) -> Phase {
        match self.local {
            Some(_) => Phase::LocalSearch,
            None if self.reanneals > 0 => Phase::Reanneal,
            None => Phase::Anneal,
        }
    }

    /// Credits a best energy `energy` found by `phase` if it is strictly the run's best.
    fn note(&mut self, energy: f64, phase: Phase) {
        if energy < self.found.0 - EPS {
            self.found = (energy, phase);
        }
    }

    /// Notes the best of the phase running now.
    fn note_running(&mut self) {
        match &self.local {
            Some(local) => self.note(local.best_energy(), Phase::LocalSearch),
            None => {
                let energy = self.runner.best().1;
                self.note(energy, self.phase());
            }
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
        // The first local search starts from the best annealed tour; one after a re-anneal
        // from where the re-anneal ended (its best may be the tour it started from).
        let annealed = match self.first {
            None => {
                let done = self.runner.sample();
                let (best, energy) = self.runner.best();
                problem.set_order(&best.tour);
                self.first = Some(FirstAnneal {
                    steps: done.iteration,
                    time: done.elapsed,
                    energy,
                    length: best.length(),
                });
                energy
            }
            Some(first) => {
                let steps = self.runner.iterations() - first.steps - self.reannealed;
                self.reannealed += steps;
                self.budget.evaluations = self.budget.evaluations.saturating_sub(steps);
                self.runner.energy()
            }
        };
        self.begin_local(problem, annealed, anneal_reason);
    }

    /// Starts the local search on `problem`, whose tour has energy `annealed`.
    fn begin_local(&mut self, problem: TspProblem, annealed: f64, anneal_reason: StopReason) {
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
                Rng::seed_from_u64(seed.wrapping_add(u64::from(self.restarts()))),
                budget,
            ))),
            _ => {
                let mut descent = Box::new(Descent::new(problem.order().len()));
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
            sampled: KickStats::default(),
            elapsed: Duration::ZERO,
            stopped: None,
            anneal_reason,
        });
    }

    /// Leaves the local search (a reheat or restart goes back to annealing), keeping its
    /// best tour.
    fn back_to_annealing(&mut self) {
        if self.leave_local() {
            // A revived run's local search has a fresh budget, with no deadline of its own.
            self.budget = ils::Budget {
                deadline: None,
                ..self.given
            };
        }
    }

    /// Whether the kicks have stalled: an epoch of them ended with no shorter tour.
    fn stalled(&self) -> bool {
        matches!(
            &self.local,
            Some(LocalSearch {
                way: Way::Kicks(kicks),
                stopped: None,
                ..
            }) if kicks.stalled()
        )
    }

    /// Trial tours and re-anneals so far: the stalls the kicks were left at.
    fn restarts(&self) -> u32 {
        self.reanneals + self.trials
    }

    /// Leaves the stalled kicks to start again, by turns from a re-anneal (the first time)
    /// and from a trial tour: either alone left more runs in a trap, and a trial tour first
    /// slowed instances that a re-anneal gets out of at once (docs/tuning.md).
    fn after_stall(&mut self) {
        if self.restarts().is_multiple_of(2) {
            self.reanneal();
        } else {
            self.trial();
        }
    }

    /// Leaves the stalled kicks, taking what they spent from the local search's budget;
    /// why the anneal before them ended.
    fn leave_stalled(&mut self) -> Option<StopReason> {
        let local = self.local.as_ref()?;
        let (spent, reason) = (local.stats().evaluations, local.anneal_reason);
        self.leave_local();
        self.budget.evaluations = self.budget.evaluations.saturating_sub(spent);
        Some(reason)
    }

    /// Starts the kicks again from a trial tour made from the best tour.
    fn trial(&mut self) {
        // Only kicks stall; the seed is read before they are left.
        let Then::Kicks { seed } = self.then else {
            return;
        };
        let Some(reason) = self.leave_stalled() else {
            return;
        };
        let best = self.best_tour().tour;
        let mut problem = self.runner.problem().clone();
        let until = self.budget.deadline;
        let trials = (self.trial_tours).get_or_insert_with(|| TrialTours::new(&problem, until));
        let mut rng = Rng::seed_from_u64((seed ^ TRIAL_SEED).wrapping_add(u64::from(self.trials)));
        problem.set_order(&trials.tour(&problem, &best, &mut rng));
        self.trials += 1;
        let energy = problem.energy();
        self.begin_local(problem, energy, reason);
    }

    /// Leaves the stalled kicks for a re-anneal from the best tour, longer each time,
    /// within what is left of the local search's budget.
    fn reanneal(&mut self) {
        self.leave_stalled();
        let n = self.runner.problem().order().len() as u64;
        let steps =
            ((REANNEAL_STEPS_PER_CITY * n) << self.restarts().min(20)).min(self.budget.evaluations);
        let time = (self.budget.deadline).map(|d| {
            d.saturating_duration_since(Instant::now())
                .mul_f64(REANNEAL_SHARE)
        });
        let tour = self.best_tour().tour;
        let temperature = REANNEAL_START * self.runner.config().t0;
        (self.runner).reanneal(|p| p.set_order(&tour), temperature, steps, time);
        self.reanneals += 1;
    }

    /// Leaves the local search, keeping its best tour; whether one was running.
    fn leave_local(&mut self) -> bool {
        let Some(local) = self.local.take() else {
            return false;
        };
        let energy = local.best_energy();
        let tour = match &local.way {
            Way::Kicks(kicks) => kicks.best_order(&local.problem),
            Way::Descent { .. } => local.problem.order().to_vec(),
        };
        if self.kept.as_ref().is_none_or(|(e, _)| energy < *e) {
            self.kept = Some((energy, tour));
        }
        self.earlier.0 = sum(self.earlier.0, local.stats());
        self.earlier.1 += local.elapsed;
        true
    }

    /// What all local searches so far did, and their time.
    fn local_spent(&self) -> (KickStats, Duration) {
        let (mut stats, mut elapsed) = self.earlier;
        if let Some(local) = &self.local {
            stats = sum(stats, local.stats());
            elapsed += local.elapsed;
        }
        (stats, elapsed)
    }

    /// The best energy of the whole run, and the phase that found it.
    fn best(&mut self) -> (f64, Phase) {
        self.note_running();
        self.found
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
        let (local, local_elapsed) = self.local_spent();
        let first = match self.first {
            Some(first) => first,
            None => {
                let (best, energy) = self.runner.best();
                FirstAnneal {
                    steps: 0,
                    time: Duration::ZERO,
                    energy,
                    length: best.length(),
                }
            }
        };
        PipelineOutcome {
            best,
            energy,
            anneal: self.runner.finish(),
            local,
            local_elapsed,
            local_ran: self.local.is_some() || self.kept.is_some(),
            annealed_energy: first.energy,
            annealed_length: first.length,
            reanneals: self.reanneals,
            trials: self.trials,
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
                    self.note_running();
                    return done;
                }
            }
        }
        let mut done = 0;
        while let Some(local) = &mut self.local
            && done < n
            && local.stopped.is_none()
        {
            done += local.step(n - done);
            if self.stalled() {
                self.note_running();
                self.after_stall();
                return done;
            }
        }
        self.note_running();
        done
    }

    fn step_explained(&mut self) -> Option<Explained> {
        if self.local.is_none() && self.runner.stopped().is_none() {
            let told = self.runner.step_explained();
            self.after_anneal_batch();
            self.note_running();
            return told;
        }
        self.step_batch(1);
        None
    }

    fn sample(&mut self) -> Sample {
        let mut sample = self.runner.sample();
        // The anneal's best as its sample counts it: finding its tour would copy it.
        let best_energy = self.found.0.min(sample.best_energy);
        let (done, elapsed) = self.local_spent();
        sample.iteration += done.evaluations;
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
        } else {
            sample.phase = self.phase();
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

    fn waited(&mut self, idle: Duration) {
        self.runner.postpone(idle);
        self.budget.postpone(idle);
        match self.local.as_mut().map(|local| &mut local.way) {
            Some(Way::Kicks(kicks)) => kicks.postpone(idle),
            Some(Way::Descent { deadline, .. }) => postpone(deadline, idle),
            None => {}
        }
    }

    /// The anneal's steps, then the local searches' evaluations, as a report counts them.
    fn phases(&mut self) -> Vec<PhaseWork> {
        let annealed = self.runner.sample();
        let (steps, time) = self
            .first
            .map_or((annealed.iteration, annealed.elapsed), |f| {
                (f.steps, f.time)
            });
        let work = |phase, steps, time| PhaseWork {
            phase,
            chains: 1,
            steps,
            time,
        };
        let mut phases = vec![work(Phase::Anneal, steps, time)];
        if self.local.is_some() || self.kept.is_some() {
            let (done, time) = self.local_spent();
            phases.push(work(Phase::LocalSearch, done.evaluations, time));
        }
        if self.reanneals > 0 {
            phases.push(work(
                Phase::Reanneal,
                annealed.iteration - steps,
                annealed.elapsed.saturating_sub(time),
            ));
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
        pipeline_of(120, then, steps, evaluations)
    }

    /// An `n`-city run of `steps` anneal steps, then `then` for `evaluations`.
    fn pipeline_of(n: usize, then: Then, steps: u64, evaluations: u64) -> TspPipeline {
        let instance = Arc::new(random::instance(n, Layout::Uniform, 7));
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
    fn time_the_run_sat_idle_does_not_count_against_the_local_search() {
        let kicks_after = |idle: Option<Duration>| {
            let mut p = pipeline(Then::Kicks { seed: 3 }, 20_000, 200_000);
            p.budget.deadline = Some(Instant::now() + Duration::from_millis(200));
            p.step_batch(20_000);
            std::thread::sleep(Duration::from_millis(400));
            if let Some(idle) = idle {
                p.waited(idle);
            }
            run(&mut p, 2048);
            p.finish().local.kicks
        };
        assert_eq!(kicks_after(None), 0, "the deadline had passed");
        assert!(kicks_after(Some(Duration::from_millis(400))) > 10);
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
    fn a_long_first_descent_keeps_to_the_batches() {
        // Barely annealed, 3,000 cities make a first descent of many batches: chains side
        // by side wait for the slowest at each batch's end, and a live view for a sample.
        let mut p = pipeline_of(3_000, Then::Kicks { seed: 3 }, 1_000, 50_000_000);
        p.step_batch(1_000);
        let (mut batches, mut most) = (0, 0);
        loop {
            let done = p.step_batch(2_000);
            // The batch that ends the descent goes on into a kick, which is never cut.
            if p.local.as_ref().is_some_and(|l| l.stats().kicks > 0) {
                break;
            }
            most = most.max(done);
            batches += 1;
        }
        let evaluations = p.local.as_ref().map(|l| l.stats().evaluations);
        assert!(
            batches > 50,
            "{batches} batches, {evaluations:?} evaluations"
        );
        // A batch ends after the city whose examination passed it: a chain from a city
        // looks at up to 2 sides x 50 steps x 55 candidates (5 each of t2 and t4).
        assert!(most < 8_000, "a batch of {most}");
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

    #[test]
    fn kicks_that_stall_anneal_again_then_start_from_a_trial_tour_whatever_the_batches() {
        // 60 cities: the kicks find their best tour within their first epoch (1.2M
        // evaluations), the second finds nothing shorter; a re-anneal (a named phase) and
        // kicks follow, stall again, and start again from a trial tour.
        let ends: Vec<_> = [997, u64::MAX]
            .into_iter()
            .map(|batch| {
                let mut p = pipeline_of(60, Then::Kicks { seed: 3 }, 20_000, 8_000_000);
                let samples = run(&mut p, batch);
                let phases = p.phases();
                (samples, phases, p.finish())
            })
            .collect();
        let (samples, phases, outcome) = &ends[0];
        assert!(outcome.trials >= 1, "{} trials", outcome.trials);
        // By turns, a re-anneal first.
        assert!(
            (outcome.trials..=outcome.trials + 1).contains(&outcome.reanneals),
            "{} trials, {} re-anneals",
            outcome.trials,
            outcome.reanneals
        );
        let named: Vec<_> = phases.iter().map(|w| w.phase).collect();
        assert_eq!(named, [Phase::Anneal, Phase::LocalSearch, Phase::Reanneal]);
        assert_eq!(phases[0].steps, 20_000);
        assert!(phases[2].steps > 0);
        // Its steps come out of the local search's budget (the last kick may pass it).
        assert!(phases[1].steps + phases[2].steps < 8_100_000, "{phases:?}");
        let first = samples
            .iter()
            .position(|s| s.phase == Phase::Reanneal)
            .expect("a re-anneal's sample");
        assert!(
            samples[..first]
                .iter()
                .any(|s| s.phase == Phase::LocalSearch)
        );
        assert!(matches!(samples[first].control, Control::Temperature(t) if t > 0.0));
        assert!(
            samples[first..]
                .iter()
                .any(|s| s.phase == Phase::LocalSearch)
        );
        for pair in samples.windows(2) {
            assert!(pair[1].best_energy <= pair[0].best_energy);
        }
        assert_eq!(outcome.best.length() as f64, outcome.energy);
        assert_eq!(samples.last().unwrap().best_energy, outcome.energy);
        // The same tour and the same work in one batch per phase.
        let (_, other_phases, other) = &ends[1];
        assert_eq!(other.best.tour, outcome.best.tour);
        assert_eq!(other.reanneals, outcome.reanneals);
        assert_eq!(other.trials, outcome.trials);
        let work = |ws: &[PhaseWork]| ws.iter().map(|w| (w.phase, w.steps)).collect::<Vec<_>>();
        assert_eq!(work(other_phases), work(phases));
    }
}
