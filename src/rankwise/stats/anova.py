"""The ANOVA family: repeated-measures ANOVA with its sphericity checks, and the Tukey (all
pairs) and Dunnett (against a control) comparisons built on its error mean square.

Numbers in, result objects out. Formulas and cross-checks: ``docs/reference/anova.md``.
"""

from __future__ import annotations

import math
from .._validate import score_input
from dataclasses import dataclass

import numpy as np
from scipy import special, stats

from .. import _validate as check
from .omnibus import NO_SPREAD
from .pairwise import family_pairs
from .ranking import DEFAULT_DECIMALS, round_scores
from .results import AttributesOnly, TestResult
from ._docs import shared_docs


#: From this many scores on, the learners' covariance is computed on one BLAS thread: the
#: product is a few hundred milliseconds on one core, and BLAS threads that wait for a busy
#: second core (the analysis' own other thread, or other programs) cost seconds. The same
#: numbers: OpenBLAS splits a product between threads by rows and columns of the result, never
#: along the sum, so each entry adds the same terms in the same order.
ONE_BLAS_THREAD_MIN_CELLS = 1_000_000


def _covariance(x: np.ndarray) -> np.ndarray:
    """The k × k covariance of the learners' scores (columns), ``np.cov``."""
    if x.size < ONE_BLAS_THREAD_MIN_CELLS:
        return np.cov(x, rowvar=False, ddof=1)
    from .threads import one_blas_thread

    with one_blas_thread():
        return np.cov(x, rowvar=False, ddof=1)


@score_input
@shared_docs
def rm_anova(x, *, convention: str = "default", alpha: float = 0.05,
             decimals: int | None = DEFAULT_DECIMALS) -> TestResult:
    r"""One-way repeated-measures ANOVA (data sets are the subjects, learners the treatment).

    .. math:: F = \frac{MS_{learners}}{MS_{error}} \sim F(k-1, (k-1)(n-1))

    Sphericity is checked with Mauchly's test, and the degrees of freedom are corrected with the
    Greenhouse-Geisser ε (Huynh-Feldt ε is reported as well). Notes warn when Mauchly's test rejects
    sphericity at ``alpha`` or when the residuals look non-normal (Shapiro-Wilk, for n·k ≤ 5000).
    The direction of the scores does not matter.

    Parameters
    ----------
    {{x}}
    convention : {"default", "paper"}
        ``"default"``: the Greenhouse-Geisser corrected p-value (valid whether or not sphericity holds). ``"paper"``: the uncorrected p (Fisher's classic test, as in Demšar 2006 §3.2.1).
    alpha : float, default 0.05
        Level of the assumption checks behind the notes.
    {{decimals}}

    Returns
    -------
    TestResult
        ``statistic``, ``pvalue``, ``df``, ``method`` (how the p-value was computed),
        ``convention``, ``details`` (also readable as attributes) and ``notes``. ``details`` has both p-values, both ε, Mauchly's W and p, the
        Shapiro-Wilk p and the learners' means.

    References
    ----------
    Fisher, R. A. (1959). *Statistical Methods, Experimental Design and Scientific Inference*.
    Greenhouse, S. W. and Geisser, S. (1959). Psychometrika 24, 95–112. Mauchly, J. W. (1940).
    Ann. Math. Stat. 11, 204–209.

    Examples
    --------
    García et al. (2010), Table 3; the F statistic equals statsmodels' ``AnovaRM`` (checked in the
    tests), and the residuals are far from normal, which the notes say:

    >>> from rankwise import load_example, rm_anova
    >>> r = rm_anova(load_example("garcia2010").values)
    >>> round(r.statistic, 4), r.df, round(r.pvalue, 4), r.details["variant"]
    (5.8271, (3, 69), 0.0036, 'greenhouse-geisser')
    """
    convention = check.convention(convention)
    alpha = check.alpha(alpha)
    x = check.score_matrix(x)
    if decimals is not None:  # x is only read below, so unrounded scores need no copy
        x = round_scores(x, decimals)
    n, k = x.shape
    # F, ε, Mauchly's W and the normality check do not depend on the unit, so scores above
    # about 1e150 (whose squares overflow) are divided by their largest magnitude first; the
    # reported means and sums of squares are given back in the scores' own unit.
    unit = float(np.abs(x).max()) if x.size else 0.0
    if not 1e150 <= unit < math.inf:
        unit = 1.0
    if unit != 1.0:
        x = x / unit
    grand = x.mean()
    col_means = x.mean(axis=0)
    row_means = x.mean(axis=1)
    ss_learners = n * float(((col_means - grand) ** 2).sum())
    # The same operations as (x − row − col + grand)², done in one buffer.
    resid = x - row_means[:, None]
    resid -= col_means[None, :]
    resid += grand
    small = n * k <= 5000  # the residuals are kept for the normality check
    # With fewer data sets than learners Mauchly's test cannot be computed, and ε comes from
    # the n × n Gram matrix of the residuals instead of the k × k covariance (800 MB at
    # k = 10,000): both have the same non-zero eigenvalues.
    gram = k > 2 and n < k
    squares = np.square(resid, out=None if small or gram else resid)
    ss_error = float(squares.sum())
    del squares
    if not (small or gram):
        del resid
    cov = _covariance(x) if k > 2 and not gram else None
    df1, df2 = k - 1, (k - 1) * (n - 1)
    notes = []
    # Σx² ≤ n·k·max x², so the sum is needed only when the residual is that small
    biggest = float(np.abs(x).max()) if x.size else 0.0
    if ss_error <= 1e-24 * max(1.0, n * k * biggest ** 2) and \
            ss_error <= 1e-24 * max(1.0, float((x ** 2).sum())):
        if ss_learners <= 0:
            f, p_raw = 0.0, 1.0
            notes.append(NO_SPREAD)
        else:
            f, p_raw = math.inf, 0.0
            notes.append("no residual variance: F is infinite")
        eps_gg = eps_hf = 1.0
    else:
        f = (ss_learners / df1) / (ss_error / df2)
        p_raw = float(stats.f.sf(f, df1, df2))
        eps_gg, eps_hf = _sphericity_epsilons(x, cov, resid if gram else None)
    p_gg = float(stats.f.sf(f, df1 * eps_gg, df2 * eps_gg)) if math.isfinite(f) else p_raw
    p_hf = float(stats.f.sf(f, df1 * eps_hf, df2 * eps_hf)) if math.isfinite(f) else p_raw
    mauchly_w, mauchly_p = _mauchly(x, cov)
    if mauchly_p is not None and mauchly_p <= alpha:
        notes.append(f"sphericity is doubtful (Mauchly's W = {mauchly_w:.4g}, p = {mauchly_p:.3g});"
                     + (" the reported p-value is Greenhouse-Geisser corrected"
                        if convention == "default" else
                        " the reported p-value is uncorrected (convention 'paper'); see"
                        " pvalue_greenhouse_geisser"))
    if mauchly_p is None and k > 2:
        notes.append("Mauchly's test needs more data sets than learners; sphericity not checked")
    normal_p = None
    if small and n * k >= 3 and ss_error > 0 and np.ptp(resid) > 0:
        normal_p = float(stats.shapiro(resid.ravel()).pvalue)
        if normal_p <= alpha:
            notes.append(f"residuals depart from normality (Shapiro-Wilk p = {normal_p:.3g});"
                         " prefer the Friedman test")
    p = p_gg if convention == "default" else p_raw
    return TestResult(
        test="anova", statistic=f, pvalue=p, method="F", convention=convention, df=(df1, df2),
        details={"variant": "greenhouse-geisser" if convention == "default" else "uncorrected",
                 "pvalue_uncorrected": p_raw, "pvalue_greenhouse_geisser": p_gg,
                 "pvalue_huynh_feldt": p_hf, "epsilon_greenhouse_geisser": eps_gg,
                 "epsilon_huynh_feldt": eps_hf, "mauchly_w": mauchly_w, "mauchly_pvalue": mauchly_p,
                 "shapiro_pvalue": normal_p, "means": col_means * unit,
                 "ss_learners": _times_square(ss_learners, unit),
                 "ss_error": _times_square(ss_error, unit), "n": n, "k": k},
        notes=tuple(notes))



def _times_square(value: float, unit: float) -> float:
    """value · unit², inf when that is beyond the floats (then the JSON shows null)."""
    with np.errstate(over="ignore"):
        return float(np.float64(value) * unit * unit)


def _double_centred(s: np.ndarray) -> np.ndarray:
    return s - s.mean(axis=0)[None, :] - s.mean(axis=1)[:, None] + s.mean()



def _sphericity_epsilons(x: np.ndarray, cov: np.ndarray | None, resid=None):
    """Greenhouse-Geisser and Huynh-Feldt ε (one within-subject factor).

    ε_GG = tr(S)² / ((k − 1)·ΣS²), S the double-centred covariance. S = YᵀY/(n − 1) with Y the
    double-centred data (the residuals ``resid``), so tr(S) = ΣY²/(n − 1) and ΣS² = Σ(YYᵀ)²/
    (n − 1)²: given ``resid``, ε comes from the n × n matrix YYᵀ, O(n²k) work instead of
    O(nk²) and n² numbers instead of k² (the tests check both forms against each other).
    """
    n, k = x.shape
    if k == 2:
        return 1.0, 1.0
    if resid is not None:
        g = resid @ resid.T
        trace = float(np.trace(g))
        denom = (k - 1) * float((g ** 2).sum())
        gg = float(trace ** 2 / denom) if denom > 0 else 1.0
    else:
        s = _double_centred(cov)
        denom = (k - 1) * float((s ** 2).sum())
        gg = float(np.trace(s) ** 2 / denom) if denom > 0 else 1.0
    gg = min(max(gg, 1.0 / (k - 1)), 1.0)
    hf_den = (k - 1) * (n - 1 - (k - 1) * gg)
    hf = (n * (k - 1) * gg - 2) / hf_den if hf_den > 0 else 1.0
    return gg, float(min(max(hf, gg), 1.0))



def _mauchly(x: np.ndarray, cov: np.ndarray):
    """Mauchly's W and p-value; (1, 1) for k = 2, (None, None) when it cannot be computed."""
    n, k = x.shape
    p = k - 1
    if k == 2:
        return 1.0, 1.0
    if n - 1 < p:
        return None, None
    # Orthonormal contrasts (Helmert); W does not depend on which orthonormal basis is used.
    helm = np.zeros((k, p))
    for j in range(1, k):
        helm[:j, j - 1] = 1.0
        helm[j, j - 1] = -j
        helm[:, j - 1] /= math.sqrt(j * (j + 1))
    sc = helm.T @ cov @ helm
    tr = float(np.trace(sc))
    if tr <= 0:
        return None, None
    sign, logdet = np.linalg.slogdet(sc)
    if sign <= 0:
        return 0.0, 0.0
    log_w = logdet - p * math.log(tr / p)
    w = math.exp(log_w)
    f = 1.0 - (2 * p * p + p + 2) / (6.0 * p * (n - 1))
    chi2 = -f * (n - 1) * log_w
    dof = p * (p + 1) / 2 - 1
    return w, float(stats.chi2.sf(chi2, dof))


@dataclass(frozen=True)
class TukeyDunnett(AttributesOnly):
    """Tukey's and Dunnett's comparisons after a repeated-measures ANOVA: the error mean square
    ``mse`` and its ``df``, ``tukey`` (one dict per pair: ``a``, ``b``, ``difference``,
    ``statistic``, ``pvalue``) and ``dunnett`` (one per learner against the control).

    Examples
    --------
    >>> from rankwise import load_example, tukey_dunnett
    >>> res = tukey_dunnett(load_example("garcia2008"), 0)
    >>> res.df, [round(c['pvalue'], 4) for c in res.dunnett]
    (116, [0.0135, 0.9004, 0.0, 0.3691])
    """

    mse: float
    df: int
    tukey: tuple
    dunnett: tuple

    def to_dict(self) -> dict:
        return {"mse": self.mse, "df": self.df, "tukey": [dict(r) for r in self.tukey],
                "dunnett": [dict(r) for r in self.dunnett]}


@score_input
@shared_docs
def tukey_dunnett(x, control: int | None, *, alpha: float = 0.05,
                  decimals: int | None = DEFAULT_DECIMALS) -> TukeyDunnett:
    """Tukey (all pairs) and Dunnett (against a control) after a repeated-measures ANOVA.

    Both use the ANOVA's error mean square MS_E with (k−1)(n−1) degrees of freedom. Tukey:
    q = abs(x̄_a − x̄_b) / √(MS_E/n), p = P(Q_{k,df} ≥ q). Dunnett: t = (x̄_j − x̄_c)/√(2MS_E/n),
    p = P(max_j abs(T_j) ≥ abs(t)) for k − 1 equicorrelated (ρ = ½) t variables, by quadrature.
    Both assume sphericity (see :func:`rm_anova`'s notes).

    Parameters
    ----------
    {{x}}
    control : int or None
        Column of the control for Dunnett's test (None: Tukey only).
    alpha : float, default 0.05
        Level, recorded in the result.
    {{decimals}}

    Returns
    -------
    TukeyDunnett
        ``mse``, ``df``, ``tukey`` (one dict per pair: ``a``, ``b``, ``difference``,
        ``statistic``, ``pvalue``) and ``dunnett`` (one per learner against the control);
        rankwise 0.5 returned them as a dict, whose access keeps working for one release with
        a DeprecationWarning.

    References
    ----------
    Tukey, J. W. (1953). *The problem of multiple comparisons*. Dunnett, C. W. (1955). J. Am.
    Stat. Assoc. 50, 1096–1121.

    Examples
    --------
    The Tukey p-value is scipy's studentized-range tail at the ANOVA's degrees of freedom:

    >>> import numpy as np
    >>> from scipy.stats import studentized_range
    >>> from rankwise import load_example, tukey_dunnett
    >>> x = load_example("garcia2010").values
    >>> res = tukey_dunnett(x, 0)
    >>> first = res.tukey[0]
    >>> q = abs(x[:, 0].mean() - x[:, 1].mean()) / np.sqrt(res.mse / len(x))
    >>> bool(np.isclose(first["pvalue"], studentized_range.sf(q, 4, res.df)))
    True
    """
    x = round_scores(check.score_matrix(x), decimals)
    n, k = x.shape
    means = x.mean(axis=0)
    resid = x - x.mean(axis=1, keepdims=True) - means[None, :] + x.mean()
    df = (k - 1) * (n - 1)
    mse = float((resid ** 2).sum()) / df
    tukey = []
    for a, b in family_pairs(k, "all_pairs", None).tolist():
        q = abs(means[a] - means[b]) / math.sqrt(mse / n) if mse > 0 else math.inf
        tukey.append({"a": a, "b": b, "difference": means[a] - means[b], "statistic": q,
                      "pvalue": float(stats.studentized_range.sf(q, k, df)) if mse > 0 else 0.0})
    dunnett = []
    if control is not None:
        for a, b in family_pairs(k, "control", control).tolist():
            t = (means[b] - means[a]) / math.sqrt(2 * mse / n) if mse > 0 else math.inf
            dunnett.append({"a": a, "b": b, "difference": means[b] - means[a], "statistic": t,
                            "pvalue": dunnett_pvalue(t, k - 1, df)})
    return TukeyDunnett(mse, df, tuple(tukey), tuple(dunnett))



_GH_U, _GH_W = np.polynomial.hermite_e.hermegauss(96)



_GH_W = _GH_W / _GH_W.sum()



def dunnett_pvalue(t: float, m: int, df: float) -> float:
    """Two-sided P(max_{j≤m} |T_j| ≥ |t|) for Dunnett's equicorrelated (ρ = ½) t statistics.

    T_j = (Z_j − Z_0)/(√2·s) with Z iid N(0, 1) and s² ~ χ²_df/df. Given Z_0 = u and s, a
    comparison stays below c with probability 1 − q, q = Φ(u − √2cs) + Φ(−u − √2cs), so
    P(max|T_j| ≥ c) = E_s ∫ φ(u) [1 − (1 − q)^m] du, computed without cancellation
    (−expm1(m·log1p(−q))): Gauss-Hermite in u, adaptive quadrature over the density of s.
    With m = 1 it is exactly the two-sided t-test p-value.
    """
    from scipy import integrate

    c = abs(float(t))
    if not math.isfinite(c):
        return 0.0

    def given_s(s):
        a = math.sqrt(2.0) * c * s
        q = special.ndtr(_GH_U - a) + special.ndtr(-_GH_U - a)
        with np.errstate(divide="ignore"):  # q = 1: log(0) = -inf, and the term is exactly 1
            return float((_GH_W * -np.expm1(m * np.log1p(-np.minimum(q, 1.0)))).sum())

    if not math.isfinite(df):
        p = given_s(1.0)
    else:
        dist = stats.chi(df, scale=1.0 / math.sqrt(df))
        lo, hi = dist.ppf(1e-14), dist.isf(1e-14)
        p, _ = integrate.quad(lambda s: given_s(s) * dist.pdf(s), lo, hi, epsabs=1e-13,
                              epsrel=1e-9, limit=200)
    return float(min(1.0, max(0.0, p)))
