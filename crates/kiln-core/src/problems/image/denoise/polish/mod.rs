//! The exact polish that ends a denoising run: descents that only ever lower the energy,
//! over strips of pixels (`strips`, exact by dynamic programming) and over blocks
//! (`blocks`, exact as a minimum cut found by the max-flow of `flow`). It is no annealing:
//! no temperature, no uphill move.

mod blocks;
pub mod flow;
mod strips;

use std::time::Instant;

use super::Denoise;

impl Denoise {
    /// The final polish of a run: strip descent, block descent, and strip descent again if
    /// the blocks changed anything, each until it finds nothing or `deadline` passes. Only
    /// ever lowers the energy; returns the change. Not repeated until neither finds
    /// anything: each call begins with a full sweep, and repeating cost time for the same
    /// energies (docs/tuning.md).
    pub fn polish(&mut self, deadline: Option<Instant>) -> f64 {
        let mut gain = self.strip_descent(deadline);
        let blocks = self.block_descent(deadline);
        gain += blocks;
        if blocks < 0.0 {
            gain += self.strip_descent(deadline);
        }
        gain
    }
}
