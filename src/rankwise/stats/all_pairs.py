"""Every pair of many learners in bounded memory, most significant first.

For the rankings whose pair statistic is the difference of two learners' scores over one
standard error (mean ranks of Friedman, aligned ranks and Quade, z; Conover's t), the p-value of
a pair only falls as the size of M_a − M_b grows, so the pairs sorted by p are the pairs sorted
by that difference. :class:`AllPairs` enumerates the k(k − 1)/2 pairs in blocks of about
``BLOCK_PAIRS``, largest difference (smallest p) first, each block found from the sorted scores
by binary search; inside a block, by p. The adjustments need little more
than a pair's own p:

- single step (``nemenyi``, ``bonferroni``, ``sidak``): the pair's p and m;
- Holm's step-down: the running maximum of (m − i)·p_(i) over the pairs before it, carried from
  block to block;
- the step-up procedures (``benjamini_hochberg``, ``benjamini_yekutieli``): the running minimum
  of (c·m/(i + 1))·p_(i) over the pairs after it, from a first pass in reverse.

Tied p-values get the same adjusted p-values whatever their order inside the tie, so every
number equals :func:`rankwise.adjust` (and :func:`nemenyi_pvalues`, to its stated 1.2e-12) on
all the pairs at once; the tests compare them. Shaffer's and Bergmann-Hommel's procedures need
every pair at once and are refused above ``rankwise.defaults.PAIR_MATRIX_MAX_LEARNERS``.

Examples
--------
Every pair of 2,000 learners' mean ranks (1,999,000 pairs), Holm's procedure carried from
block to block; the counts equal those of the whole family adjusted at once:

>>> import numpy as np
>>> from rankwise.stats.all_pairs import AllPairs, scan
>>> ranks = np.sort(np.random.default_rng(0).uniform(1, 2000, 2000))
>>> pairs = AllPairs(ranks, se=40.0, procedures=("holm",), block_pairs=500_000)
>>> pairs.m, len(pairs.counts())
(1999000, 4)
>>> found = scan(pairs, alpha=0.05, top=10, among=range(5))
>>> from rankwise.stats.adjust import adjust
>>> from scipy.stats import norm
>>> d = np.abs(ranks[:, None] - ranks[None, :])[np.triu_indices(2000, 1)]
>>> whole = adjust(2 * norm.sf(d / 40.0), "holm")
>>> found.rejected["holm"] == int((whole <= 0.05).sum())
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

from ..defaults import ALL_PAIRS_EDGE_SEED
from .adjust import harmonic

#: Pairs per block: the memory of a pass is a few arrays of this length.
BLOCK_PAIRS = 2_000_000
#: The procedures a stream computes.
SINGLE_STEP = ("nemenyi", "bonferroni", "sidak")
STEP_DOWN = ("holm",)
STEP_UP = ("benjamini_hochberg", "benjamini_yekutieli")
STREAMED_PROCEDURES = SINGLE_STEP + STEP_DOWN + STEP_UP
#: The relative gap kept free of pairs around each block boundary.
EDGE_GAP = 1e-9


@dataclass(frozen=True)
class PairBlock:
    """Consecutive pairs of the significance order: ``start`` is the position of the first
    (0 = smallest p); ``a`` < ``b`` are learner indices, ``statistic`` (M_a − M_b)/SE, and
    ``apv`` one array per procedure; ``difference`` is ``abs(M_a − M_b)``."""

    start: int
    a: np.ndarray
    b: np.ndarray
    difference: np.ndarray
    statistic: np.ndarray
    pvalue: np.ndarray
    apv: dict

    def __len__(self) -> int:
        return self.a.size


class AllPairs:
    """All pairs of k learners whose pair statistic is (M_a − M_b)/``se``; ``df`` for
    Student's t (Conover), else the normal; ``procedures`` from ``STREAMED_PROCEDURES``.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.stats.all_pairs import AllPairs
    >>> mean_ranks = np.array([2.1, 3.25, 2.2, 4.333, 3.117])   # Garcia & Herrera 2008
    >>> pairs = AllPairs(mean_ranks, se=0.4083, procedures=("holm", "nemenyi"))
    >>> pairs.m, int(pairs.counts().sum())
    (10, 10)
    >>> first = next(pairs.blocks())
    >>> int(first.a[0]), int(first.b[0]), f"{first.apv['holm'][0]:.3g}"
    (0, 3, '4.53e-07')
    """

    def __init__(self, scores, se: float, procedures, *, df: float | None = None,
                 block_pairs: int = BLOCK_PAIRS):
        self.scores = np.asarray(scores, dtype=float)
        self.k = k = self.scores.size
        self.m = k * (k - 1) // 2
        self.se, self.df = float(se), df
        self.procedures = tuple(procedures)
        unknown = [p for p in self.procedures if p not in STREAMED_PROCEDURES]
        if unknown:
            raise ValueError(f"not a streamed procedure: {unknown[0]}")
        self.order = np.lexsort((np.arange(k), self.scores))
        self.sorted = self.scores[self.order]
        self.edges = self._edges(max(1, math.ceil(self.m / block_pairs)))
        self._counts = None
        self._up_carry = None

    # ------------------------------------------------------------------ the blocks

    def _edges(self, bins: int) -> np.ndarray:
        """Thresholds of |difference|, descending: block j holds lo ≤ d < hi for
        (hi, lo) = (edges[j], edges[j + 1]); first +inf, last −inf (quantiles of a seeded sample
        of pairs, so the blocks hold about ``m / bins`` pairs each)."""
        if bins <= 1 or self.k < 2:
            return np.array([np.inf, -np.inf])
        rng = np.random.default_rng(ALL_PAIRS_EDGE_SEED)
        size = int(min(10_000_000, max(200_000, 50 * bins)))
        u, v = rng.integers(0, self.k, size), rng.integers(0, self.k, size)
        keep = u != v
        d = np.abs(self.sorted[v[keep]] - self.sorted[u[keep]])
        cuts = np.unique(np.quantile(d, 1.0 - np.arange(1, bins) / bins))[::-1]
        cuts = np.unique([self._clear(t) for t in cuts[cuts > 0]])[::-1]
        return np.concatenate([[np.inf], cuts, [-np.inf]])

    def _clear(self, t: float) -> float:
        """``t`` moved (by up to 1%) to where no pair's difference lies within a relative
        ``EDGE_GAP`` of it: the p-values of pairs on the two sides of a block boundary then
        differ by far more than the last-bit noise of their computation, so the blocks, each
        sorted by p, are sorted by p together."""
        for shift in (0.0, *(sign * 10.0 ** e for e in range(-7, -1) for sign in (1, -1))):
            c = t * (1.0 + shift)
            inside = self.first_at_least(c * (1 + EDGE_GAP)) - self.first_at_least(
                c * (1 - EDGE_GAP))
            if not inside.any():
                return c
        return t

    def first_at_least(self, t: float) -> np.ndarray:
        """For each sorted position u, the first v > u with s[v] − s[u] ≥ t (k when none), on
        the computed differences themselves (a binary search, then a step past rounding)."""
        s, k = self.sorted, self.k
        u = np.arange(k)
        if t == np.inf:
            return np.full(k, k)
        if t == -np.inf:
            return np.minimum(u + 1, k)
        v = np.searchsorted(s, s + t, side="left")
        while True:
            back = (v > u + 1) & (s[np.maximum(v - 1, 0)] - s >= t)
            v[back] = np.searchsorted(s, s[v[back] - 1], side="left")
            ahead = (v < k) & (s[np.minimum(v, k - 1)] - s < t)
            v[ahead] = np.searchsorted(s, s[v[ahead]], side="right")
            if not (back.any() or ahead.any()):
                return np.maximum(v, np.minimum(u + 1, k))

    def counts(self) -> np.ndarray:
        """Pairs in each block."""
        if self._counts is None:
            ends = [self.first_at_least(t) for t in self.edges]
            self._counts = np.array([int((ends[j] - ends[j + 1]).sum())
                                     for j in range(len(self.edges) - 1)], dtype=np.int64)
        return self._counts

    def _pairs(self, j: int, stop=None) -> tuple:
        """``(a, b, d)`` of block j in the significance order, and the ``stop`` of the next
        block: for each u, block j holds the v from the first with d ≥ its lower threshold up
        to (not including) the first with d ≥ its upper one, ``stop``."""
        stop = self.first_at_least(self.edges[j]) if stop is None else stop
        begin = self.first_at_least(self.edges[j + 1])
        width = stop - begin
        u = np.repeat(np.arange(self.k), width)
        v = np.arange(int(width.sum())) - np.repeat(np.cumsum(width) - width, width) + begin[u]
        oa, ob = self.order[u], self.order[v]
        a, b = np.minimum(oa, ob), np.maximum(oa, ob)
        d = self.sorted[v] - self.sorted[u]
        return a, b, d, begin

    def _block(self, j: int, stop=None) -> tuple:
        """``(a, b, d, statistic, p, next stop)`` of block j, by p (whose last bits need not
        fall with d), ties by difference and learners."""
        a, b, d, stop = self._pairs(j, stop)
        z, p = self._tests(a, b)
        sort = np.lexsort((b, a, -d, p))
        return a[sort], b[sort], d[sort], z[sort], p[sort], stop

    def _tests(self, a, b) -> tuple:
        """(statistic, p) of the pairs: the arithmetic of ``score_pairs`` exactly."""
        diff = self.scores[a] - self.scores[b]
        if self.se > 0:
            z = diff / self.se
        elif self.df is None:
            z = np.zeros(diff.shape)
        else:
            z = np.where(diff == 0, 0.0, np.copysign(np.inf, diff))
        tail = stats.norm.sf(np.abs(z)) if self.df is None else stats.t.sf(np.abs(z), self.df)
        return z, np.minimum(1.0, 2 * tail)

    # ------------------------------------------------------------------ adjustments

    def _step_up_values(self, p, start: int) -> dict:
        m = self.m
        pos = start + np.arange(1, p.size + 1)
        out = {}
        for proc in self.procedures:
            if proc in STEP_UP:
                c = 1.0 if proc == "benjamini_hochberg" else harmonic(m)
                out[proc] = np.minimum(c * m / pos * p, 1.0)
        return out

    def _up_carries(self) -> dict:
        """For each block, the smallest step-up value of the blocks after it (a pass in
        reverse; only when a step-up procedure is asked for)."""
        if self._up_carry is None:
            wanted = [p for p in self.procedures if p in STEP_UP]
            nb = len(self.edges) - 1
            carry = {p: np.full(nb, np.inf) for p in wanted}
            if wanted:
                starts = np.concatenate([[0], np.cumsum(self.counts())[:-1]])
                running = {p: np.inf for p in wanted}
                for j in range(nb - 1, -1, -1):
                    for p in wanted:
                        carry[p][j] = running[p]
                    p = self._block(j)[4]
                    values = self._step_up_values(p, int(starts[j]))
                    for p in wanted:
                        if values[p].size:
                            running[p] = min(running[p], float(values[p].min()))
            self._up_carry = carry
        return self._up_carry

    def blocks(self):
        """The pairs in blocks, most significant first, with every procedure's APVs."""
        from .pairwise import nemenyi_pvalues

        m = self.m
        up = self._up_carries()
        down = 0.0
        start, stop = 0, None
        for j in range(len(self.edges) - 1):
            a, b, d, z, p, stop = self._block(j, stop)
            apv = {}
            for proc in self.procedures:
                if proc == "nemenyi":
                    apv[proc] = nemenyi_pvalues(z, self.k)
                elif proc == "bonferroni":
                    apv[proc] = np.minimum(p * m, 1.0)
                elif proc == "sidak":
                    with np.errstate(divide="ignore"):
                        apv[proc] = np.minimum(-np.expm1(m * np.log1p(-p)), 1.0)
                elif proc == "holm":
                    run = np.maximum.accumulate((m - (start + np.arange(p.size))) * p)
                    run = np.maximum(run, down)
                    down = float(run[-1]) if run.size else down
                    apv[proc] = np.minimum(run, 1.0)
            for proc, values in self._step_up_values(p, start).items():
                apv[proc] = np.minimum(np.minimum.accumulate(values[::-1])[::-1], up[proc][j])
            yield PairBlock(start, a, b, d, z, p, apv)
            start += a.size


@dataclass(frozen=True)
class Scan:
    """One pass over every pair: ``rejected`` counts per procedure at ``alpha``, the first
    ``top`` pairs (smallest p) and the pairs of the learners ``among``, each as ``(a, b,
    statistic, p, {procedure: apv})`` arrays; ``last_rejected``: per procedure, the largest p
    and the smallest difference of a rejected pair (None when none is)."""

    alpha: float
    rejected: dict
    top: tuple
    among: tuple
    last_rejected: dict


def scan(pairs: AllPairs, alpha: float, top: int, among) -> Scan:
    """Count, keep the most significant ``top`` and the pairs among ``among`` (learner indices)
    in one pass over ``pairs.blocks()``.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.stats.all_pairs import AllPairs, scan
    >>> mean_ranks = np.array([2.1, 3.25, 2.2, 4.333, 3.117])
    >>> pairs = AllPairs(mean_ranks, se=0.4083, procedures=("holm", "nemenyi"))
    >>> found = scan(pairs, alpha=0.05, top=3, among=[0, 2])
    >>> found.rejected
    {'holm': 5, 'nemenyi': 4}
    """
    procs = pairs.procedures
    inside = np.zeros(pairs.k, dtype=bool)
    inside[np.asarray(among, dtype=np.int64)] = True
    rejected = {p: 0 for p in procs}
    last = {p: None for p in procs}
    kept_top, kept_among = [], []
    for block in pairs.blocks():
        for p in procs:
            hit = block.apv[p] <= alpha
            if hit.any():
                rejected[p] += int(hit.sum())
                where = np.flatnonzero(hit)
                p_max = float(block.pvalue[where].max())
                d_min = float(block.difference[where].min())
                old = last[p]
                last[p] = (p_max, d_min) if old is None else (max(old[0], p_max),
                                                              min(old[1], d_min))
        if block.start < top:
            kept_top.append(_rows(block, np.arange(min(len(block), top - block.start))))
        kept_among.append(_rows(block, np.flatnonzero(inside[block.a] & inside[block.b])))
    return Scan(alpha, rejected, _joined(kept_top, procs), _joined(kept_among, procs), last)


def _rows(block: PairBlock, rows) -> tuple:
    return (block.a[rows], block.b[rows], block.statistic[rows], block.pvalue[rows],
            {p: v[rows] for p, v in block.apv.items()})


def _joined(parts: list, procs) -> tuple:
    if not parts:
        empty = np.empty(0)
        return (empty.astype(np.int64), empty.astype(np.int64), empty, empty,
                {p: empty for p in procs})
    return (np.concatenate([x[0] for x in parts]), np.concatenate([x[1] for x in parts]),
            np.concatenate([x[2] for x in parts]), np.concatenate([x[3] for x in parts]),
            {p: np.concatenate([x[4][p] for x in parts]) for p in procs})


def first_rejected(pairs: AllPairs, p_star: float, d_star: float) -> np.ndarray:
    """For each sorted position u, the first v > u whose pair has p ≤ ``p_star`` (k when
    none): the pairs of a step-down or step-up procedure that rejects are those with p up to
    that of its last rejected pair. Beyond a relative ``EDGE_GAP`` above ``d_star`` (the
    smallest rejected difference) the difference decides; nearer, the p-value itself."""
    k = pairs.k
    sure = pairs.first_at_least(d_star * (1 + EDGE_GAP))
    begin = pairs.first_at_least(d_star * (1 - EDGE_GAP))
    width = np.maximum(sure - begin, 0)
    first = sure.copy()
    if width.any():
        u = np.repeat(np.arange(k), width)
        v = np.arange(int(width.sum())) - np.repeat(np.cumsum(width) - width, width) + begin[u]
        oa, ob = pairs.order[u], pairs.order[v]
        hit = pairs._tests(np.minimum(oa, ob), np.maximum(oa, ob))[1] <= p_star
        if hit.any():
            cand = np.full(k, k)
            np.minimum.at(cand, u[hit], v[hit])
            first = np.minimum(first, cand)
    return first
