#!/usr/bin/env python3
"""kiln's benchmark suite: the tables the README's and docs/benchmarks.md's numbers come from.

usage: [KILN=BINARY] scripts/bench.py [--data DIR] [--seeds A-B] [SUITE ...]

Suites (default: tsp scale image baseline):
  tsp       every TSPLIB instance with a known optimum (puzzles/tsp and DATA/tsp): the
            annealer alone (what the live view runs, --no-polish) and the headless default;
            1 s up to 442 cities, 5 s above
  scale     random uniform TSP at 1k-1M cities and images at 256^2-4096^2: time limit
            against wall time and peak memory; TSP lengths against the Beardwood-Halton-
            Hammersley estimate 0.7124 sqrt(n A)
  image     denoising every ground-truth entry up to 256x256 (DATA/image) for 1 s: energy
            over the exact minimum
  sudoku    every Sudoku set in DATA/sudoku but the 25x25 ones: solved, total seconds
  sudoku25  the minimal 25x25 puzzles of puzzles/sudoku/minimal25.txt and
            minimal25_fresh.txt and the three generated ones in DATA, default two chains,
            seeds 1-3 (a few minutes; the limit is 600 s a run)
  baseline  the same TSPLIB instances with Python's simanneal (its travelling-salesman
            example: swap two cities, auto schedule for the same wall time) and LKH
            through elkai; both from PyPI, installed into .bench-venv on first use
  anytime   gap against wall time (0.1-30 s) for kiln's default and for LKH (elkai, one
            run with TIME_LIMIT) on kroA100, pcb442 and uniform random 1,002, 10,000 and
            100,000 cities (seed 1; references in `anytime_reference`); writes its
            points (anytime-tsp.csv) and their figure (anytime-tsp.png, drawn by
            anytime_figure.py with matplotlib from .bench-venv) to ANYTIME_DIR (default
            anytime/), and a trace per solver and size for `kiln plot --x seconds`.
            About 25 min.

Run it on a quiet machine: time-limited results depend on steps per second.
DATA defaults to ../shared/data; suites whose data is missing are skipped with a note.
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kiln_binary import KILN

ROOT = Path(__file__).resolve().parent.parent
GNU_TIME = "/usr/bin/time"
BHH = 0.7124
# kiln's random instances fill a square this wide (src/problems/tsp/random.rs).
SIDE = 10_000.0


def run(cmd):
    """Run `cmd`; return its stdout, wall seconds and peak resident memory in MB (None
    without GNU time: a child's own rusage would count this script's memory from before
    the exec)."""
    with tempfile.NamedTemporaryFile("r") as peak, tempfile.TemporaryFile("w+") as err:
        timed = [GNU_TIME, "-f", "%M", "-o", peak.name] if Path(GNU_TIME).exists() else []
        start = time.monotonic()
        done = subprocess.run(timed + [str(c) for c in cmd], stdout=subprocess.PIPE,
                              stderr=err, text=True)
        wall = time.monotonic() - start
        if done.returncode not in (0, 1):
            err.seek(0)
            sys.exit(f"bench: {' '.join(map(str, cmd))} failed ({done.returncode}): "
                     f"{err.read().strip()}")
        kb = peak.read().strip().splitlines()
        return done.stdout, wall, int(kb[-1]) / 1024 if timed and kb else None


def table(title, header, rows):
    print(f"\n### {title}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    for row in rows:
        print("| " + " | ".join(str(c) for c in row) + " |")
    sys.stdout.flush()


def mb_text(mb):
    return "-" if mb is None else f"{mb:.0f}"


def pct(x):
    return f"{x:.2f} %"


def tsplib_instances(data):
    """(name, path, optimum) of every TSPLIB file with a known optimum, smallest first."""
    optima = json.loads((ROOT / "puzzles/tsp/optima.json").read_text())["optima"]
    found = {}
    for folder in (ROOT / "puzzles/tsp", data / "tsp"):
        if folder.is_dir():
            for path in sorted(folder.glob("*.tsp")):
                if path.stem in optima and path.stem not in found:
                    found[path.stem] = path
    return sorted(
        ((name, path, optima[name]) for name, path in found.items()),
        key=lambda item: tsp_size(item[1]),
    )


def tsp_size(path):
    for line in path.read_text().splitlines():
        if line.split(":")[0].strip() == "DIMENSION":
            return int(line.split(":")[1])
    return 0


def tsp_budget(n):
    return 1 if n <= 442 else 5


def suite_tsp(args, data):
    rows = []
    for name, path, optimum in tsplib_instances(data):
        n = tsp_size(path)
        limit = tsp_budget(n)
        for mode, flags in (("anneal only", ["--no-polish"]), ("default", [])):
            gaps, secs, rates, searches = [], [], [], set()
            for seed in args.seeds:
                out, _, _ = run([KILN, "tsp", str(path), "--headless", "--quiet",
                              "--seed", str(seed), "--time-limit", str(limit)] + flags)
                line = json.loads(out)
                gaps.append(100 * (line["length"] - optimum) / optimum)
                secs.append(line["seconds"])
                rates.append(line["steps_per_second"])
                searches.add(line.get("search", "-"))
            rows.append([name, n, mode, "/".join(sorted(searches)), len(gaps),
                         pct(statistics.median(gaps)), pct(max(gaps)),
                         f"{statistics.median(secs):.2f}",
                         f"{statistics.median(rates) / 1e6:.1f}M"])
    table("TSP: gap to the optimum, seeds " + seed_range(args.seeds),
          ["instance", "n", "run", "search", "seeds", "median gap", "max gap", "seconds",
           "steps/s"], rows)


def seed_range(seeds):
    return f"{seeds[0]}-{seeds[-1]}" if len(seeds) > 1 else str(seeds[0])


def suite_scale(args, _data):
    rows = []
    for n, limit in ((1_000, 1), (10_000, 10), (100_000, 60), (1_000_000, 30)):
        out, wall, mb = run([KILN, "tsp", "--random", str(n), "--headless",
                                      "--quiet", "--time-limit", str(limit)])
        line = json.loads(out)
        bhh = BHH * math.sqrt(n * SIDE * SIDE)
        rows.append([f"TSP {n:,} cities", limit, f"{wall:.2f}", f"{wall / limit:.3f}",
                     mb_text(mb), f"{line['length'] / bhh:.4f}"])
    for side in (256, 1024, 4096):
        for mode, flags in (("pattern", []), ("denoising", ["--denoise"])):
            limit = 2
            out, wall, mb = run([KILN, "image", "--size", f"{side}x{side}",
                                          "--headless", "--quiet", "--time-limit",
                                          str(limit)] + flags)
            json.loads(out)
            rows.append([f"image {side}x{side} {mode}", limit, f"{wall:.2f}",
                         f"{wall / limit:.3f}", mb_text(mb), "-"])
    table("Time limits at scale (setup included)",
          ["run", "limit s", "wall s", "wall/limit", "peak MB", "length / BHH"], rows)


def suite_image(args, data):
    truth_file = data / "image/ground_truth.json"
    if not truth_file.exists():
        print(f"\n(image suite skipped: no {truth_file})")
        return
    truth = json.loads(truth_file.read_text())
    ratios, rows = [], []
    for inst in truth["instances"]:
        if inst["width"] > 256 or inst["height"] > 256:
            continue
        for r in inst["results"]:
            mine = []
            for seed in args.seeds:
                out, _, _ = run([KILN, "image", str(data / "image" / inst["noisy_file"]),
                              "--denoise", "--headless", "--quiet", "--seed", str(seed),
                              "--time-limit", "1", "--lambda", str(r["lam"]),
                              "--beta", str(r["beta"]),
                              "--neighbourhood", str(r["neighbourhood"])])
                mine.append(json.loads(out)["energy"] / r["min_energy"])
            ratios += mine
            rows.append([inst["name"], f"n{r['neighbourhood']}", r["beta"],
                         f"{statistics.median(mine):.5f}", f"{max(mine):.5f}"])
    table("Denoising, 1 s: energy / exact minimum, seeds " + seed_range(args.seeds),
          ["image", "neighbours", "beta", "median", "max"], rows)
    within = sum(1 for x in ratios if x <= 1.0005) / len(ratios)
    print(f"\nall {len(ratios)} runs: worst {max(ratios):.5f}, mean "
          f"{statistics.mean(ratios):.5f}, within 1.0005: {100 * within:.0f} %, "
          f"within 1.001: {100 * sum(1 for x in ratios if x <= 1.001) / len(ratios):.0f} %")


def sudoku_sets(data):
    folder = data / "sudoku"
    return sorted(p for p in folder.glob("*.txt") if not p.name.endswith(".solutions.txt"))


def suite_sudoku(args, data):
    rows = []
    for path in sudoku_sets(data):
        if path.name.startswith("sudoku25"):
            continue
        out, wall, _ = run([KILN, "sudoku", str(path), "--headless", "--quiet",
                         "--jobs", "1"])
        lines = [json.loads(x) for x in out.splitlines()]
        secs = [x["seconds"] for x in lines]
        rows.append([path.name, len(lines), sum(x["solved"] for x in lines),
                     f"{statistics.median(secs):.3f}", f"{max(secs):.2f}", f"{wall:.1f}"])
    table("Sudoku sets, one job, seed 1",
          ["set", "puzzles", "solved", "median s", "max s", "wall s"], rows)


def suite_sudoku25(args, data):
    """The minimal 25x25 puzzles shipped in puzzles/ (made by scripts/sudoku25_generate.py,
    never tuned on; minimal25_fresh.txt made after conflict learning was written) and the
    three generated ones in DATA, default two chains, seeds 1-3."""
    files = [ROOT / "puzzles/sudoku/minimal25.txt", ROOT / "puzzles/sudoku/minimal25_fresh.txt",
             data / "sudoku/sudoku25_generated_dev3.txt"]
    for path in files:
        if not path.exists():
            print(f"(skipped: {path} not found)")
            continue
        rows, secs = [], []
        for seed in args.seeds[:3]:
            out, _, _ = run([KILN, "sudoku", str(path), "--headless", "--quiet",
                             "--seed", str(seed), "--jobs", "1"])
            for line in map(json.loads, out.splitlines()):
                secs.append(line["seconds"] if line["solved"] else math.inf)
                rows.append([line["source"], seed, line["solved"], f"{line['seconds']:.1f}",
                             line.get("solved_by", "-")])
        table(f"25x25 Sudoku, {path.name}, default two chains",
              ["puzzle", "seed", "solved", "seconds", "solved by"], rows)
        print(f"\nmedian {statistics.median(secs):.1f} s, max {max(secs):.1f} s, "
              f"unsolved {secs.count(math.inf)}")


VENV_PACKAGES = ["simanneal==0.5.0", "elkai==2.0.1", "matplotlib==3.9.2"]


def venv_python():
    """The benchmark venv's Python, with VENV_PACKAGES (installed on first use, and into a
    venv made before one of them was added)."""
    venv = ROOT / ".bench-venv"
    python = venv / "bin/python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    missing = subprocess.run([str(python), "-c", "import simanneal, elkai, matplotlib"],
                             capture_output=True).returncode != 0
    if missing:
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", *VENV_PACKAGES],
                       check=True)
    return str(python)


def suite_baseline(args, data):
    python = venv_python()
    rows = []
    for name, path, optimum in tsplib_instances(data):
        n = tsp_size(path)
        limit = tsp_budget(n)
        for solver in ("simanneal", "elkai"):
            gaps, secs = [], []
            seeds = args.seeds if solver == "simanneal" else args.seeds[:1]
            for seed in seeds:
                out, _, _ = run([python, str(ROOT / "scripts/baseline_tsp.py"), solver,
                              str(path), str(limit), str(seed)])
                line = json.loads(out)
                gaps.append(100 * (line["length"] - optimum) / optimum)
                secs.append(line["seconds"])
            rows.append([name, n, solver, len(gaps), pct(statistics.median(gaps)),
                         pct(max(gaps)), f"{statistics.median(secs):.2f}"])
    table("Baselines on the same machine (simanneal: same wall time; elkai: LKH's default)",
          ["instance", "n", "solver", "seeds", "median gap", "max gap", "seconds"], rows)


ANYTIME_TIMES = [0.1, 0.3, 1, 3, 10, 30]
# Kept for LKH at sizes where its default preprocessing (a subgradient ascent over all
# pairs) alone would take longer than the largest time limit.
LKH_LARGE = "CANDIDATE_SET_TYPE = POPMUSIC\nINITIAL_PERIOD = 100\n"
# Above this many cities LKH's preprocessing alone outlasts every limit (9 s at 10,000
# cities with POPMUSIC candidates): it runs once, with the largest.
LKH_ONCE_ABOVE = 20_000
LKH_RUN = """
import json, sys, time
import elkai._elkai as lk
text, params = open(sys.argv[1]).read(), sys.argv[2]
start = time.monotonic()
tour = lk.solve_problem(params + "PROBLEM_FILE = :stdin:\\n", text)
print(json.dumps({"tour": tour, "seconds": time.monotonic() - start}))
"""


def uniform_tsplib(path, n, seed, side=1e6):
    """A uniform random instance in a square `side` wide, written as TSPLIB EUC_2D (wide
    enough that integer rounding does not move lengths against the BHH estimate)."""
    import random
    rng = random.Random(seed)
    points = [(rng.uniform(0, side), rng.uniform(0, side)) for _ in range(n)]
    rows = "\n".join(f"{i + 1} {x:.1f} {y:.1f}" for i, (x, y) in enumerate(points))
    path.write_text(f"NAME : uniform{n}\nTYPE : TSP\nDIMENSION : {n}\nEDGE_WEIGHT_TYPE : "
                    f"EUC_2D\nNODE_COORD_SECTION\n{rows}\nEOF\n")
    return [(float(x), float(y)) for x, y in
            (r.split()[1:] for r in rows.splitlines())]


def euc_length(points, tour):
    return sum(int(math.dist(points[tour[i - 1]], points[tour[i]]) + 0.5)
               for i in range(len(tour)))


def lkh_python():
    """This Python when it has elkai, else the benchmark venv's (elkai 2.0.1)."""
    try:
        import elkai  # noqa: F401
        return sys.executable
    except ImportError:
        return venv_python()


def lkh(path, params, timeout):
    """One elkai call in its own process (so a run that overruns can be stopped): the
    0-based tour and LKH's wall seconds in that process, preprocessing included (Python's
    start-up not); None after `timeout`."""
    try:
        out = subprocess.run([lkh_python(), "-c", LKH_RUN, str(path), params],
                             capture_output=True, text=True, timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return None
    line = json.loads(out.stdout)
    return [c - 1 for c in line["tour"]], line["seconds"]


def anytime_reference(name, path, points):
    """The length gaps are measured against: the known optimum of kroA100 and pcb442; for
    1,002 random cities the best of 5 LKH runs (LKH's defaults); for 10,000 and 100,000
    the Beardwood-Halton-Hammersley estimate 0.7124 sqrt(n A), which the optimum of a
    finite instance exceeds (by about 0.9 % at 10,000 cities and 0.2 % at 100,000 in the
    DIMACS challenge's E10k.0 and E100k.0): gaps there are upper bounds."""
    optima = json.loads((ROOT / "puzzles/tsp/optima.json").read_text())["optima"]
    if name in optima:
        return optima[name], "optimum"
    n = len(points)
    if n <= 2000:
        tour, _ = lkh(path, "RUNS = 5\nSEED = 1\n", None)
        return euc_length(points, tour), "best of 5 LKH runs"
    return BHH * math.sqrt(n * 1e12), "BHH estimate"


def suite_anytime(args, _data):
    out_dir = Path(os.environ.get("ANYTIME_DIR", "anytime"))
    out_dir.mkdir(exist_ok=True)
    instances = [("kroA100", ROOT / "puzzles/tsp/kroA100.tsp", None),
                 ("pcb442", ROOT / "puzzles/tsp/pcb442.tsp", None)]
    for n in (1002, 10_000, 100_000):
        path = out_dir / f"uniform{n}.tsp"
        instances.append((f"uniform{n}", path, uniform_tsplib(path, n, seed=n)))
    rows = []
    # The figure's points: (instance, n, solver, limit, wall, gap, against).
    figure = [["instance", "n", "solver", "limit_s", "wall_s", "gap_percent", "against"]]
    for name, path, points in instances:
        if points is None:
            points = [tuple(map(float, r.split()[1:3])) for r in
                      path.read_text().split("NODE_COORD_SECTION")[1].split("EOF")[0]
                      .strip().splitlines()]
        ref, kind = anytime_reference(name, path, points)
        n = len(points)
        lkh_params = "RUNS = 1\nSEED = 1\n" + (LKH_LARGE if n > 2000 else "")
        for solver in ("kiln", "LKH"):
            trace = []
            for limit in ANYTIME_TIMES:
                if solver == "kiln":
                    out, wall, _ = run([KILN, "tsp", str(path), "--headless", "--quiet",
                                        "--seed", "1", "--time-limit", str(limit)])
                    length = json.loads(out)["length"]
                elif n > LKH_ONCE_ABOVE and limit != ANYTIME_TIMES[-1]:
                    continue
                else:
                    done = lkh(path, lkh_params + f"TIME_LIMIT = {limit}\n", 10 * limit + 300)
                    if done is None:
                        rows.append([name, n, solver, limit, "-", "did not finish", kind])
                        continue
                    tour, wall = done
                    length = euc_length(points, tour)
                gap = 100 * (length - ref) / ref
                trace.append((wall, gap))
                rows.append([name, n, solver, limit, f"{wall:.2f}", pct(gap), kind])
                figure.append([name, n, solver, limit, f"{wall:.2f}", f"{gap:.2f}", kind])
            with open(out_dir / f"{solver}-{name}.csv", "w") as f:
                f.write("step,seconds,temperature,energy,best_energy,acceptance,restarts,"
                        "reheats\n")
                # `kiln plot` reads rows in time order: LKH's runs at larger limits can
                # end sooner (it stops when its trials are done).
                for i, (wall, gap) in enumerate(sorted(trace)):
                    f.write(f"{i},{wall:.6f},0,{gap:.4f},{gap:.4f},0,0,0\n")
    table("Anytime: gap against wall time, kiln's default and LKH (one run, TIME_LIMIT)",
          ["instance", "n", "solver", "limit s", "wall s", "gap", "against"], rows)
    points = out_dir / "anytime-tsp.csv"
    points.write_text("".join(",".join(map(str, r)) + "\n" for r in figure))
    png = out_dir / "anytime-tsp.png"
    subprocess.run([venv_python(), str(ROOT / "scripts/anytime_figure.py"), str(points),
                    str(png)], check=True)
    print(f"figure: {png} (docs/anytime-tsp.png, from {points})")


SUITES = {"tsp": suite_tsp, "scale": suite_scale, "image": suite_image,
          "sudoku": suite_sudoku, "sudoku25": suite_sudoku25, "baseline": suite_baseline,
          "anytime": suite_anytime}


def parse_seeds(text):
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suites", nargs="*", metavar="SUITE",
                        help="any of " + ", ".join(SUITES))
    parser.add_argument("--data", default=str(ROOT.parent / "shared/data"))
    parser.add_argument("--seeds", type=parse_seeds, default=parse_seeds("1-5"))
    args = parser.parse_args()
    data = Path(args.data)
    unknown = [s for s in args.suites if s not in SUITES]
    if unknown:
        parser.error(f"unknown suite {unknown[0]!r}: choose from {', '.join(SUITES)}")
    print(f"kiln benchmark, {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, "
          f"{KILN}")
    for suite in args.suites or ["tsp", "scale", "image", "baseline"]:
        SUITES[suite](args, data)


if __name__ == "__main__":
    main()
