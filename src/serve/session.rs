//! One SSH connection: who logs in, what the client asks for (a pty and a shell get the
//! view; everything else is refused), and the view's thread and output task.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::SyncSender;
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime};

use color_eyre::Result;
use crossterm::event::Event;
use ratatui::layout::Rect;
use russh::server::{Auth, ChannelOpenHandle, Handler, Msg, Session};
use russh::{Channel, ChannelId, ChannelWriteHalf, MethodKind, Pty};
use tokio::sync::mpsc::Receiver;

use super::auth::KeyVerdict;
use super::channel::{ClientEvents, Ended, Frames, QUEUE};
use super::limits::Place;
use super::{Mode, Server};
use crate::messages::warn;
use kiln_tui::key_bytes::Keys;
use kiln_tui::record::Recorded;
use kiln_tui::{self as ui, Screen, Sink, Theme};

/// Keys that may wait for a busy view; a client typing faster loses the rest.
const KEY_QUEUE: usize = 256;
/// Environment variables a client may send, and only to choose colours and glyphs.
const MAX_ENV: usize = 16;

/// What the log line says about a connection.
pub(super) struct Record {
    peer: SocketAddr,
    started: Instant,
    sent: AtomicU64,
    state: Mutex<RecordState>,
}

#[derive(Default)]
struct RecordState {
    user: Option<String>,
    mode: &'static str,
    logged_in: bool,
    why: Option<String>,
    /// The file its view is recorded in (`--record-dir`).
    cast: Option<String>,
}

impl Record {
    pub(super) fn new(peer: SocketAddr) -> Arc<Record> {
        Arc::new(Record {
            peer,
            started: Instant::now(),
            sent: AtomicU64::new(0),
            state: Mutex::new(RecordState {
                mode: "-",
                ..RecordState::default()
            }),
        })
    }

    fn state(&self) -> std::sync::MutexGuard<'_, RecordState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn logged_in(&self) -> bool {
        self.state().logged_in
    }

    /// Why the connection ended, if nothing said so before.
    pub(super) fn end(&self, why: &str) {
        self.state().why.get_or_insert_with(|| why.to_string());
    }

    /// Prints the connection's line on stderr, with `why` if nothing else said why it ended.
    pub(super) fn log_with(&self, why: &str) {
        let state = self.state();
        let user = state.user.as_deref().unwrap_or("-");
        let cast = match &state.cast {
            Some(name) => format!(" cast={name}"),
            None => String::new(),
        };
        warn(format_args!(
            "serve: {} user={} mode={} {:.1}s sent={} bytes{cast}: {}",
            self.peer,
            user.escape_debug(),
            state.mode,
            self.started.elapsed().as_secs_f64(),
            self.sent.load(Ordering::Relaxed),
            state.why.as_deref().unwrap_or(why)
        ));
    }
}

/// A client's handler: one per connection.
pub(super) struct Connection {
    server: Arc<Server>,
    record: Arc<Record>,
    /// Its handshake place until it logs in, then its session place (none if the server
    /// was full); given back when the connection ends and this handler with it.
    place: Option<Place>,
    presenter_key: bool,
    /// Whether the session channel is open (one per connection).
    opened: bool,
    /// The channel's writing half, until the view takes it.
    writer: Option<ChannelWriteHalf<Msg>>,
    /// From the pty request: TERM and the screen.
    pty: Option<(String, Rect)>,
    env: Vec<(String, String)>,
    /// The running view's key parser (which it shares, to read a held ESC) and its queue
    /// of keys and resizes.
    view: Option<(Arc<Mutex<Keys>>, SyncSender<Event>)>,
}

fn reject() -> Auth {
    Auth::Reject {
        proceed_with_methods: None,
        partial_success: false,
    }
}

fn accept_if(yes: bool) -> Auth {
    if yes { Auth::Accept } else { reject() }
}

/// The variables that choose colours and glyphs, and nothing else.
fn allowed_env(name: &str) -> bool {
    name == "TERM" || name == "LANG" || name.starts_with("LC_")
}

impl Connection {
    pub(super) fn new(server: Arc<Server>, record: Arc<Record>, handshake: Place) -> Connection {
        Connection {
            server,
            record,
            place: Some(handshake),
            presenter_key: false,
            opened: false,
            writer: None,
            pty: None,
            env: Vec::new(),
            view: None,
        }
    }

    /// The user a login request names; the connection is no longer silent, so a newcomer
    /// will not take its place.
    fn user(&self, user: &str) {
        if let Some(place) = &self.place {
            place.spoke();
        }
        // A user name is the client's to choose, and other clients see it (in a shared
        // run's status line): no control characters, and not too long.
        let user = user.chars().filter(|c| !c.is_control()).take(32).collect();
        self.record.state().user = Some(user);
    }

    /// Whether `key` gets `user` in, offered or proven, and what it makes them.
    fn judge_key(&self, user: &str, key: &russh::keys::PublicKey) -> (Auth, KeyVerdict) {
        self.user(user);
        let verdict = self.server.policy.judge_key(key);
        let auth = accept_if(verdict != KeyVerdict::Refused);
        (auth, verdict)
    }

    /// Writes `line` to the channel and ends it with exit status 1.
    fn refuse(
        &self,
        channel: ChannelId,
        line: &str,
        session: &mut Session,
    ) -> Result<(), russh::Error> {
        self.record.end(line);
        session.data(channel, format!("{line}\r\n").into_bytes())?;
        session.exit_status_request(channel, 1)?;
        session.eof(channel)?;
        session.close(channel)
    }

    /// The theme for the client's terminal, from its TERM and locale.
    fn theme(&self) -> Theme {
        let term = self.pty.as_ref().map(|(term, ..)| term.clone());
        Theme::for_terminal(self.server.glyphs, |name| {
            if name == "TERM" {
                return term.clone();
            }
            self.env
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        })
    }

    /// Starts the view: its thread runs the event loop, a task writes its frames.
    fn start_view(&mut self, write: ChannelWriteHalf<Msg>) {
        let screen = self
            .pty
            .as_ref()
            .map_or_else(|| ui::screen_area(80, 24), |&(_, area)| area);
        let (keys_tx, keys_rx) = std::sync::mpsc::sync_channel(KEY_QUEUE);
        let keys = Arc::new(Mutex::new(Keys::new()));
        let parser = Arc::clone(&keys);
        let (frames_tx, frames_rx) = tokio::sync::mpsc::channel(QUEUE);
        let theme = self.theme();
        let term = self.pty.as_ref().map(|(term, _)| term.clone());
        let server = Arc::clone(&self.server);
        let record = Arc::clone(&self.record);
        let who = {
            let state = record.state();
            format!(
                "{}@{}",
                state.user.as_deref().unwrap_or("-"),
                record.peer.ip()
            )
        };
        let presenter_key = self.presenter_key;
        record.state().mode = match server.mode {
            Mode::Own => "own",
            Mode::Shared(_) => "shared",
        };
        tokio::spawn(pump(
            frames_rx,
            write,
            Arc::clone(&self.server),
            Arc::clone(&record),
        ));
        let thread = std::thread::Builder::new()
            .name("kiln-session".to_string())
            .spawn(move || {
                let mut events = ClientEvents::new(keys_rx, parser, server.idle);
                if let Mode::Shared(stage) = &server.mode {
                    events.follow(stage.activity());
                }
                let frames = Frames::new(frames_tx);
                let sink = sink(&server, frames, screen, term.as_deref(), &record);
                let mut out = match sink.and_then(|sink| Screen::new(sink, screen)) {
                    Ok(out) => out,
                    Err(e) => return record.end(&format!("error: {e:#}")),
                };
                let result = view(
                    &server,
                    &mut out,
                    &mut events,
                    theme,
                    screen,
                    who,
                    presenter_key,
                );
                // Said before the screen goes: dropping it closes the channel, and the
                // connection's own "client left" would win the race.
                record.end(&match (result, events.ended) {
                    (Err(e), _) => format!("error: {e:#}"),
                    (Ok(()), _) if server.stop.load(Ordering::Relaxed) => {
                        "server stopped".to_string()
                    }
                    (Ok(()), Some(Ended::Idle)) => "idle".to_string(),
                    (Ok(()), Some(Ended::Left)) => "client left".to_string(),
                    (Ok(()), None) => "quit".to_string(),
                });
                drop(out);
            });
        if let Err(e) = thread {
            self.record.end(&format!("no thread for the view: {e}"));
            return;
        }
        self.view = Some((keys, keys_tx));
    }

    /// Whether `password` is the one hashed. Only a few checks run at once (`Checks`); a
    /// guess from an address with too many in line is refused unchecked.
    async fn check_password(&self, password: &str) -> bool {
        if !self.server.policy.may_match(password) {
            return false;
        }
        let Some(turn) = self.server.checks.turn(self.record.peer.ip()).await else {
            return false;
        };
        // Hashes are slow on purpose: check off the runtime's threads. The turn goes with
        // the check, so a client that leaves mid-check frees no turn before it ends.
        let server = Arc::clone(&self.server);
        let password = password.to_string();
        tokio::task::spawn_blocking(move || {
            let _turn = turn;
            server.policy.password_matches(&password)
        })
        .await
        .unwrap_or(false)
    }

    /// Hands an event to the view; dropped if the view is far behind (it takes keys
    /// every frame, so only a flood of them, or a view that is ending, finds it full).
    fn send(&self, event: Event) {
        if let Some((_, events)) = &self.view {
            let _ = events.try_send(event);
        }
    }
}

/// Where a client's view goes: its frames, recorded in a new file if the server records
/// its sessions (`--record-dir`), for a terminal of `area` that calls itself `term`.
fn sink(
    server: &Server,
    frames: Frames,
    area: Rect,
    term: Option<&str>,
    record: &Record,
) -> std::io::Result<Box<dyn Sink>> {
    let Some(dir) = &server.record_dir else {
        return Ok(Box::new(frames));
    };
    let number = server.recorded.fetch_add(1, Ordering::Relaxed) + 1;
    let (file, path) = ui::record::create_in(dir, number, SystemTime::now()).map_err(|e| {
        std::io::Error::new(e.kind(), format!("recording in {}: {e}", dir.display()))
    })?;
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    record.state().cast = Some(name.into_owned());
    Ok(Box::new(Recorded::new(frames, file, &path, area, term)?))
}

/// The event loop for one client: its own run, or its view of the shared one.
fn view(
    server: &Server,
    screen: &mut Screen<Box<dyn Sink>>,
    events: &mut ClientEvents,
    theme: Theme,
    area: Rect,
    who: String,
    presenter_key: bool,
) -> Result<()> {
    match &server.mode {
        Mode::Own => {
            let mut app = super::demo_app(theme, area, server.attract, server.speed)?;
            ui::event_loop(&mut app, server.fps, screen, events, &server.stop)
        }
        Mode::Shared(stage) => {
            let mut view = stage.join(who, presenter_key, theme);
            ui::Tui::resize(&mut view, area);
            ui::event_loop(&mut view, server.fps, screen, events, &server.stop)
        }
    }
}

/// Writes the view's frames as the client's window allows (so a stalled client holds
/// back only its own frames), then ends the channel: a goodbye if the server stops, and
/// the exit status.
async fn pump(
    mut frames: Receiver<Vec<u8>>,
    write: ChannelWriteHalf<Msg>,
    server: Arc<Server>,
    record: Arc<Record>,
) {
    while let Some(frame) = frames.recv().await {
        let n = frame.len() as u64;
        if write.data_bytes(frame).await.is_err() {
            return;
        }
        record.sent.fetch_add(n, Ordering::Relaxed);
    }
    if server.stop.load(Ordering::Relaxed) {
        let _ = write
            .data_bytes(&b"kiln serve is stopping. Goodbye!\r\n"[..])
            .await;
    }
    let failed = record
        .state()
        .why
        .as_deref()
        .is_some_and(|w| w.starts_with("error"));
    let _ = write.exit_status(u32::from(failed)).await;
    let _ = write.eof().await;
    let _ = write.close().await;
}

impl Handler for Connection {
    type Error = russh::Error;

    async fn auth_none(&mut self, user: &str) -> Result<Auth, Self::Error> {
        self.user(user);
        Ok(accept_if(self.server.policy.open_to(MethodKind::None)))
    }

    async fn auth_keyboard_interactive<'a>(
        &'a mut self,
        user: &str,
        _submethods: &str,
        _response: Option<russh::server::Response<'a>>,
    ) -> Result<Auth, Self::Error> {
        self.user(user);
        Ok(accept_if(
            self.server.policy.open_to(MethodKind::KeyboardInteractive),
        ))
    }

    async fn auth_publickey_offered(
        &mut self,
        user: &str,
        offer: russh::server::PublicKeyOffer<'_>,
    ) -> Result<Auth, Self::Error> {
        Ok(self.judge_key(user, offer.public_key).0)
    }

    async fn auth_publickey(
        &mut self,
        user: &str,
        key: russh::server::VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        let (auth, verdict) = self.judge_key(user, key.public_key);
        self.presenter_key = verdict == KeyVerdict::Presenter;
        Ok(auth)
    }

    async fn auth_password(&mut self, user: &str, password: &str) -> Result<Auth, Self::Error> {
        self.user(user);
        if let Some(place) = &self.place {
            // A guesser gives way to newcomers when every place to log in from is taken,
            // even while its guess waits in line.
            place.sent_password();
        }
        Ok(accept_if(self.check_password(password).await))
    }

    /// A session place is taken only now, so connections that never log in keep nobody out.
    async fn auth_succeeded(&mut self, session: &mut Session) -> Result<(), Self::Error> {
        self.record.state().logged_in = true;
        // The handshake place goes back first: it is not a session's.
        self.place = None;
        match self.server.limits.admit(self.record.peer.ip()) {
            Ok(place) => self.place = Some(place),
            Err(why) => {
                self.record.end("refused: server full");
                session.disconnect(russh::Disconnect::TooManyConnections, &why, "")?;
            }
        }
        Ok(())
    }

    async fn channel_open_session(
        &mut self,
        channel: Channel<Msg>,
        reply: ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        // One view per connection: a second session channel (ssh's connection sharing) is
        // refused, as dropping `reply` does.
        if !self.opened {
            self.opened = true;
            // Keys come through `data`; the reading half is not needed.
            let (_read, write) = channel.split();
            self.writer = Some(write);
            reply.accept().await;
        }
        Ok(())
    }

    async fn pty_request(
        &mut self,
        channel: ChannelId,
        term: &str,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _modes: &[(Pty, u32)],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        let term: String = term.chars().take(64).collect();
        self.pty = Some((term, ui::screen_area(col_width, row_height)));
        session.channel_success(channel)
    }

    async fn env_request(
        &mut self,
        channel: ChannelId,
        name: &str,
        value: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if allowed_env(name) && self.env.len() < MAX_ENV && name.len() <= 64 && value.len() <= 64 {
            self.env.push((name.to_string(), value.to_string()));
            session.channel_success(channel)
        } else {
            session.channel_failure(channel)
        }
    }

    async fn shell_request(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.view.is_some() {
            return session.channel_failure(channel);
        }
        if self.pty.is_none() {
            session.channel_success(channel)?;
            return self.refuse(
                channel,
                "kiln serve shows a full-screen view: connect from a terminal (ssh -t)",
                session,
            );
        }
        let Some(write) = self.writer.take() else {
            return session.channel_failure(channel);
        };
        session.channel_success(channel)?;
        self.start_view(write);
        Ok(())
    }

    async fn exec_request(
        &mut self,
        channel: ChannelId,
        _data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_success(channel)?;
        self.refuse(
            channel,
            "kiln serve runs no commands: connect without one to watch",
            session,
        )
    }

    async fn subsystem_request(
        &mut self,
        channel: ChannelId,
        name: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.record
            .end(&format!("refused subsystem {}", name.escape_debug()));
        session.channel_failure(channel)
    }

    async fn x11_request(
        &mut self,
        channel: ChannelId,
        _single_connection: bool,
        _x11_auth_protocol: &str,
        _x11_auth_cookie: &str,
        _x11_screen_number: u32,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_failure(channel)
    }

    async fn window_change_request(
        &mut self,
        _channel: ChannelId,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        // Clamped here as well as by the view, so no event carries a client's number.
        let area = ui::screen_area(col_width, row_height);
        self.send(Event::Resize(area.width, area.height));
        Ok(())
    }

    async fn data(
        &mut self,
        _channel: ChannelId,
        data: &[u8],
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        let (keys, throttle) = match &self.view {
            Some((keys, _)) => {
                let mut keys = keys.lock().unwrap_or_else(|e| e.into_inner());
                let now = Instant::now();
                (keys.feed(data, now), keys.throttle(now))
            }
            None => return Ok(()),
        };
        for key in keys {
            self.send(Event::Key(key));
        }
        // A client past its budget is not read for a moment, so its flood waits in its
        // own buffers instead of costing this server work to drop.
        if let Some(pause) = throttle {
            tokio::time::sleep(pause).await;
        }
        Ok(())
    }

    /// The view ends when the client closes the channel. (EOF alone only says no more keys
    /// will come: a client whose input is closed may still watch, until `--idle`.)
    async fn channel_close(
        &mut self,
        _channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.view = None;
        Ok(())
    }
}
