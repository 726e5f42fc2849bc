//! Where a panel's legend goes: the place where it hides the least of the lines, so that
//! the end of a run (in a race, its result) is not drawn under it.

use plotters::chart::SeriesLabelPosition;

/// The places tried, with where each puts the legend within the plot (0 at the left and
/// bottom, 1 at the right and top); on a tie the first wins.
const PLACES: [(SeriesLabelPosition, (f64, f64)); 8] = [
    (SeriesLabelPosition::UpperRight, (1.0, 1.0)),
    (SeriesLabelPosition::LowerRight, (1.0, 0.0)),
    (SeriesLabelPosition::MiddleRight, (1.0, 0.5)),
    (SeriesLabelPosition::UpperMiddle, (0.5, 1.0)),
    (SeriesLabelPosition::LowerMiddle, (0.5, 0.0)),
    (SeriesLabelPosition::LowerLeft, (0.0, 0.0)),
    (SeriesLabelPosition::UpperLeft, (0.0, 1.0)),
    (SeriesLabelPosition::MiddleLeft, (0.0, 0.5)),
];

/// The place for a legend `size` wide and high (fractions of the plot) over `lines`, whose
/// points are fractions of the plot too: the one the fewest segments (or lone points) of
/// the lines pass under.
pub(crate) fn place(lines: &[Vec<(f64, f64)>], size: (f64, f64)) -> SeriesLabelPosition {
    let hidden = |(h, v): (f64, f64)| {
        let (left, bottom) = (h * (1.0 - size.0), v * (1.0 - size.1));
        let (right, top) = (left + size.0, bottom + size.1);
        let under = |(a, b): (&(f64, f64), &(f64, f64))| {
            a.0.min(b.0) <= right
                && a.0.max(b.0) >= left
                && a.1.min(b.1) <= top
                && a.1.max(b.1) >= bottom
        };
        let segments = lines.iter().flat_map(|l| l.iter().zip(l.iter().skip(1)));
        let points = lines
            .iter()
            .filter(|l| l.len() == 1)
            .map(|l| (&l[0], &l[0]));
        segments.chain(points).filter(|&s| under(s)).count()
    };
    let (best, _) = PLACES
        .iter()
        .min_by_key(|(_, at)| hidden(*at))
        .expect("there are places to try");
    best.clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(p: SeriesLabelPosition) -> String {
        format!("{p:?}")
    }

    const SIZE: (f64, f64) = (0.25, 0.3);

    /// `y(x)` at 101 points across the plot.
    fn line(y: impl Fn(f64) -> f64) -> Vec<(f64, f64)> {
        (0..=100)
            .map(|i| (i as f64 / 100.0, y(i as f64 / 100.0)))
            .collect()
    }

    #[test]
    fn the_top_right_unless_lines_pass_there() {
        let falling = line(|x| 0.05 + 0.9 * (-5.0 * x).exp());
        assert_eq!(
            at(place(std::slice::from_ref(&falling), SIZE)),
            "UpperRight"
        );
        // A run that stays high to its end, as a repelling kernel's energy does.
        let high = line(|_| 0.95);
        assert_eq!(at(place(&[falling, high], SIZE)), "MiddleRight");
        let rising = line(|x| x);
        assert_eq!(at(place(&[rising], SIZE)), "LowerRight");
    }

    #[test]
    fn a_lone_point_is_not_hidden_either() {
        let dot = vec![(0.95, 0.95)];
        assert_eq!(at(place(&[dot], SIZE)), "LowerRight");
    }
}
