//! Coarse versions of the denoising energy, for a multi-scale start.
//!
//! A [`Coarse`] grid is a binary labelling problem with a cost per cell and label and a
//! weight per neighbour pair. Halving it ([`Coarse::halve`]) merges 2x2 blocks: a block's
//! costs are the sums of its cells' costs, and the weight between two blocks is the sum of
//! the weights of the finer pairs that cross from one to the other (2 axial pairs between
//! side-by-side blocks, plus 2 diagonal ones in the 8-neighbourhood; 1 diagonal pair between
//! corner-touching blocks). Pairs inside a block stay equal, so the energy of a block
//! labelling is exactly the finer energy of its upscaled labelling: annealing the coarse grid
//! searches the block-constant labellings, where removing a stroke or filling a blob takes
//! a few flips instead of hundreds.

use rand::RngExt;

use super::bitmap::Bitmap;
use std::time::Duration;

use crate::anneal::{Problem, RunConfig, Runner, Schedule};
use crate::search::Rng;

/// Neighbour directions (row, column), in the order of [`Denoise`](super::Denoise)'s
/// neighbour offsets.
pub(crate) const DIRECTIONS: [(isize, isize); 8] = [
    (0, -1),
    (0, 1),
    (-1, 0),
    (1, 0),
    (-1, -1),
    (-1, 1),
    (1, -1),
    (1, 1),
];
/// The directions that count each unordered pair once (from its upper or left end).
pub(crate) const FORWARD: [usize; 4] = [1, 3, 6, 7];

/// A grid of cells to label 0 or 1, with a cost per cell and label and a weight per
/// neighbour pair; annealed as a [`Problem`] whose moves flip one cell.
#[derive(Debug, Clone)]
pub struct Coarse {
    width: usize,
    height: usize,
    /// Row length of the padded grids (width + 2); the frame has zero costs and weights.
    stride: usize,
    x: Vec<u8>,
    /// `cost[i][l]`: the energy of giving cell `i` label `l`.
    cost: Vec<[f64; 2]>,
    /// `weight[i][k]`: the weight of the pair from cell `i` in direction `DIRECTIONS[k]`.
    weight: Vec<[f64; 8]>,
    offsets: [isize; 8],
}

impl Coarse {
    fn empty(width: usize, height: usize) -> Self {
        let stride = width + 2;
        let len = stride * (height + 2);
        let mut offsets = [0; 8];
        for (o, &(dr, dc)) in offsets.iter_mut().zip(&DIRECTIONS) {
            *o = dr * stride as isize + dc;
        }
        Coarse {
            width,
            height,
            stride,
            x: vec![0; len],
            cost: vec![[0.0; 2]; len],
            weight: vec![[0.0; 8]; len],
            offsets,
        }
    }

    fn padded(&self, row: usize, col: usize) -> usize {
        (row + 1) * self.stride + col + 1
    }

    /// The denoising energy of observation `y` as a grid: cost lambda for disagreeing with
    /// y, weight beta for each of the 4 (or 8, with `diagonals`) neighbour pairs.
    pub fn denoising(y: &Bitmap, lambda: f64, beta: f64, diagonals: bool) -> Self {
        let mut g = Coarse::empty(y.width, y.height);
        let directions = if diagonals { 8 } else { 4 };
        for row in 0..y.height {
            for col in 0..y.width {
                let i = g.padded(row, col);
                let label = usize::from(y.bits[row * y.width + col]);
                g.cost[i][label ^ 1] = lambda;
                g.x[i] = label as u8;
                for k in 0..directions {
                    if g.inside(row, col, k).is_some() {
                        g.weight[i][k] = beta;
                    }
                }
            }
        }
        g
    }

    /// The cell in direction `k` of (row, col), if it is inside the grid.
    fn inside(&self, row: usize, col: usize, k: usize) -> Option<(usize, usize)> {
        let (dr, dc) = DIRECTIONS[k];
        let r = row.checked_add_signed(dr).filter(|&r| r < self.height)?;
        let c = col.checked_add_signed(dc).filter(|&c| c < self.width)?;
        Some((r, c))
    }

    /// The grid of 2x2 blocks (a last row or column of 1-cell-wide blocks for odd sides),
    /// each labelled by the cheaper label for it.
    pub fn halve(&self) -> Coarse {
        let mut g = Coarse::empty(self.width.div_ceil(2), self.height.div_ceil(2));
        for row in 0..self.height {
            for col in 0..self.width {
                let i = self.padded(row, col);
                let b = g.padded(row / 2, col / 2);
                let [white, black] = self.cost[i];
                g.cost[b][0] += white;
                g.cost[b][1] += black;
                for k in 0..8 {
                    let Some((r, c)) = self.inside(row, col, k) else {
                        continue;
                    };
                    let other = g.padded(r / 2, c / 2);
                    if other != b {
                        let dir = (
                            (r / 2) as isize - (row / 2) as isize,
                            (c / 2) as isize - (col / 2) as isize,
                        );
                        let kb = DIRECTIONS
                            .iter()
                            .position(|&d| d == dir)
                            .expect("blocks of neighbouring cells touch");
                        // Each pair is seen from both ends: count it once per block side.
                        g.weight[b][kb] += self.weight[i][k];
                    }
                }
            }
        }
        g.label_cheapest();
        g
    }

    /// Gives every cell its cheaper label, ignoring the pairs.
    fn label_cheapest(&mut self) {
        for (x, cost) in self.x.iter_mut().zip(&self.cost) {
            *x = u8::from(cost[1] < cost[0]);
        }
    }

    /// The current labelling as an image (1 = black), one pixel per cell.
    pub fn labels(&self) -> Bitmap {
        let mut out = Bitmap::white(self.width, self.height);
        self.snapshot_into(&mut out);
        out
    }

    /// Labels every cell with the label of its block in `coarse` (this grid halved).
    pub fn upscale_from(&mut self, coarse: &Bitmap) {
        for row in 0..self.height {
            for col in 0..self.width {
                let i = self.padded(row, col);
                self.x[i] = coarse.bits[(row / 2) * coarse.width + col / 2];
            }
        }
    }

    #[inline(always)]
    fn flip_delta(&self, i: usize) -> f64 {
        let v = self.x[i];
        let mut pairs = 0.0;
        for (k, &o) in self.offsets.iter().enumerate() {
            let j = i.wrapping_add_signed(o);
            // An equal pair becomes unequal (+w), an unequal one equal (-w).
            let w = self.weight[i][k];
            pairs += if self.x[j] == v { w } else { -w };
        }
        let cost = &self.cost[i];
        cost[usize::from(v ^ 1)] - cost[usize::from(v)] + pairs
    }
}

impl Problem for Coarse {
    type Move = u32;
    type Snapshot = Bitmap;

    fn energy(&self) -> f64 {
        let mut e = 0.0;
        for row in 0..self.height {
            for col in 0..self.width {
                let i = self.padded(row, col);
                e += self.cost[i][usize::from(self.x[i])];
                for k in FORWARD {
                    if let Some((r, c)) = self.inside(row, col, k) {
                        let j = self.padded(r, c);
                        if self.x[i] != self.x[j] {
                            e += self.weight[i][k];
                        }
                    }
                }
            }
        }
        e
    }

    #[inline(always)]
    fn propose(&self, rng: &mut Rng) -> u32 {
        let row = rng.random_range(0..self.height);
        let col = rng.random_range(0..self.width);
        self.padded(row, col) as u32
    }

    #[inline(always)]
    fn delta(&self, mv: &u32) -> f64 {
        self.flip_delta(*mv as usize)
    }

    fn apply(&mut self, mv: &u32) {
        self.x[*mv as usize] ^= 1;
    }

    /// A restart begins from the cheaper label of every cell, as a halved grid does.
    fn randomize(&mut self, _rng: &mut Rng) {
        self.label_cheapest();
    }

    fn snapshot(&self) -> Bitmap {
        self.labels()
    }

    fn snapshot_into(&self, into: &mut Bitmap) {
        into.copy_from_framed(&self.x, self.width, self.height, self.stride);
    }

    fn snapshot_cost(&self) -> usize {
        self.width * self.height
    }

    fn delta_quantum(&self) -> f64 {
        0.25
    }
}

/// Anneals `full` halved `levels` times, coarsest first, each level starting from the
/// upscaled result of the one below, and returns the finest result upscaled to `full`'s
/// size. Each level gets `sweeps` proposals per cell, cooling exponentially from `t0`
/// (times 2 per level: block energies grow with the block) to `t_min`, and at most its
/// share of `time` by its cells: a large image cools faster rather than overrun the run.
pub fn multiscale(
    full: &Coarse,
    levels: usize,
    sweeps: u64,
    t0: f64,
    t_min: f64,
    seed: u64,
    time: Option<Duration>,
) -> Bitmap {
    let mut grids = vec![full.halve()];
    while grids.len() < levels {
        let next = grids[grids.len() - 1].halve();
        grids.push(next);
    }
    let all_cells: usize = grids.iter().map(|g| g.width * g.height).sum();
    let mut result: Option<Bitmap> = None;
    for (level, mut grid) in grids.into_iter().enumerate().rev() {
        if let Some(coarser) = &result {
            grid.upscale_from(coarser);
        }
        let cells = (grid.width * grid.height) as u64;
        let mut config = RunConfig::new(
            Schedule::Exponential { t_min },
            t0 * f64::from(1u32 << (level + 1)),
        );
        config.budget.max_steps = Some(sweeps * cells);
        config.budget.time_limit = time.map(|t| t.mul_f64(cells as f64 / all_cells.max(1) as f64));
        let mut runner = Runner::new(grid, config, seed ^ level as u64);
        runner.run(|_| true);
        result = Some(runner.finish().best);
    }
    let mut out = full.clone();
    if let Some(coarse) = &result {
        out.upscale_from(coarse);
    }
    out.labels()
}
