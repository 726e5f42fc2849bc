//! Seeded random instances, like the classroom exercises: uniform, normal or clustered.

use std::sync::Arc;

use rand::{RngExt, SeedableRng};

use super::instance::{Instance, Metric, Point};
use crate::Named;
use crate::search::Rng;

/// Cities live in a square this wide: large enough that TSPLIB's integer rounding of edge
/// lengths is negligible next to typical edges.
const SIDE: f64 = 10_000.0;

/// How the cities of a random instance are spread over the square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Uniform over the square.
    Uniform,
    /// One Gaussian blob in the middle.
    Normal,
    /// Several Gaussian islands.
    Clustered,
}

crate::named::named!(Layout { Uniform => "uniform", Normal => "normal", Clustered => "clustered" });

/// A standard normal draw (Box–Muller; rand 0.10 without rand_distr has none).
fn gaussian(rng: &mut Rng) -> f64 {
    let u: f64 = 1.0 - rng.random::<f64>(); // (0, 1], so ln is finite
    let v: f64 = rng.random();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// `n` cities laid out as `layout`, all from `seed`.
pub fn instance(n: usize, layout: Layout, seed: u64) -> Instance {
    let mut rng = Rng::seed_from_u64(seed);
    let cities: Arc<[Point]> = match layout {
        Layout::Uniform => (0..n)
            .map(|_| Point {
                x: rng.random::<f64>() * SIDE,
                y: rng.random::<f64>() * SIDE,
            })
            .collect(),
        Layout::Normal => (0..n)
            .map(|_| Point {
                x: SIDE / 2.0 + gaussian(&mut rng) * SIDE / 6.0,
                y: SIDE / 2.0 + gaussian(&mut rng) * SIDE / 6.0,
            })
            .collect(),
        Layout::Clustered => {
            let islands = (n / 25).clamp(3, 8);
            let centres: Vec<Point> = (0..islands)
                .map(|_| Point {
                    x: SIDE * (0.1 + 0.8 * rng.random::<f64>()),
                    y: SIDE * (0.1 + 0.8 * rng.random::<f64>()),
                })
                .collect();
            (0..n)
                .map(|_| {
                    let c = centres[rng.random_range(0..islands)];
                    Point {
                        x: c.x + gaussian(&mut rng) * SIDE / 30.0,
                        y: c.y + gaussian(&mut rng) * SIDE / 30.0,
                    }
                })
                .collect()
        }
    };
    Instance {
        name: format!("random{n}-{}-{seed}", layout.name()),
        comment: format!("{n} random cities, {} layout, seed {seed}", layout.name()),
        metric: Metric::Euc2d,
        cities,
        labels: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_cities() {
        for layout in [Layout::Uniform, Layout::Normal, Layout::Clustered] {
            let a = instance(50, layout, 3);
            assert_eq!(a, instance(50, layout, 3));
            assert_ne!(a.cities, instance(50, layout, 4).cities);
            assert_eq!(a.len(), 50);
            assert!(a.cities.iter().all(|p| p.x.is_finite() && p.y.is_finite()));
        }
    }
}
