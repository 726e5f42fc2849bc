//! Trial tours (LKH's way of starting a trial again): a walk that follows the best tour
//! wherever its edge is one of the spanning tree's that alpha-nearness is measured on (the
//! edges an optimal tour most likely uses), and elsewhere goes to a random unvisited
//! candidate, or to the nearest unvisited city when every candidate is taken (LKH's
//! `ChooseInitialTour` goes to a random one, a long edge for the kicks to undo). The kicks
//! start again from it when they stall: what is likely right is kept, the rest is built
//! anew. Kicks and re-anneals leave some instances in one deep trap (most seeds of rat575
//! end on the same tour one unit above the optimum, which differs from it in pieces that
//! are no tour on their own); a trial tour leaves it (docs/tuning.md).
//!
//! The same walk through a window of the tour is one of the kicks ([`Windows`]): a trial
//! tour of a few hundred cities, which the descent after it repairs and the kicks keep
//! only if it is short enough.

use std::time::Instant;

use rand::RngExt;

use super::nearest::Unvisited;
use super::problem::TspProblem;
use crate::search::Rng;

/// The spanning tree trial tours keep the best tour's edges of, made once for an instance.
#[derive(Debug, Clone)]
pub(super) struct TrialTours {
    /// Each city's parent in the tree (`u32::MAX` at the root).
    parent: Vec<u32>,
}

impl TrialTours {
    /// The tree of `problem`'s instance, its penalties' ascent cut short at `until`.
    pub(super) fn new(problem: &TspProblem, until: Option<Instant>) -> Self {
        TrialTours {
            parent: problem.tree_parents(until),
        }
    }

    fn is_tree_edge(&self, a: u32, b: u32) -> bool {
        self.parent[a as usize] == b || self.parent[b as usize] == a
    }

    /// Where a walk at `city` goes next among the cities `free` leaves it: over a tree
    /// edge to one of `beside` (the city's neighbours in the tour it follows), else to a
    /// candidate, drawn at random among them; `None` when every candidate is taken.
    fn step(
        &self,
        problem: &TspProblem,
        city: u32,
        beside: [u32; 2],
        free: impl Fn(u32) -> bool,
        options: &mut Vec<u32>,
        rng: &mut Rng,
    ) -> Option<u32> {
        options.clear();
        options.extend((beside.into_iter()).filter(|&b| free(b) && self.is_tree_edge(city, b)));
        if options.is_empty() {
            let candidates = problem.candidates(city).iter();
            options.extend(candidates.copied().filter(|&b| free(b)));
        }
        (!options.is_empty()).then(|| options[rng.random_range(0..options.len())])
    }

    /// A trial tour from `best` (a tour of `problem`'s cities), drawn from `rng`.
    pub(super) fn tour(&self, problem: &TspProblem, best: &[u32], rng: &mut Rng) -> Vec<u32> {
        let n = best.len();
        let mut at = vec![0usize; n];
        for (i, &city) in best.iter().enumerate() {
            at[city as usize] = i;
        }
        let instance = problem.instance();
        let mut unvisited = Unvisited::new(instance);
        let mut visited = vec![false; n];
        let mut order = Vec::with_capacity(n);
        let mut options = Vec::with_capacity(problem.candidates(0).len().max(2));
        let mut city = rng.random_range(0..n as u32);
        loop {
            visited[city as usize] = true;
            unvisited.remove(city);
            order.push(city);
            if order.len() == n {
                return order;
            }
            let i = at[city as usize];
            let beside = [best[(i + 1) % n], best[(i + n - 1) % n]];
            let free = |b: u32| !visited[b as usize];
            city = match self.step(problem, city, beside, free, &mut options, rng) {
                Some(next) => next,
                None => unvisited
                    .nearest(city, |a, b| instance.distance(a, b))
                    .expect("a city is left"),
            };
        }
    }
}

/// Cities a window kick walks anew: at 10,000 cities windows of 200 left tours shorter
/// than windows of 100 (both one kick in 10) and than windows of 400 or 1,000 walking as
/// many cities in all (docs/tuning.md).
const WINDOW_CITIES: u32 = 200;

/// The fewest cities window kicks are made for: below, windows of 100 or 200 cities
/// brought the optima of 439-1,084-city instances no sooner (docs/tuning.md).
const WINDOWS_FROM: u32 = 2_000;

/// Window kicks: a run of [`WINDOW_CITIES`] consecutive cities of the tour walked anew
/// from the city before it to the city after it, as a trial tour would be. LKH's trial
/// tours made local, so that one costs a few hundred cities' descent, not the tour's.
#[derive(Debug, Clone)]
pub(super) struct Windows {
    trials: TrialTours,
    /// Per city, the number of the last window it was left unvisited in.
    unvisited_in: Vec<u32>,
    /// Windows walked so far: the number of the one being walked.
    windows: u32,
    /// The window's cities in tour order, as walked anew, and the cities before and
    /// after it.
    cities: Vec<u32>,
    walked: Vec<u32>,
    ends: [u32; 2],
    options: Vec<u32>,
}

impl Windows {
    /// Window kicks for `problem`'s tour, when it has at least [`WINDOWS_FROM`] cities and
    /// its local search has alpha lists (their spanning tree is what the walk keeps).
    pub(super) fn new(problem: &TspProblem) -> Option<Self> {
        let n = problem.order().len() as u32;
        if n < WINDOWS_FROM {
            return None;
        }
        let parent = problem.tree_parents_measured()?.to_vec();
        Some(Windows {
            trials: TrialTours { parent },
            unvisited_in: vec![0; n as usize],
            windows: 0,
            cities: Vec::with_capacity(WINDOW_CITIES as usize),
            walked: Vec::with_capacity(WINDOW_CITIES as usize),
            ends: [0; 2],
            options: Vec::with_capacity(problem.candidates(0).len().max(2)),
        })
    }

    /// Walks a window of the tour drawn from `rng` anew (through recorded reversals, when
    /// the tour records); returns how much longer the tour got.
    pub(super) fn kick(&mut self, problem: &mut TspProblem, rng: &mut Rng) -> f64 {
        let n = problem.order().len() as u32;
        let first = rng.random_range(0..n);
        if self.windows == u32::MAX {
            self.unvisited_in.fill(0);
            self.windows = 0;
        }
        self.windows += 1;
        let window = self.windows;
        let order = problem.order();
        let before = order[((first + n - 1) % n) as usize];
        let after = order[((first + WINDOW_CITIES) % n) as usize];
        self.ends = [before, after];
        self.cities.clear();
        for k in 0..WINDOW_CITIES {
            let city = order[((first + k) % n) as usize];
            self.cities.push(city);
            self.unvisited_in[city as usize] = window;
        }
        self.walked.clear();
        let mut city = before;
        for _ in 0..WINDOW_CITIES {
            let beside = [problem.next(city), problem.prev(city)];
            let unvisited_in = &self.unvisited_in;
            let free = |b: u32| unvisited_in[b as usize] == window;
            let next = self
                .trials
                .step(problem, city, beside, free, &mut self.options, rng);
            city = next.unwrap_or_else(|| {
                let left = self.cities.iter().filter(|&&c| free(c));
                *left
                    .min_by_key(|&&c| problem.cost(city, c))
                    .expect("a city is left")
            });
            self.unvisited_in[city as usize] = 0;
            self.walked.push(city);
        }
        let cost = |path: &[u32]| -> i64 {
            let inside: i64 = path.windows(2).map(|w| problem.cost(w[0], w[1])).sum();
            inside + problem.cost(before, path[0]) + problem.cost(path[path.len() - 1], after)
        };
        let delta = cost(&self.walked) - cost(&self.cities);
        // Put each walked city in its place by a reversal within the window: the walk
        // keeps most of the tour's edges, so most are short or none.
        for (k, &city) in (0..).zip(&self.walked) {
            let at = (problem.pos_through(&[], city) + n - first) % n;
            if at != k {
                problem.reverse_positions(first + k, first + at);
            }
        }
        delta as f64
    }

    /// The cities whose tour neighbours the last kick may have changed: the window's and
    /// the two beside it.
    pub(super) fn touched(&self) -> impl Iterator<Item = u32> + '_ {
        self.ends.into_iter().chain(self.walked.iter().copied())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use rand::SeedableRng;

    use super::*;
    use crate::anneal::Problem;
    use crate::problems::tsp::{Cost, Init, Layout, MoveSet, random};

    fn problem(n: usize, seed: u64) -> TspProblem {
        let instance = Arc::new(random::instance(n, Layout::Uniform, seed));
        let mut rng = Rng::seed_from_u64(seed);
        TspProblem::new(
            instance,
            MoveSet::TwoOpt,
            Cost::Euclidean,
            5,
            Init::Nearest,
            &mut rng,
        )
    }

    fn edges(tour: &[u32]) -> std::collections::HashSet<(u32, u32)> {
        (0..tour.len())
            .map(|i| {
                let (a, b) = (tour[i], tour[(i + 1) % tour.len()]);
                (a.min(b), a.max(b))
            })
            .collect()
    }

    #[test]
    fn a_trial_tour_visits_every_city_once_keeps_the_best_tours_tree_edges_mostly_and_follows_its_seed()
     {
        let mut problem = problem(400, 3);
        problem.polish(None);
        let best = problem.order().to_vec();
        let trials = TrialTours::new(&problem, None);
        let tree_edges: Vec<(u32, u32)> = edges(&best)
            .into_iter()
            .filter(|&(a, b)| trials.is_tree_edge(a, b))
            .collect();
        assert!(
            tree_edges.len() > best.len() / 2,
            "{} tree edges",
            tree_edges.len()
        );
        for seed in 0..5 {
            let tour = trials.tour(&problem, &best, &mut Rng::seed_from_u64(seed));
            let mut sorted = tour.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..400).collect::<Vec<u32>>());
            let kept = edges(&tour);
            let tree_kept = tree_edges.iter().filter(|e| kept.contains(e)).count();
            // The walk breaks off the best tour only where it meets a city already taken.
            assert!(
                tree_kept * 10 >= tree_edges.len() * 9,
                "{tree_kept} of {}",
                tree_edges.len()
            );
            assert_ne!(edges(&tour), edges(&best), "a trial tour is the best tour");
            let again = trials.tour(&problem, &best, &mut Rng::seed_from_u64(seed));
            assert_eq!(again, tour);
        }
    }

    #[test]
    fn a_window_kick_changes_edges_only_in_its_window_by_its_delta_and_its_record_undoes_it() {
        let mut problem = problem(2_000, 7);
        assert!(
            Windows::new(&problem).is_none(),
            "no alpha lists, no windows"
        );
        problem.choose_local_candidates(None);
        problem.polish(None);
        problem.record(true);
        let mut windows = Windows::new(&problem).expect("alpha lists");
        let mut rng = Rng::seed_from_u64(1);
        let mut changed = 0;
        for _ in 0..50 {
            let before = problem.order().to_vec();
            let energy = problem.energy();
            let mark = problem.recorded();
            let delta = windows.kick(&mut problem, &mut rng);
            assert_eq!(problem.energy(), energy + delta);
            let mut sorted = problem.order().to_vec();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..2_000).collect::<Vec<u32>>());
            let touched: std::collections::HashSet<u32> = windows.touched().collect();
            assert_eq!(touched.len(), 200 + 2, "the window and the two beside it");
            let (old, new) = (edges(&before), edges(problem.order()));
            for &(a, b) in old.symmetric_difference(&new) {
                assert!(touched.contains(&a) && touched.contains(&b), "edge {a}-{b}");
            }
            changed += usize::from(old != new);
            problem.undo_to(mark);
            assert_eq!(problem.order(), &before[..]);
        }
        assert!(changed >= 40, "{changed} of 50 windows changed the tour");
    }

    #[test]
    fn the_tree_spans_every_city() {
        let problem = problem(300, 5);
        let trials = TrialTours::new(&problem, None);
        let roots = trials.parent.iter().filter(|&&p| p == u32::MAX).count();
        assert_eq!(roots, 1);
        for city in 0..300u32 {
            let mut at = city;
            for _ in 0..300 {
                match trials.parent[at as usize] {
                    u32::MAX => break,
                    p => at = p,
                }
            }
            assert_eq!(
                trials.parent[at as usize],
                u32::MAX,
                "city {city} never reaches the root"
            );
        }
    }
}
