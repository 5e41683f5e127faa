"""Pareto fronts of learners on several criteria, how often each learner is on the front when
the data sets are drawn again, and which learners another one beats significantly on one
criterion without losing on any.

Every function takes the criteria *oriented*: each column of ``points`` is higher-is-better
(a lower-is-better criterion, a time, is negated by the caller, :func:`orient`).

Conventions (named, as every report states them):

- ``strict`` (default): a learner is on the front when no other learner is at least as good on
  every criterion and better on one (Pareto dominance). Learners with equal points are all on
  the front or all off it.
- ``tabarena``: TabArena's ``get_pareto_frontier`` (two criteria, x and y): the points sorted by
  (x, y) in x's direction, a point stays when its y is at least the best y before it. So a
  point tied on y with one better on x stays on (TabArena draws it on the step of the
  frontier), and of two points tied on x the first in that order stays even when the other has
  a better y (when x and y point different ways). Equal to TabArena 0.1.0 on 60 reference
  tables (tests/test_fronts.py).

Examples
--------
Three learners on accuracy (higher is better) and time (lower is better): B is slower and
less accurate than A, so only A and C are on the front:

>>> import numpy as np
>>> from rankwise.stats.fronts import orient, pareto_front
>>> acc, time = np.array([0.9, 0.8, 0.85]), np.array([2.0, 3.0, 1.0])
>>> pareto_front(orient(np.c_[acc, time], [True, False])).tolist()
[True, False, True]
"""

from __future__ import annotations

import numpy as np

from ..defaults import DEFAULT_DECIMALS
from .resample import multinomial_blocks

CONVENTIONS = ("strict", "tabarena")
#: Pairs of learners compared at once by the general (more than two criteria) front.
BLOCK_PAIRS = 4_000_000


def orient(points, maximize) -> np.ndarray:
    """``points`` (… × m) with every lower-is-better column negated: higher is better."""
    points = np.asarray(points, dtype=float)
    sign = np.where(np.asarray(maximize, dtype=bool), 1.0, -1.0)
    return points * sign


def pareto_front(points, convention: str = "strict", maximize=None) -> np.ndarray:
    """Which of the k points (k × m, every column higher-is-better) are on the Pareto front.

    Two criteria: sorted once (O(k log k)); more: compared pair by pair in blocks.
    ``maximize``: the criteria's directions before :func:`orient`; only the ``tabarena``
    convention needs them (TabArena sorts by (x, y) in x's direction, so which of two points
    tied on x comes first depends on both directions).

    Examples
    --------
    B ties A on y and is worse on x: off Pareto's front, on TabArena's step:

    >>> from rankwise.stats.fronts import pareto_front
    >>> pts = [[0.9, 1.0], [0.8, 1.0], [0.7, 2.0]]
    >>> pareto_front(pts).tolist(), pareto_front(pts, "tabarena").tolist()
    ([True, False, True], [True, True, True])
    """
    points = np.asarray(points, dtype=float)
    if points.ndim != 2:
        raise ValueError("points must be k x m")
    if convention not in CONVENTIONS:
        raise ValueError(f"convention must be one of {', '.join(CONVENTIONS)}")
    k, m = points.shape
    if convention == "tabarena":
        if m != 2:
            raise ValueError("the tabarena convention is defined for two criteria")
        same = maximize is None or bool(maximize[0]) == bool(maximize[1])
        return _tabarena(points, same)
    if k == 0:
        return np.zeros(0, dtype=bool)
    if m == 1:
        return points[:, 0] == points[:, 0].max()
    if m == 2:
        return _two(points)
    return _general(points)


def _two(points) -> np.ndarray:
    """Two criteria: sorted by x (best first), a point is dominated when a point of larger x
    has y at least as large, or a point of equal x has larger y."""
    x, y = points[:, 0], points[:, 1]
    order = np.lexsort((-y, -x))
    xs, ys = x[order], y[order]
    k = len(xs)
    start = np.r_[True, xs[1:] != xs[:-1]]
    group = np.cumsum(start) - 1
    first = np.flatnonzero(start)
    cummax = np.maximum.accumulate(ys)
    # the best y among points of strictly larger x: the running maximum just before the group
    before = np.where(first > 0, cummax[np.maximum(first - 1, 0)], -np.inf)[group]
    best_in_group = ys[first][group]  # sorted by y within a group: its first is its best
    dominated = (before >= ys) | (best_in_group > ys)
    out = np.empty(k, dtype=bool)
    out[order] = ~dominated
    return out


def outdone(points, rows=slice(None)) -> np.ndarray:
    """``[i, j]`` for the points ``rows`` (i) and every point j: j at least as good on every
    criterion and better on one (oriented ``points``, k × m)."""
    points = np.asarray(points, dtype=float)
    p = points[rows]
    return ((points[None, :, :] >= p[:, None, :]).all(axis=2)
            & (points[None, :, :] > p[:, None, :]).any(axis=2))


def _general(points) -> np.ndarray:
    k, m = points.shape
    dominated = np.zeros(k, dtype=bool)
    rows = max(1, BLOCK_PAIRS // max(k * m, 1))
    for lo in range(0, k, rows):
        dominated[lo:lo + rows] = outdone(points, slice(lo, lo + rows)).any(axis=1)
    return ~dominated


def _tabarena(points, same_direction: bool = True) -> np.ndarray:
    """TabArena's rule: sorted by x best first (ties on x: by y in x's direction, so best y
    first when both criteria point the same way), a point is kept when its y is at least the
    best y before it."""
    x, y = points[:, 0], points[:, 1]
    order = np.lexsort((-y if same_direction else y, -x))
    ys = y[order]
    prior = np.r_[-np.inf, np.maximum.accumulate(ys)[:-1]]
    out = np.empty(len(x), dtype=bool)
    out[order] = ys >= prior
    return out


def brute_front(points) -> np.ndarray:
    """The strict front by the definition, pair by pair (for the tests)."""
    points = np.asarray(points, dtype=float)
    k = len(points)
    keep = np.ones(k, dtype=bool)
    for i in range(k):
        for j in range(k):
            if j != i and (points[j] >= points[i]).all() and (points[j] > points[i]).any():
                keep[i] = False
                break
    return keep


def aggregate(values, how: str, weights=None) -> np.ndarray:
    """Each learner's aggregate of each criterion over the data sets.

    ``values``: n × k × m (oriented). ``how``: ``mean`` (of the values), ``median`` or
    ``rank`` (the mean of the within-data-set ranks, 1 = best, negated so that higher is
    better). ``weights``: R × n counts of a bootstrap (each row sums to n); the result is then
    R × k × m.
    """
    values = np.asarray(values, dtype=float)
    n, k, m = values.shape
    if how == "rank":
        from scipy.stats import rankdata

        values = -rankdata(-values, axis=1)   # higher is better: minus the rank
        how = "mean"
    if weights is None:
        return np.median(values, axis=0) if how == "median" else values.mean(axis=0)
    weights = np.asarray(weights, dtype=float)
    if how == "mean":
        flat = weights @ values.reshape(n, k * m) / n
        return flat.reshape(len(weights), k, m)
    out = np.empty((len(weights), k, m))
    for r, w in enumerate(weights):
        out[r] = np.median(values[np.repeat(np.arange(n), w.astype(int))], axis=0)
    return out


def front_probability(values, how: str, rounds: int, seed, convention: str = "strict",
                      confidence: float = 0.95, maximize=None):
    """The share of bootstrap rounds (data sets drawn with replacement) in which each learner
    is on the front, and percentile intervals of each aggregate.

    Returns ``(probability k, low k × m, high k × m)`` (oriented).

    Examples
    --------
    A learner far ahead on both criteria is on the front in every draw:

    >>> import numpy as np
    >>> from rankwise.stats.fronts import front_probability
    >>> v = np.random.default_rng(0).normal(size=(10, 3, 2))
    >>> v[:, 0] += 5
    >>> p, low, high = front_probability(v, "mean", rounds=100, seed=1)
    >>> float(p[0])
    1.0
    """
    n = values.shape[0]
    on = np.zeros(values.shape[1])
    # a block of rounds at a time: the counts (rounds x n) and aggregates stay bounded
    chunk = max(1, 20_000_000 // max(values.size, n, 1))
    aggs = []
    for counts in multinomial_blocks(n, rounds, seed, chunk):
        agg = aggregate(values, how, counts)
        for a in agg:
            on += pareto_front(a, convention, maximize)
        aggs.append(agg)
    agg = np.concatenate(aggs)
    tail = (1 - confidence) / 2
    low, high = np.quantile(agg, [tail, 1 - tail], axis=0)
    return on / rounds, low, high


#: ``test="auto"`` takes the Wilcoxon signed-rank test up to this many learners and the
#: mean-rank z-test (Friedman's ranks) above, where k² Wilcoxon tests would take minutes.
WILCOXON_MAX_LEARNERS = 200
TESTS = ("auto", "wilcoxon", "friedman")


def chosen_test(test: str, k: int) -> str:
    """The pairwise test ``test`` means for k learners."""
    if test == "auto":
        return "wilcoxon" if k <= WILCOXON_MAX_LEARNERS else "friedman"
    return test


def dominance(values, alpha: float, decimals: int | None = DEFAULT_DECIMALS,
              test: str = "auto"):
    """Which learner beats which significantly on each criterion: the two-sided Wilcoxon
    signed-rank test of every pair over the data sets (:func:`rankwise.pairwise_statistics`,
    Demšar's zero rule), or the mean-rank z-test of Friedman's ranks (Demšar 2006, §3.2.2;
    ``test="friedman"``, and ``auto`` above ``WILCOXON_MAX_LEARNERS``), Holm's adjustment over
    the k(k − 1)/2 pairs of each criterion.

    ``values``: n × k × m, oriented. Returns ``(better, adjusted)``: m × k × k booleans
    (``better[c, i, j]``: learner i significantly better than j on criterion c) and the m × k × k
    Holm-adjusted p-values.

    Examples
    --------
    Learner 0 is better than learner 1 on the first criterion on all 12 data sets:

    >>> import numpy as np
    >>> from rankwise.stats.fronts import dominance
    >>> v = np.random.default_rng(0).normal(size=(12, 2, 2))
    >>> v[:, 0, 0] = v[:, 1, 0] + 1
    >>> better, adjusted = dominance(v, 0.05)
    >>> bool(better[0, 0, 1]), bool(better[0, 1, 0])
    (True, False)
    """
    from .adjust import adjust
    from .pairwise import pairwise_statistics

    n, k, m = values.shape
    better = np.zeros((m, k, k), dtype=bool)
    adjusted = np.ones((m, k, k))
    if k < 2 or n < 1:
        return better, adjusted
    iu = np.triu_indices(k, 1)
    test = chosen_test(test, k)
    for c in range(m):
        x = values[:, :, c]
        st = pairwise_statistics(x, test, higher_is_better=True, decimals=decimals)
        p = adjust(st.pvalues[iu], "holm")
        adjusted[c][iu] = p
        adjusted[c][iu[::-1]] = p
        hit = np.flatnonzero(p <= alpha)
        if hit.size:
            a, b = iu[0][hit], iu[1][hit]
            if test == "wilcoxon":
                sign = _signed_rank_sign(x, a, b, decimals)   # > 0: b better than a
            else:   # mean ranks: the smaller is better
                sign = np.sign(st.scores[a] - st.scores[b])
            better[c, b[sign > 0], a[sign > 0]] = True
            better[c, a[sign < 0], b[sign < 0]] = True
    return better, adjusted


def _signed_rank_sign(x, a, b, decimals) -> np.ndarray:
    """The sign of R+ − R− of each pair (b − a), in blocks."""
    from scipy.stats import rankdata

    out = np.empty(len(a))
    step = max(1, 2_000_000 // max(len(x), 1))
    for lo in range(0, len(a), step):
        d = x[:, b[lo:lo + step]] - x[:, a[lo:lo + step]]
        if decimals is not None:
            d = np.round(d, decimals)
        r = rankdata(np.abs(d), axis=0)
        out[lo:lo + step] = np.sign((np.sign(d) * r).sum(axis=0))
    return out


def statistically_dominated(better) -> np.ndarray:
    """k × k booleans: ``[i, j]`` when j is significantly better than i on some criterion and
    significantly worse on none."""
    some = better.any(axis=0)            # [a, b]: a better than b somewhere
    return some.T & ~some
