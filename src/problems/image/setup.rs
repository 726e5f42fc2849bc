//! From a run's spec to a ready problem: loading, noise, ICM, kernel, defaults.
//! Separate from running, so the TUI can build the same problem and anneal it live.

use std::time::{Duration, Instant};

use rand::SeedableRng;

use super::bitmap::Bitmap;
use super::denoise::{Denoise, Neighbourhood};
use super::file;
use super::kernel::Kernel;
use super::pattern::{Edges, Pattern};
use super::rounds::Plan;
use super::spec::{ImageModel, ImageSpec};
use crate::anneal::{Problem, Rng, RunConfig, auto_temperature};
use crate::headless::spec::{Defaults, Run, ScheduleKind, StartTemperature};
use crate::input::InputError;
use crate::messages::{escape_controls, show_number};

pub(super) const DEFAULT_SIZE: (usize, usize) = (256, 256);
pub(super) const DEFAULT_DENSITY: f64 = 0.3;
pub(super) const DEFAULT_KERNEL: &str = "8-16";

/// What `--denoise` cleans when given no file: the developer set's shapes (a disc, a
/// rectangle, a triangle and a ring with a stroke through it).
const SHAPES: &[u8] = include_bytes!("../../../puzzles/image/shapes_128_clean.pbm");
/// The noise added to the built-in picture unless --noise is given.
const SHAPES_NOISE: f64 = 0.1;

/// Set-up randomness (start image, noise) is drawn from the seed, apart from the run's own.
const SETUP_SALT: u64 = 0x1a6e_5eed;

/// The problem in one of its two modes.
#[derive(Debug, Clone)]
pub enum Mode {
    /// Pattern formation from a start image.
    Pattern(Pattern),
    /// The problem and how its budget is split into rounds.
    Denoise(Denoise, Plan),
}

/// A built problem with what the report and the TUI show about it.
#[derive(Debug, Clone)]
pub struct Setup {
    /// What the run does.
    pub mode: Mode,
    /// Short label for a title bar, e.g. "random 256x256 d=0.3, kernel 8-16, wrap".
    pub title: String,
    /// The file name, or "random WxH d=D".
    pub source: String,
    /// What the run starts from: the pattern start image, or the noisy observation.
    pub input: Bitmap,
    /// Reference for the pixel error (denoising with --clean or --noise).
    pub clean: Option<Bitmap>,
    /// Energy of the input, and (denoising) after the ICM pass with its sweep count.
    pub input_energy: f64,
    /// Denoising: the energy after the ICM pass and its sweeps.
    pub icm: Option<(f64, usize)>,
}

/// The image and the problem `spec` asks for, or why they cannot be made.
pub fn build(spec: &ImageSpec) -> Result<Setup, InputError> {
    let model = &spec.model;
    crate::input::stdin_once(&[
        ("", "the image", model.file.as_deref()),
        ("--clean", "the clean image", model.clean.as_deref()),
    ])?;
    let started = Instant::now();
    let mut rng = Rng::seed_from_u64(spec.run.seed ^ SETUP_SALT);
    let (input, source) = match &model.file {
        Some(path) => (file::load(path)?, crate::input::source_name(path)),
        None if model.denoise => shapes(model.size),
        None => {
            let (w, h) = model.size.unwrap_or(DEFAULT_SIZE);
            let d = model.density.unwrap_or(DEFAULT_DENSITY);
            (
                Bitmap::random(w, h, d, &mut rng),
                format!("random {w}x{h} d={d}"),
            )
        }
    };
    refuse_too_short(model, &spec.run, &input)?;
    if model.denoise {
        build_denoise(model, &spec.run, input, source, &mut rng, started)
    } else {
        build_pattern(model, input, source)
    }
}

/// The least time building a problem takes per pixel, whatever its limit, on a quiet
/// machine: a pattern's field and pixel lists (0.45-0.5 s at 4096x4096), a denoising run's
/// noise, energy and copies of the image (0.17 s; its rounds are left out when no time is
/// left for them). A shorter --time-limit is refused.
const PATTERN_SETUP_SECONDS_PER_PIXEL: f64 = 30e-9;
const DENOISE_SETUP_SECONDS_PER_PIXEL: f64 = 10e-9;

/// Refuses a --time-limit shorter than setting up `input` takes: such a run would end
/// past its limit whatever its searches did.
fn refuse_too_short(model: &ImageModel, run: &Run, input: &Bitmap) -> Result<(), InputError> {
    let per_pixel = match model.denoise {
        true => DENOISE_SETUP_SECONDS_PER_PIXEL,
        false => PATTERN_SETUP_SECONDS_PER_PIXEL,
    };
    let needed = input.len() as f64 * per_pixel;
    match run.limits.time_limit {
        Some(limit) if limit < needed => Err(InputError::flags(format!(
            "--time-limit {} is too short for a {}x{} image: setting it up takes about \
             {needed:.2} s (give a longer limit, or --max-steps)",
            show_number(limit),
            input.width,
            input.height
        ))),
        _ => Ok(()),
    }
}

/// The built-in picture, fitted to `size` when one is given.
fn shapes(size: Option<(usize, usize)>) -> (Bitmap, String) {
    let picture = file::parse(SHAPES, "shapes").expect("the built-in picture parses");
    let picture = match size {
        Some((w, h)) => picture.fitted(w, h),
        None => picture,
    };
    let source = format!("shapes {}x{}", picture.width, picture.height);
    (picture, source)
}

/// The noise added before denoising: --noise, or a default for the built-in picture.
pub(super) fn noise(model: &ImageModel) -> Option<f64> {
    model.noise.or(model.file.is_none().then_some(SHAPES_NOISE))
}

fn build_pattern(model: &ImageModel, input: Bitmap, source: String) -> Result<Setup, InputError> {
    let kernel = Kernel::from_spec(model.kernel.as_deref().unwrap_or(DEFAULT_KERNEL))?;
    let edges = model.edges.unwrap_or(Edges::Wrap);
    let title = format!(
        "{}, kernel {}, {} edges",
        escape_controls(&source),
        escape_controls(&kernel.name),
        if edges == Edges::Wrap {
            "wrapped"
        } else {
            "free"
        }
    );
    let pattern = Pattern::new(input.clone(), kernel, edges)
        .map_err(|message| InputError::new(source.clone(), message))?;
    Ok(Setup {
        input_energy: pattern.energy(),
        mode: Mode::Pattern(pattern),
        title,
        source,
        input,
        clean: None,
        icm: None,
    })
}

/// The default time budget of a denoising run, in seconds (see `Setup::defaults`).
const DENOISE_TIME_LIMIT: f64 = 1.0;
/// The most of the time limit the first ICM pass may take.
const ICM_SHARE: f64 = 0.25;
/// What a multi-scale start costs per pixel (measured: docs/tuning.md): larger images than
/// half the time limit pays for start from ICM alone.
const MULTISCALE_SECONDS_PER_PIXEL: f64 = 0.3e-6;

/// The time a denoising `run` may take: the limit given, or the default when no budget at
/// all is given.
fn denoise_time_limit(run: &Run) -> Option<Duration> {
    match (run.limits.time_limit, run.limits.max_steps) {
        (Some(t), _) => Some(Duration::from_secs_f64(t)),
        (None, None) => Some(Duration::from_secs_f64(DENOISE_TIME_LIMIT)),
        (None, Some(_)) => None,
    }
}

fn build_denoise(
    model: &ImageModel,
    run: &Run,
    mut input: Bitmap,
    source: String,
    rng: &mut Rng,
    started: Instant,
) -> Result<Setup, InputError> {
    let mut clean = match &model.clean {
        Some(path) => Some(file::load(path)?),
        None => None,
    };
    if let Some(p) = noise(model) {
        clean.get_or_insert_with(|| input.clone());
        input.add_noise(p, rng);
    }
    if let Some(c) = clean
        .as_ref()
        .filter(|c| (c.width, c.height) != (input.width, input.height))
    {
        return Err(InputError::new(
            model
                .clean
                .as_ref()
                .map_or(source.clone(), |p| crate::input::source_name(p)),
            format!(
                "clean image is {}x{} but the input is {}x{}",
                c.width, c.height, input.width, input.height
            ),
        ));
    }

    let lambda = model.lambda.unwrap_or(1.0);
    let beta = model.beta.unwrap_or(1.0);
    let neighbourhood = model.neighbourhood.unwrap_or(Neighbourhood::Four);
    let mut problem = Denoise::new(&input, lambda, beta, neighbourhood);
    let input_energy = problem.energy();
    // Setup counts against the time limit, from reading the image on: a large image
    // gets less of it.
    let limit = denoise_time_limit(run);
    let icm = (!model.no_icm).then(|| {
        let deadline = limit.and_then(|l| started.checked_add(l.mul_f64(ICM_SHARE)));
        let sweeps = problem.icm_until(deadline);
        (problem.energy(), sweeps)
    });
    let multiscale_fits = limit
        .is_none_or(|l| input.len() as f64 * MULTISCALE_SECONDS_PER_PIXEL <= 0.5 * l.as_secs_f64());
    let plan = Plan {
        rounds: model.rounds.map(|k| k as usize),
        multiscale: !model.no_icm && !model.no_multiscale && multiscale_fits,
    };
    Ok(Setup {
        title: format!(
            "{}, denoise n{} lambda={lambda} beta={beta}",
            escape_controls(&source),
            neighbourhood.size()
        ),
        mode: Mode::Denoise(problem, plan),
        source,
        input,
        clean,
        input_energy,
        icm,
    })
}

impl Setup {
    /// Schedule defaults for this mode; the flags override them.
    pub fn defaults(&self) -> Defaults {
        match &self.mode {
            Mode::Pattern(p) => {
                // Temperatures scale with the smallest non-zero weight of the kernel.
                let unit = p
                    .kernel()
                    .taps
                    .iter()
                    .map(|t| t.weight.abs())
                    .fold(f64::INFINITY, f64::min);
                Defaults {
                    schedule: ScheduleKind::Exponential,
                    t0: StartTemperature::Fixed(2.5 * unit),
                    t_min: 0.025 * unit,
                    time_limit: Some(2.0),
                    ..Defaults::default()
                }
            }
            Mode::Denoise(d, plan) => {
                // Tuned on the developer ground truth (see puzzles/README.md).
                let unit = if d.lambda() > 0.0 { d.lambda() } else { 1.0 };
                // A multi-scale start already has the strokes and blobs right: a cooler
                // start keeps them and refines the edges.
                let t0 = if plan.multiscale {
                    (0.6 * unit).max(d.coupling() / 8.0)
                } else {
                    d.start_temperature()
                };
                Defaults {
                    schedule: ScheduleKind::Exponential,
                    t0: StartTemperature::Fixed(t0),
                    t_min: 0.05 * unit,
                    time_limit: Some(DENOISE_TIME_LIMIT),
                    ..Defaults::default()
                }
            }
        }
    }

    /// The configuration of `run`, with `--t0 auto` sampled from this problem.
    pub fn run_config(&self, run: &Run) -> Result<RunConfig, InputError> {
        let defaults = Defaults {
            // A step budget alone is the whole budget, as the ICM pass reads it
            // (`denoise_time_limit`) and TSP does: a default time limit would cut a long
            // `--max-steps` run short at a point that depends on the machine.
            time_limit: self
                .defaults()
                .time_limit
                .filter(|_| run.limits.max_steps.is_none()),
            ..self.defaults()
        };
        let seed = run.seed;
        match &self.mode {
            Mode::Pattern(p) => run.run_config(&defaults, |a| auto_temperature(p, seed, a, 10_000)),
            Mode::Denoise(d, _) => {
                run.run_config(&defaults, |a| auto_temperature(d, seed, a, 10_000))
            }
        }
    }
}
