#!/usr/bin/env python3
"""Draws the anytime figure of docs/benchmarks.md from the data file `bench.py anytime`
writes (one row per run).

    .bench-venv/bin/python scripts/anytime_figure.py docs/anytime-tsp.csv docs/anytime-tsp.png

One panel per instance, gap in % against wall seconds on a log axis: a line through the
medians over the seeds at each time limit, and each run as a faint point. kiln, kiln
--no-polish and LKH are told apart by colour, marker and line style alike, so the figure
reads in grey too. Needs matplotlib (bench.py installs it into .bench-venv).
"""
import csv
import math
import statistics
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator  # noqa: E402

# Okabe-Ito blue, bluish green, sky blue and vermilion, and a marker and a line style each:
# apart for every kind of colour vision.
STYLE = {
    "kiln": dict(color="#0072B2", marker="o", linestyle="-", markerfacecolor="#0072B2"),
    "kiln-no-polish": dict(color="#009E73", marker="^", linestyle=":",
                           markerfacecolor="#009E73"),
    "kiln-one-chain": dict(color="#56B4E9", marker="D", linestyle="-.",
                           markerfacecolor="white"),
    "LKH": dict(color="#D55E00", marker="s", linestyle="--", markerfacecolor="white"),
}


def runs(path):
    """{instance: (n, reference kind, {solver: {limit: [(wall, gap), ...]}})}, instances
    in the file's order; runs that did not finish left out."""
    found = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            _, _, series = found.setdefault(row["instance"], (
                int(row["n"]), row["reference_kind"],
                defaultdict(lambda: defaultdict(list))))
            if row["gap_percent"]:
                series[row["solver"]][float(row["limit_s"])].append(
                    (float(row["wall_s"]), float(row["gap_percent"])))
    return found


def medians(by_limit):
    """(median wall, median gap) per time limit, in wall order."""
    return sorted((statistics.median(w for w, _ in points), statistics.median(g for _, g in points))
                  for points in by_limit.values())


def main(source, target):
    found = runs(source)
    columns = 2 if len(found) > 1 else 1
    rows = math.ceil(len(found) / columns)
    fig, axes = plt.subplots(rows, columns, figsize=(5.5 * columns, 4 * rows),
                             constrained_layout=True, squeeze=False)
    seeds = {0}
    for ax, (name, (n, against, series)) in zip(axes.flat, found.items()):
        for solver, style in STYLE.items():
            by_limit = series.get(solver)
            if not by_limit:
                continue
            every = [p for points in by_limit.values() for p in points]
            seeds.add(max(len(points) for points in by_limit.values()))
            ax.plot(*zip(*every), linestyle="none", marker=style["marker"], color=style["color"],
                    alpha=0.3, markersize=4)
            ax.plot(*zip(*medians(by_limit)), label=solver, linewidth=2, markersize=7,
                    markeredgewidth=1.5, **style)
        ax.set_xscale("log")
        # Ticks at 1 and 3 times the powers of ten, as the time limits run.
        ax.xaxis.set_major_locator(LogLocator(subs=(1, 3)))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        # Against an estimate of the optimum a gap is an upper bound.
        to = "BHH estimate (upper bound)" if against == "BHH estimate" else against
        ax.set_title(f"{n:,} cities ({name}): gap to {to}", fontsize=10)
        ax.set_xlabel("wall seconds (log scale)")
        ax.set_ylabel("gap (%)")
        ax.set_ylim(bottom=min(0, ax.get_ylim()[0]))
        ax.grid(True, which="major", alpha=0.4)
        ax.grid(True, which="minor", alpha=0.15)
        ax.legend(loc="best")
    for ax in list(axes.flat)[len(found):]:
        ax.set_visible(False)
    most = max(seeds)
    fig.suptitle("Anytime TSP: gap against wall time; "
                 + ("one run per time limit" if most == 1 else
                    f"lines through the medians over {most} seeds at each time limit, "
                    "faint points the runs"), fontsize=12)
    fig.savefig(target, dpi=100)


if __name__ == "__main__":
    main(*sys.argv[1:3])
