"""Scott-Knott rank groups with the effect-size correction (Scott-Knott ESD).

Scott & Knott (1974) split the learners, sorted by mean, into two contiguous parts where the
between-part sum of squares B0 is largest, and keep the split when the likelihood-ratio statistic

    λ = π·B0 / (2(π − 2)·σ̂0²),   σ̂0² = (Σ(m_i − m̄)² + v·s²_m) / (g + v)

exceeds the χ² quantile with g/(π − 2) degrees of freedom (g means in the part, s²_m = MSE/n the
variance of a mean, v the error degrees of freedom); each part is split again the same way. The
ANOVA is the one-way ``value ~ learner`` of the ScottKnottESD package (data sets are the
replicates, not blocks). Tantithamthavorn et al. (TSE 2017), as the 1.x releases of their
ScottKnottESD R package compute it, then merge two adjacent learners of different groups
(in order of mean) when Cohen's d between them is negligible (|d| < 0.2; pooled SD, unpaired,
as ``effsize::cohen.d``), which renumbers every later group. rankwise follows the 1.x releases:
the 2.x releases dropped the likelihood-ratio test and split on effect size alone.

``version="p"`` works on the scores; ``version="np"`` on each data set's ranks (rank 1 = best,
used as k + 1 − rank so that larger is better), which needs no commensurable scores.
"""

from __future__ import annotations

import math
from .._validate import score_input
from dataclasses import dataclass

import numpy as np
from scipy import stats

from ..defaults import DEFAULT_DECIMALS, DEFAULT_SEED
from .. import _validate as check
from ..stats._docs import shared_docs
from ..stats.effects import dominance_counts
from ..stats.ranking import midranks, round_scores
from ..stats.results import jsonable

#: |Cohen's d| below this is negligible (Cohen 1988; effsize's thresholds).
NEGLIGIBLE_D = 0.2
SK_VERSIONS = ("p", "np")


@dataclass(frozen=True)
class RankGroups:
    """Groups of learners, best first; ``rank[j]`` is learner j's group (1 = best)."""

    method: str
    version: str
    alpha: float
    learners: tuple
    order: tuple  # learners by mean, best first
    means: np.ndarray  # of the values the groups were built on
    rank: np.ndarray
    original: np.ndarray  # Scott-Knott's groups before the effect-size merge
    merged: tuple  # (learner above, learner below, Cohen's d) of each merge

    @property
    def groups(self) -> list:
        out = []
        for g in range(1, int(self.rank.max()) + 1):
            members = [j for j in self.order if self.rank[j] == g]
            out.append({"rank": g, "learners": [self.learners[j] for j in members],
                        "means": [float(self.means[j]) for j in members]})
        return out

    def sentence(self) -> str:
        parts = "; ".join(f"{g['rank']}: {', '.join(g['learners'])}" for g in self.groups)
        if self.method == "scott-knott-bootstrap":
            return (f"Scott-Knott groups (bootstrap test at alpha = {self.alpha} and A12 on the"
                    f" per-fold results), best first: {parts}.")
        what = "scores" if self.version == "p" else "per-data-set ranks"
        return (f"Scott-Knott ESD groups (on the {what}, alpha = {self.alpha}; adjacent groups"
                f" merged where Cohen's d < {NEGLIGIBLE_D}), best first: {parts}.")

    def to_dict(self) -> dict:
        return jsonable({"method": self.method, "version": self.version, "alpha": self.alpha,
                         "groups": self.groups,
                         "rank": dict(zip(self.learners, self.rank.tolist())),
                         "original_rank": dict(zip(self.learners, self.original.tolist())),
                         "merged": [{"above": a, "below": b, "cohens_d": d}
                                    for a, b, d in self.merged]})


def cohens_d(a, b) -> float:
    """Cohen's d of two unpaired samples with the pooled standard deviation."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    na, nb = len(a), len(b)
    pooled = ((na - 1) * a.var(ddof=1) + (nb - 1) * b.var(ddof=1)) / (na + nb - 2)
    diff = a.mean() - b.mean()
    if pooled <= 0:
        return 0.0 if diff == 0 else math.copysign(math.inf, diff)
    return float(diff / math.sqrt(pooled))


def best_split(means: np.ndarray) -> tuple:
    """``(index, B0)``: the split of sorted ``means`` after position index that maximises the
    between-part sum of squares (the first on ties), by prefix sums."""
    g = len(means)
    c = np.cumsum(means)
    left = np.arange(1, g)
    t1 = c[:-1]
    t2 = c[-1] - t1
    b0 = t1 ** 2 / left + t2 ** 2 / (g - left) - c[-1] ** 2 / g
    i = int(np.argmax(b0))
    return i, float(b0[i])


def split_is_significant(means: np.ndarray, b0: float, mmse: float, dfr: int,
                         alpha: float) -> bool:
    g = len(means)
    sigma2 = (float(((means - means.mean()) ** 2).sum()) + dfr * mmse) / (g + dfr)
    if sigma2 <= 0:
        return b0 > 0
    lam = math.pi * b0 / (2 * (math.pi - 2) * sigma2)
    return bool(stats.chi2.sf(lam, g / (math.pi - 2)) < alpha)


def scott_knott_groups(sorted_means: np.ndarray, mmse: float, dfr: int, alpha: float) -> list:
    """Group number (1 = first) of each of ``sorted_means``, by Scott & Knott's recursion."""
    g = len(sorted_means)
    out = [0] * g
    count = 0
    stack = [(0, g)]
    while stack:  # pre-order: the better part is numbered first
        lo, hi = stack.pop()
        part = sorted_means[lo:hi]
        if hi - lo >= 2:
            i, b0 = best_split(part)
            if split_is_significant(part, b0, mmse, dfr, alpha):
                stack.append((lo + i + 1, hi))
                stack.append((lo, lo + i + 1))
                continue
        count += 1
        for j in range(lo, hi):
            out[j] = count
    return out


@score_input
@shared_docs
def scott_knott_esd(x, learners, *, higher_is_better: bool | None = None, alpha: float = 0.05,
                    version: str = "p", decimals: int | None = DEFAULT_DECIMALS) -> RankGroups:
    """Scott-Knott ESD rank groups of an n × k score table (see the module docstring).

    Parameters
    ----------
    {{x_learners}}
    higher_is_better : bool, default True
        Direction of the scores.
    alpha : float, default 0.05
        Level of Scott & Knott's likelihood-ratio test.
    version : {"p", "np"}, default "p"
        On the scores, or on each data set's ranks.
    decimals : int or None, default 12
        Scores are rounded to this many decimals first.

    Returns
    -------
    RankGroups
        ``groups`` ([{rank, learners, means}], best first), ``rank`` (each learner's group),
        ``original`` (before the effect-size merge), ``merged`` and ``sentence()``.

    References
    ----------
    Scott, A. J. and Knott, M. (1974). A cluster analysis method for grouping means in the
    analysis of variance. Biometrics 30, 507–512. Tantithamthavorn, C. et al. (2017). An empirical
    comparison of model validation techniques for defect prediction models. IEEE TSE 43, 1–18.

    Examples
    --------
    García & Herrera (2008) on per-data-set ranks: three groups.

    >>> from rankwise import load_example, scott_knott_esd
    >>> t = load_example("garcia2008")
    >>> [g["learners"] for g in scott_knott_esd(t.values, t.learners, version="np").groups]
    [['C4.5', 'NaiveBayes'], ['CN2', '1-NN'], ['Kernel']]
    """
    from ..errors import RankwiseError

    if version not in SK_VERSIONS:
        raise RankwiseError(f"the Scott-Knott version must be one of {', '.join(SK_VERSIONS)};"
                            f" got {version!r}")
    if np.ndim(x) == 2 and np.shape(x)[0] < 2:
        raise RankwiseError("Scott-Knott groups need at least 2 data sets")
    x = round_scores(check.score_matrix(x), decimals)  # finite scores, as every procedure
    n, k = x.shape
    if version == "np":
        values = k + 1 - midranks(x, descending=higher_is_better)
    else:
        values = x if higher_is_better else -x
    means = values.mean(axis=0)
    order = np.argsort(-means, kind="stable")
    # The procedure is scale-free; scores beyond 1e150 are divided by their largest so that
    # their squares stay finite (ordinary scores are used as they are).
    top = float(np.abs(values).max(initial=0.0))
    scaled = values / top if top > 1e150 else values
    centres = scaled.mean(axis=0)
    # one-way ANOVA value ~ learner: the error mean square and its degrees of freedom
    dfr = k * (n - 1)
    mse = float(((scaled - centres) ** 2).sum()) / dfr
    original_sorted = scott_knott_groups(centres[order], mse / n, dfr, alpha)
    ranking = list(original_sorted)
    merged = []
    for pos in range(1, k):
        above, below = order[pos - 1], order[pos]
        d = cohens_d(scaled[:, below], scaled[:, above])
        if abs(d) < NEGLIGIBLE_D and ranking[pos] != ranking[pos - 1]:
            ranking[pos:] = [r - 1 for r in ranking[pos:]]
            merged.append((learners[above], learners[below], d))
    rank = np.empty(k, dtype=np.int64)
    rank[order] = ranking
    original = np.empty(k, dtype=np.int64)
    original[order] = original_sorted
    shown = means if higher_is_better or version == "np" else -means
    return RankGroups("scott-knott-esd", version, alpha, tuple(learners),
                      tuple(int(j) for j in order), shown, rank, original, tuple(merged))


# --------------------------------------------------------------------- bootstrap / A12 variant

#: Vargha & Delaney's A12 within this distance of 0.5 is a negligible effect (A12 < 0.56).
A12_NEGLIGIBLE = 0.06
#: Bootstrap resamples of the two-sample test, and its seed.
BOOTSTRAP_SAMPLES = 1000
BOOTSTRAP_SEED = DEFAULT_SEED  # one seed policy: rankwise.defaults


def fold_samples(table) -> dict:
    """{learner: every fold-level value} of a table read from per-fold results."""
    from ..errors import RankwiseError

    if table.raw is None or table.aggregate is None:
        raise RankwiseError("the bootstrap Scott-Knott groups need per-fold results: a long table"
                            " with repeat/fold columns or a results database (use"
                            " --groups scott-knott-esd for one value per data set)")
    raw = table.raw
    return {name: raw.loc[raw["learner"] == name, "value"].to_numpy(dtype=float)
            for name in table.learners}


def a12(a, b) -> float:
    """Vargha & Delaney's A12: the probability that a value of ``a`` exceeds one of ``b``,
    ties counted half (from sorted values, so large samples cost n log n)."""
    below, not_above = dominance_counts(a, b)
    return float((below + 0.5 * (not_above - below)).sum() / (len(below) * np.size(b)))


def _welch(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Welch's t of mean(a) − mean(b) for each row of the resampled arrays (last axis)."""
    va = a.var(axis=-1, ddof=1) / a.shape[-1]
    vb = b.var(axis=-1, ddof=1) / b.shape[-1]
    diff = a.mean(axis=-1) - b.mean(axis=-1)
    se = np.sqrt(va + vb)
    # no spread: equal means give 0, different ones an infinitely strong statistic
    out = np.where(diff > 0, np.inf, np.where(diff < 0, -np.inf, 0.0))
    return np.divide(diff, se, out=np.asarray(out, dtype=float), where=se > 0)


def bootstrap_pvalue(a, b, rng, samples: int = BOOTSTRAP_SAMPLES) -> float:
    """Efron & Tibshirani's (1993, §16.4) two-sample bootstrap test of equal means: both
    samples shifted to the pooled mean, resampled, and the two-sided share of Welch statistics
    at least as extreme as the observed one."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    observed = float(_welch(a, b))
    pooled = np.concatenate([a, b]).mean()
    a0, b0 = a - a.mean() + pooled, b - b.mean() + pooled
    ra = a0[rng.integers(0, len(a), size=(samples, len(a)))]
    rb = b0[rng.integers(0, len(b), size=(samples, len(b)))]
    return float((np.abs(_welch(ra, rb)) >= abs(observed) - 1e-12).mean())


def scott_knott_bootstrap(samples: dict, *, higher_is_better: bool = True, alpha: float = 0.05,
                          seed: int = BOOTSTRAP_SEED,
                          resamples: int = BOOTSTRAP_SAMPLES) -> RankGroups:
    """Scott-Knott with a bootstrap test and Vargha & Delaney's A12, on per-fold results.

    ``samples``: {learner: every fold-level value of it}. The learners are sorted by median
    (best first); a part is cut where the expected squared difference of the two sides' means
    from the part's, weighted by their numbers of values, is largest, and the cut is kept when
    the two sides differ by Efron & Tibshirani's bootstrap test at ``alpha`` and by a
    non-negligible A12 (at least 0.56 or at most 0.44); each side is cut again the same way.
    The draws come from ``seed``, so the groups are reproducible.
    """
    from ..errors import RankwiseError

    learners = tuple(samples)
    sign = 1.0 if higher_is_better else -1.0
    values = [sign * np.asarray(samples[name], float) for name in learners]
    for name, v in zip(learners, values):
        if v.size == 0 or not np.isfinite(v).all():
            raise RankwiseError(f"scores must be finite: learner {name!r} has"
                                f" {'no values' if v.size == 0 else 'a missing or infinite value'}"
                                " in its per-fold results (drop the learner or fix its runs)")
    medians = np.array([np.median(v) for v in values])
    order = [int(j) for j in np.argsort(-medians, kind="stable")]
    rng = np.random.default_rng(check.seed(seed))
    groups = []

    def part(members):
        if len(members) >= 2:
            sizes = np.array([len(values[j]) for j in members], float)
            sums = np.array([values[j].sum() for j in members])
            n, mu = sizes.sum(), sums.sum() / sizes.sum()
            best, cut = -1.0, None
            for i in range(1, len(members)):
                n1, n2 = sizes[:i].sum(), sizes[i:].sum()
                m1, m2 = sums[:i].sum() / n1, sums[i:].sum() / n2
                gain = n1 / n * (m1 - mu) ** 2 + n2 / n * (m2 - mu) ** 2
                if gain > best + 1e-15:
                    best, cut = gain, i
            left = np.concatenate([values[j] for j in members[:cut]])
            right = np.concatenate([values[j] for j in members[cut:]])
            effect = abs(a12(left, right) - 0.5) >= A12_NEGLIGIBLE
            if effect and bootstrap_pvalue(left, right, rng, resamples) < alpha:
                part(members[:cut])
                part(members[cut:])
                return
        groups.append(members)

    part(order)
    rank = np.empty(len(learners), dtype=np.int64)
    for g, members in enumerate(groups, start=1):
        rank[members] = g
    return RankGroups("scott-knott-bootstrap", "a12", alpha, learners, tuple(order),
                      sign * medians, rank, rank.copy(), ())
