"""What every leaderboard reads the same way, whatever its evidence (a score table's splits or
a log of votes): the interval of a rating over bootstrap draws, and the simultaneous rank
confidence sets, whose sets holding place 1 are the learners tied with #1."""

from __future__ import annotations

import warnings

import numpy as np


def quantiles(draws: np.ndarray, confidence: float) -> tuple:
    """The interval's ends over the draws (a draw that lacks a learner, NaN, left out): the
    ``(1 − confidence)/2`` and ``(1 + confidence)/2`` quantiles of each column.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.analysis.board_common import quantiles
    >>> low, high = quantiles(np.arange(101.0)[:, None], 0.9)
    >>> float(low[0]), float(high[0])
    (5.0, 95.0)
    """
    tail = (1.0 - confidence) / 2.0
    if not np.isnan(draws).any():
        return np.quantile(draws, tail, axis=0), np.quantile(draws, 1.0 - tail, axis=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # a learner in no draw: NaN
        return np.nanquantile(draws, tail, axis=0), np.nanquantile(draws, 1.0 - tail, axis=0)


def rank_sets(point, draws, learners, confidence, seed) -> tuple:
    """``(lower, upper)``: each learner's simultaneous rank confidence set (Mogstad et al.
    2023, on the ratings ``point`` with the covariance of the bootstrap ``draws``; a draw that
    lacks a learner takes its point rating there), in the order of ``learners``.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.analysis.board_common import rank_sets
    >>> draws = np.random.default_rng(0).normal([1100.0, 1000.0, 1000.0], 10.0, (200, 3))
    >>> [v.tolist() for v in rank_sets(np.array([1100.0, 1000.0, 1001.0]), draws,
    ...                                  ["a", "b", "c"], 0.95, 0)]
    [[1, 2, 2], [1, 3, 3]]
    """
    from ..stats.rank_sets import rank_confidence_sets

    draws = np.where(np.isnan(draws), point, draws)
    cov = np.cov(draws, rowvar=False)
    sets = rank_confidence_sets(point, cov, learners=list(learners), confidence=confidence,
                                seed=seed)
    where = {name: j for j, name in enumerate(sets.learners)}
    order = [where[name] for name in learners]
    return (np.asarray(sets.lower, dtype=int)[order], np.asarray(sets.upper, dtype=int)[order])


def tied_with_first(point, draws, learners, confidence, seed) -> tuple:
    """The learners whose simultaneous rank confidence set (:func:`rank_sets`) includes place
    1, in the order of ``learners``.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.analysis.board_common import tied_with_first
    >>> draws = np.random.default_rng(0).normal([1100.0, 1000.0, 1000.0], 10.0, (200, 3))
    >>> tied_with_first(np.array([1100.0, 1000.0, 1001.0]), draws, ["a", "b", "c"], 0.95, 0)
    ('a',)
    """
    lower, _ = rank_sets(point, draws, learners, confidence, seed)
    return tuple(n for n, lo in zip(learners, lower) if lo == 1)
