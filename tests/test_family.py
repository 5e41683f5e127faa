"""Kendall's W, Page's trend test and Durbin's test: the published numbers (R's RoundingTimes,
scipy's docstring table, Conover's ice-cream design as PMCMRplus's example), their formulas
written out, and Durbin's test chosen by compare for a balanced incomplete design."""

import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import rankwise
from rankwise.errors import RankwiseError
from rankwise.stats.family import (durbin, durbin_conover, is_balanced_incomplete, kendalls_w,
                                   page_trend)

ROUNDING_TIMES = np.array([
    [5.40, 5.50, 5.55], [5.85, 5.70, 5.75], [5.20, 5.60, 5.50], [5.55, 5.50, 5.40],
    [5.90, 5.85, 5.70], [5.45, 5.55, 5.60], [5.40, 5.40, 5.35], [5.45, 5.50, 5.35],
    [5.25, 5.15, 5.00], [5.85, 5.80, 5.70], [5.25, 5.20, 5.10], [5.65, 5.55, 5.45],
    [5.60, 5.35, 5.45], [5.05, 5.00, 4.95], [5.50, 5.50, 5.40], [5.45, 5.55, 5.50],
    [5.55, 5.55, 5.35], [5.45, 5.50, 5.55], [5.50, 5.45, 5.25], [5.65, 5.60, 5.40],
    [5.70, 5.65, 5.55], [6.30, 6.30, 6.25]])
N = np.nan
ICE_CREAM = np.array([[2, 3, N, 1, N, N, N], [N, 3, 1, N, 2, N, N], [N, N, 2, 1, N, 3, N],
                      [N, N, N, 1, 2, N, 3], [3, N, N, N, 1, 2, N], [N, 3, N, N, N, 1, 2],
                      [3, N, 1, N, N, N, 2]])


def test_kendalls_w_on_rs_rounding_times_and_as_friedman_over_n_k_minus_1():
    w = kendalls_w(ROUNDING_TIMES, higher_is_better=False)
    assert round(w.w, 4) == 0.2532                   # R: friedman.test 11.143 / (22 * 2)
    chi2 = stats.friedmanchisquare(*ROUNDING_TIMES.T).statistic   # tie-corrected
    assert w.w == pytest.approx(chi2 / (22 * 2), rel=1e-12)
    assert w.low <= w.w <= w.high and 0 <= w.low and w.high <= 1
    assert w.diversity == pytest.approx(1 - w.w)
    rng = np.random.default_rng(1)
    for _ in range(5):
        x = rng.integers(0, 4, (12, 5)).astype(float)          # many ties
        fried = rankwise.friedman(x)
        assert kendalls_w(x, draws=200).w == pytest.approx(fried.statistic / (12 * 4),
                                                           rel=1e-12)
    # the same seed, the same interval; a perfectly concordant table has W = 1
    assert kendalls_w(ROUNDING_TIMES, seed=3).low == kendalls_w(ROUNDING_TIMES, seed=3).low
    same = np.tile(np.arange(4.0), (6, 1))
    assert kendalls_w(same, draws=100).w == pytest.approx(1.0)


def _tie_terms_row_by_row(r):
    """The loop the tie terms were computed with before: np.unique row by row."""
    out = np.zeros(r.shape[0])
    for i, row in enumerate(np.sort(r, axis=1)):
        _, counts = np.unique(row, return_counts=True)
        out[i] = float(np.sum(counts ** 3 - counts))
    return out


def test_tie_terms_of_all_rows_at_once_equal_the_row_by_row_loop():
    from rankwise.stats.family import _tie_terms
    rng = np.random.default_rng(7)
    for k in (1, 2, 3, 8, 50):
        for levels in (1, 2, 5, 40):   # 1: every row tied throughout
            # over 8,192 rows: more than one block of rows
            r = rng.integers(0, levels, (300 if k < 8 else 9000, k)) / 2.0
            r[rng.random(r.shape) < 0.05] = np.nan   # NaNs tie with each other, as np.unique
            got, ref = _tie_terms(r), _tie_terms_row_by_row(r)
            assert got.dtype == ref.dtype and np.array_equal(got, ref)
    assert _tie_terms(np.zeros((0, 4))).shape == (0,)
    assert _tie_terms(np.array([[-0.0, 0.0, 1.0]])).tolist() == [6.0]


@pytest.mark.subprocess
def test_compare_makes_no_python_call_per_data_set():
    """The analysis of 4,000 data sets makes no more Python calls than that of 400: nothing on
    the compare path (Kendall's W's tie terms were one np.unique a row) loops over rows.
    Counted in a process of its own: what earlier tests left behind in a worker (warning
    filters, caches) must not count."""
    import subprocess
    import sys

    code = """
import cProfile, json, pstats, sys
import numpy as np, rankwise

def calls(n):
    table = np.random.default_rng(0).integers(0, 6, (n, 8)).astype(float)
    profile = cProfile.Profile()
    profile.runcall(rankwise.compare, table, posthoc="all")
    stats = pstats.Stats(profile)
    return stats.total_calls, {f"{k[0].split('/')[-1]}:{k[2]}": v[1]
                               for k, v in stats.stats.items()}

(small, a), (large, b) = calls(400), calls(4000)
grown = sorted(((b[k] - a.get(k, 0), k) for k in b), reverse=True)[:5]
print(json.dumps([small, large, grown]))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    small, large, grown = json.loads(out.stdout.strip().splitlines()[-1])
    assert large < small + 1000, (small, large, grown)


def test_page_on_scipys_table_and_the_direction():
    table = [[3, 4, 3], [2, 2, 4], [3, 3, 5], [1, 3, 2], [2, 3, 2], [2, 4, 5], [1, 2, 4],
             [3, 4, 4], [2, 4, 5], [1, 3, 4]]
    names = ["tutorial", "lecture", "seminar"]
    r = page_trend(table, names, learners=names)
    # exact given the ties; scipy's P(L* >= floor(L)) of the untied distribution is kept by name
    assert (r.statistic, round(r.pvalue, 6), r.method) == (133.5, 0.000384, "exact")
    assert r.details["pvalue_method"] == "exact given the ties"
    assert round(r.details["scipy_conservative_pvalue"], 7) == 0.0018191
    assert any("scipy-conservative" in note for note in r.notes)
    old = page_trend(table, names, learners=names, method="scipy-conservative")
    assert (round(old.pvalue, 7), old.method) == (0.0018191, "scipy-conservative")
    assert old.pvalue == stats.page_trend_test(table, method="exact").pvalue
    # the normal approximation takes the variance given the ties; scipy's is kept by name
    normal = page_trend(table, names, learners=names, method="asymptotic")
    untied = page_trend(table, names, learners=names, method="scipy-asymptotic")
    assert untied.pvalue == pytest.approx(0.0012693433690751756, rel=1e-9)
    assert untied.pvalue == stats.page_trend_test(table, method="asymptotic").pvalue
    assert normal.pvalue < untied.pvalue and normal.method == "asymptotic"
    assert normal.details["scipy_asymptotic_pvalue"] == untied.pvalue
    assert any("scipy-asymptotic" in note for note in normal.notes)
    # the order is of performance: lower-is-better scores are turned round first
    low = page_trend(-np.array(table, float), names, learners=names, higher_is_better=False)
    assert low.statistic == pytest.approx(133.5)
    assert page_trend(table, names[::-1], learners=names).statistic < 120
    with pytest.raises(RankwiseError, match="at least three different learners"):
        page_trend(table, ["tutorial", "nope", "seminar"], learners=names)


def _page_brute_force(ranks):
    """P(L* >= L) over every combination of a permutation of each row's ranks."""
    import itertools
    n, k = ranks.shape
    weights = np.arange(1, k + 1)
    observed = (ranks * weights).sum()
    rows = [[row[list(p)] @ weights for p in itertools.permutations(range(k))] for row in ranks]
    sums = np.zeros(1)
    for row in rows:
        sums = (sums[:, None] + np.array(row)[None, :]).ravel()
    return float(np.mean(sums >= observed - 1e-9))


def test_page_exact_p_given_ties_is_the_brute_force_permutation_p():
    from rankwise.stats.family import page_exact_pvalue
    from rankwise.stats.ranking import midranks
    rng = np.random.default_rng(11)
    for n, k in [(2, 3), (3, 3), (5, 3), (2, 4), (3, 4), (2, 5)]:
        for levels in (1, 2, 3, 10):          # 1: every row tied throughout (p = 1)
            x = rng.integers(0, levels, (n, k)).astype(float)
            ranks = midranks(x)
            assert page_exact_pvalue(ranks) == pytest.approx(_page_brute_force(ranks),
                                                             rel=1e-12, abs=1e-15)
    # through page_trend, with the direction turned round and the learners reordered
    x = rng.integers(0, 3, (4, 4)).astype(float)
    names = ["a", "b", "c", "d"]
    got = page_trend(-x[:, ::-1], names[::-1], learners=names, higher_is_better=False)
    assert got.pvalue == pytest.approx(_page_brute_force(midranks(x)), rel=1e-12)


def test_page_normal_variance_given_ties_is_the_brute_force_permutation_variance():
    """Var(L) over every combination of a permutation of each row's mid-ranks (the rows of a
    small tied table enumerated jointly) is page_variance's; the asymptotic p-value is the
    normal tail with it, and without ties it is scipy's (Page's variance) to the last bit."""
    import itertools

    from rankwise.stats.family import page_normal_pvalue, page_variance
    from rankwise.stats.ranking import midranks
    x = np.array([[1, 1, 2, 3], [2, 2, 2, 1], [0, 1, 1, 0], [5, 5, 5, 5]], float)
    ranks = midranks(x)
    n, k = ranks.shape
    weights = np.arange(1, k + 1)
    values = np.zeros(1)       # L over every joint choice of one permutation per row
    for row in ranks:
        per_row = [row[list(p)] @ weights for p in itertools.permutations(range(k))]
        values = (values[:, None] + np.array(per_row)[None, :]).ravel()
    assert values.size == 24 ** 4
    brute_var = float(np.var(values))
    assert float(page_variance(ranks)) == pytest.approx(brute_var, rel=1e-12)
    untied = n * k ** 2 * (k + 1) * (k ** 2 - 1) / 144
    assert brute_var < untied                       # ties shrink the variance
    big_l, p = page_normal_pvalue(ranks)
    mean = float(np.mean(values))
    assert float(p) == pytest.approx(stats.norm.sf((big_l - mean) / np.sqrt(brute_var)),
                                     rel=1e-12)
    names = list("abcd")
    r = page_trend(x, names, learners=names, method="asymptotic")
    assert r.pvalue == pytest.approx(float(p), rel=1e-12)
    assert r.details["pvalue_method"] == "asymptotic given the ties"
    # every row tied throughout: L is its mean whatever the order, p = 1 (not NaN)
    assert page_trend(np.ones((3, 4)), names, learners=names, method="asymptotic").pvalue == 1
    # without ties: scipy's value itself
    rng = np.random.default_rng(5)
    clean = np.array([rng.permutation(5) for _ in range(30)], float) + np.arange(5) * 0.2
    names5 = list("abcde")
    assert page_trend(clean, names5, learners=names5).pvalue == \
        stats.page_trend_test(clean, method="asymptotic").pvalue
    assert float(page_variance(midranks(clean))) == 30 * 25 * 6 * 24 / 144


def test_page_exact_p_given_ties_of_many_learners_is_the_monte_carlo_p():
    """10 to 12 learners with ties (scipy's exact p would enumerate 12! orders): the exact p
    given the ties against a Monte Carlo of the within-row permutations."""
    from rankwise.stats.ranking import midranks
    rng = np.random.default_rng(13)
    for k in (10, 12):
        x = rng.integers(0, 4, (5, k)) + (np.arange(k) // 3) * 0.5   # ties, a slight trend
        names = [str(j) for j in range(k)]
        r = page_trend(x, names, learners=names, method="exact")
        assert r.details["pvalue_method"] == "exact given the ties"
        assert "scipy_conservative_pvalue" not in r.details
        ranks = midranks(np.round(x, 12))
        draws = 100_000
        perm = np.argsort(rng.random((draws, 5, k)), axis=2)
        sums = (np.take_along_axis(np.broadcast_to(ranks, perm.shape), perm, axis=2)
                * np.arange(1, k + 1)).sum(axis=(1, 2))
        p = np.mean(sums >= r.statistic - 1e-9)
        assert abs(r.pvalue - p) < 4 * np.sqrt(p * (1 - p) / draws) + 1e-4
    x = rng.integers(0, 3, (4, 13)).astype(float)
    names = [str(j) for j in range(13)]
    with pytest.raises(RankwiseError, match="up to 12 learners"):
        page_trend(x, names, learners=names, method="exact")


def test_page_exact_p_without_ties_is_scipys():
    from rankwise.stats.family import page_exact_pvalue
    from rankwise.stats.ranking import midranks
    rng = np.random.default_rng(12)
    for n, k in [(3, 3), (12, 3), (20, 3), (5, 5), (12, 4), (10, 6), (12, 8)]:
        for _ in range(3):
            x = np.array([rng.permutation(k) for _ in range(n)], float) + np.arange(k) * 0.3
            scipy_p = stats.page_trend_test(x, method="exact").pvalue
            assert page_exact_pvalue(midranks(x)) == pytest.approx(scipy_p, rel=1e-12)
            names = [str(j) for j in range(k)]
            r = page_trend(x, names, learners=names)     # without ties: scipy's value itself
            assert (r.pvalue, r.method) == (scipy_p, "exact")
            assert "scipy_conservative_pvalue" not in r.details
    # above scipy's exact sizes "auto" stays asymptotic, ties or not
    x = rng.integers(0, 3, (30, 5)).astype(float)
    names = [str(j) for j in range(5)]
    assert page_trend(x, names, learners=names).method == "asymptotic"


def test_durbin_on_conovers_ice_cream_and_its_formula():
    assert is_balanced_incomplete(ICE_CREAM)
    r = durbin(ICE_CREAM, higher_is_better=False)
    assert round(r.statistic, 2) == 12.00 and round(r.pvalue, 3) == 0.062
    assert round(r.details["f_statistic"], 2) == 8.00 and r.details["f_df"] == [6, 8]
    assert round(r.details["f_pvalue"], 4) == 0.0049
    # T1 written out: the ranks are the data (3 per judge, no ties)
    b, k, c, rep = 7, 7, 3, 3
    sums = np.nansum(ICE_CREAM, axis=0)
    a, cc = np.nansum(ICE_CREAM ** 2), b * c * (c + 1) ** 2 / 4
    assert r.statistic == pytest.approx((k - 1) * (np.sum(sums ** 2) - rep * cc) / (a - cc))
    # the direction changes nothing (every rank reversed within its judge)
    assert durbin(ICE_CREAM, higher_is_better=True).statistic == pytest.approx(r.statistic)
    p = durbin_conover(ICE_CREAM, higher_is_better=False)
    assert p.shape == (7, 7) and np.allclose(p, p.T) and (np.diag(p) == 1).all()
    t = abs(sums[0] - sums[3]) / np.sqrt(2 * rep * (a - cc) / 8 * (1 - 12 / (b * (c - 1))))
    assert p[0, 3] == pytest.approx(2 * stats.t.sf(t, 8), rel=1e-12)
    unbalanced = ICE_CREAM.copy()
    unbalanced[0, 2] = 5.0
    assert not is_balanced_incomplete(unbalanced)
    with pytest.raises(RankwiseError, match="balanced incomplete block design"):
        durbin(unbalanced)


def test_compare_chooses_durbin_for_a_balanced_incomplete_design_and_says_so():
    frame = pd.DataFrame(ICE_CREAM, columns=list("ABCDEFG"))
    frame.insert(0, "dataset", [f"judge{i}" for i in range(7)])
    table = rankwise.load_table(frame, missing="skillings-mack", higher_is_better=False)
    cmp = rankwise.compare(table)
    assert list(cmp.tests) == ["durbin", "skillings_mack"]
    assert cmp.verdict.gate.test == "durbin"
    assert "Durbin's test does not reject" in cmp.verdict.text
    assert any("balanced incomplete block design" in n for n in cmp.notes)
    assert any("No effect sizes for" in n for n in cmp.notes)   # pairs share one judge
    unbalanced = frame.copy()
    unbalanced.loc[0, "C"] = 1.5
    cmp = rankwise.compare(rankwise.load_table(unbalanced, missing="skillings-mack",
                                               higher_is_better=False))
    assert list(cmp.tests) == ["skillings_mack"]


def test_a_rejected_durbin_test_is_followed_by_the_durbin_conover_comparisons():
    three = np.vstack([ICE_CREAM] * 3)          # the design three times: 21 judges
    frame = pd.DataFrame(three, columns=list("ABCDEFG"))
    frame.insert(0, "dataset", [f"judge{i}" for i in range(21)])
    table = rankwise.load_table(frame, missing="skillings-mack", higher_is_better=False)
    cmp = rankwise.compare(table, effects="none")
    assert cmp.verdict.gate.test == "durbin" and cmp.verdict.gate.passed
    assert "Durbin-Conover" in cmp.verdict.text
    # the verdict's Holm against the best equals Holm on durbin_conover's column of the best
    p = durbin_conover(three, higher_is_better=False)
    best = list(table.learners).index(cmp.verdict.best)
    others = [j for j in range(7) if j != best]
    holm = rankwise.adjust(p[best, others], "holm")
    losers = {table.learners[j] for j, q in zip(others, holm) if q <= 0.05}
    assert set(cmp.verdict.losers) == losers and losers


def test_compare_runs_pages_test_on_the_trend_it_is_given(cli):
    table = rankwise.load_example("garcia2008")
    order = ["Kernel", "CN2", "1-NN"]
    cmp = rankwise.compare(table, trend=order)
    direct = page_trend(table.values, order, learners=table.learners)
    assert cmp.tests["page"].statistic == direct.statistic
    assert cmp.tests["page"].pvalue == pytest.approx(direct.pvalue, rel=1e-12)
    assert cmp.verdict.gate.test == "iman_davenport"          # Page's test does not decide
    code, out, err = cli("compare", "--example", "garcia2008", "--trend", "Kernel,CN2,1-NN",
                         "--format", "json")
    assert code == 0 and '"page"' in out
    for bad, words in ((["Kernel", "CN2"], "at least three"), (["Kernel", "CN2", "nope"],
                                                               "nope")):
        with pytest.raises(RankwiseError, match=words):
            rankwise.compare(table, trend=bad)
    holes = table.values.copy()
    holes[0, 0] = np.nan
    with pytest.raises(RankwiseError, match="complete table"):
        rankwise.compare(holes, trend=["L1", "L2", "L3"], missing="skillings-mack")
