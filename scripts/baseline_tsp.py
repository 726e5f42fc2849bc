#!/usr/bin/env python3
"""One baseline TSP run for scripts/bench.py, as a JSON line: {"length": L, "seconds": S}.

usage: baseline_tsp.py simanneal|elkai FILE.tsp SECONDS SEED

simanneal: the travelling-salesman example that ships with simanneal 0.5 (swap two random
cities, full energy recomputation), its `auto` schedule fitted to SECONDS. elkai: LKH with
its default runs. Lengths use TSPLIB's rounded EUC_2D metric, as kiln's do.
"""
import json
import math
import random
import sys
import time


def read_tsplib(path):
    cities, reading = [], False
    for line in open(path):
        line = line.strip()
        if line.startswith("NODE_COORD_SECTION"):
            reading = True
        elif line.startswith("EOF"):
            break
        elif reading and line:
            _, x, y = line.split()[:3]
            cities.append((float(x), float(y)))
    return cities


def distances(cities):
    return [[int(math.dist(a, b) + 0.5) for b in cities] for a in cities]


def length(tour, d):
    return sum(d[tour[i - 1]][tour[i]] for i in range(len(tour)))


def simanneal_tour(d, seconds, seed):
    from simanneal import Annealer

    class TravellingSalesmanProblem(Annealer):
        def __init__(self, state, distance_matrix):
            self.distance_matrix = distance_matrix
            super().__init__(state)

        def move(self):
            initial_energy = self.energy()
            a = random.randint(0, len(self.state) - 1)
            b = random.randint(0, len(self.state) - 1)
            self.state[a], self.state[b] = self.state[b], self.state[a]
            return self.energy() - initial_energy

        def energy(self):
            return length(self.state, self.distance_matrix)

    random.seed(seed)
    state = list(range(len(d)))
    random.shuffle(state)
    problem = TravellingSalesmanProblem(state, d)
    problem.set_schedule(problem.auto(minutes=seconds / 60, steps=200))
    problem.updates = 0
    tour, _ = problem.anneal()
    return tour


def elkai_tour(d):
    import elkai

    tour = elkai.DistanceMatrix(d).solve_tsp()
    return tour[:-1] if tour[0] == tour[-1] else tour


def main():
    solver, path, seconds, seed = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
    d = distances(read_tsplib(path))
    start = time.monotonic()
    tour = simanneal_tour(d, seconds, seed) if solver == "simanneal" else elkai_tour(d)
    print(json.dumps({"length": length(tour, d), "seconds": time.monotonic() - start}))


if __name__ == "__main__":
    main()
