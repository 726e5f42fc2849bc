//! Trial tours (LKH's way of starting a trial again): a walk that follows the best tour
//! wherever its edge is one of the spanning tree's that alpha-nearness is measured on (the
//! edges an optimal tour most likely uses), and elsewhere goes to a random unvisited
//! candidate, or to the nearest unvisited city when every candidate is taken (LKH's
//! `ChooseInitialTour` goes to a random one, a long edge for the kicks to undo). The kicks
//! start again from it when they stall: what is likely right is kept, the rest is built
//! anew. Kicks and re-anneals leave some instances in one deep trap (most seeds of rat575
//! end on the same tour one unit above the optimum, which differs from it in pieces that
//! are no tour on their own); a trial tour leaves it (docs/tuning.md).

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
            options.clear();
            options.extend(
                (beside.into_iter())
                    .filter(|&b| !visited[b as usize] && self.is_tree_edge(city, b)),
            );
            if options.is_empty() {
                let free = problem.candidates(city).iter();
                options.extend(free.copied().filter(|&b| !visited[b as usize]));
            }
            city = match options.len() {
                0 => unvisited
                    .nearest(city, |a, b| instance.distance(a, b))
                    .expect("a city is left"),
                k => options[rng.random_range(0..k)],
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use rand::SeedableRng;

    use super::*;
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
