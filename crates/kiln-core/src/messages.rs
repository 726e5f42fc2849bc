//! What kiln says on stderr: one line per message, control characters escaped, and a write
//! that cannot fail the run.
//!
//! Messages quote file text, file names and flag values; written raw, an escape sequence in
//! them would retitle, clear or reset the user's terminal, and a newline would break the
//! one-line promise. Stderr is a courtesy: when it is closed or full the run still ends
//! with its own exit code (a panicking `eprintln!` would abort instead).

use std::borrow::Cow;
use std::fmt::{self, Write as _};
use std::io::{self, Write};

/// `text` with every control character (C0, DEL, C1) written as an escape: `\e` for ESC,
/// `\t`, `\n`, `\r`, and `\xNN` or `\u{NN}` for the rest.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\u{1b}' => escaped.push_str("\\e"),
            '\t' => escaped.push_str("\\t"),
            '\n' => escaped.push_str("\\n"),
            '\r' => escaped.push_str("\\r"),
            c if c.is_ascii_control() => {
                let _ = write!(escaped, "\\x{:02x}", c as u32);
            }
            c if c.is_control() => {
                let _ = write!(escaped, "\\u{{{:x}}}", c as u32);
            }
            c => escaped.push(c),
        }
    }
    Cow::Owned(escaped)
}

/// "1 city", "52 cities".
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The longest line `say` writes whole: a message that quotes something unbounded (a
/// path, a flag value clap reports) keeps its start and end around `...`.
const MAX_LINE_CHARS: usize = 1000;

/// Writes one line to `log`, escaped and at most about `MAX_LINE_CHARS` long, ignoring a
/// failed write.
pub fn say(log: &mut dyn Write, args: fmt::Arguments) {
    let line = args.to_string();
    let line = escape_controls(&line);
    let _ = match line.char_indices().nth(MAX_LINE_CHARS) {
        None => writeln!(log, "{line}"),
        Some(_) => {
            let chars: Vec<char> = line.chars().collect();
            let head: String = chars[..MAX_LINE_CHARS / 2].iter().collect();
            let tail: String = chars[chars.len() - MAX_LINE_CHARS / 4..].iter().collect();
            writeln!(log, "{head}...{tail}")
        }
    };
}

/// `kiln: MESSAGE` on stderr, escaped, ignoring a failed write.
pub fn warn(args: fmt::Arguments) {
    say(&mut io::stderr(), format_args!("kiln: {args}"));
}

/// Numbers in messages: huge ones and round powers of ten as `1e16`, the rest as they are.
pub fn show_number(x: f64) -> String {
    let size = x.abs();
    if size >= 1e15 || (size >= 1e7 && size.log10().fract() == 0.0) {
        format!("{x:e}")
    } else {
        x.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_keeps_its_start_and_end() {
        let mut out = Vec::new();
        say(&mut out, format_args!("bad: {} end", "9".repeat(100_000)));
        let text = String::from_utf8(out).unwrap();
        assert!(text.len() < MAX_LINE_CHARS + 10, "{} bytes", text.len());
        assert!(text.starts_with("bad: 999") && text.ends_with("999 end\n"));
        assert!(text.contains("..."));
        let mut out = Vec::new();
        say(&mut out, format_args!("short"));
        assert_eq!(out, b"short\n");
    }

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(
            escape_controls("2 \u{1b}]0;PWNED\u{7}\u{1b}[2J 5"),
            "2 \\e]0;PWNED\\x07\\e[2J 5"
        );
        assert_eq!(
            escape_controls("a\0b\u{7f}\u{9b}c\nd"),
            "a\\x00b\\x7f\\u{9b}c\\nd"
        );
        assert!(matches!(escape_controls("plain é ü"), Cow::Borrowed(_)));
    }

    #[test]
    fn counts_agree_in_number() {
        assert_eq!(count(1, "city", "cities"), "1 city");
        assert_eq!(count(0, "city", "cities"), "0 cities");
        assert_eq!(count(52, "city", "cities"), "52 cities");
    }

    #[test]
    fn a_failed_write_is_ignored() {
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::ErrorKind::StorageFull.into())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        say(&mut Full, format_args!("summary"));
    }
}
