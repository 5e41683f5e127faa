"""The steps of an analysis (rankwise.analysis.steps): one shape, folded in a declared order,
each result contributed once, the verdict written once at the end."""

import inspect
from dataclasses import fields

import numpy as np
import pytest

from rankwise import BayesianOptions, Comparison, PosthocOptions, compare, load_example
from rankwise.analysis import steps
from rankwise.analysis.options import validate
from rankwise.analysis.steps import Context, Contribution

RICH = dict(posthoc="all", rank_sets=True, pool_check=True, dataset_check=True,
            mcm="holm", groups="scott-knott-esd", effects="all")


def _fold(table, **given):
    cmp = compare(table, **given)
    opts = validate(table, cmp.options)
    return cmp, opts


@pytest.fixture(scope="module")
def rich():
    """garcia2008 analysed with every option that adds a sentence, and the same analysis
    folded again step by step: ``(table, cmp, opts, ctx)``."""
    table = load_example("garcia2008")
    cmp, opts = _fold(table, **RICH)
    return table, cmp, opts, steps.fold(table, opts)


def test_every_step_has_the_one_shape():
    for step in steps.STEPS:
        params = list(inspect.signature(step).parameters)
        assert params == ["ctx"], step.__name__
        assert inspect.getdoc(step), f"{step.__name__} says what it contributes"


def test_each_step_returns_a_contribution_and_reads_only_what_came_before(rich):
    table, _, opts, _ = rich
    ctx = Context(table, opts)
    seen = set()
    for step in steps.STEPS[:-1]:  # the multiverse is not asked for here
        added = step(ctx)
        assert isinstance(added, Contribution), step.__name__
        assert not seen & added.results.keys(), step.__name__
        seen |= added.results.keys()
        ctx = ctx.plus(added)
    # The results a Comparison keeps are all contributed by some step.
    kept = {f.name for f in fields(Comparison)} - {
        "table", "alpha", "convention", "decimals", "pair", "settings", "figures", "notes",
        "options", "verdict", "multiverse"}
    assert kept <= seen, kept - seen


def test_a_result_contributed_twice_is_refused():
    table = load_example("garcia2008")
    ctx = Context(table, None).plus(Contribution({"x": 1}))
    with pytest.raises(AssertionError, match="contributed twice"):
        ctx.plus(Contribution({"x": 2}))


def test_a_step_that_reads_a_later_result_says_which():
    table = load_example("garcia2008")
    with pytest.raises(AttributeError, match="no step before this one contributes 'ranks'"):
        Context(table, None).ranks


def test_the_comparison_keeps_every_result_of_the_fold(rich):
    _, cmp, _, ctx = rich
    assert np.array_equal(cmp.mean_ranks, ctx.mean_ranks)
    assert cmp.settings == ctx.settings and list(cmp.figures) == list(ctx.figures)
    assert cmp.notes == tuple(dict.fromkeys(ctx.notes))
    assert cmp.rank_sets.lower.tolist() == ctx.rank_sets.lower.tolist()
    assert cmp.dataset_check.sentence() == ctx.dataset_check.sentence()
    assert cmp.letters.letters == ctx.letters.letters


def test_the_verdict_is_written_once_from_the_decision_and_every_sentence(rich):
    _, cmp, _, ctx = rich
    decision = ctx.verdict
    assert len(ctx.sentences) == 5  # effects, pool, groups, rank sets, data-set check
    assert cmp.verdict.statement == " ".join([decision.statement, *ctx.sentences])
    assert cmp.verdict.text == " ".join([cmp.verdict.statement, *decision.caveats,
                                         decision.direction])
    # The decision's claims are those of the written verdict.
    assert (cmp.verdict.best, cmp.verdict.losers) == (decision.best, decision.losers)


def test_a_bayesian_verdict_leads_the_written_one():
    table = load_example("garcia2008")
    cmp = compare(table, bayesian=BayesianOptions("signed-rank", rope=0.01), verdict="bayesian",
                  rank_sets=True)
    opts = validate(table, cmp.options)
    ctx = steps.fold(table, opts)
    frequentist = " ".join([ctx.verdict.statement, *ctx.sentences])
    assert cmp.verdict.statement.endswith(
        f"Frequentist view (the tables and figures): {frequentist}")
    assert cmp.verdict.basis == "bayesian"


def test_missing_cells_lead_the_notes():
    table = load_example("garcia2008")
    holes = table.values.copy()
    holes[0, 0] = np.nan
    cmp = compare(holes, missing="skillings-mack")
    assert cmp.notes[0].startswith("The table has 1 missing cell(s)")
    assert "skillings_mack" in cmp.tests


def test_steps_run_in_part_give_the_engine():
    table = load_example("garcia2008")
    opts = validate(table, compare(table, posthoc=PosthocOptions("all")).options)
    upto = steps.STEPS.index(steps.frequentist) + 1
    ctx = steps.fold(table, opts, steps=steps.STEPS[:upto])
    assert ctx.engine is not None and ctx.posthoc is not None
    with pytest.raises(AttributeError):
        ctx.letters
