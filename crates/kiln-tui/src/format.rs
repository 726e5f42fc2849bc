//! Numbers as people read them in a narrow panel.

use std::time::Duration;

use ratatui::text::{Line, Span};

/// `line` in at most `width` columns: a longer one is cut after its last whole word that
/// fits, separators dropped, and ends in an ellipsis, so a title is never cut mid-word.
pub fn fit(line: Line<'_>, width: u16) -> Line<'_> {
    let width = usize::from(width);
    if line.width() <= width {
        return line;
    }
    let room = width.saturating_sub(1);
    let mut spans: Vec<Span> = Vec::new();
    let mut used = 0;
    for span in line.spans {
        let n = span.content.chars().count();
        if used + n <= room {
            used += n;
            spans.push(span);
            continue;
        }
        let fits: String = span.content.chars().take(room - used).collect();
        // A word ends where a space follows it, in this span or after it.
        let whole = span.content.chars().nth(room - used) == Some(' ');
        let end = if whole {
            fits.len()
        } else {
            fits.rfind(' ').unwrap_or(0)
        };
        spans.push(Span::styled(fits[..end].to_string(), span.style));
        break;
    }
    let separators: &[char] = &[' ', '·'];
    while let Some(last) = spans.last_mut() {
        let kept = last.content.trim_end_matches(separators).to_string();
        if kept.is_empty() {
            spans.pop();
        } else {
            last.content = kept.into();
            break;
        }
    }
    let style = spans.last().map(|s| s.style).unwrap_or_default();
    spans.push(Span::styled("…", style));
    Line::from(spans)
}

/// `line` in lines of at most `width` columns for a box drawn to fit them: a sum such as
/// "10% annealing + 80% local search + 10% re-annealing" breaks before a "+", so that a
/// share stays beside its phase; what is still too long breaks between words (a word
/// longer than `width` alone on its line).
pub fn wrap(line: &str, width: usize) -> Vec<String> {
    let terms = line.split(" + ").enumerate().map(|(i, term)| {
        if i == 0 {
            term.to_string()
        } else {
            format!("+ {term}")
        }
    });
    pack(terms, width)
        .iter()
        .flat_map(|l| pack(l.split(' ').map(str::to_string), width))
        .collect()
}

/// `pieces` joined by spaces into lines of at most `width` columns, a piece never split.
fn pack(pieces: impl Iterator<Item = String>, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for piece in pieces {
        match lines.last_mut() {
            Some(last) if last.chars().count() + 1 + piece.chars().count() <= width => {
                last.push(' ');
                last.push_str(&piece);
            }
            _ => lines.push(piece),
        }
    }
    lines
}

/// 1234567 -> "1,234,567".
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Where a number `si` writes is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Si {
    /// A panel's counter, four characters and a prefix at most: "45.2M", "1.0k", "950".
    Panel,
    /// A plot's tick, a round number shown exactly: "2500", "250k", "0.125", "1.8e19".
    Tick,
}

/// `x` with an SI prefix (k, M or G), as `place` wants it.
pub fn si(x: f64, place: Si) -> String {
    let a = x.abs();
    // A trace's energies can be anything up to f64::MAX, and "1000000000G" fits no axis.
    if place == Si::Tick && a >= 1e12 {
        return format!("{x:.1e}");
    }
    // Ticks spaced by 500 read better as 2500, 3000 than as 2.5k, 3k.
    let k_from = match place {
        Si::Panel => 1e3,
        Si::Tick => 1e4,
    };
    let (value, unit) = match a {
        _ if a >= 1e9 => (x / 1e9, "G"),
        _ if a >= 1e6 => (x / 1e6, "M"),
        _ if a >= k_from => (x / 1e3, "k"),
        _ => (x, ""),
    };
    let digits = match place {
        Si::Tick => trim(value),
        Si::Panel if unit.is_empty() || value.abs() >= 100.0 => format!("{value:.0}"),
        Si::Panel => format!("{value:.1}"),
    };
    format!("{digits}{unit}")
}

/// `v` with at most three decimals and no trailing zeros.
fn trim(v: f64) -> String {
    let text = format!("{v:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    match text {
        "-0" => "0".to_string(),
        _ => text.to_string(),
    }
}

/// Whole energies without decimals, others with as few as tell them apart.
pub fn energy(e: f64) -> String {
    if !e.is_finite() {
        "-".to_string()
    } else if e.fract() == 0.0 && e.abs() < 1e15 {
        format!("{e:.0}")
    } else if e.abs() >= 100.0 {
        format!("{e:.1}")
    } else {
        format!("{e:.3}")
    }
}

/// A temperature as the panels show it: four decimals, or an exponent when very large or small.
pub fn temperature(t: f64) -> String {
    if t == 0.0 {
        "0".to_string()
    } else if t.abs() >= 100.0 || t.abs() < 0.001 {
        format!("{t:.2e}")
    } else {
        format!("{t:.4}")
    }
}

/// A run's time as the panels show it.
pub fn elapsed(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 60.0 {
        format!("{s:.2} s")
    } else {
        format!("{}:{:05.2}", (s / 60.0).floor() as u64, s % 60.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sum_of_shares_breaks_before_a_plus_and_words_are_never_cut() {
        let credit = "after 10% annealing + 80% local search + 10% re-annealing";
        assert_eq!(
            wrap(credit, 44),
            [
                "after 10% annealing + 80% local search",
                "+ 10% re-annealing"
            ]
        );
        assert_eq!(wrap(credit, 80), [credit]);
        for width in 1..70 {
            let lines = wrap(credit, width);
            assert_eq!(lines.join(" "), credit, "{width}: every word, in order");
            for line in &lines {
                let words = line.split(' ').count();
                assert!(
                    line.chars().count() <= width || words == 1,
                    "{width}: {line:?}"
                );
            }
        }
        assert_eq!(
            wrap("3,000,000 iterations · 2 restarts", 22),
            ["3,000,000 iterations ·", "2 restarts"]
        );
    }

    #[test]
    fn a_long_line_is_cut_at_a_word_and_ends_in_an_ellipsis() {
        let text =
            |line: &Line| -> String { line.spans.iter().map(|s| s.content.as_ref()).collect() };
        let line = || {
            Line::from(vec![
                Span::raw(" kiln "),
                Span::raw("OPTIMAL"),
                Span::raw(" · gap 0.00% · best 7542"),
                Span::raw(" · berlin52 (52 cities)"),
            ])
        };
        let full = text(&line());
        assert_eq!(text(&fit(line(), 200)), full);
        for width in [59, 50, 40, 30, 20, 12, 8] {
            let cut = text(&fit(line(), width));
            assert!(
                cut.chars().count() <= usize::from(width),
                "{width}: {cut:?}"
            );
            let kept = cut.strip_suffix('…').unwrap();
            assert!(full.starts_with(kept), "{width}: {cut:?}");
            // What follows what is kept is a space: no word was cut.
            assert_eq!(
                full[kept.len()..].chars().next(),
                Some(' '),
                "{width}: {cut:?}"
            );
            assert!(
                !kept.ends_with(' ') && !kept.ends_with('·'),
                "{width}: {cut:?}"
            );
        }
        assert_eq!(text(&fit(line(), 1)), "…");
    }

    #[test]
    fn formats() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1_234_567), "1,234,567");
        assert_eq!(si(45_200_000.0, Si::Panel), "45.2M");
        assert_eq!(si(950.0, Si::Panel), "950");
        assert_eq!(si(123_456.0, Si::Panel), "123k");
        assert_eq!(energy(12.0), "12");
        assert_eq!(energy(8873.25), "8873.2");
        assert_eq!(energy(0.5), "0.500");
        assert_eq!(temperature(0.3), "0.3000");
        assert_eq!(temperature(1e-5), "1.00e-5");
        assert_eq!(elapsed(Duration::from_millis(1234)), "1.23 s");
        assert_eq!(elapsed(Duration::from_secs(75)), "1:15.00");
    }

    #[test]
    fn tick_labels_are_short() {
        assert_eq!(si(0.0, Si::Tick), "0");
        assert_eq!(si(2500.0, Si::Tick), "2500");
        assert_eq!(si(250_000.0, Si::Tick), "250k");
        assert_eq!(si(1_500_000.0, Si::Tick), "1.5M");
        assert_eq!(si(3e9, Si::Tick), "3G");
        assert_eq!(si(1.8e19, Si::Tick), "1.8e19");
        assert_eq!(si(-1e300, Si::Tick), "-1.0e300");
        assert_eq!(si(0.125, Si::Tick), "0.125");
    }
}
