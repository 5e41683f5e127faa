"""Three more members of the Friedman family: Kendall's W (the omnibus test's effect size),
Page's test of a predicted order, and Durbin's test for balanced incomplete block designs with
the Durbin–Conover all-pairs comparisons."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

from .. import _validate as check
from .._validate import score_input
from ..defaults import DEFAULT_SEED
from ..errors import RankwiseError
from .ranking import DEFAULT_DECIMALS, midranks, rank_within_datasets, round_scores
from .results import TestResult, jsonable
from .resample import bootstrap_counts

#: Bootstrap resamples of the data sets behind Kendall's W's interval.
W_DRAWS = 2000


@dataclass(frozen=True)
class Concordance:
    """Kendall's coefficient of concordance W over the data sets, with its bootstrap interval.

    ``w`` from 0 (the data sets rank the learners unrelatedly) to 1 (every data set ranks them
    alike); ``diversity`` = 1 − W, how much the data sets disagree.

    Examples
    --------
    >>> import rankwise
    >>> w = rankwise.kendalls_w(rankwise.load_example("garcia2008"))
    >>> round(w.w, 4), round(w.diversity, 4), w.low < w.w < w.high
    (0.3326, 0.6674, True)
    """

    w: float
    low: float
    high: float
    confidence: float
    n: int
    k: int
    draws: int
    seed: int

    @property
    def diversity(self) -> float:
        return 1.0 - self.w

    def to_dict(self) -> dict:
        return jsonable({"w": self.w, "ci_low": self.low, "ci_high": self.high,
                         "confidence": self.confidence, "diversity": self.diversity,
                         "n": self.n, "k": self.k, "draws": self.draws, "seed": self.seed,
                         "method": "tie-corrected; percentile bootstrap over data sets"})

    def sentence(self) -> str:
        if not self.draws:
            return (f"Kendall's W = {self.w:.3f} (the omnibus test's effect size, tie-corrected;"
                    f" no interval at this size); diversity 1 - W = {self.diversity:.3f}.")
        return (f"Kendall's W = {self.w:.3f} [{self.low:.3f}, {self.high:.3f}] (the omnibus"
                f" test's effect size: 0 when the data sets rank the learners unrelatedly, 1"
                f" when they all rank them alike; tie-corrected, {self.confidence:.0%}"
                f" bootstrap interval over the data sets); diversity 1 - W ="
                f" {self.diversity:.3f}.")


def _w_from_ranks(rank_sums: np.ndarray, ties: np.ndarray | float, n) -> np.ndarray:
    """W from the learners' rank sums (rows: resamples), the data sets' tie terms Σ(t³ − t)
    summed, and the number of data sets: W = 12 S / (n²(k³ − k) − n ΣT)."""
    k = rank_sums.shape[-1]
    s = ((rank_sums - rank_sums.mean(axis=-1, keepdims=True)) ** 2).sum(axis=-1)
    denominator = n ** 2 * (k ** 3 - k) - n * ties
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denominator > 0, 12.0 * s / np.where(denominator > 0, denominator, 1),
                        np.nan)


#: Rows of ranks whose tie terms are counted at once (bounds the work arrays to a few MB).
TIE_BLOCK_ROWS = 8192


def _tie_terms(r: np.ndarray) -> np.ndarray:
    """Σ (t³ − t) over each row's groups of tied ranks (NaNs, if any, one group), for a block of
    rows at once: each row sorted, a group begins where a value differs from the one before."""
    r = np.asarray(r, dtype=float)
    n, k = r.shape
    out = np.zeros(n)
    for start in range(0, n if k else 0, TIE_BLOCK_ROWS):
        srt = np.sort(r[start:start + TIE_BLOCK_ROWS], axis=1)
        starts = np.ones(srt.shape, dtype=bool)
        left, right = srt[:, :-1], srt[:, 1:]
        np.not_equal(right, left, out=starts[:, 1:])
        if np.isnan(srt[:, -1]).any():  # sorted last; as np.unique, NaNs tie with each other
            starts[:, 1:] &= ~(np.isnan(right) & np.isnan(left))
        first = np.flatnonzero(starts)
        sizes = np.diff(first, append=starts.size)
        out[start:start + srt.shape[0]] = np.bincount(first // k, weights=sizes ** 3 - sizes,
                                                      minlength=srt.shape[0])
    return out


@score_input
def kendalls_w(x, *, higher_is_better: bool | None = None, confidence: float = 0.95,
               draws: int = W_DRAWS, seed: int = DEFAULT_SEED,
               decimals: int | None = DEFAULT_DECIMALS) -> Concordance:
    r"""Kendall's coefficient of concordance W, tie-corrected, with a bootstrap interval.

    With R_j learner j's rank sum over the n data sets, S = Σ_j (R_j − n(k + 1)/2)² and T_i =
    Σ (t³ − t) over data set i's groups of tied ranks,

    .. math:: W = \frac{12\,S}{n^2(k^3 - k) - n\sum_i T_i} = \frac{\chi^2_F}{n(k - 1)}

    with χ²_F the tie-corrected Friedman statistic: W is the Friedman test's effect size. The
    interval is the percentile interval of W over ``draws`` resamples of the data sets.

    References
    ----------
    Kendall, M. G. and Babington Smith, B. (1939). The problem of m rankings. Ann. Math.
    Statist. 10, 275–287. Conover, W. J. (1999). *Practical Nonparametric Statistics*, 3rd ed.

    Examples
    --------
    R's ``RoundingTimes`` (Hollander & Wolfe; 22 players × 3 methods), whose Friedman
    chi-squared is 11.143 in R's ``friedman.test``:

    >>> import numpy as np
    >>> from rankwise.stats.family import kendalls_w
    >>> times = np.array([[5.40, 5.50, 5.55], [5.85, 5.70, 5.75], [5.20, 5.60, 5.50],
    ...     [5.55, 5.50, 5.40], [5.90, 5.85, 5.70], [5.45, 5.55, 5.60], [5.40, 5.40, 5.35],
    ...     [5.45, 5.50, 5.35], [5.25, 5.15, 5.00], [5.85, 5.80, 5.70], [5.25, 5.20, 5.10],
    ...     [5.65, 5.55, 5.45], [5.60, 5.35, 5.45], [5.05, 5.00, 4.95], [5.50, 5.50, 5.40],
    ...     [5.45, 5.55, 5.50], [5.55, 5.55, 5.35], [5.45, 5.50, 5.55], [5.50, 5.45, 5.25],
    ...     [5.65, 5.60, 5.40], [5.70, 5.65, 5.55], [6.30, 6.30, 6.25]])
    >>> round(kendalls_w(times, higher_is_better=False).w, 4)
    0.2532
    """
    x = check.score_matrix(x)
    check.confidence(confidence)
    check.seed(seed)
    check.whole("draws", draws, 100, 1_000_000)
    hib = True if higher_is_better is None else bool(higher_is_better)
    return concordance_from_ranks(rank_within_datasets(x, hib, decimals), confidence, draws,
                                  seed)


#: Above this many numbers (resamples × data sets × learners) the interval of W is not drawn.
W_BOOTSTRAP_MAX_CELLS = 200_000_000


def concordance_from_ranks(r: np.ndarray, confidence: float = 0.95, draws: int = W_DRAWS,
                           seed: int = DEFAULT_SEED) -> Concordance:
    """:func:`kendalls_w` from the data sets' ranks (rows); the interval is NaN when
    ``draws`` × n × k exceeds :data:`W_BOOTSTRAP_MAX_CELLS`."""
    n, k = r.shape
    ties = _tie_terms(r)
    w = float(_w_from_ranks(r.sum(axis=0), ties.sum(), n))
    if int(draws) * n * k > W_BOOTSTRAP_MAX_CELLS:
        return Concordance(w, float("nan"), float("nan"), float(confidence), n, k, 0, int(seed))
    rng = np.random.default_rng(seed)
    counts = bootstrap_counts(int(draws), n, rng).astype(float)
    boot = _w_from_ranks(counts @ r, counts @ ties, n)
    tail = (1.0 - float(confidence)) / 2.0
    defined = boot[~np.isnan(boot)]  # W is undefined for a resample of all-tied data sets
    low, high = (np.quantile(defined, [tail, 1.0 - tail]) if defined.size
                 else (float("nan"), float("nan")))
    return Concordance(w, float(low), float(high), float(confidence), n, k, int(draws),
                       int(seed))


#: Page's test's p-value methods: ``exact`` is exact given the ties and ``asymptotic`` takes the
#: variance given the ties; ``scipy-conservative`` is scipy's exact p of the untied distribution
#: at ⌊L⌋ and ``scipy-asymptotic`` scipy's normal approximation with the untied variance.
PAGE_METHODS = ("auto", "exact", "asymptotic", "scipy-conservative", "scipy-asymptotic")
#: Learners up to which the exact p-value given ties is computed (``"auto"`` asks for it up to 8).
PAGE_EXACT_TIES_MAX_LEARNERS = 12


@score_input
def page_trend(x, order, *, learners=None, higher_is_better: bool | None = None,
               decimals: int | None = DEFAULT_DECIMALS, method: str = "auto") -> TestResult:
    r"""Page's test that the learners' performance increases in a predicted ``order`` (e.g.
    budgets or versions, from the one predicted worst to the one predicted best).

    Within each data set the learners of ``order`` are ranked by performance (1 = worst,
    mid-ranks for ties), and with R_j the rank sum of the j-th learner of the order,

    .. math:: L = \sum_{j=1}^{m} j\,R_j,

    large when the order holds. ``method``:

    - ``"exact"``: P(L* ≥ L) under the null hypothesis that each data set's ranks are in random
      order, over every permutation of each data set's own ranks (its mid-ranks where it has
      ties), by convolving the data sets' distributions of Σ_j j·r_j (whole numbers: twice
      the ranks), up to 12 learners with ties. Without ties this is scipy's
      ``page_trend_test`` exact p.
    - ``"asymptotic"``: the normal approximation of Page (1963) with the variance of L given
      the ties (:func:`~rankwise.stats.family.page_variance`); without ties, scipy's
      ``page_trend_test`` value.
    - ``"auto"`` (default): ``"exact"`` where scipy's ``method="auto"`` chooses its exact p (at
      most 8 learners, and at most 12 data sets or at most 3 learners, and at most 20 data
      sets), else ``"asymptotic"``.
    - ``"scipy-conservative"``: scipy's exact p, P(L* ≥ ⌊L⌋) over the permutations of the
      untied ranks 1…m whatever the ties: larger than the exact p when there are ties (the
      ``"exact"`` of rankwise 0.8 and of scipy).
    - ``"scipy-asymptotic"``: scipy's normal approximation, with the variance of untied ranks
      whatever the ties: larger than the variance given the ties, so a p-value nearer 0.5
      (the ``"asymptotic"`` of rankwise 0.8 and of scipy).

    With ties the result's notes say that the p-value is given the ties, and which p scipy
    gives (``details["scipy_conservative_pvalue"]``, up to 8 learners: scipy enumerates the m!
    orders of the ranks).

    References
    ----------
    Page, E. B. (1963). Ordered hypotheses for multiple treatments: a significance test for
    linear ranks. J. Am. Stat. Assoc. 58, 216–230.

    Examples
    --------
    The ratings of scipy's ``page_trend_test`` docstring (10 students, three teaching
    methods, predicted tutorial < lecture < seminar), with ties in 7 of the 10 rows: L =
    133.5, exact p given the ties 0.000384 (scipy's conservative p is 0.0018191):

    >>> from rankwise.stats.family import page_trend
    >>> table = [[3, 4, 3], [2, 2, 4], [3, 3, 5], [1, 3, 2], [2, 3, 2], [2, 4, 5],
    ...          [1, 2, 4], [3, 4, 4], [2, 4, 5], [1, 3, 4]]
    >>> names = ["tutorial", "lecture", "seminar"]
    >>> r = page_trend(table, names, learners=names)
    >>> r.statistic, round(r.pvalue, 6), r.method
    (133.5, 0.000384, 'exact')
    >>> old = page_trend(table, names, learners=names, method="scipy-conservative")
    >>> round(old.pvalue, 7)
    0.0018191
    """
    x = check.score_matrix(x)
    k = x.shape[1]
    names = [str(n) for n in (learners if learners is not None else range(1, k + 1))]
    if len(names) != k:
        raise RankwiseError(f"page_trend: {len(names)} names for {k} learners")
    order = [str(o) for o in order]
    unknown = [o for o in order if o not in names]
    if unknown or len(order) < 3 or len(set(order)) != len(order):
        raise RankwiseError(f"the trend needs at least three different learners of the table,"
                            f" in their predicted order from worst to best; got"
                            f" {', '.join(order) or 'none'}" + (f" ({', '.join(unknown)} not"
                                                                 " in the table)" if unknown
                                                                 else ""))
    check.choice("method", method, PAGE_METHODS)
    hib = True if higher_is_better is None else bool(higher_is_better)
    sub = round_scores(x[:, [names.index(o) for o in order]], decimals)
    performance = sub if hib else -sub
    ranks = np.apply_along_axis(midranks, 1, performance)
    statistic, pvalue, used, extra, notes = _page_pvalue(performance, ranks, method)
    details = {"n": x.shape[0], "k": len(order), "order": order,
               "rank_sums": ranks.sum(axis=0).tolist(), **extra}
    return TestResult("page", statistic, pvalue, used, "default", None, details,
                      ("one-sided: the alternative is that performance increases along the order"
                       " given", *notes))


def _page_pvalue(performance: np.ndarray, ranks: np.ndarray, method: str) -> tuple:
    """``(L, p-value, method, details, notes)`` of Page's test (:func:`page_trend`'s
    ``method``); scipy's exact p, which enumerates the m! orders of the ranks, only up to 8
    learners (as its ``"auto"``) unless asked for."""
    n, m = performance.shape
    if method == "auto":  # scipy's rule (Page 1963)
        method = "asymptotic" if m > 8 or (n > 12 and m > 3) or n > 20 else "exact"
    srt = np.sort(ranks, axis=1)
    tied = bool((srt[:, 1:] == srt[:, :-1]).any())
    if method in ("asymptotic", "exact") and not tied:
        res = stats.page_trend_test(performance, method=method)
        return float(res.statistic), float(res.pvalue), res.method, \
            {"pvalue_method": res.method}, []
    if method == "scipy-asymptotic":
        res = stats.page_trend_test(performance, method="asymptotic")
        return float(res.statistic), float(res.pvalue), method, {"pvalue_method": method}, \
            ["scipy's normal approximation with the variance of untied ranks, larger than the"
             " variance given the ties (method='asymptotic')"] if tied else []
    if method == "asymptotic":
        res = stats.page_trend_test(performance, method="asymptotic")
        return float(res.statistic), float(page_normal_pvalue(ranks)[1]), "asymptotic", \
            {"pvalue_method": "asymptotic given the ties",
             "scipy_asymptotic_pvalue": float(res.pvalue)}, [
                f"normal approximation with the variance of L given the ties (every"
                f" permutation of each data set's mid-ranks); scipy's page_trend_test gives"
                f" {float(res.pvalue):.4g}, with the variance of untied ranks"
                f" (method='scipy-asymptotic')"]
    if method == "scipy-conservative":
        res = stats.page_trend_test(performance, method="exact")
        return float(res.statistic), float(res.pvalue), method, {"pvalue_method": method}, \
            ["scipy's exact p-value of the untied distribution at floor(L), larger than the"
             " exact p given the ties (method='exact')"] if tied else []
    if m > PAGE_EXACT_TIES_MAX_LEARNERS:
        raise RankwiseError(f"Page's exact p-value given ties is computed up to"
                            f" {PAGE_EXACT_TIES_MAX_LEARNERS} learners in the order; give"
                            " method='asymptotic'")
    statistic = float(stats.page_trend_test(performance, method="asymptotic").statistic)
    details = {"pvalue_method": "exact given the ties"}
    scipy_says = "a larger p-value"
    if m <= 8:
        conservative = float(stats.page_trend_test(performance, method="exact").pvalue)
        details["scipy_conservative_pvalue"] = conservative
        scipy_says = f"{conservative:.4g}"
    return statistic, page_exact_pvalue(ranks), "exact", details, [
        f"exact p-value given the ties (every permutation of each data set's mid-ranks);"
        f" scipy's page_trend_test gives {scipy_says}, the untied distribution's"
        f" P(L >= floor(L)) (method='scipy-conservative')"]


def page_variance(ranks) -> np.ndarray:
    r"""Var(L) of Page's L under the null hypothesis given the ties: over every permutation
    of each data set's own ranks (rows of the last two axes; 1 = worst, mid-ranks for ties).

    A row's ranks r_1…r_m, permuted at random, each have variance σ² (their own, over m) and
    covariance −σ²/(m − 1) with each other, so with weights c_j the row's Σ_j c_j r_π(j) has
    variance (Σ_j c_j² − (Σ_j c_j)²/m)·s², s² = Σ (r − r̄)²/(m − 1) the row's sample variance;
    the rows are independent, so

    .. math:: \operatorname{Var}(L) = \sum_i \Big(\sum_j c_j^2 - \frac{(\sum_j c_j)^2}{m}
              \Big) s_i^2 .

    With c_j = j the bracket is m(m² − 1)/12, and mid-ranks with tie groups of sizes t have
    s² = m(m + 1)/12 − Σ (t³ − t)/(12(m − 1)), hence Var(L) = [n m²(m + 1)(m² − 1) − m(m + 1)
    Σ_i Σ (t³ − t)]/144: Page's variance (scipy's, written as scipy does, so the same double
    without ties) less the ties' share."""
    ranks = np.asarray(ranks, dtype=float)
    *lead, n, m = ranks.shape
    ties = _tie_terms(ranks.reshape(-1, m)).reshape(*lead, n).sum(axis=-1)
    untied = (n * m ** 2 * (m + 1) * (m ** 2 - 1)) / 144
    return untied - m * (m + 1) * ties / 144


def page_normal_pvalue(ranks) -> tuple:
    """``(L, p)`` of Page's normal approximation given the ties, for the data sets' ranks (rows
    of the last two axes; 1 = worst, mid-ranks): P(Z ≥ (L − E L)/√Var L) with
    :func:`page_variance`; p = 1 where every row is tied throughout (L is then its mean
    whatever the order)."""
    ranks = np.asarray(ranks, dtype=float)
    n, m = ranks.shape[-2:]
    big_l = ranks.sum(axis=-2) @ np.arange(1, m + 1)
    mean = (n * m * (m + 1) ** 2) / 4
    var = page_variance(ranks)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (big_l - mean) / np.sqrt(var)
    pvalue = np.where(var > 0, stats.norm.sf(z), 1.0)
    return big_l, pvalue


def page_exact_pvalue(ranks) -> float:
    """P(L* ≥ L) of Page's L for the data sets' ranks (rows; 1 = worst, mid-ranks for ties)
    over every permutation of each row's own ranks: the rows' distributions of Σ_j j·(2 r_j)
    (whole numbers: mid-ranks are whole or halves) convolved."""
    doubled = np.rint(2 * np.asarray(ranks, dtype=float)).astype(np.int64)
    k = doubled.shape[1]
    observed = int((doubled * np.arange(1, k + 1)).sum())
    total = np.ones(1)
    rows = {}
    for row in doubled:
        key = tuple(sorted(row.tolist()))
        if key not in rows:
            rows[key] = _page_row_distribution(key)
        total = np.convolve(total, rows[key])
    return float(min(1.0, total[observed:].sum())) if observed < total.size else 0.0


def _page_row_distribution(values: tuple) -> np.ndarray:
    """P(Σ_j j·v_π(j) = s) for s = 0, 1, … over the k! permutations π of ``values`` (whole
    numbers), by dynamic programming over the positions j and the multiset of values placed
    (a state per multiset; the counts are whole numbers, exact in double precision for
    k ≤ 18)."""
    distinct, counts = np.unique(np.asarray(values), return_counts=True)
    k = len(values)
    top = int(sum(j * v for j, v in enumerate(sorted(values), start=1)))
    states = {(0,) * len(distinct): np.eye(1, top + 1)[0]}
    for j in range(1, k + 1):
        nxt = {}
        for used, dist in states.items():
            for i, (v, c) in enumerate(zip(distinct.tolist(), counts.tolist())):
                left = c - used[i]
                if not left:
                    continue
                shift = j * v
                moved = np.zeros(top + 1)
                moved[shift:] = dist[:top + 1 - shift] * left
                key = used[:i] + (used[i] + 1,) + used[i + 1:]
                nxt[key] = nxt[key] + moved if key in nxt else moved
        states = nxt
    (dist,) = states.values()
    return dist / math.factorial(k)


def _bibd(present: np.ndarray) -> tuple:
    """``(c, r, lam)`` of a balanced incomplete block design (every block the same size c < k,
    every learner in r blocks, every pair in lam blocks), or None."""
    sizes = present.sum(axis=1)
    reps = present.sum(axis=0)
    c = int(sizes[0])
    if not (sizes == c).all() or not (reps == reps[0]).all() or not 2 <= c < present.shape[1]:
        return None
    both = present.T.astype(int) @ present.astype(int)
    off = both[~np.eye(both.shape[0], dtype=bool)]
    if not (off == off[0]).all() or off[0] < 1:
        return None
    return c, int(reps[0]), int(off[0])


def is_balanced_incomplete(x) -> bool:
    """Whether the missing cells of ``x`` (NaN) leave a balanced incomplete block design."""
    x = np.asarray(x, dtype=float)
    return bool(np.isnan(x).any()) and _bibd(~np.isnan(x)) is not None


def _durbin_ranks(x, hib, decimals):
    present = ~np.isnan(x)
    design = _bibd(present)
    if design is None:
        raise RankwiseError("Durbin's test needs a balanced incomplete block design: every data"
                            " set with the same number c < k of learners, every learner on the"
                            " same number of data sets, every pair together equally often"
                            " (else use --missing skillings-mack)")
    performance = round_scores(np.where(present, x, np.nan), decimals)
    if not hib:
        performance = -performance
    ranks = np.full(x.shape, np.nan)
    for i in range(x.shape[0]):
        row = performance[i, present[i]]
        ranks[i, present[i]] = midranks(-row)   # 1 = best, as rankwise ranks
    return ranks, design


@score_input
def durbin(x, *, higher_is_better: bool | None = None,
           decimals: int | None = DEFAULT_DECIMALS) -> TestResult:
    r"""Durbin's test for a balanced incomplete block design: b data sets each with c of the k
    learners (NaN elsewhere), every learner on r data sets, every pair together λ times.

    With r_ij the ranks within data set i (mid-ranks for ties), R_j = Σ_i r_ij, A = Σ r_ij²
    and C = b c (c + 1)² / 4 (Conover 1999, §5.8),

    .. math:: T_1 = \frac{(k-1)\,[\sum_j R_j^2 - r\,C]}{A - C},\qquad
              T_2 = \frac{T_1/(k-1)}{(b(c-1) - T_1)/(bc - b - k + 1)}

    referred to χ² with k − 1 and to F with (k − 1, bc − b − k + 1) degrees of freedom. The
    result's ``statistic`` and ``pvalue`` are T_1's; ``details`` has T_2 (``f_statistic``,
    ``f_pvalue``, ``f_df``), which Conover recommends.

    Examples
    --------
    Conover's ice-cream tasting (7 judges, 3 of 7 varieties each; ranks as given), as R's
    PMCMRplus ``durbinTest`` example: T1 = 12.00 (p = 0.062), F = 8.00 on (6, 8) df:

    >>> import numpy as np
    >>> from rankwise.stats.family import durbin
    >>> n = np.nan
    >>> ranks = np.array([[2, 3, n, 1, n, n, n], [n, 3, 1, n, 2, n, n],
    ...                   [n, n, 2, 1, n, 3, n], [n, n, n, 1, 2, n, 3],
    ...                   [3, n, n, n, 1, 2, n], [n, 3, n, n, n, 1, 2],
    ...                   [3, n, 1, n, n, n, 2]])
    >>> r = durbin(ranks, higher_is_better=False)
    >>> round(r.statistic, 2), round(r.pvalue, 3), round(r.details["f_statistic"], 2)
    (12.0, 0.062, 8.0)
    """
    x = np.asarray(x, dtype=float)
    if x.ndim != 2 or x.shape[0] < 2 or x.shape[1] < 3:
        raise RankwiseError(f"Durbin's test needs a data sets x learners matrix with at least"
                            f" 3 learners; got shape {x.shape}")
    hib = True if higher_is_better is None else bool(higher_is_better)
    ranks, (c, r, lam) = _durbin_ranks(x, hib, decimals)
    b, k = x.shape
    sums = np.nansum(ranks, axis=0)
    a = float(np.nansum(ranks ** 2))
    cc = b * c * (c + 1) ** 2 / 4.0
    if a == cc:
        raise RankwiseError("Durbin's test: every data set ties all its learners; nothing to"
                            " test")
    t1 = (k - 1) * (float(np.sum(sums ** 2)) - r * cc) / (a - cc)
    df2 = b * c - b - k + 1
    t2 = (t1 / (k - 1)) / ((b * (c - 1) - t1) / df2) if b * (c - 1) > t1 else math.inf
    details = {"n": b, "k": k, "block_size": c, "replications": r, "lambda": lam,
               "rank_sums": sums.tolist(), "a": a, "c": cc,
               "f_statistic": t2, "f_df": [k - 1, df2],
               "f_pvalue": float(stats.f.sf(t2, k - 1, df2)) if math.isfinite(t2) else 0.0}
    return TestResult("durbin", float(t1), float(stats.chi2.sf(t1, k - 1)), "chi2", "default",
                      (k - 1,), details)


@score_input
def durbin_conover(x, *, higher_is_better: bool | None = None,
                   decimals: int | None = DEFAULT_DECIMALS) -> np.ndarray:
    r"""The Durbin–Conover comparisons of every pair (Conover 1999, §5.8): k × k unadjusted
    two-sided p-values of

    .. math:: t_{ij} = \frac{|R_i - R_j|}{\sqrt{\dfrac{2r(A - C)}{bc - b - k + 1}
              \Big(1 - \dfrac{T_1}{b(c-1)}\Big)}}

    on bc − b − k + 1 degrees of freedom (adjust them with :func:`rankwise.adjust`, as PMCMRplus's
    ``durbinAllPairsTest`` does with Holm's procedure; ``compare`` does it for a table whose
    missing cells leave a balanced incomplete block design).

    Examples
    --------
    Conover's ice-cream tasting (7 judges, 3 of 7 varieties each):

    >>> import numpy as np
    >>> from rankwise import durbin_conover
    >>> n = np.nan
    >>> ranks = np.array([[2, 3, n, 1, n, n, n], [n, 3, 1, n, 2, n, n],
    ...                   [n, n, 2, 1, n, 3, n], [n, n, n, 1, 2, n, 3],
    ...                   [3, n, n, n, 1, 2, n], [n, 3, n, n, n, 1, 2],
    ...                   [3, n, 1, n, n, n, 2]])
    >>> p = durbin_conover(ranks, higher_is_better=False)
    >>> round(float(p[1, 3]), 4), p.shape
    (0.0012, (7, 7))
    """
    return durbin_conover_statistics(np.asarray(x, dtype=float),
                                     True if higher_is_better is None else higher_is_better,
                                     decimals)[0]


def durbin_conover_statistics(x, higher_is_better, decimals) -> tuple:
    """``(p, t, details)``: :func:`durbin_conover`'s p-values, the signed statistics
    (R_j − R_i over the scale: positive where i has the better, smaller rank sum) and the
    degrees of freedom."""
    hib = bool(higher_is_better)
    res = durbin(x, higher_is_better=hib, decimals=decimals)
    d = res.details            # the design and rank sums Durbin's test found
    c, r, sums = d["block_size"], d["replications"], np.asarray(d["rank_sums"])
    b, k = x.shape
    df = b * c - b - k + 1
    scale = math.sqrt(max(0.0, 2 * r * (d["a"] - d["c"]) / df
                          * (1 - res.statistic / (b * (c - 1)))))
    diff = sums[None, :] - sums[:, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        t = diff / scale if scale > 0 else np.where(diff == 0, 0.0, np.sign(diff) * np.inf)
    p = 2 * stats.t.sf(np.abs(t), df)
    np.fill_diagonal(p, 1.0)
    np.fill_diagonal(t, 0.0)
    return p, t, {"df": df, "rank_sums": sums.tolist(), "method": "t (Conover 1999, §5.8)"}
