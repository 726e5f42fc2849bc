//! A white picture to draw boards on by hand: rectangles, discs, lines and glyphs, all
//! clipped to the picture, then encoded as PNG.

use std::io::Cursor;

use image::{ImageFormat, Rgb, RgbImage};

use super::font;

pub(crate) const WHITE: Rgb<u8> = Rgb([255, 255, 255]);
pub(crate) const BLACK: Rgb<u8> = Rgb([0, 0, 0]);

/// How a line is drawn.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Pen {
    pub colour: Rgb<u8>,
    /// Pixels across.
    pub width: u32,
    /// Runs of this many pixels on, then as many off; `None` for a solid line.
    pub dash: Option<u32>,
}

/// What a board picture is drawn on: pixels here (PNG), shapes in `Svg`, so that one
/// drawing routine per board makes both files.
pub(crate) trait Surface {
    /// Fills `width` x `height` pixels with (x, y) at the top left.
    fn fill(&mut self, x: i64, y: i64, width: i64, height: i64, colour: Rgb<u8>);
    /// A filled disc centred on (x, y).
    fn disc(&mut self, centre: (f64, f64), radius: f64, colour: Rgb<u8>);
    /// A straight line `pen.width` pixels wide.
    fn line(&mut self, from: (f64, f64), to: (f64, f64), pen: Pen);
    /// Character `c` of the 5x7 font with its top left at (x, y), each dot `scale` pixels
    /// square; a character the font lacks draws nothing.
    fn glyph(&mut self, c: char, at: (i64, i64), scale: u32, colour: Rgb<u8>);
}

pub(crate) struct Canvas {
    image: RgbImage,
}

impl Canvas {
    pub(crate) fn new(width: u32, height: u32) -> Self {
        Canvas {
            image: RgbImage::from_pixel(width, height, WHITE),
        }
    }

    pub(crate) fn into_png(self) -> Vec<u8> {
        let mut bytes = Vec::new();
        self.image
            .write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png)
            .expect("encoding an RGB picture in memory cannot fail");
        bytes
    }
}

impl Surface for Canvas {
    /// Fills `width` x `height` pixels with (x, y) at the top left.
    fn fill(&mut self, x: i64, y: i64, width: i64, height: i64, colour: Rgb<u8>) {
        let (w, h) = (self.image.width() as i64, self.image.height() as i64);
        for py in y.max(0)..(y + height).min(h) {
            for px in x.max(0)..(x + width).min(w) {
                self.image.put_pixel(px as u32, py as u32, colour);
            }
        }
    }

    /// A filled disc centred on (x, y).
    fn disc(&mut self, (x, y): (f64, f64), radius: f64, colour: Rgb<u8>) {
        let r = radius.ceil() as i64;
        let (cx, cy) = (x.round() as i64, y.round() as i64);
        for dy in -r..=r {
            for dx in -r..=r {
                if ((dx * dx + dy * dy) as f64) <= radius * radius {
                    self.fill(cx + dx, cy + dy, 1, 1, colour);
                }
            }
        }
    }

    /// A straight line (Bresenham's), a square of `pen.width` pixels stamped at each step.
    fn line(&mut self, from: (f64, f64), to: (f64, f64), pen: Pen) {
        let (mut x, mut y) = (from.0.round() as i64, from.1.round() as i64);
        let (x1, y1) = (to.0.round() as i64, to.1.round() as i64);
        let (dx, dy) = ((x1 - x).abs(), -(y1 - y).abs());
        let (sx, sy) = ((x1 - x).signum(), (y1 - y).signum());
        let width = pen.width.max(1) as i64;
        let mut error = dx + dy;
        for step in 0.. {
            let on = pen.dash.is_none_or(|dash| (step / dash.max(1)) % 2 == 0);
            if on {
                self.fill(x - width / 2, y - width / 2, width, width, pen.colour);
            }
            if x == x1 && y == y1 {
                break;
            }
            let twice = 2 * error;
            if twice >= dy {
                error += dy;
                x += sx;
            }
            if twice <= dx {
                error += dx;
                y += sy;
            }
        }
    }

    /// Character `c` of the 5x7 font with its top left at (x, y), each dot `scale` pixels
    /// square; a character the font lacks draws nothing.
    fn glyph(&mut self, c: char, (x, y): (i64, i64), scale: u32, colour: Rgb<u8>) {
        let s = scale as i64;
        for (col, row) in font::dots(c).into_iter().flatten() {
            self.fill(x + col as i64 * s, y + row as i64 * s, s, s, colour);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RED: Rgb<u8> = Rgb([255, 0, 0]);

    impl Canvas {
        fn pixel(&self, x: u32, y: u32) -> Rgb<u8> {
            *self.image.get_pixel(x, y)
        }
    }

    fn coloured(canvas: &Canvas, w: u32, h: u32) -> usize {
        (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| canvas.pixel(x, y) != WHITE)
            .count()
    }

    #[test]
    fn a_solid_line_joins_its_ends_and_a_dashed_one_has_gaps() {
        let mut canvas = Canvas::new(20, 20);
        let pen = Pen {
            colour: RED,
            width: 1,
            dash: None,
        };
        canvas.line((2.0, 3.0), (17.0, 3.0), pen);
        assert!((2..=17).all(|x| canvas.pixel(x, 3) == RED));
        assert_eq!(coloured(&canvas, 20, 20), 16);
        canvas.line(
            (0.0, 10.0),
            (19.0, 10.0),
            Pen {
                dash: Some(3),
                ..pen
            },
        );
        let dashed: Vec<bool> = (0..20).map(|x| canvas.pixel(x, 10) == RED).collect();
        assert_eq!(&dashed[..7], [true, true, true, false, false, false, true]);
    }

    #[test]
    fn steep_and_backward_lines_and_wide_pens() {
        let mut canvas = Canvas::new(20, 20);
        let pen = Pen {
            colour: RED,
            width: 3,
            dash: None,
        };
        canvas.line((10.0, 18.0), (10.0, 1.0), pen);
        assert!((1..=18).all(|y| (9..=11).all(|x| canvas.pixel(x, y) == RED)));
        assert_eq!(canvas.pixel(8, 10), WHITE);
        canvas.line((19.0, 19.0), (0.0, 0.0), Pen { width: 1, ..pen });
        assert!((0..20).all(|i| canvas.pixel(i, i) == RED));
    }

    #[test]
    fn drawing_off_the_picture_is_clipped() {
        let mut canvas = Canvas::new(8, 8);
        canvas.disc((-2.0, 4.0), 3.0, RED);
        canvas.fill(6, 6, 10, 10, RED);
        canvas.glyph('8', (5, -3), 2, RED);
        assert_eq!(canvas.pixel(0, 4), RED);
        assert_eq!(canvas.pixel(7, 7), RED);
    }

    #[test]
    fn the_png_decodes_to_the_picture() {
        let mut canvas = Canvas::new(3, 2);
        canvas.fill(1, 1, 1, 1, RED);
        let png = image::load_from_memory(&canvas.into_png())
            .unwrap()
            .to_rgb8();
        assert_eq!(png.dimensions(), (3, 2));
        assert_eq!(*png.get_pixel(1, 1), RED);
        assert_eq!(*png.get_pixel(0, 0), WHITE);
    }
}
