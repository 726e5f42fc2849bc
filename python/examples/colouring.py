"""Three colours for a map: the places of a triangulated grid, each a different colour
from its neighbours' (a grid W x H whose squares are cut by the rising diagonal; three
colours are enough, so the best colouring has no clash).

    python colouring.py                     # anneal, print the clashes left
    python colouring.py --watch             # the same run in kiln's live view

Written for simanneal's Annealer: with ``from simanneal import Annealer`` in place of the
import below it runs as it is (without ``--watch``, which is kiln's).
"""

import argparse
import random
import sys
import time

from kiln_anneal import Annealer

COLOURS = "abc"


class Colouring(Annealer):
    """The state maps each place (x, y) to a colour; a move recolours one place."""

    copy_strategy = "method"
    Tmax = 3.0
    Tmin = 0.05
    steps = 200_000

    def __init__(self, width, height):
        self.width, self.height = width, height
        self.places = [(x, y) for y in range(height) for x in range(width)]
        near = {place: [] for place in self.places}
        for x, y in self.places:
            for other in ((x + 1, y), (x, y + 1), (x + 1, y - 1)):
                if other in near:
                    near[(x, y)].append(other)
                    near[other].append((x, y))
        self.near = near
        super().__init__({place: random.choice(COLOURS) for place in self.places})

    def clashes_at(self, place, colour):
        state = self.state
        return sum(state[other] == colour for other in self.near[place])

    def move(self):
        place = random.choice(self.places)
        old = self.state[place]
        new = random.choice(COLOURS.replace(old, ""))
        self.state[place] = new
        self.last = place, old
        return self.clashes_at(place, new) - self.clashes_at(place, old)

    def undo(self):
        """Takes back the last move (kiln_anneal calls it for a rejected move, instead
        of copying the state before every move; simanneal never calls it)."""
        place, old = self.last
        self.state[place] = old

    def energy(self):
        state = self.state
        clashes = sum(state[p] == state[q] for p in self.places for q in self.near[p])
        return clashes // 2

    def draw(self, state):
        """The grid, a place as its colour's letter, in capitals where it clashes."""
        rows = []
        for y in range(self.height):
            row = ""
            for x in range(self.width):
                colour = state[(x, y)]
                clash = any(state[other] == colour for other in self.near[(x, y)])
                row += colour.upper() if clash else colour
            rows.append(" " * (self.height - 1 - y) + " ".join(row))
        return "\n".join(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, nargs=2, default=(16, 12), metavar=("W", "H"))
    parser.add_argument("--steps", type=int, default=Colouring.steps)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    parser.add_argument("--watch", action="store_true", help="kiln's live view")
    parser.add_argument("--record", help="record the live view to this .cast file")
    args = parser.parse_args()
    random.seed(args.seed)
    colouring = Colouring(*args.size)
    colouring.steps = args.steps
    if args.quiet:
        colouring.updates = 0
    started = time.perf_counter()
    if args.watch or args.record:
        state, clashes = colouring.watch(record=args.record)
    else:
        state, clashes = colouring.anneal()
    seconds = time.perf_counter() - started
    assert set(state) == set(colouring.places), "every place has a colour"
    print("clashes %d (%d steps in %.2f s)" % (clashes, colouring.steps, seconds))


if __name__ == "__main__":
    sys.exit(main())
