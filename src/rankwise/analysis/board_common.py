"""What every leaderboard reads the same way, whatever its evidence (a score table's splits or
a log of votes): the interval of a rating over bootstrap draws, and the simultaneous rank
confidence sets, whose sets holding place 1 are the learners tied with #1."""

from __future__ import annotations

import warnings

import numpy as np

from ..stats.elo import GROUP


def quantiles(draws: np.ndarray, confidence: float) -> tuple:
    """The interval's ends over the draws (a draw that lacks a learner, NaN, left out): the
    ``(1 − confidence)/2`` and ``(1 + confidence)/2`` quantiles of each column.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.analysis.board_common import quantiles
    >>> low, high = quantiles(np.arange(101.0)[:, None], 0.9)
    >>> round(float(low[0]), 9), round(float(high[0]), 9)
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


#: The verdict names at most this many learners whose Elo is a bound, per side.
BOUNDS_NAMED = 3


def separation(board, battle: str = "battle", learners: str = "learners") -> list:
    """The learners whose maximum-likelihood Elo is infinite, each side in one sentence: the
    caution that changes how the board reads, first in its verdict. A learner taken out after
    others (the fit sets aside one that won, or lost, every battle, then looks again) is said
    to have won every battle against the learners left, not every battle; a group that won
    every battle against the learners below it (:data:`rankwise.stats.elo.GROUP`), as a group.
    ``battle`` and ``learners``: the board's words (a board of votes: "vote", "models").

    Examples
    --------
    >>> import numpy as np
    >>> from types import SimpleNamespace
    >>> from rankwise.analysis.board_common import separation
    >>> board = SimpleNamespace(learners=("a", "b", "c"), bound=np.array([1, 0, 0]),
    ...                         columns={"elo": np.array([1300.0, 900.0, 800.0])})
    >>> separation(board)[0][:40]
    'a won every battle it fought: its maximu'
    """
    out = []
    elo = board.columns["elo"]
    for side, word, kind, mark in ((1, "won", "a lower", "≥"), (-1, "lost", "an upper", "≤")):
        idx = sorted(np.flatnonzero(board.bound == side), key=lambda j: -side * elo[j])
        if not idx:
            continue
        names = [board.learners[j] for j in idx]
        said = [f"{names[0]} {word} every {battle} it fought"]
        for n, name in enumerate(names[1:BOUNDS_NAMED], start=1):
            aside = ", ".join(names[:n])
            said.append(f"{name} {word} every {battle} against the {learners} left once {aside}"
                        f" {'is' if n == 1 else 'are'} set aside")
        more = len(names) - BOUNDS_NAMED
        tail = f", and {more:,} more likewise" if more > 0 else ""
        one = len(names) == 1
        out.append("; ".join(said) + tail
                   + (": its maximum-likelihood Elo is infinite, and the rating shown"
                      f" ({mark}) is {kind} bound" if one else
                      ": their maximum-likelihood Elos are infinite, and the ratings shown"
                      f" ({mark}) are {kind.split()[-1]} bounds")
                   + f" (where {'it' if one else 'each'} would be expected to have drawn half"
                   f" of its lightest {battle}).")
    group = [board.learners[j] for j in np.flatnonzero(board.bound == GROUP)]
    if group:
        out.append(f"{', '.join(group[:BOUNDS_NAMED])}"
                   + (f" and {len(group) - BOUNDS_NAMED:,} more" if len(group) > BOUNDS_NAMED
                      else "") + f" won every {battle} against the {learners} below them, as a"
                   " group: the maximum-likelihood gap between the group and the rest is"
                   " infinite, and the ratings shown (≥) are lower bounds (where the group would"
                   f" be expected to have drawn half of its lightest {battle} with the rest).")
    return out
