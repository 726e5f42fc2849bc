//! The asciicast v2 format (what `asciinema play` and the asciinema web player replay): a
//! JSON header line, then one JSON array a line for each piece of output (`[seconds, "o",
//! text]`) and each resize (`[seconds, "r", "WxH"]`). Every line is written whole in one
//! write, so a run killed at any moment leaves a file whose every line is complete.

use std::io::{self, Write};
use std::time::Duration;

use serde::Serialize;

/// What the first line says of the terminal.
#[derive(Serialize)]
struct Header<'a> {
    version: u8,
    width: u16,
    height: u16,
    /// Unix seconds at the start.
    timestamp: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    env: Option<Env<'a>>,
}

#[derive(Serialize)]
struct Env<'a> {
    #[serde(rename = "TERM")]
    term: &'a str,
}

/// An asciicast v2 stream being written to `out`.
pub(super) struct Cast<W: Write> {
    out: W,
    /// Output not written yet: the first bytes of a character whose rest is still to come
    /// (a JSON string holds whole characters only).
    unfinished: Vec<u8>,
    /// The line being made, kept to be reused.
    line: Vec<u8>,
}

impl<W: Write> Cast<W> {
    /// Starts a cast of a `width` x `height` terminal (that calls itself `term`, if known)
    /// started at `timestamp` (Unix seconds): writes the header.
    pub(super) fn start(
        out: W,
        (width, height): (u16, u16),
        timestamp: u64,
        term: Option<&str>,
    ) -> io::Result<Cast<W>> {
        let mut cast = Cast {
            out,
            unfinished: Vec::new(),
            line: Vec::new(),
        };
        let header = Header {
            version: 2,
            width,
            height,
            timestamp,
            env: term.map(|term| Env { term }),
        };
        serde_json::to_writer(&mut cast.line, &header)?;
        cast.write_line()?;
        Ok(cast)
    }

    /// `bytes` reached the terminal `at` after the start. A character cut at the end of
    /// `bytes` waits for its rest; bytes that are not UTF-8 at all are written as U+FFFD.
    pub(super) fn output(&mut self, at: Duration, bytes: &[u8]) -> io::Result<()> {
        self.unfinished.extend_from_slice(bytes);
        let whole = self.unfinished.len() - unfinished_tail(&self.unfinished);
        if whole == 0 {
            return Ok(());
        }
        let text = String::from_utf8_lossy(&self.unfinished[..whole]);
        serde_json::to_writer(&mut self.line, &(seconds(at), "o", text))?;
        self.unfinished.drain(..whole);
        self.write_line()
    }

    /// The terminal became `width` x `height`, `at` after the start.
    pub(super) fn resize(&mut self, at: Duration, (width, height): (u16, u16)) -> io::Result<()> {
        let size = format!("{width}x{height}");
        serde_json::to_writer(&mut self.line, &(seconds(at), "r", size))?;
        self.write_line()
    }

    /// The lines written to, for a test to read.
    #[cfg(test)]
    fn into_inner(self) -> W {
        self.out
    }

    /// Ends the line made and writes it in one write.
    fn write_line(&mut self) -> io::Result<()> {
        self.line.push(b'\n');
        let written = self
            .out
            .write_all(&self.line)
            .and_then(|()| self.out.flush());
        self.line.clear();
        written
    }
}

/// Seconds to the microsecond, which asciinema's own recorder writes and which keeps the
/// numbers short.
fn seconds(at: Duration) -> f64 {
    (at.as_secs_f64() * 1e6).round() / 1e6
}

/// How many bytes at the end of `bytes` start a UTF-8 character that is not finished.
fn unfinished_tail(bytes: &[u8]) -> usize {
    let from = bytes.len().saturating_sub(3);
    (from..bytes.len())
        .find(|&i| {
            matches!(std::str::from_utf8(&bytes[i..]),
                Err(e) if e.valid_up_to() == 0 && e.error_len().is_none())
        })
        .map_or(0, |i| bytes.len() - i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn lines(cast: Cast<Vec<u8>>) -> Vec<Value> {
        let text = String::from_utf8(cast.into_inner()).unwrap();
        assert!(text.ends_with('\n'), "every line is complete: {text:?}");
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[test]
    fn a_cast_is_a_header_then_one_event_a_line() {
        let mut cast = Cast::start(Vec::new(), (80, 24), 1_700_000_000, Some("xterm")).unwrap();
        cast.output(ms(0), b"\x1b[?1049h").unwrap();
        cast.output(ms(1500), "┌─\"q\"\\".as_bytes()).unwrap();
        cast.resize(Duration::from_micros(2_000_001), (100, 30))
            .unwrap();
        cast.output(ms(2500), b"x").unwrap();
        let lines = lines(cast);
        assert_eq!(
            lines[0],
            json!({"version": 2, "width": 80, "height": 24, "timestamp": 1_700_000_000u64,
                   "env": {"TERM": "xterm"}})
        );
        assert_eq!(lines[1], json!([0.0, "o", "\u{1b}[?1049h"]));
        assert_eq!(lines[2], json!([1.5, "o", "┌─\"q\"\\"]));
        assert_eq!(lines[3], json!([2.000001, "r", "100x30"]));
        assert_eq!(lines[4], json!([2.5, "o", "x"]));
        assert_eq!(lines.len(), 5);
    }

    #[test]
    fn a_header_without_a_term_has_no_env() {
        let cast = Cast::start(Vec::new(), (10, 5), 0, None).unwrap();
        assert_eq!(
            lines(cast)[0],
            json!({"version": 2, "width": 10, "height": 5, "timestamp": 0})
        );
    }

    #[test]
    fn a_character_cut_between_writes_is_written_whole_with_the_rest() {
        let text = "a─é😀b".as_bytes();
        // Every way of cutting the bytes in two, and the bytes one at a time.
        for cut in 0..=text.len() {
            let mut cast = Cast::start(Vec::new(), (80, 24), 0, None).unwrap();
            cast.output(ms(1), &text[..cut]).unwrap();
            cast.output(ms(2), &text[cut..]).unwrap();
            let events = lines(cast);
            let joined: String = events[1..].iter().map(|e| e[2].as_str().unwrap()).collect();
            assert_eq!(joined, "a─é😀b", "cut at {cut}");
        }
        let mut cast = Cast::start(Vec::new(), (80, 24), 0, None).unwrap();
        for (i, byte) in text.iter().enumerate() {
            cast.output(ms(i as u64), std::slice::from_ref(byte))
                .unwrap();
        }
        let events = lines(cast);
        let pieces: Vec<&str> = events[1..].iter().map(|e| e[2].as_str().unwrap()).collect();
        assert_eq!(pieces, ["a", "─", "é", "😀", "b"]);
        let times: Vec<f64> = events[1..].iter().map(|e| e[0].as_f64().unwrap()).collect();
        assert!(times.windows(2).all(|t| t[0] < t[1]), "{times:?}");
    }

    #[test]
    fn bytes_that_are_not_utf8_become_replacement_characters() {
        let mut cast = Cast::start(Vec::new(), (80, 24), 0, None).unwrap();
        cast.output(ms(1), b"a\xffb\x80").unwrap();
        assert_eq!(lines(cast)[1], json!([0.001, "o", "a\u{fffd}b\u{fffd}"]));
    }
}
