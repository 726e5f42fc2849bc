//! Numbers as people read them in a narrow panel.

use std::time::Duration;

/// 1234567 -> "1,234,567".
pub(super) fn count(n: u64) -> String {
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

/// 45_200_000.0 -> "45.2M".
pub(super) fn si(x: f64) -> String {
    let (value, unit) = match x.abs() {
        a if a >= 1e9 => (x / 1e9, "G"),
        a if a >= 1e6 => (x / 1e6, "M"),
        a if a >= 1e3 => (x / 1e3, "k"),
        _ => (x, ""),
    };
    if unit.is_empty() {
        format!("{value:.0}")
    } else if value.abs() >= 100.0 {
        format!("{value:.0}{unit}")
    } else {
        format!("{value:.1}{unit}")
    }
}

/// Whole energies without decimals, others with as few as tell them apart.
pub(super) fn energy(e: f64) -> String {
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

pub(super) fn temperature(t: f64) -> String {
    if t == 0.0 {
        "0".to_string()
    } else if t.abs() >= 100.0 || t.abs() < 0.001 {
        format!("{t:.2e}")
    } else {
        format!("{t:.4}")
    }
}

pub(super) fn elapsed(d: Duration) -> String {
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
    fn formats() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1_234_567), "1,234,567");
        assert_eq!(si(45_200_000.0), "45.2M");
        assert_eq!(si(950.0), "950");
        assert_eq!(si(123_456.0), "123k");
        assert_eq!(energy(12.0), "12");
        assert_eq!(energy(8873.25), "8873.2");
        assert_eq!(energy(0.5), "0.500");
        assert_eq!(temperature(0.3), "0.3000");
        assert_eq!(temperature(1e-5), "1.00e-5");
        assert_eq!(elapsed(Duration::from_millis(1234)), "1.23 s");
        assert_eq!(elapsed(Duration::from_secs(75)), "1:15.00");
    }
}
