//! Recording the live view (`--record FILE.cast`, `kiln serve --record-dir DIR`): every
//! byte of every frame the terminal was sent, with its time, as an asciicast v2 file
//! ([`super::cast`]) that `asciinema play` and the asciinema web player replay. The
//! recording starts with the screen (the switch to the alternate screen) and ends with the
//! last frame: the bytes that give the terminal back are not in it, so a replay ends on
//! the view's last screen, not on an empty one.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use ratatui::layout::Rect;

use super::cast::Cast;
use super::terminal::Sink;
use kiln_core::files::{Existing, check_new_file, create_streamed};
use kiln_core::input::InputError;

/// Refuses, before anything runs, a `--record` file that would replace one or that
/// cannot be made.
pub fn check(path: &Path) -> Result<(), InputError> {
    check_new_file(
        "--record",
        path,
        Existing::Refuse("choose another name"),
        &[],
    )
}

/// Creates the `--record` file (checked with [`check`] before the run was set up).
pub fn create(path: &Path) -> Result<File, InputError> {
    create_streamed(path)
        .map_err(|e| InputError::new("--record", format!("{}: {e}", path.display())))
}

/// Refuses a `--record-dir` that is not a directory kiln can make files in.
pub fn check_dir(dir: &Path) -> Result<(), InputError> {
    let refuse = |why: String| Err(InputError::new("--record-dir", why));
    let shown = dir.display();
    match fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => return refuse(format!("{shown} is not a directory")),
        Err(e) => return refuse(format!("{shown}: {e}")),
    }
    let probe = dir.join(format!(".kiln-{}.tmp", std::process::id()));
    match OpenOptions::new().write(true).create_new(true).open(&probe) {
        Ok(_) => {
            let _ = fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => refuse(format!("{shown}: cannot write there: {e}")),
    }
}

/// A new file in `dir` for session `number`, which started at `started`:
/// `kiln-20251125T003512Z-3.cast`, or the next number up that no file has (a server
/// started again within the second counts its sessions from 1 again).
pub fn create_in(dir: &Path, number: u64, started: SystemTime) -> io::Result<(File, PathBuf)> {
    let stamp = utc_stamp(unix_seconds(started));
    let mut number = number;
    loop {
        let path = dir.join(format!("kiln-{stamp}-{number}.cast"));
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => return Ok((file, path)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => number += 1,
            Err(e) => return Err(e),
        }
    }
}

fn unix_seconds(at: SystemTime) -> u64 {
    at.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// `YYYYMMDDTHHMMSSZ` for Unix time `seconds` (the civil calendar from days since
/// 1970-01-01, as in Howard Hinnant's `civil_from_days`).
fn utc_stamp(seconds: u64) -> String {
    let (days, time) = (seconds / 86_400, seconds % 86_400);
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = era * 400 + year_of_era + u64::from(month <= 2);
    let (hour, minute, second) = (time / 3600, time / 60 % 60, time % 60);
    format!("{year:04}{month:02}{day:02}T{hour:02}{minute:02}{second:02}Z")
}

/// A screen's sink whose frames are also written, with their times, to a cast file.
pub struct Recorded<S: Sink> {
    inner: S,
    cast: Cast<File>,
    /// The file's name, for errors.
    name: PathBuf,
    started: Instant,
    /// The bytes of the frame being drawn.
    frame: Vec<u8>,
}

impl<S: Sink> Recorded<S> {
    /// `inner`, recorded into `file` (named `name`), for a terminal of `area`'s size that
    /// calls itself `term`.
    pub fn new(
        inner: S,
        file: File,
        name: &Path,
        area: Rect,
        term: Option<&str>,
    ) -> io::Result<Recorded<S>> {
        let started = Instant::now();
        let timestamp = unix_seconds(SystemTime::now());
        let size = (area.width, area.height);
        let cast = Cast::start(file, size, timestamp, term);
        Ok(Recorded {
            inner,
            cast: cast.map_err(|e| failed(name, e))?,
            name: name.to_path_buf(),
            started,
            frame: Vec::new(),
        })
    }

    /// Writes what was sent since the last frame.
    fn record_frame(&mut self) -> io::Result<()> {
        if self.frame.is_empty() {
            return Ok(());
        }
        let at = self.started.elapsed();
        let written = self.cast.output(at, &self.frame);
        self.frame.clear();
        written.map_err(|e| failed(&self.name, e))
    }
}

/// A recording's failure, named.
fn failed(name: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("recording {}: {e}", name.display()))
}

impl<S: Sink> Write for Recorded<S> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.frame.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<S: Sink> Sink for Recorded<S> {
    fn ready(&self) -> bool {
        self.inner.ready()
    }

    /// A frame is one event of the cast, timed when it left.
    fn end_frame(&mut self) -> io::Result<()> {
        self.inner.end_frame()?;
        self.record_frame()
    }

    fn resized(&mut self, area: Rect) -> io::Result<()> {
        self.inner.resized(area)?;
        self.record_frame()?;
        let at = self.started.elapsed();
        let resized = self.cast.resize(at, (area.width, area.height));
        resized.map_err(|e| failed(&self.name, e))
    }

    fn restore(&mut self) {
        let _ = self.record_frame();
        self.inner.restore();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A terminal that keeps what it is sent.
    struct Kept(Vec<u8>);

    impl Write for Kept {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.write(buf)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Sink for Kept {
        fn restore(&mut self) {
            self.0.extend_from_slice(b"|restored");
        }
    }

    #[test]
    fn each_frame_is_an_event_a_resize_too_and_the_restore_is_left_out() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.cast");
        let area = Rect::new(0, 0, 80, 24);
        let mut out =
            Recorded::new(Kept(Vec::new()), create(&path).unwrap(), &path, area, None).unwrap();
        out.write_all(b"one ").unwrap();
        out.write_all(b"frame").unwrap();
        out.end_frame().unwrap();
        out.resized(Rect::new(0, 0, 100, 30)).unwrap();
        out.write_all(b"two").unwrap();
        out.end_frame().unwrap();
        out.restore();
        assert_eq!(out.inner.0, b"one frametwo|restored");
        let text = fs::read_to_string(&path).unwrap();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(
            (lines[0]["width"].as_u64(), lines[0]["height"].as_u64()),
            (Some(80), Some(24))
        );
        let events: Vec<(&str, &str)> = lines[1..]
            .iter()
            .map(|e| (e[1].as_str().unwrap(), e[2].as_str().unwrap()))
            .collect();
        assert_eq!(events, [("o", "one frame"), ("r", "100x30"), ("o", "two")]);
    }

    #[test]
    fn session_files_are_named_by_utc_time_and_never_collide() {
        assert_eq!(utc_stamp(0), "19700101T000000Z");
        // 2024-02-29 23:59:59 UTC, a leap day.
        assert_eq!(utc_stamp(1_709_251_199), "20240229T235959Z");
        assert_eq!(utc_stamp(1_764_030_912), "20251125T003512Z");
        let dir = tempfile::tempdir().unwrap();
        let at = UNIX_EPOCH + std::time::Duration::from_secs(1_764_030_912);
        let (_, first) = create_in(dir.path(), 3, at).unwrap();
        let (_, again) = create_in(dir.path(), 3, at).unwrap();
        assert_eq!(first, dir.path().join("kiln-20251125T003512Z-3.cast"));
        assert_eq!(again, dir.path().join("kiln-20251125T003512Z-4.cast"));
    }

    #[test]
    fn a_record_dir_must_be_a_directory_kiln_can_write_in() {
        let dir = tempfile::tempdir().unwrap();
        check_dir(dir.path()).unwrap();
        let file = dir.path().join("f");
        fs::write(&file, "").unwrap();
        let error = check_dir(&file).unwrap_err();
        assert!(error.message.contains("not a directory"), "{error}");
        let error = check_dir(&dir.path().join("missing")).unwrap_err();
        assert_eq!(error.source, "--record-dir");
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no probe left"
        );
    }

    #[test]
    fn an_existing_recording_is_refused_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("demo.cast");
        check(&path).unwrap();
        fs::write(&path, "mine").unwrap();
        let error = check(&path).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("--record: {} exists; choose another name", path.display())
        );
        assert!(create(&path).is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), "mine");
    }
}
