"""Rules that aggregate the data sets' rankings into one: Borda, Copeland, Kemeny, and the
Condorcet winner and cycles of the pairwise majorities.

From the data sets' ranks r (rows; 1 = best, NaN where a learner has no result) with weights w
(one per data set), the pairwise majority matrix is

    M[i, j] = Σ_d w_d · ([r_di < r_dj] + ½ [r_di = r_dj])   over the data sets with both,

the weighted number of data sets on which i beats j (a tie half each).

- **Borda**: the mean of k − r_dj over the data sets where j has a result (points for beating
  the others): the mean-rank order.
- **Copeland**: the number of learners i beats by majority (M[i, j] > M[j, i]) plus half the
  number it ties with.
- **Condorcet winner**: the learner that beats every other one by majority, if there is one;
  a **cycle** is a set of learners whose majorities go round (A beats B beats C beats A): the
  strongly connected groups of three or more of the strict-majority graph.
- **Kemeny**: the order that agrees with the most pairwise preferences, i.e. maximises
  Σ_{i before j} M[i, j] (Kemeny 1959; Young 1988): exact by dynamic programming over the
  subsets up to :data:`KEMENY_EXACT_MAX` (16) learners; beyond, a stated heuristic (the Borda
  order improved by moving one learner at a time while that gains agreement), a local optimum
  that need not be the best (``Aggregation.kemeny_exact`` says which was used).

**Ties under weights.** Sums of weights are floating-point numbers: 0.1 + 0.2 is
0.30000000000000004, not 0.3. Every comparison of two weighted sums (a majority, a Kemeny
score) therefore counts two sums as equal when they differ by at most :data:`TIE_TOLERANCE`
times the total weight of the data sets, Σ_d |w_d| (their number without weights): majorities
that tie in exact arithmetic tie here, and weights that genuinely differ (by more than a
millionth of a millionth of the total) decide. Without weights M holds whole and half numbers,
which compare exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Learners up to which the Kemeny order is exact (dynamic programming over the 2^k subsets:
#: 8 MB and a tenth of a second at k = 16).
KEMENY_EXACT_MAX = 16
#: Two weighted sums within this share of the total weight are equal (module docstring).
TIE_TOLERANCE = 1e-12
RULES = ("elo", "borda", "copeland", "kemeny")


def majority(ranks: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """The k × k weighted pairwise majority matrix M (module docstring).

    The rows (data sets) are compared a chunk at a time, every pair at once. Without weights
    M is counted: the wins are whole numbers, and the ties of a pair are the data sets where
    both have a result (a matrix product) less the wins either way. With weights the wins
    and ties are summed row after row, in the rows' order (numpy adds along an outer axis
    one row after another), so that each sum is the very floating-point number of adding
    the data sets one at a time."""
    r = np.asarray(ranks, dtype=float)
    rows, k = r.shape
    if weights is None:
        wins, both = _counts(r[None], np.array([rows]))
        m = wins[0] + 0.5 * (both[0] - wins[0] - wins[0].T)
        np.fill_diagonal(m, 0.0)
        return m
    w = np.asarray(weights, dtype=float)
    wins, ties = np.zeros((k, k)), np.zeros((k, k))
    for lo in range(0, rows, _rows_at_once(k)):
        block, wb = r[lo:lo + _rows_at_once(k)], w[lo:lo + _rows_at_once(k)]
        for total, cells, half in ((wins, block[:, :, None] < block[:, None, :], 1.0),
                                   (ties, block[:, :, None] == block[:, None, :], 0.5)):
            terms = (half * wb)[:, None, None] * cells       # NaN compares False: no term
            terms[0] += total                                # carry on from the last chunk
            total[:] = terms.sum(axis=0)
    m = wins + ties
    np.fill_diagonal(m, 0.0)
    return m


#: Rows × k × k comparisons held at once (a few MB: the work stays near the cache).
_CHUNK_CELLS = 1_000_000


def _rows_at_once(k: int) -> int:
    return max(1, _CHUNK_CELLS // max(k * k, 1))


def _counts(r: np.ndarray, size: np.ndarray) -> tuple:
    """``(wins, both)`` of each group of rows ``r`` (groups × rows × k, NaN: no result; the
    first ``size[g]`` rows of group g are its own, the others padding): on how many rows of
    the group i's rank is below j's, and on how many both have one."""
    groups, rows, k = r.shape
    wins = np.zeros((groups, k, k), dtype=np.int32)
    if groups == 1:                        # one group of many rows: a chunk of rows at once
        step = _rows_at_once(k)
        for lo in range(0, rows, step):
            block = r[0, lo:lo + step]
            wins[0] += (block[:, :, None] < block[:, None, :]).sum(axis=0, dtype=np.int32)
    else:                                  # groups of a few rows: every group's s-th row
        for s in range(rows):
            wins += r[:, s, :, None] < r[:, s, None, :]
    both = np.empty((groups, k, k), dtype=np.int32)
    both[:] = size[:, None, None]
    real = np.arange(rows)[None, :] < size[:, None]
    holes = np.flatnonzero((np.isnan(r).any(axis=2) & real).any(axis=1))
    if holes.size:                         # a missing result: count the rows with both
        ok = (~np.isnan(r[holes])).astype(float)
        both[holes] = np.rint(np.transpose(ok, (0, 2, 1)) @ ok)   # exact: sums of 0 and 1
    return wins, both


def majorities(ranks: np.ndarray, groups: np.ndarray, n_groups: int,
               weights: np.ndarray) -> np.ndarray:
    """The majority matrix of each group of rows, shape (groups, k, k): :func:`majority` of
    the rows of group g (``groups``: each row's group) with every row weighing
    ``weights[g]``.

    With one weight per group, a sum of the weights of the rows where i beats j is that
    weight added to itself as many times as i won, so the wins and ties are counted (whole
    numbers, a chunk of groups at once) and each count turned into the sum it stands for,
    added one row after another: the very numbers of :func:`majority` group by group."""
    r = np.asarray(ranks, dtype=float)
    rows, k = r.shape
    groups = np.asarray(groups)
    order = np.argsort(groups, kind="stable")
    size = np.bincount(groups, minlength=n_groups)
    longest = max(int(size.max(initial=0)), 1)
    position = np.arange(rows) - np.r_[0, np.cumsum(size)][groups[order]]
    padded = np.full((n_groups, longest, k), np.nan)    # a missing row: no result
    padded[groups[order], position] = r[order]
    # sums[g, c]: ``weights[g]`` added c times, one after another, from 0
    steps = np.repeat(np.asarray(weights, dtype=float)[:, None], longest + 1, axis=1)
    steps[:, 0] = 0.0
    sums = np.add.accumulate(steps, axis=1)
    halves = np.add.accumulate(0.5 * steps, axis=1)
    m = np.empty((n_groups, k, k))
    step = max(1, _rows_at_once(k) // longest)
    for lo in range(0, n_groups, step):
        hi = min(lo + step, n_groups)
        wins, ties = _counts(padded[lo:hi], size[lo:hi])
        ties -= wins
        ties -= np.transpose(wins, (0, 2, 1))          # both less the wins either way
        at = (np.arange(hi - lo) * (longest + 1))[:, None, None]   # group g's row of sums
        np.take(sums[lo:hi], wins + at, out=m[lo:hi])
        m[lo:hi] += np.take(halves[lo:hi], ties + at)
    m[:, np.arange(k), np.arange(k)] = 0.0
    return m


def borda(ranks: np.ndarray) -> np.ndarray:
    r = np.asarray(ranks, dtype=float)
    present = ~np.isnan(r)
    points = np.where(present, present.sum(axis=1, keepdims=True) - r, 0.0)
    return points.sum(axis=0) / np.maximum(present.sum(axis=0), 1)


def tolerance(ranks: np.ndarray, weights=None) -> float:
    """How far apart two weighted sums of M may be and still tie: :data:`TIE_TOLERANCE` times
    the total weight of the data sets (module docstring)."""
    total = (np.asarray(ranks).shape[0] if weights is None
             else float(np.abs(np.asarray(weights, dtype=float)).sum()))
    return TIE_TOLERANCE * total


def beats(m: np.ndarray, tol: float = 0.0) -> np.ndarray:
    """``B[i, j]``: i beats j by majority, M[i, j] > M[j, i] by more than ``tol``."""
    return (m - m.T) > tol


def copeland(m: np.ndarray, tol: float = 0.0) -> np.ndarray:
    wins = beats(m, tol).sum(axis=1)
    ties = ((np.abs(m - m.T) <= tol) & ~np.eye(m.shape[0], dtype=bool)).sum(axis=1)
    return wins + 0.5 * ties


def condorcet_winner(m: np.ndarray, tol: float = 0.0) -> int | None:
    """The learner that beats every other one by majority (the first, were there two), or
    None."""
    k = m.shape[0]
    wins_all = (beats(m, tol) | np.eye(k, dtype=bool)).all(axis=1)
    return int(np.argmax(wins_all)) if wins_all.any() else None


def cycles(m: np.ndarray, tol: float = 0.0) -> list:
    """The groups of learners whose strict majorities go round (strongly connected groups of
    three or more), each as a sorted list of indices."""
    from scipy.sparse.csgraph import connected_components

    strict = beats(m, tol).astype(int)
    _, labels = connected_components(strict, directed=True, connection="strong")
    groups = [sorted(np.flatnonzero(labels == g).tolist()) for g in np.unique(labels)]
    return [g for g in groups if len(g) >= 3]


def agreement(order, m: np.ndarray) -> float:
    """Σ over the pairs of ``order`` of M[earlier, later]: the pairwise preferences it keeps."""
    order = list(order)
    idx = np.array(order)
    pos = np.empty(len(order), dtype=int)
    pos[idx] = np.arange(len(order))
    earlier = pos[:, None] < pos[None, :]
    return float(m[earlier].sum())


def kemeny(m: np.ndarray, start=None, tol: float = 1e-12) -> tuple:
    """``(order, exact)``: a Kemeny order of the learners (indices, best first) and whether it
    is exact (up to :data:`KEMENY_EXACT_MAX` learners) or the heuristic's local optimum
    (module docstring); scores within ``tol`` tie."""
    if m.shape[0] <= KEMENY_EXACT_MAX:
        return _kemeny_exact(m, tol), True
    return kemeny_local(m, start, tol), False


def kemeny_local(m: np.ndarray, start=None, tol: float = 1e-12) -> list:
    """The heuristic beyond :data:`KEMENY_EXACT_MAX`: from ``start`` (the Borda order by
    default), move one learner at a time to the place that gains the most agreement while any
    move gains more than ``tol``; a local optimum, not necessarily a Kemeny order."""
    k = m.shape[0]
    order = list(np.argsort(-borda_from_majority(m), kind="stable") if start is None else start)
    order = np.asarray(order, dtype=int)
    d = m - m.T          # d[x, y] > 0: x is preferred to y by the majority
    improved = True
    while improved:
        improved = False
        for i in range(k):
            x = order[i]
            rest = np.delete(order, i)
            # placing x at position j of ``rest`` gains the sum over the learners it passes:
            # moving up past y gains d[x, y], moving down past y gains d[y, x] = −d[x, y]
            gains = d[x, rest]
            up = np.cumsum(gains[:i][::-1])[::-1]          # to positions 0 … i − 1
            down = -np.cumsum(gains[i:])                  # to positions i + 1 … k − 1
            candidates = np.concatenate([up, [0.0], down])
            j = int(np.argmax(candidates))                # the first of the best
            if candidates[j] > tol:
                order = np.insert(rest, j, x)
                improved = True
    return [int(i) for i in order]


def borda_from_majority(m: np.ndarray) -> np.ndarray:
    return m.sum(axis=1)


def _kemeny_exact(m: np.ndarray, tol: float = 1e-12) -> list:
    """Dynamic programming over subsets: the best score of ordering a subset S first is
    max over its last member j of best(S − j) + Σ_{i in S − j} M[i, j]; of the last members
    within ``tol`` of the best the lowest index is kept, for a deterministic answer.

    The subsets are taken a size at a time and every subset of a size at once (numpy), the
    gains Σ_{i in S} M[i, j] of all subsets built by adding one learner at a time (lowest
    index first, as a sum over the members in order adds them): O(2^k · k) numbers and
    O(k²) array steps, k = 16 in a fraction of a second."""
    k = m.shape[0]
    size = 1 << k
    gain = np.zeros((k, size))             # gain[j, S] = Σ_{i in S} M[i, j]
    for b in range(k):
        gain[:, 1 << b:2 << b] = gain[:, :1 << b] + m[b, :, None]
    best = np.full(size, -np.inf)
    last = np.full(size, -1, dtype=np.int64)
    best[0] = 0.0
    subsets = np.arange(size, dtype=np.int64)
    members = np.zeros(size, dtype=np.int64)
    for b in range(k):
        members += (subsets >> b) & 1
    for count in range(1, k + 1):
        layer = subsets[members == count]
        top = np.full(layer.size, -np.inf)
        chosen = np.full(layer.size, -1, dtype=np.int64)
        for j in range(k):                 # in order: a later j replaces only if better
            has = ((layer >> j) & 1).astype(bool)
            prev = layer[has] ^ (1 << j)
            value = best[prev] + gain[j, prev]
            better = value > top[has] + tol
            where = np.flatnonzero(has)[better]
            top[where], chosen[where] = value[better], j
        best[layer], last[layer] = top, chosen
    order, s = [], size - 1
    while s:
        j = int(last[s])
        order.append(j)
        s &= ~(1 << j)
    return order[::-1]


@dataclass(frozen=True)
class Aggregation:
    """The rules' results for k learners (by index into the board's learners)."""

    borda: np.ndarray
    copeland: np.ndarray
    kemeny: list
    kemeny_exact: bool
    condorcet: int | None
    cycles: list
    majority: np.ndarray


def aggregate(ranks: np.ndarray, weights=None) -> Aggregation:
    """Every rule of the module's docstring on the data sets' ``ranks`` (rows), each data set
    counted with its weight (``weights``, one per data set; 1 each by default). Weighted
    majorities are compared to within :data:`TIE_TOLERANCE` × the total weight, so that what
    ties in exact arithmetic ties here (module docstring).

    Examples
    --------
    Two data sets of weights 0.1 and 0.2 rank A first, one of weight 0.3 ranks B first: a
    tie (0.1 + 0.2 = 0.3), though in floating point 0.1 + 0.2 > 0.3:

    >>> from rankwise.stats.aggregation import aggregate
    >>> a = aggregate([[1, 2], [1, 2], [2, 1]], weights=[0.1, 0.2, 0.3])
    >>> a.copeland.tolist(), a.condorcet
    ([0.5, 0.5], None)
    >>> aggregate([[1, 2], [1, 2], [2, 1]], weights=[0.1, 0.2, 0.31]).condorcet
    1
    """
    ranks = np.asarray(ranks, dtype=float)
    m = majority(ranks, weights)
    tol = tolerance(ranks, weights)
    order, exact = kemeny(m, tol=tol)
    return Aggregation(borda(ranks), copeland(m, tol), order, exact, condorcet_winner(m, tol),
                       cycles(m, tol), m)
