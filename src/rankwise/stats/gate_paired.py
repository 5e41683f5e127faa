"""The paired tests and intervals of a regression gate (:mod:`rankwise.stats.gate`).

- :func:`tost_paired`: equivalence of the paired mean difference (two one-sided t-tests).
- :func:`one_sided_paired_t`, :func:`one_sided_wilcoxon`, :func:`one_sided_mcnemar`:
  non-inferiority, superiority and regression tests against the boundary mean(d) = −δ.
- :func:`paired_difference_interval`: the interval of a difference of paired proportions
  (Tango's score interval, Newcombe's hybrid score interval, Wald's).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

from .._validate import finite, level, real_array
from ..defaults import DEFAULT_DECIMALS
from ..errors import RankwiseError
from .items import proportion_interval


#: The intervals of a difference of paired proportions, by name.
PAIRED_INTERVALS = ("tango", "newcombe", "wald")
#: The one-sided alternatives: mean(d) > −margin (``greater``: non-inferiority, superiority
#: with margin 0) and mean(d) < −margin (``less``: a regression beyond the margin).
SIDES = ("greater", "less")
#: Tango's limits are found to within this distance, in at most this many steps (the
#: Illinois method takes about ten).
ROOT_TOLERANCE = 1e-15
ROOT_STEPS = 200


def finite_sample(name: str, values, min_size: int = 1) -> np.ndarray:
    """``values`` as a float array whose last axis is a sample of at least ``min_size``
    finite numbers; else one line naming the first bad value."""
    x = np.atleast_1d(real_array(values))
    bad = ~np.isfinite(x)
    if bad.any():
        where = np.unravel_index(int(np.flatnonzero(bad)[0]), x.shape)
        raise RankwiseError(f"{name} must be finite numbers; got {x[where]} at position"
                            f" {tuple(map(int, where))} ({int(bad.sum())} such)")
    if x.shape[-1] < min_size:
        raise RankwiseError(f"{name} needs at least {min_size} values along its last axis;"
                            f" got {x.shape[-1]}")
    return x


def _side(side: str) -> str:
    if side not in SIDES:
        raise RankwiseError(f"side must be greater (non-inferiority) or less (regression);"
                            f" got {side!r}")
    return side


def _mean_se(d: np.ndarray):
    n = d.shape[-1]
    return d.mean(axis=-1), d.std(axis=-1, ddof=1) / np.sqrt(n), n - 1


def _student_p(gap, se, df, side: str):
    """t = gap/se and its one-sided p. No spread: t is ±inf (p 0 or 1); no spread and the mean
    on the boundary: t NaN and p = 1 (no evidence either way), without a warning."""
    with np.errstate(divide="ignore", invalid="ignore"):
        t = gap / se
    p = stats.t.sf(t, df) if side == "greater" else stats.t.cdf(t, df)
    return t, np.where(np.isnan(t), 1.0, p)


def _scalar(x):
    x = np.asarray(x)
    return x[()] if x.ndim == 0 else x


@dataclass(frozen=True)
class Tost:
    """Two one-sided t-tests of low < mean(x − y) < upp: ``p`` = max(``p_low``, ``p_upp``)."""

    p: np.ndarray
    p_low: np.ndarray
    p_upp: np.ndarray
    t_low: np.ndarray
    t_upp: np.ndarray
    df: int
    mean: np.ndarray
    se: np.ndarray


def tost_paired(x, y, low, upp) -> Tost:
    """Equivalence test of the paired mean difference: is low < mean(x − y) < upp?

    Parameters
    ----------
    x, y : array_like, shape (..., n)
        Paired samples (the last axis; n ≥ 2); the difference is d = x − y.
    low, upp : float or array_like
        The equivalence margins, low < upp (broadcast over the leading axes; asymmetric
        margins are allowed).

    Returns
    -------
    Tost
        ``p`` = max(p_low, p_upp), the p-value of H0: mean(d) ≤ low or mean(d) ≥ upp;
        ``t_low``, ``p_low``, ``t_upp``, ``p_upp``, ``df`` = n − 1, ``mean`` and ``se``.

    Notes
    -----
    With d̄ the mean of d and SE = s_d/√n (s_d with the n − 1 divisor):
    t_low = (d̄ − low)/SE, p_low = P(T_{n−1} ≥ t_low); t_upp = (d̄ − upp)/SE,
    p_upp = P(T_{n−1} ≤ t_upp). Equal to ``statsmodels.stats.weightstats.ttost_paired``.
    Without spread (every d equal) t is ±inf; on a margin as well, t is NaN and its p is 1.

    References
    ----------
    Schuirmann (1987), J. Pharmacokinet. Biopharm. 15:657–680; Lakens (2017), Soc. Psychol.
    Personal. Sci. 8:355–362.

    Examples
    --------
    >>> from rankwise.stats.gate import tost_paired
    >>> r = tost_paired([0.71, 0.64, 0.80, 0.77, 0.69, 0.75], [0.70, 0.66, 0.78, 0.78,
    ...                                                         0.70, 0.73], -0.03, 0.03)
    >>> round(float(r.mean), 4), round(float(r.p), 4), r.df
    (0.0017, 0.005, 5)
    """
    x = finite_sample("x", x, 2)
    y = finite_sample("y", y, 2)
    if x.shape != y.shape:
        raise RankwiseError(f"x and y must be paired: the same shape; got {x.shape} and"
                            f" {y.shape}")
    low = finite_sample("low", low)
    upp = finite_sample("upp", upp)
    if not np.all(low < upp):
        raise RankwiseError("the equivalence margins need low < upp")
    mean, se, df = _mean_se(x - y)
    low, upp = np.squeeze(low), np.squeeze(upp)
    t_low, p_low = _student_p(mean - low, se, df, "greater")
    t_upp, p_upp = _student_p(mean - upp, se, df, "less")
    return Tost(_scalar(np.maximum(p_low, p_upp)), _scalar(p_low), _scalar(p_upp),
                _scalar(t_low), _scalar(t_upp), df, _scalar(mean), _scalar(se))


@dataclass(frozen=True)
class OneSided:
    """A one-sided test of the boundary mean(d) = −``margin``: ``statistic`` and ``p`` (arrays
    over the leading axes), ``side`` (the alternative), ``method``."""

    statistic: np.ndarray
    p: np.ndarray
    margin: float
    side: str
    method: str


def one_sided_paired_t(d, margin: float = 0.0, side: str = "greater") -> OneSided:
    """One-sided paired t-test against the boundary mean(d) = −margin.

    ``side="greater"`` tests H0: mean(d) ≤ −margin against mean(d) > −margin (non-inferiority
    within the margin; superiority with margin 0); ``side="less"`` tests H0: mean(d) ≥ −margin
    against mean(d) < −margin (the candidate is worse by more than the margin).

    t = (d̄ + margin)/(s_d/√n) on n − 1 degrees of freedom. Equal to
    ``scipy.stats.ttest_1samp(d + margin, 0, alternative=side)`` (``d - shift`` with the
    shift −margin).

    Examples
    --------
    >>> from rankwise.stats.gate import one_sided_paired_t
    >>> r = one_sided_paired_t([0.02, -0.01, 0.00, 0.03, -0.02, 0.01], margin=0.02)
    >>> round(float(r.statistic), 3), round(float(r.p), 4)
    (3.273, 0.0111)
    """
    d = finite_sample("d", d, 2)
    margin = finite("margin", margin)
    mean, se, df = _mean_se(d)
    t, p = _student_p(mean + margin, se, df, _side(side))
    return OneSided(_scalar(t), _scalar(p), margin, side, "t")


def one_sided_wilcoxon(d, margin: float = 0.0, side: str = "greater", *,
                       decimals: int | None = DEFAULT_DECIMALS,
                       method: str = "auto") -> OneSided:
    """One-sided Wilcoxon signed-rank test against the boundary: the median of d + margin is 0.

    ``side`` as in :func:`one_sided_paired_t`. The shifted differences are rounded to
    ``decimals`` first (None: not rounded), so that d = −margin up to floating-point noise
    counts as a zero difference; zeros are dropped (Wilcoxon's zero method). Equal to
    ``scipy.stats.wilcoxon(d + margin, alternative=side, method=method)``; scipy's ``auto``
    is exact up to 50 differences without ties or zeros, a complete permutation test up to 13
    differences with them (seconds per call), the normal approximation otherwise. Where every
    difference is zero there is no evidence: statistic 0, p = 1 (scipy gives NaN with a
    warning).

    References: Wilcoxon (1945); Wellek (2010), Testing Statistical Hypotheses of Equivalence
    and Noninferiority, ch. 5.

    Examples
    --------
    >>> from rankwise.stats.gate import one_sided_wilcoxon
    >>> r = one_sided_wilcoxon([0.02, -0.01, 0.00, 0.03, -0.02, 0.01], margin=0.02)
    >>> float(r.statistic), round(float(r.p), 4)
    (15.0, 0.0312)
    """
    d = finite_sample("d", d)
    margin = finite("margin", margin)
    shifted = d + margin
    if decimals is not None:
        shifted = np.round(shifted, decimals)
    flat = shifted.reshape(-1, shifted.shape[-1])
    some = (flat != 0).any(axis=1)
    statistic, p = np.zeros(len(flat)), np.ones(len(flat))
    if some.any():
        r = stats.wilcoxon(flat[some], alternative=_side(side), method=method, axis=-1)
        statistic[some], p[some] = r.statistic, r.pvalue
    shape = shifted.shape[:-1]
    return OneSided(_scalar(statistic.reshape(shape)), _scalar(p.reshape(shape)), margin,
                    side, "wilcoxon")


def whole_counts(**named):
    """The named counts as float arrays, broadcast; one line where one is not a whole number
    ≥ 0."""
    arrays = {}
    for name, value in named.items():
        v = real_array(value)
        bad = ~(np.isfinite(v) & (v >= 0) & (v == np.round(v)))
        if bad.any():
            raise RankwiseError(f"{name} must be whole numbers >= 0; got"
                                f" {np.ravel(v)[np.flatnonzero(bad)[0]]!r}")
        arrays[name] = v
    try:
        return np.broadcast_arrays(*arrays.values())
    except ValueError:
        shapes = ", ".join(f"{k} {np.shape(v)}" for k, v in arrays.items())
        raise RankwiseError(f"the counts must have shapes that broadcast; got {shapes}") \
            from None


def one_sided_mcnemar(b, c):
    """Exact one-sided McNemar test: p = P(Bin(b + c, ½) ≥ b) (arrays broadcast).

    ``b`` pairs where the first is right and the second wrong, ``c`` the reverse; H0: the
    first is not more often right, P(b-type) ≤ P(c-type). With the baseline first, b counts
    the candidate's regressions and p small says it regressed. Half the two-sided exact
    p-value of :func:`rankwise.stats.items.mcnemar` wherever b > c; p = 1 without discordant
    pairs.

    Examples
    --------
    >>> from rankwise.stats.gate import one_sided_mcnemar
    >>> round(float(one_sided_mcnemar(12, 3)), 4)
    0.0176
    """
    b, c = whole_counts(b=b, c=c)
    return _scalar(stats.binom.sf(b - 1, b + c, 0.5))


def _tango_share(delta, b, c, n, z):
    """Tango's score statistic T of H0: p1 − p2 = Δ, as T/√(T² + z²) = s/√(s² + z²v).

    T = s/√v with s = b − c − nΔ and v = n(2q̃ + Δ(1 − Δ)), q̃ the restricted maximum-
    likelihood estimate of the probability of a c-type pair: the root (√(B² − 4AC) − B)/(2A)
    of Aq² + Bq + C with A = 2n, B = −b − c + (2n − b + c)Δ, C = −cΔ(1 − Δ) (taken as
    −2C/(√(B² − 4AC) + B) where B > 0, which avoids the cancellation). The share is T's
    monotone image in [−1, 1]: finite and continuous where T is infinite (v ≤ 0, only beyond
    the limits: ±1 by the sign of s, as ratesci's ``scorepair`` takes T = ±inf there), 0 at
    the estimate, and ±1/√2 exactly where T = ±z."""
    big_a = 2 * n
    big_b = -b - c + (2 * n - b + c) * delta
    big_c = -c * delta * (1 - delta)
    root = np.sqrt(np.maximum(big_b * big_b - 4 * big_a * big_c, 0.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.where(big_b > 0, -2 * big_c / (root + big_b), (root - big_b) / (2 * big_a))
        s = b - c - n * delta
        share = s / np.sqrt(s * s + z * z * np.maximum(n * (2 * q + delta * (1 - delta)), 0))
    return np.where(s == 0, 0.0, share)


def _illinois(f, lo, hi):
    """The root of a continuous f that is > 0 at ``lo`` and < 0 at ``hi`` (arrays; f takes
    the points and the indices of the entries still open), by the Illinois variant of
    regula falsi: superlinear, and the root stays bracketed. An entry is done when its
    bracket or its last step is within ROOT_TOLERANCE, or f is 0."""
    lo, hi = lo.copy(), hi.copy()
    every = np.arange(lo.size)
    f_lo, f_hi = f(lo, every), f(hi, every)
    last = np.zeros(lo.size)                  # which end moved last: −1 low, +1 high
    root = (lo + hi) / 2
    open_ = np.flatnonzero(hi - lo > ROOT_TOLERANCE)
    for _ in range(ROOT_STEPS):
        if not open_.size:
            break
        l, h, fl, fh = lo[open_], hi[open_], f_lo[open_], f_hi[open_]
        x = h - fh * (h - l) / (fh - fl)
        x = np.where((x > l) & (x < h), x, (l + h) / 2)   # no progress: bisect
        fx = f(x, open_)
        high = fx <= 0                                    # x replaces the high end
        hi[open_] = np.where(high, x, h)
        f_hi[open_] = np.where(high, fx, np.where(last[open_] < 0, fh / 2, fh))
        lo[open_] = np.where(high, l, x)
        f_lo[open_] = np.where(high, np.where(last[open_] > 0, fl / 2, fl), fx)
        last[open_] = np.where(high, 1.0, -1.0)
        done = (np.abs(x - root[open_]) <= ROOT_TOLERANCE) | (fx == 0) | (
            hi[open_] - lo[open_] <= ROOT_TOLERANCE)
        root[open_] = x
        open_ = open_[~done]
    return root


def _tango(b, c, n, z):
    """Tango's limits: T(lower) = z on [−1, Δ̂], T(upper) = −z on [Δ̂, 1]."""
    b, c, n = (np.ravel(v).astype(float) for v in (b, c, n))
    estimate = (b - c) / n
    edge = np.sqrt(0.5)

    def lower(x, i):
        return _tango_share(x, b[i], c[i], n[i], z) - edge

    def upper(x, i):
        return -_tango_share(x, b[i], c[i], n[i], z) - edge

    return (_illinois(lower, np.full_like(estimate, -1.0), estimate),
            -_illinois(lambda x, i: upper(-x, i), -np.ones_like(estimate), -estimate))


def _newcombe(a, b, c, n, confidence):
    """Newcombe's method 10 with his correction of φ (the square-and-add of Fagerland et al.)."""
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = proportion_interval(a + b, n, confidence=confidence, method="wilson")
    l2, u2 = proportion_interval(a + c, n, confidence=confidence, method="wilson")
    d = n - a - b - c
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    cross = a * d - b * c
    corrected = np.where(cross > n / 2, cross - n / 2, np.where(cross < 0, cross, 0.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        phi = np.where(margins > 0, corrected / np.sqrt(margins), 0.0)
    low = p1 - p2 - np.sqrt(np.maximum(
        (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2, 0.0))
    high = p1 - p2 + np.sqrt(np.maximum(
        (p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2, 0.0))
    return low, high


def paired_difference_interval(b, c, n, confidence: float = 0.95, method: str = "tango", *,
                               a=None):
    """Confidence interval of a difference of paired proportions, p1 − p2 = (b − c)/n.

    Parameters
    ----------
    b, c, n : array_like of whole numbers
        Of n pairs, ``b`` where the first is right and the second wrong, ``c`` the reverse
        (b + c ≤ n); arrays broadcast.
    confidence : float, default 0.95
    method : {"tango", "newcombe", "wald"}
        ``tango``: Tango's score interval, the Δ where the score statistic
        T(Δ) = (b − c − nΔ)/√(n(2q̃ + Δ(1 − Δ))) equals ±z (q̃ the restricted maximum-likelihood
        estimate of P(c-type pair) given Δ), found to 1e-15 (regula falsi, Illinois).
        ``newcombe``: Newcombe's hybrid score interval (his method 10) from the Wilson
        intervals (l1, u1) of p1 and (l2, u2) of p2 and the correlation φ of the table,
        Δ̂ − √((p1 − l1)² − 2φ(p1 − l1)(u2 − p2) + (u2 − p2)²) to
        Δ̂ + √((p2 − l2)² − 2φ(p2 − l2)(u1 − p1) + (u1 − p1)²), with his correction of φ:
        ad − bc replaced by ad − bc − n/2 where that is positive and by 0 where ad − bc lies
        in [0, n/2] (φ = 0 where a margin of the table is 0). ``wald``: Δ̂ ± z√(((b + c)/n −
        Δ̂²)/n), clipped to [−1, 1].
    a : array_like, optional
        The pairs where both are right; ``newcombe`` needs it (p1 = (a + b)/n, p2 = (a + c)/n).

    Returns
    -------
    (low, high)
        Arrays (numpy scalars for scalar input), within [−1, 1], containing (b − c)/n.

    Notes
    -----
    ``tango`` equals R's ``PropCIs::scoreci.mp(c, b, n)``: scoreci.mp's difference is
    (c − b)/n, the other way round; its bisection stops at 1e-7, this search at 1e-15.
    With b = c = 0 Tango's limits are ±z²/(n + z²).

    References
    ----------
    Tango (1998), Stat. Med. 17:891–908 (and his 1999 letter, Stat. Med. 18:3511);
    Newcombe (1998), Stat. Med. 17:2635–2650; Fagerland, Lydersen & Laake (2014),
    Stat. Med. 33:2850–2875, whose examples these reproduce.

    Examples
    --------
    Bentur et al. (2009) in Fagerland et al. (2014): b = 1, c = 7 of 21 pairs; Tango's
    interval is (−0.517, −0.026):

    >>> from rankwise.stats.gate import paired_difference_interval
    >>> low, high = paired_difference_interval(1, 7, 21)
    >>> round(float(low), 3), round(float(high), 3)
    (-0.517, -0.026)

    Cavo et al. (2012), a = 59, b = 6, c = 16 of 161; Newcombe's interval (−0.1186, −0.0046):

    >>> low, high = paired_difference_interval(6, 16, 161, method="newcombe", a=59)
    >>> round(float(low), 4), round(float(high), 4)
    (-0.1186, -0.0046)
    """
    if method not in PAIRED_INTERVALS:
        raise RankwiseError(f"unknown interval {method!r}; choose from"
                            f" {', '.join(PAIRED_INTERVALS)}")
    z = float(stats.norm.ppf(0.5 + level("confidence", confidence) / 2))
    newcombe_without_a = method == "newcombe" and a is None
    b, c, n, a = whole_counts(b=b, c=c, n=n, a=0 if a is None else a)
    if np.any(n < 1) or np.any(b + c > n):
        raise RankwiseError("paired counts need n >= 1 and b + c <= n (b, c: the discordant"
                            " pairs of n)")
    if method == "tango":
        low, high = (v.reshape(b.shape) for v in _tango(b, c, n, z))
    elif method == "newcombe":
        if newcombe_without_a or np.any(a + b + c > n):
            raise RankwiseError("Newcombe's interval needs a, the pairs where both are right,"
                                " with a + b + c <= n")
        low, high = _newcombe(a, b, c, n, confidence)
    else:
        estimate = (b - c) / n
        half = z * np.sqrt(np.maximum((b + c) / n - estimate ** 2, 0.0) / n)
        low, high = estimate - half, estimate + half
    return _scalar(np.clip(low, -1.0, 1.0)), _scalar(np.clip(high, -1.0, 1.0))
