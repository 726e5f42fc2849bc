"""The anytime suite of scripts/bench.py: TSP gap against wall time for kiln's default,
kiln's annealing alone (--no-polish) and LKH (elkai), on the same instances, at the same
time limits, one run at a time.

For each instance, seed and time limit the three solvers run back to back (so they see
the same load); every run appends one row to OUT/anytime-tsp.csv at once, and a rerun
with the same OUT skips the rows already there, so an interrupted run resumes where it
stopped. The instances (TSPLIB files made by scripts/tsp_families.py's generators from
fixed seeds) and their references (refs.json) are made once into OUT. At the end it
writes the table of medians (anytime-tsp.md) and the figure (anytime-tsp.png, by
anytime_figure.py); --publish puts the three into docs/.
"""
import csv
import json
import math
import os
import random
import resource
import shutil
import statistics
import subprocess
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

import tsp_families
from kiln_binary import KILN, ROOT

# Name: (family of tsp_families.py, cities).
INSTANCES = {
    "uniform1k": ("uniform", 1_000),
    "uniform10k": ("uniform", 10_000),
    "clustered10k": ("clustered", 10_000),
    "uniform100k": ("uniform", 100_000),
}
TIMES = [0.3, 1, 3, 10, 30, 60]
SEEDS = [1, 2, 3]
# Solver: kiln's extra flags, or None for LKH. kiln runs two chains on two threads by
# default; one chain is one thread, as LKH is (rows of "kiln" before 7853533 ran one).
SOLVERS = {"kiln": [], "kiln-no-polish": ["--no-polish"], "kiln-one-chain": ["--threads", "1"],
           "LKH": None}
# Wide enough that TSPLIB's integer rounding does not move lengths against BHH.
SIDE = 1e6
# Beardwood-Halton-Hammersley: the optimal tour through n uniform random cities in area A
# is about BHH sqrt(n A) long (bench.py scale uses it too).
BHH = 0.7124
# LKH's default candidates come from a subgradient ascent over all pairs, which would
# outlast every limit above a few thousand cities; POPMUSIC candidates do not.
LKH_LARGE = "CANDIDATE_SET_TYPE = POPMUSIC\nINITIAL_PERIOD = 100\n"
LKH_LARGE_ABOVE = 2_000
# The best known tour of an instance with neither an optimum nor a BHH estimate.
REFERENCE_LKH_SECONDS = 120
LKH_RUN = """
import json, sys, time
import elkai._elkai as lk
text, params = open(sys.argv[1]).read(), sys.argv[2]
start = time.monotonic()
tour = lk.solve_problem(params + "PROBLEM_FILE = :stdin:\\n", text)
print(json.dumps({"tour": tour, "seconds": time.monotonic() - start}))
"""
COLUMNS = ["instance", "n", "solver", "seed", "limit_s", "wall_s", "cpu_s", "own_s",
           "length", "reference", "reference_kind", "gap_percent", "load_1min", "started_utc",
           "binary"]
CSV_NAME, TABLE_NAME, FIGURE_NAME = "anytime-tsp.csv", "anytime-tsp.md", "anytime-tsp.png"
# docs/benchmarks.md's table lies between these lines; --publish rewrites what is between.
TABLE_BEGIN = "<!-- anytime table: written by scripts/bench.py anytime --publish -->"
TABLE_END = "<!-- end of the anytime table -->"


@dataclass
class Plan:
    """What one invocation runs: instances, seeds, time limits and solvers, in that
    nesting (the solvers innermost, so that they run back to back)."""
    instances: list
    seeds: list
    times: list
    solvers: list

    def left(self, done):
        """(instance, seed, limit, solver) of every run whose `key` is not in `done`."""
        return [(name, seed, limit, solver) for name in self.instances for seed in self.seeds
                for limit in self.times for solver in self.solvers
                if (name, solver, seed, limit_text(limit)) not in done]


def choose(text, known, what):
    """The comma-separated names of `text` that are keys of `known` (any case), in the
    order given; all of `known` when `text` is None."""
    if text is None:
        return list(known)
    by_lower = {k.lower(): k for k in known}
    chosen = []
    for word in text.split(","):
        if word.strip().lower() not in by_lower:
            raise SystemExit(f"bench: unknown {what} {word!r}: choose from {', '.join(known)}")
        chosen.append(by_lower[word.strip().lower()])
    return chosen


def limit_text(limit):
    return f"{limit:g}"


def key(row):
    return row["instance"], row["solver"], int(row["seed"]), limit_text(float(row["limit_s"]))


# ---- instances and references -------------------------------------------------------

def make_instance(out, name):
    """OUT/NAME.tsp (made on first use, the same from the same name) and its points as
    written (rounded), which kiln and LKH both read."""
    family, n = INSTANCES[name]
    path = out / f"{name}.tsp"
    if not path.exists():
        rng = random.Random(f"anytime-{name}")
        points = (tsp_families.uniform(rng, n, SIDE) if family == "uniform"
                  else tsp_families.clustered(rng, n, SIDE))
        tmp = path.with_suffix(".part")
        tmp.write_text(tsp_families.tsplib(name, "EUC_2D", points))
        tmp.rename(path)
    return path, tsp_families.read_points(path.read_text())


def reference(out, name, path, points, python):
    """(length, kind) that gaps are measured against, kept in OUT/refs.json: BHH's
    estimate 0.7124 sqrt(n A) for uniform cities from 10,000 on (the optimum of a finite
    instance exceeds it, by about 0.9 % at 10,000 cities and 0.2 % at 100,000 in the
    DIMACS challenge's E10k.0 and E100k.0, so gaps there are upper bounds); the best of 5
    LKH runs for 1,000; one LKH run of REFERENCE_LKH_SECONDS otherwise (clustered)."""
    refs_file = out / "refs.json"
    refs = json.loads(refs_file.read_text()) if refs_file.exists() else {}
    if name not in refs:
        family, n = INSTANCES[name]
        if family == "uniform" and n >= 10_000:
            length, kind = BHH * math.sqrt(n * SIDE * SIDE), "BHH estimate"
        elif n <= LKH_LARGE_ABOVE:
            print(f"{name}: reference, best of 5 LKH runs", flush=True)
            tour, _ = lkh(python, path, "RUNS = 5\nSEED = 1\n", None)
            length, kind = tsp_families.tour_length("EUC_2D", points, tour), "best of 5 LKH runs"
        else:
            print(f"{name}: reference, one LKH run of {REFERENCE_LKH_SECONDS} s", flush=True)
            tour, _ = lkh(python, path, "RUNS = 1\nSEED = 1\n" + LKH_LARGE +
                          f"TIME_LIMIT = {REFERENCE_LKH_SECONDS}\n", None)
            length = tsp_families.tour_length("EUC_2D", points, tour)
            kind = f"LKH {REFERENCE_LKH_SECONDS} s run"
        refs[name] = {"length": length, "kind": kind}
        refs_file.write_text(json.dumps(refs, indent=1) + "\n")
    return refs[name]["length"], refs[name]["kind"]


# ---- the solvers ----------------------------------------------------------------------

def lkh(python, path, params, timeout):
    """One elkai call in its own process (so that an overrun can be stopped): the 0-based
    tour and LKH's seconds in that process (preprocessing included); None after
    `timeout`."""
    try:
        done = subprocess.run([python, "-c", LKH_RUN, str(path), params], capture_output=True,
                              text=True, timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return None
    line = json.loads(done.stdout)
    return [c - 1 for c in line["tour"]], line["seconds"]


def run_kiln(path, seed, limit, flags):
    """(length, kiln's own seconds) of one headless run."""
    done = subprocess.run([KILN, "tsp", str(path), "--headless", "--quiet", "--seed",
                           str(seed), "--time-limit", limit_text(limit), *flags],
                          capture_output=True, text=True)
    if done.returncode not in (0, 1):  # 1: not at a known optimum
        raise SystemExit(f"bench: kiln tsp {path} --seed {seed} --time-limit {limit} "
                         f"{' '.join(flags)} failed ({done.returncode}): {done.stderr.strip()}")
    line = json.loads(done.stdout)
    return line["length"], line["seconds"]


def run_lkh(python, path, points, seed, limit):
    """(length, LKH's own seconds), or (None, None) when it ran past 10 times its limit
    and 900 s (100,000 cities' preprocessing alone takes 100 CPU seconds, and a loaded
    machine stretches them)."""
    params = f"RUNS = 1\nSEED = {seed}\nTIME_LIMIT = {limit_text(limit)}\n"
    if len(points) > LKH_LARGE_ABOVE:
        params += LKH_LARGE
    done = lkh(python, path, params, 10 * limit + 900)
    if done is None:
        return None, None
    tour, seconds = done
    return tsp_families.tour_length("EUC_2D", points, tour), seconds


def children_cpu():
    """User and system CPU seconds of this process's finished children: a solver's CPU
    time, apart from the wall time the load stretches (LKH's TIME_LIMIT counts its CPU
    time, kiln's --time-limit wall time)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def binary_name():
    """The checkout's commit (and `+changes` when its Rust sources differ from it) when
    KILN names this checkout's build, else KILN itself."""
    if os.environ.get("KILN"):
        return KILN
    git = ["git", "-C", str(ROOT)]
    commit = subprocess.run(git + ["rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or "unknown"
    changed = subprocess.run(git + ["status", "--porcelain", "--", "src", "crates",
                                    "Cargo.toml", "Cargo.lock"],
                             capture_output=True, text=True).stdout.strip()
    return commit + ("+changes" if changed else "")


# ---- the data file and the table ------------------------------------------------------

def read_rows(path):
    if not path.exists():
        return []
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != COLUMNS:
            raise SystemExit(f"bench: {path} has columns {reader.fieldnames}, not this "
                             f"suite's: name another --out")
        return list(reader)


def append_row(path, row):
    """Writes `row` at once (a run is never lost to a later failure)."""
    fresh = not path.exists()
    with open(path, "a", newline="") as f:
        writer = csv.DictWriter(f, COLUMNS)
        if fresh:
            writer.writeheader()
        writer.writerow(row)


def median_table(rows):
    """Markdown: one line per instance and solver, one column per time limit, each cell
    the median gap in % over the seeds with the median wall seconds in brackets."""
    limits = sorted({float(r["limit_s"]) for r in rows})
    seeds = len({r["seed"] for r in rows})
    cells, against = {}, {}
    for r in rows:
        cells.setdefault((r["instance"], r["solver"]), {}).setdefault(
            float(r["limit_s"]), []).append(r)
        against[r["instance"]] = (int(r["n"]), r["reference_kind"])
    lines = ["| instance | n | solver | " + " | ".join(f"{limit_text(t)} s" for t in limits)
             + " | against |",
             "|---|---|---|" + "---|" * len(limits) + "---|"]
    instances = {name: i for i, name in enumerate(INSTANCES)}
    solvers = {name: i for i, name in enumerate(SOLVERS)}
    for (name, solver), by_limit in sorted(
            cells.items(), key=lambda kv: (instances.get(kv[0][0], 99), solvers[kv[0][1]])):
        n, kind = against[name]
        row = [name, f"{n:,}", solver] + [cell(by_limit.get(t, []), seeds) for t in limits]
        lines.append("| " + " | ".join(row + [kind]) + " |")
    what = "Gap in %," if seeds == 1 else "Median gap in % over"
    return (f"{what} {seeds_of(rows)} (median wall seconds in brackets); `-`: not run.\n\n"
            + "\n".join(lines) + "\n")


def cell(runs, seeds):
    """Median gap (median wall seconds) of the runs that finished, and how many of the
    `seeds` ran and finished where that is not all of them."""
    if not runs:
        return "-"
    finished = [r for r in runs if r["gap_percent"]]
    if not finished:
        return "did not finish"
    gap = statistics.median(float(r["gap_percent"]) for r in finished)
    wall = statistics.median(float(r["wall_s"]) for r in finished)
    text = f"{gap:.2f} ({wall:.2f})"
    if len(runs) < seeds:
        text += f", {len(runs)} of {seeds} seeds"
    if len(finished) < len(runs):
        text += f", {len(runs) - len(finished)} did not finish"
    return text


def seeds_of(rows):
    seeds = sorted({int(r["seed"]) for r in rows})
    if len(seeds) == 1:
        return f"seed {seeds[0]}"
    return "seeds " + (f"{seeds[0]}-{seeds[-1]}" if seeds == list(range(seeds[0], seeds[-1] + 1))
                       else ", ".join(map(str, seeds)))


def summary(rows, loads):
    """The table with what it was measured on: binary, dates, load averages, references."""
    binaries = ", ".join(sorted({r["binary"] for r in rows}))
    days = sorted({r["started_utc"][:10] for r in rows})
    when = days[0] if len(days) == 1 else f"{days[0]} to {days[-1]}"
    row_loads = [float(r["load_1min"]) for r in rows]
    refs = {r["instance"]: (r["reference_kind"], float(r["reference"])) for r in rows}
    # What the load left the runs: kiln's limit is wall time, so a busy core shortens it.
    shares = [float(r["cpu_s"]) / float(r["wall_s"]) for r in rows if float(r["wall_s"]) > 0]
    text = (f"Measured with {binaries} on {when}, {os.cpu_count()} cores, one run at a "
            f"time; load average (1 min) before each run {min(row_loads):.1f}-"
            f"{max(row_loads):.1f} (median {statistics.median(row_loads):.1f}), {loads}; "
            f"CPU seconds over wall seconds of a run: median {statistics.median(shares):.2f}, "
            f"lowest {min(shares):.2f}. References: " + "; ".join(f"{name} {kind} {length:,.0f}"
                                      for name, (kind, length) in refs.items()) + ".")
    return textwrap.fill(text, width=90) + "\n\n" + median_table(rows)


def publish(out):
    """Copies the data file and the figure into docs/ and puts the table into
    docs/benchmarks.md between TABLE_BEGIN and TABLE_END."""
    docs = ROOT / "docs"
    for name in (CSV_NAME, FIGURE_NAME):
        shutil.copyfile(out / name, docs / name)
    page = docs / "benchmarks.md"
    text = page.read_text()
    head, begin, rest = text.partition(TABLE_BEGIN)
    _, end, tail = rest.partition(TABLE_END)
    if not begin or not end:
        raise SystemExit(f"bench: {page} lacks the lines {TABLE_BEGIN} and {TABLE_END}")
    page.write_text(head + begin + "\n" + (out / TABLE_NAME).read_text() + end + tail)
    print(f"published: docs/{CSV_NAME}, docs/{FIGURE_NAME}, the table in {page}")


# ---- the suite ------------------------------------------------------------------------

def estimate_seconds(plan, done, out):
    """Roughly how long the runs not yet done take (measured on the 2-core machine under
    load): kiln its limit; LKH its limit and its preprocessing, about 3 s at 1,000 cities
    with its default candidates and 1 s per 1,000 cities with POPMUSIC ones; a reference
    not made yet, its own LKH runs."""
    total = 0.0
    for name, seed, limit, solver in plan.left(done):
        total += limit + (lkh_preprocessing(INSTANCES[name][1]) if SOLVERS[solver] is None
                          else 0)
    refs_file = out / "refs.json"
    refs = json.loads(refs_file.read_text()) if refs_file.exists() else {}
    for name in plan.instances:
        family, n = INSTANCES[name]
        if name not in refs and not (family == "uniform" and n >= 10_000):
            total += (130 if n <= LKH_LARGE_ABOVE
                      else REFERENCE_LKH_SECONDS + lkh_preprocessing(n))
    return total


def lkh_preprocessing(n):
    return 3 if n <= LKH_LARGE_ABOVE else n / 1000


def suite(args, python):
    """`bench.py anytime`: runs what `args` chooses that OUT's data file lacks, then
    writes the table and the figure of every run in it (and with --publish, into docs/)."""
    plan = Plan(choose(args.instances, INSTANCES, "instance"), args.seeds,
                [float(t) for t in args.times.split(",")] if args.times else TIMES,
                choose(args.solvers, SOLVERS, "solver"))
    out = Path(args.out)
    data = out / CSV_NAME
    done = {key(r) for r in read_rows(data)}
    left = plan.left(done)
    estimate = estimate_seconds(plan, done, out)
    print(f"anytime: {len(left)} runs to do ({len(done)} in {data} already), about "
          f"{estimate / 60:.0f} min", flush=True)
    if args.plan:
        return
    out.mkdir(parents=True, exist_ok=True)
    load_start = os.getloadavg()
    binary = binary_name()
    made = {}
    for name, seed, limit, solver in left:
        if name not in made:
            path, points = make_instance(out, name)
            made[name] = (path, points, *reference(out, name, path, points, python))
        path, points, ref, kind = made[name]
        load = os.getloadavg()[0]
        started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        cpu_start, start = children_cpu(), time.monotonic()
        if SOLVERS[solver] is None:
            length, own = run_lkh(python, path, points, seed, limit)
        else:
            length, own = run_kiln(path, seed, limit, SOLVERS[solver])
        wall, cpu = time.monotonic() - start, children_cpu() - cpu_start
        gap = None if length is None else 100 * (length - ref) / ref
        append_row(data, {
            "instance": name, "n": len(points), "solver": solver, "seed": seed,
            "limit_s": limit_text(limit), "wall_s": f"{wall:.3f}", "cpu_s": f"{cpu:.3f}",
            "own_s": "" if own is None else f"{own:.3f}", "length": length or "",
            "reference": f"{ref:.0f}", "reference_kind": kind,
            "gap_percent": "" if gap is None else f"{gap:.4f}", "load_1min": f"{load:.2f}",
            "started_utc": started, "binary": binary})
        print(f"{name} seed {seed} {limit_text(limit)} s {solver}: "
              + ("did not finish" if gap is None else f"{gap:.2f} %") + f" in {wall:.2f} s "
              f"(load {load:.2f})", flush=True)
    load_end = os.getloadavg()
    rows = read_rows(data)
    if not rows:
        return
    loads = (f"{load_start[0]:.2f} {load_start[1]:.2f} {load_start[2]:.2f} at the start "
             f"and {load_end[0]:.2f} {load_end[1]:.2f} {load_end[2]:.2f} at the end of the "
             "last invocation (1, 5, 15 min)")
    (out / TABLE_NAME).write_text(summary(rows, loads))
    print("\n" + (out / TABLE_NAME).read_text(), flush=True)
    subprocess.run([python, str(ROOT / "scripts/anytime_figure.py"), str(data),
                    str(out / FIGURE_NAME)], check=True)
    print(f"data: {data}; table: {out / TABLE_NAME}; figure: {out / FIGURE_NAME}")
    if args.publish:
        publish(out)
