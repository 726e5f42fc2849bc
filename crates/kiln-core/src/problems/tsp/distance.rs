//! Edge lengths for the hot loop (a matrix, or computed on the fly when n is large) and
//! k-nearest-neighbour candidate lists.

use std::time::Instant;

use super::alpha::{self, Sparse};
use super::curve::Curve;
use super::instance::Instance;
use super::nearest::{Deadlines, nearest};

/// How far the quadrant lists look for a city in an empty quadrant: up to this many times
/// k cities around (a city on the hull has no city at all in some quadrant; a city in a
/// cluster of 45 finds the next cluster).
const REACH: usize = 64;

/// Above this many cities the matrix (n^2 u32) would pass ~36 MB: compute on the fly.
const MATRIX_MAX: usize = 3000;

/// Integer edge lengths by city index.
#[derive(Debug, Clone)]
pub(crate) enum Distances {
    Matrix { n: usize, lengths: Vec<u32> },
    OnTheFly(Instance),
}

impl Distances {
    pub(crate) fn new(instance: &Instance) -> Self {
        let n = instance.len();
        if n > MATRIX_MAX {
            return Distances::OnTheFly(instance.clone());
        }
        let mut lengths = vec![0; n * n];
        for i in 0..n {
            for j in 0..i {
                let d = instance.distance(i as u32, j as u32);
                lengths[i * n + j] = d;
                lengths[j * n + i] = d;
            }
        }
        Distances::Matrix { n, lengths }
    }

    #[inline(always)]
    pub(crate) fn get(&self, a: u32, b: u32) -> u32 {
        match self {
            Distances::Matrix { n, lengths } => lengths[a as usize * n + b as usize],
            Distances::OnTheFly(instance) => instance.distance(a, b),
        }
    }
}

/// The sparse graph alpha-nearness is measured on for `k` candidates, or `None` when its
/// lists would not be done by `until`.
fn sparse_graph(
    instance: &Instance,
    distances: &Distances,
    k: usize,
    until: Option<Instant>,
) -> Option<Sparse> {
    let n = instance.len();
    let sparse_k = alpha::sparse_k(k).min(n - 1);
    let by = Deadlines {
        exact: until,
        done: until,
    };
    let distance = |a, b| distances.get(a, b);
    let (sparse, late) = nearest(instance, sparse_k, distance, by, Some(REACH * sparse_k));
    if late.is_some() {
        return None;
    }
    Some(Sparse::new(n, sparse_k, &sparse, distance))
}

/// `k` near cities of every city, nearest first, in one flat array: the nearest of each
/// quadrant around it, then the nearest of the rest (`quadrant`); and the length of the
/// edge to each, the first the local search weighs from a city (computing it was most of
/// the lengths a 10,000-city chain computes that way).
#[derive(Debug, Clone)]
pub(crate) struct Neighbours {
    pub k: usize,
    lists: Vec<u32>,
    lengths: Vec<u32>,
    /// Whether each list comes nearest first (else least alpha first).
    nearest_first: bool,
    /// What alpha-nearness was measured on (alpha lists only).
    measured: Option<alpha::Measured>,
}

impl Neighbours {
    /// The lists, exact unless finding them would end after `by.exact`: then the
    /// space-filling curve that completed them comes too (see `nearest`).
    pub(crate) fn new(
        instance: &Instance,
        distances: &Distances,
        k: usize,
        by: Deadlines,
    ) -> (Self, Option<Curve>) {
        let k = k.clamp(1, instance.len() - 1);
        let reach = Some(REACH * k);
        let (lists, curve) = nearest(instance, k, |a, b| distances.get(a, b), by, reach);
        (Self::of_lists(k, lists, distances, true), curve)
    }

    /// The `k` alpha-nearest cities of every city (`alpha`), least alpha first, or `None`
    /// when the sparse graph they are picked from would not be done by `until`.
    pub(crate) fn alpha(
        instance: &Instance,
        distances: &Distances,
        k: usize,
        until: Option<Instant>,
    ) -> Option<Self> {
        let n = instance.len();
        let k = k.clamp(1, n - 1);
        let graph = sparse_graph(instance, distances, k, until)?;
        let distance = |a, b| distances.get(a, b);
        let (lists, measured) =
            alpha::candidates(&graph, k, distance, alpha::ascent_schedule(n), until);
        Some(Neighbours {
            measured: Some(measured),
            ..Self::of_lists(k, lists, distances, false)
        })
    }

    /// Each city's parent in the spanning tree alpha-nearness is measured on, for `k`
    /// candidates (`u32::MAX` at the root), its ascent cut short at `until`.
    pub(crate) fn tree_parents(
        instance: &Instance,
        distances: &Distances,
        k: usize,
        until: Option<Instant>,
    ) -> Vec<u32> {
        let n = instance.len();
        let k = k.clamp(1, n - 1);
        let graph = sparse_graph(instance, distances, k, None).expect("no deadline to miss");
        let distance = |a, b| distances.get(a, b);
        alpha::tree_parents(&graph, distance, alpha::ascent_schedule(n), until)
    }

    fn of_lists(k: usize, lists: Vec<u32>, distances: &Distances, nearest_first: bool) -> Self {
        let lengths = (lists.iter().enumerate())
            .map(|(i, &b)| distances.get((i / k) as u32, b))
            .collect();
        Neighbours {
            k,
            lists,
            lengths,
            nearest_first,
            measured: None,
        }
    }

    /// Whether the lists come nearest first: then once a candidate is too far for a move
    /// to gain, every later one is too.
    pub(crate) fn nearest_first(&self) -> bool {
        self.nearest_first
    }

    #[inline(always)]
    pub(crate) fn of(&self, city: u32) -> &[u32] {
        let start = city as usize * self.k;
        &self.lists[start..start + self.k]
    }

    /// The lengths of the edges from `city` to its candidates, in the order of [`Self::of`].
    #[inline(always)]
    pub(crate) fn lengths_of(&self, city: u32) -> &[u32] {
        let start = city as usize * self.k;
        &self.lengths[start..start + self.k]
    }

    /// The ascent's penalties, in units of 1/[`alpha::SCALE`] of a length, when the lists
    /// are alpha-nearness ones.
    pub(crate) fn penalties(&self) -> Option<&[i64]> {
        self.measured.as_ref().map(|m| &m.penalties[..])
    }

    /// Each city's parent in the spanning tree alpha-nearness was measured on (`u32::MAX`
    /// at the root), when the lists are alpha-nearness ones.
    pub(crate) fn tree_parents_measured(&self) -> Option<&[u32]> {
        self.measured.as_ref().map(|m| &m.parents[..])
    }

    /// Mean distance from each city to its nearest neighbour: the instance's length scale.
    pub(crate) fn mean_nearest(&self, distances: &Distances) -> f64 {
        let n = self.lists.len() / self.k;
        let sum: f64 = (0..n as u32)
            .map(|a| distances.get(a, self.of(a)[0]) as f64)
            .sum();
        sum / n as f64
    }
}
