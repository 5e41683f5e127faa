"""The range Q of k independent standard normals (the studentized range with infinite degrees
of freedom): its upper tail P(Q >= q) to the bit of scipy's integral where that has precision,
and in log space far into the tail, where scipy's integral has none (down to p far below
1e-300). Nemenyi's p-values (:func:`rankwise.stats.pairwise.nemenyi_pvalues`) and critical
differences read it; the derivation is in ``docs/reference/pairwise.md``."""

from __future__ import annotations

import functools
import math

import numpy as np
from scipy import stats

#: Up to this many distinct statistics each gets its own numerical integral; above, the tail is
#: interpolated (see :func:`range_sf`).
RANGE_SF_DIRECT_MAX = 1_000
_RANGE_PANEL, _RANGE_NODES = 0.25, 16


#: Below this tail probability scipy's integral (1 − cdf) has no relative precision left (it
#: stops at about 1e-16); the tail is then computed in log space (:func:`log_range_tail`).
RANGE_TAIL = 1e-5


def range_sf(q, k: int) -> np.ndarray:
    """P(Q ≥ q) for the range Q of k independent standard normals (studentized range, ∞ df).

    See :func:`range_logsf` for how each q is computed; where the tail is above
    ``RANGE_TAIL`` the value is scipy's integral itself, to the bit. Below about 1e-308 the
    probability underflows to 0 (its logarithm, :func:`range_logsf`, does not); reports print
    such values as a bound (``< 1e-300``).
    """
    return _range_tail(q, k)[0]


def range_logsf(q, k: int) -> np.ndarray:
    """log P(Q ≥ q) for the range Q of k independent standard normals, for every q ≥ 0.

    Three regimes, each to its own stated precision, all vectorised:

    * where the tail is above ``RANGE_TAIL``, scipy's ``studentized_range`` integral (which
      agrees with R's ``ptukey`` to about 1e-8);
    * below it, the tail integral in log space (:func:`log_range_tail`), to a relative 1e-12
      (scipy and R stop at about 1e-16);
    * far out, where the union bound k(k−1)·Φ̄(q/√2) is within a relative ``ASYMPTOTIC_REL``
      of the probability (:func:`union_bound_error`, a proven bound on the error, not an
      estimate), the union bound itself in closed form: no integral, any q (|z| to 10^3 and
      beyond, p far below the smallest double).

    With more than ``RANGE_SF_DIRECT_MAX`` distinct values below the closed-form regime, as for
    the ~500,000 pairs of 1,000 learners, the integral is taken only at 16 Chebyshev nodes in
    each panel of width 0.25 that holds a value and interpolated in between (in the tail, its
    logarithm): within 1e-12 of the integral at every q, and within a relative 1e-9 in the
    tail (checked in the tests for k from 3 to 1,000).
    """
    return _range_tail(q, k)[1]


def _range_tail(q, k: int):
    """(P(Q ≥ q), log P(Q ≥ q)) with the shape of q; NaN stays NaN."""
    q = np.asarray(q, dtype=float)
    flat = q.ravel()
    sf = np.where(np.isnan(flat), np.nan, np.where(flat > 0, 0.0, 1.0))
    with np.errstate(divide="ignore"):
        logsf = np.log(sf)
    positive = np.isfinite(flat) & (flat > 0)
    values, inverse = np.unique(flat[positive], return_inverse=True)
    v_sf, v_log = np.empty_like(values), np.empty_like(values)
    far = values >= asymptotic_start(k)
    v_log[far] = log_union_bound(values[far], k)
    with np.errstate(under="ignore"):
        v_sf[far] = np.exp(v_log[far])
    near = values[~far]
    if near.size <= RANGE_SF_DIRECT_MAX:
        v_sf[~far], v_log[~far] = _range_tail_exact(near, k)
    else:
        v_sf[~far], v_log[~far] = _range_tail_interpolated(near, k)
    sf[positive] = np.minimum(1.0, v_sf)[inverse]
    logsf[positive] = np.minimum(0.0, v_log)[inverse]
    return sf.reshape(q.shape), logsf.reshape(q.shape)


#: The closed form is used where its proven relative error is below this.
ASYMPTOTIC_REL = 1e-14


def log_union_bound(q, k: int) -> np.ndarray:
    r"""log of the union bound :math:`k(k-1)\,\bar\Phi(q/\sqrt 2)` on P(Q ≥ q).

    Q ≥ q exactly when some ordered pair has :math:`Z_i - Z_j \ge q`, each of the k(k−1)
    events with probability :math:`\bar\Phi(q/\sqrt 2)`; for k = 2 the bound is the exact
    closed form :math:`2\bar\Phi(q/\sqrt 2)`.
    """
    from scipy import special

    q = np.asarray(q, dtype=float)
    return math.log(k * (k - 1)) + special.log_ndtr(-q / math.sqrt(2.0))


def union_bound_error(q, k: int) -> np.ndarray:
    r"""An upper bound on the relative error of :func:`log_union_bound`'s probability.

    By Bonferroni's inequalities :math:`S_1 - S_2 \le P(Q \ge q) \le S_1`, where S₁ is the
    union bound and S₂ sums the probabilities of pairs of events. Two events that share their
    larger (or their smaller) member have correlation 1/2 and probability at most
    :math:`\bar\Phi(q\sqrt{2/3})` (their sum is at least 2q); two that chain
    (:math:`Z_i - Z_j \ge q,\ Z_j - Z_m \ge q`) at most :math:`\bar\Phi(\sqrt 2 q)`;
    opposite events are disjoint and the rest independent. Hence

    .. math:: S_2 / S_1 \le (k-2)\,\frac{\bar\Phi(q\sqrt{2/3}) + \bar\Phi(\sqrt 2 q)}
              {\bar\Phi(q/\sqrt 2)} + \frac{k(k-1)}{2}\,\bar\Phi(q/\sqrt 2),

    which is 0 for k = 2 and falls like :math:`k e^{-q^2/12}`.
    """
    from scipy import special

    q = np.asarray(q, dtype=float)
    log_s = special.log_ndtr(-q / math.sqrt(2.0))
    with np.errstate(divide="ignore", under="ignore"):
        shared = np.logaddexp(special.log_ndtr(-q * math.sqrt(2.0 / 3.0)),
                              special.log_ndtr(-q * math.sqrt(2.0)))
        first = np.exp(math.log(k - 2) + shared - log_s) if k > 2 else np.zeros_like(q)
        return first + k * (k - 1) / 2.0 * np.exp(log_s)


@functools.lru_cache(maxsize=256)
def asymptotic_start(k: int) -> float:
    """The smallest q (to 1e-3) from which :func:`union_bound_error` is below
    ``ASYMPTOTIC_REL``: about 20 for k = 3 and 24 for k = 1,000."""
    if k <= 2:
        return 0.0
    lo, hi = 0.0, 200.0
    while hi - lo > 1e-3:
        mid = 0.5 * (lo + hi)
        if float(union_bound_error(np.array([mid]), k)[0]) <= ASYMPTOTIC_REL:
            hi = mid
        else:
            lo = mid
    return hi


def _range_tail_exact(q: np.ndarray, k: int):
    sf = np.asarray(stats.studentized_range.sf(q, k, np.inf), dtype=float).reshape(q.shape)
    tail = ~(sf >= RANGE_TAIL)
    with np.errstate(divide="ignore"):
        log = np.log(sf)
    if tail.any():
        log[tail] = log_range_tail(q[tail], k)
        with np.errstate(under="ignore"):
            sf[tail] = np.exp(log[tail])
    return sf, log


#: Step of the tail quadrature (trapezoid rule: for this smooth, fast-decaying integrand its
#: error is far below double precision; k = 2 matches the closed form to 1e-13 relative).
_TAIL_STEP = 0.01


def log_range_tail(q, k: int) -> np.ndarray:
    r"""log P(Q ≥ q) for the range of k standard normals, without cancellation:

    .. math:: P(Q \ge q) = k\int \varphi(z)\,\Phi(z)^{k-1}\,
              \bigl[1 - (1 - \Phi(z-q)/\Phi(z))^{k-1}\bigr]\,dz

    (z is the largest of the k values), every factor in logarithms (``log_ndtr``, ``log1p``,
    ``expm1``; where the ratio r = Φ(z−q)/Φ(z) underflows, log[1 − (1 − r)^(k−1)] is
    log((k − 1)·r), its value to double precision there) and the integral by the trapezoid
    rule on a grid wide enough for the peak near q/2. For k = 2 it is the closed form
    2·Φ̄(q/√2).
    """
    from scipy import special

    q = np.atleast_1d(np.asarray(q, dtype=float))
    out = np.empty_like(q)
    chunk = 256
    for i in range(0, q.size, chunk):
        qq = q[i:i + chunk, None]
        z = np.arange(-12.0, max(40.0, float(qq.max()) / 2 + 20.0) + _TAIL_STEP, _TAIL_STEP)
        log_cdf = special.log_ndtr(z)
        log_ratio = np.minimum(special.log_ndtr(z[None, :] - qq) - log_cdf[None, :], 0.0)
        with np.errstate(divide="ignore", under="ignore", invalid="ignore"):
            ratio = np.exp(log_ratio)
            inner = -np.expm1((k - 1) * np.log1p(-ratio))
            log_inner = np.where(ratio > 1e-280, np.log(inner),
                                 math.log(k - 1) + log_ratio)
        terms = (math.log(k) - 0.5 * z * z - 0.5 * math.log(2 * math.pi)
                 + (k - 1) * log_cdf + log_inner)
        top = terms.max(axis=1, keepdims=True)
        with np.errstate(under="ignore"):
            y = np.exp(terms - top)
        area = (y.sum(axis=1) - 0.5 * (y[:, 0] + y[:, -1])) * _TAIL_STEP  # trapezoid rule
        out[i:i + chunk] = top[:, 0] + np.log(area)
    return out


def _range_tail_interpolated(q: np.ndarray, k: int):
    from numpy.polynomial import chebyshev

    h, m = _RANGE_PANEL, _RANGE_NODES
    panel = np.floor(q / h).astype(np.int64)
    used, which = np.unique(panel, return_inverse=True)  # only panels that hold a value
    t = np.cos(np.pi * (np.arange(m) + 0.5) / m)  # Chebyshev nodes of the first kind
    left = used * h
    nodes = left[:, None] + h / 2.0 * (1.0 + t[None, :])
    at_sf, at_log = (a.reshape(used.size, m) for a in _range_tail_exact(nodes.ravel(), k))
    sf, log = np.empty_like(q), np.empty_like(q)
    order = np.argsort(which, kind="stable")
    bounds = np.searchsorted(which[order], np.arange(used.size + 1))
    for p in range(used.size):
        sel = order[bounds[p]:bounds[p + 1]]
        x = (q[sel] - left[p]) / (h / 2.0) - 1.0
        if at_sf[p].min() >= RANGE_TAIL:  # the probability itself: within 1e-12 absolute
            sf[sel] = np.clip(chebyshev.chebval(x, chebyshev.chebfit(t, at_sf[p], m - 1)),
                              0.0, 1.0)
            with np.errstate(divide="ignore"):
                log[sel] = np.log(sf[sel])
        else:  # in the tail its logarithm, for the same relative precision to 1e-300
            log[sel] = np.minimum(chebyshev.chebval(x, chebyshev.chebfit(t, at_log[p], m - 1)),
                                  0.0)
            with np.errstate(under="ignore"):
                sf[sel] = np.exp(log[sel])
    return sf, log

