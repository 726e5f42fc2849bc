//! Lin-Kernighan chains whose steps are sequential 3-opt moves (LKH's `MOVE_TYPE = 3`):
//! from `t1`, break (t1, t2), join t2 to a candidate t3, break (t3, t4) on either side of
//! t3, join t4 to a candidate t5, break (t5, t6) on either side, and close by joining t6
//! (or t4) to t1 when that leaves one tour and gains. A step that gains nowhere goes on
//! from its open end with the most gain, until a step gains or none is left. Trying
//! either side of t3 and t5 reaches the 3-opt moves whose first 2-opt would split the
//! tour (a segment moved elsewhere), which a chain of 2-opt moves cannot.
//!
//! The reversals that make each step are made as the chain goes and undone if it ends
//! with no gain, as LKH does, while they move few cities ([`MADE_CITIES`]); beyond, the
//! tour is looked at through them instead, as a reversal costs up to half the tour and
//! most chains lead nowhere.

use super::kopt::{self, Reversal, STEP_EDGES, Step};
use super::problem::TspProblem;
use super::tour::Run;

/// The most steps a chain takes: the gain criterion ends most chains long before.
const CHAIN_STEPS: usize = 50;

/// The most cities a chain moves to make its steps' reversals as it goes (LKH's way),
/// undoing them if it ends with no gain: a made reversal costs its length once, one looked
/// through a little at every later look. Longer reversals (up to half the tour) are looked
/// through: making every one left a 1,000,000-city run in its first descent after 60 s,
/// and 3,000 or 30,000 made fewer kicks at 100,000 cities (docs/tuning.md).
const MADE_CITIES: u64 = 10_000;

/// What a chain from one city did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct Found {
    /// Candidates looked at.
    pub(super) evaluations: u64,
    /// The change in cost of the move made (0 when none was).
    pub(super) delta: i64,
}

/// A step's cities and where they lie in the tour looked at.
#[derive(Debug, Clone, Copy, Default)]
struct Cities {
    t: [u32; 2 * STEP_EDGES],
    at: [u32; 2 * STEP_EDGES],
}

impl Cities {
    fn step(&self, len: usize, follows: u32) -> Step<'_> {
        Step {
            t: &self.t[..len],
            at: &self.at[..len],
            follows,
        }
    }
}

/// A step being tried: its cities, how many, which follow the one before them, its gain.
type Open = (Cities, usize, u32, i64);

/// The chain's working memory, kept between chains.
#[derive(Debug, Clone)]
pub(super) struct Chain {
    /// The reversals of the steps taken that are looked through rather than made, and
    /// all of the steps' reversals.
    runs: Vec<Run>,
    taken: Vec<Reversal>,
    /// How many of `taken` are made in the tour (the rest are looked through), and how
    /// many reversals the tour had recorded before them.
    made: usize,
    mark: usize,
    step: Vec<Reversal>,
    /// The step being tried, and the best open one of this depth so far.
    t: Cities,
    open: Option<Open>,
    closing: u32,
    /// Edges the chain joined (no later step breaks them), and each city's partners in
    /// them (`u32::MAX`: none).
    joined: Vec<(u32, u32)>,
    joined_to: Vec<[u32; 2]>,
}

impl Chain {
    /// A chain for a tour of `n` cities.
    pub(super) fn new(n: usize) -> Self {
        Chain {
            runs: Vec::with_capacity(3 * CHAIN_STEPS),
            taken: Vec::with_capacity(3 * (CHAIN_STEPS + 1)),
            made: 0,
            mark: 0,
            step: Vec::with_capacity(8),
            t: Cities::default(),
            open: None,
            closing: 0,
            joined: Vec::with_capacity(2 * CHAIN_STEPS),
            joined_to: vec![[u32::MAX; 2]; n],
        }
    }

    /// Tries a chain from `t1` on either side; when one gains, makes it and returns the
    /// reversals it made (whose cities' surroundings changed).
    pub(super) fn from(
        &mut self,
        problem: &mut TspProblem,
        t1: u32,
        found: &mut Found,
    ) -> Option<&[Reversal]> {
        for after in [true, false] {
            self.runs.clear();
            self.taken.clear();
            self.made = 0;
            self.mark = problem.recorded();
            let mut t2 = problem.neighbour_through(&[], t1, after);
            let mut gain = problem.chain_cost(t1, t2);
            let mut closed = None;
            for _ in 0..CHAIN_STEPS {
                self.open = None;
                self.t.t[0] = t1;
                self.t.t[1] = t2;
                self.t.at[0] = problem.pos_through(&self.runs, t1);
                self.t.at[1] = problem.pos_through(&self.runs, t2);
                let (before, _) = problem.beside_through(&self.runs, self.t.at[1], false);
                let follows = (before == t1) as u32;
                if let Some(len) = self.extend(problem, 1, follows, gain, found) {
                    closed = Some(len);
                    break;
                }
                let Some((t, len, f, g)) = self.open else {
                    break;
                };
                self.take(problem, t.step(len, f));
                for i in 0..len / 2 - 1 {
                    self.join(t.t[2 * i + 1], t.t[2 * i + 2]);
                }
                // The next step breaks the edge this one closed with, (t[len - 1], t1).
                t2 = t.t[len - 1];
                gain = g;
            }
            self.unjoin();
            if let Some(len) = closed {
                let t = self.t;
                kopt::reversals(t.step(len, self.closing), &mut self.step);
                self.taken.extend_from_slice(&self.step);
                self.make_taken(problem);
                let gain = gain_closed(problem, &t.t[..len], gain);
                debug_assert_eq!(gain % problem.chain_scale(), 0, "penalties cancel");
                found.delta = -gain / problem.chain_scale();
                return Some(&self.taken);
            }
            self.unmake(problem);
        }
        self.runs.clear();
        None
    }

    /// Takes `step`: makes its reversals and those looked through before, when they move
    /// few enough cities, else looks through them from now on.
    fn take(&mut self, problem: &mut TspProblem, step: Step) {
        kopt::reversals(step, &mut self.step);
        for &r in &self.step {
            let run = problem.block_run_through(&self.runs, r.u, r.x, r.y);
            self.runs.push(run);
        }
        self.taken.extend_from_slice(&self.step);
        let n = problem.order().len() as u32;
        let moved: u64 = self
            .runs
            .iter()
            .map(|r| u64::from(r.span.min(n - 1 - r.span)) + 1)
            .sum();
        if moved <= MADE_CITIES {
            self.make_taken(problem);
        }
    }

    /// Makes the reversals taken and not made yet, those looked through among them: the
    /// tour is then the one the chain looked at.
    fn make_taken(&mut self, problem: &mut TspProblem) {
        for r in &self.taken[self.made..] {
            problem.exchange(r.u, r.x, r.y, r.v);
        }
        self.made = self.taken.len();
        self.runs.clear();
    }

    /// Undoes the reversals a chain that ends with no gain made.
    fn unmake(&mut self, problem: &mut TspProblem) {
        if self.made == 0 {
            return;
        }
        if problem.recording() {
            problem.undo_to(self.mark);
        } else {
            for r in self.taken[..self.made].iter().rev() {
                problem.exchange(r.u, r.y, r.x, r.v);
            }
        }
        self.made = 0;
    }

    /// Extends the step whose first `2 * i` cities are in `t` (`follows` as in [`Step`]),
    /// `gain` being what the chain removed less what it joined so far, not counting the
    /// edge back to t1; returns the length of a step that closes with a gain (its
    /// `follows` in `closing`), else leaves the most promising full one in `open`.
    fn extend(
        &mut self,
        problem: &TspProblem,
        i: usize,
        follows: u32,
        gain: i64,
        found: &mut Found,
    ) -> Option<usize> {
        let (last, t1) = (self.t.t[2 * i - 1], self.t.t[0]);
        for c in 0..problem.candidates(last).len() {
            let (t3, join) = problem.chain_candidate(last, c);
            found.evaluations += 1;
            // Nearest first, once the gain is gone it stays gone; least alpha first, a
            // farther candidate may still gain.
            let g1 = gain - join;
            if g1 <= 0 {
                if problem.candidates_nearest_first() {
                    break;
                }
                continue;
            }
            if self.t.t[..2 * i].contains(&t3) {
                continue;
            }
            let at3 = problem.pos_through(&self.runs, t3);
            for after in [true, false] {
                let (t4, at4) = problem.beside_through(&self.runs, at3, after);
                if self.t.t[..2 * i].contains(&t4) || self.joined_to[t3 as usize].contains(&t4) {
                    continue;
                }
                let g2 = g1 + problem.chain_cost(t3, t4);
                self.t.t[2 * i] = t3;
                self.t.t[2 * i + 1] = t4;
                self.t.at[2 * i] = at3;
                self.t.at[2 * i + 1] = at4;
                let edges = i + 1;
                let f = follows | (after as u32) << i;
                let gains = g2 > problem.chain_cost(t4, t1);
                let promising = edges == STEP_EDGES && self.open.is_none_or(|(_, _, _, g)| g2 > g);
                if (gains || promising) && kopt::closes(self.t.step(2 * edges, f)) {
                    if gains {
                        self.closing = f;
                        return Some(2 * edges);
                    }
                    self.open = Some((self.t, 2 * edges, f, g2));
                }
                if edges < STEP_EDGES
                    && let Some(len) = self.extend(problem, edges, f, g2, found)
                {
                    return Some(len);
                }
            }
        }
        None
    }

    fn join(&mut self, a: u32, b: u32) {
        for (x, y) in [(a, b), (b, a)] {
            let partners = &mut self.joined_to[x as usize];
            partners[(partners[0] != u32::MAX) as usize] = y;
        }
        self.joined.push((a, b));
    }

    fn unjoin(&mut self) {
        for &(a, b) in &self.joined {
            self.joined_to[a as usize] = [u32::MAX; 2];
            self.joined_to[b as usize] = [u32::MAX; 2];
        }
        self.joined.clear();
    }
}

/// What a closed step gains in [`TspProblem::chain_cost`]'s units: `gain` (the chain's
/// before it, with (t1, t2) broken) plus its own edges, less the edge back to t1.
fn gain_closed(problem: &TspProblem, t: &[u32], gain: i64) -> i64 {
    let mut g = gain;
    for i in 1..t.len() / 2 {
        g +=
            problem.chain_cost(t[2 * i], t[2 * i + 1]) - problem.chain_cost(t[2 * i - 1], t[2 * i]);
    }
    g - problem.chain_cost(t[t.len() - 1], t[0])
}

#[cfg(test)]
mod tests {
    use super::{Chain, Found};
    use crate::anneal::Problem;
    use crate::problems::tsp::kopt::tests::{edges, one_tour};
    use crate::problems::tsp::problem::{Cost, Init, MoveSet, TspProblem};
    use crate::problems::tsp::{Layout, random};
    use crate::search::Rng;
    use rand::SeedableRng;
    use std::sync::Arc;

    /// A random tour of 300 random cities.
    fn random_tour(seed: u64) -> TspProblem {
        random_tour_of(300, seed)
    }

    fn random_tour_of(n: usize, seed: u64) -> TspProblem {
        let instance = Arc::new(random::instance(n, Layout::Uniform, seed));
        let mut rng = Rng::seed_from_u64(seed);
        TspProblem::new(
            instance,
            MoveSet::TwoOpt,
            Cost::Euclidean,
            5,
            Init::Random,
            &mut rng,
        )
    }

    #[test]
    fn a_polished_tour_has_no_gaining_first_step_left() {
        // Every 2- and 3-opt step a chain's first step weighs (t3 and t5 among the
        // candidates, either side of each, the gain criterion at t3 and t5), by brute
        // force: a chain of 2-opt moves misses the ones that move a segment elsewhere.
        for seed in 0..6 {
            let mut p = random_tour(seed);
            while p.polish(None).moves > 0 {}
            let mut weighed = 0;
            for t1 in 0..300 {
                for t2 in [p.next(t1), p.prev(t1)] {
                    let g0 = p.cost(t1, t2);
                    for &t3 in p.candidates(t2) {
                        let g1 = g0 - p.cost(t2, t3);
                        if g1 <= 0 {
                            continue;
                        }
                        for t4 in [p.next(t3), p.prev(t3)] {
                            let g2 = g1 + p.cost(t3, t4);
                            let two = [t1, t2, t3, t4];
                            let distinct =
                                |t: &[u32]| (1..t.len()).all(|i| !t[..i].contains(&t[i]));
                            if distinct(&two) && one_tour(p.order(), &two).is_some() {
                                weighed += 1;
                                assert!(g2 <= p.cost(t4, t1), "2-opt {two:?} gains");
                            }
                            for &t5 in p.candidates(t4) {
                                if g2 - p.cost(t4, t5) <= 0 {
                                    continue;
                                }
                                for t6 in [p.next(t5), p.prev(t5)] {
                                    let t = [t1, t2, t3, t4, t5, t6];
                                    if !distinct(&t) || one_tour(p.order(), &t).is_none() {
                                        continue;
                                    }
                                    weighed += 1;
                                    let gain =
                                        g2 - p.cost(t4, t5) + p.cost(t5, t6) - p.cost(t6, t1);
                                    assert!(gain <= 0, "3-opt {t:?} gains {gain}");
                                }
                            }
                        }
                    }
                }
            }
            assert!(weighed > 500, "{weighed} steps weighed");
        }
    }

    #[test]
    fn a_chain_changes_the_energy_by_its_delta_or_leaves_the_tour_as_it_was() {
        // At 300 cities a chain makes its steps as it goes, so one that ends with no gain
        // has reversals to undo: through the record while the kicks record, else by hand.
        // At 2,000 the candidates are alpha-nearness ones and the chain weighs edges in
        // the ascent's transformed costs, which its delta must not carry.
        for seed in 0..6 {
            let n = if seed < 4 { 300 } else { 2_000 };
            let mut p = random_tour_of(n, seed);
            if n > 300 {
                p.choose_local_candidates(None);
                assert_eq!(p.chain_scale(), crate::problems::tsp::alpha::SCALE);
            }
            let mut chain = Chain::new(n);
            let recording = seed % 2 == 0;
            let (mut gained, mut failed) = (0, 0);
            // A random tour (most chains gain), then a polished one (none does).
            for polished in [false, true] {
                // A bounded polish, recorded: a chain that failed to undo would keep it
                // going, before the assertions below name it.
                if polished {
                    p.record(true);
                    for _ in 0..20 {
                        if p.polish(None).moves == 0 {
                            break;
                        }
                    }
                }
                p.record(recording);
                for t1 in 0..300 {
                    let (before, energy, recorded) = (p.order().to_vec(), p.energy(), p.recorded());
                    let mut found = Found::default();
                    if chain.from(&mut p, t1, &mut found).is_some() {
                        gained += 1;
                        assert_eq!(p.energy() - energy, found.delta as f64, "seed {seed}");
                    } else if recording {
                        failed += 1;
                        assert_eq!(p.order(), &before[..], "seed {seed}, from {t1}");
                        assert_eq!(p.recorded(), recorded);
                    } else {
                        failed += 1;
                        assert_eq!(edges(p.order()), edges(&before), "seed {seed}, from {t1}");
                    }
                }
                p.record(false);
            }
            assert!(
                gained > 50 && failed > 200,
                "{gained} gained, {failed} failed"
            );
        }
    }
}
