//! A small conflict-driven clause-learning SAT solver (MiniSat's design): two watched
//! literals, first-UIP learning with clause minimisation, VSIDS, saved phases, Luby
//! restarts and a clause database trimmed by LBD. It runs in slices of work, so a worker
//! thread can interleave it with telemetry.

use rand::RngExt;

use crate::search::Rng;

/// A variable, 0-based.
pub type Var = u32;

/// A variable or its negation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit(u32);

impl Lit {
    /// `var` itself when `positive`, else its negation.
    pub fn new(var: Var, positive: bool) -> Lit {
        Lit(var * 2 + u32::from(!positive))
    }

    /// The variable, whichever the sign.
    pub fn var(self) -> Var {
        self.0 >> 1
    }

    /// Whether this is the variable rather than its negation.
    pub fn positive(self) -> bool {
        self.0 & 1 == 0
    }

    fn index(self) -> usize {
        self.0 as usize
    }
}

impl std::ops::Not for Lit {
    type Output = Lit;

    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

/// What a slice of search ended with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Every variable is assigned and no clause is false: `value` reads the model.
    Satisfied,
    /// No assignment satisfies the clauses.
    Refuted,
    /// The slice's work ran out first; `solve` goes on from here.
    Unknown,
}

/// An index into the list of long clauses.
type ClauseRef = u32;

/// Why a variable has its value. Two-literal clauses are kept only in the watch lists (a
/// Sudoku's exclusions are almost all of its clauses: 700,000 on an empty 25x25), so a
/// value they imply names the clause's other literal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reason {
    Decision,
    Binary(Lit),
    Long(ClauseRef),
}

/// A clause found false: two literals, or a long clause.
#[derive(Debug, Clone, Copy)]
enum Conflict {
    Binary(Lit, Lit),
    Long(ClauseRef),
}

struct Clause {
    lits: Vec<Lit>,
    learnt: bool,
    /// Distinct decision levels among the literals when it was learnt (0 for originals).
    lbd: u32,
}

#[derive(Clone, Copy)]
struct Watch {
    clause: ClauseRef,
    /// A literal of the clause: when it is true the clause need not be looked at.
    blocker: Lit,
}

/// Restarts follow the Luby sequence times this many conflicts.
const RESTART_UNIT: u64 = 100;
/// Learnt clauses kept before the first trim; the cap grows by a tenth at every trim.
const FIRST_LEARNT_CAP: usize = 2_000;
/// Learnt clauses with at most this LBD ("glue" clauses) are never trimmed.
const GLUE: u32 = 2;
const VAR_DECAY: f64 = 0.95;

/// Variable activities in a max-heap, for picking the next decision.
#[derive(Default)]
struct Order {
    activity: Vec<f64>,
    heap: Vec<Var>,
    /// Where each variable sits in `heap` (`usize::MAX` when not in it).
    position: Vec<usize>,
    increment: f64,
}

impl Order {
    fn add(&mut self, activity: f64) {
        let var = self.activity.len() as Var;
        self.activity.push(activity);
        self.position.push(usize::MAX);
        self.insert(var);
    }

    fn contains(&self, var: Var) -> bool {
        self.position[var as usize] != usize::MAX
    }

    fn insert(&mut self, var: Var) {
        if self.contains(var) {
            return;
        }
        self.position[var as usize] = self.heap.len();
        self.heap.push(var);
        self.up(self.heap.len() - 1);
    }

    fn pop(&mut self) -> Option<Var> {
        let top = *self.heap.first()?;
        let last = self.heap.pop().expect("not empty");
        self.position[top as usize] = usize::MAX;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.position[last as usize] = 0;
            self.down(0);
        }
        Some(top)
    }

    fn bump(&mut self, var: Var) {
        let a = &mut self.activity[var as usize];
        *a += self.increment;
        if *a > 1e100 {
            for a in &mut self.activity {
                *a *= 1e-100;
            }
            self.increment *= 1e-100;
        }
        if self.contains(var) {
            self.up(self.position[var as usize]);
        }
    }

    fn decay(&mut self) {
        self.increment /= VAR_DECAY;
    }

    fn above(&self, a: Var, b: Var) -> bool {
        self.activity[a as usize] > self.activity[b as usize]
    }

    fn place(&mut self, at: usize, var: Var) {
        self.heap[at] = var;
        self.position[var as usize] = at;
    }

    fn up(&mut self, mut at: usize) {
        let var = self.heap[at];
        while at > 0 {
            let parent = (at - 1) / 2;
            if !self.above(var, self.heap[parent]) {
                break;
            }
            self.place(at, self.heap[parent]);
            at = parent;
        }
        self.place(at, var);
    }

    fn down(&mut self, mut at: usize) {
        let var = self.heap[at];
        loop {
            let left = 2 * at + 1;
            if left >= self.heap.len() {
                break;
            }
            let right = left + 1;
            let child = if right < self.heap.len() && self.above(self.heap[right], self.heap[left])
            {
                right
            } else {
                left
            };
            if !self.above(self.heap[child], var) {
                break;
            }
            self.place(at, self.heap[child]);
            at = child;
        }
        self.place(at, var);
    }
}

/// The solver: clauses, the assignment and everything learnt so far.
pub struct Cdcl {
    clauses: Vec<Clause>,
    /// Per literal, the long clauses watching it (looked at when it becomes false).
    watches: Vec<Vec<Watch>>,
    /// Per literal, the other literal of each two-literal clause holding it.
    binaries: Vec<Vec<Lit>>,
    /// Per variable: Some(true), Some(false) or None.
    assigned: Vec<Option<bool>>,
    level: Vec<u32>,
    reason: Vec<Reason>,
    /// The sign a variable takes when decided (its last value: phase saving).
    phase: Vec<bool>,
    trail: Vec<Lit>,
    /// Where each decision level starts on the trail.
    levels: Vec<usize>,
    /// Trail entries propagated so far.
    propagated: usize,
    order: Order,
    seen: Vec<bool>,
    /// Per decision level, the last conflict that counted it (for LBD).
    level_stamp: Vec<u64>,
    refuted: bool,
    conflicts: u64,
    restarts: u64,
    conflicts_to_restart: u64,
    /// Conflicts since the last restart (kept across slices, so that how the work is
    /// sliced never changes the search).
    conflicts_since_restart: u64,
    learnt_cap: usize,
    learnt: usize,
    /// Watch visits and assignments, the unit `solve` is given its slices in.
    work: u64,
    /// Variables assigned true now.
    true_count: usize,
    /// Scratch for conflict analysis, kept so that it allocates only the learnt clause:
    /// the clause being built, the variables to unmark after it, a depth-first stack, the
    /// literals of the clause being resolved.
    learnt_scratch: Vec<Lit>,
    to_clear: Vec<Var>,
    stack: Vec<Var>,
    reason_scratch: Vec<Lit>,
}

impl Cdcl {
    /// A solver over `vars` variables and no clauses; `rng` breaks the first ties among
    /// decisions, so seeds explore differently.
    pub fn new(vars: usize, rng: &mut Rng) -> Self {
        let mut order = Order {
            increment: 1.0,
            ..Order::default()
        };
        for _ in 0..vars {
            order.add(rng.random::<f64>() * 1e-5);
        }
        Cdcl {
            clauses: Vec::new(),
            watches: vec![Vec::new(); 2 * vars],
            binaries: vec![Vec::new(); 2 * vars],
            assigned: vec![None; vars],
            level: vec![0; vars],
            reason: vec![Reason::Decision; vars],
            phase: vec![false; vars],
            trail: Vec::with_capacity(vars),
            levels: Vec::new(),
            propagated: 0,
            order,
            seen: vec![false; vars],
            level_stamp: vec![0; vars + 1],
            refuted: false,
            conflicts: 0,
            restarts: 0,
            conflicts_to_restart: RESTART_UNIT,
            conflicts_since_restart: 0,
            learnt_cap: FIRST_LEARNT_CAP,
            learnt: 0,
            work: 0,
            true_count: 0,
            learnt_scratch: Vec::new(),
            to_clear: Vec::new(),
            stack: Vec::new(),
            reason_scratch: Vec::new(),
        }
    }

    /// Adds an original clause; only before the first `solve`.
    pub fn add_clause(&mut self, lits: &[Lit]) {
        debug_assert!(self.levels.is_empty());
        let mut lits = lits.to_vec();
        lits.sort_unstable();
        lits.dedup();
        if lits.windows(2).any(|w| w[0] == !w[1])
            || lits.iter().any(|&l| self.value(l) == Some(true))
        {
            return;
        }
        lits.retain(|&l| self.value(l).is_none());
        match lits.len() {
            0 => self.refuted = true,
            1 => {
                self.assign(lits[0], Reason::Decision);
                if self.propagate().is_some() {
                    self.refuted = true;
                }
            }
            2 => self.add_binary(lits[0], lits[1]),
            _ => {
                self.attach(Clause {
                    lits,
                    learnt: false,
                    lbd: 0,
                });
            }
        }
    }

    /// The value a literal has now.
    pub fn value(&self, lit: Lit) -> Option<bool> {
        value_in(&self.assigned, lit)
    }

    /// The variables assigned now, in the order they were.
    pub fn trail(&self) -> &[Lit] {
        &self.trail
    }

    /// Conflicts so far (each one a clause learnt, or the refutation).
    pub fn conflicts(&self) -> u64 {
        self.conflicts
    }

    /// Restarts so far.
    pub fn restarts(&self) -> u64 {
        self.restarts
    }

    /// Variables assigned true now (in a one-hot encoding: the choices made).
    pub fn true_count(&self) -> usize {
        self.true_count
    }

    /// Takes back every decision, keeping the learnt clauses.
    pub fn restart_search(&mut self) {
        self.backtrack(0);
    }

    /// Work done so far (watch visits and assignments).
    pub fn work(&self) -> u64 {
        self.work
    }

    /// Searches until the clauses are satisfied or refuted, or `work` more units are
    /// spent; `on_fixpoint` sees every conflict-free assignment propagation reaches.
    pub fn solve(&mut self, work: u64, mut on_fixpoint: impl FnMut(&Cdcl)) -> Status {
        if self.refuted {
            return Status::Refuted;
        }
        let until = self.work + work;
        loop {
            if let Some(conflict) = self.propagate() {
                self.conflicts += 1;
                self.conflicts_since_restart += 1;
                if self.levels.is_empty() {
                    self.refuted = true;
                    return Status::Refuted;
                }
                self.learn_from(conflict);
                continue;
            }
            on_fixpoint(self);
            if self.conflicts_since_restart >= self.conflicts_to_restart {
                self.restart();
            }
            if self.work >= until {
                return Status::Unknown;
            }
            let Some(var) = self.next_decision() else {
                return Status::Satisfied;
            };
            self.levels.push(self.trail.len());
            self.assign(Lit::new(var, self.phase[var as usize]), Reason::Decision);
        }
    }

    fn next_decision(&mut self) -> Option<Var> {
        while let Some(var) = self.order.pop() {
            if self.assigned[var as usize].is_none() {
                return Some(var);
            }
        }
        None
    }

    fn restart(&mut self) {
        self.restarts += 1;
        self.conflicts_since_restart = 0;
        self.conflicts_to_restart = RESTART_UNIT * luby(self.restarts);
        self.backtrack(0);
        if self.learnt > self.learnt_cap {
            self.trim_learnt();
            self.learnt_cap += self.learnt_cap / 10;
        }
    }

    fn assign(&mut self, lit: Lit, reason: Reason) {
        let var = lit.var() as usize;
        self.assigned[var] = Some(lit.positive());
        self.level[var] = self.levels.len() as u32;
        self.reason[var] = reason;
        self.trail.push(lit);
        self.true_count += usize::from(lit.positive());
        self.work += 1;
    }

    fn add_binary(&mut self, a: Lit, b: Lit) {
        self.binaries[a.index()].push(b);
        self.binaries[b.index()].push(a);
    }

    /// Watches a clause of three or more literals by its first two.
    fn attach(&mut self, clause: Clause) -> ClauseRef {
        let at = self.clauses.len() as ClauseRef;
        let (a, b) = (clause.lits[0], clause.lits[1]);
        self.watches[a.index()].push(Watch {
            clause: at,
            blocker: b,
        });
        self.watches[b.index()].push(Watch {
            clause: at,
            blocker: a,
        });
        self.learnt += usize::from(clause.learnt);
        self.clauses.push(clause);
        at
    }

    /// Unit propagation to a fixpoint; the clause found false, if any.
    fn propagate(&mut self) -> Option<Conflict> {
        while self.propagated < self.trail.len() {
            let false_lit = !self.trail[self.propagated];
            self.propagated += 1;
            for i in 0..self.binaries[false_lit.index()].len() {
                let other = self.binaries[false_lit.index()][i];
                self.work += 1;
                match self.value(other) {
                    Some(true) => {}
                    Some(false) => {
                        self.propagated = self.trail.len();
                        return Some(Conflict::Binary(false_lit, other));
                    }
                    None => self.assign(other, Reason::Binary(false_lit)),
                }
            }
            if let Some(clause) = self.propagate_long(false_lit) {
                self.propagated = self.trail.len();
                return Some(Conflict::Long(clause));
            }
        }
        None
    }

    /// The long clauses watching `false_lit`, which has just become false.
    fn propagate_long(&mut self, false_lit: Lit) -> Option<ClauseRef> {
        let mut watches = std::mem::take(&mut self.watches[false_lit.index()]);
        let (mut i, mut j) = (0, 0);
        let mut conflict = None;
        while i < watches.len() {
            let watch = watches[i];
            i += 1;
            self.work += 1;
            if self.value(watch.blocker) == Some(true) {
                watches[j] = watch;
                j += 1;
                continue;
            }
            let lits = &mut self.clauses[watch.clause as usize].lits;
            if lits[0] == false_lit {
                lits.swap(0, 1);
            }
            let first = lits[0];
            let kept = Watch {
                clause: watch.clause,
                blocker: first,
            };
            if first != watch.blocker && value_in(&self.assigned, first) == Some(true) {
                watches[j] = kept;
                j += 1;
                continue;
            }
            let replacement =
                (2..lits.len()).find(|&k| value_in(&self.assigned, lits[k]) != Some(false));
            if let Some(k) = replacement {
                let lits = &mut self.clauses[watch.clause as usize].lits;
                lits.swap(1, k);
                self.watches[lits[1].index()].push(kept);
                continue;
            }
            watches[j] = kept;
            j += 1;
            if self.value(first) == Some(false) {
                conflict = Some(watch.clause);
                while i < watches.len() {
                    watches[j] = watches[i];
                    i += 1;
                    j += 1;
                }
            } else {
                self.assign(first, Reason::Long(watch.clause));
            }
        }
        watches.truncate(j);
        self.watches[false_lit.index()] = watches;
        conflict
    }

    /// First-UIP analysis of `conflict`, backjump, and the learnt clause asserted.
    fn learn_from(&mut self, conflict: Conflict) {
        let mut learnt = std::mem::take(&mut self.learnt_scratch);
        let mut falsified = std::mem::take(&mut self.reason_scratch);
        learnt.clear();
        learnt.push(Lit(0));
        let current = self.levels.len() as u32;
        let mut open = 0;
        let mut index = self.trail.len();
        let mut uip = None;
        match conflict {
            Conflict::Binary(a, b) => falsified.extend([a, b]),
            Conflict::Long(clause) => falsified.extend(&self.clauses[clause as usize].lits),
        }
        loop {
            for &q in &falsified {
                let var = q.var() as usize;
                if Some(q) == uip || self.seen[var] || self.level[var] == 0 {
                    continue;
                }
                self.seen[var] = true;
                self.order.bump(q.var());
                if self.level[var] >= current {
                    open += 1;
                } else {
                    learnt.push(q);
                }
            }
            loop {
                index -= 1;
                if self.seen[self.trail[index].var() as usize] {
                    break;
                }
            }
            let p = self.trail[index];
            self.seen[p.var() as usize] = false;
            open -= 1;
            if open == 0 {
                learnt[0] = !p;
                break;
            }
            uip = Some(p);
            falsified.clear();
            self.reason_lits(p.var(), &mut falsified);
        }
        falsified.clear();
        self.reason_scratch = falsified;
        self.minimise(&mut learnt);
        let back_to = self.place_second_watch(&mut learnt);
        let lbd = self.lbd(&learnt);
        self.order.decay();
        self.backtrack(back_to);
        if learnt.len() == 1 {
            self.assign(learnt[0], Reason::Decision);
        } else if learnt.len() == 2 {
            self.add_binary(learnt[0], learnt[1]);
            self.assign(learnt[0], Reason::Binary(learnt[1]));
        } else {
            let asserting = learnt[0];
            let at = self.attach(Clause {
                lits: learnt.clone(),
                learnt: true,
                lbd,
            });
            self.assign(asserting, Reason::Long(at));
        }
        self.learnt_scratch = learnt;
    }

    /// Drops every literal whose reason is implied by the rest (recursive minimisation),
    /// and clears `seen`.
    fn minimise(&mut self, learnt: &mut Vec<Lit>) {
        for &lit in learnt.iter() {
            self.seen[lit.var() as usize] = true;
            self.to_clear.push(lit.var());
        }
        let mut keep = 1;
        for i in 1..learnt.len() {
            let lit = learnt[i];
            if self.reason[lit.var() as usize] == Reason::Decision || !self.redundant(lit.var()) {
                learnt[keep] = lit;
                keep += 1;
            }
        }
        learnt.truncate(keep);
        for var in self.to_clear.drain(..) {
            self.seen[var as usize] = false;
        }
    }

    /// Whether `var`'s reason is implied by seen literals; the variables it proves implied
    /// stay seen (and listed in `to_clear`), so later literals reuse the proof.
    fn redundant(&mut self, var: Var) -> bool {
        let marked_before = self.to_clear.len();
        self.stack.clear();
        self.stack.push(var);
        while let Some(v) = self.stack.pop() {
            for k in 0..self.reason_len(v) {
                let qv = self.reason_lit(v, k).var();
                if qv == v || self.seen[qv as usize] || self.level[qv as usize] == 0 {
                    continue;
                }
                if self.reason[qv as usize] == Reason::Decision {
                    for m in self.to_clear.drain(marked_before..) {
                        self.seen[m as usize] = false;
                    }
                    return false;
                }
                self.seen[qv as usize] = true;
                self.to_clear.push(qv);
                self.stack.push(qv);
            }
        }
        true
    }

    /// How many literals `var`'s reason has besides `var` itself, at most (a long reason
    /// holds `var` too, which readers skip).
    fn reason_len(&self, var: Var) -> usize {
        match self.reason[var as usize] {
            Reason::Decision => 0,
            Reason::Binary(_) => 1,
            Reason::Long(clause) => self.clauses[clause as usize].lits.len(),
        }
    }

    fn reason_lit(&self, var: Var, k: usize) -> Lit {
        match self.reason[var as usize] {
            Reason::Decision => unreachable!("a decision has no reason to read"),
            Reason::Binary(other) => other,
            Reason::Long(clause) => self.clauses[clause as usize].lits[k],
        }
    }

    /// Appends the literals of `var`'s reason to `lits`.
    fn reason_lits(&self, var: Var, lits: &mut Vec<Lit>) {
        lits.extend((0..self.reason_len(var)).map(|k| self.reason_lit(var, k)));
    }

    /// Moves the literal of the highest level below the current one to index 1 (the
    /// clause's second watch) and returns that level, where the search goes back to.
    fn place_second_watch(&self, learnt: &mut [Lit]) -> usize {
        if learnt.len() == 1 {
            return 0;
        }
        let mut best = 1;
        for i in 2..learnt.len() {
            if self.level[learnt[i].var() as usize] > self.level[learnt[best].var() as usize] {
                best = i;
            }
        }
        learnt.swap(1, best);
        self.level[learnt[1].var() as usize] as usize
    }

    fn lbd(&mut self, lits: &[Lit]) -> u32 {
        let stamp = self.conflicts;
        let mut distinct = 0;
        for lit in lits {
            let level = self.level[lit.var() as usize] as usize;
            if self.level_stamp[level] != stamp {
                self.level_stamp[level] = stamp;
                distinct += 1;
            }
        }
        distinct
    }

    fn backtrack(&mut self, level: usize) {
        if self.levels.len() <= level {
            return;
        }
        let start = self.levels[level];
        for &lit in &self.trail[start..] {
            let var = lit.var();
            self.assigned[var as usize] = None;
            self.phase[var as usize] = lit.positive();
            self.true_count -= usize::from(lit.positive());
            self.order.insert(var);
        }
        self.trail.truncate(start);
        self.levels.truncate(level);
        self.propagated = start;
    }

    /// Keeps the glue clauses and the better half of the other learnt ones (by LBD, then
    /// the newer); at level 0, where no kept assignment has a learnt reason to lose.
    fn trim_learnt(&mut self) {
        debug_assert!(self.levels.is_empty());
        let mut candidates: Vec<usize> = (0..self.clauses.len())
            .filter(|&c| self.clauses[c].learnt && self.clauses[c].lbd > GLUE)
            .collect();
        candidates.sort_by_key(|&c| (std::cmp::Reverse(self.clauses[c].lbd), c));
        let mut dropped = vec![false; self.clauses.len()];
        for &c in &candidates[..candidates.len() / 2] {
            dropped[c] = true;
        }
        let clauses = std::mem::take(&mut self.clauses);
        self.watches.iter_mut().for_each(Vec::clear);
        self.learnt = 0;
        for (c, clause) in clauses.into_iter().enumerate() {
            if !dropped[c] {
                self.attach(clause);
            }
        }
        // Reasons at level 0 are never read (analysis skips level 0), and no other level
        // is on the trail.
        for &lit in &self.trail {
            self.reason[lit.var() as usize] = Reason::Decision;
        }
    }
}

fn value_in(assigned: &[Option<bool>], lit: Lit) -> Option<bool> {
    assigned[lit.var() as usize].map(|v| v == lit.positive())
}

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, ... (1-based; MiniSat's formulation).
fn luby(i: u64) -> u64 {
    let mut x = i - 1;
    let (mut size, mut power) = (1, 0);
    while size < x + 1 {
        size = 2 * size + 1;
        power += 1;
    }
    while size - 1 != x {
        size = (size - 1) / 2;
        power -= 1;
        x %= size;
    }
    1 << power
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Rng;
    use proptest::prelude::*;
    use rand::SeedableRng;

    #[test]
    fn luby_sequence() {
        let first: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(first, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    fn solver_of(vars: usize, clauses: &[Vec<Lit>], seed: u64) -> Cdcl {
        let mut solver = Cdcl::new(vars, &mut Rng::seed_from_u64(seed));
        for clause in clauses {
            solver.add_clause(clause);
        }
        solver
    }

    /// Runs in slices of `slice` work until an answer, as the worker does.
    fn answer(solver: &mut Cdcl, slice: u64) -> Status {
        loop {
            match solver.solve(slice, |_| {}) {
                Status::Unknown => continue,
                done => return done,
            }
        }
    }

    fn satisfies(solver: &Cdcl, clauses: &[Vec<Lit>]) -> bool {
        (clauses.iter()).all(|c| c.iter().any(|&l| solver.value(l) == Some(true)))
    }

    /// `pigeons` pigeons in `holes` holes, each in one, no two sharing: refutable exactly
    /// when there are more pigeons than holes, and hard enough to need many conflicts.
    fn pigeonhole(pigeons: u32, holes: u32) -> Vec<Vec<Lit>> {
        let var = |p: u32, h: u32| Lit::new(p * holes + h, true);
        let mut clauses: Vec<Vec<Lit>> = (0..pigeons)
            .map(|p| (0..holes).map(|h| var(p, h)).collect())
            .collect();
        for h in 0..holes {
            for a in 0..pigeons {
                for b in a + 1..pigeons {
                    clauses.push(vec![!var(a, h), !var(b, h)]);
                }
            }
        }
        clauses
    }

    #[test]
    fn pigeonhole_is_refuted_and_fits_when_there_is_room() {
        // 8 into 7 takes thousands of conflicts: restarts and trims of the learnt clauses
        // run on the way to the refutation.
        let clauses = pigeonhole(8, 7);
        let mut solver = solver_of(56, &clauses, 1);
        assert_eq!(answer(&mut solver, 1000), Status::Refuted);
        assert!(solver.restarts() > 5, "{} restarts", solver.restarts());
        assert!(
            solver.conflicts() > 2 * FIRST_LEARNT_CAP as u64,
            "{} conflicts: too few to trim the learnt clauses",
            solver.conflicts()
        );
        let clauses = pigeonhole(7, 7);
        let mut solver = solver_of(49, &clauses, 1);
        assert_eq!(answer(&mut solver, 1000), Status::Satisfied);
        assert!(satisfies(&solver, &clauses));
    }

    #[test]
    fn how_the_work_is_sliced_never_changes_the_search() {
        let clauses = pigeonhole(7, 6);
        let runs: Vec<(u64, u64)> = [3, 100, 1 << 40]
            .into_iter()
            .map(|slice| {
                let mut solver = solver_of(42, &clauses, 3);
                assert_eq!(answer(&mut solver, slice), Status::Refuted);
                (solver.conflicts(), solver.restarts())
            })
            .collect();
        assert!(runs.iter().all(|&r| r == runs[0]), "{runs:?}");
    }

    proptest! {
        /// On random 3-SAT formulas near the threshold, the solver, run in small slices,
        /// finds a model exactly when trying every assignment finds one, and its model
        /// satisfies every clause.
        #[test]
        fn agrees_with_trying_every_assignment(
            vars in 3usize..13,
            raw in prop::collection::vec((0u32..13, any::<bool>(), 0u32..13, any::<bool>(), 0u32..13, any::<bool>()), 1..60),
            slice in 1u64..50,
            seed in 0u64..4,
        ) {
            let v = vars as u32;
            let clauses: Vec<Vec<Lit>> = raw
                .iter()
                .map(|&(a, sa, b, sb, c, sc)| {
                    vec![Lit::new(a % v, sa), Lit::new(b % v, sb), Lit::new(c % v, sc)]
                })
                .collect();
            let brute = (0u32..1 << vars).any(|bits| {
                (clauses.iter()).all(|c| c.iter().any(|l| (bits >> l.var() & 1 == 1) == l.positive()))
            });
            let mut solver = solver_of(vars, &clauses, seed);
            let status = answer(&mut solver, slice);
            prop_assert_eq!(status == Status::Satisfied, brute, "{:?}", status);
            if brute {
                prop_assert!(satisfies(&solver, &clauses));
            }
        }
    }
}
