//! Writing a result file (`--output`) without ever destroying one: the path is checked
//! before the run starts (an existing file only with `--force`, an input of the same run
//! never), and the bytes go to a temporary file in the same directory that then takes the
//! name in one step, so a reader never sees half a file and a failed write leaves nothing.
//! A device or pipe (`/dev/stdout`, a FIFO) is written as it is: there is no file to keep.
//! A file that grows while a run goes (`--record`) passes the same check and is then
//! created new, never over one that appeared since.

use std::fmt;
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use crate::input::InputError;
use crate::search::interrupt;

/// Where a run writes its result, and whether it may replace a file there.
#[derive(Debug, Clone)]
pub struct Target {
    /// The file (or device) written.
    pub path: PathBuf,
    /// Whether an existing file there is replaced (`--force`).
    pub force: bool,
}

/// The result file could not be written after the run; the run's own result was printed.
#[derive(Debug)]
pub struct OutputFailed {
    /// The file that was not written.
    pub path: PathBuf,
    /// Why not.
    pub error: io::Error,
}

impl fmt::Display for OutputFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "--output {}: not written: {}",
            self.path.display(),
            self.error
        )
    }
}

impl std::error::Error for OutputFailed {}

/// What a file that is already there gets.
#[derive(Debug, Clone, Copy)]
pub enum Existing {
    /// Replaced (`--force`).
    Replace,
    /// Refused, with the way past it (e.g. "--force replaces it").
    Refuse(&'static str),
}

/// Refuses, before anything runs, a file `flag` would write at `path` that would replace
/// one of `inputs`, an existing file unless `existing` says to replace it, or a directory
/// that cannot take a new file. A device or pipe passes: it is written as it is.
pub fn check_new_file(
    flag: &str,
    path: &Path,
    existing: Existing,
    inputs: &[&Path],
) -> Result<(), InputError> {
    let refuse = |why: String| Err(InputError::new(flag, why));
    let shown = path.display();
    if let Some(input) = inputs.iter().find(|i| same_file(i, path)) {
        return refuse(format!(
            "{shown} is an input of this run ({}); choose another file",
            input.display()
        ));
    }
    if is_special(path) {
        return Ok(());
    }
    match (fs::symlink_metadata(path), existing) {
        (Ok(meta), _) if meta.is_dir() => return refuse(format!("{shown} is a directory")),
        (Ok(_), Existing::Refuse(instead)) => return refuse(format!("{shown} exists; {instead}")),
        _ => {}
    }
    remove_stale_temporaries(path);
    // Try the directory now rather than lose the result after a long run.
    let probe = temporary(path);
    match OpenOptions::new().write(true).create_new(true).open(&probe) {
        Ok(_) => {
            let _ = fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => refuse(format!("{shown}: cannot write there: {e}")),
    }
}

/// Opens `path` to write a file that grows as a run goes (a recording): a new file, never
/// one that is there already, or a device or pipe as it is.
pub fn create_streamed(path: &Path) -> io::Result<fs::File> {
    let mut options = OpenOptions::new();
    options.write(true);
    if !is_special(path) {
        options.create_new(true);
    }
    options.open(path)
}

/// Opens a device or pipe to write. A FIFO's open waits for a reader, which may never
/// come: it waits on a thread of its own, and a signal ends the wait (the thread is left
/// blocked, and ends with the process).
fn open_special(path: &Path) -> io::Result<fs::File> {
    let (opened, open) = mpsc::channel();
    let target = path.to_path_buf();
    std::thread::Builder::new()
        .name("kiln-output".to_string())
        .spawn(move || {
            let _ = opened.send(OpenOptions::new().write(true).open(target));
        })?;
    loop {
        match open.recv_timeout(Duration::from_millis(50)) {
            Ok(file) => return file,
            Err(mpsc::RecvTimeoutError::Timeout) if interrupt::requested().is_none() => {}
            Err(_) => {
                return Err(io::Error::new(
                    io::ErrorKind::Interrupted,
                    "interrupted while it waited for a reader",
                ));
            }
        }
    }
}

/// A name beside `path` for the bytes on their way.
fn temporary(path: &Path) -> PathBuf {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    path.with_file_name(format!(".{name}.kiln-{}.tmp", std::process::id()))
}

/// Removes the temporaries of `path` that a kiln killed while writing it left behind (a
/// SIGKILL gives no chance to clean up): `.NAME.kiln-PID.tmp` files of this user whose
/// process is gone. Where processes cannot be looked up (no `/proc`), nothing is removed.
fn remove_stale_temporaries(path: &Path) {
    use std::os::unix::fs::MetadataExt;
    let Ok(me) = fs::metadata("/proc/self") else {
        return;
    };
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let prefix = format!(".{name}.kiln-");
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    let Ok(entries) = fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let pid = (file.to_str())
            .and_then(|f| f.strip_prefix(&prefix)?.strip_suffix(".tmp"))
            .and_then(|pid| pid.parse::<u32>().ok());
        let Some(pid) = pid else {
            continue;
        };
        let ours = entry
            .metadata()
            .is_ok_and(|m| m.is_file() && m.uid() == me.uid());
        let gone = !Path::new(&format!("/proc/{pid}")).exists();
        if ours && gone {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// The same file, by device and inode, whatever the path says.
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (fs::metadata(a), fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Whether `path` is a device, pipe or socket, written in place rather than replaced.
fn is_special(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    fs::metadata(path).is_ok_and(|m| {
        let kind = m.file_type();
        kind.is_char_device() || kind.is_block_device() || kind.is_fifo() || kind.is_socket()
    })
}

impl Target {
    /// The file at `path`, replaced if it exists only when `force`.
    pub fn new(path: &Path, force: bool) -> Self {
        Target {
            path: path.to_path_buf(),
            force,
        }
    }

    /// Refuses, before anything runs, an output that would replace one of `inputs`, an
    /// existing file without `--force`, or a directory that cannot take a new file.
    pub fn check(&self, inputs: &[&Path]) -> Result<(), InputError> {
        let existing = match self.force {
            true => Existing::Replace,
            false => Existing::Refuse("--force replaces it"),
        };
        check_new_file("--output", &self.path, existing, inputs)
    }

    /// Writes `bytes` to the target: all of them or nothing, never over a file unless
    /// `--force` (a file that appeared since the check is kept).
    pub fn write(&self, bytes: &[u8]) -> Result<(), OutputFailed> {
        let failed = |error| OutputFailed {
            path: self.path.clone(),
            error,
        };
        if is_special(&self.path) {
            let mut device = open_special(&self.path).map_err(failed)?;
            return device
                .write_all(bytes)
                .and_then(|()| device.flush())
                .map_err(failed);
        }
        let temporary = temporary(&self.path);
        let written = write_all_new(&temporary, bytes).and_then(|()| {
            if self.force {
                fs::rename(&temporary, &self.path)
            } else {
                // A hard link fails if the name is taken: nothing can be replaced.
                fs::hard_link(&temporary, &self.path)
            }
        });
        let _ = fs::remove_file(&temporary);
        written.map_err(failed)
    }
}

/// Writes `bytes` to a file that must not exist yet, through the `--output` writer (no race
/// can make it overwrite one, and a failed write leaves nothing).
pub fn write_new(path: &Path, bytes: &[u8]) -> io::Result<()> {
    Target::new(path, false)
        .write(bytes)
        .map_err(|failed| failed.error)
}

fn write_all_new(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = OpenOptions::new().write(true).create_new(true).open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_killed_run_s_temporary_is_removed_by_the_next_and_a_live_one_s_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.pbm");
        // No process has a PID this large (Linux's pid_max is at most 2^22).
        let dead = dir.path().join(".out.pbm.kiln-4294967295.tmp");
        // init's: alive as long as the system is (this process's own name is the one the
        // check tries the directory with).
        let live = dir.path().join(".out.pbm.kiln-1.tmp");
        let other = dir.path().join(".other.pbm.kiln-4294967295.tmp");
        for file in [&dead, &live, &other] {
            fs::write(file, b"partial").unwrap();
        }
        Target::new(&path, false).check(&[]).unwrap();
        assert!(!dead.exists());
        assert!(live.exists() && other.exists());
        Target::new(&path, false).write(b"P1\n1 1\n0\n").unwrap();
        assert!(path.exists());
    }

    #[test]
    fn an_existing_file_is_kept_unless_forced() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let path = dir.join("a.tour");
        fs::write(&path, "mine").unwrap();
        let keep = Target::new(&path, false);
        assert!(keep.check(&[]).unwrap_err().message.contains("--force"));
        assert!(keep.write(b"new").is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), "mine");
        let replace = Target::new(&path, true);
        replace.check(&[]).unwrap();
        replace.write(b"new").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(fs::read_dir(dir).unwrap().count(), 1, "no temporary left");
    }

    #[test]
    fn an_input_is_never_an_output_even_forced() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let input = dir.join("x.tsp");
        fs::write(&input, "cities").unwrap();
        let other_name = dir.join(".").join("x.tsp");
        let error = Target::new(&other_name, true).check(&[&input]).unwrap_err();
        assert!(error.message.contains("is an input"), "{error}");
    }

    #[test]
    fn a_directory_that_cannot_take_the_file_is_refused_before_the_run() {
        let error = Target::new(Path::new("/nonexistent-dir/x.tour"), false)
            .check(&[])
            .unwrap_err();
        assert!(error.message.contains("cannot write there"), "{error}");
    }

    #[test]
    fn a_device_is_written_in_place_and_its_failure_reported() {
        let full = Target::new(Path::new("/dev/full"), false);
        full.check(&[]).unwrap();
        let error = full.write(b"x").unwrap_err();
        assert!(error.to_string().contains("/dev/full"), "{error}");
        assert!(
            is_special(Path::new("/dev/full")),
            "the device is still a device"
        );
        Target::new(Path::new("/dev/null"), false)
            .write(b"x")
            .unwrap();
    }
}
