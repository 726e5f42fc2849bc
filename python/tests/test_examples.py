"""Each example runs unchanged but for its import, on kiln_anneal and on simanneal."""

import pytest

from conftest import example_with, run_example

OPTIMUM = 7542  # berlin52's shortest round trip


@pytest.mark.parametrize("module", ["kiln_anneal", "simanneal"])
def test_the_salesman_runs_with_either_import(module, tmp_path):
    example = example_with("salesman.py", module, tmp_path)
    length, done = run_example(example, "--steps", "200000", "--seed", "3")
    # A cooled trip: the random one it starts from is about 30,000 long.
    assert OPTIMUM <= length < 1.15 * OPTIMUM, done.stdout
    assert "temperature" in done.stderr.lower(), "update() prints progress to stderr"


@pytest.mark.parametrize("module", ["kiln_anneal", "simanneal"])
def test_the_colouring_runs_with_either_import(module, tmp_path):
    example = example_with("colouring.py", module, tmp_path)
    clashes, done = run_example(example, "--steps", "60000", "--seed", "2", "--quiet")
    # 16 x 12 places coloured at random clash on about a third of their 517 edges.
    assert 0 <= clashes <= 40, done.stdout


def test_a_seed_repeats_a_run(tmp_path):
    example = example_with("salesman.py", "kiln_anneal", tmp_path)
    runs = [run_example(example, "--steps", "30000", "--seed", str(seed), "--quiet")[0]
            for seed in (5, 5, 6)]
    assert runs[0] == runs[1]
    assert runs[0] != runs[2] or runs[0] == OPTIMUM
