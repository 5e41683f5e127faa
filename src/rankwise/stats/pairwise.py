"""Post-hoc comparisons: which learners differ, with adjusted p-values.

Pairwise statistics come from a *ranking*:

- ``friedman``, ``friedman_aligned``, ``quade``: z = (M_a − M_b)/SE on the statistic the omnibus
  test averages (mean rank, mean aligned rank, Quade's T_j). One SE serves every pair.
  ``convention="default"`` uses the exact permutation standard error, which also handles ties;
  ``"paper"`` uses the published formulas (García et al. 2010 eqs. (21)-(22), Demšar 2006), which
  are wrong for aligned ranks and for Quade with k > 3 (ERRATA G4, G9) but reproduce Tables 9-11.
- ``wilcoxon``, ``sign``: the two-learner test applied pair by pair. Benavoli, Corani & Mangili
  (2016) recommend these, because the verdict on A vs B then does not depend on which other
  learners happen to be in the pool, as it does for the rank-based z-tests.

Families: ``control`` (k − 1 comparisons with one learner) and ``all_pairs``. The procedures are
those of :mod:`rankwise.stats.adjust`, plus ``nemenyi`` (studentized range; rank-based rankings only)
and ``bergmann_hommel`` (:mod:`rankwise.stats.bergmann_hommel`). The standard errors are derived in
``docs/reference/pairwise.md``.
"""

from __future__ import annotations

import functools
import math
from .._validate import score_input
from dataclasses import dataclass, field

import numpy as np
from scipy import stats

from .. import _validate as check
from ..errors import RankwiseError
from ..names import (ALL_PAIRS_PROCEDURES, CONOVER, CONTROL_PROCEDURES, OPTIONAL_PROCEDURES,
                     RANK_BASED, RANKING_ALIASES, RANKINGS)
from .adjust import adjust
from .results import AttributesOnly
from .bergmann_hommel import bergmann_hommel
from .exact import eisinga_pvalues
from .omnibus import quade_from_ranks
from .ranking import DEFAULT_DECIMALS, aligned_ranks, midranks, quade_weights, round_scores
from .studentized_range import range_sf
from .two_learners import sign_test, wilcoxon
from ._docs import shared_docs


@dataclass(frozen=True)
class PairwiseStatistics:
    """Pairwise z-statistics (rank-based) or test p-values (Wilcoxon, sign) of one ranking."""

    ranking: str
    convention: str
    pvalues: np.ndarray            # k × k, diagonal 1
    statistics: np.ndarray         # k × k: z (M_a − M_b)/SE, or the test statistic for (a, b)
    scores: np.ndarray | None      # M_j, the values the z-tests compare (rank-based only)
    se: float | None
    details: dict = field(default_factory=dict)


@score_input
@shared_docs
def pairwise_statistics(x, ranking: str = "friedman", *, higher_is_better: bool | None = None,
                        convention: str = "default", decimals: int | None = DEFAULT_DECIMALS,
                        zero_method: str = "demsar", wilcoxon_method: str = "auto",
                        sign_ties: str = "split", ranks=None,
                        correction: bool = False,
                        complete_cases: bool = False) -> PairwiseStatistics:
    """Pairwise statistics and two-sided p-values for every pair of learners.

    For the rank-based rankings the statistic of a pair is its mean-rank difference over its
    standard error (a z, or a t for the Conover rankings); for ``wilcoxon`` and ``sign`` it is the
    two-learner test of the two columns, so it does not depend on the other learners.

    Parameters
    ----------
    {{x}}
    ranking : str, default "friedman"
        One of ``rankwise.RANKINGS`` (``friedman``, ``friedman_aligned``, ``quade``,
        ``friedman_exact``, ``friedman_conover``, ``quade_conover``, ``wilcoxon``, ``sign``).
    {{higher_is_better}}
    convention : {"default", "paper"}
        As in the omnibus test of the ranking.
    {{decimals}}
    zero_method, wilcoxon_method, sign_ties, correction
        Passed to :func:`wilcoxon` (``zero_method``, ``method``, ``correction``) and
        :func:`sign_test` (``ties``) for those rankings.
    ranks : array_like, optional
        The within-data-set ranks of ``x`` (rank 1 = best), when the caller has them already.
    complete_cases : bool, default False
        With missing cells: compare each pair on the data sets both have values on.

    Returns
    -------
    PairwiseStatistics
        ``statistics`` and ``pvalues`` (k × k matrices), ``se``, ``scores`` (mean ranks or the
        ranking's scores), ``ranking``, ``convention`` and ``details``.

    References
    ----------
    Demšar, J. (2006). JMLR 7, §3.2.2. García, S. et al. (2010). Inf. Sci. 180, §5.

    Examples
    --------
    Demšar (2006) §3.2.2, C4.5 against C4.5+m+cf: SE = 0.488, z = 2.415, p = 0.0157:

    >>> from rankwise import load_example, pairwise_statistics
    >>> t = load_example("demsar2006_table6_tiebreak")
    >>> st = pairwise_statistics(t.values, "friedman", convention="paper")
    >>> z, p = float(abs(st.statistics[0, 3])), float(st.pvalues[0, 3])
    >>> round(st.se, 4), round(z, 3), round(p, 4)
    (0.488, 2.415, 0.0157)
    """
    ranking = RANKING_ALIASES.get(ranking, ranking)
    check.choice("ranking", ranking, RANKINGS)
    convention = check.convention(convention)
    if ranking == "durbin_conover":
        # a balanced incomplete block design: every pair from the rank sums of all data sets
        from .family import durbin_conover_statistics

        p, t, details = durbin_conover_statistics(np.asarray(x, dtype=float), higher_is_better,
                                                  decimals)
        return PairwiseStatistics(ranking, convention, p, t, None, None, details)
    if complete_cases:
        # missing cells (NaN) allowed: each pair is tested on the data sets it shares
        if ranking not in ("wilcoxon", "sign"):
            raise RankwiseError(f"the {ranking} ranking needs a complete table; with missing cells"
                                " use the wilcoxon or sign ranking")
        x = round_scores(np.asarray(x, dtype=float), decimals)
    else:
        x = round_scores(check.score_matrix(x), decimals)
    n, k = x.shape
    if ranking in RANK_BASED:
        scores, se, details = _rank_scores(x, ranking, higher_is_better, convention, decimals,
                                           ranks)
        z, p = score_pairs(scores, se)
        return PairwiseStatistics(ranking, convention, p, z, scores, se, details)
    if ranking == "friedman_exact":
        r = ranks if ranks is not None else midranks(x, descending=higher_is_better)
        sums = r.sum(axis=0)
        return PairwiseStatistics(ranking, convention, eisinga_pvalues(r),
                                  sums[:, None] - sums[None, :], sums / n, None,
                                  {"method": "exact (Eisinga et al. 2017)"})
    if ranking in CONOVER:
        scores, se, df, details = conover_scores(x, ranking, higher_is_better, convention,
                                                  decimals, ranks)
        t, p = score_pairs(scores, se, df)
        return PairwiseStatistics(ranking, convention, p, t, scores, se,
                                  {**details, "df": df})
    if ranking == "sign" and not complete_cases and not np.isnan(x).any():
        p, stat = _sign_tests_all_pairs(x, higher_is_better, decimals, sign_ties)
        return PairwiseStatistics(ranking, convention, p, stat, None, None,
                                  {"ties_rule": sign_ties})
    p = np.ones((k, k))
    stat = np.zeros((k, k))
    used = np.full((k, k), n)
    present = ~np.isnan(x)
    if ranking == "wilcoxon" and not complete_cases and present.all():
        _wilcoxon_tests_all_pairs(x, p, stat, higher_is_better, decimals, zero_method,
                                  wilcoxon_method, convention, correction)
        return PairwiseStatistics(ranking, convention, p, stat, None, None,
                                  {"zero_method": zero_method, "method": wilcoxon_method,
                                   "continuity_correction": bool(correction)})
    for i in range(k):
        for j in range(i + 1, k):
            rows = present[:, i] & present[:, j]
            used[i, j] = used[j, i] = int(rows.sum())
            if rows.sum() < 2:
                continue  # fewer than two shared data sets: no test (p = 1)
            a, b = (x[:, i], x[:, j]) if rows.all() else (x[rows, i], x[rows, j])
            res = pair_test(a, b, ranking, higher_is_better=higher_is_better,
                            convention=convention, decimals=decimals, zero_method=zero_method,
                            wilcoxon_method=wilcoxon_method, sign_ties=sign_ties,
                            correction=correction)
            p[i, j] = p[j, i] = res.pvalue
            stat[i, j] = stat[j, i] = res.statistic
    details = ({"zero_method": zero_method, "method": wilcoxon_method,
                "continuity_correction": bool(correction)} if ranking == "wilcoxon"
               else {"ties_rule": sign_ties})
    if complete_cases:
        details["n_used"] = used
    return PairwiseStatistics(ranking, convention, p, stat, None, None, details)


class PairMatrix(np.lib.mixins.NDArrayOperatorsMixin):
    """A k × k matrix of a pair-level number that comes from k per-learner values, computed
    entry by entry as it is read: ``m[a, b]`` with index arrays computes those pairs only, so
    the 50 million pairs of 10,000 learners are never held at once. Anything else (a slice,
    arithmetic, ``numpy.asarray(m)``, ``m.copy()``) builds the whole matrix once, as the plain
    array rankwise 0.7 returned. ``entry(a, b)`` gives the value of the pairs (a[i], b[i]);
    the diagonal is ``diagonal``.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.stats.pairwise import PairMatrix
    >>> m = np.array([1.5, 2.0, 2.5])
    >>> diff = PairMatrix(3, lambda a, b: m[a] - m[b], diagonal=0.0)
    >>> float(diff[0, 2]), np.asarray(diff).tolist()
    (-1.0, [[0.0, -0.5, -1.0], [0.5, 0.0, -0.5], [1.0, 0.5, 0.0]])
    """

    def __init__(self, k: int, entry, diagonal: float):
        self.shape = (k, k)
        self.ndim = 2
        self.dtype = np.dtype(float)
        self._entry = entry
        self._diagonal = diagonal
        self._whole = None

    def __len__(self) -> int:
        return self.shape[0]

    def __getitem__(self, key):
        if isinstance(key, tuple) and len(key) == 2 and all(map(_integer_index, key)):
            k = self.shape[0]
            a, b = np.broadcast_arrays(np.asarray(key[0]) % k, np.asarray(key[1]) % k)
            out = np.where(a == b, self._diagonal, self._entry(a, b))
            return float(out) if out.ndim == 0 else out
        return self.whole()[key]

    def whole(self) -> np.ndarray:
        """The whole k × k matrix (built once)."""
        if self._whole is None:
            i = np.arange(self.shape[0])
            self._whole = self[i[:, None], i[None, :]]
        return self._whole

    def __array__(self, dtype=None, copy=None):
        return self.whole() if dtype is None else self.whole().astype(dtype)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        inputs = tuple(np.asarray(v) if isinstance(v, PairMatrix) else v for v in inputs)
        return getattr(ufunc, method)(*inputs, **kwargs)

    def __getattr__(self, name):  # copy, round, T, max, ...: those of the whole matrix
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.whole(), name)

    def __repr__(self) -> str:
        return f"PairMatrix(k={self.shape[0]})"


def _integer_index(index) -> bool:
    if isinstance(index, (int, np.integer)) and not isinstance(index, bool):
        return True
    return isinstance(index, np.ndarray) and index.dtype.kind in "iu"


def score_pairs(scores, se: float, df: float | None = None) -> tuple:
    """``(statistics, pvalues)`` as :class:`PairMatrix`: the statistic of (a, b) is
    (M_a − M_b)/SE, its two-sided p-value from the normal (or, with ``df``, Student's t)."""
    scores = np.asarray(scores, dtype=float)
    k = scores.size

    def statistic(a, b):
        diff = scores[a] - scores[b]
        if se > 0:
            return diff / se
        if df is None:
            return np.zeros(diff.shape)
        return np.where(diff == 0, 0.0, np.copysign(np.inf, diff))

    def pvalue(a, b):
        value = np.abs(statistic(a, b))
        tail = stats.norm.sf(value) if df is None else stats.t.sf(value, df)
        return np.minimum(1.0, 2 * tail)

    return PairMatrix(k, statistic, 0.0), PairMatrix(k, pvalue, 1.0)


def _pair_differences(x, higher_is_better, decimals, cells: int):
    """Every pair i < j of a complete table, in blocks of about ``cells`` numbers:
    ``(i, j, d)`` with d[r] the rounded differences of pair (i[r], j[r]), as
    :func:`~rankwise.stats.two_learners.differences` gives them (positive: j better)."""
    xr = round_scores(x, decimals)
    n, k = xr.shape
    i, j = np.triu_indices(k, 1)
    block = max(1, cells // max(n, 1))
    for start in range(0, i.size, block):
        bi, bj = i[start:start + block], j[start:start + block]
        a, b = xr[:, bi].T, xr[:, bj].T
        yield bi, bj, round_scores(b - a if higher_is_better else a - b, decimals)


def _sign_tests_all_pairs(x, higher_is_better, decimals, ties_rule):
    """The sign test of every pair (i < j: b = j against a = i) of a complete table at once:
    the win counts as array operations, each distinct (wins, n) tested once by the same exact
    binomial test as :func:`~rankwise.stats.two_learners.sign_test` (the tests compare them)."""
    n, k = x.shape
    p = np.ones((k, k))
    stat = np.zeros((k, k))
    if k < 2:
        return p, stat
    i, j = np.triu_indices(k, 1)
    wins_b = np.empty(i.size, dtype=np.int64)
    ties = np.empty(i.size, dtype=np.int64)
    start = 0
    for _, bj, d in _pair_differences(x, higher_is_better, decimals, 4_000_000):
        stop = start + len(bj)
        wins_b[start:stop] = (d > 0).sum(axis=1)
        ties[start:stop] = (d == 0).sum(axis=1)
        start = stop
    wins_a = n - wins_b - ties
    share = ties // 2 if ties_rule == "split" else 0
    w, total = wins_b + share, wins_b + wins_a + 2 * share
    keys, inverse = np.unique(np.column_stack([w, total]), axis=0, return_inverse=True)
    values = np.array([1.0 if m == 0 else min(1.0, float(stats.binomtest(int(s), int(m), 0.5)
                                                          .pvalue)) for s, m in keys])
    pv = values[inverse.ravel()]
    p[i, j] = p[j, i] = pv
    stat[i, j] = stat[j, i] = w
    return p, stat


def _wilcoxon_tests_all_pairs(x, p, stat, higher_is_better, decimals, zero_method, method,
                              convention, correction) -> None:
    """The two-sided Wilcoxon test of every pair of a complete table at once, into ``p`` and
    ``stat``: :func:`~rankwise.stats.two_learners.wilcoxon` computed on arrays (the tests
    compare the two pair by pair). Zeros have the smallest |d|, so every zero rule is a shift of
    the mid-ranks of all |d|: ``wilcox`` drops the z zeros (the others move down by z),
    ``demsar`` drops one of an odd number (down by 1), ``zsplit`` and ``pratt`` keep them; the
    zeros' ranks are split between R+ and R− (``demsar``, ``zsplit``) or dropped (``pratt``).
    Exact p-values are computed once per distinct (ranks, R+); normal ones as array arithmetic."""
    from .two_learners import EXACT_MAX_N, wilcoxon_exact_pvalue

    n, k = x.shape
    if k < 2 or n < 1:
        return
    cache = {}
    for bi, bj, d in _pair_differences(x, higher_is_better, decimals, 2_000_000):
        zero = d == 0
        z = zero.sum(axis=1)
        if zero_method == "wilcox":
            shift, kept_zeros = z, np.zeros_like(z)
        elif zero_method == "demsar":
            odd = z % 2
            shift, kept_zeros = odd, z - odd
        else:
            shift, kept_zeros = np.zeros_like(z), z
        ranks = midranks(np.abs(d)) - shift[:, None]  # of the non-zero |d|
        size = n - np.where(zero_method == "wilcox", z, 0) - np.where(
            zero_method == "demsar", z % 2, 0)
        fixed = (0.5 * (kept_zeros * (kept_zeros + 1) / 2.0)
                 if zero_method in ("demsar", "zsplit") else np.zeros(len(d)))
        r_plus = np.where(d > 0, ranks, 0.0).sum(axis=1) + fixed
        r_minus = np.where(d < 0, ranks, 0.0).sum(axis=1) + fixed
        random = np.where(zero, 0.0, ranks)
        exact = (size <= EXACT_MAX_N) if method == "auto" else np.full(len(d), method == "exact")
        values = np.ones(len(d))
        some = z < n  # at least one non-zero difference, else p = 1
        for row in np.flatnonzero(exact & some):
            kept = np.sort(ranks[row][~zero[row]])
            key = (kept.tobytes(), float(r_plus[row] - fixed[row]))
            if key not in cache:
                cache[key] = wilcoxon_exact_pvalue(kept, r_plus[row] - fixed[row], "two-sided")
            values[row] = cache[key]
        normal = ~exact & some
        if normal.any():
            if convention == "paper":
                m = size[normal].astype(float)
                mean = m * (m + 1) / 4.0
                var = m * (m + 1) * (2 * m + 1) / 24.0
            else:
                mean = fixed[normal] + random[normal].sum(axis=1) / 2.0
                var = (random[normal] ** 2).sum(axis=1) / 4.0
            dev = r_plus[normal] - mean
            if correction:
                dev = dev - 0.5 * np.sign(dev)
            values[normal] = np.minimum(1.0, 2 * stats.norm.sf(np.abs(dev / np.sqrt(var))))
        p[bi, bj] = p[bj, bi] = values
        stat[bi, bj] = stat[bj, bi] = np.minimum(r_plus, r_minus)


def pair_test(a, b, ranking: str, *, higher_is_better: bool, convention: str, decimals,
              zero_method: str = "demsar", wilcoxon_method: str = "auto",
              sign_ties: str = "split", correction: bool = False,
              alternative: str = "two-sided"):
    """The two-learner test of b against a behind the ``wilcoxon`` or ``sign`` ranking."""
    common = dict(higher_is_better=higher_is_better, convention=convention, decimals=decimals,
                  alternative=alternative)
    if ranking == "wilcoxon":
        return wilcoxon(a, b, zero_method=zero_method, method=wilcoxon_method,
                        correction=correction, **common)
    return sign_test(a, b, ties=sign_ties, **common)


def _rank_scores(x, ranking, higher_is_better, convention, decimals, ranks=None):
    """M_j and the standard error of M_a − M_b under H0 for a rank-based ranking."""
    n, k = x.shape
    if ranks is None and ranking != "friedman_aligned":
        ranks = midranks(x, descending=higher_is_better)
    if ranking == "friedman":
        r = ranks
        scores = r.mean(axis=0)
        if convention == "paper":
            se = math.sqrt(k * (k + 1) / (6.0 * n))
        else:
            # Exact permutation variance: within a data set the k mid-ranks are permuted at
            # random, so Var(R_a − R_b) = 2/(n²(k−1)) · Σ_i Σ_j (r_ij − r̄_i)² (no ties: k(k+1)/6n).
            centred = r - r.mean(axis=1, keepdims=True)
            d = float(np.square(centred, out=centred).sum())
            del centred
            se = math.sqrt(2.0 * d / (n * n * (k - 1)))
        return scores, se, {"se_formula": "sqrt(k(k+1)/(6n))" if convention == "paper"
                            else "permutation (tie-corrected)"}
    if ranking == "friedman_aligned":
        r = aligned_ranks(x, higher_is_better, decimals)
        scores = r.mean(axis=0)
        if convention == "paper":
            se = math.sqrt(k * (k * n + 1) / 6.0)
        else:
            d = float((r ** 2).sum() - (r.sum(axis=1) ** 2).sum() / k)
            se = math.sqrt(2.0 * d / (n * n * (k - 1)))
        return scores, se, {"se_formula": "sqrt(k(kn+1)/6)" if convention == "paper"
                            else "permutation: sqrt(2D/(n^2(k-1)))"}
    quade = _quade_sums(x, ranks, decimals)
    scores = quade["mean_ranks"]
    if convention == "paper":
        se = math.sqrt(k * (k + 1) * (2 * n + 1) * (k - 1) / (18.0 * n * (n + 1)))
    else:
        se = math.sqrt(2.0 * quade["a2"] / (k - 1)) / (n * (n + 1) / 2.0)
    return scores, se, {"se_formula": "sqrt(k(k+1)(2n+1)(k-1)/(18n(n+1)))" if convention == "paper"
                        else "permutation: sqrt(2*A2/(k-1))/(n(n+1)/2)"}


def _quade_sums(x, ranks, decimals) -> dict:
    """The Quade test's sums, as its default convention computes them: S_j (``s``),
    A₂ = Σ S_ij² (``a2``), B = Σ S_j²/n (``b``) and T_j/(n(n+1)/2) (``mean_ranks``)."""
    return quade_from_ranks(ranks, quade_weights(x, decimals), "default").details


def conover_scores(x, ranking, higher_is_better, convention, decimals, ranks=None):
    """Mean scores, the SE of a difference and the degrees of freedom of Conover's t-tests.

    Friedman (Conover 1999, §5.8): with rank sums R_j, A₁ = Σ r_ij², C₁ = nk(k+1)²/4 and the
    tie-corrected Friedman statistic T₁, two learners differ when
    |R_a − R_b| / √(2n(A₁ − C₁)(1 − T₁/(n(k−1))) / ((n−1)(k−1))) exceeds t with (n−1)(k−1) df.
    Quade (Conover 1999, §5.8): |S_a − S_b| / √(2n(A₂ − B)/((n−1)(k−1))), S_j = Σ Q_i(r_ij −
    (k+1)/2), A₂ = Σ S_ij², B = Σ S_j²/n; ``convention="paper"`` takes A₂ without ties, as the
    Quade test does. Both are returned on the scale of the mean scores of the z-tests (mean
    ranks; Quade's T_j/(n(n+1)/2)), so a negative t means a ranks better.
    """
    n, k = x.shape
    if ranks is None:
        ranks = midranks(x, descending=higher_is_better)
    df = (n - 1) * (k - 1)
    if ranking == "friedman_conover":
        r = ranks
        rank_sums = r.sum(axis=0)
        a1 = float(np.square(r).sum())
        c1 = n * k * (k + 1) ** 2 / 4.0
        spread = a1 - c1
        t1 = (k - 1) * (float((rank_sums ** 2).sum()) - n * c1) / spread if spread > 0 else 0.0
        var = 2.0 * n * spread * (1.0 - t1 / (n * (k - 1))) / df if df else 0.0
        se = math.sqrt(max(var, 0.0)) / n
        return rank_sums / n, se, df, {
            "se_formula": "sqrt(2n(A1 - C1)(1 - T1/(n(k-1))) / ((n-1)(k-1))) / n",
            "t1": t1, "a1": a1, "c1": c1}
    quade = _quade_sums(x, ranks, decimals)
    a2, b = quade["a2"], quade["b"]
    if convention == "paper":
        a2 = n * (n + 1) * (2 * n + 1) * k * (k + 1) * (k - 1) / 72.0
    var = 2.0 * n * (a2 - b) / df if df else 0.0
    se = math.sqrt(max(var, 0.0)) / (n * (n + 1) / 2.0)
    return quade["mean_ranks"], se, df, {"se_formula": "sqrt(2n(A2 - B) / ((n-1)(k-1))) / (n(n+1)/2)",
                            "a2": a2, "b": b}


def nemenyi_pvalues(z, k: int) -> np.ndarray:
    r"""Nemenyi adjusted p-values in Demšar's sense: the studentized range.

    .. math:: p = P(Q_{k,\infty} \ge \sqrt 2\,|z|)

    Not the same as García & Herrera's "Nemenyi" (m·p), which is a Bonferroni correction
    (ERRATA GH8); that one is ``adjust(p, "bonferroni")``. Above 1,000 distinct statistics the
    tail is interpolated between Chebyshev nodes of the integral (within 1.2e-12 of it).

    Parameters
    ----------
    z : array_like
        z-statistics of the pairs (mean-rank difference divided by its standard error).
    k : int
        Number of learners.

    Returns
    -------
    numpy.ndarray
        The adjusted p-values, the shape of ``z``.

    References
    ----------
    Nemenyi, P. B. (1963). *Distribution-free multiple comparisons*. PhD thesis, Princeton.
    Demšar, J. (2006). JMLR 7, §3.2.2.

    Examples
    --------
    The same as scipy's studentized-range tail:

    >>> import numpy as np
    >>> from scipy.stats import studentized_range
    >>> from rankwise import nemenyi_pvalues
    >>> z = np.array([2.0, 3.0])
    >>> nemenyi_pvalues(z, 5).round(6).tolist()
    [0.265889, 0.022659]
    >>> studentized_range.sf(np.sqrt(2) * z, 5, np.inf).round(6).tolist()
    [0.265889, 0.022659]
    """
    z = np.abs(np.asarray(z, dtype=float))
    return range_sf(math.sqrt(2.0) * z, k)


@dataclass(frozen=True)
class CriticalValue(AttributesOnly):
    """A critical difference of mean ranks ``cd`` and the critical value ``q`` of the statistic
    it comes from (cd = q·se); ``method``, ``alpha``, ``k``, ``n`` say which.

    Examples
    --------
    >>> from rankwise import critical_difference
    >>> cv = critical_difference(k=4, n=14, alpha=0.05)
    >>> round(cv.cd, 3), round(cv.q, 3), cv.method
    (1.254, 2.569, 'nemenyi')
    """

    cd: float
    q: float
    method: str
    alpha: float
    k: int
    n: int

    def to_dict(self) -> dict:
        return {"cd": self.cd, "q": self.q, "method": self.method, "alpha": self.alpha,
                "k": self.k, "n": self.n}


def critical_difference(k: int, n: int, alpha: float = 0.05, method: str = "nemenyi",
                        se: float | None = None) -> CriticalValue:
    r"""Critical difference of mean ranks, ``(cd, q)``, Demšar (2006) §3.2.2.

    .. math:: CD = q_\alpha \sqrt{\frac{k(k+1)}{6n}}

    (or q_α·``se``), with q_α = q_{1−α}(k, ∞)/√2 from the studentized range (``nemenyi``, all
    pairs) or z_{1−α/(2(k−1))} (``bonferroni_dunn``, against a control). Computed from the
    distributions, for any α and k (a table of them: docs/reference/pairwise.md).

    Parameters
    ----------
    k : int
        Number of learners.
    n : int
        Number of data sets.
    alpha : float, default 0.05
        Level.
    method : {"nemenyi", "bonferroni_dunn"}, default "nemenyi"
        All pairs, or every learner against a control.
    se : float, optional
        Standard error of a mean-rank difference, for rankings other than Friedman's.

    Returns
    -------
    CriticalValue
        ``cd`` and ``q`` (rankwise 0.5 returned the tuple ``(cd, q)``, whose unpacking keeps
        working for one release with a DeprecationWarning).

    References
    ----------
    Demšar, J. (2006). JMLR 7, §3.2.2.

    Examples
    --------
    Demšar (2006): k = 4, N = 14, q₀.₀₅ = 2.569 and CD = 1.25 (1.2536 with the exact q):

    >>> from rankwise import critical_difference
    >>> res = critical_difference(4, 14, 0.05)
    >>> round(res.cd, 4), round(res.q, 3)
    (1.2536, 2.569)
    >>> round(critical_difference(4, 14, 0.05, "bonferroni_dunn").q, 3)
    2.394
    """
    alpha = check.alpha(alpha)
    check.choice("method", method, ("nemenyi", "bonferroni_dunn"))
    q = _q_alpha(k, alpha, method)
    se = math.sqrt(k * (k + 1) / (6.0 * n)) if se is None else se
    return CriticalValue(q * se, q, method, alpha, k, n)


@functools.lru_cache(maxsize=256)
def _q_alpha(k: int, alpha: float, method: str) -> float:
    # The studentized range's quantile is a root search over a numerical integral (milliseconds,
    # the largest fixed cost of a small analysis); a session asks for the same few again.
    if method == "nemenyi":
        return float(stats.studentized_range.isf(alpha, k, np.inf) / math.sqrt(2.0))
    return float(stats.norm.isf(alpha / (2 * (k - 1))))


def family_pairs(k: int, family: str, control: int | None) -> np.ndarray:
    """Index pairs (a, b) of a family as an (m, 2) array: (control, j) for every other j, or
    every (i, j) with i < j in row order."""
    if family == "control":
        others = np.delete(np.arange(k, dtype=np.int64), control)
        return np.column_stack([np.full(others.size, control, dtype=np.int64), others])
    i, j = np.triu_indices(k, 1)
    return np.column_stack([i, j]).astype(np.int64, copy=False)


def adjusted_pvalues(stat: PairwiseStatistics, family: str, procedures, *, control=None,
                     convention: str = "default", time_budget: float = 10.0, pvalues=None):
    """APVs ``{procedure: array}`` over the family's pairs, plus notes and the methods used.
    ``pvalues``: the family's p-values when they are not the statistics' own (one-sided)."""
    k = stat.pvalues.shape[0]
    pairs = family_pairs(k, family, control)
    a, b = pairs[:, 0], pairs[:, 1]
    p = stat.pvalues[a, b] if pvalues is None else np.asarray(pvalues, dtype=float)
    out, notes, used = {}, [], {}
    for proc in procedures:
        if proc == "nemenyi":
            if stat.ranking not in RANK_BASED:
                notes.append(f"nemenyi needs the z-tests of mean ranks; not available for the"
                             f" {stat.ranking} ranking")
                continue
            out[proc] = nemenyi_pvalues(stat.statistics[a, b], k)
        elif proc == "bergmann_hommel":
            res = bergmann_hommel(np.asarray(stat.pvalues), stat.scores,
                                  monotone=convention == "paper",
                                  time_budget=time_budget)
            out[proc] = res.apv[a, b]
            used["bergmann_hommel"] = res.method
            notes.extend(res.notes)
        elif proc == "shaffer":
            out[proc] = adjust(p, "shaffer", k=k)
        else:
            out[proc] = adjust(p, proc, convention=convention)
    return pairs, p, out, notes, used


def resolve_control(control, learners, mean_ranks) -> int:
    """Index of the control: a learner name, or ``None``/``"best"`` for the best mean rank."""
    if control is None or control == "best":
        return int(np.argmin(mean_ranks))  # first of the best on ties (stable)
    if control not in learners:
        raise RankwiseError(f"no learner named {control!r} to use as control; the learners are"
                            f" {', '.join(learners)}")
    return list(learners).index(control)


def check_procedures(procedures, family):
    default = CONTROL_PROCEDURES if family == "control" else ALL_PAIRS_PROCEDURES
    if procedures is None:
        return default
    allowed = default + OPTIONAL_PROCEDURES
    chosen = [p for p in procedures if p in allowed]
    known = CONTROL_PROCEDURES + ALL_PAIRS_PROCEDURES + OPTIONAL_PROCEDURES
    unknown = [p for p in procedures if p not in known]
    if unknown:
        raise RankwiseError(f"unknown procedure {unknown[0]!r}; control procedures: "
                            f"{', '.join(CONTROL_PROCEDURES + OPTIONAL_PROCEDURES)}; all-pairs"
                            f" procedures: {', '.join(ALL_PAIRS_PROCEDURES + OPTIONAL_PROCEDURES)}")
    return tuple(chosen)
