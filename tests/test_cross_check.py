"""Independent computations: scipy, statsmodels and brute-force enumeration.

Random tables are rounded to one or two decimals so that ties and zero differences are common.
"""

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.anova import AnovaRM

from rankwise import (aligned_ranks, friedman, friedman_aligned, iman_davenport, paired_ttest,
                      quade, quade_weights, rank_within_datasets, rm_anova, sign_test, wilcoxon)
from rankwise.stats.ranking import midranks
from rankwise.stats.two_learners import ZERO_METHODS, differences


def tied_tables(seed, count=25):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n, k = rng.integers(4, 30), rng.integers(3, 7)
        x = rng.normal(size=(n, k)) + rng.normal(size=(n, 1)) + 0.3 * np.arange(k)
        yield np.round(x, rng.integers(0, 3))


def anova_f(y):
    """Repeated-measures ANOVA F of an n × k matrix, from statsmodels."""
    n, k = y.shape
    df = pd.DataFrame({"s": np.repeat(np.arange(n), k), "t": np.tile(np.arange(k), n),
                       "y": y.ravel()})
    row = AnovaRM(df, "y", "s", within=["t"]).fit().anova_table.iloc[0]
    return row["F Value"], row["Pr > F"]


def test_midranks_match_scipy():
    rng = np.random.default_rng(1)
    for _ in range(50):
        x = np.round(rng.normal(size=(rng.integers(1, 20), rng.integers(1, 9))), 1)
        assert np.array_equal(midranks(x), stats.rankdata(x, axis=1))
        assert np.array_equal(midranks(x.ravel()), stats.rankdata(x.ravel()))


def test_ranks_sum_and_direction():
    x = np.round(np.random.default_rng(2).normal(size=(40, 6)), 1)
    r = rank_within_datasets(x)
    assert np.allclose(r.sum(axis=1), 6 * 7 / 2)
    assert np.array_equal(rank_within_datasets(x, higher_is_better=False), 7 - r)


def test_rounding_makes_printed_ties_ties():
    # 0.3 - 0.2 and 0.2 - 0.1 differ in binary floating point; rounded they are equal, so the
    # two data sets tie in |d| and share a mid-rank.
    assert 0.3 - 0.2 != 0.2 - 0.1
    d = differences([0.2, 0.1], [0.3, 0.2])
    assert d[0] == d[1]
    raw = differences([0.2, 0.1], [0.3, 0.2], decimals=None)
    assert raw[0] != raw[1]
    assert wilcoxon([0.2, 0.1, 0.5], [0.3, 0.2, 0.1]).r_plus == 3.0  # ranks 1.5 + 1.5


@pytest.mark.parametrize("x", list(tied_tables(3)))
def test_friedman_tie_corrected_matches_scipy(x):
    ours = friedman(x, method="chi2")
    ref = stats.friedmanchisquare(*x.T)
    assert ours.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    if not any(len(set(row)) < len(row) for row in x):
        assert friedman(x, convention="paper").statistic == pytest.approx(ref.statistic, rel=1e-10)


@pytest.mark.parametrize("x", list(tied_tables(4, count=12)))
def test_rank_statistics_are_anova_on_transformed_scores(x):
    """Friedman, Iman-Davenport, aligned ranks and Quade against statsmodels' AnovaRM.

    Iman-Davenport (tie-corrected) is the ANOVA F on within-data-set ranks and Quade's T3 the
    ANOVA F on S_ij; Friedman and aligned-ranks T are (k-1)·n·F / (F + n - 1) of the ANOVA on
    their ranks.
    """
    n, k = x.shape
    r = rank_within_datasets(x)
    f_ranks, p_ranks = anova_f(r)
    assert iman_davenport(x).statistic == pytest.approx(f_ranks, rel=1e-9)
    assert iman_davenport(x, method="chi2").pvalue == pytest.approx(p_ranks, rel=1e-7, abs=1e-300)
    assert friedman(x).statistic == pytest.approx((k - 1) * n * f_ranks / (f_ranks + n - 1),
                                                  rel=1e-9)
    f_al, _ = anova_f(aligned_ranks(x))
    assert friedman_aligned(x).statistic == pytest.approx((k - 1) * n * f_al / (f_al + n - 1),
                                                          rel=1e-9)
    s = quade_weights(x)[:, None] * (r - (k + 1) / 2)
    f_q, p_q = anova_f(s)
    assert quade(x).statistic == pytest.approx(f_q, rel=1e-9)
    assert quade(x).pvalue == pytest.approx(p_q, rel=1e-7, abs=1e-300)
    f, p = anova_f(x)
    res = rm_anova(x)
    assert res.statistic == pytest.approx(f, rel=1e-9)
    assert res.pvalue_uncorrected == pytest.approx(p, rel=1e-7, abs=1e-300)


def test_anova_sphericity_against_eigenvalue_formulas():
    rng = np.random.default_rng(5)
    for _ in range(10):
        n, k = rng.integers(8, 40), rng.integers(3, 7)
        x = rng.normal(size=(n, k)) * rng.uniform(0.2, 3, size=k) + rng.normal(size=(n, 1))
        res = rm_anova(x, decimals=None)
        contrasts = np.linalg.qr(np.vstack([np.ones(k), np.eye(k)[:-1]]).T)[0][:, 1:]
        lam = np.linalg.eigvalsh(contrasts.T @ np.cov(x, rowvar=False) @ contrasts)
        p = k - 1
        eps = lam.sum() ** 2 / (p * (lam ** 2).sum())
        assert res.epsilon_greenhouse_geisser == pytest.approx(max(eps, 1 / p), rel=1e-9)
        assert res.mauchly_w == pytest.approx(np.prod(lam) / lam.mean() ** p, rel=1e-9)
        assert res.pvalue_greenhouse_geisser == pytest.approx(
            stats.f.sf(res.statistic, p * eps, p * (n - 1) * eps), rel=1e-9)


def test_anova_two_learners_is_paired_t():
    rng = np.random.default_rng(6)
    x = rng.normal(size=(15, 2))
    res = rm_anova(x, decimals=None)
    t = stats.ttest_rel(x[:, 1], x[:, 0])
    assert res.statistic == pytest.approx(t.statistic ** 2, rel=1e-10)
    assert res.pvalue == pytest.approx(t.pvalue, rel=1e-9)


def brute_force_wilcoxon(d, zero_method):
    """Exact two-sided p and (R+, R-) by enumerating every sign pattern of the non-zero |d|."""
    d = np.asarray(d, dtype=float)
    zeros = np.flatnonzero(d == 0)
    if zero_method == "wilcox":
        d = d[d != 0]
    elif zero_method == "demsar" and zeros.size % 2:
        d = np.delete(d, zeros[0])
    r = stats.rankdata(np.abs(d))
    fixed = r[d == 0].sum() / 2 if zero_method in ("demsar", "zsplit") else 0.0
    free = r[d != 0]
    obs = r[d > 0].sum()
    total = free.sum()
    hits = 0
    for signs in itertools.product((0, 1), repeat=free.size):
        s = (free * signs).sum()
        hits += abs(2 * s - total) >= abs(2 * obs - total) - 1e-9
    return hits / 2 ** free.size, obs + fixed, r[d < 0].sum() + fixed


@pytest.mark.parametrize("zero_method", ZERO_METHODS)
def test_wilcoxon_exact_against_enumeration(zero_method):
    rng = np.random.default_rng(7)
    for _ in range(40):
        n = rng.integers(2, 13)
        a = np.round(rng.normal(size=n), 0) / 2
        b = np.round(a + rng.normal(0.3, 1, size=n), 0) / 2
        d = differences(a, b)
        p, r_plus, r_minus = brute_force_wilcoxon(d, zero_method)
        res = wilcoxon(a, b, zero_method=zero_method, method="exact")
        assert (res.r_plus, res.r_minus) == pytest.approx((r_plus, r_minus))
        assert res.pvalue == pytest.approx(min(1.0, p), abs=1e-12)


def test_wilcoxon_matches_scipy():
    rng = np.random.default_rng(8)
    for _ in range(30):
        n = rng.integers(5, 40)
        a = rng.normal(size=n)
        b = a + rng.normal(0.4, 1, size=n)
        for alt in ("two-sided", "greater", "less"):
            ours = wilcoxon(a, b, method="exact", alternative=alt)
            ref = stats.wilcoxon(b, a, method="exact", alternative=alt)
            assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
        # With ties and zeros: scipy's normal approximation with the tie-corrected variance.
        # scipy is given the rounded differences: on b2 - a2 directly, floating-point noise
        # would break the ties that rounding to one decimal creates.
        a2, b2 = np.round(a, 1), np.round(b, 1)
        d = differences(a2, b2)
        ours = wilcoxon(a2, b2, method="normal", zero_method="wilcox")
        ref = stats.wilcoxon(d, method="approx", zero_method="wilcox", correction=False)
        assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
        for alt in ("two-sided", "greater", "less"):
            ours = wilcoxon(a2, b2, method="normal", zero_method="wilcox", correction=True,
                            alternative=alt)
            ref = stats.wilcoxon(d, method="approx", zero_method="wilcox", correction=True,
                                 alternative=alt)
            assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
        # Pratt: zeros ranked, then dropped; scipy adjusts the mean and variance the same way.
        # (For zsplit scipy counts the split zeros' ranks as random in the variance; rankwise
        # uses the exact conditional variance, in which split zeros are fixed.)
        ours = wilcoxon(a2, b2, method="normal", zero_method="pratt")
        ref = stats.wilcoxon(d, method="approx", zero_method="pratt")
        assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-9)


def test_sign_test_matches_binomtest():
    rng = np.random.default_rng(9)
    for _ in range(40):
        n = rng.integers(3, 40)
        a = np.round(rng.normal(size=n), 0)
        b = np.round(rng.normal(0.3, 1, size=n), 0)
        wins, losses, ties = int((b > a).sum()), int((b < a).sum()), int((b == a).sum())
        for alt in ("two-sided", "greater", "less"):
            drop = sign_test(a, b, ties="drop", alternative=alt)
            if wins + losses:
                assert drop.pvalue == pytest.approx(
                    stats.binomtest(wins, wins + losses, 0.5, alternative=alt).pvalue, rel=1e-12)
            split = sign_test(a, b, ties="split", alternative=alt)
            w, m = wins + ties // 2, wins + losses + 2 * (ties // 2)
            if m:
                assert split.pvalue == pytest.approx(
                    stats.binomtest(w, m, 0.5, alternative=alt).pvalue, rel=1e-12)


def test_paired_ttests_match_scipy():
    rng = np.random.default_rng(10)
    for _ in range(20):
        n = rng.integers(3, 30)
        a = rng.uniform(0.5, 1, size=n)
        b = np.clip(a + rng.normal(0.02, 0.05, size=n), 0, 1)
        for alt in ("two-sided", "greater", "less"):
            ref = stats.ttest_rel(b, a, alternative=alt)
            ours = paired_ttest(a, b, alternative=alt, decimals=None)
            assert ours.statistic == pytest.approx(ref.statistic, rel=1e-10)
            assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
            rel = stats.ttest_1samp((b - a) / ((a + b) / 2), 0.0, alternative=alt)
            ours = paired_ttest(a, b, relative=True, alternative=alt, decimals=None)
            assert ours.pvalue == pytest.approx(rel.pvalue, rel=1e-9)
        # Lower-is-better flips the sign of the difference and nothing else.
        lower = paired_ttest(a, b, higher_is_better=False, decimals=None)
        assert lower.statistic == pytest.approx(-stats.ttest_rel(b, a).statistic, rel=1e-10)


def test_relative_ttest_undefined_is_reported():
    res = paired_ttest([0.0, 0.5, 0.4], [0.0, 0.6, 0.3], relative=True)
    assert np.isnan(res.pvalue) and "rows 1" in res.notes[0]


def test_long_vectors_with_repeated_values_rank_as_scipy():
    """The hashing path for long vectors with few distinct values (the aligned ranks of a large
    table) gives scipy's ranks, zeros of either sign included; midranks() takes it for long
    vectors of rounded scores and sorts long vectors of distinct values."""
    import rankwise.stats.ranking as ranking

    rng = np.random.default_rng(3)
    for _ in range(50):
        x = np.round(rng.normal(size=int(rng.integers(1, 3_000))), int(rng.integers(0, 3)))
        x[rng.integers(0, x.size, size=3)] = -0.0
        assert np.array_equal(ranking._ranks_of_repeated(x + 0.0), stats.rankdata(x))
    x = np.round(rng.normal(size=300_000), 2)
    x[::7] = -0.0
    assert ranking._mostly_repeated(x)
    assert np.array_equal(midranks(x), stats.rankdata(x))
    assert np.array_equal(midranks(x, descending=True), stats.rankdata(-x))
    y = rng.normal(size=300_000)
    assert not ranking._mostly_repeated(y) and np.array_equal(midranks(y), stats.rankdata(y))


def test_one_sided_wilcoxon_continuity_correction_matches_r():
    """R 4.0.3, wilcox.test(x, y, paired = TRUE, exact = FALSE, alternative, correct) — the
    values of scipy's test_onesided. The correction moves R+ towards the null on the side being
    tested, so the two one-sided p-values add up to more than 1 (0.1 also shrank |R+ − mean|
    for one-sided tests, which made the p-value opposite to the data too small)."""
    x = np.array([125, 115, 130, 140, 140, 115, 140, 125, 140, 135], dtype=float)
    y = np.array([110, 122, 125, 120, 140, 124, 123, 137, 135, 145], dtype=float)
    expected = {("less", False): 0.7031847042787, ("less", True): 0.72336564289,
                ("greater", False): 0.2968152957213, ("greater", True): 0.3176446594176}
    for (alt, corr), p in expected.items():
        # rankwise compares b with a: b = x, a = y, so "greater" means x > y, as in R
        res = wilcoxon(y, x, alternative=alt, correction=corr, method="normal",
                       zero_method="wilcox")
        assert res.r_plus == 27.0 and res.pvalue == pytest.approx(p, rel=1e-9)
    both = sum(wilcoxon(y, x, alternative=alt, correction=True, method="normal",
                        zero_method="wilcox").pvalue for alt in ("greater", "less"))
    assert both > 1.0


@pytest.mark.simulation
def test_one_sided_normal_wilcoxon_holds_its_level():
    """Null simulation: the continuity-corrected one-sided normal approximation rejects at
    most about alpha of the time on either side."""
    rng = np.random.default_rng(21)
    d = rng.normal(size=(4_000, 25))
    for alt in ("greater", "less"):
        p = np.array([wilcoxon(np.zeros(25), row, alternative=alt, correction=True,
                               method="normal", zero_method="wilcox").pvalue for row in d])
        assert (p <= 0.05).mean() <= 0.055


def test_common_extras_are_declared_fields_with_independent_values():
    """n, k, mean_ranks, alternative and variant are fields of every TestResult, equal to the
    counts and scipy's mid-ranks computed here (and to the details the JSON writes)."""
    import dataclasses

    from rankwise import skillings_mack
    from rankwise.stats.results import COMMON_EXTRAS, TestResult

    declared = {f.name for f in dataclasses.fields(TestResult)}
    assert set(COMMON_EXTRAS) <= declared
    x = next(tied_tables(11))
    n, k = x.shape
    ranks = stats.rankdata(-x, axis=1).mean(axis=0)  # 1 = best
    for test in (friedman, iman_davenport):
        res = test(x)
        assert (res.n, res.k, res.alternative) == (n, k, None)
        np.testing.assert_allclose(res.mean_ranks, ranks, rtol=1e-12)
        assert res.variant == "tie-corrected"
    for test in (friedman_aligned, quade, rm_anova, skillings_mack):
        res = test(x)
        assert (res.n, res.k, res.alternative) == (n, k, None)
    assert friedman_aligned(x, convention="paper").variant == "keel"
    assert rm_anova(x).variant == "greenhouse-geisser" and rm_anova(x).mean_ranks is None
    a, b = x[:, 0], x[:, 1] + 0.5
    nonzero = int(np.count_nonzero(a != b))
    assert wilcoxon(a, b, zero_method="wilcox").n == nonzero
    for test in (wilcoxon, sign_test, paired_ttest):
        for alternative in ("two-sided", "greater", "less"):
            res = test(a, b, alternative=alternative)
            assert (res.alternative, res.k, res.mean_ranks) == (alternative, None, None)
            assert all(getattr(res, name) is res.details.get(name) for name in COMMON_EXTRAS)
