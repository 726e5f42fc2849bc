//! Who may connect: anyone (a public demo), the holders of listed keys, or whoever knows
//! a password whose hash is given; and who presents a shared run.

use std::fs;
use std::path::Path;

use argon2::{Argon2, PasswordHash, PasswordVerifier};
use russh::MethodKind;
use russh::MethodSet;
use russh::keys::PublicKey;
use russh::keys::ssh_key::AuthorizedKeys;

use super::Login;
use crate::input::InputError;

/// How clients get in.
enum Gate {
    Anyone,
    Keys(Vec<PublicKey>),
    Password(Hash),
}

/// A password hash in the PHC string format its tool writes.
enum Hash {
    Argon2(String),
    Bcrypt(String),
}

pub(super) struct Policy {
    gate: Gate,
    /// The key whose holder presents a shared run.
    presenter: Option<PublicKey>,
}

fn bad(path: &Path, why: impl Into<String>) -> InputError {
    InputError::new(path.display().to_string(), why)
}

fn read(path: &Path) -> Result<String, InputError> {
    fs::read_to_string(path).map_err(|e| bad(path, e.to_string()))
}

/// The keys of an authorized_keys file (options such as `command=` are not obeyed: a
/// client gets the view and nothing else whatever they say).
fn keys(path: &Path) -> Result<Vec<PublicKey>, InputError> {
    let text = read(path)?;
    let keys = AuthorizedKeys::new(&text)
        .map(|entry| entry.map(|e| e.public_key().clone()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| bad(path, format!("not an authorized_keys file ({e})")))?;
    if keys.is_empty() {
        return Err(bad(path, "lists no key"));
    }
    Ok(keys)
}

/// The one hash a password file holds (its first line that is not empty, with any
/// `user:` before it left out).
fn hash(path: &Path) -> Result<Hash, InputError> {
    let text = read(path)?;
    let line = text.lines().map(str::trim).find(|l| !l.is_empty());
    let line = line.ok_or_else(|| bad(path, "holds no password hash"))?;
    // htpasswd writes `user:hash`; no hash has a colon of its own.
    let line = line.rsplit(':').next().unwrap_or(line);
    if line.starts_with("$argon2") {
        PasswordHash::new(line).map_err(|e| bad(path, format!("not an argon2 hash ({e})")))?;
        Ok(Hash::Argon2(line.to_string()))
    } else if ["$2a$", "$2b$", "$2x$", "$2y$"]
        .iter()
        .any(|p| line.starts_with(p))
    {
        // bcrypt's own parser runs on verify; a malformed hash fails there, so try it now.
        bcrypt::verify("", line).map_err(|e| bad(path, format!("not a bcrypt hash ({e})")))?;
        Ok(Hash::Bcrypt(line.to_string()))
    } else {
        Err(bad(
            path,
            "holds no argon2 ($argon2...) or bcrypt ($2b$...) hash",
        ))
    }
}

/// A single public key, as in a `.pub` file.
fn presenter_key(path: &Path) -> Result<PublicKey, InputError> {
    let text = read(path)?;
    PublicKey::from_openssh(text.trim())
        .map_err(|e| bad(path, format!("not an OpenSSH public key ({e})")))
}

/// What a client's key makes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum KeyVerdict {
    Presenter,
    Admitted,
    Refused,
}

impl Policy {
    /// The policy of `login` and of the presenter's key: their files, read.
    pub(super) fn load(login: &Login, presenter: Option<&Path>) -> Result<Policy, InputError> {
        let gate = match login {
            Login::Keys(path) => Gate::Keys(keys(path)?),
            Login::Password(path) => Gate::Password(hash(path)?),
            Login::Anyone => Gate::Anyone,
        };
        Ok(Policy {
            gate,
            presenter: presenter.map(presenter_key).transpose()?,
        })
    }

    /// The methods offered, in the order a client should try them.
    pub(super) fn methods(&self) -> MethodSet {
        let methods: &[MethodKind] = match (&self.gate, &self.presenter) {
            // "none" first lets anyone in at once; with a presenter key, ssh must try keys
            // first, and keyboard-interactive (with no question) lets the others in.
            (Gate::Anyone, None) => &[MethodKind::None, MethodKind::KeyboardInteractive],
            (Gate::Anyone, Some(_)) => &[MethodKind::PublicKey, MethodKind::KeyboardInteractive],
            (Gate::Keys(_), _) => &[MethodKind::PublicKey],
            (Gate::Password(_), None) => &[MethodKind::Password],
            (Gate::Password(_), Some(_)) => &[MethodKind::PublicKey, MethodKind::Password],
        };
        MethodSet::from(methods)
    }

    /// Whether anyone gets in, with no key or password.
    pub(super) fn is_open(&self) -> bool {
        matches!(self.gate, Gate::Anyone)
    }

    /// Whether a client gets in without any proof (and then by which method).
    pub(super) fn open_to(&self, method: MethodKind) -> bool {
        self.is_open() && self.methods().contains(&method)
    }

    pub(super) fn judge_key(&self, key: &PublicKey) -> KeyVerdict {
        let same = |k: &PublicKey| k.key_data() == key.key_data();
        if self.presenter.as_ref().is_some_and(same) {
            return KeyVerdict::Presenter;
        }
        match &self.gate {
            Gate::Keys(keys) if keys.iter().any(same) => KeyVerdict::Admitted,
            _ => KeyVerdict::Refused,
        }
    }

    pub(super) fn takes_passwords(&self) -> bool {
        matches!(self.gate, Gate::Password(_))
    }

    /// Whether `password` is the one hashed; slow by design (run it off the async runtime).
    pub(super) fn password_matches(&self, password: &str) -> bool {
        match &self.gate {
            Gate::Password(Hash::Argon2(hash)) => Argon2::default()
                .verify_password(password.as_bytes(), hash.as_str())
                .is_ok(),
            Gate::Password(Hash::Bcrypt(hash)) => bcrypt::verify(password, hash).unwrap_or(false),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file holding `text`, removed when dropped.
    fn file(text: &str) -> tempfile::TempPath {
        let path = tempfile::NamedTempFile::new().unwrap().into_temp_path();
        fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn bcrypt_and_argon2_hashes_check_passwords() {
        // As htpasswd -nB writes it: user, colon, hash.
        let line = format!("class:{}\n", bcrypt::hash("sesame", 4).unwrap());
        let bcrypt = file(&line);
        let policy = Policy::load(&Login::Password(bcrypt.to_path_buf()), None).unwrap();
        assert!(policy.password_matches("sesame"));
        assert!(!policy.password_matches("sesame "));
        let hash: PasswordHash = argon2::PasswordHasher::hash_password_with_salt(
            &Argon2::default(),
            b"sesame",
            b"saltsaltsaltsalt",
        )
        .unwrap();
        let argon = file(&format!("{hash}\n"));
        let policy = Policy::load(&Login::Password(argon.to_path_buf()), None).unwrap();
        assert!(policy.password_matches("sesame"));
        assert!(!policy.password_matches("open"));
    }

    #[test]
    fn bad_files_are_one_clear_line() {
        let junk = file("hunter2\n");
        let err = Policy::load(&Login::Password(junk.to_path_buf()), None)
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains("no argon2") && err.contains(junk.to_str().unwrap()),
            "{err}"
        );
        let keys = file("ssh-ed25519 AAAAnotbase64!!\n");
        let err = Policy::load(&Login::Keys(keys.to_path_buf()), None)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("not an authorized_keys file"), "{err}");
        let missing = Path::new("/nonexistent/kiln/keys");
        assert!(Policy::load(&Login::Keys(missing.into()), None).is_err());
    }
}
