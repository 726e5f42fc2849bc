//! The server's ed25519 host key: made on the first start, kept readable by its owner
//! only, and shown by fingerprint so that clients can check whom they reach.

use std::fs;
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use russh::keys::ssh_key::LineEnding;
use russh::keys::{Algorithm, HashAlg, PrivateKey};

use super::small_file;
use crate::input::InputError;

/// Where the host key is kept when `--host-key` names no file: the user's state directory
/// (`$XDG_STATE_HOME`, else `~/.local/state`), under `kiln/`.
pub(super) fn default_path() -> Result<PathBuf, InputError> {
    let state = std::env::var_os("XDG_STATE_HOME")
        .filter(|dir| Path::new(dir).is_absolute())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".local/state")))
        .ok_or_else(|| {
            InputError::new(
                "--host-key",
                "neither XDG_STATE_HOME nor HOME is set: name the key file",
            )
        })?;
    Ok(state.join("kiln").join("ssh_host_ed25519_key"))
}

fn unreadable(path: &Path, why: impl std::fmt::Display) -> InputError {
    InputError::new(path.display().to_string(), why.to_string())
}

/// The key in `path`, made there first if there is none; `true` if it was made now.
pub(super) fn load_or_create(path: &Path) -> Result<(PrivateKey, bool), InputError> {
    let Some(text) = small_file::read_if_there(path)? else {
        return Ok((create(path)?, true));
    };
    let mode = fs::metadata(path)
        .map_err(|e| unreadable(path, e))?
        .permissions()
        .mode();
    // ssh refuses such keys too: anyone who can read it can pose as this server.
    if mode & 0o077 != 0 {
        return Err(unreadable(
            path,
            format!(
                "the host key is readable by others (mode {:o}): chmod 600 it",
                mode & 0o777
            ),
        ));
    }
    let key = PrivateKey::from_openssh(text.trim())
        .map_err(|e| unreadable(path, format!("not an OpenSSH private key ({e})")))?;
    Ok((key, false))
}

fn create(path: &Path) -> Result<PrivateKey, InputError> {
    let key = PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519)
        .map_err(|e| unreadable(path, format!("cannot make a key: {e}")))?;
    let text = key
        .to_openssh(LineEnding::LF)
        .map_err(|e| unreadable(path, format!("cannot encode the key: {e}")))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(|e| unreadable(dir, e))?;
    }
    // Made with mode 0600 from the start, and never over an existing file.
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .map_err(|e| unreadable(path, e))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(|e| unreadable(path, e))?;
    Ok(key)
}

/// The fingerprint ssh shows for the key: `SHA256:...`.
pub(super) fn fingerprint(key: &PrivateKey) -> String {
    key.public_key().fingerprint(HashAlg::Sha256).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_made_once_with_mode_0600_and_then_reused() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let path = dir.join("state/kiln/key");
        let (made, new) = load_or_create(&path).unwrap();
        assert!(new);
        assert_eq!(
            fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o600
        );
        let (again, new) = load_or_create(&path).unwrap();
        assert!(!new);
        assert_eq!(fingerprint(&made), fingerprint(&again));
        assert!(fingerprint(&made).starts_with("SHA256:"));
        fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
        let err = load_or_create(&path).unwrap_err().to_string();
        assert!(err.contains("readable by others"), "{err}");
    }
}
