//! Denoising a binary image y: minimise
//! E(x) = lambda * #{i : x_i != y_i} + beta * #{unordered neighbour pairs {i, j} : x_i != x_j}
//! over labellings x (free edges; in the 8-neighbourhood diagonal pairs weigh beta too),
//! exactly as in the min-cut ground truth.
//!
//! Moves are single-pixel flips and, rarely, region flips (see [`region`](super::region)):
//! at strong coupling the minimum removes or fills whole strokes and blobs, which single
//! flips cannot do at the low temperatures where they settle the rest.

use std::cell::RefCell;

use rand::RngExt;

use super::bitmap::Bitmap;
use super::coarse::{self, Coarse};
use super::region::{Region, RegionKind, Scratch};
use std::time::{Duration, Instant};

use crate::anneal::Problem;
use crate::search::{Rng, Sketch};

pub mod polish;

/// Marks the frame around the padded image: equal to neither label, so it never counts.
const OUTSIDE: u8 = 2;

/// Which pixels are neighbours in the smoothness term.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Neighbourhood {
    /// Left, right, above and below.
    Four,
    /// The four and the diagonals.
    Eight,
}

crate::named::named!(Neighbourhood { Four => "4", Eight => "8" });

impl Neighbourhood {
    /// Neighbours of an inner pixel: 4 or 8.
    pub fn size(self) -> u8 {
        match self {
            Neighbourhood::Four => 4,
            Neighbourhood::Eight => 8,
        }
    }
}

/// A move of the denoiser, by indices into the padded grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Flips one pixel.
    Flip(u32),
    /// Flips a connected region grown from a seed pixel (see [`RegionKind`]).
    Region(Region),
}

/// Fraction of proposals that are region flips, in units of 2^-32: rare enough that
/// single-flip throughput stays almost unchanged, frequent enough that every blob is
/// tried many times per run.
const REGION_SHARE: u32 = (1u64 << 32 >> 12) as u32;

/// The coarse levels of the multi-scale start: half and quarter resolution.
const MULTISCALE_LEVELS: usize = 2;
/// Proposals per cell at each coarse level: a start takes about 2 % of a 1 s budget on
/// 256x256, and a run makes up to 8 (on 6 hard ground-truth entries x 3 seeds, 100 and
/// 40 ended equally close to the minimum).
const MULTISCALE_SWEEPS: u64 = 40;

/// The denoising state: the labelling being annealed, the noisy image it must stay close
/// to, and the weights of the two terms.
#[derive(Debug, Clone)]
pub struct Denoise {
    width: usize,
    height: usize,
    /// Row length of the padded grids (width + 2).
    stride: usize,
    /// The labelling x with a one-pixel frame of `OUTSIDE`.
    x: Vec<u8>,
    /// The observation y, same layout.
    y: Vec<u8>,
    lambda: f64,
    beta: f64,
    diagonals: bool,
    /// Offsets of the neighbours in the padded grid (the first 4 or all 8 are used).
    offsets: [isize; 8],
    /// The labelling reference regions grow over: y, then the ICM result. Fixed during a
    /// run, so a reference region can be flipped back.
    reference: Vec<u8>,
    /// Where `delta` grows a proposed region (it takes `&self`); the problem is moved to
    /// its worker thread, never shared, so a `RefCell` suffices.
    scratch: RefCell<Scratch>,
}

impl Denoise {
    /// Starts from x = y (the noisy image itself).
    pub fn new(noisy: &Bitmap, lambda: f64, beta: f64, neighbourhood: Neighbourhood) -> Self {
        let stride = noisy.width + 2;
        let mut y = vec![OUTSIDE; stride * (noisy.height + 2)];
        for (row, line) in noisy.bits.chunks_exact(noisy.width).enumerate() {
            let start = (row + 1) * stride + 1;
            y[start..start + noisy.width].copy_from_slice(line);
        }
        let s = stride as isize;
        Denoise {
            width: noisy.width,
            height: noisy.height,
            stride,
            scratch: RefCell::new(Scratch::new(y.len())),
            reference: y.clone(),
            x: y.clone(),
            y,
            lambda,
            beta,
            diagonals: neighbourhood == Neighbourhood::Eight,
            offsets: [-1, 1, -s, s, -s - 1, -s + 1, s - 1, s + 1],
        }
    }

    /// Number of pixels.
    pub fn pixels(&self) -> usize {
        self.width * self.height
    }

    /// The data weight, the scale of the smallest energy changes near the end of a run.
    pub fn lambda(&self) -> f64 {
        self.lambda
    }

    /// Coupling strength per pixel: beta times the number of neighbours. Large domains
    /// only dissolve at temperatures of this order.
    pub fn coupling(&self) -> f64 {
        self.beta * if self.diagonals { 8.0 } else { 4.0 }
    }

    fn padded(&self, row: usize, col: usize) -> usize {
        (row + 1) * self.stride + col + 1
    }

    /// Iterated conditional modes: raster sweeps flipping every pixel that lowers the
    /// energy, until a sweep changes nothing. Returns the number of sweeps. The result is
    /// also the reference labelling for region moves.
    pub fn icm(&mut self) -> usize {
        self.icm_until(None)
    }

    /// ICM sweeps until none changes a pixel or `deadline` passes (looked at every row: a
    /// sweep of a 4096x4096 image takes a tenth of a second, more on a busy machine);
    /// returns the sweeps begun.
    pub fn icm_until(&mut self, deadline: Option<Instant>) -> usize {
        let mut sweeps = 0;
        loop {
            sweeps += 1;
            let mut changed = false;
            for row in 0..self.height {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    self.reference.clone_from(&self.x);
                    return sweeps - usize::from(row == 0);
                }
                for col in 0..self.width {
                    let mv = Change::Flip(self.padded(row, col) as u32);
                    if self.delta(&mv) < 0.0 {
                        self.apply(&mv);
                        changed = true;
                    }
                }
            }
            if !changed {
                self.reference.clone_from(&self.x);
                return sweeps;
            }
        }
    }

    /// Replaces the state (the ICM result) by a multi-scale start: anneals coarse versions
    /// of the problem (see [`coarse::multiscale`]), upscales the result and settles it with
    /// ICM. Returns its energy.
    ///
    /// Kept even when its energy is above the ICM result's (block edges are ragged until
    /// the run smooths them; measured: comparing energies throws away the starts that
    /// help). The reference for region moves stays the ICM result, so that strokes the
    /// coarse levels dropped can still come back in one move.
    pub fn multiscale_start(&mut self, seed: u64, time: Option<Duration>) -> f64 {
        let y = self.unpadded(&self.y);
        let grid = Coarse::denoising(&y, self.lambda, self.beta, self.diagonals);
        let t0 = self.start_temperature();
        let labels = coarse::multiscale(
            &grid,
            MULTISCALE_LEVELS,
            MULTISCALE_SWEEPS,
            t0,
            0.05 * self.lambda,
            seed,
            time,
        );
        let reference = self.reference.clone();
        self.set_labels(&labels);
        self.icm();
        self.reference = reference;
        self.energy()
    }

    /// Replaces the labelling by `labels` (of the same size).
    pub fn set_labels(&mut self, labels: &Bitmap) {
        for (row, line) in labels.bits.chunks_exact(self.width).enumerate() {
            let begin = self.padded(row, 0);
            self.x[begin..begin + self.width].copy_from_slice(line);
        }
    }

    /// Takes from `other` (a labelling of the same image) every patch where it is better:
    /// the pixels where the two differ fall into connected patches, and since no pair of
    /// neighbours joins two patches, each patch can be taken or left on its own merit.
    /// Returns the energy change (never positive).
    pub fn fuse(&mut self, other: &Bitmap) -> f64 {
        let mut differs = vec![OUTSIDE; self.x.len()];
        for (row, line) in other.bits.chunks_exact(self.width).enumerate() {
            let begin = self.padded(row, 0);
            for (k, &label) in line.iter().enumerate() {
                differs[begin + k] = self.x[begin + k] ^ label;
            }
        }
        let offsets = self.offsets;
        let offsets = &offsets[..if self.diagonals { 8 } else { 4 }];
        let mut gain = 0.0;
        for seed in 0..differs.len() {
            if differs[seed] != 1 {
                continue;
            }
            let mut scratch = self.scratch.borrow_mut();
            scratch.grow(seed as u32, differs.len() as u32, &differs, offsets);
            let delta = self.region_delta(&scratch);
            let take = delta < 0.0;
            for &p in scratch.pixels() {
                differs[p as usize] = 0;
                self.x[p as usize] ^= u8::from(take);
            }
            if take {
                gain += delta;
            }
        }
        gain
    }

    /// Where annealing from the ICM result starts: hot enough for domains of the coupling
    /// to dissolve, so that strokes and blobs can go.
    pub fn start_temperature(&self) -> f64 {
        let unit = if self.lambda > 0.0 { self.lambda } else { 1.0 };
        (0.6 * unit).max(self.coupling() / 4.0)
    }

    /// The image part of a padded grid.
    fn unpadded(&self, grid: &[u8]) -> Bitmap {
        let mut out = Bitmap::white(self.width, self.height);
        out.bits.clear();
        for row in 0..self.height {
            let start = self.padded(row, 0);
            out.bits.extend_from_slice(&grid[start..start + self.width]);
        }
        out
    }

    fn neighbour_offsets(&self) -> &[isize] {
        &self.offsets[..if self.diagonals { 8 } else { 4 }]
    }

    /// Energy change of flipping the pixel at padded index `i`.
    #[inline(always)]
    fn flip_delta(&self, i: usize) -> f64 {
        let v = self.x[i];
        // Flipping makes equal neighbours unequal and unequal ones equal.
        let same = self.neighbours_equal(i, v);
        let other = self.neighbours_equal(i, v ^ 1);
        let data = if v == self.y[i] { 1.0 } else { -1.0 };
        self.lambda * data + self.beta * f64::from(same - other)
    }

    /// Grows `region` into the scratch buffers and returns the energy change of flipping
    /// the pixels it holds, or `None` if the move leaves the state as it is.
    fn grow_region(&self, region: Region) -> Option<f64> {
        let mut scratch = self.scratch.borrow_mut();
        let offsets = self.neighbour_offsets();
        match region.kind {
            RegionKind::Reference => {
                scratch.grow(region.seed, region.cap, &self.reference, offsets);
                let v = self.x[region.seed as usize];
                scratch.retain(|i| self.x[i] == v);
                Some(self.region_delta(&scratch))
            }
            RegionKind::Component => {
                let whole = scratch.grow(region.seed, region.cap, &self.x, offsets);
                let delta = self.region_delta(&scratch);
                (whole && delta <= 0.0).then_some(delta)
            }
        }
    }

    /// Energy change of flipping every pixel the region `scratch` holds.
    fn region_delta(&self, scratch: &Scratch) -> f64 {
        let mut data = 0i64;
        let mut pairs = 0i64;
        for &p in scratch.pixels() {
            let i = p as usize;
            let v = self.x[i];
            data += if v == self.y[i] { 1 } else { -1 };
            // Pairs inside the region both flip and stay as they were; pairs across its
            // border change from equal to unequal or back. The frame counts for neither.
            for &o in self.neighbour_offsets() {
                let j = i.wrapping_add_signed(o);
                if !scratch.contains(j) {
                    pairs += i64::from(self.x[j] == v) - i64::from(self.x[j] == v ^ 1);
                }
            }
        }
        self.lambda * data as f64 + self.beta * pairs as f64
    }

    /// Counts the neighbours of padded index `i` holding label `v`.
    #[inline(always)]
    fn neighbours_equal(&self, i: usize, v: u8) -> i32 {
        let s = self.stride;
        let x = &self.x;
        let mut n = (x[i - 1] == v) as i32
            + (x[i + 1] == v) as i32
            + (x[i - s] == v) as i32
            + (x[i + s] == v) as i32;
        if self.diagonals {
            n += (x[i - s - 1] == v) as i32
                + (x[i - s + 1] == v) as i32
                + (x[i + s - 1] == v) as i32
                + (x[i + s + 1] == v) as i32;
        }
        n
    }
}

impl Problem for Denoise {
    type Move = Change;
    type Snapshot = Bitmap;

    /// Counted row by row on the padded grid, without a copy: at 4096x4096 the pixel by
    /// pixel count through a snapshot took 0.07 s a time, three times in setup, which
    /// counts against the time limit.
    fn energy(&self) -> f64 {
        let (w, s) = (self.width, self.stride);
        let mut disagreements = 0;
        let mut unequal = 0;
        for row in 0..self.height {
            let i = self.padded(row, 0);
            let line = &self.x[i..i + w];
            disagreements += count_unequal(line, &self.y[i..i + w]);
            // Each unordered pair once, from its left or upper end.
            unequal += count_unequal(&line[..w - 1], &line[1..]);
            if row + 1 < self.height {
                let below = &self.x[i + s..i + s + w];
                unequal += count_unequal(line, below);
                if self.diagonals {
                    unequal += count_unequal(&line[..w - 1], &below[1..]);
                    unequal += count_unequal(&line[1..], &below[..w - 1]);
                }
            }
        }
        self.lambda * disagreements as f64 + self.beta * unequal as f64
    }

    #[inline(always)]
    fn propose(&self, rng: &mut Rng) -> Change {
        let r: u64 = rng.random();
        let rows = (r >> 32) * self.height as u64;
        let row = rows >> 32;
        let col = ((r & 0xffff_ffff) * self.width as u64) >> 32;
        let i = self.padded(row as usize, col as usize) as u32;
        // The fraction left over from scaling the row is uniform and independent of the
        // row: it picks the move kind without drawing again.
        if (rows as u32) < REGION_SHARE {
            Change::Region(Region::random(i, self.width * self.height, rng))
        } else {
            Change::Flip(i)
        }
    }

    #[inline(always)]
    fn delta(&self, mv: &Change) -> f64 {
        match *mv {
            Change::Flip(i) => self.flip_delta(i as usize),
            Change::Region(region) => self.grow_region(region).unwrap_or(0.0),
        }
    }

    fn apply(&mut self, mv: &Change) {
        match *mv {
            Change::Flip(i) => self.x[i as usize] ^= 1,
            Change::Region(region) => {
                // Grown again rather than cached: the same state and move give the same
                // region, and accepted region moves are rare.
                if self.grow_region(region).is_some() {
                    for &p in self.scratch.get_mut().pixels() {
                        self.x[p as usize] ^= 1;
                    }
                }
            }
        }
    }

    /// "flip (x, y)", or "flip a region of N pixels from (x, y)"; places are pixels row by
    /// row in the image (the padded grid's frame taken off).
    fn sketch(&self, mv: &Change) -> Option<Sketch> {
        let unpadded = |p: u32| {
            let (row, col) = (p as usize / self.stride, p as usize % self.stride);
            ((row - 1) * self.width + col - 1) as u32
        };
        let at = |p: u32| {
            let i = unpadded(p) as usize;
            format!("({}, {})", i % self.width, i / self.width)
        };
        let (words, places) = match *mv {
            Change::Flip(p) => (format!("flip {}", at(p)), vec![unpadded(p)]),
            Change::Region(region) => {
                let pixels: Vec<u32> = match self.grow_region(region) {
                    Some(_) => self
                        .scratch
                        .borrow()
                        .pixels()
                        .iter()
                        .map(|&p| unpadded(p))
                        .collect(),
                    None => Vec::new(),
                };
                let words = format!(
                    "flip a region of {} pixels from {}",
                    pixels.len(),
                    at(region.seed)
                );
                (words, pixels)
            }
        };
        Some(Sketch {
            words,
            places,
            ..Sketch::default()
        })
    }

    /// A restart begins again from the noisy image: a random labelling is hopeless here.
    fn randomize(&mut self, _rng: &mut Rng) {
        self.x.clone_from(&self.y);
    }

    fn snapshot(&self) -> Bitmap {
        let mut out = Bitmap::white(self.width, self.height);
        self.snapshot_into(&mut out);
        out
    }

    fn snapshot_into(&self, into: &mut Bitmap) {
        into.copy_from_framed(&self.x, self.width, self.height, self.stride);
    }

    fn snapshot_cost(&self) -> usize {
        self.width * self.height
    }

    /// Weights in quarters (the ground truth's grid) give deltas in quarters; other
    /// weights simply miss the runner's table.
    fn delta_quantum(&self) -> f64 {
        0.25
    }
}

/// How many places two rows of labels differ in. Summed in 32 bits (a row has at most
/// 16,384 pixels), which the compiler vectorises; counting into a usize it did not.
fn count_unequal(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).map(|(x, y)| u32::from(x != y)).sum::<u32>() as usize
}
