//! Denoising in rounds: the budget is split between independent annealing runs, each from
//! its own multi-scale start, and their results are fused patch by patch.
//!
//! Why: near the minimum, what is left wrong after a run is a handful of patches (a stroke
//! ended a few rows too long, a blob filled that should be open) frozen in at temperatures
//! where the energy differences are a few units. Which patches freeze wrong depends on the
//! seed, and a longer run does not make it less likely (docs/tuning.md). Different runs
//! get different patches wrong, so taking, for every patch where two runs disagree,
//! whichever labelling has the lower energy keeps the good parts of both
//! ([`Denoise::fuse`]).
//!
//! The fused result is then polished by strip and block descents (`Denoise::polish`), which
//! only ever lower the energy, in a share of the time limit kept for them.

use std::time::{Duration, Instant};

use super::bitmap::Bitmap;
use super::denoise::Denoise;
use crate::anneal::{Problem, RunConfig, Runner};
use crate::search::{
    Control, Explained, Outcome, Phase, PhaseWork, Sample, Search, StopReason, nth_seed, postpone,
};

/// How a denoising run is split into rounds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plan {
    /// Number of rounds (at least 1), sharing the budget equally; `None`: as many as
    /// the budget allows (`auto_rounds`).
    pub rounds: Option<usize>,
    /// Each round starts from a multi-scale start (else from the ICM result).
    pub multiscale: bool,
}

/// The most of a round's time its multi-scale start may take.
const START_SHARE: f64 = 0.5;

/// The share of the time limit kept for the polish after the rounds (it takes about 0.1 s
/// on 256x256 and stops at the time limit on larger images).
const POLISH_SHARE: f64 = 0.25;

/// Time per pixel kept at the end of the time limit for the work after the polish
/// (docs/limits.md).
const END_SECONDS_PER_PIXEL: f64 = 15e-9;

/// Whether a round has the time to run before `config`'s deadline (or within its time
/// limit, from now): its copies of the image and the work after it, each about the end's
/// reserve, must fit. A run without it ends on its start: a 4096x4096 image set up past a
/// 0.2 s limit spent 0.4 s more on a round's copies.
pub fn time_for_a_round(config: &RunConfig, pixels: usize) -> bool {
    let needed = Duration::from_secs_f64(2.0 * pixels as f64 * END_SECONDS_PER_PIXEL);
    let now = Instant::now();
    time_ends(config, now).is_none_or(|end| end.saturating_duration_since(now) > needed)
}

/// When `config`'s time budget ends if it starts `now`: at its time limit or its deadline,
/// whichever comes first (never, with neither).
fn time_ends(config: &RunConfig, now: Instant) -> Option<Instant> {
    (config.budget.time_limit)
        .and_then(|limit| now.checked_add(limit))
        .into_iter()
        .chain(config.budget.deadline)
        .min()
}

/// Most rounds a run is split into.
pub(crate) const MAX_ROUNDS: usize = 8;
/// Fewest proposals per pixel a round gets when the number of rounds is automatic: fewer
/// left large images above the minimum (docs/tuning.md).
const SWEEPS_PER_ROUND: f64 = 60.0;
/// Proposals per second a time budget is taken to stand for when choosing the number of
/// rounds (a single flip rate on one core of an ordinary machine).
const NOMINAL_RATE: f64 = 40e6;

/// As many rounds as the budget gives [`SWEEPS_PER_ROUND`] proposals per pixel each, at
/// least 1 and at most [`MAX_ROUNDS`]; 1 without a budget.
pub(crate) fn auto_rounds(config: &RunConfig, pixels: usize) -> usize {
    let steps = match (config.budget.max_steps, config.budget.time_limit) {
        (Some(steps), _) => steps as f64,
        (None, Some(limit)) => limit.as_secs_f64() * NOMINAL_RATE,
        (None, None) => return 1,
    };
    let rounds = steps / (pixels.max(1) as f64 * SWEEPS_PER_ROUND);
    (rounds as usize).clamp(1, MAX_ROUNDS)
}

/// How the rounds went, for the report (none ran: `default()`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RoundsReport {
    /// Best energy of each round on its own.
    pub round_energies: Vec<f64>,
    /// Energy of each round's multi-scale start.
    pub start_energies: Vec<f64>,
    /// Time spent building the multi-scale starts, counted in the budget.
    pub start_seconds: f64,
    /// Energy change of the polish of the fused result (never positive); `None` when the run was cut short before it.
    pub polish_gain: Option<f64>,
}

/// Steps, time and counters of the rounds already over.
#[derive(Debug, Clone, Copy, Default)]
struct Spent {
    iterations: u64,
    elapsed: Duration,
    restarts: u64,
    reheats: u64,
}

/// The fused result so far and its energy.
struct Elite {
    state: Denoise,
    energy: f64,
}

/// A [`Search`] over the rounds: the worker and the headless run drive it like a runner.
pub struct Rounds {
    /// The state every round starts from (the ICM result).
    start: Denoise,
    /// Which round the runner is in, of how many (decided at the start).
    share: Share,
    /// The budget of the whole run.
    config: RunConfig,
    seed: u64,
    runner: Runner<Denoise>,
    /// When the final polish must stop (the end of the time limit).
    polish_deadline: Option<Instant>,
    elite: Option<Elite>,
    spent: Spent,
    /// How long the polish took, once it has run.
    polished: Option<Duration>,
    report: RoundsReport,
    finished: Option<StopReason>,
}

impl Rounds {
    /// Starts the first round of annealing `start` (after ICM) within `config`'s budget.
    pub fn new(start: Denoise, plan: Plan, mut config: RunConfig, seed: u64) -> Self {
        let now = Instant::now();
        // What comes after the polish (the result's snapshot, the report, freeing the
        // image) is kept out of the time; the polish gets its share of what is left at
        // the end, the rounds the rest, counted from now (a round's own clock starts only
        // once its copy of the image is made).
        let reserve = Duration::from_secs_f64(start.pixels() as f64 * END_SECONDS_PER_PIXEL);
        let polish_deadline =
            time_ends(&config, now).map(|end| end.checked_sub(reserve).unwrap_or(now).max(now));
        if let Some(end) = polish_deadline {
            let rounds = end.duration_since(now).mul_f64(1.0 - POLISH_SHARE);
            config.budget.time_limit = Some(rounds);
            config.budget.deadline = now.checked_add(rounds);
        }
        let rounds = plan
            .rounds
            .unwrap_or_else(|| auto_rounds(&config, start.pixels()))
            .max(1);
        let mut report = RoundsReport {
            round_energies: Vec::new(),
            start_energies: Vec::new(),
            start_seconds: 0.0,
            polish_gain: None,
        };
        let mut spent = Spent::default();
        let share = Share {
            rounds,
            round: 0,
            multiscale: plan.multiscale,
        };
        let runner = begin_round(&start, share, &config, seed, &mut spent, &mut report);
        Rounds {
            start,
            share,
            config,
            seed,
            runner,
            polish_deadline,
            elite: None,
            spent,
            polished: None,
            report,
            finished: None,
        }
    }

    /// How many rounds the run has (decided when it starts).
    pub fn rounds(&self) -> usize {
        self.share.rounds
    }

    /// Fuses the finished round's best into the elite and starts the next round, if any.
    fn end_round_if_over(&mut self) {
        if let Some(reason) = self.runner.stopped() {
            self.end_round(reason);
        }
    }

    fn end_round(&mut self, reason: StopReason) {
        let (best, energy) = self.runner.best();
        self.report.round_energies.push(energy);
        match &mut self.elite {
            None => {
                let mut state = self.start.clone();
                state.set_labels(best);
                self.elite = Some(Elite { state, energy });
            }
            Some(elite) => {
                elite.energy += elite.state.fuse(best);
            }
        }
        let cut_short = matches!(reason, StopReason::Stopped | StopReason::Interrupted);
        // Past the run's deadline a round would only copy and measure the image (64 rounds
        // of 4096x4096 took 2 s more than a 1 s limit): the rounds end with this one.
        let out_of_time = self.config.budget.past_deadline();
        if self.share.round + 1 >= self.share.rounds || cut_short || out_of_time {
            // An interrupted run ends now, unpolished.
            if let Some(elite) = self.elite.as_mut().filter(|_| !cut_short) {
                // On a large image or a busy machine the multi-scale start can take the
                // rounds' whole time and end above the ICM result it replaced.
                let start = self.start.energy();
                if start < elite.energy {
                    elite.state.clone_from(&self.start);
                    elite.energy = start;
                }
                let began = Instant::now();
                let gain = elite.state.polish(self.polish_deadline);
                self.polished = Some(self.polished.unwrap_or_default() + began.elapsed());
                elite.energy += gain;
                self.report.polish_gain = Some(gain);
            }
            self.finished = Some(reason);
            return;
        }
        let sample = self.runner.sample();
        self.spent.iterations += sample.iteration;
        self.spent.elapsed += sample.elapsed;
        self.spent.restarts += sample.restarts;
        self.spent.reheats += sample.reheats;
        self.share.round += 1;
        self.runner = begin_round(
            &self.start,
            self.share,
            &self.config,
            self.seed,
            &mut self.spent,
            &mut self.report,
        );
    }

    /// The fused best state and what the rounds did.
    pub fn finish(mut self) -> (Outcome<Bitmap>, RoundsReport) {
        let elite = self.elite.take();
        let mut outcome = self.runner.finish();
        if let Some(elite) = elite
            && elite.energy <= outcome.energy
        {
            outcome.best = elite.state.snapshot();
            outcome.energy = elite.energy;
        }
        outcome.iterations += self.spent.iterations;
        outcome.elapsed += self.spent.elapsed;
        outcome.restarts += self.spent.restarts + self.share.round as u64;
        outcome.reheats += self.spent.reheats;
        (outcome, self.report)
    }
}

/// Which round of how many is starting, and from where.
#[derive(Debug, Clone, Copy)]
struct Share {
    rounds: usize,
    round: usize,
    multiscale: bool,
}

/// A runner for the round `share` names: a multi-scale start (when planned) and an equal
/// share of what is left of the budget; the start's time is taken from the share.
fn begin_round(
    start: &Denoise,
    share: Share,
    config: &RunConfig,
    seed: u64,
    spent: &mut Spent,
    report: &mut RoundsReport,
) -> Runner<Denoise> {
    let left = (share.rounds - share.round) as u32;
    let seed = nth_seed(seed, share.round);
    let mut problem = start.clone();
    let began = Instant::now();
    if share.multiscale {
        // The start may take at most this share of the round's time.
        let time = config
            .budget
            .time_limit
            .map(|limit| limit.saturating_sub(spent.elapsed).mul_f64(START_SHARE) / left);
        report
            .start_energies
            .push(problem.multiscale_start(seed, time));
    }
    let took = began.elapsed();
    report.start_seconds += took.as_secs_f64();
    spent.elapsed += took;
    let mut config = config.clone();
    config.budget.max_steps = config
        .budget
        .max_steps
        .map(|steps| steps.saturating_sub(spent.iterations) / u64::from(left));
    config.budget.time_limit = config
        .budget
        .time_limit
        .map(|limit| (limit.saturating_sub(spent.elapsed - took) / left).saturating_sub(took));
    Runner::new(problem, config, seed)
}

impl Search for Rounds {
    type Snapshot = Bitmap;

    fn step_batch(&mut self, n: u64) -> u64 {
        if self.finished.is_some() {
            return 0;
        }
        let done = self.runner.step_batch(n);
        self.end_round_if_over();
        done
    }

    fn step_explained(&mut self) -> Option<Explained> {
        if self.finished.is_some() {
            return None;
        }
        let told = self.runner.step_explained();
        self.end_round_if_over();
        told
    }

    /// The best energy is the lower of the fused rounds' and the current round's; taking it
    /// saves no snapshot, so sampling (a trace's, every batch) leaves the run as it was.
    fn sample(&mut self) -> Sample {
        let mut sample = self.runner.sample();
        let best = self.elite.as_ref().map_or(sample.best_energy, |elite| {
            elite.energy.min(sample.best_energy)
        });
        sample.iteration += self.spent.iterations;
        sample.elapsed += self.spent.elapsed;
        sample.restarts += self.spent.restarts + self.share.round as u64;
        sample.reheats += self.spent.reheats;
        sample.best_energy = best;
        if let (Some(elite), Some(_)) = (&self.elite, self.finished) {
            sample.energy = elite.energy;
            // The result is the polish's when it lowered the energy the run ends on: the
            // sample names it, and it has no temperature.
            if self.report.polish_gain.is_some_and(|gain| gain < 0.0) && elite.energy <= best {
                sample.phase = Phase::Polish;
                sample.control = Control::None;
            }
        }
        sample
    }

    /// The rounds' annealing, then the polish once it has run.
    fn phases(&mut self) -> Vec<PhaseWork> {
        let mut anneal = PhaseWork::of(&self.sample());
        anneal.phase = Phase::Anneal;
        let polish = self.polished.map(|time| PhaseWork {
            phase: Phase::Polish,
            chains: 1,
            steps: 0,
            time,
        });
        std::iter::once(anneal).chain(polish).collect()
    }

    fn stopped(&self) -> Option<StopReason> {
        self.finished
    }

    /// The current round's state; once the rounds are over, their fused result.
    fn snapshot(&self) -> Bitmap {
        match (&self.elite, self.finished) {
            (Some(elite), Some(_)) => elite.state.snapshot(),
            _ => self.runner.problem().snapshot(),
        }
    }

    fn best_snapshot(&mut self) -> Bitmap {
        let (current, energy) = self.runner.best();
        match &self.elite {
            Some(elite) if elite.energy <= energy => elite.state.snapshot(),
            _ => current.clone(),
        }
    }

    /// Reheats the current round; a finished run goes on (and is fused again at its end).
    fn reheat(&mut self, temperature: f64) {
        self.runner.reheat(temperature);
        self.finished = self.runner.stopped();
    }

    fn restart(&mut self) {
        self.runner.restart();
        self.finished = self.runner.stopped();
    }

    fn waited(&mut self, idle: Duration) {
        self.config.budget.postpone(idle);
        postpone(&mut self.polish_deadline, idle);
        self.runner.postpone(idle);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anneal::Schedule;

    fn budget(steps: Option<u64>, seconds: Option<f64>) -> RunConfig {
        let mut config = RunConfig::new(Schedule::Exponential { t_min: 0.05 }, 1.0);
        config.budget.max_steps = steps;
        config.budget.time_limit = seconds.map(Duration::from_secs_f64);
        config
    }

    #[test]
    fn rounds_follow_the_budget_per_pixel() {
        // One second stands for 40M proposals: 610 per pixel at 256x256, 153 at 512x512.
        assert_eq!(auto_rounds(&budget(None, Some(1.0)), 256 * 256), 8);
        assert_eq!(auto_rounds(&budget(None, Some(1.0)), 512 * 512), 2);
        assert_eq!(auto_rounds(&budget(None, Some(0.1)), 512 * 512), 1);
        // Steps, when given, decide.
        assert_eq!(
            auto_rounds(&budget(Some(3 * 60 * 1000), Some(1.0)), 1000),
            3
        );
        assert_eq!(auto_rounds(&budget(None, None), 100), 1);
        assert_eq!(auto_rounds(&budget(Some(0), None), 0), 1);
    }
}
