#!/usr/bin/env python3
"""Watches the demos of a bare `kiln` in tmux as a viewer would and prints, per item, how
long it ran until its banner and the share of screen captures in which the board changed.

    cargo build --release && python3 scripts/demo_watch.py [--cols 80 --rows 24]

It lets the attract loop walk through every item of every tab once (about ten minutes),
capturing the screen every half second.
"""
import argparse
import re
import subprocess
import time

from kiln_binary import KILN

TITLE = re.compile(r"kiln \[(\w+)\] (\d+)/(\d+)")


def capture(session):
    out = subprocess.run(
        ["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True
    )
    return out.stdout.splitlines()


def board(lines, stats_from):
    """The board area: below the title, above the footer, left of the stats panel."""
    return "\n".join(line[:stats_from] for line in lines[1:-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cols", type=int, default=80)
    parser.add_argument("--rows", type=int, default=24)
    parser.add_argument("--every", type=float, default=0.5)
    args = parser.parse_args()
    session = "kiln-demo-watch"
    subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", session, "-x", str(args.cols),
         "-y", str(args.rows), f"LANG=C.UTF-8 TERM=xterm-256color {KILN}"],
        check=True,
    )
    # Per item: captures while running, captures whose board changed, seconds to the banner.
    items = {}
    order = []
    previous = None
    seen_tabs = []
    try:
        while True:
            lines = capture(session)
            if not lines:
                time.sleep(args.every)
                continue
            match = TITLE.search(lines[0])
            if not match:
                time.sleep(args.every)
                continue
            tab, index, count = match.group(1), int(match.group(2)), int(match.group(3))
            key = (tab, index)
            if seen_tabs and tab != seen_tabs[-1] and tab in seen_tabs:
                break  # the show has come round to the first tab again
            if key not in items:
                if tab not in seen_tabs:
                    seen_tabs.append(tab)
                items[key] = {"frames": 0, "changed": 0, "start": time.time(), "done": None}
                order.append(key)
                previous = None
            item = items[key]
            stats_from = max(line.find("│") for line in lines[1:-1])
            now_board = board(lines, stats_from if stats_from > 0 else args.cols)
            running = item["done"] is None and ("next in" not in "\n".join(lines))
            if running:
                item["frames"] += 1
                if previous is not None and now_board != previous:
                    item["changed"] += 1
            elif item["done"] is None:
                item["done"] = time.time() - item["start"]
            previous = now_board
            time.sleep(args.every)
    except KeyboardInterrupt:
        pass
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    print(f"| item ({args.cols}x{args.rows}) | seconds until done | captures with a change |")
    print("|---|---|---|")
    for key in order:
        item = items[key]
        share = item["changed"] / max(1, item["frames"] - 1)
        done = "-" if item["done"] is None else f"{item['done']:.0f}"
        print(f"| {key[0]} {key[1]} | {done} | {100 * share:.0f} % |")


if __name__ == "__main__":
    main()
