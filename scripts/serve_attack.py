#!/usr/bin/env python3
"""The hostile-client reproducers of issue 22, against `kiln serve` on loopback, each on a
fresh server: what the server does (alive, exit code), how long it took and its peak
memory. Needs paramiko (`pip install paramiko`); stops by itself in about a minute.

    cargo build --release && python3 scripts/serve_attack.py
    KILN=/path/to/old/kiln python3 scripts/serve_attack.py    # the same against another build
"""
import os
import re
import signal
import subprocess
import tempfile
import time

import paramiko

from view_rate import status_kib as status

from kiln_binary import KILN


class Server:
    def __init__(self, work):
        self.log_path = os.path.join(work, f"server{time.monotonic_ns()}.log")
        self.proc = subprocess.Popen(
            [KILN, "serve", "--listen", "127.0.0.1:0", "--host-key", os.path.join(work, "key")],
            stderr=open(self.log_path, "w"), stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        for _ in range(200):
            m = re.search(r"listening on 127\.0\.0\.1:(\d+)", self.log())
            if m:
                self.port = int(m.group(1))
                return
            time.sleep(0.05)
        raise SystemExit("the server did not start")

    def log(self):
        return open(self.log_path).read()

    def alive(self):
        return self.proc.poll() is None

    def peak_mb(self):
        return status(self.proc.pid, "VmHWM") / 1024

    def rss_mb(self):
        return status(self.proc.pid, "VmRSS") / 1024

    def stop(self):
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


def client(port, width=80, height=24):
    """A logged-in session with a pty of `width` x `height` and the view started."""
    transport = paramiko.Transport(("127.0.0.1", port))
    transport.start_client(timeout=10)
    transport.auth_none("attacker")
    channel = transport.open_session()
    channel.get_pty(term="xterm-256color", width=width, height=height)
    channel.invoke_shell()
    return transport, channel


def drain(channel, seconds):
    """Reads what the channel sends for `seconds`; returns the bytes."""
    out = bytearray()
    end = time.monotonic() + seconds
    channel.settimeout(0.05)
    while time.monotonic() < end:
        try:
            data = channel.recv(1 << 16)
            if not data:
                break
            out += data
        except Exception:
            pass
    return bytes(out)


def case(name, work, attack):
    server = Server(work)
    start = time.monotonic()
    try:
        note = attack(server)
    except Exception as e:  # the attack's own connection may die with the server
        note = f"client error: {type(e).__name__}"
    took = time.monotonic() - start
    alive = server.alive()
    peak = server.peak_mb()
    # Can a normal client still get a first frame?
    first = "-"
    if alive:
        try:
            t0 = time.monotonic()
            transport, channel = client(server.port)
            got = bytearray()
            channel.settimeout(0.01)
            while b"\x1b[?2026h" not in got and time.monotonic() - t0 < 10:
                try:
                    got += channel.recv(1 << 16)
                except Exception:
                    pass
            if b"\x1b[?2026h" in got:
                first = f"{time.monotonic() - t0:.2f} s"
            transport.close()
        except Exception as e:
            first = f"failed ({type(e).__name__})"
    code = server.stop()
    print(f"| {name} | {'up' if alive else 'DOWN'} | {took:.1f} s | {peak:,.0f} MB | {first} | "
          f"{code} | {note} |", flush=True)


def huge_pty(server):
    transport, channel = client(server.port, 100000, 100000)
    drain(channel, 3)
    transport.close()
    return ""


def window_change(size):
    def attack(server):
        transport, channel = client(server.port)
        drain(channel, 0.5)
        channel.resize_pty(width=size, height=size)
        got = drain(channel, 3)
        during = server.rss_mb()
        transport.close()
        left = time.monotonic()
        while "user=attacker" not in server.log() and time.monotonic() - left < 30:
            time.sleep(0.05)
        ended = time.monotonic() - left
        time.sleep(0.5)
        return (f"{len(got) / 3 / 1000:.1f} KB/s of frames; RSS {during:.0f} MB after 3 s, "
                f"{server.rss_mb():.0f} MB after it left; its session ended in {ended:.2f} s")
    return attack


def split_arrow(server):
    transport, channel = client(server.port)
    drain(channel, 0.5)
    channel.send(b"\x1b")
    time.sleep(0.15)
    try:
        channel.send(b"[C")
    except OSError:
        pass
    drain(channel, 1.0)
    ended = channel.exit_status_ready() or channel.closed
    transport.close()
    return "the session quit" if ended else "the session went on (one key)"


def hangup(server):
    transport, channel = client(server.port)
    drain(channel, 0.5)
    server.proc.send_signal(signal.SIGHUP)
    got = drain(channel, 4)
    transport.close()
    code = server.proc.wait(timeout=10)
    restored = b"\x1b[?1049l" in got and b"\x1b[?25h" in got
    goodbye = b"Goodbye" in got
    return f"exit {code}; client's terminal restored: {restored}; goodbye: {goodbye}"


def main():
    work = tempfile.mkdtemp(prefix="kiln-attack-")
    print("| reproducer | server after | wall | peak RSS | next client's first frame | exit | notes |")
    print("|---|---|---|---|---|---|---|")
    case("pty request 100000x100000", work, huge_pty)
    case("window change to 65535x65535", work, window_change(65535))
    case("window change to 10000x10000", work, window_change(10000))
    case("window change to 3000x3000", work, window_change(3000))
    case("arrow key split: ESC, then [C 150 ms later", work, split_arrow)
    case("SIGHUP with a client", work, hangup)


if __name__ == "__main__":
    main()
