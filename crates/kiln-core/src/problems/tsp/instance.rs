//! A TSP instance: named city coordinates and the TSPLIB rule that turns them into integer
//! edge lengths.

use std::sync::Arc;

/// Cities an instance may have (`--random` and files alike): setting one up takes O(n k)
/// time and memory, a second or so at this size, and its tour lengths still sum exactly.
pub const MAX_CITIES: usize = 1_000_000;
/// Largest |coordinate| of a Euclidean-like instance: any edge is then below 2.9e9, so
/// lengths fit a u32 and a tour of `MAX_CITIES` edges sums exactly (below 2^53).
pub(crate) const MAX_COORDINATE: f64 = 1e9;
/// The longest GEO edge: half the Earth's circumference in TSPLIB's km, plus its +1.
const MAX_GEO_EDGE: u64 = 20_040;

/// A city's coordinates as the file gives them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// First coordinate (latitude for GEO, as DDD.MM).
    pub x: f64,
    /// Second coordinate (longitude for GEO, as DDD.MM).
    pub y: f64,
}

/// The smallest box that holds some cities (a point at the origin when there are none).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// The corner with the smallest x and y.
    pub low: Point,
    /// The corner with the largest x and y.
    pub high: Point,
}

impl Bounds {
    /// The bounds of `points`.
    pub fn of<'a>(points: impl IntoIterator<Item = &'a Point>) -> Bounds {
        let mut points = points.into_iter();
        let first = points.next().copied().unwrap_or(Point { x: 0.0, y: 0.0 });
        points.fold(
            Bounds {
                low: first,
                high: first,
            },
            |b, p| Bounds {
                low: Point {
                    x: b.low.x.min(p.x),
                    y: b.low.y.min(p.y),
                },
                high: Point {
                    x: b.high.x.max(p.x),
                    y: b.high.y.max(p.y),
                },
            },
        )
    }

    /// Extent along x, in the coordinates' units.
    pub fn width(&self) -> f64 {
        self.high.x - self.low.x
    }

    /// Extent along y, in the coordinates' units.
    pub fn height(&self) -> f64 {
        self.high.y - self.low.y
    }
}

/// TSPLIB distance functions. Every one yields an integer, computed per edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// nint(Euclidean), ties rounding up (`f64::round`), as TSPLIB specifies.
    Euc2d,
    /// ceil(Euclidean).
    Ceil2d,
    /// The pseudo-Euclidean distance of att48/att532.
    Att,
    /// Great-circle distance in km, coordinates as DDD.MM degrees and minutes.
    Geo,
}

impl Metric {
    /// The EDGE_WEIGHT_TYPE that names it in a TSPLIB file.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Euc2d => "EUC_2D",
            Metric::Ceil2d => "CEIL_2D",
            Metric::Att => "ATT",
            Metric::Geo => "GEO",
        }
    }

    /// The length of the edge from `a` to `b` under this rule. Inlined for the common rule
    /// (above 3,000 cities the local search computes every length it needs: a call each
    /// was a fifth of a 10,000-city run), the others out of line.
    #[inline(always)]
    pub fn distance(self, a: Point, b: Point) -> u32 {
        if self == Metric::Euc2d {
            nint_euclidean(a, b)
        } else {
            self.distance_other(a, b)
        }
    }

    #[inline(never)]
    fn distance_other(self, a: Point, b: Point) -> u32 {
        let (dx, dy) = (a.x - b.x, a.y - b.y);
        match self {
            Metric::Euc2d => nint_euclidean(a, b),
            Metric::Ceil2d => (dx * dx + dy * dy).sqrt().ceil() as u32,
            Metric::Att => {
                let r = ((dx * dx + dy * dy) / 10.0).sqrt();
                let t = r.round();
                (if t < r { t + 1.0 } else { t }) as u32
            }
            Metric::Geo => geo_distance(a, b),
        }
    }
}

/// TSPLIB's EUC_2D: nint, (int) (x + 0.5): one add, where `round` is a library call that
/// took a seventh of a 10,000-city run.
#[inline(always)]
fn nint_euclidean(a: Point, b: Point) -> u32 {
    let (dx, dy) = (a.x - b.x, a.y - b.y);
    ((dx * dx + dy * dy).sqrt() + 0.5) as u32
}

/// TSPLIB 95's GEO rule, constants included.
#[allow(clippy::approx_constant)] // TSPLIB's PI is 3.141592 on purpose: lengths must match.
fn geo_distance(a: Point, b: Point) -> u32 {
    const PI: f64 = 3.141592;
    const RADIUS: f64 = 6378.388;
    // Degrees are truncated, as in the TSPLIB reference code (and Concorde).
    let radians = |v: f64| {
        let deg = v.trunc();
        PI * (deg + 5.0 * (v - deg) / 3.0) / 180.0
    };
    let (lat_a, lon_a) = (radians(a.x), radians(a.y));
    let (lat_b, lon_b) = (radians(b.x), radians(b.y));
    let q1 = (lon_a - lon_b).cos();
    let q2 = (lat_a - lat_b).cos();
    let q3 = (lat_a + lat_b).cos();
    let cos = (0.5 * ((1.0 + q1) * q2 - (1.0 - q1) * q3)).clamp(-1.0, 1.0);
    (RADIUS * cos.acos() + 1.0) as u32
}

/// Cities plus their metric. Shared (via `Arc`) by the problem, snapshots and the UI.
#[derive(Debug, Clone, PartialEq)]
pub struct Instance {
    /// The file's NAME (else its file name), or a name made from a random instance's
    /// size, layout and seed.
    pub name: String,
    /// The file's COMMENT lines joined, or a description of a random instance; may be
    /// empty.
    pub comment: String,
    /// How coordinates become edge lengths.
    pub metric: Metric,
    /// The cities; a city is its index here.
    pub cities: Arc<[Point]>,
    /// Each city's number in the file (from 0) when the cities are not in the file's
    /// order (`in_curve_order`); `None`: city `i` is the file's `i`.
    pub labels: Option<Arc<[u32]>>,
}

impl Instance {
    /// Number of cities.
    pub fn len(&self) -> usize {
        self.cities.len()
    }

    /// City `city`'s number in the file, from 0.
    pub fn label(&self, city: u32) -> u32 {
        self.labels
            .as_ref()
            .map_or(city, |labels| labels[city as usize])
    }

    /// The file's numbers (from 0) of a tour's cities, as a tour file gives them.
    pub fn to_labels(&self, tour: &[u32]) -> Vec<u32> {
        tour.iter().map(|&city| self.label(city)).collect()
    }

    /// The cities of a tour given by the file's numbers (from 0), as a tour file gives
    /// them; `tour` holds each number below `len()` once.
    pub fn from_labels(&self, tour: &[u32]) -> Vec<u32> {
        let Some(labels) = &self.labels else {
            return tour.to_vec();
        };
        let mut city = vec![0; labels.len()];
        for (c, &label) in labels.iter().enumerate() {
            city[label as usize] = c as u32;
        }
        tour.iter().map(|&label| city[label as usize]).collect()
    }

    /// Whether there are no cities at all.
    pub fn is_empty(&self) -> bool {
        self.cities.is_empty()
    }

    /// The length of the edge between cities `a` and `b` (indices into `cities`).
    #[inline(always)]
    pub fn distance(&self, a: u32, b: u32) -> u32 {
        self.metric
            .distance(self.cities[a as usize], self.cities[b as usize])
    }

    /// An upper bound of every edge length: the distance across the cities' bounding box.
    pub fn longest_edge_bound(&self) -> u64 {
        if self.metric == Metric::Geo {
            return MAX_GEO_EDGE;
        }
        let Bounds { low, high } = Bounds::of(self.cities.iter());
        self.metric.distance(low, high) as u64
    }

    /// Length of the closed tour through `order` (0-based city indices), last edge included.
    pub fn tour_length(&self, order: &[u32]) -> u64 {
        let Some(&last) = order.last() else {
            return 0;
        };
        let mut prev = last;
        order
            .iter()
            .map(|&c| {
                let d = self.distance(prev, c) as u64;
                prev = c;
                d
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    #[test]
    fn euclidean_ties_round_up() {
        // 14.5 exactly: half-to-even would give 14.
        assert_eq!(Metric::Euc2d.distance(p(0.0, 0.0), p(14.5, 0.0)), 15);
        assert_eq!(Metric::Euc2d.distance(p(0.0, 0.0), p(3.0, 4.0)), 5);
        assert_eq!(Metric::Ceil2d.distance(p(0.0, 0.0), p(1.0, 1.0)), 2);
    }

    #[test]
    fn att_rounds_up_when_nint_falls_short() {
        // sqrt(1000/10) = 10 exactly; sqrt(101/10) = 3.18, nint 3 < 3.18 so 4.
        assert_eq!(Metric::Att.distance(p(0.0, 0.0), p(30.0, 10.0)), 10);
        assert_eq!(Metric::Att.distance(p(0.0, 0.0), p(10.0, 1.0)), 4);
    }

    #[test]
    fn geo_matches_a_known_distance() {
        // ulysses-style points one degree of latitude apart: about 111 km.
        let d = Metric::Geo.distance(p(10.0, 20.0), p(11.0, 20.0));
        assert_eq!(d, 112);
    }
}
