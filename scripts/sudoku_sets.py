#!/usr/bin/env python3
"""Solve every puzzle of each file headless and print one markdown row per file:
solved/total, median and max seconds, median and max iterations, and every solution checked
against its givens and the rules here too (independently of kiln's own check).

usage: scripts/sudoku_sets.py FILE... [-- extra kiln flags]
"""
import json
import statistics
import subprocess
import sys

from kiln_binary import KILN


def valid(puzzle: str, solution: str) -> bool:
    n2 = int(len(solution) ** 0.5)
    n = int(n2 ** 0.5)
    if len(solution) != n2 * n2 or any(p not in ".0" and p != s for p, s in zip(puzzle, solution)):
        return False
    rows = [solution[r * n2:(r + 1) * n2] for r in range(n2)]
    cols = ["".join(row[c] for row in rows) for c in range(n2)]
    boxes = ["".join(rows[br * n + r][bc * n + c] for r in range(n) for c in range(n))
             for br in range(n) for bc in range(n)]
    return all(len(set(unit)) == n2 and "." not in unit for unit in rows + cols + boxes)


def main() -> None:
    args = sys.argv[1:]
    extra = args[args.index("--") + 1:] if "--" in args else []
    files = args[: args.index("--")] if "--" in args else args
    print("| file | solved | median s | max s | median iterations | max iterations |")
    print("|---|---|---|---|---|---|")
    for path in files:
        puzzles = [l.strip() for l in open(path) if l.strip() and not l.startswith("#")]
        out = subprocess.run([KILN, "sudoku", path, "--headless", *extra],
                             capture_output=True, text=True).stdout
        rows = [json.loads(l) for l in out.splitlines()]
        ok = sum(1 for r, p in zip(rows, puzzles) if r["solved"] and valid(p, r["solution"]))
        secs = [r["seconds"] for r in rows]
        its = [r["iterations"] for r in rows]
        print(f"| {path.split('/')[-1]} | {ok}/{len(puzzles)} | {statistics.median(secs):.4f} | "
              f"{max(secs):.3f} | {statistics.median(its):,.0f} | {max(its):,} |")


main()
