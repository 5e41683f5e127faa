"""Confidence sets for ranks (Mogstad, Romano, Shaikh & Wilhelm 2023).

For estimates θ̂ of k features with covariance Σ (θ̂ − θ ≈ N(0, Σ)), a confidence set for the
rank of learner i is the interval [L_i, U_i] with L_i = 1 + #{j : θ_j > θ_i shown} and
U_i = k − #{j : θ_i > θ_j shown}, where "shown" means rejected by a test of all the pairwise
hypotheses θ_i ≤ θ_j that controls the family-wise error at 1 − coverage. The tests use the
studentised differences (θ̂_i − θ̂_j)/σ_ij, σ_ij² = Σ_ii + Σ_jj − 2Σ_ij, and the coverage
quantile of the largest of (Z_i − Z_j)/σ_ij over the pairs still under test, Z ~ N(0, Σ) drawn
``draws`` times (a parametric bootstrap); with ``stepdown`` the rejected pairs leave the family
and the quantile is taken again until nothing more is rejected (Romano & Wolf 2005).

*Simultaneous* sets hold for every learner at once with probability ≈ coverage; a *marginal*
set holds for its own learner (the family is the pairs that involve it). The learners whose
simultaneous set contains rank 1 form the confidence set for the best (csranks' ``cstaubest``
with τ = 1): with all learners of interest, the two-sided step-down family and the one-sided
family of that set are the same pairs.

The procedure is the one of the R package ``csranks`` (``csranks(x, Sigma)``); its draws come
from R's generator, these from numpy's, so the bounds agree up to Monte Carlo error.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from .. import _validate as check
from ..defaults import DEFAULT_SEED
from ..errors import RankwiseError
from .results import jsonable

#: Bootstrap draws by default (as csranks).
RANK_SET_DRAWS = 1000
#: Draws × pairs held in memory at once while the maxima are taken.
_CHUNK_CELLS = 4_000_000
#: Above this many learners the maxima skip the rows that cannot hold them
#: (:func:`_pruned_maxima`), and take this many lowest draws of each row exactly first.
_PRUNE_FROM = 64
_LOWEST = 8


@dataclass(frozen=True)
class RankSets:
    """Confidence sets for ranks: learner i's rank lies in [lower[i], upper[i]].

    ``rank`` are the estimated ranks (1 = best, ties share the smallest), ``best`` marks the
    learners that could be the best (``lower == 1`` of the simultaneous sets), ``draws`` and
    ``seed`` say how the quantiles were drawn and ``steps`` how many step-down rounds ran.

    Examples
    --------
    >>> import rankwise
    >>> cmp = rankwise.compare(rankwise.load_example("garcia2008"), rank_sets=True)
    >>> sets = cmp.rank_sets
    >>> [(n, int(lo), int(hi)) for n, lo, hi in zip(sets.learners, sets.lower, sets.upper)]
    [('C4.5', 1, 2), ('1-NN', 3, 4), ('NaiveBayes', 1, 2), ('Kernel', 5, 5), ('CN2', 3, 4)]
    """

    learners: tuple
    estimates: np.ndarray
    rank: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    best: np.ndarray
    confidence: float
    simultaneous: bool
    stepdown: bool
    draws: int
    seed: int
    steps: int
    larger_is_better: bool

    @property
    def coverage(self) -> float:
        """The confidence level (its name before 0.9; goes in 0.10)."""
        warnings.warn("RankSets.coverage is RankSets.confidence since rankwise 0.9; coverage"
                      " goes in 0.10", FutureWarning, stacklevel=2)
        return self.confidence

    def tiers(self) -> tuple:
        """The tiers the sets imply: learners grouped by how many others are surely better
        than them (``lower`` − 1), best tier first, each in rank order. With simultaneous
        sets, tier 1 is the set of learners that could be the best."""
        order = sorted(range(len(self.learners)), key=lambda j: (self.lower[j], self.rank[j], j))
        out = {}
        for j in order:
            out.setdefault(int(self.lower[j]), []).append(self.learners[j])
        return tuple(tuple(names) for names in out.values())

    def tier_of(self) -> dict:
        """``{learner: tier number}`` (1 = the first tier)."""
        return {name: i + 1 for i, tier in enumerate(self.tiers()) for name in tier}

    def to_dict(self) -> dict:
        tier = self.tier_of()
        return jsonable({
            "confidence": self.confidence, "simultaneous": self.simultaneous,
            "stepdown": self.stepdown, "draws": self.draws, "seed": self.seed,
            "steps": self.steps, "larger_is_better": self.larger_is_better,
            "learners": [{"learner": name, "estimate": float(e), "rank": int(r),
                          "lower": int(lo), "upper": int(up), "could_be_best": bool(b),
                          "tier": tier[name]}
                         for name, e, r, lo, up, b in zip(self.learners, self.estimates,
                                                          self.rank, self.lower, self.upper,
                                                          self.best)]})


def rank_confidence_sets(estimates, cov, *, learners=None, confidence: float = 0.95,
                         simultaneous: bool = True, stepdown: bool = True,
                         draws: int = RANK_SET_DRAWS, seed: int = DEFAULT_SEED,
                         larger_is_better: bool = True,
                         coverage: float | None = None) -> RankSets:
    """Confidence sets for the ranks of ``estimates`` whose covariance is ``cov``.

    Parameters
    ----------
    estimates : array_like, shape (k,)
        The estimated features θ̂ (mean scores, or mean ranks with ``larger_is_better=False``).
    cov : array_like, shape (k, k)
        Their estimated covariance Σ (symmetric, positive semi-definite).
    learners : sequence of str, optional
        Names (default ``"1"`` … ``"k"``).
    confidence : float, default 0.95
        The confidence level, 1 − α (the sets' nominal coverage). ``coverage=``, its name
        before 0.9, is taken with a FutureWarning until 0.10.
    simultaneous : bool, default True
        Sets that hold for every learner jointly; False: each learner's own (marginal) set.
    stepdown : bool, default True
        Step-down testing of the pairwise hypotheses (tighter sets, same coverage).
    draws : int, default 1000
        Draws of Z ~ N(0, Σ) behind the quantiles.
    seed : int
        Seed of the draws (the same seed gives the same sets).
    larger_is_better : bool, default True
        Rank 1 goes to the largest estimate (False: to the smallest, as for mean ranks).

    Returns
    -------
    RankSets

    References
    ----------
    Mogstad, M., Romano, J. P., Shaikh, A. M. and Wilhelm, D. (2023). Inference for ranks with
    applications to mobility across neighbourhoods and academic achievement across countries.
    Review of Economic Studies 91(1), 476–518.

    Examples
    --------
    Three learners far apart and one close to the second: every rank is known except those of
    the two that are close.

    >>> import numpy as np
    >>> from rankwise.stats.rank_sets import rank_confidence_sets
    >>> sets = rank_confidence_sets([10.0, 5.0, 4.9, 0.0], np.eye(4) * 0.01)
    >>> sets.lower.tolist(), sets.upper.tolist(), sets.best.tolist()
    ([1, 2, 2, 4], [1, 3, 3, 4], [True, False, False, False])
    """
    theta, sigma, names = _inputs(estimates, cov, learners)
    confidence = check.renamed(confidence, coverage, "coverage", "confidence")
    check.confidence(confidence)
    if isinstance(draws, bool) or not isinstance(draws, (int, np.integer)) or draws < 100:
        raise RankwiseError(f"draws must be a whole number of at least 100; got {draws!r}")
    k = theta.size
    z = _draws(sigma, int(draws), check.seed(seed))
    signed = theta if larger_is_better else -theta
    sd = _difference_sds(sigma)
    # The joint sets: the answer when simultaneous, and the set for the best either way.
    shown, steps = _step_down(signed, z, sd, ~np.eye(k, dtype=bool), confidence, stepdown)
    lower, upper = 1 + shown.sum(axis=0), k - shown.sum(axis=1)
    best = lower == 1
    if not simultaneous:  # each learner's own family; the rounds counted are theirs
        steps = 0
        for i in range(k):
            mask = np.zeros((k, k), dtype=bool)
            mask[i, :] = mask[:, i] = True
            mask[i, i] = False
            own, used = _step_down(signed, z, sd, mask, confidence, stepdown)
            lower[i], upper[i] = 1 + own[:, i].sum(), k - own[i, :].sum()
            steps = max(steps, used)
    rank = 1 + (signed[None, :] > signed[:, None]).sum(axis=1)
    return RankSets(names, theta, rank, lower.astype(np.int64), upper.astype(np.int64), best,
                    float(confidence), bool(simultaneous), bool(stepdown), int(draws), int(seed),
                    int(steps), bool(larger_is_better))


def _inputs(estimates, cov, learners) -> tuple:
    theta = check.real_scores(np.asarray(estimates, dtype=float).ravel(), missing_ok=False)
    k = theta.size
    if k < 2:
        raise RankwiseError(f"rank sets need at least two learners; got {k}")
    sigma = check.real_scores(np.asarray(cov, dtype=float), missing_ok=False)
    if sigma.shape != (k, k):
        raise RankwiseError(f"the covariance must be {k} × {k} (one row and column per"
                            f" estimate); got {sigma.shape}")
    if not np.allclose(sigma, sigma.T, rtol=1e-10, atol=1e-14 * np.abs(sigma).max(initial=1)):
        raise RankwiseError("the covariance must be symmetric")
    names = tuple(str(n) for n in learners) if learners is not None else \
        tuple(str(i + 1) for i in range(k))
    if len(names) != k:
        raise RankwiseError(f"{len(names)} names for {k} estimates")
    return theta, (sigma + sigma.T) / 2, names


def _draws(sigma: np.ndarray, draws: int, seed: int) -> np.ndarray:
    """``draws`` × k draws of N(0, Σ), through Σ's eigen-decomposition (which takes singular
    covariances, such as that of mean ranks, whose rows sum to 0)."""
    values, vectors = np.linalg.eigh(sigma)
    root = vectors * np.sqrt(np.clip(values, 0.0, None))
    return np.random.default_rng(seed).standard_normal((draws, sigma.shape[0])) @ root.T


def _difference_sds(sigma: np.ndarray) -> np.ndarray:
    """σ_ij = √(Σ_ii + Σ_jj − 2Σ_ij), 0 where rounding leaves a tiny negative variance."""
    d = np.diag(sigma)
    return np.sqrt(np.clip(d[:, None] + d[None, :] - 2.0 * sigma, 0.0, None))


def _step_down(theta, z, sd, mask, confidence, stepdown) -> tuple:
    """``(shown, rounds)``: ``shown[i, j]`` when θ_i > θ_j is established for a pair of
    ``mask``. A pair whose difference has no spread (σ_ij = 0) is decided by its sign alone
    and takes no part in the maximum."""
    diff = theta[:, None] - theta[None, :]
    flat = sd == 0
    shown = mask & flat & (diff > 0)
    active = mask & ~flat
    rounds = 0
    while active.any():
        rounds += 1
        c = float(np.quantile(_max_statistic(z, sd, active), confidence))
        new = active & (diff - sd * c > 0)
        shown |= new
        active &= ~new
        if not stepdown or not new.any():
            break
    return shown, rounds


def _max_statistic(z, sd, active) -> np.ndarray:
    """Per draw, the largest (Z_i − Z_j)/σ_ij over the active pairs, a chunk of draws at a time
    (k = 1,000 has a million pairs), in single precision: the maxima are exact and the
    quantile's Monte Carlo error is far larger than the rounding of a difference."""
    k = z.shape[1]
    zz = z.astype(np.float32)
    out = np.empty(z.shape[0])
    if active.sum() * 8 < k * k:  # a few pairs (a marginal set): gather them
        rows, cols = np.nonzero(active)
        scale = (1.0 / sd[rows, cols]).astype(np.float32)
        step = max(1, _CHUNK_CELLS // rows.size)
        for start in range(0, zz.shape[0], step):
            block = zz[start:start + step]
            out[start:start + step] = ((block[:, rows] - block[:, cols]) * scale).max(axis=1)
        return out
    scale = np.where(active, 1.0 / np.where(sd > 0, sd, 1.0), 0.0).astype(np.float32)
    floor = np.where(active, 0.0, -np.inf).astype(np.float32)  # inactive pairs never the max
    if k > _PRUNE_FROM:
        return _pruned_maxima(zz, scale, floor, active)
    step = max(1, _CHUNK_CELLS // (k * k))
    for start in range(0, zz.shape[0], step):
        block = zz[start:start + step]
        cells = (block[:, :, None] - block[:, None, :]) * scale
        cells += floor
        out[start:start + step] = cells.reshape(block.shape[0], -1).max(axis=1)
    return out


def _pruned_maxima(zz, scale, floor, active) -> np.ndarray:
    """The maxima of :func:`_max_statistic` without the k² cells of every draw: the cells of
    each draw's ``_LOWEST`` lowest Z_j (columns) are taken exactly; every other cell of row i
    is at most (Z_i − τ)·s where τ is the next-lowest Z and s the row's largest (or, for a
    negative difference, smallest) active scale, so only the rows whose bound reaches the
    maximum found so far are taken whole. The bound leaves a margin for single-precision
    rounding; the maxima are the very numbers of the full computation, found in a few rows."""
    draws, k = zz.shape
    has = active.any(axis=1)
    s_high = np.where(has, np.where(active, scale, 0.0).max(axis=1), 0.0).astype(float)
    s_low = np.where(has, np.where(active, scale, np.inf).min(axis=1), 0.0).astype(float)
    out = np.empty(draws)
    step = max(1, _CHUNK_CELLS // (k * _LOWEST))
    for start in range(0, draws, step):
        block = zz[start:start + step]
        b = block.shape[0]
        part = np.argpartition(block, _LOWEST, axis=1)
        low = part[:, :_LOWEST]                                   # the lowest Z_j of each draw
        tau = np.take_along_axis(block, part[:, _LOWEST:_LOWEST + 1], axis=1).astype(float)
        z_low = np.take_along_axis(block, low, axis=1)
        # the cells (i, low_j), one row per low j, by the full computation's expression:
        # (Z_i − Z_j)·s_ij, then + floor, in single precision
        cells = (block[:, None, :] - z_low[:, :, None]) * scale.T[low]
        cells += floor.T[low]
        best = cells.reshape(b, -1).max(axis=1).astype(float)
        gap = block.astype(float) - tau
        bound = np.where(gap > 0, gap * s_high, gap * s_low)
        bound = np.where(has, bound + 1e-5 * np.abs(bound) + 1e-30, -np.inf)
        draw, row = np.nonzero(bound >= best[:, None])
        rows_at_once = max(1, _CHUNK_CELLS // k)
        for lo in range(0, draw.size, rows_at_once):
            d, r = draw[lo:lo + rows_at_once], row[lo:lo + rows_at_once]
            values = ((block[d, r][:, None] - block[d]) * scale[r] + floor[r]).max(axis=1)
            np.maximum.at(best, d, values)
        out[start:start + b] = best
    return out


def mean_rank_sets(ranks, *, learners=None, confidence: float = 0.95,
                   simultaneous: bool = True, stepdown: bool = True, draws: int = RANK_SET_DRAWS,
                   seed: int = DEFAULT_SEED, coverage: float | None = None) -> RankSets:
    """Rank sets of the learners' mean ranks from the N × k matrix of ranks within data sets
    (1 = best): θ̂ the mean ranks, Σ the covariance of a row of ranks divided by N (the data
    sets are the sample). Rank 1 goes to the smallest mean rank.

    Examples
    --------
    >>> import rankwise
    >>> t = rankwise.load_example("garcia2008")
    >>> ranks = rankwise.rank_within_datasets(t)
    >>> sets = rankwise.mean_rank_sets(ranks, learners=t.learners)
    >>> [f'{n}: {lo}-{hi}' for n, lo, hi in zip(sets.learners, sets.lower, sets.upper)]
    ['C4.5: 1-2', '1-NN: 3-4', 'NaiveBayes: 1-2', 'Kernel: 5-5', 'CN2: 3-4']
    """
    ranks = check.real_scores(ranks, missing_ok=False)
    if ranks.ndim != 2 or ranks.shape[0] < 2:
        raise RankwiseError("rank sets need an N × k matrix of ranks with N ≥ 2 data sets")
    n = ranks.shape[0]
    cov = np.cov(ranks, rowvar=False, ddof=1) / n
    confidence = check.renamed(confidence, coverage, "coverage", "confidence")
    return rank_confidence_sets(ranks.mean(axis=0), cov, learners=learners, confidence=confidence,
                                simultaneous=simultaneous, stepdown=stepdown, draws=draws,
                                seed=seed, larger_is_better=False)
