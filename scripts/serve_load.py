#!/usr/bin/env python3
"""Load test of `kiln serve` on loopback: --max-sessions clients at once, then connect and
disconnect cycles; prints a table of frames/s and bytes/s per client, the server's CPU,
threads and memory, and how many extra clients were refused.

    cargo build --release && python3 scripts/serve_load.py [--sessions 16 --seconds 60 --cycles 200]

Only 127.0.0.0/8 is used: clients bind 127.0.0.N so that the 4-per-address limit lets
all of them in. One of the clients is stopped (SIGSTOP) for the whole measurement, as a
client that stalls: the others must keep their pace and the server its memory. It stops
by itself (about --seconds plus a minute for the cycles).
"""
import argparse
import os
import re
import signal
import subprocess
import tempfile
import time

from kiln_binary import KILN
FRAME = b"\x1b[?2026h"  # each frame begins with a synchronized update
SSH = ["ssh", "-tt", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
       "-o", "LogLevel=ERROR"]
TICK = os.sysconf("SC_CLK_TCK")


def proc(pid):
    """CPU seconds, threads and resident KiB of `pid`."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / TICK
    status = open(f"/proc/{pid}/status").read()
    threads = int(re.search(r"Threads:\s+(\d+)", status).group(1))
    rss = int(re.search(r"VmRSS:\s+(\d+)", status).group(1))
    return cpu, threads, rss


def client(port, n, out):
    """An ssh client from 127.0.0.(n // 4 + 1) whose screen goes to `out`; its stdin
    stays open and silent, as a watcher's keyboard."""
    source = f"127.0.0.{n // 4 + 1}"
    return subprocess.Popen(SSH + ["-p", str(port), "-b", source, "127.0.0.1"],
                            stdin=subprocess.PIPE, stdout=out, stderr=subprocess.STDOUT)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--cycles", type=int, default=200)
    parser.add_argument("--extra", type=int, default=4, help="clients past the limit")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="kiln-load-")
    server = subprocess.Popen(
        [KILN, "serve", "--listen", "127.0.0.1:0", "--max-sessions", str(args.sessions),
         "--host-key", os.path.join(work, "key")],
        stderr=open(os.path.join(work, "server.log"), "w"), stdout=subprocess.DEVNULL)
    try:
        port = None
        for _ in range(200):
            text = open(os.path.join(work, "server.log")).read()
            m = re.search(r"listening on 127\.0\.0\.1:(\d+)", text)
            if m:
                port = int(m.group(1))
                break
            time.sleep(0.05)
        assert port, "the server did not start"
        time.sleep(0.5)
        before = proc(server.pid)

        outs = [open(os.path.join(work, f"client{i}.out"), "wb") for i in range(args.sessions)]
        clients = [client(port, i, outs[i]) for i in range(args.sessions)]
        time.sleep(3)  # all in and drawing
        # Extra clients from a fresh address: the server is full for them.
        extra = []
        for i in range(args.extra):
            out = open(os.path.join(work, f"extra{i}.out"), "wb")
            extra.append((client(port, 4 * 60 + i * 4, out), out))
        # Client 0 stalls: its ssh reads nothing more, so its window and buffers fill.
        clients[0].send_signal(signal.SIGSTOP)
        sizes = [os.path.getsize(o.name) for o in outs]
        frames = [open(o.name, "rb").read().count(FRAME) for o in outs]
        cpu0, _, _ = proc(server.pid)
        start = time.time()
        peak_threads = peak_rss = 0
        while time.time() - start < args.seconds:
            _, threads, rss = proc(server.pid)
            peak_threads, peak_rss = max(peak_threads, threads), max(peak_rss, rss)
            time.sleep(1)
        elapsed = time.time() - start
        cpu1, _, _ = proc(server.pid)
        rates = []
        for o, size0, frames0 in zip(outs, sizes, frames):
            data = open(o.name, "rb").read()
            rates.append(((data.count(FRAME) - frames0) / elapsed, (len(data) - size0) / elapsed))
        refused = 0
        for p, out in extra:
            p.wait(timeout=30)
            out.close()
            if b"server full" in open(out.name, "rb").read():
                refused += 1
        clients[0].send_signal(signal.SIGCONT)
        for p in clients:
            p.stdin.close()
            p.send_signal(signal.SIGTERM)
        for p in clients:
            p.wait(timeout=30)
        time.sleep(2)
        during = (peak_threads, peak_rss)
        settled = proc(server.pid)

        # Connect and disconnect: each cycle logs in, sees a frame and leaves at once.
        cycle_start = time.time()
        for i in range(args.cycles):
            out = open(os.path.join(work, "cycle.out"), "wb")
            p = client(port, i % (4 * 60), out)
            deadline = time.time() + 10
            while os.path.getsize(out.name) < 200 and time.time() < deadline:
                time.sleep(0.01)
            p.kill()
            p.wait()
            out.close()
        cycles_took = time.time() - cycle_start
        time.sleep(2)
        after = proc(server.pid)
        log = open(os.path.join(work, "server.log")).read()

        stalled = rates[0]
        fps = sorted(r[0] for r in rates[1:])
        bps = sorted(r[1] for r in rates[1:])
        print(f"| measure | value |")
        print(f"| --- | --- |")
        print(f"| clients at once | {args.sessions} for {elapsed:.0f} s, one of them stalled |")
        print(f"| frames/s per watching client (min / median / max) | {fps[0]:.1f} / {fps[len(fps)//2]:.1f} / {fps[-1]:.1f} |")
        print(f"| bytes/s per watching client (min / median / max) | {bps[0]:.0f} / {bps[len(bps)//2]:.0f} / {bps[-1]:.0f} |")
        print(f"| the stalled client: bytes/s it took | {stalled[1]:.0f} |")
        print(f"| server CPU while all watch | {100 * (cpu1 - cpu0) / elapsed:.0f}% of one core |")
        print(f"| extra clients refused ('server full') | {refused} of {args.extra} |")
        print(f"| connect/disconnect cycles | {args.cycles} in {cycles_took:.0f} s |")
        print(f"| threads: before / during / after the clients / after the cycles | {before[1]} / {during[0]} / {settled[1]} / {after[1]} |")
        print(f"| resident KiB: before / during / after the clients / after the cycles | {before[2]} / {during[1]} / {settled[2]} / {after[2]} |")
        print(f"| log lines | {log.count(' user=')} |")
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            code = server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            code = "killed"
        print(f"| server exit after SIGTERM | {code} |")


if __name__ == "__main__":
    main()
