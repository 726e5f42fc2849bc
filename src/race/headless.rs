//! A race without a terminal: each pane runs its problem's own headless run on a thread of
//! its own; the panes' lines are printed in pane order, each with `pane` and `raced`
//! added, then a ranking line.

use std::io::{self, Write};
use std::thread;

use color_eyre::eyre::bail;
use serde::Serialize;
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;

use super::lineup::{Entrant, Lineup};
use super::standings::{self, Standing, Standings, Verdict};
use crate::headless::json;
use crate::headless::progress::BatchProgress;
use crate::messages::say;

/// One pane's place, from its line.
#[derive(Debug, Serialize)]
struct Entry {
    rank: usize,
    pane: String,
    /// The pane's `energy`, as its line prints it.
    energy: Value,
    #[serde(serialize_with = "json::seconds")]
    seconds: f64,
    stop: String,
    /// Whether the pane reached its target (a solved Sudoku), for problems that say.
    #[serde(skip_serializing_if = "Option::is_none")]
    solved: Option<bool>,
    /// The fields of its line its problem has the ranking repeat (TSP: `length`).
    #[serde(flatten)]
    also: Also,
}

/// Fields of a pane's line, by name, in the order its problem names them.
#[derive(Debug)]
struct Also(Vec<(&'static str, Value)>);

impl Serialize for Also {
    fn serialize<S: Serializer>(&self, out: S) -> Result<S::Ok, S::Error> {
        out.collect_map(self.0.iter().map(|(name, value)| (name, value)))
    }
}

impl Entry {
    fn standing(&self) -> Standing {
        Standing {
            solved: self.solved == Some(true),
            energy: self.energy.as_f64(),
            seconds: self.seconds,
        }
    }
}

/// The line after the panes' lines.
#[derive(Debug, Serialize)]
struct Ranking<'a> {
    race: &'static str,
    problem: &'a str,
    raced: &'a [String],
    /// Pane names, winner first.
    order: Vec<String>,
    ranking: Vec<Entry>,
    winner: Option<String>,
    /// Its `margin_seconds` or `margin_energy`.
    #[serde(flatten)]
    verdict: Verdict,
}

/// A JSON object's fields as its line printed them, in their order.
struct Fields(Vec<(String, Box<RawValue>)>);

impl<'de> Deserialize<'de> for Fields {
    fn deserialize<D: Deserializer<'de>>(input: D) -> Result<Fields, D::Error> {
        struct InOrder;
        impl<'de> Visitor<'de> for InOrder {
            type Value = Fields;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields, A::Error> {
                let mut fields = Vec::new();
                while let Some(field) = map.next_entry()? {
                    fields.push(field);
                }
                Ok(Fields(fields))
            }
        }
        input.deserialize_map(InOrder)
    }
}

impl Fields {
    /// The value of field `name`; null if the line has none.
    fn get(&self, name: &str) -> Value {
        (self.0.iter())
            .find(|(key, _)| key == name)
            .and_then(|(_, raw)| serde_json::from_str(raw.get()).ok())
            .unwrap_or(Value::Null)
    }
}

/// A pane's line: its problem's fields as they were, then `pane` and `raced` (the raced
/// values, in the order the flags were given).
struct PaneLine<'a> {
    line: &'a Fields,
    pane: &'a Entrant,
}

impl Serialize for PaneLine<'_> {
    fn serialize<S: Serializer>(&self, out: S) -> Result<S::Ok, S::Error> {
        let mut map = out.serialize_map(Some(self.line.0.len() + 2))?;
        for (key, value) in &self.line.0 {
            map.serialize_entry(key, value)?;
        }
        map.serialize_entry("pane", &self.pane.name)?;
        map.serialize_entry("raced", &Raced(&self.pane.raced))?;
        map.end()
    }
}

/// `(flag, value)` pairs as one object, in their order.
struct Raced<'a>(&'a [(String, String)]);

impl Serialize for Raced<'_> {
    fn serialize<S: Serializer>(&self, out: S) -> Result<S::Ok, S::Error> {
        out.collect_map(self.0.iter().map(|(flag, value)| (flag, value)))
    }
}

/// The pane's entry (unranked) from its problem's line.
fn entry(pane: &Entrant, line: &Fields) -> Entry {
    let field = |name: &str| line.get(name);
    Entry {
        rank: 0,
        pane: pane.name.clone(),
        energy: field("energy"),
        seconds: field("seconds").as_f64().unwrap_or(0.0),
        stop: field("stop").as_str().unwrap_or_default().to_string(),
        solved: field("solved").as_bool(),
        also: Also(
            (pane.maker.ranked_fields().iter())
                .map(|&name| (name, field(name)))
                .filter(|(_, value)| !value.is_null())
                .collect(),
        ),
    }
}

/// `kiln race PROBLEM ARGS... --headless`: one line per pane, in pane order, then the
/// ranking line; the finishing order on `log`. A Sudoku race nobody solves fails the run.
pub fn headless_lineup(
    race: &Lineup,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> color_eyre::Result<()> {
    // Panes run side by side: one progress line for the race, none of their own.
    let progress = BatchProgress::start(race.entrants.len());
    let progress = &progress;
    let printed: Vec<(Vec<u8>, color_eyre::Result<()>)> = thread::scope(|scope| {
        let handles: Vec<_> = race
            .entrants
            .iter()
            .map(|pane| {
                scope.spawn(move || {
                    let mut lines = Vec::new();
                    let result = pane.maker.headless(&mut lines, &mut io::sink());
                    progress.done();
                    (lines, result)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    let standings = race.standings();
    let won_by_solving = standings == Standings::FirstSolved;
    let mut entries = Vec::new();
    let mut failures = Vec::new();
    for (pane, (bytes, result)) in race.entrants.iter().zip(printed) {
        let text = String::from_utf8(bytes)?;
        let mut lines = text.lines();
        let (Some(line), None) = (lines.next(), lines.next()) else {
            // A pane that printed nothing failed before its run: its error says why.
            result?;
            bail!(
                "pane {} printed {} lines, not one",
                pane.name,
                text.lines().count()
            );
        };
        // A Sudoku run left unsolved prints its line and fails: that is its place in the
        // race, not the race's failure.
        match result {
            Err(e) if !won_by_solving => return Err(e),
            Err(e) => failures.push(e),
            Ok(()) => {}
        }
        let fields: Fields = serde_json::from_str(line)?;
        let with_pane = PaneLine {
            line: &fields,
            pane,
        };
        serde_json::to_writer(&mut *out, &with_pane)?;
        writeln!(out)?;
        entries.push(entry(pane, &fields));
    }
    let placed = standings::order(&entries.iter().map(Entry::standing).collect::<Vec<_>>());
    let mut entries: Vec<Entry> = {
        let mut slots: Vec<Option<Entry>> = entries.into_iter().map(Some).collect();
        placed.iter().filter_map(|&i| slots[i].take()).collect()
    };
    for (rank, entry) in entries.iter_mut().enumerate() {
        entry.rank = rank + 1;
    }
    let order: Vec<String> = entries.iter().map(|e| e.pane.clone()).collect();
    let summary: Vec<String> = entries
        .iter()
        .map(|e| match e.solved {
            Some(true) => format!("{}. {} solved in {:.4} s", e.rank, e.pane, e.seconds),
            _ => format!("{}. {} energy {}", e.rank, e.pane, e.energy),
        })
        .collect();
    let verdict = standings.verdict(&entries.iter().map(Entry::standing).collect::<Vec<_>>());
    let ranking = Ranking {
        race: "ranking",
        problem: &race.problem,
        raced: &race.flags,
        order,
        winner: verdict.winner.map(|i| entries[i].pane.clone()),
        ranking: entries,
        verdict,
    };
    serde_json::to_writer(&mut *out, &ranking)?;
    writeln!(out)?;
    out.flush()?;
    say(
        log,
        format_args!(
            "race {} {}: {}",
            race.problem,
            race.flags_typed(),
            summary.join(", ")
        ),
    );
    let solved = ranking.ranking.iter().any(|e| e.solved == Some(true));
    match failures.into_iter().next() {
        Some(e) if !solved => Err(e),
        _ => Ok(()),
    }
}
