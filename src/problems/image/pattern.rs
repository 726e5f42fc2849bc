//! Pattern formation: black pixels interact through a kernel and swap places with white
//! ones, so the number of black pixels never changes.
//!
//! E = sum over unordered pairs {p, q} of black pixels with q - p in the kernel of w(q - p):
//! each pair counts once, half of a "sum over black pixels of their neighbours" energy.
//! A field F(p) = sum_d w(d) x(p + d) is kept for every pixel, so a swap's delta is O(1).

use rand::RngExt;
use rand::seq::SliceRandom;

use super::bitmap::Bitmap;
use super::kernel::Kernel;
use crate::anneal::{Problem, Rng};

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Edges {
    /// The image is a torus: offsets leaving one side enter on the other.
    Wrap,
    /// Pixels outside the image do not exist.
    Free,
}

/// Moves black pixel `black` to the white pixel `white` (both are pixel indices).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Swap {
    pub black: u32,
    pub white: u32,
}

#[derive(Debug, Clone)]
pub struct Pattern {
    width: usize,
    height: usize,
    edges: Edges,
    kernel: Kernel,
    /// Kernel taps as index offsets, valid for pixels at least `radius` from every side.
    linear: Vec<(isize, f64)>,
    /// Beyond this index distance (mod the pixel count under wrap) no tap can reach.
    reach: usize,
    bits: Vec<u8>,
    field: Vec<f64>,
    blacks: Vec<u32>,
    whites: Vec<u32>,
    /// Position of each pixel in `blacks` or `whites`, whichever holds it.
    slot: Vec<u32>,
}

impl Pattern {
    /// Errors (plain messages) when no swap is possible or, under wrap, when the kernel is
    /// wider than the image, so that two offsets would land on the same pixel.
    pub fn new(image: Bitmap, kernel: Kernel, edges: Edges) -> Result<Pattern, String> {
        let span = 2 * kernel.radius + 1;
        if edges == Edges::Wrap && (image.width < span || image.height < span) {
            return Err(format!(
                "kernel {} spans {span}x{span} pixels, more than the {}x{} image: with wrapped \
                 edges its offsets would alias (use a larger image or --edges free)",
                kernel.name, image.width, image.height
            ));
        }
        let black = image.black_pixels();
        if black == 0 || black == image.len() {
            return Err(format!(
                "the image is all {}: no black pixel can swap with a white one",
                if black == 0 { "white" } else { "black" }
            ));
        }
        let w = image.width as isize;
        let linear = kernel
            .taps
            .iter()
            .map(|t| (t.dy as isize * w + t.dx as isize, t.weight))
            .collect();
        let reach = (kernel.radius + 1) * image.width + kernel.radius;
        let n = image.len();
        let mut pattern = Pattern {
            width: image.width,
            height: image.height,
            edges,
            kernel,
            linear,
            reach,
            bits: image.bits,
            field: vec![0.0; n],
            blacks: Vec::with_capacity(black),
            whites: Vec::with_capacity(n - black),
            slot: vec![0; n],
        };
        pattern.rebuild();
        Ok(pattern)
    }

    pub fn kernel(&self) -> &Kernel {
        &self.kernel
    }

    pub fn edges(&self) -> Edges {
        self.edges
    }

    pub fn black_pixels(&self) -> usize {
        self.blacks.len()
    }

    /// Recomputes lists and field from `bits`.
    fn rebuild(&mut self) {
        self.blacks.clear();
        self.whites.clear();
        self.field.fill(0.0);
        for p in 0..self.bits.len() {
            let list = if self.bits[p] != 0 {
                &mut self.blacks
            } else {
                &mut self.whites
            };
            self.slot[p] = list.len() as u32;
            list.push(p as u32);
        }
        for i in 0..self.blacks.len() {
            self.add_to_field(self.blacks[i] as usize, 1.0);
        }
    }

    /// Calls `f(q, w)` for every pixel q = p + d with d a kernel tap, under the edge rule.
    #[inline(always)]
    fn for_each_neighbour(&self, p: usize, mut f: impl FnMut(usize, f64)) {
        let r = self.kernel.radius;
        let (y, x) = (p / self.width, p % self.width);
        if y >= r && y + r < self.height && x >= r && x + r < self.width {
            for &(off, w) in &self.linear {
                f(p.wrapping_add_signed(off), w);
            }
            return;
        }
        let (h, wd) = (self.height as isize, self.width as isize);
        for t in &self.kernel.taps {
            let (mut ny, mut nx) = (y as isize + t.dy as isize, x as isize + t.dx as isize);
            match self.edges {
                Edges::Wrap => {
                    ny = ny.rem_euclid(h);
                    nx = nx.rem_euclid(wd);
                }
                Edges::Free => {
                    if ny < 0 || ny >= h || nx < 0 || nx >= wd {
                        continue;
                    }
                }
            }
            f(ny as usize * self.width + nx as usize, t.weight);
        }
    }

    fn add_to_field(&mut self, p: usize, sign: f64) {
        let mut field = std::mem::take(&mut self.field);
        self.for_each_neighbour(p, |q, w| field[q] += sign * w);
        self.field = field;
    }

    /// w(b - a) under the edge rule: the interaction between two given pixels.
    #[inline(always)]
    fn pair_weight(&self, a: usize, b: usize) -> f64 {
        let n = self.bits.len();
        let gap = a.abs_diff(b);
        let far = match self.edges {
            Edges::Free => gap > self.reach,
            Edges::Wrap => gap > self.reach && gap < n - self.reach,
        };
        if far {
            return 0.0;
        }
        let (w, h) = (self.width as i32, self.height as i32);
        let mut dy = (b / self.width) as i32 - (a / self.width) as i32;
        let mut dx = (b % self.width) as i32 - (a % self.width) as i32;
        if self.edges == Edges::Wrap {
            let r = self.kernel.radius as i32;
            // At most one representative lies within the kernel, as the image is wider.
            if dy > r {
                dy -= h;
            } else if dy < -r {
                dy += h;
            }
            if dx > r {
                dx -= w;
            } else if dx < -r {
                dx += w;
            }
        }
        self.kernel.weight(dy, dx)
    }
}

impl Problem for Pattern {
    type Move = Swap;
    type Snapshot = Bitmap;

    fn energy(&self) -> f64 {
        // Independent of the field: each unordered pair once, via its positive offset.
        let mut e = 0.0;
        for p in self.blacks.iter().map(|&p| p as usize) {
            let (y, x) = ((p / self.width) as isize, (p % self.width) as isize);
            let (h, w) = (self.height as isize, self.width as isize);
            for t in self.kernel.taps.iter().filter(|t| (t.dy, t.dx) > (0, 0)) {
                let (mut ny, mut nx) = (y + t.dy as isize, x + t.dx as isize);
                if self.edges == Edges::Wrap {
                    // Offsets are narrower than the image (checked when it is built), so
                    // one wrap suffices: cheaper than a division on 16M pixels.
                    ny = wrap_once(ny, h);
                    nx = wrap_once(nx, w);
                } else if ny < 0 || ny >= h || nx < 0 || nx >= w {
                    continue;
                }
                if self.bits[(ny * w + nx) as usize] != 0 {
                    e += t.weight;
                }
            }
        }
        e
    }

    #[inline(always)]
    fn propose(&self, rng: &mut Rng) -> Swap {
        // One 64-bit draw: the high half picks the black pixel, the low half the white one.
        let r: u64 = rng.random();
        let bi = ((r >> 32) * self.blacks.len() as u64) >> 32;
        let wi = ((r & 0xffff_ffff) * self.whites.len() as u64) >> 32;
        Swap {
            black: self.blacks[bi as usize],
            white: self.whites[wi as usize],
        }
    }

    #[inline(always)]
    fn delta(&self, mv: &Swap) -> f64 {
        let (b, a) = (mv.black as usize, mv.white as usize);
        // Removing b loses F(b); adding a gains F(a) minus b's own share in it.
        self.field[a] - self.field[b] - self.pair_weight(b, a)
    }

    fn apply(&mut self, mv: &Swap) {
        let (b, a) = (mv.black as usize, mv.white as usize);
        self.bits[b] = 0;
        self.bits[a] = 1;
        let (sb, sa) = (self.slot[b], self.slot[a]);
        self.blacks[sb as usize] = mv.white;
        self.whites[sa as usize] = mv.black;
        self.slot[a] = sb;
        self.slot[b] = sa;
        self.add_to_field(b, -1.0);
        self.add_to_field(a, 1.0);
    }

    /// A fresh random image with the same number of black pixels.
    fn randomize(&mut self, rng: &mut Rng) {
        self.bits.shuffle(rng);
        self.rebuild();
    }

    fn snapshot(&self) -> Bitmap {
        Bitmap {
            width: self.width,
            height: self.height,
            bits: self.bits.clone(),
        }
    }

    fn snapshot_into(&self, into: &mut Bitmap) {
        into.width = self.width;
        into.height = self.height;
        into.bits.clone_from(&self.bits);
    }

    fn snapshot_cost(&self) -> usize {
        self.bits.len()
    }
}

/// `v` brought into 0..n, for a `v` at most one `n` outside it.
#[inline(always)]
fn wrap_once(v: isize, n: isize) -> isize {
    if v < 0 {
        v + n
    } else if v >= n {
        v - n
    } else {
        v
    }
}
