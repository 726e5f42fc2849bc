//! TSPLIB 95 `.tsp` files with a NODE_COORD_SECTION (EUC_2D, CEIL_2D, ATT, GEO).
//!
//! Tolerant where real files differ (`KEY: v` and `KEY : v`, blank lines, leading spaces,
//! scientific notation, no `EOF`), strict where a mistake would give wrong lengths.

use std::sync::Arc;

use super::instance::{Instance, MAX_CITIES, MAX_COORDINATE, Metric, Point};
use crate::input::{InputError, excerpt, tokens};
use crate::messages::count;

/// Where the parser is in the file.
enum Section {
    Header,
    Coords,
    /// A section kiln does not need (DISPLAY_DATA_SECTION, FIXED_EDGES_SECTION): skipped.
    Ignored,
}

/// Splits `KEY : value` on the first colon; a bare keyword gives an empty value. Both are
/// slices of `line`, so their columns can be found.
fn key_value(line: &str) -> (&str, &str) {
    match line.split_once(':') {
        Some((k, v)) => (k.trim(), v.trim()),
        None => (line.trim(), &line[line.len()..]),
    }
}

/// The 1-based character column where `part`, a slice of `line`, starts.
fn column_of(line: &str, part: &str) -> usize {
    let offset = (part.as_ptr() as usize).saturating_sub(line.as_ptr() as usize);
    line.get(..offset)
        .map_or(1, |before| before.chars().count() + 1)
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
            "EDGE_WEIGHT_TYPE {} is not supported (use EUC_2D, CEIL_2D, ATT or GEO)",
            excerpt(other)
        )),
    }
}

/// One `id x y` line: the values, where they were, and the coordinates as written.
struct CityLine<'a> {
    id: usize,
    point: Point,
    line: usize,
    /// Columns of id, x and y.
    columns: [usize; 3],
    written: [&'a str; 2],
}

/// Parses a TSPLIB file's text; `source` names it in errors.
pub fn parse(text: &str, source: &str) -> Result<Instance, InputError> {
    let err = |line: usize, column: usize, message: String| {
        InputError::new(source, message)
            .at_line(line)
            .at_column(column)
    };
    let mut name = None;
    let mut comment = String::new();
    let mut dimension: Option<usize> = None;
    let mut metric_type = Metric::Euc2d;
    let mut section = Section::Header;
    let mut seen_coords = false;
    // In file order; checked once the dimension and metric are surely known.
    let mut cities: Vec<CityLine> = Vec::new();

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
                if cities.len() == MAX_CITIES {
                    return Err(err(
                        line_no,
                        column_of(raw, line),
                        format!("more than {MAX_CITIES} cities, kiln's limit"),
                    ));
                }
                cities.push(coordinate_line(raw, line_no, &err)?);
            }
            continue;
        }
        let (key, value) = key_value(line);
        let at_value = column_of(raw, value);
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
                    at_value,
                    format!(
                        "TYPE {} is not supported (only symmetric TSP)",
                        excerpt(value)
                    ),
                ));
            }
            "DIMENSION" => {
                dimension = Some(parse_dimension(value).map_err(|m| err(line_no, at_value, m))?)
            }
            "EDGE_WEIGHT_TYPE" => {
                metric_type = metric(value).map_err(|m| err(line_no, at_value, m))?
            }
            "NODE_COORD_SECTION" => {
                section = Section::Coords;
                seen_coords = true;
            }
            "DISPLAY_DATA_SECTION" | "FIXED_EDGES_SECTION" => section = Section::Ignored,
            "EDGE_WEIGHT_SECTION" => {
                return Err(err(
                    line_no,
                    column_of(raw, line),
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
                return Err(err(
                    line_no,
                    column_of(raw, line),
                    format!("{what}, found '{}'", excerpt(line)),
                ));
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
            format!(
                "DIMENSION is {n} but {} given",
                match cities.len() {
                    1 => "1 city is".to_string(),
                    many => format!("{many} cities are"),
                }
            ),
        ));
    }
    if n < 3 {
        return Err(InputError::new(
            source,
            format!("{}: a tour needs at least 3", count(n, "city", "cities")),
        ));
    }
    let mut points: Vec<Option<(Point, usize)>> = vec![None; n];
    for city in &cities {
        let (id, line_no) = (city.id, city.line);
        if id == 0 || id > n {
            return Err(err(
                line_no,
                city.columns[0],
                format!("city id {id} is outside 1..={n}"),
            ));
        }
        if let Some((_, first)) = points[id - 1] {
            return Err(err(
                line_no,
                city.columns[0],
                format!("city {id} is given twice (first on line {first})"),
            ));
        }
        check_coordinates(city, metric_type).map_err(|(column, m)| err(line_no, column, m))?;
        points[id - 1] = Some((city.point, line_no));
    }
    // n entries, n distinct ids in 1..=n: every slot is filled.
    let cities: Arc<[Point]> = points.into_iter().flatten().map(|(p, _)| p).collect();
    Ok(Instance {
        name: name.unwrap_or_else(|| stem(source)),
        comment,
        metric: metric_type,
        cities,
        labels: None,
    })
}

fn parse_dimension(value: &str) -> Result<usize, String> {
    let d = value
        .parse::<usize>()
        .map_err(|_| format!("DIMENSION '{}' is not a whole number", excerpt(value)))?;
    if d > MAX_CITIES {
        return Err(format!(
            "DIMENSION {d} is more than {MAX_CITIES} cities, kiln's limit"
        ));
    }
    Ok(d)
}

/// `id x y`: a positive integer id and two finite numbers.
fn coordinate_line<'a>(
    raw: &'a str,
    line_no: usize,
    err: &impl Fn(usize, usize, String) -> InputError,
) -> Result<CityLine<'a>, InputError> {
    let fields: Vec<(usize, &str)> = tokens(raw).collect();
    let bad = |column: usize| {
        err(
            line_no,
            column,
            format!("expected 'id x y', found '{}'", excerpt(raw.trim())),
        )
    };
    let [(id_at, id), (x_at, x), (y_at, y)] = fields[..] else {
        let column = match fields.get(3) {
            Some(&(extra, _)) => extra,
            None => raw.chars().count() + 1,
        };
        return Err(bad(column));
    };
    let id = id.parse::<usize>().map_err(|_| bad(id_at))?;
    let number = |s: &str, at: usize| {
        s.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| bad(at))
    };
    let point = Point {
        x: number(x, x_at)?,
        y: number(y, y_at)?,
    };
    Ok(CityLine {
        id,
        point,
        line: line_no,
        columns: [id_at, x_at, y_at],
        written: [x, y],
    })
}

/// Refuses coordinates whose edge lengths would not fit the integer lengths kiln sums
/// exactly, and GEO coordinates that are no place on Earth. Errors carry the column.
fn check_coordinates(city: &CityLine, metric: Metric) -> Result<(), (usize, String)> {
    let values = [city.point.x, city.point.y];
    for (axis, value) in values.into_iter().enumerate() {
        let (limit, what) = match (metric, axis) {
            (Metric::Geo, 0) => (90.0, "GEO latitude"),
            (Metric::Geo, _) => (180.0, "GEO longitude"),
            (_, 0) => (MAX_COORDINATE, "x coordinate"),
            (_, _) => (MAX_COORDINATE, "y coordinate"),
        };
        if value.abs() > limit {
            return Err((
                city.columns[axis + 1],
                format!(
                    "{what} {} is outside -{limit}..{limit}{}",
                    excerpt(city.written[axis]),
                    match metric {
                        Metric::Geo => " (DDD.MM degrees)",
                        _ => " (larger ones give edge lengths kiln cannot add exactly)",
                    }
                ),
            ));
        }
    }
    Ok(())
}

/// The file name without directories and extension, for instances without NAME.
pub fn stem(source: &str) -> String {
    let base = source.rsplit(['/', '\\']).next().unwrap_or(source);
    base.split('.').next().unwrap_or(base).to_string()
}
