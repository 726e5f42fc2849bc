//! The Metropolis loop: schedule, best-so-far, stagnation handling and stop conditions.

use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};

use super::problem::Problem;
use super::schedule::{Clock, Schedule};
use crate::search::tally::Tally;
use crate::search::{
    Budget, Control, Decision, EPS, Explained, Outcome, Phase, Rng, Sample, StopReason,
};

/// Deltas that are small whole multiples of the problem's quantum (Sudoku, images) read
/// their acceptance probability from a table refreshed with the temperature, not `exp`.
const EXP_TABLE: usize = 32;
/// Uphill moves above this many temperatures are rejected without `exp` (e^-40 ~ 4e-18).
const HOPELESS: f64 = 40.0;
/// The temperature and the stagnation check are refreshed this often (in steps).
const CHUNK: u64 = 256;
/// Steps between samples of a run driven to its end (`Runner::run`, headless runs).
pub const BATCH: u64 = 1 << 14;
/// A state this large (in `snapshot_cost`) may have slow steps: its batches read the
/// clock after every chunk; one a sixteenth of its size after every sixteenth, and one of
/// 1024 or less only at the batch's end (a clock read per chunk is felt by fast steps).
const SLOW_STATE: u64 = 1 << 16;

/// What to do when the energy has not improved for a while.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StallAction {
    /// Raise the temperature to this value and cool again from there.
    Reheat {
        /// The temperature the schedule starts again from.
        temperature: f64,
    },
    /// Start again from a fresh random state.
    Restart,
}

/// A stall check: `action` is taken once the run has gone `window` steps without a new
/// best, so a run stuck in a local minimum gets out of it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stagnation {
    /// Steps without a new best (of the current restart or reheat) before acting.
    pub window: u64,
    /// What to do once the window has passed without a new best.
    pub action: StallAction,
}

/// A periodic progress check: every `every` steps since the last restart or reheat, `action`
/// is taken unless the best energy of the current restart fell by more than `min_gain`
/// since the previous check. "Restart when the score improved by no more than 4 over the
/// last 50,000 iterations" is `{ every: 50_000, min_gain: 4.0, action: Restart }`;
/// `min_gain: f64::INFINITY` acts every `every` steps unconditionally.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Checkpoint {
    /// Steps between checks, counted from the last restart or reheat.
    pub every: u64,
    /// How much the best energy must have fallen since the previous check to go on as is.
    pub min_gain: f64,
    /// What to do when it has not fallen that much.
    pub action: StallAction,
}

/// Everything that decides how a run goes, apart from the problem and the seed.
#[derive(Debug, Clone, PartialEq)]
pub struct RunConfig {
    /// How the temperature falls from `t0`.
    pub schedule: Schedule,
    /// Start temperature (Tmax for the exponential schedule).
    pub t0: f64,
    /// When the run stops: steps, time and the target energy.
    pub budget: Budget,
    /// What to do after a long stretch without a new best, if anything.
    pub stagnation: Option<Stagnation>,
    /// A periodic check of progress, if any.
    pub checkpoint: Option<Checkpoint>,
    /// Steps between looks at the schedule and at stalls: 256, so that the hot loop runs
    /// in chunks; a lesson watched step by step looks at every step (`lesson`), so that
    /// the temperature shown falls with each one.
    pub chunk: u64,
}

impl RunConfig {
    /// A run on `schedule` from `t0`, with no budget and no stall handling: set the fields
    /// for those.
    pub fn new(schedule: Schedule, t0: f64) -> Self {
        RunConfig {
            schedule,
            t0,
            budget: Budget::default(),
            stagnation: None,
            checkpoint: None,
            chunk: CHUNK,
        }
    }

    /// This run as a lesson of `steps` steps: its budget, over which a schedule that
    /// cools over the budget cools, and the temperature looked at every step.
    pub fn lesson(&mut self, steps: u64) {
        self.budget.max_steps = Some(steps);
        self.budget.time_limit = None;
        self.chunk = 1;
    }
    /// The temperatures a display of this run spans: from the start (or `reheat_to`, if
    /// hotter) down to where one cooling ends, when that is known: at a periodic restart,
    /// at the end of the step budget, or at the end of the budget the schedule cools over.
    pub fn temperature_span(&self, reheat_to: f64) -> (f64, Option<f64>) {
        let restart_period = self
            .checkpoint
            .filter(|k| k.min_gain.is_infinite())
            .map(|k| k.every.saturating_sub(1));
        let end = match restart_period.or(self.budget.max_steps) {
            Some(steps) => Some(Clock {
                steps,
                progress: Some(1.0),
            }),
            None => self.schedule.needs_budget().then_some(Clock {
                steps: 0,
                progress: Some(1.0),
            }),
        };
        let low = end.map(|clock| self.schedule.temperature(self.t0, clock));
        (self.t0.max(reheat_to), low)
    }
}

/// Sees each decision of the annealing loop before its move is carried out. The hot loop's
/// witness is `()`, which never builds the decision and compiles away.
trait Witness<P: Problem> {
    fn decided(&mut self, problem: &P, mv: &P::Move, decision: impl FnOnce() -> Decision);
}

impl<P: Problem> Witness<P> for () {
    #[inline(always)]
    fn decided(&mut self, _: &P, _: &P::Move, _: impl FnOnce() -> Decision) {}
}

/// Keeps the one step it saw, explained.
struct Told(Option<Explained>);

impl<P: Problem> Witness<P> for Told {
    fn decided(&mut self, problem: &P, mv: &P::Move, decision: impl FnOnce() -> Decision) {
        self.0 = Some(Explained {
            sketch: problem.sketch(mv),
            decision: decision(),
        });
    }
}

/// Above this many temperatures an uphill move is rejected on the bound
/// e^-x < 1 / (1 + x + x^2/2) when the uniform number is above it: the bound's margin,
/// about x^3/6 of it, is then far above rounding.
const BOUND_FROM: f64 = 0.01;

/// Whether a move `x` temperatures uphill (`0 < x`, at most `HOPELESS`) is taken when the
/// uniform number drawn is `u`: `u < e^-x`, the same decision, with the `exp` left out for
/// most of the moves a cool run rejects (a seventh of a TSP step's instructions).
#[inline(always)]
fn metropolis(x: f64, u: f64) -> bool {
    if x > BOUND_FROM && u * (1.0 + x * (1.0 + 0.5 * x)) >= 1.0 {
        return false;
    }
    u < (-x).exp()
}

/// Owns a problem and anneals it, one batch at a time.
pub struct Runner<P: Problem> {
    problem: P,
    rng: Rng,
    config: RunConfig,
    target: f64,
    energy: f64,
    temperature: f64,
    exp_table: [f64; EXP_TABLE],
    /// 1 / the problem's delta quantum.
    per_quantum: f64,
    /// Deltas above this are rejected at once.
    hopeless: f64,
    /// The schedule restarts from `t_start` at `origin_*` after a reheat or restart.
    t_start: f64,
    origin_steps: u64,
    origin_time: Duration,
    iterations: u64,
    epoch_best: f64,
    last_improvement: u64,
    /// The epoch's best energy at the previous checkpoint.
    checkpoint_best: f64,
    best_energy: f64,
    best: P::Snapshot,
    best_saved_energy: f64,
    best_pending: bool,
    last_save: u64,
    save_gap: u64,
    tally: Tally,
    stopped: Option<StopReason>,
    /// The step and time budget the run was given, for reviving it after it ends.
    initial_budget: (Option<u64>, Option<Duration>),
    /// Where the chunk of steps under way ends: the temperature is set at its start.
    chunk_end: u64,
    /// The clock is read after every this many chunks within a batch (`SLOW_STATE`).
    clock_gap: u64,
}

impl<P: Problem> Runner<P> {
    /// Anneals `problem` as `config` says, with its random moves drawn from `seed`. A
    /// problem already at the target is stopped before its first step.
    pub fn new(problem: P, config: RunConfig, seed: u64) -> Self {
        let energy = problem.energy();
        let best = problem.snapshot();
        let save_gap = (problem.snapshot_cost() as u64 / 16).max(1);
        let clock_gap = (SLOW_STATE / problem.snapshot_cost().max(1) as u64).clamp(1, 64);
        let target = config.budget.target.unwrap_or(f64::NEG_INFINITY);
        let quantum = problem.delta_quantum();
        let initial_budget = (config.budget.max_steps, config.budget.time_limit);
        let mut runner = Runner {
            initial_budget,
            chunk_end: 0,
            problem,
            rng: Rng::seed_from_u64(seed),
            t_start: config.t0,
            config,
            target,
            energy,
            temperature: 0.0,
            exp_table: [0.0; EXP_TABLE],
            per_quantum: if quantum > 0.0 { 1.0 / quantum } else { 1.0 },
            hopeless: 0.0,
            origin_steps: 0,
            origin_time: Duration::ZERO,
            iterations: 0,
            epoch_best: energy,
            last_improvement: 0,
            checkpoint_best: energy,
            best_energy: energy,
            best,
            best_saved_energy: energy,
            best_pending: false,
            last_save: 0,
            save_gap,
            clock_gap,
            tally: Tally::default(),
            stopped: None,
        };
        runner.refresh_temperature();
        if energy <= target + EPS {
            runner.stopped = Some(StopReason::Target);
        }
        runner
    }

    /// The problem in its current state.
    pub fn problem(&self) -> &P {
        &self.problem
    }
    /// Energy of the current state, kept up to date from the deltas.
    pub fn energy(&self) -> f64 {
        self.energy
    }
    /// The temperature the steps are taken at now.
    pub fn temperature(&self) -> f64 {
        self.temperature
    }
    /// Steps taken since the run began.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }
    /// The configuration in force; a revived run's budget has been extended.
    pub fn config(&self) -> &RunConfig {
        &self.config
    }
    /// Why the run has ended, if it has.
    pub fn stopped(&self) -> Option<StopReason> {
        self.stopped
    }

    /// Fraction of the step or time budget used since the schedule's last reset.
    fn progress(&self) -> Option<f64> {
        let by_steps = self.config.budget.max_steps.map(|max| {
            let span = max.saturating_sub(self.origin_steps).max(1);
            (self.iterations - self.origin_steps) as f64 / span as f64
        });
        let by_time = self.config.budget.time_limit.map(|limit| {
            let span = limit.saturating_sub(self.origin_time).as_secs_f64();
            if span <= 0.0 {
                1.0
            } else {
                (self.tally.elapsed - self.origin_time).as_secs_f64() / span
            }
        });
        match (by_steps, by_time) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        }
    }

    fn refresh_temperature(&mut self) {
        let clock = Clock {
            steps: self.iterations - self.origin_steps,
            progress: self.progress(),
        };
        let t = self.config.schedule.temperature(self.t_start, clock);
        if t != self.temperature {
            self.temperature = t;
            self.hopeless = HOPELESS * t;
            // Entries above `hopeless` are never read: cold temperatures (and schedules
            // that change T every few steps) need only a few `exp`s.
            let quantum = 1.0 / self.per_quantum;
            let used = ((self.hopeless * self.per_quantum) as usize + 1).min(EXP_TABLE);
            for (k, p) in self.exp_table[..used].iter_mut().enumerate() {
                *p = (-(k as f64) * quantum / t).exp();
            }
        }
    }

    /// The first step after `self.iterations` where the temperature steps or a checkpoint
    /// falls, so a chunk never runs across one.
    fn next_boundary(&self) -> u64 {
        let since = self.iterations - self.origin_steps;
        let next = |every: u64| self.origin_steps + (since / every + 1) * every;
        let hold = self.config.schedule.hold().map_or(u64::MAX, next);
        let check = self
            .config
            .checkpoint
            .map_or(u64::MAX, |c| next(c.every.max(1)));
        hold.min(check)
    }

    /// Whether to take a move of `delta`, and the uniform number drawn to decide, if one
    /// was (see [`Decision::u`]).
    #[inline(always)]
    fn accepts(&mut self, delta: f64) -> (bool, Option<f64>) {
        if delta <= 0.0 {
            return (true, None);
        }
        if delta > self.hopeless {
            return (false, None);
        }
        let steps = delta * self.per_quantum;
        let k = steps as usize;
        if k < EXP_TABLE && k as f64 == steps {
            let p = self.exp_table[k];
            if p <= 0.0 {
                return (false, None);
            }
            let u = self.rng.random::<f64>();
            return (u < p, Some(u));
        }
        // e^-x is never 0 below `hopeless`: the uniform number is drawn as before.
        let u = self.rng.random::<f64>();
        (metropolis(delta / self.temperature, u), Some(u))
    }

    fn save_best(&mut self) {
        self.problem.snapshot_into(&mut self.best);
        self.best_saved_energy = self.energy;
        self.best_pending = false;
        self.last_save = self.iterations;
    }

    /// Runs up to `n` steps (fewer if a stop condition is met). Returns the steps done.
    pub fn step_batch(&mut self, n: u64) -> u64 {
        self.steps(n, &mut ())
    }

    /// Takes one step, as `step_batch(1)` would, and tells what it did: the move, its
    /// energy change and the decision on it. `None` if the run has stopped.
    pub fn step_explained(&mut self) -> Option<Explained> {
        let mut told = Told(None);
        self.steps(1, &mut told);
        told.0
    }

    /// The annealing loop; `witness` sees each decision before the move is carried out.
    fn steps<W: Witness<P>>(&mut self, n: u64, witness: &mut W) -> u64 {
        if self.stopped.is_some() {
            return 0;
        }
        let started = Instant::now();
        let (out_of_time, mut chunks) = (self.out_of_time(started), 0u64);
        let first = self.iterations;
        // A batch never runs past the step budget, however large it is asked to be.
        let budget = self.config.budget.max_steps.unwrap_or(u64::MAX).max(first);
        let end = first.saturating_add(n).min(budget);
        'outer: while self.iterations < end {
            // A chunk may span batches, so that the temperature is set and stalls are
            // looked at on the same steps whatever the batch sizes: a live run at any pace
            // makes the moves a headless run makes.
            if self.iterations >= self.chunk_end {
                self.refresh_temperature();
                let chunk = self.config.chunk.max(1);
                self.chunk_end = (self.iterations + chunk).min(self.next_boundary());
            }
            let stop_at = end.min(self.chunk_end);
            while self.iterations < stop_at {
                // A move made as it is proposed leaves the state before it is judged: a
                // new best is copied first.
                if P::MOVES_IN_PROPOSE && self.best_pending && self.energy <= self.best_energy + EPS
                {
                    self.save_best();
                }
                let mv = self.problem.propose(&mut self.rng);
                let delta = self.problem.delta(&mv);
                self.iterations += 1;
                let (accepted, u) = self.accepts(delta);
                let (temperature, energy) = (self.temperature, self.energy);
                witness.decided(&self.problem, &mv, || {
                    Decision::new(delta, temperature, energy, u, accepted)
                });
                if !accepted {
                    if P::MOVES_IN_PROPOSE {
                        self.problem.undo(&mv);
                    }
                    continue;
                }
                // Leaving the best state uphill: keep a copy first (not too often).
                if !P::MOVES_IN_PROPOSE
                    && delta > 0.0
                    && self.best_pending
                    && self.energy <= self.best_energy + EPS
                    && self.iterations - self.last_save >= self.save_gap
                {
                    self.save_best();
                }
                self.problem.apply(&mv);
                self.energy += delta;
                self.tally.accepted += 1;
                if self.energy < self.epoch_best - EPS {
                    self.epoch_best = self.energy;
                    self.last_improvement = self.iterations;
                    if self.energy < self.best_energy - EPS {
                        self.best_energy = self.energy;
                        self.best_pending = true;
                    }
                    // Checked on the epoch's best, so a run revived after reaching the
                    // target stops when it reaches it again.
                    if self.energy <= self.target + EPS {
                        self.stopped = Some(StopReason::Target);
                        break 'outer;
                    }
                }
            }
            if self.iterations == self.chunk_end {
                self.check_stagnation();
                self.check_checkpoint();
                // A large problem's steps may be slow (a reversal in a million cities'
                // random first tour moves half of them): the clock is read between its
                // chunks too, never per step.
                chunks += 1;
                if chunks.is_multiple_of(self.clock_gap)
                    && out_of_time.is_some_and(|end| Instant::now() >= end)
                {
                    self.stopped = Some(StopReason::TimeLimit);
                    break 'outer;
                }
            }
        }
        self.tally.proposed += self.iterations - first;
        if self.energy < self.best_saved_energy - EPS {
            self.save_best();
        }
        // The copy is on the clock too: at 4096x4096 a pattern run copies 16 MB after
        // most batches, and left out, a 2 s limit took 2.5 s.
        self.tally.elapsed += started.elapsed();
        if self.stopped.is_none() {
            self.check_budget();
        }
        self.iterations - first
    }

    /// When the time budget runs out, for a batch begun at `started`: its time limit (less
    /// the time spent before) or its deadline, whichever comes first.
    fn out_of_time(&self, started: Instant) -> Option<Instant> {
        let budget = &self.config.budget;
        let by_limit = budget
            .time_limit
            .and_then(|limit| started.checked_add(limit.saturating_sub(self.tally.elapsed)));
        by_limit.into_iter().chain(budget.deadline).min()
    }

    fn check_budget(&mut self) {
        self.stopped = self
            .config
            .budget
            .spent(self.iterations, self.tally.elapsed);
    }

    fn check_stagnation(&mut self) {
        let Some(stagnation) = self.config.stagnation else {
            return;
        };
        if self.iterations - self.last_improvement < stagnation.window {
            return;
        }
        match stagnation.action {
            StallAction::Reheat { temperature } => self.reheat(temperature),
            StallAction::Restart => self.restart(),
        }
    }

    fn check_checkpoint(&mut self) {
        let Some(checkpoint) = self.config.checkpoint else {
            return;
        };
        let since = self.iterations - self.origin_steps;
        if since == 0 || !since.is_multiple_of(checkpoint.every.max(1)) {
            return;
        }
        if self.checkpoint_best - self.epoch_best > checkpoint.min_gain + EPS {
            self.checkpoint_best = self.epoch_best;
            return;
        }
        match checkpoint.action {
            StallAction::Reheat { temperature } => self.reheat(temperature),
            StallAction::Restart => self.restart(),
        }
    }

    fn reset_clock(&mut self, t_start: f64) {
        self.t_start = t_start;
        // A new chunk starts here, from the new clock.
        self.chunk_end = self.iterations;
        self.origin_steps = self.iterations;
        self.origin_time = self.tally.elapsed;
        self.epoch_best = self.energy;
        self.checkpoint_best = self.energy;
        self.last_improvement = self.iterations;
        self.refresh_temperature();
    }

    /// Raises the temperature to `temperature` and cools from there (and goes on running
    /// even if the run had ended).
    pub fn reheat(&mut self, temperature: f64) {
        self.tally.reheats += 1;
        self.revive();
        self.reset_clock(temperature);
    }

    /// A run that has ended goes on, with a budget as large as the one it was given, so the
    /// schedule has room to cool again.
    fn revive(&mut self) {
        if self.stopped.take().is_none() {
            return;
        }
        if let Some(steps) = self.initial_budget.0 {
            self.config.budget.max_steps = Some(self.iterations.saturating_add(steps));
        }
        if let Some(time) = self.initial_budget.1 {
            self.config.budget.time_limit = Some(self.tally.elapsed.saturating_add(time));
        }
    }

    /// Starts again from a fresh random state at the initial temperature (and goes on
    /// running even if the run had ended).
    pub fn restart(&mut self) {
        self.revive();
        if self.energy < self.best_saved_energy - EPS {
            self.save_best();
        }
        self.tally.restarts += 1;
        self.problem.randomize(&mut self.rng);
        self.energy = self.problem.energy();
        self.reset_clock(self.config.t0);
    }

    /// Anneals again from the state `set` leaves (one another search found), cooling from
    /// `temperature` over `steps` more steps, or over `time` if that ends first; the best
    /// state so far is kept, and the run goes on even if it had ended.
    pub fn reanneal(
        &mut self,
        set: impl FnOnce(&mut P),
        temperature: f64,
        steps: u64,
        time: Option<Duration>,
    ) {
        self.best();
        set(&mut self.problem);
        self.energy = self.problem.energy();
        if self.energy < self.best_saved_energy - EPS {
            self.best_energy = self.energy;
            self.save_best();
        }
        self.stopped = None;
        self.config.budget.max_steps = Some(self.iterations.saturating_add(steps));
        self.config.budget.time_limit = time.map(|time| self.tally.elapsed.saturating_add(time));
        self.reset_clock(temperature);
    }

    /// Moves the budget's deadline `by` later (time the run sat idle; its time limit
    /// counts only the time spent stepping already).
    pub fn postpone(&mut self, by: Duration) {
        self.config.budget.postpone(by);
    }

    /// Drops the target, and a run that stopped at it goes on to its other budgets: for a
    /// target the run went below, which was then no lower bound (a stated optimum longer
    /// than a tour found).
    pub fn forget_target(&mut self) {
        self.target = f64::NEG_INFINITY;
        self.config.budget.target = None;
        if self.stopped == Some(StopReason::Target) {
            self.stopped = None;
        }
    }

    /// Ends the run early (the UI's stop, or an observer's).
    pub fn stop(&mut self) {
        self.stopped.get_or_insert(StopReason::Stopped);
    }

    /// Telemetry since the previous sample.
    pub fn sample(&mut self) -> Sample {
        self.tally.sample(
            self.iterations,
            Phase::Anneal,
            Control::Temperature(self.temperature),
            self.energy,
            self.best_energy,
        )
    }

    /// Runs to a stop condition, calling `observe` after every batch; it may stop the run
    /// by returning `false` (with no budget and no target, only the observer ends it).
    pub fn run(&mut self, mut observe: impl FnMut(&Sample) -> bool) -> StopReason {
        loop {
            if let Some(reason) = self.stopped {
                return reason;
            }
            self.step_batch(BATCH);
            let sample = self.sample();
            if !observe(&sample) {
                self.stop();
            }
        }
    }

    /// The best state found so far and its energy.
    pub fn best(&mut self) -> (&P::Snapshot, f64) {
        if self.energy < self.best_saved_energy - EPS {
            self.save_best();
        }
        (&self.best, self.best_saved_energy)
    }

    /// Ends the run and hands over its best state and totals; a run that had not stopped
    /// counts as [`StopReason::Stopped`].
    pub fn finish(mut self) -> Outcome<P::Snapshot> {
        self.best();
        Outcome {
            best: self.best,
            energy: self.best_saved_energy,
            iterations: self.iterations,
            restarts: self.tally.restarts,
            reheats: self.tally.reheats,
            elapsed: self.tally.elapsed,
            reason: self.stopped.unwrap_or(StopReason::Stopped),
        }
    }
}

/// A start temperature at which roughly `acceptance` of the uphill moves from the current
/// state would be accepted: T0 = -mean(uphill delta) / ln(acceptance).
pub fn auto_temperature<P: Problem>(
    problem: &P,
    seed: u64,
    acceptance: f64,
    samples: usize,
) -> f64 {
    let mut rng = Rng::seed_from_u64(seed ^ 0x7e57_7e57);
    let (mut sum, mut count) = (0.0, 0usize);
    for _ in 0..samples {
        let mv = problem.propose(&mut rng);
        let d = problem.delta(&mv);
        if P::MOVES_IN_PROPOSE {
            problem.undo(&mv);
        }
        if d > 0.0 {
            sum += d;
            count += 1;
        }
    }
    if count == 0 {
        return 1.0;
    }
    let acceptance = acceptance.clamp(0.01, 0.99);
    -(sum / count as f64) / acceptance.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same run in batches of `batch` steps: where it ended, and its final state.
    fn in_batches(batch: u64) -> (u64, Vec<bool>, u64) {
        // No target: the run cools, stalls, reheats and wanders to the end of its budget.
        let mut config = RunConfig::new(Schedule::Geometric { alpha: 0.9995 }, 3.0);
        config.budget.max_steps = Some(200_000);
        config.stagnation = Some(Stagnation {
            window: 5_000,
            action: StallAction::Reheat { temperature: 1.0 },
        });
        let mut runner = Runner::new(crate::anneal::toy::Bits::ones(400), config, 7);
        while runner.stopped().is_none() {
            runner.step_batch(batch);
        }
        let reheats = runner.sample().reheats;
        (runner.iterations(), runner.problem().bits.clone(), reheats)
    }

    #[test]
    fn a_run_makes_the_same_moves_whatever_its_batch_sizes() {
        let whole = in_batches(1 << 20);
        assert!(whole.2 > 0, "the run reheats at least once");
        for batch in [1, 7, 600, 16_384] {
            assert_eq!(in_batches(batch), whole, "batches of {batch}");
        }
    }
    use crate::anneal::toy::Bits;

    fn greedy() -> RunConfig {
        RunConfig::new(Schedule::Constant, 0.0)
    }

    #[test]
    fn reaches_the_target_and_stops_there() {
        let mut config = greedy();
        config.budget.target = Some(0.0);
        let mut runner = Runner::new(Bits::ones(50), config, 1);
        assert_eq!(runner.run(|_| true), StopReason::Target);
        let outcome = runner.finish();
        assert_eq!(outcome.energy, 0.0);
        assert!(outcome.best.iter().all(|b| !b));
        assert_eq!(outcome.reason, StopReason::Target);
    }

    #[test]
    fn the_same_seed_gives_the_same_run() {
        let run = |seed| {
            let mut config = RunConfig::new(Schedule::Constant, 2.0);
            config.budget.max_steps = Some(10_000);
            let mut runner = Runner::new(Bits::ones(64), config, seed);
            runner.run(|_| true);
            let o = runner.finish();
            (o.best, o.energy, o.iterations)
        };
        assert_eq!(run(7), run(7));
        assert_ne!(run(7).0, run(8).0);
    }

    #[test]
    fn max_steps_is_respected_to_the_batch() {
        let mut config = RunConfig::new(Schedule::Constant, 100.0);
        config.budget.max_steps = Some(1000);
        let mut runner = Runner::new(Bits::ones(64), config, 3);
        assert_eq!(runner.run(|_| true), StopReason::MaxSteps);
        assert!(runner.iterations() >= 1000);
    }

    #[test]
    fn a_forgotten_target_lets_the_run_go_on_to_its_budget() {
        let mut config = RunConfig::new(Schedule::Constant, 0.5);
        config.budget.target = Some(150.0);
        config.budget.max_steps = Some(20_000);
        let mut runner = Runner::new(Bits::ones(200), config, 3);
        runner.run(|_| true);
        assert_eq!(runner.stopped(), Some(StopReason::Target));
        let at_target = runner.iterations();
        runner.forget_target();
        runner.run(|_| true);
        assert_eq!(runner.stopped(), Some(StopReason::MaxSteps));
        assert!(runner.iterations() > at_target);
        assert!(runner.best().1 < 150.0);
    }

    #[test]
    fn time_limit_ends_a_run_without_target() {
        let mut config = RunConfig::new(Schedule::Constant, 100.0);
        config.budget.time_limit = Some(Duration::from_millis(30));
        let mut runner = Runner::new(Bits::ones(64), config, 3);
        assert_eq!(runner.run(|_| true), StopReason::TimeLimit);
    }

    #[test]
    fn best_survives_a_hot_walk_away_from_it() {
        // Greedy to zero would stop at the target; without one, a hot phase wanders off
        // and the best state (all zeros at some point) must still be what is returned.
        let mut config = RunConfig::new(Schedule::Exponential { t_min: 1e-3 }, 0.5);
        config.budget.max_steps = Some(200_000);
        let mut runner = Runner::new(Bits::ones(8), config, 11);
        runner.run(|_| true);
        runner.reheat(1000.0);
        runner.step_batch(5_000);
        let energy_now = runner.energy();
        let (best, best_energy) = runner.best();
        let best_recomputed = best.iter().filter(|b| **b).count() as f64;
        assert_eq!(best_recomputed, best_energy);
        assert!(best_energy <= energy_now);
        assert_eq!(best_energy, 0.0);
    }

    #[test]
    fn stagnation_restarts_are_counted() {
        let mut config = RunConfig::new(Schedule::Constant, 0.0);
        config.budget.max_steps = Some(50_000);
        config.stagnation = Some(Stagnation {
            window: 1000,
            action: StallAction::Restart,
        });
        let mut runner = Runner::new(Bits::ones(16), config, 5);
        runner.run(|_| true);
        let outcome = runner.finish();
        // Greedy reaches 0 quickly, then every 1000 idle steps starts afresh.
        assert!(outcome.restarts >= 20, "restarts = {}", outcome.restarts);
        assert_eq!(outcome.energy, 0.0);
    }

    #[test]
    fn an_unconditional_checkpoint_restarts_every_period() {
        let mut config = RunConfig::new(Schedule::Constant, 1.0);
        config.budget.max_steps = Some(10_000);
        config.checkpoint = Some(Checkpoint {
            every: 700,
            min_gain: f64::INFINITY,
            action: StallAction::Restart,
        });
        let mut runner = Runner::new(Bits::ones(64), config, 5);
        runner.run(|_| true);
        // 10,000 steps rounded up to the run's batch: one restart per 700 steps, exactly.
        let steps = runner.iterations();
        assert_eq!(runner.finish().restarts, steps / 700);
    }

    #[test]
    fn a_checkpoint_acts_only_when_the_gain_is_small() {
        // Greedy on 10,000 bits gains far more than 5 per 500 steps at first, then nothing
        // once it reaches 0: the first restart comes only after the descent.
        let mut config = RunConfig::new(Schedule::Constant, 0.0);
        config.checkpoint = Some(Checkpoint {
            every: 500,
            min_gain: 5.0,
            action: StallAction::Restart,
        });
        let mut runner = Runner::new(Bits::ones(10_000), config.clone(), 5);
        runner.step_batch(500 * 10);
        assert_eq!(runner.sample().restarts, 0);
        let mut runner = Runner::new(Bits::ones(4), config, 5);
        runner.step_batch(500 * 10);
        assert_eq!(runner.sample().restarts, 10);
    }

    #[test]
    fn a_stepped_schedule_changes_temperature_exactly_on_its_boundaries() {
        let config = RunConfig::new(
            Schedule::Stepped {
                alpha: 0.5,
                every: 20,
            },
            8.0,
        );
        let mut runner = Runner::new(Bits::ones(64), config, 5);
        runner.step_batch(19);
        assert_eq!(runner.temperature(), 8.0);
        runner.step_batch(1);
        runner.step_batch(1);
        assert_eq!(runner.temperature(), 4.0);
        runner.step_batch(40);
        assert_eq!(runner.temperature(), 1.0);
    }

    #[test]
    fn reheat_raises_the_temperature_and_is_counted() {
        let mut config = RunConfig::new(Schedule::Geometric { alpha: 0.99 }, 1.0);
        config.budget.max_steps = Some(100_000);
        let mut runner = Runner::new(Bits::ones(16), config, 5);
        runner.step_batch(10_000);
        assert!(runner.temperature() < 1e-6);
        runner.reheat(3.0);
        assert_eq!(runner.temperature(), 3.0);
        assert_eq!(runner.sample().reheats, 1);
    }

    #[test]
    fn an_observer_can_stop_the_run() {
        let mut runner = Runner::new(Bits::ones(16), RunConfig::new(Schedule::Constant, 5.0), 5);
        let mut calls = 0;
        assert_eq!(
            runner.run(|_| {
                calls += 1;
                calls < 3
            }),
            StopReason::Stopped
        );
        assert_eq!(calls, 3);
    }

    /// Flips a bit at 0.25 per bit, so deltas come in quarters.
    struct Quarters(Bits);

    impl Problem for Quarters {
        type Move = usize;
        type Snapshot = Vec<bool>;
        fn energy(&self) -> f64 {
            0.25 * self.0.energy()
        }
        fn propose(&self, rng: &mut Rng) -> usize {
            self.0.propose(rng)
        }
        fn delta(&self, mv: &usize) -> f64 {
            0.25 * self.0.delta(mv)
        }
        fn apply(&mut self, mv: &usize) {
            self.0.apply(mv)
        }
        fn randomize(&mut self, rng: &mut Rng) {
            self.0.randomize(rng)
        }
        fn snapshot(&self) -> Vec<bool> {
            self.0.snapshot()
        }
        fn delta_quantum(&self) -> f64 {
            0.25
        }
    }

    /// Bits whose flips are made as they are proposed, and undone when rejected.
    struct FlipFirst(std::cell::RefCell<Bits>);

    impl Problem for FlipFirst {
        type Move = (usize, f64);
        type Snapshot = Vec<bool>;
        const MOVES_IN_PROPOSE: bool = true;
        fn energy(&self) -> f64 {
            self.0.borrow().energy()
        }
        fn propose(&self, rng: &mut Rng) -> (usize, f64) {
            let mut bits = self.0.borrow_mut();
            let i = bits.propose(rng);
            let delta = bits.delta(&i);
            bits.apply(&i);
            (i, delta)
        }
        fn delta(&self, &(_, delta): &(usize, f64)) -> f64 {
            delta
        }
        fn apply(&mut self, _: &(usize, f64)) {}
        fn undo(&self, (i, _): &(usize, f64)) {
            self.0.borrow_mut().apply(i);
        }
        fn randomize(&mut self, rng: &mut Rng) {
            self.0.get_mut().randomize(rng)
        }
        fn snapshot(&self) -> Vec<bool> {
            self.0.borrow().snapshot()
        }
    }

    #[test]
    fn moves_made_in_propose_and_undone_run_as_moves_looked_at_first() {
        let mut config = RunConfig::new(Schedule::Exponential { t_min: 0.05 }, 3.0);
        config.budget.max_steps = Some(100_000);
        config.stagnation = Some(Stagnation {
            window: 3_000,
            action: StallAction::Reheat { temperature: 2.0 },
        });
        let plain = Runner::new(Bits::ones(300), config.clone(), 4);
        let first = Runner::new(
            FlipFirst(std::cell::RefCell::new(Bits::ones(300))),
            config,
            4,
        );
        let (mut plain, mut first) = (plain, first);
        for _ in 0..40 {
            plain.step_batch(2_500);
            first.step_batch(2_500);
            assert_eq!(first.energy(), plain.energy());
            assert_eq!(first.problem().snapshot(), plain.problem().snapshot());
            let (best, energy) = first.best();
            assert_eq!(best.iter().filter(|&&b| b).count() as f64, energy);
            assert_eq!(energy, plain.best().1);
        }
        assert!(plain.sample().reheats > 0, "the runs reheat");
        let t = auto_temperature(first.problem(), 1, 0.5, 100);
        assert_eq!(t, auto_temperature(plain.problem(), 1, 0.5, 100));
        assert_eq!(first.problem().snapshot(), plain.problem().snapshot());
    }

    #[test]
    fn acceptance_from_the_table_matches_exp() {
        // At T = 0.25 a +0.25 move is accepted with probability e^-1: count how often.
        let mut config = RunConfig::new(Schedule::Constant, 0.25);
        config.budget.max_steps = Some(400_000);
        let mut runner = Runner::new(
            Quarters(Bits {
                bits: vec![false; 1],
            }),
            config,
            9,
        );
        let mut ups = 0u64;
        let mut last = runner.energy();
        for _ in 0..400_000 {
            runner.step_batch(1);
            if runner.energy() > last {
                ups += 1;
            }
            last = runner.energy();
        }
        // From 0 every move is uphill (accepted with e^-1); from 0.25 every move is downhill.
        // So a cycle lasts 1/p + 1 steps on average: ups = n / (1/p + 1).
        let p = (-1f64).exp();
        let expected = 400_000.0 / (1.0 / p + 1.0);
        assert!(
            (ups as f64 - expected).abs() < 0.02 * expected,
            "{ups} vs {expected}"
        );
    }

    #[test]
    fn the_bound_rejects_only_what_exp_rejects() {
        let mut rng = Rng::seed_from_u64(5);
        let mut bounded = 0;
        for i in 0..200_000 {
            // Steps across 1e-6..HOPELESS on a log scale, and u uniform or just below e^-x.
            let x = 1e-6 * (HOPELESS / 1e-6).powf(i as f64 / 200_000.0);
            let p = (-x).exp();
            for u in [rng.random::<f64>(), p * (1.0 - 1e-15), p, p * (1.0 + 1e-15)] {
                assert_eq!(metropolis(x, u), u < p, "x {x} u {u}");
                bounded += usize::from(u * (1.0 + x * (1.0 + 0.5 * x)) >= 1.0);
            }
        }
        assert!(bounded > 50_000, "the bound decides {bounded}");
    }

    #[test]
    fn hopeless_moves_are_never_accepted() {
        let mut config = RunConfig::new(Schedule::Constant, 0.01);
        config.budget.max_steps = Some(100_000);
        // Every move from all-zero is +1 = 100 T: never taken.
        let mut runner = Runner::new(
            Bits {
                bits: vec![false; 8],
            },
            config,
            3,
        );
        runner.run(|_| true);
        assert_eq!(runner.energy(), 0.0);
    }

    #[test]
    fn auto_temperature_matches_the_target_acceptance() {
        let bits = Bits {
            bits: vec![false; 32],
        };
        // Every move is +1, so exp(-1/T) = 0.5 gives T = 1/ln 2.
        let t = auto_temperature(&bits, 1, 0.5, 100);
        assert!((t - 1.0 / 2f64.ln()).abs() < 1e-12);
    }
}
