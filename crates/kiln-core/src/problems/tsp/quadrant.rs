//! Quadrant candidate lists: a city's candidates are the nearest cities found in each of
//! the four quadrants around it, then its nearest overall. Plain k-nearest lists fail where
//! cities line up or cluster: on a row of evenly spaced cities (ts225-like instances) all k
//! nearest lie on the row, and in a tight cluster all lie in the cluster, so no move ever
//! joins two rows or two clusters except at their ends (docs/benchmarks.md has the gaps).

use super::instance::{Instance, Point};

/// Which of the four quadrants around `a` holds `b`, each half-open so that the four
/// lattice neighbours of a city fall in four different quadrants. A city at the same
/// place as `a` counts as quadrant 0.
fn quadrant(a: Point, b: Point) -> usize {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    if dx > 0.0 && dy >= 0.0 {
        0
    } else if dx <= 0.0 && dy > 0.0 {
        1
    } else if dx < 0.0 && dy <= 0.0 {
        2
    } else if dx >= 0.0 && dy < 0.0 {
        3
    } else {
        0
    }
}

/// Whether some quadrant around `a` has none of the `found` (distance, city) pairs.
pub(super) fn missing(instance: &Instance, a: u32, found: &[(u32, u32)]) -> bool {
    let here = instance.cities[a as usize];
    let mut seen = [false; 4];
    for &(_, b) in found {
        seen[quadrant(here, instance.cities[b as usize])] = true;
    }
    seen.contains(&false)
}

/// Writes `a`'s candidates, nearest first (ties by index), into `slots` (k of them, fewer
/// than `found`): the nearest of `found` in each quadrant (with k of 8 or more, the
/// nearest k / 4), then the nearest of the rest. Reorders `found`.
pub(super) fn pick(instance: &Instance, a: u32, found: &mut [(u32, u32)], slots: &mut [u32]) {
    let k = slots.len();
    let per_quadrant = (k / 4).max(1);
    let here = instance.cities[a as usize];
    found.sort_unstable();
    let mut taken = [0usize; 4];
    let mut kept = 0;
    // Quadrant winners go to the front, in order; the rest keep theirs behind them.
    for i in 0..found.len() {
        let q = quadrant(here, instance.cities[found[i].1 as usize]);
        if taken[q] < per_quadrant && kept < k {
            taken[q] += 1;
            found[kept..=i].rotate_right(1);
            kept += 1;
        }
    }
    let chosen = &mut found[..k];
    chosen.sort_unstable();
    for (slot, &(_, b)) in slots.iter_mut().zip(chosen.iter()) {
        *slot = b;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::tsp::Metric;

    fn instance(points: &[(f64, f64)]) -> Instance {
        Instance {
            name: "t".into(),
            comment: String::new(),
            metric: Metric::Euc2d,
            cities: points
                .iter()
                .map(|&(x, y)| Point { x, y })
                .collect::<Vec<_>>()
                .into(),
            labels: None,
        }
    }

    #[test]
    fn lattice_neighbours_fall_in_four_quadrants() {
        let a = Point { x: 0.0, y: 0.0 };
        let q = |x, y| quadrant(a, Point { x, y });
        let mut four = [q(1.0, 0.0), q(0.0, 1.0), q(-1.0, 0.0), q(0.0, -1.0)];
        four.sort_unstable();
        assert_eq!(four, [0, 1, 2, 3]);
    }

    #[test]
    fn a_city_on_a_row_gets_candidates_off_the_row() {
        // Cities 0..=8 on a row 1 apart, city 9 above the middle one at distance 3.
        let mut points: Vec<(f64, f64)> = (0..9).map(|i| (i as f64, 0.0)).collect();
        points.push((4.0, 3.0));
        let inst = instance(&points);
        let mut found: Vec<(u32, u32)> = (0..10)
            .filter(|&b| b != 4)
            .map(|b| (inst.distance(4, b), b))
            .collect();
        assert!(missing(&inst, 4, &found), "nothing below the row");
        let mut slots = [0; 4];
        pick(&inst, 4, &mut found, &mut slots);
        // Plain 4-nearest would be 3, 5, 2, 6: the city above is kept instead of 6.
        assert_eq!(slots, [3, 5, 2, 9]);
    }
}
