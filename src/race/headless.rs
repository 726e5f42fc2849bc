//! A race without a terminal: each pane runs its problem's own headless run on a thread of
//! its own; the panes' lines are printed in pane order, each with `pane` and `raced`
//! added, then a ranking line.

use std::cmp::Ordering;
use std::io::{self, Write};
use std::thread;

use color_eyre::eyre::{bail, eyre};
use serde::Serialize;
use serde_json::Value;

use super::lineup::{Entrant, Lineup};
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
    /// Sudoku: whether the pane solved the puzzle.
    #[serde(skip_serializing_if = "Option::is_none")]
    solved: Option<bool>,
    /// TSP: the pane's tour length.
    #[serde(skip_serializing_if = "Option::is_none")]
    length: Option<u64>,
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
    #[serde(flatten)]
    margin: Margin,
}

/// How far ahead the winner finished, in what the race is ranked by.
#[derive(Debug, Serialize)]
enum Margin {
    /// A Sudoku race: the seconds between the first two, when both solved the puzzle.
    #[serde(rename = "margin_seconds")]
    Seconds(Option<json::Seconds>),
    /// The others: the second's energy less the first's.
    #[serde(rename = "margin_energy")]
    Energy(f64),
}

/// The winner (none on a tie, or in a Sudoku race nobody solved) and its margin, from the
/// entries in finishing order.
fn decided(entries: &[Entry], sudoku: bool) -> (Option<String>, Margin) {
    if sudoku {
        let places: Vec<_> = entries
            .iter()
            .map(|e| (e.pane.as_str(), e.solved == Some(true), e.seconds))
            .collect();
        let (winner, lead) = super::first_solved(&places);
        return (winner.map(String::from), Margin::Seconds(lead));
    }
    let [first, second, ..] = entries else {
        unreachable!("a race has two panes or more");
    };
    let lead = energy(second) - energy(first);
    let winner = (lead > 0.0).then(|| first.pane.clone());
    (winner, Margin::Energy(lead))
}

/// `line` (a JSON object) with the pane's `pane` and `raced` fields added at its end.
fn with_pane(line: &str, pane: &Entrant) -> color_eyre::Result<String> {
    let body = line
        .trim_end()
        .strip_suffix('}')
        .ok_or_else(|| eyre!("pane {}: not a JSON object: {line}", pane.name))?;
    Ok(format!(
        "{body},\"pane\":{},\"raced\":{}}}",
        serde_json::to_string(&pane.name)?,
        raced_object(&pane.raced)?
    ))
}

/// The raced values as an object, in the order the flags were given (a `Map` sorts them).
fn raced_object(raced: &[(String, String)]) -> color_eyre::Result<String> {
    let fields: Vec<String> = raced
        .iter()
        .map(|(flag, value)| {
            Ok(format!(
                "{}:{}",
                serde_json::to_string(flag)?,
                serde_json::to_string(value)?
            ))
        })
        .collect::<Result<_, serde_json::Error>>()?;
    Ok(format!("{{{}}}", fields.join(",")))
}

/// The pane's entry (unranked) from its problem's line.
fn entry(pane: &Entrant, line: &Value) -> Entry {
    Entry {
        rank: 0,
        pane: pane.name.clone(),
        energy: line["energy"].clone(),
        seconds: line["seconds"].as_f64().unwrap_or(0.0),
        stop: line["stop"].as_str().unwrap_or_default().to_string(),
        solved: line["solved"].as_bool(),
        length: line["length"].as_u64(),
    }
}

/// A pane's energy; none (an impossible puzzle) is above any.
fn energy(entry: &Entry) -> f64 {
    entry.energy.as_f64().unwrap_or(f64::INFINITY)
}

/// Lowest energy first (a Sudoku solved is at 0, so solved ones come first), then the
/// fewest seconds; a pane with no energy (an impossible puzzle) last.
fn ahead(a: &Entry, b: &Entry) -> Ordering {
    energy(a)
        .total_cmp(&energy(b))
        .then_with(|| a.seconds.total_cmp(&b.seconds))
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
    let sudoku = race.problem == "sudoku";
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
            Err(e) if !sudoku => return Err(e),
            Err(e) => failures.push(e),
            Ok(()) => {}
        }
        writeln!(out, "{}", with_pane(line, pane)?)?;
        entries.push(entry(pane, &serde_json::from_str(line)?));
    }
    entries.sort_by(ahead);
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
    let (winner, margin) = decided(&entries, sudoku);
    let ranking = Ranking {
        race: "ranking",
        problem: &race.problem,
        raced: &race.flags,
        order,
        ranking: entries,
        winner,
        margin,
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
