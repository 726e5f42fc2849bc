//! The k nearest cities of every city, found through a grid of buckets in O(n k) for the
//! planar metrics instead of comparing every pair (O(n^2): 3.6 s at 20,000 cities).
//!
//! The lists are exactly those of the all-pairs search: nearest first by the instance's
//! integer distance, ties by city index. The search around a city widens ring by ring until
//! no city outside the rings searched can be as near as the k-th found.

use std::time::Instant;

use super::curve::{Curve, Phase};
use super::instance::{Bounds, Instance, Metric, Point};
use super::quadrant;

/// Cities per grid bucket, on average.
const PER_BUCKET: f64 = 2.0;

/// The smallest integer distance `metric` can give two points more than `d` apart in the
/// plane; `None` for a metric that is not planar (GEO), searched pair by pair.
fn lower_bound(metric: Metric, d: f64) -> Option<f64> {
    match metric {
        Metric::Euc2d => Some(d - 0.5),
        Metric::Ceil2d => Some(d),
        Metric::Att => Some(d / 10f64.sqrt()),
        Metric::Geo => None,
    }
}

/// A uniform grid of buckets over the cities' bounding box.
struct Grid {
    x0: f64,
    y0: f64,
    cell: f64,
    columns: usize,
    rows: usize,
    /// Cities by bucket: bucket `b` holds `cities[starts[b]..starts[b + 1]]`.
    starts: Vec<usize>,
    cities: Vec<u32>,
}

impl Grid {
    fn new(points: &[Point]) -> Self {
        let bounds = Bounds::of(points);
        let (x0, y0) = (bounds.low.x, bounds.low.y);
        let (width, height) = (bounds.width(), bounds.height());
        let buckets = (points.len() as f64 / PER_BUCKET).max(1.0);
        // Square buckets of equal area; a degenerate box (a line, a point) gets a size
        // from its one extent, or 1.
        let area = (width * height).max(width.max(height).powi(2) / buckets);
        let cell = (area / buckets).sqrt().max(f64::MIN_POSITIVE).max(1e-9);
        let columns = ((width / cell) as usize + 1).min(1 << 20);
        let rows = ((height / cell) as usize + 1).min(1 << 20);
        let mut grid = Grid {
            x0,
            y0,
            cell,
            columns,
            rows,
            starts: vec![0; columns * rows + 1],
            cities: vec![0; points.len()],
        };
        for p in points {
            let b = grid.bucket_of(*p);
            grid.starts[b + 1] += 1;
        }
        for b in 0..columns * rows {
            grid.starts[b + 1] += grid.starts[b];
        }
        let mut next = grid.starts.clone();
        for (i, p) in points.iter().enumerate() {
            let b = grid.bucket_of(*p);
            grid.cities[next[b]] = i as u32;
            next[b] += 1;
        }
        grid
    }

    fn cell_of(&self, p: Point) -> (usize, usize) {
        let column = (((p.x - self.x0) / self.cell) as usize).min(self.columns - 1);
        let row = (((p.y - self.y0) / self.cell) as usize).min(self.rows - 1);
        (column, row)
    }

    fn bucket_of(&self, p: Point) -> usize {
        let (column, row) = self.cell_of(p);
        row * self.columns + column
    }

    /// Calls `visit` for every bucket in the ring `ring` steps around (column, row): the
    /// centre bucket for ring 0.
    fn ring_buckets(
        &self,
        (column, row): (usize, usize),
        ring: usize,
        mut visit: impl FnMut(usize),
    ) {
        let (c, r, k) = (column as isize, row as isize, ring as isize);
        for dr in -k..=k {
            let y = r + dr;
            if y < 0 || y >= self.rows as isize {
                continue;
            }
            // Whole rows at the top and bottom of the ring, the two ends between them.
            let step = if dr.abs() == k { 1 } else { (2 * k).max(1) };
            let mut dc = -k;
            while dc <= k {
                let x = c + dc;
                if x >= 0 && x < self.columns as isize {
                    visit(y as usize * self.columns + x as usize);
                }
                dc += step;
            }
        }
    }

    /// Calls `visit` for every city in the ring of buckets `ring` steps around a cell.
    fn ring(&self, centre: (usize, usize), ring: usize, mut visit: impl FnMut(u32)) {
        self.ring_buckets(centre, ring, |b| {
            self.cities[self.starts[b]..self.starts[b + 1]]
                .iter()
                .for_each(|&city| visit(city))
        });
    }
}

/// When the candidate lists should be done: made exactly by `exact`, and by `done` at
/// all (`None`: whenever they are).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Deadlines {
    pub(crate) exact: Option<Instant>,
    pub(crate) done: Option<Instant>,
}

/// The `k` nearest other cities of every city (k < n), nearest first, in one flat array;
/// with `reach`, the quadrant lists instead (`quadrant::pick`), the search going on past
/// the k nearest while a quadrant is empty, up to `reach` cities. When the search would
/// end after `by.exact`, the cities it has not reached get the `k` nearest of their
/// neighbours along a space-filling curve instead (near, not nearest; in the curve's order
/// for those it reaches after `by.done`), and the curve comes back too.
pub(super) fn nearest(
    instance: &Instance,
    k: usize,
    distance: impl Fn(u32, u32) -> u32,
    by: Deadlines,
    reach: Option<usize>,
) -> (Vec<u32>, Option<Curve>) {
    let n = instance.len();
    let mut lists = vec![0; n * k];
    let mut found: Vec<(u32, u32)> = Vec::with_capacity(4 * k);
    let planar = lower_bound(instance.metric, 0.0).is_some();
    let grid = planar.then(|| Grid::new(&instance.cities));
    // Bucket by bucket, a city's search goes over the cities the last one's did, which are
    // then at hand in the cache: in index order, at 1,000,000 cities, fetching them took
    // most of the time.
    let order: Vec<u32> = match &grid {
        Some(grid) => grid.cities.clone(),
        None => (0..n as u32).collect(),
    };
    // Paced from here: the grid is built once, not per city.
    let phase = Phase::start(by.exact, n);
    for (done, &a) in order.iter().enumerate() {
        if phase.late(done) {
            let mut pending = vec![false; n];
            for &city in &order[done..] {
                pending[city as usize] = true;
            }
            let curve = Curve::new(&instance.cities);
            curve.fill(instance, k, &pending, &mut lists, by.done);
            return (lists, Some(curve));
        }
        found.clear();
        match &grid {
            Some(grid) => around(grid, instance, a, k, reach, &distance, &mut found),
            None => found.extend(
                (0..n as u32)
                    .filter(|&b| b != a)
                    .map(|b| (distance(a, b), b)),
            ),
        }
        let slots = &mut lists[a as usize * k..][..k];
        if reach.is_some() {
            quadrant::pick(instance, a, &mut found, slots);
            continue;
        }
        if k < found.len() {
            found.select_nth_unstable(k);
            found.truncate(k);
        }
        found.sort_unstable();
        for (slot, &(_, b)) in slots.iter_mut().zip(&found) {
            *slot = b;
        }
    }
    (lists, None)
}

/// Gathers (distance, city) for the cities around `a`, ring by ring, until the `k` nearest
/// are surely among them and, with `reach`, every quadrant has a city or `reach` cities
/// are gathered.
fn around(
    grid: &Grid,
    instance: &Instance,
    a: u32,
    k: usize,
    reach: Option<usize>,
    distance: &impl Fn(u32, u32) -> u32,
    found: &mut Vec<(u32, u32)>,
) {
    let centre = grid.cell_of(instance.cities[a as usize]);
    let mut kth: Vec<u32> = Vec::with_capacity(4 * k);
    for ring in 0.. {
        grid.ring(centre, ring, |b| {
            if b != a {
                found.push((distance(a, b), b));
            }
        });
        let beyond = ring as f64 * grid.cell;
        let covered = ring >= grid.columns.max(grid.rows);
        if covered {
            return;
        }
        if found.len() < k {
            continue;
        }
        // Every city not yet seen is more than `beyond` away in the plane.
        kth.clear();
        kth.extend(found.iter().map(|&(d, _)| d));
        let (_, &mut d_k, _) = kth.select_nth_unstable(k - 1);
        let bound = lower_bound(instance.metric, beyond).unwrap_or(f64::INFINITY);
        let further =
            reach.is_some_and(|r| found.len() < r && quadrant::missing(instance, a, found));
        if bound > f64::from(d_k) && !further {
            return;
        }
    }
}

/// The cities not yet on a tour being built nearest-neighbour first, bucketed so that the
/// nearest of them is found by widening rings rather than by scanning them all.
pub(super) struct Unvisited<'a> {
    instance: &'a Instance,
    /// `None` for a metric that is not planar: every city is scanned.
    grid: Option<Grid>,
    buckets: Vec<Vec<u32>>,
    /// Where each city sits in its bucket.
    slot: Vec<usize>,
    left: usize,
}

impl<'a> Unvisited<'a> {
    pub(super) fn new(instance: &'a Instance) -> Self {
        let n = instance.len();
        let planar = lower_bound(instance.metric, 0.0).is_some();
        let grid = Grid::new(&instance.cities);
        let (buckets, grid) = if planar {
            let buckets: Vec<Vec<u32>> = (0..grid.columns * grid.rows)
                .map(|b| grid.cities[grid.starts[b]..grid.starts[b + 1]].to_vec())
                .collect();
            (buckets, Some(grid))
        } else {
            (vec![(0..n as u32).collect()], None)
        };
        let mut slot = vec![0; n];
        for bucket in &buckets {
            for (i, &city) in bucket.iter().enumerate() {
                slot[city as usize] = i;
            }
        }
        Unvisited {
            instance,
            grid,
            buckets,
            slot,
            left: n,
        }
    }

    fn bucket_index(&self, city: u32) -> usize {
        self.grid
            .as_ref()
            .map_or(0, |g| g.bucket_of(self.instance.cities[city as usize]))
    }

    pub(super) fn remove(&mut self, city: u32) {
        let b = self.bucket_index(city);
        let i = self.slot[city as usize];
        let bucket = &mut self.buckets[b];
        bucket.swap_remove(i);
        if let Some(&moved) = bucket.get(i) {
            self.slot[moved as usize] = i;
        }
        self.left -= 1;
    }

    /// The unvisited city nearest `from` (ties to the lowest index), if any is left.
    pub(super) fn nearest(&self, from: u32, distance: impl Fn(u32, u32) -> u32) -> Option<u32> {
        if self.left == 0 {
            return None;
        }
        let mut best: Option<(u32, u32)> = None;
        let consider = |bucket: &[u32], best: &mut Option<(u32, u32)>| {
            for &c in bucket {
                let candidate = (distance(from, c), c);
                if best.is_none_or(|b| candidate < b) {
                    *best = Some(candidate);
                }
            }
        };
        let Some(grid) = &self.grid else {
            consider(&self.buckets[0], &mut best);
            return best.map(|(_, c)| c);
        };
        let centre = grid.cell_of(self.instance.cities[from as usize]);
        for ring in 0..=grid.columns.max(grid.rows) {
            grid.ring_buckets(centre, ring, |b| consider(&self.buckets[b], &mut best));
            let beyond = lower_bound(self.instance.metric, ring as f64 * grid.cell);
            if let (Some((d, _)), Some(beyond)) = (best, beyond)
                && beyond > f64::from(d)
            {
                break;
            }
        }
        best.map(|(_, c)| c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_pairs(instance: &Instance, k: usize) -> Vec<u32> {
        let n = instance.len() as u32;
        let mut lists = Vec::new();
        for a in 0..n {
            let mut others: Vec<(u32, u32)> = (0..n)
                .filter(|&b| b != a)
                .map(|b| (instance.distance(a, b), b))
                .collect();
            others.sort_unstable();
            lists.extend(others.iter().take(k).map(|&(_, b)| b));
        }
        lists
    }

    fn instance(metric: Metric, points: Vec<(f64, f64)>) -> Instance {
        Instance {
            name: "t".into(),
            comment: String::new(),
            metric,
            cities: points
                .into_iter()
                .map(|(x, y)| Point { x, y })
                .collect::<Vec<_>>()
                .into(),
            labels: None,
        }
    }

    /// A small deterministic scatter: clusters, a line, duplicates.
    fn scatter(n: usize, seed: u64) -> Vec<(f64, f64)> {
        let mut s = seed;
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
        (0..n)
            .map(|i| match i % 5 {
                0 => (0.0, next() * 1000.0),
                1 => (5.0, 5.0),
                2 => (next() * 30.0 + 500.0, next() * 30.0 + 500.0),
                _ => (next() * 1000.0, next() * 1000.0),
            })
            .collect()
    }

    #[test]
    fn the_grid_finds_what_all_pairs_finds() {
        for metric in [Metric::Euc2d, Metric::Ceil2d, Metric::Att, Metric::Geo] {
            for (n, k) in [(2, 1), (3, 2), (10, 9), (200, 8), (1000, 10)] {
                let inst = instance(metric, scatter(n, n as u64));
                let grid = nearest(
                    &inst,
                    k,
                    |a, b| inst.distance(a, b),
                    Deadlines::default(),
                    None,
                )
                .0;
                assert_eq!(grid, all_pairs(&inst, k), "{metric:?} n {n} k {k}");
            }
        }
    }

    #[test]
    fn points_all_in_one_place_or_on_a_line() {
        let same = instance(Metric::Euc2d, vec![(3.0, 3.0); 50]);
        assert_eq!(
            nearest(
                &same,
                5,
                |a, b| same.distance(a, b),
                Deadlines::default(),
                None
            )
            .0,
            all_pairs(&same, 5)
        );
        let line = instance(Metric::Euc2d, (0..100).map(|i| (i as f64, 7.0)).collect());
        assert_eq!(
            nearest(
                &line,
                6,
                |a, b| line.distance(a, b),
                Deadlines::default(),
                None
            )
            .0,
            all_pairs(&line, 6)
        );
    }

    #[test]
    fn quadrant_lists_reach_across_to_the_other_row() {
        // Two rows of 40 cities 50 apart: every plain 5-nearest list stays on its own row.
        let mut points: Vec<(f64, f64)> = (0..40).map(|i| (i as f64, 0.0)).collect();
        points.extend((0..40).map(|i| (i as f64, 50.0)));
        let inst = instance(Metric::Euc2d, points);
        let k = 5;
        let plain = nearest(
            &inst,
            k,
            |a, b| inst.distance(a, b),
            Deadlines::default(),
            None,
        )
        .0;
        let lists = nearest(
            &inst,
            k,
            |a, b| inst.distance(a, b),
            Deadlines::default(),
            Some(64 * k),
        )
        .0;
        let across = |list: &[u32], a: u32| list.iter().any(|&b| (b < 40) != (a < 40));
        for a in 0..80u32 {
            let list = &lists[a as usize * k..][..k];
            assert!(!across(&plain[a as usize * k..][..k], a));
            assert!(across(list, a), "city {a}: {list:?}");
            let mut seen = list.to_vec();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), k);
            assert!(!list.contains(&a));
            // Nearest first, as the descent's chains expect.
            let d: Vec<u32> = list.iter().map(|&b| inst.distance(a, b)).collect();
            assert!(d.windows(2).all(|w| w[0] <= w[1]), "city {a}: {d:?}");
        }
    }

    #[test]
    fn the_nearest_unvisited_city_is_the_one_a_scan_finds() {
        for metric in [Metric::Euc2d, Metric::Att, Metric::Geo] {
            let inst = instance(metric, scatter(300, 7));
            let mut unvisited = Unvisited::new(&inst);
            let mut alive = vec![true; 300];
            let mut city = 0u32;
            unvisited.remove(city);
            alive[0] = false;
            while let Some(next) = unvisited.nearest(city, |a, b| inst.distance(a, b)) {
                let scan = (0..300u32)
                    .filter(|&c| alive[c as usize])
                    .min_by_key(|&c| (inst.distance(city, c), c))
                    .unwrap();
                assert_eq!(next, scan, "{metric:?}");
                unvisited.remove(next);
                alive[next as usize] = false;
                city = next;
            }
            assert!(alive.iter().all(|a| !a));
        }
    }
}
