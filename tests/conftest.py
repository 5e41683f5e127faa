"""Fixtures shared by the tests, the command-line helpers, and the tiers of the suite.

Tiers: what is slow by nature carries a marker (``site``: reads the built documentation site;
``mcmc``: samples a posterior with NUTS; ``simulation``: a null or power simulation;
``subprocess``: starts rankwise or another program (a browser, a Dask cluster) as a process of
its own; ``large``: thousands of learners, or a brute-force check of every case; ``figures``:
draws figures (report folders, HTML reports, figure files); ``experiment``: runs an
experiment's tasks (fits learners); ``visual``: compiles and draws the diagrams and checks
their geometry (``tests/test_visual.py``); ``slow``: the long simulations left out of the
default run). The whole suite (README command 2) runs them all on both cores; the inner loop
leaves them out:

    python -m pytest --inner

The root ``conftest.py`` defines ``--inner`` and the guard that fails a test that draws a
figure or runs a task without its marker (or keeps a marker it no longer needs), so the tiers
follow what the tests do instead of a list kept beside them.
"""

import os
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple
from unittest import mock

import numpy as np
import pytest

from rankwise import load_example

#: The scripts that wrote the tools' files under data/real (each folder's README.md) import the
#: tools themselves, which the tests do not install: they are not collected (--doctest-modules).
collect_ignore_glob = ["data/*"]

# The suite starts Python processes (rankwise commands, the runner's workers, the test
# processes themselves); where PYTHONDONTWRITEBYTECODE is set, each would compile every module
# it imports from source again. Bytecode is written and read as a default Python does.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

#: Source folders whose doctests sample posteriors.
MCMC_DOCTESTS = ("rankwise/bayes/",)


def pytest_collection_modifyitems(config, items):
    """Mark what is slow by nature where it can be told from the test itself: a test that
    reads the site, one that runs a process through ``cli_process``, and the doctests of the
    Bayesian models. Then the posterior-sampling tests go first, together: xdist's work
    stealing hands each process a contiguous share from the front and steals from the back, so
    they run in one process, which compiles each model's chain for a data shape once (most of
    such a test's time) instead of once per process."""
    for item in items:
        names = getattr(item, "fixturenames", ())
        if "site" in names:
            item.add_marker(pytest.mark.site)
        if "cli_process" in names or "browser" in names or "dask" in item.name:
            item.add_marker(pytest.mark.subprocess)   # rankwise, a browser, a cluster
        if item.name.startswith("test_every_how_do_i_command_runs"):
            commands = item.callspec.params["block"][1]
            words = {word for args in commands for word in args}
            if any(args[1] == "power" for args in commands):
                item.add_marker(pytest.mark.simulation)   # a power study
            if words & {"--report", "--figure", "--cd-figure", "--matrix-figure", "html"}:
                item.add_marker(pytest.mark.figures)   # an answer that writes figures (the
                #                                        HTML page has them inline)
            if any(args[1] == "run" for args in commands):
                item.add_marker(pytest.mark.experiment)   # an answer that runs one
        if any(part in str(item.fspath).replace("\\", "/") for part in MCMC_DOCTESTS):
            item.add_marker(pytest.mark.mcmc)
    items.sort(key=lambda item: item.get_closest_marker("mcmc") is None)  # stable


class Ran(NamedTuple):
    """What a command did: ``code, out, err = ran``, or read as a finished process is
    (``returncode``, ``stdout``, ``stderr``)."""

    code: int
    out: str
    err: str

    @property
    def returncode(self) -> int:
        return self.code

    @property
    def stdout(self) -> str:
        return self.out

    @property
    def stderr(self) -> str:
        return self.err


@pytest.fixture
def cli(capsys):
    """``cli(*args)``: ``Ran(exit code, stdout, stderr)`` of ``rankwise ARGS`` run in this
    process, through the console script's entry point (its argument handling and one-line
    errors); ``cwd=`` runs it from another folder."""
    from rankwise.cli import run

    def run_cli(*args, cwd=None):
        with pytest.raises(SystemExit) as stop, mock.patch.object(
                sys, "argv", ["rankwise", *map(str, args)]):
            if cwd is None:
                run()
            else:
                with pytest.MonkeyPatch.context() as patch:
                    patch.chdir(cwd)
                    run()
        out = capsys.readouterr()
        return Ran(stop.value.code or 0, out.out, out.err)
    return run_cli


@pytest.fixture
def cli_process():
    """``cli_process(*args, cwd=None)``: ``rankwise ARGS`` as a process of its own (``python -m
    rankwise.cli``), for what only a real process shows: the entry point, signals, start-up
    imports, stdout closed early. Its tests are marked ``subprocess``."""
    def run_process(*args, cwd=None, **options):
        return subprocess.run([sys.executable, "-m", "rankwise.cli", *map(str, args)],
                              capture_output=True, text=True, cwd=cwd, **options)
    return run_process


@pytest.fixture(scope="session")
def demo_results(tmp_path_factory):
    """The bundled demo experiment's results file, run once per test process (in process:
    160 tasks, about 8 s); copy it before changing it."""
    from rankwise.examples import experiment_path
    from rankwise.experiment import load_experiment, run_experiment

    path = tmp_path_factory.mktemp("demo") / "demo.sqlite"
    with experiment_path("demo") as experiment:
        run_experiment(load_experiment(experiment), path, jobs=0)
    return path


@pytest.fixture
def demsar2():
    t = load_example("demsar2006_table2")
    return t.values[:, 0], t.values[:, 1]


@pytest.fixture
def rng():
    return np.random.default_rng(20061)


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The built documentation site: docs/_build/html (the README's docs command), else one
    fresh build where Sphinx is installed, shared by the test processes (the first builds it
    under a lock, the others wait for it)."""
    built = Path(__file__).parents[1] / "docs" / "_build" / "html"
    if (built / "index.html").exists():
        return built
    for module in ("sphinx", "myst_nb", "pydata_sphinx_theme", "sphinx_gallery"):
        # the docs extra, whole (sphinx alone also comes with the test extra's numpydoc)
        pytest.importorskip(module, reason="install rankwise[docs] to build the site")
    import fcntl

    shared = tmp_path_factory.getbasetemp()
    if "PYTEST_XDIST_WORKER" in os.environ:
        shared = shared.parent   # the root the test processes share
    out = shared / "site"
    with open(shared / "site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (out / "index.html").exists():
            result = subprocess.run(
                [sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html",
                 str(Path(__file__).parents[1] / "docs"), str(out)], capture_output=True,
                text=True, cwd=Path(__file__).parents[1], timeout=1800)
            assert result.returncode == 0, result.stderr[-3000:]
    return out
