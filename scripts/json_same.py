#!/usr/bin/env python3
"""Runs every example command of docs/json.md (and, with --extra, a few more that write
files) with two kiln binaries and says whether their JSON lines are the same, time fields
aside (docs/json.md names them). Files a command writes (--output, --trace) are compared
too, a trace without its seconds column.

    python3 scripts/json_same.py /tmp/kiln-before target/release/kiln [--extra]

Each command runs in a fresh directory holding a link to puzzles/, so written files do not
collide. Exit status 1 when anything differs."""

import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIME = re.compile(r"seconds|per_second|elapsed")
# In a race, places between racers otherwise tied follow their seconds (docs/json.md).
RACE_ORDER = {"rank", "order", "winner"}

EXTRA = [
    "kiln sudoku puzzles/sudoku/easy20.txt --seeds 1..3 --max-steps 200000 --headless",
    "kiln sudoku puzzles/sudoku/easy20.txt --shard 2/7 --headless",
    "kiln sudoku puzzles/sudoku/easy20.txt --index 3 --threads 3 --max-steps 400000 --headless",
    "kiln sudoku puzzles/sudoku/easy20.txt --index 4 --preset lundy --max-steps 300000 --headless",
    "kiln sudoku puzzles/sudoku/easy20.txt --index 5 --preset cell-linear --max-steps 300000 --headless",
    "kiln sudoku puzzles/sudoku/easy20.txt --index 1 --output s.txt --trace t.csv --headless",
    "kiln sudoku puzzles/sudoku/easy20.txt --max-steps 100000 --output all.txt --trace t.csv --headless",
    "kiln sudoku puzzles/sudoku/easy20.txt --index 2 --output s.svg --headless",
    "kiln sudoku puzzles/sudoku/easy20.txt --index 2 --t0 auto --max-steps 100000 --headless",
    "kiln tsp --random 200 --seeds 3,4 --max-steps 100000 --trace t.csv --headless",
    "kiln tsp --random 100 --ils --max-steps 200000 --output t.tour --headless",
    "kiln tsp puzzles/tsp/berlin52.tsp --moves swap --schedule geometric --alpha 0.9999 --max-steps 100000 --output t.svg --headless",
    "kiln tsp --random 80 --t0 auto --max-steps 50000 --headless",
    "kiln image --size 40x20 --kernel n8 --max-steps 100000 --output i.pbm --trace t.csv --headless",
    "kiln image --denoise --size 48x48 --rounds 2 --max-steps 100000 --output i.png --headless",
    "kiln image --size 32x32 --seeds 5..6 --max-steps 50000 --headless",
    "kiln race puzzles/sudoku/easy20.txt --index 3 --presets kiln,lundy --max-steps 50000 --trace t.csv --headless",
    "kiln race image --size 32x32 --kernel n4,n8 --max-steps 30000 --trace t.csv --headless",
    "kiln --headless",
]


def examples():
    """The commands of docs/json.md's sh blocks."""
    text = open(os.path.join(ROOT, "docs/json.md")).read()
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            if line.startswith("kiln "):
                yield line


def masked(value, race=False):
    if isinstance(value, dict):
        race = race or "race" in value or "pane" in value
        return {
            k: "<masked>" if TIME.search(k) or (race and k in RACE_ORDER) else masked(v, race)
            for k, v in value.items()
        }
    if isinstance(value, list):
        items = [masked(v, race) for v in value]
        return sorted(items, key=json.dumps) if race else items
    return value


def run(binary, command):
    """The command's masked lines, exit code and written files."""
    with tempfile.TemporaryDirectory() as work:
        os.symlink(os.path.join(ROOT, "puzzles"), os.path.join(work, "puzzles"))
        words = shlex.split(command)
        done = subprocess.run(
            [binary] + words[1:], cwd=work, capture_output=True, text=True, timeout=600
        )
        lines = []
        for line in done.stdout.splitlines():
            try:
                lines.append(masked(json.loads(line)))
            except json.JSONDecodeError:
                lines.append(line)
        files = {}
        for name in sorted(os.listdir(work)):
            if name == "puzzles":
                continue
            data = open(os.path.join(work, name), "rb").read()
            if name.endswith(".csv"):
                rows = [r.split(",") for r in data.decode().splitlines()]
                column = rows[0].index("seconds") if rows and "seconds" in rows[0] else None
                data = [[c for i, c in enumerate(r) if i != column] for r in rows]
            files[name] = data
        return lines, done.returncode, files


def main():
    before, after = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    commands = list(examples())
    if "--extra" in sys.argv:
        commands += EXTRA
    differ = 0
    for command in commands:
        a, b = run(before, command), run(after, command)
        same = a == b
        differ += not same
        print(f"{'same' if same else 'DIFFERENT'}: {command} ({len(a[0])} lines, exit {a[1]}, files {sorted(a[2])})")
        if not same:
            for x, y in zip(a[0], b[0]):
                if x != y:
                    print("  before:", json.dumps(x)[:400])
                    print("  after: ", json.dumps(y)[:400])
            if a[1:] != b[1:]:
                print("  exit/files:", a[1], b[1], sorted(a[2]), sorted(b[2]))
    print(f"{len(commands) - differ} of {len(commands)} commands print the same")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
