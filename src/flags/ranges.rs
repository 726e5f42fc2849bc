//! Every numeric flag's range, checked when the command line is parsed, and the one set of
//! value parsers that checks them. docs/limits.md lists the same ranges with their reasons.
//!
//! The bounds keep every later computation honest: times fit an `Instant`, counts fit
//! memory, and weights and temperatures keep energies finite and exact (below 2^53, where
//! an f64 still counts in ones).

use std::fmt;
use std::marker::PhantomData;

use crate::headless::batch::Shard;
use crate::input::excerpt;
use crate::messages::show_number;
use kiln_core::problems::image::bitmap::check_size;

/// A year: longer runs are surely typos, and every deadline stays far from overflow.
pub const MAX_SECONDS: f64 = 31_536_000.0;
/// About 30 years at a billion steps a second; step counters can add whole batches to it
/// without overflowing.
pub const MAX_STEPS: u64 = 1_000_000_000_000_000_000;
/// Above every energy kiln accepts (they stay below 2^53 ~ 9.0e15).
pub const MAX_TEMPERATURE: f64 = 1e16;
pub use kiln_core::problems::image::kernel::MAX_WEIGHT;
/// Independent chains, replicas and rounds: each holds a copy of the state.
pub const MAX_CHAINS: u64 = 64;
/// GA candidates per generation: the time limit is looked at once a generation, which at
/// this size takes about a fifth of a second on a 25x25 (at 100,000, over a second, and a
/// 2 s limit ended after 4-6 s); the default is 1000.
pub const MAX_POPULATION: u64 = 20_000;
/// Steps a second the live view may be asked for; `full` is unlimited.
pub const MAX_SPEED: u64 = 1_000_000_000;
/// Cities of a `--random` or TSPLIB instance.
pub const MAX_CITIES: u64 = kiln_core::problems::tsp::instance::MAX_CITIES as u64;
/// Candidate neighbours per city (beyond a few dozen they only cost time and memory).
pub const MAX_NEIGHBOURS: u64 = 100;
/// Threads of a batch: far beyond any machine's cores, each one costs a stack.
pub const MAX_JOBS: u64 = 1024;
/// Runs of one `--seeds`: each prints a line, and the seeds are held in memory.
pub const MAX_SEEDS: u64 = 1_000_000;

/// A range of real numbers, each end open or closed, and what the numbers are.
#[derive(Debug, Clone, Copy)]
pub struct Reals {
    /// The lower end.
    pub low: f64,
    /// Whether `low` itself is out of range.
    pub low_open: bool,
    /// The upper end.
    pub high: f64,
    /// Whether `high` itself is out of range.
    pub high_open: bool,
    /// What the numbers are, as an error message says it ("a temperature").
    pub unit: &'static str,
}

impl Reals {
    /// Whether `x` is in the range.
    pub fn contains(&self, x: f64) -> bool {
        let above = if self.low_open {
            x > self.low
        } else {
            x >= self.low
        };
        let below = if self.high_open {
            x < self.high
        } else {
            x <= self.high
        };
        above && below
    }

    /// Parses `text` and checks it is in range; the error says which range and why.
    pub fn parse(&self, text: &str) -> Result<f64, String> {
        let shown = excerpt(text);
        match text.trim().parse::<f64>() {
            Ok(x) if self.contains(x) => Ok(x),
            Ok(_) => Err(format!("{shown} is not in {self} ({})", self.unit)),
            Err(_) => Err(format!(
                "'{shown}' is not a number ({} in {self})",
                self.unit
            )),
        }
    }
}

impl fmt::Display for Reals {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (open, close) = (
            if self.low_open { '(' } else { '[' },
            if self.high_open { ')' } else { ']' },
        );
        write!(
            f,
            "{open}{}, {}{close}",
            show_number(self.low),
            show_number(self.high)
        )
    }
}

/// Whole numbers from `low` to `high` (both included), read as a `T`.
#[derive(Debug)]
pub struct Wholes<T> {
    /// The smallest allowed.
    pub low: u64,
    /// The largest allowed.
    pub high: u64,
    /// What the numbers are, as an error message says it ("cities").
    pub unit: &'static str,
    target: PhantomData<T>,
}

// Derived Clone/Copy would ask the same of T; the range holds no T.
impl<T> Clone for Wholes<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Wholes<T> {}

impl<T: TryFrom<u64>> Wholes<T> {
    /// `low..=high`, of `unit`.
    pub const fn new(low: u64, high: u64, unit: &'static str) -> Self {
        Wholes {
            low,
            high,
            unit,
            target: PhantomData,
        }
    }

    /// Parses `text` and checks it is in range; the error says which range and why.
    pub fn parse(&self, text: &str) -> Result<T, String> {
        let range = format!("[{}, {}]", show_whole(self.low), show_whole(self.high));
        let shown = excerpt(text);
        // u128 tells a number too large for u64 (out of range) from something else.
        match text.trim().parse::<u128>() {
            Ok(n) if (self.low as u128..=self.high as u128).contains(&n) => {
                T::try_from(n as u64).map_err(|_| format!("{shown} does not fit this machine"))
            }
            Ok(_) => Err(format!("{shown} is not in {range} ({})", self.unit)),
            Err(_) => Err(format!(
                "'{shown}' is not a whole number ({} in {range})",
                self.unit
            )),
        }
    }
}

/// Whole numbers in messages: round powers of ten as `1e18`, the rest in full.
fn show_whole(n: u64) -> String {
    let mut power = 10_000_000u64;
    while power < n {
        match power.checked_mul(10) {
            Some(next) => power = next,
            None => break,
        }
    }
    if power == n {
        format!("{:e}", n as f64)
    } else {
        n.to_string()
    }
}

/// `Reals` from its ends (`true`: that end is open) and unit.
const fn reals(low: f64, low_open: bool, high: f64, high_open: bool, unit: &'static str) -> Reals {
    Reals {
        low,
        low_open,
        high,
        high_open,
        unit,
    }
}

/// `--time-limit` and other durations.
pub const SECONDS: Reals = reals(0.0, true, MAX_SECONDS, false, "seconds, a year at most");
/// `--max-steps` and other step counts.
pub const STEPS: Wholes<u64> = Wholes::new(1, MAX_STEPS, "steps");
/// `--seed`.
pub const SEED: Wholes<u64> = Wholes::new(0, u64::MAX, "any 64-bit number");
/// Temperatures other than the start (`--t-min`, `--reheat-t`).
pub const TEMPERATURE: Reals = reals(0.0, true, MAX_TEMPERATURE, false, "a temperature");
/// A start temperature may be 0: a greedy descent.
pub const START_TEMPERATURE: Reals = reals(
    0.0,
    false,
    MAX_TEMPERATURE,
    false,
    "a temperature, or 'auto'",
);
/// A geometric schedule's factor per step.
pub const COOLING_FACTOR: Reals = reals(0.0, true, 1.0, true, "a factor per step");
/// Lundy and Mees' schedule constant.
pub const LUNDY_K: Reals = reals(0.0, true, 1e6, false, "T = T0/(1+k*i)");
/// A target share of uphill moves accepted (a start temperature found from it).
pub const ACCEPTANCE: Reals = reals(0.0, true, 1.0, true, "a share of uphill moves");
/// A share of moves of one kind (`--pairs`, `--focus`).
pub const SHARE: Reals = reals(0.0, false, 1.0, false, "a share of moves");
/// `--chains`, `--replicas`, `--threads`.
pub const CHAINS: Wholes<u64> = Wholes::new(1, MAX_CHAINS, "each runs a copy of the state");
/// The genetic algorithm's `--population`.
pub const POPULATION: Wholes<u64> = Wholes::new(
    2,
    MAX_POPULATION,
    "candidates; larger ones take minutes and gigabytes",
);
/// The genetic algorithm's `--elites`.
pub const ELITES: Reals = reals(0.0, true, 1.0, true, "a share of the population");
/// The GA adapts its rate within these bounds; a start outside them would be clamped.
pub const MUTATION: Reals = reals(
    kiln_core::problems::sudoku::MIN_RATE,
    false,
    kiln_core::problems::sudoku::MAX_RATE,
    false,
    "a mutation rate",
);
/// Puzzle numbers in a file.
pub const INDEX: Wholes<usize> = Wholes::new(1, u32::MAX as u64, "a puzzle number");
/// `--fps` of the live view.
pub const FPS: Wholes<u32> = Wholes::new(1, 120, "frames per second");
/// `--speed`, when a number.
pub const SPEED: Wholes<u64> = Wholes::new(1, MAX_SPEED, "steps per second, or 'full'");
/// `--random N` and a TSPLIB file's `DIMENSION`.
pub const CITIES: Wholes<usize> = Wholes::new(3, MAX_CITIES, "cities; a tour needs 3");
/// `--neighbours`: candidates per city.
pub const NEIGHBOURS: Wholes<u16> = Wholes::new(1, MAX_NEIGHBOURS, "candidates per city");
/// A tour length: TSP lengths stay below 2^53.
pub const OPTIMUM: Wholes<u64> = Wholes::new(1, 1 << 53, "a tour length");
/// `--kick-share`.
pub const KICK_SHARE: Reals = reals(0.0, false, 1.0, true, "a share of the budget");
/// `--density` of a pattern-formation image.
pub const DENSITY: Reals = reals(0.0, true, 1.0, true, "a share of black pixels");
/// Energy weights (`--lambda`, `--beta`, kernel weights).
pub const WEIGHT: Reals = reals(0.0, false, MAX_WEIGHT, false, "a weight");
/// Probabilities (`--noise`).
pub const PROBABILITY: Reals = reals(0.0, false, 1.0, false, "a probability");
/// `--rounds` of the image problem.
pub const ROUNDS: Wholes<u64> = Wholes::new(1, MAX_CHAINS, "rounds");
/// `--jobs`.
pub const JOBS: Wholes<usize> = Wholes::new(1, MAX_JOBS, "threads");
/// Sessions of `kiln serve`: each holds a thread, a run and its annealing thread.
pub const SESSIONS: Wholes<usize> = Wholes::new(1, 1024, "sessions at once");

/// `--shard K/N`, into the batch's [`Shard`].
pub fn shard(text: &str) -> Result<Shard, String> {
    let bad = || {
        format!(
            "'{}' is not a shard like 2/8 (part K of N, 1 <= K <= N)",
            excerpt(text)
        )
    };
    let (part, count) = text.split_once('/').ok_or_else(bad)?;
    let part: usize = part.trim().parse().map_err(|_| bad())?;
    let count: usize = count.trim().parse().map_err(|_| bad())?;
    if part == 0 || part > count {
        return Err(bad());
    }
    Ok(Shard { part, count })
}

/// `--seeds`: a range `A..B` (both included) or a list `1,5,9`, at most `MAX_SEEDS`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seeds(pub Vec<u64>);

/// `--seeds`, parsed and checked.
pub fn seeds(text: &str) -> Result<Seeds, String> {
    // A seed that is no number at all is likely another range syntax (`1-20`, `1:20`).
    let seed = |item: &str| match item.trim().parse::<u128>() {
        Ok(_) => SEED.parse(item),
        Err(_) => Err(format!(
            "'{}' is not a seed list; write a range as A..B (e.g. 1..20) or a list as 1,2,3",
            excerpt(text)
        )),
    };
    let seeds = match text.split_once("..") {
        Some((first, last)) => {
            let (first, last) = (seed(first)?, seed(last)?);
            if first > last {
                return Err(format!(
                    "{} is empty: the first seed is above the last",
                    excerpt(text)
                ));
            }
            if last - first >= MAX_SEEDS {
                return Err(format!("{} is more than {MAX_SEEDS} seeds", excerpt(text)));
            }
            (first..=last).collect()
        }
        None => text.split(',').map(seed).collect::<Result<Vec<_>, _>>()?,
    };
    if seeds.len() as u64 > MAX_SEEDS {
        return Err(format!("more than {MAX_SEEDS} seeds"));
    }
    Ok(Seeds(seeds))
}

/// A time such as `90`, `90s`, `10m` or `2h`, in seconds within `SECONDS`.
pub fn duration(text: &str) -> Result<f64, String> {
    let trimmed = text.trim();
    let (number, unit) = match trimmed.strip_suffix(['s', 'm', 'h']) {
        Some(number) if trimmed.ends_with('h') => (number, 3600.0),
        Some(number) if trimmed.ends_with('m') => (number, 60.0),
        Some(number) => (number, 1.0),
        None => (trimmed, 1.0),
    };
    let seconds = number
        .trim()
        .parse::<f64>()
        .map(|n| n * unit)
        .map_err(|_| format!("'{}' is not a time (e.g. 90, 90s, 10m, 2h)", excerpt(text)))?;
    SECONDS
        .parse(&seconds.to_string())
        .map_err(|_| format!("{} is not in {SECONDS} (a year at most)", excerpt(text)))
}

/// A clap value parser for `range`.
pub fn real(range: Reals) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync + 'static {
    move |text| range.parse(text)
}

/// A clap value parser for `range`.
pub fn whole<T>(range: Wholes<T>) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync
where
    T: TryFrom<u64> + Send + Sync + 'static,
{
    move |text| range.parse(text)
}

/// `--size WxH`: a size `bitmap::check_size` accepts.
pub fn image_size(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("'{}' is not a size like 256x256", excerpt(text));
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: usize = w.trim().parse().map_err(|_| bad())?;
    let h: usize = h.trim().parse().map_err(|_| bad())?;
    check_size("--size", w, h).map_err(|e| e.message)?;
    Ok((w, h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_take_a_unit_and_stay_in_range() {
        assert_eq!(duration("90"), Ok(90.0));
        assert_eq!(duration("90s"), Ok(90.0));
        assert_eq!(duration("10m"), Ok(600.0));
        assert_eq!(duration(" 2h "), Ok(7200.0));
        assert!(duration("0").unwrap_err().contains("not in"));
        assert!(duration("10y").unwrap_err().contains("not a time"));
        assert!(duration("m").is_err());
    }

    #[test]
    fn reals_name_the_range_and_the_unit() {
        assert_eq!(SECONDS.parse("2.5"), Ok(2.5));
        assert_eq!(
            SECONDS.parse("1e20").unwrap_err(),
            "1e20 is not in (0, 31536000] (seconds, a year at most)"
        );
        assert_eq!(
            SECONDS.parse("soon").unwrap_err(),
            "'soon' is not a number (seconds, a year at most in (0, 31536000])"
        );
        assert!(SECONDS.parse("0").is_err());
        assert!(SECONDS.parse("NaN").is_err());
        assert!(SECONDS.parse("inf").is_err());
        assert!(KICK_SHARE.parse("0").is_ok());
        assert!(KICK_SHARE.parse("1").is_err());
        assert_eq!(TEMPERATURE.to_string(), "(0, 1e16]");
    }

    #[test]
    fn wholes_tell_too_large_from_not_a_number() {
        assert_eq!(POPULATION.parse("1000"), Ok(1000));
        assert_eq!(
            POPULATION.parse("18446744073709551615").unwrap_err(),
            "18446744073709551615 is not in [2, 20000] \
             (candidates; larger ones take minutes and gigabytes)"
        );
        assert!(
            POPULATION
                .parse("99999999999999999999999")
                .unwrap_err()
                .contains("is not in")
        );
        assert!(
            POPULATION
                .parse("-3")
                .unwrap_err()
                .contains("not a whole number")
        );
        assert_eq!(NEIGHBOURS.parse("100"), Ok(100u16));
        assert_eq!(STEPS.parse("1000000000000000000"), Ok(MAX_STEPS));
        assert!(STEPS.parse("0").unwrap_err().contains("[1, 1e18]"));
        assert!(
            OPTIMUM
                .parse("0")
                .unwrap_err()
                .contains("[1, 9007199254740992]")
        );
        assert!(
            SEED.parse("x")
                .unwrap_err()
                .contains("[0, 18446744073709551615]")
        );
    }

    #[test]
    fn shards_and_seeds() {
        assert_eq!(shard("2/8"), Ok(Shard { part: 2, count: 8 }));
        assert!(shard("0/2").is_err() && shard("3/2").is_err() && shard("2").is_err());
        let second_of_three: Vec<usize> = (0..7)
            .filter(|&i| shard("2/3").unwrap().selects(i))
            .collect();
        assert_eq!(second_of_three, [1, 4]);
        assert_eq!(seeds("1..3"), Ok(Seeds(vec![1, 2, 3])));
        assert_eq!(seeds("7,2"), Ok(Seeds(vec![7, 2])));
        assert!(seeds("5..1").unwrap_err().contains("empty"));
        assert!(seeds("0..18446744073709551615").is_err());
        let syntax = "is not a seed list; write a range as A..B (e.g. 1..20) or a list as 1,2,3";
        for text in ["1-20", "1,x", "1..2..3", "1:20", ""] {
            assert_eq!(seeds(text), Err(format!("'{text}' {syntax}")));
        }
        assert_eq!(
            seeds("1..18446744073709551616"),
            Err(SEED.parse("18446744073709551616").unwrap_err())
        );
    }
}
