"""Signal, noise and decision accuracy of a benchmark (rankwise.planning.signal)."""

import json
import math
import warnings

import numpy as np
import pytest
from scipy.stats import kendalltau

from rankwise import load_example
from rankwise.errors import RankwiseError
from rankwise.planning import signal as sig
from rankwise.planning.signal import (budget_decision_accuracy, decision_accuracy,
                                  signal_to_noise, suite_decision_accuracy)


def brute_accuracy(small, large):
    """Every pair i < j: 1 when ordered alike, 1/2 when small ties it; large's ties left out."""
    small, large = np.asarray(small, float), np.asarray(large, float)
    i, j = np.triu_indices(small.size, 1)
    ds, dl = np.sign(small[i] - small[j]), np.sign(large[i] - large[j])
    keep = dl != 0
    return float(np.mean(np.where(ds[keep] == 0, 0.5, ds[keep] == dl[keep])))


def grid_accuracy(small, large):
    """The same count for whole-number scores by another route: a table of how many learners
    have each (large, small) pair of values and its cumulative sums; no pair is visited."""
    small, large = small - small.min(), large - large.min()
    cells = np.zeros((large.max() + 1, small.max() + 1), np.int64)
    np.add.at(cells, (large, small), 1)
    upto = cells.cumsum(0).cumsum(1)  # learners with large <= a and small <= b
    below = np.zeros_like(upto)  # ... with large < a and small < b
    below[1:, 1:] = upto[:-1, :-1]
    below_any = np.zeros_like(upto)  # ... with large < a and small <= b
    below_any[1:] = upto[:-1]
    fewer = np.zeros(cells.shape[0], np.int64)  # learners with large < a
    fewer[1:] = cells.sum(1).cumsum()[:-1]
    concordant = int((cells * below).sum())
    discordant = int((cells * (fewer[:, None] - below_any)).sum())

    def pairs(c):
        return int((c * (c - 1) // 2).sum())

    tied_small = pairs(cells.sum(0)) - pairs(cells)
    scored = pairs(np.array([small.size])) - pairs(cells.sum(1))
    assert concordant + discordant + tied_small == scored
    return (concordant + tied_small / 2) / scored


# -- decision accuracy ----------------------------------------------------------------------

def test_decision_accuracy_matches_brute_force_with_ties():
    rng = np.random.default_rng(1)
    checked = 0
    for _ in range(500):
        k = int(rng.integers(2, 15))
        top = int(rng.integers(1, 5))  # few values: many ties on both sides
        small, large = rng.integers(0, top + 1, size=(2, k))
        if np.unique(large).size == 1:
            with pytest.raises(RankwiseError, match="ties all"):
                decision_accuracy(small, large)
            continue
        brute = brute_accuracy(small, large)
        assert decision_accuracy(small, large) == pytest.approx(brute, abs=1e-12)
        assert grid_accuracy(small, large) == pytest.approx(brute, abs=1e-12)  # the check below
        checked += 1
    assert checked > 400


def test_decision_accuracy_is_invariant_to_direction_and_monotone_maps():
    rng = np.random.default_rng(2)
    small, large = rng.normal(size=(2, 30)).round(1)
    base = decision_accuracy(small, large)
    assert decision_accuracy(small, large, higher_is_better=False) == base
    assert decision_accuracy(np.exp(small), 3 * large - 7) == pytest.approx(base, abs=1e-15)
    assert decision_accuracy(large, large) == 1.0
    assert decision_accuracy(-large, large) == 0.0


def test_decision_accuracy_ten_thousand_learners_at_extreme_scales():
    rng = np.random.default_rng(3)
    k = 10_000
    large = rng.integers(0, 2000, k).astype(float)  # ties in both vectors
    small = large + rng.integers(-300, 300, k)
    expected = grid_accuracy(small.astype(int), large.astype(int))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for scale in (1.0, 1e-300, 1e300):
            got = decision_accuracy(small * scale, large * scale)
            assert got == pytest.approx(expected, abs=1e-12)
    assert 0.5 < expected < 1
    # distinct values: (1 + Kendall's tau) / 2, and k² joint ties to count must not cost k²
    shared = rng.normal(size=k)
    small, large = shared + 0.5 * rng.normal(size=(2, k))
    tau = kendalltau(small, large).statistic
    assert decision_accuracy(small, large) == pytest.approx((1 + tau) / 2, abs=1e-9)


# -- signal and noise -----------------------------------------------------------------------

def test_snr_by_hand_on_three_learners_four_repeats():
    # A: mean 2.5, variance 5/3; B: mean 2, variance 0; C: mean 6.5, variance 5/3.
    # pooled variance 10/9, range 4.5, grand mean 11/3
    values = [[1, 2, 3, 4], [2, 2, 2, 2], [5, 6, 7, 8]]
    res = signal_to_noise(values, learners=["A", "B", "C"])
    pooled = math.sqrt(10) / 3
    assert res.signal == pytest.approx(4.5, rel=1e-14)
    assert res.noise == pytest.approx(pooled, rel=1e-14)
    assert res.snr == pytest.approx(4.5 / pooled, rel=1e-14)
    assert res.means == pytest.approx((2.5, 2.0, 6.5), rel=1e-14)
    assert res.sds == pytest.approx((math.sqrt(5 / 3), 0.0, math.sqrt(5 / 3)), rel=1e-14)
    assert res.se_mean == pytest.approx(pooled / 2, rel=1e-14)
    assert res.grand_mean == pytest.approx(11 / 3, rel=1e-14)
    assert res.relative_signal == pytest.approx(4.5 / (11 / 3), rel=1e-14)
    assert res.relative_noise == pytest.approx(pooled / (11 / 3), rel=1e-14)
    assert res.best == "C" and not res.relative
    assert signal_to_noise(values, learners=["A", "B", "C"],
                           higher_is_better=False).best == "B"
    rel = signal_to_noise(values, relative=True)
    assert rel.relative and rel.signal == pytest.approx(res.relative_signal, rel=1e-14)
    assert rel.snr == pytest.approx(res.snr, rel=1e-12)  # the mean cancels
    assert "SNR 4.27" in res.sentence() and "4 repeats" in res.sentence()
    json.dumps(res.to_dict())


def test_absolute_snr_ignores_shift_and_scale_relative_ignores_scale():
    rng = np.random.default_rng(4)
    x = rng.normal(0.8, 0.02, size=(6, 5)) + np.linspace(0, 0.05, 6)[:, None]
    base = signal_to_noise(x)
    moved = signal_to_noise(x * -3.5 + 100.0)
    assert moved.snr == pytest.approx(base.snr, rel=1e-9)
    assert moved.signal == pytest.approx(3.5 * base.signal, rel=1e-9)
    rel = signal_to_noise(x, relative=True)
    scaled = signal_to_noise(x * 250.0, relative=True)
    assert scaled.signal == pytest.approx(rel.signal, rel=1e-12)
    assert scaled.noise == pytest.approx(rel.noise, rel=1e-12)
    # a shift changes the relative signal and noise (not their ratio): the reason for the
    # absolute default
    shifted = signal_to_noise(x + 10.0, relative=True)
    assert shifted.signal < rel.signal / 5


def test_snr_at_extreme_scales_without_warnings():
    x = np.array([[0.80, 0.82, 0.84], [0.70, 0.71, 0.72], [0.75, 0.79, 0.74]])
    base = signal_to_noise(x)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for scale in (1e-300, 1e300):
            res = signal_to_noise(x * scale, relative=True)
            assert res.snr == pytest.approx(base.snr, rel=1e-12)
            assert res.noise == pytest.approx(base.relative_noise, rel=1e-12)
            assert signal_to_noise(x * scale).pooled_sd == pytest.approx(
                base.pooled_sd * scale, rel=1e-12)
            json.dumps(res.to_dict())


def test_zero_noise_is_infinite_snr_and_no_spread_is_undefined():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = signal_to_noise([[0.9, 0.9], [0.8, 0.8]])
        flat = signal_to_noise([[0.5, 0.5], [0.5, 0.5]])
    assert math.isinf(res.snr) and res.noise == 0
    assert "SNR inf" in res.sentence()
    assert res.to_dict()["snr"] is None  # JSON has no infinity
    assert math.isnan(flat.snr) and "undefined" in flat.sentence()


def test_snr_from_the_repeats_of_a_bundled_experiment():
    raw = load_example("demo_results", criterion="accuracy").raw
    # a complete benchmark score per repeat: the mean over data sets and folds
    per_repeat = raw.groupby(["learner", "repeat"])["value"].mean().unstack("repeat")
    assert per_repeat.shape[1] >= 2 and not per_repeat.isna().any().any()
    res = signal_to_noise(per_repeat.to_numpy(), learners=list(per_repeat.index))
    assert math.isfinite(res.snr) and res.snr > 0
    assert res.n_repeats == per_repeat.shape[1]
    assert set(res.learners) == set(raw["learner"].unique())
    assert res.relative_signal is not None  # accuracies are positive


@pytest.mark.parametrize("values, message", [
    ([[0.9, 0.8, 0.7]], "at least 2 learners"),
    ([[0.9], [0.8]], "at least 2 repeats"),
    ([[0.9, np.nan], [0.8, 0.7]], "finite"),
    ([0.9, 0.8], "2-D"),
])
def test_snr_refuses_bad_tables(values, message):
    with pytest.raises(RankwiseError, match=message):
        signal_to_noise(values)


def test_snr_refuses_relative_for_scores_that_are_not_positive_and_bad_names():
    with pytest.raises(RankwiseError, match="every score > 0"):
        signal_to_noise([[-0.1, 0.1], [0.2, 0.3]], relative=True)
    assert signal_to_noise([[-0.1, 0.1], [0.2, 0.3]]).relative_signal is None
    with pytest.raises(RankwiseError, match="learners must name"):
        signal_to_noise([[0.1, 0.2], [0.2, 0.3]], learners=["only one"])
    with pytest.raises(RankwiseError, match="relative must be True or False"):
        signal_to_noise([[0.1, 0.2], [0.2, 0.3]], relative="yes")


# -- a suite cut to n' data sets ------------------------------------------------------------

def test_suite_accuracy_grows_with_the_suite_and_is_one_on_all_of_it():
    t = load_example("garcia2008")
    n = t.values.shape[0]
    sizes = [2, 5, 10, 20, n]
    res = suite_decision_accuracy(t.values, sizes, higher_is_better=t.higher_is_better)
    acc = np.array(res.accuracy)
    # in expectation non-decreasing: a tolerance for the spread of 200 draws
    assert (np.diff(acc) >= -0.02).all()
    assert acc[-1] == 1.0 and res.lower[-1] == 1.0 and res.upper[-1] == 1.0
    assert res.same_best[-1] == 1.0
    assert acc[0] < acc[-1]
    assert all(lo <= a <= hi for lo, a, hi in zip(res.lower, res.accuracy, res.upper))
    assert all(0 <= p <= 1 for p in res.same_best)
    assert f"of the {n} data sets" in res.sentence()
    json.dumps(res.to_dict())


def test_suite_accuracy_is_deterministic_and_seeded():
    t = load_example("garcia2008")
    one = suite_decision_accuracy(t.values, [3, 8], draws=50, seed=7)
    two = suite_decision_accuracy(t.values, [3, 8], draws=50, seed=7)
    assert one == two
    other = suite_decision_accuracy(t.values, [3, 8], draws=50, seed=8)
    assert other.seed == 8 and other.to_dict()["draws"] == 50


def test_suite_accuracy_one_draw_at_a_time_matches_the_table_of_pairs(monkeypatch):
    rng = np.random.default_rng(5)
    x = rng.integers(0, 4, size=(12, 9)).astype(float)  # ties within data sets
    table = suite_decision_accuracy(x, [2, 6], draws=40)
    monkeypatch.setattr(sig, "PAIR_CELLS", 3)  # fewer cells than pairs: the O(k log k) path
    looped = suite_decision_accuracy(x, [2, 6], draws=40)
    np.testing.assert_allclose(looped.accuracy, table.accuracy, atol=1e-12)
    np.testing.assert_allclose(looped.lower, table.lower, atol=1e-12)


def test_suite_accuracy_refuses_bad_input():
    x = np.arange(12.0).reshape(4, 3)
    with pytest.raises(RankwiseError, match="sizes must be a whole number from 1 to 4"):
        suite_decision_accuracy(x, [5])
    with pytest.raises(RankwiseError, match="draws"):
        suite_decision_accuracy(x, [2], draws=0)
    with pytest.raises(RankwiseError, match="seed"):
        suite_decision_accuracy(x, [2], seed=-1)
    with pytest.raises(RankwiseError, match="finite"):
        suite_decision_accuracy([[1.0, np.nan], [2.0, 1.0]], [1])
    with pytest.raises(RankwiseError, match="tie all 3 learners"):
        suite_decision_accuracy(np.ones((4, 3)), [2])
    with pytest.raises(RankwiseError, match="decimals"):
        suite_decision_accuracy(x, [2], decimals=-1)


def test_suite_accuracy_at_extreme_scales_without_warnings():
    t = load_example("garcia2008")
    base = suite_decision_accuracy(t.values, [4, 12], draws=60)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        big = suite_decision_accuracy(t.values * 1e300, [4, 12], draws=60)
        # far below 1e-12 the default rounding ties everything: the message says so
        with pytest.raises(RankwiseError, match="rounded to 12 decimals"):
            suite_decision_accuracy(t.values * 1e-300, [4, 12], draws=60)
        tiny = suite_decision_accuracy(t.values * 1e-300, [4, 12], draws=60, decimals=None)
    assert big.accuracy == base.accuracy and big.same_best == base.same_best
    unrounded = suite_decision_accuracy(t.values, [4, 12], draws=60, decimals=None)
    assert tiny.accuracy == unrounded.accuracy


# -- budgets --------------------------------------------------------------------------------

def test_budget_accuracy_sorts_budgets_and_finds_the_smallest_that_reaches_the_target():
    rows = [[2, 3, 4, 5], [1, 3, 2, 4], [1, 2, 3, 4], [1, 2, 3, 5]]
    res = budget_decision_accuracy(rows, [8, 2, 1, 4])  # given out of order
    assert res.budgets == (1, 2, 4, 8)
    assert res.accuracy == pytest.approx((1.0, 5 / 6, 1.0, 1.0))
    assert res.reached_at == 1 and res.sustained_from == 4
    assert "every budget from 4 on" in res.sentence()
    strict = budget_decision_accuracy(rows, [8, 2, 1, 4], target=1.0)
    assert strict.reached_at == 1
    never = budget_decision_accuracy([[4, 3, 2, 1], [1, 2, 3, 4]], [1, 2])
    assert never.reached_at is None and never.sustained_from is None
    assert never.accuracy[0] == 0.0 and "No budget" in never.sentence()
    json.dumps(res.to_dict())


def test_budget_accuracy_refuses_bad_input():
    rows = [[1, 2, 3], [1, 3, 2]]
    with pytest.raises(RankwiseError, match="distinct"):
        budget_decision_accuracy(rows, [1, 1])
    with pytest.raises(RankwiseError, match="2 finite numbers"):
        budget_decision_accuracy(rows, [1, 2, 3])
    with pytest.raises(RankwiseError, match="target"):
        budget_decision_accuracy(rows, [1, 2], target=1.5)
    with pytest.raises(RankwiseError, match="at least 2 budgets"):
        budget_decision_accuracy([[1, 2, 3]], [1])


def test_decision_accuracy_refuses_bad_input():
    with pytest.raises(RankwiseError, match="one score per learner each"):
        decision_accuracy([1, 2, 3], [1, 2])
    with pytest.raises(RankwiseError, match="vectors"):
        decision_accuracy([[1, 2]], [[1, 2]])
    with pytest.raises(RankwiseError, match="at least 2 learners"):
        decision_accuracy([1], [1])
    with pytest.raises(RankwiseError, match="finite"):
        decision_accuracy([1, np.nan], [1, 2])
    with pytest.raises(RankwiseError, match="ties all 3"):
        decision_accuracy([1, 2, 3], [5, 5, 5])
