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
use crate::anneal::Problem;
use crate::search::{Rng, Sketch};

/// What the kernel sees beyond the image's sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Edges {
    /// The image is a torus: offsets leaving one side enter on the other.
    Wrap,
    /// Pixels outside the image do not exist.
    Free,
}

crate::named::named!(Edges { Wrap => "wrap", Free => "free" });

/// Moves black pixel `black` to the white pixel `white` (both are pixel indices).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Swap {
    /// The black pixel that turns white.
    pub black: u32,
    /// The white pixel that turns black.
    pub white: u32,
}

/// The pattern-formation state: the image, the kernel, and the field and pixel lists that
/// make a swap's delta cheap.
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

    /// The kernel the pixels interact through.
    pub fn kernel(&self) -> &Kernel {
        &self.kernel
    }

    /// What the kernel sees beyond the sides.
    pub fn edges(&self) -> Edges {
        self.edges
    }

    /// How many pixels are black; swaps never change it.
    pub fn black_pixels(&self) -> usize {
        self.blacks.len()
    }

    /// Recomputes lists and field from `bits`.
    fn rebuild(&mut self) {
        let black = self.bits.iter().map(|&b| usize::from(b)).sum::<usize>();
        self.blacks.resize(black, 0);
        self.whites.resize(self.bits.len() - black, 0);
        // Each pixel goes to the end of the list its colour indexes, without a branch
        // (which mispredicts on random pixels).
        let lists = [&mut self.whites[..], &mut self.blacks[..]];
        let mut lengths = [0u32; 2];
        for (p, (&b, slot)) in self.bits.iter().zip(&mut self.slot).enumerate() {
            let b = usize::from(b);
            lists[b][lengths[b] as usize] = p as u32;
            *slot = lengths[b];
            lengths[b] += 1;
        }
        self.build_field();
    }

    /// F(p) = sum_d w(d) x(p + d), row by row: the taps of each weight count the black
    /// pixels they reach into a row of small integers (a loop the compiler vectorises),
    /// weighed once per weight. Adding each black pixel's taps one by one took 0.2 s at
    /// 4096x4096, and setup counts against the time limit.
    fn build_field(&mut self) {
        let (w, h) = (self.width, self.height);
        let mut weights: Vec<(f64, Vec<(isize, isize)>)> = Vec::new();
        for t in &self.kernel.taps {
            let offset = (t.dy as isize, t.dx as isize);
            match weights.iter_mut().find(|(weight, _)| *weight == t.weight) {
                Some((_, taps)) => taps.push(offset),
                None => weights.push((t.weight, vec![offset])),
            }
        }
        // At most 65 x 65 taps share a weight: the counts fit 16 bits.
        let mut counts = vec![0u16; w];
        for (y, row) in self.field.chunks_exact_mut(w).enumerate() {
            row.fill(0.0);
            for (weight, taps) in &weights {
                counts.fill(0);
                for &(dy, dx) in taps {
                    let ny = y as isize + dy;
                    let ny = match self.edges {
                        Edges::Wrap => ny.rem_euclid(h as isize),
                        Edges::Free if (0..h as isize).contains(&ny) => ny,
                        Edges::Free => continue,
                    } as usize;
                    let wrap = self.edges == Edges::Wrap;
                    add_shifted(&mut counts, &self.bits[ny * w..][..w], dx, wrap);
                }
                for (f, &c) in row.iter_mut().zip(&counts) {
                    *f += weight * f64::from(c);
                }
            }
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

    /// Half the field summed over the black pixels: each pair {p, q} is in F(p) and in F(q).
    /// O(black pixels), where summing pairs through the kernel took 0.4 s at 4096x4096
    /// (`tests/image_delta.rs` checks it against that sum).
    fn energy(&self) -> f64 {
        0.5 * self
            .blacks
            .iter()
            .map(|&p| self.field[p as usize])
            .sum::<f64>()
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

    /// "(x, y) black -> white, (x, y) white -> black".
    fn sketch(&self, mv: &Swap) -> Option<Sketch> {
        let at = |p: u32| format!("({}, {})", p as usize % self.width, p as usize / self.width);
        Some(Sketch {
            words: format!("swap black {} <-> white {}", at(mv.black), at(mv.white)),
            places: vec![mv.black, mv.white],
            ..Sketch::default()
        })
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

/// `counts[x] += row[x + dx]` for every x: what falls outside the row wraps around it
/// (`wrap`, where |dx| is less than the row's length) or is left out.
fn add_shifted(counts: &mut [u16], row: &[u8], dx: isize, wrap: bool) {
    let w = row.len();
    let d = dx.unsigned_abs().min(w);
    let add = |counts: &mut [u16], row: &[u8]| {
        for (c, &b) in counts.iter_mut().zip(row) {
            *c += u16::from(b);
        }
    };
    if dx >= 0 {
        add(&mut counts[..w - d], &row[d..]);
        if wrap {
            add(&mut counts[w - d..], &row[..d]);
        }
    } else {
        add(&mut counts[d..], &row[..w - d]);
        if wrap {
            add(&mut counts[..d], &row[w - d..]);
        }
    }
}
