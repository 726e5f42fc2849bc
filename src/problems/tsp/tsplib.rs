//! TSPLIB 95 `.tsp` files with a NODE_COORD_SECTION (EUC_2D, CEIL_2D, ATT, GEO).
//!
//! Tolerant where real files differ (`KEY: v` and `KEY : v`, blank lines, leading spaces,
//! scientific notation, no `EOF`), strict where a mistake would give wrong lengths.

use std::sync::Arc;

use super::instance::{Instance, Metric, Point};
use crate::input::InputError;

/// Where the parser is in the file.
enum Section {
    Header,
    Coords,
    /// A section kiln does not need (DISPLAY_DATA_SECTION, FIXED_EDGES_SECTION): skipped.
    Ignored,
}

/// Splits `KEY : value` on the first colon; a bare keyword gives an empty value.
fn key_value(line: &str) -> (&str, &str) {
    match line.split_once(':') {
        Some((k, v)) => (k.trim(), v.trim()),
        None => (line.trim(), ""),
    }
}

fn metric(value: &str) -> Result<Metric, String> {
    match value {
        "EUC_2D" => Ok(Metric::Euc2d),
        "CEIL_2D" => Ok(Metric::Ceil2d),
        "ATT" => Ok(Metric::Att),
        "GEO" => Ok(Metric::Geo),
        "EXPLICIT" => Err(
            "EDGE_WEIGHT_TYPE EXPLICIT (a distance matrix) is not supported: \
             kiln needs city coordinates"
                .to_string(),
        ),
        other => Err(format!(
            "EDGE_WEIGHT_TYPE {other} is not supported (use EUC_2D, CEIL_2D, ATT or GEO)"
        )),
    }
}

/// Parses a TSPLIB file's text; `source` names it in errors.
pub fn parse(text: &str, source: &str) -> Result<Instance, InputError> {
    let err = |line: usize, message: String| InputError::new(source, message).at_line(line);
    let mut name = None;
    let mut comment = String::new();
    let mut dimension: Option<usize> = None;
    let mut metric_type = Metric::Euc2d;
    let mut section = Section::Header;
    let mut seen_coords = false;
    // (id, point, line) in file order; checked once the dimension is surely known.
    let mut cities: Vec<(usize, Point, usize)> = Vec::new();

    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let first = line.split_whitespace().next().unwrap_or("");
        let numeric = first.parse::<f64>().is_ok();
        if numeric && !matches!(section, Section::Header) {
            if let Section::Coords = section {
                cities.push(coordinate_line(line, line_no, &err)?);
            }
            continue;
        }
        let (key, value) = key_value(line);
        match key {
            "EOF" => break,
            "NAME" => name = Some(value.to_string()),
            "COMMENT" => {
                if !comment.is_empty() {
                    comment.push(' ');
                }
                comment.push_str(value);
            }
            "TYPE" if value != "TSP" => {
                return Err(err(
                    line_no,
                    format!("TYPE {value} is not supported (only symmetric TSP)"),
                ));
            }
            "DIMENSION" => {
                let d = value.parse::<usize>().map_err(|_| {
                    err(
                        line_no,
                        format!("DIMENSION '{value}' is not a whole number"),
                    )
                })?;
                dimension = Some(d);
            }
            "EDGE_WEIGHT_TYPE" => metric_type = metric(value).map_err(|m| err(line_no, m))?,
            "NODE_COORD_SECTION" => {
                section = Section::Coords;
                seen_coords = true;
            }
            "DISPLAY_DATA_SECTION" | "FIXED_EDGES_SECTION" => section = Section::Ignored,
            "EDGE_WEIGHT_SECTION" => {
                return Err(err(
                    line_no,
                    "EDGE_WEIGHT_SECTION (a distance matrix) is not supported: \
                     kiln needs city coordinates"
                        .to_string(),
                ));
            }
            _ if value.is_empty() && !raw.contains(':') => {
                let what = if matches!(section, Section::Coords) {
                    "expected 'id x y'"
                } else {
                    "expected 'KEY : value'"
                };
                return Err(err(line_no, format!("{what}, found '{line}'")));
            }
            // Other header keys (EDGE_WEIGHT_FORMAT, NODE_COORD_TYPE, ...) change nothing here.
            _ => {}
        }
    }

    if !seen_coords {
        return Err(InputError::new(
            source,
            "no NODE_COORD_SECTION (kiln needs city coordinates)",
        ));
    }
    let n = dimension.unwrap_or(cities.len());
    if cities.len() != n {
        return Err(InputError::new(
            source,
            format!("DIMENSION is {n} but {} cities are given", cities.len()),
        ));
    }
    if n < 3 {
        return Err(InputError::new(
            source,
            format!("{n} cities: a tour needs at least 3"),
        ));
    }
    let mut points: Vec<Option<(Point, usize)>> = vec![None; n];
    for (id, point, line_no) in cities {
        if id == 0 || id > n {
            return Err(err(line_no, format!("city id {id} is outside 1..={n}")));
        }
        if let Some((_, first)) = points[id - 1] {
            return Err(err(
                line_no,
                format!("city {id} is given twice (first on line {first})"),
            ));
        }
        points[id - 1] = Some((point, line_no));
    }
    // n entries, n distinct ids in 1..=n: every slot is filled.
    let cities: Arc<[Point]> = points.into_iter().flatten().map(|(p, _)| p).collect();
    Ok(Instance {
        name: name.unwrap_or_else(|| stem(source)),
        comment,
        metric: metric_type,
        cities,
    })
}

/// `id x y`: a positive integer id and two finite numbers.
fn coordinate_line(
    line: &str,
    line_no: usize,
    err: &impl Fn(usize, String) -> InputError,
) -> Result<(usize, Point, usize), InputError> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let bad = || err(line_no, format!("expected 'id x y', found '{line}'"));
    let [id, x, y] = fields[..] else {
        return Err(bad());
    };
    let id = id.parse::<usize>().map_err(|_| bad())?;
    let number = |s: &str| s.parse::<f64>().ok().filter(|v| v.is_finite());
    let (Some(x), Some(y)) = (number(x), number(y)) else {
        return Err(bad());
    };
    Ok((id, Point { x, y }, line_no))
}

/// The file name without directories and extension, for instances without NAME.
pub fn stem(source: &str) -> String {
    let base = source.rsplit(['/', '\\']).next().unwrap_or(source);
    base.split('.').next().unwrap_or(base).to_string()
}
