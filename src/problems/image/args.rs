//! `kiln image`'s flags, as clap reads them.

use std::path::PathBuf;

use clap::Args;

use super::spec::{ImageModel, ImageSpec};
use super::{Edges, Neighbourhood};
use crate::flags::anneal_args::AnnealArgs;
use crate::flags::batch_args::BatchArgs;
use crate::flags::output_args::OutputArgs;
use crate::flags::ranges::{self, real, whole};
use crate::flags::values::named;
use crate::headless::output::{Format, Formats};
use crate::input::InputError;
use crate::problems::registry::spec_of;

/// `kiln image`: without --denoise, pattern formation from a random or given image.
/// What `--output` writes for an image, by extension.
pub const FORMATS: Formats = Formats {
    problem: "image",
    choices: &[("pbm", Format::Pbm), ("png", Format::Png)],
};

/// `kiln image`'s flags.
#[derive(Args, Debug, Clone)]
// --output's formats are the problem's own.
#[command(mut_arg("output", |a| a.help(
    "Write the best image here: .pbm (or no extension) raw PBM, .png PNG. Never over an \
     existing file without --force, never over an input."
)))]
pub struct ImageArgs {
    /// Input image (PBM P1/P4 or PNG, grey below 50% is black) [default: a random image].
    #[arg(help_heading = "Input")]
    pub file: Option<PathBuf>,
    /// Size of the random start image, or of the built-in picture for --denoise.
    #[arg(long, value_name = "WxH", value_parser = ranges::image_size, conflicts_with = "file", help_heading = "Input")]
    pub size: Option<(usize, usize)>,
    /// Fraction of black pixels in the random start image [default: 0.3].
    #[arg(long, value_name = "D", value_parser = real(ranges::DENSITY), conflicts_with_all = ["file", "denoise"], help_heading = "Input")]
    pub density: Option<f64>,
    /// Interaction kernel: n4, n8 (attracting), 8-16 (inner ring attracts, outer repels),
    /// maze, dots or stripes (for densities 0.5, 0.2 and 0.5), suffixed -attract or -repel
    /// (flips the signs), or a JSON file.
    #[arg(
        long,
        value_name = "NAME|FILE",
        conflicts_with = "denoise",
        help_heading = "Image model"
    )]
    pub kernel: Option<String>,
    /// Edge rule for the kernel [default: wrap].
    #[arg(
        long,
        value_parser = named::<Edges>(),
        conflicts_with = "denoise",
        help_heading = "Image model"
    )]
    pub edges: Option<Edges>,
    /// Denoise the input image instead of forming patterns. Without one: a built-in picture
    /// of shapes, with --noise 0.1 unless given.
    #[arg(long, help_heading = "Image model")]
    pub denoise: bool,
    /// Weight of each pixel that differs from the noisy image [default: 1].
    #[arg(long, value_name = "L", value_parser = real(ranges::WEIGHT), requires = "denoise", help_heading = "Image model")]
    pub lambda: Option<f64>,
    /// Weight of each neighbour pair with different labels [default: 1].
    #[arg(long, value_name = "B", value_parser = real(ranges::WEIGHT), requires = "denoise", help_heading = "Image model")]
    pub beta: Option<f64>,
    /// Neighbour pairs: 4 (axial) or 8 (axial and diagonal, same weight) [default: 4].
    #[arg(long, value_parser = named::<Neighbourhood>(), requires = "denoise", help_heading = "Image model")]
    pub neighbourhood: Option<Neighbourhood>,
    /// Invert each input pixel with probability P first (seeded); the input is then the
    /// clean reference for the pixel error.
    #[arg(long, value_name = "P", value_parser = real(ranges::PROBABILITY), requires = "denoise", help_heading = "Input")]
    pub noise: Option<f64>,
    /// Clean image to count pixel errors against.
    #[arg(
        long,
        value_name = "FILE",
        requires = "denoise",
        help_heading = "Input"
    )]
    pub clean: Option<PathBuf>,
    /// Skip the ICM pass that otherwise precedes annealing.
    #[arg(long, requires = "denoise", help_heading = "Image model")]
    pub no_icm: bool,
    /// Skip the multi-scale start (annealing half- and quarter-resolution versions first).
    #[arg(long, requires = "denoise", help_heading = "Image model")]
    pub no_multiscale: bool,
    /// Split the budget into this many independent annealing rounds and fuse their results
    /// patch by patch; 1 is a single run [default: up to 8, as many as give every pixel 60
    /// proposals each].
    #[arg(long, value_name = "K", value_parser = whole(ranges::ROUNDS), requires = "denoise", help_heading = "Image model")]
    pub rounds: Option<u64>,
    /// `--output` and `--force`.
    #[command(flatten)]
    pub output: OutputArgs,
    /// The annealing flags every problem takes.
    #[command(flatten)]
    pub anneal: AnnealArgs,
    /// The batch flags.
    #[command(flatten)]
    pub batch: BatchArgs,
}

impl ImageArgs {
    /// What clap cannot check: the annealing flags, and a format `--output` names.
    pub fn check(&self) -> Result<(), InputError> {
        self.anneal.check()?;
        self.output.file(&FORMATS)?;
        Ok(())
    }

    /// The run these flags ask for (`check` has refused what cannot be run).
    pub fn spec(&self) -> Result<ImageSpec, InputError> {
        Ok(ImageSpec {
            model: ImageModel {
                file: self.file.clone(),
                size: self.size,
                density: self.density,
                kernel: self.kernel.clone(),
                edges: self.edges,
                denoise: self.denoise,
                lambda: self.lambda,
                beta: self.beta,
                neighbourhood: self.neighbourhood,
                noise: self.noise,
                clean: self.clean.clone(),
                no_icm: self.no_icm,
                no_multiscale: self.no_multiscale,
                rounds: self.rounds,
            },
            run: self.anneal.run(),
            batch: self.batch.batch(),
            output: self.output.file(&FORMATS)?,
        })
    }
}

impl ImageSpec {
    /// The run `words` ask for, written as after `kiln image` (`["--kernel", "maze"]`): how
    /// built-in runs are described. Words `kiln image` refuses panic.
    pub fn from_flags(words: &[&str]) -> Self {
        spec_of(words, ImageArgs::spec)
    }
}
