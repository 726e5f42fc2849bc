//! Binary images: pattern formation (density-conserving swaps under an interaction kernel)
//! and denoising (single flips and region flips under an Ising energy). Files are PBM (P1/P4) or PNG.

mod args;
pub mod board;
mod built_in;
pub mod file;
mod headless;
pub mod picture;
mod report;
mod setup;
mod spec;

pub use kiln_core::problems::image::*;

pub use args::{FORMATS, ImageArgs};
pub use headless::headless;
pub use setup::{Mode, Setup, build};
pub use spec::{ImageModel, ImageSpec};
