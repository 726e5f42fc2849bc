//! The server's own files (keys, a password hash) are small: each is read up to a bound, so
//! that a wrong path (`/dev/zero`, a disk image) is one clear line instead of gigabytes.

use std::io::Read;
use std::path::Path;

use crate::input::InputError;

/// More than any key or password file holds: an authorized_keys file of a thousand 4096-bit
/// RSA keys is 750 KB, a private key or a password hash a few KB.
pub(super) const MAX_BYTES: u64 = 1 << 20;

/// The text of `path`, refused past `MAX_BYTES` (read no further) or if it is not UTF-8.
pub(super) fn read(path: &Path) -> Result<String, InputError> {
    text(path, bytes(path))
}

/// As `read`, but `None` if there is no such file.
pub(super) fn read_if_there(path: &Path) -> Result<Option<String>, InputError> {
    match bytes(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        read => text(path, read).map(Some),
    }
}

/// The first `MAX_BYTES` and one of `path`: enough to tell it is too large.
fn bytes(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_BYTES + 1)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

fn text(path: &Path, read: std::io::Result<Vec<u8>>) -> Result<String, InputError> {
    let bad = |why: String| InputError::new(path.display().to_string(), why);
    let bytes = read.map_err(|e| bad(e.to_string()))?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(bad(format!(
            "larger than {} MiB: not a key or password file",
            MAX_BYTES >> 20
        )));
    }
    String::from_utf8(bytes).map_err(|_| bad("not UTF-8 text".to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_file_is_refused_after_the_bound() {
        let err = read(Path::new("/dev/zero")).unwrap_err().to_string();
        assert_eq!(
            err,
            "/dev/zero: larger than 1 MiB: not a key or password file"
        );
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), "ssh-ed25519 AAAA\n").unwrap();
        assert_eq!(read(file.path()).unwrap(), "ssh-ed25519 AAAA\n");
    }
}
