//! `kiln serve` against hostile clients (issue 22, item 7): the real binary on 127.0.0.1,
//! attacked through russh's client and raw TCP. Each case runs one attack against a fresh
//! server while a normal session watches, and asserts that the server lives, keeps
//! serving (that session's frames, a new client's first frame), stays small in memory, and
//! refuses what the README's security model says it refuses.

use std::any::Any;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use russh::client::{self, Handle, Msg};
use russh::{Channel, ChannelMsg, Pty};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::time::{sleep, timeout};

use crate::common::scratch::scratch;
use crate::common::server::{Server, WAIT};

/// Every frame the view sends starts by opening a synchronized update.
const FRAME: &[u8] = b"\x1b[?2026h";
/// How long a new client may wait for its first frame, attack or not. Generous: on a
/// loaded 2-core machine it took 0.05-0.11 s under every attack.
const FIRST_FRAME: Duration = Duration::from_secs(10);
/// The server's peak resident memory, in KiB, in the cases with at most three views at
/// the largest size (500x200). Measured (`numbers`, 2-core machine under load): 10 MB
/// idle, 13-19 MB for most cases, 43 MB for the window storm and 60 MB for the huge ptys
/// (three views clamped to 500x200); over three times the highest, and far below the
/// 1.8-2.4 GB that unclamped 10000x10000 resizes took. More views at 500x200 take more:
/// `VIEW_KIB` each (`large_views`).
const PEAK_KIB: u64 = 200 * 1024;
/// What a view at 500x200 may take, in KiB (docs/serve.md, "Memory": about 15 MB; 20
/// clients at 500x200 took 307 MB in all).
const VIEW_KIB: u64 = 16 * 1024;
/// Views at 500x200 in case 12.
const LARGE_VIEWS: usize = 8;
/// The normal session is watched at least this long, so that it has frames to show.
const WATCH: Duration = Duration::from_millis(1500);
/// An attack that takes longer than this is a hang.
const ATTACK_TIME: Duration = Duration::from_secs(20);

/// The password of the servers that take one (`--password-file`).
const PASSWORD: &str = "correct horse";

/// The address of the normal clients: attackers come from other loopback addresses, so
/// that the per-address limit (4) never turns the normal clients away.
const HOME: [u8; 4] = [127, 0, 0, 1];

/// Attacker `n`'s own loopback address (each may hold 4 sessions).
fn attacker(n: u8) -> [u8; 4] {
    [127, 0, 0, 10 + n]
}

/// A TCP connection to the server from the loopback address `from`.
async fn dial(port: u16, from: [u8; 4]) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::from((from, 0)))?;
    socket.connect(SocketAddr::from((HOME, port))).await
}

/// A fixed xorshift: the same noise every run, so that a failure can be replayed.
struct Noise(u64);

impl Noise {
    fn new(seed: u64) -> Noise {
        Noise(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// The client side of a connection: takes any host key, and keeps the message of the
/// server's disconnect ("server full ...").
#[derive(Default)]
struct Client {
    farewell: Arc<Mutex<Option<String>>>,
}

impl client::Handler for Client {
    type Error = russh::Error;

    // A key made for this test's server a moment ago: there is nothing to check it against.
    async fn check_server_key(
        &mut self,
        _key: &russh::keys::PublicKeyOrCertificate,
    ) -> Result<bool, Self::Error> {
        Ok(true)
    }

    async fn disconnected(
        &mut self,
        reason: client::DisconnectReason<Self::Error>,
    ) -> Result<(), Self::Error> {
        if let client::DisconnectReason::ReceivedDisconnect(info) = reason {
            *self.farewell.lock().unwrap() = Some(info.message);
        }
        Ok(())
    }
}

/// A connection that has logged in with "none" (the server's default: anyone gets in).
struct Login {
    handle: Handle<Client>,
    farewell: Arc<Mutex<Option<String>>>,
}

impl Login {
    async fn new(port: u16, from: [u8; 4]) -> Result<Login, String> {
        Login::with(port, from, client::Config::default()).await
    }

    /// Logs in from `from`; on failure, what the server said (its disconnect message) or
    /// what went wrong.
    async fn with(port: u16, from: [u8; 4], config: client::Config) -> Result<Login, String> {
        let client = Client::default();
        let farewell = Arc::clone(&client.farewell);
        let said = |e: russh::Error| farewell.lock().unwrap().clone().unwrap_or(e.to_string());
        let stream = dial(port, from).await.map_err(|e| e.to_string())?;
        let mut handle = client::connect_stream(Arc::new(config), stream, client)
            .await
            .map_err(said)?;
        // With a password file (`--password-file`), "none" is refused: then the password.
        let mut auth = handle.authenticate_none("hostile").await;
        if matches!(&auth, Ok(a) if !a.success()) {
            auth = handle.authenticate_password("hostile", PASSWORD).await;
        }
        match auth {
            Ok(auth) if auth.success() => Ok(Login { handle, farewell }),
            Ok(_) => Err("not let in".to_string()),
            Err(e) => {
                let _ = timeout(Duration::from_secs(2), &mut handle).await;
                Err(said(e))
            }
        }
    }

    /// A connection from `from` that offers `password` and nothing else; whether it got in.
    async fn password(port: u16, from: [u8; 4], password: &str) -> Result<bool, russh::Error> {
        let stream = dial(port, from).await?;
        let config = Arc::new(client::Config::default());
        let mut handle = client::connect_stream(config, stream, Client::default()).await?;
        Ok(handle
            .authenticate_password("guest", password)
            .await?
            .success())
    }

    /// What the server said when it sent this client away, once the connection has ended.
    async fn farewell(mut self, within: Duration) -> Option<String> {
        let _ = timeout(within, &mut self.handle).await;
        self.farewell.lock().unwrap().clone()
    }

    /// A session channel with a pty of `cols` x `rows` and a shell: the view.
    async fn view(&self, cols: u32, rows: u32) -> Result<Channel<Msg>, russh::Error> {
        let channel = self.handle.channel_open_session().await?;
        channel
            .request_pty(true, "xterm-256color", cols, rows, 0, 0, &[])
            .await?;
        channel.request_shell(true).await?;
        Ok(channel)
    }
}

/// What a channel has brought so far.
#[derive(Default)]
struct Received {
    bytes: usize,
    /// When each frame began.
    frames: Vec<Instant>,
    /// The end of the last packet, for a marker or cursor move cut between packets.
    tail: Vec<u8>,
    /// The start of the output (refusals are one line).
    start: Vec<u8>,
    /// Replies to requests, in order: success or failure.
    replies: Vec<bool>,
    exit: Option<u32>,
    closed: bool,
    /// The largest row and column the view moved its cursor to (1-based, as sent).
    reach: (u32, u32),
}

impl Received {
    fn take(&mut self, data: &[u8]) {
        self.bytes += data.len();
        let mut seen = std::mem::take(&mut self.tail);
        seen.extend_from_slice(data);
        let now = Instant::now();
        let mut at = 0;
        while let Some(i) = find(&seen[at..], FRAME) {
            self.frames.push(now);
            at += i + FRAME.len();
        }
        let (row, col) = reach(&seen);
        self.reach = (self.reach.0.max(row), self.reach.1.max(col));
        // Too short to hold a whole marker, which would be counted twice.
        let keep = seen.len().min(FRAME.len() - 1);
        self.tail = seen[seen.len() - keep..].to_vec();
        let room = 4096usize.saturating_sub(self.start.len());
        self.start.extend_from_slice(&data[..data.len().min(room)]);
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The largest row and column of the cursor moves (`ESC [ row ; col H`) in `bytes`.
fn reach(bytes: &[u8]) -> (u32, u32) {
    let mut most = (0, 0);
    let mut at = 0;
    while let Some(i) = find(&bytes[at..], b"\x1b[") {
        at += i + 2;
        let digits = |from: usize| {
            let n = bytes[from..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            let value = std::str::from_utf8(&bytes[from..from + n]).unwrap();
            (value.parse::<u32>().ok(), from + n)
        };
        let (Some(row), semi) = digits(at) else {
            continue;
        };
        if bytes.get(semi) != Some(&b';') {
            continue;
        }
        if let (Some(col), end) = digits(semi + 1)
            && bytes.get(end) == Some(&b'H')
        {
            most = (most.0.max(row), most.1.max(col));
        }
    }
    most
}

/// A channel read by a task of its own, its bytes counted as they come.
struct Reader {
    got: Arc<Mutex<Received>>,
    /// Requests go through this half; dropping it would not close the channel.
    write: russh::ChannelWriteHalf<Msg>,
}

impl Reader {
    fn new(channel: Channel<Msg>) -> Reader {
        let (mut read, write) = channel.split();
        let got = Arc::new(Mutex::new(Received::default()));
        let into = Arc::clone(&got);
        tokio::spawn(async move {
            while let Some(message) = read.wait().await {
                let mut got = into.lock().unwrap();
                match message {
                    ChannelMsg::Data { data } => got.take(&data),
                    ChannelMsg::Success => got.replies.push(true),
                    ChannelMsg::Failure => got.replies.push(false),
                    ChannelMsg::ExitStatus { exit_status } => got.exit = Some(exit_status),
                    ChannelMsg::Close => got.closed = true,
                    _ => {}
                }
            }
            into.lock().unwrap().closed = true;
        });
        Reader { got, write }
    }

    fn got(&self) -> std::sync::MutexGuard<'_, Received> {
        self.got.lock().unwrap()
    }

    fn frames_between(&self, from: Instant, to: Instant) -> usize {
        let got = self.got();
        got.frames.iter().filter(|&&t| t >= from && t <= to).count()
    }

    /// Waits (at most `within`) until `done` holds for what came; whether it did.
    async fn until(&self, within: Duration, done: impl Fn(&Received) -> bool) -> bool {
        let deadline = Instant::now() + within;
        loop {
            if done(&self.got()) {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            sleep(Duration::from_millis(10)).await;
        }
    }
}

/// A normal client: logs in, opens an 80x24 view and reads it.
struct Viewer {
    login: Login,
    reader: Reader,
}

impl Viewer {
    async fn open(port: u16, from: [u8; 4], cols: u32, rows: u32) -> Result<Viewer, String> {
        let login = Login::new(port, from).await?;
        let channel = match login.view(cols, rows).await {
            Ok(channel) => channel,
            Err(e) => {
                let farewell = login.farewell(Duration::from_secs(2)).await;
                return Err(farewell.unwrap_or_else(|| e.to_string()));
            }
        };
        Ok(Viewer {
            login,
            reader: Reader::new(channel),
        })
    }
}

/// How long a new 80x24 client from `from` waits for its first frame, or why it got none
/// (the server's disconnect message, when it sent one).
async fn first_frame(port: u16, from: [u8; 4]) -> Result<Duration, String> {
    let started = Instant::now();
    let viewer = Viewer::open(port, from, 80, 24).await?;
    if viewer
        .reader
        .until(WAIT, |got| !got.frames.is_empty())
        .await
    {
        Ok(started.elapsed())
    } else {
        let farewell = viewer.login.farewell(Duration::from_secs(1)).await;
        Err(farewell.unwrap_or_else(|| "no frame".to_string()))
    }
}

/// What one case measured.
struct Outcome {
    case: &'static str,
    /// The idle server's peak resident KiB, and the peak after the attack.
    before_kib: u64,
    peak_kib: u64,
    /// A new client's time to its first frame while the attack ran (`None` when the
    /// attack leaves no place for it), and after the attackers left.
    during: Option<Duration>,
    after: Duration,
    /// The normal session's frames while the attack ran.
    watched: usize,
    attack: Duration,
    /// The server's CPU time while the attack ran, in cores (1.0: one core all along).
    cores: f64,
}

/// What an attack holds (its connections) until the case has measured the server.
type Held = Box<dyn Any + Send>;

/// Runs `attack` against a fresh `kiln serve` with `args`, a normal session watching, and
/// a new client trying to get in meanwhile (unless `full`: the attack takes every place);
/// checks that the server came through, and says what it cost.
async fn under_attack<F>(
    case: &'static str,
    args: &[&str],
    full: bool,
    attack: impl FnOnce(u16) -> F,
) -> Outcome
where
    F: Future<Output = Held> + Send + 'static,
{
    under_attack_within(case, args, full, PEAK_KIB, attack).await
}

/// As `under_attack`, with a bound of its own on the server's peak memory, in KiB.
async fn under_attack_within<F>(
    case: &'static str,
    args: &[&str],
    full: bool,
    peak_bound: u64,
    attack: impl FnOnce(u16) -> F,
) -> Outcome
where
    F: Future<Output = Held> + Send + 'static,
{
    let dir = scratch(case);
    let mut server = Server::start(&dir, args);
    let port = server.port;
    let watcher = Viewer::open(port, HOME, 80, 24).await.unwrap();
    assert!(
        watcher
            .reader
            .until(WAIT, |got| !got.frames.is_empty())
            .await,
        "{case}: the normal session got no frame before the attack"
    );
    let before_kib = server.peak_memory_kib().unwrap();
    let cpu_before = server.cpu_seconds().unwrap();
    let started = Instant::now();
    let probe = async {
        if full {
            None
        } else {
            Some(first_frame(port, HOME).await)
        }
    };
    let (held, during) = tokio::join!(timeout(ATTACK_TIME, tokio::spawn(attack(port))), probe);
    let attack_time = started.elapsed();
    let cores = server
        .cpu_seconds()
        .map_or(0.0, |cpu| (cpu - cpu_before) / attack_time.as_secs_f64());
    let alive = |server: &mut Server, when: &str| {
        if let Some(status) = server.exited() {
            panic!(
                "{case}: the server died {when} ({status}):\n{}",
                server.log()
            );
        }
    };
    let held = match held {
        Ok(Ok(held)) => held,
        // An attacker's own check failed: a dead server is the likelier story.
        Ok(Err(failed)) => {
            alive(&mut server, "under attack");
            eprintln!("{case}: the server's log:\n{}", server.log());
            std::panic::resume_unwind(failed.into_panic())
        }
        Err(_) => panic!("{case}: the attack hung"),
    };
    sleep(WATCH.saturating_sub(attack_time)).await;
    let ended = Instant::now();
    alive(&mut server, "under attack");
    let during = during.map(|d| {
        d.unwrap_or_else(|e| panic!("{case}: a new client got no frame during the attack: {e}"))
    });
    let watched = watcher.reader.frames_between(started, ended);
    drop(held);
    let after = loop {
        // Places come free when the server has seen the attackers go.
        match first_frame(port, HOME).await {
            Err(e) if e.contains("server full") && started.elapsed() < ATTACK_TIME => {
                sleep(Duration::from_millis(100)).await
            }
            other => break other.unwrap_or_else(|e| panic!("{case}: no frame after: {e}")),
        }
    };
    alive(&mut server, "after the attack");
    let peak_kib = server.peak_memory_kib().unwrap();
    let log = server.log();
    assert!(!log.contains("panicked"), "{case}:\n{log}");
    assert!(
        watched > 0,
        "{case}: the normal session got no frame during the attack"
    );
    let outcome = Outcome {
        case,
        before_kib,
        peak_kib,
        during,
        after,
        watched,
        attack: attack_time,
        cores,
    };
    for time in outcome.during.iter().chain([&outcome.after]) {
        assert!(*time < FIRST_FRAME, "{case}: first frame after {time:?}");
    }
    assert!(
        peak_kib < peak_bound,
        "{case}: the server's peak resident memory reached {peak_kib} KiB"
    );
    outcome
}

/// Waits for a frame (that starts after `since`, if given) on a channel that stays open:
/// the view runs.
async fn still_drawing(reader: &Reader, since: Option<Instant>, what: &str) {
    let drew = reader
        .until(WAIT, |got| {
            got.closed
                || got
                    .frames
                    .last()
                    .is_some_and(|&t| since.is_none_or(|s| t > s))
        })
        .await;
    let got = reader.got();
    assert!(
        drew && !got.closed,
        "{what}: the view ended or stopped drawing ({} bytes, {} frames, replies {:?}, \
         exit status {:?}, closed {}): {:?}",
        got.bytes,
        got.frames.len(),
        got.replies,
        got.exit,
        got.closed,
        String::from_utf8_lossy(&got.start[..got.start.len().min(200)])
    );
}

/// Asserts that nothing this view drew lies outside the largest screen the server draws.
fn within_limits(reader: &Reader, what: &str) {
    let (row, col) = reader.got().reach;
    let (cols, rows) = kiln_tui::MAX_SCREEN;
    assert!(
        row <= u32::from(rows) && col <= u32::from(cols),
        "{what}: drawn out to row {row} column {col}"
    );
}

/// Case 1: pty requests with sizes no terminal has, or none at all.
async fn pty_sizes(port: u16) -> Held {
    let sizes = [
        (100_000, 100_000),
        (65_535, 65_535),
        (u32::MAX, u32::MAX),
        (0, 0),
        (1, 1),
        (100_000, 1),
    ];
    let mut held = Vec::new();
    for (n, (cols, rows)) in sizes.into_iter().enumerate() {
        let what = format!("a {cols}x{rows} pty");
        let login = Login::new(port, attacker(n as u8)).await.unwrap();
        let reader = Reader::new(login.view(cols, rows).await.unwrap());
        // Clamped, not refused: the pty and the shell are granted and the view draws.
        still_drawing(&reader, None, &what).await;
        assert_eq!(reader.got().replies, [true, true], "{what}");
        within_limits(&reader, &what);
        held.push((login, reader));
    }
    Box::new(held)
}

/// Window changes a storm is made of: huge, normal, random, absurd.
const STORM: usize = 3000;

/// Case 2: thousands of window changes, as fast as the client can send them.
async fn window_change_storm(port: u16) -> Held {
    let mut noise = Noise::new(2);
    let mut held = Vec::new();
    for n in 0..2 {
        let login = Login::new(port, attacker(n)).await.unwrap();
        let reader = Reader::new(login.view(80, 24).await.unwrap());
        for i in 0..STORM {
            let (cols, rows) = match i % 4 {
                0 => (10_000, 10_000),
                1 => (80, 24),
                2 => (noise.next() as u32 % 70_000, noise.next() as u32 % 70_000),
                _ => (u32::MAX, 0),
            };
            reader.write.window_change(cols, rows, 0, 0).await.unwrap();
        }
        let calm = Instant::now();
        reader.write.window_change(80, 24, 0, 0).await.unwrap();
        still_drawing(&reader, Some(calm), "after a storm").await;
        within_limits(&reader, "a storm");
        held.push((login, reader));
    }
    Box::new(held)
}

/// Case 3: requests as large as a packet can hold, many of them, and megabytes of keys.
async fn oversized_requests(port: u16) -> Held {
    let login = Login::new(port, attacker(0)).await.unwrap();
    let channel = login.handle.channel_open_session().await.unwrap();
    let huge = "N".repeat(100_000);
    channel.set_env(true, huge.as_str(), "1").await.unwrap();
    channel.set_env(true, "LANG", huge.as_str()).await.unwrap();
    // A name on the list, but 100 KB long (issue 33: 16 of them a session were kept).
    let long_name = format!("LC_{huge}");
    channel.set_env(true, long_name, "C").await.unwrap();
    for i in 0..2000 {
        let name = format!("LC_{i}");
        channel.set_env(false, name, "C.UTF-8").await.unwrap();
    }
    channel.set_env(true, "LC_LAST", "C").await.unwrap();
    // As many modes as russh takes (130), and a TERM of 100 KB.
    let modes: Vec<(Pty, u32)> = (0..130).map(|i| (Pty::VINTR, i)).collect();
    channel
        .request_pty(true, &huge, 80, 24, 0, 0, &modes)
        .await
        .unwrap();
    channel.request_shell(true).await.unwrap();
    let reader = Reader::new(channel);
    still_drawing(&reader, None, "a huge pty request").await;
    // A name not on the list, a value or name too long are refused; past 16 variables,
    // all are.
    assert_eq!(
        reader.got().replies,
        [false, false, false, false, true, true]
    );
    // 4 MB of keys, one letter over and over: past its queue of 256, the view drops them.
    for _ in 0..128 {
        reader
            .write
            .data_bytes(vec![b'z'; 32 * 1024])
            .await
            .unwrap();
    }
    let burst = Instant::now();
    reader.write.window_change(100, 30, 0, 0).await.unwrap();
    still_drawing(&reader, Some(burst), "after 4 MB of keys").await;

    // Past what russh takes, the connection that asked is ended: 20000 modes, or a TERM
    // of 1 MB (more than a packet may hold).
    let many: Vec<(Pty, u32)> = (0..20_000).map(|i| (Pty::VINTR, i)).collect();
    let long = "x".repeat(1 << 20);
    for (n, (term, modes)) in [("xterm", &many[..]), (&long[..], &[][..])]
        .into_iter()
        .enumerate()
    {
        let mut login = Login::new(port, attacker(1 + n as u8)).await.unwrap();
        let channel = login.handle.channel_open_session().await.unwrap();
        let _ = channel.request_pty(true, term, 80, 24, 0, 0, modes).await;
        assert!(
            timeout(WAIT, &mut login.handle).await.is_ok(),
            "a pty request of {} bytes of TERM and {} modes left its connection open",
            term.len(),
            modes.len()
        );
    }
    Box::new((login, reader))
}

/// Case 4: everything the security model refuses, each asked for once; the connection
/// that asked still gets its view.
async fn forbidden_requests(port: u16) -> Held {
    let login = Login::new(port, attacker(0)).await.unwrap();
    let handle = &login.handle;
    assert!(handle.tcpip_forward("127.0.0.1", 0).await.is_err());
    assert!(
        handle
            .streamlocal_forward("/tmp/kiln-hostile")
            .await
            .is_err()
    );
    let direct = handle.channel_open_direct_tcpip("127.0.0.1", u32::from(port), "127.0.0.1", 9);
    assert!(direct.await.is_err(), "direct-tcpip opened");
    let local = handle.channel_open_direct_streamlocal("/run/kiln-hostile");
    assert!(local.await.is_err(), "direct-streamlocal opened");
    assert!(handle.channel_open_x11("127.0.0.1", 6000).await.is_err());
    let channel = handle.channel_open_session().await.unwrap();
    // One session per connection (no second view behind ssh's connection sharing).
    assert!(handle.channel_open_session().await.is_err());
    channel.set_env(true, "PATH", "/tmp").await.unwrap();
    channel
        .set_env(true, "LD_PRELOAD", "/tmp/x.so")
        .await
        .unwrap();
    channel.set_env(true, "LANG", "C.UTF-8").await.unwrap();
    channel.agent_forward(true).await.unwrap();
    let cookie = "0123456789abcdef0123456789abcdef";
    channel
        .request_x11(true, false, "MIT-MAGIC-COOKIE-1", cookie, 0)
        .await
        .unwrap();
    channel.request_subsystem(true, "sftp").await.unwrap();
    channel
        .request_pty(true, "xterm", 80, 24, 0, 0, &[])
        .await
        .unwrap();
    channel.request_shell(true).await.unwrap();
    let reader = Reader::new(channel);
    still_drawing(&reader, None, "after the refusals").await;
    let refused = [false, false, true, false, false, false, true, true];
    assert_eq!(reader.got().replies, refused);

    // A command and a shell without a pty: one line each, exit status 1, closed.
    let mut others = Vec::new();
    for (n, exec) in [(1, true), (2, false)] {
        let other = Login::new(port, attacker(n)).await.unwrap();
        let channel = other.handle.channel_open_session().await.unwrap();
        if exec {
            channel.exec(true, "cat /etc/passwd").await.unwrap();
        } else {
            channel.request_shell(true).await.unwrap();
        }
        let reader = Reader::new(channel);
        assert!(reader.until(WAIT, |got| got.closed).await, "left open");
        let got = reader.got();
        let said = String::from_utf8_lossy(&got.start).into_owned();
        let expected = if exec { "runs no commands" } else { "ssh -t" };
        assert!(said.contains(expected), "{said:?}");
        assert_eq!(said.trim_end().lines().count(), 1, "{said:?}");
        assert_eq!(got.exit, Some(1), "{said:?}");
        drop(got);
        others.push(other);
    }
    Box::new((login, reader, others))
}

/// Case 5: clients that take their views and never read them.
async fn never_reads(port: u16) -> Held {
    let mut held = Vec::new();
    for n in 0..3 {
        // A buffer of one message: the client's connection stops reading at once.
        let config = client::Config {
            channel_buffer_size: 1,
            ..client::Config::default()
        };
        let login = Login::with(port, attacker(n), config).await.unwrap();
        let channel = login.view(200, 50).await.unwrap();
        held.push((login, channel));
    }
    // Long enough for every buffer on the way to fill, at the views' pace.
    sleep(Duration::from_secs(3)).await;
    Box::new(held)
}

/// `--max-sessions` for case 6: the normal session takes one of the places.
const MAX_SESSIONS: usize = 4;

/// Case 6: 12 clients at once (4 from each of 3 addresses) for the 3 places left.
async fn past_max_sessions(port: u16) -> Held {
    let mut tries = tokio::task::JoinSet::new();
    for n in 0..12 {
        tries.spawn(async move {
            let viewer = Viewer::open(port, attacker(n / 4), 80, 24).await?;
            let ended = |got: &Received| !got.frames.is_empty() || got.closed;
            viewer.reader.until(WAIT, ended).await;
            if viewer.reader.got().frames.is_empty() {
                Err(viewer.login.farewell(WAIT).await.unwrap_or_default())
            } else {
                Ok(viewer)
            }
        });
    }
    let mut admitted = Vec::new();
    let mut refusals = Vec::new();
    while let Some(tried) = tries.join_next().await {
        match tried.unwrap() {
            Ok(viewer) => admitted.push(viewer),
            Err(said) => refusals.push(said),
        }
    }
    assert_eq!(admitted.len(), MAX_SESSIONS - 1, "{refusals:?}");
    // Past the limit a client is told, or (beyond as many refusals at once as there are
    // places) its connection is closed unanswered.
    let told = refusals
        .iter()
        .filter(|s| s.contains("server full"))
        .count();
    assert!(told >= 1, "{refusals:?}");
    for said in &refusals {
        assert!(
            said.contains("server full") || !said.contains("kiln"),
            "{said}"
        );
    }
    Box::new(admitted)
}

/// Case 8: twice as many connections as there are session places, from two addresses,
/// that open and send nothing (until the login time runs out, 30 s). They hold places to
/// log in from, not sessions: the new client during the attack still gets its view.
async fn silent(port: u16) -> Held {
    let mut held = Vec::new();
    for n in 0..2 * MAX_SESSIONS {
        held.push(dial(port, attacker(n as u8 % 2)).await.unwrap());
    }
    // The server has taken them all before the new client comes.
    sleep(Duration::from_millis(300)).await;
    Box::new(held)
}

/// Sends `bytes` on a raw TCP connection from `from` and reads until the server closes
/// it; how long that took.
async fn raw(port: u16, from: [u8; 4], bytes: Vec<u8>) -> Duration {
    let mut stream = dial(port, from).await.unwrap();
    let started = Instant::now();
    // The server may close before it has read everything: a reset is an answer too.
    let _ = stream.write_all(&bytes).await;
    let mut sink = [0u8; 4096];
    let closed = timeout(WAIT, async {
        while let Ok(1..) = stream.read(&mut sink).await {}
    });
    assert!(closed.await.is_ok(), "a garbage connection was left open");
    started.elapsed()
}

/// Sequences cut short, and a lone Esc (the first half of an arrow key).
const CUT: [&[u8]; 7] = [
    b"\x1b[",
    b"\x1b[1;",
    b"\x1bO",
    b"\x1b[200~",
    b"\xe2\x82",
    b"\xff",
    b"\x1b",
];

/// Case 7: random bytes instead of the SSH banner, after it, and as a view's keys.
async fn garbage(port: u16) -> Held {
    let mut noise = Noise::new(7);
    let mut connections = tokio::task::JoinSet::new();
    for n in 0..8 {
        let banner: &[u8] = if n % 2 == 0 {
            b""
        } else {
            b"SSH-2.0-hostile\r\n"
        };
        let bytes = [banner, &noise.bytes(64 * 1024)].concat();
        connections.spawn(raw(port, attacker(n / 4), bytes));
    }
    while let Some(took) = connections.join_next().await {
        let took = took.unwrap();
        assert!(took < Duration::from_secs(5), "closed after {took:?}");
    }
    let login = Login::new(port, attacker(2)).await.unwrap();
    let reader = Reader::new(login.view(80, 24).await.unwrap());
    still_drawing(&reader, None, "a view for junk").await;
    // Arrow keys cut after their Esc, as a slow link delivers them.
    for _ in 0..5 {
        reader.write.data_bytes(&b"\x1b"[..]).await.unwrap();
        sleep(Duration::from_millis(20)).await;
        reader.write.data_bytes(&b"[C"[..]).await.unwrap();
    }
    let arrows = Instant::now();
    reader.write.window_change(90, 30, 0, 0).await.unwrap();
    still_drawing(&reader, Some(arrows), "after arrow keys cut in two").await;
    for round in 0..200 {
        let mut packet = noise.bytes(8 + round % 24);
        // Not the keys that quit (q, Ctrl-C, Ctrl-D): the session is to live through it.
        packet.retain(|b| !matches!(b, b'q' | 3 | 4));
        packet.extend_from_slice(CUT[round % CUT.len()]);
        reader.write.data_bytes(packet).await.unwrap();
    }
    // Junk may have paused the run; a resize draws a frame all the same.
    let junk = Instant::now();
    reader.write.window_change(100, 30, 0, 0).await.unwrap();
    still_drawing(&reader, Some(junk), "after junk keys").await;
    Box::new((login, reader))
}

/// How long the guessers of case 9 and the floods of case 10 go on.
const FLOOD: Duration = Duration::from_secs(3);
/// The server's peak memory in case 9, in KiB: the checks running at once take at most
/// 256 MiB together (one at a time on two cores), besides what serving takes. Before, every
/// guess ran at once: 2 GB for 32 guessers, 3.9-4.1 GB for 64.
const GUESSING_PEAK_KIB: u64 = PEAK_KIB + 256 * 1024;

/// An argon2 hash of `PASSWORD` with m = 64 MiB, t = 3, p = 4 (argon2-cffi's default), in
/// a file in `dir`.
fn argon2_file(dir: &std::path::Path) -> std::path::PathBuf {
    use argon2::PasswordHasher;
    let params = argon2::Params::new(64 * 1024, 3, 4, None).unwrap();
    let argon2 = argon2::Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, params);
    let hash = argon2
        .hash_password_with_salt(PASSWORD.as_bytes(), b"kiln-hostile-salt")
        .unwrap();
    let path = dir.join("argon2.hash");
    std::fs::write(&path, format!("{hash}\n")).unwrap();
    path
}

/// Case 9 (issue 33): 64 clients from 8 addresses (every place to log in from) guess
/// wrong passwords as fast as the server answers, each guess a full argon2 check. The new
/// client, with the right password, still gets in.
async fn guessing(port: u16) -> Held {
    let mut guessers = tokio::task::JoinSet::new();
    for n in 0..LOGIN_PLACES as u8 {
        guessers.spawn(async move {
            let until = Instant::now() + FLOOD;
            while Instant::now() < until {
                // Refused, or a connection that ran out of tries: connect again.
                let guessed = Login::password(port, attacker(n % 8), "wrong");
                if let Ok(Ok(admitted)) = timeout(until - Instant::now(), guessed).await {
                    assert!(!admitted, "a wrong password got in");
                } else {
                    sleep(Duration::from_millis(20)).await;
                }
            }
        });
    }
    while let Some(guesser) = guessers.join_next().await {
        guesser.unwrap();
    }
    Box::new(())
}

/// Case 10 (issue 33): four sessions stream ESC bytes as fast as they can. Before, each
/// byte cost the server 100 times a plain key's work: 2 cores busy, a new client's first
/// frame after 4-15 s.
async fn esc_floods(port: u16) -> Held {
    let mut floods = tokio::task::JoinSet::new();
    for n in 0..4u8 {
        floods.spawn(async move {
            let login = Login::new(port, attacker(n)).await.unwrap();
            let reader = Reader::new(login.view(80, 24).await.unwrap());
            let until = Instant::now() + FLOOD;
            while Instant::now() < until {
                let packet = reader.write.data_bytes(vec![0x1b; 32 * 1024]);
                if timeout(until - Instant::now(), packet).await.is_err() {
                    break;
                }
            }
            // The session lives through it.
            let flooded = Instant::now();
            reader.write.window_change(90, 30, 0, 0).await.unwrap();
            still_drawing(&reader, Some(flooded), "after an ESC flood").await;
            (login, reader)
        });
    }
    let mut held = Vec::new();
    while let Some(flood) = floods.join_next().await {
        held.push(flood.unwrap());
    }
    Box::new(held)
}

/// Places to log in from, and how long a connection may say nothing before a newcomer
/// may take its place (`serve::limits`).
const LOGIN_PLACES: usize = 64;
const SILENT_GRACE: Duration = Duration::from_secs(1);

/// Case 11 (issue 33): every place to log in from taken (8 from each of 8 addresses) by
/// connections that say nothing. Before, they kept everyone out for the login time
/// (30 s, and again as often as they came back); now a newcomer takes one's place.
async fn silent_flood(port: u16) -> Held {
    let mut held = Vec::new();
    for n in 0..LOGIN_PLACES {
        held.push(dial(port, attacker((n / 8) as u8)).await.unwrap());
    }
    sleep(SILENT_GRACE + Duration::from_millis(300)).await;
    let took = first_frame(port, HOME)
        .await
        .unwrap_or_else(|e| panic!("no frame with every place taken: {e}"));
    assert!(took < Duration::from_secs(5), "first frame after {took:?}");
    Box::new(held)
}

/// Case 12 (issue 33): clients at the largest size, reading all they get. Each view's
/// memory is bounded by the clamped size (`VIEW_KIB`); `--max-sessions` bounds their number.
async fn large_views(port: u16) -> Held {
    let mut held = Vec::new();
    for n in 0..LARGE_VIEWS {
        let viewer = Viewer::open(port, attacker((n / 4) as u8), 500, 200)
            .await
            .unwrap();
        still_drawing(&viewer.reader, None, "a 500x200 view").await;
        held.push(viewer);
    }
    Box::new(held)
}

/// The attacks, each run against a server of its own.
#[derive(Debug, Clone, Copy)]
enum Case {
    PtySizes,
    WindowChangeStorm,
    OversizedRequests,
    ForbiddenRequests,
    NeverReads,
    PastMaxSessions,
    Garbage,
    Silent,
    Guessing,
    EscFloods,
    SilentFlood,
    LargeViews,
}

impl Case {
    const ALL: [Case; 12] = [
        Case::PtySizes,
        Case::WindowChangeStorm,
        Case::OversizedRequests,
        Case::ForbiddenRequests,
        Case::NeverReads,
        Case::PastMaxSessions,
        Case::Garbage,
        Case::Silent,
        Case::Guessing,
        Case::EscFloods,
        Case::SilentFlood,
        Case::LargeViews,
    ];

    /// Runs the case on a runtime of its own.
    fn run(self) -> Outcome {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(self.attack())
    }

    async fn attack(self) -> Outcome {
        match self {
            Case::PtySizes => under_attack("pty-sizes", &[], false, pty_sizes).await,
            Case::WindowChangeStorm => {
                under_attack("window-change-storm", &[], false, window_change_storm).await
            }
            Case::OversizedRequests => {
                under_attack("oversized-requests", &[], false, oversized_requests).await
            }
            Case::ForbiddenRequests => {
                under_attack("forbidden-requests", &[], false, forbidden_requests).await
            }
            Case::NeverReads => under_attack("never-reads", &[], false, never_reads).await,
            Case::PastMaxSessions => {
                let max = MAX_SESSIONS.to_string();
                let args = ["--max-sessions", max.as_str()];
                under_attack("past-max-sessions", &args, true, past_max_sessions).await
            }
            Case::Garbage => under_attack("garbage", &[], false, garbage).await,
            Case::Silent => {
                let max = MAX_SESSIONS.to_string();
                let args = ["--max-sessions", max.as_str()];
                under_attack("silent-connections", &args, false, silent).await
            }
            Case::Guessing => {
                let dir = scratch("guessing-hash");
                let hash = argon2_file(&dir);
                let args = ["--password-file", hash.to_str().unwrap()];
                under_attack_within("guessing", &args, false, GUESSING_PEAK_KIB, guessing).await
            }
            Case::EscFloods => under_attack("esc-floods", &[], false, esc_floods).await,
            Case::SilentFlood => under_attack("silent-flood", &[], true, silent_flood).await,
            Case::LargeViews => {
                // The normal session and the new client are views of 80x24 besides.
                let peak = PEAK_KIB + LARGE_VIEWS as u64 * VIEW_KIB;
                under_attack_within("large-views", &[], false, peak, large_views).await
            }
        }
    }
}

#[test]
fn huge_and_zero_pty_sizes_are_clamped() {
    let _cores = crate::common::busy();
    Case::PtySizes.run();
}

#[test]
fn window_change_storms_are_absorbed() {
    let _cores = crate::common::busy();
    Case::WindowChangeStorm.run();
}

#[test]
fn oversized_requests_are_refused_or_cut() {
    let _cores = crate::common::busy();
    Case::OversizedRequests.run();
}

#[test]
fn forbidden_requests_are_refused() {
    let _cores = crate::common::busy();
    Case::ForbiddenRequests.run();
}

#[test]
fn clients_that_never_read_cost_little() {
    let _cores = crate::common::busy();
    Case::NeverReads.run();
}

#[test]
fn clients_past_max_sessions_are_told_the_server_is_full() {
    let _cores = crate::common::busy();
    Case::PastMaxSessions.run();
}

#[test]
fn silent_connections_keep_nobody_out() {
    let _cores = crate::common::busy();
    Case::Silent.run();
}

#[test]
fn garbage_before_and_after_the_handshake_is_shrugged_off() {
    let _cores = crate::common::busy();
    Case::Garbage.run();
}

#[test]
fn password_guessing_runs_a_few_checks_at_once() {
    let _cores = crate::common::busy();
    Case::Guessing.run();
}

#[test]
fn esc_floods_cost_the_server_no_more_than_a_persons_keys() {
    let _cores = crate::common::busy();
    let outcome = Case::EscFloods.run();
    // Before: two cores (all there were) for as long as the floods went on.
    assert!(
        outcome.cores < 0.5,
        "the server took {:.2} cores while four sessions flooded it",
        outcome.cores
    );
}

#[test]
fn silent_connections_in_every_login_place_keep_nobody_out() {
    let _cores = crate::common::busy();
    Case::SilentFlood.run();
}

#[test]
fn large_views_take_a_bounded_memory_each() {
    let _cores = crate::common::busy();
    Case::LargeViews.run();
}

/// Issue 33: bcrypt reads a password's first 72 bytes; past them, a password is refused
/// rather than let in by its start.
#[test]
fn bcrypt_refuses_passwords_past_72_bytes() {
    let _cores = crate::common::busy();
    let dir = scratch("bcrypt-72");
    let long = "k".repeat(92);
    let hash = dir.join("class.hash");
    std::fs::write(&hash, bcrypt::hash(&long, 4).unwrap()).unwrap();
    let server = Server::start(&dir, &["--password-file", hash.to_str().unwrap()]);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let same_start = format!("{}{}", &long[..72], "x".repeat(20));
    for (password, what) in [(&same_start, "its first 72 bytes"), (&long, "all of it")] {
        let admitted = runtime.block_on(Login::password(server.port, attacker(0), password));
        assert!(!admitted.unwrap(), "let in by {what}");
    }
}

/// The numbers for a note: every case in turn, what the server's memory reached and how
/// long a new client waited for its first frame. `cargo test --release --test integration
/// serve_hostile::numbers -- --ignored --nocapture`
#[test]
#[ignore = "prints measurements; run by hand"]
fn numbers() {
    let _cores = crate::common::alone();
    println!(
        "{:<20} {:>8} {:>10} {:>10} {:>12} {:>11} {:>8} {:>6}",
        "case", "attack", "idle KiB", "peak KiB", "first during", "first after", "frames", "cores"
    );
    let mut failed = Vec::new();
    for case in Case::ALL {
        // A failing case says why above its line; the others are still measured.
        let Ok(o) = std::panic::catch_unwind(|| case.run()) else {
            println!("{case:?} FAILED");
            failed.push(case);
            continue;
        };
        let during = o
            .during
            .map_or("-".to_string(), |d| format!("{:.3} s", d.as_secs_f64()));
        println!(
            "{:<20} {:>6.2} s {:>10} {:>10} {:>12} {:>9.3} s {:>8} {:>6.2}",
            o.case,
            o.attack.as_secs_f64(),
            o.before_kib,
            o.peak_kib,
            during,
            o.after.as_secs_f64(),
            o.watched,
            o.cores
        );
    }
    assert!(failed.is_empty(), "failed: {failed:?}");
}
