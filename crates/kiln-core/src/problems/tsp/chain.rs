//! Lin-Kernighan chains whose steps are sequential 3-opt moves (LKH's `MOVE_TYPE = 3`):
//! from `t1`, break (t1, t2), join t2 to a candidate t3, break (t3, t4) on either side of
//! t3, join t4 to a candidate t5, break (t5, t6) on either side, and close by joining t6
//! (or t4) to t1 when that leaves one tour and gains. A step that gains nowhere goes on
//! from its open end with the most gain, the tour looked at through the reversals that
//! would make the step, until a step gains or none is left. Trying either side of t3 and
//! t5 reaches the 3-opt moves whose first 2-opt would split the tour (a segment moved
//! elsewhere), which a chain of 2-opt moves cannot.
//!
//! A reversal costs up to half the tour and most chains lead nowhere, so a chain's steps
//! are not made while it is tried: the tour is looked at through their reversals.

use super::kopt::{self, Reversal, STEP_EDGES, Step};
use super::problem::TspProblem;
use super::tour::Run;

/// The most steps a chain takes: the gain criterion ends most chains long before.
const CHAIN_STEPS: usize = 50;

/// The most reversals a chain looks through (up to three a step): every look at the tour
/// goes through each of them, so beyond this they are made, and undone if the chain ends
/// with no gain (at 10,000 cities 10-20 % more kicks in a time limit than looking through
/// all of them; docs/tuning.md).
const LOOKED_THROUGH: usize = 12;

/// What a chain from one city did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct Found {
    /// Candidates looked at.
    pub(super) evaluations: u64,
    /// The change in cost of the move made (0 when none was).
    pub(super) delta: i64,
}

/// A step being tried: its cities, and which follow the one before them.
type Open = ([u32; 2 * STEP_EDGES], usize, u32, i64);

/// The chain's working memory, kept between chains.
#[derive(Debug, Clone)]
pub(super) struct Chain {
    /// The reversals of the steps taken, looked through rather than made.
    runs: Vec<Run>,
    made: Vec<Reversal>,
    /// How many of `made` are made in the tour (the rest are looked through).
    applied: usize,
    step: Vec<Reversal>,
    /// The step being tried, and the best open one of this depth so far.
    t: [u32; 2 * STEP_EDGES],
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
            made: Vec::with_capacity(3 * CHAIN_STEPS),
            applied: 0,
            step: Vec::with_capacity(8),
            t: [0; 2 * STEP_EDGES],
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
            let first = problem.neighbour_through(&[], t1, after);
            self.runs.clear();
            self.made.clear();
            self.applied = 0;
            let (mut t2, mut follows, mut gain) = (first, after as u32, problem.cost(t1, first));
            let mut closed = None;
            for _ in 0..CHAIN_STEPS {
                self.open = None;
                self.t[0] = t1;
                self.t[1] = t2;
                if let Some(len) = self.extend(problem, 1, follows, gain, found) {
                    closed = Some(len);
                    break;
                }
                let Some((t, len, f, g)) = self.open else {
                    break;
                };
                self.take(
                    problem,
                    Step {
                        t: &t[..len],
                        follows: f,
                    },
                );
                for i in 0..len / 2 - 1 {
                    self.join(t[2 * i + 1], t[2 * i + 2]);
                }
                // The next step breaks the edge this one closed with, (t[len - 1], t1).
                t2 = t[len - 1];
                follows = (problem.neighbour_through(&self.runs, t1, true) == t2) as u32;
                gain = g;
            }
            self.unjoin();
            if let Some(len) = closed {
                let t = self.t;
                let step = Step {
                    t: &t[..len],
                    follows: self.closing,
                };
                kopt::reversals(problem, &self.runs, step, &mut self.step);
                self.made.extend_from_slice(&self.step);
                self.runs.clear();
                for r in &self.made[self.applied..] {
                    problem.exchange(r.u, r.x, r.y, r.v);
                }
                found.delta = -gain_closed(problem, &t[..len], gain);
                return Some(&self.made);
            }
            for r in self.made[..self.applied].iter().rev() {
                problem.exchange(r.u, r.y, r.x, r.v);
            }
        }
        self.runs.clear();
        None
    }

    /// Looks through `step`'s reversals from now on.
    fn take(&mut self, problem: &mut TspProblem, step: Step) {
        kopt::reversals(problem, &self.runs, step, &mut self.step);
        for &r in &self.step {
            let run = problem.block_run_through(&self.runs, r.u, r.x, r.y);
            self.runs.push(run);
        }
        self.made.extend_from_slice(&self.step);
        if self.runs.len() > LOOKED_THROUGH {
            for r in &self.made[self.applied..] {
                problem.exchange(r.u, r.x, r.y, r.v);
            }
            self.applied = self.made.len();
            self.runs.clear();
        }
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
        let last = self.t[2 * i - 1];
        let t1 = self.t[0];
        for c in 0..problem.candidates(last).len() {
            let (t3, join) = problem.candidate(last, c);
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
            if self.t[..2 * i].contains(&t3) {
                continue;
            }
            for after in [true, false] {
                let t4 = problem.neighbour_through(&self.runs, t3, after);
                if self.t[..2 * i].contains(&t4) || self.joined_to[t3 as usize].contains(&t4) {
                    continue;
                }
                let g2 = g1 + problem.cost(t3, t4);
                self.t[2 * i] = t3;
                self.t[2 * i + 1] = t4;
                let edges = i + 1;
                let f = follows | (after as u32) << i;
                let gains = g2 > problem.cost(t4, t1);
                let promising = edges == STEP_EDGES && self.open.is_none_or(|(_, _, _, g)| g2 > g);
                let step = Step {
                    t: &self.t[..2 * edges],
                    follows: f,
                };
                if (gains || promising) && kopt::closes(problem, &self.runs, step) {
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

/// What a closed step gains: `gain` (the chain's before it, with (t1, t2) broken) plus
/// its own edges, less the edge back to t1.
fn gain_closed(problem: &TspProblem, t: &[u32], gain: i64) -> i64 {
    let mut g = gain;
    for i in 1..t.len() / 2 {
        g += problem.cost(t[2 * i], t[2 * i + 1]) - problem.cost(t[2 * i - 1], t[2 * i]);
    }
    g - problem.cost(t[t.len() - 1], t[0])
}
