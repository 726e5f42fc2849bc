//! A binary image: one byte per pixel, 1 = black (as in PBM), rows top to bottom.

use rand::RngExt;

use crate::input::InputError;
use crate::search::Rng;

/// Larger images are refused as input errors rather than exhausting memory: at the most
/// pixels (4096x4096), pattern formation takes about 0.32 GB, denoising 0.25 GB, or 2.8 GB
/// with the full multi-scale start of a run without a time limit (at 64M pixels pattern
/// formation took 2.4 GB).
pub(crate) const MAX_SIDE: usize = 16_384;
pub(crate) const MAX_PIXELS: usize = 16 << 20;

/// A black-and-white image, as read from a PBM or PNG file and written back to one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bitmap {
    /// Columns of pixels.
    pub width: usize,
    /// Rows of pixels.
    pub height: usize,
    /// `width * height` values, each 0 (white) or 1 (black), row-major.
    pub bits: Vec<u8>,
}

impl Bitmap {
    /// Copies a `width` x `height` image stored row by row inside a one-pixel frame with
    /// rows `stride` apart (the layout the denoisers use so neighbours need no bounds
    /// checks), reusing this bitmap's buffer.
    pub fn copy_from_framed(&mut self, framed: &[u8], width: usize, height: usize, stride: usize) {
        self.width = width;
        self.height = height;
        self.bits.clear();
        for row in 0..height {
            let start = (row + 1) * stride + 1;
            self.bits.extend_from_slice(&framed[start..start + width]);
        }
    }

    /// An all-white image; the size must already have passed [`check_size`].
    pub fn white(width: usize, height: usize) -> Self {
        Bitmap {
            width,
            height,
            bits: vec![0; width * height],
        }
    }

    /// Number of pixels, `width * height`.
    pub fn len(&self) -> usize {
        self.bits.len()
    }

    /// Whether the image has no pixels at all.
    pub fn is_empty(&self) -> bool {
        self.bits.is_empty()
    }

    /// Whether the pixel in column `x` of row `y` (0-based, from the top left) is black.
    pub fn get(&self, x: usize, y: usize) -> bool {
        self.bits[y * self.width + x] != 0
    }

    /// How many pixels are black.
    pub fn black_pixels(&self) -> usize {
        self.bits.iter().map(|&b| b as usize).sum()
    }

    /// Number of pixels that differ; `None` when the sizes differ.
    pub fn pixel_error(&self, other: &Bitmap) -> Option<usize> {
        if (self.width, self.height) != (other.width, other.height) {
            return None;
        }
        Some(
            self.bits
                .iter()
                .zip(&other.bits)
                .filter(|(a, b)| a != b)
                .count(),
        )
    }
}

/// Refuses empty and absurdly large images before anything is allocated.
pub fn check_size(source: &str, width: usize, height: usize) -> Result<(), InputError> {
    if width == 0 || height == 0 {
        return Err(InputError::new(
            source,
            format!("image size {width}x{height} is empty"),
        ));
    }
    if width > MAX_SIDE || height > MAX_SIDE || width * height > MAX_PIXELS {
        return Err(InputError::new(
            source,
            format!(
                "image size {width}x{height} is too large (at most {MAX_SIDE} per side and {} pixels)",
                MAX_PIXELS
            ),
        ));
    }
    Ok(())
}

impl Bitmap {
    /// A random image with exactly round(density * pixels) black pixels, all such images
    /// equally likely. Each pixel is black with probability `density`, then random pixels
    /// of the colour in excess are flipped until the count is right (taking a random
    /// pixel from, or adding one to, a uniformly drawn set leaves it uniform). One draw
    /// per two pixels: shuffling took 0.16 s at 4096x4096, and setup counts against the
    /// time limit.
    pub fn random(width: usize, height: usize, density: f64, rng: &mut Rng) -> Self {
        let mut image = Bitmap::white(width, height);
        let n = image.len();
        let black = (density * n as f64).round() as usize;
        let threshold = (density * 2f64.powi(32)) as u64;
        for pair in image.bits.chunks_mut(2) {
            let r: u64 = rng.random();
            for (k, pixel) in pair.iter_mut().enumerate() {
                *pixel = u8::from((r >> (32 * k)) & 0xffff_ffff < threshold);
            }
        }
        let mut count = image.black_pixels();
        while count != black {
            let excess = u8::from(count > black);
            let i = rng.random_range(0..n);
            if image.bits[i] == excess {
                image.bits[i] ^= 1;
                count = if excess == 1 { count - 1 } else { count + 1 };
            }
        }
        image
    }

    /// This image scaled (nearest neighbour, aspect kept) to the largest size that fits in
    /// `width` x `height`, centred on white.
    pub fn fitted(&self, width: usize, height: usize) -> Bitmap {
        let scale = (width as f64 / self.width as f64).min(height as f64 / self.height as f64);
        let w = ((self.width as f64 * scale) as usize).clamp(1, width);
        let h = ((self.height as f64 * scale) as usize).clamp(1, height);
        let (left, top) = ((width - w) / 2, (height - h) / 2);
        let mut out = Bitmap::white(width, height);
        for y in 0..h {
            let from = &self.bits[y * self.height / h * self.width..][..self.width];
            let to = &mut out.bits[(top + y) * width + left..][..w];
            for (x, pixel) in to.iter_mut().enumerate() {
                *pixel = from[x * self.width / w];
            }
        }
        out
    }

    /// Salt-and-pepper noise for binary images: each pixel inverted with probability `p`.
    pub fn add_noise(&mut self, p: f64, rng: &mut Rng) {
        for b in &mut self.bits {
            if rng.random::<f64>() < p {
                *b ^= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn from_rows(rows: &[&str]) -> Bitmap {
        Bitmap {
            width: rows[0].len(),
            height: rows.len(),
            bits: rows
                .iter()
                .flat_map(|r| r.bytes().map(|b| u8::from(b == b'#')))
                .collect(),
        }
    }

    #[test]
    fn random_images_have_exactly_the_asked_black_count() {
        let mut rng = Rng::seed_from_u64(5);
        for (w, h) in [(1, 1), (1, 7), (5, 5), (100, 37)] {
            for density in [0.0, 0.001, 0.3, 0.5, 0.999, 1.0] {
                let image = Bitmap::random(w, h, density, &mut rng);
                let black = (density * (w * h) as f64).round() as usize;
                assert_eq!(image.black_pixels(), black, "{w}x{h} d={density}");
            }
        }
    }

    #[test]
    fn random_images_spread_black_pixels_evenly() {
        // Every pixel is black in about `density` of the images.
        let mut rng = Rng::seed_from_u64(6);
        let mut hits = [0usize; 16];
        for _ in 0..4000 {
            let image = Bitmap::random(4, 4, 0.25, &mut rng);
            for (hit, &b) in hits.iter_mut().zip(&image.bits) {
                *hit += usize::from(b);
            }
        }
        assert!(hits.iter().all(|&h| (880..1120).contains(&h)), "{hits:?}");
    }

    #[test]
    fn fitting_keeps_the_aspect_and_centres_on_white() {
        let image = from_rows(&["#.", ".#"]);
        let wide = from_rows(&[".##...", ".##...", "...##.", "...##."]);
        assert_eq!(image.fitted(6, 4), wide);
        let tall = from_rows(&["..", "#.", ".#", ".."]);
        assert_eq!(image.fitted(2, 4), tall);
        assert_eq!(image.fitted(2, 2), image);
    }
}
