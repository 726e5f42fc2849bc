//! Loading and saving images: the format is chosen by content when reading and by the
//! file extension when writing.

use std::path::Path;

use super::FORMATS;
use super::bitmap::Bitmap;
use super::{pbm, png};
use crate::headless::output::Format;
use crate::input::{self, InputError};

const PNG_MAGIC: &[u8] = b"\x89PNG";

/// Reads a PBM (P1/P4) or PNG file.
pub fn load(path: &Path) -> Result<Bitmap, InputError> {
    parse(&input::read_bytes(path)?, &input::source_name(path))
}

/// Parses the bytes of a PBM or PNG file, telling them apart by their magic number (after
/// a byte-order mark, which an editor may put before a plain P1 file as before any text).
pub fn parse(bytes: &[u8], source: &str) -> Result<Bitmap, InputError> {
    let bytes = bytes.strip_prefix(input::BOM).unwrap_or(bytes);
    if bytes.is_empty() {
        return Err(InputError::new(source, "empty file"));
    }
    if bytes.starts_with(PNG_MAGIC) {
        png::parse(bytes, source)
    } else if bytes.starts_with(b"P") {
        pbm::parse(bytes, source)
    } else {
        Err(InputError::new(
            source,
            "not a PBM (P1/P4) or PNG file (unknown magic number)",
        ))
    }
}

/// Writes `.png` as PNG and `.pbm` (or no extension) as raw PBM; `--output`'s table says.
pub fn save(path: &Path, image: &Bitmap) -> Result<(), InputError> {
    let bytes = encode(path, image)?;
    std::fs::write(path, bytes)
        .map_err(|e| InputError::new(path.display().to_string(), format!("cannot write: {e}")))
}

/// The bytes `save` writes to `path`.
pub fn encode(path: &Path, image: &Bitmap) -> Result<Vec<u8>, InputError> {
    let format = FORMATS.format_of(path)?;
    encode_as(format, image)
        .map_err(|e| InputError::new(path.display().to_string(), format!("cannot encode: {e}")))
}

/// The image in `format`: PNG, or raw PBM (the only other format an image is written in).
pub fn encode_as(format: Format, image: &Bitmap) -> Result<Vec<u8>, ::image::ImageError> {
    match format {
        Format::Png => png::write(image),
        _ => Ok(pbm::write_raw(image)),
    }
}
