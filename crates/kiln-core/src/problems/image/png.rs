//! PNG through the `image` crate: grey below 50% (luma < 128) is black; transparent
//! pixels count as white paper.

use std::io::Cursor;

use image::{GrayImage, ImageFormat, Luma};

use super::bitmap::{Bitmap, check_size};
use crate::input::InputError;

/// Reads a PNG file's bytes as a black-and-white image; `source` names the file in
/// errors. An image too large to handle is refused before it is decoded.
pub fn parse(bytes: &[u8], source: &str) -> Result<Bitmap, InputError> {
    let bad = |e: image::ImageError| InputError::new(source, format!("bad PNG: {e}"));
    let mut reader = image::ImageReader::with_format(Cursor::new(bytes), ImageFormat::Png);
    // The size check comes before decoding so a hostile header cannot allocate gigabytes.
    reader.no_limits();
    let (w, h) = reader.into_dimensions().map_err(bad)?;
    check_size(source, w as usize, h as usize)?;
    let decoded = image::load_from_memory_with_format(bytes, ImageFormat::Png).map_err(bad)?;
    let rgba = decoded.to_luma_alpha8();
    let mut out = Bitmap::white(w as usize, h as usize);
    for (pixel, la) in out.bits.iter_mut().zip(rgba.pixels()) {
        let [luma, alpha] = la.0;
        *pixel = u8::from(alpha >= 128 && luma < 128);
    }
    Ok(out)
}

/// Black and white 8-bit greyscale PNG.
pub fn write(image: &Bitmap) -> Result<Vec<u8>, image::ImageError> {
    let grey = GrayImage::from_fn(image.width as u32, image.height as u32, |x, y| {
        Luma([if image.get(x as usize, y as usize) {
            0
        } else {
            255
        }])
    });
    let mut out = Vec::new();
    grey.write_to(&mut Cursor::new(&mut out), ImageFormat::Png)?;
    Ok(out)
}
