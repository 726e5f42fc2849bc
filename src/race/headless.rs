//! A race without a terminal: each pane runs its problem's own headless run on a thread of
//! its own; the panes' lines are printed in pane order, each with `pane` and `raced`
//! added, then a ranking line.

use std::io::{self, Write};
use std::thread;

use color_eyre::eyre::bail;
use serde::{Serialize, Serializer};

use super::lineup::{Entrant, Lineup};
use super::standings::{self, Standing, Standings, Verdict};
use crate::headless::json;
use crate::headless::progress::BatchProgress;
use crate::headless::report::Lines;
use crate::messages::say;
use crate::search::{Energy, Finished, Measure, Stop};

/// One pane's place, from how its run finished.
#[derive(Debug, Serialize)]
struct Entry {
    rank: usize,
    pane: String,
    /// The pane's energy, as its line prints it.
    energy: Option<Energy>,
    #[serde(serialize_with = "json::seconds")]
    seconds: f64,
    stop: Stop,
    /// Whether the pane reached its target (a solved Sudoku), for problems that have one.
    #[serde(skip_serializing_if = "Option::is_none")]
    solved: Option<bool>,
    /// What its problem is judged by besides the energy (TSP: `length`).
    #[serde(flatten)]
    measure: Measured,
    #[serde(skip)]
    standing: Standing,
}

/// A [`Measure`] as a field of its own name, or nothing.
#[derive(Debug)]
struct Measured(Option<Measure>);

impl Serialize for Measured {
    fn serialize<S: Serializer>(&self, out: S) -> Result<S::Ok, S::Error> {
        out.collect_map(self.0.iter().map(|m| (m.name, m.value)))
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

/// `(flag, value)` pairs as one object, in their order.
struct Raced<'a>(&'a [(String, String)]);

impl Serialize for Raced<'_> {
    fn serialize<S: Serializer>(&self, out: S) -> Result<S::Ok, S::Error> {
        out.collect_map(self.0.iter().map(|(flag, value)| (flag, value)))
    }
}

/// The pane's entry (unranked) from how its run finished.
fn entry(pane: &Entrant, run: &Finished) -> Entry {
    Entry {
        rank: 0,
        pane: pane.name.clone(),
        energy: run.energy,
        seconds: run.seconds,
        stop: run.stop,
        solved: run.solved,
        measure: Measured(run.measure),
        standing: run.into(),
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
    let printed: Vec<(Vec<u8>, Vec<Finished>, color_eyre::Result<()>)> = thread::scope(|scope| {
        let handles: Vec<_> = race
            .entrants
            .iter()
            .map(|pane| {
                scope.spawn(move || {
                    let mut bytes = Vec::new();
                    // Each line says which pane ran it and the values it raced.
                    let tagged = Lines::to(&mut bytes)
                        .after("pane", &pane.name)
                        .and_then(|lines| lines.after("raced", &Raced(&pane.raced)));
                    let (finished, result) = match tagged {
                        Ok(mut lines) => {
                            let result = pane.maker.headless(&mut lines, &mut io::sink());
                            (lines.finished().to_vec(), result)
                        }
                        Err(e) => (Vec::new(), Err(e.into())),
                    };
                    progress.done();
                    (bytes, finished, result)
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
    for (pane, (bytes, finished, result)) in race.entrants.iter().zip(printed) {
        let [run] = finished[..] else {
            // A pane that printed nothing failed before its run: its error says why.
            result?;
            bail!("pane {} ran {} times, not once", pane.name, finished.len());
        };
        // A Sudoku run left unsolved prints its line and fails: that is its place in the
        // race, not the race's failure.
        match result {
            Err(e) if !won_by_solving => return Err(e),
            Err(e) => failures.push(e),
            Ok(()) => {}
        }
        out.write_all(&bytes)?;
        entries.push(entry(pane, &run));
    }
    let placed = standings::order(&entries.iter().map(|e| e.standing).collect::<Vec<_>>());
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
            // As the line prints it.
            _ => format!(
                "{}. {} energy {}",
                e.rank,
                e.pane,
                serde_json::json!(e.energy)
            ),
        })
        .collect();
    let verdict = standings.verdict(&entries.iter().map(|e| e.standing).collect::<Vec<_>>());
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
