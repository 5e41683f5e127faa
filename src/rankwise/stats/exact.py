"""Permutation p-values for small tables: the Friedman statistic's exact distribution (a
dynamic programme over data sets) or a seeded Monte Carlo, and the exact distribution of a
difference of two learners' rank sums (Eisinga et al. 2017). See
``docs/reference/exact-friedman.md``.

Under H0 the k scores of a data set are exchangeable, so its (mid-)ranks are a uniformly random
arrangement of the ranks it has. Everything here is conditional on each data set's own ranks,
so ties are handled exactly.
"""

from __future__ import annotations

import math
from functools import lru_cache
from itertools import permutations

import numpy as np
from scipy import stats

from .._validate import score_input, seed as check_seed
from ..defaults import MONTE_CARLO_SEED as MC_SEED
from ..errors import RankwiseError
from .ranking import midranks
from .results import TestResult
from ._docs import shared_docs

#: ``method="auto"`` uses a permutation p-value below this many data sets (the chi-square and
#: normal approximations are weakest there); at or above it the approximations.
PERMUTATION_BELOW_N = 20
#: The exact programme is abandoned (for the Monte Carlo) when one step would hold more than
#: this many candidate states.
EXACT_MAX_CANDIDATES = 2_000_000
MONTE_CARLO_REPLICATES = 100_000
MONTE_CARLO_SEED = MC_SEED


def _doubled(ranks: np.ndarray) -> np.ndarray:
    """Mid-ranks are multiples of ½: twice them are exact integers."""
    return np.rint(2 * np.asarray(ranks, dtype=float)).astype(np.int64)


def _arrangements(row: np.ndarray) -> np.ndarray:
    """Every distinct arrangement of a row (equally likely under a uniform permutation)."""
    return np.array(sorted(set(permutations(row.tolist()))), dtype=np.int64)


def friedman_sum_of_squares_distribution(ranks):
    """The exact null distribution of Σ_j R_j² (R_j: rank sums, in doubled units), as
    ``(values, probabilities)``, or None when the programme outgrows
    ``EXACT_MAX_CANDIDATES``.

    States are the multisets of partial rank sums (sorted tuples: the statistic does not depend
    on which learner has which sum, and a uniform arrangement keeps that symmetry), coded as one
    integer each; a data set moves every state by each arrangement of its ranks.
    """
    # it depends only on each data set's sorted ranks, in order: kept per that sequence (a
    # data-set check, a multiverse or a simulation asks for the same one again), read-only;
    # the key is the sorted ranks' bytes (8 per cell), not a tuple of Python numbers
    r = np.sort(_doubled(ranks), axis=1)
    return _sum_of_squares_distribution(r.shape, r.tobytes())


@lru_cache(maxsize=32)
def _sum_of_squares_distribution(shape: tuple, cells: bytes):
    r = np.frombuffer(cells, dtype=np.int64).reshape(shape)
    n, k = r.shape
    base = int(r.sum(axis=1).max()) * n + 1  # a bound on any partial sum, plus one
    if k * math.log(base) >= math.log(2 ** 62):
        return None
    weights = base ** np.arange(k, dtype=np.int64)
    states = np.zeros((1, k), dtype=np.int64)
    probs = np.ones(1)
    cache = {}
    for row in r:
        key = tuple(sorted(row.tolist()))
        moves = cache.get(key)
        if moves is None:
            moves = cache[key] = _arrangements(np.array(key))
        if states.shape[0] * moves.shape[0] > EXACT_MAX_CANDIDATES:
            return None
        cand = (states[:, None, :] + moves[None, :, :]).reshape(-1, k)
        cand.sort(axis=1)
        codes = cand @ weights
        unique, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
        probs = np.bincount(inverse.ravel(), weights=np.repeat(probs / moves.shape[0],
                                                               moves.shape[0]),
                            minlength=unique.size)
        states = cand[first]
    totals = (states ** 2).sum(axis=1)
    values, inverse = np.unique(totals, return_inverse=True)
    probs = np.bincount(inverse.ravel(), weights=probs, minlength=values.size)
    values.flags.writeable = probs.flags.writeable = False
    return values, probs


#: The Friedman Monte Carlo arranges at most this many cells in all (replicates × n × k) ...
MONTE_CARLO_CELLS = 200_000_000
#: ... but never uses fewer replicates than this.
MONTE_CARLO_MIN = 10_000


def friedman_permutation_pvalue(ranks, *, method: str = "auto",
                                replicates: int = MONTE_CARLO_REPLICATES,
                                seed: int = MONTE_CARLO_SEED) -> dict:
    """P(Σ R_j² ≥ observed) under H0, conditional on each data set's ranks.

    ``method``: ``exact`` (the dynamic programme; refuses when too large), ``monte-carlo``, or
    ``auto`` (exact when it fits, else Monte Carlo). Returns ``{"pvalue", "method",
    "replicates", "standard_error"}``; the Monte Carlo p-value is (1 + hits)/(1 + replicates),
    never 0, with its binomial standard error.

    Every statistic that increases with Σ R_j² given the data sets' ranks has this p-value:
    Friedman's χ² with or without the tie correction, and the Iman-Davenport F.
    """
    seed = check_seed(seed)
    r = _doubled(ranks)
    observed = int((r.sum(axis=0) ** 2).sum())
    if method in ("auto", "exact"):
        dist = friedman_sum_of_squares_distribution(ranks)
        if dist is not None:
            values, probs = dist
            p = float(min(1.0, probs[values >= observed].sum()))
            return {"pvalue": p, "method": "exact", "replicates": None, "standard_error": 0.0}
        if method == "exact":
            raise RankwiseError("the exact Friedman distribution is too large for this table;"
                                " use --friedman-method monte-carlo or auto (in Python:"
                                " method='monte-carlo' or 'auto')")
    n, k = r.shape
    # Each replicate arranges every cell: past MONTE_CARLO_CELLS arranged cells the replicates
    # are cut (to at least MONTE_CARLO_MIN), so that 1,000 learners on 12 data sets take
    # seconds, not half a minute; the count used is returned and reported.
    replicates = int(min(replicates, max(MONTE_CARLO_MIN, MONTE_CARLO_CELLS // max(n * k, 1))))
    everyone = np.arange(k)
    totals = _arranged_sums([(everyone, row) for row in r], k, replicates, seed, np.int64)
    p, se = _monte_carlo_pvalue((totals ** 2).sum(axis=1) >= observed)
    return {"pvalue": p, "method": "monte-carlo", "replicates": replicates,
            "standard_error": se}


def _arranged_sums(blocks, k: int, replicates: int, seed: int, dtype) -> np.ndarray:
    """``replicates`` × k sums over data sets, each data set's values (``blocks``: pairs of
    learner columns and their values) arranged at random over its own learners."""
    rng = np.random.default_rng(seed)
    sums = np.zeros((replicates, k), dtype=dtype)
    for cols, values in blocks:
        sums[:, cols] += rng.permuted(np.broadcast_to(values, (replicates, values.size)), axis=1)
    return sums


def _monte_carlo_pvalue(hits: np.ndarray):
    """``(p, standard error)`` from the replicates at least as extreme as the observation:
    (1 + hits)/(1 + replicates), never 0."""
    replicates = hits.size
    p = (1 + int(np.count_nonzero(hits))) / (1 + replicates)
    return p, math.sqrt(p * (1 - p) / replicates)


#: The exact rank-sum difference is offered up to this many cells (n·k); beyond, the normal
#: z-tests of the ``friedman`` ranking are accurate and the convolution would be long.
EISINGA_MAX_CELLS = 200_000


def rank_sum_difference_distribution(ranks):
    """The exact null distribution of D = R_a − R_b, the difference of two learners' rank sums,
    given each data set's ranks, as ``(values, probabilities)`` in doubled units.

    Under H0 the two learners hold a uniformly random ordered pair of distinct positions of a
    data set's ranks, so each data set adds v_i − v_j for one of its k(k − 1) ordered pairs with
    equal probability; the n data sets are independent, so D's distribution is the convolution
    of theirs (Eisinga et al. 2017 derive it in closed form for untied ranks). It is the same
    for every pair of learners.
    """
    r = _doubled(ranks)
    n, k = r.shape
    dist = np.ones(1)
    low = 0
    cache = {}
    for row in r:
        key = tuple(sorted(row.tolist()))
        block = cache.get(key)
        if block is None:
            v = np.array(key)
            diffs = (v[:, None] - v[None, :])[~np.eye(k, dtype=bool)]
            lo = int(diffs.min())
            block = (lo, np.bincount(diffs - lo) / diffs.size)
            cache[key] = block
        lo, pmf = block
        dist = np.convolve(dist, pmf)
        low += lo
    return np.arange(low, low + dist.size), dist


def eisinga_pvalues(ranks) -> np.ndarray:
    """Two-sided exact p-values P(|D| ≥ |d_ab|) of every pair of learners (k × k, diagonal 1),
    from :func:`rank_sum_difference_distribution`."""
    ranks = np.asarray(ranks, dtype=float)
    if ranks.size > EISINGA_MAX_CELLS:
        raise RankwiseError(f"the exact pairwise rank-sum p-values are offered up to"
                            f" {EISINGA_MAX_CELLS:,} cells (this table has {ranks.size:,}); with"
                            " this many data sets the friedman ranking's z-tests are accurate")
    values, probs = rank_sum_difference_distribution(ranks)
    # P(|D| ≥ d) for d ≥ 0, from the upper tail of |D|
    magnitude = np.abs(values)
    order = np.argsort(-magnitude, kind="stable")
    tail = np.cumsum(probs[order])
    sums = _doubled(ranks).sum(axis=0)
    observed = np.abs(sums[:, None] - sums[None, :])
    # for each observed |d|, the probability of |D| ≥ |d|: the last position in the sorted
    # magnitudes that is still ≥ |d|
    sorted_mag = magnitude[order]
    idx = np.searchsorted(-sorted_mag, -observed, side="right") - 1
    p = np.where(idx >= 0, tail[np.maximum(idx, 0)], 0.0)
    p = np.minimum(p, 1.0)
    np.fill_diagonal(p, 1.0)
    return p


@score_input
@shared_docs
def skillings_mack(x, *, higher_is_better: bool | None = None, permutation: bool | None = None,
                   replicates: int = 20_000, seed: int = MONTE_CARLO_SEED):
    r"""Skillings-Mack test for a table with missing cells (NaN), Skillings & Mack (1981).

    Each data set with at least two values ranks them (mid-ranks, 1 = best); a learner's adjusted
    score there is A_ij = √(12/(k_i + 1))·(r_ij − (k_i + 1)/2), and 0 where it has no value (k_i:
    the data set's number of values). With A_j = Σ_i A_ij, under H0 Cov(A_s, A_t) = −λ_st (λ_st:
    data sets where both have values) and Var(A_s) = Σ_t λ_st, and

    .. math:: SM = A^\top \Sigma^- A

    (a generalised inverse; Σ has rank k − 1 when the learners are connected) is referred to χ²
    with rank(Σ) degrees of freedom. Data sets with fewer than two values are left out (and
    counted).

    Parameters
    ----------
    x : array_like, shape (n, k)
        Scores: one row per data set, one column per learner. NaN marks a missing cell.
    {{higher_is_better}}
    permutation : bool or None, default None
        Also a seeded Monte Carlo p-value (each data set's ranks arranged at random over its
        observed learners), reported as the p-value. None: when the table has fewer than
        ``PERMUTATION_BELOW_N`` usable data sets.
    replicates : int, default 20000
    seed : int, default 20170000

    Returns
    -------
    TestResult
        ``statistic``, ``pvalue``, ``df``, ``method`` (how the p-value was computed),
        ``convention``, ``details`` (also readable as attributes) and ``notes``.

    References
    ----------
    Skillings, J. H. and Mack, G. A. (1981). Technometrics 23, 171–177.

    Examples
    --------
    On a complete table without ties SM is Friedman's uncorrected statistic (García & Herrera
    2008: 39.647):

    >>> from rankwise import load_example, skillings_mack
    >>> round(skillings_mack(load_example("garcia2008").values).statistic, 3)
    39.647
    """
    seed = check_seed(seed)
    x = np.asarray(x, dtype=float)
    observed = ~np.isnan(x)
    usable = observed.sum(axis=1) >= 2
    x, observed = x[usable], observed[usable]
    n, k = x.shape
    adjusted = np.zeros((n, k))
    cov = np.zeros((k, k))
    blocks = []
    for i in range(n):
        cols = np.flatnonzero(observed[i])
        ki = cols.size
        r = midranks(x[i, cols], descending=higher_is_better)
        a = np.sqrt(12.0 / (ki + 1)) * (r - (ki + 1) / 2.0)
        adjusted[i, cols] = a
        blocks.append((cols, a))
        cov[np.ix_(cols, cols)] -= 1.0
    np.fill_diagonal(cov, 0.0)
    np.fill_diagonal(cov, -cov.sum(axis=1))
    totals = adjusted.sum(axis=0)
    inverse = np.linalg.pinv(cov)
    stat = float(totals @ inverse @ totals)
    df = int(np.linalg.matrix_rank(cov))
    p_chi2 = float(stats.chi2.sf(stat, df)) if df > 0 else 1.0
    details = {"n": int(n), "k": int(k), "n_dropped_datasets": int((~usable).sum()),
               "n_missing_cells": int((~observed).sum()), "pvalue_chi2": p_chi2,
               "adjusted_sums": totals, "monte_carlo_replicates": None,
               "monte_carlo_standard_error": None}
    notes = []
    if df < k - 1:
        notes.append(f"the learners are not all connected through shared data sets; the test has"
                     f" {df} degrees of freedom instead of {k - 1}")
    if details["n_dropped_datasets"]:
        notes.append(f"{details['n_dropped_datasets']} data set(s) with fewer than two values"
                     " left out")
    p, method = p_chi2, "chi2"
    if permutation is None:
        permutation = n < PERMUTATION_BELOW_N
    if permutation and df > 0:
        sims = _arranged_sums(blocks, k, replicates, seed, float)
        sim_stats = np.einsum("ij,jk,ik->i", sims, inverse, sims)
        p, se = _monte_carlo_pvalue(sim_stats >= stat * (1 - 1e-12))
        method = "monte-carlo"
        details.update({"monte_carlo_replicates": replicates, "monte_carlo_standard_error": se})
    if np.any([np.unique(a).size < a.size for _, a in blocks]):
        notes.append("ties within data sets: the chi-square reference assumes none (the"
                     " permutation p-value, when given, conditions on them)")
    return TestResult(test="skillings_mack", statistic=stat, pvalue=p, method=method,
                      convention="default", df=(df,), details=details, notes=tuple(notes))
