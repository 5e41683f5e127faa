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


@pytest.mark.large
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


@pytest.mark.simulation
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


@pytest.mark.large
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


@pytest.mark.simulation
def test_friedman_exact_ranking_in_compare_and_its_level():
    from rankwise.stats.pairwise import adjusted_pvalues
    from rankwise.stats.pairwise import pairwise_statistics

    cmp = compare(load_example("demsar2006_table6"), posthoc="all",
                  rankings=["friedman", "friedman_exact"],
                  procedures=["holm", "shaffer", "bergmann_hommel", "nemenyi"])
    entry = cmp.to_dict()["posthoc"]["friedman_exact"]
    assert entry["method"] == "exact" and entry["statistic"] == "R_a - R_b (rank sums)"
    assert set(entry["all_pairs"]["apv"]) == {"holm", "shaffer", "bergmann_hommel"}
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


# Ruijter et al. (2013) Table 2, the example of Eisinga et al. (2017, Table 5), as PMCMRplus ships
# it (data set ``qPCR``): four criteria (rows) ranking eleven qPCR curve-analysis methods.
QPCR_METHODS = ["Cy0", "LinRegPCR", "Standard_Cq", "PCR_Miner", "MAK2", "LRE_E100", "5PSM",
                "DART", "FPLM", "LRE_Emax", "FPK_PCR"]
QPCR = np.array([
    [1.98, 6.54, 1.92, 5.98, 5.02, 5.27, 8.97, 8.43, 7.84, 7.11, 6.94],
    [2.73, 3.57, 3.84, 4.13, 4.63, 4.79, 6.40, 7.98, 8.59, 9.14, 10.19],
    [3.13, 2.51, 3.71, 4.43, 4.79, 5.10, 6.27, 7.95, 8.81, 9.52, 9.78],
    [2.71, 2.63, 3.59, 4.17, 4.71, 4.95, 6.51, 8.17, 8.68, 9.52, 10.33]])
# Unadjusted exact p-values of |R_a − R_b| for k = 11, n = 4, from PMCMRplus 1.9.10
# frdAllPairsExactTest(qPCR, p.adjust.method = "none"): the authors' closed form evaluated in
# 2048-bit arithmetic (Rmpfr). Every one of the 55 pairs has one of these differences.
QPCR_EXACT_P = {
    0: 1.0, 1: 9.5855311796e-01, 2: 8.7623185575e-01, 3: 7.9513914350e-01,
    4: 7.1608279489e-01, 5: 6.3980658425e-01, 6: 5.6697450994e-01, 7: 4.9815669695e-01,
    8: 4.3381803156e-01, 10: 3.1986686702e-01, 11: 2.7060285500e-01, 12: 2.2651450038e-01,
    14: 1.5352787378e-01, 15: 1.2417069872e-01, 16: 9.9162570863e-02, 17: 7.8139621611e-02,
    18: 6.0709227512e-02, 19: 4.6464462810e-02, 20: 3.4997595793e-02, 21: 2.5912096168e-02,
    22: 1.8832907588e-02, 23: 1.3415026296e-02, 24: 9.3507137491e-03, 25: 6.3660405710e-03,
    26: 4.2238918107e-03, 27: 2.7243221091e-03, 28: 1.7029711085e-03, 29: 1.0281538146e-03,
    30: 5.9714500376e-04, 31: 3.3208114200e-04, 33: 8.7903831705e-05}


def _eisinga_closed_form(d: int, k: int, n: int):
    """P(|D| ≥ d) for untied ranks, Eisinga et al. (2017) eq. (6) summed as exact fractions."""
    from fractions import Fraction
    from math import comb

    if d == 0:
        return Fraction(1)
    total = Fraction(0)
    for h in range(n + 1):
        inner = sum((-1) ** s * comb(2 * h, h + s) * comb(k * s - d + h, k * s - d - h)
                    for s in range(h + 1) if k * s - d - h >= 0)
        total += Fraction(comb(n, h) * inner, k ** h * (1 - k) ** n)
    return 2 * total


def test_eisinga_on_the_qpcr_example_and_the_authors_closed_form():
    """The paper's example: rank sums and all 55 exact p-values as PMCMRplus gives them; the
    authors' documented value P(|D| ≥ 100; k = 100, n = 100) = 0.8085251; the convolution
    against their closed form summed in exact rational arithmetic."""
    from rankwise.stats.exact import eisinga_pvalues, rank_sum_difference_distribution

    ranks = midranks(QPCR)
    sums = ranks.sum(axis=0)
    assert sums.tolist() == [7, 10, 10, 17, 18, 22, 32, 34, 36, 38, 40]
    p = eisinga_pvalues(ranks)
    for a, b in itertools.combinations(range(11), 2):
        expected = QPCR_EXACT_P[int(abs(sums[a] - sums[b]))]
        assert p[a, b] == pytest.approx(expected, rel=1e-9), (QPCR_METHODS[a], QPCR_METHODS[b])
        assert p[b, a] == p[a, b]
    # the same through compare(): the friedman_exact post-hoc reads these p-values
    table = {"dataset": ["bias", "linearity", "precision", "resolution"]}
    table.update({m: QPCR[:, j] for j, m in enumerate(QPCR_METHODS)})
    import pandas as pd
    from rankwise.analysis.schema import pair_rows

    doc = compare(pd.DataFrame(table), higher_is_better=False, posthoc="all",
                  rankings=["friedman_exact"], procedures=["holm"], decimals=None).to_dict()
    entry = doc["posthoc"]["friedman_exact"]
    first = {(r["a"], r["b"]): r["pvalue"] for r in pair_rows(entry["all_pairs"],
                                                               doc["learners"])}
    assert first[("Cy0", "FPK_PCR")] == pytest.approx(QPCR_EXACT_P[33], rel=1e-9)

    untied = np.tile(np.arange(1.0, 101.0), (100, 1))
    values, probs = rank_sum_difference_distribution(untied)
    assert probs[np.abs(values) >= 200].sum() == pytest.approx(0.8085251, abs=5e-8)
    for k, n in ((3, 7), (5, 5), (11, 4)):
        ranks = np.tile(np.arange(1.0, k + 1), (n, 1))
        values, probs = rank_sum_difference_distribution(ranks)
        for d in range(0, n * (k - 1) + 1, max(1, n * (k - 1) // 6)):
            tail = probs[np.abs(values) >= 2 * d].sum()
            assert tail == pytest.approx(float(_eisinga_closed_form(d, k, n)), rel=1e-10, abs=1e-15)


# Hollander & Wolfe (1999), Brady (1969): speech fluency under three metronome conditions; one
# subject lacks condition A. The example of PMCMRplus's and NSM3's Skillings-Mack help pages.
BRADY = np.array([[3, 5, 15], [1, 3, 18], [5, 4, 21], [2, np.nan, 6], [0, 2, 17], [0, 2, 10],
                  [0, 3, 8], [0, 2, 13]], dtype=float)


def test_skillings_mack_on_the_published_example_and_its_exact_permutation():
    """SM = 13.280952 and the chi-square p = 0.001306405 of PMCMRplus 1.9.10
    skillingsMackTest(); the seeded Monte Carlo p-value against the complete enumeration of the
    6⁷·2 = 559,872 arrangements, here and on a second incomplete table with a larger p."""
    from rankwise import skillings_mack

    res = skillings_mack(BRADY)
    assert res.statistic == pytest.approx(13.280952, abs=5e-7)
    assert res.details["pvalue_chi2"] == pytest.approx(0.001306405, rel=1e-6)
    assert res.df == (2,) and res.details["n_missing_cells"] == 1

    def exact(x, stat):
        observed = ~np.isnan(x)
        cov = np.zeros((x.shape[1],) * 2)
        sums = np.zeros((1, x.shape[1]))
        for row, seen in zip(x, observed):
            cols = np.flatnonzero(seen)
            ki = cols.size
            cov[np.ix_(cols, cols)] -= 1.0
            arrangements = np.zeros((0, x.shape[1]))
            for perm in itertools.permutations(range(1, ki + 1)):
                a = np.zeros(x.shape[1])
                a[cols] = np.sqrt(12.0 / (ki + 1)) * (np.array(perm) - (ki + 1) / 2.0)
                arrangements = np.vstack([arrangements, a])
            sums = (sums[:, None, :] + arrangements[None, :, :]).reshape(-1, x.shape[1])
        np.fill_diagonal(cov, 0.0)
        np.fill_diagonal(cov, -cov.sum(axis=1))
        sm = np.einsum("ij,jk,ik->i", sums, np.linalg.pinv(cov), sums)
        return sums.shape[0], float(np.mean(sm >= stat * (1 - 1e-12)))

    size, p_exact = exact(BRADY, res.statistic)
    assert size == 559_872
    se = res.details["monte_carlo_standard_error"]
    assert res.method == "monte-carlo" and abs(res.pvalue - p_exact) <= 4 * se + 1 / 20_001
    rng = np.random.default_rng(11)
    y = rng.normal(size=(7, 4))
    y[rng.random(y.shape) < 0.2] = np.nan
    other = skillings_mack(y)
    _, p_exact = exact(y[(~np.isnan(y)).sum(axis=1) >= 2], other.statistic)
    assert 0.05 < p_exact < 0.95
    assert abs(other.pvalue - p_exact) <= 4 * other.details["monte_carlo_standard_error"]
