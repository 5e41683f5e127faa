"""Adjusted p-values (APVs) for families of hypotheses: one entry point, procedures by name.

Every procedure takes the unadjusted p-values in the caller's order and returns APVs in that
order, capped at 1; a hypothesis is rejected at level α exactly when its APV ≤ α. Sorting is
stable, so tied p-values keep their input order. Formulas: ``docs/reference/adjustments.md``.

Against a control (m = k − 1 hypotheses): ``bonferroni_dunn``, ``holm``, ``hochberg``,
``hommel``, ``holland``, ``rom``, ``finner``, ``li``.
Both families: ``sidak`` (single step), and ``benjamini_hochberg`` and ``benjamini_yekutieli``
(step-up, controlling the false discovery rate, not the family-wise error rate), by name, not in
the default sets.
All pairs (m = k(k − 1)/2): ``bonferroni``, ``holm``, ``shaffer`` (needs k), and the procedures
that need more than p-values — ``nemenyi`` (the studentized range) and ``bergmann_hommel`` (the
pairs) — live in :mod:`rankwise.stats.pairwise` and :mod:`rankwise.stats.bergmann_hommel`.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy import optimize

from ..errors import RankwiseError
from ..names import (ALL_PAIRS_PROCEDURES, CONTROL_PROCEDURES,  # noqa: F401  (re-exported)
                     OPTIONAL_PROCEDURES)


def _prepare(p):
    p = np.asarray(p, dtype=float).ravel()
    if p.size == 0:
        return p, np.empty(0, dtype=int)
    if np.any(~np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise RankwiseError("p-values must be numbers between 0 and 1")
    return p, np.argsort(p, kind="stable")


def _unsort(sorted_apv, order):
    out = np.empty_like(sorted_apv)
    out[order] = np.minimum(sorted_apv, 1.0)
    return out


def bonferroni(p, m: int | None = None):
    """Bonferroni (Bonferroni-Dunn against a control): APV = min(1, m·p)."""
    p, _ = _prepare(p)
    m = p.size if m is None else m
    return np.minimum(p * m, 1.0)


def sidak(p, m: int | None = None):
    """Šidák (1967), single step: APV = 1 − (1 − p)^m (exact for independent tests)."""
    p, _ = _prepare(p)
    m = p.size if m is None else m
    with np.errstate(divide="ignore"):  # p = 1 gives log(0) = -inf and an APV of 1
        return np.minimum(-np.expm1(m * np.log1p(-p)), 1.0)


def holm(p):
    """Holm (1979), step-down: APV_(i) = max_{j≤i} (m − j + 1)·p_(j)."""
    p, order = _prepare(p)
    m = p.size
    ps = p[order]
    return _unsort(np.maximum.accumulate((m - np.arange(m)) * ps), order)


def holland(p):
    """Holland & Copenhaver (1987), step-down Šidák: max_{j≤i} 1 − (1 − p_(j))^(m−j+1)."""
    p, order = _prepare(p)
    m = p.size
    ps = p[order]
    with np.errstate(divide="ignore"):  # p = 1 gives log(0) = -inf and an APV of 1, as it should
        vals = -np.expm1((m - np.arange(m)) * np.log1p(-ps))
    return _unsort(np.maximum.accumulate(vals), order)


def finner(p):
    """Finner (1993), step-down: max_{j≤i} 1 − (1 − p_(j))^(m/j)."""
    p, order = _prepare(p)
    m = p.size
    ps = p[order]
    with np.errstate(divide="ignore"):
        vals = -np.expm1(m / np.arange(1, m + 1) * np.log1p(-ps))
    return _unsort(np.maximum.accumulate(vals), order)


def hochberg(p):
    """Hochberg (1988), step-up: APV_(i) = min_{j≥i} (m − j + 1)·p_(j) (a min: ERRATA GH4)."""
    p, order = _prepare(p)
    m = p.size
    ps = p[order]
    vals = np.minimum((m - np.arange(m)) * ps, 1.0)
    return _unsort(np.minimum.accumulate(vals[::-1])[::-1], order)


def hommel(p):
    """Hommel (1988) APVs by Wright's (1992) algorithm with exact indices (docs/reference/adjustments.md)."""
    p, order = _prepare(p)
    m = p.size
    ps = p[order]
    a = ps.copy()
    idx = np.arange(1, m + 1)
    for j in range(m, 1, -1):
        tail = np.arange(m - j + 1, m + 1)  # 1-based i = m-j+1 .. m
        cmin = float(np.min(j * ps[tail - 1] / (tail - m + j)))
        a[tail - 1] = np.maximum(a[tail - 1], cmin)
        head = idx[: m - j]
        a[head - 1] = np.maximum(a[head - 1], np.minimum(cmin, j * ps[head - 1]))
    return _unsort(a, order)


def li(p):
    """Li (2008), two-step: APV_(i) = p_(i) / (p_(i) + 1 − p_(m))."""
    p, order = _prepare(p)
    if p.size == 0:
        return p
    ps = p[order]
    last = ps[-1]
    with np.errstate(invalid="ignore", divide="ignore"):
        # p = 0 is rejected at any level (0/0 when the largest p is 1: Li's APV is 0).
        vals = np.where(ps == 0, 0.0, np.where(ps + 1 - last > 0, ps / (ps + 1 - last), 1.0))
    return _unsort(vals, order)


def benjamini_hochberg(p):
    """Benjamini & Hochberg (1995), step-up: APV_(i) = min_{j≥i} m·p_(j)/j (R's ``"BH"``).

    Controls the false discovery rate (the expected share of false rejections among the
    rejections) for independent or positively dependent tests, not the family-wise error rate.
    """
    return _false_discovery(p, lambda m: 1.0)


def benjamini_yekutieli(p):
    """Benjamini & Yekutieli (2001), step-up: APV_(i) = min_{j≥i} c(m)·m·p_(j)/j with
    c(m) = Σ_{i≤m} 1/i (R's ``"BY"``); controls the false discovery rate under any dependence."""
    return _false_discovery(p, harmonic)


def harmonic(m: int) -> float:
    """Σ_{i≤m} 1/i, Benjamini-Yekutieli's constant c(m) (summed in pieces beyond 10 million
    terms, which can differ from one sum in the last bits)."""
    if m <= 10_000_000:
        return float(np.sum(1.0 / np.arange(1, m + 1)))
    return float(sum(np.sum(1.0 / np.arange(i, min(m, i + 10_000_000 - 1) + 1))
                     for i in range(1, m + 1, 10_000_000)))


def _false_discovery(p, factor):
    """The step-up APVs min_{j≥i} c·m·p_(j)/j, c = ``factor(m)`` (1 for Benjamini-Hochberg)."""
    p, order = _prepare(p)
    m = p.size
    ps = p[order]
    vals = np.minimum(factor(m) * m / np.arange(1, m + 1) * ps, 1.0)
    return _unsort(np.minimum.accumulate(vals[::-1])[::-1], order)


def rom_constants(m: int, alpha: float, convention: str = "default") -> np.ndarray:
    """Rom's critical values c_1..c_m at level α (c_i is compared with the i-th largest p).

    ``default``: Rom (1990), c_i = [Σ_{j<i} α^j − Σ_{j≤i−2} C(i,j) c_{j+1}^{i−j}] / i.
    ``paper``: KEEL's loops, which stop one term early (ERRATA G14) and give the ratios
    1, 2, 3, 3.814, ... that García et al. (2010) print.
    """
    c = np.zeros(m + 1)
    c[1] = alpha
    if m >= 2:
        c[2] = alpha / 2
    short = 1 if convention == "paper" else 0
    for i in range(3, m + 1):
        s1 = sum(alpha ** j for j in range(1, i - short))
        s2 = sum(math.comb(i, j) * c[j + 1] ** (i - j) for j in range(1, i - 1 - short))
        c[i] = (s1 - s2) / i
    return c[1:]


def rom(p, convention: str = "default"):
    """Rom (1990), step-up with exact critical values.

    ``default``: the exact APV, α*_(j) = the α at which c_{m−j+1}(α) = p_(j) (root search;
    1 if none), APV_(i) = min_{j≥i} α*_(j) (docs/reference/adjustments.md). ``paper``: the shortcut that García
    et al. (2010) print, min_{j≥i} r_{m−j+1}·p_(j) with KEEL's ratios r frozen at α = 0.05.
    """
    p, order = _prepare(p)
    m = p.size
    ps = p[order]
    if convention == "paper":
        r = 0.05 / rom_constants(m, 0.05, "paper")
        vals = np.minimum(r[m - 1 - np.arange(m)] * ps, 1.0)
    else:
        vals = np.array([_rom_alpha_star(m - j, pj) for j, pj in enumerate(ps)])
    return _unsort(np.minimum.accumulate(vals[::-1])[::-1], order)


def _rom_alpha_star(i: int, p: float) -> float:
    """The α at which Rom's c_i(α) equals p (c_i increases with α); 1 if c_i(1) < p."""
    if p <= 0:
        return 0.0
    if i <= 2:  # c_1(α) = α and c_2(α) = α/2: exact, so a p-value equal to α is rejected at α
        return float(min(1.0, i * p))
    f = lambda a: rom_constants(i, a)[-1] - p  # noqa: E731
    if f(1.0) < 0:
        return 1.0
    return float(optimize.brentq(f, 1e-300 if p < 1e-12 else p / (i + 1) * 0.5, 1.0,
                                 xtol=1e-15, rtol=1e-13, maxiter=500))


@lru_cache(maxsize=None)
def shaffer_counts(k: int) -> tuple:
    """S(k): the possible numbers of true pairwise hypotheses among k learners (Shaffer 1986).

    S(0) = S(1) = {0}; S(k) = ∪_{j=1..k} {C(j,2) + x : x ∈ S(k − j)}. Each S(n) is a bit set
    held in one Python integer (bit s set when s ∈ S(n)), so a union of shifted sets is a shift
    and an or of machine words: k = 100 takes milliseconds, k = 1,000 about two seconds.
    """
    sets = [1]  # S(0) = {0}
    for n in range(1, k + 1):
        out = 0
        for j in range(1, n + 1):
            out |= sets[n - j] << (j * (j - 1) // 2)
        sets.append(out)
    m = k * (k - 1) // 2
    raw = np.frombuffer(sets[k].to_bytes(m // 8 + 1, "little"), dtype=np.uint8)
    return tuple(np.flatnonzero(np.unpackbits(raw, bitorder="little")[:m + 1]).tolist())


def shaffer_multipliers(k: int) -> np.ndarray:
    """t_i = max{s ∈ S(k) : s ≤ m − i + 1}, i = 1..m (for k = 5: 10, 6, 6, 6, 6, 4, 4, 3, 2, 1)."""
    m = k * (k - 1) // 2
    s = np.array(shaffer_counts(k))
    need = m - np.arange(m)  # m - i + 1 for i = 1..m
    return s[np.searchsorted(s, need, side="right") - 1].astype(float)


def shaffer(p, k: int):
    """Shaffer's static procedure for all k(k−1)/2 pairs: max_{j≤i} t_j·p_(j)."""
    p, order = _prepare(p)
    m = k * (k - 1) // 2
    if p.size != m:
        raise RankwiseError(f"Shaffer's procedure needs all {m} pairwise p-values of {k} learners;"
                            f" got {p.size}")
    ps = p[order]
    return _unsort(np.maximum.accumulate(shaffer_multipliers(k) * ps), order)



_SIMPLE = {
    "bonferroni_dunn": lambda p, **_: bonferroni(p),
    "bonferroni": lambda p, **_: bonferroni(p),
    "sidak": lambda p, **_: sidak(p),
    "holm": lambda p, **_: holm(p),
    "hochberg": lambda p, **_: hochberg(p),
    "hommel": lambda p, **_: hommel(p),
    "holland": lambda p, **_: holland(p),
    "finner": lambda p, **_: finner(p),
    "li": lambda p, **_: li(p),
    "rom": lambda p, convention="default", **_: rom(p, convention),
    "shaffer": lambda p, k=None, **_: shaffer(p, k),
    "benjamini_hochberg": lambda p, **_: benjamini_hochberg(p),
    "benjamini_yekutieli": lambda p, **_: benjamini_yekutieli(p),
}


def adjust(p, method: str, *, k: int | None = None, convention: str = "default"):
    """Adjusted p-values (APVs) of ``p`` by the procedure ``method``, in the order of ``p``.

    One entry point for every procedure that needs only the p-values: a hypothesis is rejected at
    level α exactly when its APV ≤ α. APVs are capped at 1; tied p-values keep their input order.
    Formulas and derivations: ``docs/reference/adjustments.md``.

    Parameters
    ----------
    p : array_like
        Unadjusted p-values of the family.
    method : str
        Against a control (m = k − 1): ``bonferroni_dunn``, ``holm``, ``hochberg``, ``hommel``,
        ``holland``, ``rom``, ``finner``, ``li``. All pairs (m = k(k − 1)/2): ``bonferroni``,
        ``holm``, ``shaffer`` (needs ``k``). Either: ``sidak``, and the false-discovery-rate
        procedures ``benjamini_hochberg`` and ``benjamini_yekutieli``. ``nemenyi`` and
        ``bergmann_hommel`` need the comparisons themselves: see :func:`nemenyi_pvalues` and
        :func:`bergmann_hommel`.
    k : int, optional
        Number of learners, for ``shaffer``.
    convention : {"default", "paper"}
        ``"paper"``: Rom's constants as KEEL computes them, to reproduce García et al.'s tables;
        ``"default"``: Rom's published constants. Other procedures ignore it.

    Returns
    -------
    numpy.ndarray
        The APVs, the shape of ``p``.

    References
    ----------
    Holm, S. (1979). Scand. J. Stat. 6, 65–70. Hochberg, Y. (1988). Biometrika 75, 800–802.
    Hommel, G. (1988). Biometrika 75, 383–386. Holland, B. S. and Copenhaver, M. D. (1987).
    Biometrics 43, 417–423. Rom, D. M. (1990). Biometrika 77, 663–665. Finner, H. (1993). J. Am.
    Stat. Assoc. 88, 920–923. Li, J. D. (2008). J. Stat. Plan. Inference 138, 1521–1527. Shaffer,
    J. P. (1986). J. Am. Stat. Assoc. 81, 826–831. Benjamini, Y. and Hochberg, Y. (1995). J. R.
    Stat. Soc. B 57, 289–300. García, S. et al. (2010). Inf. Sci. 180, §5.

    Examples
    --------
    Demšar (2006) §3.2.2: three comparisons with a control, p = 0.0157, 0.0192, 0.6084; Holm
    rejects the first two:

    >>> from rankwise import adjust
    >>> adjust([0.01572, 0.01917, 0.60841], "holm").round(4).tolist()
    [0.0472, 0.0472, 0.6084]

    R's ``p.adjust(c(0.01, 0.02, 0.03, 0.5), "BH")`` gives 0.04, 0.04, 0.04, 0.5:

    >>> adjust([0.01, 0.02, 0.03, 0.5], "benjamini_hochberg").round(6).tolist()
    [0.04, 0.04, 0.04, 0.5]
    """
    if method not in _SIMPLE:
        raise RankwiseError(f"unknown procedure {method!r}; choose from {', '.join(_SIMPLE)}")
    if method == "shaffer" and k is None:
        raise RankwiseError("Shaffer's procedure needs the number of learners k")
    return _SIMPLE[method](p, k=k, convention=convention)


def _rows_step_down(ps):
    """Step-down APVs of row-sorted p-values: the running maximum of each row's values."""
    return np.maximum.accumulate(ps, axis=1)


def _rows_step_up(vals):
    """Step-up APVs of row-sorted values: the running minimum from each row's end."""
    return np.minimum.accumulate(np.minimum(vals, 1.0)[:, ::-1], axis=1)[:, ::-1]


def _sorted_rows(method: str, ps: np.ndarray, k: int | None) -> np.ndarray | None:
    """APVs of p-values sorted along each row (m columns), or None when ``method`` has no
    row-wise form here; the formulas are those of the one-family functions above."""
    m = ps.shape[1]
    i = np.arange(m)
    with np.errstate(divide="ignore", invalid="ignore"):  # p = 1: log(0), as in the 1-D forms
        if method in ("bonferroni", "bonferroni_dunn"):
            return np.minimum(ps * m, 1.0)
        if method == "sidak":
            return -np.expm1(m * np.log1p(-ps))
        if method == "holm":
            return _rows_step_down((m - i) * ps)
        if method == "holland":
            return _rows_step_down(-np.expm1((m - i) * np.log1p(-ps)))
        if method == "finner":
            return _rows_step_down(-np.expm1(m / (i + 1) * np.log1p(-ps)))
        if method == "hochberg":
            return _rows_step_up((m - i) * ps)
        if method == "benjamini_hochberg":
            return _rows_step_up(m / (i + 1) * ps)
        if method == "shaffer":
            return _rows_step_down(shaffer_multipliers(k) * ps)
        if method == "li":
            last = ps[:, -1:]
            return np.where(ps == 0, 0.0, np.where(ps + 1 - last > 0, ps / (ps + 1 - last), 1.0))
    return None


def adjust_rows(p, method: str, *, k: int | None = None,
                convention: str = "default") -> np.ndarray:
    """:func:`adjust` applied to each row of ``p`` (one family per row), vectorised where the
    procedure's formula allows (every procedure but Hommel's, Rom's and Benjamini-Yekutieli's,
    which go row by row). Equal to ``adjust`` on each row."""
    p = np.asarray(p, dtype=float)
    if p.ndim != 2:
        raise RankwiseError("adjust_rows needs a 2-D array: one family per row")
    if method not in _SIMPLE:
        raise RankwiseError(f"unknown procedure {method!r}; choose from {', '.join(_SIMPLE)}")
    if p.size == 0:
        return p.copy()
    if np.any(~np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise RankwiseError("p-values must be numbers between 0 and 1")
    if method == "shaffer" and (k is None or p.shape[1] != k * (k - 1) // 2):
        return np.array([adjust(row, method, k=k, convention=convention) for row in p])
    order = np.argsort(p, axis=1, kind="stable")
    apv = _sorted_rows(method, np.take_along_axis(p, order, axis=1), k)
    if apv is None:
        return np.array([adjust(row, method, k=k, convention=convention) for row in p])
    out = np.empty_like(apv)
    np.put_along_axis(out, order, np.minimum(apv, 1.0), axis=1)
    return out
