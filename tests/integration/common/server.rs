//! `kiln serve` as a child process: the real binary on 127.0.0.1, a port the OS picks, its
//! stderr log collected, its memory read from /proc.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

pub(crate) const WAIT: Duration = Duration::from_secs(20);

pub(crate) struct Server {
    child: Child,
    pub(crate) port: u16,
    log: Arc<Mutex<String>>,
}

impl Server {
    pub(crate) fn start(dir: &Path, args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kiln"))
            .args(["serve", "--listen", "127.0.0.1:0", "--host-key"])
            .arg(dir.join("host_key"))
            .args(args)
            .env("XDG_STATE_HOME", dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let log = Arc::new(Mutex::new(String::new()));
        let (lines, seen) = (
            BufReader::new(child.stderr.take().unwrap()),
            Arc::clone(&log),
        );
        thread::spawn(move || {
            for line in lines.lines().map_while(Result::ok) {
                let mut log = seen.lock().unwrap();
                log.push_str(&line);
                log.push('\n');
            }
        });
        let mut server = Server {
            child,
            port: 0,
            log,
        };
        let log = server.wait_log("listening on 127.0.0.1:");
        let address = log.split("listening on 127.0.0.1:").nth(1).unwrap();
        let port: String = address.chars().take_while(char::is_ascii_digit).collect();
        server.port = port.parse().unwrap();
        server
    }

    pub(crate) fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    pub(crate) fn wait_log(&self, what: &str) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let log = self.log();
            if log.contains(what) {
                return log;
            }
            assert!(
                Instant::now() < deadline,
                "the server never said {what:?}:\n{log}"
            );
            thread::sleep(Duration::from_millis(20));
        }
    }

    pub(crate) fn signal(&self, name: &str) {
        let pid = self.child.id().to_string();
        assert!(
            Command::new("kill")
                .args(["-s", name, &pid])
                .status()
                .unwrap()
                .success()
        );
    }

    /// The server's exit code, once it has exited.
    pub(crate) fn wait_exit(&mut self) -> Option<i32> {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// How the server ended, if it has.
    pub(crate) fn exited(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().unwrap()
    }

    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// The server's peak resident memory so far (VmHWM), in KiB; `None` once it has gone.
    pub(crate) fn peak_memory_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line["VmHWM:".len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()
    }

    /// The CPU time the server has used so far (user and system), in seconds; `None` once
    /// it has gone.
    pub(crate) fn cpu_seconds(&self) -> Option<f64> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid())).ok()?;
        let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
        let ticks = |at: usize| fields.get(at)?.parse::<u64>().ok();
        // utime and stime, in the kernel's USER_HZ (100 a second on Linux).
        Some((ticks(11)? + ticks(12)?) as f64 / 100.0)
    }
}
