"""Tests for two learners over N data sets: Wilcoxon signed-ranks, sign test, paired t-tests.

Orientation: every function compares learner ``b`` with learner ``a``; a positive difference means
``b`` scored better (after the direction is applied), as in Demšar (2006), where R+ is the rank sum
of the data sets on which the second algorithm won. ``alternative="greater"`` means "b is better".
Formulas, examples and cross-checks: ``docs/reference/two-learners.md``.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

from .. import _validate as check
from ..names import SIGN_TIES, ZERO_METHODS  # noqa: F401  (re-exported)
from .ranking import DEFAULT_DECIMALS, midranks, round_scores
from .results import AttributesOnly, TestResult
from ._docs import shared_docs
EXACT_MAX_N = 50


def differences(a, b, higher_is_better: bool = True, decimals: int | None = DEFAULT_DECIMALS):
    """Rounded differences b - a (a - b when lower is better): positive means b is better."""
    x = round_scores(check.score_pair(a, b, min_rows=1), decimals)
    d = x[:, 1] - x[:, 0] if higher_is_better else x[:, 0] - x[:, 1]
    return round_scores(d, decimals)


def unit_differences(d: np.ndarray) -> tuple:
    """``(d / scale, scale)``: t-type statistics are scale-free, so they are computed on
    differences scaled to at most 1, which keeps every square finite for any finite scores."""
    scale = float(np.max(np.abs(d))) if d.size else 0.0
    return (d / scale, scale) if 0 < scale < math.inf else (d, 1.0)


def t_pvalue(dist, t: float, alternative: str) -> float:
    """The p-value of ``t`` under ``dist`` on the side(s) ``alternative`` names."""
    if alternative == "greater":
        return float(dist.sf(t))
    if alternative == "less":
        return float(dist.cdf(t))
    return float(min(1.0, 2 * dist.sf(abs(t))))


@functools.lru_cache(maxsize=4096)
def _binomial_pvalue(wins: int, n: int, alternative: str) -> float:
    """scipy's exact binomial test of ``wins`` of ``n`` at 1/2, kept per (wins, n, side): a
    power study asks for the same few thousand again and again."""
    return float(stats.binomtest(wins, n, 0.5, alternative=alternative).pvalue)


class Distribution:
    """``sf`` and ``cdf`` of a scipy distribution at fixed parameters, without freezing it
    (a frozen distribution writes its docstring when made: half a millisecond each time)."""

    def __init__(self, family, *parameters):
        self.family, self.parameters = family, parameters

    def sf(self, x):
        return self.family.sf(x, *self.parameters)

    def cdf(self, x):
        return self.family.cdf(x, *self.parameters)

    def ppf(self, q):
        return self.family.ppf(q, *self.parameters)


def degenerate_t(mean: float, alternative: str) -> tuple:
    """``(t, p)`` when every difference is the same: no spread to scale them by."""
    if mean == 0:
        return 0.0, 1.0
    t = math.copysign(math.inf, mean)
    if alternative == "two-sided":
        return t, 0.0
    return t, 0.0 if (mean > 0) == (alternative == "greater") else 1.0


@dataclass(frozen=True)
class WinTieLoss(AttributesOnly):
    """How often ``a`` wins, ties and loses against ``b`` over the data sets.

    Examples
    --------
    >>> from rankwise import win_tie_loss
    >>> wtl = win_tie_loss([0.9, 0.8, 0.7, 0.6], [0.85, 0.8, 0.75, 0.5])
    >>> wtl.a_wins, wtl.ties, wtl.b_wins
    (2, 1, 1)
    """

    a_wins: int
    ties: int
    b_wins: int

    def to_dict(self) -> dict:
        return {"a_wins": self.a_wins, "ties": self.ties, "b_wins": self.b_wins}


@shared_docs
def win_tie_loss(a, b, higher_is_better: bool = True,
                 decimals: int | None = DEFAULT_DECIMALS) -> WinTieLoss:
    """Counts ``a_wins``, ``ties``, ``b_wins`` over the data sets, after rounding.

    Parameters
    ----------
    {{a_b}}
    {{higher_is_better}}
    {{decimals}}

    Returns
    -------
    WinTieLoss
        ``a_wins``, ``ties``, ``b_wins`` (rankwise 0.5 returned the tuple, whose unpacking keeps
        working for one release with a DeprecationWarning).

    Examples
    --------
    Rounding to 12 decimals makes 0.3 − 0.2 and 0.1 equal:

    >>> from rankwise import win_tie_loss
    >>> win_tie_loss([0.3 - 0.2, 0.9, 0.5], [0.1, 0.8, 0.6])
    WinTieLoss(a_wins=1, ties=1, b_wins=1)
    """
    d = differences(a, b, higher_is_better, decimals)
    return WinTieLoss(int((d < 0).sum()), int((d == 0).sum()), int((d > 0).sum()))


def signed_rank_distribution(weights: np.ndarray) -> np.ndarray:
    """P(U = u) for U = Σ w_i·s_i with independent fair signs s_i ∈ {0, 1} (integer weights)."""
    dist = np.zeros(int(np.sum(weights)) + 1)
    dist[0] = 1.0
    top = 0
    for w in weights:
        w = int(w)
        shifted = dist[:top + 1].copy()
        dist[:top + 1] *= 0.5
        dist[w:w + top + 1] += 0.5 * shifted
        top += w
    return dist


def wilcoxon_exact_pvalue(ranks, r_plus_random: float, alternative: str = "two-sided") -> float:
    """Exact p-value of the signed-rank sum, conditional on the (mid-)ranks of the non-zero |d|.

    ``ranks`` are the ranks that get a random sign under H0 (multiples of ½), ``r_plus_random``
    the observed sum of those with a positive sign. Doubling makes every rank an integer, so the
    distribution is computed exactly by a convolution (dynamic programme), ties included.
    """
    # Sorted, so that the result depends only on the ranks (below 2^53 every probability of
    # the convolution is an exact dyadic number anyway; past N = 53 the order could round).
    w = np.sort(np.rint(2 * np.asarray(ranks, dtype=float)).astype(np.int64))
    return _exact_signed_rank_pvalue(tuple(w.tolist()), int(round(2 * r_plus_random)),
                                     alternative)


@functools.lru_cache(maxsize=4096)
def _exact_signed_rank_pvalue(weights: tuple, u_obs: int, alternative: str) -> float:
    # Kept per (doubled ranks, observed sum, side): a power study meets the same ones again
    # and again, and the convolution is most of a small test's time.
    w = np.asarray(weights, dtype=np.int64)
    total = int(w.sum())
    dist = signed_rank_distribution(w)
    u = np.arange(total + 1)
    if alternative == "greater":
        p = dist[u >= u_obs].sum()
    elif alternative == "less":
        p = dist[u <= u_obs].sum()
    else:
        p = dist[np.abs(2 * u - total) >= abs(2 * u_obs - total)].sum()
    return float(min(1.0, p))


def wilcoxon_critical_value(n: int, alpha: float = 0.05, alternative: str = "two-sided") -> int | None:
    """Largest T with P(T ≤ t) ≤ α for N untied, non-zero differences (Demšar's table value).

    Reject when the observed T = min(R+, R−) is at most this value.

    Parameters
    ----------
    n : int
        Number of differences.
    alpha : float, default 0.05
        Level of the test.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        A two-sided α puts α/2 in the lower tail.

    Returns
    -------
    int or None
        The critical value, or None when no T is small enough (N too small for this α).

    Examples
    --------
    Demšar (2006) §3.1.3: for N = 14 and α = 0.05 the critical value is 21.

    >>> from rankwise import wilcoxon_critical_value
    >>> wilcoxon_critical_value(14, 0.05), wilcoxon_critical_value(5, 0.05)
    (21, None)
    """
    alpha = check.alpha(alpha)
    cdf = np.cumsum(signed_rank_distribution(np.arange(1, int(n) + 1)))
    tail = alpha / 2 if check.alternative(alternative) == "two-sided" else alpha
    ok = np.nonzero(cdf <= tail * (1 + 1e-12))[0]
    return int(ok[-1]) if ok.size else None


@shared_docs
def wilcoxon(a, b, *, higher_is_better: bool = True, zero_method: str = "demsar",
             method: str = "auto", alternative: str = "two-sided", convention: str = "default",
             correction: bool = False, decimals: int | None = DEFAULT_DECIMALS) -> TestResult:
    r"""Wilcoxon signed-ranks test of learner ``b`` against learner ``a`` over N data sets.

    The absolute differences abs(d_i) are ranked with mid-ranks;
    R+ = Σ_{d_i>0} rank_i (+ ½ Σ_{d_i=0} rank_i), R− likewise, T = min(R+, R−).

    Parameters
    ----------
    {{a_b}}
    higher_is_better : bool, default True
        Direction of the scores.
    zero_method : {"demsar", "zsplit", "pratt", "wilcox"}
        What zero differences do. ``demsar`` (default, Demšar 2006): they are ranked and their ranks
        split evenly between R+ and R−; if their number is odd one zero is discarded first.
        ``zsplit``: the same without discarding. ``pratt``: ranked, then their ranks dropped.
        ``wilcox``: dropped before ranking.
    method : {"auto", "exact", "normal"}
        ``exact``: the permutation distribution of R+ over the mid-ranks (ties and zeros handled);
        ``normal``: the normal approximation; ``auto``: exact when N ≤ 50.
    convention : {"default", "paper"}
        Only affects the normal approximation. ``default`` uses the exact conditional mean and
        variance (tie- and zero-corrected, Σ rank²/4). ``paper`` uses Demšar's
        z = (T − N(N+1)/4) / √(N(N+1)(2N+1)/24), with N counting the zeros and no tie correction.
    correction : bool
        Continuity correction of ½ in the normal approximation, towards the null on the side
        tested (R+ − ½ for ``greater``, R+ + ½ for ``less``, ½ towards the mean for a two-sided
        test), as R's ``wilcox.test`` and scipy do. Off by default; R's default is on.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        ``"greater"``: b is better than a (in the direction of the scores); ``"less"``: worse.
    decimals : int or None, default 12
        Scores, and their differences, are rounded to this many decimals first (None: not
        rounded), so that floating-point noise does not break ties.

    Returns
    -------
    TestResult
        ``statistic`` is T for a two-sided test and R+ otherwise; ``n`` the differences ranked;
        ``alternative``; ``details`` has r_plus, r_minus, t, n_zeros, n_discarded, z, a_wins,
        ties, b_wins.

    References
    ----------
    Wilcoxon (1945); Pratt (1959); Demšar (2006), JMLR 7, §3.1.3.

    Examples
    --------
    Demšar (2006), Table 2 (AUC of C4.5 and C4.5+m on 14 data sets): R+ = 93, R− = 12, T = 12.

    >>> from rankwise.examples import load_example
    >>> t = load_example("demsar2006_table2")
    >>> r = wilcoxon(t.values[:, 0], t.values[:, 1])
    >>> r.r_plus, r.r_minus, r.statistic, round(r.pvalue, 4), r.method
    (93.0, 12.0, 12.0, 0.0078, 'exact')
    """
    zero_method = check.choice("zero_method", zero_method, ZERO_METHODS)
    method = check.choice("method", method, ("auto", "exact", "normal"))
    alternative = check.alternative(alternative)
    convention = check.convention(convention)
    d = differences(a, b, higher_is_better, decimals)
    a_wins, ties, b_wins = int((d < 0).sum()), int((d == 0).sum()), int((d > 0).sum())
    notes = []
    discarded = 0
    if zero_method == "wilcox":
        d = d[d != 0]
    elif zero_method == "demsar" and ties % 2 == 1:
        d = np.delete(d, np.flatnonzero(d == 0)[0])
        discarded = 1
    n = d.size
    ranks = midranks(np.abs(d)) if n else np.empty(0)
    pos, neg, zero = d > 0, d < 0, d == 0
    fixed = 0.5 * ranks[zero].sum() if zero_method in ("demsar", "zsplit") else 0.0
    r_plus = float(ranks[pos].sum() + fixed)
    r_minus = float(ranks[neg].sum() + fixed)
    t = min(r_plus, r_minus)
    random_ranks = ranks[~zero]
    mean = fixed + random_ranks.sum() / 2.0
    var = float((random_ranks ** 2).sum() / 4.0)
    z = (r_plus - mean) / math.sqrt(var) if var > 0 else 0.0
    chosen = ("exact" if n <= EXACT_MAX_N else "normal") if method == "auto" else method
    if random_ranks.size == 0:
        p = 1.0
        notes.append("all differences are zero: no evidence either way (p = 1)")
    elif chosen == "exact":
        p = wilcoxon_exact_pvalue(random_ranks, r_plus - fixed, alternative)
    else:
        if convention == "paper":
            mean = n * (n + 1) / 4.0
            var = n * (n + 1) * (2 * n + 1) / 24.0
        dev = r_plus - mean
        if correction:
            # Towards the null on the side being tested, as R's wilcox.test and scipy do:
            # −½ for "greater", +½ for "less", and ½ towards 0 for a two-sided test.
            dev -= 0.5 * {"greater": 1.0, "less": -1.0}.get(alternative, float(np.sign(dev)))
        z = dev / math.sqrt(var)
        p = _normal_pvalue(z, alternative)
    if chosen == "normal" and n < 20:
        notes.append(f"normal approximation with only {n} differences; method='exact' is better")
    statistic = t if alternative == "two-sided" else r_plus
    z_report = -abs(z) if alternative == "two-sided" else z
    return TestResult(
        test="wilcoxon", statistic=statistic, pvalue=p, method=chosen, convention=convention,
        details={"r_plus": r_plus, "r_minus": r_minus, "t": t, "z": z_report, "n": n,
                 "n_zeros": ties, "n_discarded": discarded, "zero_method": zero_method,
                 "alternative": alternative, "continuity_correction": bool(correction),
                 "a_wins": a_wins, "ties": ties, "b_wins": b_wins},
        notes=tuple(notes))


def _normal_pvalue(z: float, alternative: str) -> float:
    if alternative == "greater":
        return float(stats.norm.sf(z))
    if alternative == "less":
        return float(stats.norm.cdf(z))
    return float(min(1.0, 2 * stats.norm.sf(abs(z))))


@shared_docs
def sign_test(a, b, *, higher_is_better: bool = True, ties: str = "split", method: str = "exact",
              alternative: str = "two-sided", convention: str = "default",
              decimals: int | None = DEFAULT_DECIMALS) -> TestResult:
    r"""Sign test: counts of data sets won by ``b`` and by ``a``, against Bin(N′, ½).

    Parameters
    ----------
    {{a_b}}
    higher_is_better : bool, default True
        Direction of the scores.
    ties : {"split", "drop"}
        ``split`` (default, Demšar 2006 §3.1.4): ties are shared evenly between the two learners;
        with an odd number of ties one is discarded. ``drop``: ties are discarded (the textbook
        sign test).
    method : {"exact", "normal"}
        Exact binomial p (default; two-sided p = min(1, 2·P(X ≥ max(w′, l′)))), or
        z = (w′ − N′/2)/(√N′/2). Demšar's Table 3 is one-sided and is not used (ERRATA D1).
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        ``"greater"``: b wins more often than a; ``"less"``: fewer.
    convention : {"default", "paper"}
        Recorded only: both conventions use the same formulas here.
    decimals : int or None, default 12
        Scores are rounded to this many decimals before they are compared (None: not rounded).

    Returns
    -------
    TestResult
        ``statistic`` is w′, the (tie-adjusted) number of wins of ``b``; ``n`` is N′;
        ``alternative``; ``details`` has ``wins_b_adjusted``, ``wins_a_adjusted``, ``z``,
        a_wins, ties, b_wins.

    References
    ----------
    Sheskin, D. J. (2000). *Handbook of Parametric and Nonparametric Statistical Procedures*.
    Demšar, J. (2006). JMLR 7, §3.1.4.

    Examples
    --------
    Demšar (2006): C4.5+m wins 11 of 14 (ties split). The exact two-sided p is 0.0574, so the
    difference is *not* significant at 0.05 (the paper's claim uses a one-sided table).

    >>> from rankwise.examples import load_example
    >>> t = load_example("demsar2006_table2")
    >>> r = sign_test(t.values[:, 0], t.values[:, 1])
    >>> r.statistic, r.n, round(r.pvalue, 4)
    (11, 14, 0.0574)
    """
    ties_rule = check.choice("ties", ties, SIGN_TIES)
    method = check.choice("method", method, ("exact", "normal"))
    alternative = check.alternative(alternative)
    convention = check.convention(convention)
    d = differences(a, b, higher_is_better, decimals)
    a_wins, n_ties, b_wins = int((d < 0).sum()), int((d == 0).sum()), int((d > 0).sum())
    share = n_ties // 2 if ties_rule == "split" else 0
    w, l = b_wins + share, a_wins + share
    n = w + l
    notes = []
    z = (w - n / 2.0) / (math.sqrt(n) / 2.0) if n else 0.0
    if n == 0:
        p = 1.0
        notes.append("every data set is a tie: no evidence either way (p = 1)")
    elif method == "exact":
        p = _binomial_pvalue(w, n, alternative)
    else:
        p = _normal_pvalue(z, alternative)
    return TestResult(
        test="sign", statistic=w, pvalue=min(1.0, p), method=method, convention=convention,
        details={"wins_b_adjusted": w, "wins_a_adjusted": l, "n": n, "z": z, "ties_rule": ties_rule,
                 "alternative": alternative, "a_wins": a_wins, "ties": n_ties, "b_wins": b_wins},
        notes=tuple(notes))


@shared_docs
def paired_ttest(a, b, *, higher_is_better: bool = True, relative: bool = False,
                 alternative: str = "two-sided", convention: str = "default",
                 decimals: int | None = DEFAULT_DECIMALS) -> TestResult:
    r"""Paired t-test on the differences d_i = b_i − a_i, or on relative differences.

    .. math:: t = \frac{\bar d}{s_d/\sqrt N} \sim t_{N-1}

    With ``relative=True`` the differences are divided by the mean score,
    d_i = (b_i − a_i) / ((a_i + b_i)/2) (Demšar 2006, §3.1.2), which is undefined where
    a_i + b_i = 0: the result is then NaN and says where. Demšar (2006) advises against the t-test
    over data sets (incommensurable scores, normality, outliers); it is offered for completeness.

    Parameters
    ----------
    {{a_b}}
    {{higher_is_better}}
    relative : bool, default False
        Test the relative differences instead.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        ``"greater"``: b is better than a (in the direction of the scores); ``"less"``: worse.
    convention : {"default", "paper"}
        Recorded only: both conventions use the same formula.
    {{decimals}}

    Returns
    -------
    TestResult
        ``statistic``, ``pvalue``, ``df``, ``method`` (how the p-value was computed),
        ``convention``, ``n``, ``alternative``, ``details`` (``mean_difference``,
        ``sd_difference``, ``relative``; also readable as attributes) and ``notes``.

    Examples
    --------
    The same t as scipy's ``ttest_rel`` (Demšar's Table 6, C4.5+m against C4.5):

    >>> from scipy.stats import ttest_rel
    >>> from rankwise import load_example, paired_ttest
    >>> x = load_example("demsar2006_table6_tiebreak").values
    >>> r = paired_ttest(x[:, 0], x[:, 1])
    >>> round(r.statistic, 6), round(float(ttest_rel(x[:, 1], x[:, 0]).statistic), 6), r.df
    (2.846237, 2.846237, (13,))
    """
    alternative = check.alternative(alternative)
    convention = check.convention(convention)
    x = round_scores(check.score_pair(a, b), decimals)
    d = differences(x[:, 0], x[:, 1], higher_is_better, decimals)
    name = "ttest_relative" if relative else "ttest"
    notes = []
    n = d.size
    if relative:
        mid = (x[:, 0] + x[:, 1]) / 2.0
        bad = np.flatnonzero(mid == 0)
        if bad.size:
            rows = ", ".join(str(i + 1) for i in bad[:5])
            notes.append(f"relative differences undefined where both scores are 0 (rows {rows})")
            return TestResult(test=name, statistic=math.nan, pvalue=math.nan, method="t",
                              convention=convention, df=(n - 1,),
                              details={"mean_difference": math.nan, "n": n,
                                       "alternative": alternative},
                              notes=tuple(notes))
        d = d / np.abs(mid)
    unit, scale = unit_differences(d)
    mean_u, sd_u = float(unit.mean()), float(unit.std(ddof=1))
    mean, sd = mean_u * scale, sd_u * scale
    if sd_u == 0:
        t, p = degenerate_t(mean, alternative)
        notes.append("all differences are equal: the t statistic is degenerate")
    else:
        t = mean_u / (sd_u / math.sqrt(n))
        p = t_pvalue(Distribution(stats.t, n - 1), t, alternative)
    return TestResult(test=name, statistic=t, pvalue=p, method="t", convention=convention,
                      df=(n - 1,), details={"mean_difference": mean, "sd_difference": sd, "n": n,
                                            "relative": relative, "alternative": alternative},
                      notes=tuple(notes))
