"""Which data sets carry the claim: the vectorised search checked against a plain loop of
``compare`` over every subset, against the verdict it reads, and its upper bounds by rerunning
``compare`` without the data sets it names."""

import itertools
import json
from dataclasses import replace

import numpy as np
import pytest

from rankwise import compare, load_example
from rankwise.analysis.dataset_check import MAX_EXACT, dataset_check
from rankwise.errors import RankwiseError
from rankwise.stats.adjust import _SIMPLE, adjust, adjust_rows
from rankwise.tables import ScoreTable


def make_table(k, n, seed, spread=1.2, decimals=1):
    rng = np.random.default_rng(seed)
    x = np.round(rng.normal(size=(n, k)) + np.linspace(0, spread, k), decimals)
    return ScoreTable(values=x, datasets=tuple(f"d{i}" for i in range(n)),
                      learners=tuple(f"L{j}" for j in range(k)))


def without(table, removed):
    keep = [i for i in range(table.n_datasets) if i not in set(removed)]
    return replace(table, values=table.values[keep],
                   datasets=tuple(table.datasets[i] for i in keep))


def kept_by_compare(cmp, claim, learners) -> bool:
    """Does ``cmp`` (a comparison on fewer data sets) still make ``claim``?"""
    v = cmp.verdict
    if claim.kind == "best":
        return v.best == claim.learners[0]
    if claim.kind == "gate":
        return v.gate.passed == claim.holds
    if claim.kind == "verdict":
        return (claim.learners[0] in v.losers) == claim.holds
    plan = cmp.figures.get("pvalue_heatmap")
    a, b = (learners.index(name) for name in claim.learners)
    significant = plan is not None and plan.drawn and plan.pvalues[a, b] <= cmp.alpha
    return significant == claim.holds


def brute_force(table, options):
    """``[(smallest, first subset, count) or None]`` per claim, by ``compare`` on every
    subset of up to three data sets."""
    learners = list(table.learners)
    base = compare(table, effects="none", **options)
    # the subsets' own verdicts are all the loop reads: their own data-set check is not asked
    plain = {**options, "dataset_check": False}
    found = {}
    for size in range(1, MAX_EXACT + 1):
        for removed in itertools.combinations(range(table.n_datasets), size):
            cmp = compare(without(table, removed), effects="none", **plain)
            for i, claim in enumerate(base.dataset_check.claims):
                if kept_by_compare(cmp, claim, learners):
                    continue
                if i not in found:
                    found[i] = [size, removed, 0]
                if found[i][0] == size:
                    found[i][2] += 1
    return base, found


CASES = [
    (make_table(3, 8, 0), {}),
    (make_table(4, 10, 1), {"verdict_procedure": "hochberg", "diagram_procedure": "holm"}),
    (make_table(5, 9, 2), {"friedman_method": "chi2", "diagram_procedure": "shaffer"}),
    (make_table(4, 9, 5, spread=0.4), {"convention": "paper", "force_posthoc": True}),
    # many tied ranks: the exact gate's distribution differs from subset to subset
    (make_table(4, 11, 6, decimals=0), {"verdict_procedure": "finner"}),
]
SLOW_CASES = [
    (make_table(6, 15, 8), {"friedman_method": "chi2"}),
    (make_table(3, 15, 9, decimals=0), {}),
    (make_table(4, 14, 10, spread=0.6), {"alpha": 0.1, "verdict_procedure": "hommel"}),
]


@pytest.mark.large
@pytest.mark.parametrize("table,options", CASES + [
    pytest.param(*case, marks=pytest.mark.slow) for case in SLOW_CASES])
def test_every_overturning_subset_that_compare_finds_and_no_other(table, options):
    options = {"posthoc": "all", "dataset_check": True, **options}
    base, found = brute_force(table, options)
    check = base.dataset_check
    assert len(check.claims) == 2 + (table.n_learners - 1) + table.n_learners * (
        table.n_learners - 1) // 2
    for i, claim in enumerate(check.claims):
        index = {name: j for j, name in enumerate(table.datasets)}
        if i in found:
            size, first, count = found[i]
            assert claim.exact and claim.smallest == size, claim
            assert tuple(index[name] for name in claim.removed) == first, claim
            assert claim.count == count, claim
        else:
            assert not claim.exact and claim.count is None, claim
            assert claim.smallest is None or claim.smallest > MAX_EXACT, claim


def test_the_claims_are_the_verdicts_own():
    for name in ("garcia2008", "garcia2010", "demsar2006_table6"):
        cmp = compare(load_example(name), posthoc="all", dataset_check=True)
        v = cmp.verdict
        by_kind = {}
        for claim in cmp.dataset_check.claims:
            by_kind.setdefault(claim.kind, []).append(claim)
        assert by_kind["best"][0].learners == (v.best,)
        assert by_kind["gate"][0].holds == v.gate.passed
        assert {c.learners[0] for c in by_kind["verdict"] if c.holds} == set(v.losers)
        plan = cmp.figures["pvalue_heatmap"]
        for claim in by_kind["pair"]:
            a, b = (cmp.table.learners.index(n) for n in claim.learners)
            assert claim.holds == bool(plan.drawn and plan.pvalues[a, b] <= cmp.alpha)


def test_greedy_bounds_hold_when_compare_reruns_without_those_data_sets():
    table = make_table(6, 40, 3, spread=2.0)
    cmp = compare(table, posthoc="all", dataset_check=True, effects="none")
    greedy = [c for c in cmp.dataset_check.claims if not c.exact and c.smallest is not None]
    assert greedy, "the table should have claims that survive every subset of three"
    learners = list(table.learners)
    for claim in greedy[:12]:
        index = [table.datasets.index(name) for name in claim.removed]
        assert len(index) == claim.smallest > MAX_EXACT
        rerun = compare(without(table, index), posthoc="all", effects="none")
        assert not kept_by_compare(rerun, claim, learners), claim


def test_leave_one_out_lists_exactly_the_single_data_sets_that_overturn():
    table = load_example("garcia2010")
    cmp = compare(table, posthoc="all", dataset_check=True, effects="none")
    check = cmp.dataset_check
    learners = list(table.learners)
    for j, name in enumerate(table.datasets):
        rerun = compare(without(table, [j]), posthoc="all", effects="none")
        expected = tuple(i for i, c in enumerate(check.claims)
                         if not kept_by_compare(rerun, c, learners))
        assert check.leave_one_out.get(name, ()) == expected, name
    # and the size-1 claims name one of them
    for claim in check.claims:
        if claim.smallest == 1:
            assert check.claims.index(claim) in check.leave_one_out[claim.removed[0]]


def test_fragile_claims_are_named_in_the_verdict_and_the_json():
    cmp = compare(load_example("garcia2010"), posthoc="all", dataset_check=True)
    fragile = cmp.dataset_check.fragile()
    assert fragile and all(c.smallest <= 2 for c in fragile)
    assert "Which data sets carry it: " in cmp.verdict.statement
    assert f"'{fragile[0].statement}' falls without" in cmp.verdict.statement
    data = json.loads(cmp.to_json())["dataset_check"]
    assert data["fragile"] == [i for i, c in enumerate(cmp.dataset_check.claims) if c.fragile]
    assert data["claims"][0]["kind"] == "best" and data["settings"]["max_exact"] == 3


def test_a_monte_carlo_gate_is_read_from_compare_and_replaced_by_f_in_subsets():
    table = make_table(8, 12, 4)  # k = 8, N = 12: compare's gate is a Monte Carlo p-value
    cmp = compare(table, dataset_check=True, effects="none")
    assert cmp.tests["iman_davenport"].method == "monte-carlo"
    check = cmp.dataset_check
    assert any("Monte Carlo" in note for note in check.notes)
    gate = next(c for c in check.claims if c.kind == "gate")
    assert gate.holds == cmp.verdict.gate.passed


def test_refusals():
    two = make_table(2, 10, 0)
    with pytest.raises(RankwiseError, match="at least 3 learners"):
        compare(two, dataset_check=True)
    holes = make_table(4, 10, 0)
    values = holes.values.copy()
    values[0, 0] = np.nan
    with pytest.raises(RankwiseError, match="complete table"):
        dataset_check(np.where(np.isnan(values), np.nan, 1.0), holes.learners, holes.datasets)


@pytest.mark.parametrize("method", sorted(_SIMPLE))
def test_adjust_rows_equals_adjust_on_every_row(method):
    rng = np.random.default_rng(7)
    k = 5
    m = k * (k - 1) // 2 if method == "shaffer" else 6
    p = rng.uniform(size=(40, m)) ** 3
    p[0] = 1.0
    p[1, :2] = 0.0
    p[2] = p[2, 0]           # all tied
    expected = np.array([adjust(row, method, k=k) for row in p])
    assert np.array_equal(adjust_rows(p, method, k=k), expected)


@pytest.mark.parametrize("method", ["holm", "shaffer"])
def test_step_down_decisions_equal_the_adjusted_p_values(method):
    from rankwise.analysis.dataset_check import _Subsets

    k = 6
    sub = _Subsets(np.tile(np.arange(1.0, k + 1), (4, 1)), alpha=0.05, convention="default",
                   method="auto", verdict_procedure="holm", pair_procedure=method, force=True)
    rng = np.random.default_rng(3)
    p = rng.uniform(size=(500, 15)) ** 6
    p[:50, 3] = p[:50, 4]                       # ties across the boundary
    p[50:60] = 0.05 / np.arange(15, 0, -1)      # every p on its Holm boundary
    expected = adjust_rows(p, method, k=k) <= 0.05
    assert np.array_equal(sub._step_down(p), expected)


def test_large_tables_stay_within_budget_and_say_so():
    from rankwise.analysis import dataset_check as dc

    notes = []
    assert dc._affordable(3, 200, 1000, 0, notes) == 2 and "not 3" in notes[0]
    notes = []
    assert dc._affordable(3, 100, 30, 435, notes) == 3 and not notes
    rng = np.random.default_rng(1)
    k = 250
    ranks = np.argsort(np.argsort(-(rng.normal(size=(12, k)) + np.linspace(0, 3, k)),
                                  axis=1), axis=1) + 1.0
    check = dataset_check(ranks, [f"L{j}" for j in range(k)], [f"d{i}" for i in range(12)])
    skipped = [c for c in check.claims if not c.searched]
    assert skipped and all(c.smallest is None and not c.exact for c in skipped)
    assert any("greedy search beyond the exact sizes ran for 100" in n for n in check.notes)
