//! docs/json.md is the headless JSON contract: every example command in it is run here and
//! its lines checked against the field tables (names, order, types) and against the example
//! lines printed in the page, byte for byte apart from the time fields. So the page cannot
//! drift from what kiln prints, and the examples prove the reproducibility it states.

use std::collections::HashMap;
use std::fmt;

use crate::common::{kiln, lines, without_fields};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

const DOC: &str = include_str!("../../docs/json.md");

/// One row of a field table.
struct Field {
    name: String,
    kind: String,
    /// `always`, or the condition under which the field is there.
    when: String,
}

/// An example: the commands of a `sh` block and the lines of the `json` block after it.
struct Example {
    commands: Vec<Vec<String>>,
    lines: Vec<String>,
}

struct Doc {
    /// Field tables by their `###` heading.
    tables: HashMap<String, Vec<Field>>,
    examples: Vec<Example>,
    /// The values of the stop table.
    stops: Vec<String>,
}

fn code(cell: &str) -> String {
    cell.trim().trim_matches('`').to_string()
}

fn parse_doc() -> Doc {
    let mut doc = Doc {
        tables: HashMap::new(),
        examples: Vec::new(),
        stops: Vec::new(),
    };
    let mut heading = String::new();
    let mut block: Option<&str> = None;
    for line in DOC.lines() {
        if let Some(kind) = block {
            if line == "```" {
                block = None;
            } else if kind == "sh" {
                assert!(line.starts_with("kiln "), "not a kiln command: {line}");
                let command = line.split_whitespace().skip(1).map(String::from).collect();
                if doc.examples.last().is_none_or(|e| !e.lines.is_empty()) {
                    doc.examples.push(Example {
                        commands: Vec::new(),
                        lines: Vec::new(),
                    });
                }
                doc.examples.last_mut().unwrap().commands.push(command);
            } else {
                let example = doc
                    .examples
                    .last_mut()
                    .expect("a json block after a sh block");
                example.lines.push(line.to_string());
            }
        } else if let Some(kind) = line.strip_prefix("```") {
            block = Some(if kind == "sh" { "sh" } else { "json" });
        } else if let Some(title) = line.strip_prefix("### ") {
            heading = title.to_string();
        } else if line.starts_with("| `") {
            let cells: Vec<&str> = line.trim_matches('|').split('|').collect();
            // The stop table has two columns, the field tables four.
            if cells.len() == 2 {
                doc.stops.push(code(cells[0]));
                continue;
            }
            doc.tables.entry(heading.clone()).or_default().push(Field {
                name: code(cells[0]),
                kind: cells[1].trim().to_string(),
                when: cells[2].trim().to_string(),
            });
        }
    }
    doc
}

/// Whether `value` has the documented type: `string`, `integer`, `number`, `seconds`,
/// `rate`, `boolean`, `null`, `array of T`, or several joined by `or`.
fn has_type(value: &Value, kind: &str) -> bool {
    kind.split(" or ").any(|kind| match kind {
        "string" => value.is_string(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" | "seconds" | "rate" => value.is_number(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        "array of integers" => array_of(value, "integer"),
        "array of numbers" => array_of(value, "number"),
        "array of objects" => array_of(value, "object"),
        "array of strings" => array_of(value, "string"),
        "object" => value.is_object(),
        _ => panic!("docs/json.md: unknown type {kind:?}"),
    })
}

fn array_of(value: &Value, kind: &str) -> bool {
    value
        .as_array()
        .is_some_and(|items| items.iter().all(|item| has_type(item, kind)))
}

/// The fields that measure time: typed `seconds` or `rate` in some table.
fn time_fields(doc: &Doc) -> Vec<String> {
    let timed = |f: &&Field| f.kind.starts_with("seconds") || f.kind == "rate";
    let mut names: Vec<String> = doc
        .tables
        .values()
        .flatten()
        .filter(timed)
        .map(|f| f.name.clone())
        .collect();
    names.sort();
    names.dedup();
    names
}

/// `line` without its time fields, the rest byte for byte as printed.
fn without_times(line: &str, timed: &[String]) -> String {
    let keys: Vec<&str> = timed.iter().map(String::as_str).collect();
    without_fields(line, &keys)
}

/// A JSON value's keys in the order printed, at every depth (serde_json's `Map` sorts
/// them, so a `Value` cannot tell the order).
enum Shape {
    Object(Vec<(String, Shape)>),
    Array(Vec<Shape>),
    Scalar,
}

impl Shape {
    fn keys(&self) -> Vec<&str> {
        match self {
            Shape::Object(fields) => fields.iter().map(|(k, _)| k.as_str()).collect(),
            _ => panic!("not an object"),
        }
    }

    fn field(&self, name: &str) -> Option<&Shape> {
        match self {
            Shape::Object(fields) => fields.iter().find(|(k, _)| k == name).map(|(_, v)| v),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for Shape {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ShapeVisitor;
        impl<'de> Visitor<'de> for ShapeVisitor {
            type Value = Shape;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("JSON")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Shape, A::Error> {
                let mut fields = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    fields.push(entry);
                }
                Ok(Shape::Object(fields))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Shape, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Shape::Array(items))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Shape, E> {
                Ok(Shape::Scalar)
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Shape, E> {
                Ok(Shape::Scalar)
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Shape, E> {
                Ok(Shape::Scalar)
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Shape, E> {
                Ok(Shape::Scalar)
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Shape, E> {
                Ok(Shape::Scalar)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Shape, E> {
                Ok(Shape::Scalar)
            }
        }
        deserializer.deserialize_any(ShapeVisitor)
    }
}

/// Whether `line` is the ranking line of `kiln race PROBLEM ...` (not of `kiln race FILE`).
fn race_ranking(line: &Map<String, Value>) -> bool {
    line.get("race").and_then(Value::as_str) == Some("ranking")
}

/// The tables a line of `command` is described by.
fn tables_for<'a>(doc: &'a Doc, line: &Map<String, Value>) -> Vec<&'a Field> {
    let mut names = vec![if race_ranking(line) {
        "Race ranking line"
    } else if line.contains_key("race") {
        "Ranking line"
    } else {
        match line["problem"].as_str().unwrap() {
            "sudoku" => "Sudoku line",
            "tsp" => "TSP line",
            "image" => "Image line",
            other => panic!("no table for problem {other}"),
        }
    }];
    if line.contains_key("pane") {
        names.push("Race pane fields");
    }
    names.iter().flat_map(|name| &doc.tables[*name]).collect()
}

/// Checks `line` (its keys in the order printed) against `fields`: every field
/// documented, in the documented order, with its type; every `always` field present; and
/// `stop`, where there is one, in the vocabulary.
fn check_line(doc: &Doc, line: &Map<String, Value>, keys: &[&str], fields: &[&Field], what: &str) {
    let mut order = fields.iter();
    for key in keys {
        let field = order
            .find(|f| f.name == *key)
            .unwrap_or_else(|| panic!("{what}: `{key}` undocumented or out of order"));
        let value = &line[*key];
        assert!(
            has_type(value, &field.kind),
            "{what}: `{key}` is {value}, documented as {}",
            field.kind
        );
    }
    for field in fields.iter().filter(|f| f.when == "always") {
        assert!(
            line.contains_key(&field.name),
            "{what}: no `{}`",
            field.name
        );
    }
    if let Some(stop) = line.get("stop") {
        let stop = stop.as_str().unwrap();
        assert!(doc.stops.iter().any(|s| s == stop), "{what}: stop {stop}");
    }
}

fn run(command: &[String]) -> Vec<String> {
    let args: Vec<&str> = command.iter().map(String::as_str).collect();
    let output = kiln(&args);
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "kiln {}: {}",
        command.join(" "),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn every_example_prints_the_documented_fields_and_the_documented_lines() {
    let _cores = crate::common::busy();
    let doc = parse_doc();
    let timed = time_fields(&doc);
    assert_eq!(
        timed,
        [
            "alpha_seconds",
            "anneal_seconds",
            "check_seconds",
            "local_search_seconds",
            "margin_seconds",
            "multiscale_seconds",
            "seconds",
            "steps_per_second"
        ]
    );
    let mut problems = Vec::new();
    for example in &doc.examples {
        let printed: Vec<(String, &Vec<String>)> = example
            .commands
            .iter()
            .flat_map(|command| run(command).into_iter().map(move |l| (l, command)))
            .collect();
        assert_eq!(printed.len(), example.lines.len(), "{:?}", example.commands);
        for ((line, command), shown) in printed.iter().zip(&example.lines) {
            let what = format!("kiln {}", command.join(" "));
            assert_eq!(
                without_times(line, &timed),
                without_times(shown, &timed),
                "{what}: docs/json.md shows another line (time fields aside); if the change \
                 is meant, paste the new line into the page"
            );
            let Value::Object(fields) = serde_json::from_str(line).unwrap() else {
                panic!("{what}: not an object: {line}");
            };
            let shape: Shape = serde_json::from_str(line).unwrap();
            let tables = tables_for(&doc, &fields);
            check_line(&doc, &fields, &shape.keys(), &tables, &what);
            if let Some(Shape::Array(entries)) = shape.field("ranking") {
                let entry_table = match race_ranking(&fields) {
                    true => "Race ranking entry",
                    false => "Ranking entry",
                };
                let table: Vec<&Field> = doc.tables[entry_table].iter().collect();
                for (entry, values) in entries.iter().zip(fields["ranking"].as_array().unwrap()) {
                    let values = values.as_object().unwrap();
                    check_line(
                        &doc,
                        values,
                        &entry.keys(),
                        &table,
                        &format!("{what}: ranking"),
                    );
                }
            }
            problems.push(command[0].clone());
        }
    }
    for problem in ["sudoku", "tsp", "image", "race"] {
        assert!(
            problems.iter().any(|p| p == problem),
            "no {problem} example"
        );
    }
}

/// Two runs of `args` print the same bytes apart from the time fields.
fn same_twice(args: &[&str]) {
    let timed = time_fields(&parse_doc());
    let command: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let [first, second] = [run(&command), run(&command)].map(|lines| {
        lines
            .iter()
            .map(|l| without_times(l, &timed))
            .collect::<Vec<_>>()
    });
    assert!(!first.is_empty(), "{args:?} printed nothing");
    assert_eq!(first, second, "{args:?}");
}

#[test]
fn a_step_budget_makes_every_problem_reproducible() {
    let _cores = crate::common::busy();
    same_twice(&[
        "sudoku",
        "puzzles/sudoku/top95_first10.txt",
        "--index",
        "3",
        "--threads",
        "2",
        "--no-propagate",
        "--max-steps",
        "300000",
        "--headless",
    ]);
    same_twice(&[
        "tsp",
        "--random",
        "300",
        "--max-steps",
        "400000",
        "--headless",
    ]);
    same_twice(&[
        "image",
        "--denoise",
        "--size",
        "48x48",
        "--rounds",
        "3",
        "--max-steps",
        "600000",
        "--headless",
    ]);
    same_twice(&[
        "image",
        "--size",
        "64x64",
        "--max-steps",
        "200000",
        "--headless",
    ]);
    same_twice(&[
        "race",
        "puzzles/sudoku/top95_first10.txt",
        "--index",
        "2",
        "--presets",
        "ga,geometric-restart",
        "--max-steps",
        "30000",
        "--headless",
    ]);
}

#[test]
fn a_tsp_run_that_reaches_the_optimum_says_so() {
    let _cores = crate::common::busy();
    // The default 1 s budget: the kicks find berlin52's optimum long before it ends.
    let output = kiln(&["tsp", "puzzles/tsp/berlin52.tsp", "--ils", "--headless"]);
    let line = &lines(&output)[0];
    assert_eq!(line["length"], line["optimum"], "{line}");
    assert_eq!(line["stop"], "optimum", "{line}");
    // The alias keeps the annealer's own word: its budget, or the optimum itself.
    assert!(matches!(
        line["reason"].as_str(),
        Some("time_limit" | "max_steps" | "target")
    ));
}

#[test]
fn a_run_that_anneals_to_the_optimum_stops_there() {
    let _cores = crate::common::busy();
    // Without kicks: berlin52's optimum comes long before the 300,000 steps.
    let output = kiln(&[
        "tsp",
        "puzzles/tsp/berlin52.tsp",
        "--max-steps",
        "300000",
        "--headless",
    ]);
    let line = &lines(&output)[0];
    assert_eq!(line["length"], line["optimum"], "{line}");
    assert_eq!(line["stop"], "optimum", "{line}");
    assert_eq!(line["reason"], "target", "{line}");
    assert!(line["iterations"].as_u64().unwrap() < 300_000, "{line}");
    // With the squared cost the energy is not the length: no target, the whole budget.
    let output = kiln(&[
        "tsp",
        "puzzles/tsp/berlin52.tsp",
        "--max-steps",
        "300000",
        "--cost",
        "squared",
        "--kick-share",
        "0",
        "--headless",
    ]);
    let line = &lines(&output)[0];
    // Two chains share the steps: each takes half, as the reported one did.
    assert_eq!(line["phases"][0]["steps"], 300_000, "{line}");
    assert_eq!(line["chains"], 2, "{line}");
    assert_eq!(line["iterations"], 150_000, "{line}");
    assert_eq!(line["stop"], "steps", "{line}");
}

#[test]
fn a_tsp_run_without_optimum_ends_on_its_budget() {
    let _cores = crate::common::busy();
    let output = kiln(&[
        "tsp",
        "--random",
        "60",
        "--max-steps",
        "50000",
        "--headless",
    ]);
    assert_eq!(lines(&output)[0]["stop"], "steps");
    let output = kiln(&["tsp", "--random", "60", "--time-limit", "0.2", "--headless"]);
    assert_eq!(lines(&output)[0]["stop"], "time");
}

#[test]
fn enum_values_are_spelt_as_the_flags_take_them() {
    let _cores = crate::common::busy();
    for moves in ["two-opt", "swap-adjacent", "swap"] {
        for cost in ["euclidean", "squared"] {
            let output = kiln(&[
                "tsp",
                "--random",
                "20",
                "--max-steps",
                "2000",
                "--moves",
                moves,
                "--cost",
                cost,
                "--headless",
            ]);
            let line = &lines(&output)[0];
            assert_eq!(
                (line["moves"].as_str(), line["cost"].as_str()),
                (Some(moves), Some(cost))
            );
        }
    }
    for edges in ["wrap", "free"] {
        let args = [
            "image",
            "--size",
            "16x16",
            "--max-steps",
            "1000",
            "--edges",
            edges,
        ];
        let output = kiln(&[&args[..], &["--headless"]].concat());
        assert_eq!(lines(&output)[0]["edges"], edges);
    }
    let doc = parse_doc();
    let kebab = |s: &str| s.chars().all(|c| c.is_ascii_lowercase() || c == '-');
    assert!(doc.stops.iter().all(|s| kebab(s)), "{:?}", doc.stops);
}

#[test]
fn a_puzzle_without_solution_says_why_nothing_ran() {
    let _cores = crate::common::busy();
    let output = kiln(&["sudoku", "puzzles/sudoku/no_solution.txt", "--headless"]);
    let line = &lines(&output)[0];
    assert_eq!(line["stop"], "no-solution", "{line}");
    assert_eq!(line["error"], "no solution", "{line}");
    assert_eq!(line["energy"], Value::Null, "{line}");
}

#[test]
fn a_step_budget_is_not_cut_short_by_a_default_time_limit() {
    let _cores = crate::common::busy();
    // About 1.5 s here: past the 1 s a denoising run gets without --max-steps.
    let steps = "60000000";
    let output = kiln(&[
        "image",
        "--denoise",
        "--size",
        "256x256",
        "--max-steps",
        steps,
        "--headless",
    ]);
    let line = &lines(&output)[0];
    assert_eq!(line["stop"], "steps", "{line}");
    assert_eq!(line["iterations"].to_string(), steps, "{line}");
}
