#!/usr/bin/env python3
"""kiln's benchmark suite: the tables the README's and docs/benchmarks.md's numbers come from.

usage: [KILN=BINARY] scripts/bench.py [--data DIR] [--seeds A-B] [SUITE ...]
       scripts/bench.py anytime [--out DIR] [--instances A,B] [--times T,U] [--solvers S,R]
                        [--seeds A-B] [--plan] [--publish]

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
  anytime   TSP gap against wall time: kiln's default, kiln --no-polish and LKH (elkai,
            one run with TIME_LIMIT) back to back at each limit (0.3-60 s), seeds 1-3,
            on 1,000 and 10,000 uniform, 10,000 clustered and 100,000 uniform cities
            (scripts/anytime.py says how they are made and measured). Appends a row a
            run to OUT/anytime-tsp.csv and skips the rows already there (an interrupted
            run resumes); then writes the table of medians (anytime-tsp.md) and the
            figure (anytime-tsp.png). --instances, --times and --solvers choose a
            subset, --plan only says how long it would take, --publish copies the
            three into docs/. All of it: about 100 minutes.

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

import anytime
from kiln_binary import KILN, ROOT

GNU_TIME = "/usr/bin/time"
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
        bhh = anytime.BHH * math.sqrt(n * SIDE * SIDE)
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


def suite_anytime(args, _data):
    anytime.suite(args, venv_python())


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
    parser.add_argument("--seeds", type=parse_seeds,
                        help="A-B or A (default 1-5; anytime 1-3)")
    anytime_options = parser.add_argument_group("anytime")
    anytime_options.add_argument("--out", default="anytime",
                                 help="its instances, data file, table and figure")
    anytime_options.add_argument("--instances", help="any of " + ", ".join(anytime.INSTANCES))
    anytime_options.add_argument("--times", help="time limits in seconds (default "
                                 + ",".join(map(str, anytime.TIMES)) + ")")
    anytime_options.add_argument("--solvers", help="any of " + ", ".join(anytime.SOLVERS))
    anytime_options.add_argument("--plan", action="store_true",
                                 help="say how many runs are left and how long they take")
    anytime_options.add_argument("--publish", action="store_true",
                                 help="copy the data file, table and figure into docs/")
    args = parser.parse_args()
    data = Path(args.data)
    unknown = [s for s in args.suites if s not in SUITES]
    if unknown:
        parser.error(f"unknown suite {unknown[0]!r}: choose from {', '.join(SUITES)}")
    if not Path(KILN).is_file():
        sys.exit(f"bench: no kiln binary at {KILN}: `cargo build --release`, or set KILN")
    print(f"kiln benchmark, {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, "
          f"{KILN}")
    seeds = args.seeds
    for suite in args.suites or ["tsp", "scale", "image", "baseline"]:
        args.seeds = seeds or (anytime.SEEDS if suite == "anytime" else parse_seeds("1-5"))
        SUITES[suite](args, data)


if __name__ == "__main__":
    main()
