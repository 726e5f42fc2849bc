#!/usr/bin/env python3
"""Remake the comparison gallery: races, their traces and plots, and docs/gallery.md.

usage: scripts/gallery.py [KILN_BINARY]

Every run has a step budget (`--max-steps`), so the tables and figures are the same on any
machine; only the seconds differ. Traces and figures go to puzzles/gallery/plots/.
"""
import json
import shlex
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLOTS = ROOT / "puzzles/gallery/plots"
KILN = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target/release/kiln")
SEEDS = range(1, 6)
LAYOUTS = ("uniform", "normal", "clustered")
MOVES = ("swap-adjacent", "swap", "two-opt")
TSP_STEPS = 20_000_000

commands = []


def kiln(*args, record=True):
    """Run kiln from puzzles/gallery/plots; the command is kept for the page when `record`."""
    if record:
        commands.append("kiln " + " ".join(shlex.quote(a) for a in args))
    done = subprocess.run([KILN, *args], cwd=PLOTS, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        sys.exit(f"gallery: kiln {' '.join(args)}: {done.stderr.strip()}")
    return [json.loads(line) for line in done.stdout.splitlines()]


def fresh(*names):
    for name in names:
        (PLOTS / name).unlink(missing_ok=True)


def tsp_comparison():
    """The lab report's table: three move types on three layouts of 100 cities."""
    rows = []
    for layout in LAYOUTS:
        lengths = {move: [] for move in MOVES}
        best = []
        for seed in SEEDS:
            trace = [] if seed > 1 else ["--trace", f"lab-{layout}.csv"]
            if seed == 1:
                fresh(*(f"lab-{layout}-{move}.csv" for move in MOVES))
            lines = kiln("race", "tsp", "--random", "100", "--layout", layout, "--init",
                         "random", "--moves", ",".join(MOVES), "--seed",
                         str(seed), "--max-steps", str(TSP_STEPS), "--headless", "--quiet",
                         *trace, record=seed == 1)
            for line in lines[:-1]:
                lengths[line["raced"]["moves"]].append(line["length"])
            reference = kiln("tsp", "--random", "100", "--layout", layout, "--seed", str(seed),
                             "--ils", "--time-limit", "2", "--headless", "--quiet",
                             record=False)[0]
            best.append(reference["length"])
        for move in MOVES:
            gaps = [100 * (mine / ref - 1) for mine, ref in zip(lengths[move], best)]
            rows.append((layout, move, statistics.median(lengths[move]),
                         statistics.median(gaps), max(gaps)))
        fresh(f"lab-{layout}.png")
        kiln("plot", *(f"lab-{layout}-{move}.csv" for move in MOVES), "--output",
             f"lab-{layout}.png")
    return rows


def kernels():
    fresh("kernels.png", *(f"kernels-{k}.csv" for k in ("n8", "8-16", "n8-repel")))
    lines = kiln("race", "image", "--kernel", "n8,8-16,n8-repel", "--density", "0.3",
                 "--size", "128x128", "--max-steps", "20000000", "--headless", "--quiet",
                 "--trace", "kernels.csv")
    for kernel in ("n8", "8-16", "n8-repel"):
        fresh(f"kernel-{kernel}.png")
        kiln("image", "--kernel", kernel, "--density", "0.3", "--size", "128x128",
             "--max-steps", "20000000", "--headless", "--quiet", "--output",
             f"kernel-{kernel}.png")
    kiln("plot", *(f"kernels-{k}.csv" for k in ("n8", "8-16", "n8-repel")), "--output",
         "kernels.png")
    return lines


def sudoku_presets():
    presets = ("kiln", "lundy", "geometric-restart", "ga")
    fresh("top95.png", *(f"top95-{p}.csv" for p in presets))
    lines = kiln("race", "sudoku", "../../sudoku/top95_first10.txt", "--index", "5",
                 "--preset", ",".join(presets), "--time-limit", "20", "--headless",
                 "--quiet", "--trace", "top95.csv")
    kiln("plot", *(f"top95-{p}.csv" for p in presets), "--x", "seconds", "--output",
         "top95.png")
    return lines


def page(tsp_rows, kernel_lines, sudoku_lines):
    out = ["# Gallery: races and their plots", "",
           "Made by `scripts/gallery.py` (run it to remake everything here); each command",
           "below runs in `puzzles/gallery/plots/`, with `kiln` the release build.", ""]
    out += ["## Three move types on three layouts (the lab report's comparison)", "",
            f"100 random cities, a random first tour, {TSP_STEPS:,} steps of annealing, seeds "
            "1-5 (two-opt ends with the short greedy descent every 2-opt run ends with; the "
            "swaps have none). Gap: over the best tour kiln's iterated local search finds on "
            "the same instance in 2 s (`--ils`).", "",
            "| layout | moves | median length | median gap | max gap |", "|---|---|---|---|---|"]
    out += [f"| {l} | {m} | {length:,.0f} | {g:.1f} % | {mx:.1f} % |"
            for l, m, length, g, mx in tsp_rows]
    out += ["", "What the classroom report found (as ../shared/DESIGN.md records it: swaps alone "
            "stay 3-50 % above the optimum, 2-opt reaches it) holds: arbitrary swaps end "
            "several per cent above the best tour, worst on clustered cities, where a swap "
            "must move a city between islands; consecutive swaps move a city one place at a "
            "time and from a random tour stay at several times the best length at this "
            "budget; 2-opt reaches the best tour or within a per cent of it.", "",
            *(f"![{l}](../puzzles/gallery/plots/lab-{l}.png)" for l in LAYOUTS), ""]
    out += ["## Three kernels on one image", "",
            "| kernel | energy | black pixels |", "|---|---|---|"]
    out += [f"| {x['pane']} | {x['energy']} | {x['black_pixels']} |" for x in kernel_lines[:-1]]
    out += ["", "![kernels](../puzzles/gallery/plots/kernels.png)", "",
            *(f"![{k}](../puzzles/gallery/plots/kernel-{k}.png)" for k in ("n8", "8-16",
                                                                            "n8-repel")), ""]
    out += ["## kiln against the classroom presets on a top95 puzzle", "",
            "| preset | solved | seconds | steps |", "|---|---|---|---|"]
    out += [f"| {x['pane']} | {x['solved']} | {x['seconds']:.2f} | {x['iterations']:,} |"
            for x in sudoku_lines[:-1]]
    out += ["", "![top95](../puzzles/gallery/plots/top95.png)", "", "## Commands", "",
            "```text", *commands, "```", ""]
    (ROOT / "docs/gallery.md").write_text("\n".join(out))


def main():
    PLOTS.mkdir(parents=True, exist_ok=True)
    page(tsp_comparison(), kernels(), sudoku_presets())


if __name__ == "__main__":
    main()
