//! TSPLIB tour files (`.opt.tour`): read a reference tour, write ours.

use crate::input::{InputError, excerpt, tokens};
use crate::messages::count;

/// Reads the TOUR_SECTION of a tour file for an instance of `n` cities; returns 0-based
/// city indices. The ids may share lines; `-1` (or the end of the file) ends the list.
pub fn parse(text: &str, source: &str, n: usize) -> Result<Vec<u32>, InputError> {
    let err = |line: usize, message: String| InputError::new(source, message).at_line(line);
    let mut in_tour = false;
    let mut tour = Vec::with_capacity(n);
    let mut seen_on: Vec<usize> = vec![0; n];
    'lines: for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if !in_tour {
            match line.split(':').next().unwrap_or("").trim() {
                "TOUR_SECTION" => in_tour = true,
                "EOF" => break,
                "TYPE" if !line.ends_with("TOUR") => {
                    return Err(err(
                        line_no,
                        format!("not a tour file ('{}')", excerpt(line)),
                    ));
                }
                // A tour of another instance, though its ids may all be in range.
                "DIMENSION" => {
                    let value = line.split_once(':').map_or("", |(_, v)| v.trim());
                    if value.parse::<usize>().ok() != Some(n) {
                        return Err(err(
                            line_no,
                            format!(
                                "DIMENSION '{}' is not the instance's {n} cities",
                                excerpt(value)
                            ),
                        ));
                    }
                }
                _ => {}
            }
            continue;
        }
        for (column, token) in tokens(raw) {
            if token == "-1" || token == "EOF" {
                break 'lines;
            }
            let id = token
                .parse::<usize>()
                .ok()
                .filter(|id| (1..=n).contains(id))
                .ok_or_else(|| {
                    err(
                        line_no,
                        format!("'{}' is not a city id in 1..={n}", excerpt(token)),
                    )
                    .at_column(column)
                })?;
            if seen_on[id - 1] != 0 {
                return Err(err(
                    line_no,
                    format!(
                        "city {id} is visited twice (first on line {})",
                        seen_on[id - 1]
                    ),
                )
                .at_column(column));
            }
            seen_on[id - 1] = line_no;
            tour.push((id - 1) as u32);
        }
    }
    if !in_tour {
        return Err(InputError::new(source, "no TOUR_SECTION"));
    }
    if tour.len() != n {
        return Err(InputError::new(
            source,
            format!(
                "the tour visits {} but the instance has {n}",
                count(tour.len(), "city", "cities")
            ),
        ));
    }
    Ok(tour)
}

/// A TSPLIB tour file for `tour` (0-based city indices).
pub fn format(name: &str, length: u64, tour: &[u32]) -> String {
    let mut text = format!(
        "NAME : {name}.tour\nCOMMENT : Length {length}, found by kiln\nTYPE : TOUR\n\
         DIMENSION : {}\nTOUR_SECTION\n",
        tour.len()
    );
    for city in tour {
        text.push_str(&(city + 1).to_string());
        text.push('\n');
    }
    text.push_str("-1\nEOF\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_it_writes() {
        let tour = vec![2, 0, 3, 1];
        assert_eq!(parse(&format("x", 10, &tour), "t", 4).unwrap(), tour);
    }

    #[test]
    fn several_ids_per_line_and_no_terminator() {
        let text = "NAME: a\nTYPE: TOUR\nTOUR_SECTION\n 1 3\n2\n";
        assert_eq!(parse(text, "t", 3).unwrap(), vec![0, 2, 1]);
    }

    #[test]
    fn a_tour_of_another_size_is_refused_by_its_dimension() {
        for dimension in ["2", "4294967296", "x"] {
            let text = format!("TYPE: TOUR\nDIMENSION: {dimension}\nTOUR_SECTION\n1 2 3\n");
            assert_eq!(
                parse(&text, "t.tour", 3).unwrap_err().to_string(),
                format!("t.tour:2: DIMENSION '{dimension}' is not the instance's 3 cities")
            );
        }
    }

    #[test]
    fn bad_tours_name_the_line() {
        let text = "TOUR_SECTION\n1\n2\n2\n-1\n";
        assert_eq!(
            parse(text, "t.tour", 3).unwrap_err().to_string(),
            "t.tour:4:1: city 2 is visited twice (first on line 3)"
        );
        assert_eq!(
            parse("TOUR_SECTION\n1 9\n", "t.tour", 3)
                .unwrap_err()
                .to_string(),
            "t.tour:2:3: '9' is not a city id in 1..=3"
        );
        assert_eq!(
            parse("TOUR_SECTION\n1 2\n-1\n", "t.tour", 3)
                .unwrap_err()
                .to_string(),
            "t.tour: the tour visits 2 cities but the instance has 3"
        );
    }
}
