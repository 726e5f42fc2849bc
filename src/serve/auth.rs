//! Who may connect: anyone (a public demo), the holders of listed keys, or whoever knows
//! a password whose hash is given; and who presents a shared run.

use std::path::Path;

use argon2::{Argon2, PasswordHash, PasswordVerifier};
use russh::MethodKind;
use russh::MethodSet;
use russh::keys::PublicKey;
use russh::keys::ssh_key::AuthorizedKeys;

use super::{Login, small_file};
use crate::input::InputError;

/// How clients get in.
enum Gate {
    Anyone,
    Keys(Vec<PublicKey>),
    Password(Hash),
}

/// A password hash in the PHC string format its tool writes.
enum Hash {
    /// With the memory one check of it takes, in KiB (its `m`).
    Argon2 {
        hash: String,
        memory_kib: u32,
    },
    Bcrypt(String),
}

/// The most memory one argon2 check may take. Every wrong guess costs a full check, before
/// anyone has logged in: the server runs only as many at once as fit in 256 MiB
/// (`checks::CHECKS_MEMORY_KIB`), and a hash that alone does not fit is refused when the
/// server starts. RFC 9106's second
/// recommendation (m = 64 MiB, t = 3, p = 4; argon2-cffi's default) fits four times.
const MAX_ARGON2_KIB: u32 = 256 * 1024;
/// The most work one argon2 check may take: memory times passes, in KiB. 1 GiB of passes is
/// about a second of one core (m = 64 MiB, t = 3 is 192 MiB).
const MAX_ARGON2_WORK: u64 = 1 << 20;
/// The highest bcrypt cost taken: each step doubles a check's time, and cost 14 is about a
/// second of one core (htpasswd -B writes cost 5 by default).
const MAX_BCRYPT_COST: u32 = 14;
/// bcrypt reads a password's first 72 bytes, counting the NUL after it: a longer password
/// matched on its start would let in whoever knows only that, so it is refused.
const MAX_BCRYPT_PASSWORD: usize = 71;
/// What a bcrypt check takes besides its input (its state is 4 KiB).
const BCRYPT_KIB: u32 = 4;

/// An argon2 hash, checked for what one check of it would cost.
fn argon2(path: &Path, line: &str) -> Result<Hash, InputError> {
    let parsed =
        PasswordHash::new(line).map_err(|e| bad(path, format!("not an argon2 hash ({e})")))?;
    let params = argon2::Params::try_from(&parsed)
        .map_err(|e| bad(path, format!("not an argon2 hash ({e})")))?;
    let (memory_kib, passes) = (params.m_cost(), params.t_cost());
    if memory_kib > MAX_ARGON2_KIB {
        return Err(bad(
            path,
            format!(
                "the argon2 hash takes {} MiB a check (m={memory_kib}); kiln serve takes at \
                 most {} MiB, as every guess runs one (m=65536,t=3,p=4 fits)",
                memory_kib >> 10,
                MAX_ARGON2_KIB >> 10
            ),
        ));
    }
    if u64::from(memory_kib) * u64::from(passes) > MAX_ARGON2_WORK {
        return Err(bad(
            path,
            format!(
                "the argon2 hash takes m*t = {} MiB of passes a check; kiln serve takes at \
                 most {} MiB, as every guess runs one (m=65536,t=3,p=4 fits)",
                (u64::from(memory_kib) * u64::from(passes)) >> 10,
                MAX_ARGON2_WORK >> 10
            ),
        ));
    }
    Ok(Hash::Argon2 {
        hash: line.to_string(),
        memory_kib,
    })
}

/// A bcrypt hash, checked for its cost.
fn bcrypt(path: &Path, line: &str) -> Result<Hash, InputError> {
    let parts: bcrypt::HashParts = line
        .parse()
        .map_err(|e| bad(path, format!("not a bcrypt hash ({e})")))?;
    let cost = parts.get_cost();
    if cost > MAX_BCRYPT_COST {
        return Err(bad(
            path,
            format!(
                "the bcrypt hash has cost {cost}; kiln serve takes at most {MAX_BCRYPT_COST}, \
                 as every guess runs one check"
            ),
        ));
    }
    // bcrypt's own parser runs on verify; a malformed hash fails there, so try it now.
    bcrypt::verify("", line).map_err(|e| bad(path, format!("not a bcrypt hash ({e})")))?;
    Ok(Hash::Bcrypt(line.to_string()))
}

pub(super) struct Policy {
    gate: Gate,
    /// The key whose holder presents a shared run.
    presenter: Option<PublicKey>,
}

fn bad(path: &Path, why: impl Into<String>) -> InputError {
    InputError::new(path.display().to_string(), why)
}

/// The keys of an authorized_keys file (options such as `command=` are not obeyed: a
/// client gets the view and nothing else whatever they say).
fn keys(path: &Path) -> Result<Vec<PublicKey>, InputError> {
    let text = small_file::read(path)?;
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
    let text = small_file::read(path)?;
    let line = text.lines().map(str::trim).find(|l| !l.is_empty());
    let line = line.ok_or_else(|| bad(path, "holds no password hash"))?;
    // htpasswd writes `user:hash`; no hash has a colon of its own.
    let line = line.rsplit(':').next().unwrap_or(line);
    if line.starts_with("$argon2") {
        argon2(path, line)
    } else if ["$2a$", "$2b$", "$2x$", "$2y$"]
        .iter()
        .any(|p| line.starts_with(p))
    {
        bcrypt(path, line)
    } else {
        Err(bad(
            path,
            "holds no argon2 ($argon2...) or bcrypt ($2b$...) hash",
        ))
    }
}

/// A single public key, as in a `.pub` file.
fn presenter_key(path: &Path) -> Result<PublicKey, InputError> {
    let text = small_file::read(path)?;
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

    /// The memory one password check takes, in KiB (`None` without a password).
    pub(super) fn check_kib(&self) -> Option<u32> {
        match &self.gate {
            Gate::Password(Hash::Argon2 { memory_kib, .. }) => Some(*memory_kib),
            Gate::Password(Hash::Bcrypt(_)) => Some(BCRYPT_KIB),
            _ => None,
        }
    }

    /// Whether `password` could match, known without running the hash: not without a
    /// password hash, nor past what bcrypt reads.
    pub(super) fn may_match(&self, password: &str) -> bool {
        match &self.gate {
            Gate::Password(Hash::Bcrypt(_)) => password.len() <= MAX_BCRYPT_PASSWORD,
            Gate::Password(Hash::Argon2 { .. }) => true,
            _ => false,
        }
    }

    /// Whether `password` is the one hashed; slow by design (run it off the async runtime,
    /// with a turn from `Checks`).
    pub(super) fn password_matches(&self, password: &str) -> bool {
        match &self.gate {
            Gate::Password(Hash::Argon2 { hash, .. }) => Argon2::default()
                .verify_password(password.as_bytes(), hash.as_str())
                .is_ok(),
            Gate::Password(Hash::Bcrypt(hash)) => {
                bcrypt::non_truncating_verify(password, hash).unwrap_or(false)
            }
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
        std::fs::write(&path, text).unwrap();
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

    #[test]
    fn bcrypt_refuses_what_it_would_cut_short() {
        let long = "k".repeat(92);
        let hash = bcrypt::hash(&long, 4).unwrap();
        let policy = Policy::load(&Login::Password(file(&hash).to_path_buf()), None).unwrap();
        // Before, any password with the same first 72 bytes matched.
        assert!(!policy.may_match(&long[..MAX_BCRYPT_PASSWORD + 1]));
        assert!(!policy.password_matches(&long));
        assert!(!policy.password_matches(&format!("{}x", &long[..80])));
        let short = "k".repeat(MAX_BCRYPT_PASSWORD);
        let hash = bcrypt::hash(&short, 4).unwrap();
        let policy = Policy::load(&Login::Password(file(&hash).to_path_buf()), None).unwrap();
        assert!(policy.may_match(&short) && policy.password_matches(&short));
    }

    #[test]
    fn hashes_too_costly_to_check_per_guess_are_refused_at_load() {
        let salt = "c2FsdHNhbHRzYWx0c2FsdA";
        let out = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
        let refused = [
            // RFC 9106's first choice: 2 GiB a check.
            format!("$argon2id$v=19$m=2097152,t=1,p=4${salt}${out}"),
            // 64 MiB, but 100 passes.
            format!("$argon2id$v=19$m=65536,t=100,p=4${salt}${out}"),
            // bcrypt's highest cost: 2^31 rounds, days a check (and at load, before).
            format!("$2b$31${}", "a".repeat(53)),
        ];
        for line in refused {
            let path = file(&line);
            let err = Policy::load(&Login::Password(path.to_path_buf()), None)
                .err()
                .unwrap()
                .to_string();
            assert!(err.contains("kiln serve takes at most"), "{line}: {err}");
        }
        let fits = format!("$argon2id$v=19$m=65536,t=3,p=4${salt}${out}");
        let policy = Policy::load(&Login::Password(file(&fits).to_path_buf()), None).unwrap();
        assert_eq!(policy.check_kib(), Some(65536));
    }
}
