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
those of :mod:`rankwise.adjust`, plus ``nemenyi`` (studentized range; rank-based rankings only)
and ``bergmann_hommel`` (:mod:`rankwise.bergmann_hommel`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy import special, stats

from . import _validate as check
from .adjust import ALL_PAIRS_PROCEDURES, CONTROL_PROCEDURES, adjust
from .bergmann_hommel import bergmann_hommel
from .errors import RankwiseError
from .ranking import DEFAULT_DECIMALS, aligned_ranks, midranks, quade_weights, round_scores
from .results import jsonable
from .two_learners import sign_test, wilcoxon

RANKINGS = ("friedman", "friedman_aligned", "quade", "wilcoxon", "sign")
RANK_BASED = ("friedman", "friedman_aligned", "quade")
FAMILIES = ("control", "all_pairs")
RANKING_ALIASES = {"aligned": "friedman_aligned"}
#: The omnibus test that gates each ranking (the papers compute post-hoc tests only after it
#: rejects).
GATES = {"friedman": "iman_davenport", "friedman_aligned": "friedman_aligned", "quade": "quade",
         "wilcoxon": "iman_davenport", "sign": "iman_davenport"}


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


def pairwise_statistics(x, ranking: str = "friedman", *, higher_is_better: bool = True,
                        convention: str = "default", decimals: int | None = DEFAULT_DECIMALS,
                        zero_method: str = "demsar", wilcoxon_method: str = "auto",
                        sign_ties: str = "split") -> PairwiseStatistics:
    """Pairwise statistics and two-sided p-values for every pair of learners."""
    ranking = RANKING_ALIASES.get(ranking, ranking)
    check.choice("ranking", ranking, RANKINGS)
    convention = check.convention(convention)
    x = round_scores(check.score_matrix(x), decimals)
    n, k = x.shape
    if ranking in RANK_BASED:
        scores, se, details = _rank_scores(x, ranking, higher_is_better, convention, decimals)
        z = (scores[:, None] - scores[None, :]) / se if se > 0 else np.zeros((k, k))
        p = np.minimum(1.0, 2 * stats.norm.sf(np.abs(z)))
        np.fill_diagonal(p, 1.0)
        return PairwiseStatistics(ranking, convention, p, z, scores, se, details)
    p = np.ones((k, k))
    stat = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            if ranking == "wilcoxon":
                res = wilcoxon(x[:, i], x[:, j], higher_is_better=higher_is_better,
                               zero_method=zero_method, method=wilcoxon_method,
                               convention=convention, decimals=decimals)
            else:
                res = sign_test(x[:, i], x[:, j], higher_is_better=higher_is_better,
                                ties=sign_ties, convention=convention, decimals=decimals)
            p[i, j] = p[j, i] = res.pvalue
            stat[i, j] = stat[j, i] = res.statistic
    details = ({"zero_method": zero_method, "method": wilcoxon_method} if ranking == "wilcoxon"
               else {"ties_rule": sign_ties})
    return PairwiseStatistics(ranking, convention, p, stat, None, None, details)


def _rank_scores(x, ranking, higher_is_better, convention, decimals):
    """M_j and the standard error of M_a − M_b under H0 for a rank-based ranking."""
    n, k = x.shape
    signed = -x if higher_is_better else x
    if ranking == "friedman":
        r = midranks(signed)
        scores = r.mean(axis=0)
        if convention == "paper":
            se = math.sqrt(k * (k + 1) / (6.0 * n))
        else:
            # Exact permutation variance: within a data set the k mid-ranks are permuted at
            # random, so Var(R_a − R_b) = 2/(n²(k−1)) · Σ_i Σ_j (r_ij − r̄_i)² (no ties: k(k+1)/6n).
            d = float(((r - r.mean(axis=1, keepdims=True)) ** 2).sum())
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
    r = midranks(signed)
    q = quade_weights(x, decimals)
    scores = (q[:, None] * r).sum(axis=0) / (n * (n + 1) / 2.0)
    if convention == "paper":
        se = math.sqrt(k * (k + 1) * (2 * n + 1) * (k - 1) / (18.0 * n * (n + 1)))
    else:
        a2 = float(((q[:, None] * (r - (k + 1) / 2.0)) ** 2).sum())
        se = math.sqrt(2.0 * a2 / (k - 1)) / (n * (n + 1) / 2.0)
    return scores, se, {"se_formula": "sqrt(k(k+1)(2n+1)(k-1)/(18n(n+1)))" if convention == "paper"
                        else "permutation: sqrt(2*A2/(k-1))/(n(n+1)/2)"}


def nemenyi_pvalues(z, k: int) -> np.ndarray:
    """Nemenyi APVs in Demšar's sense: P(Q_{k,∞} ≥ √2·|z|), the studentized range.

    Not the same as García & Herrera's "Nemenyi" (m·p), which is a Bonferroni correction
    (ERRATA GH8); that one is ``bonferroni`` here.
    """
    z = np.abs(np.asarray(z, dtype=float))
    return np.minimum(1.0, stats.studentized_range.sf(math.sqrt(2.0) * z, k, np.inf))


def critical_difference(k: int, n: int, alpha: float = 0.05, method: str = "nemenyi",
                        se: float | None = None) -> tuple:
    """Critical difference of mean ranks, ``(cd, q)``, Demšar (2006) §3.2.2.

    CD = q_α·√(k(k+1)/(6n)) (or q_α·``se``), with q_α = q_{1−α}(k, ∞)/√2 from the studentized
    range (``nemenyi``, all pairs) or z_{1−α/(2(k−1))} (``bonferroni_dunn``, against a control).
    Computed from the distributions, for any α and k.

    >>> round(critical_difference(4, 14, 0.05)[0], 4), round(critical_difference(4, 14, 0.10)[0], 4)
    (1.2536, 1.1181)
    """
    alpha = check.alpha(alpha)
    check.choice("method", method, ("nemenyi", "bonferroni_dunn"))
    if method == "nemenyi":
        q = float(stats.studentized_range.isf(alpha, k, np.inf) / math.sqrt(2.0))
    else:
        q = float(stats.norm.isf(alpha / (2 * (k - 1))))
    se = math.sqrt(k * (k + 1) / (6.0 * n)) if se is None else se
    return q * se, q


def family_pairs(k: int, family: str, control: int | None):
    """Index pairs (a, b) of a family, in the caller's order."""
    if family == "control":
        return [(control, j) for j in range(k) if j != control]
    return [(i, j) for i in range(k) for j in range(i + 1, k)]


def adjusted_pvalues(stat: PairwiseStatistics, family: str, procedures, *, control=None,
                     convention: str = "default", time_budget: float = 10.0):
    """APVs ``{procedure: array}`` over the family's pairs, plus notes and the methods used."""
    k = stat.pvalues.shape[0]
    pairs = family_pairs(k, family, control)
    a = np.array([i for i, _ in pairs])
    b = np.array([j for _, j in pairs])
    p = stat.pvalues[a, b]
    out, notes, used = {}, [], {}
    for proc in procedures:
        if proc == "nemenyi":
            if stat.scores is None:
                notes.append(f"nemenyi needs mean ranks; not available for the {stat.ranking}"
                             " ranking")
                continue
            out[proc] = nemenyi_pvalues(stat.statistics[a, b], k)
        elif proc == "bergmann_hommel":
            res = bergmann_hommel(stat.pvalues, stat.scores, monotone=convention == "paper",
                                  time_budget=time_budget)
            out[proc] = res.apv[a, b]
            used["bergmann_hommel"] = res.method
            notes.extend(res.notes)
        elif proc == "shaffer":
            out[proc] = adjust(p, "shaffer", k=k)
        else:
            out[proc] = adjust(p, proc, convention=convention)
    return pairs, p, out, notes, used


def multiple_sign_test(x, control: int, *, alpha: float = 0.05, higher_is_better: bool = True,
                       decimals: int | None = DEFAULT_DECIMALS) -> dict:
    """Multiple comparison sign test against a control (Steel 1959; García et al. 2010 §3.2).

    For each learner j: pluses = data sets where j beats the control, minuses = where the
    control wins, ties dropped (the papers do not say; ties make the test approximate). With
    r* = the exact one-sided experimentwise critical value for m = k − 1 and n data sets
    (Rhyne & Steel's Table A.1, computed exactly), "control better" is concluded when
    pluses ≤ r*, "control worse" when minuses ≤ r*.
    """
    alpha = check.alpha(alpha)
    x = round_scores(check.score_matrix(x), decimals)
    n, k = x.shape
    d = round_scores(x - x[:, [control]], decimals)
    if not higher_is_better:
        d = -d
    r_star, exact = sign_critical_value(k - 1, n, alpha)
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
    if not exact:
        notes.append("critical value by Monte Carlo (200,000 seeded replicates): m is too large"
                     " for the exact dynamic programme")
    return {"critical_value": r_star, "n": n, "m": k - 1, "alpha": alpha, "exact": exact,
            "comparisons": rows, "notes": notes}


def _min_count_cdf(m: int, n: int, cap: int) -> np.ndarray:
    """P(min_j N⁺_j ≤ r) for r = 0..cap−1 under H0 (m treatments, n blocks; exact DP).

    Under H0 the k values of a block are exchangeable, so its sign vector s ∈ {0,1}^m has
    P(s) = 1/((m+1)·C(m, |s|)). Counts are capped at ``cap``, which keeps every event
    {min ≥ c} with c ≤ cap exact.
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
    return np.array(tail)


def sign_critical_value(m: int, n: int, alpha: float):
    """``(r*, exact)``: the largest r with P(min_j N⁺_j ≤ r) ≤ α (None if even r = 0 fails).

    r* lies below n/2, so one dynamic programme with counts capped at ⌈n/2⌉ + 1 gives every
    candidate r; when that state space is too large a seeded Monte Carlo is used instead.
    """
    cap = n // 2 + 2
    if (cap + 1) ** m * 2 ** m * n <= 3e8:
        probs, exact = _min_count_cdf(m, n, cap), True
    else:
        probs, exact = _min_count_cdf_mc(m, n, cap), False
    ok = np.flatnonzero(probs <= alpha * (1 + 1e-12))
    return (int(ok[-1]) if ok.size else None), exact


def _min_count_cdf_mc(m: int, n: int, cap: int, reps: int = 200_000) -> np.ndarray:
    rng = np.random.default_rng(20100101 + 7919 * m + n)
    lowest = []
    for start in range(0, reps, 10_000):
        size = min(10_000, reps - start)
        vals = rng.random((size, n, m + 1))
        lowest.append((vals[:, :, 1:] > vals[:, :, :1]).sum(axis=1).min(axis=1))
    lowest = np.concatenate(lowest)
    return np.array([(lowest <= r).mean() for r in range(cap)])


def contrast_estimation(x, decimals: int | None = DEFAULT_DECIMALS) -> dict:
    """Contrast estimation based on medians (Doksum 1967; García et al. 2010 §3.3).

    Z_uv = median_i(x_iu − x_iv), m_u = mean_v Z_uv (Z_uu = 0, Z_vu = −Z_uv), and the estimate
    of M_u − M_v is m_u − m_v. A positive value means u has the higher score (whatever the
    direction of the criterion).
    """
    x = round_scores(check.score_matrix(x), decimals)
    n, k = x.shape
    z = np.zeros((k, k))
    for u in range(k):
        for v in range(u + 1, k):
            z[u, v] = np.median(round_scores(x[:, u] - x[:, v], decimals))
            z[v, u] = -z[u, v]
    m = z.mean(axis=1)
    return {"medians": z, "m": m, "estimates": m[:, None] - m[None, :]}


def tukey_dunnett(x, control: int | None, *, alpha: float = 0.05,
                  decimals: int | None = DEFAULT_DECIMALS) -> dict:
    """Tukey (all pairs) and Dunnett (against ``control``) after a repeated-measures ANOVA.

    Both use the ANOVA's error mean square MS_E with (k−1)(n−1) degrees of freedom. Tukey:
    q = |x̄_a − x̄_b| / √(MS_E/n), p = P(Q_{k,df} ≥ q). Dunnett: t = (x̄_j − x̄_c)/√(2MS_E/n),
    p = P(max_j |T_j| ≥ |t|) for k − 1 equicorrelated (ρ = ½) t variables, by quadrature.
    Both assume sphericity (see the ANOVA's notes).
    """
    x = round_scores(check.score_matrix(x), decimals)
    n, k = x.shape
    means = x.mean(axis=0)
    resid = x - x.mean(axis=1, keepdims=True) - means[None, :] + x.mean()
    df = (k - 1) * (n - 1)
    mse = float((resid ** 2).sum()) / df
    tukey = []
    for a, b in family_pairs(k, "all_pairs", None):
        q = abs(means[a] - means[b]) / math.sqrt(mse / n) if mse > 0 else math.inf
        tukey.append({"a": a, "b": b, "difference": means[a] - means[b], "statistic": q,
                      "pvalue": float(stats.studentized_range.sf(q, k, df)) if mse > 0 else 0.0})
    dunnett = []
    if control is not None:
        for a, b in family_pairs(k, "control", control):
            t = (means[b] - means[a]) / math.sqrt(2 * mse / n) if mse > 0 else math.inf
            dunnett.append({"a": a, "b": b, "difference": means[b] - means[a], "statistic": t,
                            "pvalue": dunnett_pvalue(t, k - 1, df)})
    return {"mse": mse, "df": df, "tukey": tukey, "dunnett": dunnett}


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


def resolve_control(control, learners, mean_ranks) -> int:
    """Index of the control: a learner name, or ``None``/``"best"`` for the best mean rank."""
    if control is None or control == "best":
        return int(np.argmin(mean_ranks))  # first of the best on ties (stable)
    if control not in learners:
        raise RankwiseError(f"no learner named {control!r} to use as control; the learners are"
                            f" {', '.join(learners)}")
    return list(learners).index(control)


def check_procedures(procedures, family):
    allowed = CONTROL_PROCEDURES if family == "control" else ALL_PAIRS_PROCEDURES
    if procedures is None:
        return allowed
    chosen = [p for p in procedures if p in allowed]
    unknown = [p for p in procedures if p not in CONTROL_PROCEDURES + ALL_PAIRS_PROCEDURES]
    if unknown:
        raise RankwiseError(f"unknown procedure {unknown[0]!r}; control procedures: "
                            f"{', '.join(CONTROL_PROCEDURES)}; all-pairs procedures: "
                            f"{', '.join(ALL_PAIRS_PROCEDURES)}")
    return tuple(chosen)


def comparisons_json(pairs, p, apvs, stat: PairwiseStatistics, learners) -> list:
    rows = []
    for idx, (a, b) in enumerate(pairs):
        rows.append({"a": learners[a], "b": learners[b],
                     "statistic": stat.statistics[a, b], "pvalue": p[idx],
                     "apv": {proc: vals[idx] for proc, vals in apvs.items()}})
    return jsonable(rows)
