#!/usr/bin/env python3
"""Bytes and frames a second that the live view sends to a terminal of a given size,
locally or through `kiln serve`, running or paused; and the program's peak memory.

    cargo build --release && python3 scripts/view_rate.py [--seconds 10]
    python3 scripts/view_rate.py --only local --size 10000x10000 --seconds 3 -- tsp --random 2000

Each case runs the command in a pseudo-terminal of that size (for SSH: the OpenSSH client,
whose pty size the server gets as the client's window), reads everything it writes for the
given time and counts the frames (each begins with a synchronized update). A paused case
presses space first and counts from a second later. Only 127.0.0.1 is used; the server
stops by itself at the end.
"""
import argparse
import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import tempfile
import termios
import time

from kiln_binary import KILN
FRAME = b"\x1b[?2026h"
SSH = ["ssh", "-tt", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
       "-o", "LogLevel=ERROR"]


def status_kib(pid, field):
    """A memory figure of `pid` (VmHWM: its peak so far, VmRSS: now), in KiB; 0 once it
    is gone."""
    try:
        status = open(f"/proc/{pid}/status").read()
    except OSError:
        return 0
    m = re.search(rf"{field}:\s+(\d+)", status)
    return int(m.group(1)) if m else 0


def run_in_pty(argv, width, height, seconds, paused, watch_pid=None, keys=b""):
    """Runs `argv` in a `width` x `height` pty, typing `keys` half a second in; returns
    (bytes/s, frames/s, peak KiB, exit)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(argv[0], argv)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
    os.kill(pid, signal.SIGWINCH)
    counted = bytearray()
    start = time.monotonic()
    count_from = start + 1.0  # the first screen is not the steady state
    pressed = False
    typed = not keys
    total = 0
    peak = 0
    end = count_from + seconds + (1.0 if paused else 0.0)
    if paused:
        count_from += 1.0
    while time.monotonic() < end:
        if not typed and time.monotonic() > start + 0.5:
            os.write(fd, keys)
            typed = True
        if paused and not pressed and time.monotonic() > start + 1.0:
            os.write(fd, b" ")
            pressed = True
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                data = os.read(fd, 1 << 16)
            except OSError:
                break
            if not data:
                break
            if time.monotonic() >= count_from:
                counted += data
                total += len(data)
        peak = max(peak, status_kib(watch_pid or pid, "VmHWM"))
    os.write(fd, b"q")
    deadline = time.monotonic() + 5
    status = None
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        try:
            select.select([fd], [], [], 0.05)
            os.read(fd, 1 << 16)
        except OSError:
            pass
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        status = None
    os.close(fd)
    code = os.waitstatus_to_exitcode(status) if status is not None else "killed"
    return total / seconds, counted.count(FRAME) / seconds, peak, code


def start_server(work):
    log = os.path.join(work, "server.log")
    server = subprocess.Popen(
        [KILN, "serve", "--listen", "127.0.0.1:0", "--host-key", os.path.join(work, "key")],
        stderr=open(log, "w"), stdout=subprocess.DEVNULL)
    for _ in range(200):
        m = re.search(r"listening on 127\.0\.0\.1:(\d+)", open(log).read())
        if m:
            return server, int(m.group(1))
        time.sleep(0.05)
    raise SystemExit("the server did not start")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--size", action="append", help="WxH (default 80x24 and 200x50)")
    parser.add_argument("--only", choices=["local", "ssh"])
    parser.add_argument("--tab", type=int, default=0, help="press Tab this many times first")
    parser.add_argument("command", nargs="*", help="kiln's arguments for the local view")
    args = parser.parse_args()
    sizes = [tuple(map(int, s.split("x"))) for s in (args.size or ["80x24", "200x50"])]
    work = tempfile.mkdtemp(prefix="kiln-rate-")
    server = port = None
    if args.only != "local":
        server, port = start_server(work)
    print(f"tab {args.tab}, {args.seconds:g} s a case")
    print("| view | size | state | bytes/s | frames/s | peak RSS (KiB) | exit |")
    print("|---|---|---|---|---|---|---|")
    try:
        for (w, h) in sizes:
            for paused in (False, True):
                state = "paused" if paused else "running"
                if args.only != "ssh":
                    r = run_in_pty([KILN] + args.command, w, h, args.seconds, paused,
                                   keys=b"\t" * args.tab)
                    print(f"| local | {w}x{h} | {state} | {r[0]:,.0f} | {r[1]:.1f} | {r[2]:,} | {r[3]} |",
                          flush=True)
                if args.only != "local":
                    argv = SSH + ["-p", str(port), "127.0.0.1"]
                    r = run_in_pty(argv, w, h, args.seconds, paused, watch_pid=server.pid,
                                   keys=b"\t" * args.tab)
                    print(f"| ssh | {w}x{h} | {state} | {r[0]:,.0f} | {r[1]:.1f} | {r[2]:,} (server) | {r[3]} |",
                          flush=True)
    finally:
        if server:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
