"""The bootstrap's one primitive: how often each of n units (data sets, items, clusters) is
drawn in each resample of size n, as a draws × n matrix of counts.

Every bootstrap of rankwise resamples by weighting: a statistic that is a sum over units is
``counts @ values``, so a resample never copies the data. One generator, three named draw
orders, each kept because a published number depends on it:

- :func:`bootstrap_counts` (``"uniform"``): n uniform draws per resample, counted at once; the
  default of every analysis written for rankwise (items, curves, rank intervals, Kendall's W).
- :func:`multinomial_counts` (``"multinomial"``): numpy's multinomial, row after row (the
  fronts' probabilities of being on the front, as published in 0.9).
- :func:`sorted_choice_counts` (``"sorted-choice"``): ``Generator.choice`` over the units in
  a given order, one resample at a time: TabArena's bencheval draws its data sets so, and the
  leaderboard's intervals equal bencheval's only with this order.

The three give the same distribution (the multinomial of n draws with equal chances); they
differ only in which counts a given seed yields.
"""

from __future__ import annotations

import numpy as np

#: The draw orders by name (:data:`rankwise.names`' words for them).
DRAW_ORDERS = ("uniform", "multinomial", "sorted-choice")


def bootstrap_counts(draws: int, n: int, rng) -> np.ndarray:
    """``draws`` × ``n`` integer counts: n uniform draws with replacement per resample,
    counted (the multinomial, sampled about 10× faster than numpy's with many categories).

    >>> bootstrap_counts(3, 4, np.random.default_rng(0)).sum(axis=1).tolist()
    [4, 4, 4]
    """
    picks = rng.integers(0, n, size=(int(draws), n))
    offsets = (np.arange(int(draws), dtype=np.int64) * n)[:, None]
    return np.bincount((picks + offsets).ravel(),
                       minlength=int(draws) * n).reshape(int(draws), n)


def multinomial_blocks(n: int, rounds: int, seed, block: int):
    """The counts of :func:`multinomial_counts`, ``block`` rounds at a time (one generator
    drawn row after row, so the blocks do not change the draws)."""
    rng = np.random.default_rng(seed)
    for lo in range(0, rounds, block):
        yield rng.multinomial(n, np.full(n, 1.0 / n), size=min(block, rounds - lo))


def multinomial_counts(n: int, rounds: int, seed) -> np.ndarray:
    """``rounds`` × ``n`` counts drawn by ``Generator.multinomial``."""
    return next(multinomial_blocks(n, rounds, seed, rounds))


def sorted_choice_counts(n: int, order: np.ndarray, rounds: int, seed: int) -> np.ndarray:
    """``rounds`` × ``n`` counts, each resample ``default_rng(seed).choice(n, n)`` over the
    units taken in ``order`` (bencheval's draw: its data sets in sorted-name order)."""
    rng = np.random.default_rng(seed)
    counts = np.zeros((rounds, n))
    for r in range(rounds):   # one call per resample: the order bencheval draws in
        counts[r, order] = np.bincount(rng.choice(n, size=n, replace=True), minlength=n)
    return counts
