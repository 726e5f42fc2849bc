"""simanneal's ``Annealer`` on kiln's engine, and kiln's live view for it.

Subclass :class:`Annealer`, give it a ``state``, a ``move()`` (which may return the
energy change it made) and an ``energy()``; ``anneal()`` returns ``(best_state,
best_energy)`` and ``watch()`` opens kiln's live view in the terminal. An annealer
written for simanneal runs with only its import changed.
"""

import copy
import datetime
import math
import pickle
import random
import sys
import time

from . import _kiln

__all__ = ["Annealer"]
__version__ = "0.1.0"

# Things no move can change inside: a list of them is copied whole by a slice.
_IMMUTABLE = (int, float, complex, str, bytes, bool, type(None), frozenset)


def _immutable(value):
    kind = type(value)
    if kind is tuple:
        return all(_immutable(item) for item in value)
    return kind in _IMMUTABLE


def _hms(seconds):
    minutes, seconds = divmod(int(round(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return "%d:%02d:%02d" % (hours, minutes, seconds)


def _two_figures(x):
    """``x`` rounded to two significant figures (auto() searches temperatures so)."""
    if x == 0:
        return 0.0
    return round(x, 1 - int(math.floor(math.log10(abs(x)))))


class Annealer:
    """Simulated annealing of ``self.state`` by ``move()`` and ``energy()``.

    Class attributes set the run as simanneal's do: the temperature falls exponentially
    from ``Tmax`` to ``Tmin`` over ``steps`` steps, ``update()`` is called ``updates``
    times, and ``copy_strategy`` ('deepcopy', 'slice' or 'method') says how a state is
    copied. ``seed`` (kiln's) seeds the acceptance draws; left ``None`` it is drawn from
    :mod:`random`, so ``random.seed(n)`` makes a whole run repeatable.

    A subclass may define ``undo()``, which takes back the last ``move()``: a rejected
    move is then never paid for with a copy of the state.
    """

    Tmax = 25000.0
    Tmin = 2.5
    steps = 50000
    updates = 100
    copy_strategy = "deepcopy"
    user_exit = False
    save_state_on_exit = False
    seed = None

    best_state = None
    best_energy = None
    start = None
    #: ``{'steps', 'seconds', 'stop'}`` of the last ``anneal()`` or ``watch()``.
    last_run = None

    def __init__(self, initial_state=None, load_state=None):
        if initial_state is not None:
            self.state = self.copy_state(initial_state)
        elif load_state:
            self.load_state(load_state)
        else:
            raise ValueError("give an initial_state or a load_state file")

    def move(self):
        """Changes ``self.state`` a little; may return the energy change it made."""
        raise NotImplementedError("an Annealer needs a move() method")

    def energy(self):
        """The energy of ``self.state``, which annealing lowers."""
        raise NotImplementedError("an Annealer needs an energy() method")

    def save_state(self, fname=None):
        """Pickles the state to ``fname`` (named after the time and energy if not given)."""
        if not fname:
            now = datetime.datetime.now().strftime("%Y-%m-%dT%Hh%Mm%Ss")
            fname = "%s_energy_%s.state" % (now, self.energy())
        with open(fname, "wb") as out:
            pickle.dump(self.state, out)

    def load_state(self, fname=None):
        """Reads a pickled state from ``fname``."""
        with open(fname, "rb") as source:
            self.state = pickle.load(source)

    def set_user_exit(self, signum, frame):
        """Asks the run under way to stop (a signal handler's shape)."""
        self.user_exit = True

    def set_schedule(self, schedule):
        """Takes the schedule ``auto()`` returns."""
        self.Tmax = schedule["tmax"]
        self.Tmin = schedule["tmin"]
        self.steps = int(schedule["steps"])
        self.updates = int(schedule["updates"])

    def copy_state(self, state):
        """A copy of ``state`` as ``copy_strategy`` says."""
        if self.copy_strategy == "deepcopy":
            return copy.deepcopy(state)
        if self.copy_strategy == "slice":
            return state[:]
        if self.copy_strategy == "method":
            return state.copy()
        raise RuntimeError("no copy_strategy %r: use 'deepcopy', 'slice' or 'method'"
                           % (self.copy_strategy,))

    def update(self, step, T, E, acceptance, improvement):
        """Called ``updates`` times during ``anneal()``; prints a line to stderr."""
        self.default_update(step, T, E, acceptance, improvement)

    def default_update(self, step, T, E, acceptance, improvement):
        """Temperature, energy, the shares of moves accepted and improving since the last
        update, time spent and time left, on one line of stderr rewritten in place."""
        elapsed = time.time() - self.start
        if step == 0:
            print("  temperature        energy  accepted  improved   elapsed      left",
                  file=sys.stderr)
            rates, left = " " * 20, ""
        else:
            rates = "%8.2f%%  %7.2f%%" % (100.0 * acceptance, 100.0 * improvement)
            left = _hms((self.steps - step) * elapsed / step)
        print("\r%13.5g  %12.6g  %s  %8s  %8s" % (T, E, rates, _hms(elapsed), left),
              end="", file=sys.stderr)
        if step >= self.steps:
            print(file=sys.stderr)
        sys.stderr.flush()

    def _keeping(self):
        """How a rejected move is taken back, and how a state is copied."""
        if callable(getattr(self, "undo", None)):
            return "undo", self.copy_state
        own_copy = type(self).copy_state is not Annealer.copy_state
        state = self.state
        if not own_copy and type(state) is list and (
                self.copy_strategy == "slice"
                or self.copy_strategy == "deepcopy" and all(map(_immutable, state))):
            return "list", list
        return "copy", self.copy_state

    def _seed(self):
        return self.seed if self.seed is not None else random.getrandbits(64)

    def _schedule(self):
        if self.Tmin <= 0.0:
            raise ValueError("exponential cooling needs Tmin > 0 (it is %r)" % (self.Tmin,))
        return dict(tmax=float(self.Tmax), tmin=float(self.Tmin), steps=int(self.steps),
                    seed=self._seed())

    def _finish(self, run, copier):
        best, energy, steps, seconds, stop = run
        self.state = copier(best)
        self.best_state, self.best_energy = best, energy
        self.last_run = {"steps": steps, "seconds": seconds, "stop": stop}
        if self.save_state_on_exit:
            self.save_state()
        return best, energy

    def anneal(self):
        """Anneals the state; returns ``(best_state, best_energy)``. Ctrl-C (or
        ``user_exit``) ends the run early with the best state found so far."""
        schedule = self._schedule()
        self.start = time.time()
        keep, copier = self._keeping()
        run = _kiln.anneal(self, updates=int(self.updates), keep=keep, copy=copier,
                           **schedule)
        return self._finish(run, copier)

    def watch(self, record=None, pace=1000, title=None):
        """Anneals the state as ``anneal()`` does, in kiln's live view in the terminal:
        stats, plots, the lesson line (your move's dE, T, p and the decision), and kiln's
        keys (space pauses, ``s`` steps, ``+``/``-`` change the pace of ``pace`` steps a
        second, ``r`` reheats, ``x`` explains, ``?`` helps, ``q`` quits). The board is
        what the annealer's ``draw(state) -> str`` returns, or the energy alone.
        ``record`` names a new asciicast file the view is recorded to. Returns
        ``(best_state, best_energy)`` once the user quits (Ctrl-C too)."""
        schedule = self._schedule()
        self.start = time.time()
        keep, copier = self._keeping()
        run = _kiln.watch(self, keep=keep, copy=copier, draw=getattr(self, "draw", None),
                          title=title or type(self).__name__, pace=int(pace),
                          record=None if record is None else str(record), **schedule)
        return self._finish(run, copier)

    def auto(self, minutes, steps=2000):
        """Explores the energy landscape in runs of ``steps`` steps at fixed temperatures
        and returns a schedule for ``set_schedule()``: Tmax where 98 % of the moves are
        accepted, Tmin where none improves, and as many steps as fit in ``minutes``."""
        self.start = time.time()
        keep, copier = self._keeping()
        done = 0

        def explore(temperature):
            nonlocal done
            done += steps
            measured = _kiln.explore(self, temperature=temperature, steps=steps,
                                     seed=self._seed(), keep=keep, copy=copier)
            self.update(done, temperature, *measured)
            return measured

        # A first temperature: the size of a move's energy change.
        energy = self.energy()
        self.update(0, 0.0, energy, None, None)
        temperature = 0.0
        for _ in range(1000):
            self.move()
            done += 1
            temperature = abs(self.energy() - energy)
            if temperature:
                break
        temperature = temperature or 1.0

        _, accepted, improved = explore(temperature)
        while accepted > 0.98:
            temperature = _two_figures(temperature / 1.5)
            _, accepted, improved = explore(temperature)
        while accepted < 0.98:
            temperature = _two_figures(temperature * 1.5)
            _, accepted, improved = explore(temperature)
        tmax = temperature
        while improved > 0.0:
            temperature = _two_figures(temperature / 1.5)
            _, accepted, improved = explore(temperature)
        tmin = temperature

        per_second = done / (time.time() - self.start)
        steps = _two_figures(int(60.0 * minutes * per_second))
        return {"tmax": tmax, "tmin": tmin, "steps": steps, "updates": self.updates}
