#!/usr/bin/env python3
"""The reproducers of issue 33 against `kiln serve` on loopback, each on a fresh server:
password guessing, ESC floods, RSA keys, endless files, long env names, silent connections
and large views. For each: the server's peak memory and CPU while the attack runs, and a
normal client's time to its first frame and the bytes it got in 4 s meanwhile.

Needs paramiko and argon2-cffi (`python3 -m venv /tmp/v && /tmp/v/bin/pip install paramiko
argon2-cffi`) and the OpenSSH client; stops by itself in about two minutes.

    cargo build --release && /tmp/v/bin/python scripts/serve_floods.py [CASE ...]
    KILN=/path/to/old/kiln /tmp/v/bin/python scripts/serve_floods.py   # another build
"""
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

import argon2
import paramiko

from kiln_binary import KILN
from serve_attack import Server
from view_rate import status_kib

FRAME = b"\x1b[?2026h"
PASSWORD = "correct horse"
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK
    except OSError:
        return 0.0


def dial(port, last):
    """A TCP connection to the server from 127.0.0.`last`."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=20,
                                    source_address=(f"127.0.0.{last}", 0))
    return sock


def transport(port, last):
    t = paramiko.Transport(dial(port, last))
    t.start_client(timeout=20)
    return t


def view(t, width=80, height=24):
    channel = t.open_session()
    channel.get_pty(term="xterm-256color", width=width, height=height)
    channel.invoke_shell()
    return channel


def normal_client(port, login, seconds=4.0):
    """A client from 127.0.0.1: (time to its first frame, bytes in `seconds`)."""
    start = time.monotonic()
    try:
        t = transport(port, 1)
        login(t)
        channel = view(t)
    except Exception as e:
        return f"failed ({type(e).__name__}: {e})", 0
    got = bytearray()
    first = None
    channel.settimeout(0.05)
    while time.monotonic() - start < seconds:
        try:
            data = channel.recv(1 << 16)
            if not data:
                break
            got += data
        except socket.timeout:
            pass
        except Exception:
            break
        if first is None and FRAME in got:
            first = time.monotonic() - start
    t.close()
    return (f"{first:.2f} s" if first is not None else "none"), len(got)


def no_password(t):
    t.auth_none("watcher")


def with_password(t):
    t.auth_password("watcher", PASSWORD)


class Meter:
    """The server's peak resident memory and CPU (percent of one core) over a span."""

    def __init__(self, server):
        self.pid = server.proc.pid
        self.t0, self.c0 = time.monotonic(), cpu_seconds(self.pid)
        self.peak = 0
        self.threads = 0
        self.running = True
        self.poller = threading.Thread(target=self.poll, daemon=True)
        self.poller.start()

    def poll(self):
        while self.running:
            self.peak = max(self.peak, status_kib(self.pid, "VmRSS"))
            self.threads = max(self.threads, status_kib(self.pid, "Threads"))
            time.sleep(0.02)

    def done(self):
        self.running = False
        self.poller.join()
        cpu = (cpu_seconds(self.pid) - self.c0) / (time.monotonic() - self.t0) * 100
        return self.peak / 1024, cpu


def attack_case(name, work, args, attackers, login, warmup=1.0, note=""):
    """Starts a server with `args`, runs `attackers` (threads, told to stop by an event), and
    meanwhile a normal client; prints one table row."""
    server = Server(work, *args)
    stop = threading.Event()
    threads = [threading.Thread(target=a, args=(server.port, stop), daemon=True)
               for a in attackers]
    meter = Meter(server)
    for t in threads:
        t.start()
    time.sleep(warmup)
    first, got = normal_client(server.port, login)
    stop.set()
    for t in threads:
        t.join(timeout=10)
    peak, cpu = meter.done()
    alive = server.proc.poll() is None
    code = server.stop()
    print(f"| {name} | {'up' if alive else 'DOWN'} | {peak:,.0f} MB | {cpu:.0f} % | "
          f"{meter.threads} | {first} | {got / 1000:.1f} KB | {code} | {note} |", flush=True)


def guesser(n):
    def run(port, stop):
        while not stop.is_set():
            try:
                t = transport(port, 10 + n % 8)
            except Exception:
                time.sleep(0.1)
                continue
            try:
                while not stop.is_set():
                    try:
                        t.auth_password("guess", f"wrong{n}")
                    except paramiko.AuthenticationException:
                        pass
            except Exception:
                pass
            t.close()
    return run


def esc_flood(n):
    def run(port, stop):
        try:
            t = transport(port, 10 + n)
            t.auth_none("flood")
            channel = view(t)
        except Exception:
            return
        packet = b"\x1b" * 32768
        channel.settimeout(0.0)
        while not stop.is_set():
            try:
                while channel.recv_ready():
                    channel.recv(1 << 16)
            except Exception:
                pass
            try:
                channel.sendall(packet)
            except Exception:
                break
        t.close()
    return run


def silent(n):
    def run(port, stop):
        socks = []
        while not stop.is_set() and len(socks) < 8:
            try:
                socks.append(dial(port, 10 + n))
            except Exception:
                time.sleep(0.05)
        stop.wait()
        for s in socks:
            s.close()
    return run


def long_env_names(n):
    def run(port, stop):
        t = transport(port, 10 + n % 4)
        t.auth_none("env")
        channel = t.open_session()
        name = "LC_" + "N" * 250_000
        for i in range(16):
            try:
                channel.set_environment_variable(name + str(i), "C")
            except Exception:
                pass
        channel.get_pty(term="xterm", width=80, height=24)
        channel.invoke_shell()
        stop.wait()
        t.close()
    return run


def big_view(n):
    def run(port, stop):
        t = transport(port, 10 + n // 4)
        t.auth_none("big")
        channel = view(t, 500, 200)
        channel.settimeout(0.05)
        while not stop.is_set():
            try:
                channel.recv(1 << 20)
            except Exception:
                pass
        t.close()
    return run


def timed(cmd, limit):
    """Exit code, wall time and peak RSS of `cmd` (stdin closed), killed after `limit` s."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    peak = 0
    while proc.poll() is None and time.monotonic() - start < limit:
        peak = max(peak, status_kib(proc.pid, "VmHWM"))
        time.sleep(0.01)
    if proc.poll() is None:
        proc.kill()
        proc.wait()
        return f"none, killed after {limit} s", time.monotonic() - start, peak, ""
    err = proc.stderr.read().decode(errors="replace").strip().splitlines()
    return proc.returncode, time.monotonic() - start, peak, (err[-1] if err else "")


def endless_files(work):
    key = os.path.join(work, "ed25519.pub")
    if not os.path.exists(key):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key[:-4]],
                       check=True)
    for flag, extra in [("--password-file", []), ("--authorized-keys", []),
                        ("--presenter-key", ["--shared"]), ("--host-key", [])]:
        args = [KILN, "serve", "--listen", "127.0.0.1:0", *extra, flag, "/dev/zero"]
        if flag != "--host-key":
            args += ["--host-key", os.path.join(work, "key")]
        # An endless read grows by hundreds of MB a second: 3 s tells.
        code, wall, peak, line = timed(args, 3)
        print(f"| {flag} /dev/zero | exit {code} | {wall:.2f} s | {peak / 1024:,.0f} MB | "
              f"{line} |", flush=True)


def rsa_keys(work):
    for bits in (2048, 3072):
        key = os.path.join(work, f"rsa{bits}")
        if not os.path.exists(key):
            subprocess.run(["ssh-keygen", "-q", "-t", "rsa", "-b", str(bits), "-N", "", "-f",
                            key], check=True)
        server = Server(work, "--authorized-keys", key + ".pub")
        start = time.monotonic()
        ssh = subprocess.run(
            ["timeout", "6", "ssh", "-tt", "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes",
             "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
             "-o", "LogLevel=ERROR", "-i", key, "-p", str(server.port), "127.0.0.1"],
            stdin=subprocess.DEVNULL, capture_output=True)
        openssh = FRAME in ssh.stdout
        try:
            t = transport(server.port, 1)
            t.auth_publickey("rsa", paramiko.RSAKey.from_private_key_file(key))
            pk = view(t)
            pk.settimeout(5)
            paramiko_ok = FRAME in pk.recv(1 << 16) or FRAME in pk.recv(1 << 16)
            t.close()
        except Exception as e:
            paramiko_ok = f"no ({type(e).__name__})"
        server.stop()
        said = ssh.stderr.decode(errors="replace").strip().splitlines()
        print(f"| RSA {bits} key | OpenSSH view: {openssh} | paramiko view: {paramiko_ok} | "
              f"{time.monotonic() - start:.1f} s | {said[-1] if said else ''} |", flush=True)


def main():
    work = tempfile.mkdtemp(prefix="kiln-floods-")
    hashed = os.path.join(work, "argon2.hash")
    with open(hashed, "w") as f:
        f.write(argon2.PasswordHasher().hash(PASSWORD) + "\n")  # m=65536, t=3, p=4
    cases = sys.argv[1:] or ["quiet", "guess", "esc", "env", "silent", "big", "files", "rsa"]
    print("| case | server | peak RSS | CPU | threads | normal client's first frame | "
          "its bytes in 4 s | exit | notes |")
    print("|---|---|---|---|---|---|---|---|---|")
    if "quiet" in cases:
        attack_case("no attack, --password-file (argon2)", work, ["--password-file", hashed],
                    [], with_password)
        attack_case("no attack, open", work, [], [], no_password)
    if "guess" in cases:
        attack_case("64 argon2 guessers (m=64MiB,t=3,p=4), 8 addresses", work,
                    ["--password-file", hashed], [guesser(n) for n in range(64)],
                    with_password, warmup=4.0)
    if "esc" in cases:
        attack_case("4 ESC floods", work, [], [esc_flood(n) for n in range(4)], no_password,
                    warmup=2.0)
    if "env" in cases:
        attack_case("16 sessions x 16 LC_ names of 250 KB", work, ["--max-sessions", "32"],
                    [long_env_names(n) for n in range(16)], no_password, warmup=3.0)
    if "silent" in cases:
        attack_case("64 silent TCP connections, 8 addresses", work, [],
                    [silent(n) for n in range(8)], no_password, warmup=1.5)
    if "big" in cases:
        attack_case("20 clients at 500x200", work, ["--max-sessions", "21"],
                    [big_view(n) for n in range(20)], no_password, warmup=3.0)
    if "files" in cases:
        print("\n| file | result | wall | peak RSS | line |\n|---|---|---|---|---|")
        endless_files(work)
    if "rsa" in cases:
        print("\n| key | OpenSSH | paramiko | wall | ssh said |\n|---|---|---|---|---|")
        rsa_keys(work)


if __name__ == "__main__":
    main()
