#!/usr/bin/env python3
"""Requested against measured steps a second in the live view: each pace runs in its own
tmux window at 80x24 (all at once: at these paces the annealer is idle between steps), and
the rate is read from the stats panel's iteration counter, timed between two of its
changes.

    cargo build --release && python3 scripts/pace_table.py [--seconds 10] [-- sudoku ...]

Prints a markdown table. Needs tmux.
"""
import argparse
import re
import subprocess
import time

from kiln_binary import KILN
PACES = [1, 2, 5, 10, 20, 50, 100]


def tmux(*args):
    # A server of its own, so other tmux sessions on the machine are left alone.
    return subprocess.run(["tmux", "-L", "kiln-pace", *args], capture_output=True, text=True,
                          check=True).stdout


def iteration(session):
    screen = tmux("capture-pane", "-p", "-t", session)
    found = re.search(r"iteration\s+([\d,]+)", screen)
    return int(found.group(1).replace(",", "")) if found else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("command", nargs="*", help="kiln arguments (default: the bare demo)")
    args = parser.parse_args()
    sessions = {}
    for pace in PACES:
        name = f"pace{pace}"
        subprocess.run(["tmux", "-L", "kiln-pace", "kill-session", "-t", name],
                       capture_output=True)
        command = " ".join([KILN, *args.command, "--speed", str(pace)])
        tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24",
             f"NO_COLOR=1 TERM=dumb {command}")
        sessions[pace] = name
    time.sleep(2.0)
    # Each rate is timed between two changes of its counter (the first after the start
    # and the last before the end), so a slow pace is not off by a step's worth of phase.
    first, last = {}, {}
    deadline = time.monotonic() + args.seconds
    seen = {p: iteration(s) for p, s in sessions.items()}
    while time.monotonic() < deadline:
        for pace, session in sessions.items():
            now, count = time.monotonic(), iteration(session)
            if count != seen[pace]:
                first.setdefault(pace, (count, now))
                last[pace] = (count, now)
                seen[pace] = count
        time.sleep(0.01)
    print("| requested steps/s | measured steps/s | off by |")
    print("| --- | --- | --- |")
    for pace in PACES:
        (i0, t0), (i1, t1) = first[pace], last[pace]
        rate = (i1 - i0) / (t1 - t0)
        print(f"| {pace} | {rate:.2f} | {100 * (rate - pace) / pace:+.1f} % |")
        tmux("kill-session", "-t", sessions[pace])


if __name__ == "__main__":
    main()
