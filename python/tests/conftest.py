"""What the tests share: the examples, and running one with either import."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
KILN_IMPORT = "from kiln_anneal import Annealer"
SIMANNEAL_IMPORT = "from simanneal import Annealer"


def example_with(name, module, into):
    """The example `name` with its Annealer imported from `module`, written into `into`
    (its path to the repository's puzzles kept)."""
    source = (EXAMPLES / name).read_text()
    assert source.count(KILN_IMPORT) == 1, "the example imports kiln_anneal's Annealer once"
    source = source.replace(KILN_IMPORT, "from %s import Annealer" % module)
    source = source.replace("Path(__file__).resolve().parents[2]",
                            "Path(%r)" % str(EXAMPLES.parents[1]))
    path = Path(into) / ("%s_%s" % (module, name))
    path.write_text(source)
    return path


def run_example(path, *args, timeout=120):
    """Runs an example to its end: its result line's first number, and its output."""
    done = subprocess.run([sys.executable, str(path), *args], capture_output=True,
                          text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr
    number = re.search(r"(trip length|clashes) (\d+)", done.stdout)
    assert number, done.stdout
    return int(number.group(2)), done


@pytest.fixture
def examples_dir():
    return EXAMPLES
