"""simanneal's Annealer, as kiln_anneal runs it: results, schedule, copies and errors."""

import math
import random
import signal
import subprocess
import sys
import textwrap
import threading

import pytest

from kiln_anneal import Annealer


class Sort(Annealer):
    """A permutation to sort: energy = places out of order, a move swaps two."""

    copy_strategy = "slice"
    Tmax, Tmin, steps, updates = 5.0, 0.05, 20_000, 0

    def __init__(self, n=30, seed=1):
        rng = random.Random(seed)
        values = list(range(n))
        rng.shuffle(values)
        super().__init__(values)

    def energy(self):
        return sum(value != at for at, value in enumerate(self.state))

    def move(self):
        s = self.state
        i, j = random.randrange(len(s)), random.randrange(len(s))
        before = (s[i] != i) + (s[j] != j)
        s[i], s[j] = s[j], s[i]
        return (s[i] != i) + (s[j] != j) - before


def test_anneal_returns_the_best_state_and_its_energy():
    random.seed(1)
    sorter = Sort()
    best, energy = sorter.anneal()
    assert energy == 0 and best == sorted(best)
    assert sorter.state == best and sorter.state is not best
    assert (sorter.best_state, sorter.best_energy) == (best, energy)
    assert sorter.last_run["stop"] == "max_steps"
    assert sorter.last_run["steps"] == Sort.steps


def test_a_move_that_returns_nothing_is_measured_by_energy():
    class Quiet(Sort):
        calls = 0

        def move(self):
            Sort.move(self)

        def energy(self):
            Quiet.calls += 1
            return Sort.energy(self)

    random.seed(2)
    quiet = Quiet()
    best, energy = quiet.anneal()
    assert energy == 0 and best == sorted(best)
    assert Quiet.calls >= Quiet.steps


def test_an_undo_method_takes_back_rejected_moves_without_copies():
    class Undone(Sort):
        copy_strategy = "deepcopy"
        copies = undos = 0

        def move(self):
            s = self.state
            self.last = i, j = random.randrange(len(s)), random.randrange(len(s))
            before = (s[i] != i) + (s[j] != j)
            s[i], s[j] = s[j], s[i]
            return (s[i] != i) + (s[j] != j) - before

        def undo(self):
            Undone.undos += 1
            i, j = self.last
            self.state[i], self.state[j] = self.state[j], self.state[i]

        def copy_state(self, state):
            Undone.copies += 1
            return Sort.copy_state(self, state)

    random.seed(3)
    undone = Undone(n=40)
    best, energy = undone.anneal()
    assert energy == 0 and best == sorted(best)
    assert Undone.undos > 1000
    # A copy for each new best (at most one per place put right) and the start.
    assert Undone.copies < 100


def test_copies_follow_the_copy_strategy():
    class Counted(Sort):
        copy_strategy = "method"
        copies = 0

        def copy_state(self, state):
            Counted.copies += 1
            return list(state)

    random.seed(4)
    counted = Counted()
    counted.steps = 5000
    counted.anneal()
    # A state of its own copy: one before each move, to take a rejected one back.
    assert Counted.copies >= 5000


def test_a_seed_repeats_a_run_and_random_seed_does_too():
    def run(seed=None, rseed=7):
        random.seed(rseed)
        sorter = Sort(n=200)
        sorter.steps, sorter.Tmin, sorter.seed = 3000, 0.5, seed
        sorter.anneal()
        return sorter.state

    assert run() == run()
    assert run(seed=9, rseed=7) == run(seed=9, rseed=7)
    assert run(seed=9) != run(seed=10)


def test_update_is_called_updates_times_with_rates():
    calls = []

    class Watched(Sort):
        updates = 10

        def update(self, *args):
            calls.append(args)

    random.seed(5)
    Watched().anneal()
    assert len(calls) == 11
    assert calls[0][0] == 0 and calls[0][3:] == (None, None)
    steps = [c[0] for c in calls]
    assert steps == [Sort.steps * k // 10 for k in range(11)]
    temperatures = [c[1] for c in calls]
    assert temperatures == sorted(temperatures, reverse=True)
    assert all(0.0 <= c[3] <= 1.0 and 0.0 <= c[4] <= c[3] for c in calls[1:])


def test_user_exit_ends_the_run_with_the_best_so_far():
    class Impatient(Sort):
        updates = 100

        def update(self, step, *rest):
            if step >= 3000:
                self.user_exit = True

    random.seed(6)
    impatient = Impatient(n=300)
    best, energy = impatient.anneal()
    assert impatient.last_run["steps"] < 5000
    assert impatient.last_run["stop"] == "interrupted"
    impatient.state = best
    assert impatient.energy() == energy


def test_keyboard_interrupt_in_move_returns_the_best_so_far():
    class Interrupted(Sort):
        moves = 0

        def move(self):
            Interrupted.moves += 1
            if Interrupted.moves == 4000:
                raise KeyboardInterrupt
            return Sort.move(self)

    random.seed(7)
    interrupted = Interrupted(n=300)
    best, energy = interrupted.anneal()
    assert interrupted.last_run["stop"] == "interrupted"
    assert interrupted.last_run["steps"] == 3999
    interrupted.state = best
    assert interrupted.energy() == energy < Interrupted(n=300).energy()


def test_an_exception_in_move_ends_the_run_with_its_traceback():
    class Broken(Sort):
        moves = 0

        def move(self):
            Broken.moves += 1
            if Broken.moves == 500:
                raise ZeroDivisionError("the user's bug")
            return Sort.move(self)

    with pytest.raises(ZeroDivisionError, match="the user's bug") as raised:
        Broken().anneal()
    assert Broken.moves == 500, "nothing is called after the error"
    assert any(entry.name == "move" for entry in raised.traceback)


@pytest.mark.parametrize("bad", [math.nan, math.inf])
def test_an_energy_that_is_not_a_number_ends_the_run(bad):
    class NotANumber(Sort):
        def energy(self):
            return bad

    with pytest.raises(ValueError, match=r"energy\(\) returned (nan|inf)"):
        NotANumber().anneal()


def test_a_move_that_returns_nan_ends_the_run():
    class NanMove(Sort):
        def move(self):
            Sort.move(self)
            return math.nan

    with pytest.raises(ValueError, match=r"move\(\) returned nan"):
        NanMove().anneal()


def test_a_state_that_cannot_be_copied_ends_the_run():
    class Locked(Sort):
        copy_strategy = "deepcopy"

    locked = Locked()
    locked.state = [threading.Lock()]
    with pytest.raises(TypeError, match="lock"):
        locked.anneal()


def test_cooling_needs_a_positive_tmin():
    sorter = Sort()
    sorter.Tmin = 0.0
    with pytest.raises(ValueError, match="Tmin"):
        sorter.anneal()


def test_auto_finds_a_schedule_for_set_schedule():
    random.seed(8)
    sorter = Sort(n=60)
    schedule = sorter.auto(minutes=0.01, steps=500)
    assert set(schedule) == {"tmax", "tmin", "steps", "updates"}
    assert schedule["tmax"] > schedule["tmin"] > 0
    assert schedule["steps"] > 0
    sorter.set_schedule(schedule)
    sorter.updates = 0
    _, energy = sorter.anneal()
    assert energy <= 2


def test_ctrl_c_ends_a_headless_run_with_the_best_so_far(tmp_path):
    script = tmp_path / "long.py"
    script.write_text(textwrap.dedent("""
        import random, sys
        sys.path.insert(0, %r)
        from test_annealer import Sort
        random.seed(1)
        sorter = Sort(n=400)
        sorter.steps = 10**9
        best, energy = sorter.anneal()
        sorter.state = best
        print("ended", sorter.last_run["stop"], energy == sorter.energy(), flush=True)
        """ % str(__import__("pathlib").Path(__file__).parent)))
    # SIGINT's default, as from a terminal's shell: a test run started in the background of
    # a script inherits it ignored, and Python would keep ignoring it.
    child = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        out, err = child.communicate(timeout=1.5)
    except subprocess.TimeoutExpired:
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=20)
    finally:
        # A child that outlives the test would spin on: it is killed either way.
        child.kill()
    assert child.returncode == 0, err
    assert out.strip() == "ended interrupted True"
