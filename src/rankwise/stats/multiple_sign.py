"""The multiple comparison sign test against a control (Steel 1959; García et al. 2010 §3.2), with
its exact experimentwise critical values. See ``docs/reference/multiple-sign-test.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .. import _validate as check
from .._validate import score_input
from .ranking import DEFAULT_DECIMALS, round_scores
from .results import AttributesOnly
from ._docs import shared_docs


@dataclass(frozen=True)
class MultipleSignTest(AttributesOnly):
    """The multiple sign test against a control: the critical value r* (None when no count
    can reach it), how it was obtained, and one row per learner (``learner`` as its column,
    ``pluses``, ``minuses``, ``ties``, ``control_better``, ``control_worse``).

    Examples
    --------
    >>> from rankwise import load_example, multiple_sign_test
    >>> res = multiple_sign_test(load_example("garcia2010"), 0)
    >>> res.critical_value, res.n, res.m
    (6, 24, 3)
    >>> [(c['pluses'], c['minuses']) for c in res.comparisons]
    [(8, 15), (6, 18), (4, 20)]
    """

    critical_value: int | None
    n: int
    m: int
    alpha: float
    exact: bool
    critical_value_method: str
    comparisons: tuple
    notes: tuple

    def to_dict(self) -> dict:
        return {"critical_value": self.critical_value, "n": self.n, "m": self.m,
                "alpha": self.alpha, "exact": self.exact,
                "critical_value_method": self.critical_value_method,
                "comparisons": [dict(row) for row in self.comparisons],
                "notes": list(self.notes)}


@score_input
@shared_docs
def multiple_sign_test(x, control: int, *, alpha: float = 0.05, higher_is_better: bool | None = None,
                       decimals: int | None = DEFAULT_DECIMALS) -> MultipleSignTest:
    """Multiple comparison sign test against a control (Steel 1959; García et al. 2010 §3.2).

    For each learner j: pluses = data sets where j beats the control, minuses = where the control
    wins, ties dropped (the papers do not say; ties make the test approximate, and a note says so).
    With r* the exact one-sided experimentwise critical value for m = k − 1 comparisons and n data
    sets (Rhyne & Steel's Table A.1, computed exactly; three printed cells are one too
    conservative, ERRATA G18), "control better" is concluded when pluses ≤ r*, "control worse"
    when minuses ≤ r*.

    Parameters
    ----------
    {{x}}
    control : int
        Column of the control.
    alpha : float, default 0.05
        Experimentwise level of the critical value.
    {{higher_is_better}}
    {{decimals}}

    Returns
    -------
    MultipleSignTest
        ``critical_value`` (r*), ``n``, ``m``, ``alpha``, ``exact``, ``comparisons`` (one dict per
        learner: ``learner``, ``pluses``, ``minuses``, ``ties``, ``control_better``,
        ``control_worse``) and ``notes``; ``to_dict()`` for JSON (rankwise 0.5 returned that
        dict; dict access keeps working for one release, with a DeprecationWarning).

    References
    ----------
    Steel, R. G. D. (1959). Biometrics 15, 560–572. Rhyne, A. L. and Steel, R. G. D. (1965).
    Technometrics 7, 293–306.

    Examples
    --------
    García et al. (2010), Table 4: with PDFC as the control, r* = 6 for m = 3 and n = 24; PDFC
    beats IS-CHC+1NN (6 pluses) and FH-GBML (4), not NNEP (8):

    >>> from rankwise import load_example, multiple_sign_test
    >>> res = multiple_sign_test(load_example("garcia2010").values, control=0)
    >>> res.critical_value, [(c["pluses"], c["control_better"]) for c in res.comparisons]
    (6, [(8, False), (6, True), (4, True)])
    """
    alpha = check.alpha(alpha)
    x = round_scores(check.score_matrix(x), decimals)
    n, k = x.shape
    d = round_scores(x - x[:, [control]], decimals)
    if not higher_is_better:
        d = -d
    r_star, method = _critical_value(k - 1, n, alpha)
    exact = method == "exact"
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
    if method == "monte carlo":
        notes.append("critical value by Monte Carlo (200,000 seeded replicates): m is too large"
                     " for the exact dynamic programme")
    elif method == "normal":
        notes.append("critical value from the normal approximation (equicorrelated counts, ρ ="
                     " 1/3, continuity-corrected): too many data sets for the exact programme or"
                     " a Monte Carlo")
    return MultipleSignTest(r_star, n, k - 1, alpha, exact, method, tuple(rows), tuple(notes))



@lru_cache(maxsize=64)
def _min_count_cdf(m: int, n: int, cap: int) -> np.ndarray:
    """P(min_j N⁺_j ≤ r) for r = 0..cap−1 under H0 (m treatments, n blocks; exact DP).

    Under H0 the k values of a block are exchangeable, so its sign vector s ∈ {0,1}^m has
    P(s) = 1/((m+1)·C(m, |s|)). Counts are capped at ``cap``, which keeps every event
    {min ≥ c} with c ≤ cap exact. Kept per (m, n, cap), read-only: it depends on nothing
    else, and a multiverse, a data-set check or a simulation asks for the same one again.
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
    tail = np.array(tail)
    tail.flags.writeable = False
    return tail



CRITICAL_VALUE_METHODS = ("auto", "exact", "monte carlo", "normal")


def sign_critical_value(m: int, n: int, alpha: float, method: str = "auto"):
    """``(r*, exact)``: the largest r with P(min_j N⁺_j ≤ r) ≤ α (None if even r = 0 fails).

    r* lies below n/2, so one dynamic programme with counts capped at ⌈n/2⌉ + 1 gives every
    candidate r; when that state space is too large a seeded Monte Carlo is used instead, and
    when that too is out of reach (many data sets), the normal approximation. ``method``
    forces one of ``exact``, ``monte carlo`` or ``normal`` (the first two can be slow).
    """
    check.choice("method", method, CRITICAL_VALUE_METHODS)
    if method == "auto":
        r_star, method = _critical_value(m, n, alpha)
    elif method == "normal":
        r_star = _critical_value_normal(m, n, alpha)
    else:
        cap = n // 2 + 2
        probs = _min_count_cdf(m, n, cap) if method == "exact" else _min_count_cdf_mc(m, n, cap)
        r_star = _largest_within(probs, alpha)
    return r_star, method == "exact"


def _largest_within(probs: np.ndarray, alpha: float):
    """The largest r with P(min ≤ r) = ``probs[r]`` ≤ α, or None."""
    ok = np.flatnonzero(probs <= alpha * (1 + 1e-12))
    return int(ok[-1]) if ok.size else None


#: Uniform draws a Monte Carlo of the critical value may make (replicates × n × (m + 1)).
MC_MAX_DRAWS = 400_000_000


def _critical_value(m: int, n: int, alpha: float):
    """``(r*, method)`` with method ``exact``, ``monte carlo`` or ``normal``."""
    cap = n // 2 + 2
    if (cap + 1) ** m * 2 ** m * n <= 3e8:
        probs, method = _min_count_cdf(m, n, cap), "exact"
    elif 200_000 * n * (m + 1) <= MC_MAX_DRAWS:
        probs, method = _min_count_cdf_mc(m, n, cap), "monte carlo"
    else:
        return _critical_value_normal(m, n, alpha), "normal"
    return _largest_within(probs, alpha), method


def _min_count_cdf_normal(m: int, n: int, r: int) -> float:
    """P(min_j N⁺_j ≤ r) when the counts are taken as normal: each N⁺_j has mean n/2 and
    variance n/4, and two of them correlate with ρ = 1/3 (a pair of learners both beat the
    control when the control is the lowest of the three: P = 1/3, so Cov = n(1/3 − 1/4)).
    With Z_j = √ρ·U + √(1−ρ)·E_j, P(min Z ≤ z) = 1 − ∫ φ(u) Φ̄((z − √ρ·u)/√(1−ρ))^m du."""
    from scipy import integrate, special

    rho = 1.0 / 3.0
    z = (r + 0.5 - n / 2.0) / (math.sqrt(n) / 2.0)  # continuity-corrected

    def integrand(u):
        return math.exp(-u * u / 2.0) / math.sqrt(2.0 * math.pi) * special.ndtr(
            -(z - math.sqrt(rho) * u) / math.sqrt(1.0 - rho)) ** m

    inside, _ = integrate.quad(integrand, -40.0, 40.0, points=[0.0], limit=200,
                               epsabs=1e-13, epsrel=1e-12)
    return 1.0 - inside


def _critical_value_normal(m: int, n: int, alpha: float):
    """The largest r with the approximate P(min_j N⁺_j ≤ r) ≤ α, by bisection (the probability
    grows with r)."""
    level = alpha * (1 + 1e-12)
    if _min_count_cdf_normal(m, n, 0) > level:
        return None
    lo, hi = 0, n // 2 + 1  # P(lo) ≤ α < P(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _min_count_cdf_normal(m, n, mid) <= level:
            lo = mid
        else:
            hi = mid
    return lo


def _min_count_cdf_mc(m: int, n: int, cap: int, reps: int = 200_000) -> np.ndarray:
    rng = np.random.default_rng(20100101 + 7919 * m + n)
    lowest = []
    # Blocks of at most 4 million draws; the generator fills them in order, so the draws (and
    # the result) do not depend on the block size.
    block = max(1, min(10_000, 4_000_000 // (n * (m + 1))))
    for start in range(0, reps, block):
        size = min(block, reps - start)
        vals = rng.random((size, n, m + 1))
        lowest.append((vals[:, :, 1:] > vals[:, :, :1]).sum(axis=1).min(axis=1))
    lowest = np.concatenate(lowest)
    return np.array([(lowest <= r).mean() for r in range(cap)])
