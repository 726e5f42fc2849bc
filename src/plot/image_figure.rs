//! `kiln plot IMAGE... --output FIG`: binary images (PBM or PNG, as `kiln image --output`
//! writes them) side by side, each named above it. Each image pixel is a square of whole
//! figure pixels (nearest neighbour): a 128x128 result is 512 pixels across, where every
//! pixel of a pattern can be seen, instead of a thumbnail.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::export::figure::{Drawn, FAMILY};
use crate::problems::image::Bitmap;
use crate::problems::image::picture::whole_scale;

/// How wide an image is drawn at least (unless that would make the figure huge).
const SIDE: usize = 512;
/// Around and between the images.
const GAP: u32 = 24;
/// Above each image, for its name.
const NAME_HEIGHT: u32 = 40;
const FRAME: RGBColor = RGBColor(150, 150, 150);

/// One image and the name the figure gives it.
pub(crate) struct Picture {
    pub name: String,
    pub image: Bitmap,
}

/// Whether `path` names an image (by its extension) rather than a trace.
pub(crate) fn is_image(path: &Path) -> bool {
    let ext = path.extension().map(|e| e.to_string_lossy().to_lowercase());
    matches!(ext.as_deref(), Some("pbm" | "png"))
}

/// Figure pixels per image pixel: the largest image is at least [`SIDE`] wide.
fn scale(pictures: &[Picture]) -> u32 {
    let width = pictures.iter().map(|p| p.image.width).max().unwrap_or(1);
    let height = pictures.iter().map(|p| p.image.height).max().unwrap_or(1);
    whole_scale(width, width.max(height), SIDE) as u32
}

/// The figure's size: the images in a row, each in a cell as large as the largest.
pub(crate) fn size(pictures: &[Picture]) -> (u32, u32) {
    let (cell_width, cell_height) = cell(pictures);
    let n = pictures.len() as u32;
    (
        n * cell_width + (n + 1) * GAP,
        NAME_HEIGHT + cell_height + 2 * GAP,
    )
}

/// The figure pixels the largest image takes.
fn cell(pictures: &[Picture]) -> (u32, u32) {
    let s = scale(pictures);
    let most = |side: fn(&Bitmap) -> usize| {
        pictures.iter().map(|p| side(&p.image)).max().unwrap_or(1) as u32 * s
    };
    (most(|i| i.width), most(|i| i.height))
}

pub(crate) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    pictures: &[Picture],
) -> Drawn<DB> {
    root.fill(&WHITE)?;
    let s = scale(pictures) as i32;
    let (cell_width, _) = cell(pictures);
    for (i, picture) in pictures.iter().enumerate() {
        let left = (GAP + i as u32 * (cell_width + GAP)) as i32;
        let top = (GAP + NAME_HEIGHT) as i32;
        let centre = left + cell_width as i32 / 2;
        let name =
            TextStyle::from((FAMILY, 26).into_font()).pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Center,
                plotters::style::text_anchor::VPos::Bottom,
            ));
        root.draw_text(&picture.name, &name, (centre, top - 10))?;
        let image = &picture.image;
        let (width, height) = (image.width as i32 * s, image.height as i32 * s);
        root.draw(&Rectangle::new(
            [(left - 1, top - 1), (left + width, top + height)],
            FRAME,
        ))?;
        for (y, row) in image.bits.chunks(image.width.max(1)).enumerate() {
            for run in black_runs(row) {
                let y = top + y as i32 * s;
                let corners = [
                    (left + run.start as i32 * s, y),
                    (left + run.end as i32 * s, y + s),
                ];
                root.draw(&Rectangle::new(corners, BLACK.filled()))?;
            }
        }
    }
    Ok(())
}

/// The runs of black pixels in a row: one rectangle each keeps an SVG small.
fn black_runs(row: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut runs = Vec::new();
    let mut start = None;
    for (x, &bit) in row.iter().chain([&0]).enumerate() {
        match (bit != 0, start) {
            (true, None) => start = Some(x),
            (false, Some(from)) => {
                runs.push(from..x);
                start = None;
            }
            _ => {}
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picture(width: usize, height: usize) -> Picture {
        Picture {
            name: "n8".to_string(),
            image: Bitmap::white(width, height),
        }
    }

    #[test]
    fn a_128_pixel_image_is_drawn_512_pixels_wide() {
        let one = [picture(128, 128)];
        assert_eq!(scale(&one), 4);
        assert_eq!(size(&one), (512 + 2 * GAP, 512 + NAME_HEIGHT + 2 * GAP));
        let three = [picture(128, 128), picture(128, 128), picture(64, 32)];
        assert_eq!(size(&three).0, 3 * 512 + 4 * GAP);
        assert_eq!(
            scale(&[picture(1024, 768)]),
            1,
            "big images stay as they are"
        );
    }

    #[test]
    fn rows_are_drawn_as_runs_of_black() {
        assert_eq!(black_runs(&[1, 1, 0, 1, 0, 0, 1]), [0..2, 3..4, 6..7]);
        assert!(black_runs(&[0, 0]).is_empty());
    }

    #[test]
    fn each_pixel_is_a_square_of_the_figure() {
        let mut image = Bitmap::white(128, 128);
        image.bits[128 + 2] = 1; // (2, 1)
        let pictures = [Picture {
            name: "dot".to_string(),
            image,
        }];
        let (w, h) = size(&pictures);
        let mut pixels = vec![0u8; (w * h * 3) as usize];
        {
            let root = BitMapBackend::with_buffer(&mut pixels, (w, h)).into_drawing_area();
            crate::export::figure::register_font().unwrap();
            draw(&root, &pictures).unwrap();
            root.present().unwrap();
        }
        let black = |x: u32, y: u32| {
            let i = ((y * w + x) * 3) as usize;
            pixels[i..i + 3] == [0, 0, 0]
        };
        let (left, top) = (GAP, GAP + NAME_HEIGHT);
        let row: Vec<u32> = (0..16).filter(|&x| black(left + x, top + 5)).collect();
        assert_eq!(row, [8, 9, 10, 11]);
        assert!((4..8).all(|y| black(left + 8, top + y)));
        assert!(!black(left + 8, top + 8) && !black(left + 8, top + 3));
    }
}
