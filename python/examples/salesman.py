"""A travelling salesman: the shortest round trip through TSPLIB's berlin52, the 52
places in Berlin of Groetschel's set (the shortest trip is 7542 long).

    python salesman.py                      # anneal, print the trip's length
    python salesman.py --watch              # the same run in kiln's live view

Written for simanneal's Annealer: with ``from simanneal import Annealer`` in place of the
import below it runs as it is (without ``--watch``, which is kiln's).
"""

import argparse
import math
import random
import sys
import time
from pathlib import Path

from kiln_anneal import Annealer

BERLIN52 = Path(__file__).resolve().parents[2] / "puzzles" / "tsp" / "berlin52.tsp"


def read_places(path):
    """The (x, y) of every node of a TSPLIB file's NODE_COORD_SECTION."""
    places, reading = [], False
    for line in Path(path).read_text().splitlines():
        words = line.split()
        if words[:1] == ["NODE_COORD_SECTION"]:
            reading = True
        elif words[:1] == ["EOF"]:
            break
        elif reading and len(words) == 3:
            places.append((float(words[1]), float(words[2])))
    return places


class Salesman(Annealer):
    """A trip is the order of the places; a move turns a stretch of it around (2-opt)."""

    copy_strategy = "slice"
    Tmax = 1000.0
    Tmin = 0.5
    steps = 300_000

    def __init__(self, places):
        self.places = places
        n = len(places)
        # TSPLIB's EUC_2D: distances rounded to the nearest whole number.
        self.far = [[int(math.dist(places[a], places[b]) + 0.5) for b in range(n)]
                    for a in range(n)]
        trip = list(range(n))
        random.shuffle(trip)
        super().__init__(trip)

    def move(self):
        trip, far, n = self.state, self.far, len(self.state)
        i, j = random.randrange(n), random.randrange(n)
        if i > j:
            i, j = j, i
        if i == j or i == 0 and j == n - 1:
            return 0.0  # the whole trip turned around is the same trip
        a, b, c, d = trip[i - 1], trip[i], trip[j], trip[(j + 1) % n]
        trip[i:j + 1] = trip[i:j + 1][::-1]
        return far[a][c] + far[b][d] - far[a][b] - far[c][d]

    def energy(self):
        trip, far = self.state, self.far
        return sum(far[trip[k - 1]][trip[k]] for k in range(len(trip)))

    def draw(self, trip, width=46, height=17):
        """The trip on a map of ``width`` x ``height`` characters, places as ``o``."""
        xs, ys = [p[0] for p in self.places], [p[1] for p in self.places]
        left, top = min(xs), min(ys)
        sx = (width - 1) / ((max(xs) - left) or 1)
        sy = (height - 1) / ((max(ys) - top) or 1)
        cell = [(round((x - left) * sx), round((y - top) * sy)) for x, y in self.places]
        grid = [[" "] * width for _ in range(height)]
        for k in range(len(trip)):
            (x0, y0), (x1, y1) = cell[trip[k - 1]], cell[trip[k]]
            steps = max(abs(x1 - x0), abs(y1 - y0), 1)
            for s in range(steps + 1):
                x = round(x0 + (x1 - x0) * s / steps)
                y = round(y0 + (y1 - y0) * s / steps)
                grid[y][x] = "."
        for x, y in cell:
            grid[y][x] = "o"
        return "\n".join("".join(row) for row in grid)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=Salesman.steps)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    parser.add_argument("--watch", action="store_true", help="kiln's live view")
    parser.add_argument("--record", help="record the live view to this .cast file")
    args = parser.parse_args()
    random.seed(args.seed)
    salesman = Salesman(read_places(BERLIN52))
    salesman.steps = args.steps
    if args.quiet:
        salesman.updates = 0
    started = time.perf_counter()
    if args.watch or args.record:
        trip, length = salesman.watch(record=args.record)
    else:
        trip, length = salesman.anneal()
    seconds = time.perf_counter() - started
    assert sorted(trip) == list(range(len(trip))), "a trip visits every place once"
    print("trip length %d (%d steps in %.2f s)" % (length, salesman.steps, seconds))


if __name__ == "__main__":
    sys.exit(main())
