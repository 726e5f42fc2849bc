//! Portable bitmap (PBM): plain `P1` (ASCII digits) and raw `P4` (packed bits), 1 = black.

use std::fmt::Write as _;

use super::bitmap::{Bitmap, check_size};
use crate::input::InputError;

/// Walks the bytes of a file, tracking the line and column for error messages.
struct Cursor<'a> {
    source: &'a str,
    bytes: &'a [u8],
    at: usize,
    line: usize,
    column: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn bump(&mut self) {
        if self.peek() == Some(b'\n') {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        self.at += 1;
    }

    fn error(&self, message: impl Into<String>) -> InputError {
        InputError::new(self.source, message)
            .at_line(self.line)
            .at_column(self.column)
    }

    /// Skips whitespace and `#` comments (which run to the end of the line).
    fn skip_blanks(&mut self) {
        while let Some(c) = self.peek() {
            if c == b'#' {
                while self.peek().is_some_and(|c| c != b'\n') {
                    self.bump();
                }
            } else if c.is_ascii_whitespace() {
                self.bump();
            } else {
                break;
            }
        }
    }

    fn number(&mut self, what: &str) -> Result<usize, InputError> {
        self.skip_blanks();
        match self.peek() {
            None => return Err(self.error(format!("truncated header: missing the {what}"))),
            Some(c) if !c.is_ascii_digit() => {
                return Err(self.error(format!(
                    "expected the {what}, found '{}'",
                    char::from(c).escape_default()
                )));
            }
            _ => {}
        }
        let start = self.error("");
        let mut value: usize = 0;
        while let Some(c) = self.peek().filter(u8::is_ascii_digit) {
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(usize::from(c - b'0')))
                .filter(|&v| v <= 1 << 40)
                .ok_or_else(|| InputError {
                    message: format!("the {what} is too large"),
                    ..start.clone()
                })?;
            self.bump();
        }
        Ok(value)
    }
}

/// Parses a P1 or P4 file; `source` names it in errors.
pub fn parse(bytes: &[u8], source: &str) -> Result<Bitmap, InputError> {
    let mut cur = Cursor {
        source,
        bytes,
        at: 0,
        line: 1,
        column: 1,
    };
    let raw = match bytes.get(..2) {
        Some(b"P1") => false,
        Some(b"P4") => true,
        _ => {
            return Err(cur.error("not a PBM file (expected the magic number P1 or P4)"));
        }
    };
    cur.bump();
    cur.bump();
    if cur
        .peek()
        .is_some_and(|c| !c.is_ascii_whitespace() && c != b'#')
    {
        return Err(cur.error("not a PBM file (expected whitespace after the magic number)"));
    }
    let width = cur.number("width")?;
    let height = cur.number("height")?;
    check_size(source, width, height).map_err(|e| InputError {
        line: Some(cur.line),
        ..e
    })?;
    let mut image = Bitmap::white(width, height);
    if raw {
        read_raw(&mut cur, &mut image)?;
    } else {
        read_plain(&mut cur, &mut image)?;
    }
    Ok(image)
}

fn read_plain(cur: &mut Cursor, image: &mut Bitmap) -> Result<(), InputError> {
    for (i, pixel) in image.bits.iter_mut().enumerate() {
        cur.skip_blanks();
        *pixel = match cur.peek() {
            Some(b'0') => 0,
            Some(b'1') => 1,
            Some(c) => {
                return Err(cur.error(format!(
                    "bad pixel '{}' (expected 0 or 1)",
                    char::from(c).escape_default()
                )));
            }
            None => {
                return Err(cur.error(format!(
                    "truncated: expected {} pixels, found {i}",
                    image.width * image.height
                )));
            }
        };
        cur.bump();
    }
    Ok(())
}

fn read_raw(cur: &mut Cursor, image: &mut Bitmap) -> Result<(), InputError> {
    // Exactly one whitespace byte separates the header from the packed rows.
    cur.bump();
    let row_bytes = image.width.div_ceil(8);
    let need = row_bytes * image.height;
    let data = &cur.bytes[cur.at.min(cur.bytes.len())..];
    if data.len() < need {
        return Err(InputError::new(
            cur.source,
            format!(
                "truncated: expected {need} bytes of pixel data, found {}",
                data.len()
            ),
        ));
    }
    for (y, row) in data.chunks_exact(row_bytes).take(image.height).enumerate() {
        for x in 0..image.width {
            image.bits[y * image.width + x] = (row[x / 8] >> (7 - x % 8)) & 1;
        }
    }
    Ok(())
}

/// Raw P4: compact, and what `--output x.pbm` writes.
pub fn write_raw(image: &Bitmap) -> Vec<u8> {
    let mut out = format!("P4\n{} {}\n", image.width, image.height).into_bytes();
    for row in image.bits.chunks_exact(image.width) {
        for byte in row.chunks(8) {
            let packed = byte
                .iter()
                .enumerate()
                .fold(0u8, |acc, (i, &b)| acc | (b << (7 - i)));
            out.push(packed);
        }
    }
    out
}

/// Plain P1, 64 digits per line like the shared data set; handy for tiny images.
pub fn write_plain(image: &Bitmap) -> String {
    let mut out = format!("P1\n{} {}\n", image.width, image.height);
    for line in image.bits.chunks(64) {
        for &b in line {
            out.push(if b != 0 { '1' } else { '0' });
        }
        let _ = writeln!(out);
    }
    out
}
