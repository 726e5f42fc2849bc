//! Errors in user input (files and flag values): one line that names the place and the
//! problem, and exit code 2. Also how input files are read: `-` is stdin, a leading UTF-8
//! byte-order mark is skipped, and text that is not UTF-8 is refused at its line and column.

use std::borrow::Cow;
use std::fmt;
use std::io::Read;
use std::path::Path;
use std::sync::OnceLock;

use crate::messages::escape_controls;

/// A mistake in a file or a flag value, shown as `source:line:column: message` with the
/// parts that are known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// The file (or flag) the problem is in.
    pub source: String,
    /// 1-based line, when the problem is at a line.
    pub line: Option<usize>,
    /// 1-based column, when the problem is at a character.
    pub column: Option<usize>,
    /// What is wrong, in words for the user.
    pub message: String,
}

impl InputError {
    /// An error about `source` as a whole; `at_line` and `at_column` narrow it down.
    pub fn new(source: impl Into<String>, message: impl Into<String>) -> Self {
        InputError {
            source: source.into(),
            line: None,
            column: None,
            message: message.into(),
        }
    }
    /// An error in how flags combine; the message names them.
    pub fn flags(message: impl Into<String>) -> Self {
        InputError::new("", message)
    }
    /// The same error, placed at 1-based `line`.
    pub fn at_line(mut self, line: usize) -> Self {
        self.line = Some(line);
        self
    }
    /// The same error, placed at 1-based `column` of its line.
    pub fn at_column(mut self, column: usize) -> Self {
        self.column = Some(column);
        self
    }
    /// Reads a whole text file (or stdin for `-`), turning an I/O failure or text that is
    /// not UTF-8 into an `InputError` about that file.
    pub fn read_to_string(path: &Path) -> Result<String, InputError> {
        Self::read_to_string_within(path, MAX_INPUT_BYTES)
    }

    /// As `read_to_string`, for a kind of file that is never larger than `limit` bytes: a
    /// larger one is refused before it is parsed.
    pub fn read_to_string_within(path: &Path, limit: u64) -> Result<String, InputError> {
        let bytes = read_bytes_within(path, limit)?;
        text_of(bytes, &source_name(path))
    }
}

/// Shown wherever input text is quoted, so control characters are escaped: the message and
/// the source may both come from the input (a file's line, a file's name).
impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.source.is_empty() {
            write!(f, "{}", escape_controls(&self.source))?;
            if let Some(line) = self.line {
                write!(f, ":{line}")?;
                if let Some(column) = self.column {
                    write!(f, ":{column}")?;
                }
            }
            write!(f, ": ")?;
        }
        write!(f, "{}", escape_controls(&self.message))
    }
}

impl std::error::Error for InputError {}

/// The path that stands for stdin.
const STDIN: &str = "-";

/// How a path is named in reports and errors: `stdin` for `-`.
pub fn source_name(path: &Path) -> String {
    if path == Path::new(STDIN) {
        "stdin".to_string()
    } else {
        path.display().to_string()
    }
}

/// Refuses a second input given as `-`: stdin is read once, so the second would get the
/// first one's bytes and fail with a confusing error. `inputs` are each a flag (`""` for
/// the positional file), what it reads (as "the tour") and its path, if given.
pub fn stdin_once(inputs: &[(&str, &str, Option<&Path>)]) -> Result<(), InputError> {
    let mut on_stdin = inputs
        .iter()
        .filter(|(_, _, path)| *path == Some(Path::new(STDIN)));
    match (on_stdin.next(), on_stdin.next()) {
        (Some((_, first, _)), Some((flag, second, _))) => Err(InputError::new(
            format!("{flag} {STDIN}"),
            format!("standard input is already {first}; give {second} as a file"),
        )),
        _ => Ok(()),
    }
}

/// Input files are read whole; a larger one (`/dev/zero`, a wrong file) is refused rather
/// than read until memory runs out. The largest inputs kiln takes are far smaller (a
/// 4096x4096 PNG stored without compression: 64 MiB).
pub const MAX_INPUT_BYTES: u64 = 256 << 20;

/// The bytes of a file, or of stdin for `-`. Stdin is read once: the live view reads its
/// puzzles more than once and must see the same ones.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, InputError> {
    read_bytes_within(path, MAX_INPUT_BYTES)
}

/// As `read_bytes`, refusing more than `limit` bytes (at most `MAX_INPUT_BYTES`), with the
/// limit in the message.
pub fn read_bytes_within(path: &Path, limit: u64) -> Result<Vec<u8>, InputError> {
    let limit = limit.min(MAX_INPUT_BYTES);
    let source = source_name(path);
    let bytes = if path == Path::new(STDIN) {
        static STDIN_BYTES: OnceLock<Result<Vec<u8>, String>> = OnceLock::new();
        STDIN_BYTES
            .get_or_init(|| {
                read_at_most(std::io::stdin().lock(), MAX_INPUT_BYTES).map_err(|e| e.to_string())
            })
            .clone()
    } else {
        std::fs::File::open(path)
            .and_then(|file| read_at_most(file, limit))
            .map_err(|e| e.to_string())
    };
    let bytes = bytes.map_err(|e| InputError::new(&source, format!("cannot read: {e}")))?;
    if bytes.len() as u64 > limit {
        let message = if limit == MAX_INPUT_BYTES {
            format!(
                "larger than {} MiB, kiln's limit for an input file",
                MAX_INPUT_BYTES >> 20
            )
        } else {
            format!(
                "larger than {} KiB, the most such a file holds",
                limit >> 10
            )
        };
        return Err(InputError::new(source, message));
    }
    Ok(bytes)
}

/// Everything `reader` gives up to one byte past `limit` (enough to tell it is over).
fn read_at_most(reader: impl Read, limit: u64) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader.take(limit + 1).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The UTF-8 byte-order mark some editors put at the start of a file.
pub const BOM: &[u8] = "\u{feff}".as_bytes();

/// `bytes` as text without a leading byte-order mark, or an error at the first byte that is
/// not UTF-8 (a Latin-1 file, say).
pub fn text_of(mut bytes: Vec<u8>, source: &str) -> Result<String, InputError> {
    // Shifted in place rather than copied: the file may be large.
    if bytes.starts_with(BOM) {
        bytes.drain(..BOM.len());
    }
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let at = e.utf8_error().valid_up_to();
        // The valid prefix is UTF-8, so its lines and characters can be counted.
        let before = std::str::from_utf8(&bytes[..at]).unwrap_or_default();
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        InputError::new(
            source,
            format!(
                "not UTF-8 text (byte 0x{:02x}); save the file as UTF-8",
                bytes[at]
            ),
        )
        .at_line(line)
        .at_column(column)
    })
}

/// How many characters of file text an error quotes at most.
const EXCERPT_CHARS: usize = 40;

/// `text` as an error quotes it: whole when short, else its first 40 characters and `...`,
/// so that a file's 50 MB line is not a 50 MB "one line" error.
pub fn excerpt(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(EXCERPT_CHARS) {
        None => Cow::Borrowed(text),
        Some((end, _)) => Cow::Owned(format!("{}...", &text[..end])),
    }
}

/// Whitespace-separated tokens of `line` with their 1-based character column.
pub fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut column = 0;
    line.split(|c: char| c.is_whitespace())
        .map(move |t| {
            let at = column + 1;
            column += t.chars().count() + 1;
            (at, t)
        })
        .filter(|(_, t)| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_file_line_and_column() {
        let e = InputError::new("a.txt", "bad symbol 'x'")
            .at_line(3)
            .at_column(7);
        assert_eq!(e.to_string(), "a.txt:3:7: bad symbol 'x'");
        assert_eq!(InputError::new("b", "empty").to_string(), "b: empty");
    }

    #[test]
    fn quoted_control_characters_are_escaped() {
        let e = InputError::new("a\u{1b}c.txt", "bad symbol '\0'").at_line(1);
        assert_eq!(e.to_string(), "a\\ec.txt:1: bad symbol '\\x00'");
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let text = text_of(b"\xef\xbb\xbf1.2.\n".to_vec(), "f").unwrap();
        assert_eq!(text, "1.2.\n");
    }

    #[test]
    fn latin1_is_refused_at_its_line_and_column() {
        let e = text_of(b"NAME: a\nCOMMENT: caf\xe9\n".to_vec(), "f").unwrap_err();
        assert_eq!(
            e.to_string(),
            "f:2:13: not UTF-8 text (byte 0xe9); save the file as UTF-8"
        );
    }

    #[test]
    fn stdin_is_one_input_at_most() {
        let stdin = Some(Path::new("-"));
        let file = Some(Path::new("a.tsp"));
        let inputs = |cities, tour| {
            [
                ("", "the cities file", cities),
                ("--tour", "the tour", tour),
            ]
        };
        assert!(stdin_once(&inputs(stdin, None)).is_ok());
        assert!(stdin_once(&inputs(file, stdin)).is_ok());
        assert_eq!(
            stdin_once(&inputs(stdin, stdin)).unwrap_err().to_string(),
            "--tour -: standard input is already the cities file; give the tour as a file"
        );
    }

    #[test]
    fn long_text_is_quoted_in_part() {
        assert_eq!(excerpt("short"), "short");
        let forty = "é".repeat(40);
        assert_eq!(excerpt(&forty), forty);
        assert_eq!(excerpt(&format!("{forty}xyz")), format!("{forty}..."));
    }

    #[test]
    fn tokens_carry_their_columns() {
        let t: Vec<_> = tokens("  1 x\ty").collect();
        assert_eq!(t, vec![(3, "1"), (5, "x"), (7, "y")]);
    }
}
