//! When a time limit is too short for the full setup (the exact candidate lists and the
//! nearest-neighbour tour take about 1.5 s at 1,000,000 cities): a Hilbert space-filling
//! curve through the cities, which gives a tour and near (not nearest) candidates in
//! O(n log n), about a tenth of the time. Each phase of the setup watches its own pace and
//! hands the cities it has not reached to the curve when it would end too late.

use std::time::{Duration, Instant};

use super::instance::{Bounds, Instance, Point};

/// Items a phase does between looks at the clock.
const CHECK_EVERY: usize = 4096;

/// Bits per coordinate of the curve's grid: 65,536 x 65,536 cells, finer than any instance
/// kiln accepts is dense.
const BITS: u32 = 16;

/// A phase of the setup over `total` items that should be done by `until`.
pub(super) struct Phase {
    since: Instant,
    until: Option<Instant>,
    total: usize,
}

impl Phase {
    pub(super) fn start(until: Option<Instant>, total: usize) -> Self {
        Phase {
            since: Instant::now(),
            until,
            total,
        }
    }

    /// Whether, going on at its pace so far, the phase would end after `until` once it has
    /// done `done` items; the clock is read only every few thousand items.
    pub(super) fn late(&self, done: usize) -> bool {
        let Some(until) = self.until else {
            return false;
        };
        if done == 0 || !done.is_multiple_of(CHECK_EVERY) {
            return false;
        }
        let elapsed = self.since.elapsed();
        // Judged on its first few milliseconds, one pause of the thread (the machine busy
        // with other work) would pass for the phase's pace: it sent 100,000 cities with a
        // second's limit down the curve. So the phase runs a tenth of its time first.
        if elapsed < until.saturating_duration_since(self.since) / 10 {
            return false;
        }
        let pace = elapsed.as_secs_f64() / done as f64;
        let end = Duration::try_from_secs_f64(pace * self.total as f64).unwrap_or(Duration::MAX);
        self.since.checked_add(end).is_none_or(|end| end > until)
    }
}

/// The cities in the order a Hilbert curve over their bounding box visits them.
pub(crate) struct Curve {
    pub(super) order: Vec<u32>,
}

impl Curve {
    pub(super) fn new(points: &[Point]) -> Self {
        let bounds = Bounds::of(points);
        let (x0, y0) = (bounds.low.x, bounds.low.y);
        // One scale for both axes, so the curve's cells are square.
        let side = bounds.width().max(bounds.height()).max(f64::MIN_POSITIVE);
        let cells = f64::from((1u32 << BITS) - 1);
        let cell = |v: f64, v0: f64| ((v - v0) / side * cells) as u32;
        // The curve position above the city index: sorting orders by position, then index.
        let mut keyed: Vec<u64> = points
            .iter()
            .enumerate()
            .map(|(i, p)| (hilbert(cell(p.x, x0), cell(p.y, y0)) << 32) | i as u64)
            .collect();
        keyed.sort_unstable();
        Curve {
            order: keyed.iter().map(|&key| key as u32).collect(),
        }
    }

    /// Writes the candidates of every `pending` city into its `k` slots of `lists`: the
    /// `k` cities nearest it along the curve, alternately after and before it (`k` < n, so
    /// none comes twice), nearest first by distance as the exact lists are. The cities it
    /// reaches after `until` keep them in the curve's order (nearer along the curve first),
    /// which costs no distance: measuring them took 0.3 s of a million cities' setup, past
    /// a short time limit.
    pub(super) fn fill(
        &self,
        instance: &Instance,
        k: usize,
        pending: &[bool],
        lists: &mut [u32],
        until: Option<Instant>,
    ) {
        let n = self.order.len();
        // Walked along the curve with the coordinates in its order, the cities around one
        // are at hand in the cache; by city index they were scattered over memory, and
        // fetching them took most of the time.
        let points: Vec<Point> = self
            .order
            .iter()
            .map(|&c| instance.cities[c as usize])
            .collect();
        let mut found = Vec::with_capacity(k);
        let mut measured = true;
        for (at, &city) in self.order.iter().enumerate() {
            if measured
                && at.is_multiple_of(CHECK_EVERY)
                && until.is_some_and(|u| Instant::now() >= u)
            {
                measured = false;
            }
            if !pending[city as usize] {
                continue;
            }
            found.clear();
            found.extend((1..=k).map(|i| {
                let step = i.div_ceil(2);
                // The curve closes into a loop; `step` < n, so one wrap at most (a division
                // per candidate took a third of the time).
                let other = if i % 2 == 1 {
                    let after = at + step;
                    if after >= n { after - n } else { after }
                } else if at >= step {
                    at - step
                } else {
                    at + n - step
                };
                let d = match measured {
                    true => instance.metric.distance(points[at], points[other]),
                    false => 0,
                };
                (d, self.order[other])
            }));
            if measured {
                found.sort_unstable();
            }
            let slots = &mut lists[city as usize * k..][..k];
            for (slot, &(_, other)) in slots.iter_mut().zip(&found) {
                *slot = other;
            }
        }
    }
}

// The renumbering lives beside the curve it follows.
impl Instance {
    /// The same cities numbered in the order a Hilbert curve through them visits them,
    /// each keeping its number in the file as its label: cities near in the plane are
    /// then near in memory (coordinates, candidate lists, distance rows), where a
    /// generated file numbers them at random (docs/benchmarks.md, "Cities numbered along
    /// a curve").
    pub fn in_curve_order(&self) -> Instance {
        let order = Curve::new(&self.cities).order;
        Instance {
            name: self.name.clone(),
            comment: self.comment.clone(),
            metric: self.metric,
            cities: order.iter().map(|&c| self.cities[c as usize]).collect(),
            labels: Some(order.iter().map(|&c| self.label(c)).collect()),
        }
    }
}

/// The position of cell (x, y) along the Hilbert curve over a 2^16 x 2^16 grid.
fn hilbert(mut x: u32, mut y: u32) -> u64 {
    let mut d = 0u64;
    let mut s = 1u32 << (BITS - 1);
    while s > 0 {
        let rx = u32::from(x & s != 0);
        let ry = u32::from(y & s != 0);
        d += u64::from(s) * u64::from(s) * u64::from((3 * rx) ^ ry);
        // Turn the quadrant so the curve's pieces join end to end; only the bits below
        // `s` are read from here on, so flipping all of them flips those.
        if ry == 0 {
            if rx == 1 {
                x = !x;
                y = !y;
            }
            std::mem::swap(&mut x, &mut y);
        }
        s >>= 1;
    }
    d
}

#[cfg(test)]
mod tests {
    use super::super::instance::Metric;
    use super::*;

    #[test]
    fn the_curve_visits_each_cell_once_stepping_to_a_neighbour() {
        // Over a 2^16 grid the first 4^k positions fill a 2^k square: check a 32x32 one.
        let mut cells: Vec<(u64, u32, u32)> = (0..32u32)
            .flat_map(|x| (0..32u32).map(move |y| (hilbert(x, y), x, y)))
            .collect();
        cells.sort_unstable();
        let positions: Vec<u64> = cells.iter().map(|c| c.0).collect();
        assert_eq!(positions, (0..1024).collect::<Vec<u64>>());
        for pair in cells.windows(2) {
            let step = pair[0].1.abs_diff(pair[1].1) + pair[0].2.abs_diff(pair[1].2);
            assert_eq!(step, 1, "{pair:?}");
        }
    }

    fn scattered(n: u32) -> Instance {
        Instance {
            name: "t".into(),
            comment: String::new(),
            metric: Metric::Euc2d,
            cities: (0..n)
                .map(|i| Point {
                    x: f64::from((i * 37) % 101),
                    y: f64::from((i * 53) % 97),
                })
                .collect::<Vec<_>>()
                .into(),
            labels: None,
        }
    }

    #[test]
    fn renumbered_cities_keep_their_file_numbers() {
        let file = scattered(500);
        let curved = file.in_curve_order();
        assert_eq!((file.label(7), curved.len()), (7, 500));
        for c in 0..500 {
            assert_eq!(
                curved.cities[c as usize],
                file.cities[curved.label(c) as usize]
            );
        }
        // Cities next to each other in number are near in the plane.
        let steps = |i: &Instance| {
            (1..500)
                .map(|c| u64::from(i.distance(c - 1, c)))
                .sum::<u64>()
        };
        assert!(
            steps(&curved) * 4 < steps(&file),
            "{} {}",
            steps(&curved),
            steps(&file)
        );
        // A tour in the file's numbers is the same cycle renumbered.
        let tour: Vec<u32> = (0..500).map(|i| (i * 7) % 500).collect();
        let mapped = curved.from_labels(&tour);
        assert_eq!(curved.to_labels(&mapped), tour);
        assert_eq!(curved.tour_length(&mapped), file.tour_length(&tour));
    }

    #[test]
    fn every_city_is_on_the_curve_once_and_its_candidates_are_others() {
        let instance = scattered(500);
        let curve = Curve::new(&instance.cities);
        let mut seen = curve.order.clone();
        seen.sort_unstable();
        assert_eq!(seen, (0..500).collect::<Vec<u32>>());
        let k = 9;
        let mut lists = vec![u32::MAX; 500 * k];
        let pending: Vec<bool> = (0..500).map(|city| city >= 100).collect();
        curve.fill(&instance, k, &pending, &mut lists, None);
        assert!(lists[..100 * k].iter().all(|&c| c == u32::MAX), "kept");
        for (city, list) in lists.chunks(k).enumerate().skip(100) {
            let mut others = list.to_vec();
            others.sort_unstable();
            others.dedup();
            assert_eq!(others.len(), k);
            assert!(!others.contains(&(city as u32)));
            let d = |&c: &u32| instance.distance(city as u32, c);
            assert!(
                list.windows(2).all(|w| d(&w[0]) <= d(&w[1])),
                "nearest first"
            );
        }
    }

    #[test]
    fn past_its_deadline_the_fill_takes_the_curve_s_order_without_measuring() {
        let instance = scattered(500);
        let curve = Curve::new(&instance.cities);
        let k = 6;
        let mut lists = vec![u32::MAX; 500 * k];
        let pending = vec![true; 500];
        curve.fill(&instance, k, &pending, &mut lists, Some(Instant::now()));
        for (at, &city) in curve.order.iter().enumerate() {
            let along = |step: isize| curve.order[(at as isize + step).rem_euclid(500) as usize];
            let list = &lists[city as usize * k..][..k];
            assert_eq!(
                list,
                [
                    along(1),
                    along(-1),
                    along(2),
                    along(-2),
                    along(3),
                    along(-3)
                ]
            );
        }
    }
}
