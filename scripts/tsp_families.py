#!/usr/bin/env python3
"""TSP instance families beyond the shipped eight, their reference lengths, and kiln's gaps.

  scripts/tsp_families.py make DIR [--seed S] [--runs R]
      Writes DIR/<family>-<n>.tsp (TSPLIB, deterministic from --seed) and DIR/refs.json:
      the reference length of each, either a proven optimum (the lattices: see `lattice`)
      or the best of LKH's runs (elkai 2.x, R runs; `"kind": "lkh-best"`).
  scripts/tsp_families.py gaps DIR [--only SUBSTR] [--scale X] [-- extra kiln flags]
      Runs `kiln tsp FILE --headless --seeds 1..5 --jobs 1 --optimum REF` on each instance
      (1 s up to 442 cities and 5 s above, times --scale) and prints one markdown row per
      family and size: median and max gap in percent (negative: shorter than the reference).
Set KILN to the binary to run (default target/release/kiln).

Families (every one at 100, 225 and 442 cities unless said):
  uniform   EUC_2D, uniform over a 10,000 square (control)
  lattice   EUC_2D, a square lattice (10x10, 15x15, 21x21): all edges tie, every tour
            through a row is collinear; optimum proven (n unit edges, one diagonal if odd)
  lines     EUC_2D, like ts225: cities on a few long horizontal lines, evenly spaced, with
            gaps between groups (many collinear cities and equal edges)
  clustered EUC_2D, Gaussian clusters of very different sizes and spreads
  duplicate EUC_2D, uniform with a third of the cities given 1-3 exact copies (0-length edges)
  tiny      EUC_2D, uniform in a 40x40 square: rounding makes most edges tie at 1-5
  huge      EUC_2D, uniform in a 1e6 square
  multiscale EUC_2D, clusters whose radii run from 1 to 1e5 inside a 1e6 square
  att       ATT (pseudo-Euclidean), att48-like coordinates
  geo       GEO, DDD.MM latitudes and longitudes over Europe
  ceil      CEIL_2D, uniform
and at 783-1002 cities: uniform-1002, clustered-783, lattice-992 (31x32), lines-1000.
TSPLIB's integer rounding makes a 1e-3 square degenerate (every edge 0), so the small end
of the scale range is `tiny`, where rounding still leaves ties.
"""
import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time

from kiln_binary import KILN

SIZES = [100, 225, 442]
LARGE = [("uniform", 1002), ("clustered", 783), ("lattice", 992), ("lines", 1000)]


def uniform(rng, n, side):
    return [(rng.uniform(0, side), rng.uniform(0, side)) for _ in range(n)]


def lattice_shape(n):
    # The most square rows x cols with rows * cols == n, for the sizes used here.
    rows = int(math.isqrt(n))
    while n % rows:
        rows -= 1
    return rows, n // rows


def lattice(_rng, n):
    rows, cols = lattice_shape(n)
    return [(100.0 * c, 100.0 * r) for r in range(rows) for c in range(cols)]


def lines(rng, n):
    # A handful of horizontal lines, cities every 100 units in runs of 5-15 with gaps.
    points, y = [], 0.0
    while len(points) < n:
        x = 0.0
        for _ in range(rng.randint(2, 4)):
            for _ in range(rng.randint(5, 15)):
                if len(points) < n:
                    points.append((x, y))
                x += 100.0
            x += 100.0 * rng.randint(2, 6)
        y += 100.0 * rng.choice([1, 2, 3])
    return points


def clusters(rng, n, side, count, radius):
    """Gaussian clusters at uniform centres, each with its own spread drawn by `radius`."""
    centres = [(rng.uniform(0, side), rng.uniform(0, side), radius(rng)) for _ in range(count)]
    points = []
    for _ in range(n):
        cx, cy, r = rng.choice(centres)
        points.append((cx + rng.gauss(0, r), cy + rng.gauss(0, r)))
    return points


def clustered(rng, n, side=1e4):
    # Spreads scale with the square, so a wider one (bench.py anytime's) keeps the shape.
    scale = side / 1e4
    return clusters(rng, n, side, max(3, n // 40), lambda r: scale * r.uniform(50.0, 800.0))


def multiscale(rng, n):
    return clusters(rng, n, 1e6, max(4, n // 30), lambda r: 10 ** r.uniform(0, 5))


def duplicate(rng, n):
    points = uniform(rng, n * 2 // 3, 1e4)
    while len(points) < n:
        points.extend([rng.choice(points)] * min(rng.randint(1, 3), n - len(points)))
    rng.shuffle(points)
    return points


def geo(rng, n):
    def ddmm(v):
        deg = math.trunc(v)
        return deg + round((v - deg) * 60) / 100.0
    return [(ddmm(rng.uniform(36, 60)), ddmm(rng.uniform(-10, 30))) for _ in range(n)]


FAMILIES = {
    "uniform": ("EUC_2D", lambda rng, n: uniform(rng, n, 1e4)),
    "lattice": ("EUC_2D", lattice),
    "lines": ("EUC_2D", lines),
    "clustered": ("EUC_2D", clustered),
    "duplicate": ("EUC_2D", duplicate),
    "tiny": ("EUC_2D", lambda rng, n: uniform(rng, n, 40.0)),
    "huge": ("EUC_2D", lambda rng, n: uniform(rng, n, 1e6)),
    "multiscale": ("EUC_2D", multiscale),
    "att": ("ATT", lambda rng, n: uniform(rng, n, 8000.0)),
    "geo": ("GEO", geo),
    "ceil": ("CEIL_2D", lambda rng, n: uniform(rng, n, 1e4)),
}


def distance(metric, a, b):
    dx, dy = a[0] - b[0], a[1] - b[1]
    if metric == "EUC_2D":
        return int(math.floor(math.sqrt(dx * dx + dy * dy) + 0.5))
    if metric == "CEIL_2D":
        return int(math.ceil(math.sqrt(dx * dx + dy * dy)))
    if metric == "ATT":
        r = math.sqrt((dx * dx + dy * dy) / 10.0)
        t = int(math.floor(r + 0.5))
        return t + 1 if t < r else t
    pi, radius = 3.141592, 6378.388

    def rad(v):
        deg = math.trunc(v)
        return pi * (deg + 5.0 * (v - deg) / 3.0) / 180.0
    (la, oa), (lb, ob) = (rad(a[0]), rad(a[1])), (rad(b[0]), rad(b[1]))
    q1, q2, q3 = math.cos(oa - ob), math.cos(la - lb), math.cos(la + lb)
    return int(radius * math.acos(0.5 * ((1.0 + q1) * q2 - (1.0 - q1) * q3)) + 1.0)


def tour_length(metric, points, tour):
    return sum(distance(metric, points[tour[i - 1]], points[tour[i]]) for i in range(len(tour)))


def tsplib(name, metric, points):
    # GEO coordinates are DDD.MM; the planar ones keep three decimals.
    fmt = "{} {:.2f} {:.2f}" if metric == "GEO" else "{} {:.3f} {:.3f}"
    rows = [fmt.format(i + 1, x, y) for i, (x, y) in enumerate(points)]
    return (f"NAME : {name}\nTYPE : TSP\nDIMENSION : {len(points)}\nEDGE_WEIGHT_TYPE : {metric}\n"
            "NODE_COORD_SECTION\n" + "\n".join(rows) + "\nEOF\n")


def read_points(text):
    body = text.split("NODE_COORD_SECTION")[1].split("EOF")[0].split()
    return [(float(body[i + 1]), float(body[i + 2])) for i in range(0, len(body), 3)]


def lkh(text, runs, seed, time_limit=None):
    """LKH's best tour (0-based) over `runs` runs: elkai's raw entry point takes LKH's own
    parameter and problem files, so every TSPLIB metric is LKH's, not a matrix of ours."""
    import elkai._elkai as lk
    params = f"RUNS = {runs}\nSEED = {seed}\nPROBLEM_FILE = :stdin:\n"
    if time_limit is not None:
        params += f"TIME_LIMIT = {time_limit}\n"
    return [c - 1 for c in lk.solve_problem(params, text)]


def lattice_optimum(n, spacing=100):
    rows, cols = lattice_shape(n)
    # A Hamiltonian cycle of unit edges exists iff rows * cols is even; otherwise one edge
    # must be at least a diagonal (a grid graph is bipartite), and one diagonal suffices.
    return n * spacing if n % 2 == 0 else (n - 1) * spacing + round(spacing * math.sqrt(2))


def make(args):
    os.makedirs(args.dir, exist_ok=True)
    refs = {}
    jobs = [(f, n) for f in FAMILIES for n in SIZES] + LARGE
    for family, n in jobs:
        metric, build = FAMILIES[family]
        rng = random.Random(f"{args.seed}-{family}-{n}")
        name = f"{family}-{n}"
        text = tsplib(name, metric, build(rng, n))
        with open(os.path.join(args.dir, name + ".tsp"), "w") as f:
            f.write(text)
        points = read_points(text)  # as written (rounded), as kiln and LKH read them
        started = time.time()
        runs = args.runs if n <= 442 else max(1, args.runs // 2)
        tour = lkh(text, runs, args.seed)
        best = tour_length(metric, points, tour)
        ref = {"n": n, "family": family, "metric": metric, "length": best,
               "kind": f"lkh-best-of-{runs}-runs", "lkh_seconds": round(time.time() - started, 1)}
        if family == "lattice":
            proven = lattice_optimum(n)
            assert best >= proven, (name, best, proven)
            ref.update(length=proven, kind="proven-optimum", lkh=best)
        refs[name] = ref
        print(name, ref, file=sys.stderr)
    with open(os.path.join(args.dir, "refs.json"), "w") as f:
        json.dump(refs, f, indent=1)


def gaps(args, extra):
    kiln = KILN
    refs = json.load(open(os.path.join(args.dir, "refs.json")))
    print("| instance | family | n | metric | ref | limit s | median gap % | max gap % | gaps seeds 1-5 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, ref in refs.items():
        if args.only and not any(s in name for s in args.only.split(",")):
            continue
        limit = (1.0 if ref["n"] <= 442 else 5.0) * args.scale
        cmd = [kiln, "tsp", os.path.join(args.dir, name + ".tsp"), "--headless", "--quiet",
               "--seeds", args.seeds, "--jobs", "1", "--optimum", str(ref["length"]),
               "--time-limit", str(limit), *extra]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        runs = [json.loads(line) for line in out.splitlines()]
        g = [100.0 * (r["length"] - ref["length"]) / ref["length"] for r in runs]
        print(f"| {name} | {ref['family']} | {ref['n']} | {ref['metric']} | {ref['length']} "
              f"| {limit:g} | {statistics.median(g):.2f} | {max(g):.2f} "
              f"| {', '.join(f'{x:.2f}' for x in g)} |", flush=True)


def main():
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[: argv.index("--")] if "--" in argv else argv
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("make")
    m.add_argument("dir")
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--runs", type=int, default=10)
    g = sub.add_parser("gaps")
    g.add_argument("dir")
    g.add_argument("--only")
    g.add_argument("--scale", type=float, default=1.0)
    g.add_argument("--seeds", default="1..5")
    args = p.parse_args(argv)
    make(args) if args.cmd == "make" else gaps(args, extra)


if __name__ == "__main__":
    main()
