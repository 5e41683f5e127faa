"""The all-pairs computations against the one-pair references they replace: effect sizes for
every pair at once, the studentized range for many statistics, the CD diagram's groups, and the
choice of which pairs get effects."""

import itertools
import math

import numpy as np
import pytest
from scipy import optimize, stats

from rankwise import compare
from rankwise.analysis.figures import cliques
from rankwise.stats import effects as fx
from rankwise.stats import effects_all as fxa
from rankwise.stats.studentized_range import (RANGE_SF_DIRECT_MAX, RANGE_TAIL, log_range_tail,
                                              range_sf)


def _random_table(rng, n, k, places):
    x = np.round(rng.normal(0.7, 0.05, (n, k)), places)
    x[:, 1] = x[:, 0]  # a pair with every difference zero (d_z undefined)
    x[: n // 2, 2] = x[: n // 2, 0]  # many zeros and ties
    x[:, 5] = np.round(x[:, 4] + np.arange(1, n + 1) * 10.0 ** -places, places)  # no ties
    return x


@pytest.mark.parametrize("n,decimals,places", [(7, 12, 2), (30, 12, 3), (49, 3, 3),
                                               (60, None, 3), (25, 2, 4), (51, 12, 2),
                                               # Cliff's δ by sorting, Walsh sums selected
                                               (100, 3, 3), (600, 3, 3), (600, None, 3),
                                               (700, 12, 2)])
def test_every_effect_for_all_pairs_equals_the_one_pair_functions(n, decimals, places):
    rng = np.random.default_rng(n)
    k = 6
    x = _random_table(rng, n, k, places)
    names = [f"L{j}" for j in range(k)]
    pairs = list(itertools.combinations(range(k), 2)) + [(3, 0), (5, 4)]
    table = fxa.effect_sizes_all(x, pairs, names, decimals=decimals, confidence=0.9)
    assert len(table) == len(pairs)
    methods = set()
    for (i, j), got in zip(pairs, table):
        ref = fx.effect_sizes(x[:, i], x[:, j], names=(names[i], names[j]), decimals=decimals,
                              confidence=0.9)
        assert got.to_dict() == ref.to_dict()  # the same numbers, bit for bit
        methods.add(got.hodges_lehmann.method)
        methods.add(got.cohens_dz.method)
    assert "undefined" in methods  # the all-zero pair went through the array path too
    if n < fx.HL_EXACT_MAX_N and (decimals is None or decimals >= places):
        assert "exact" in methods
    assert table[-1] is table[len(table) - 1]  # each pair is made once


def test_large_scores_and_long_tables_fall_back_to_the_reference():
    rng = np.random.default_rng(3)
    x = rng.normal(0, 1, (20, 3)) * 1e300  # beyond exact integer sums
    pairs = [(0, 1), (1, 2)]
    got = fxa.effect_sizes_all(x, pairs, ["a", "b", "c"])
    for (i, j), e in zip(pairs, got):
        assert e.to_dict() == fx.effect_sizes(x[:, i], x[:, j], names=(e.a, e.b)).to_dict()
    y = np.round(rng.normal(0, 1, (500, 3)), 2)  # 125,250 Walsh averages: not listed
    got = fxa.effect_sizes_all(y, [(0, 1)], ["a", "b", "c"])
    assert got[0].to_dict() == fx.effect_sizes(y[:, 0], y[:, 1], names=("a", "b")).to_dict()


def _brent_nct(t, df, confidence):
    """The scalar reference: two Brent root searches on scipy's noncentral t."""
    tail = (1.0 - confidence) / 2.0

    def f(lam, target):
        v = float(stats.nct.cdf(t, df, lam))
        return (0.0 if lam > t else 1.0) - target if math.isnan(v) else v - target

    def solve(target):
        lo, hi = t - 10.0, t + 10.0
        while f(lo, target) < 0:
            lo -= 10.0 + abs(lo)
        while f(hi, target) > 0:
            hi += 10.0 + abs(hi)
        return optimize.brentq(f, lo, hi, args=(target,), xtol=1e-12, rtol=1e-12)

    return solve(1.0 - tail), solve(tail)


def test_noncentral_t_intervals_all_at_once_equal_brent_pair_by_pair():
    rng = np.random.default_rng(7)
    for df in (2, 9, 49, 199, 4999):
        t = np.concatenate([rng.normal(0, 4, 20), [0.0, 35.0, -60.0]])
        lo, hi = fx.nct_intervals(t, df, 0.95)
        for ti, a, b in zip(t, lo, hi):
            ra, rb = _brent_nct(float(ti), df, 0.95)
            assert abs(a - ra) <= 1e-12 * max(1.0, abs(ra))
            assert abs(b - rb) <= 1e-12 * max(1.0, abs(rb))
    # R: uniroot() on pt(t, n - 1, ncp) for the README's pair (test_effects: R_DZ)
    assert fx.nct_intervals(np.array([0.867215812399 * math.sqrt(20)]), 19, 0.95)[0][0] \
        / math.sqrt(20) == pytest.approx(0.342234051204, abs=1e-9)


@pytest.mark.parametrize("k", [3, 10, 50, 200, 1000])
def test_studentized_range_for_many_statistics_is_the_integral_within_1e12(k):
    rng = np.random.default_rng(k)
    q = np.concatenate([rng.uniform(0, 12, RANGE_SF_DIRECT_MAX + 500), [0.0, 40.0]])
    got = range_sf(q, k)
    ref = stats.studentized_range.sf(q, k, np.inf)
    assert np.abs(got - ref).max() <= 1.2e-12
    # few distinct values: each is the integral itself (scipy's, or in the tail the log-space one)
    few = np.repeat(q[:50], 3)
    ref = stats.studentized_range.sf(few, k, np.inf)
    body = ref >= RANGE_TAIL
    assert (range_sf(few, k)[body] == ref[body]).all()
    assert np.allclose(range_sf(few, k)[~body], np.exp(log_range_tail(few[~body], k)),
                       rtol=1e-15, atol=0)
    assert np.abs(range_sf(few, k) - ref).max() <= 1e-13
    assert range_sf(np.array([np.inf, np.nan]), k)[0] == 0.0


def test_studentized_range_tail_keeps_its_relative_precision():
    """scipy's and R's tail stops at about 1e-16 (1 − cdf); rankwise's does not: k = 2 is the
    closed form 2·Φ̄(q/√2) to 1e-12 relative up to p ≈ 1e-134, and for any k the tail
    approaches the sum over the k(k − 1)/2 pairs; the interpolated path keeps 1e-7 relative."""
    q = np.linspace(0.5, 35, 300)
    closed = np.log(2) + stats.norm.logsf(q / np.sqrt(2))
    assert np.abs(np.exp(log_range_tail(q, 2) - closed) - 1).max() < 1e-12
    assert np.abs(range_sf(q, 2) / np.exp(closed) - 1).max() < 1e-9
    for k in (3, 10, 100, 1000):
        big = np.array([16.0, 20.0, 30.0])
        pairs = np.log(k * (k - 1)) + stats.norm.logsf(big / np.sqrt(2))
        assert np.allclose(log_range_tail(big, k), pairs, atol=1e-6)
        many = np.linspace(0.01, 30, RANGE_SF_DIRECT_MAX + 2000)
        exact = range_sf(many[:RANGE_SF_DIRECT_MAX], k)
        interp = range_sf(many, k)[:RANGE_SF_DIRECT_MAX]
        assert np.abs(interp / exact - 1).max() < 1e-7
        assert (range_sf(np.array([30.0]), k) > 0).all()  # not 1.1e-16, not 0


def _bron_kerbosch(sig):
    """The maximal cliques of the non-significance graph (the former implementation)."""
    k = sig.shape[0]
    adj = [set(j for j in range(k) if j != i and not sig[i, j]) for i in range(k)]
    found = []

    def expand(r, p, x):
        if not p and not x:
            if len(r) >= 2:
                found.append(frozenset(r))
            return
        for v in sorted(p):
            expand(r | {v}, p & adj[v], x & adj[v])
            p = p - {v}
            x = x | {v}

    expand(set(), set(range(k)), set())
    return set(found)


def test_cd_groups_are_the_maximal_cliques_when_decisions_follow_the_ranks():
    rng = np.random.default_rng(11)
    for _ in range(300):
        k = int(rng.integers(2, 12))
        r = rng.permutation(np.round(rng.uniform(1, k, k), 1))  # ties and any order
        sig = np.abs(r[:, None] - r[None, :]) >= rng.uniform(0.3, 3)
        groups = cliques(r, sig)
        assert {frozenset(g) for g in groups} == _bron_kerbosch(sig)
        for g in groups:  # in mean-rank order, ordered by first member
            assert list(g) == sorted(g, key=lambda i: (r[i], i))
        assert [r[g[0]] for g in groups] == sorted(r[g[0]] for g in groups)


def test_cd_groups_are_runs_when_decisions_do_not_follow_the_ranks():
    # A (rank 1) and C (rank 3) not different, but B (rank 2) differs from A: no bar can join
    # A and C without drawing one over B.
    r = np.array([1.0, 2.0, 3.0])
    sig = np.array([[0, 1, 0], [1, 0, 0], [0, 0, 0]], dtype=bool)
    assert cliques(r, sig) == [(1, 2)]
    rng = np.random.default_rng(5)
    for _ in range(200):
        k = int(rng.integers(2, 10))
        r = rng.uniform(1, k, k)
        upper = np.triu(rng.uniform(size=(k, k)) < 0.3, 1)
        sig = upper | upper.T
        order = list(np.lexsort((np.arange(k), r)))
        groups = cliques(r, sig)
        for g in groups:
            pos = [order.index(i) for i in g]
            assert pos == list(range(pos[0], pos[0] + len(g)))  # consecutive
            assert not sig[np.ix_(g, g)].any()
        # every non-significant neighbour pair is in some group
        for a, b in zip(order, order[1:]):
            if not sig[a, b]:
                assert any(a in g and b in g for g in groups)


def test_effects_auto_covers_all_pairs_up_to_5000_then_the_verdict():
    rng = np.random.default_rng(2)
    k, n = 102, 21  # 5,151 pairs (N >= 20: no permutation p-value to wait for)
    x = np.round(rng.normal(0.7, 0.05, (n, k)) + np.linspace(0, 0.1, k), 3)
    import pandas as pd

    t = pd.DataFrame(x, columns=[f"c{j}" for j in range(k)], index=[f"d{i}" for i in range(n)])
    cmp = compare(t, posthoc="all", tests=("friedman",), procedures=("holm",))
    assert len(cmp.effects) == k - 1
    assert cmp.settings["effects_pairs"] == "verdict"
    assert any("the 101 pairs the verdict speaks of, not for all 5,151" in note
               for note in cmp.notes)
    full = compare(t, posthoc="all", tests=("friedman",), procedures=("holm",), effects="all")
    assert len(full.effects) == k * (k - 1) // 2
    assert full.settings["effects_pairs"] == "all"
    assert not any("verdict speaks of" in note for note in full.notes)
    small = compare(t.iloc[:, :20], posthoc="all", tests=("friedman",))
    assert len(small.effects) == 190
    assert len(compare(t, effects="none").effects) == 0
    with pytest.raises(Exception, match="effects must be one of"):
        compare(t, effects="some")


def test_effects_json_columns_from_the_arrays_equal_those_from_the_objects():
    from rankwise.analysis.effect_columns import effects_columns
    from rankwise.stats.results import jsonable

    rng = np.random.default_rng(9)
    x = _random_table(rng, 30, 6, 3)
    names = [f"L{j}" for j in range(6)]
    pairs = list(itertools.combinations(range(6), 2))
    table = fxa.effect_sizes_all(x, pairs, names)
    fast = jsonable(effects_columns(table, names))
    slow = jsonable(effects_columns(list(table), names))
    assert fast == slow


@pytest.mark.parametrize("hib,ties_rule,decimals", [(True, "split", 12), (False, "drop", 2),
                                                    (True, "drop", None)])
def test_sign_tests_of_all_pairs_equal_the_two_learner_test(hib, ties_rule, decimals):
    from rankwise.stats.pairwise import pairwise_statistics
    from rankwise.stats.two_learners import sign_test

    rng = np.random.default_rng(3)
    x = np.round(rng.normal(0.7, 0.05, (23, 7)), 2)
    x[:, 3] = x[:, 2]  # every data set a tie
    st = pairwise_statistics(x, "sign", higher_is_better=hib, sign_ties=ties_rule,
                             decimals=decimals)
    for i, j in itertools.combinations(range(7), 2):
        ref = sign_test(x[:, i], x[:, j], higher_is_better=hib, ties=ties_rule,
                        decimals=decimals)
        assert st.pvalues[i, j] == st.pvalues[j, i] == ref.pvalue
        assert st.statistics[i, j] == ref.statistic


@pytest.mark.parametrize("method,convention,correction,zero_method", [
    ("auto", "default", False, "demsar"), ("exact", "default", False, "pratt"),
    ("normal", "default", True, "zsplit"), ("normal", "paper", False, "wilcox")])
def test_wilcoxon_tests_of_all_pairs_equal_the_two_learner_test(method, convention, correction,
                                                                 zero_method):
    from rankwise.stats.pairwise import pairwise_statistics
    from rankwise.stats.two_learners import wilcoxon

    rng = np.random.default_rng(8)
    for n, places in ((14, 2), (30, 3), (60, 3)):
        x = np.round(rng.normal(0.7, 0.05, (n, 6)), places)
        x[: n // 3, 1] = x[: n // 3, 0]  # zero differences: the one-pair path
        x[:, 4] = np.round(x[:, 3] + np.arange(1, n + 1) * 10.0 ** -places, places)  # untied
        x[:, 5] = x[:, 2]  # every difference zero
        for hib in (True, False):
            st = pairwise_statistics(x, "wilcoxon", higher_is_better=hib, convention=convention,
                                     wilcoxon_method=method, zero_method=zero_method,
                                     correction=correction)
            for i, j in itertools.combinations(range(6), 2):
                ref = wilcoxon(x[:, i], x[:, j], higher_is_better=hib, method=method,
                               convention=convention, correction=correction,
                               zero_method=zero_method)
                assert st.pvalues[i, j] == st.pvalues[j, i] == ref.pvalue, (n, i, j)
                assert st.statistics[i, j] == ref.statistic
