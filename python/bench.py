"""kiln_anneal beside simanneal on the examples, at equal time: each library runs the
steps it can take in SECONDS (measured on a short run first), seeds 1-5, the example's
own schedule otherwise. Prints a Markdown table of steps a second and results. Time is
the process's CPU time, which other programs on a busy machine change less than the
wall clock's (both libraries run in the calling thread alone).

    python python/bench.py [SECONDS]        # in a venv with kiln_anneal and simanneal
"""

import random
import statistics
import sys
import time
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE / "examples"
# The installed kiln_anneal, not its sources beside this file (which lack the native half).
sys.path = [p for p in sys.path if Path(p or ".").resolve() != HERE]
SEEDS = range(1, 6)


def example(name, library):
    """The example's module with its Annealer taken from `library`."""
    source = (EXAMPLES / name).read_text()
    source = source.replace("from kiln_anneal import Annealer",
                            "from %s import Annealer" % library)
    module = types.ModuleType("%s_%s" % (library, name[:-3]))
    module.__file__ = str(EXAMPLES / name)
    exec(compile(source, str(EXAMPLES / name), "exec"), module.__dict__)
    return module


def salesman(module):
    return module.Salesman(module.read_places(module.BERLIN52))


def salesman_deepcopy(module):
    """The salesman with simanneal's default copy strategy."""
    annealer = salesman(module)
    annealer.copy_strategy = "deepcopy"
    return annealer


def colouring(module):
    return module.Colouring(16, 12)


def run(make, seed, steps):
    random.seed(seed)
    annealer = make()
    annealer.steps, annealer.updates = steps, 0
    started = time.process_time()
    _, energy = annealer.anneal()
    return energy, time.process_time() - started


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    print("| example | library | steps/s | steps | CPU s a run | results, seeds 1-5 | median |")
    print("|---|---|---:|---:|---:|---|---:|")
    cases = (("salesman.py", "salesman", salesman),
             ("salesman.py", "salesman, deepcopy", salesman_deepcopy),
             ("colouring.py", "colouring", colouring))
    for name, title, build in cases:
        for library in ("simanneal", "kiln_anneal"):
            module = example(name, library)
            make = lambda: build(module)  # noqa: E731
            # A short run, then one of about SECONDS, say how many steps fit.
            probe = 50_000
            _, took = run(make, 0, probe)
            steps = int(probe / took * seconds)
            _, took = run(make, 0, steps)
            steps = int(steps / took * seconds)
            results, times = [], []
            for seed in SEEDS:
                energy, took = run(make, seed, steps)
                results.append(int(energy))
                times.append(took)
            took = statistics.median(times)
            print("| %s | %s | %s | %s | %.2f | %s | %s |" % (
                title, library, format(int(steps / took), ","), format(steps, ","), took,
                " ".join(map(str, results)), statistics.median(results)), flush=True)


if __name__ == "__main__":
    main()
