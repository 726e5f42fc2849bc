//! The travelling salesman: TSPLIB or random instances, annealed with 2-opt + Or-opt moves
//! from nearest-neighbour candidates (or swap moves, for comparison), and an iterated local
//! search (`ils`) to finish a tour.

mod alpha;
mod chain;
pub mod curve;
pub mod distance;
pub mod ils;
pub mod instance;
mod kopt;
pub mod nearest;
pub mod pipeline;
pub mod problem;
mod quadrant;
pub mod random;
pub mod tour;
pub mod tour_file;
mod trial;
pub mod tsplib;

pub use instance::{Bounds, Instance, Metric, Point};
pub use pipeline::{PipelineOutcome, Then, TspPipeline};
pub use problem::{Cost, Init, Move, MoveSet, TspProblem, TspSnapshot};
pub use random::Layout;
