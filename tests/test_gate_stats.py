"""The statistics of the regression gate (rankwise.stats.gate): each function against an
independent computation (statsmodels, scipy, a brute force written here) and a published
number, its refusals, and no numerical warning at the extremes."""

import itertools
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from scipy import optimize, stats

from rankwise.errors import RankwiseError
from rankwise.stats import gate
from rankwise.stats.gate import (alarm, eprocess, noninferiority_evalue, null_simulation,
                                 one_sided_mcnemar, one_sided_paired_t, one_sided_wilcoxon,
                                 paired_difference_interval, pass_at_k, pass_hat_k,
                                 regression_evalue, tost_paired, trial_variance)
from rankwise.stats.items import clustered_se, mcnemar
from rankwise.stats.racing import BETS, log_evalue

Z95 = stats.norm.ppf(0.975)


# ---------------------------------------------------------------- TOST and one-sided tests

def test_tost_equals_statsmodels_on_twenty_samples():
    from statsmodels.stats.weightstats import ttost_paired

    rng = np.random.default_rng(7)
    for i in range(20):
        n = int(rng.integers(2, 200))
        x = rng.normal(0.6, 0.2, n)
        y = x + rng.normal(rng.normal(0, 0.05), 0.1, n)
        low, upp = -rng.uniform(0.01, 0.2), rng.uniform(0.01, 0.2)   # asymmetric
        if i % 5 == 0:
            low, upp = -0.1, -0.02                                   # both below zero
        ours = tost_paired(x, y, low, upp)
        p, (t1, p1, df1), (t2, p2, df2) = ttost_paired(x, y, low, upp)
        for a, b in ((ours.p, p), (ours.p_low, p1), (ours.p_upp, p2), (ours.t_low, t1),
                     (ours.t_upp, t2)):
            assert abs(a - b) <= 1e-12 * max(1.0, abs(b))
        assert ours.df == df1 == df2 == n - 1


def test_tost_is_vectorised_over_rows_and_margins():
    rng = np.random.default_rng(8)
    x, y = rng.normal(size=(5, 30)), rng.normal(size=(5, 30))
    low = np.linspace(-0.5, -0.1, 5)
    rows = tost_paired(x, y, low, 0.3)
    for i in range(5):
        one = tost_paired(x[i], y[i], low[i], 0.3)
        assert np.isclose(rows.p[i], one.p, rtol=1e-14) and rows.p.shape == (5,)


def test_one_sided_tests_equal_scipy_with_the_shifted_differences():
    rng = np.random.default_rng(9)
    for i in range(12):
        n = int(rng.integers(14, 80))     # up to 13 with ties scipy permutes: seconds
        d = np.round(rng.normal(-0.02, 0.1, n), 3)
        margin = float(rng.choice([0.0, 0.01, 0.05]))
        for side in ("greater", "less"):
            t = one_sided_paired_t(d, margin, side)
            ref = stats.ttest_1samp(d + margin, 0.0, alternative=side)
            assert abs(t.statistic - ref.statistic) <= 1e-12 * max(1, abs(ref.statistic))
            assert abs(t.p - ref.pvalue) <= 1e-12
            w = one_sided_wilcoxon(d, margin, side, decimals=None)
            ref = stats.wilcoxon(d + margin, alternative=side)
            assert w.statistic == ref.statistic and abs(w.p - ref.pvalue) <= 1e-12
    # vectorised over rows, and the direction: a clear regression is caught by "less" only
    d = rng.normal(-0.3, 0.1, size=(4, 25))
    for test in (one_sided_paired_t, one_sided_wilcoxon):
        assert np.all(test(d, 0.05, "less").p < 0.001)
        assert np.all(test(d, 0.05, "greater").p > 0.999)


def test_one_sided_wilcoxon_counts_rounding_noise_as_zero_and_all_zero_as_no_evidence():
    d = np.array([0.3 - 0.4, -0.1, 0.2, 0.3, 0.25, 0.4])      # 0.3 − 0.4 is not −0.1 exactly
    assert one_sided_wilcoxon(d, 0.1).p == stats.wilcoxon(
        np.round(d + 0.1, 12), alternative="greater").pvalue
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = one_sided_wilcoxon(np.full((2, 5), -0.1), 0.1)
        assert np.all(r.p == 1) and np.all(r.statistic == 0)
        t = one_sided_paired_t(np.full(5, -0.1), 0.1)           # no spread, on the boundary
        assert t.p == 1
        assert one_sided_paired_t(np.full(5, 0.2), 0.1).p == 0  # no spread, above it


def test_one_sided_mcnemar_is_half_the_exact_two_sided_test():
    b, c = np.meshgrid(np.arange(0, 40), np.arange(0, 40))
    p = one_sided_mcnemar(b, c)
    two = mcnemar(b, c, method="exact").pvalue
    more = (b > c) & (two < 1)
    assert np.allclose(p[more], two[more] / 2, rtol=1e-12)
    assert np.all(p[b <= c] >= 0.5) and p[0, 0] == 1


@pytest.mark.parametrize("call, text", [
    (lambda: tost_paired([1, 2, 3], [1, 2], -1, 1), "same shape"),
    (lambda: tost_paired([1, 2, 3], [1, 2, 4], 1, -1), "low < upp"),
    (lambda: tost_paired([1], [2], -1, 1), "at least 2"),
    (lambda: one_sided_paired_t([1, np.nan, 3]), "finite"),
    (lambda: one_sided_paired_t([1, 2, 3], side="two-sided"), "side must be"),
    (lambda: one_sided_mcnemar(2.5, 1), "whole numbers"),
])
def test_tests_refuse_bad_input_in_one_line(call, text):
    with pytest.raises(RankwiseError, match=text) as err:
        call()
    assert "\n" not in str(err.value)


# ---------------------------------------------------------------- paired proportions

def _tango_brute(b, c, n, z):
    """Tango's limits written out again: the restricted MLE by the textbook quadratic
    formula, the score on a grid of 2,001 points, the crossing nearest the estimate refined
    by Brent's method."""
    def score(delta):
        big_a, big_b, big_c = 2 * n, -b - c + (2 * n - b + c) * delta, -c * delta * (1 - delta)
        q = (-big_b + np.sqrt(np.maximum(big_b ** 2 - 4 * big_a * big_c, 0))) / (2 * big_a)
        v = n * (2 * q + delta * (1 - delta))
        s = b - c - n * delta
        with np.errstate(divide="ignore", invalid="ignore"):
            t = s / np.sqrt(np.where(v > 0, v, 0))
        return np.where(s == 0, 0.0, t)

    est = (b - c) / n

    def limit(target, lo, hi, lower):
        if lo == hi:
            return lo
        grid = np.linspace(lo, hi, 2001)[1:-1]
        f = score(grid) - target

        def g(t):
            return float(score(np.float64(t))) - target

        if lower:   # f falls from +inf at -1 to -z at the estimate: the last crossing
            k = np.flatnonzero(f > 0)
            if not len(k):
                return optimize.brentq(g, lo + 1e-15, grid[0], xtol=1e-15)
            k = k[-1]
            return optimize.brentq(g, grid[k], grid[k + 1] if k + 1 < len(grid) else hi,
                                   xtol=1e-15)
        k = np.flatnonzero(f < 0)
        if not len(k):
            return optimize.brentq(g, grid[-1], hi - 1e-15, xtol=1e-15)
        k = k[0]
        return optimize.brentq(g, grid[k - 1] if k else lo, grid[k], xtol=1e-15)

    return limit(z, -1.0, est, True), limit(-z, est, 1.0, False)


def test_tango_equals_a_brute_force_solution_of_the_score_equation():
    rng = np.random.default_rng(10)
    cases = [(40, 20, 160), (0, 5, 30), (5, 0, 30), (0, 0, 25), (7, 13, 20), (20, 0, 20),
             (0, 20, 20), (1, 0, 1), (3, 4, 7)]
    for _ in range(30):
        n = int(rng.integers(1, 300))
        b = int(rng.integers(0, n + 1))
        cases.append((b, int(rng.integers(0, n - b + 1)), n))
    b, c, n = map(np.array, zip(*cases))
    low, high = paired_difference_interval(b, c, n)           # one vectorised call
    for i, (bi, ci, ni) in enumerate(cases):
        ref = _tango_brute(bi, ci, ni, Z95)
        assert abs(low[i] - ref[0]) <= 1e-8 and abs(high[i] - ref[1]) <= 1e-8, cases[i]
    # b = c = 0: the limits in closed form, ±z²/(n + z²)
    zero = paired_difference_interval(0, 0, 25)
    assert np.allclose(zero, (-Z95 ** 2 / (25 + Z95 ** 2), Z95 ** 2 / (25 + Z95 ** 2)),
                       atol=1e-14)


def test_tango_reproduces_published_intervals():
    # Fagerland, Lydersen & Laake (2014): Bentur et al. (a, b, c, d) = (1, 1, 7, 12)
    assert np.allclose(paired_difference_interval(1, 7, 21), (-0.517, -0.026), atol=5e-4)
    # Tango (1998): (43, 0, 1, 0), 90 per cent
    assert np.allclose(paired_difference_interval(0, 1, 44, confidence=0.90),
                       (-0.096, 0.037), atol=5e-4)
    # Agresti & Min (2005): (53, 16, 8, 9)
    assert np.allclose(paired_difference_interval(16, 8, 86), (-0.020, 0.207), atol=5e-4)


def _newcombe_by_hand(a, b, c, d, z=Z95):
    n = a + b + c + d

    def wilson(x):
        p = x / n
        centre, half = p + z * z / (2 * n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        return (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)

    p1, p2 = (a + b) / n, (a + c) / n
    (l1, u1), (l2, u2) = wilson(a + b), wilson(a + c)
    prod = (a + b) * (c + d) * (a + c) * (b + d)
    cross = a * d - b * c
    phi = 0.0
    if prod:
        phi = ((cross - n / 2) if cross > n / 2 else min(cross, 0)) / math.sqrt(prod)
    low = p1 - p2 - math.sqrt((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2)
    high = p1 - p2 + math.sqrt((p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2)
    return low, high


def test_newcombe_reproduces_the_published_example_and_his_formula():
    # Fagerland et al. (2014): Cavo et al. (59, 6, 16, 80), (-0.1186, -0.0046)
    got = paired_difference_interval(6, 16, 161, method="newcombe", a=59)
    assert np.allclose(got, (-0.1186, -0.0046), atol=5e-5)
    rng = np.random.default_rng(11)
    tables = [tuple(rng.multinomial(int(rng.integers(1, 200)), rng.dirichlet(np.ones(4))))
              for _ in range(30)] + [(0, 0, 0, 5), (5, 0, 0, 0), (0, 3, 2, 0), (36, 12, 2, 0)]
    a, b, c, d = map(np.array, zip(*tables))
    low, high = paired_difference_interval(b, c, a + b + c + d, method="newcombe", a=a)
    for i, table in enumerate(tables):
        assert np.allclose((low[i], high[i]), _newcombe_by_hand(*map(int, table)),
                           atol=1e-12), table


def test_every_interval_holds_its_estimate_within_minus_one_to_one_without_warnings():
    rng = np.random.default_rng(12)
    n = np.r_[1, 1, 1, 2, 10, 10, 10, 1_000_000, rng.integers(1, 500, 40)]
    b = np.r_[0, 1, 0, 2, 0, 10, 0, 0, [rng.integers(0, m + 1) for m in n[8:]]]
    c = np.r_[0, 0, 1, 0, 0, 0, 10, 0, [rng.integers(0, m - x + 1) for m, x in zip(n[8:],
                                                                               b[8:])]]
    a = n - b - c
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for method in gate.PAIRED_INTERVALS:
            low, high = paired_difference_interval(b, c, n, method=method, a=a)
            est = (b - c) / n
            assert np.all((-1 <= low) & (low <= est + 1e-12) & (est - 1e-12 <= high)
                          & (high <= 1)), method
            if method != "wald":
                assert np.all(high - low > 0), method


@pytest.mark.simulation
def test_intervals_cover_in_a_small_simulation():
    rng = np.random.default_rng(13)
    probs = [0.55, 0.15, 0.08, 0.22]            # a, b, c, d: true difference 0.07
    cells = rng.multinomial(60, probs, size=4000)
    a, b, c = cells[:, 0], cells[:, 1], cells[:, 2]
    for method in ("tango", "newcombe"):
        low, high = paired_difference_interval(b, c, 60, method=method, a=a)
        assert ((low <= 0.07) & (0.07 <= high)).mean() >= 0.93, method


@pytest.mark.parametrize("kwargs, text", [
    (dict(b=5, c=6, n=10), "b \\+ c <= n"),
    (dict(b=-1, c=0, n=10), "whole numbers"),
    (dict(b=1.5, c=0, n=10), "whole numbers"),
    (dict(b=1, c=0, n=0), "n >= 1"),
    (dict(b=1, c=0, n=10, method="agresti"), "unknown interval"),
    (dict(b=1, c=0, n=10, method="newcombe"), "needs a"),
    (dict(b=1, c=0, n=10, confidence=95), "confidence"),
])
def test_intervals_refuse_bad_counts_in_one_line(kwargs, text):
    with pytest.raises(RankwiseError, match=text) as err:
        paired_difference_interval(**kwargs)
    assert "\n" not in str(err.value)


# ---------------------------------------------------------------- pass@k and pass^k

def test_pass_at_k_and_pass_hat_k_reproduce_the_worked_numbers():
    assert abs(pass_at_k(12, 9, 2) - 0.9545) < 5e-5
    assert str(pass_at_k(1, 0, 1)) == "0.0" and pass_at_k(1, 1, 1) == 1 == pass_hat_k(1, 1, 1)
    want = {1: 0.75, 2: 0.5455, 4: 0.2545, 8: 0.0182, 12: 0.0}
    got = pass_hat_k(12, 9, np.array(list(want)))
    assert np.allclose(got, list(want.values()), atol=5e-5) and got[-1] == 0


def test_pass_at_k_equals_enumeration_of_every_k_subset():
    for n in range(1, 8):
        for c in range(n + 1):
            trials = [1] * c + [0] * (n - c)
            for k in range(1, n + 1):
                subsets = list(itertools.combinations(trials, k))
                any_ok = sum(max(s) for s in subsets) / len(subsets)
                all_ok = sum(min(s) for s in subsets) / len(subsets)
                assert abs(pass_at_k(n, c, k) - any_ok) < 1e-14
                assert abs(pass_hat_k(n, c, k) - all_ok) < 1e-14


def test_pass_at_k_is_vectorised_and_stable_at_the_ends():
    rng = np.random.default_rng(14)
    n = rng.integers(1, 30, 500)
    c = np.array([rng.integers(0, m + 1) for m in n])
    k = np.array([rng.integers(1, m + 1) for m in n])
    many = pass_at_k(n, c, k)
    assert np.allclose(many, [float(1 - Fraction(math.comb(m - x, j), math.comb(m, j)))
                              for m, x, j in zip(n, c, k)], rtol=1e-13, atol=1e-15)
    # one success in a million trials: 1 − (1 − 1/n) loses nothing
    assert abs(pass_at_k(1_000_000, 1, 1) / 1e-6 - 1) < 1e-12
    assert abs(pass_hat_k(1_000_000, 999_999, 1) / (1 - 1e-6) - 1) < 1e-15
    # beyond the product limit the log-gamma path agrees with the exact ratio (its log to
    # about 1e-16 · n log n)
    exact = float(Fraction(math.comb(3500, 1200), math.comb(5000, 1200)))
    assert abs(pass_at_k(5000, 1500, 1200) - (1 - exact)) < 1e-12
    assert abs(pass_hat_k(5000, 3500, 1200) / exact - 1) < 1e-10


@pytest.mark.parametrize("n, c, k, text", [
    (3, 1, 5, "k must not exceed n"),
    (3, 1, 0, "k must be at least 1"),
    (3, 4, 1, "c \\(successes\\) must lie in 0..n"),
    (3, -1, 1, "c \\(successes\\)"),
    (0, 0, 1, "n \\(trials per item\\)"),
    (3, 1.5, 1, "whole numbers"),
    ([3, 3], [1, 1, 1], 1, "broadcast"),
])
def test_pass_at_k_refuses_in_one_line(n, c, k, text):
    for fn in (pass_at_k, pass_hat_k):
        with pytest.raises(RankwiseError, match=text) as err:
            fn(n, c, k)
        assert "\n" not in str(err.value)


# ---------------------------------------------------------------- variance of repeated trials

def _anova_by_hand(groups):
    a = len(groups)
    sizes = [len(g) for g in groups]
    total = sum(sizes)
    grand = sum(sum(g) for g in groups) / total
    ssb = sum(len(g) * (np.mean(g) - grand) ** 2 for g in groups)
    ssw = sum(sum((v - np.mean(g)) ** 2 for v in g) for g in groups)
    msb, msw = ssb / (a - 1), ssw / (total - a)
    n0 = (total - sum(s * s for s in sizes) / total) / (a - 1)
    return grand, msw, max((msb - msw) / n0, 0.0), msb


def test_trial_variance_balanced_equals_the_formula_and_a_mixed_model():
    import statsmodels.formula.api as smf
    import pandas as pd

    rng = np.random.default_rng(15)
    y = 0.5 + rng.normal(0, 0.3, (40, 1)) + rng.normal(0, 0.5, (40, 6))
    r = trial_variance(y)
    grand, msw, between, msb = _anova_by_hand(list(y))
    assert np.allclose([r.mean, r.within, r.between], [grand, msw, between], rtol=1e-12)
    assert np.isclose(r.se, math.sqrt(msb / y.size), rtol=1e-12)
    assert np.isclose(r.se, math.sqrt((r.between + r.within / 6) / 40), rtol=1e-12)
    items = np.repeat(np.arange(40), 6)
    assert np.isclose(r.se, clustered_se(y.ravel(), clusters=items), rtol=1e-12)
    frame = pd.DataFrame({"y": y.ravel(), "item": items})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fit = smf.mixedlm("y ~ 1", frame, groups=frame["item"]).fit(reml=True)
    # balanced, between > 0: REML is the analysis of variance estimate
    assert np.isclose(fit.scale, r.within, rtol=1e-4)
    assert np.isclose(float(fit.cov_re.iloc[0, 0]), r.between, rtol=1e-3)
    assert np.isclose(r.icc, r.between / (r.between + r.within))


def test_trial_variance_unbalanced_equals_the_formula_and_the_clustered_se():
    rng = np.random.default_rng(16)
    sizes = rng.integers(1, 9, 25)
    groups = [list((rng.random(s) < rng.uniform(0.1, 0.9)).astype(float)) for s in sizes]
    items = np.repeat(np.arange(25), sizes)
    order = rng.permutation(len(items))                 # outcomes in any order
    flat = np.concatenate(groups)
    r = trial_variance(flat[order], item_index=[f"q{i}" for i in items[order]])
    grand, msw, between, _ = _anova_by_hand(groups)
    assert np.allclose([r.mean, r.within, r.between], [grand, msw, between], rtol=1e-12)
    assert np.isclose(r.se, clustered_se(flat, clusters=items), rtol=1e-12)
    assert r.n_items == 25 and r.n_outcomes == sizes.sum()


def test_trial_variance_is_vectorised_and_truncates_between_at_zero():
    rng = np.random.default_rng(17)
    y = (rng.random((3, 4, 50, 5)) < 0.6).astype(float)  # tasks × models × items × trials
    many = trial_variance(y)
    one = trial_variance(y[2, 1])
    flat = trial_variance(y[2, 1].ravel(), item_index=np.repeat(np.arange(50), 5))
    for field in ("mean", "within", "between", "se"):
        assert np.isclose(getattr(many, field)[2, 1], getattr(one, field), rtol=1e-12)
        assert np.isclose(getattr(flat, field), getattr(one, field), rtol=1e-12)
    # every item alike (pure noise within items): between truncated to 0, icc 0
    same = trial_variance(np.array([[0, 1, 0, 1], [1, 0, 1, 0], [0, 0, 1, 1]], dtype=float))
    assert same.between == 0 and same.icc == 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        flat_out = trial_variance(np.ones((5, 3)))         # no variance at all
        assert flat_out.se == 0 and np.isnan(flat_out.icc)


@pytest.mark.parametrize("args, text", [
    (([[1, 0, 1]],), "at least 2 items"),
    (([[1], [0], [1]],), "2 or more trials"),
    (([[1, np.nan], [0, 1]],), "finite"),
    (([1, 0, 1],), "items x trials"),
    (([1, 0, 1], [0, 0]), "one label per item"),
])
def test_trial_variance_refuses_in_one_line(args, text):
    with pytest.raises(RankwiseError, match=text) as err:
        trial_variance(*args)
    assert "\n" not in str(err.value)


# ---------------------------------------------------------------- e-values

def _evalue_by_hand(d, margin, sign):
    bets = BETS / (1 - sign * margin)
    return np.mean([np.prod(1 + sign * lam * (np.asarray(d) + margin)) for lam in bets])


def test_regression_evalue_of_binary_pairs_is_the_racing_evalue():
    rng = np.random.default_rng(18)
    for _ in range(40):
        b, c, ties = rng.integers(0, 60, 3)
        d = rng.permutation(np.r_[-np.ones(b), np.ones(c), np.zeros(ties)])
        assert np.isclose(regression_evalue(d, log=True), log_evalue(b, c), rtol=1e-13,
                          atol=1e-13)
        assert np.isclose(noninferiority_evalue(d, 0.0, log=True), log_evalue(c, b),
                          rtol=1e-13, atol=1e-13)


def test_evalues_equal_the_betting_formula_for_real_differences_and_margins():
    rng = np.random.default_rng(19)
    for _ in range(20):
        d = np.clip(rng.normal(-0.05, 0.3, int(rng.integers(1, 60))), -1, 1)
        margin = float(rng.choice([0.0, 0.02, 0.1, 0.5]))
        assert np.isclose(regression_evalue(d, margin), _evalue_by_hand(d, margin, -1),
                          rtol=1e-12)
        assert np.isclose(noninferiority_evalue(d, margin), _evalue_by_hand(d, margin, 1),
                          rtol=1e-12)
        ternary = rng.choice([-1.0, 0.0, 1.0], size=30)       # the counting path
        assert np.isclose(regression_evalue(ternary, margin),
                          _evalue_by_hand(ternary, margin, -1), rtol=1e-12)
    # vectorised over leading axes
    d = rng.uniform(-1, 1, size=(3, 4, 20))
    assert np.allclose(regression_evalue(d)[1, 2], regression_evalue(d[1, 2]), rtol=1e-14)


def test_evalues_are_one_without_data_positive_and_monotone():
    assert regression_evalue([]) == 1 and noninferiority_evalue([], 0.1) == 1
    assert np.all(regression_evalue(np.empty((3, 0))) == 1)
    base = np.r_[-np.ones(10), np.ones(4), np.zeros(30)]
    more = np.r_[base, -1.0]
    assert regression_evalue(more) > regression_evalue(base) > 0
    assert noninferiority_evalue(more, 0.05) < noninferiority_evalue(base, 0.05)
    margins = [0.0, 0.01, 0.05, 0.2, 0.9]
    reg = [regression_evalue(base, m) for m in margins]
    ni = [noninferiority_evalue(base, m) for m in margins]
    assert all(np.diff(reg) < 0) and all(np.diff(ni) > 0) and min(reg) > 0
    # every candidate improvement with the largest margin: still positive, no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert regression_evalue(np.ones(10_000), 0.99) > 0
        huge = regression_evalue(-np.ones(1_000_000))         # beyond the doubles: inf
        assert huge == np.inf and np.isfinite(regression_evalue(-np.ones(1_000_000),
                                                                log=True))


def test_eprocess_and_alarm():
    log_e = eprocess([[2.0, 0.5, 8.0, 3.0], [1.0, 1.0, 1.0, 1.0]])
    assert np.allclose(log_e[0], np.log([2, 1, 8, 24]))
    assert list(alarm(log_e, 0.05)) == [4, 0] and alarm(log_e[0], 0.2) == 3
    assert alarm(eprocess([]), 0.05) == 0 and list(alarm(np.zeros((2, 0)), 0.05)) == [0, 0]
    assert np.allclose(eprocess(np.log([2.0, 3.0]), log=True), np.log([2, 6]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert eprocess([0.0, 5.0])[-1] == -np.inf
    for bad in ([1.0, -0.5], [np.nan]):
        with pytest.raises(RankwiseError, match="e-values must be"):
            eprocess(bad)


@pytest.mark.simulation
def test_null_simulation_the_eprocess_keeps_alpha_and_the_repeated_test_does_not():
    alpha = 0.05
    r = null_simulation(2000, 20, 50, alpha, seed=20)
    for name in ("eprocess", "pooled_evalue"):
        assert r[name]["rate"] <= alpha + 3 * r[name]["se"], name
    assert r["repeated_mcnemar"]["rate"] > alpha + 3 * r["repeated_mcnemar"]["se"]
    power = null_simulation(500, 20, 50, alpha, seed=21, effect=-0.06)
    assert all(power[name]["rate"] > 3 * r[name]["rate"] for name in r)


@pytest.mark.parametrize("call, text", [
    (lambda: regression_evalue([0.5, 1.5]), "scaled into"),
    (lambda: regression_evalue([0.5], margin=1.0), "margin must lie"),
    (lambda: noninferiority_evalue([0.5], margin=-0.1), "margin must be"),
    (lambda: alarm([1.0], 1.5), "alpha"),
    (lambda: null_simulation(10, 2, 5, effect=-0.5), "discordant"),
])
def test_evalues_refuse_in_one_line(call, text):
    with pytest.raises(RankwiseError, match=text) as err:
        call()
    assert "\n" not in str(err.value)


def test_the_variance_split_from_sums_is_the_one_from_outcomes():
    from rankwise.stats.trials import trial_variance, trial_variance_from_sums

    rng = np.random.default_rng(4)
    items = np.repeat(np.arange(40), rng.integers(1, 7, 40))
    y = (rng.random(len(items)) < rng.random(40)[items]).astype(float)
    sizes = np.bincount(items)
    a = trial_variance(y, items)
    b = trial_variance_from_sums(sizes, np.bincount(items, y), np.bincount(items, y * y))
    for key in ("mean", "within", "between", "icc", "se"):
        assert float(getattr(b, key)) == pytest.approx(float(getattr(a, key)), rel=1e-12)
