"""Permutation p-values for small tables, against brute-force enumeration, the Monte Carlo, the
chi-square for larger tables, and a null simulation."""

import itertools

import numpy as np
import pytest
from scipy import stats

from rankwise import compare, load_example
from rankwise.stats.exact import (friedman_permutation_pvalue,
                                  friedman_sum_of_squares_distribution)
from rankwise.stats.omnibus import friedman, iman_davenport
from rankwise.stats.ranking import midranks


def _brute_force(ranks):
    """Every arrangement of every data set's ranks: the distribution of Σ R_j² (doubled)."""
    rows = [sorted(set(itertools.permutations((2 * r).astype(int).tolist()))) for r in ranks]
    counts = {}
    for combo in itertools.product(*rows):
        total = int((np.sum(combo, axis=0) ** 2).sum())
        counts[total] = counts.get(total, 0) + 1
    size = sum(counts.values())
    values = np.array(sorted(counts))
    return values, np.array([counts[v] / size for v in values])


@pytest.mark.parametrize("k, n", [(3, 2), (3, 4), (3, 6), (4, 2), (4, 3), (4, 4)])
def test_exact_friedman_distribution_equals_enumeration(k, n):
    rng = np.random.default_rng(k * 10 + n)
    for _ in range(3):
        x = rng.integers(0, 3 if _ else 100, size=(n, k)).astype(float)  # with and without ties
        ranks = midranks(x)
        values, probs = friedman_sum_of_squares_distribution(ranks)
        ref_values, ref_probs = _brute_force(ranks)
        assert values.tolist() == ref_values.tolist()
        assert probs == pytest.approx(ref_probs, abs=1e-13)
        observed = int(((2 * ranks).sum(axis=0) ** 2).sum())
        expected = float(ref_probs[ref_values >= observed].sum())
        assert friedman_permutation_pvalue(ranks, method="exact")["pvalue"] == \
            pytest.approx(expected, abs=1e-13)


def test_monte_carlo_agrees_with_exact_and_says_how_sure_it_is():
    x = load_example("demsar2006_table6").values
    exact = friedman(x, method="exact")
    mc = friedman(x, method="monte-carlo")
    assert exact.method == "exact" and mc.method == "monte-carlo"
    se = mc.details["monte_carlo_standard_error"]
    assert mc.details["monte_carlo_replicates"] == 100_000 and 0 < se < 0.001
    assert abs(mc.pvalue - exact.pvalue) <= 4 * se
    assert friedman(x, method="monte-carlo").pvalue == mc.pvalue  # seeded
    # Iman-Davenport's F increases with the statistic: the same permutation p-value
    assert iman_davenport(x, method="exact").pvalue == exact.pvalue


def test_auto_rule_and_the_paper_convention():
    small = load_example("demsar2006_table6")  # 14 data sets
    auto = friedman(small.values)
    assert auto.method == "exact" and auto.details["pvalue_chi2"] == pytest.approx(
        friedman(small.values, method="chi2").pvalue)
    assert friedman(small.values, convention="paper").method == "chi2"
    big = load_example("garcia2010")  # 24 data sets
    assert friedman(big.values).method == "chi2"
    cmp = compare(small)
    assert cmp.tests["friedman"].method == "exact" == cmp.tests["iman_davenport"].method
    assert compare(small, friedman_method="chi2").tests["friedman"].method == "chi2"


def test_exact_approaches_chi_square_as_n_grows():
    rng = np.random.default_rng(5)
    for n in (30, 45):
        x = rng.normal(size=(n, 3))
        x[:, 0] += 0.5
        assert friedman(x, method="exact").pvalue == pytest.approx(
            friedman(x, method="chi2").pvalue, abs=0.02)


def test_permutation_friedman_holds_its_level():
    """Null simulation at k = 4, N = 8 (ties from one decimal): the permutation p-value rejects
    at most alpha of the time (discreteness makes it a little conservative)."""
    rng = np.random.default_rng(6)
    rejections = 0
    reps = 400
    for _ in range(reps):
        x = np.round(rng.normal(size=(8, 4)), 1)
        rejections += friedman(x).pvalue <= 0.05
    assert rejections / reps <= 0.05 + 2 * np.sqrt(0.05 * 0.95 / reps)


def _pair_brute_force(ranks, a, b):
    rows = [sorted(set(itertools.permutations((2 * r).astype(int).tolist()))) for r in ranks]
    counts, size = {}, 0
    for combo in itertools.product(*rows):
        s = np.sum(combo, axis=0)
        d = int(s[a] - s[b])
        counts[d] = counts.get(d, 0) + 1
        size += 1
    return {d: c / size for d, c in counts.items()}


@pytest.mark.parametrize("k, n", [(3, 3), (3, 5), (4, 3), (4, 4)])
def test_eisinga_distribution_equals_enumeration(k, n):
    """The exact distribution of a rank-sum difference, with and without ties, against every
    arrangement enumerated; the same for every pair of learners; p-values from its tails."""
    from rankwise.stats.exact import eisinga_pvalues, rank_sum_difference_distribution

    rng = np.random.default_rng(100 + k * 10 + n)
    for tied in (False, True):
        x = rng.integers(0, 3 if tied else 1000, size=(n, k)).astype(float)
        ranks = midranks(x)
        values, probs = rank_sum_difference_distribution(ranks)
        for a, b in ((0, 1), (k - 1, 0)):
            ref = _pair_brute_force(ranks, a, b)
            got = {int(v): p for v, p in zip(values, probs) if p > 0}
            assert set(got) == set(ref)
            assert all(got[d] == pytest.approx(ref[d], abs=1e-13) for d in ref)
        p = eisinga_pvalues(ranks)
        sums = (2 * ranks).sum(axis=0)
        ref = _pair_brute_force(ranks, 0, 1)
        d = abs(sums[0] - sums[1])
        assert p[0, 1] == pytest.approx(sum(q for v, q in ref.items() if abs(v) >= d), abs=1e-13)


def test_eisinga_moments_without_ties():
    """Without ties Var(R_a − R_b) = n·k(k+1)/6 (in rank units), the variance behind the
    friedman z-tests."""
    from rankwise.stats.exact import rank_sum_difference_distribution

    n, k = 12, 6
    ranks = np.tile(np.arange(1.0, k + 1), (n, 1))
    values, probs = rank_sum_difference_distribution(ranks)
    d = values / 2.0
    assert probs.sum() == pytest.approx(1.0) and (d * probs).sum() == pytest.approx(0.0)
    assert (d ** 2 * probs).sum() == pytest.approx(n * k * (k + 1) / 6)


def test_friedman_exact_ranking_in_compare_and_its_level():
    from rankwise.posthoc import adjusted_pvalues
    from rankwise.stats.pairwise import pairwise_statistics

    cmp = compare(load_example("demsar2006_table6"), posthoc="all",
                  rankings=["friedman", "friedman_exact"],
                  procedures=["holm", "shaffer", "bergmann_hommel", "nemenyi"])
    entry = cmp.to_dict()["posthoc"]["friedman_exact"]
    assert entry["method"] == "exact" and entry["statistic"] == "R_a - R_b (rank sums)"
    assert set(entry["all_pairs"][0]["apv"]) == {"holm", "shaffer", "bergmann_hommel"}
    alone = compare(load_example("demsar2006_table6"), posthoc="all")
    assert any("friedman_exact" in n for n in alone.to_dict()["posthoc"]["friedman"]["notes"])
    rng = np.random.default_rng(7)
    hits = 0
    for _ in range(300):
        x = rng.normal(size=(10, 4))
        _, _, apv, _, _ = adjusted_pvalues(pairwise_statistics(x, "friedman_exact"),
                                           "all_pairs", ("holm",))
        hits += bool((apv["holm"] <= 0.05).any())
    assert hits / 300 <= 0.05 + 2 * np.sqrt(0.05 * 0.95 / 300)


def test_small_sample_guidance_in_the_notes():
    """Below 20 data sets the notes say how large a mean-rank difference can be detected (the
    CDs the figures draw) and flag an approximate Friedman p-value; from 20 on they do not."""
    small = compare(load_example("demsar2006_table6"))
    cd = small.critical_difference
    guidance = [n for n in small.notes if n.startswith("Small sample (N = 14, k = 4")]
    assert len(guidance) == 1 and f"{cd.nemenyi:.4f}" in guidance[0]
    assert f"{cd.bonferroni_dunn:.4f}" in guidance[0]
    assert not any("rough with" in n for n in small.notes)
    forced = compare(load_example("demsar2006_table6"), friedman_method="chi2")
    assert sum("rough with 14 data sets" in n for n in forced.notes) == 2
    assert not any(n.startswith("Small sample") for n in compare(load_example("garcia2010")).notes)


def _skillings_mack_reduced(x, higher_is_better=True):
    """Skillings & Mack's own form: drop the last learner's row and column of the covariance
    and invert the (then regular) matrix; written out with loops."""
    n, k = x.shape
    a = np.zeros(k)
    lam = np.zeros((k, k))
    for row in x:
        cols = [j for j in range(k) if not np.isnan(row[j])]
        if len(cols) < 2:
            continue
        vals = np.array([row[j] for j in cols])
        r = stats.rankdata(-vals if higher_is_better else vals)
        for j, rank in zip(cols, r):
            a[j] += np.sqrt(12 / (len(cols) + 1)) * (rank - (len(cols) + 1) / 2)
        for s in cols:
            for t in cols:
                if s != t:
                    lam[s, t] += 1
    cov = -lam.copy()
    for s in range(k):
        cov[s, s] = lam[s].sum()
    return float(a[:-1] @ np.linalg.inv(cov[:-1, :-1]) @ a[:-1])


def test_skillings_mack_against_friedman_its_own_form_and_under_h0():
    from rankwise import skillings_mack

    rng = np.random.default_rng(8)
    x = rng.normal(size=(15, 5))
    assert skillings_mack(x).statistic == pytest.approx(
        friedman(x, convention="paper").statistic, rel=1e-12)
    for _ in range(20):
        y = rng.normal(size=(int(rng.integers(6, 25)), int(rng.integers(3, 6))))
        holes = rng.random(y.shape) < 0.15
        y[holes] = np.nan
        res = skillings_mack(y, permutation=False)
        if res.df[0] == y.shape[1] - 1:
            assert res.statistic == pytest.approx(_skillings_mack_reduced(y), rel=1e-9)
    # one data set with a single value is left out and counted
    z = x.copy()
    z[0, 1:] = np.nan
    res = skillings_mack(z)
    assert res.details["n_dropped_datasets"] == 1 and res.details["n"] == 14
    assert res.method == "monte-carlo" and res.details["monte_carlo_standard_error"] > 0
    # null simulation with 15 % missing cells: the chi-square p-value holds its level
    hits = 0
    for _ in range(400):
        y = rng.normal(size=(30, 4))
        y[rng.random(y.shape) < 0.15] = np.nan
        hits += skillings_mack(y, permutation=False).pvalue <= 0.05
    assert hits / 400 <= 0.05 + 2 * np.sqrt(0.05 * 0.95 / 400)
