//! A binary image as a picture (one square per pixel), and the best image as the file
//! `--output` writes in a headless run.

use super::canvas::{BLACK, Canvas, Surface};
use crate::headless::output::Format;
use crate::problems::image::{Bitmap, ImageModel, Mode, file, pbm};
use kiln_tui::save::Export;

/// Small images are scaled up by a whole factor until their short side is this long...
const SHORT_SIDE: usize = 256;
/// ...unless that makes the long side longer than this.
const MAX_LONG_SIDE: usize = 4096;

/// What a run's files are named after: its input file, or the kernel a random image forms
/// patterns under.
pub fn run_name(model: &ImageModel, mode: &Mode) -> String {
    match (&model.file, mode) {
        (Some(path), _) => path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into(),
        (None, Mode::Pattern(p)) => p.kernel().name.clone(),
        // Not reached: --denoise requires a file.
        (None, Mode::Denoise(..)) => "image".to_string(),
    }
}

/// Pixels per image pixel.
fn scale(image: &Bitmap) -> usize {
    let short = image.width.min(image.height);
    let long = image.width.max(image.height);
    whole_scale(short, long, SHORT_SIDE)
}

/// The whole number of pixels per image pixel that makes an image's `side` at least
/// `target` pixels long, unless its `long` side would pass [`MAX_LONG_SIDE`].
pub(super) fn whole_scale(side: usize, long: usize, target: usize) -> usize {
    target
        .div_ceil(side.max(1))
        .min(MAX_LONG_SIDE / long.max(1))
        .max(1)
}

fn picture(image: &Bitmap) -> Vec<u8> {
    let s = scale(image);
    let mut canvas = Canvas::new((image.width * s) as u32, (image.height * s) as u32);
    for y in 0..image.height {
        for x in 0..image.width {
            if image.get(x, y) {
                let (px, py, side) = ((x * s) as i64, (y * s) as i64, s as i64);
                canvas.fill(px, py, side, side, BLACK);
            }
        }
    }
    canvas.into_png()
}

/// The image shown as a picture and the best image as raw PBM (what `--output x.pbm`
/// writes), named after the run.
pub fn export(shown: &Bitmap, best: &Bitmap, name: &str) -> Export {
    Export::new("image", name)
        .file("png", picture(shown))
        .file("pbm", pbm::write_raw(best))
}

/// What `--output` writes in `format`, the live view's at its end as the headless run's.
pub fn output(best: &Bitmap, format: Format) -> color_eyre::Result<Vec<u8>> {
    Ok(file::encode_as(format, best)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::canvas::WHITE;
    use crate::problems::image::build;

    /// 4x5 pixels, black on the diagonal.
    fn diagonal() -> Bitmap {
        let mut image = Bitmap::white(4, 5);
        for i in 0..4 {
            image.bits[i * 4 + i] = 1;
        }
        image
    }

    #[test]
    fn small_images_are_scaled_up_a_whole_number_of_times() {
        let image = image::load_from_memory(&picture(&diagonal()))
            .unwrap()
            .to_rgb8();
        // 256 / 4 = 64 pixels per pixel.
        assert_eq!(image.dimensions(), (256, 320));
        assert_eq!(*image.get_pixel(0, 0), BLACK);
        assert_eq!(*image.get_pixel(63, 63), BLACK);
        assert_eq!(*image.get_pixel(64, 63), WHITE);
        assert_eq!(*image.get_pixel(3 * 64 + 10, 3 * 64 + 10), BLACK);
        assert_eq!(*image.get_pixel(10, 4 * 64 + 10), WHITE);
    }

    #[test]
    fn the_picture_is_of_the_image_shown_and_the_pbm_of_the_best() {
        let shown = diagonal();
        let best = Bitmap::white(4, 5);
        let export = export(&shown, &best, "shapes_128_noisy");
        assert_eq!(
            export,
            Export::new("image", "shapes_128_noisy")
                .file("png", picture(&shown))
                .file("pbm", b"P4\n4 5\n\0\0\0\0\0".to_vec())
        );
    }

    #[test]
    fn runs_are_named_after_their_file_or_kernel() {
        let name = |words: &[&str]| {
            let spec = crate::problems::image::ImageSpec::from_flags(&words[1..]);
            run_name(&spec.model, &build(&spec).unwrap().mode)
        };
        assert_eq!(
            name(&["image", "--size", "8x8", "--kernel", "n8-repel"]),
            "n8-repel"
        );
        let noisy = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/puzzles/image/toy_4x5_noisy.pbm"
        );
        assert_eq!(name(&["image", noisy, "--denoise"]), "toy_4x5_noisy");
    }

    #[test]
    fn big_and_lopsided_images_are_not_blown_up() {
        let big = Bitmap::white(512, 300);
        assert_eq!(scale(&big), 1);
        let strip = Bitmap::white(1000, 2);
        assert_eq!(scale(&strip), 4);
    }

    #[test]
    fn the_output_format_follows_the_extension() {
        let best = diagonal();
        let pbm_bytes = output(&best, Format::Pbm).unwrap();
        assert_eq!(pbm_bytes, pbm::write_raw(&best));
        assert!(pbm_bytes.starts_with(b"P4\n4 5\n"));
        let png = output(&best, Format::Png).unwrap();
        let back = crate::problems::image::file::parse(&png, "best.PNG").unwrap();
        assert_eq!(back, best);
    }
}
