//! From a run's spec to a ready-to-run problem: load the instance (file, random
//! or built-in), look up its optimum, read a reference tour, derive the temperatures.
//! Loading is separate from solving so the UI can show an instance before annealing it.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::SeedableRng;

use super::instance::Instance;
use super::problem::{Cost, TspProblem};
use super::spec::{Search, TspSpec};
use super::{Then, TspPipeline, ils};
use super::{random, tour_file, tsplib};
use crate::anneal::{Launch, Rng, RunConfig, Runner, auto_temperature};
use crate::headless::spec::{Defaults, ScheduleKind, StartTemperature};
use crate::input::InputError;
use crate::messages::{count, escape_controls, show_number};
use crate::search::{Bound, Budget, Parallel, Phase, Planned, Sharing, nth_seed};

/// The instance shown when no file and no `--random` is given.
pub(crate) const BUILT_IN: &str = include_str!("../../../puzzles/tsp/berlin52.tsp");
pub(crate) const BUILT_IN_TOUR: &str = include_str!("../../../puzzles/tsp/berlin52.opt.tour");
const BUILT_IN_SOURCE: &str = "berlin52 (built in)";
/// Published optimal lengths by instance NAME (TSPLIB's list; see puzzles/README.md).
const OPTIMA: &str = include_str!("../../../puzzles/tsp/optima.json");

/// Start temperature as a share of the mean uphill move, end temperature as a share of
/// the uphill moves' low decile (`temperatures`).
const START_OF_MEAN: f64 = 0.31;
const END_OF_LOW_DECILE: f64 = 0.04;
/// Moves sampled for them, and the seed's mix for their generator.
const DELTA_SAMPLES: usize = 10_000;
const DELTA_SEED: u64 = 0x7465_6d70;
/// Annealing time when neither --time-limit nor --max-steps is given.
const DEFAULT_SECONDS: f64 = 1.0;
/// The share of the time limit the setup may take before it turns to the cheaper
/// space-filling curve; the rest is the annealer's and the polish's.
const SETUP_SHARE: f64 = 0.8;

/// Candidate list entries (cities times --neighbours) kiln makes at most: the default 5
/// for a million cities. Lists are made exactly, or along the curve when time runs out,
/// at a cost that grows with both (1,000,000 cities with 100 neighbours took 430 MB and
/// over 2 s of a 1 s limit; 200,000 with 100 over 1 s of a 0.5 s limit).
const MAX_CANDIDATES: usize = 5_000_000;

/// The least time a run takes per city, whatever its limit: the tour, the candidate lists
/// along the curve and the passes over the tour, which a shorter --time-limit could not
/// hold (docs/limits.md). A shorter one is refused.
const SETUP_SECONDS_PER_CITY: f64 = 7e-7;

/// An instance and what is known about it, before any annealing.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The cities.
    pub instance: Arc<Instance>,
    /// The file, `--random N` or the built-in name, for reports and titles.
    pub source: String,
    /// The optimal length, given or known by name.
    pub optimum: Option<u64>,
    /// A reference tour (0-based), e.g. the optimal one, to draw beside ours.
    pub reference: Option<Vec<u32>>,
}

impl Loaded {
    /// The reference tour's length, if there is one.
    pub fn reference_length(&self) -> Option<u64> {
        self.reference
            .as_ref()
            .map(|t| self.instance.tour_length(t))
    }

    /// Percent above the optimum, when it is known and plausible: a tour shorter than the
    /// "optimum" proves it wrong, and a negative gap would only hide that.
    pub fn gap(&self, length: u64) -> Option<f64> {
        self.optimum
            .filter(|&o| o > 0 && o <= length)
            .map(|o| 100.0 * (length as f64 - o as f64) / o as f64)
    }

    /// The optimum, when `length` shows it is none.
    pub fn refuted_optimum(&self, length: u64) -> Option<u64> {
        self.optimum.filter(|&o| length < o)
    }

    /// A title such as `berlin52 (52 cities)  length 7600  best 7542  gap 0.00%`.
    pub fn title(&self, length: u64, best: u64) -> String {
        let mut title = format!(
            "{} ({})  length {length}  best {best}",
            escape_controls(&self.instance.name),
            count(self.instance.len(), "city", "cities")
        );
        if let Some(gap) = self.gap(best) {
            title.push_str(&format!("  gap {gap:.2}%"));
        }
        title
    }
}

/// The optimum the table knows for an instance `name`.
pub(crate) fn known_optimum(name: &str) -> Option<u64> {
    let table: serde_json::Value = serde_json::from_str(OPTIMA).ok()?;
    table.get("optima")?.get(name)?.as_u64()
}

/// Loads the instance the spec names: `--random N`, a file, or the built-in one.
pub fn load(spec: &TspSpec) -> Result<Loaded, InputError> {
    let args = &spec.model;
    crate::input::stdin_once(&[
        ("", "the cities file", args.file.as_deref()),
        ("--tour", "the tour", args.tour.as_deref()),
    ])?;
    let (instance, source, built_in_tour) = if let Some(n) = args.random {
        let instance = random::instance(n, args.layout, spec.run.seed);
        (instance, format!("--random {n}"), None)
    } else if let Some(path) = &args.file {
        let source = crate::input::source_name(path);
        let text = InputError::read_to_string(path)?;
        (tsplib::parse(&text, &source)?, source, None)
    } else {
        let instance = tsplib::parse(BUILT_IN, BUILT_IN_SOURCE)?;
        let tour = tour_file::parse(BUILT_IN_TOUR, BUILT_IN_SOURCE, instance.len())?;
        (instance, BUILT_IN_SOURCE.to_string(), Some(tour))
    };
    if args.cost == Cost::Squared {
        exact_squares(&instance)?;
    }
    let reference = match &args.tour {
        Some(path) => Some(read_tour(path, instance.len())?),
        None => built_in_tour,
    };
    // Renumbered for the search's sake; what is read and written keeps the file's numbers.
    let instance = instance.in_curve_order();
    let reference = reference.map(|tour| instance.from_labels(&tour));
    Ok(Loaded {
        optimum: args.optimum.or_else(|| known_optimum(&instance.name)),
        instance: Arc::new(instance),
        source,
        reference,
    })
}

/// Refuses `--cost squared` where a tour's sum of squared edge lengths could pass 2^53,
/// beyond which the energy would stop counting in ones.
fn exact_squares(instance: &Instance) -> Result<(), InputError> {
    let longest = instance.longest_edge_bound() as u128;
    let bound = longest * longest * instance.len() as u128;
    if bound > 1 << 53 {
        return Err(InputError::new(
            "--cost",
            format!(
                "squared edge lengths of {} ({}, edges up to {longest}) could add up past \
                 2^53, where sums are no longer exact (use --cost euclidean)",
                instance.name,
                count(instance.len(), "city", "cities")
            ),
        ));
    }
    Ok(())
}

fn read_tour(path: &Path, n: usize) -> Result<Vec<u32>, InputError> {
    let text = InputError::read_to_string(path)?;
    tour_file::parse(&text, &crate::input::source_name(path), n)
}

/// The problem's defaults for this instance: exponential cooling over the budget (1 s
/// unless one is given) between temperatures read from the instance (`temperatures`).
pub(crate) fn defaults(problem: &TspProblem, spec: &TspSpec) -> Defaults {
    let (t0, t_min) = temperatures(problem, spec.run.seed);
    Defaults {
        schedule: ScheduleKind::Exponential,
        t0: StartTemperature::Fixed(t0),
        t_min,
        time_limit: default_time_limit(spec),
        ..Defaults::default()
    }
}

/// Start and end temperature from the uphill deltas of moves proposed from the first tour:
/// the start a share of their mean (the large moves: on an instance whose clusters span
/// several scales, the scale at which they are ordered), the end a share of their low
/// decile (the smallest moves that still change the tour). On uniform instances these are
/// the old 1.0 and 0.03 times the mean nearest-neighbour edge; a length scale alone is
/// wrong where a third of the cities share a place (the mean nearest edge falls by a third)
/// or clusters span 1 to 1e5 (docs/benchmarks.md). Falls back to that length scale when no
/// proposed move is uphill.
fn temperatures(problem: &TspProblem, seed: u64) -> (f64, f64) {
    let mut rng = Rng::seed_from_u64(seed ^ DELTA_SEED);
    let uphill = problem.uphill_deltas(&mut rng, DELTA_SAMPLES);
    if uphill.is_empty() {
        let scale = problem.typical_edge_cost();
        return (scale, scale * END_OF_LOW_DECILE);
    }
    let mean = uphill.iter().sum::<f64>() / uphill.len() as f64;
    let low_decile = uphill[(uphill.len() - 1) / 10];
    (START_OF_MEAN * mean, END_OF_LOW_DECILE * low_decile)
}

/// A run's time limit when `--time-limit` is not given: none when `--max-steps` bounds it.
fn default_time_limit(spec: &TspSpec) -> Option<f64> {
    spec.run
        .limits
        .max_steps
        .is_none()
        .then_some(DEFAULT_SECONDS)
}

/// Everything a run needs.
pub struct Setup {
    /// The instance.
    pub loaded: Loaded,
    /// The problem, from its first tour.
    pub problem: TspProblem,
    /// The whole run's configuration, before the phases share it.
    pub config: RunConfig,
    /// The temperature a reheat (flag or UI key) raises T to.
    pub reheat_temperature: f64,
    /// How long one pass over the tour takes (measuring its length): what the run's
    /// passes outside its searches will take is kept out of their time.
    pass: Duration,
}

/// The share of the time limit kept for the final descent. From an annealed tour it makes
/// few moves: well under 1 % of the budget at every size we measured (docs/benchmarks.md).
const DESCENT_SHARE: f64 = 0.01;

/// The most steps the first anneal takes before the kicks, per city, however long the time
/// limit (`anneal_cap`): `SHORT_ANNEAL` up to `SHORT_UP_TO` cities. Small instances need no
/// more before the kicks find their best tour, and those whose kicks stall get longer
/// re-anneals (`TspPipeline`). So a generous limit does not delay the answer
/// (docs/benchmarks.md, "Anytime"; caps compared: docs/tuning.md).
///
/// Above `SHORT_UP_TO` cities which anneal an instance needs is the instance's more than its
/// size's, so chains side by side take both: every first chain of a pair anneals
/// `LONG_ANNEAL` steps a city, the second `SHORT_ANNEAL`, and the first chain to the optimum
/// ends the run (docs/tuning.md).
const SHORT_ANNEAL: u64 = 2_000;
const LONG_ANNEAL: u64 = 10_000;
const SHORT_UP_TO: usize = 250;

/// The first anneal's cap in steps for `n` cities on chain `k` (from 0).
fn anneal_cap(n: usize, k: usize) -> u64 {
    let per_city = if n > SHORT_UP_TO && k.is_multiple_of(2) {
        LONG_ANNEAL
    } else {
        SHORT_ANNEAL
    };
    per_city * n as u64
}

/// Chain `k`'s anneal of `n` cities: `config`, capped before kicks (`anneal_cap`).
fn first_anneal(config: &RunConfig, search: Search, n: usize, k: usize) -> RunConfig {
    let mut config = config.clone();
    if search == Search::AnnealIls {
        let cap = anneal_cap(n, k);
        config.budget.max_steps = Some(config.budget.max_steps.map_or(cap, |s| s.min(cap)));
    }
    config
}

/// Mixed into the seed for the kicks' own generator.
const KICK_SEED: u64 = 0x6b69_636b;

/// Work a run does outside its searches' deadlines, in passes over the tour, each as long
/// as measuring the tour's length once (a run's setup measures one): at a million cities
/// these passes alone can overrun a short limit (docs/limits.md). After every search,
/// headless: the final tour's length, the annealed one's and the tour's JSON.
const END_PASSES: u32 = 3;
/// The kicks, besides their search: a copy of the problem, the mean candidate edge and two
/// energies to start, the descended tour's energy and the best tour put back to end.
const KICKS_PASSES: u32 = 6;
/// A greedy descent, besides its search: a copy of the problem and its queue of every city.
const DESCENT_PASSES: u32 = 2;
/// Between the setup and the first step: the first tour's energy and its copy as the best.
const LAUNCH_PASSES: u32 = 2;
/// Cities a pass is timed on, at least (all of them when there are fewer): a quarter of
/// the tour otherwise, so that the time covers the thread's pauses on a busy machine as a
/// whole pass's does (the fastest of a few short timings took a third of it).
const TIMED_CITIES: usize = 4096;

/// How long one pass over a tour of `instance` takes (its length measured once), timed on
/// a sample of its cities taken in the order of their numbers, and scaled to all of them:
/// the cities are numbered along a space-filling curve at load, so a tour (good enough to
/// end a run with) takes them in nearly that order. A machine busy with other work takes
/// longer, and the run plans for that.
fn pass_time(instance: &Instance) -> Duration {
    let n = instance.len();
    let sample = n.min(TIMED_CITIES.max(n / 4));
    let timing = Instant::now();
    let length: u64 = (0..sample)
        .map(|at| u64::from(instance.distance(at as u32, ((at + 1) % n) as u32)))
        .sum();
    std::hint::black_box(length);
    timing.elapsed().mul_f64(n as f64 / sample as f64)
}

/// The share of the budget taken from the annealer: the kicks' (`--kick-share`), or a
/// sliver of time for the descent so that it ends within the time limit too.
fn share(search: Search, kick_share: f64) -> f64 {
    match search {
        Search::Anneal => 0.0,
        Search::AnnealDescent => DESCENT_SHARE,
        Search::AnnealIls => kick_share,
    }
}

/// Takes the local search's share of the time budget (and, for the kicks, of the step
/// budget) from the annealer for what follows it, which ends with the time limit of the
/// whole run (counted from `started`, setup included) or after its evaluations (each
/// chain's anneal is then capped: `first_anneal`). The time the run's passes over the tour
/// take (`pass` each: `END_PASSES` and the local search's own) is kept out of the
/// searches' time; a local search that would not have the time to start is left out, and
/// the search that runs comes back.
fn split_budget(
    mut config: RunConfig,
    mut search: Search,
    kick_share: f64,
    started: Instant,
    pass: Duration,
) -> (RunConfig, ils::Budget, Search) {
    // The time limit counts from the start of the run: what setup took is spent, and the
    // end's passes will be.
    let mut left = config.budget.time_limit.map(|limit| {
        limit
            .saturating_sub(started.elapsed())
            .saturating_sub(pass * END_PASSES)
    });
    let passes = match search {
        Search::Anneal => 0,
        Search::AnnealDescent => DESCENT_PASSES,
        Search::AnnealIls => KICKS_PASSES,
    };
    if let Some(time) = &mut left {
        match time.checked_sub(pass * passes) {
            Some(searching) => *time = searching,
            None => search = Search::Anneal,
        }
    }
    let share = share(search, kick_share);
    // A descent is not counted in steps: the annealer keeps them all.
    let step_share = if search == Search::AnnealIls {
        share
    } else {
        0.0
    };
    let budget = ils::Budget {
        evaluations: config
            .budget
            .max_steps
            .map_or(u64::MAX, |steps| (steps as f64 * step_share) as u64),
        // A limit no clock can reach is no deadline.
        deadline: left.and_then(|left| Instant::now().checked_add(left)),
        target: None,
    };
    config.budget.max_steps = config
        .budget
        .max_steps
        .map(|steps| (steps as f64 * (1.0 - step_share)) as u64);
    config.budget.time_limit = left.map(|left| left.mul_f64(1.0 - share));
    (config, budget, search)
}

/// The phases of a run and their shares of its budget: of its steps when it has a step
/// budget (the anneal's may be capped), of its time otherwise, where an anneal capped in
/// steps takes at most its share (it ends at the cap on all but the shortest limits).
/// Chains whose anneals are capped apart are planned by the longest, as at most its share.
fn plan(whole: &Budget, anneals: &[Budget], search: Search, share: f64) -> Vec<Planned> {
    let longest = (anneals.iter().map(|b| b.max_steps))
        .max_by_key(|steps| steps.unwrap_or(u64::MAX))
        .flatten();
    let alike = anneals.iter().all(|b| b.max_steps == longest);
    let (annealing, bound) = match (whole.max_steps, longest) {
        (Some(all), Some(annealed)) if all > 0 => (
            annealed as f64 / all as f64,
            if alike { Bound::Exactly } else { Bound::AtMost },
        ),
        (None, Some(_)) => (1.0 - share, Bound::AtMost),
        _ => (1.0 - share, Bound::Exactly),
    };
    let mut plan = vec![Planned {
        phase: Phase::Anneal,
        share: annealing,
        bound,
    }];
    if search != Search::Anneal {
        plan.push(Planned {
            phase: Phase::LocalSearch,
            share: 1.0 - annealing,
            bound: match bound {
                Bound::AtMost => Bound::AtLeast,
                _ => Bound::Exactly,
            },
        });
    }
    plan
}

impl Setup {
    /// The run `spec` asks for, live or headless alike: the anneal with its share of the
    /// budget, then the local search with the rest, as one search titled by its instance.
    /// A time limit counts from `started`.
    pub fn launch(
        self,
        spec: &TspSpec,
        started: Instant,
    ) -> (Loaded, Launch<Parallel<TspPipeline>>) {
        let (model, seed) = (&spec.model, spec.run.seed);
        let chains = model.chains(self.loaded.instance.len());
        let title = format!(
            "{} ({})",
            escape_controls(&self.loaded.instance.name),
            count(self.loaded.instance.len(), "city", "cities")
        );
        let whole = self.config.clone();
        // --max-steps counts every chain's steps, as the progress line does.
        let mut config = self.config;
        config.budget.max_steps = (config.budget.max_steps).map(|m| m.div_ceil(chains as u64));
        let chain_budget = config.budget;
        let (config, budget, search) =
            split_budget(config, model.search, model.kick_share, started, self.pass);
        let n = self.problem.order().len();
        let anneals: Vec<_> = (0..chains)
            .map(|k| first_anneal(&config, search, n, k))
            .collect();
        let plan = plan(
            &chain_budget,
            &anneals.iter().map(|c| c.budget).collect::<Vec<_>>(),
            search,
            share(search, model.kick_share),
        );
        let chain = |problem: TspProblem, k: usize| {
            let seed = nth_seed(seed, k);
            let then = match search {
                Search::Anneal => Then::Nothing,
                Search::AnnealDescent => Then::Descent,
                Search::AnnealIls => Then::Kicks {
                    seed: seed ^ KICK_SEED,
                },
            };
            TspPipeline::new(Runner::new(problem, anneals[k].clone(), seed), then, budget)
        };
        // Every chain starts from the first tour: the first chain takes it, the others a copy.
        let mut pipelines: Vec<_> = (1..chains)
            .map(|k| chain(self.problem.clone(), k))
            .collect();
        pipelines.insert(0, chain(self.problem, 0));
        // Each chain keeps the time limit itself (its phases' deadlines), but the anneal's
        // counts the time it computes, not the time it waits for the other chains at the
        // end of a batch: the wall clock is kept for all of them.
        let left = (budget.deadline).map(|end| end.saturating_duration_since(Instant::now()));
        // Without a step budget a local search's cheap evaluations need not wait on
        // another chain's anneal.
        let sharing = Sharing::for_budget(whole.budget.max_steps);
        let search = Parallel::new(pipelines, left, sharing);
        let launch = Launch::annealing(title, search, &whole, self.reheat_temperature);
        (self.loaded, launch.with_plan(plan))
    }
}

/// Builds the problem (first tour from the seed) and its run configuration.
/// The time limit counts the setup, which is held to `SETUP_SHARE` of what the run's own
/// passes over the tour leave of it.
pub fn build(spec: &TspSpec) -> color_eyre::Result<Setup> {
    let started = Instant::now();
    let (args, run) = (&spec.model, &spec.run);
    let loaded = load(spec)?;
    let cities = loaded.instance.len();
    let k = (args.neighbours as usize).min(cities - 1);
    if cities * k > MAX_CANDIDATES {
        return Err(InputError::flags(format!(
            "--neighbours {k} for {cities} cities makes {} candidates, over the {} kiln \
             makes: give at most --neighbours {}",
            cities * k,
            MAX_CANDIDATES,
            MAX_CANDIDATES / cities
        ))
        .into());
    }
    if let Some(limit) = run.limits.time_limit
        && limit < cities as f64 * SETUP_SECONDS_PER_CITY
    {
        return Err(InputError::flags(format!(
            "--time-limit {} is too short for {cities} cities: setting them up takes about \
             {:.2} s (give a longer limit, or --max-steps)",
            show_number(limit),
            cities as f64 * SETUP_SECONDS_PER_CITY
        ))
        .into());
    }
    let pass = pass_time(&loaded.instance);
    let set_up_by = run
        .limits
        .time_limit
        .or_else(|| default_time_limit(spec))
        .and_then(|limit| Duration::try_from_secs_f64(limit).ok())
        .map(|limit| {
            let searched = limit.saturating_sub(pass * (END_PASSES + LAUNCH_PASSES));
            started + searched.mul_f64(SETUP_SHARE)
        });
    let seed = run.seed;
    let mut rng = Rng::seed_from_u64(seed);
    let mut problem = TspProblem::set_up_by(
        Arc::clone(&loaded.instance),
        args.moves,
        args.cost,
        args.neighbours as usize,
        args.init,
        &mut rng,
        set_up_by,
    );
    if args.search != Search::Anneal {
        problem.choose_local_candidates(set_up_by);
    }
    let mut config = run.run_config(&defaults(&problem, spec), |acceptance| {
        auto_temperature(&problem, seed, acceptance, 10_000)
    })?;
    // A run that reaches the known optimum has nothing left to find: it stops there (the
    // energy is the tour's length only for the Euclidean cost).
    if args.cost == Cost::Euclidean {
        config.budget.target = loaded.optimum.map(|o| o as f64);
    }
    Ok(Setup {
        reheat_temperature: run.reheat_temperature(&config),
        loaded,
        problem,
        config,
        pass,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capped_anneal_within_a_time_limit_is_planned_as_at_most_its_share() {
        let timed = Budget {
            time_limit: Some(Duration::from_secs(30)),
            ..Budget::default()
        };
        let capped = Budget {
            max_steps: Some(anneal_cap(130, 0)),
            ..timed
        };
        let timed_plan = plan(&timed, &[capped], Search::AnnealIls, 0.8);
        let bounds: Vec<_> = timed_plan.iter().map(|p| (p.phase, p.bound)).collect();
        assert_eq!(
            bounds,
            [
                (Phase::Anneal, Bound::AtMost),
                (Phase::LocalSearch, Bound::AtLeast)
            ]
        );
        assert!((timed_plan[0].share - 0.2).abs() < 1e-9);
        // A step budget splits exactly.
        let stepped = Budget {
            max_steps: Some(1_000_000),
            ..Budget::default()
        };
        let annealed = Budget {
            max_steps: Some(200_000),
            ..stepped
        };
        let stepped_plan = plan(&stepped, &[annealed, annealed], Search::AnnealIls, 0.8);
        assert!(stepped_plan.iter().all(|p| p.bound == Bound::Exactly));
        // Chains capped apart: the longest anneal, at most.
        let shorter = Budget {
            max_steps: Some(50_000),
            ..stepped
        };
        let apart = plan(&stepped, &[annealed, shorter], Search::AnnealIls, 0.8);
        let bounds: Vec<_> = apart.iter().map(|p| (p.share, p.bound)).collect();
        assert_eq!(bounds, [(0.2, Bound::AtMost), (0.8, Bound::AtLeast)]);
        assert_eq!(Bound::AtMost.show(timed_plan[0].share), "≤20%");
    }
}
