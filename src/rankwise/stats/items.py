"""Statistics of model evaluations scored item by item: the same items answered by every model.

Everything works on a score matrix ``x`` of one task (rows = items, columns = models), vectorised
over models and over all pairs of models: the pairwise quantities come from matrix products with
``k`` columns, never from a loop over the ``k(k − 1)/2`` pairs.

- :func:`proportion_interval`: Wilson, Clopper–Pearson and the normal (Wald) interval of an
  accuracy, and :func:`normal_adequate`, where the normal one may be used.
- :func:`clustered_se`: the standard error of a mean score, cluster-robust when items share a
  context (Miller 2024, appendix A, with the finite-cluster factor C/(C − 1)); with every item its
  own cluster it is the usual s/√n.
- :func:`mcnemar`: McNemar's test of two models' accuracies on the same items.
- :func:`paired_items`: every pair of models on one task — the difference of mean scores, its
  paired (clustered) standard error and interval, and the paired test's p-value.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse, special, stats

from ..defaults import ITEM_DRAWS, ITEM_SEED, MCNEMAR_EXACT_BELOW
from ..errors import RankwiseError
from .resample import bootstrap_counts

#: The interval methods of an accuracy, by name.
PROPORTION_INTERVALS = ("wilson", "clopper_pearson", "normal")
#: The paired tests, by name: McNemar's (0/1 scores, items independent) and the sign-flip
#: permutation test of the mean difference (any scores; whole clusters flipped together).
PAIRED_TESTS = ("mcnemar", "permutation")
#: McNemar's p-value: exact binomial, chi-square with or without continuity correction, or
#: "auto" (exact below ``MCNEMAR_EXACT_BELOW`` discordant items, corrected chi-square from it on).
MCNEMAR_METHODS = ("auto", "exact", "chi2", "chi2_corrected")


def _z(confidence: float) -> float:
    if not 0 < confidence < 1:
        raise RankwiseError(f"confidence must be between 0 and 1 (exclusive); got {confidence!r}")
    return float(special.ndtri(0.5 + confidence / 2))


def proportion_interval(successes, n, *, confidence: float = 0.95, method: str = "wilson"):
    """Confidence interval of a proportion ``successes / n`` (arrays broadcast).

    ``wilson``: the score interval, (p̂ + z²/2n ± z √(p̂(1 − p̂)/n + z²/4n²)) / (1 + z²/n);
    ``clopper_pearson``: the exact interval from the beta quantiles, B(α/2; x, n − x + 1) and
    B(1 − α/2; x + 1, n − x), 0 and 1 at the ends; ``normal``: p̂ ± z √(p̂(1 − p̂)/n), clipped to
    [0, 1], adequate only for large n away from 0 and 1 (see :func:`normal_adequate`).

    Returns ``(low, high)`` arrays. Equal to ``scipy.stats.binomtest(x, n).proportion_ci`` with
    ``method="wilson"`` and ``"exact"``.

    References: Wilson (1927); Clopper & Pearson (1934); Bowyer, Aitchison & Ivanova (ICML 2025),
    on why the normal interval fails below a few hundred items.

    Examples
    --------
    >>> from rankwise.stats.items import proportion_interval
    >>> low, high = proportion_interval(137, 164, method="wilson")
    >>> round(float(low), 4), round(float(high), 4)
    (0.7711, 0.8843)
    """
    x = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    if method not in PROPORTION_INTERVALS:
        raise RankwiseError(f"unknown interval {method!r}; choose from"
                            f" {', '.join(PROPORTION_INTERVALS)}")
    if np.any(n < 1) or np.any(x < 0) or np.any(x > n):
        raise RankwiseError("a proportion needs 0 <= successes <= n and n >= 1")
    z = _z(confidence)
    p = x / n
    if method == "wilson":
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)
    if method == "clopper_pearson":
        a = (1 - confidence) / 2
        with np.errstate(invalid="ignore"):
            low = np.where(x > 0, special.betaincinv(x, n - x + 1, a), 0.0)
            high = np.where(x < n, special.betaincinv(x + 1, n - x, 1 - a), 1.0)
        return low, high
    half = z * np.sqrt(p * (1 - p) / n)
    return np.clip(p - half, 0, 1), np.clip(p + half, 0, 1)


def normal_adequate(successes, n):
    """Where the normal interval of a proportion may stand in for the exact one: at least 100
    items and at least 10 successes and 10 failures (n·p̂ ≥ 10, n·(1 − p̂) ≥ 10). Below that its
    coverage falls short (Bowyer et al. 2025), and rankwise reports Wilson's instead."""
    x = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    return (n >= 100) & (x >= 10) & (n - x >= 10)


def cluster_codes(clusters, n: int):
    """Integer cluster codes 0..C-1 of ``n`` items (each item its own cluster when None)."""
    if clusters is None:
        return np.arange(n), n
    values = np.asarray(clusters)
    if values.shape != (n,):
        raise RankwiseError(f"clusters must give one label per item ({n}); got shape"
                            f" {values.shape}")
    _, codes = np.unique(values, return_inverse=True)
    return codes.ravel(), int(codes.max()) + 1 if n else 0


def item_weights(weights, n: int) -> np.ndarray:
    """The items' weights: ones where none are given, else ``n`` finite numbers above 0 (an
    infinite weight makes every mean and standard error NaN)."""
    if weights is None:
        return np.ones(n)
    try:
        w = np.asarray(weights, dtype=float).ravel()
    except (TypeError, ValueError):
        raise RankwiseError("weights must be numbers, one per item") from None
    if w.size != n:
        raise RankwiseError(f"weights must be one per item: {w.size} for {n} items")
    bad = ~(np.isfinite(w) & (w > 0))
    if bad.any():
        raise RankwiseError(f"weights must be finite numbers above 0; got {w[bad][0]:g} at item"
                            f" {int(np.flatnonzero(bad)[0]) + 1} ({int(bad.sum())} such)")
    return w


def cluster_summer(codes, n_clusters: int, weights=None):
    """The C × n matrix that sums (weighted) item values within clusters."""
    n = len(codes)
    data = np.ones(n) if weights is None else np.asarray(weights, dtype=float)
    return sparse.csr_matrix((data, (codes, np.arange(n))), shape=(n_clusters, n))


def clustered_se(scores, clusters=None, weights=None) -> np.ndarray:
    """Standard error of the mean score, robust to items that share a cluster.

    SE = √(C/(C − 1) · Σ_c (Σ_{i∈c} wᵢ(sᵢ − s̄))²) / Σᵢ wᵢ over C clusters, with s̄ the weighted
    mean. With every item its own cluster (``clusters=None``) and unit weights this is
    sd(s)/√n with the n − 1 divisor. ``scores`` may be a matrix (items × models): one standard
    error per column. Zero when there is a single cluster.

    References: Miller, "Adding error bars to evals" (2024), appendix A; inspect_ai's
    ``stderr(cluster=...)``, whose worked example this reproduces.

    Examples
    --------
    >>> from rankwise.stats.items import clustered_se
    >>> s = [1, 1, 1, 0, 0, 0]
    >>> round(float(clustered_se(s, clusters=[0, 1, 1, 1, 0, 0])), 4)
    0.1667
    >>> round(float(clustered_se(s)), 4)
    0.2236
    """
    x = np.asarray(scores, dtype=float)
    one = x.ndim == 1
    x = x.reshape(len(x), -1)
    n = x.shape[0]
    w = item_weights(weights, n)
    codes, c = cluster_codes(clusters, n)
    if c < 2:
        out = np.zeros(x.shape[1])
    else:
        mean = w @ x / w.sum()
        sums = cluster_summer(codes, c, w) @ (x - mean)
        out = np.sqrt(c / (c - 1) * np.einsum("cj,cj->j", sums, sums)) / w.sum()
    return out[0] if one else out


@dataclass(frozen=True)
class McNemar:
    """McNemar's test on ``b`` (first right, second wrong) and ``c`` (the other way) discordant
    items; arrays over pairs. ``method`` says per pair whether the p-value is exact."""

    b: np.ndarray
    c: np.ndarray
    statistic: np.ndarray
    pvalue: np.ndarray
    method: np.ndarray


def mcnemar(b, c, *, method: str = "auto") -> McNemar:
    """McNemar's test of equal accuracy of two models on the same items (arrays broadcast).

    Only the discordant items count: ``b`` items the first model got right and the second wrong,
    ``c`` the other way. ``exact``: two-sided binomial, p = min(1, 2·P(Bin(b + c, ½) ≤ min(b, c)))
    with statistic min(b, c); ``chi2``: (b − c)²/(b + c) on 1 degree of freedom;
    ``chi2_corrected``: (abs(b − c) − 1)²/(b + c), the continuity correction applied only when
    b ≠ c (as R's ``mcnemar.test``; statsmodels subtracts 1 also when b = c, which turns a
    perfectly balanced table into a positive statistic); ``auto`` (the default): exact below
    ``MCNEMAR_EXACT_BELOW`` (25) discordant items, corrected chi-square from it on. No discordant
    item: statistic 0, p = 1 for every method.

    Equal to ``statsmodels.stats.contingency_tables.mcnemar`` (``exact=True``, and ``exact=False``
    with and without ``correction``) wherever b ≠ c.

    Examples
    --------
    >>> from rankwise.stats.items import mcnemar
    >>> r = mcnemar(12, 3)
    >>> str(r.method), round(float(r.pvalue), 4)
    ('exact', 0.0352)
    """
    if method not in MCNEMAR_METHODS:
        raise RankwiseError(f"unknown McNemar method {method!r}; choose from"
                            f" {', '.join(MCNEMAR_METHODS)}")
    b, c = np.broadcast_arrays(np.asarray(b, dtype=float), np.asarray(c, dtype=float))
    if np.any(b < 0) or np.any(c < 0) or np.any(b != np.round(b)) or np.any(c != np.round(c)):
        raise RankwiseError("McNemar's test needs counts of discordant items (whole numbers"
                            " >= 0)")
    m = b + c
    exact = (m < MCNEMAR_EXACT_BELOW) if method == "auto" else np.full(m.shape, method == "exact")
    corrected = method in ("auto", "chi2_corrected")
    with np.errstate(divide="ignore", invalid="ignore"):
        low = np.minimum(b, c)
        p_exact = np.minimum(1.0, 2 * stats.binom.cdf(low, m, 0.5))
        gap = np.abs(b - c) - (corrected & (b != c))
        chi = np.where(m > 0, gap * gap / np.where(m > 0, m, 1), 0.0)
        p_chi = stats.chi2.sf(chi, 1)
    statistic = np.where(exact, low, chi)
    pvalue = np.where(m == 0, 1.0, np.where(exact, p_exact, p_chi))
    label = np.where(exact, "exact", "chi2_corrected" if corrected else "chi2")
    return McNemar(b, c, np.where(m == 0, 0.0, statistic), pvalue, label)


def _pairs(k: int):
    return np.triu_indices(k, 1)


def _sign_flips(draws: int, n_clusters: int, rng) -> np.ndarray:
    return rng.integers(0, 2, size=(draws, n_clusters), dtype=np.int8) * 2.0 - 1.0


@dataclass(frozen=True)
class PairedItems:
    """Every pair of models on one task (arrays over the pairs ``first`` < ``second``).

    ``difference`` is mean(first) − mean(second); ``se`` its paired standard error (clustered
    when clusters are given); ``low``/``high`` the interval at ``confidence`` (``interval`` says
    how: the normal one from ``se``, or the percentile paired bootstrap); ``pvalue`` the paired
    test's two-sided p-value (``test``: ``mcnemar`` or ``permutation``); ``discordant`` the
    McNemar counts (b, c) for 0/1 scores.
    """

    first: np.ndarray
    second: np.ndarray
    difference: np.ndarray
    se: np.ndarray
    low: np.ndarray
    high: np.ndarray
    pvalue: np.ndarray
    test: str
    method: np.ndarray
    interval: str
    confidence: float
    n_items: int
    n_clusters: int
    draws: int
    b: np.ndarray | None = None
    c: np.ndarray | None = None


def is_binary(x) -> bool:
    """Whether every score is 0 or 1."""
    x = np.asarray(x)
    return bool(np.all((x == 0) | (x == 1)))


def paired_items(x, *, clusters=None, weights=None, test: str = "auto",
                 mcnemar_method: str = "auto", interval: str = "auto",
                 confidence: float = 0.95, draws: int = ITEM_DRAWS,
                 seed: int = ITEM_SEED, chunk: int = 4096) -> PairedItems:
    """Every pair of models on the same items of one task, in a few matrix products.

    ``x``: items × models. The difference of two models' mean scores is a difference of
    column means, so everything a pair needs comes from quantities of ``k`` columns:

    - the paired standard error: SE(a − b)² = C/(C − 1) · Σ_c (g_ca − g_cb)² / W², where g are the
      cluster sums of the centred scores (Gram matrix GᵀG: SE² = (G_aa + G_bb − 2G_ab)·C/(C−1)/W²);
    - McNemar's discordant counts: b_ab = Σᵢ xᵢa(1 − xᵢb) = (XᵀX̄)_ab;
    - the sign-flip permutation test: flipping item i of a pair swaps the two models' scores, so
      the permuted difference is (E·X)_a − (E·X)_b with E the (draws × items) matrix of ±1 (one
      sign per cluster); p = (1 + #{abs(T*) ≥ abs(T)}) / (1 + draws);
    - the paired bootstrap: resampled means M = R·X/n with R the draws × items resampling counts
      (whole clusters when given), the difference's percentile interval from M_a − M_b.

    ``test``: ``auto`` takes McNemar's for 0/1 scores without clusters or weights, the
    permutation test otherwise (McNemar's assumes independent items). ``interval``: ``auto`` is the
    normal interval from the paired SE for 0/1 scores (Miller 2024, eq. 7) and the percentile
    bootstrap for other scores; ``normal`` or ``bootstrap`` to choose.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.stats.items import paired_items
    >>> x = np.array([[1, 0], [1, 0], [1, 1], [0, 0], [1, 0], [1, 0]])
    >>> r = paired_items(x)
    >>> r.test, int(r.b[0]), int(r.c[0]), round(float(r.pvalue[0]), 4)
    ('mcnemar', 4, 0, 0.125)
    """
    x = np.asarray(x, dtype=float)
    if x.ndim != 2 or x.shape[1] < 2:
        raise RankwiseError("paired_items needs a matrix: items x models, at least two models")
    if np.isnan(x).any():
        raise RankwiseError("paired_items needs every model's score on every item; restrict"
                            " the task to the items every model answered")
    n, k = x.shape
    binary = is_binary(x)
    if test == "auto":
        test = "mcnemar" if binary and clusters is None and weights is None else "permutation"
    if test not in PAIRED_TESTS:
        raise RankwiseError(f"unknown paired test {test!r}; choose from"
                            f" {', '.join(PAIRED_TESTS)} or auto")
    if test == "mcnemar" and not binary:
        raise RankwiseError("McNemar's test needs 0/1 scores; use the permutation test")
    if interval == "auto":
        interval = "normal" if binary else "bootstrap"
    if interval not in ("normal", "bootstrap"):
        raise RankwiseError(f"unknown interval {interval!r}; choose normal, bootstrap or auto")
    w = item_weights(weights, n)
    codes, c = cluster_codes(clusters, n)
    summer = cluster_summer(codes, c)
    total = w.sum()
    means = w @ x / total
    g = summer @ ((x - means) * w[:, None])
    gram = g.T @ g
    i, j = _pairs(k)
    factor = c / (c - 1) if c > 1 else 0.0
    var = np.maximum(gram[i, i] + gram[j, j] - 2 * gram[i, j], 0.0) * factor / total ** 2
    se = np.sqrt(var)
    diff = means[i] - means[j]
    z = _z(confidence)
    rng = np.random.default_rng(seed)
    b = cc = None
    if test == "mcnemar":
        right = x.T @ (1 - x)
        b, cc = right[i, j], right[j, i]
        result = mcnemar(b, cc, method=mcnemar_method)
        pvalue, method = result.pvalue, result.method
    else:
        cluster_x = summer @ (x * w[:, None]) / total    # C × k: each cluster's share of the mean
        flips = _sign_flips(draws, c, rng) @ cluster_x   # draws × k
        observed = np.abs(diff)
        exceed = np.zeros(len(i))
        for start in range(0, len(i), chunk):
            s = slice(start, start + chunk)
            t = np.abs(flips[:, i[s]] - flips[:, j[s]])
            # a permuted statistic equal to the observed one (up to rounding) counts as extreme
            exceed[s] = (t >= observed[s] * (1 - 1e-12) - 1e-15).sum(axis=0)
        pvalue = (1 + exceed) / (1 + draws)
        method = np.full(len(i), "permutation")
    if interval == "normal":
        low, high = diff - z * se, diff + z * se
    else:
        counts = bootstrap_counts(draws, c, rng).astype(float)                          # draws × C
        wx = summer @ (x * w[:, None])
        wsum = summer @ w
        boot = (counts @ wx) / (counts @ wsum)[:, None]                                 # draws × k
        low = np.empty(len(i))
        high = np.empty(len(i))
        a = (1 - confidence) / 2
        for start in range(0, len(i), chunk):
            s = slice(start, start + chunk)
            d = boot[:, i[s]] - boot[:, j[s]]
            low[s], high[s] = np.quantile(d, [a, 1 - a], axis=0)
    return PairedItems(i, j, diff, se, low, high, np.asarray(pvalue, dtype=float), test,
                       np.asarray(method), interval, confidence, n, c, draws, b, cc)


def null_rejections(reps: int = 200, *, n_items: int = 200, n_clusters: int = 20,
                    interaction: float = 1.0, alpha: float = 0.05, draws: int = 400,
                    seed: int = ITEM_SEED) -> dict:
    """How often each test rejects when two models are equally good: the reason for paired,
    clustered tests, measured.

    Each replicate draws ``n_items`` items in ``n_clusters`` clusters (passages). An item's
    difficulty has a cluster part and an item part, shared by both models (their answers are
    correlated: the pairing); each model also has its own effect per cluster (``interaction``:
    a model grasps a passage or not), so the items of a cluster move together (the clustering).
    Both models have the same accuracy. Returns, per test, the share of replicates with
    p ≤ ``alpha`` and its Monte Carlo standard error: the paired permutation test with whole
    clusters flipped, McNemar's test (pairs, but takes items as independent), and the unpaired
    two-proportion z-test (takes neither into account).

    Examples
    --------
    >>> from rankwise.stats.items import null_rejections
    >>> r = null_rejections(reps=20, draws=200)
    >>> sorted(r)
    ['McNemar, items independent', 'paired, clustered', 'unpaired z-test']
    """
    rng = np.random.default_rng(seed)
    cl = np.repeat(np.arange(n_clusters), -(-n_items // n_clusters))[:n_items]
    hits = {"paired, clustered": 0, "McNemar, items independent": 0, "unpaired z-test": 0}
    for _ in range(reps):
        difficulty = rng.normal(0, 1.0, n_clusters)[cl] + rng.normal(0, 1.0, n_items)
        x = np.column_stack([
            (rng.random(n_items) < special.expit(
                rng.normal(0, interaction, n_clusters)[cl] - difficulty)).astype(float)
            for _ in range(2)])
        hits["paired, clustered"] += paired_items(
            x, clusters=cl, draws=draws, seed=int(rng.integers(1 << 31))).pvalue[0] <= alpha
        hits["McNemar, items independent"] += paired_items(x).pvalue[0] <= alpha
        pa, pb = x.mean(axis=0)
        se = np.sqrt((pa * (1 - pa) + pb * (1 - pb)) / n_items)
        z = abs(pa - pb) / se if se > 0 else 0.0
        hits["unpaired z-test"] += 2 * stats.norm.sf(z) <= alpha
    return {name: {"rate": float(count / reps),
                   "se": float(np.sqrt(max(count / reps * (1 - count / reps), 1e-12) / reps))}
            for name, count in hits.items()}
