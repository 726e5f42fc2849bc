//! Region moves for denoising. Single flips cannot remove a stroke or fill a gap at low
//! temperature: every path goes uphill by many times beta. A region move changes a whole
//! connected patch at once, grown breadth-first from a seed pixel up to a size cap (below
//! the cap it is the seed's whole component; above it, a compact piece of it).
//!
//! Two kinds, because of what each can undo:
//! - [`RegionKind::Reference`] grows over a fixed reference labelling (the ICM result) and
//!   flips the pixels of that patch that share the seed's current label. The patch does
//!   not depend on the state, so the move that removes a stroke can also put it back; this
//!   keeps annealing at high temperature from losing structure for good.
//! - [`RegionKind::Component`] takes the seed's whole current component (nothing if it is
//!   larger than the cap) and flips it only if that does not raise the energy: it removes
//!   what is left of a blob the reference drew larger or smaller than the state holds.
//!
//! The move stays small and `Copy`; the region is grown again from it where it is needed,
//! into a [`Scratch`] allocated once with the problem.

use rand::RngExt;

use crate::search::Rng;

/// Largest region tried: larger than any stroke or blob worth removing at once, small
/// enough that region moves cost little next to single flips.
pub const MAX_CAP: usize = 4096;

/// How a region grows and what it flips (see the module's notes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegionKind {
    /// Grown over the fixed reference labelling; flips the pixels that share the seed's
    /// current label.
    Reference,
    /// The seed's whole current component (nothing if it is larger than the cap), flipped
    /// only if that does not raise the energy.
    Component,
}

/// A region grown from `seed` (a padded index), at most `cap` pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    /// The padded index of the pixel the region grows from.
    pub seed: u32,
    /// Most pixels the region may hold.
    pub cap: u32,
    /// How it grows and what it flips.
    pub kind: RegionKind,
}

impl Region {
    /// A region of either kind with a log-uniform cap between 1 and `pixels` (at most
    /// [`MAX_CAP`]): specks, strokes and blobs are tried about equally often.
    pub fn random(seed: u32, pixels: usize, rng: &mut Rng) -> Self {
        let most = pixels.min(MAX_CAP) as f64;
        let cap = most.powf(rng.random::<f64>()).round().max(1.0) as u32;
        let kind = if rng.random::<bool>() {
            RegionKind::Reference
        } else {
            RegionKind::Component
        };
        Region { seed, cap, kind }
    }
}

/// Buffers for growing regions without allocating.
#[derive(Debug)]
pub struct Scratch {
    /// The region, in the order it was grown (also the breadth-first queue).
    pixels: Vec<u32>,
    /// `mark[i] == stamp` when padded index `i` is in the current region.
    mark: Vec<u32>,
    stamp: u32,
}

/// A clone gets fresh buffers: nothing in them outlives a move, and copying the marks of a
/// 4096x4096 grid (64 MB, twice per denoising run) took 0.05 s a time.
impl Clone for Scratch {
    fn clone(&self) -> Self {
        Scratch::new(self.mark.len())
    }
}

impl Scratch {
    /// Buffers for a padded grid of `len` cells.
    pub fn new(len: usize) -> Self {
        Scratch {
            pixels: Vec::with_capacity(len),
            mark: vec![0; len],
            stamp: 0,
        }
    }

    /// The padded indices of the last region grown, in the order they were reached.
    pub fn pixels(&self) -> &[u32] {
        &self.pixels
    }

    /// Whether padded index `i` is in the last region grown.
    pub fn contains(&self, i: usize) -> bool {
        self.mark[i] == self.stamp
    }

    fn next_stamp(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // After 2^32 regions old marks could alias the new stamp.
            self.mark.fill(0);
            self.stamp = 1;
        }
    }

    /// Grows from `seed` over the cells of `labels` that share its label, stepping by
    /// `offsets`, until `cap` pixels. Returns whether the whole component fitted.
    /// Deterministic: the same labels, seed and cap give the same pixels. The frame
    /// around the padded grid has a third label, so it is never entered.
    pub fn grow(&mut self, seed: u32, cap: u32, labels: &[u8], offsets: &[isize]) -> bool {
        self.next_stamp();
        let v = labels[seed as usize];
        let cap = cap as usize;
        self.pixels.clear();
        self.pixels.push(seed);
        self.mark[seed as usize] = self.stamp;
        let mut next = 0;
        while next < self.pixels.len() {
            let i = self.pixels[next] as usize;
            next += 1;
            for &o in offsets {
                let j = i.wrapping_add_signed(o);
                if labels[j] == v && self.mark[j] != self.stamp {
                    if self.pixels.len() == cap {
                        return false;
                    }
                    self.mark[j] = self.stamp;
                    self.pixels.push(j as u32);
                }
            }
        }
        true
    }

    /// Keeps the pixels for which `keep` holds.
    pub fn retain(&mut self, keep: impl Fn(usize) -> bool) {
        self.pixels.retain(|&p| keep(p as usize));
        self.next_stamp();
        for &p in &self.pixels {
            self.mark[p as usize] = self.stamp;
        }
    }
}
