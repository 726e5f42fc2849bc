//! What the `main` of every program built on [`Watch`] needs, once: its command line read
//! ([`Args`]), then the live view, or with `--headless` one JSON line of the outcome. A
//! program gets `--seed N`, `--headless` and `--record FILE.cast` for free and says only
//! what its own optional number means ([`Args::number`]).

use std::fmt;
use std::io::Write;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::Serialize;
use serde_json::{Map, Value};

use super::{DEFAULT_SEED, Watch};
use crate::Board;
use kiln_core::anneal::{Outcome, Problem, StopReason};

/// The flags every [`main`] takes, named in every complaint about a word it does not know.
const FLAGS: &str = "[NUMBER] [--seed N] [--headless] [--record FILE.cast]";

/// A command line [`main`] read: at most one number of the program's own, and the flags
/// every program takes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Args {
    number: Option<String>,
    seed: Option<u64>,
    headless: bool,
    record: Option<PathBuf>,
}

/// Something wrong with the command line, said in one line (`WHERE: WHY`); [`main`] prints
/// it after the program's name and exits with code 2, as kiln does for a bad flag.
#[derive(Debug, Clone, PartialEq)]
pub struct ArgsError(String);

impl fmt::Display for ArgsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ArgsError {}

impl Args {
    /// Reads `words` (the arguments after the program's name).
    pub fn parse(words: impl IntoIterator<Item = String>) -> Result<Args, ArgsError> {
        let mut args = Args::default();
        let mut words = words.into_iter();
        while let Some(word) = words.next() {
            let mut value = |flag: &str, what: &str| {
                (words.next()).ok_or_else(|| ArgsError(format!("{flag}: give it {what}")))
            };
            match word.as_str() {
                "--headless" => args.headless = true,
                "--seed" => {
                    let seed = value("--seed", "a whole number")?;
                    let parsed = seed.parse().map_err(|_| {
                        ArgsError(format!("--seed: '{seed}' is not a whole number"))
                    })?;
                    args.seed = Some(parsed);
                }
                "--record" => args.record = Some(value("--record", "a file name")?.into()),
                flag if flag.starts_with('-') => {
                    return Err(ArgsError(format!("'{flag}' is not a flag; usage: {FLAGS}")));
                }
                _ if args.number.is_some() => {
                    return Err(ArgsError(format!(
                        "'{word}': one number at most; usage: {FLAGS}"
                    )));
                }
                _ => args.number = Some(word),
            }
        }
        if args.headless && args.record.is_some() {
            return Err(ArgsError(
                "--record records the live view, which --headless does not open".into(),
            ));
        }
        Ok(args)
    }

    /// The program's own number (the `N` of N-queens), `default` without one; a number
    /// outside `range` is refused, naming `name`.
    pub fn number(
        &self,
        name: &str,
        range: RangeInclusive<usize>,
        default: usize,
    ) -> Result<usize, ArgsError> {
        let Some(word) = &self.number else {
            return Ok(default);
        };
        let (low, high) = (range.start(), range.end());
        (word.parse().ok().filter(|n| range.contains(n))).ok_or_else(|| {
            ArgsError(format!(
                "{name}: '{word}' is not a whole number from {low} to {high}"
            ))
        })
    }

    /// `--seed`, or the seed a [`Watch`] starts with: what an instance made outside the
    /// watch (a board's own copy of it) is made from.
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or(DEFAULT_SEED)
    }
}

/// What went wrong in [`main`], and so its exit code.
enum Failure {
    /// The command line, or a `--record` file that cannot be made: 2, before any annealing.
    Input(String),
    /// The run itself, or printing its line: 1.
    Run(String),
}

/// The whole `main` of a program built on [`Watch`]: reads the command line, has `build`
/// make the watch from it, and opens the live view (recording it with `--record`, from
/// `--seed`), or with `--headless` anneals without a terminal and prints one JSON line:
/// the watch's title as `problem`, `seed`, `energy`, `iterations`, `stop`, `seconds`, the
/// best state as `best`, and the fields [`Watch::report`] adds. A bad command line is one
/// line on stderr and exit code 2; a failed run, exit code 1.
///
/// ```no_run
/// # use kiln_core::anneal::{Problem, Rng};
/// # use kiln_tui::{Board, Theme, watch::{self, Watch}};
/// # use ratatui::{buffer::Buffer, layout::Rect};
/// # struct Bits(Vec<bool>);
/// # impl Problem for Bits {
/// #     type Move = usize;
/// #     type Snapshot = Vec<bool>;
/// #     fn energy(&self) -> f64 { self.0.iter().filter(|&&b| b).count() as f64 }
/// #     fn propose(&self, rng: &mut Rng) -> usize { rand::RngExt::random_range(rng, 0..self.0.len()) }
/// #     fn delta(&self, &i: &usize) -> f64 { if self.0[i] { -1.0 } else { 1.0 } }
/// #     fn apply(&mut self, &i: &usize) { self.0[i] = !self.0[i] }
/// #     fn randomize(&mut self, _rng: &mut Rng) {}
/// #     fn snapshot(&self) -> Vec<bool> { self.0.clone() }
/// # }
/// # #[derive(Clone)] struct Row;
/// # impl Board<Vec<bool>> for Row {
/// #     fn min_size(&self, _: Option<&Vec<bool>>) -> (u16, u16) { (64, 1) }
/// #     fn render(&self, _: &Vec<bool>, _: Rect, _: &mut Buffer, _: &Theme) {}
/// # }
/// // `bits 20 --headless` prints {"problem":"bits","seed":1,"energy":0.0,...,"set":0}
/// fn main() -> std::process::ExitCode {
///     watch::main(|args| {
///         let n = args.number("N", 1..=64, 32)?;
///         let watch = Watch::new("bits", move |_seed| Bits(vec![true; n]), Row).target(0.0);
///         Ok(watch.report(|bits| serde_json::json!({ "set": bits.iter().filter(|&&b| b).count() })))
///     })
/// }
/// ```
pub fn main<P, B>(build: impl FnOnce(&Args) -> Result<Watch<P, B>, ArgsError>) -> ExitCode
where
    P: Problem + Send + 'static,
    P::Snapshot: Serialize,
    B: Board<P::Snapshot> + Clone + 'static,
{
    let mut words = std::env::args();
    let program = words.next().unwrap_or_default();
    let name = Path::new(&program).file_stem().map(|s| s.to_string_lossy());
    match run(build, words, &mut std::io::stdout()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            let (code, message) = match failure {
                Failure::Input(message) => (2, message),
                Failure::Run(message) => (1, message),
            };
            eprintln!("{}: {message}", name.as_deref().unwrap_or("kiln"));
            ExitCode::from(code)
        }
    }
}

/// [`main`] on `words`, printing a headless run's line to `out`.
fn run<P, B>(
    build: impl FnOnce(&Args) -> Result<Watch<P, B>, ArgsError>,
    words: impl IntoIterator<Item = String>,
    out: &mut impl Write,
) -> Result<(), Failure>
where
    P: Problem + Send + 'static,
    P::Snapshot: Serialize,
    B: Board<P::Snapshot> + Clone + 'static,
{
    let input = |error: ArgsError| Failure::Input(error.0);
    let args = Args::parse(words).map_err(input)?;
    let mut watch = build(&args).map_err(input)?.seed(args.seed());
    if let Some(path) = &args.record {
        watch = watch
            .record(path)
            .map_err(|e| Failure::Input(e.to_string()))?;
    }
    if !args.headless {
        return watch.run().map_err(|e| Failure::Run(format!("{e:#}")));
    }
    let outcome = watch.solve().map_err(|e| Failure::Run(format!("{e:#}")))?;
    let line = watch
        .line(&outcome)
        .map_err(|e| Failure::Run(e.to_string()))?;
    writeln!(out, "{line}").map_err(|e| Failure::Run(format!("printing the result: {e}")))
}

impl<P, B> Watch<P, B>
where
    P: Problem + Send + 'static,
    P::Snapshot: Serialize,
    B: Board<P::Snapshot> + Clone + 'static,
{
    /// The JSON line of a headless [`main`]'s `outcome`.
    fn line(&self, outcome: &Outcome<P::Snapshot>) -> serde_json::Result<String> {
        let report = match self.report.as_ref().map(|report| report(&outcome.best)) {
            Some(Value::Object(fields)) => fields,
            Some(other) => Map::from_iter([("report".to_string(), other)]),
            None => Map::new(),
        };
        serde_json::to_string(&Line {
            problem: &self.title,
            seed: self.seed,
            energy: outcome.energy,
            iterations: outcome.iterations,
            stop: outcome.reason,
            seconds: outcome.elapsed.as_secs_f64(),
            best: &outcome.best,
            report,
        })
    }
}

/// A headless [`main`]'s line, its fields in the order a reader looks for them.
#[derive(Serialize)]
struct Line<'a, S> {
    problem: &'a str,
    seed: u64,
    energy: f64,
    iterations: u64,
    stop: StopReason,
    seconds: f64,
    best: &'a S,
    #[serde(flatten)]
    report: Map<String, Value>,
}

#[cfg(test)]
mod tests {
    use super::super::tests::{Bits, Row};
    use super::*;
    use serde_json::json;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    fn refused(line: &str) -> String {
        Args::parse(words(line)).unwrap_err().to_string()
    }

    /// `count` bits set, a watch that clears them; its seed is the one `--seed` gave.
    fn build(args: &Args) -> Result<Watch<Bits, Row>, ArgsError> {
        let count = args.number("COUNT", 1..=40, 40)?;
        let watch = Watch::new("bits", move |_| Bits(vec![true; count]), Row).target(0.0);
        Ok(watch.report(move |bits: &Vec<bool>| json!({ "count": bits.len() })))
    }

    /// What `run` does with `line`: the JSON line printed, or the failure's code and words.
    fn ran(line: &str) -> Result<Value, (u8, String)> {
        let mut out = Vec::new();
        match run(build, words(line), &mut out) {
            Ok(()) => Ok(serde_json::from_slice(&out).expect("one JSON line")),
            Err(Failure::Input(message)) => Err((2, message)),
            Err(Failure::Run(message)) => Err((1, message)),
        }
    }

    #[test]
    fn a_command_line_is_read_or_refused_in_one_line() {
        let args = Args::parse(words("12 --seed 7 --record a.cast")).unwrap();
        assert_eq!((args.seed(), args.headless), (7, false));
        assert_eq!(args.record, Some(PathBuf::from("a.cast")));
        assert_eq!(args.number("N", 4..=200, 16), Ok(12));
        assert_eq!(
            Args::parse(words("")).unwrap().number("N", 4..=200, 16),
            Ok(16)
        );
        assert_eq!(Args::parse(words("")).unwrap().seed(), DEFAULT_SEED);
        let n = |line: &str| Args::parse(words(line)).unwrap().number("N", 4..=200, 16);
        assert_eq!(
            n("3").unwrap_err().to_string(),
            "N: '3' is not a whole number from 4 to 200"
        );
        assert!(n("x").unwrap_err().to_string().contains("'x'"));
        assert_eq!(refused("--seed"), "--seed: give it a whole number");
        assert_eq!(refused("--seed -1"), "--seed: '-1' is not a whole number");
        assert_eq!(refused("--record"), "--record: give it a file name");
        assert!(refused("--fast").starts_with("'--fast' is not a flag; usage: [NUMBER]"));
        assert!(refused("1 2").starts_with("'2': one number at most"));
        assert!(refused("--headless --record a.cast").contains("--headless does not open"));
        for line in ["--seed", "--fast", "1 2", "--seed x"] {
            assert!(!refused(line).contains('\n'), "{line}");
        }
    }

    #[test]
    fn headless_it_prints_one_line_of_the_outcome_and_the_report() {
        let line = ran("12 --seed 9 --headless").unwrap();
        assert_eq!(line["problem"], "bits");
        assert_eq!(line["seed"], 9);
        assert_eq!(line["energy"], 0.0);
        assert_eq!(line["stop"], "target");
        assert_eq!(line["best"], json!(vec![false; 12]));
        assert_eq!(line["count"], 12);
        assert!(line["iterations"].as_u64().unwrap() >= 12, "{line}");
        assert!(line["seconds"].as_f64().unwrap() >= 0.0, "{line}");
        assert_eq!(ran("--headless").unwrap()["seed"], DEFAULT_SEED);
        let mut out = Vec::new();
        run(build, words("--headless"), &mut out).ok().unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with(r#"{"problem":"bits","seed":1,"energy":0.0,"#),
            "{text}"
        );
        assert_eq!(text.lines().count(), 1, "{text}");
    }

    #[test]
    fn bad_input_exits_2_before_any_annealing() {
        assert_eq!(ran("0 --headless").unwrap_err().0, 2);
        assert_eq!(ran("--speed 3").unwrap_err().0, 2);
        let dir = tempfile::tempdir().unwrap();
        let cast = dir.path().join("taken.cast");
        std::fs::write(&cast, "").unwrap();
        let (code, message) = ran(&format!("--record {}", cast.display())).unwrap_err();
        assert_eq!(code, 2);
        assert!(message.contains("exists"), "{message}");
    }
}
