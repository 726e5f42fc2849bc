//! Interaction kernels for pattern formation: weights w(d) for displacements d between two
//! black pixels. Negative weights attract (the pair lowers the energy), positive repel.

use std::ops::RangeInclusive;
use std::path::Path;

use serde_json::Value;

use crate::input::InputError;
use crate::messages::show_number;

/// Custom kernels may reach this far (a 65x65 window); larger ones are almost surely typos.
pub const MAX_RADIUS: usize = 32;
/// Largest |weight| of kernels, --lambda and --beta: with at most 16M pixels and 4224
/// kernel offsets, energies stay below 2^53.
pub const MAX_WEIGHT: f64 = 10_000.0;
/// The most a kernel file holds: 4224 offsets at over 200 bytes each, or a 65x65 matrix
/// of long decimals. A larger file is refused before it is parsed (parsed JSON takes about
/// 20 times the file's size).
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// One displacement with its weight. A kernel holds both d and -d.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tap {
    /// Rows from one pixel to the other, down positive.
    pub dy: i32,
    /// Columns from one pixel to the other, right positive.
    pub dx: i32,
    /// Energy of a pair of black pixels this far apart: negative attracts, positive repels.
    pub weight: f64,
}

/// How black pixels interact: a weight for every displacement within `radius`.
#[derive(Debug, Clone, PartialEq)]
pub struct Kernel {
    /// The built-in's name (`maze`, `n8-repel`), or a kernel file's name without its
    /// extension.
    pub name: String,
    /// Every non-zero displacement, both signs, sorted (so equal kernels compare equal).
    pub taps: Vec<Tap>,
    /// Largest |dy| or |dx|.
    pub radius: usize,
    /// Weight of (dy, dx) at `(dy + r) * (2r + 1) + dx + r`, zero outside the kernel.
    table: Vec<f64>,
}

impl Kernel {
    /// Builds a kernel from displacements; listing d implies -d with the same weight.
    /// Errors are plain messages; the caller says where they come from.
    pub fn new(name: &str, taps: &[Tap]) -> Result<Kernel, String> {
        let mut all: Vec<Tap> = Vec::with_capacity(2 * taps.len());
        // Offsets seen so far, by place in the window: a repeat is found in one look, so a
        // file listing one offset 100,000 times is refused at its second entry.
        let window = 2 * MAX_RADIUS + 1;
        let mut seen = vec![false; window * window];
        for t in taps {
            if !t.weight.is_finite() || t.weight.abs() > MAX_WEIGHT {
                return Err(format!(
                    "weight of ({}, {}) is {}, not a number in [-{MAX_WEIGHT}, {MAX_WEIGHT}] \
                     (larger ones could make energies inexact)",
                    t.dy,
                    t.dx,
                    show_number(t.weight)
                ));
            }
            if (t.dy, t.dx) == (0, 0) {
                return Err("offset (0, 0) is the pixel itself and cannot have a weight".into());
            }
            if t.dy.unsigned_abs() as usize > MAX_RADIUS
                || t.dx.unsigned_abs() as usize > MAX_RADIUS
            {
                return Err(format!(
                    "offset ({}, {}) is too far (at most {MAX_RADIUS} in each direction)",
                    t.dy, t.dx
                ));
            }
            let place =
                (t.dy + MAX_RADIUS as i32) as usize * window + (t.dx + MAX_RADIUS as i32) as usize;
            if std::mem::replace(&mut seen[place], true) {
                return Err(format!("offset ({}, {}) is given twice", t.dy, t.dx));
            }
            all.push(*t);
        }
        let given = all.clone();
        for t in &given {
            match given.iter().find(|m| (m.dy, m.dx) == (-t.dy, -t.dx)) {
                Some(m) if m.weight != t.weight => {
                    return Err(format!(
                        "kernel is not symmetric: w({}, {}) = {} but w({}, {}) = {}",
                        t.dy, t.dx, t.weight, m.dy, m.dx, m.weight
                    ));
                }
                Some(_) => {}
                None => all.push(Tap {
                    dy: -t.dy,
                    dx: -t.dx,
                    weight: t.weight,
                }),
            }
        }
        all.retain(|t| t.weight != 0.0);
        if all.is_empty() {
            return Err("kernel has no non-zero weight".into());
        }
        all.sort_by_key(|t| (t.dy, t.dx));
        let radius = all
            .iter()
            .map(|t| t.dy.unsigned_abs().max(t.dx.unsigned_abs()) as usize)
            .max()
            .unwrap_or(0);
        let side = 2 * radius + 1;
        let mut table = vec![0.0; side * side];
        for t in &all {
            table[(t.dy + radius as i32) as usize * side + (t.dx + radius as i32) as usize] =
                t.weight;
        }
        Ok(Kernel {
            name: name.to_string(),
            taps: all,
            radius,
            table,
        })
    }

    /// w(dy, dx), zero outside the kernel.
    #[inline(always)]
    pub fn weight(&self, dy: i32, dx: i32) -> f64 {
        let r = self.radius as i32;
        if dy.abs() > r || dx.abs() > r {
            return 0.0;
        }
        let side = 2 * r + 1;
        self.table[((dy + r) * side + dx + r) as usize]
    }

    /// The built-ins by name, or a JSON file. Names: `n4`, `n8` (attracting unless suffixed
    /// `-repel`), `8-16` (inner ring attracts, outer ring repels; `-repel` flips both), and
    /// `maze`, `dots` and `stripes`, which attract within 2-3 pixels and repel at 4-6, so
    /// that black pixels gather into walls, spots or bands of one width (`maze` at density
    /// 0.5, `dots` at 0.2, `stripes` at 0.5; `stripes` repels only across rows, so its bands
    /// run horizontally).
    pub fn from_spec(spec: &str) -> Result<Kernel, InputError> {
        if let Some(kernel) = builtin(spec) {
            return Ok(kernel);
        }
        if spec.ends_with(".json") || Path::new(spec).exists() {
            return from_file(Path::new(spec));
        }
        Err(InputError::new(
            "--kernel",
            format!(
                "unknown kernel '{spec}' (n4, n8, 8-16, maze, dots or stripes, optionally with -attract or -repel, or a .json file)"
            ),
        ))
    }
}

/// Chebyshev ring `r` around the centre: all offsets with max(|dy|, |dx|) == r.
fn ring(r: i32, weight: f64) -> impl Iterator<Item = Tap> {
    (-r..=r).flat_map(move |dy| {
        (-r..=r)
            .filter(move |dx| dy.abs().max(dx.abs()) == r)
            .map(move |dx| Tap { dy, dx, weight })
    })
}

/// Every offset up to `reach` in each direction with its `weight(dy, dx)`, where that is not 0.
fn taps_where(reach: i32, weight: impl Fn(i32, i32) -> f64) -> Vec<Tap> {
    (-reach..=reach)
        .flat_map(|dy| (-reach..=reach).map(move |dx| (dy, dx)))
        .filter(|&offset| offset != (0, 0))
        .map(|(dy, dx)| Tap {
            dy,
            dx,
            weight: weight(dy, dx),
        })
        .filter(|t| t.weight != 0.0)
        .collect()
}

/// Attraction within squared distance `near` and a weaker repulsion at squared distances
/// `far`: clumps grow to about the width the gap between the two allows, then push each
/// other away, so the pattern keeps one scale instead of coarsening.
fn clump_and_space(near: i32, far: RangeInclusive<i32>) -> Vec<Tap> {
    let reach = (*far.end() as f64).sqrt() as i32;
    taps_where(reach, |dy, dx| match dy * dy + dx * dx {
        d if d <= near => -1.0,
        d if far.contains(&d) => 0.5,
        _ => 0.0,
    })
}

fn builtin(spec: &str) -> Option<Kernel> {
    let (base, sign) = if let Some(b) = spec.strip_suffix("-repel") {
        (b, -1.0)
    } else {
        (spec.strip_suffix("-attract").unwrap_or(spec), 1.0)
    };
    let taps: Vec<Tap> = match base {
        "n4" => [(0, 1), (1, 0), (0, -1), (-1, 0)]
            .into_iter()
            .map(|(dy, dx)| Tap {
                dy,
                dx,
                weight: -1.0,
            })
            .collect(),
        "n8" => ring(1, -1.0).collect(),
        "8-16" => ring(1, -1.0).chain(ring(2, 1.0)).collect(),
        // Walls and spots 4-6 pixels wide: one pixel per braille dot, they read as a maze
        // and as dots on a terminal.
        "maze" => clump_and_space(5, 16..=25),
        "dots" => clump_and_space(8, 25..=42),
        // The clumping of `maze`, repelled only by the rows 4-5 above and below: bands
        // about 10 pixels apart.
        "stripes" => taps_where(5, |dy, dx| match (dy * dy + dx * dx, dy.abs(), dx.abs()) {
            (d, _, _) if d <= 5 => -1.0,
            (_, 4..=5, 0..=2) => 1.0,
            _ => 0.0,
        }),
        _ => return None,
    };
    let taps: Vec<Tap> = taps
        .into_iter()
        .map(|t| Tap {
            weight: sign * t.weight,
            ..t
        })
        .collect();
    let name = if sign < 0.0 {
        format!("{base}-repel")
    } else {
        base.to_string()
    };
    Kernel::new(&name, &taps).ok()
}

/// A JSON kernel: `{"offsets": [[dy, dx, w], ...]}` (or just the list), or
/// `{"matrix": [[...], ...]}`, an odd square with the string "x" at the centre.
pub fn from_file(path: &Path) -> Result<Kernel, InputError> {
    let source = crate::input::source_name(path);
    let text = InputError::read_to_string_within(path, MAX_FILE_BYTES)?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    parse(&text, &source, &name)
}

/// A JSON kernel (see `from_file`) read from `source`, named `name`.
pub fn parse(text: &str, source: &str, name: &str) -> Result<Kernel, InputError> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        InputError::new(
            source,
            format!(
                "bad JSON: {}",
                e.to_string().split(" at line").next().unwrap_or("")
            ),
        )
        .at_line(e.line())
        .at_column(e.column())
    })?;
    let taps = match &value {
        Value::Array(list) => offsets(list),
        Value::Object(map) => match (map.get("offsets"), map.get("matrix")) {
            (Some(Value::Array(list)), None) => offsets(list),
            (None, Some(Value::Array(rows))) => matrix(rows),
            _ => Err("expected an \"offsets\" list or a \"matrix\" (not both)".to_string()),
        },
        _ => Err("expected an \"offsets\" list or a \"matrix\"".to_string()),
    };
    taps.and_then(|taps| Kernel::new(name, &taps))
        .map_err(|message| InputError::new(source, message))
}

fn offsets(list: &[Value]) -> Result<Vec<Tap>, String> {
    list.iter()
        .enumerate()
        .map(|(i, entry)| {
            let bad = || format!("offsets[{i}]: expected [dy, dx, weight] with integer dy, dx");
            let Value::Array(v) = entry else {
                return Err(bad());
            };
            let [dy, dx, w] = v.as_slice() else {
                return Err(bad());
            };
            let (Some(dy), Some(dx), Some(weight)) = (dy.as_i64(), dx.as_i64(), w.as_f64()) else {
                return Err(bad());
            };
            let within = |c: i64| c.unsigned_abs() <= MAX_RADIUS as u64;
            if !within(dy) || !within(dx) {
                return Err(format!(
                    "offsets[{i}]: offset ({dy}, {dx}) is too far (at most {MAX_RADIUS} in each direction)"
                ));
            }
            Ok(Tap {
                dy: dy as i32,
                dx: dx as i32,
                weight,
            })
        })
        .collect()
}

fn matrix(rows: &[Value]) -> Result<Vec<Tap>, String> {
    let side = rows.len();
    if side.is_multiple_of(2) || side > 2 * MAX_RADIUS + 1 {
        return Err(format!(
            "matrix must be square with an odd side of at most {}, found {side} rows",
            2 * MAX_RADIUS + 1
        ));
    }
    let r = (side / 2) as i32;
    let mut taps = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        let Some(row) = row.as_array().filter(|row| row.len() == side) else {
            return Err(format!("matrix row {} must have {side} entries", y + 1));
        };
        for (x, cell) in row.iter().enumerate() {
            let (dy, dx) = (y as i32 - r, x as i32 - r);
            if (dy, dx) == (0, 0) {
                if cell.as_str() != Some("x") {
                    return Err("matrix centre must be the string \"x\" (the pixel itself)".into());
                }
                continue;
            }
            let Some(weight) = cell.as_f64() else {
                return Err(format!(
                    "matrix row {}, column {}: expected a number",
                    y + 1,
                    x + 1
                ));
            };
            // Both d and -d are listed; `Kernel::new` rejects them if they differ.
            taps.push(Tap { dy, dx, weight });
        }
    }
    Ok(taps)
}
