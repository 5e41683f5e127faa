"""Prediction intervals of each learner's rank on the *next* data set.

Rank confidence sets (:mod:`rankwise.stats.rank_sets`) answer "what is this learner's rank over
the data sets in hand". Someone choosing a model asks another question: "how will this learner
rank on the next data set I care about, drawn from the same population?" That is a prediction
question about one new draw, so its interval is a prediction interval; it stays wide however
many data sets are in hand, because learners really do change places from data set to data set.

Both methods start from the ranks within each data set: 1 = best, ties share the mean rank
(mid-ranks along the learners, :func:`rankwise.rank_within_datasets`, scores as given).

``method="conformal"`` (split-conformal, order statistics; Vovk et al. 2005, Lei et al. 2018).
For learner l with ranks r_1, ..., r_n on the n data sets, the interval is
[r_(a), r_(b)] with order statistics (1-based) at

    a = ⌊(n + 1) α / 2⌋,        b = ⌈(n + 1) (1 − α / 2)⌉,

and the lower end 1 (the best rank) when a < 1, the upper end k (the number of learners) when
b > n. Why it holds: if the new data set is exchangeable with the n in hand, so is its rank
R with r_1, ..., r_n; R falls strictly below r_(a) only if it is among the a smallest of the
n + 1 ranks (ties broken at random), which has probability at most a / (n + 1) ≤ α / 2, and
strictly above r_(b) with probability at most (n + 1 − b) / (n + 1) ≤ α / 2. So
P(r_(a) ≤ R ≤ r_(b)) ≥ 1 − α for every learner (marginal over the n + 1 data sets, not
conditional on the ones in hand), whatever the distribution of scores; ties only add to the
coverage. The interval is equal-tailed (at most α/2 missed on each side) rather than the
shortest one, so that a side's miss rate can be read off alone.

``method="hierarchical"`` adds the uncertainty of each data set's own rank, which a few folds
leave uncertain. ``folds`` holds the scores of every fold (data sets × learners × folds, the
repeats × folds flattened). For each data set, ``draws`` bootstrap resamples of its folds are
drawn, the same fold indices for every learner (the folds are paired: a fold is one split of
the data that every learner saw), the resampled folds averaged and the averages ranked: a
distribution of the data set's rank for each learner. The predictive distribution of the rank
on a new data set is the equal mixture of these n distributions (n × draws ranks pooled). Its
quantiles are taken at the levels a / (n + 1) and b / (n + 1), with a and b as above, as the
smallest rank whose mixture distribution function reaches the level (inverted CDF):

- a / (n + 1) ≤ α / 2 and b / (n + 1) ≥ 1 − α / 2, so the interval is never narrower than the
  mixture's plain equal-tailed interval; these are the levels at which a continuous
  distribution puts r_(a) and r_(b) on average (E F(r_(j)) = j / (n + 1)), the (n + 1)
  correction of the conformal interval;
- when no data set's rank varies over its folds, the mixture is the n ranks themselves and
  these quantiles are exactly r_(a) and r_(b): the conformal interval;
- a < 1 gives the lower end 1 and b > n the upper end k, as above: n data sets say nothing
  beyond their extremes at that level;
- the interval finally spans the conformal interval of the data sets' ranks too (the smaller
  lower end, the larger upper end). The bootstrap spreads each data set's rank around its
  observed one, which near rank 1 or rank k can pull a quantile inwards; the span keeps the
  conformal guarantee for the rank observed on the new data set, and the mixture widens the
  interval where the folds say a data set's rank is uncertain.

The bootstrap spreads ranks that are already observed with fold noise, so the mixture counts
that noise twice and the hierarchical interval errs on the wide side (the null simulation of
the tests covers more often than 1 − α). It costs n × ``draws`` rankings of k averages (one
sort each) and a histogram of k × (2k − 1) counts: seconds for 1,000 learners on 200 data sets
at 200 draws, about ten times that at the default 2,000.

Neuhof & Benjamini (2026) build the same two levels (a rank interval within each data set,
then a conformal interval across data sets) with rank confidence intervals from pairwise tests
within each data set; here the fold bootstrap gives a distribution rather than an interval, and
the mixture's quantiles replace the conformal step over interval ends.

:func:`loo_coverage` checks the intervals on the data in hand: each data set left out in turn,
the intervals computed from the others, the share of (data set, learner) cells whose rank on
the left-out data set falls inside.

References
----------
Vovk, V., Gammerman, A. & Shafer, G. (2005). *Algorithmic Learning in a Random World*.
Springer.
Lei, J., G'Sell, M., Rinaldo, A., Tibshirani, R. J. & Wasserman, L. (2018). Distribution-free
predictive inference for regression. *Journal of the American Statistical Association* 113,
1094–1111.
Neuhof, B. & Benjamini, Y. (2026). Rank intervals for leaderboards: a hierarchical framework
for model evaluation. arXiv:2606.08679.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np

from ..errors import RankwiseError
from ..stats.results import jsonable
from ..stats.ranking import rank_within_datasets

METHODS = ("conformal", "hierarchical")
#: Bootstrap draws of each data set's folds by default.
NEXT_RANK_DRAWS = 2000
#: Fewest draws accepted: fewer leave the mixture's tails to a handful of resamples.
_MIN_DRAWS = 100
#: (n + 1)·α/2 is read as the decimal it was typed as: 10 × 0.1 / 2 is 0.5 and 30 × 0.1 / 2 is
#: 1.5 although binary floating point lands a hair off; the order statistic must not move.
_TOLERANCE = 1e-9


@dataclass(frozen=True, eq=False)
class NextRanks:
    """Prediction intervals of each learner's rank on one new data set.

    Learner ``learners[i]`` takes a rank in [``lower[i]``, ``upper[i]``] on a new data set
    from the same population with probability at least 1 − ``alpha``; ``median_rank`` is the
    median of its ranks over the data sets in hand (``"conformal"``) or of the mixture of the
    data sets' bootstrap rank distributions (``"hierarchical"``). ``question`` says in one
    sentence which question the intervals answer.

    Examples
    --------
    With n = 3 and α = 0.5 the ends are the 1st and 3rd order statistics (a = ⌊4 × 0.25⌋,
    b = ⌈4 × 0.75⌉): the middle learner ranks 2 everywhere, the others 1, 3 and 3 or 3, 1, 1.

    >>> from rankwise.planning.next_rank import next_rank_intervals
    >>> res = next_rank_intervals([[3, 2, 1], [1, 2, 3], [3, 2, 1]], alpha=0.5)
    >>> res.to_dict()["lower"], res.to_dict()["upper"], res.n_datasets
    ([1.0, 2.0, 1.0], [3.0, 2.0, 3.0], 3)
    """

    learners: tuple
    lower: np.ndarray
    upper: np.ndarray
    median_rank: np.ndarray
    alpha: float
    method: str
    n_datasets: int
    n_learners: int
    question: str

    def to_dict(self) -> dict:
        """Plain JSON types: lists of floats, the learners as names or indices."""
        return jsonable({"learners": list(self.learners), "lower": self.lower,
                         "upper": self.upper, "median_rank": self.median_rank,
                         "alpha": self.alpha, "method": self.method,
                         "n_datasets": self.n_datasets, "n_learners": self.n_learners,
                         "question": self.question})


def next_rank_intervals(values, *, higher_is_better: bool = True, alpha: float = 0.1,
                        method: str = "conformal", folds=None, draws: int = NEXT_RANK_DRAWS,
                        seed: int = 0, learners=None) -> NextRanks:
    """Prediction intervals of each learner's rank on one new data set.

    Parameters
    ----------
    values : array_like, shape (n, k)
        One score per data set (row) and learner (column); no NaN, n ≥ 2, k ≥ 2.
    higher_is_better : bool
        Direction of the scores; rank 1 is the best.
    alpha : float
        Miss rate in (0, 1): each interval holds the new rank with probability ≥ 1 − α.
    method : {"conformal", "hierarchical"}
        Order statistics of the ranks (with the (n + 1) correction), or the mixture of the data
        sets' fold-bootstrap rank distributions (see the module's description).
    folds : array_like, shape (n, k, m), optional
        Scores per fold (repeats × folds flattened, m ≥ 2, no NaN); only and always with
        ``method="hierarchical"``. ``values`` stays the score of each data set (usually the
        folds' mean): its ranks give the conformal interval the hierarchical one spans.
    draws : int
        Bootstrap resamples of each data set's folds (hierarchical), at least 100.
    seed : int
        Seed of ``numpy.random.default_rng``; the same seed gives the same intervals.
    learners : tuple, optional
        Names of the k learners; by default their column indices.

    Returns
    -------
    NextRanks

    Notes
    -----
    Conformal: with a = ⌊(n + 1)α/2⌋ and b = ⌈(n + 1)(1 − α/2)⌉ the interval is
    [r_(a), r_(b)] (1 when a < 1, k when b > n); for a new data set exchangeable with the n
    in hand its rank misses below with probability ≤ a/(n + 1) ≤ α/2 and above with
    probability ≤ (n + 1 − b)/(n + 1) ≤ α/2, so coverage ≥ 1 − α for every learner.

    Examples
    --------
    Nine data sets, three learners (higher is better). The ranks of learner 0 are 1 seven
    times, then 2 and 3; of learner 1, 2 seven times, then 1 and 2; of learner 2, 3 eight
    times, then 1.

    >>> rows = [[3, 2, 1]] * 7 + [[2, 3, 1], [1, 2, 3]]
    >>> res = next_rank_intervals(rows, alpha=0.2, learners=("A", "B", "C"))

    With n = 9 and α = 0.2, a = ⌊10 × 0.1⌋ = 1 and b = ⌈10 × 0.9⌉ = 9: each learner's
    smallest and largest rank.

    >>> res.lower.tolist(), res.upper.tolist(), res.median_rank.tolist()
    ([1.0, 1.0, 1.0], [3.0, 2.0, 3.0], [1.0, 2.0, 3.0])

    With α = 0.5, a = ⌊2.5⌋ = 2 and b = ⌈7.5⌉ = 8: the 2nd and 8th smallest ranks, [1, 2]
    for A (1 1 1 1 1 1 1 2 3), [2, 2] for B (1 2 2 2 2 2 2 2 2), [3, 3] for C.

    >>> res = next_rank_intervals(rows, alpha=0.5)
    >>> res.lower.tolist(), res.upper.tolist()
    ([1.0, 2.0, 3.0], [2.0, 2.0, 3.0])
    >>> res.question  # doctest: +NORMALIZE_WHITESPACE
    'Each interval holds the rank this learner would take on one new data set drawn from the
    same population as these 9 data sets, with probability at least 0.5; it is not its rank
    over these 9 data sets, which the rank confidence sets give.'
    """
    scores, fold_scores, names = _inputs(values, folds, method, alpha, draws, seed, learners)
    n, k = scores.shape
    ranks = rank_within_datasets(scores, higher_is_better, decimals=None)
    lower, upper = _conformal_ends(np.sort(ranks, axis=0), alpha, k)
    if method == "conformal":
        median = np.median(ranks, axis=0)
    else:
        gens = np.random.default_rng(seed).spawn(n)
        hist = sum(_rank_histogram(fold_scores[d], higher_is_better, draws, gens[d])
                   for d in range(n))
        mix_lower, mix_upper, median = _mixture_summary(hist, n, alpha)
        lower, upper = np.minimum(lower, mix_lower), np.maximum(upper, mix_upper)
    return NextRanks(learners=names, lower=lower, upper=upper, median_rank=median,
                     alpha=float(alpha), method=method, n_datasets=n, n_learners=k,
                     question=_question(n, alpha))


def loo_coverage(values, *, higher_is_better: bool = True, alpha: float = 0.1,
                 method: str = "conformal", folds=None, draws: int = NEXT_RANK_DRAWS,
                 seed: int = 0) -> float:
    """Leave-one-data-set-out coverage of the next-rank intervals.

    For each data set d, the intervals of :func:`next_rank_intervals` from the other n − 1
    data sets; the result is the share of the n × k cells (d, l) whose rank of learner l on d
    (ranked among all learners on d, from ``values``) lies in l's interval. Conformal intervals
    are taken for every d at once from the sorted ranks; the hierarchical ones subtract d's
    bootstrap histogram from the total of all n, so each data set is resampled once (with
    the full fit's generators: a refit on the other n − 1 would draw other resamples from
    the same distribution, not the same ones).

    Examples
    --------
    The nine data sets of :func:`next_rank_intervals`' example at α = 0.2: from 8 data sets,
    a = ⌊9 × 0.1⌋ = 0 and b = ⌈9 × 0.9⌉ = 9 > 8, so every interval is [1, 3] and covers.

    >>> rows = [[3, 2, 1]] * 7 + [[2, 3, 1], [1, 2, 3]]
    >>> loo_coverage(rows, alpha=0.2)
    1.0
    """
    scores, fold_scores, _ = _inputs(values, folds, method, alpha, draws, seed, None)
    n, k = scores.shape
    if n < 3:
        raise RankwiseError(f"leave-one-out coverage needs at least 3 data sets, got {n}")
    ranks = rank_within_datasets(scores, higher_is_better, decimals=None)
    lower, upper = _left_out_conformal(ranks, alpha, k)
    if method == "hierarchical":
        gens = np.random.default_rng(seed).spawn(n)
        # one generator a data set, spawned once: the same resamples whichever is left out
        hists = [_rank_histogram(fold_scores[d], higher_is_better, draws, gens[d])
                 for d in range(n)]
        total = sum(hists)
        for d in range(n):
            mix_lower, mix_upper, _ = _mixture_summary(total - hists[d], n - 1, alpha)
            lower[d] = np.minimum(lower[d], mix_lower)
            upper[d] = np.maximum(upper[d], mix_upper)
    return float(np.mean((lower <= ranks) & (ranks <= upper)))


def order_indices(n: int, alpha: float) -> tuple:
    """The 1-based order statistics (a, b) of the conformal interval from n data sets.

    a = ⌊(n + 1)α/2⌋ (below 1: the lower end is rank 1), b = ⌈(n + 1)(1 − α/2)⌉ (above n:
    the upper end is rank k).

    Examples
    --------
    >>> order_indices(9, 0.2), order_indices(9, 0.5), order_indices(9, 0.1)
    ((1, 9), (2, 8), (0, 10))
    """
    a = math.floor((n + 1) * alpha / 2 + _TOLERANCE)
    b = math.ceil((n + 1) * (1 - alpha / 2) - _TOLERANCE)
    return a, b


def _conformal_ends(ordered: np.ndarray, alpha: float, k: int) -> tuple:
    """Lower and upper ends from the ranks sorted along the data sets (n × k)."""
    n = ordered.shape[0]
    a, b = order_indices(n, alpha)
    lower = ordered[a - 1].astype(float) if a >= 1 else np.ones(ordered.shape[1])
    upper = ordered[b - 1].astype(float) if b <= n else np.full(ordered.shape[1], float(k))
    return lower, upper


def _left_out_conformal(ranks: np.ndarray, alpha: float, k: int) -> tuple:
    """Conformal ends from the n − 1 other data sets, for every left-out data set at once.

    Removing data set d from the sorted column leaves the j-th smallest of the others at
    sorted[j − 1] if d sat after it and at sorted[j] otherwise; with ties any of the equal
    positions gives the same value.
    """
    n = ranks.shape[0]
    order = np.argsort(ranks, axis=0, kind="stable")
    ordered = np.take_along_axis(ranks, order, axis=0)
    position = np.empty_like(order)
    np.put_along_axis(position, order, np.arange(n)[:, None], axis=0)
    a, b = order_indices(n - 1, alpha)

    def pick(j):
        row = np.where(j - 1 < position, j - 1, j)
        return np.take_along_axis(ordered, row, axis=0)

    lower = pick(a) if a >= 1 else np.ones(ranks.shape)
    upper = pick(b) if b <= n - 1 else np.full(ranks.shape, float(k))
    return lower.astype(float), upper.astype(float)


def _rank_histogram(scores: np.ndarray, higher_is_better: bool, draws: int, rng) -> np.ndarray:
    """Counts of each learner's bootstrap ranks on one data set (k × (2k − 1)).

    ``scores`` is k × m (learners × folds). A resample is a multinomial count of each fold,
    shared by every learner (paired folds); its weights sum to one, so no partial sum exceeds
    the largest score (no overflow at 1e300). ``einsum`` without optimisation sums every
    learner's terms in the same order, so learners with equal folds get equal averages and tie.
    Ranks are multiples of 1/2, so a rank r is counted in bin 2r − 2.
    """
    k, m = scores.shape
    weights = rng.multinomial(m, np.full(m, 1.0 / m), size=draws) / m
    means = np.einsum("bm,lm->bl", weights, scores)
    order, doubled = _doubled_ranks(-means if higher_is_better else means)
    bins = 2 * k - 1
    return np.bincount((order * bins + doubled).ravel(), minlength=k * bins).reshape(k, bins)


def _doubled_ranks(x: np.ndarray) -> tuple:
    """Each row's sorting order and 2r − 2 for the mean rank r at each sorted position.

    Learner ``order[i, j]`` has rank r with 2r − 2 = ``doubled[i, j]``: the ranks of
    ``rankdata(x, axis=1)`` in a fifth of its time on 2000 × 1000 draws. Without ties the
    j-th sorted position (0-based) has rank j + 1; a tie group spanning sorted positions s..e
    has the mean rank (s + e)/2 + 1, so 2r − 2 = s + e, found by running maxima and minima
    of the group edges. Integers, so the histogram's bins are exact.
    """
    rows, k = x.shape
    order = np.argsort(x, axis=1)
    ordered = np.take_along_axis(x, order, axis=1)
    step = ordered[:, 1:] != ordered[:, :-1]   # a new group starts after each step
    column = np.arange(k)
    if step.all():   # continuous scores: the common case needs no group edges
        return order, np.broadcast_to(2 * column, (rows, k))
    first = np.ones((rows, k), bool)
    first[:, 1:] = step
    last = np.ones((rows, k), bool)
    last[:, :-1] = step
    start = np.maximum.accumulate(np.where(first, column, 0), axis=1)
    end = np.minimum.accumulate(np.where(last, column, k - 1)[:, ::-1], axis=1)[:, ::-1]
    return order, start + end


def _mixture_summary(hist: np.ndarray, n: int, alpha: float) -> tuple:
    """Lower and upper ends and median of the mixture of n data sets' rank distributions.

    ``hist`` counts N = n × draws pooled ranks per learner (equal weights, since every data
    set has the same draws). The ends are the inverted-CDF quantiles at a/(n + 1) and
    b/(n + 1): the ⌈jN/(n + 1)⌉-th smallest pooled rank, in integers so no level is rounded.
    """
    k = hist.shape[0]
    cum = np.cumsum(hist, axis=1)
    total = int(cum[0, -1])
    a, b = order_indices(n, alpha)

    def nth(t):  # the t-th smallest pooled rank (1-based) of every learner
        return (np.sum(cum < t, axis=1) + 2) / 2.0

    lower = nth(-(-a * total // (n + 1))) if a >= 1 else np.ones(k)
    upper = nth(-(-b * total // (n + 1))) if b <= n else np.full(k, float(k))
    half = total // 2
    median = nth(half + 1) if total % 2 else (nth(half) + nth(half + 1)) / 2
    return lower, upper, median


def _question(n: int, alpha: float) -> str:
    return (f"Each interval holds the rank this learner would take on one new data set drawn"
            f" from the same population as these {n} data sets, with probability at least"
            f" {1 - alpha:.6g}; it is not its rank over these {n} data sets, which the rank"
            f" confidence sets give.")


def _inputs(values, folds, method, alpha, draws, seed, learners) -> tuple:
    """The checked scores (n × k), fold scores (n × k × m or None) and learner labels."""
    if method not in METHODS:
        raise RankwiseError(f"method must be 'conformal' or 'hierarchical', got {method!r}")
    if (isinstance(alpha, bool) or not isinstance(alpha, numbers.Real)
            or not 0 < float(alpha) < 1):
        raise RankwiseError(f"alpha must be a number strictly between 0 and 1 (0.1 for 90%"
                            f" intervals), got {alpha!r}")
    if isinstance(draws, bool) or not isinstance(draws, numbers.Integral) or draws < _MIN_DRAWS:
        raise RankwiseError(f"draws must be a whole number of at least {_MIN_DRAWS}; got"
                            f" {draws!r}")
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise RankwiseError(f"seed must be a whole number of 0 or more; got {seed!r}")
    scores = _finite_array(values, "values")
    if scores.ndim != 2:
        raise RankwiseError(f"values must be a table of data sets × learners (2-D), got"
                            f" {scores.ndim} dimension(s)")
    n, k = scores.shape
    if n < 2:
        raise RankwiseError(f"need at least 2 data sets to predict the rank on a new one, got"
                            f" {n}")
    if k < 2:
        raise RankwiseError(f"need at least 2 learners to rank, got {k}")
    fold_scores = _fold_array(folds, method, n, k)
    names = tuple(range(k)) if learners is None else tuple(learners)
    if len(names) != k:
        raise RankwiseError(f"{len(names)} learner names for {k} columns of values; give one"
                            f" name per column")
    return scores, fold_scores, names


def _fold_array(folds, method: str, n: int, k: int):
    """The fold scores, required by the hierarchical method and refused by the conformal."""
    if method == "conformal":
        if folds is not None:
            raise RankwiseError("folds are used only by method='hierarchical'; drop folds="
                                " or choose that method")
        return None
    if folds is None:
        raise RankwiseError("method='hierarchical' needs folds=, an array of data sets ×"
                            " learners × folds of the scores of every fold")
    fold_scores = _finite_array(folds, "folds")
    if fold_scores.ndim != 3 or fold_scores.shape[:2] != (n, k) or fold_scores.shape[2] < 2:
        raise RankwiseError(f"folds must have shape ({n}, {k}, m) with m ≥ 2 folds (data sets"
                            f" × learners × folds, as values), got shape {fold_scores.shape}")
    return fold_scores


def _finite_array(data, what: str) -> np.ndarray:
    """``data`` as a float array with no NaN or infinite entry, or a one-line refusal."""
    try:
        array = np.asarray(data, dtype=float)
    except (TypeError, ValueError):
        raise RankwiseError(f"{what} must be numbers in a rectangular array") from None
    bad = ~np.isfinite(array)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        kind = "NaN" if np.isnan(array[where]) else "an infinite value"
        raise RankwiseError(f"{what} has {kind} at index {where} ({int(bad.sum())} in all);"
                            f" drop or fill the missing scores before predicting ranks")
    return array
