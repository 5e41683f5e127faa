"""Effect sizes of every pair of a complete table at once: the numbers of the one-pair functions
of :mod:`.effects` (the reference, against which the tests compare these), computed in array
operations block by block.

Formulas, conventions and cross-checks: ``docs/reference/effect-sizes.md``.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from .. import _validate as check
from .effects import (DZ_EXACT_MAX_N, WALSH_LIST_MAX, Estimate, PairEffects,
                      cliff_interval, hl_c, hodges_lehmann, integer_rows, nct_intervals,
                      cliff_magnitude, effect_sizes, wilson_interval)
from .ranking import DEFAULT_DECIMALS, round_scores

# Pairs whose data fall outside the array paths (Walsh averages too many to list, scores too
# large for exact integer sums) go through the reference functions.

#: Cells of the largest temporary one block of pairs may use (Walsh sums or comparisons).
BLOCK_CELLS = 4_000_000


#: Above this many data sets Cliff's δ counts each pair's dominances by sorting (n log n)
#: instead of comparing every cell with every cell (n², 25 million comparisons a pair at
#: N = 5,000); the counts, and so the numbers, are the same.
CLIFF_SORT_FROM_N = 64


def _dominance_counts(x: np.ndarray, y: np.ndarray) -> tuple:
    """For each row: how many y each x_i is above and below, and how many x each y_j is
    above and below (integer counts, as the cell-by-cell comparison gives them)."""
    rows, n_a = x.shape
    n_b = y.shape[1]
    if n_a <= CLIFF_SORT_FROM_N:
        gt = (x[:, :, None] > y[:, None, :])
        lt = (x[:, :, None] < y[:, None, :])
        return gt.sum(axis=2), lt.sum(axis=2), gt.sum(axis=1), lt.sum(axis=1)
    x_above, x_below = np.empty((rows, n_a), np.int64), np.empty((rows, n_a), np.int64)
    y_below, y_above = np.empty((rows, n_b), np.int64), np.empty((rows, n_b), np.int64)
    for r in range(rows):
        xs, ys = np.sort(x[r]), np.sort(y[r])
        x_above[r] = np.searchsorted(ys, x[r], "left")            # y < x_i
        x_below[r] = n_b - np.searchsorted(ys, x[r], "right")     # y > x_i
        y_below[r] = n_a - np.searchsorted(xs, y[r], "right")     # x > y_j
        y_above[r] = np.searchsorted(xs, y[r], "left")            # x < y_j
    return x_above, x_below, y_below, y_above


def _cliff_rows(x: np.ndarray, y: np.ndarray, z: float) -> tuple:
    """Cliff's δ and its interval for each row pair of ``x`` and ``y``
    (``cliffs_delta`` on every row)."""
    n_a = n_b = x.shape[1]
    gt_row, lt_row, gt_col, lt_col = _dominance_counts(x, y)
    row = (gt_row - lt_row) / n_b
    col = (gt_col - lt_col) / n_a
    ties = n_a * n_b - gt_row.sum(axis=1) - lt_row.sum(axis=1)
    delta = row.mean(axis=1)
    sum_sq = (n_a * n_b - ties) - n_a * n_b * delta * delta
    s2 = (n_b * n_b * ((row - delta[:, None]) ** 2).sum(axis=1)
          + n_a * n_a * ((col - delta[:, None]) ** 2).sum(axis=1)
          - sum_sq) / (n_a * n_b * (n_a - 1) * (n_b - 1))
    low, high = cliff_interval(delta, np.sqrt(np.maximum(s2, 0.0)), z)
    return delta, low, high








def _hl_rows(d: np.ndarray, decimals, confidence: float):
    """``hodges_lehmann`` on each row of rounded differences: (estimate, low, high, method,
    achieved, n_zeros, tied, done); rows with ``done`` False need the reference function."""
    rows, n = d.shape
    m = n * (n + 1) // 2
    n_zeros = (d == 0).sum(axis=1)
    absd = np.sort(np.abs(d), axis=1)
    tied = ((absd[:, 1:] == absd[:, :-1]) & (absd[:, 1:] != 0)).any(axis=1)
    cs = hl_c(n, confidence)
    exact = (~tied) & (n_zeros == 0) & ("exact" in cs)
    c = np.where(exact, cs.get("exact", cs["normal"])[0], cs["normal"][0])
    whole, scales, integer = integer_rows(d, decimals)
    done = integer if decimals is not None else np.ones(rows, dtype=bool)
    est = np.full(rows, np.nan)
    low, high = est.copy(), est.copy()
    if m <= WALSH_LIST_MAX and done.any():
        iu0, iu1 = np.triu_indices(n)
        src = whole[done] if decimals is not None else d[done]
        if decimals is not None and src.size and np.abs(src).max() < 2 ** 30:
            src = src.astype(np.int32)  # exact sums in half the memory: a faster selection
        sums = src[:, iu0] + src[:, iu1]
        cd = c[done]
        positions = np.stack([cd - 1, m - cd, np.full_like(cd, (m - 1) // 2),
                              np.full_like(cd, m // 2)], axis=1)
        sums.partition(np.unique(positions), axis=1)
        picked = np.take_along_axis(sums, positions, axis=1)
        div = (2.0 * scales[done])[:, None] if decimals is not None else 2.0
        values = picked / div
        places = None if decimals is None else min(decimals + 1, 15)
        values = round_scores(np.column_stack([values[:, 0], values[:, 1],
                                               (values[:, 2] + values[:, 3]) / 2.0]), places)
        low[done], high[done], est[done] = values[:, 0], values[:, 1], values[:, 2]
    else:
        done = np.zeros(rows, dtype=bool)
    achieved = np.where(exact, cs["exact"][1] if "exact" in cs else np.nan, np.nan)
    return est, low, high, exact, achieved, n_zeros, tied, done


class EffectsTable:
    """Every effect size of many pairs as arrays (``a − b``; see the module docstring), read as
    a sequence of :class:`PairEffects` made when asked for, so that writers that need one
    object per pair get it and the rest keep the arrays."""

    FIELDS = ("hl", "hl_low", "hl_high", "ps", "ps_low", "ps_high", "dz", "dz_low", "dz_high",
              "delta", "delta_low", "delta_high")

    def __init__(self, a, b, n, confidence, arrays: dict, extra: dict):
        self.a, self.b = list(a), list(b)
        self.n = np.asarray(n)
        self.confidence = confidence
        self.arrays = arrays
        self.extra = extra  # per-row details: exact flags, counts, reference objects
        self._cache: dict = {}

    def __len__(self):
        return len(self.a)

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        if i not in self._cache:
            self._cache[i] = self._make(i)
        return self._cache[i]

    def __eq__(self, other):
        return list(self) == list(other)

    def _make(self, i) -> PairEffects:
        ref = self.extra["reference"].get(i)
        if ref is not None:
            return ref
        v = {name: float(self.arrays[name][i]) for name in self.FIELDS}
        x = {name: arr[i] for name, arr in self.extra.items() if name != "reference"}
        n = int(self.n[i])
        hl_details = {"n": n, "n_zeros": int(x["n_zeros"]), "tied": bool(x["tied"])}
        if x["exact"]:
            hl_details["achieved_confidence"] = float(x["achieved"])
        hl = Estimate(v["hl"], v["hl_low"], v["hl_high"], "exact" if x["exact"] else "normal",
                      details=hl_details)
        wins, ties = int(x["wins"]), int(x["ties"])
        ps = Estimate(v["ps"], v["ps_low"], v["ps_high"], "wilson",
                      details={"n": n, "a_wins": wins, "ties": ties, "b_wins": n - wins - ties})
        if x["dz_method"] == "undefined":
            dz = Estimate(math.nan, math.nan, math.nan, "undefined",
                          details={"n": n, "note": "every difference is the same: d_z undefined"})
        else:
            dz = Estimate(v["dz"], v["dz_low"], v["dz_high"], str(x["dz_method"]),
                          details={"n": n})
        delta = v["delta"]
        cd = Estimate(delta, v["delta_low"], v["delta_high"], "cliff",
                      magnitude=cliff_magnitude(delta), details={"a12": (delta + 1.0) / 2.0,
                                                                 "n": n})
        return PairEffects(self.a[i], self.b[i], n, hl, ps, dz, cd, self.confidence)


def effect_sizes_all(x, pairs, names, *, confidence: float = 0.95,
                     decimals: int | None = DEFAULT_DECIMALS) -> EffectsTable:
    """:func:`effect_sizes` of every pair ``(i, j)`` of columns of a complete matrix ``x``
    (data sets × learners), computed in array operations; equal to calling
    ``effect_sizes(x[:, i], x[:, j])`` pair by pair (the tests check it)."""
    confidence = check.confidence(confidence)
    x = round_scores(check.score_matrix(np.asarray(x, dtype=float), min_rows=2), decimals)
    n = x.shape[0]
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    count = len(pairs)
    arrays = {name: np.full(count, np.nan) for name in EffectsTable.FIELDS}
    extra = {"n_zeros": np.zeros(count, dtype=np.int64), "tied": np.zeros(count, dtype=bool),
             "exact": np.zeros(count, dtype=bool), "achieved": np.full(count, np.nan),
             "wins": np.zeros(count, dtype=np.int64), "ties": np.zeros(count, dtype=np.int64),
             "dz_method": np.full(count, "noncentral-t", dtype=object), "reference": {}}
    z = float(stats.norm.isf((1.0 - confidence) / 2.0))
    m = n * (n + 1) // 2
    # What one pair holds at once: its Walsh sums where they are listed, its n × n comparisons
    # where Cliff's δ compares cell by cell, else its n values.
    per_pair = max(m if m <= WALSH_LIST_MAX else 0, n * n if n <= CLIFF_SORT_FROM_N else 0, n)
    block = max(1, BLOCK_CELLS // per_pair)
    names = [str(s) for s in names]
    for start in range(0, count, block):
        sl = slice(start, min(start + block, count))
        ia, ib = pairs[sl, 0], pairs[sl, 1]
        u, v = x[:, ia].T, x[:, ib].T
        d = round_scores(u - v, decimals)
        est, low, high, exact, achieved, zeros, tied, done = _hl_rows(d, decimals, confidence)
        arrays["hl"][sl], arrays["hl_low"][sl], arrays["hl_high"][sl] = est, low, high
        extra["exact"][sl], extra["achieved"][sl] = exact, achieved
        extra["n_zeros"][sl], extra["tied"][sl] = zeros, tied
        # Too many Walsh averages to list: each pair's are selected as hodges_lehmann selects
        # them (the other sizes stay in the arrays); a pair whose differences are not exact
        # multiples of 10^-decimals goes whole through the reference.
        selectable = (np.zeros(len(d), dtype=bool) if m <= WALSH_LIST_MAX else
                      integer_rows(d, decimals)[2] if decimals is not None else
                      np.ones(len(d), dtype=bool))
        for r in np.flatnonzero(~done & selectable):
            i = start + int(r)
            hl = hodges_lehmann(x[:, pairs[i, 0]], x[:, pairs[i, 1]], confidence=confidence,
                                decimals=decimals)
            arrays["hl"][i], arrays["hl_low"][i], arrays["hl_high"][i] = \
                hl.estimate, hl.ci_low, hl.ci_high
            extra["exact"][i] = hl.method == "exact"
            extra["achieved"][i] = hl.details.get("achieved_confidence", np.nan)
            extra["n_zeros"][i], extra["tied"][i] = hl.details["n_zeros"], hl.details["tied"]
        for r in np.flatnonzero(~done & ~selectable):
            i = start + int(r)
            extra["reference"][i] = effect_sizes(
                x[:, pairs[i, 0]], x[:, pairs[i, 1]], names=(names[pairs[i, 0]],
                                                             names[pairs[i, 1]]),
                confidence=confidence, decimals=decimals)
        # probability of superiority, Wilson's interval
        wins, ties = (u > v).sum(axis=1), (u == v).sum(axis=1)
        p = (wins + 0.5 * ties) / n
        arrays["ps"][sl] = p
        arrays["ps_low"][sl], arrays["ps_high"][sl] = wilson_interval(p, n, confidence)
        extra["wins"][sl], extra["ties"][sl] = wins, ties
        # Cohen's d_z (scaled by the largest |d| of its row, as the reference does)
        top = np.abs(d).max(axis=1)
        scaled = (top > 0) & (top < math.inf)
        dd = np.where(scaled[:, None], d / np.where(scaled, top, 1.0)[:, None], d)
        sd = np.std(dd, axis=1, ddof=1)
        undefined = ~(sd > 0)
        with np.errstate(invalid="ignore", divide="ignore"):
            dz = np.mean(dd, axis=1) / sd
        extra["dz_method"][sl] = np.where(undefined, "undefined",
                                          "noncentral-t" if n <= DZ_EXACT_MAX_N else "normal")
        arrays["dz"][sl] = dz
        ok = ~undefined
        if ok.any():
            if n <= DZ_EXACT_MAX_N:
                lo, hi = nct_intervals(dz[ok] * math.sqrt(n), n - 1, confidence)
                lo, hi = lo / math.sqrt(n), hi / math.sqrt(n)
            else:
                se = np.sqrt(1.0 / n + dz[ok] * dz[ok] / (2.0 * n))
                lo, hi = dz[ok] - z * se, dz[ok] + z * se
            arrays["dz_low"][sl.start + np.flatnonzero(ok)] = lo
            arrays["dz_high"][sl.start + np.flatnonzero(ok)] = hi
        # Cliff's δ (unpaired), by comparing every value of a with every value of b
        delta, dlow, dhigh = _cliff_rows(u, v, z)
        arrays["delta"][sl], arrays["delta_low"][sl], arrays["delta_high"][sl] = \
            delta, dlow, dhigh
    a = [names[i] for i in pairs[:, 0]]
    b = [names[j] for j in pairs[:, 1]]
    return EffectsTable(a, b, np.full(count, n), confidence, arrays, extra)
