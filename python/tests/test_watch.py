"""watch() in a pseudo-terminal of 80x24: the frame drawn, keys, quitting, Ctrl-C and an
error in move(), each ending with the terminal given back."""

import fcntl
import json
import os
import pty
import re
import select
import signal
import struct
import sys
import termios

import pytest
import textwrap
import time

from conftest import EXAMPLES

ROWS, COLUMNS = 24, 80
LEAVE_ALTERNATE_SCREEN = "\x1b[?1049l"
CSI = re.compile(r"\x1b\[([?0-9;]*)([A-Za-z])|\x1b[^\[]")


class Screen:
    """The cells a terminal shows, from what kiln's live view writes: cursor moves,
    clears and text (styles and modes are read past)."""

    def __init__(self):
        self.cells = [[" "] * COLUMNS for _ in range(ROWS)]
        self.row = self.column = 0

    def feed(self, text):
        at = 0
        for escape in CSI.finditer(text):
            self.put(text[at:escape.start()])
            at = escape.end()
            arguments, final = escape.group(1) or "", escape.group(2)
            if arguments.startswith("?"):
                continue  # a mode: the alternate screen, the cursor shown or not
            numbers = [int(n) if n else 1 for n in arguments.split(";")]
            if final == "H":
                numbers += [1, 1]
                self.row, self.column = numbers[0] - 1, numbers[1] - 1
            elif final == "J":
                self.cells = [[" "] * COLUMNS for _ in range(ROWS)]
        self.put(text[at:])

    def put(self, text):
        for char in text:
            if char == "\r":
                self.column = 0
            elif char == "\n":
                self.row = min(self.row + 1, ROWS - 1)
            elif char >= " " and 0 <= self.row < ROWS and 0 <= self.column < COLUMNS:
                self.cells[self.row][self.column] = char
                self.column += 1

    def text(self):
        return "\n".join("".join(row) for row in self.cells)


class Terminal:
    """A Python program in a pseudo-terminal of 80x24."""

    def __init__(self, script):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            size = struct.pack("HHHH", ROWS, COLUMNS, 0, 0)
            fcntl.ioctl(0, termios.TIOCSWINSZ, size)
            os.environ["TERM"] = "xterm-256color"
            # As from a terminal's shell: a test run started in the background of a script
            # inherits SIGINT ignored, and Python would keep ignoring it.
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.execv(sys.executable, [sys.executable, "-c", script])
        self.screen, self.written = Screen(), ""

    def read(self, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if ready:
                try:
                    data = os.read(self.fd, 65536).decode("utf-8", "replace")
                except OSError:  # the program has ended
                    return False
                if not data:
                    return False
                self.written += data
                self.screen.feed(data)
        return True

    def wait_for(self, words, seconds=30):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if all(word in self.screen.text() for word in words):
                return self.screen.text()
            if not self.read(0.1):
                break
        raise AssertionError("never drew %r:\n%s" % (words, self.screen.text()))

    def press(self, keys):
        os.write(self.fd, keys.encode())

    def finish(self, seconds=30):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and self.read(0.2):
            pass
        # A program that does not end is killed and fails the test, never hangs it.
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            time.sleep(0.05)
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        raise AssertionError("still running after %s s:\n%s" % (seconds, self.screen.text()))


def salesman(body):
    return textwrap.dedent("""
        import random, sys
        sys.path.insert(0, %r)
        from salesman import Salesman, read_places, BERLIN52
        random.seed(1)
        """ % str(EXAMPLES)) + textwrap.dedent(body)


def test_watch_draws_the_board_and_kilns_panels_and_quits_with_the_best(tmp_path):
    cast = tmp_path / "salesman.cast"
    terminal = Terminal(salesman("""
        salesman = Salesman(read_places(BERLIN52))
        trip, length = salesman.watch(record=%r)
        salesman.state = trip
        print("result", length, salesman.energy(), salesman.last_run["stop"])
        """ % str(cast)))
    frame = terminal.wait_for(["Salesman", "Energy", "Temperature", "iteration", "o."])
    assert len(frame.splitlines()) == ROWS
    terminal.press("?")
    terminal.wait_for(["keys"])
    terminal.press("?")
    terminal.press("-" * 8)  # 10 steps a second: each step explained on the lesson line
    frame = terminal.wait_for(["dE = ", "T = "])
    assert re.search(r"dE = [-+]?\d+ +T = \S+ +p = .*-> (accepted|rejected)", frame), frame
    terminal.press("x")
    terminal.wait_for(["rule"])
    terminal.press("q")
    assert terminal.finish() == 0
    assert LEAVE_ALTERNATE_SCREEN in terminal.written
    result = re.search(r"result (\S+) (\S+) (\w+)", terminal.written)
    assert result, terminal.written[-500:]
    assert float(result.group(1)) == float(result.group(2)), "the best trip's length"
    assert result.group(3) == "stopped"
    header, *events = cast.read_text().splitlines()
    assert json.loads(header)["width"] == COLUMNS and json.loads(header)["height"] == ROWS
    assert "Salesman" in "".join(json.loads(event)[2] for event in events)


def test_ctrl_c_from_outside_ends_the_view_with_the_best_so_far():
    terminal = Terminal(salesman("""
        salesman = Salesman(read_places(BERLIN52))
        trip, length = salesman.watch()
        print("result", sorted(trip) == list(range(52)), salesman.last_run["stop"])
        """))
    terminal.wait_for(["Salesman", "iteration"])
    os.kill(terminal.pid, signal.SIGINT)
    assert terminal.finish() == 0
    assert LEAVE_ALTERNATE_SCREEN in terminal.written
    assert "result True interrupted" in terminal.written


def test_an_error_in_move_ends_the_view_with_its_traceback():
    terminal = Terminal(salesman("""
        class Broken(Salesman):
            moves = 0
            def move(self):
                Broken.moves += 1
                if Broken.moves == 1500:
                    raise ZeroDivisionError("a bug in move()")
                return super().move()

        Broken(read_places(BERLIN52)).watch()
        """))
    terminal.wait_for(["Broken", "iteration"])
    assert terminal.finish() == 1
    restored = terminal.written.rindex(LEAVE_ALTERNATE_SCREEN)
    after = terminal.written[restored:]
    assert "Traceback" in after and "in move" in after, after
    assert "ZeroDivisionError: a bug in move()" in after


def test_a_recording_over_an_existing_file_is_refused_before_the_view_opens(tmp_path):
    cast = tmp_path / "taken.cast"
    cast.write_text("mine")
    terminal = Terminal(salesman("""
        try:
            Salesman(read_places(BERLIN52)).watch(record=%r)
        except OSError as error:
            print("refused:", error)
        """ % str(cast)))
    assert terminal.finish() == 0
    assert "refused:" in terminal.written and "exists" in terminal.written
    assert "\x1b[?1049h" not in terminal.written, "the view never opened"
    assert cast.read_text() == "mine"
