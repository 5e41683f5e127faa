"""The suite's tiers, for every test the suite collects (the tests, the doctests of the package
and of the documentation): ``--inner`` runs the quick tier only, ``--deep`` the deep tier that
the default run leaves out (``.ci/run`` runs both), and a guard fails a test that
does what a tier names (draws figures, runs an experiment's tasks) without its marker, or
carries the marker without doing it, so that the tiers follow what the tests do (tests that
share a module's fixture are left to their markers: which of them draws depends on order).
The markers are declared in ``pyproject.toml``; the fixtures and the other markers' rules are
in ``tests/conftest.py``."""

from unittest import mock

import pytest

#: What the inner loop leaves out: every tier but the quick one.
INNER_LOOP = "not (slow or site or mcmc or simulation or subprocess or large or figures" \
             " or experiment or visual)"
#: The deep tier, which the default run leaves out and ``--deep`` runs (``.ci/run`` runs both):
#: what is slow by nature: posteriors sampled, diagrams compiled and measured, null and power
#: simulations, thousands of learners and brute-force checks, experiments run (learners
#: fitted, runs killed and resumed) and programs started as processes of their own. The
#: default run is everything else: every analysis, format, figure and page, in process.
DEEP = ("(mcmc or visual or simulation or large or experiment or subprocess) and not slow")
#: The tiers the guard checks (what a test did, counted while it ran), in its messages.
WORDS = {"figures": "draws figures", "experiment": "runs an experiment's tasks"}
#: Session fixtures that run an experiment before any test that asks for them (the guard
#: counts only what runs during a test): their tests are in the experiment tier.
EXPERIMENT_FIXTURES = ("demo_results",)


def pytest_addoption(parser):
    parser.addoption("--inner", action="store_true",
                     help=f"the inner loop: only the quick tier (-m '{INNER_LOOP}')")
    parser.addoption("--deep", action="store_true",
                     help=f"only the deep tier, which the default run leaves out (-m '{DEEP}')")


def pytest_configure(config):
    if config.getoption("--inner"):
        config.option.markexpr = INNER_LOOP
    elif config.getoption("--deep"):
        config.option.markexpr = DEEP


#: Doctests (by their item's name) that draw figures or run an experiment's tasks: the guard
#: checks these as it checks the tests' own markers.
DOCTEST_TIERS = {
    "rankwise.errors.RankwiseWarning": "figures",
    "rankwise.report.write_report": "figures",
    "rankwise.report.interactive_page": "figures",
    "rankwise.experiment.driver.run_experiment": "experiment",
    "rankwise.report.figure_svgs": "figures",
    "rankwise.report.html.html_report": "figures",
    "rankwise.report.html.notebook_fragment": "figures",
    "rankwise.report.notebook_fragment": "figures",
    "rankwise.report.FORMATS.md": "figures",
}


def pytest_collection_modifyitems(config, items):
    for item in items:
        tier = DOCTEST_TIERS.get(item.name)
        if tier:
            item.add_marker(getattr(pytest.mark, tier))
        if _uses_an_experiment_fixture(item):
            item.add_marker(pytest.mark.experiment)


def _uses_an_experiment_fixture(item) -> bool:
    return any(name in getattr(item, "fixturenames", ()) for name in EXPERIMENT_FIXTURES)


_DONE = dict.fromkeys(WORDS, 0)


def _count(kind, original):
    def counted(*args, **kwargs):
        _DONE[kind] += 1
        return original(*args, **kwargs)
    return counted


@pytest.fixture(autouse=True)
def _tiers(request):
    """Fail a test that drew a figure (``Figure.savefig``) or ran an experiment's tasks
    without the marker of that tier, and one that carries such a marker but did neither: the
    inner loop leaves out exactly what is slow by nature."""
    from matplotlib.figure import Figure

    from rankwise.experiment import driver

    def execute(batches, *args, **kwargs):
        def counted():
            for batch in batches:
                batch = list(batch)
                _DONE["experiment"] += bool(batch)
                yield batch
        return original_execute(counted(), *args, **kwargs)

    original_execute = driver._execute
    before = dict(_DONE)
    with mock.patch.object(Figure, "savefig", _count("figures", Figure.savefig)), \
            mock.patch.object(driver, "_execute", execute):
        yield
    if _shares_a_fixture(request.node):
        return   # what it draws depends on which test of the module came first
    for tier in WORDS:
        did = _DONE[tier] > before[tier] or (tier == "experiment"
                                             and _uses_an_experiment_fixture(request.node))
        marked = request.node.get_closest_marker(tier)
        if did and not marked:
            how = (f"mark it @pytest.mark.{tier}" if hasattr(request.node, "function") else
                   f"give its name to DOCTEST_TIERS in conftest.py, as {tier}")
            pytest.fail(f"this test {WORDS[tier]}: {how}")
        if marked and not did and getattr(request.node, "passed_its_call", False):
            pytest.fail(f"this test is marked {tier} but no longer {WORDS[tier]}: take the"
                        " marker off, so that the inner loop runs it")


def _shares_a_fixture(item) -> bool:
    """Does ``item`` use a fixture kept for a module (or class)? A comparison kept there
    draws its figures once, in whichever of its tests asks first, so the guard cannot tell
    from one test what it does: such tests keep the markers they were given."""
    info = getattr(item, "_fixtureinfo", None)
    defs = info.name2fixturedefs.values() if info is not None else ()
    return any(d and d[-1].scope in ("module", "class", "package") for d in defs)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    report = (yield).get_result()
    if call.when == "call":
        item.passed_its_call = report.passed
