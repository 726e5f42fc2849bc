//! Lines that lie on top of each other: racers sharing one schedule have the same
//! temperature at every step, and drawn one over the other only the last one's colour
//! shows. A figure draws such a group once, named after all of them.

/// Values closer than this, relatively, are drawn as one: a hundredth of a value is under a
/// pixel on a log axis of a decade or more, as a temperature axis is.
const SAME: f64 = 0.01;

/// The indices of `lines` (points in x order) in groups of lines that coincide, each group
/// in the order of its lines and the groups in the order of their first lines.
pub(crate) fn groups(lines: &[Vec<(f64, f64)>]) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        match groups.iter_mut().find(|g| coincide(&lines[g[0]], line)) {
            Some(group) => group.push(i),
            None => groups.push(vec![i]),
        }
    }
    groups
}

/// Whether `a` and `b` start and end at the same x and each passes through the other's
/// points (sampled at different steps, they are still one line).
fn coincide(a: &[(f64, f64)], b: &[(f64, f64)]) -> bool {
    let (Some(a0), Some(a1), Some(b0), Some(b1)) = (a.first(), a.last(), b.first(), b.last())
    else {
        return false;
    };
    let span = a1.0.max(b1.0) - a0.0.min(b0.0);
    let near = |p: f64, q: f64| (p - q).abs() <= span * SAME;
    near(a0.0, b0.0) && near(a1.0, b1.0) && passes_through(a, b) && passes_through(b, a)
}

/// Whether `line` is within [`SAME`] of each of `points` inside its x range.
fn passes_through(line: &[(f64, f64)], points: &[(f64, f64)]) -> bool {
    points.iter().all(|&(x, y)| {
        value_at(line, x).is_none_or(|v| (v - y).abs() <= SAME * v.abs().max(y.abs()))
    })
}

/// `line`'s value at `x`, straight between its points; `None` outside them.
fn value_at(line: &[(f64, f64)], x: f64) -> Option<f64> {
    let after = line.partition_point(|p| p.0 < x);
    let at_or_after = *line.get(after)?;
    if at_or_after.0 == x {
        return Some(at_or_after.1);
    }
    let before = line[after.checked_sub(1)?];
    let share = (x - before.0) / (at_or_after.0 - before.0);
    Some(before.1 + (at_or_after.1 - before.1) * share)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An exponential schedule from 100 sampled every `every` steps up to `end`.
    fn cooling(every: usize, end: usize, rate: f64) -> Vec<(f64, f64)> {
        (0..=end)
            .step_by(every)
            .map(|s| (s as f64, 100.0 * (-rate * s as f64).exp()))
            .collect()
    }

    #[test]
    fn one_schedule_sampled_at_different_steps_is_one_line() {
        let a = cooling(100, 10_000, 1e-3);
        let b = cooling(150, 10_000, 1e-3);
        let c = cooling(100, 10_000, 1.2e-3);
        assert_eq!(groups(&[a.clone(), c.clone(), b]), [vec![0, 2], vec![1]]);
        assert_eq!(groups(&[c, a]), [vec![0], vec![1]]);
    }

    #[test]
    fn a_run_that_stops_early_is_its_own_line() {
        let whole = cooling(100, 10_000, 1e-3);
        let half = cooling(100, 5_000, 1e-3);
        assert_eq!(groups(&[whole, half]), [vec![0], vec![1]]);
    }

    #[test]
    fn values_a_hundredth_apart_are_one_and_a_twentieth_apart_are_two() {
        let line = |t: f64| vec![(0.0, t), (10.0, t)];
        assert_eq!(groups(&[line(1.0), line(1.005)]), [vec![0, 1]]);
        assert_eq!(groups(&[line(1.0), line(1.05)]), [vec![0], vec![1]]);
        assert_eq!(
            groups(&[vec![], line(1.0), vec![]]),
            [vec![0], vec![1], vec![2]]
        );
    }

    #[test]
    fn values_between_points_are_read_off_the_straight_line() {
        let line = [(0.0, 0.0), (10.0, 100.0), (20.0, 0.0)];
        assert_eq!(value_at(&line, 10.0), Some(100.0));
        assert_eq!(value_at(&line, 15.0), Some(50.0));
        assert_eq!(value_at(&line, -1.0), None);
        assert_eq!(value_at(&line, 21.0), None);
    }
}
