#!/usr/bin/env python3
"""Remake the comparison gallery: races, their traces and plots, and docs/gallery.md.

usage: [KILN=BINARY] scripts/gallery.py

The comparisons give every run a step budget (`--max-steps`), so their tables and figures
are the same on any machine; only the seconds differ. The short examples puzzles/README.md
lists are timed (2 s, 5 s). Traces and figures go to puzzles/gallery/plots/.
"""
import json
import shlex
import statistics
import subprocess
import sys
from pathlib import Path

from kiln_binary import KILN

ROOT = Path(__file__).resolve().parent.parent
PLOTS = ROOT / "puzzles/gallery/plots"
# Captured by hand (it needs a terminal): see live_race() for how.
LIVE_RACE = ROOT / "docs/captures/race_80x24_sudoku_end.txt"
SEEDS = range(1, 6)
LAYOUTS = ("uniform", "normal", "clustered")
MOVES = ("swap-adjacent", "swap", "two-opt")
KERNELS = ("n8", "8-16", "n8-repel")
TSP_STEPS = 20_000_000
SUDOKU_STEPS = 100_000_000

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
    fresh("kernels.png", "kernel-images.png", *(f"kernels-{k}.csv" for k in KERNELS))
    lines = kiln("race", "image", "--kernel", ",".join(KERNELS), "--density", "0.3",
                 "--size", "128x128", "--max-steps", "20000000", "--headless", "--quiet",
                 "--trace", "kernels.csv")
    for kernel in KERNELS:
        fresh(f"kernel-{kernel}.pbm")
        kiln("image", "--kernel", kernel, "--density", "0.3", "--size", "128x128",
             "--max-steps", "20000000", "--headless", "--quiet", "--output",
             f"kernel-{kernel}.pbm")
    kiln("plot", *(f"kernels-{k}.csv" for k in KERNELS), "--output", "kernels.png")
    kiln("plot", *(f"kernel-{k}.pbm" for k in KERNELS), "--output", "kernel-images.png")
    return lines


def sudoku_presets():
    presets = ("kiln", "lundy", "geometric-restart", "ga")
    fresh("top95.png", *(f"top95-{p}.csv" for p in presets))
    lines = kiln("race", "sudoku", "../../sudoku/top95_first10.txt", "--index", "5",
                 "--preset", ",".join(presets), "--max-steps", str(SUDOKU_STEPS),
                 "--headless", "--quiet", "--trace", "top95.csv")
    kiln("plot", *(f"top95-{p}.csv" for p in presets), "--x", "seconds", "--output",
         "top95.png")
    return lines


def examples():
    """The traces and figures puzzles/README.md lists: one of each problem and a race."""
    race = ("kiln", "geometric-restart", "ga")
    fresh("race.png", "race.svg", "image.png", "tsp-a280.png", "pattern-8-16.csv",
          "denoise-shapes.csv", "tsp-a280.csv", *(f"race-{p}.csv" for p in race))
    lines = kiln("race", "../../sudoku/forum_hardest_5.txt", "--index", "2", "--time-limit",
                 "5", "--headless", "--quiet", "--trace", "race.csv")
    kiln("image", "--headless", "--quiet", "--time-limit", "2", "--trace", "pattern-8-16.csv")
    kiln("image", "--headless", "--quiet", "--denoise", "--time-limit", "2", "--trace",
         "denoise-shapes.csv")
    kiln("tsp", "../../tsp/a280.tsp", "--headless", "--quiet", "--time-limit", "2", "--trace",
         "tsp-a280.csv")
    for figure in ("race.svg", "race.png"):
        kiln("plot", *(f"race-{p}.csv" for p in race), "--x", "seconds", "--output", figure)
    kiln("plot", "pattern-8-16.csv", "denoise-shapes.csv", "--output", "image.png")
    kiln("plot", "tsp-a280.csv", "--output", "tsp-a280.png")
    return lines


def live_race():
    """The README's Sudoku race at its end, as a terminal showed it."""
    command = ("kiln race puzzles/sudoku/hardest11.txt --index 4 --no-propagate "
               "--presets kiln,geometric-restart,lundy")
    screen = LIVE_RACE.read_text().rstrip("\n").splitlines()
    title = screen[0].strip()
    return ["## The README's Sudoku race, live", "",
            f"`{command}` (from the repository's root) in tmux at 80x24 with `NO_COLOR=1 "
            "TERM=dumb`, run to its end at its default pace and captured with `tmux "
            f"capture-pane -p` ([{LIVE_RACE.name}](captures/{LIVE_RACE.name})). Its title "
            f"reads \"{title}\".", "", "```text", *screen, "```", ""]


def page(tsp_rows, kernel_lines, sudoku_lines, race_lines):
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
    out += ["", "The classroom report found that swaps alone stay 3-50 % above the optimum "
            "and 2-opt reaches it, and so it is here: arbitrary swaps end several per cent "
            "above the best tour, worst on clustered cities, where a swap must move a city "
            "between islands; consecutive swaps move a city one place at a time and from a "
            "random tour stay at several times the best length at this budget; 2-opt reaches "
            "the best tour or within a per cent of it.", "",
            "The figures are of seed 1. The three runs share one schedule, so their "
            "temperatures are one grey line, named after all three.", "",
            *(f"![{l}](../puzzles/gallery/plots/lab-{l}.png)" for l in LAYOUTS), ""]
    out += ["## Three kernels on one image", "",
            "A random 128x128 image, 30 % black, 20,000,000 steps under each kernel (swaps "
            "keep the number of black pixels).", "",
            "| kernel | energy | black pixels |", "|---|---|---|"]
    out += [f"| {x['pane']} | {x['energy']:,.0f} | {x['black_pixels']:,} |"
            for x in kernel_lines[:-1]]
    out += ["", "![kernels](../puzzles/gallery/plots/kernels.png)", "",
            "The image each kernel ends with, from its own run with the same settings "
            f"({', '.join(KERNELS)}, left to right; one image pixel is a 4x4 square):", "",
            "![the final images](../puzzles/gallery/plots/kernel-images.png)", ""]
    racers = sudoku_lines[:-1]
    fastest = min(racers, key=lambda x: x["seconds"])
    slowest = max(racers, key=lambda x: x["seconds"])
    out += ["## kiln against the classroom presets on a top95 puzzle", "",
            f"Puzzle 5 of `puzzles/sudoku/top95_first10.txt`, each preset given up to "
            f"{SUDOKU_STEPS:,} steps.", "",
            "| preset | solved | seconds | steps |", "|---|---|---|---|"]
    out += [f"| {x['pane']} | {'yes' if x['solved'] else 'no'} | {x['seconds']:.2f} | "
            f"{x['iterations']:,} |" for x in racers]
    if slowest["seconds"] >= 10 * fastest["seconds"]:
        out += ["", f"{fastest['pane']} is done in {fastest['seconds']:.2f} s and "
                f"{slowest['pane']} runs {slowest['seconds']:.0f} s, so the figure's time axis "
                "is logarithmic (`kiln plot` chooses one when the runs' lengths differ tenfold "
                "or more); a dot marks where each run ended."]
    out += ["", "![top95](../puzzles/gallery/plots/top95.png)", ""]
    racers = race_lines[-1]["ranking"]
    out += ["## One trace of each problem, and a race", "",
            "Short runs with their default settings, from `puzzles/README.md`: puzzle 2 of "
            "`puzzles/sudoku/forum_hardest_5.txt` raced by the default presets for up to "
            "5 s (" + ", ".join(f"{x['preset']} {x['seconds']:.2f} s" for x in racers) + "), "
            "pattern formation and denoising for 2 s, and a280 for 2 s.", "",
            "![race](../puzzles/gallery/plots/race.png)", "",
            "![image](../puzzles/gallery/plots/image.png)", "",
            "![a280](../puzzles/gallery/plots/tsp-a280.png)", ""]
    out += live_race()
    out += ["## Commands", "",
            "```text", *commands, "```", ""]
    (ROOT / "docs/gallery.md").write_text("\n".join(out))


def main():
    PLOTS.mkdir(parents=True, exist_ok=True)
    page(tsp_comparison(), kernels(), sudoku_presets(), examples())


if __name__ == "__main__":
    main()
