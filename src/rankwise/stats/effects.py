"""Effect sizes of two learners over N data sets, each with a confidence interval.

Orientation (the JSON contract's): every effect is of ``a − b`` in the criterion's own units, so a
positive value means that ``a`` has the larger value, whatever the criterion's direction. (The
two-learner *tests* compare ``b`` with ``a`` in the table's direction; the effects do not apply
the direction, so that a median difference reads in the units of the table.)

Formulas, conventions and cross-checks: ``docs/reference/effect-sizes.md``. This module holds
the one-pair functions (the reference); :mod:`.effects_all` computes the same numbers for every
pair of a table at once, and :mod:`rankwise.analysis.effect_columns` lays them out for the JSON.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np
from scipy import stats

from .. import _validate as check
from .ranking import DEFAULT_DECIMALS, round_scores
from .results import DetailsAsAttributes, jsonable
from .two_learners import signed_rank_distribution
from ._docs import shared_docs

#: Walsh averages are listed in full up to this many (N ≈ 450); above, order statistics are
#: selected without listing them (faster from there on).
WALSH_LIST_MAX = 100_000
#: The signed-rank distribution is computed exactly up to this N (as R's wilcox.test: n < 50).
HL_EXACT_MAX_N = 50
#: Cohen's d_z interval by inverting the noncentral t up to this N; a normal approximation above.
DZ_EXACT_MAX_N = 5_000
#: Romano et al. (2006): |δ| below 0.147 negligible, below 0.33 small, below 0.474 medium.
CLIFF_THRESHOLDS = ((0.147, "negligible"), (0.33, "small"), (0.474, "medium"))


@dataclass(frozen=True)
class Estimate(DetailsAsAttributes):
    """A point estimate with its confidence interval and how the interval was obtained.

    Examples
    --------
    >>> from rankwise import hodges_lehmann, load_example
    >>> a, b = load_example("demsar2006_table2").values.T
    >>> est = hodges_lehmann(a, b)
    >>> round(est.estimate, 4), round(est.ci_low, 4), round(est.ci_high, 4), est.method
    (-0.013, -0.0275, -0.003, 'normal')
    """

    estimate: float
    ci_low: float
    ci_high: float
    method: str
    magnitude: str | None = None
    details: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        out = {"estimate": self.estimate, "ci_low": self.ci_low, "ci_high": self.ci_high,
               "method": self.method}
        if self.magnitude is not None:
            out["magnitude"] = self.magnitude
        out.update(self.details)
        return jsonable(out)


def _pair(a, b, decimals):
    x = round_scores(check.score_pair(a, b, min_rows=2), decimals)
    return x[:, 0], x[:, 1]


def _count_below(d: np.ndarray, s, side: str) -> int:
    """Number of pairs i ≤ j of sorted ``d`` with d_i + d_j < s (``side="left"``) or ≤ s."""
    j = np.searchsorted(d, s - d, side=side)
    return int(np.maximum(j - np.arange(d.size), 0).sum())


def _sums_between(d: np.ndarray, lo, hi) -> np.ndarray:
    """Every pair sum d_i + d_j (i ≤ j) with lo ≤ sum ≤ hi, in the counting's own comparisons."""
    i = np.arange(d.size)
    start = np.maximum(np.searchsorted(d, lo - d, side="left"), i)
    stop = np.maximum(np.searchsorted(d, hi - d, side="right"), i)
    sizes = np.maximum(stop - start, 0)
    rows = np.repeat(i, sizes)
    offsets = np.arange(sizes.sum()) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    return np.sort(d[rows] + d[np.repeat(start, sizes) + offsets])


def _exact_integers(d: np.ndarray, decimals: int | None):
    """``d`` as int64 multiples of 10^-decimals when that is exact (then pair sums are exact
    and equal decimals compare equal), else None."""
    if decimals is None or not d.size:
        return None
    whole, scales, ok = integer_rows(np.asarray(d, dtype=float)[None, :], decimals)
    return (whole[0], float(scales[0])) if ok[0] else None


def walsh_order_statistics(d, positions, decimals: int | None = None) -> np.ndarray:
    """The order statistics (0-based ``positions``) of the Walsh averages (d_i + d_j)/2, i ≤ j.

    Up to ``WALSH_LIST_MAX`` averages they are listed and partitioned. Above, each is selected
    without listing all N(N+1)/2: a seeded sample of pair sums brackets the wanted position,
    exact counts (a binary search per row of the sorted differences) narrow the bracket by
    halving it, and only the sums inside it are listed. The seed changes the work, never the
    answer. With ``decimals`` (differences rounded to that many places) the sums are formed in
    exact integer arithmetic, so that equal decimals are equal sums.
    """
    d = np.sort(np.asarray(d, dtype=float))
    exact = _exact_integers(d, decimals)
    scale = 1.0
    if exact is not None:
        d, scale = exact
    n = d.size
    m = n * (n + 1) // 2
    positions = [int(p) for p in positions]
    if m <= WALSH_LIST_MAX:
        iu = np.triu_indices(n)
        sums = d[iu[0]] + d[iu[1]]
        return np.partition(sums, positions)[positions] / (2.0 * scale)
    integer = exact is not None
    rng = np.random.default_rng(0)
    draws = min(m, 4 * n)
    i, j = rng.integers(0, n, draws), rng.integers(0, n, draws)
    sample = np.sort(d[i] + d[j])
    out = []
    for r in positions:
        q = r / (m - 1)
        half = 4.0 * math.sqrt(max(q * (1 - q), 1.0 / draws) / draws)
        lo = sample[int(max(0.0, q - half) * (draws - 1))]
        hi = sample[int(math.ceil(min(1.0, q + half) * (draws - 1)))]
        while True:
            below, through = _count_below(d, lo, "left"), _count_below(d, hi, "right")
            if below <= r < through:
                break
            width = max(hi - lo, 1 if integer else max(abs(hi) * 1e-12, 1e-300))
            if r < below:
                lo = max(lo - 2 * width, 2 * d[0])
            if r >= through:
                hi = min(hi + 2 * width, 2 * d[-1])
        for _ in range(64):  # halve the bracket until listing it is cheap
            if through - below <= 8 * n or not lo < hi:
                break
            mid = lo + (hi - lo) // 2 if integer else lo + (hi - lo) / 2
            upto = _count_below(d, mid, "right")
            if r < upto:
                hi, through = mid, upto
            else:
                higher = mid + 1 if integer else np.nextafter(mid, np.inf)
                if higher > hi:
                    break
                lo, below = higher, _count_below(d, higher, "left")
        if integer and through - below > 8 * n:
            # Many equal sums: the bracket is down to one integer or two; list it by value.
            lo_count = _count_below(d, hi, "left")
            out.append((lo if r < lo_count else hi) / (2.0 * scale))
            continue
        out.append(_sums_between(d, lo, hi)[r - below] / (2.0 * scale))
    return np.array(out)


@shared_docs
def hodges_lehmann(a, b, *, confidence: float = 0.95,
                   decimals: int | None = DEFAULT_DECIMALS) -> Estimate:
    """Hodges-Lehmann estimate of the median paired difference ``a − b``, with its
    distribution-free confidence interval.

    With d_i = a_i − b_i, the estimate is the median of the M = N(N+1)/2 Walsh averages
    (d_i + d_j)/2, i ≤ j. The interval is [W_(C), W_(M+1−C)] of the sorted averages, with C the
    lower α/2 quantile of the signed-rank statistic (R's ``qsignrank``; C = 1 if that is 0), so
    that its coverage is at least ``confidence``; ``details["achieved_confidence"]`` gives it.
    The signed-rank distribution is exact for untied, non-zero differences and
    N < ``HL_EXACT_MAX_N`` (``method="exact"``); otherwise C comes from its normal approximation,
    N(N+1)/4 − z·√(N(N+1)(2N+1)/24) rounded (``method="normal"``), which ties and zeros make
    approximate (they are counted in ``details``).

    Parameters
    ----------
    {{effect_a_b}}
    {{confidence}}
    {{effect_decimals}}

    Returns
    -------
    {{estimate}}

    References
    ----------
    Hodges, J. L. and Lehmann, E. L. (1963). Ann. Math. Stat. 34, 598–611. Hollander, M. and
    Wolfe, D. A. (1999). *Nonparametric Statistical Methods*, §3.2.

    Examples
    --------
    Hollander & Wolfe's depression-scale data; R's ``wilcox.test(x, y, paired = TRUE,
    conf.int = TRUE)`` gives 0.46 with the interval [0.010, 0.786]:

    >>> from rankwise import hodges_lehmann
    >>> r = hodges_lehmann([1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30],
    ...                    [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29])
    >>> r.estimate, r.ci_low, r.ci_high, r.method, round(r.achieved_confidence, 4)
    (0.46, 0.01, 0.786, 'exact', 0.9609)
    """
    confidence = check.confidence(confidence)
    x, y = _pair(a, b, decimals)
    d = round_scores(x - y, decimals)
    n = d.size
    m = n * (n + 1) // 2
    n_zeros = int((d == 0).sum())
    absd = np.abs(d[d != 0])
    tied = absd.size != np.unique(absd).size
    cs = hl_c(n, confidence)
    method = "exact" if "exact" in cs and not tied and n_zeros == 0 else "normal"
    c, achieved = cs[method]
    mid = [(m - 1) // 2, m // 2]
    values = walsh_order_statistics(d, [c - 1, m - c] + mid, decimals)
    # Walsh averages of differences rounded to `decimals` places have one place more.
    places = None if decimals is None else min(decimals + 1, 15)
    values = round_scores(np.append(values[:2], (values[2] + values[3]) / 2.0), places)
    low, high, estimate = (float(v) for v in values)
    details = {"n": n, "n_zeros": n_zeros, "tied": bool(tied)}
    if achieved is not None:
        details["achieved_confidence"] = float(achieved)
    return Estimate(estimate, low, high, method, details=details)


@shared_docs
def probability_of_superiority(a, b, *, confidence: float = 0.95,
                               decimals: int | None = DEFAULT_DECIMALS) -> Estimate:
    r"""Paired probability of superiority: the share of data sets on which ``a`` has the larger value.

    .. math:: PS = \frac{\#\{a_i > b_i\} + \frac12 \#\{a_i = b_i\}}{N}

    with Wilson's score interval for a proportion of N. A tie is half a success, which makes the
    variance smaller than the binomial one the interval assumes, so with ties the interval is
    conservative.

    Parameters
    ----------
    {{effect_a_b}}
    {{confidence}}
    {{effect_decimals}}

    Returns
    -------
    {{estimate}}

    References
    ----------
    Grissom, R. J. and Kim, J. J. (2012). *Effect Sizes for Research*, ch. 5. Wilson, E. B.
    (1927). J. Am. Stat. Assoc. 22, 209–212.

    Examples
    --------
    ``a`` wins 15 of 20; the interval is statsmodels' ``proportion_confint(15, 20,
    method="wilson")``, [0.5313, 0.8881]:

    >>> X = [0.912, 0.845, 0.771, 0.690, 0.933, 0.802, 0.655, 0.871, 0.799, 0.731,
    ...      0.884, 0.702, 0.816, 0.759, 0.947, 0.688, 0.834, 0.793, 0.721, 0.866]
    >>> Y = [0.897, 0.851, 0.742, 0.701, 0.925, 0.771, 0.659, 0.844, 0.787, 0.718,
    ...      0.868, 0.711, 0.790, 0.749, 0.930, 0.670, 0.811, 0.800, 0.716, 0.852]
    >>> from rankwise import probability_of_superiority
    >>> r = probability_of_superiority(X, Y)
    >>> r.estimate, round(r.ci_low, 4), round(r.ci_high, 4)
    (0.75, 0.5313, 0.8881)
    """
    confidence = check.confidence(confidence)
    x, y = _pair(a, b, decimals)
    n = x.size
    wins, ties = int((x > y).sum()), int((x == y).sum())
    p = (wins + 0.5 * ties) / n
    low, high = wilson_interval(p, n, confidence)
    return Estimate(float(p), low, high, "wilson",
                    details={"n": n, "a_wins": wins, "ties": ties, "b_wins": n - wins - ties})


def wilson_interval(p, n, confidence: float = 0.95) -> tuple:
    """Wilson's score interval for a proportion ``p`` of ``n`` (Wilson 1927): two floats, or
    two arrays for arrays of ``p``."""
    z = stats.norm.isf((1.0 - confidence) / 2.0)
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low, high = np.maximum(0.0, centre - half), np.minimum(1.0, centre + half)
    return (float(low), float(high)) if np.ndim(low) == 0 else (low, high)


@shared_docs
def cohens_dz(a, b, *, confidence: float = 0.95,
              decimals: int | None = DEFAULT_DECIMALS) -> Estimate:
    r"""Cohen's d_z of the paired differences d = a − b, with a noncentral-t interval.

    .. math:: d_z = \frac{\bar d}{s_d}

    (s_d with N − 1). Interval: √N·d_z is noncentral t with N − 1 degrees of freedom and
    noncentrality √N·δ, and the interval for δ inverts it (``method="noncentral-t"``, exact under
    normal differences); above ``DZ_EXACT_MAX_N`` data sets, d_z ± z·√(1/N + d_z²/(2N))
    (``method="normal"``). Undefined (NaN) when every difference is the same.

    Parameters
    ----------
    {{effect_a_b}}
    {{confidence}}
    {{effect_decimals}}

    Returns
    -------
    {{estimate}}

    References
    ----------
    Cohen, J. (1988). *Statistical Power Analysis for the Behavioral Sciences*. Steiger, J. H. and
    Fouladi, R. T. (1997). Lakens, D. (2013). Front. Psychol. 4:863.

    Examples
    --------
    R: ``uniroot()`` on ``pt(t, n - 1, ncp)`` gives 0.8672 [0.3422, 1.3758]:

    >>> X = [0.912, 0.845, 0.771, 0.690, 0.933, 0.802, 0.655, 0.871, 0.799, 0.731,
    ...      0.884, 0.702, 0.816, 0.759, 0.947, 0.688, 0.834, 0.793, 0.721, 0.866]
    >>> Y = [0.897, 0.851, 0.742, 0.701, 0.925, 0.771, 0.659, 0.844, 0.787, 0.718,
    ...      0.868, 0.711, 0.790, 0.749, 0.930, 0.670, 0.811, 0.800, 0.716, 0.852]
    >>> from rankwise import cohens_dz
    >>> r = cohens_dz(X, Y)
    >>> round(r.estimate, 4), round(r.ci_low, 4), round(r.ci_high, 4), r.method
    (0.8672, 0.3422, 1.3758, 'noncentral-t')
    """
    confidence = check.confidence(confidence)
    x, y = _pair(a, b, decimals)
    d = round_scores(x - y, decimals)
    n = d.size
    top = float(np.abs(d).max())
    if 0 < top < math.inf:
        d = d / top  # d_z is scale-free; this keeps the squares finite for any finite scores
    sd = float(np.std(d, ddof=1))
    if not sd > 0:
        return Estimate(math.nan, math.nan, math.nan, "undefined",
                        details={"n": n, "note": "every difference is the same: d_z undefined"})
    dz = float(np.mean(d) / sd)
    if n <= DZ_EXACT_MAX_N:
        lo, hi = (float(v[0]) for v in nct_intervals(np.array([dz * math.sqrt(n)]), n - 1,
                                                       confidence))
        return Estimate(dz, lo / math.sqrt(n), hi / math.sqrt(n), "noncentral-t",
                        details={"n": n})
    z = stats.norm.isf((1.0 - confidence) / 2.0)
    se = math.sqrt(1.0 / n + dz * dz / (2.0 * n))
    return Estimate(dz, dz - z * se, dz + z * se, "normal", details={"n": n})


def cliff_magnitude(delta: float) -> str:
    """Romano et al. (2006)'s label of |δ|: negligible, small, medium or large."""
    if not math.isfinite(delta):
        return "undefined"
    for bound, name in CLIFF_THRESHOLDS:
        if abs(delta) < bound:
            return name
    return "large"


def dominance_counts(x, y) -> tuple:
    """``(below, through)``: for each value of ``x``, how many values of ``y`` lie below it and
    how many at or below it (from sorted ``y``, so large samples cost n log n). Cliff's δ and
    Vargha-Delaney's A12 are both read from these counts."""
    sy = np.sort(np.asarray(y, float))
    x = np.asarray(x, float)
    return np.searchsorted(sy, x, "left"), np.searchsorted(sy, x, "right")


@shared_docs
def cliffs_delta(a, b, *, confidence: float = 0.95,
                 decimals: int | None = DEFAULT_DECIMALS) -> Estimate:
    """Cliff's δ = P(A > B) − P(A < B) over all N² pairs of a value of ``a`` and a value of ``b``.

    **Unpaired** (the data sets are not matched; the form autorank reports), with Cliff's (1993)
    asymmetric interval and Romano et al.'s magnitude label (negligible below 0.147, small below
    0.33, medium below 0.474, large). With ``d_ij = sign(a_i − b_j)``, the row and column means
    ``d_i·`` and ``d_·j`` and ``s² = [N² Σ(d_i· − δ)² + N² Σ(d_·j − δ)² − Σ(d_ij − δ)²] /
    (N²(N − 1)²)``, the interval is ``(δ − δ³ ∓ z·s·√((1 − δ²)² + z²s²)) / (1 − δ² + z²s²)``. Computed from sorted values,
    so large N costs N log N, not N². ``details["a12"]`` is Vargha & Delaney's A = (δ + 1)/2.

    Parameters
    ----------
    {{effect_a_b}}
    {{confidence}}
    {{effect_decimals}}

    Returns
    -------
    {{estimate}}

    References
    ----------
    Cliff, N. (1993). Psychol. Bull. 114, 494–509. Romano, J. et al. (2006). Vargha, A. and
    Delaney, H. D. (2000). J. Educ. Behav. Stat. 25, 101–132.

    Examples
    --------
    The estimate equals a brute-force count over all 400 pairs:

    >>> X = [0.912, 0.845, 0.771, 0.690, 0.933, 0.802, 0.655, 0.871, 0.799, 0.731,
    ...      0.884, 0.702, 0.816, 0.759, 0.947, 0.688, 0.834, 0.793, 0.721, 0.866]
    >>> Y = [0.897, 0.851, 0.742, 0.701, 0.925, 0.771, 0.659, 0.844, 0.787, 0.718,
    ...      0.868, 0.711, 0.790, 0.749, 0.930, 0.670, 0.811, 0.800, 0.716, 0.852]
    >>> from rankwise import cliffs_delta
    >>> r = cliffs_delta(X, Y)
    >>> brute = sum((x > y) - (x < y) for x in X for y in Y) / 400
    >>> r.estimate == brute, r.magnitude
    (True, 'negligible')
    """
    confidence = check.confidence(confidence)
    x, y = _pair(a, b, decimals)
    n_a, n_b = x.size, y.size
    sx = np.sort(x)
    # For each a_i: (#b below) − (#b above); for each b_j: (#a above) − (#a below).
    below, through = dominance_counts(x, y)
    row = (below - (n_b - through)) / n_b
    col = ((n_a - np.searchsorted(sx, y, "right")) - np.searchsorted(sx, y, "left")) / n_a
    delta = float(row.mean())
    ties = int((through - below).sum())
    # Σ(d_ij − δ)² = Σ d_ij² − N_a·N_b·δ², and d_ij² is 1 except for ties
    sum_sq = (n_a * n_b - ties) - n_a * n_b * delta * delta
    s2 = (n_b * n_b * ((row - delta) ** 2).sum() + n_a * n_a * ((col - delta) ** 2).sum()
          - sum_sq) / (n_a * n_b * (n_a - 1) * (n_b - 1))
    s = math.sqrt(max(float(s2), 0.0))
    z = stats.norm.isf((1.0 - confidence) / 2.0)
    low, high = (float(v) for v in cliff_interval(np.float64(delta), np.float64(s), z))
    return Estimate(delta, low, high, "cliff",
                    magnitude=cliff_magnitude(delta),
                    details={"a12": (delta + 1.0) / 2.0, "n": n_a})


@dataclass(frozen=True)
class PairEffects:
    """Every effect size of one pair, ``a − b`` (see the module docstring)."""

    a: str
    b: str
    n: int
    hodges_lehmann: Estimate
    probability_of_superiority: Estimate
    cohens_dz: Estimate
    cliffs_delta: Estimate
    confidence: float

    @property
    def a12(self) -> float:
        return self.cliffs_delta.details["a12"]

    def reversed(self) -> "PairEffects":
        """The same effects read as ``b − a``."""
        def neg(e: Estimate) -> Estimate:
            return replace(e, estimate=-e.estimate, ci_low=-e.ci_high, ci_high=-e.ci_low)

        ps = self.probability_of_superiority
        cd = neg(self.cliffs_delta)
        cd = replace(cd, details={**cd.details, "a12": 1.0 - cd.details["a12"]})
        swapped = {"a_wins": ps.details["b_wins"], "b_wins": ps.details["a_wins"]}
        return replace(self, a=self.b, b=self.a, hodges_lehmann=neg(self.hodges_lehmann),
                       probability_of_superiority=replace(
                           ps, estimate=1.0 - ps.estimate, ci_low=1.0 - ps.ci_high,
                           ci_high=1.0 - ps.ci_low, details={**ps.details, **swapped}),
                       cohens_dz=neg(self.cohens_dz), cliffs_delta=cd)

    def to_dict(self) -> dict:
        return {"a": self.a, "b": self.b, "n": self.n,
                "hodges_lehmann": self.hodges_lehmann.to_dict(),
                "probability_of_superiority": self.probability_of_superiority.to_dict(),
                "cohens_dz": self.cohens_dz.to_dict(),
                "cliffs_delta": self.cliffs_delta.to_dict(),
                "a12": jsonable(self.a12), "confidence": self.confidence}


@shared_docs
def effect_sizes(a, b, *, names=("a", "b"), confidence: float = 0.95,
                 decimals: int | None = DEFAULT_DECIMALS) -> PairEffects:
    """All four effect sizes of ``a − b`` at one confidence level.

    Parameters
    ----------
    {{effect_a_b}}
    names : tuple of str, default ("a", "b")
        Names of the two learners, kept in the result.
    {{confidence}}
    {{effect_decimals}}

    Returns
    -------
    PairEffects
        ``hodges_lehmann``, ``probability_of_superiority``, ``cohens_dz`` and ``cliffs_delta``
        (each an ``Estimate``), with ``a``, ``b``, ``n`` and ``confidence``.

    See Also
    --------
    hodges_lehmann, probability_of_superiority, cohens_dz, cliffs_delta

    Examples
    --------
    >>> X = [0.912, 0.845, 0.771, 0.690, 0.933, 0.802, 0.655, 0.871, 0.799, 0.731,
    ...      0.884, 0.702, 0.816, 0.759, 0.947, 0.688, 0.834, 0.793, 0.721, 0.866]
    >>> Y = [0.897, 0.851, 0.742, 0.701, 0.925, 0.771, 0.659, 0.844, 0.787, 0.718,
    ...      0.868, 0.711, 0.790, 0.749, 0.930, 0.670, 0.811, 0.800, 0.716, 0.852]
    >>> from rankwise import effect_sizes
    >>> e = effect_sizes(X, Y, names=("X", "Y"))
    >>> e.hodges_lehmann.estimate, e.probability_of_superiority.estimate
    (0.01175, 0.75)
    """
    confidence = check.confidence(confidence)
    common = dict(confidence=confidence, decimals=decimals)
    hl = hodges_lehmann(a, b, **common)
    return PairEffects(str(names[0]), str(names[1]), hl.details["n"], hl,
                       probability_of_superiority(a, b, **common), cohens_dz(a, b, **common),
                       cliffs_delta(a, b, **common), confidence)



# --- Helpers the one-pair functions share with the all-pairs engine (.effects_all) -------


def nct_intervals(t: np.ndarray, df: float, confidence: float) -> tuple:
    """The noncentrality parameters λ with P(T ≤ t | λ) = 1 − tail and = tail (T ~ t'(df, λ)),
    for an array of t and one df: each bound is the root of a decreasing function of λ,
    bracketed by widening steps and found by Chandrupatla's method for all t at once (to
    1e-13; the tests hold it against a scalar Brent search)."""
    from scipy import special
    from scipy.optimize import elementwise

    tail = (1.0 - confidence) / 2.0

    def cdf(lam, tt):
        value = special.nctdtr(df, lam, tt)
        bad = np.isnan(value)
        if bad.any():  # far in a tail scipy gives NaN where the cdf is 0 or 1
            value = np.where(bad, np.where(lam > tt, 0.0, 1.0), value)
        return value

    def solve(target):
        lo, hi = t - 10.0, t + 10.0
        while True:
            low = cdf(lo, t) - target < 0
            if not low.any():
                break
            lo = np.where(low, lo - (10.0 + np.abs(lo)), lo)
        while True:
            high = cdf(hi, t) - target > 0
            if not high.any():
                break
            hi = np.where(high, hi + (10.0 + np.abs(hi)), hi)
        res = elementwise.find_root(lambda lam, tt: cdf(lam, tt) - target, (lo, hi), args=(t,),
                                    tolerances=dict(xatol=1e-13, xrtol=1e-13, fatol=0.0,
                                                    frtol=0.0), maxiter=200)
        return np.asarray(res.x, dtype=float)

    return solve(1.0 - tail), solve(tail)


def cliff_interval(delta, s, z):
    """Cliff's (1993) asymmetric interval of δ with standard error ``s`` (arrays or scalars):
    (δ − δ³ ∓ z·s·√((1 − δ²)² + z²s²)) / (1 − δ² + z²s²), within [−1, 1]; δ itself when
    every pair agrees (s = 0, |δ| = 1)."""
    root = z * s * np.sqrt((1 - delta ** 2) ** 2 + z * z * s * s)
    denom = 1 - delta ** 2 + z * z * s * s
    with np.errstate(invalid="ignore", divide="ignore"):
        low = (delta - delta ** 3 - root) / denom
        high = (delta - delta ** 3 + root) / denom
    sure = (s == 0.0) & (np.abs(delta) == 1.0)
    return np.where(sure, delta, np.maximum(-1.0, low)), np.where(sure, delta,
                                                                  np.minimum(1.0, high))


def integer_rows(d: np.ndarray, decimals: int | None):
    """``d`` (rows of differences) as int64 multiples of 10^-decimals where that is exact, each
    row divided by its own grid (0.01 for two decimals): (int64 rows, scale per row, rows that
    qualify). Beyond 2^51 the sums would not be exact integers (and could overflow)."""
    rows = d.shape[0]
    if decimals is None or not d.size:
        return None, None, np.zeros(rows, dtype=bool)
    scale = 10.0 ** decimals
    top = np.abs(d).max(axis=1)
    ok = top < 2.0 ** 51 / scale
    with np.errstate(over="ignore", invalid="ignore"):
        scaled = np.rint(np.where(ok[:, None], d, 0.0) * scale)
    ok &= np.abs(scaled).max(axis=1) < 2.0 ** 51
    ok &= np.all(np.abs(scaled / scale - d) <= 0.5 / scale, axis=1)
    whole = np.where(ok[:, None], scaled, 0.0).astype(np.int64)
    step = np.gcd.reduce(np.abs(whole), axis=1)
    big = step > 1
    whole[big] //= step[big, None]
    scales = np.full(rows, scale)
    scales[big] = scale / step[big]
    return whole, scales, ok


def hl_c(n: int, confidence: float) -> dict:
    """``{"exact": (C, achieved confidence), "normal": (C, None)}``: the order statistic of the
    Hodges-Lehmann interval from the signed-rank distribution (exact below ``HL_EXACT_MAX_N``:
    the smallest t with P(T ≤ t) ≥ tail) and from its normal approximation, kept in 1..M/2."""
    m = n * (n + 1) // 2
    tail = (1.0 - confidence) / 2.0
    out = {}
    if n < HL_EXACT_MAX_N:
        cdf = np.cumsum(signed_rank_distribution(np.arange(1, n + 1)))
        c = int(np.searchsorted(cdf, tail * (1 - 1e-12)))
        out["exact"] = (min(max(c, 1), m // 2 if m > 1 else 1),
                        1.0 - 2.0 * (cdf[c - 1] if c >= 1 else 0.0))
    z = stats.norm.isf(tail)
    c = int(round(m / 2.0 - z * math.sqrt(n * (n + 1) * (2 * n + 1) / 24.0)))
    out["normal"] = (min(max(c, 1), m // 2 if m > 1 else 1), None)
    return out
