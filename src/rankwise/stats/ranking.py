"""Ranks within data sets, aligned ranks and Quade's block weights.

Convention: rank 1 is the best learner; ties share the mean of the ranks they span (mid-ranks).
Scores are rounded to ``decimals`` places before anything is compared, so that values that print
the same compare the same (0.768 - 0.763 and 0.936 - 0.931 are then the same difference).
"""

from __future__ import annotations

import numpy as np

from .._validate import real_array, renamed, score_input, seed as check_seed
from ..errors import RankwiseError
from ..defaults import DEFAULT_DECIMALS as DECIMALS
from ..defaults import RANK_BOOTSTRAP_SEED as BOOTSTRAP_SEED
from ._docs import shared_docs
from .resample import bootstrap_counts

DEFAULT_DECIMALS = DECIMALS


#: From this magnitude on a float has no digits after the decimal point (2^52 ≈ 4.5e15), so
#: rounding leaves it as it is, and scaling it by 10^decimals could overflow.
ROUND_LIMIT = 1e15


def round_scores(x, decimals: int | None = DEFAULT_DECIMALS) -> np.ndarray:
    """Round to ``decimals`` places (``None``: leave as is); -0.0 becomes 0.0. Values of
    magnitude ``ROUND_LIMIT`` and above are left as they are (they have no decimals to round),
    so any finite score stays finite."""
    x = np.asarray(x, dtype=float)
    if decimals is None:
        return x + 0.0  # a copy, with -0.0 made 0.0
    big = _big(x)
    with np.errstate(over="ignore", invalid="ignore"):
        out = np.round(x, decimals)
    if big is not None:
        out[big] = x[big]
    out += 0.0  # in place: one array, not two, on large tables
    return out


def _big(a: np.ndarray):
    """Where |a| ≥ ``ROUND_LIMIT`` (None when nowhere: two quick reductions decide it)."""
    flat = a.reshape(-1)
    if flat.size and (np.fmax.reduce(flat) >= ROUND_LIMIT or np.fmin.reduce(flat) <= -ROUND_LIMIT):
        return np.abs(a) >= ROUND_LIMIT
    return None


def round_in_place(a: np.ndarray, decimals: int) -> np.ndarray:
    """``a`` rounded to ``decimals`` places in place, leaving magnitudes from ``ROUND_LIMIT``
    on as they are (see :func:`round_scores`)."""
    big = _big(a)
    kept = a[big] if big is not None else None
    with np.errstate(over="ignore", invalid="ignore"):
        np.round(a, decimals, out=a)
    if big is not None:
        a[big] = kept
    a += 0.0
    return a


#: Vectors at least this long with many repeated values are ranked by hashing, not sorting.
FEW_VALUES_MIN_SIZE = 100_000
#: Rows of a matrix ranked at once: the sort's temporaries stay a few MB on large tables.
BLOCK_CELLS = 1 << 20


def midranks(x, *, descending: bool = False) -> np.ndarray:
    """Ascending mid-ranks (1 = smallest; with ``descending``, 1 = largest) along the last axis
    of a 1-D or 2-D array.

    Matrices are ranked a block of rows at a time (the result does not depend on the blocks).
    """
    x = np.asarray(x, dtype=float)
    if x.size == 0:
        return np.empty_like(x)
    if x.ndim == 1:
        if descending:
            x = -x
            x += 0.0  # -0.0 and 0.0 are one value
        if x.size >= FEW_VALUES_MIN_SIZE and _mostly_repeated(x):
            return _ranks_of_repeated(x)
        return _ranks_of_rows(x[None, :])[0]
    n, k = x.shape
    out = np.empty((n, k))
    step = max(1, BLOCK_CELLS // k)
    for start in range(0, n, step):
        block = x[start:start + step]
        out[start:start + step] = _ranks_of_rows(-block if descending else block)
    return out


def _mostly_repeated(x: np.ndarray) -> bool:
    """Whether ``x`` seems to hold fewer than about a quarter as many distinct values as values
    (scores with a few decimals do). An evenly spaced sample of s ≈ 20,000 values with r
    repeats suggests about s² / 2r distinct values (the birthday problem)."""
    sample = x[::max(1, x.size // 20_000)]
    repeats = sample.size - np.unique(sample).size
    return repeats > 2 * sample.size ** 2 / x.size


def _ranks_of_repeated(x: np.ndarray) -> np.ndarray:
    """Mid-ranks of a long vector with few distinct values: each distinct value is found by
    hashing (linear time), only the distinct values are sorted, and a value's mid-rank is
    (number below it) + (its count + 1) / 2. The same ranks as the sort, sooner."""
    import pandas as pd

    codes, values = pd.factorize(x)
    order = np.argsort(values)
    counts = np.bincount(codes, minlength=values.size)[order]
    upto = np.cumsum(counts)
    rank_of_value = np.empty(values.size)
    rank_of_value[order] = upto - (counts - 1) / 2.0
    return rank_of_value[codes]


def _ranks_of_rows(x: np.ndarray) -> np.ndarray:
    """Mid-ranks of every row: one sort per row; in the sorted row, a tie group spanning the
    1-based positions first..last gets (first + last) / 2, both ends found by running
    maximum/minimum over the positions where a group starts."""
    n, k = x.shape
    index = np.int32 if k < np.iinfo(np.int32).max else np.int64
    # The sort need not be stable: tied values receive the same rank whatever their order.
    order = np.argsort(x, axis=1).astype(index, copy=False)
    s = np.take_along_axis(x, order, axis=1)
    starts = np.empty((n, k), dtype=bool)
    starts[:, 0] = True
    np.not_equal(s[:, 1:], s[:, :-1], out=starts[:, 1:])
    del s
    pos = np.arange(1, k + 1, dtype=index)
    ranked = np.empty((n, k))
    if starts.all():  # no ties: the ranks are the positions
        np.put_along_axis(ranked, order, np.broadcast_to(pos, (n, k)), axis=1)
        return ranked
    first = np.where(starts, pos, index(0))
    np.maximum.accumulate(first, axis=1, out=first)
    last = np.full((n, k), k, dtype=index)
    np.copyto(last[:, :-1], pos[:-1], where=starts[:, 1:])
    del starts
    last = np.minimum.accumulate(last[:, ::-1], axis=1)[:, ::-1]
    mid = first + last  # exact in integers; halved once, in floating point
    del first, last
    np.put_along_axis(ranked, order, mid * 0.5, axis=1)
    return ranked


@score_input
@shared_docs
def rank_within_datasets(x, higher_is_better: bool | None = None, decimals: int | None = DEFAULT_DECIMALS):
    """Mid-ranks of each row of an n × k score matrix, rank 1 = best.

    Tied scores share the mean of the ranks they span, so every row sums to k(k+1)/2.

    Parameters
    ----------
    {{x}}
    {{higher_is_better}}
    {{decimals}}

    Returns
    -------
    numpy.ndarray, shape (n, k)
        The ranks.

    Examples
    --------
    The same as scipy's ``rankdata`` of the negated scores:

    >>> from scipy.stats import rankdata
    >>> from rankwise import rank_within_datasets
    >>> rank_within_datasets([[0.9, 0.8, 0.8], [1, 1, 1]]).tolist()
    [[1.0, 2.5, 2.5], [2.0, 2.0, 2.0]]
    >>> rankdata([-0.9, -0.8, -0.8]).tolist()
    [1.0, 2.5, 2.5]
    """
    return midranks(round_scores(x, decimals), descending=higher_is_better)


@score_input
@shared_docs
def mean_ranks(x, higher_is_better: bool | None = None, decimals: int | None = DEFAULT_DECIMALS):
    """Average rank of each learner over the data sets (Demšar's R_j; 1 = best).

    Parameters
    ----------
    {{x}}
    {{higher_is_better}}
    {{decimals}}

    Returns
    -------
    numpy.ndarray, shape (k,)

    Examples
    --------
    García & Herrera (2008), Table 2: C4.5 2.100, 1-NN 3.250, NaiveBayes 2.200, Kernel 4.333,
    CN2 3.117:

    >>> from rankwise import load_example, mean_ranks
    >>> mean_ranks(load_example("garcia2008").values).round(3).tolist()
    [2.1, 3.25, 2.2, 4.333, 3.117]
    """
    return rank_within_datasets(x, higher_is_better, decimals).mean(axis=0)


@score_input
@shared_docs
def aligned_ranks(x, higher_is_better: bool | None = None, decimals: int | None = DEFAULT_DECIMALS):
    """Hodges-Lehmann aligned ranks: subtract each data set's mean, rank all n·k values together.

    Rank 1 is the best aligned observation. The aligned values are rounded again after the
    subtraction, because the row mean brings its own floating-point noise.

    Parameters
    ----------
    {{x}}
    {{higher_is_better}}
    {{decimals}}

    Returns
    -------
    numpy.ndarray, shape (n, k)
        Ranks from 1 to n·k (mid-ranks for ties).

    References
    ----------
    Hodges, J. L. and Lehmann, E. L. (1962). Ann. Math. Stat. 33, 482–497.

    Examples
    --------
    García et al. (2010), Table 7, from the bundled (rounded) table: rank totals 704.5, 1122.5,
    1127 and 1702 (the paper prints 703.5, 1121.5, 1129.5 and 1701.5 from unrounded accuracies,
    ERRATA G20):

    >>> from rankwise import aligned_ranks, load_example
    >>> aligned_ranks(load_example("garcia2010").values).sum(axis=0).tolist()
    [704.5, 1122.5, 1127.0, 1702.0]
    """
    aligned = round_scores(x, decimals)  # a copy, worked on in place from here
    aligned -= aligned.mean(axis=1, keepdims=True)
    if decimals is not None:
        round_in_place(aligned, decimals)
    aligned += 0.0
    return midranks(aligned.ravel(), descending=higher_is_better).reshape(aligned.shape)


@score_input
@shared_docs
def quade_weights(x, decimals: int | None = DEFAULT_DECIMALS) -> np.ndarray:
    """Quade's Q_i: the mid-rank of each data set's sample range among all data sets (1 = smallest).

    Parameters
    ----------
    {{x}}
    {{decimals}}

    Returns
    -------
    numpy.ndarray, shape (n,)

    References
    ----------
    Quade, D. (1979). J. Am. Stat. Assoc. 74, 680–683.

    Examples
    --------
    >>> from rankwise import quade_weights
    >>> quade_weights([[0.9, 0.7], [0.8, 0.75], [0.6, 0.1]]).tolist()
    [2.0, 1.0, 3.0]
    """
    x = round_scores(x, decimals)
    spread = round_scores(x.max(axis=1) - x.min(axis=1), decimals)
    return midranks(spread)


#: Bootstrap replicates of the mean-rank intervals, and the work (replicates × data sets) up to
#: which they are drawn; above it the normal interval is used (and named).
RANK_BOOTSTRAP_REPLICATES = 2_000
RANK_BOOTSTRAP_MAX_CELLS = 20_000_000
RANK_BOOTSTRAP_SEED = BOOTSTRAP_SEED
#: Learners per block of the bootstrap (replicates × this many resampled means at a time).
RANK_BOOTSTRAP_COLUMNS = 4_096


def mean_rank_intervals(ranks, *, confidence: float = 0.95,
                        draws: int = RANK_BOOTSTRAP_REPLICATES,
                        seed: int = RANK_BOOTSTRAP_SEED,
                        replicates: int | None = None) -> tuple[np.ndarray, str]:
    """Confidence intervals of each learner's mean rank, resampling the data sets.

    Each of ``draws`` seeded bootstrap samples draws n data sets with replacement (their
    counts, so a sample is one weighted mean); the interval is the percentile interval of the
    resampled mean ranks (``method="bootstrap"``). When draws × n exceeds
    ``RANK_BOOTSTRAP_MAX_CELLS``, mean ± z·sd/√n instead (``method="normal"``). The intervals
    describe how the mean ranks would vary over other samples of data sets like these; they are
    not adjusted for the number of learners and are not a test.

    Parameters
    ----------
    ranks : array_like, shape (n, k)
        Within-data-set ranks (NaN where a learner has no value; its mean is then over the data
        sets where it has one).
    confidence : float, default 0.95
    draws : int, default 2000
        Bootstrap draws (``replicates=``, its name before 0.9, is taken with a FutureWarning
        until 0.10).
    seed : int, default 20060101

    Returns
    -------
    intervals : numpy.ndarray, shape (k, 2)
    method : str
        ``"bootstrap"`` or ``"normal"``.

    Examples
    --------
    Every interval holds its learner's mean rank (García & Herrera 2008):

    >>> from rankwise import load_example, mean_rank_intervals, rank_within_datasets
    >>> ranks = rank_within_datasets(load_example("garcia2008").values)
    >>> intervals, method = mean_rank_intervals(ranks)
    >>> means = ranks.mean(axis=0)
    >>> method, bool(((intervals[:, 0] <= means) & (means <= intervals[:, 1])).all())
    ('bootstrap', True)
    """
    replicates = renamed(draws, replicates, "replicates", "draws")
    seed = check_seed(seed)
    r = real_array(ranks)
    if r.ndim != 2 or 0 in r.shape:
        raise RankwiseError(f"mean rank intervals need an N × k matrix of ranks (rows data"
                            f" sets, columns learners); got shape {r.shape}")
    n = r.shape[0]
    tail = (1.0 - confidence) / 2.0
    if replicates * n > RANK_BOOTSTRAP_MAX_CELLS:
        from scipy import stats

        if np.isnan(r).any():
            present = ~np.isnan(r)
            counts = present.sum(axis=0)
            mean = np.where(present, r, 0.0).sum(axis=0) / counts
            ss = (np.where(present, r - mean, 0.0) ** 2).sum(axis=0)
        else:  # complete: sums of squares without an n × k temporary (ranks are small numbers)
            counts = np.full(r.shape[1], n)
            mean = r.mean(axis=0)
            ss = np.einsum("ij,ij->j", r, r) - n * mean * mean
        sd = np.sqrt(np.maximum(ss, 0.0) / (counts - 1))
        half = stats.norm.isf(tail) * sd / np.sqrt(counts)
        return np.column_stack([mean - half, mean + half]), "normal"
    present = ~np.isnan(r)
    values = np.where(present, r, 0.0)
    rng = np.random.default_rng(seed)
    weights = bootstrap_counts(replicates, n, rng).astype(float)
    out = np.empty((r.shape[1], 2))
    for start in range(0, r.shape[1], RANK_BOOTSTRAP_COLUMNS):  # replicates × block at a time
        cols = slice(start, start + RANK_BOOTSTRAP_COLUMNS)
        with np.errstate(invalid="ignore", divide="ignore"):
            means = (weights @ values[:, cols]) / (weights @ present[:, cols])
        if np.isnan(means).any():  # a replicate without any of a learner's data sets
            out[cols] = np.nanquantile(means, [tail, 1.0 - tail], axis=0).T
        else:  # the same numbers as nanquantile, without a Python call per learner
            out[cols] = np.quantile(means, [tail, 1.0 - tail], axis=0).T
    return out, "bootstrap"
