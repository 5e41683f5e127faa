"""The multiple comparison sign test against a control (Steel 1959; García et al. 2010 §3.2), with
its exact experimentwise critical values. See ``docs/reference/multiple-sign-test.md``.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _validate as check
from .ranking import DEFAULT_DECIMALS, round_scores


def multiple_sign_test(x, control: int, *, alpha: float = 0.05, higher_is_better: bool = True,
                       decimals: int | None = DEFAULT_DECIMALS) -> dict:
    """Multiple comparison sign test against a control (Steel 1959; García et al. 2010 §3.2).

    For each learner j: pluses = data sets where j beats the control, minuses = where the
    control wins, ties dropped (the papers do not say; ties make the test approximate). With
    r* = the exact one-sided experimentwise critical value for m = k − 1 and n data sets
    (Rhyne & Steel's Table A.1, computed exactly), "control better" is concluded when
    pluses ≤ r*, "control worse" when minuses ≤ r*.
    """
    alpha = check.alpha(alpha)
    x = round_scores(check.score_matrix(x), decimals)
    n, k = x.shape
    d = round_scores(x - x[:, [control]], decimals)
    if not higher_is_better:
        d = -d
    r_star, exact = sign_critical_value(k - 1, n, alpha)
    rows = []
    for j in range(k):
        if j == control:
            continue
        plus, minus = int((d[:, j] > 0).sum()), int((d[:, j] < 0).sum())
        rows.append({"learner": j, "pluses": plus, "minuses": minus, "ties": n - plus - minus,
                     "control_better": r_star is not None and plus <= r_star,
                     "control_worse": r_star is not None and minus <= r_star})
    notes = []
    if any(r["ties"] for r in rows):
        notes.append("ties are dropped per comparison; with ties the critical value (for n data"
                     " sets) is only approximately valid")
    if not exact:
        notes.append("critical value by Monte Carlo (200,000 seeded replicates): m is too large"
                     " for the exact dynamic programme")
    return {"critical_value": r_star, "n": n, "m": k - 1, "alpha": alpha, "exact": exact,
            "comparisons": rows, "notes": notes}



def _min_count_cdf(m: int, n: int, cap: int) -> np.ndarray:
    """P(min_j N⁺_j ≤ r) for r = 0..cap−1 under H0 (m treatments, n blocks; exact DP).

    Under H0 the k values of a block are exchangeable, so its sign vector s ∈ {0,1}^m has
    P(s) = 1/((m+1)·C(m, |s|)). Counts are capped at ``cap``, which keeps every event
    {min ≥ c} with c ≤ cap exact.
    """
    shape = (cap + 1,) * m
    dist = np.zeros(shape)
    dist[(0,) * m] = 1.0
    weights = [1.0 / ((m + 1) * math.comb(m, c)) for c in range(m + 1)]
    for _ in range(n):
        parts = [(dist, 0)]
        for axis in range(m):
            nxt = []
            for arr, ones in parts:
                moved = np.zeros_like(arr)
                src = [slice(None)] * m
                dst = [slice(None)] * m
                src[axis], dst[axis] = slice(0, cap), slice(1, cap + 1)
                moved[tuple(dst)] = arr[tuple(src)]
                last = [slice(None)] * m
                last[axis] = cap
                moved[tuple(last)] += arr[tuple(last)]
                nxt.extend([(arr, ones), (moved, ones + 1)])
            parts = nxt
        dist = sum(weights[ones] * arr for arr, ones in parts)
    tail = []
    for c in range(1, cap + 1):
        corner = tuple(slice(c, None) for _ in range(m))
        tail.append(1.0 - float(dist[corner].sum()))
    return np.array(tail)



def sign_critical_value(m: int, n: int, alpha: float):
    """``(r*, exact)``: the largest r with P(min_j N⁺_j ≤ r) ≤ α (None if even r = 0 fails).

    r* lies below n/2, so one dynamic programme with counts capped at ⌈n/2⌉ + 1 gives every
    candidate r; when that state space is too large a seeded Monte Carlo is used instead.
    """
    cap = n // 2 + 2
    if (cap + 1) ** m * 2 ** m * n <= 3e8:
        probs, exact = _min_count_cdf(m, n, cap), True
    else:
        probs, exact = _min_count_cdf_mc(m, n, cap), False
    ok = np.flatnonzero(probs <= alpha * (1 + 1e-12))
    return (int(ok[-1]) if ok.size else None), exact



def _min_count_cdf_mc(m: int, n: int, cap: int, reps: int = 200_000) -> np.ndarray:
    rng = np.random.default_rng(20100101 + 7919 * m + n)
    lowest = []
    for start in range(0, reps, 10_000):
        size = min(10_000, reps - start)
        vals = rng.random((size, n, m + 1))
        lowest.append((vals[:, :, 1:] > vals[:, :, :1]).sum(axis=1).min(axis=1))
    lowest = np.concatenate(lowest)
    return np.array([(lowest <= r).mean() for r in range(cap)])
