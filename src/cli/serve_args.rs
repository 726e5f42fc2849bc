//! The flags of `kiln serve`, read into the server's `Config`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::flags::ranges;
use crate::input::InputError;
use crate::serve::{Config, Login, Sharing};
use kiln_tui::Options;

/// `--listen ADDR:PORT`, as an IP address and a port.
fn listen(text: &str) -> Result<SocketAddr, String> {
    text.trim().parse().map_err(|_| {
        format!(
            "'{}' is not ADDR:PORT (e.g. 127.0.0.1:2222 or [::1]:2222)",
            crate::input::excerpt(text)
        )
    })
}

/// `kiln serve`'s flags.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address and port to listen on. The default takes clients of this machine only;
    /// 0.0.0.0:2222 takes anyone who can reach it. Port 0 picks a free one.
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:2222", value_parser = listen)]
    pub listen: SocketAddr,
    /// One run that every client sees: the first client (or the --presenter-key holder)
    /// steers it, the others watch.
    #[arg(long)]
    pub shared: bool,
    /// With --shared, the public key (a .pub file) of whoever presents; the others watch.
    #[arg(long, value_name = "FILE")]
    pub presenter_key: Option<PathBuf>,
    /// Let in only the holders of these keys (an authorized_keys file).
    #[arg(long, value_name = "FILE", conflicts_with = "password_file")]
    pub authorized_keys: Option<PathBuf>,
    /// Let in whoever knows the password hashed in FILE (one argon2 hash of at most
    /// m=262144, or bcrypt of at most cost 14: each guess runs a check).
    #[arg(long, value_name = "FILE")]
    pub password_file: Option<PathBuf>,
    /// The server's ed25519 key, made there if missing [default: kiln/ssh_host_ed25519_key
    /// in the state directory].
    #[arg(long, value_name = "FILE")]
    pub host_key: Option<PathBuf>,
    /// Clients at once (each gets its own run); at most 4 come from one address.
    #[arg(long, default_value_t = 16, value_parser = ranges::whole(ranges::SESSIONS))]
    pub max_sessions: usize,
    /// Close a session after this long without a key (e.g. 90s, 10m, 2h).
    #[arg(long, value_name = "TIME", default_value = "10m", value_parser = ranges::duration)]
    pub idle: f64,
    /// Record each session's view to a new asciicast v2 file in DIR (which must exist),
    /// named by its start time (UTC) and number: kiln-20251125T003512Z-3.cast.
    #[arg(long, value_name = "DIR")]
    pub record_dir: Option<PathBuf>,
}

impl ServeArgs {
    /// The server these flags ask for, with the view `view`, checked where clap cannot
    /// say what is wrong in one clear line.
    pub fn config(&self, view: Options) -> Result<Config, InputError> {
        let sharing = match (self.shared, &self.presenter_key) {
            (true, presenter_key) => Sharing::Shared {
                presenter_key: presenter_key.clone(),
            },
            (false, None) => Sharing::Own,
            (false, Some(_)) => {
                return Err(InputError::new(
                    "--presenter-key",
                    "names who presents a shared run: add --shared",
                ));
            }
        };
        if let Some(dir) = &self.record_dir {
            kiln_tui::record::check_dir(dir)?;
        }
        // clap refuses the two together.
        let login = match (&self.authorized_keys, &self.password_file) {
            (Some(keys), _) => Login::Keys(keys.clone()),
            (None, Some(file)) => Login::Password(file.clone()),
            (None, None) => Login::Anyone,
        };
        Ok(Config {
            listen: self.listen,
            login,
            sharing,
            host_key: self.host_key.clone(),
            max_sessions: self.max_sessions,
            idle: Duration::from_secs_f64(self.idle),
            record_dir: self.record_dir.clone(),
            view,
        })
    }
}
