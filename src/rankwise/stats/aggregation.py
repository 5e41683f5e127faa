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
  subsets up to :data:`KEMENY_EXACT_MAX` learners; beyond, a stated heuristic (the Borda
  order improved by moving one learner at a time while that gains agreement), a local optimum
  that need not be the best.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Learners up to which the Kemeny order is exact (2^k subsets).
KEMENY_EXACT_MAX = 10
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


def copeland(m: np.ndarray) -> np.ndarray:
    wins = (m > m.T).sum(axis=1)
    ties = ((m == m.T) & ~np.eye(m.shape[0], dtype=bool)).sum(axis=1)
    return wins + 0.5 * ties


def condorcet_winner(m: np.ndarray) -> int | None:
    k = m.shape[0]
    for i in range(k):
        if all(m[i, j] > m[j, i] for j in range(k) if j != i):
            return i
    return None


def cycles(m: np.ndarray) -> list:
    """The groups of learners whose strict majorities go round (strongly connected groups of
    three or more), each as a sorted list of indices."""
    from scipy.sparse.csgraph import connected_components

    strict = (m > m.T).astype(int)
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


def kemeny(m: np.ndarray, start=None) -> tuple:
    """``(order, exact)``: a Kemeny order of the learners (indices, best first) and whether it
    is exact (module docstring)."""
    k = m.shape[0]
    if k <= KEMENY_EXACT_MAX:
        return _kemeny_exact(m), True
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
            if candidates[j] > 1e-12:
                order = np.insert(rest, j, x)
                improved = True
    return [int(i) for i in order], False


def borda_from_majority(m: np.ndarray) -> np.ndarray:
    return m.sum(axis=1)


def _kemeny_exact(m: np.ndarray) -> list:
    """Dynamic programming over subsets: the best score of ordering a subset S first is
    max over its last member j of best(S − j) + Σ_{i in S − j} M[i, j]; ties broken towards
    the lower index for a deterministic answer."""
    k = m.shape[0]
    size = 1 << k
    best = np.full(size, -np.inf)
    last = np.full(size, -1, dtype=int)
    best[0] = 0.0
    # gain[j][S] = Σ_{i in S} M[i, j], built incrementally
    for s in range(1, size):
        members = [j for j in range(k) if s >> j & 1]
        for j in members:
            prev = s & ~(1 << j)
            if best[prev] == -np.inf:
                continue
            gain = sum(m[i, j] for i in members if i != j)
            value = best[prev] + gain
            if value > best[s] + 1e-12 or (abs(value - best[s]) <= 1e-12 and j < last[s]):
                best[s], last[s] = value, j
    order, s = [], size - 1
    while s:
        j = last[s]
        order.append(int(j))
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
    m = majority(ranks, weights)
    order, exact = kemeny(m)
    return Aggregation(borda(ranks), copeland(m), order, exact, condorcet_winner(m), cycles(m), m)
