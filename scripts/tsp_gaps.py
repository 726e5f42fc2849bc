#!/usr/bin/env python3
"""Run `kiln tsp --headless` on each instance for seeds 1-5 (one at a time, so runs do not
share the cores) and print one markdown row per instance: median and max gap to the optimum
in percent, median seconds and steps/s, and what the run did (the JSON `search` field).

usage: scripts/tsp_gaps.py FILE.tsp... [-- extra kiln flags, e.g. --no-polish --time-limit 5]
Set KILN to the binary to run (default target/release/kiln).
"""
import json
import statistics
import subprocess
import sys

from kiln_binary import KILN


def main() -> None:
    args = sys.argv[1:]
    extra = args[args.index("--") + 1:] if "--" in args else []
    files = args[: args.index("--")] if "--" in args else args
    kiln = KILN
    print("| instance | n | median gap % | max gap % | gaps (seeds 1-5) | median s | steps/s | search |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for path in files:
        cmd = [kiln, "tsp", path, "--headless", "--quiet", "--seeds", "1..5", "--jobs", "1", *extra]
        lines = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.splitlines()
        runs = [json.loads(line) for line in lines]
        gaps = [r["gap"] for r in runs]
        if any(g is None for g in gaps):
            sys.exit(f"{path}: no optimum known, so no gap")
        seconds = statistics.median(r["seconds"] for r in runs)
        rate = statistics.median(r["steps_per_second"] for r in runs)
        search = runs[0].get("search", "?")
        print(
            f"| {runs[0]['name']} | {runs[0]['n']} | {statistics.median(gaps):.2f} | {max(gaps):.2f} "
            f"| {', '.join(f'{g:.2f}' for g in gaps)} | {seconds:.2f} | {rate / 1e6:.1f}M | {search} |"
        )


if __name__ == "__main__":
    main()
