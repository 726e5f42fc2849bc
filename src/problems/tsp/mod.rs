//! The travelling salesman: TSPLIB or random instances, annealed with 2-opt + Or-opt moves
//! from nearest-neighbour candidates (or the seed's swap moves, for comparison). Headless
//! runs finish with a greedy descent from the best annealed tour, or with `--ils` spend
//! most of the budget on an iterated local search (`ils`).

mod args;
pub mod board;
mod built_in;
mod headless;
pub mod picture;
pub(crate) mod setup;
mod spec;

pub use kiln_core::problems::tsp::*;

pub use args::{DEFAULT_KICK_SHARE, FORMATS, TspArgs};
pub use headless::headless;
pub use setup::{Loaded, Setup, build, load};
pub use spec::{Search, TspModel, TspSpec};
