//! The annealing model: a tour over an instance, with 2-opt + Or-opt moves drawn from
//! nearest-neighbour candidates (the default) or the seed's swap moves.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::RngExt;
use rand::seq::SliceRandom;

use super::alpha;
use super::curve::{Curve, Phase};
use super::distance::{Distances, Neighbours};
use super::instance::Instance;
use super::nearest::{Deadlines, Unvisited};
use super::tour::{Run, Tour};
use crate::anneal::Problem;
use crate::search::{Rng, Sketch};

/// Which moves the annealer proposes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MoveSet {
    /// 2-opt reversals and Or-opt moves of 1-3 cities towards a near neighbour.
    TwoOpt,
    /// The seed's move: swap two consecutive cities.
    SwapAdjacent,
    /// The seed's other move: swap two arbitrary cities.
    Swap,
}

/// What the annealer minimises. The reported length is always the TSPLIB length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cost {
    /// Sum of TSPLIB edge lengths.
    Euclidean,
    /// Sum of squared TSPLIB edge lengths (the seed's option): punishes long edges.
    Squared,
}

/// How the first tour is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Init {
    /// Greedy nearest-neighbour tour from a random city.
    Nearest,
    /// A random permutation.
    Random,
}

crate::named::named!(MoveSet { TwoOpt => "two-opt", SwapAdjacent => "swap-adjacent", Swap => "swap" });
crate::named::named!(Cost { Euclidean => "euclidean", Squared => "squared" });
crate::named::named!(Init { Nearest => "nearest", Random => "random" });

/// A change to the tour, by positions in the visiting order (not by cities).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// Reverse the cyclic run of positions `i..=j` (fewer than n cities).
    Reverse {
        /// Position of the run's first city.
        i: u32,
        /// Position of its last city; below `i` when the run wraps past the end.
        j: u32,
    },
    /// Take the `len` cities from position `start` on and put them between the cities at
    /// positions `after` and `after + 1` (outside the run), reversed or not.
    OrOpt {
        /// Position of the segment's first city.
        start: u32,
        /// Cities in the segment.
        len: u32,
        /// Position of the city the segment is put after.
        after: u32,
        /// Whether the segment goes in back to front.
        reversed: bool,
    },
    /// Swap the cities at positions `i` and `j`; `j == i + 1` (cyclically) when adjacent.
    Swap {
        /// Position of one city.
        i: u32,
        /// Position of the other.
        j: u32,
    },
}

/// The sizes at which the local search gets alpha-nearness candidate lists; outside them it
/// keeps the annealer's. From 100 cities: since the chains weigh edges in the ascent's
/// transformed costs, which come with the lists (and with 300 trees of their ascent at
/// these sizes, as it then was), the optimum of six 439-1,084-city instances came sooner on
/// four (d657 in a ninth of the time), as soon on one and later on one; below, the smallest
/// measured was 130 cities, each run a few hundredths of a second either way. Above: their
/// sparse graph and path tables would take too much memory and time (docs/tuning.md).
pub const ALPHA_CITIES: std::ops::RangeInclusive<usize> = 100..=200_000;

/// The share of the set-up's time left that the alpha-nearness lists may take (the rest
/// is mostly the greedy tour's): their ascent stops there, and their sparse graph, if it
/// would end later, is not made at all.
const ALPHA_SHARE: f64 = 0.1;

/// What the alpha-nearness lists cost a city, about (0.17-0.27 CPU seconds at 10,000
/// cities with 30 trees, 0.40 with 100; 6.6 at 100,000, 30 trees): a set-up whose share
/// for them is less gives them up. At 10,000 cities with `--time-limit 1` and 100,000
/// with 30 they lost more to the kicks they displaced than they gained (docs/tuning.md).
const ALPHA_SECONDS_PER_CITY: f64 = 5e-5;

/// One in this many (out of 64) 2-opt-set proposals is an Or-opt move.
const OR_OPT_IN_64: u64 = 24;

/// The state for UI and report: the cities (shared) and a tour over them.
#[derive(Debug, Clone, PartialEq)]
pub struct TspSnapshot {
    /// The cities and their metric, shared with the problem.
    pub instance: Arc<Instance>,
    /// 0-based city indices in visiting order.
    pub tour: Vec<u32>,
}

impl TspSnapshot {
    /// TSPLIB length of the tour.
    pub fn length(&self) -> u64 {
        self.instance.tour_length(&self.tour)
    }
}

/// A tour being annealed: the instance, its distance table and candidate lists (shared
/// between clones) and the tour itself.
#[derive(Debug, Clone)]
pub struct TspProblem {
    instance: Arc<Instance>,
    // Shared so that cloning a problem (to polish a tour, or per UI run) is cheap.
    distances: Arc<Distances>,
    /// The annealer's proposals' candidates: the nearest of each quadrant, then the rest.
    neighbours: Arc<Neighbours>,
    /// The local search's: alpha-nearness lists, or the annealer's outside
    /// [`ALPHA_CITIES`] (and when they would not be done in time).
    candidates: Arc<Neighbours>,
    /// The time the alpha-nearness lists took, if the local search has them.
    alpha_time: Option<Duration>,
    tour: Tour,
    moves: MoveSet,
    cost: Cost,
}

impl TspProblem {
    /// Builds the distance table, candidate lists and a first tour (from `rng`).
    pub fn new(
        instance: Arc<Instance>,
        moves: MoveSet,
        cost: Cost,
        k: usize,
        init: Init,
        rng: &mut Rng,
    ) -> Self {
        Self::set_up_by(instance, moves, cost, k, init, rng, None)
    }

    /// As `new`, but the candidate lists and the nearest-neighbour tour give way to a
    /// space-filling curve for the cities they would reach after `until` (the curve's
    /// lists too, see `Curve::fill`), so that a run with a short time limit still has time
    /// to anneal.
    pub fn set_up_by(
        instance: Arc<Instance>,
        moves: MoveSet,
        cost: Cost,
        k: usize,
        init: Init,
        rng: &mut Rng,
        until: Option<Instant>,
    ) -> Self {
        let distances = Arc::new(Distances::new(&instance));
        // The greedy tour takes a fraction of the time the exact lists take (a quarter,
        // 0.3 s against 1.2 s at 1,000,000 cities, when the lists went city by city): the
        // lists get two thirds of the time left, so that the tour still has time after.
        let lists_by = until.map(|until| {
            let now = Instant::now();
            now + until.saturating_duration_since(now).mul_f64(2.0 / 3.0)
        });
        let by = Deadlines {
            exact: lists_by,
            done: until,
        };
        let (neighbours, curve) = Neighbours::new(&instance, &distances, k, by);
        let neighbours = Arc::new(neighbours);
        let n = instance.len() as u32;
        let candidates = Arc::clone(&neighbours);
        let mut problem = TspProblem {
            instance,
            distances,
            neighbours,
            candidates,
            alpha_time: None,
            tour: Tour::new((0..n).collect()),
            moves,
            cost,
        };
        match init {
            Init::Random => problem.randomize(rng),
            Init::Nearest => {
                let start = rng.random_range(0..n);
                // Lists that ran late leave no time for the greedy tour either.
                let order = match curve {
                    Some(curve) => curve.order,
                    None => problem.nearest_neighbour_tour(start, until),
                };
                problem.tour.set_order(&order);
            }
        }
        problem
    }

    /// Gives the local search alpha-nearness candidate lists when the instance's size is
    /// in [`ALPHA_CITIES`] and the moves are 2-opt-set ones, within a share
    /// ([`ALPHA_SHARE`]) of the time left until `until`; otherwise, when that share is
    /// less than they are likely to take ([`ALPHA_SECONDS_PER_CITY`]) or their sparse graph
    /// would not be done in it, it keeps the annealer's lists. A run that only anneals has
    /// no use for them.
    pub fn choose_local_candidates(&mut self, until: Option<Instant>) {
        let n = self.instance.len();
        if self.moves != MoveSet::TwoOpt || !ALPHA_CITIES.contains(&n) {
            return;
        }
        let started = Instant::now();
        let by = until.map(|until| {
            started
                + until
                    .saturating_duration_since(started)
                    .mul_f64(ALPHA_SHARE)
        });
        // A budget too short to pay for them is better spent on kicks.
        let cost = Duration::from_secs_f64(n as f64 * ALPHA_SECONDS_PER_CITY);
        if by.is_some_and(|by| by < started + cost) {
            return;
        }
        if let Some(alpha) =
            Neighbours::alpha(&self.instance, &self.distances, self.neighbours.k, by)
        {
            self.candidates = Arc::new(alpha);
            self.alpha_time = Some(started.elapsed());
        }
    }

    /// Each city's parent in the spanning tree the local search's alpha lists were
    /// measured on (`u32::MAX` at the root), when it has them.
    pub(super) fn tree_parents_measured(&self) -> Option<&[u32]> {
        self.candidates.tree_parents_measured()
    }

    /// Each city's parent in the spanning tree alpha-nearness is measured on
    /// (`u32::MAX` at the root): its edges are the ones an optimal tour most likely uses.
    /// The local search's alpha lists' own tree when it has them; otherwise its penalties'
    /// ascent is made now, stopping at `until` (at 10,000 cities it takes about 0.4 s).
    pub fn tree_parents(&self, until: Option<Instant>) -> Vec<u32> {
        match self.tree_parents_measured() {
            Some(parents) => parents.to_vec(),
            None => {
                Neighbours::tree_parents(&self.instance, &self.distances, self.neighbours.k, until)
            }
        }
    }

    /// The cities the tour visits.
    pub fn instance(&self) -> &Arc<Instance> {
        &self.instance
    }

    /// The current tour: 0-based city indices in visiting order.
    pub fn order(&self) -> &[u32] {
        self.tour.order()
    }

    /// Replaces the tour (a permutation of 0..n).
    pub fn set_order(&mut self, order: &[u32]) {
        self.tour.set_order(order);
    }

    /// Starts recording the reversals moves make (from none), or stops: the kicks undo a
    /// rejected kick in the time it took, not by copying the whole tour back.
    pub fn record(&mut self, on: bool) {
        self.tour.record(on);
    }

    /// Whether the reversals moves make are recorded.
    pub fn recording(&self) -> bool {
        self.tour.recording()
    }

    /// How many reversals were recorded.
    pub fn recorded(&self) -> usize {
        self.tour.recorded()
    }

    /// Forgets the reversals recorded; recording goes on.
    pub fn forget_recorded(&mut self) {
        self.tour.forget_recorded();
    }

    /// Undoes the reversals recorded after the first `mark`.
    pub fn undo_to(&mut self, mark: usize) {
        self.tour.undo_to(mark);
    }

    /// The tour before the reversals recorded, into `into` (the tour stays as it is).
    pub fn order_before_recorded(&self, into: &mut Vec<u32>) {
        self.tour.order_before_recorded(into);
    }

    /// TSPLIB length of the current tour, whatever the cost being minimised.
    pub fn length(&self) -> u64 {
        self.instance.tour_length(self.tour.order())
    }

    /// The instance's length scale for temperatures: the mean nearest-neighbour edge, in
    /// units of the cost (squared for the squared cost). At least 1.
    pub fn typical_edge_cost(&self) -> f64 {
        let d = self.neighbours.mean_nearest(&self.distances);
        let cost = match self.cost {
            Cost::Euclidean => d,
            Cost::Squared => d * d,
        };
        cost.max(1.0)
    }

    /// The uphill deltas of `samples` moves proposed from the current tour, sorted: the
    /// instance's own scale of what a move costs.
    pub fn uphill_deltas(&self, rng: &mut Rng, samples: usize) -> Vec<f64> {
        let mut uphill: Vec<f64> = (0..samples)
            .map(|_| self.delta(&self.propose(rng)))
            .filter(|&d| d > 0.0)
            .collect();
        uphill.sort_unstable_by(f64::total_cmp);
        uphill
    }

    /// The greedy tour from `start`, or the order of a space-filling curve when the greedy
    /// one would end after `until` (its last cities, scattered far apart, would make a
    /// greedy start finished along the curve worse than the curve alone).
    fn nearest_neighbour_tour(&self, start: u32, until: Option<Instant>) -> Vec<u32> {
        // Lists that ended at the deadline leave none for bucketing the cities either.
        if until.is_some_and(|until| Instant::now() >= until) {
            return Curve::new(&self.instance.cities).order;
        }
        let n = self.instance.len();
        let mut visited = vec![false; n];
        let mut unvisited = Unvisited::new(&self.instance);
        // Paced from here: the buckets are filled once, not per city.
        let phase = Phase::start(until, n);
        let mut order = Vec::with_capacity(n);
        let mut city = start;
        loop {
            visited[city as usize] = true;
            unvisited.remove(city);
            order.push(city);
            if phase.late(order.len()) {
                return Curve::new(&self.instance.cities).order;
            }
            // Candidates first (cheap), the nearest of all the others when they are used.
            let candidate = self
                .neighbours
                .of(city)
                .iter()
                .copied()
                .find(|&c| !visited[c as usize]);
            let Some(next) =
                candidate.or_else(|| unvisited.nearest(city, |a, b| self.distances.get(a, b)))
            else {
                return order;
            };
            city = next;
        }
    }

    #[inline(always)]
    fn c(&self, a: u32, b: u32) -> i64 {
        self.cost_of_length(self.distances.get(a, b))
    }

    #[inline(always)]
    fn cost_of_length(&self, d: u32) -> i64 {
        let d = d as i64;
        match self.cost {
            Cost::Euclidean => d,
            Cost::Squared => d * d,
        }
    }

    #[inline(always)]
    fn n(&self) -> u32 {
        self.tour.len() as u32
    }

    /// 2-opt that makes `a` and its candidate `c` adjacent: with a's successor
    /// (`after == true`) or predecessor.
    #[inline(always)]
    pub fn two_opt(&self, a: u32, c: u32, after: bool) -> Move {
        let n = self.n();
        let (pa, pc) = (self.tour.pos(a), self.tour.pos(c));
        if after {
            let i = if pa + 1 == n { 0 } else { pa + 1 };
            Move::Reverse { i, j: pc }
        } else {
            let j = if pc == 0 { n - 1 } else { pc - 1 };
            Move::Reverse { i: pa, j }
        }
    }

    /// Or-opt that moves the run of `len` cities starting (`backward == false`) or ending
    /// at `a` next to its candidate `c`, on c's far side (`c_first`) or near side, turned so
    /// that `a` touches `c`. `None` when `c` or its tour neighbour there is in the run.
    #[inline(always)]
    pub fn or_opt(&self, a: u32, c: u32, len: u32, backward: bool, c_first: bool) -> Option<Move> {
        let n = self.n();
        let pa = self.tour.pos(a);
        let start = if backward {
            (pa + n - (len - 1)) % n
        } else {
            pa
        };
        let pc = self.tour.pos(c);
        let after = if c_first { pc } else { (pc + n - 1) % n };
        // Offsets from the run's start: `after` and `after + 1` must both lie outside it.
        let offset = (after + n - start) % n;
        // With two cities outside the run, turning it round between them reverses the
        // whole tour: the same cyclic tour.
        if offset < len || offset == n - 1 || (len + 2 == n && backward == c_first) {
            return None;
        }
        Some(Move::OrOpt {
            start,
            len,
            after,
            reversed: backward == c_first,
        })
    }

    /// The cost of the edge between `a` and `b` (its length, or its square).
    #[inline(always)]
    pub fn cost(&self, a: u32, b: u32) -> i64 {
        self.c(a, b)
    }

    /// The city the tour visits after `city`.
    pub fn next(&self, city: u32) -> u32 {
        self.tour.next(city)
    }

    /// The city the tour visits before `city`.
    pub fn prev(&self, city: u32) -> u32 {
        self.tour.prev(city)
    }

    /// The tour neighbour of `city`, next (`after`) or previous, in the tour as it would be
    /// after reversing `runs` (each in the tour the ones before it leave), without reversing
    /// them: a look through a reversal costs a few table reads, making it up to half the
    /// tour.
    pub fn neighbour_through(&self, runs: &[Run], city: u32, after: bool) -> u32 {
        self.tour.neighbour_through(runs, city, after)
    }

    /// The city beside position `p` (after it or before) in the tour as it would be after
    /// reversing `runs`, and its position there.
    pub fn beside_through(&self, runs: &[Run], p: u32, after: bool) -> (u32, u32) {
        self.tour.beside_through(runs, p, after)
    }

    /// The position of `city` in the tour as it would be after reversing `runs`.
    pub fn pos_through(&self, runs: &[Run], city: u32) -> u32 {
        self.tour.pos_through(runs, city)
    }

    /// Reverses the cyclic run of positions from `i` forward to `j` (each taken modulo the
    /// number of cities), recorded when the tour records.
    pub(super) fn reverse_positions(&mut self, i: u32, j: u32) {
        let n = self.n();
        self.tour.reverse(i % n, j % n);
    }

    /// The run of positions from `x`, the neighbour of `u` on one side, away from `u` to
    /// `y`, in the tour as it would be after reversing `runs`: the block a 2-opt exchange
    /// breaking (u, x) turns round.
    pub fn block_run_through(&self, runs: &[Run], u: u32, x: u32, y: u32) -> Run {
        let (px, py) = (
            self.tour.pos_through(runs, x),
            self.tour.pos_through(runs, y),
        );
        if self.tour.neighbour_through(runs, u, true) == x {
            self.tour.run(px, py)
        } else {
            self.tour.run(py, px)
        }
    }

    /// The 2-opt exchange that breaks (u, x) and (y, v) and joins (u, y) and (x, v), x
    /// following u in the direction v follows y.
    pub fn exchange(&mut self, u: u32, x: u32, y: u32, v: u32) {
        self.tour.exchange(u, x, y, v);
    }

    /// The local search's candidate cities of `city`: nearest first, or least alpha first
    /// ([`Self::candidates_nearest_first`]).
    pub fn candidates(&self, city: u32) -> &[u32] {
        self.candidates.of(city)
    }

    /// Whether the local search's candidates come nearest first: then the first too far
    /// for a move to gain ends a city's list.
    #[inline(always)]
    pub fn candidates_nearest_first(&self) -> bool {
        self.candidates.nearest_first()
    }

    /// The `k`-th of the local search's candidates of `city` and the cost of the edge to
    /// it.
    #[inline(always)]
    pub fn candidate(&self, city: u32, k: usize) -> (u32, i64) {
        let length = self.candidates.lengths_of(city)[k];
        (self.candidates.of(city)[k], self.cost_of_length(length))
    }

    /// The cost of the edge between `a` and `b` as the chains weigh it: with
    /// alpha-nearness lists, scaled by [`Self::chain_scale`] and lifted by the penalties of
    /// both ends (LKH's transformed costs). So weighed, every tour costs its scaled length
    /// plus twice the penalties' sum, and a closed move gains its scaled gain; the chains'
    /// partial gains, and the open steps they go on from, follow the spanning trees the
    /// ascent pushed towards a tour (docs/tuning.md).
    #[inline(always)]
    pub(super) fn chain_cost(&self, a: u32, b: u32) -> i64 {
        self.lifted(a, b, self.c(a, b))
    }

    /// The `k`-th of the local search's candidates of `city` and the cost of the edge to
    /// it as the chains weigh it ([`Self::chain_cost`]).
    #[inline(always)]
    pub(super) fn chain_candidate(&self, city: u32, k: usize) -> (u32, i64) {
        let (b, cost) = self.candidate(city, k);
        (b, self.lifted(city, b, cost))
    }

    #[inline(always)]
    fn lifted(&self, a: u32, b: u32, cost: i64) -> i64 {
        match self.candidates.penalties() {
            Some(pi) => cost * alpha::SCALE + pi[a as usize] + pi[b as usize],
            None => cost,
        }
    }

    /// What [`Self::chain_cost`] scales a cost by.
    pub(super) fn chain_scale(&self) -> i64 {
        match self.candidates.penalties() {
            Some(_) => alpha::SCALE,
            None => 1,
        }
    }

    /// How long the local search's alpha-nearness candidate lists took to make, or `None`
    /// when it has the annealer's lists.
    pub fn alpha_time(&self) -> Option<Duration> {
        self.alpha_time
    }

    /// The best 2-opt-set move that joins `a` to one of its candidates and gains at `a`,
    /// with its delta, and how many moves were evaluated to find it.
    ///
    /// Each move here breaks one of `a`'s tour edges: the one after it (a 2-opt towards its
    /// successor, an Or-opt run ending at `a`) or the one before. Only moves whose broken
    /// edge is longer than the one they make are evaluated (the gain criterion of
    /// Lin-Kernighan and LKH): an improving move that fails it at `a` passes it at another
    /// city it touches; when candidates come nearest first, once neither edge is longer
    /// no later candidate can be.
    pub fn best_move_from(&self, a: u32) -> (Option<(f64, Move)>, u64) {
        let mut best: Option<(f64, Move)> = None;
        let mut evaluated = 0;
        let to_next = self.c(a, self.tour.next(a));
        let to_prev = self.c(a, self.tour.prev(a));
        for k in 0..self.candidates.k {
            let (c, joined) = self.candidate(a, k);
            let (next_gains, prev_gains) = (joined < to_next, joined < to_prev);
            if !next_gains && !prev_gains {
                if self.candidates.nearest_first() {
                    break;
                }
                continue;
            }
            let gains = |backward: bool| if backward { next_gains } else { prev_gains };
            let candidates = [
                next_gains.then(|| self.two_opt(a, c, true)),
                prev_gains.then(|| self.two_opt(a, c, false)),
            ]
            .into_iter()
            .chain((0..12).map(|v| {
                let backward = v & 1 == 1;
                gains(backward)
                    .then(|| self.or_opt(a, c, v / 4 + 1, backward, v & 2 == 2))
                    .flatten()
            }));
            for mv in candidates.flatten() {
                let delta = self.delta(&mv);
                evaluated += 1;
                if best.is_none_or(|(d, _)| delta < d) {
                    best = Some((delta, mv));
                }
            }
        }
        (best, evaluated)
    }

    /// The cities whose tour neighbours `mv` changes (with repeats for 2-opt). For an
    /// Or-opt move, `[a, s, e, f, p, q]`: the run `s..e` between `a` and `f` goes between `p`
    /// and `q`.
    #[inline(always)]
    pub fn touched(&self, mv: &Move) -> [u32; 6] {
        let t = &self.tour;
        let n = self.n();
        match *mv {
            Move::Reverse { i, j } => {
                let ends = [t.at(i + n - 1), t.at(i), t.at(j), t.at(j + 1)];
                [ends[0], ends[1], ends[2], ends[3], ends[0], ends[3]]
            }
            Move::OrOpt {
                start, len, after, ..
            } => [
                t.at(start + n - 1),
                t.at(start),
                t.at(start + len - 1),
                t.at(start + len),
                t.at(after),
                t.at(after + 1),
            ],
            Move::Swap { i, j } => [
                t.at(i + n - 1),
                t.at(i),
                t.at(i + 1),
                t.at(j + n - 1),
                t.at(j),
                t.at(j + 1),
            ],
        }
    }
}

impl Problem for TspProblem {
    type Move = Move;
    type Snapshot = TspSnapshot;

    fn energy(&self) -> f64 {
        let order = self.tour.order();
        let mut prev = order[order.len() - 1];
        let mut sum = 0i64;
        for &city in order {
            sum += self.c(prev, city);
            prev = city;
        }
        sum as f64
    }

    #[inline(always)]
    fn propose(&self, rng: &mut Rng) -> Move {
        let n = self.n();
        // One random word per move: low half picks the city, the rest the details.
        let r: u64 = rng.random();
        let first = (((r & 0xffff_ffff) * n as u64) >> 32) as u32;
        match self.moves {
            MoveSet::TwoOpt => {
                let list = self.neighbours.of(first);
                let k = list.len();
                let mut pick = (((r >> 32 & 0xffff) * k as u64) >> 16) as usize;
                let side = r >> 48 & 1 == 1;
                if r >> 58 < OR_OPT_IN_64 {
                    let len = (((r >> 50 & 0xff) * 3) >> 8) as u32 + 1;
                    if let Some(mv) = self.or_opt(first, list[pick], len, r >> 49 & 1 == 1, side) {
                        return mv;
                    }
                }
                // A 2-opt towards a tour neighbour reverses one city (or all but one): on
                // either side it drops and adds the same two edges. The next candidate that
                // is no tour neighbour takes its place; at most two of them are neighbours.
                let pa = self.tour.pos(first);
                let beside = |c: u32| {
                    let pc = self.tour.pos(c);
                    pc == if pa + 1 == n { 0 } else { pa + 1 }
                        || pa == if pc + 1 == n { 0 } else { pc + 1 }
                };
                for _ in 0..k {
                    let c = list[pick];
                    if !beside(c) {
                        return self.two_opt(first, c, side);
                    }
                    pick = if pick + 1 == k { 0 } else { pick + 1 };
                }
                // Every candidate is a tour neighbour (fewer than three of them): moving
                // `first` past one of them is a real change from four cities on.
                let c = list[pick];
                self.or_opt(first, c, 1, false, self.tour.next(first) == c)
                    .unwrap_or_else(|| self.two_opt(first, c, side))
            }
            MoveSet::SwapAdjacent => Move::Swap {
                i: first,
                j: if first + 1 == n { 0 } else { first + 1 },
            },
            MoveSet::Swap => {
                let mut j = (((r >> 32) * (n as u64 - 1)) >> 32) as u32;
                if j >= first {
                    j += 1;
                }
                // Of four cities, two opposite ones have the same two neighbours: swapping
                // them changes no edge, swapping one with its successor does.
                if n == 4 && (first + 2) % 4 == j {
                    j = (first + 1) % 4;
                }
                // Adjacent pairs are stored in tour order so `delta` can spot them.
                if (first + 1) % n == j {
                    Move::Swap { i: first, j }
                } else {
                    Move::Swap { i: j, j: first }
                }
            }
        }
    }

    #[inline(always)]
    fn delta(&self, mv: &Move) -> f64 {
        let t = &self.tour;
        let n = self.n();
        let d = match *mv {
            Move::Reverse { i, j } => {
                let (a, b) = (t.at(i + n - 1), t.at(i));
                let (c, d) = (t.at(j), t.at(j + 1));
                self.c(a, c) + self.c(b, d) - self.c(a, b) - self.c(c, d)
            }
            Move::OrOpt { reversed, .. } => {
                let [a, s, e, f, p, q] = self.touched(mv);
                let inserted = if reversed {
                    self.c(p, e) + self.c(s, q)
                } else {
                    self.c(p, s) + self.c(e, q)
                };
                self.c(a, f) + inserted - self.c(a, s) - self.c(e, f) - self.c(p, q)
            }
            Move::Swap { i, j } => {
                let (x, y) = (t.at(i), t.at(j));
                let (xp, yn) = (t.at(i + n - 1), t.at(j + 1));
                if t.at(i + 1) == y {
                    self.c(xp, y) + self.c(x, yn) - self.c(xp, x) - self.c(y, yn)
                } else {
                    let (xn, yp) = (t.at(i + 1), t.at(j + n - 1));
                    self.c(xp, y) + self.c(y, xn) + self.c(yp, x) + self.c(x, yn)
                        - self.c(xp, x)
                        - self.c(x, xn)
                        - self.c(yp, y)
                        - self.c(y, yn)
                }
            }
        };
        d as f64
    }

    fn apply(&mut self, mv: &Move) {
        match *mv {
            Move::Reverse { i, j } => self.tour.reverse(i, j),
            Move::OrOpt { reversed, .. } => {
                let [a, s, e, f, p, q] = self.touched(mv);
                // a [s..e] f..p q  ->  a p..f [e..s] q  ->  a f..p [e..s] q  (-> [s..e])
                self.tour.exchange(a, s, p, q);
                self.tour.exchange(a, p, f, e);
                if !reversed {
                    self.tour.exchange(p, e, s, q);
                }
            }
            Move::Swap { i, j } => self.tour.swap(i, j),
        }
    }

    /// The tour edges the move takes out and puts in, cities numbered from 1 in the words
    /// (as TSPLIB numbers them) and from 0 in the places.
    fn sketch(&self, mv: &Move) -> Option<Sketch> {
        let [a, b, c, d, e, f] = self.touched(mv);
        let (kind, removed, added) = match *mv {
            Move::Reverse { .. } => ("2-opt", vec![(a, b), (c, d)], vec![(a, c), (b, d)]),
            Move::OrOpt { reversed, .. } => {
                // The run b..c between a and d goes between e and f.
                let (first, last) = if reversed { (c, b) } else { (b, c) };
                (
                    "or-opt",
                    vec![(a, b), (c, d), (e, f)],
                    vec![(a, d), (e, first), (last, f)],
                )
            }
            Move::Swap { .. } if c == e => ("swap", vec![(a, b), (e, f)], vec![(a, e), (b, f)]),
            Move::Swap { .. } => (
                "swap",
                vec![(a, b), (b, c), (d, e), (e, f)],
                vec![(a, e), (e, c), (d, b), (b, f)],
            ),
        };
        // Cities by the numbers the file gives them.
        let label = |city: u32| self.instance.label(city) + 1;
        let named = |edges: &[(u32, u32)]| {
            let names: Vec<String> = edges
                .iter()
                .map(|&(x, y)| format!("{}-{}", label(x), label(y)))
                .collect();
            names.join(" ")
        };
        let words = match *mv {
            Move::Swap { .. } => {
                let (x, y) = if c == e { (b, c) } else { (b, e) };
                format!("swap cities {} <-> {}", label(x), label(y))
            }
            _ => format!("{kind}: drop {}, add {}", named(&removed), named(&added)),
        };
        let mut places: Vec<u32> = removed.iter().flat_map(|&(x, y)| [x, y]).collect();
        places.sort_unstable();
        places.dedup();
        Some(Sketch {
            words,
            places,
            removed,
            added,
        })
    }

    /// A fresh random permutation: a restart should forget the old tour entirely (a
    /// perturbation is what a reheat already gives).
    fn randomize(&mut self, rng: &mut Rng) {
        let mut order: Vec<u32> = (0..self.n()).collect();
        order.shuffle(rng);
        self.tour.set_order(&order);
    }

    fn snapshot(&self) -> TspSnapshot {
        TspSnapshot {
            instance: Arc::clone(&self.instance),
            tour: self.tour.order().to_vec(),
        }
    }

    fn snapshot_into(&self, into: &mut TspSnapshot) {
        if !Arc::ptr_eq(&into.instance, &self.instance) {
            into.instance = Arc::clone(&self.instance);
        }
        into.tour.clear();
        into.tour.extend_from_slice(self.tour.order());
    }

    fn snapshot_cost(&self) -> usize {
        self.tour.len() * 4
    }
}
