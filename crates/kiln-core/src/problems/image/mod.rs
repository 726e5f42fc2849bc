//! Binary images: pattern formation (density-conserving swaps under an interaction kernel)
//! and denoising (single flips and region flips under an Ising energy). Files are PBM
//! (P1/P4) or PNG.

pub mod bitmap;
pub mod coarse;
pub mod denoise;
pub mod kernel;
pub mod pattern;
pub mod pbm;
pub mod png;
pub mod region;
pub mod rounds;

pub use bitmap::Bitmap;
pub use denoise::{Change, Denoise, Neighbourhood};
pub use kernel::Kernel;
pub use pattern::{Edges, Pattern};
pub use rounds::{Plan, Rounds, RoundsReport};
