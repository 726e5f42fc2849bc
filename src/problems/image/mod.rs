//! Binary images: pattern formation (density-conserving swaps under an interaction kernel)
//! and denoising (single flips and region flips under an Ising energy). Files are PBM (P1/P4) or PNG.

mod args;
pub(crate) mod bitmap;
pub mod coarse;
pub(crate) mod denoise;
pub mod file;
mod headless;
pub mod kernel;
pub mod pattern;
pub mod pbm;
pub mod png;
pub mod region;
mod report;
pub(crate) mod rounds;
mod setup;

pub use args::ImageArgs;
pub use bitmap::Bitmap;
pub use denoise::{Change, Denoise, Neighbourhood};
pub use headless::headless;
pub use kernel::Kernel;
pub use pattern::{Edges, Pattern};
pub use rounds::{Plan, Rounds, RoundsReport};
pub use setup::{Mode, Setup, build};
