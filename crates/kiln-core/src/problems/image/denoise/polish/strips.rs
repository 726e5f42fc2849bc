//! Strip descent, the final polish of a denoising run: the labelling of a strip a few
//! pixels wide and as long as the image, given everything outside it, is a chain whose links
//! are the strip's cross-sections, so its best labelling is found exactly by dynamic
//! programming. Sweeping such strips over rows and columns, at every offset, until none
//! improves, only ever lowers the energy.
//!
//! Why: what annealing leaves near the minimum is a handful of patches worth a unit or two
//! each (a stroke a pixel too long, an edge shifted along a few rows), frozen in at
//! temperatures where every single-flip path to the better labelling goes uphill by several
//! beta. Most of them are thin, so a strip covers them and takes the better labelling in one
//! step. Strokes and blobs the minimum drops whole, too wide for a strip, go by flipping
//! whole connected components between sweeps.

use std::time::Instant;

use super::super::Denoise;

/// Pixels across a strip: a cross-section has 2^WIDTH labellings and each link of the chain
/// compares all pairs of them.
const WIDTH: usize = 6;
const STATES: usize = 1 << WIDTH;
/// Where strips start, modulo WIDTH: strips at one offset are blind to patches that straddle
/// two of them; at two, every patch up to WIDTH / 2 across lies inside one strip.
const OFFSETS: [usize; 2] = [0, WIDTH / 2];
/// What growing a component and weighing its flip costs per pixel, at most (docs/limits.md):
/// a component larger than the time left pays for is not grown, since one may hold
/// millions of pixels.
const GROW_SECONDS_PER_PIXEL: f64 = 200e-9;

/// How a strip lies in the padded grid.
#[derive(Debug, Clone, Copy)]
struct Orientation {
    /// 0 for rows, 1 for columns.
    axis: usize,
    /// Padded index step along the strip and across it.
    along: isize,
    across: isize,
    /// Pixels along a strip, and strips' pixels across the image.
    length: usize,
    breadth: usize,
}

/// Which strips may still improve: a strip needs solving again only when a pixel in it or
/// next to it changed since it was last solved.
struct Clock {
    /// Counts the changes made.
    now: u64,
    /// When a pixel in each row and in each column last changed.
    changed: [Vec<u64>; 2],
    /// When each strip was last solved, per axis and offset.
    done: Vec<Vec<u64>>,
}

/// Buffers of the dynamic programme, allocated once per descent.
struct Chain {
    /// Best cost of the strip up to each position, for each cross-section labelling.
    best: Vec<[f64; STATES]>,
    /// Cost of each cross-section labelling at each position from the data and the pixels
    /// outside the strip.
    unary: Vec<[f64; STATES]>,
    /// The current labelling's cross-sections.
    current: Vec<u8>,
    /// Working space of [`Links::relax`].
    spare: [[f64; 2 * STATES]; 2],
}

/// Costs inside a strip of a given width, the same at every position.
struct Links {
    width: usize,
    beta: f64,
    diagonals: bool,
    /// Pairs inside one cross-section.
    inner: [f64; STATES],
    /// Pairs between consecutive cross-sections, `link[previous][next]`.
    link: [[f64; STATES]; STATES],
}

impl Links {
    fn new(width: usize, beta: f64, diagonals: bool) -> Self {
        let within = (1u32 << (width - 1)) - 1;
        let mut inner = [0.0; STATES];
        let mut link = [[0.0; STATES]; STATES];
        for s in 0..1u32 << width {
            inner[s as usize] = beta * f64::from(((s ^ (s >> 1)) & within).count_ones());
            for t in 0..1u32 << width {
                let mut unequal = (s ^ t).count_ones();
                if diagonals {
                    unequal += ((s ^ (t >> 1)) & within).count_ones()
                        + (((s >> 1) ^ t) & within).count_ones();
                }
                link[s as usize][t as usize] = beta * f64::from(unequal);
            }
        }
        Links {
            width,
            beta,
            diagonals,
            inner,
            link,
        }
    }

    /// `next[t]` = the least `previous[s] + link[s][t]` over `s`, for every `t`, in
    /// O(width 2^width) rather than the table's O(4^width): the pairs between two
    /// cross-sections are eliminated one line at a time.
    fn relax(
        &self,
        previous: &[f64; STATES],
        next: &mut [f64; STATES],
        spare: &mut [[f64; 2 * STATES]; 2],
    ) {
        let (width, beta) = (self.width, self.beta);
        let states = 1 << width;
        if !self.diagonals {
            // Only pairs straight across: a distance transform over the hypercube of
            // labellings, one dimension at a time.
            next[..states].copy_from_slice(&previous[..states]);
            for line in 0..width {
                let bit = 1 << line;
                for s in (0..states).filter(|s| s & bit == 0) {
                    let (a, b) = (next[s], next[s | bit]);
                    next[s] = a.min(b + beta);
                    next[s | bit] = b.min(a + beta);
                }
            }
            return;
        }
        // With diagonals, line i of the previous cross-section pairs with lines i - 1, i
        // and i + 1 of the next. Eliminating the previous labels line by line, the
        // table's index holds the next labels of lines up to i, the previous labels of
        // the lines after i, and (bit `width`) the next label of line i + 1.
        let top = 1 << width;
        let [table, out] = spare;
        let (mut table, mut out) = (table, out);
        for (index, cost) in table.iter_mut().enumerate().take(2 * states) {
            *cost = previous[index & (states - 1)];
        }
        for line in 0..width {
            let bit = 1 << line;
            // The pairs of the previous label of this line with next labels: its own line,
            // and the lines before and after it where there are such lines.
            let before_mask = if line > 0 { bit >> 1 } else { 0 };
            let after_mask = if line + 1 < width { top } else { 0 };
            let pairs = 1 + usize::from(line > 0) + usize::from(line + 1 < width);
            for (index, cost) in out.iter_mut().enumerate().take(2 * states) {
                let here = index >> line & 1;
                // Next labels of 1 among the neighbours of the previous label.
                let ones = here
                    + usize::from(index & before_mask != 0)
                    + usize::from(index & after_mask != 0);
                // The input held this line's next label in the top bit.
                let base = (index & !bit & !top) | (here << width);
                let zero = table[base] + beta * ones as f64;
                let one = table[base | bit] + beta * (pairs - ones) as f64;
                *cost = zero.min(one);
            }
            std::mem::swap(&mut table, &mut out);
        }
        next[..states].copy_from_slice(&table[..states]);
    }
}

impl Denoise {
    /// Sweeps strips over rows and columns until a whole sweep improves nothing or
    /// `deadline` passes. Returns the energy change (never positive).
    pub fn strip_descent(&mut self, deadline: Option<Instant>) -> f64 {
        let s = self.stride as isize;
        let rows = Orientation {
            axis: 0,
            along: 1,
            across: s,
            length: self.width,
            breadth: self.height,
        };
        let columns = Orientation {
            axis: 1,
            along: s,
            across: 1,
            length: self.height,
            breadth: self.width,
        };
        let longest = self.width.max(self.height);
        let mut chain = Chain {
            best: vec![[0.0; STATES]; longest],
            unary: vec![[0.0; STATES]; longest],
            current: vec![0; longest],
            spare: [[0.0; 2 * STATES]; 2],
        };
        let links: Vec<Links> = (1..=WIDTH)
            .map(|w| Links::new(w, self.beta, self.diagonals))
            .collect();
        let mut clock = Clock {
            now: 1,
            changed: [vec![1; self.height], vec![1; self.width]],
            done: vec![Vec::new(); 2 * OFFSETS.len()],
        };
        let mut gain = 0.0;
        let mut seen = vec![false; self.x.len()];
        loop {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return gain;
            }
            let (flipped, finished) = self.flip_components(&mut seen, &mut clock, deadline);
            gain += flipped;
            if !finished {
                return gain;
            }
            let mut solved = 0;
            for orientation in [rows, columns] {
                for (k, &offset) in OFFSETS.iter().enumerate() {
                    let done = &mut clock.done[orientation.axis * OFFSETS.len() + k];
                    done.resize(orientation.breadth / WIDTH + 2, 0);
                    // Strips [0, offset), [offset, offset + WIDTH), ...
                    let mut start = 0;
                    let mut end = if offset == 0 { WIDTH } else { offset };
                    let mut strip = 0;
                    while start < orientation.breadth {
                        let end_here = end.min(orientation.breadth);
                        let touching =
                            start.saturating_sub(1)..(end_here + 1).min(orientation.breadth);
                        let changed = clock.changed[orientation.axis][touching].iter().max();
                        if changed.is_some_and(|&c| {
                            c > clock.done[orientation.axis * OFFSETS.len() + k][strip]
                        }) {
                            if deadline.is_some_and(|d| Instant::now() >= d) {
                                return gain;
                            }
                            let links = &links[end_here - start - 1];
                            gain += self.improve_strip(
                                orientation,
                                start,
                                links,
                                &mut chain,
                                &mut clock,
                            );
                            clock.done[orientation.axis * OFFSETS.len() + k][strip] = clock.now;
                            solved += 1;
                        }
                        start = end_here;
                        end = start + WIDTH;
                        strip += 1;
                    }
                }
            }
            if solved == 0 && flipped == 0.0 {
                return gain;
            }
        }
    }

    /// Flips every connected component of the labelling whose flip lowers the energy: a
    /// stroke or blob the minimum drops whole, too wide for a strip, and also the
    /// background itself (on an image half black, the minimum can be the inverse of the
    /// labelling annealing settled on: fine stripes under a strong coupling end all black
    /// or all white, and which wins is a difference of a few data terms over the whole
    /// image). Each component is grown once, so a pass is linear. Returns the energy
    /// change, and whether the pass finished before `deadline`.
    fn flip_components(
        &mut self,
        seen: &mut [bool],
        clock: &mut Clock,
        deadline: Option<Instant>,
    ) -> (f64, bool) {
        seen.fill(false);
        let mut gain = 0.0;
        let all = self.pixels() as u32;
        let mut cap = all;
        for seed in 0..self.x.len() {
            // Looked at on every row, whether or not a component starts there (most rows
            // of a noisy 4096x4096 image start inside one already grown).
            if seed % self.stride == 1
                && let Some(deadline) = deadline
            {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return (gain, false);
                }
                cap =
                    (left.as_secs_f64() / GROW_SECONDS_PER_PIXEL).clamp(1.0, f64::from(all)) as u32;
            }
            if seen[seed] || self.x[seed] > 1 {
                continue;
            }
            let mut scratch = self.scratch.borrow_mut();
            // A component the time left cannot pay for ends the pass (grown again from
            // its other pixels, it would cost as much each time).
            if !scratch.grow(seed as u32, cap, &self.x, self.neighbour_offsets()) {
                return (gain, false);
            }
            for &p in scratch.pixels() {
                seen[p as usize] = true;
            }
            let delta = self.region_delta(&scratch);
            if delta < 0.0 {
                clock.now += 1;
                for &p in scratch.pixels() {
                    let p = p as usize;
                    self.x[p] ^= 1;
                    clock.changed[0][p / self.stride - 1] = clock.now;
                    clock.changed[1][p % self.stride - 1] = clock.now;
                }
                gain += delta;
            }
        }
        (gain, true)
    }

    /// Relabels the strip of `links.width` lines from line `first` across `orientation`
    /// to its best labelling given the rest, if that is strictly better. Returns the energy
    /// change.
    fn improve_strip(
        &mut self,
        orientation: Orientation,
        first: usize,
        links: &Links,
        chain: &mut Chain,
        clock: &mut Clock,
    ) -> f64 {
        let Orientation {
            along,
            across,
            length,
            ..
        } = orientation;
        let width = links.width;
        let states: usize = 1 << width;
        let origin = self.padded(0, 0) as isize + first as isize * across;
        // Neighbours outside the strip: the line before it and the line after it.
        let outside: &[isize] = if self.diagonals { &[0, -1, 1] } else { &[0] };
        for position in 0..length {
            let base = origin + position as isize * along;
            let mut zero = 0.0;
            let mut flip = [0.0; WIDTH];
            let mut label = 0u8;
            for (line, flip) in flip.iter_mut().enumerate().take(width) {
                let i = (base + line as isize * across) as usize;
                label |= self.x[i] << line;
                // Cost of label 0 and of label 1 for this pixel.
                let mut costs = [0.0, 0.0];
                costs[usize::from(self.y[i] ^ 1)] += self.lambda;
                let sides: &[isize] = match (line == 0, line + 1 == width) {
                    (true, true) => &[-1, 1],
                    (true, false) => &[-1],
                    (false, true) => &[1],
                    (false, false) => &[],
                };
                for &side in sides {
                    for &o in outside {
                        // The frame's label is neither 0 nor 1: it costs nothing.
                        match self.x[(i as isize + side * across + o * along) as usize] {
                            0 => costs[1] += self.beta,
                            1 => costs[0] += self.beta,
                            _ => {}
                        }
                    }
                }
                zero += costs[0];
                *flip = costs[1] - costs[0];
            }
            let unary = &mut chain.unary[position];
            unary[0] = zero;
            for s in 1..states {
                let low = s.trailing_zeros() as usize;
                unary[s] = unary[s & (s - 1)] + flip[low];
            }
            for (u, inner) in unary.iter_mut().zip(&links.inner).take(states) {
                *u += inner;
            }
            chain.current[position] = label;
        }

        // Forward: the best cost of each cross-section labelling at each position.
        chain.best[0] = chain.unary[0];
        let mut now = chain.unary[0][usize::from(chain.current[0])];
        for position in 1..length {
            let (done, rest) = chain.best.split_at_mut(position);
            let previous = &done[position - 1];
            let next = &mut rest[0];
            links.relax(previous, next, &mut chain.spare);
            for (n, u) in next.iter_mut().zip(&chain.unary[position]).take(states) {
                *n += u;
            }
            let (s, t) = (chain.current[position - 1], chain.current[position]);
            now +=
                links.link[usize::from(s)][usize::from(t)] + chain.unary[position][usize::from(t)];
        }
        let last = &chain.best[length - 1][..states];
        let (mut state, optimum) =
            last.iter()
                .enumerate()
                .fold(
                    (0, f64::INFINITY),
                    |(bs, bv), (s, &v)| {
                        if v < bv { (s, v) } else { (bs, bv) }
                    },
                );
        // Costs are sums of a few weights: a real gain is far above rounding.
        if optimum >= now - 1e-9 * now.abs().max(1.0) {
            return 0.0;
        }
        // Backward: the labelling the optimum came from.
        clock.now += 1;
        for position in (0..length).rev() {
            let base = origin + position as isize * along;
            let changed = state ^ usize::from(chain.current[position]);
            if changed != 0 {
                clock.changed[1 - orientation.axis][position] = clock.now;
                for line in 0..width {
                    if changed >> line & 1 == 1 {
                        clock.changed[orientation.axis][first + line] = clock.now;
                        let i = (base + line as isize * across) as usize;
                        self.x[i] ^= 1;
                    }
                }
            }
            if position > 0 {
                let previous = &chain.best[position - 1];
                let cost = |s: usize| previous[s] + links.link[s][state];
                state = (0..states)
                    .min_by(|&a, &b| cost(a).total_cmp(&cost(b)))
                    .unwrap_or(0);
            }
        }
        optimum - now
    }
}
