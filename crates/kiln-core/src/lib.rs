//! The engine of kiln: a generic simulated annealer (the [`anneal::Problem`] trait,
//! schedules, budgets, the runner and a worker thread with pause, reheat and telemetry)
//! and the models of the problems kiln ships (Sudoku, the travelling salesman, binary
//! images). It knows nothing of terminals or command lines.

pub mod anneal;
pub mod input;
pub mod messages;
pub mod named;
pub mod problems;

pub use named::Named;
