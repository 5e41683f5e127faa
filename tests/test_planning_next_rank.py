"""Prediction intervals of the rank on a new data set (rankwise.planning.next_rank).

The conformal ends are checked against order statistics taken by hand, the coverage on the
bundled tables by leaving one data set out, and the guarantee itself by a null simulation of
exchangeable data sets (the deep tier). Every test runs with warnings as errors: a user must
never see a numerical warning from these intervals.
"""

import json
import math
import time
import warnings

import numpy as np
import pytest

from rankwise import RankwiseError, load_example
from scipy.stats import rankdata

from rankwise.planning.next_rank import (NextRanks, _doubled_ranks, loo_coverage,
                                     next_rank_intervals, order_indices)

ALPHAS = (0.1, 0.2)


@pytest.fixture(autouse=True)
def warnings_are_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def brute_ranks(values, higher_is_better=True):
    """Ranks counted pair by pair: 1 + (learners better) + (others tied) / 2."""
    values = np.asarray(values, float)
    signed = values if higher_is_better else -values
    n, k = values.shape
    ranks = np.empty((n, k))
    for d in range(n):
        for i in range(k):
            better = sum(signed[d, j] > signed[d, i] for j in range(k))
            tied = sum(signed[d, j] == signed[d, i] for j in range(k) if j != i)
            ranks[d, i] = 1 + better + tied / 2
    return ranks


def fold_array(table):
    """data sets × learners × (repeats × folds) from a table's long ``raw`` frame."""
    raw = table.raw.sort_values(["repeat", "fold"], kind="stable")
    return np.stack([np.stack([raw.loc[(raw.dataset == d) & (raw.learner == name), "value"]
                               .to_numpy(float) for name in table.learners])
                     for d in table.datasets])


def random_effects(rng, reps, n, k, *, spread=1.0, noise=1.0, folds=None, fold_noise=1.0):
    """Scores of exchangeable data sets: a learner effect fixed within each replicate plus
    learner × data-set noise (and fold noise around each cell when ``folds`` is given)."""
    effects = rng.normal(0, spread, (reps, 1, k))
    cells = effects + rng.normal(0, noise, (reps, n, k))
    if folds is None:
        return cells
    return cells[..., None] + rng.normal(0, fold_noise, (reps, n, k, folds))


# 1. the conformal ends are the order statistics named by hand --------------------------------

HAND = np.array([[0.81, 0.74, 0.90, 0.66],
                 [0.70, 0.72, 0.71, 0.69],
                 [0.55, 0.61, 0.58, 0.61],
                 [0.93, 0.88, 0.95, 0.90],
                 [0.60, 0.65, 0.52, 0.70],
                 [0.77, 0.77, 0.77, 0.77],
                 [0.84, 0.79, 0.86, 0.80],
                 [0.49, 0.58, 0.47, 0.51],
                 [0.66, 0.64, 0.69, 0.61]])  # n = 9 data sets, k = 4 learners


@pytest.mark.parametrize("alpha, a, b", [
    (0.2, 1, 9),    # ⌊10 × 0.1⌋ = 1, ⌈10 × 0.9⌉ = 9: the smallest and largest rank
    (0.4, 2, 8),    # ⌊10 × 0.2⌋ = 2, ⌈10 × 0.8⌉ = 8
    (0.5, 2, 8),    # ⌊2.5⌋ = 2, ⌈7.5⌉ = 8
    (0.7, 3, 7),    # ⌊3.5⌋ = 3, ⌈6.5⌉ = 7
    (0.1, 0, 10),   # ⌊0.5⌋ = 0 < 1: rank 1; ⌈9.5⌉ = 10 > 9: rank k
])
@pytest.mark.parametrize("higher_is_better", [True, False])
def test_conformal_ends_are_the_order_statistics(alpha, a, b, higher_is_better):
    assert order_indices(9, alpha) == (a, b)
    ranks = brute_ranks(HAND, higher_is_better)
    res = next_rank_intervals(HAND, alpha=alpha, higher_is_better=higher_is_better)
    for learner in range(4):
        ordered = sorted(ranks[:, learner])
        assert res.lower[learner] == (ordered[a - 1] if a >= 1 else 1.0)
        assert res.upper[learner] == (ordered[b - 1] if b <= 9 else 4.0)
        assert res.median_rank[learner] == ordered[4]
    assert res.n_datasets == 9 and res.n_learners == 4 and res.method == "conformal"


def test_order_indices_keep_the_miss_rate_within_alpha():
    # each side misses with probability at most a/(n+1) ≤ α/2 and (n+1−b)/(n+1) ≤ α/2, and
    # one more step inwards would break that: the ends are as tight as the guarantee allows
    for n in range(2, 60):
        for alpha in (0.01, 0.05, 0.1, 0.2, 0.25, 0.3, 0.5, 0.9):
            a, b = order_indices(n, alpha)
            assert a / (n + 1) <= alpha / 2 + 1e-12 < (a + 1) / (n + 1)
            assert (n + 1 - b) / (n + 1) <= alpha / 2 + 1e-12 < (n + 2 - b) / (n + 1)


def test_result_fields_names_and_json():
    names = tuple("ABCD")
    res = next_rank_intervals(HAND, alpha=0.2, learners=names)
    assert isinstance(res, NextRanks) and res.learners == names
    data = json.loads(json.dumps(res.to_dict()))
    assert set(data) == {"learners", "lower", "upper", "median_rank", "alpha", "method",
                         "n_datasets", "n_learners", "question"}
    assert data["learners"] == list(names) and data["alpha"] == 0.2
    assert all(type(x) is float for x in data["lower"] + data["upper"] + data["median_rank"])
    assert "one new data set" in res.question and "these 9 data sets" in res.question
    assert "0.8" in res.question
    assert next_rank_intervals(HAND).learners == (0, 1, 2, 3)
    with pytest.raises(AttributeError):
        res.alpha = 0.5  # frozen


# 2. leave-one-data-set-out coverage on the bundled tables ------------------------------------

@pytest.mark.parametrize("alpha", ALPHAS)
@pytest.mark.parametrize("name", ["garcia2008", "garcia2010", "demsar2006_table6", "tabarena"])
def test_loo_coverage_conformal_on_examples(name, alpha):
    table = load_example(name)
    share = loo_coverage(table.values, higher_is_better=table.higher_is_better, alpha=alpha)
    assert 1 - alpha <= share <= 1


@pytest.mark.parametrize("alpha", ALPHAS)
@pytest.mark.parametrize("name", ["demo_results", "folds_demo"])
def test_loo_coverage_hierarchical_on_fold_examples(name, alpha):
    table = load_example(name, criterion="accuracy")
    folds = fold_array(table)
    assert folds.shape[:2] == table.values.shape and folds.shape[2] >= 2
    values = folds.mean(axis=2)  # the bootstrap averages folds, so the data set's score does
    for method, extra in (("conformal", {}), ("hierarchical", {"folds": folds, "draws": 500})):
        share = loo_coverage(values, higher_is_better=table.higher_is_better, alpha=alpha,
                             method=method, **extra)
        assert 1 - alpha <= share <= 1


@pytest.mark.parametrize("alpha", ALPHAS)
def test_loo_coverage_hierarchical_on_many_data_sets(alpha):
    # the fold examples have 4 and 5 data sets, whose left-out intervals span every rank at
    # these levels; 40 simulated data sets with noisy folds give intervals with content
    folds = random_effects(np.random.default_rng(3), 1, 40, 6, spread=0.5, folds=10)[0]
    values = folds.mean(axis=2)
    share = loo_coverage(values, alpha=alpha, method="hierarchical", folds=folds, draws=400)
    assert 1 - alpha <= share <= 1
    res = next_rank_intervals(values, alpha=alpha, method="hierarchical", folds=folds,
                              draws=400)
    assert np.any((res.lower > 1) | (res.upper < 6))  # informative, not [1, k] throughout


def test_loo_coverage_matches_refitting_without_each_data_set():
    rng = np.random.default_rng(11)
    folds = random_effects(rng, 1, 12, 5, folds=6)[0]
    values = folds.mean(axis=2)
    ranks = brute_ranks(values)
    for method, extra in (("conformal", {}), ("hierarchical", {"folds": folds, "draws": 200})):
        hits = 0
        for d in range(12):
            keep = np.arange(12) != d
            part = {key: val[keep] for key, val in extra.items() if key == "folds"}
            draws = {key: val for key, val in extra.items() if key == "draws"}
            res = next_rank_intervals(values[keep], alpha=0.3, method=method, **part, **draws)
            hits += np.sum((res.lower <= ranks[d]) & (ranks[d] <= res.upper))
        direct = loo_coverage(values, alpha=0.3, method=method, **extra)
        if method == "conformal":  # the refits draw no resamples: the same cells covered
            assert direct == pytest.approx(hits / values.size)
        else:  # refits spawn their generators afresh, so the draws differ: close, not equal
            assert abs(direct - hits / values.size) <= 0.1


# 3. the guarantee under a null model of exchangeable data sets -------------------------------

def conformal_null_coverage(reps, n, k, alpha, seed):
    """Share of (replicate, learner) whose rank on one new data set lies in the conformal
    interval from n data sets: every replicate at once."""
    scores = random_effects(np.random.default_rng(seed), reps, n + 1, k)
    ranks = (-scores).argsort(axis=2).argsort(axis=2) + 1.0   # continuous scores: no ties
    ordered = np.sort(ranks[:, :n], axis=1)
    a, b = order_indices(n, alpha)
    lower = ordered[:, a - 1] if a >= 1 else np.ones((reps, k))
    upper = ordered[:, b - 1] if b <= n else np.full((reps, k), float(k))
    new = ranks[:, n]
    # the vectorised ends are the function's own: checked on the first replicates
    for r in range(3):
        res = next_rank_intervals(scores[r, :n], alpha=alpha)
        assert np.array_equal(res.lower, lower[r]) and np.array_equal(res.upper, upper[r])
    return np.mean((lower <= new) & (new <= upper))


def hierarchical_null_coverage(reps, n, k, alpha, seed, draws):
    rng = np.random.default_rng(seed)
    folds = random_effects(rng, reps, n + 1, k, spread=0.5, folds=5, fold_noise=2.0)
    hits = 0
    for r in range(reps):
        values = folds[r].mean(axis=2)
        res = next_rank_intervals(values[:n], alpha=alpha, method="hierarchical",
                                  folds=folds[r, :n], draws=draws, seed=r)
        new = brute_ranks(values[n:])[0]
        hits += np.sum((res.lower <= new) & (new <= res.upper))
    return hits / (reps * k)


@pytest.mark.simulation
@pytest.mark.parametrize("alpha", ALPHAS)
@pytest.mark.parametrize("n", [9, 19, 30])
def test_null_simulation_conformal(n, alpha):
    assert conformal_null_coverage(1000, n, 8, alpha, seed=n) >= 1 - alpha - 0.01


@pytest.mark.simulation
@pytest.mark.parametrize("alpha", ALPHAS)
def test_null_simulation_hierarchical(alpha):
    assert hierarchical_null_coverage(1000, 19, 5, alpha, seed=7, draws=100) >= 1 - alpha - 0.01


@pytest.mark.slow
@pytest.mark.parametrize("alpha", [0.05, 0.1, 0.2])
def test_null_simulation_many_replicates(alpha):
    # 50,000 replicates: the Monte Carlo error is about 0.001, so coverage within 0.005 of
    # the bound (n = 19 puts (n + 1)α/2 on a whole number, where the bound is exact)
    assert conformal_null_coverage(50_000, 19, 8, alpha, seed=1) >= 1 - alpha - 0.005
    assert hierarchical_null_coverage(5000, 19, 5, alpha, seed=2, draws=200) >= 1 - alpha - 0.01


# 4. determinism, ties, extremes, bad input -----------------------------------------------------

def test_same_seed_same_intervals():
    folds = random_effects(np.random.default_rng(5), 1, 15, 6, folds=8)[0]
    values = folds.mean(axis=2)

    def fit(seed):
        return next_rank_intervals(values, method="hierarchical", folds=folds, draws=300,
                                   seed=seed, alpha=0.3)

    one, two = fit(4), fit(4)
    for field in ("lower", "upper", "median_rank"):
        assert np.array_equal(getattr(one, field), getattr(two, field))
    assert (loo_coverage(values, method="hierarchical", folds=folds, draws=300, seed=4)
            == loo_coverage(values, method="hierarchical", folds=folds, draws=300, seed=4))


def test_hierarchical_spans_conformal_and_equals_it_without_fold_noise():
    rng = np.random.default_rng(8)
    values = random_effects(rng, 1, 20, 6)[0]
    flat = np.repeat(values[..., None], 4, axis=2)   # every fold the same: no rank uncertainty
    for alpha in (0.1, 0.2, 0.5):
        plain = next_rank_intervals(values, alpha=alpha)
        same = next_rank_intervals(values, alpha=alpha, method="hierarchical", folds=flat,
                                   draws=200)
        assert np.array_equal(plain.lower, same.lower)
        assert np.array_equal(plain.upper, same.upper)
        assert np.array_equal(plain.median_rank, same.median_rank)
        noisy = flat + rng.normal(0, 2.0, flat.shape)
        wide = next_rank_intervals(noisy.mean(axis=2), alpha=alpha, method="hierarchical",
                                   folds=noisy, draws=200)
        narrow = next_rank_intervals(noisy.mean(axis=2), alpha=alpha)
        assert np.all(wide.lower <= narrow.lower) and np.all(wide.upper >= narrow.upper)
        assert np.all((1 <= wide.lower) & (wide.lower <= wide.median_rank)
                      & (wide.median_rank <= wide.upper) & (wide.upper <= 6))


def test_all_tied_data_set_gets_mean_ranks_and_is_covered():
    k = 5
    tied = np.full((8, k), 0.7)
    res = next_rank_intervals(tied, alpha=0.5)
    assert np.all(res.lower == 3.0) and np.all(res.upper == 3.0)   # (k + 1) / 2
    assert loo_coverage(tied, alpha=0.5) == 1.0
    # one tied data set among others gets the mean rank 2.5 of 4, which the intervals from
    # the other nine (α = 0.2: their smallest and largest ranks) hold for every learner
    values = np.vstack([HAND, np.full((1, 4), 0.5)])
    assert brute_ranks(values)[-1].tolist() == [2.5] * 4
    res = next_rank_intervals(HAND, alpha=0.2)
    assert np.all((res.lower <= 2.5) & (2.5 <= res.upper))
    assert loo_coverage(values, alpha=0.2) >= 0.8
    folds = np.repeat(tied[..., None], 3, axis=2)
    hier = next_rank_intervals(tied, alpha=0.5, method="hierarchical", folds=folds, draws=100)
    assert np.all(hier.lower == 3.0) and np.all(hier.upper == 3.0)
    assert np.all(hier.median_rank == 3.0)


@pytest.mark.parametrize("scale", [1e-300, 1e300])
def test_extreme_scales_give_the_same_intervals(scale):
    folds = random_effects(np.random.default_rng(9), 1, 14, 5, folds=6)[0]
    values = folds.mean(axis=2)
    for method, extra in (("conformal", {}), ("hierarchical", {"draws": 200})):
        base = next_rank_intervals(values, alpha=0.3, method=method,
                                   **({"folds": folds} if extra else {}), **extra)
        big = next_rank_intervals(values * scale, alpha=0.3, method=method,
                                  **({"folds": folds * scale} if extra else {}), **extra)
        assert np.array_equal(base.lower, big.lower) and np.array_equal(base.upper, big.upper)
    mixed = np.array([[1e-300, 1e300, 1.0], [1e300, 1e-300, 1.0], [1e-300, 1e300, -1e300]])
    # ranks by row: (3, 1, 2), (1, 3, 2), (2, 1, 3); medians 2, 1 and 2
    res = next_rank_intervals(mixed, alpha=0.9)
    assert res.median_rank.tolist() == [2.0, 1.0, 2.0]


def test_a_thousand_learners_on_two_hundred_data_sets():
    values = random_effects(np.random.default_rng(12), 1, 200, 1000, spread=0.3)[0]
    start = time.perf_counter()
    res = next_rank_intervals(values, alpha=0.1)
    share = loo_coverage(values, alpha=0.1)
    print(f"k = 1000, n = 200: intervals and leave-one-out {time.perf_counter() - start:.2f} s")
    assert res.lower.shape == (1000,) and np.all((1 <= res.lower) & (res.upper <= 1000))
    assert np.all(res.lower <= res.median_rank) and np.all(res.median_rank <= res.upper)
    assert share >= 0.9 - 0.01


@pytest.mark.large
def test_hierarchical_with_a_thousand_learners():
    rng = np.random.default_rng(13)
    folds = random_effects(rng, 1, 200, 1000, spread=0.3, folds=5)[0]
    start = time.perf_counter()
    res = next_rank_intervals(folds.mean(axis=2), method="hierarchical", folds=folds,
                              draws=200)
    print(f"k = 1000, n = 200, 200 draws: hierarchical {time.perf_counter() - start:.2f} s")
    assert np.all((1 <= res.lower) & (res.lower <= res.median_rank)
                  & (res.median_rank <= res.upper) & (res.upper <= 1000))


@pytest.mark.parametrize("levels", [2, 5, 10**6])
def test_bootstrap_ranks_are_scipys_mean_ranks(levels):
    # the bootstrap ranks its draws by one sort of its own (scipy's is five times slower on
    # thousands of rows): the same mean ranks, with ties (few levels) and without
    x = np.random.default_rng(levels).integers(0, levels, (300, 40)).astype(float)
    order, doubled = _doubled_ranks(x)
    ranks = np.empty(x.shape)
    np.put_along_axis(ranks, order, doubled / 2 + 1, axis=1)
    assert np.array_equal(ranks, rankdata(x, axis=1))


@pytest.mark.parametrize("change, message", [
    (dict(values=[[1.0, np.nan], [2.0, 3.0]]), "NaN at index (0, 1)"),
    (dict(values=[[1.0, np.inf], [2.0, 3.0]]), "infinite"),
    (dict(values=[[1.0, 2.0, 3.0]]), "need at least 2 data sets to predict the rank on a new"
                                     " one, got 1"),
    (dict(values=[[1.0], [2.0]]), "at least 2 learners"),
    (dict(values=[1.0, 2.0]), "data sets × learners"),
    (dict(values=[["a", "b"], ["c", "d"]]), "must be numbers"),
    (dict(alpha=0), "alpha must be a number strictly between 0 and 1"),
    (dict(alpha=1), "alpha must be"),
    (dict(alpha=-0.1), "alpha must be"),
    (dict(alpha=1.5), "alpha must be"),
    (dict(alpha=float("nan")), "alpha must be"),
    (dict(alpha="0.1"), "alpha must be"),
    (dict(method="bayes"), "method must be 'conformal' or 'hierarchical'"),
    (dict(method="hierarchical"), "needs folds="),
    (dict(folds=np.zeros((3, 2, 4))), "only by method='hierarchical'"),
    (dict(method="hierarchical", folds=np.zeros((3, 3, 4))), "folds must have shape (3, 2, m)"),
    (dict(method="hierarchical", folds=np.zeros((3, 2))), "folds must have shape"),
    (dict(method="hierarchical", folds=np.zeros((3, 2, 1))), "m ≥ 2"),
    (dict(method="hierarchical", folds=np.full((3, 2, 4), np.nan)), "folds has NaN"),
    (dict(draws=10), "draws must be a whole number of at least 100"),
    (dict(seed=-1), "seed must be"),
    (dict(learners=("only one",)), "1 learner names for 2 columns"),
])
def test_bad_input_is_refused_in_one_line(change, message):
    args = dict(values=[[1.0, 2.0], [2.0, 1.0], [3.0, 3.0]])
    args.update(change)
    values = args.pop("values")
    with pytest.raises(RankwiseError) as caught:
        next_rank_intervals(values, **args)
    text = str(caught.value)
    assert message in text and "\n" not in text
    if "learners" not in args:
        with pytest.raises(RankwiseError):
            loo_coverage(values, **args)


def test_leave_one_out_needs_three_data_sets():
    with pytest.raises(RankwiseError, match="at least 3 data sets, got 2"):
        loo_coverage([[1.0, 2.0], [2.0, 1.0]])
    assert math.isclose(loo_coverage([[1.0, 2.0], [2.0, 1.0], [1.0, 2.0]], alpha=0.5), 1.0)
