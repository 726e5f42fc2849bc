//! `kiln serve`: an SSH server whose only program is kiln's live view. Each client gets
//! its own run of the bare-kiln demos, or with `--shared` one run for everybody.

mod auth;
mod channel;
mod checks;
mod config;
mod host_key;
mod limits;
mod session;
mod shared;
mod small_file;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use color_eyre::Result;
use color_eyre::eyre::WrapErr;
use russh::server::Config as SshConfig;
use tokio::net::{TcpListener, TcpStream};

use crate::messages::warn;
use crate::search::worker::{self, Speed};
use auth::Policy;
use checks::Checks;
use kiln_tui::{App, Glyphs, Theme};
use limits::Limits;
use session::{Connection, Record};
use shared::Stage;

pub use config::{Config, Login, Sharing};

/// Time a client has to finish the handshake and log in.
const LOGIN_TIME: Duration = Duration::from_secs(30);
/// How long clients have to take their goodbye when the server stops.
const GOODBYE_TIME: Duration = Duration::from_secs(3);

/// Every session's run, or the one they share.
pub enum Mode {
    /// Each session runs its own.
    Own,
    /// One run on the stage, for everybody.
    Shared(Arc<Stage>),
}

/// What every connection shares.
pub struct Server {
    policy: Policy,
    mode: Mode,
    fps: u32,
    glyphs: Glyphs,
    attract: bool,
    /// The speed runs start at (`--speed`), or each demo's own.
    speed: Option<Speed>,
    idle: Duration,
    /// Set when the server stops: every view ends and says goodbye.
    stop: Arc<AtomicBool>,
    limits: Limits,
    /// Turns to check a password, a few at once however many guess.
    checks: Checks,
    /// Where each session's view is recorded (`--record-dir`).
    record_dir: Option<PathBuf>,
    /// Sessions recorded so far, which numbers their files.
    recorded: AtomicU64,
}

/// A new run of the bare-kiln demos for a terminal of `screen`'s size, with saving off.
fn demo_app(
    theme: Theme,
    screen: ratatui::layout::Rect,
    attract: bool,
    speed: Option<Speed>,
) -> Result<App> {
    let start = crate::problems::demos::bare();
    Ok(App::new(
        start.demos,
        start.tab,
        start.index,
        speed,
        theme,
        screen,
        attract,
    )?
    .without_saving())
}

/// Runs the server `config` describes until SIGINT, SIGTERM or SIGHUP.
pub fn run(config: &Config) -> Result<()> {
    let presenter_key = match &config.sharing {
        Sharing::Shared { presenter_key } => presenter_key.as_deref(),
        Sharing::Own => None,
    };
    let policy = Policy::load(&config.login, presenter_key)?;
    let key_path = match &config.host_key {
        Some(path) => path.clone(),
        None => host_key::default_path()?,
    };
    let (key, made) = host_key::load_or_create(&key_path)?;
    let stop = Arc::new(AtomicBool::new(false));
    let view = config.view;
    let mode = match config.sharing {
        Sharing::Shared { .. } => {
            let screen = ratatui::layout::Rect::new(0, 0, 80, 24);
            let app = demo_app(Theme::colour(false), screen, view.attract, view.speed)?;
            Mode::Shared(Stage::start(
                app,
                presenter_key.is_some(),
                view.fps,
                Arc::clone(&stop),
            ))
        }
        Sharing::Own => Mode::Own,
    };
    // One core stays for the server (key exchange, drawing); the runs share the rest.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    worker::share_cores(cores.saturating_sub(1).max(1));
    let checks = Checks::new(
        policy
            .check_kib()
            .map_or(1, |kib| checks::turns(cores, kib)),
    );
    let ssh = SshConfig {
        methods: policy.methods(),
        keys: vec![key.clone()],
        // Clients refused a login wait a moment before they may try again.
        auth_rejection_time: Duration::from_secs(1),
        auth_rejection_time_initial: Some(Duration::ZERO),
        max_auth_attempts: 6,
        // The view closes an idle session itself; this closes connections that never
        // got one, or whose client stopped answering.
        inactivity_timeout: Some(config.idle + LOGIN_TIME),
        keepalive_interval: Some(Duration::from_secs(30)),
        nodelay: true,
        ..SshConfig::default()
    };
    let server = Arc::new(Server {
        policy,
        mode,
        fps: view.fps,
        glyphs: view.glyphs,
        attract: view.attract,
        speed: view.speed,
        idle: config.idle,
        stop,
        limits: Limits::new(config.max_sessions),
        checks,
        record_dir: config.record_dir.clone(),
        recorded: AtomicU64::new(0),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("kiln-serve")
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = TcpListener::bind(config.listen)
            .await
            .wrap_err_with(|| format!("cannot listen on {}", config.listen))?;
        let address = listener.local_addr()?;
        let made = if made { "made now, " } else { "" };
        // On every address, clients name one of the machine's own.
        let host = if address.ip().is_unspecified() {
            "HOST".to_string()
        } else {
            address.ip().to_string()
        };
        warn_line(format_args!(
            "listening on {address} (ssh -p {} {host})",
            address.port()
        ));
        if !address.ip().is_loopback() && server.policy.is_open() {
            warn_line(format_args!(
                "anyone who reaches {address} gets in; --authorized-keys or --password-file \
                 limits who does"
            ));
        }
        warn_line(format_args!(
            "host key {} ({made}ed25519) {}",
            key_path.display(),
            host_key::fingerprint(&key)
        ));
        accept(&listener, &server, Arc::new(ssh)).await;
        goodbye(&server).await;
        Ok::<(), color_eyre::Report>(())
    })?;
    runtime.shutdown_timeout(Duration::from_millis(200));
    Ok(())
}

/// A line on stderr: `kiln serve: ...`.
fn warn_line(line: std::fmt::Arguments) {
    warn(format_args!("serve: {line}"));
}

/// Takes connections until SIGINT, SIGTERM or SIGHUP (the terminal the server runs in was
/// closed): each ends the server the same way, goodbyes first.
async fn accept(listener: &TcpListener, server: &Arc<Server>, ssh: Arc<SshConfig>) {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut interrupt), Ok(mut terminate), Ok(mut hangup)) = (
        signal(SignalKind::interrupt()),
        signal(SignalKind::terminate()),
        signal(SignalKind::hangup()),
    ) else {
        warn_line(format_args!("cannot watch for signals"));
        return;
    };
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((socket, peer)) => {
                    tokio::spawn(connection(Arc::clone(server), Arc::clone(&ssh), socket, peer));
                }
                // Out of descriptors, say: the clients already in go on; try again shortly.
                Err(e) => {
                    warn_line(format_args!("accept failed: {e}"));
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            },
            _ = interrupt.recv() => break,
            _ = terminate.recv() => break,
            _ = hangup.recv() => break,
        }
    }
}

/// Every view ends and tells its client goodbye; waits a little for them to leave.
async fn goodbye(server: &Server) {
    server.stop.store(true, Ordering::Relaxed);
    let deadline = Instant::now() + GOODBYE_TIME;
    while server.limits.open() > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    warn_line(format_args!("stopped"));
}

/// One client from TCP connection to its end, and its log line.
async fn connection(server: Arc<Server>, ssh: Arc<SshConfig>, socket: TcpStream, peer: SocketAddr) {
    let Some(handshake) = server.limits.handshake(peer.ip()) else {
        Record::new(peer).log_with("dropped: too many logging in at once");
        return;
    };
    let record = Record::new(peer);
    // A newcomer may take the place of a connection that says nothing while all are taken.
    let evicted = handshake.eviction();
    const EVICTED: &str = "closed: silent while others waited to log in";
    let handler = Connection::new(Arc::clone(&server), Arc::clone(&record), handshake);
    let handshake =
        tokio::time::timeout(LOGIN_TIME, russh::server::run_stream(ssh, socket, handler));
    let session = tokio::select! {
        done = handshake => match done {
            Ok(Ok(session)) => session,
            Ok(Err(e)) => return record.log_with(&format!("handshake failed: {e}")),
            Err(_) => return record.log_with("handshake took too long"),
        },
        () = evicted.notified() => return record.log_with(EVICTED),
    };
    let handle = session.handle();
    let login = Arc::clone(&record);
    let watchdog = tokio::spawn(async move {
        tokio::time::sleep(LOGIN_TIME).await;
        if !login.logged_in() {
            login.end("did not log in in time");
            let _ = handle
                .disconnect(
                    russh::Disconnect::ByApplication,
                    "login took too long".into(),
                    String::new(),
                )
                .await;
        }
    });
    tokio::select! {
        ended = session => if let Err(e) = ended {
            record.end(&format!("error: {e}"));
        },
        () = evicted.notified() => record.end(EVICTED),
    }
    watchdog.abort();
    record.log_with("client left");
}
