"""Ranks within data sets, aligned ranks and Quade's block weights.

Convention: rank 1 is the best learner; ties share the mean of the ranks they span (mid-ranks).
Scores are rounded to ``decimals`` places before anything is compared, so that values that print
the same compare the same (0.768 - 0.763 and 0.936 - 0.931 are then the same difference).
"""

from __future__ import annotations

import numpy as np

DEFAULT_DECIMALS = 12


def round_scores(x, decimals: int | None = DEFAULT_DECIMALS) -> np.ndarray:
    """Round to ``decimals`` places (``None``: leave as is); -0.0 becomes 0.0."""
    x = np.asarray(x, dtype=float)
    if decimals is None:
        return x + 0.0
    return np.round(x, decimals) + 0.0


def midranks(x) -> np.ndarray:
    """Ascending mid-ranks (1 = smallest) along the last axis of a 1-D or 2-D array.

    Vectorised over rows: one sort per row, then the tie groups of the flattened sorted array
    (which never span two rows) get the mean of the positions they occupy.
    """
    x = np.asarray(x, dtype=float)
    flat = x.ndim == 1
    n, k = (1, x.size) if flat else x.shape
    if x.size == 0:
        return np.empty_like(x)
    # The sort need not be stable: tied values receive the same rank whatever their order.
    order = np.argsort(x, axis=-1)
    s = x[order] if flat else np.take_along_axis(x, order, axis=1).ravel()
    starts = np.empty(s.size, dtype=bool)
    starts[0] = True
    np.not_equal(s[1:], s[:-1], out=starts[1:])
    starts[::k] = True
    first = np.flatnonzero(starts)
    sizes = np.diff(first, append=s.size)
    # Positions within the row are first % k; a group of size m starting there has mean rank
    # first % k + (m + 1) / 2.
    group_rank = (first % k) + (sizes + 1) / 2.0
    ranked = np.empty(x.shape, dtype=float)
    if flat:
        ranked[order] = np.repeat(group_rank, sizes)
    else:
        np.put_along_axis(ranked, order, np.repeat(group_rank, sizes).reshape(n, k), axis=1)
    return ranked


def rank_within_datasets(x, higher_is_better: bool = True, decimals: int | None = DEFAULT_DECIMALS):
    """Mid-ranks of each row of an n × k score matrix, rank 1 = best.

    Every row sums to k(k+1)/2.

    Examples
    --------
    >>> rank_within_datasets([[0.9, 0.8, 0.8], [1, 1, 1]]).tolist()
    [[1.0, 2.5, 2.5], [2.0, 2.0, 2.0]]
    """
    x = round_scores(x, decimals)
    return midranks(-x if higher_is_better else x)


def mean_ranks(x, higher_is_better: bool = True, decimals: int | None = DEFAULT_DECIMALS):
    """Average rank of each learner over the data sets (Demšar's R_j)."""
    return rank_within_datasets(x, higher_is_better, decimals).mean(axis=0)


def aligned_ranks(x, higher_is_better: bool = True, decimals: int | None = DEFAULT_DECIMALS):
    """Hodges-Lehmann aligned ranks: subtract each data set's mean, rank all n·k values together.

    Rank 1 is the best aligned observation. The aligned values are rounded again after the
    subtraction, because the row mean brings its own floating-point noise.
    """
    x = round_scores(x, decimals)
    aligned = round_scores(x - x.mean(axis=1, keepdims=True), decimals)
    flat = (-aligned if higher_is_better else aligned).ravel()
    return midranks(flat).reshape(x.shape)


def quade_weights(x, decimals: int | None = DEFAULT_DECIMALS) -> np.ndarray:
    """Quade's Q_i: mid-rank of each data set's sample range among all data sets (1 = smallest)."""
    x = round_scores(x, decimals)
    spread = round_scores(x.max(axis=1) - x.min(axis=1), decimals)
    return midranks(spread)
