"""Omnibus tests for k learners over n data sets.

Each public function takes an n × k score matrix (rows = data sets, columns = learners) and returns
a :class:`~rankwise.stats.results.TestResult`. The ``_from_*`` helpers take ranks already computed, so
that a full analysis ranks the table once; they are pure and are tested through the public API.

``convention="default"`` uses the exact formulas (tie corrections, the correct aligned-ranks and
Quade statistics); ``convention="paper"`` uses the formulas that produced the published numbers
(see ``docs/reference/friedman.md``, ``aligned-ranks.md``, ``quade.md`` and ``errata.md``).
"""

from __future__ import annotations

import math

import numpy as np
from .._validate import score_input
from scipy import stats

from .. import _validate as check
from ..names import FRIEDMAN_METHODS  # noqa: F401  (re-exported)
from .exact import PERMUTATION_BELOW_N, friedman_permutation_pvalue
from .ranking import DEFAULT_DECIMALS, aligned_ranks, midranks, rank_within_datasets, round_scores
from .results import TestResult
from ._docs import shared_docs

NO_SPREAD = "no learner differs from another on any data set: the statistic is undefined (p = 1)"


@score_input
@shared_docs
def friedman(x, *, higher_is_better: bool | None = None, convention: str = "default",
             decimals: int | None = DEFAULT_DECIMALS, method: str = "auto") -> TestResult:
    r"""Friedman's test on within-data-set ranks.

    Without tie correction (Friedman 1937; the form all three papers print, ``convention="paper"``):

    .. math:: \chi^2_F = \frac{12n}{k(k+1)}\Big[\sum_j R_j^2 - \frac{k(k+1)^2}{4}\Big]

    With tie correction (Conover 1999; the default; equal to the above when there are no ties):

    .. math:: \chi^2_F = \frac{(k-1)\,[\sum_j S_j^2 - nC_1]}{A_1 - C_1},\quad
              A_1 = \sum_{ij} r_{ij}^2,\ C_1 = nk(k+1)^2/4,\ S_j = nR_j

    where R_j is learner j's mean rank over the n data sets. Referred to χ² with k − 1 degrees of
    freedom, or to its permutation distribution (``method``).

    Parameters
    ----------
    {{x}}
    {{higher_is_better}}
    convention : {"default", "paper"}
        ``"default"``: the tie-corrected statistic (scipy's ``friedmanchisquare``). ``"paper"``: the uncorrected statistic, as the papers print it.
    {{decimals}}
    {{friedman_method}}

    Returns
    -------
    TestResult
        ``statistic``, ``pvalue``, ``df``, ``method`` (how the p-value was computed),
        ``convention``, ``n``, ``k``, ``mean_ranks``, ``variant``, ``details`` (its keys also
        readable as attributes) and ``notes``. ``mean_ranks`` are the R_j;
        ``details["pvalue_chi2"]`` keeps the chi-square p-value when another method was used.

    See Also
    --------
    iman_davenport : the F form of the same test, less conservative.
    skillings_mack : the same question for a table with missing cells.

    References
    ----------
    Friedman, M. (1937). J. Am. Stat. Assoc. 32, 675–701. Conover, W. J. (1999). *Practical
    Nonparametric Statistics*, 3rd ed. Demšar, J. (2006). JMLR 7, 1–30, §3.2.2.

    Examples
    --------
    García et al. (2010), Table 3 (4 algorithms, 24 data sets), prints χ²_F = 16.225; scipy's
    tie-corrected statistic on the same table is 16.361:

    >>> from rankwise import friedman, load_example
    >>> t = load_example("garcia2010")
    >>> round(friedman(t.values, convention="paper").statistic, 3)
    16.225
    >>> from scipy.stats import friedmanchisquare
    >>> r = friedman(t.values, method="chi2")
    >>> round(r.statistic, 4), round(float(friedmanchisquare(*t.values.T).statistic), 4)
    (16.3613, 16.3613)
    """
    convention = check.convention(convention)
    x = check.score_matrix(x)
    return friedman_from_ranks(rank_within_datasets(x, higher_is_better, decimals), convention,
                                method)


def friedman_method(method: str, convention: str, n: int) -> str:
    """The p-value method ``auto`` stands for: the published chi-square under the paper
    convention; a permutation p-value (``exact`` when the programme fits, else
    ``monte-carlo``) below ``PERMUTATION_BELOW_N`` data sets; chi-square otherwise."""
    check.choice("friedman_method", method, FRIEDMAN_METHODS)
    if method != "auto":
        return method
    if convention == "paper" or n >= PERMUTATION_BELOW_N:
        return "chi2"
    return "permutation"


def friedman_from_ranks(r: np.ndarray, convention: str, method: str = "auto") -> TestResult:
    n, k = r.shape
    mean_r = r.mean(axis=0)
    uncorrected = 12.0 * n / (k * (k + 1)) * (float((mean_r ** 2).sum()) - k * (k + 1) ** 2 / 4.0)
    c1 = n * k * (k + 1) ** 2 / 4.0
    a1 = float((r ** 2).sum())
    notes = []
    if a1 - c1 <= 1e-9 * c1:
        corrected = 0.0
        notes.append(NO_SPREAD)
    else:
        corrected = (k - 1) * (float(((n * mean_r) ** 2).sum()) - n * c1) / (a1 - c1)
    stat = corrected if convention == "default" else uncorrected
    stat = max(stat, 0.0)
    p = 1.0 if notes else float(stats.chi2.sf(stat, k - 1))
    details = {"variant": "tie-corrected" if convention == "default" else "uncorrected",
               "statistic_uncorrected": uncorrected, "statistic_tie_corrected": corrected,
               "mean_ranks": mean_r, "n": n, "k": k}
    chosen = friedman_method(method, convention, n)
    used = "chi2"
    if chosen != "chi2" and not notes:
        perm = friedman_permutation_pvalue(
            r, method="auto" if chosen == "permutation" else chosen)
        details.update({"pvalue_chi2": p, "monte_carlo_replicates": perm["replicates"],
                        "monte_carlo_standard_error": perm["standard_error"]})
        p, used = perm["pvalue"], perm["method"]
    return TestResult(
        test="friedman", statistic=stat, pvalue=p, method=used, convention=convention,
        df=(k - 1,), details=details,
        notes=tuple(notes))


@score_input
@shared_docs
def iman_davenport(x, *, higher_is_better: bool | None = None, convention: str = "default",
                   decimals: int | None = DEFAULT_DECIMALS, method: str = "auto") -> TestResult:
    r"""Iman-Davenport's F correction of Friedman's χ² (Iman & Davenport 1980).

    .. math:: F_F = \frac{(n-1)\chi^2_F}{n(k-1) - \chi^2_F}

    referred to F(k − 1, (k − 1)(n − 1)), or with ``method`` to the permutation distribution
    (F increases with χ²_F, so the p-value is Friedman's). χ²_F is Friedman's statistic in the
    same convention: tie-corrected by default, which makes F_F the two-way ANOVA F on the ranks.
    García et al. (2010), eq. (2), lost the minus sign in print (ERRATA G1).

    Parameters
    ----------
    {{x}}
    {{higher_is_better}}
    convention : {"default", "paper"}
        ``"default"``: from the tie-corrected χ²_F. ``"paper"``: from the uncorrected χ²_F, as the papers print it.
    {{decimals}}
    {{friedman_method}}

    Returns
    -------
    TestResult
        ``statistic``, ``pvalue``, ``df``, ``method`` (how the p-value was computed),
        ``convention``, ``details`` (also readable as attributes) and ``notes``. ``df`` is (k − 1, (k − 1)(n − 1)).

    See Also
    --------
    friedman

    References
    ----------
    Iman, R. L. and Davenport, J. M. (1980). Commun. Stat. Theory Methods 9, 571–595.
    Demšar, J. (2006). JMLR 7, 1–30, §3.2.2.

    Examples
    --------
    García et al. (2010), Table 3: F_F = 6.691 with p = 4.97e-4.

    >>> from rankwise import iman_davenport, load_example
    >>> t = load_example("garcia2010")
    >>> r = iman_davenport(t.values, convention="paper")
    >>> round(r.statistic, 3), f"{r.pvalue:.2e}", r.df
    (6.691, '4.97e-04', (3, 69))
    """
    convention = check.convention(convention)
    x = check.score_matrix(x)
    fried = friedman_from_ranks(rank_within_datasets(x, higher_is_better, decimals), convention,
                                 method)
    return iman_davenport_from_friedman(fried)


def iman_davenport_from_friedman(fried: TestResult) -> TestResult:
    n, k = fried.n, fried.k
    chi2 = fried.statistic
    df = (k - 1, (k - 1) * (n - 1))
    denom = n * (k - 1) - chi2
    notes = list(fried.notes)
    method = "F"
    if notes:
        f, p = 0.0, 1.0
    elif denom <= 1e-12 * n * (k - 1):
        # F is infinite; the exact permutation probability of this extreme (every data set
        # ranking the learners identically, no ties) is (1/k!)^(n−1), never 0.
        f = math.inf
        p = float(math.factorial(k) ** -(n - 1)) if k < 170 else 0.0
        method = "exact"
        notes.append("every data set ranks the learners identically: F is infinite and p is"
                     " the exact probability (1/k!)^(n-1) of that agreement")
    else:
        f = (n - 1) * chi2 / denom
        p = float(stats.f.sf(f, *df))
    details = {"friedman_statistic": chi2, "variant": fried.variant,
               "mean_ranks": fried.mean_ranks, "n": n, "k": k}
    if fried.method != "chi2" and math.isfinite(f) and not fried.notes:
        # F increases with Friedman's statistic: the same permutation p-value
        details.update({"pvalue_F": p,
                        "monte_carlo_replicates": fried.details["monte_carlo_replicates"],
                        "monte_carlo_standard_error":
                            fried.details["monte_carlo_standard_error"]})
        p, method = fried.pvalue, fried.method
    return TestResult(test="iman_davenport", statistic=f, pvalue=p, method=method,
                      convention=fried.convention, df=df, details=details,
                      notes=tuple(notes))


@score_input
@shared_docs
def friedman_aligned(x, *, higher_is_better: bool | None = None, convention: str = "default",
                     decimals: int | None = DEFAULT_DECIMALS) -> TestResult:
    r"""Friedman aligned-ranks test (Hodges & Lehmann 1962; García et al. 2010, §4.1).

    Each data set's mean is subtracted, the kn aligned values are ranked together (1 = best), and
    with algorithm totals R̂_j and data-set totals R̂_i:

    .. math:: T = \frac{(k-1)\,[\sum_j \hat R_j^2 - (kn^2/4)(kn+1)^2]}
                  {\sum_{ij}\hat r_{ij}^2 - \frac1k \sum_i \hat R_i^2}

    referred to χ² with k − 1 degrees of freedom.

    Parameters
    ----------
    {{x}}
    {{higher_is_better}}
    convention : {"default", "paper"}
        ``"default"``: the formula above with the actual Σr̂² (exact with ties). ``"paper"``: KEEL's formula behind García et al.'s printed 18.837, with a misplaced 1/k (ERRATA G2): (k−1)[ΣR̂_j²/k − (kn²/4)(kn+1)²] / (kn(kn+1)(2kn+1)/6 − ΣR̂_i²).
    {{decimals}}

    Returns
    -------
    TestResult
        ``statistic``, ``pvalue``, ``df``, ``method`` (how the p-value was computed),
        ``convention``, ``n``, ``k``, ``mean_ranks``, ``variant``, ``details`` (its keys also
        readable as attributes) and ``notes``. ``mean_ranks`` are the mean aligned ranks
        R̂_j/n and ``rank_totals`` the R̂_j.

    References
    ----------
    Hodges, J. L. and Lehmann, E. L. (1962). Ann. Math. Stat. 33, 482–497. García, S. et al.
    (2010). Inf. Sci. 180, 2044–2064, §4.1.

    Examples
    --------
    García et al. (2010), Table 3. From the paper's own rank totals the published formula gives
    22.290 (the printed 18.837 is ERRATA G2); from the bundled table, whose accuracies are rounded,
    the totals differ slightly (ERRATA G20):

    >>> from rankwise import friedman_aligned, load_example
    >>> r = friedman_aligned(load_example("garcia2010").values)
    >>> r.rank_totals.tolist(), round(r.statistic, 3), r.df
    ([704.5, 1122.5, 1127.0, 1702.0], 22.268, (3,))
    """
    convention = check.convention(convention)
    x = check.score_matrix(x)
    return aligned_from_ranks(aligned_ranks(x, higher_is_better, decimals), convention)


def aligned_from_ranks(r: np.ndarray, convention: str) -> TestResult:
    n, k = r.shape
    col = r.sum(axis=0)
    row = r.sum(axis=1)
    stat, denom = _aligned_statistic(col, row, float((r ** 2).sum()), n, k, convention)
    notes = []
    if denom <= 0 and convention == "default":
        stat, p = 0.0, 1.0
        notes.append(NO_SPREAD)
    else:
        p = float(stats.chi2.sf(stat, k - 1))
    return TestResult(test="friedman_aligned", statistic=stat, pvalue=p, method="chi2",
                      convention=convention, df=(k - 1,),
                      details={"variant": "tie-corrected" if convention == "default" else "keel",
                               "mean_ranks": col / n, "rank_totals": col, "denominator": denom,
                               "n": n, "k": k},
                      notes=tuple(notes))


def _aligned_statistic(col_totals, row_totals, sum_sq: float, n: int, k: int, convention: str):
    """T and its denominator from the algorithm totals, block totals and Σ r̂² (pure formula)."""
    col_totals = np.asarray(col_totals, dtype=float)
    row_totals = np.asarray(row_totals, dtype=float)
    kn = k * n
    centre = (k * n ** 2 / 4.0) * (kn + 1) ** 2
    if convention == "paper":
        num = (k - 1) * (float((col_totals ** 2).sum()) / k - centre)
        denom = kn * (kn + 1) * (2 * kn + 1) / 6.0 - float((row_totals ** 2).sum())
    else:
        num = (k - 1) * (float((col_totals ** 2).sum()) - centre)
        denom = sum_sq - float((row_totals ** 2).sum()) / k
    if abs(denom) <= 1e-12 * max(1.0, sum_sq):
        return 0.0, 0.0
    return num / denom, denom


@score_input
@shared_docs
def quade(x, *, higher_is_better: bool | None = None, convention: str = "default",
          decimals: int | None = DEFAULT_DECIMALS) -> TestResult:
    r"""Quade's test (Quade 1979; Conover 1999; García et al. 2010, §4.2).

    Within-data-set ranks r_ij (1 = best) are weighted by Q_i, the rank of data set i's sample
    range: S_ij = Q_i (r_ij − (k+1)/2), S_j = Σ_i S_ij, A₂ = Σ S_ij², B = Σ_j S_j² / n and

    .. math:: T_3 = \frac{(n-1)B}{A_2 - B} \sim F(k-1, (k-1)(n-1)).

    Parameters
    ----------
    {{x}}
    {{higher_is_better}}
    convention : {"default", "paper"}
        ``"default"``: A₂ = ΣS_ij² (exact with ties). ``"paper"``: García et al.'s printed 21.967: the no-ties A₂ = n(n+1)(2n+1)k(k+1)(k−1)/72 and KEEL's integer centring ⌊(k+1)/2⌋ (ERRATA G6, G8), which inflates T₃ for even k.
    {{decimals}}

    Returns
    -------
    TestResult
        ``statistic``, ``pvalue``, ``df``, ``method`` (how the p-value was computed),
        ``convention``, ``n``, ``k``, ``mean_ranks``, ``variant``, ``details`` (its keys also
        readable as attributes) and ``notes``. ``mean_ranks`` are Quade's
        T_j = W_j / (n(n+1)/2) with W_j = Σ_i Q_i r_ij.

    References
    ----------
    Quade, D. (1979). J. Am. Stat. Assoc. 74, 680–683. Conover, W. J. (1999). *Practical
    Nonparametric Statistics*, 3rd ed., §5.8.

    Examples
    --------
    García et al. (2010), Table 3 (the paper's 21.967 is ERRATA G6). R's ``quade.test`` on the
    bundled table gives F = 11.767:

    >>> from rankwise import load_example, quade
    >>> r = quade(load_example("garcia2010").values)
    >>> round(r.statistic, 3), r.df
    (11.767, (3, 69))
    """
    convention = check.convention(convention)
    x = check.score_matrix(x)
    xr = round_scores(x, decimals)
    r = rank_within_datasets(xr, higher_is_better, None)
    q = midranks(round_scores(xr.max(axis=1) - xr.min(axis=1), decimals))
    return quade_from_ranks(r, q, convention)


def quade_from_ranks(r: np.ndarray, q: np.ndarray, convention: str) -> TestResult:
    n, k = r.shape
    centre = (k + 1) // 2 if convention == "paper" else (k + 1) / 2.0
    # The products q·(r − centre), their squares and q·r, one buffer in turn.
    s = r - centre
    np.multiply(q[:, None], s, out=s)
    s_j = s.sum(axis=0)
    if convention == "paper":
        a2 = n * (n + 1) * (2 * n + 1) * k * (k + 1) * (k - 1) / 72.0
    else:
        a2 = float(np.square(s, out=s).sum())
    w_j = np.multiply(q[:, None], r, out=s).sum(axis=0)
    del s
    b = float((s_j ** 2).sum()) / n
    df = (k - 1, (k - 1) * (n - 1))
    notes = []
    if a2 <= 1e-12:
        stat, p = 0.0, 1.0
        notes.append(NO_SPREAD)
    elif a2 - b <= 1e-12 * a2:
        # Perfect agreement between data sets: Conover's exact p for this extreme.
        stat, p = math.inf, float(math.factorial(k) ** -(n - 1)) if k < 170 else 0.0
        notes.append("every data set ranks the learners identically: p = (1/k!)^(n-1)")
    else:
        stat = (n - 1) * b / (a2 - b)
        p = float(stats.f.sf(stat, *df))
    return TestResult(test="quade", statistic=stat, pvalue=p, method="F", convention=convention,
                      df=df,
                      details={"variant": "tie-corrected" if convention == "default" else "keel",
                               "mean_ranks": w_j / (n * (n + 1) / 2.0), "s": s_j, "a2": a2, "b": b,
                               "n": n, "k": k},
                      notes=tuple(notes))


# The names of rankwise 0.5 (private then, imported by other modules), kept for one release.
_friedman_from_ranks, _iman_davenport_from_friedman = friedman_from_ranks, iman_davenport_from_friedman
_aligned_from_ranks, _quade_from_ranks = aligned_from_ranks, quade_from_ranks
