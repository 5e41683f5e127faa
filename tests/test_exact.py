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
