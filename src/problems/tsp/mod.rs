//! The travelling salesman: TSPLIB or random instances, annealed with 2-opt + Or-opt moves
//! from nearest-neighbour candidates (or the seed's swap moves, for comparison). Headless
//! runs finish with a greedy descent from the best annealed tour, or with `--ils` spend
//! most of the budget on an iterated local search (`local_search`).

mod args;
mod curve;
pub(crate) mod distance;
mod headless;
pub(crate) mod instance;
pub mod local_search;
mod nearest;
pub(crate) mod problem;
pub mod random;
pub(crate) mod setup;
pub(crate) mod tour;
pub mod tour_file;
pub mod tsplib;

pub use args::{DEFAULT_KICK_SHARE, TspArgs};
pub use headless::headless;
pub use instance::{Bounds, Instance, Metric, Point};
pub use problem::{Cost, Init, Move, MoveSet, TspProblem, TspSnapshot};
pub use random::Layout;
pub use setup::{Loaded, Setup, build, load};
