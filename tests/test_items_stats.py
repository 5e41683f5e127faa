"""The statistics of items nested in tasks, against statsmodels, scipy, inspect_ai's worked
example, Miller's (2024) published standard errors and brute force over pairs."""

import numpy as np
import pytest
from scipy.stats import binomtest

from rankwise.errors import RankwiseError
from rankwise.stats.items import (clustered_se, mcnemar, normal_adequate, paired_items,
                                  proportion_interval)


def test_clustered_se_equals_inspect_ai_worked_example():
    # inspect_ai's stderr(cluster=...) on these scores and clusters gives 0.1667 (0.2236 without)
    s = [1, 1, 1, 0, 0, 0]
    assert clustered_se(s, clusters=[0, 1, 1, 1, 0, 0]) == pytest.approx(1 / 6, abs=1e-12)
    assert clustered_se(s) == pytest.approx(0.2236, abs=5e-5)
    assert clustered_se(s) == pytest.approx(np.std(s, ddof=1) / np.sqrt(6))


def test_clustered_se_brute_force_and_matrix():
    rng = np.random.default_rng(1)
    x = rng.random((40, 3))
    cl = rng.integers(0, 7, 40)
    got = clustered_se(x, clusters=cl)
    for j in range(3):
        m = x[:, j].mean()
        sums = [((x[cl == c, j] - m).sum()) ** 2 for c in np.unique(cl)]
        c = len(sums)
        assert got[j] == pytest.approx(np.sqrt(c / (c - 1) * sum(sums)) / 40)
    assert clustered_se([1, 0, 1], clusters=[5, 5, 5]) == 0.0


@pytest.mark.parametrize("p, n, se", [(0.655, 5000, 0.7), (0.630, 5000, 0.7), (0.836, 164, 2.9),
                                      (0.867, 164, 2.7), (0.753, 2500, 0.9), (0.780, 2500, 0.8)])
def test_miller_worked_standard_errors(p, n, se):
    # Miller (2024), the example evals (MATH n = 5,000; HumanEval n = 164; MGSM n = 2,500): the
    # standard errors printed in percentage points, one decimal
    x = np.zeros(n)
    x[: round(p * n)] = 1
    assert round(100 * float(clustered_se(x)), 1) == se


@pytest.mark.parametrize("n", [1, 7, 30, 164, 1000])
def test_wilson_and_clopper_pearson_equal_scipy(n):
    for x in sorted({0, 1, n // 3, n // 2, n - 1, n}):
        for conf in (0.9, 0.95, 0.99):
            for ours, theirs in (("wilson", "wilson"), ("clopper_pearson", "exact")):
                low, high = proportion_interval(x, n, confidence=conf, method=ours)
                ref = binomtest(x, n).proportion_ci(confidence_level=conf, method=theirs)
                assert float(low) == pytest.approx(ref.low, abs=1e-12)
                assert float(high) == pytest.approx(ref.high, abs=1e-12)


def test_normal_interval_and_its_adequacy():
    low, high = proportion_interval(50, 100, method="normal")
    assert float(high - low) == pytest.approx(2 * 1.959964 * 0.05, rel=1e-6)
    assert proportion_interval(0, 10, method="normal") == (0, 0)
    assert list(normal_adequate([50, 5, 50], [100, 100, 60])) == [True, False, False]
    with pytest.raises(RankwiseError):
        proportion_interval(5, 3)


def test_mcnemar_equals_statsmodels_on_random_tables():
    from statsmodels.stats.contingency_tables import mcnemar as sm

    rng = np.random.default_rng(7)
    tables = [rng.integers(0, 40, (2, 2)) for _ in range(200)] + [np.array([[5, 0], [0, 9]])]
    for t in tables:
        b, c = t[0, 1], t[1, 0]
        for method, kw in (("exact", dict(exact=True)),
                           ("chi2", dict(exact=False, correction=False)),
                           ("chi2_corrected", dict(exact=False, correction=True))):
            ours = mcnemar(b, c, method=method)
            if b + c == 0:          # no discordant item: no evidence either way
                assert float(ours.pvalue) == 1.0 and float(ours.statistic) == 0.0
                continue
            if method == "chi2_corrected" and b == c:
                # R's rule (statsmodels would subtract 1 here too): balanced table, statistic 0
                assert float(ours.statistic) == 0.0 and float(ours.pvalue) == 1.0
                continue
            ref = sm(t, **kw)
            assert float(ours.statistic) == pytest.approx(ref.statistic, rel=1e-12)
            assert float(ours.pvalue) == pytest.approx(ref.pvalue, rel=1e-10, abs=1e-300)


def test_mcnemar_auto_switches_at_25_discordant_items():
    r = mcnemar([20, 10], [4, 15])
    assert list(r.method) == ["exact", "chi2_corrected"]
    # at the extremes: no warning, a p-value that underflows to 0 rather than NaN
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        huge = mcnemar([10**6, 3, 0], [0, 10**6, 0])
    assert list(huge.pvalue) == [0.0, 0.0, 1.0]


def _brute_pairs(x):
    k = x.shape[1]
    for a in range(k):
        for b in range(a + 1, k):
            yield a, b, x[:, a] - x[:, b]


def test_paired_items_binary_equals_brute_force_mcnemar_and_paired_se():
    rng = np.random.default_rng(3)
    skill = rng.random(300)
    x = (rng.random((300, 6)) < skill[:, None] * np.linspace(0.7, 1.0, 6)).astype(float)
    r = paired_items(x)
    assert r.test == "mcnemar" and r.interval == "normal"
    for p, (a, b, d) in enumerate(_brute_pairs(x)):
        assert (r.first[p], r.second[p]) == (a, b)
        bb = int(((x[:, a] == 1) & (x[:, b] == 0)).sum())
        cc = int(((x[:, a] == 0) & (x[:, b] == 1)).sum())
        assert (r.b[p], r.c[p]) == (bb, cc)
        assert r.pvalue[p] == pytest.approx(float(mcnemar(bb, cc).pvalue))
        assert r.difference[p] == pytest.approx(d.mean())
        assert r.se[p] == pytest.approx(d.std(ddof=1) / np.sqrt(len(d)))


def test_paired_items_permutation_and_bootstrap_equal_a_loop_with_the_same_draws():
    rng = np.random.default_rng(4)
    x = rng.random((25, 4))
    cl = np.repeat(np.arange(5), 5)
    r = paired_items(x, clusters=cl, draws=500, seed=11)
    assert r.test == "permutation" and r.interval == "bootstrap" and r.n_clusters == 5
    g = np.random.default_rng(11)
    flips = g.integers(0, 2, size=(500, 5), dtype=np.int8) * 2.0 - 1.0
    picks = g.integers(0, 5, size=(500, 5))
    counts = np.array([np.bincount(row, minlength=5) for row in picks])
    for p, (a, b, d) in enumerate(_brute_pairs(x)):
        dc = np.array([d[cl == c].sum() for c in range(5)])
        t = np.abs(flips @ dc) / 25
        assert r.pvalue[p] == pytest.approx((1 + (t >= abs(d.mean()) - 1e-15).sum()) / 501)
        boot = (counts @ dc) / (counts.sum(axis=1) * 5)
        low, high = np.quantile(boot, [0.025, 0.975])
        assert (r.low[p], r.high[p]) == (pytest.approx(low), pytest.approx(high))
        assert r.se[p] == pytest.approx(float(clustered_se(d, clusters=cl)))


def test_paired_items_refuses_what_it_cannot_do():
    with pytest.raises(RankwiseError, match="0/1"):
        paired_items(np.random.default_rng(0).random((5, 2)), test="mcnemar")
    with pytest.raises(RankwiseError, match="every model"):
        paired_items([[1, np.nan], [0, 1]])
    with pytest.raises(RankwiseError):
        mcnemar(1.5, 2)
