//! The lesson under the board while steps are followed one by one: the move just proposed
//! and the Metropolis decision on it, in the runner's own numbers, e.g.
//! `swap r3c4 <-> r3c6   dE = +2   T = 0.8000   p = exp(-2/0.8000) = 0.082   u = 0.31 -> rejected`.

use kiln_core::search::{Decision, Explained};

use super::format;

/// Columns between the parts of the line.
const GAP: &str = "   ";

/// How much room the decision has: the whole story, or the same tighter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Room {
    /// `dE = +2   T = 0.8000   p = exp(-2/0.8000) = 0.08   u = 0.31 -> rejected`.
    Full,
    /// `dE=+2 T=0.8000 p=exp(-2/0.8000)=0.08 u=0.31 -> rejected`.
    Tight,
    /// `dE=+2 T=0.8000 p=0.08 u=0.31 -> rejected`.
    Least,
}

/// The decision in words: dE, T, p (and how it follows from them), u and the outcome.
fn decision(d: &Decision, room: Room) -> String {
    let (eq, gap) = match room {
        Room::Full => (" = ", GAP),
        Room::Tight | Room::Least => ("=", " "),
    };
    let t = format::temperature(d.temperature);
    let delta = format::energy(d.delta);
    let sign = if d.delta > 0.0 { "+" } else { "" };
    let p = if d.uphill() {
        let (p, u) = probabilities(d.p, d.u);
        let rule = match room {
            Room::Least => format!("p{eq}{p}"),
            _ => format!("p{eq}exp(-{delta}/{t}){eq}{p}"),
        };
        match u {
            Some(u) => format!("{rule}{gap}u{eq}{u}"),
            None => format!("{rule}{gap}(too small to draw)"),
        }
    } else {
        format!("p{eq}1 (not uphill)")
    };
    let outcome = if d.accepted { "accepted" } else { "rejected" };
    format!("dE{eq}{sign}{delta}{gap}T{eq}{t}{gap}{p} -> {outcome}")
}

/// Below this a probability is written in scientific notation (`1.3e-3`): with two
/// decimals it would read 0.00, as if the move could not be taken.
const SMALL: f64 = 0.01;

/// A probability below [`SMALL`], never rounded to nothing.
fn small(x: f64) -> String {
    format!("{x:.1e}")
}

/// `p` and `u` with as many decimals as tell them apart (two at least, so the reader can
/// check u < p by eye); one below [`SMALL`] in scientific notation.
fn probabilities(p: f64, u: Option<f64>) -> (String, Option<String>) {
    let draw = |u: f64| {
        if u < SMALL {
            small(u)
        } else {
            format!("{u:.4}")
        }
    };
    if p < SMALL {
        return (small(p), u.map(draw));
    }
    let Some(u) = u else {
        return (format!("{p:.2}"), None);
    };
    let mut places = 2;
    while places < 8 && format!("{p:.places$}") == format!("{u:.places$}") {
        places += 1;
    }
    (format!("{p:.places$}"), Some(format!("{u:.places$}")))
}

/// The lesson in `width` columns: the move and the decision on one line when they fit,
/// else one line each, the decision as tight as it must be to keep its outcome on screen.
pub(super) fn lines(explained: &Explained, width: u16) -> Vec<String> {
    let width = usize::from(width);
    let d = &explained.decision;
    let full = decision(d, Room::Full);
    let fits = |line: &String| line.chars().count() <= width;
    if let Some(sketch) = &explained.sketch {
        let one = format!("{}{GAP}{full}", sketch.words);
        if fits(&one) {
            return vec![one];
        }
    }
    let decision = [Room::Full, Room::Tight]
        .into_iter()
        .map(|room| decision(d, room))
        .find(fits)
        .unwrap_or_else(|| decision(d, Room::Least));
    let mut lines: Vec<String> = explained.sketch.iter().map(|s| s.words.clone()).collect();
    lines.push(decision);
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_core::search::Sketch;

    fn told(delta: f64, u: Option<f64>, accepted: bool) -> Explained {
        let p = if delta > 0.0 {
            (-delta / 0.8f64).exp()
        } else {
            1.0
        };
        Explained {
            sketch: Some(Sketch {
                words: "swap r3c4 <-> r3c6".to_string(),
                places: vec![21, 23],
                ..Sketch::default()
            }),
            decision: Decision {
                delta,
                temperature: 0.8,
                p,
                u,
                accepted,
                energy: 12.0,
            },
        }
    }

    #[test]
    fn an_uphill_move_shows_the_rule_its_numbers_and_the_draw() {
        let lines = lines(&told(2.0, Some(0.31), false), 120);
        assert_eq!(
            lines,
            [
                "swap r3c4 <-> r3c6   dE = +2   T = 0.8000   p = exp(-2/0.8000) = 0.08   \
              u = 0.31 -> rejected"
            ]
        );
    }

    #[test]
    fn u_and_p_get_the_decimals_that_tell_them_apart() {
        let p = (-2.0f64 / 0.8).exp(); // 0.0821
        let line = decision(&told(2.0, Some(0.0818), true).decision, Room::Full);
        assert!(line.contains(&format!("= {p:.4}")), "{line}");
        assert!(line.ends_with("u = 0.0818 -> accepted"), "{line}");
    }

    #[test]
    fn a_small_p_is_never_shown_as_zero_and_always_in_one_format() {
        // p = exp(-2/0.3) = 0.0013 read "0.00" beside u = 0.50 (issue 35).
        let decided = |p: f64, u: f64| {
            let mut told = told(2.0, Some(u), false);
            told.decision.p = p;
            decision(&told.decision, Room::Full)
        };
        let line = decided((-2.0f64 / 0.3).exp(), 0.5);
        assert!(line.contains(") = 1.3e-3   u = 0.5000"), "{line}");
        assert!(decided(4.5e-5, 0.5).contains(") = 4.5e-5   u"));
        assert!(decided(0.0099, 0.005).contains(") = 9.9e-3   u = 5.0e-3"));
        assert!(decided(0.011, 0.5).contains(") = 0.01   u = 0.50"));
    }

    #[test]
    fn downhill_is_certain_and_far_uphill_is_not_drawn() {
        assert_eq!(
            decision(&told(-1.0, None, true).decision, Room::Full),
            "dE = -1   T = 0.8000   p = 1 (not uphill) -> accepted"
        );
        let far = decision(&told(45.0, None, false).decision, Room::Full);
        assert!(far.contains("p = exp(-45/0.8000) = 3.7e-25"), "{far}");
        assert!(far.ends_with("(too small to draw) -> rejected"), "{far}");
    }

    #[test]
    fn a_narrow_screen_gets_the_move_and_the_decision_on_a_line_each() {
        let move_then = |width| lines(&told(2.0, Some(0.31), false), width);
        assert_eq!(move_then(80).len(), 2);
        assert_eq!(move_then(80)[0], "swap r3c4 <-> r3c6");
        assert!(move_then(80)[1].starts_with("dE = +2   T = 0.8000"));
        assert_eq!(
            move_then(60)[1],
            "dE=+2 T=0.8000 p=exp(-2/0.8000)=0.08 u=0.31 -> rejected"
        );
        assert_eq!(move_then(40)[1], "dE=+2 T=0.8000 p=0.08 u=0.31 -> rejected");
    }
}
