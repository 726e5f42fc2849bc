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
    pub size: Option<(usize, usize)>,
    pub density: Option<f64>,
    /// A kernel's name or JSON file.
    pub kernel: Option<String>,
    pub edges: Option<Edges>,
    pub denoise: bool,
    pub lambda: Option<f64>,
    pub beta: Option<f64>,
    pub neighbourhood: Option<Neighbourhood>,
    pub noise: Option<f64>,
    /// A clean image to count pixel errors against.
    pub clean: Option<PathBuf>,
    pub no_icm: bool,
    pub no_multiscale: bool,
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
