#!/usr/bin/env python3
"""Generate minimal Sudoku puzzles with a unique solution (25x25 by default), from a seed.

A random complete grid is drawn by a SAT solver (a random first row and random cells fixed
first), then every cell, in a random order, loses its clue if the puzzle stays unique: a
SAT call under the remaining clues as assumptions, with one clause that forbids the known
solution, must be unsatisfiable. One pass leaves a minimal puzzle (removing any clue of the
result gives a second solution, since the result's clues are a subset of those the removal
was tried with); `--check` proves uniqueness and minimality again with a second solver,
and `--verify FILE` proves each puzzle of FILE unique (against FILE's `.solutions.txt`)
with that second solver.

Needs python-sat (`pip install python-sat`, MIT). Writes one line per puzzle (`.` for an
empty cell, symbols 1-9 then A-P) to stdout, or to FILE and FILE's `.solutions.txt`.

usage: scripts/sudoku25_generate.py [--n 5] [--count 12] [--seed 1] [--check] [--out FILE]
       scripts/sudoku25_generate.py --verify FILE
"""
import argparse
import random
import sys
import time

from pysat.solvers import Solver

SYMBOLS = "123456789ABCDEFGHIJKLMNOP"


class Rules:
    def __init__(self, n: int):
        self.n, self.side = n, n * n
        self.cells = self.side * self.side

    def var(self, cell: int, value: int) -> int:
        return cell * self.side + value + 1

    def units(self):
        n, s = self.n, self.side
        for i in range(s):
            yield [i * s + c for c in range(s)]
            yield [r * s + i for r in range(s)]
            br, bc = (i // n) * n, (i % n) * n
            yield [(br + r) * s + bc + c for r in range(n) for c in range(n)]

    def clauses(self):
        s = self.side
        for cell in range(self.cells):
            yield [self.var(cell, v) for v in range(s)]
            for a in range(s):
                for b in range(a + 1, s):
                    yield [-self.var(cell, a), -self.var(cell, b)]
        for unit in self.units():
            for v in range(s):
                yield [self.var(c, v) for c in unit]
                for i, a in enumerate(unit):
                    for b in unit[i + 1:]:
                        yield [-self.var(a, v), -self.var(b, v)]

    def solver(self, name: str) -> Solver:
        solver = Solver(name=name)
        for clause in self.clauses():
            solver.add_clause(clause)
        return solver

    def grid(self, model) -> list:
        true = {lit for lit in model if lit > 0}
        return [next(v for v in range(self.side) if self.var(c, v) in true)
                for c in range(self.cells)]


def random_grid(rules: Rules, solver: Solver, rng: random.Random) -> list:
    """A complete grid: a random first row, then random values in random cells kept while
    the grid stays completable, then the solver's completion."""
    fixed = [rules.var(c, v) for c, v in enumerate(rng.sample(range(rules.side), rules.side))]
    for cell in rng.sample(range(rules.side, rules.cells), 4 * rules.side):
        trial = fixed + [rules.var(cell, rng.randrange(rules.side))]
        if solver.solve(assumptions=trial):
            fixed = trial
    assert solver.solve(assumptions=fixed)
    return rules.grid(solver.get_model())


def unique(solver: Solver, rules: Rules, solution: list, clues: set) -> bool:
    """Whether `clues` (cells) of `solution` admit no other grid: the solver holds the
    clause forbidding `solution`, so any model is a second solution."""
    return not solver.solve(assumptions=[rules.var(c, solution[c]) for c in sorted(clues)])


def minimal_puzzle(rules: Rules, solution: list, rng: random.Random, name: str) -> set:
    solver = rules.solver(name)
    solver.add_clause([-rules.var(c, v) for c, v in enumerate(solution)])
    clues = set(range(rules.cells))
    for cell in rng.sample(range(rules.cells), rules.cells):
        clues.discard(cell)
        if not unique(solver, rules, solution, clues):
            clues.add(cell)
    solver.delete()
    return clues


def check(rules: Rules, solution: list, clues: set) -> None:
    """Uniqueness and minimality again, with another solver."""
    solver = rules.solver("glucose4")
    solver.add_clause([-rules.var(c, v) for c, v in enumerate(solution)])
    assert unique(solver, rules, solution, clues), "not unique"
    for cell in clues:
        assert not unique(solver, rules, solution, clues - {cell}), f"clue {cell} is redundant"
    solver.delete()


def verify(path: str) -> None:
    puzzles = [l.strip() for l in open(path) if l.strip()]
    solutions = [l.strip() for l in open(path.removesuffix(".txt") + ".solutions.txt")]
    for i, (puzzle, solution) in enumerate(zip(puzzles, solutions, strict=True)):
        rules = Rules(int(round(len(puzzle) ** 0.25)))
        grid = [SYMBOLS.index(ch) for ch in solution]
        clues = {c for c, ch in enumerate(puzzle) if ch != "."}
        assert all(puzzle[c] == solution[c] for c in clues), f"line {i + 1}: clue changed"
        solver = rules.solver("glucose4")
        assert solver.solve(assumptions=[rules.var(c, grid[c]) for c in range(rules.cells)]), \
            f"line {i + 1}: the solution breaks a rule"
        solver.add_clause([-rules.var(c, v) for c, v in enumerate(grid)])
        assert unique(solver, rules, grid, clues), f"line {i + 1}: a second solution"
        print(f"line {i + 1}: {len(clues)} clues, unique")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=5, help="box side (5 for 25x25)")
    ap.add_argument("--count", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check", action="store_true", help="prove each result again")
    ap.add_argument("--out", help="FILE for the puzzles (and FILE.solutions.txt)")
    ap.add_argument("--verify", metavar="FILE", help="prove FILE's puzzles unique")
    args = ap.parse_args()
    if args.verify:
        verify(args.verify)
        return
    rules = Rules(args.n)
    rng = random.Random(args.seed)
    grids = rules.solver("cadical153")
    out = open(args.out, "w") if args.out else sys.stdout
    answers = open(args.out.removesuffix(".txt") + ".solutions.txt", "w") if args.out else None
    for i in range(args.count):
        started = time.time()
        solution = random_grid(rules, grids, rng)
        clues = minimal_puzzle(rules, solution, rng, "cadical153")
        if args.check:
            check(rules, solution, clues)
        # Each puzzle is written as soon as it is made: a long run stopped early keeps them.
        print("".join(SYMBOLS[v] if c in clues else "." for c, v in enumerate(solution)),
              file=out, flush=True)
        if answers:
            print("".join(SYMBOLS[v] for v in solution), file=answers, flush=True)
        print(f"puzzle {i + 1}: {len(clues)} clues, {time.time() - started:.1f} s"
              f"{', checked' if args.check else ''}", file=sys.stderr)


if __name__ == "__main__":
    main()
