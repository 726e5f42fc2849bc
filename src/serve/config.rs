//! `kiln serve` as the command line asked for it, read once at the edge
//! (`ServeArgs::config`): what the server is handed instead of its flags.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use kiln_tui::Options;

/// The server asked for, its defaults applied and its values checked (`--presenter-key`
/// only with `--shared`, `--record-dir` a directory kiln can write in).
#[derive(Debug, Clone)]
pub struct Config {
    /// The address and port to listen on; port 0 picks a free one.
    pub listen: SocketAddr,
    /// Who gets in.
    pub login: Login,
    /// Each client's own run, or one for everybody.
    pub sharing: Sharing,
    /// The server's ed25519 key file, made there if missing. `None` is
    /// `kiln/ssh_host_ed25519_key` in the state directory, found when the server starts,
    /// after the files of `login` and the presenter's key are read.
    pub host_key: Option<PathBuf>,
    /// Clients at once (each gets its own run); at most 4 come from one address.
    pub max_sessions: usize,
    /// A session ends after this long without a key.
    pub idle: Duration,
    /// The directory each session's view is recorded in, one asciicast file a session.
    pub record_dir: Option<PathBuf>,
    /// The live view each client sees: frames per second, glyphs, whether the demos move
    /// on by themselves, the speed runs start at.
    pub view: Options,
}

/// Who may log in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Login {
    /// Anyone who reaches the server.
    Anyone,
    /// The holders of the keys in this authorized_keys file.
    Keys(PathBuf),
    /// Whoever knows the password hashed (argon2 or bcrypt) in this file.
    Password(PathBuf),
}

/// Whose run a client sees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sharing {
    /// Each client its own run.
    Own,
    /// One run for everybody, steered by the first client or, given its public key (a
    /// .pub file), by the presenter; the others watch.
    Shared {
        /// The presenter's public key, if one was given.
        presenter_key: Option<PathBuf>,
    },
}
