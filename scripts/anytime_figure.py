#!/usr/bin/env python3
"""Draws the anytime figure of docs/benchmarks.md from the points `bench.py anytime` wrote.

    .bench-venv/bin/python scripts/anytime_figure.py docs/anytime-tsp.csv docs/anytime-tsp.png

One panel per instance (kroA100 is left out: both solvers are at its optimum from their
first point), gap in % against wall seconds on a log axis; kiln and LKH told apart by
colour, marker and line style alike, so the figure reads in grey too. Needs matplotlib
(bench.py installs it into .bench-venv).
"""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# Okabe-Ito blue and vermilion: apart for every kind of colour vision.
STYLE = {
    "kiln": dict(color="#0072B2", marker="o", linestyle="-", markerfacecolor="#0072B2"),
    "LKH": dict(color="#D55E00", marker="s", linestyle="--", markerfacecolor="white"),
}
LEFT_OUT = {"kroA100"}


def points(path):
    """{instance: (n, against, {solver: [(wall, gap), ...] in wall order})}."""
    found = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            name = row["instance"]
            _, _, series = found.setdefault(
                name, (int(row["n"]), row["against"], defaultdict(list)))
            series[row["solver"]].append((float(row["wall_s"]), float(row["gap_percent"])))
    for _, _, series in found.values():
        for line in series.values():
            line.sort()
    return found


def main(source, target):
    found = {k: v for k, v in points(source).items() if k not in LEFT_OUT}
    fig, axes = plt.subplots(2, 2, figsize=(11, 8), constrained_layout=True)
    for ax, (name, (n, against, series)) in zip(axes.flat, found.items()):
        for solver, style in STYLE.items():
            line = series.get(solver, [])
            if not line:
                continue
            xs, ys = zip(*line)
            ax.plot(xs, ys, label=solver, linewidth=2, markersize=7, markeredgewidth=1.5,
                    **style)
        ax.set_xscale("log")
        # Against an estimate of the optimum a gap is an upper bound.
        to = "BHH estimate (upper bound)" if against == "BHH estimate" else against
        ax.set_title(f"{n:,} cities ({name}): gap to {to}", fontsize=10)
        ax.set_xlabel("wall seconds (log scale)")
        ax.set_ylabel("gap (%)")
        ax.set_ylim(bottom=min(0, ax.get_ylim()[0]))
        ax.grid(True, which="major", alpha=0.4)
        ax.grid(True, which="minor", alpha=0.15)
        ax.legend(loc="upper right")
    for ax in list(axes.flat)[len(found):]:
        ax.set_visible(False)
    fig.suptitle("Anytime TSP: gap against wall time, one run per point (seed 1); "
                 "kroA100 left out (both at its optimum throughout)", fontsize=12)
    fig.savefig(target, dpi=100)


if __name__ == "__main__":
    main(*sys.argv[1:3])
