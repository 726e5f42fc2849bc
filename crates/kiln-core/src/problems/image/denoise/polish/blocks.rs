//! Block descent, the last step of the polish: the labelling of a square block of pixels,
//! given everything outside it, has its exact best found by a minimum cut (the energy is
//! submodular), and sweeping blocks at two offsets until none improves only ever lowers the
//! energy.
//!
//! Why: on text and line art what the strips leave is two-dimensional, patches wider than
//! a strip both ways: a letter's bowl half filled, a stroke the minimum drops only together
//! with the blob of noise it touches, a corner of stripes the minimum fills. They are
//! smaller than a block, so a block takes the better labelling in one step, whatever the
//! path to it would cost single flips.

use std::time::{Duration, Instant};

use super::super::Denoise;
use super::flow::Flow;
use crate::problems::image::coarse::{DIRECTIONS as STEPS, FORWARD};

/// Pixels along the first blocks' side: larger than a letter or a stroke's width, and
/// closer to the minimum than 32 (docs/tuning.md).
const FIRST_SIDE: usize = 64;
/// The largest block side: a block of 256x256 takes a few tens of milliseconds to solve,
/// one of 512x512 could outlast a second's polish on its own, and cannot be interrupted.
const LAST_SIDE: usize = 256;

/// The ranges a side of `len` pixels is cut into by blocks of `side`, the first boundary
/// at `offset`.
fn spans(len: usize, side: usize, offset: usize) -> impl Iterator<Item = (usize, usize)> {
    let first = if offset == 0 { side } else { offset };
    std::iter::successors(Some((0, first.min(len))), move |&(_, end)| {
        (end < len).then(|| (end, (end + side).min(len)))
    })
}

impl Denoise {
    /// Solves blocks of 64 pixels a side until none improves, then of twice that, and so
    /// on up to the whole image (or 256), until `deadline` passes. Returns the energy change
    /// (never positive).
    ///
    /// Why larger blocks: patches as large as a block (a quadrant of fine stripes the
    /// minimum keeps white) need one that holds them and their neighbours. Once the blocks
    /// of one side are settled, the smaller ones are too: each smaller block at either offset
    /// lies inside a larger one, whose labelling is the best given its frame.
    pub fn block_descent(&mut self, deadline: Option<Instant>) -> f64 {
        let mut gain = 0.0;
        let mut side = FIRST_SIDE;
        // The longest a block of the previous side took: one twice as wide is started only
        // with eight times that left, so the deadline holds.
        let mut longest = Duration::ZERO;
        loop {
            let (change, took) = self.block_sweeps(side, deadline);
            gain += change;
            longest = longest.max(took);
            let whole = side >= self.height.max(self.width);
            let starved = deadline.is_some_and(|d| Instant::now() + longest * 8 >= d);
            if whole || side >= LAST_SIDE || starved {
                return gain;
            }
            side *= 2;
        }
    }

    /// Solves every block of `side` pixels, at two offsets (one when a block holds the
    /// whole image), until a whole sweep improves nothing or `deadline` passes. Returns the
    /// energy change and the longest a block took.
    ///
    /// A block is solved again only when a pixel in it or in a tile next to it changed
    /// since it was last solved: after the first sweep most blocks are settled, and
    /// solving them again would cost as much as the first sweep.
    fn block_sweeps(&mut self, side: usize, deadline: Option<Instant>) -> (f64, Duration) {
        let mut flow = Flow::default();
        // Every block edge is a multiple of a tile's side: the grid of tiles records where
        // pixels changed. At two offsets every patch up to side / 2 across lies inside one
        // block.
        let tile = side / 2;
        let offsets: &[usize] = if side >= self.height.max(self.width) {
            &[0]
        } else {
            &[0, tile]
        };
        let tiles = (self.height.div_ceil(tile), self.width.div_ceil(tile));
        // When a pixel in each tile last changed, and when each block was last solved (by
        // offset and top-left tile), on a clock that counts the blocks changed.
        let mut changed = vec![1u64; tiles.0 * tiles.1];
        let mut solved = vec![0u64; offsets.len() * tiles.0 * tiles.1];
        let mut now = 1;
        let mut gain = 0.0;
        let mut longest = Duration::ZERO;
        loop {
            let mut improved = false;
            for (k, &offset) in offsets.iter().enumerate() {
                for rows in spans(self.height, side, offset) {
                    for columns in spans(self.width, side, offset) {
                        let (t0, t1) = (rows.0 / tile, rows.1.div_ceil(tile));
                        let (u0, u1) = (columns.0 / tile, columns.1.div_ceil(tile));
                        let block = (k * tiles.0 + t0) * tiles.1 + u0;
                        let last = (t0.saturating_sub(1)..(t1 + 1).min(tiles.0))
                            .flat_map(|t| {
                                let row = t * tiles.1;
                                changed[row + u0.saturating_sub(1)..row + (u1 + 1).min(tiles.1)]
                                    .iter()
                                    .copied()
                            })
                            .max();
                        if last.is_none_or(|c| c <= solved[block]) {
                            continue;
                        }
                        let started = Instant::now();
                        if deadline.is_some_and(|d| started >= d) {
                            return (gain, longest);
                        }
                        let delta = self.improve_block(rows, columns, &mut flow);
                        longest = longest.max(started.elapsed());
                        solved[block] = now;
                        if delta < 0.0 {
                            now += 1;
                            for t in t0..t1 {
                                changed[t * tiles.1 + u0..t * tiles.1 + u1].fill(now);
                            }
                            solved[block] = now;
                            improved = true;
                            gain += delta;
                        }
                    }
                }
            }
            if !improved {
                return (gain, longest);
            }
        }
    }

    /// Relabels the block of image rows `rows` and columns `columns` (half-open) to its
    /// best labelling given the rest, if that is strictly better. Returns the energy change.
    fn improve_block(
        &mut self,
        (r0, r1): (usize, usize),
        (c0, c1): (usize, usize),
        flow: &mut Flow,
    ) -> f64 {
        let width = c1 - c0;
        let pixels = (r1 - r0) * width;
        flow.reset(pixels);
        let steps = &STEPS[..self.neighbour_offsets().len()];
        let inside = |r: usize, c: usize, (dr, dc): (isize, isize)| {
            let (r, c) = (r as isize + dr, c as isize + dc);
            (r0 as isize..r1 as isize).contains(&r) && (c0 as isize..c1 as isize).contains(&c)
        };
        // The block's energy now, and the part of its least energy no cut pays.
        let (mut now, mut floor) = (0.0, 0.0);
        for r in r0..r1 {
            for c in c0..c1 {
                let i = self.padded(r, c);
                let node = (r - r0) * width + c - c0;
                // Cost of label 0 and of label 1: the data, and the pairs with pixels
                // outside the block (the frame's label is neither, so it costs nothing).
                let mut costs = [0.0, 0.0];
                costs[usize::from(self.y[i] ^ 1)] += self.lambda;
                for (k, &step) in steps.iter().enumerate() {
                    if !inside(r, c, step) {
                        match self.x[i.wrapping_add_signed(self.offsets[k])] {
                            0 => costs[1] += self.beta,
                            1 => costs[0] += self.beta,
                            _ => {}
                        }
                    }
                }
                now += costs[usize::from(self.x[i])];
                floor += costs[0].min(costs[1]);
                // The sink side is black: cutting source -> node pays for label 1.
                if costs[1] > costs[0] {
                    flow.add_terminal(node, costs[1] - costs[0], 0.0);
                } else if costs[0] > costs[1] {
                    flow.add_terminal(node, 0.0, costs[0] - costs[1]);
                }
                for k in FORWARD.into_iter().filter(|&k| k < steps.len()) {
                    if inside(r, c, STEPS[k]) {
                        let j = i.wrapping_add_signed(self.offsets[k]);
                        let other =
                            (node as isize + STEPS[k].0 * width as isize + STEPS[k].1) as usize;
                        flow.add_edge(node, other, self.beta, self.beta);
                        if self.x[i] != self.x[j] {
                            now += self.beta;
                        }
                    }
                }
            }
        }
        let least = floor + flow.max_flow();
        // Costs are sums of a few weights: a real gain is far above rounding.
        if least >= now - 1e-9 * now.abs().max(1.0) {
            return 0.0;
        }
        for r in r0..r1 {
            for c in c0..c1 {
                let node = (r - r0) * width + c - c0;
                let i = self.padded(r, c);
                self.x[i] = u8::from(!flow.source_side(node));
            }
        }
        least - now
    }
}
