//! `kiln serve` end to end: the real binary serving on 127.0.0.1 (a port the OS picks),
//! the real OpenSSH client in a pseudo-terminal, its screen read with vt100.

use std::io::Read;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use portable_pty::CommandBuilder;

use crate::common::scratch::scratch;
use crate::common::screens::{self, Pty};
use crate::common::server::{Server, WAIT};

/// `ssh` to the server with `args`, no pty, no questions; its output.
trait Ssh {
    fn ssh(&self, args: &[&str]) -> Output;
}

impl Ssh for Server {
    fn ssh(&self, args: &[&str]) -> Output {
        let mut cmd = Command::new("ssh");
        cmd.args(ssh_options(self.port))
            .args(["-T", "-o", "BatchMode=yes"]);
        cmd.args(args);
        cmd.stdin(Stdio::null());
        output_within(cmd)
    }
}

fn ssh_options(port: u16) -> Vec<String> {
    [
        "-p",
        &port.to_string(),
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        "UserKnownHostsFile=/dev/null",
        "-o",
        "LogLevel=ERROR",
        "-o",
        "ConnectTimeout=10",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// Runs `cmd` to its end (killed after `WAIT`).
fn output_within(mut cmd: Command) -> Output {
    let child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let id = child.id();
    let (done, finished) = std::sync::mpsc::channel();
    thread::spawn(move || {
        let _ = done.send(child.wait_with_output());
    });
    match finished.recv_timeout(WAIT) {
        Ok(output) => output.unwrap(),
        Err(_) => {
            let _ = Command::new("kill").arg(id.to_string()).status();
            panic!("{cmd:?} did not finish");
        }
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// An interactive `ssh -tt` in a pseudo-terminal.
fn connect(server: &Server, args: &[&str], cols: u16, rows: u16) -> Pty {
    connect_as(server, args, cols, rows, "xterm-256color")
}

/// From a terminal that calls itself `term` (ssh sends it in its pty request).
fn connect_as(server: &Server, args: &[&str], cols: u16, rows: u16, term: &str) -> Pty {
    let mut cmd = CommandBuilder::new("ssh");
    cmd.args(ssh_options(server.port));
    cmd.args(["-tt"]);
    cmd.args(args);
    cmd.arg("127.0.0.1");
    cmd.env("TERM", term);
    cmd.env("LANG", "C.UTF-8");
    Pty::spawn(screens::open(cols, rows), cmd, cols, rows)
}

fn on_alternate_screen(client: &Pty) -> bool {
    client.screen.lock().unwrap().screen().alternate_screen()
}

#[test]
fn a_client_watches_steers_resizes_and_quits() {
    let _cores = crate::common::busy();
    let dir = scratch("steer");
    let server = Server::start(&dir, &[]);
    let fingerprint = server.log();
    assert!(fingerprint.contains("SHA256:"), "{fingerprint}");
    let mut client = connect(&server, &[], 100, 30);
    // The first frame may come before the run's first report ("starting..."): wait for
    // the stats it then shows.
    let screen = client.wait_for("Energy");
    assert!(screen.contains("[Sudoku]"), "{screen}");
    assert!(
        screen.contains('┌'),
        "a UTF-8 terminal gets box drawing:\n{screen}"
    );
    client.press(b" ");
    client.wait_for("PAUSED");
    // Paused, the screen stops changing and almost nothing is sent.
    thread::sleep(Duration::from_millis(300));
    let paused = client.output_rate(Duration::from_secs(1));
    assert!(paused < 200.0, "a paused screen sent {paused} bytes/s");
    client.press(b"?");
    client.wait_for("any key closes this help");
    client.press(b"?");
    client.wait_until("the help closed", |t| !t.contains("any key closes"));
    client.press(b"\t");
    client.wait_for("[TSP]");
    // Resized, the footer moves to the new last row.
    client.resize_view(120, 40);
    client.press(b"e");
    client.wait_for("saving is off here");
    client.press(b"q");
    assert_eq!(client.wait_exit(), 0);
    assert!(
        !on_alternate_screen(&client),
        "the client's terminal was not restored"
    );
    let log = server.wait_log("mode=own");
    assert!(log.contains("user=") && log.contains(": quit"), "{log}");
}

#[test]
fn a_recorded_session_replays_to_the_clients_screen() {
    let _cores = crate::common::busy();
    let dir = scratch("record");
    let casts = dir.join("casts");
    std::fs::create_dir(&casts).unwrap();
    let server = Server::start(&dir, &["--record-dir", casts.to_str().unwrap()]);
    let mut client = connect(&server, &[], 80, 24);
    client.wait_for("Energy");
    client.resize_view(100, 30);
    client.press(b" ");
    client.wait_for("PAUSED");
    let last = client.settled();
    client.press(b"q");
    assert_eq!(client.wait_exit(), 0);
    let log = server.wait_log(": quit");
    let files: Vec<PathBuf> = std::fs::read_dir(&casts)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    let [file] = &files[..] else {
        panic!("one recording for one session: {files:?}")
    };
    let name = file.file_name().unwrap().to_str().unwrap();
    assert!(
        name.starts_with("kiln-") && name.ends_with("Z-1.cast"),
        "{name}"
    );
    assert!(log.contains(&format!("cast={name}: quit")), "{log}");
    let cast = crate::common::cast::replay(file);
    cast.assert_replays((80, 24), "xterm-256color", &["100x30"], &last);
    assert!(cast.screen.screen().contents().contains("PAUSED"));
}

#[test]
fn the_clients_term_decides_ascii() {
    let _cores = crate::common::busy();
    let dir = scratch("ascii");
    let server = Server::start(&dir, &[]);
    let mut client = connect_as(&server, &[], 100, 30, "vt100");
    let screen = client.wait_for("[Sudoku]");
    assert!(
        screen.contains("+-------+"),
        "vt100 gets ASCII borders:\n{screen}"
    );
    assert!(screen.is_ascii(), "{screen}");
    client.press(b"q");
    assert_eq!(client.wait_exit(), 0);
}

#[test]
fn commands_subsystems_and_forwarding_are_refused() {
    let _cores = crate::common::busy();
    let dir = scratch("refuse");
    let server = Server::start(&dir, &[]);
    let ls = server.ssh(&["127.0.0.1", "ls"]);
    assert_eq!(ls.status.code(), Some(1), "{ls:?}");
    let said = text(&ls.stdout) + &text(&ls.stderr);
    assert_eq!(said.trim().lines().count(), 1, "{said}");
    assert!(said.contains("runs no commands"), "{said}");

    // sftp asks for its subsystem; scp (sftp mode) too.
    let mut sftp = Command::new("sftp");
    sftp.args(["-P", &server.port.to_string()]);
    sftp.args([
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        "UserKnownHostsFile=/dev/null",
    ]);
    sftp.args(["-o", "BatchMode=yes", "-b", "-", "127.0.0.1"]);
    sftp.stdin(Stdio::null());
    let sftp = output_within(sftp);
    assert!(!sftp.status.success(), "{sftp:?}");
    assert!(
        text(&sftp.stderr).contains("subsystem request failed"),
        "{sftp:?}"
    );

    // A remote forward is refused outright...
    let remote = server.ssh(&[
        "-N",
        "-o",
        "ExitOnForwardFailure=yes",
        "-R",
        "0:127.0.0.1:9",
        "127.0.0.1",
    ]);
    assert!(!remote.status.success(), "{remote:?}");
    assert!(
        text(&remote.stderr).contains("forwarding failed"),
        "{remote:?}"
    );

    // ...and a local one when something connects through it.
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let local_port = free.local_addr().unwrap().port();
    drop(free);
    let mut forward = Command::new("ssh");
    forward.args(ssh_options(server.port));
    let spec = format!("{local_port}:127.0.0.1:{}", server.port);
    forward.args(["-T", "-o", "BatchMode=yes", "-N", "-L", &spec, "127.0.0.1"]);
    let mut forward = forward
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + WAIT;
    let mut through = loop {
        if let Ok(stream) = TcpStream::connect(("127.0.0.1", local_port)) {
            break stream;
        }
        assert!(Instant::now() < deadline, "the forward never listened");
        thread::sleep(Duration::from_millis(50));
    };
    through.set_read_timeout(Some(WAIT)).unwrap();
    let mut got = Vec::new();
    // Through a working forward the server's own SSH banner would come back; refused,
    // ssh closes the connection at once.
    let started = Instant::now();
    let _ = through.read_to_end(&mut got);
    assert!(
        got.is_empty(),
        "the forward reached the server: {}",
        text(&got)
    );
    assert!(
        started.elapsed() < WAIT,
        "the forwarded connection was left hanging"
    );
    let _ = forward.kill();
    let _ = forward.wait();
}

fn keygen(dir: &Path, name: &str) -> PathBuf {
    keygen_as(dir, name, &["-t", "ed25519"])
}

/// A key made by `ssh-keygen` with `kind` (`-t rsa -b 3072`, say).
fn keygen_as(dir: &Path, name: &str, kind: &[&str]) -> PathBuf {
    let path = dir.join(name);
    let status = Command::new("ssh-keygen")
        .args(["-q", "-N", "", "-f"])
        .arg(&path)
        .args(kind)
        .status()
        .unwrap();
    assert!(status.success());
    path
}

#[test]
fn authorized_keys_let_in_their_holders_only() {
    let _cores = crate::common::busy();
    let dir = scratch("keys");
    let good = keygen(&dir, "good");
    let bad = keygen(&dir, "bad");
    let keys = dir.join("authorized_keys");
    std::fs::copy(good.with_extension("pub"), &keys).unwrap();
    let server = Server::start(&dir, &["--authorized-keys", keys.to_str().unwrap()]);
    let with = |key: &Path| {
        server.ssh(&[
            "-i",
            key.to_str().unwrap(),
            "-o",
            "IdentitiesOnly=yes",
            "127.0.0.1",
            "true",
        ])
    };
    let refused = with(&bad);
    assert_eq!(refused.status.code(), Some(255), "{refused:?}");
    assert!(
        text(&refused.stderr).contains("Permission denied"),
        "{refused:?}"
    );
    // The right key gets in (and is then told that commands are not run).
    let admitted = with(&good);
    assert_eq!(admitted.status.code(), Some(1), "{admitted:?}");
    assert!(
        text(&admitted.stdout).contains("runs no commands"),
        "{admitted:?}"
    );
}

/// Issue 33: an RSA key was taken when offered, then its signature refused ("Permission
/// denied"), as russh was built without RSA.
#[test]
fn rsa_keys_get_in_with_either_sha2_signature() {
    let _cores = crate::common::busy();
    let dir = scratch("rsa-keys");
    let keys = dir.join("authorized_keys");
    let mut listed = String::new();
    let made: Vec<PathBuf> = [2048, 3072]
        .into_iter()
        .map(|bits| {
            let key = keygen_as(
                &dir,
                &format!("rsa{bits}"),
                &["-t", "rsa", "-b", &bits.to_string()],
            );
            listed += &std::fs::read_to_string(key.with_extension("pub")).unwrap();
            key
        })
        .collect();
    std::fs::write(&keys, listed).unwrap();
    let server = Server::start(&dir, &["--authorized-keys", keys.to_str().unwrap()]);
    for key in &made {
        // OpenSSH signs with rsa-sha2-512 unless told otherwise.
        for algorithms in ["rsa-sha2-512", "rsa-sha2-256"] {
            let admitted = server.ssh(&[
                "-i",
                key.to_str().unwrap(),
                "-o",
                "IdentitiesOnly=yes",
                "-o",
                &format!("PubkeyAcceptedAlgorithms={algorithms}"),
                "127.0.0.1",
                "true",
            ]);
            assert_eq!(
                admitted.status.code(),
                Some(1),
                "{key:?} {algorithms}: {admitted:?}"
            );
            assert!(
                text(&admitted.stdout).contains("runs no commands"),
                "{key:?} {algorithms}: {admitted:?}"
            );
        }
    }
}

#[test]
fn a_password_file_lets_in_whoever_knows_the_password() {
    let _cores = crate::common::busy();
    let dir = scratch("password");
    let hash = dir.join("class.hash");
    std::fs::write(&hash, bcrypt::hash("sesame", 4).unwrap()).unwrap();
    let server = Server::start(&dir, &["--password-file", hash.to_str().unwrap()]);
    let with = |password: &str| {
        let askpass = dir.join(format!("askpass-{password}"));
        std::fs::write(&askpass, format!("#!/bin/sh\necho {password}\n")).unwrap();
        let mut cmd = Command::new("ssh");
        cmd.args(ssh_options(server.port));
        cmd.args(["-T", "-o", "PreferredAuthentications=password"]);
        cmd.args(["-o", "NumberOfPasswordPrompts=1", "127.0.0.1", "true"]);
        cmd.env("SSH_ASKPASS", &askpass)
            .env("SSH_ASKPASS_REQUIRE", "force");
        cmd.env("DISPLAY", ":0").stdin(Stdio::null());
        let status = Command::new("chmod")
            .arg("755")
            .arg(&askpass)
            .status()
            .unwrap();
        assert!(status.success());
        output_within(cmd)
    };
    let refused = with("open");
    assert_eq!(refused.status.code(), Some(255), "{refused:?}");
    let admitted = with("sesame");
    assert_eq!(admitted.status.code(), Some(1), "{admitted:?}");
    assert!(
        text(&admitted.stdout).contains("runs no commands"),
        "{admitted:?}"
    );
}

#[test]
fn the_presenter_key_presents_whoever_came_first() {
    let _cores = crate::common::busy();
    let dir = scratch("presenter");
    let key = keygen(&dir, "presenter");
    let public = key.with_extension("pub");
    let server = Server::start(
        &dir,
        &["--shared", "--presenter-key", public.to_str().unwrap()],
    );
    let mut early = connect(
        &server,
        &["-l", "early", "-o", "PubkeyAuthentication=no"],
        100,
        30,
    );
    early.wait_for("waiting for the presenter");
    let args = [
        "-l",
        "carol",
        "-i",
        key.to_str().unwrap(),
        "-o",
        "IdentitiesOnly=yes",
    ];
    let mut presenter = connect(&server, &args, 100, 30);
    presenter.wait_for("you present");
    early.wait_for("carol@127.0.0.1 presents");
    // The early client's keys steer nothing.
    early.press(b" ");
    thread::sleep(Duration::from_millis(500));
    assert!(!early.text().contains("PAUSED"), "{}", early.text());
    presenter.press(b" ");
    early.wait_for("PAUSED");
    presenter.press(b"q");
    assert_eq!(presenter.wait_exit(), 0);
    early.wait_for("waiting for the presenter");
    early.press(b"q");
    assert_eq!(early.wait_exit(), 0);
}

#[test]
fn shared_clients_all_see_the_presenters_pause_and_watchers_steer_nothing() {
    let _cores = crate::common::busy();
    let dir = scratch("shared");
    let server = Server::start(&dir, &["--shared"]);
    let mut presenter = connect(&server, &["-l", "alice"], 100, 30);
    presenter.wait_for("you present");
    let mut watcher = connect(&server, &["-l", "bob"], 90, 28);
    let watching = watcher.wait_for("alice@127.0.0.1 presents");
    assert!(watching.contains("[Sudoku]"), "{watching}");
    presenter.wait_for("1 watching");
    // A watcher's space pauses nothing.
    watcher.press(b" ");
    thread::sleep(Duration::from_millis(500));
    assert!(!presenter.text().contains("PAUSED"), "{}", presenter.text());
    presenter.press(b" ");
    presenter.wait_for("PAUSED");
    watcher.wait_for("PAUSED");
    presenter.press(b"\t");
    watcher.wait_for("[TSP]");
    // The presenter leaves; the watcher presents now.
    presenter.press(b"q");
    assert_eq!(presenter.wait_exit(), 0);
    watcher.wait_for("you present");
    watcher.press(b"q");
    assert_eq!(watcher.wait_exit(), 0);
    server.wait_log("mode=shared");
}

#[test]
fn extra_clients_are_told_the_server_is_full() {
    let _cores = crate::common::busy();
    let dir = scratch("full");
    let server = Server::start(&dir, &["--max-sessions", "1"]);
    let mut first = connect(&server, &[], 80, 24);
    first.wait_for("[Sudoku]");
    let extra = server.ssh(&["127.0.0.1"]);
    assert_eq!(extra.status.code(), Some(255), "{extra:?}");
    let said = text(&extra.stderr);
    assert!(said.contains("server full"), "{said}");
    server.wait_log("refused: server full");
    first.press(b"q");
    assert_eq!(first.wait_exit(), 0);
    // Its place is free again.
    let mut next = connect(&server, &[], 80, 24);
    next.wait_for("[Sudoku]");
    next.press(b"q");
    assert_eq!(next.wait_exit(), 0);
}

#[test]
fn garbage_from_one_client_leaves_the_server_and_the_others_running() {
    let _cores = crate::common::busy();
    let dir = scratch("garbage");
    let server = Server::start(&dir, &[]);
    let mut noisy = connect(&server, &[], 80, 24);
    let mut calm = connect(&server, &[], 80, 24);
    noisy.wait_for("[Sudoku]");
    calm.wait_for("[Sudoku]");
    // A fixed generator: the same bytes every run, with escape sequences cut short and
    // no 'q', Esc alone or Ctrl-C/D (which would only end the noisy session early).
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let cut = [
        &b"\x1b["[..],
        b"\x1b[1;",
        b"\x1bO",
        b"\x1b[200~",
        b"\xe2\x82",
        b"\xff",
    ];
    for round in 0..200 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mut packet: Vec<u8> = state.to_le_bytes().to_vec();
        packet.retain(|b| !matches!(b, b'q' | 3 | 4 | b'R' | b'e'));
        packet.extend_from_slice(cut[round % cut.len()]);
        noisy.press(&packet);
    }
    calm.press(b" ");
    calm.wait_for("PAUSED");
    calm.press(b"q");
    assert_eq!(calm.wait_exit(), 0);
    drop(noisy);
    let log = server.log();
    assert!(!log.contains("panicked"), "{log}");
}

#[test]
fn an_idle_session_is_closed() {
    let _cores = crate::common::busy();
    let dir = scratch("idle");
    let server = Server::start(&dir, &["--idle", "1s"]);
    let mut idle = connect(&server, &[], 80, 24);
    idle.wait_for("[Sudoku]");
    assert_eq!(idle.wait_exit(), 0);
    server.wait_log(": idle");
}

#[test]
fn sigterm_and_sighup_say_goodbye_to_every_client_and_exit_0() {
    let _cores = crate::common::busy();
    // SIGHUP: the terminal the server runs in was closed.
    for signal in ["TERM", "HUP"] {
        let dir = scratch("stop");
        let mut server = Server::start(&dir, &[]);
        let mut clients: Vec<Pty> = (0..2).map(|_| connect(&server, &[], 80, 24)).collect();
        for client in &clients {
            client.wait_for("[Sudoku]");
        }
        server.signal(signal);
        for client in &mut clients {
            client.wait_for("Goodbye");
            client.wait_exit();
            assert!(!on_alternate_screen(client), "SIG{signal}");
        }
        assert_eq!(server.wait_exit(), Some(0), "SIG{signal}");
        let log = server.log();
        assert!(
            log.contains("server stopped") && log.contains("serve: stopped"),
            "SIG{signal}: {log}"
        );
    }
}

#[test]
fn bad_flags_and_files_are_one_line_and_exit_2() {
    let _cores = crate::common::busy();
    let dir = scratch("bad-serve-files");
    // Hashes each guess would cost too much to check (issue 33): 2 GiB a check, 100
    // passes of 64 MiB, and bcrypt's cost 31 (which hung the server at start).
    let (salt, out) = ("c2FsdHNhbHRzYWx0c2FsdA", "A".repeat(43));
    let costly = [
        format!("$argon2id$v=19$m=2097152,t=1,p=4${salt}${out}"),
        format!("$argon2id$v=19$m=65536,t=100,p=4${salt}${out}"),
        format!("$2b$31${}", "a".repeat(53)),
    ];
    let costly: Vec<String> = costly
        .iter()
        .enumerate()
        .map(|(n, hash)| {
            let path = dir.join(format!("costly{n}.hash"));
            std::fs::write(&path, hash).unwrap();
            path.to_str().unwrap().to_string()
        })
        .collect();
    let mut cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--listen", "foo"], "'foo' is not ADDR:PORT"),
        (vec!["--presenter-key", "x.pub"], "add --shared"),
        (vec!["--password-file", "Cargo.toml"], "no argon2"),
        (
            vec!["--authorized-keys", "/nonexistent/keys"],
            "/nonexistent/keys",
        ),
        (vec!["--idle", "ten"], "not a time"),
        // Endless files are read no further than a key file could be (issue 33: they were
        // read on, at 350 MB/s).
        (vec!["--password-file", "/dev/zero"], "larger than 1 MiB"),
        (vec!["--authorized-keys", "/dev/zero"], "larger than 1 MiB"),
        (vec!["--host-key", "/dev/zero"], "larger than 1 MiB"),
        (
            vec!["--shared", "--presenter-key", "/dev/zero"],
            "larger than 1 MiB",
        ),
    ];
    for hash in &costly {
        cases.push((vec!["--password-file", hash], "kiln serve takes at most"));
    }
    let key = dir.join("host_key");
    for (args, says) in cases {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_kiln"));
        cmd.arg("serve");
        // Should a bad file be taken, the server starts where it harms nobody.
        if !args.contains(&"--listen") {
            cmd.args(["--listen", "127.0.0.1:0"]);
        }
        if !args.contains(&"--host-key") {
            cmd.arg("--host-key").arg(&key);
        }
        cmd.args(&args).stdin(Stdio::null());
        let output = output_within(cmd);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("kiln: ") && stderr.contains(says),
            "{args:?}: {stderr}"
        );
    }
}
