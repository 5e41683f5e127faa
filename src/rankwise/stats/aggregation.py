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
    """The k × k weighted pairwise majority matrix M (module docstring)."""
    r = np.asarray(ranks, dtype=float)
    k = r.shape[1]
    wins = np.zeros((k, k), dtype=np.float64 if weights is not None else np.int64)
    ties = np.zeros((k, k))
    for d in range(r.shape[0]):
        row = r[d]
        ok = ~np.isnan(row)
        w = 1 if weights is None else float(weights[d])
        if ok.all():
            beats = row[:, None] < row[None, :]
        else:
            beats = (row[:, None] < row[None, :]) & ok[:, None] & ok[None, :]
        if w == 1:
            np.add(wins, beats, out=wins, casting="unsafe")
        else:
            wins += w * beats
        if np.unique(row[ok]).size < ok.sum():   # ties on this data set: half a win each
            tied = (row[:, None] == row[None, :]) & ok[:, None] & ok[None, :]
            ties += 0.5 * w * tied
    m = wins + ties
    np.fill_diagonal(m, 0.0)
    return m.astype(float)


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
    k = m.shape[0]
    strict = beats(m, tol)
    for i in range(k):
        if all(strict[i, j] for j in range(k) if j != i):
            return i
    return None


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
