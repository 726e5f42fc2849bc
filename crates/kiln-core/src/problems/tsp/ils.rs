//! Local search for the end of a run: a greedy 2-opt/Or-opt descent that only re-examines
//! cities whose tour neighbours changed (don't-look bits), and an iterated local search that
//! kicks the tour with a random segment swap (or, now and then, walks a window of it anew
//! as a trial tour would), descends again and goes on from the result
//! unless it is longer by more than a threshold that falls to 0 over each epoch (epochs
//! double in length and restart from the best tour; the budget ends the last). Annealing
//! finds the good region; the kicks repair the last defects, which at low temperature the
//! annealer would need many more steps to find.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use rand::RngExt;

use super::chain::{Chain, Found};
use super::problem::{Move, TspProblem};
use super::trial::Windows;
use crate::anneal::Problem;
use crate::search::{Rng, StopReason, interrupt, postpone};

/// What a descent did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct DescentStats {
    /// Improving moves made.
    pub moves: u64,
    /// Moves whose delta was computed.
    pub evaluations: u64,
    /// The energy change (negative).
    pub delta: f64,
    /// Why it returned.
    pub halt: Halt,
}

/// Why a descent returned.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Halt {
    /// No city is left to examine: the tour is a local optimum.
    #[default]
    LocalOptimum,
    /// Its piece of evaluations is spent with cities still to examine: running it again
    /// goes on where it stopped, to the same tour as one run would have made.
    Paused,
    /// The deadline passed or an interrupt came.
    Stopped,
}

/// A greedy descent over a queue of cities to (re-)examine.
#[derive(Debug, Clone)]
pub struct Descent {
    queue: VecDeque<u32>,
    queued: Vec<bool>,
    chain: Chain,
}

/// The descent a finished run ends with lives here, beside the descent it runs.
impl TspProblem {
    /// Greedy descent with the 2-opt-set moves until none improves (T = 0) or `deadline`
    /// passes, re-examining only cities whose surroundings changed. Used to polish the
    /// final tour.
    pub fn polish(&mut self, deadline: Option<Instant>) -> DescentStats {
        let mut descent = Descent::new(self.order().len());
        descent.queue_all();
        descent.run(self, deadline)
    }
}

impl Descent {
    /// A descent over a tour of `n` cities, with nothing queued yet.
    pub fn new(n: usize) -> Self {
        Descent {
            queue: VecDeque::with_capacity(n),
            queued: vec![false; n],
            chain: Chain::new(n),
        }
    }

    /// Asks for `city` to be examined; a city already waiting is not queued twice.
    pub fn queue(&mut self, city: u32) {
        enqueue(&mut self.queue, &mut self.queued, city);
    }

    /// Queues every city, for a first descent over the whole tour.
    pub fn queue_all(&mut self) {
        for city in 0..self.queued.len() as u32 {
            self.queue(city);
        }
    }

    /// Makes the best improving move of each queued city until the queue is empty (or
    /// `deadline` passes, or an interrupt comes: a first descent of 100,000 cities takes
    /// seconds); the cities a move touches are queued again.
    pub fn run(&mut self, problem: &mut TspProblem, deadline: Option<Instant>) -> DescentStats {
        self.run_piece(problem, deadline, u64::MAX)
    }

    /// [`Descent::run`], pausing once `piece` evaluations are spent: a first descent of a
    /// million cities takes seconds, which chains side by side in lockstep (each waiting
    /// for the other at a batch's end) and a live view (waiting for a snapshot) should not
    /// wait for.
    pub fn run_piece(
        &mut self,
        problem: &mut TspProblem,
        deadline: Option<Instant>,
        piece: u64,
    ) -> DescentStats {
        self.descend(problem, deadline, piece, None)
    }

    /// The descent after `kick`, which stops once the kick is undone: the tour is then
    /// the local optimum the kick started from, around which the cities still queued
    /// were examined before (at 10,000 cities 19 kicks in 20 are undone). At every size:
    /// below 2,000 cities, going on with them reached the optima of 439-1,084-city
    /// instances later once the alpha lists came from LKH's ascent (docs/tuning.md).
    fn after_kick(
        &mut self,
        problem: &mut TspProblem,
        deadline: Option<Instant>,
        kick: &Kick,
    ) -> DescentStats {
        self.descend(problem, deadline, u64::MAX, Some(kick))
    }

    fn descend(
        &mut self,
        problem: &mut TspProblem,
        deadline: Option<Instant>,
        piece: u64,
        kick: Option<&Kick>,
    ) -> DescentStats {
        // Often enough for the deadline to hold at a million cities, where one move can
        // reverse half a million and take milliseconds (every 256 overran 30 s by 3 s).
        const CHECK_EVERY: u64 = 16;
        let mut stats = DescentStats::default();
        let mut popped = 0u64;
        while let Some(a) = self.queue.pop_front() {
            if stats.evaluations >= piece {
                self.queue.push_front(a);
                stats.halt = Halt::Paused;
                return stats;
            }
            popped += 1;
            if popped.is_multiple_of(CHECK_EVERY)
                && (deadline.is_some_and(|d| Instant::now() >= d)
                    || interrupt::requested().is_some())
            {
                self.queue.push_front(a);
                stats.halt = Halt::Stopped;
                return stats;
            }
            self.queued[a as usize] = false;
            let (best, evaluated) = problem.best_move_from(a);
            stats.evaluations += evaluated;
            let moves = stats.moves;
            if let Some((delta, mv)) = best
                && delta < 0.0
            {
                for city in problem.touched(&mv) {
                    self.queue(city);
                }
                problem.apply(&mv);
                stats.moves += 1;
                stats.delta += delta;
            } else {
                self.chain_from(problem, a, &mut stats);
            }
            if stats.moves > moves && kick.is_some_and(|k| k.undone(problem, stats.delta)) {
                while let Some(city) = self.queue.pop_front() {
                    self.queued[city as usize] = false;
                }
            }
        }
        stats
    }

    /// A Lin-Kernighan chain from `t1` ([`Chain`]): finds the sequential 3-opt and
    /// deeper moves that single 2-opt/Or-opt moves miss. The cities it touches are queued.
    fn chain_from(&mut self, problem: &mut TspProblem, t1: u32, stats: &mut DescentStats) {
        let mut found = Found::default();
        if let Some(made) = self.chain.from(problem, t1, &mut found) {
            for r in made {
                for city in [r.u, r.x, r.y, r.v] {
                    enqueue(&mut self.queue, &mut self.queued, city);
                }
            }
            stats.moves += 1;
            stats.delta += found.delta as f64;
        }
        stats.evaluations += found.evaluations;
    }
}

/// Queues `city` unless it is waiting already.
fn enqueue(queue: &mut VecDeque<u32>, queued: &mut [bool], city: u32) {
    if !std::mem::replace(&mut queued[city as usize], true) {
        queue.push_back(city);
    }
}

/// When the kicks stop: whichever comes first.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Moves whose delta may be computed, the first descent's included.
    pub evaluations: u64,
    /// When to stop on the wall clock, if ever.
    pub deadline: Option<Instant>,
    /// An energy known to be optimal: nothing is left to find once it is reached (a tour
    /// shorter than it shows it was none, and the kicks go on).
    pub target: Option<f64>,
}

impl Budget {
    /// Moves the deadline (if any) `by` later: see [`postpone`].
    pub fn postpone(&mut self, by: Duration) {
        postpone(&mut self.deadline, by);
    }
}

/// What the iterated local search did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KickStats {
    /// Kicks made, each followed by a descent.
    pub kicks: u64,
    /// Kicks whose descent ended strictly shorter than the best before.
    pub improvements: u64,
    /// Kicks whose tour was taken to go on from (within the threshold).
    pub taken: u64,
    /// Kicks that walked a window of the tour anew (counted in `kicks` too).
    pub windows: u64,
    /// Moves whose delta was computed, the first descent's and the kicks' included.
    pub evaluations: u64,
}

/// The longest segment a kick moves: from 900 cities on a kick is local, so that it and
/// the descent after it cost the same whatever the size (10,000 cities: segments of up to
/// 300 cities against n/3 left tours 0.3 % shorter at 18 s; docs/tuning.md).
const KICK_SEGMENT_MAX: u32 = 300;

/// A kick: the move, what it costs, and the tour edges it cuts (each a city and the one
/// after it).
#[derive(Debug, Clone, Copy)]
struct Kick {
    mv: Move,
    cost: f64,
    cut: [(u32, u32); 3],
}

impl Kick {
    /// The double bridge of iterated Lin-Kernighan, i.e. swap two adjacent segments of
    /// 1..=n/3 random cities each (at most [`KICK_SEGMENT_MAX`]): up to 900 cities
    /// tour-wide, because short segments leave the search stuck more often there
    /// (docs/tuning.md).
    fn random(problem: &TspProblem, rng: &mut Rng) -> Kick {
        let n = problem.order().len() as u32;
        let longest = (n / 3).clamp(1, KICK_SEGMENT_MAX);
        let first = rng.random_range(1..=longest);
        let second = rng.random_range(1..=longest);
        let start = rng.random_range(0..n);
        let after = (start + first + second - 1) % n;
        let mv = Move::OrOpt {
            start,
            len: first,
            after,
            reversed: false,
        };
        // The run s..e between a and f goes between p and q.
        let [a, s, e, f, p, q] = problem.touched(&mv);
        Kick {
            mv,
            cost: problem.delta(&mv),
            cut: [(a, s), (e, f), (p, q)],
        }
    }

    /// The cities whose tour neighbours the kick changes: the ends of its cut edges.
    fn touched(&self) -> impl Iterator<Item = u32> + '_ {
        self.cut.iter().flat_map(|&(a, b)| [a, b])
    }

    /// Whether a descent that changed the energy by `descended` after this kick put back
    /// what it changed: the tour as long as before, with the cut edges back. A descent
    /// makes only strictly shorter moves, so this is the tour the kick found unless two
    /// different tours' lengths coincide.
    fn undone(&self, problem: &TspProblem, descended: f64) -> bool {
        self.cost + descended == 0.0
            && (self.cut.iter()).all(|&(a, b)| problem.next(a) == b || problem.prev(a) == b)
    }
}

/// One kick in this many walks a window of the tour anew ([`Windows`]) where the local
/// search has alpha lists: at 10,000 cities one in 10 left tours shorter than none, and
/// as short as one in 5 (docs/tuning.md).
const WINDOW_KICK_IN: u32 = 10;

/// How much longer than the tour it came from a kicked and re-descended tour may be and
/// still be kept (the search goes on from it; the best tour is kept aside) when the kicks
/// start, in units of the mean nearest-neighbour edge: `THRESHOLD` below `LARGE_FROM`
/// cities, `LARGE_THRESHOLD` from there. The threshold falls with the square of the budget
/// left, to 0 at its end: threshold accepting (Dueck & Scheuer 1990), the kicks annealed.
/// A fixed threshold left runs stuck in one tour far from the optimum, which no kick undoes
/// while only near-equal tours are taken. Since the chains got faster, one edge reaches the
/// optimum of 575-1,084-city instances sooner than two, but leaves 10,000-city tours a
/// little longer; at 2,000-5,000 cities the two were level (docs/tuning.md).
const THRESHOLD: f64 = 1.0;
const LARGE_THRESHOLD: f64 = 2.0;
const LARGE_FROM: usize = 2_000;

/// The threshold at the kicks' start for `n` cities, in mean nearest-neighbour edges.
fn threshold_edges(n: usize) -> f64 {
    if n < LARGE_FROM {
        THRESHOLD
    } else {
        LARGE_THRESHOLD
    }
}

/// Move evaluations per city of the kicks' first epoch: the threshold falls from its start
/// to 0 within an epoch, then the next epoch, twice as long, starts again from the best
/// tour. Epochs do not stretch with the budget, so a generous limit does not delay what a
/// short one finds (docs/benchmarks.md, "Anytime").
const EPOCH_EVALUATIONS_PER_CITY: u64 = 20_000;

/// The share of the budget left, by time or by evaluations, whichever is less.
fn left(budget: &Budget, started: Instant, evaluations: u64) -> f64 {
    let by_time = budget.deadline.map_or(1.0, |d| {
        let whole = d.saturating_duration_since(started).as_secs_f64();
        1.0 - started.elapsed().as_secs_f64() / whole.max(1e-9)
    });
    let by_evaluations = 1.0 - evaluations as f64 / budget.evaluations as f64;
    by_time.min(by_evaluations).clamp(0.0, 1.0)
}

/// The iterated local search, stepped one descent at a time: first a descent from the
/// problem's tour (a local optimum or not), then kick after kick, each followed by a
/// descent. A kick is never cut short, so the tours it passes through depend only on the
/// seed and the budget, however the steps are batched (a live view and a headless run end
/// on the same tour). The problem is lent to each step, and left on the best tour by
/// [`Kicks::finish`].
///
/// The tour the kicks go on from is the problem's own; its reversals since the best tour
/// are recorded, so that a rejected kick, or the way back to the best tour, is undone in
/// the time it took rather than by copying the tour (a kick changes a few dozen cities of
/// a million).
#[derive(Debug, Clone)]
pub struct Kicks {
    rng: Rng,
    budget: Budget,
    started: Instant,
    descent: Descent,
    stats: KickStats,
    /// Whether the first descent has been made.
    descended: bool,
    cities: usize,
    /// The best energy, and where the best tour is.
    energy: f64,
    best: Best,
    /// The energy of the tour the kicks go on from (the problem's).
    current_energy: f64,
    /// The threshold at the start of an epoch, and where it stands now.
    threshold_start: f64,
    threshold: f64,
    epoch_start: u64,
    epoch: u64,
    /// The best energy when the epoch began, and whether the last epoch to end found
    /// nothing shorter than it.
    epoch_best: f64,
    stalled: bool,
    /// The window kicks, when the tour has them.
    windows: Option<Windows>,
}

/// Where the best tour is.
#[derive(Debug, Clone)]
enum Best {
    /// The problem's tour with the reversals it recorded undone.
    Recorded,
    /// This copy (kept once undoing would cost more than copying).
    Stored(Vec<u32>),
}

/// Reversals recorded since the best tour beyond which it is copied aside: undoing them
/// could then cost more than the copy.
fn recorded_cap(n: usize) -> usize {
    64 + n / 16
}

impl Kicks {
    /// Kicks for `problem`'s tour, drawn from `rng`, within `budget` (counted from now).
    pub fn new(problem: &TspProblem, rng: Rng, budget: Budget) -> Self {
        let n = problem.order().len();
        let threshold = threshold_edges(n) * problem.typical_edge_cost();
        let mut descent = Descent::new(n);
        descent.queue_all();
        Kicks {
            rng,
            budget,
            started: Instant::now(),
            descent,
            stats: KickStats::default(),
            descended: false,
            cities: n,
            energy: problem.energy(),
            best: Best::Recorded,
            current_energy: problem.energy(),
            threshold_start: threshold,
            threshold,
            epoch_start: 0,
            epoch: EPOCH_EVALUATIONS_PER_CITY * n as u64,
            // Set by the first descent, as the first epoch begins.
            epoch_best: f64::INFINITY,
            stalled: false,
            windows: Windows::new(problem),
        }
    }

    /// Moves the deadline `by` later, and the start with it, so that the share of the
    /// budget left (which the threshold falls with) counts only the time spent searching.
    pub fn postpone(&mut self, by: Duration) {
        self.budget.postpone(by);
        self.started = self.started.checked_add(by).unwrap_or(self.started);
    }

    /// What was done so far.
    pub fn stats(&self) -> KickStats {
        self.stats
    }

    /// The best energy found so far.
    pub fn best_energy(&self) -> f64 {
        self.energy
    }

    /// How much longer than the tour it came from a kicked tour may be and still be taken,
    /// now.
    pub fn threshold(&self) -> f64 {
        self.threshold
    }

    /// The energy of the tour the kicks go on from.
    pub fn current_energy(&self) -> f64 {
        self.current_energy
    }

    /// The best tour found so far, `problem` being the one the kicks step.
    pub fn best_order(&self, problem: &TspProblem) -> Vec<u32> {
        match &self.best {
            Best::Stored(order) => order.clone(),
            Best::Recorded => {
                let mut order = Vec::new();
                problem.order_before_recorded(&mut order);
                order
            }
        }
    }

    /// Whether the last epoch to end found no tour shorter than the best before it.
    pub fn stalled(&self) -> bool {
        self.stalled
    }

    /// Whether the budget lets another step be taken: the first descent always is, a kick
    /// while evaluations and time are left and the target is not reached.
    pub fn ended(&self) -> bool {
        self.descended && (self.cities < 8 || self.reason().is_some())
    }

    /// Which budget ended the kicks, if one did: a signal, the known optimum (below it, it
    /// was no optimum and the kicks go on), the evaluations or the deadline.
    pub fn reason(&self) -> Option<StopReason> {
        if interrupt::requested().is_some() {
            Some(StopReason::Interrupted)
        } else if self.budget.target.is_some_and(|t| self.energy == t) {
            Some(StopReason::Target)
        } else if self.stats.evaluations >= self.budget.evaluations {
            Some(StopReason::MaxSteps)
        } else if self.budget.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(StopReason::TimeLimit)
        } else {
            None
        }
    }

    /// Makes the first descent (or the next piece of about `piece` evaluations of it), or
    /// one kick and the descent after it; returns the evaluations it took (at least 1).
    pub fn step(&mut self, problem: &mut TspProblem, piece: u64) -> u64 {
        let before = self.stats.evaluations;
        if !self.descended {
            let descended = self.descent.run_piece(problem, self.budget.deadline, piece);
            self.stats.evaluations += descended.evaluations;
            if descended.halt == Halt::Paused {
                return descended.evaluations.max(1);
            }
            self.descended = true;
            self.energy = problem.energy();
            self.current_energy = self.energy;
            problem.record(true);
            self.epoch_start = self.stats.evaluations;
            self.epoch_best = self.energy;
        } else {
            self.kick(problem);
        }
        (self.stats.evaluations - before).max(1)
    }

    fn kick(&mut self, problem: &mut TspProblem) {
        let mark = problem.recorded();
        let deadline = self.budget.deadline;
        let (cost, descended) = match &mut self.windows {
            Some(windows) if self.rng.random_range(0..WINDOW_KICK_IN) == 0 => {
                let cost = windows.kick(problem, &mut self.rng);
                for city in windows.touched() {
                    self.descent.queue(city);
                }
                self.stats.windows += 1;
                (cost, self.descent.run(problem, deadline))
            }
            _ => {
                let kick = Kick::random(problem, &mut self.rng);
                for city in kick.touched() {
                    self.descent.queue(city);
                }
                problem.apply(&kick.mv);
                (kick.cost, self.descent.after_kick(problem, deadline, &kick))
            }
        };
        self.stats.kicks += 1;
        self.stats.evaluations += descended.evaluations + 1;
        let now = self.current_energy + cost + descended.delta;
        // Equal tours are taken too: they let the search drift along plateaus.
        if now <= self.energy {
            if now < self.energy {
                self.stats.improvements += 1;
            }
            self.energy = now;
            self.best = Best::Recorded;
            problem.forget_recorded();
        }
        let in_epoch = 1.0 - (self.stats.evaluations - self.epoch_start) as f64 / self.epoch as f64;
        let spent = left(&self.budget, self.started, self.stats.evaluations);
        let cooling = spent.min(in_epoch.max(0.0));
        self.threshold = self.threshold_start * cooling.powi(2);
        if now <= self.current_energy + self.threshold {
            self.stats.taken += 1;
            self.current_energy = now;
            match &mut self.best {
                // Only a way back to the best tour needs what was recorded.
                Best::Stored(_) => problem.forget_recorded(),
                Best::Recorded if problem.recorded() > recorded_cap(self.cities) => {
                    let mut order = Vec::new();
                    problem.order_before_recorded(&mut order);
                    problem.forget_recorded();
                    self.best = Best::Stored(order);
                }
                Best::Recorded => {}
            }
        } else {
            problem.undo_to(mark);
        }
        if in_epoch <= 0.0 {
            self.back_to_best(problem);
            self.current_energy = self.energy;
            (self.epoch_start, self.epoch) = (self.stats.evaluations, self.epoch * 2);
            self.stalled = self.energy >= self.epoch_best;
            self.epoch_best = self.energy;
        }
    }

    /// Leaves the best tour in `problem` (recording goes on, from it).
    fn back_to_best(&mut self, problem: &mut TspProblem) {
        match std::mem::replace(&mut self.best, Best::Recorded) {
            Best::Recorded => problem.undo_to(0),
            Best::Stored(order) => problem.set_order(&order),
        }
    }

    /// Leaves the best tour found in `problem`, recording no more.
    pub fn finish(&mut self, problem: &mut TspProblem) {
        self.back_to_best(problem);
        problem.record(false);
    }
}

/// Runs [`Kicks`] from the problem's tour until the budget is spent; leaves the best tour
/// found in `problem`.
pub fn iterate(problem: &mut TspProblem, rng: Rng, budget: Budget) -> KickStats {
    let mut kicks = Kicks::new(problem, rng, budget);
    while !kicks.ended() {
        kicks.step(problem, u64::MAX);
    }
    kicks.finish(problem);
    kicks.stats()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_descent_stops_where_its_kick_is_undone_on_the_tour_the_kick_found() {
        use crate::problems::tsp::random::{self, Layout};
        use crate::problems::tsp::{Cost, Init, MoveSet};
        use rand::SeedableRng;
        let instance = std::sync::Arc::new(random::instance(1_000, Layout::Uniform, 3));
        let mut rng = Rng::seed_from_u64(3);
        let mut problem = TspProblem::new(
            instance,
            MoveSet::TwoOpt,
            Cost::Euclidean,
            5,
            Init::Nearest,
            &mut rng,
        );
        problem.polish(None);
        let neighbours = |p: &TspProblem, c: u32| {
            let (a, b) = (p.prev(c), p.next(c));
            (a.min(b), a.max(b))
        };
        let (kicks, mut undone, mut same) = (300, 0, 0);
        let mut descent = Descent::new(1_000);
        for _ in 0..kicks {
            let before = problem.clone();
            let kick = Kick::random(&problem, &mut rng);
            for city in kick.touched() {
                descent.queue(city);
            }
            problem.apply(&kick.mv);
            let descended = descent.after_kick(&mut problem, None, &kick);
            assert_eq!(
                problem.energy(),
                before.energy() + kick.cost + descended.delta
            );
            if kick.undone(&problem, descended.delta) {
                undone += 1;
                same +=
                    (0..1_000).all(|c| neighbours(&problem, c) == neighbours(&before, c)) as u32;
            }
        }
        // Most kicks are undone, and an undone kick leaves the tour it found (once in 266
        // here a tour as long: its cut edges back, one 2-opt away).
        assert!(
            same + 2 >= undone,
            "{same} of {undone} undone kicks left the tour"
        );
        assert!(undone > kicks / 2, "{undone} of {kicks} undone");
    }

    #[test]
    fn the_threshold_falls_with_whichever_budget_is_spent_first() {
        let started = Instant::now();
        let steps = Budget {
            evaluations: 1000,
            deadline: None,
            target: None,
        };
        assert_eq!(left(&steps, started, 0), 1.0);
        assert_eq!(left(&steps, started, 250), 0.75);
        assert_eq!(left(&steps, started, 5000), 0.0);
        let unlimited = Budget {
            evaluations: u64::MAX,
            ..steps
        };
        assert!(left(&unlimited, started, 1_000_000) > 0.999);
        let passed = Budget {
            deadline: Some(started),
            ..unlimited
        };
        assert_eq!(left(&passed, started, 0), 0.0);
        let far = Budget {
            deadline: Some(started + std::time::Duration::from_secs(3600)),
            ..steps
        };
        assert_eq!(left(&far, started, 500), 0.5);
    }
}
