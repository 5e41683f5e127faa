"""Repeated trials of the same items: pass@k, pass^k and the split of their variance.

An item answered n times (samples, seeds, runs) with c successes gives two estimators: pass@k,
the chance that at least one of k fresh trials succeeds, and pass^k, the chance that all k do.
Repeated outcomes of the same items are not independent: :func:`trial_variance` splits their
variance into a part between items and a part within an item (one-way random-effects
analysis of variance) and gives the standard error of the mean score with items as clusters.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special

from .._validate import real_array
from ..errors import RankwiseError
from .items import cluster_codes, cluster_summer

#: Above this many factors a ratio of binomial coefficients is taken from log-gamma
#: functions (relative error about 1e-16 · n log n) instead of the product of the factors.
PRODUCT_LIMIT = 1000


def _trial_counts(n, c, k):
    """n, c, k as broadcast float arrays, or one line naming the first bad value."""
    arrays = []
    for name, value in (("n", n), ("c", c), ("k", k)):
        v = real_array(value)
        bad = ~(np.isfinite(v) & (v == np.round(v)))
        if bad.any():
            raise RankwiseError(f"{name} must be whole numbers; got"
                                f" {np.ravel(v)[np.flatnonzero(bad)[0]]!r}")
        arrays.append(v)
    try:
        n, c, k = np.broadcast_arrays(*arrays)
    except ValueError:
        raise RankwiseError(f"n, c and k must have shapes that broadcast; got {np.shape(n)},"
                            f" {np.shape(c)} and {np.shape(k)}") from None
    checks = ((n < 1, "n (trials per item) must be at least 1"),
              ((c < 0) | (c > n), "c (successes) must lie in 0..n"),
              (k < 1, "k must be at least 1"),
              # an estimate from fewer trials than k does not exist (MultiPL-E issue 40
              # returned a number there)
              (k > n, "k must not exceed n, the trials of the item"))
    for bad, text in checks:
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise RankwiseError(f"{text}; got n = {n.flat[i]:g}, c = {c.flat[i]:g},"
                                f" k = {k.flat[i]:g} (entry {i}, {int(bad.sum())} such)")
    return n, c, k


def _log_binomial_ratio(n, c, k):
    """log C(n − c, k)/C(n, k) (−inf where n − c < k), as a sum of log1p terms.

    C(n − c, k)/C(n, k) = ∏_{j<k} (1 − c/(n − j)) = ∏_{j<c} (1 − k/(n − j)): the shorter of
    the two products, min(k, c) factors, each log1p of a number in (−1, 0]."""
    m = np.minimum(k, c)
    other = np.where(k <= c, c, k)
    empty = n - c < k
    out = np.zeros(n.shape)
    steps = int(m.max()) if m.size else 0
    if steps > PRODUCT_LIMIT:
        live = ~empty
        out[live] = (special.gammaln(n[live] - c[live] + 1) - special.gammaln(n[live] - c[live]
                     - k[live] + 1) - special.gammaln(n[live] + 1)
                     + special.gammaln(n[live] - k[live] + 1))
    else:
        safe = np.where(empty, 0.0, other)
        for j in range(steps):
            # a factor beyond an entry's min(k, c) would reach 1 − 1 = 0: log1p(0) instead
            out += np.log1p(np.where(j < m, -safe / np.maximum(n - j, 1.0), 0.0))
    return np.where(empty, -np.inf, out)


def pass_at_k(n, c, k):
    """Unbiased estimate of pass@k: the chance that at least one of k trials succeeds.

    pass@k = 1 − C(n − c, k)/C(n, k) for an item with ``c`` successes in ``n`` trials
    (Chen et al. 2021, eq. 1), computed as −expm1(Σ log1p(−c/(n − j))) over j < k (or the
    same with c and k swapped, whichever is shorter), so neither end loses digits; 1 where
    n − c < k. Arrays broadcast; average over items for a benchmark's pass@k. Refused in one
    line: k > n (no unbiased estimate exists), k < 1, c outside 0..n, n < 1.

    References: Chen et al. (2021), "Evaluating large language models trained on code",
    arXiv:2107.03374, section 2.1.

    Examples
    --------
    >>> from rankwise.stats.trials import pass_at_k
    >>> round(float(pass_at_k(12, 9, 2)), 4)
    0.9545
    """
    n, c, k = _trial_counts(n, c, k)
    out = 0.0 - np.expm1(_log_binomial_ratio(n, c, k))     # 0.0 −: no −0 where c = 0
    return out[()] if out.ndim == 0 else out


def pass_hat_k(n, c, k):
    """Unbiased estimate of pass^k: the chance that all of k trials succeed.

    pass^k = C(c, k)/C(n, k) (Yao et al. 2024, τ-bench, eq. 1) = C(n − c′, k)/C(n, k) with
    c′ = n − c failures, computed as the product of :func:`pass_at_k`; 0 where c < k. Arrays
    broadcast; the same refusals as :func:`pass_at_k`.

    References: Yao, Shinn, Razavi & Narasimhan (2024), "τ-bench", arXiv:2406.12045.

    Examples
    --------
    >>> from rankwise.stats.trials import pass_hat_k
    >>> [round(float(pass_hat_k(12, 9, k)), 4) for k in (1, 2, 4, 8, 12)]
    [0.75, 0.5455, 0.2545, 0.0182, 0.0]
    """
    n, c, k = _trial_counts(n, c, k)
    out = np.exp(_log_binomial_ratio(n, n - c, k))
    return out[()] if out.ndim == 0 else out


@dataclass(frozen=True)
class TrialVariance:
    """The variance split of repeated trials (arrays over the leading axes of the outcomes).

    ``mean``: the mean of every outcome; ``within``: σ²_within, the variance of an item's
    trials; ``between``: σ²_between, the variance of the items' true scores (≥ 0);
    ``icc``: σ²_between/(σ²_between + σ²_within) (NaN without any variance); ``se``: the
    standard error of ``mean`` with items as clusters; ``n_items``, ``n_outcomes``;
    ``trials``: n₀, the (weighted) trials per item of the analysis of variance.
    """

    mean: np.ndarray
    within: np.ndarray
    between: np.ndarray
    icc: np.ndarray
    se: np.ndarray
    n_items: int
    n_outcomes: int
    trials: float


def trial_variance(outcomes, item_index=None) -> TrialVariance:
    """Split the variance of repeated trials into within-item and between-item parts.

    Parameters
    ----------
    outcomes : array_like
        Without ``item_index``: shape (..., items, trials), every item tried equally often.
        With ``item_index``: shape (..., N), N outcomes in any order (items may have
        different numbers of trials).
    item_index : array_like, shape (N,), optional
        The item of each outcome (any labels).

    Returns
    -------
    TrialVariance
        ``mean``, ``within``, ``between``, ``icc``, ``se`` (arrays over the leading axes).

    Notes
    -----
    One-way random-effects analysis of variance of a items with nᵢ trials (N in all), item
    means ȳᵢ and grand mean ȳ: MSB = Σ nᵢ(ȳᵢ − ȳ)²/(a − 1), MSW = ΣΣ (y − ȳᵢ)²/(N − a),
    n₀ = (N − Σnᵢ²/N)/(a − 1); σ²_within = MSW, σ²_between = max(0, (MSB − MSW)/n₀).
    SE(ȳ) = √(a/(a − 1) · Σᵢ (nᵢ(ȳᵢ − ȳ))²)/N, the cluster-robust standard error with items
    as clusters (:func:`rankwise.stats.items.clustered_se`); with K trials of every item it is
    √(MSB/(aK)) = √((σ²_between + σ²_within/K)/a) (while σ²_between is not truncated).

    References: Searle, Casella & McCulloch (1992), Variance Components, §3.5–3.6 (n₀ there);
    Miller (2024), "Adding error bars to evals", arXiv:2411.00640, §4 (resampled answers).

    Examples
    --------
    Three items, four trials each:

    >>> from rankwise.stats.trials import trial_variance
    >>> r = trial_variance([[1, 1, 1, 0], [0, 0, 1, 0], [1, 1, 1, 1]])
    >>> round(float(r.within), 4), round(float(r.between), 4), round(float(r.se), 4)
    (0.1667, 0.1042, 0.2205)
    """
    y = real_array(outcomes)
    if not np.isfinite(y).all():
        raise RankwiseError("outcomes must be finite numbers (no NaN: give the trials of an"
                            " item that has fewer with item_index)")
    if item_index is None:
        if y.ndim < 2:
            raise RankwiseError("outcomes without item_index must be items x trials")
        a = y.shape[-2]
        sizes = np.full(a, float(y.shape[-1]))
    else:
        y = np.atleast_1d(y)
        codes, a = cluster_codes(item_index, y.shape[-1])
        sizes = np.bincount(codes, minlength=a).astype(float)
    total = sizes.sum()
    if a < 2 or total <= a:
        raise RankwiseError(f"trial_variance needs at least 2 items and an item with 2 or more"
                            f" trials; got {a} items and {int(total)} outcomes")
    if item_index is None:
        item_means = y.mean(axis=-1)
        within_ss = ((y - item_means[..., None]) ** 2).sum(axis=(-2, -1))
    else:
        flat = y.reshape(-1, y.shape[-1])
        sums = (cluster_summer(codes, a) @ flat.T).T.reshape(y.shape[:-1] + (a,))
        item_means = sums / sizes
        within_ss = ((y - item_means[..., codes]) ** 2).sum(axis=-1)
    return _split(item_means, sizes, within_ss, a, total)


def trial_variance_from_sums(sizes, sums, squares) -> TrialVariance:
    """:func:`trial_variance` from each item's number of trials, their sum and their sum of
    squares (one pass over the outcomes, as the gate keeps them): the same analysis of
    variance, the same result.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.stats.trials import trial_variance_from_sums
    >>> y = np.array([[1, 1, 1, 0], [0, 0, 1, 0], [1, 1, 1, 1]], float)
    >>> r = trial_variance_from_sums([4, 4, 4], y.sum(axis=1), (y ** 2).sum(axis=1))
    >>> round(float(r.within), 4), round(float(r.between), 4), round(float(r.se), 4)
    (0.1667, 0.1042, 0.2205)
    """
    sizes, sums, squares = (np.asarray(real_array(v), float) for v in (sizes, sums, squares))
    a, total = sizes.size, float(sizes.sum())
    if a < 2 or total <= a or np.any(sizes < 1):
        raise RankwiseError(f"trial_variance needs at least 2 items and an item with 2 or more"
                            f" trials; got {a} items and {int(total)} outcomes")
    item_means = sums / sizes
    within_ss = np.maximum((squares - sums * item_means).sum(), 0.0)   # rounding below 0
    return _split(item_means, sizes, within_ss, a, total)


def _split(item_means, sizes, within_ss, a: int, total: float) -> TrialVariance:
    """The one-way analysis of variance from the items' means and sizes and the within sum of
    squares (see :func:`trial_variance`)."""
    mean = (item_means * sizes).sum(axis=-1) / total
    deviations = sizes * (item_means - mean[..., None])           # cluster sums, centred
    ms_between = (deviations * (item_means - mean[..., None])).sum(axis=-1) / (a - 1)
    ms_within = within_ss / (total - a)
    n0 = (total - (sizes ** 2).sum() / total) / (a - 1)
    between = np.maximum((ms_between - ms_within) / n0, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        icc = between / (between + ms_within)
    se = np.sqrt(a / (a - 1) * (deviations ** 2).sum(axis=-1)) / total

    def out(v):
        return v[()] if np.ndim(v) == 0 else v

    return TrialVariance(out(mean), out(ms_within), out(between), out(icc), out(se), int(a),
                         int(total), float(n0))
