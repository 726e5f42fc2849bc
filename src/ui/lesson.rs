//! The lesson under the board while steps are followed one by one: the move just proposed
//! and the Metropolis decision on it, in the runner's own numbers, e.g.
//! `swap r3c4 <-> r3c6   dE = +2   T = 0.8000   p = exp(-2/0.8000) = 0.082   u = 0.31 -> rejected`.

use crate::anneal::{Decision, Explained};

use super::format;

/// Columns between the parts of the line.
const GAP: &str = "   ";

/// The decision in words: dE, T, p (and how it follows from them), u and the outcome.
pub(super) fn decision(d: &Decision) -> String {
    let t = format::temperature(d.temperature);
    let delta = format::energy(d.delta);
    let de = if d.delta > 0.0 {
        format!("dE = +{delta}")
    } else {
        format!("dE = {delta}")
    };
    let p = if d.uphill() {
        let (p, u) = probabilities(d.p, d.u);
        let rule = format!("p = exp(-{delta}/{t}) = {p}");
        match u {
            Some(u) => format!("{rule}{GAP}u = {u}"),
            None => format!("{rule}{GAP}(too small to draw)"),
        }
    } else {
        "p = 1 (not uphill)".to_string()
    };
    let outcome = if d.accepted { "accepted" } else { "rejected" };
    format!("{de}{GAP}T = {t}{GAP}{p} -> {outcome}")
}

/// `p` and `u` with as many decimals as tell them apart (two at least, so the reader can
/// check u < p by eye); a tiny `p` in scientific notation.
fn probabilities(p: f64, u: Option<f64>) -> (String, Option<String>) {
    if p < 1e-3 {
        return (format!("{p:.1e}"), u.map(|u| format!("{u:.4}")));
    }
    let Some(u) = u else {
        return (format!("{p:.3}"), None);
    };
    let mut places = 2;
    while places < 8 && format!("{p:.places$}") == format!("{u:.places$}") {
        places += 1;
    }
    (format!("{p:.places$}"), Some(format!("{u:.places$}")))
}

/// The lesson in `width` columns: the move and the decision on one line when they fit,
/// else one line each; a line still too long is shortened with an ellipsis.
pub(super) fn lines(explained: &Explained, width: u16) -> Vec<String> {
    let decision = decision(&explained.decision);
    let Some(sketch) = &explained.sketch else {
        return vec![decision];
    };
    let one = format!("{}{GAP}{decision}", sketch.words);
    if one.chars().count() <= usize::from(width) {
        vec![one]
    } else {
        vec![sketch.words.clone(), decision]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anneal::Sketch;

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
        let line = decision(&told(2.0, Some(0.0818), true).decision);
        assert!(line.contains(&format!("= {p:.4}")), "{line}");
        assert!(line.ends_with("u = 0.0818 -> accepted"), "{line}");
    }

    #[test]
    fn downhill_is_certain_and_far_uphill_is_not_drawn() {
        assert_eq!(
            decision(&told(-1.0, None, true).decision),
            "dE = -1   T = 0.8000   p = 1 (not uphill) -> accepted"
        );
        let far = decision(&told(45.0, None, false).decision);
        assert!(far.contains("p = exp(-45/0.8000) = 3.7e-25"), "{far}");
        assert!(far.ends_with("(too small to draw) -> rejected"), "{far}");
    }

    #[test]
    fn a_narrow_screen_gets_the_move_and_the_decision_on_a_line_each() {
        let lines = lines(&told(2.0, Some(0.31), false), 80);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0], "swap r3c4 <-> r3c6");
        assert!(lines[1].chars().count() <= 80, "{}", lines[1]);
    }
}
