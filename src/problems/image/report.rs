//! The JSON line of `kiln image --headless` (docs/json.md). Its fields are in alphabetical
//! order: the order of the first version, which printed a map, kept for scripts that read
//! it as text. A field of one mode only is absent in the other; the mode's own nullable
//! fields (`icm_energy` without ICM, ...) are `Option<Option<_>>`: absent, or null.

use serde::Serialize;

use super::denoise::Neighbourhood;
use super::pattern::{Edges, Pattern};
use super::rounds::{Plan, RoundsReport};
use std::io::Write;

use super::Bitmap;
use super::setup;
use super::spec::ImageSpec;
use crate::headless::json::{self, PhaseLine, Seconds};
use crate::headless::output::Format;
use crate::headless::report;
use crate::messages::{count, say};
use crate::search::{Energy, Finished, Stop};
use crate::search::{Outcome, Phase, PhaseWork, StopReason};

#[derive(Debug, Serialize)]
pub(super) struct Report {
    #[serde(skip_serializing_if = "Option::is_none")]
    beta: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    black_pixels: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    edges: Option<Edges>,
    energy: f64,
    height: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    icm_energy: Option<Option<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    icm_sweeps: Option<Option<usize>>,
    initial_energy: f64,
    iterations: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    kernel: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lambda: Option<f64>,
    mode: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    multiscale_energies: Option<Vec<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    multiscale_energy: Option<Option<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    multiscale_seconds: Option<Option<Seconds>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    neighbourhood: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    noise: Option<Option<f64>>,
    output: Option<String>,
    /// Why `--output` could not be written, when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    output_error: Option<String>,
    /// Annealing, then (denoising) the exact polish: steps and time of each.
    phases: Vec<PhaseLine>,
    pixel_error: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    polish_gain: Option<Option<f64>>,
    problem: &'static str,
    reheats: u64,
    restarts: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    round_energies: Option<Vec<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rounds: Option<usize>,
    #[serde(serialize_with = "json::seconds")]
    seconds: f64,
    seed: u64,
    source: String,
    #[serde(serialize_with = "json::per_second")]
    steps_per_second: f64,
    stop: Stop,
    /// `stop` in the engine's words (kept for scripts written before `stop`).
    stop_reason: StopReason,
    t0: f64,
    width: usize,
    /// The best image, for `--output`.
    #[serde(skip)]
    best: Bitmap,
    /// The run's title, for the summary.
    #[serde(skip)]
    title: String,
}

/// What only one mode reports.
pub(super) enum ModeReport {
    Pattern {
        kernel: String,
        edges: Edges,
        black_pixels: usize,
    },
    Denoise {
        rounds: usize,
        report: RoundsReport,
        plan: Plan,
        /// The rounds' annealing and the polish.
        phases: Vec<PhaseWork>,
    },
}

impl ModeReport {
    pub(super) fn pattern(p: &Pattern) -> Self {
        ModeReport::Pattern {
            kernel: p.kernel().name.clone(),
            edges: p.edges(),
            black_pixels: p.black_pixels(),
        }
    }
}

/// What a report needs of the set-up once its problem has moved into the run (at
/// 4096x4096 a pattern problem holds 270 MB: it is moved, not copied).
pub(super) struct Ran<'a> {
    pub input: &'a Bitmap,
    pub source: &'a str,
    pub title: &'a str,
    pub clean: Option<&'a Bitmap>,
    pub input_energy: f64,
    pub icm: Option<(f64, usize)>,
    /// Wall time of the whole run, reading and building included.
    pub seconds: f64,
}

impl Report {
    /// The line of a run of `setup` as `spec` asked that ended with `outcome`.
    pub(super) fn new(
        setup: Ran<'_>,
        spec: &ImageSpec,
        outcome: Outcome<Bitmap>,
        t0: f64,
        mode: ModeReport,
    ) -> Report {
        let seconds = setup.seconds;
        // Annealing only (multi-scale starts included, reading and building not).
        let anneal_seconds = outcome.elapsed.as_secs_f64();
        let mut report = Report {
            beta: None,
            black_pixels: None,
            edges: None,
            energy: outcome.energy,
            height: setup.input.height,
            icm_energy: None,
            icm_sweeps: None,
            initial_energy: setup.input_energy,
            iterations: outcome.iterations,
            kernel: None,
            lambda: None,
            mode: "pattern",
            multiscale_energies: None,
            multiscale_energy: None,
            multiscale_seconds: None,
            neighbourhood: None,
            noise: None,
            output: (spec.output.as_ref()).map(|file| file.target.path.display().to_string()),
            output_error: None,
            // A pattern run anneals only; denoising says its phases below.
            phases: PhaseLine::all(&[PhaseWork {
                phase: Phase::Anneal,
                chains: 1,
                steps: outcome.iterations,
                time: outcome.elapsed,
            }]),
            pixel_error: setup.clean.and_then(|c| outcome.best.pixel_error(c)),
            polish_gain: None,
            problem: "image",
            reheats: outcome.reheats,
            restarts: outcome.restarts,
            round_energies: None,
            rounds: None,
            seconds,
            seed: spec.run.seed,
            source: setup.source.to_string(),
            steps_per_second: outcome.iterations as f64 / anneal_seconds.max(1e-9),
            stop: outcome.reason.into(),
            stop_reason: outcome.reason,
            t0,
            width: setup.input.width,
            best: outcome.best,
            title: setup.title.to_string(),
        };
        match mode {
            ModeReport::Pattern {
                kernel,
                edges,
                black_pixels,
            } => {
                report.kernel = Some(kernel);
                report.edges = Some(edges);
                report.black_pixels = Some(black_pixels);
            }
            ModeReport::Denoise {
                rounds,
                report: done,
                plan,
                phases,
            } => {
                report.phases = PhaseLine::all(&phases);
                let args = &spec.model;
                report.mode = "denoise";
                report.lambda = Some(args.lambda.unwrap_or(1.0));
                report.beta = Some(args.beta.unwrap_or(1.0));
                let neighbourhood = args.neighbourhood.unwrap_or(Neighbourhood::Four);
                report.neighbourhood = Some(neighbourhood.size());
                report.noise = Some(setup::noise(args));
                report.icm_energy = Some(setup.icm.map(|(e, _)| e));
                report.icm_sweeps = Some(setup.icm.map(|(_, s)| s));
                report.rounds = Some(rounds);
                report.round_energies = Some(done.round_energies);
                report.polish_gain = Some(done.polish_gain);
                report.multiscale_energy = Some(done.start_energies.first().copied());
                report.multiscale_energies = Some(done.start_energies);
                report.multiscale_seconds =
                    Some(plan.multiscale.then_some(Seconds(done.start_seconds)));
            }
        }
        report
    }
}

impl report::Report for Report {
    fn output(&self, format: Format) -> color_eyre::Result<Vec<u8>> {
        super::picture::output(&self.best, format)
    }

    fn output_failed(&mut self, error: String) {
        self.output_error = Some(error);
    }

    fn summary(&self, log: &mut dyn Write) {
        say(
            log,
            format_args!(
                "{}: energy {} -> {} in {} steps, {:.2} s ({:.1} M steps/s){}",
                self.title,
                self.initial_energy,
                self.energy,
                self.iterations,
                self.seconds,
                self.steps_per_second / 1e6,
                self.pixel_error.map_or(String::new(), |e| format!(
                    ", {} wrong",
                    count(e, "pixel", "pixels")
                )),
            ),
        );
    }

    fn finished(&self) -> Finished {
        Finished {
            stop: self.stop,
            solved: None,
            energy: Some(Energy::Real(self.energy)),
            measure: None,
            seconds: self.seconds,
            iterations: self.iterations,
        }
    }
}
