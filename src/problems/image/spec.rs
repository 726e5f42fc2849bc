//! An image run as the command line asked for it (`ImageArgs::spec`).

use std::path::{Path, PathBuf};

use super::{Edges, Neighbourhood};
use crate::headless::output::OutputFile;
use crate::headless::spec::Spec;
use crate::input::InputError;

/// An image run: pattern formation or denoising.
pub type ImageSpec = Spec<ImageModel>;

/// The image and the model; `None` takes the mode's default when the run is set up.
#[derive(Debug, Clone, Default)]
pub struct ImageModel {
    /// The input image; without one, a random image (or the built-in picture to denoise).
    pub file: Option<PathBuf>,
    /// `--size`: width and height of a random or built-in image.
    pub size: Option<(usize, usize)>,
    /// `--density`: the share of black pixels of a pattern's random start.
    pub density: Option<f64>,
    /// A kernel's name or JSON file.
    pub kernel: Option<String>,
    /// `--edges`: how the image's borders meet.
    pub edges: Option<Edges>,
    /// `--denoise`: restore a noisy image instead of forming a pattern.
    pub denoise: bool,
    /// `--lambda`: the weight of agreeing with the noisy image.
    pub lambda: Option<f64>,
    /// `--beta`: the weight of agreeing with neighbours.
    pub beta: Option<f64>,
    /// `--neighbourhood`: 4 or 8 neighbours.
    pub neighbourhood: Option<Neighbourhood>,
    /// `--noise`: the probability each input pixel is inverted first.
    pub noise: Option<f64>,
    /// A clean image to count pixel errors against.
    pub clean: Option<PathBuf>,
    /// `--no-icm`: no greedy start before the anneal.
    pub no_icm: bool,
    /// `--no-multiscale`: no coarse-to-fine start.
    pub no_multiscale: bool,
    /// `--rounds`: independent anneals fused into one result.
    pub rounds: Option<u64>,
}

impl ImageSpec {
    /// `--output`, checked against the run's own inputs (a kernel file among them) before
    /// it starts.
    pub fn output_file(&self) -> Result<Option<OutputFile>, InputError> {
        let model = &self.model;
        let kernel = model
            .kernel
            .as_deref()
            .map(Path::new)
            .filter(|p| p.is_file());
        let inputs: Vec<&Path> = [model.file.as_deref(), model.clean.as_deref(), kernel]
            .into_iter()
            .flatten()
            .collect();
        self.checked_output(&inputs)
    }
}
