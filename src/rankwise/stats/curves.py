r"""Numbers along a budget, computed on a cube of curves.

Every function here takes the cube ``values[l, p, r, g]``: learner l's value on problem p in its
run r at the g-th point of a budget grid (a step function: the value last logged at or before
that budget, NaN before a run's first log and where a run is absent), with ``grid`` the sorted
budgets and ``final[l, p, r]`` each run's own budget (its last logged budget, NaN where absent).
The functions that compare values against each other take them oriented higher-is-better
(:meth:`rankwise.Curves.oriented` negates a minimised value), so each formula is written once.

- :func:`aocc`: the area over the convergence curve (IOHinspector's ``get_aocc``);
- :func:`running_times`, :func:`ert`, :func:`ecdf`: the fixed-target view (expected running time
  with failed runs counting their whole budget, as COCO's ``sp``; the ECDF of running times over
  targets);
- :func:`performance_profile`, :func:`data_profile`: Dolan–Moré and Moré–Wild;
- :func:`dewancker`: Optuna's ranking of solvers per problem (Dewancker et al. 2016, §2.1.1),
  Borda points and firsts summed over problems;
- :func:`mean_rank_band`: mean ranks over budgets with a band simultaneous over learners and
  budgets (a bootstrap of the problems, max-t).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

import numpy as np
from scipy import stats
from scipy.special import binom

from ..defaults import DEFAULT_DECIMALS
from ..errors import RankwiseError
from .ranking import round_scores
from .resample import bootstrap_counts


def _axis(grid: np.ndarray, scale: str) -> np.ndarray:
    if scale == "linear":
        return np.asarray(grid, dtype=float)
    if scale == "log":
        if (np.asarray(grid) <= 0).any():
            raise RankwiseError("a log budget axis needs budgets above 0; use"
                                " budget_scale='linear'")
        return np.log10(np.asarray(grid, dtype=float))
    raise RankwiseError(f"budget scale {scale!r}: use linear or log")


def backfill(values: np.ndarray) -> np.ndarray:
    """Each run's curve with its first logged value carried back to the start of the grid
    (before its first log a run is taken at its first value, as IOHinspector's AOCC does)."""
    v = np.array(values, dtype=float, copy=True)
    present = ~np.isnan(v)
    first = present.argmax(axis=-1)
    head = np.take_along_axis(v, first[..., None], axis=-1)
    before = np.arange(v.shape[-1]) < first[..., None]
    np.copyto(v, np.broadcast_to(head, v.shape), where=before)
    return v


def normalise(values: np.ndarray, lb, ub, *, maximize: bool, scale: str = "linear") -> np.ndarray:
    r"""Values in their own units mapped to [0, 1] with 1 = best:
    :math:`n = \mathrm{clip}((f(v) - f(lb))/(f(ub) - f(lb)), 0, 1)`, f the identity or log10
    (``scale="log"``), and 1 − n for a minimised value. ``lb`` and ``ub`` broadcast against
    ``values`` (one pair per problem, say). This is IOHinspector's ``transform_fval``.

    Examples
    --------
    A minimised value on IOHinspector's default bounds, 1e-8 to 1e8 on a log scale:

    >>> import numpy as np
    >>> from rankwise.stats.curves import normalise
    >>> gap = np.array([1e-8, 1.0, 1e8])
    >>> normalise(gap, 1e-8, 1e8, maximize=False, scale="log").tolist()
    [1.0, 0.5, 0.0]
    """
    v = np.asarray(values, dtype=float)
    lb = np.asarray(lb, dtype=float)
    ub = np.asarray(ub, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        if scale == "log":
            if (lb <= 0).any():
                raise RankwiseError("a log value scale needs a lower bound above 0 (the"
                                    " minimised gap to the optimum, say), and a problem's"
                                    " values reach 0 or below: give bounds above 0"
                                    " (--aocc-bounds 1e-8,1e8, as IOHinspector) or the"
                                    " linear scale")
            n = (np.log10(v) - np.log10(lb)) / (np.log10(ub) - np.log10(lb))
        elif scale == "linear":
            n = (v - lb) / (ub - lb)
        else:
            raise RankwiseError(f"value scale {scale!r}: use linear or log")
    n = np.clip(n, 0.0, 1.0)
    return n if maximize else 1.0 - n


def aocc(values: np.ndarray, grid, final: np.ndarray, *, budget: float | None = None,
         budget_scale: str = "linear", start: float | None = None) -> np.ndarray:
    r"""The area over the convergence curve of each run, normalised by the budget.

    With ``values`` already normalised to [0, 1] (1 = best; :func:`normalise`), the run's step
    curve v(b) from ``start`` to the budget B:

    .. math:: \mathrm{AOCC} = \frac{1}{t(B) - t(s)} \int_{s}^{B} v(b)\, dt(b),

    t the budget axis (identity, or log10 with ``budget_scale="log"``). Before its first log a
    run is at its first value; after its own budget it keeps its last. ``start`` defaults to 0
    on a linear axis and to 1 on a log axis (both IOHinspector's, whose ``get_aocc`` this equals:
    its rows at evaluations ≤ B, a row at 0 with the run's worst value and one at B).

    Returns the (l, p, r) array of areas (NaN for absent runs).

    Examples
    --------
    IOHinspector's own test: one run at 10, 7, 4 at evaluations 0, 5, 10 and a budget of 10
    has the area (10·5 + 7·5)/10 = 8.5:

    >>> import numpy as np
    >>> from rankwise.stats.curves import aocc
    >>> float(aocc(np.array([10.0, 7.0, 4.0]), [0, 5, 10], np.array(10.0), budget=10))
    8.5
    """
    grid = np.asarray(grid, dtype=float)
    v = backfill(values)
    final = np.asarray(final, dtype=float)
    big = float(np.nanmax(final)) if budget is None else float(budget)
    if start is None:
        start = 0.0 if budget_scale == "linear" else 1.0
    keep = grid <= big
    g = grid[keep]
    v = v[..., keep]
    t = _axis(np.concatenate([[start], g, [big]]), budget_scale)
    width = np.diff(t)
    if (width < 0).any():
        raise RankwiseError(f"the AOCC starts at budget {start:g}, after the first logged"
                            f" budget {g[0]:g}; give a smaller start")
    # value on [start, g0) is the run's first value (the backfill), then the step curve
    first = v[..., :1] if v.shape[-1] else np.full(v.shape[:-1] + (1,), np.nan)
    steps = np.concatenate([first, v], axis=-1)
    area = np.einsum("...g,g->...", np.nan_to_num(steps), width)
    area = area / (t[-1] - t[0]) if t[-1] > t[0] else np.full(area.shape, np.nan)
    return np.where(np.isnan(final), np.nan, area)


def running_times(values: np.ndarray, grid, targets: np.ndarray) -> np.ndarray:
    """The first budget of the grid at which each run's value reaches each target
    (``value ≥ target``, values oriented higher-is-better); inf where it never does.

    ``targets`` broadcasts against ``values[..., 0]`` with a trailing target axis (one row of
    targets per problem: shape (1, P, 1, T)). Returns shape values.shape[:-1] + (T,).

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.stats.curves import running_times
    >>> v = np.array([[0.2, 0.5, 0.9], [0.1, 0.1, 0.6]])  # two runs at budgets 1, 10, 100
    >>> running_times(v, [1, 10, 100], np.array([[0.5, 0.8]])).tolist()
    [[10.0, 100.0], [100.0, inf]]
    """
    grid = np.asarray(grid, dtype=float)
    v = np.asarray(values, dtype=float)
    best = np.fmax.accumulate(np.where(np.isnan(v), -np.inf, v), axis=-1)
    targets = np.asarray(targets, dtype=float)
    out = np.full(np.broadcast_shapes(v.shape[:-1], targets.shape[:-1]) + targets.shape[-1:],
                  np.inf)
    for t in range(targets.shape[-1]):  # a target at a time keeps the temporaries to one cube
        hit = best >= targets[..., t:t + 1]
        reached = hit[..., -1]
        first = hit.argmax(axis=-1)
        out[..., t] = np.where(reached, grid[first], np.inf)
    return out


def ert(times: np.ndarray, final: np.ndarray) -> tuple:
    r"""Expected running time to each target, per (learner, problem): the budgets spent by all
    runs (a failed run counts its whole budget) over the number of successful runs,

    .. math::

        \mathrm{ERT} = \frac{\sum_{r} \min(\mathrm{rt}_r, B_r)}
                            {\#\{r: \mathrm{rt}_r < \infty\}},

    inf when no run succeeds (COCO's ``toolsstats.sp`` with ``issuccessful``; IOHinspector's
    ``ERT`` when every run has the same budget). ``times`` is (l, p, r, T), ``final`` (l, p, r).
    Returns (ert, successes, runs), each (l, p, T).

    Examples
    --------
    Two runs of budget 100: one reaches the first target at 10, the other at 100; neither
    reaches the second. ERT = (10 + 100)/2 and inf:

    >>> import numpy as np
    >>> from rankwise.stats.curves import ert
    >>> times = np.array([[10.0, np.inf], [100.0, np.inf]]).reshape(1, 1, 2, 2)
    >>> e, successes, runs = ert(times, np.array([[[100.0, 100.0]]]))
    >>> e.tolist(), successes.tolist()
    ([[[55.0, inf]]], [[[2, 0]]])
    """
    final = np.asarray(final, dtype=float)[..., None]
    present = ~np.isnan(final)
    ok = np.isfinite(times) & present
    spent = np.where(ok, times, np.where(present, final, 0.0)).sum(axis=2)
    successes = ok.sum(axis=2)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(successes > 0, spent / np.maximum(successes, 1), np.inf)
    return out, successes, np.broadcast_to(present.sum(axis=2), out.shape)


def ecdf(times: np.ndarray, budgets) -> np.ndarray:
    """Per learner, the fraction of its (problem, run, target) triples reached by each budget:
    shape (l, len(budgets)). Absent runs count in no denominator (their times are NaN).

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.stats.curves import ecdf
    >>> times = np.array([[[[1.0, np.inf], [10.0, 100.0]]]])  # 2 runs x 2 targets
    >>> ecdf(times, [1, 10, 100]).tolist()
    [[0.25, 0.5, 0.75]]
    """
    budgets = np.asarray(budgets, dtype=float)
    t = times.reshape(times.shape[0], -1)
    counted = ~np.isnan(t)
    n = counted.sum(axis=1)
    out = np.empty((t.shape[0], budgets.size))
    for i, row in enumerate(t):
        r = np.sort(row[counted[i]])
        out[i] = np.searchsorted(r, budgets, side="right") / max(n[i], 1)
    return out


def performance_profile(cost: np.ndarray, taus=None) -> tuple:
    r"""Dolan–Moré performance profiles from the (problem × solver) costs (inf or NaN =
    failed): the ratio :math:`r_{p,s} = t_{p,s}/\min_s t_{p,s}` and

    .. math:: \rho_s(\tau) = \frac{1}{n_p}\,\#\{p : r_{p,s} \le \tau\}.

    A problem no solver solves counts in every denominator and for nobody. Returns
    ``(taus, rho)``; ``taus`` default: every distinct finite ratio (the profile's breakpoints),
    as perprof-py's ``ProfileData`` (its ``breakpoints`` and ``cumulative``).

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.stats.curves import performance_profile
    >>> cost = np.array([[1.0, 2.0], [4.0, 2.0], [3.0, np.inf]])  # 3 problems x 2 solvers
    >>> taus, rho = performance_profile(cost)
    >>> taus.tolist(), rho.round(3).tolist()
    ([1.0, 2.0], [[0.667, 1.0], [0.333, 0.667]])
    """
    c = np.where(np.isnan(cost), np.inf, np.asarray(cost, dtype=float))
    if (c <= 0).any():
        raise RankwiseError("performance profiles need costs above 0 (a running time, a"
                            " number of evaluations)")
    low = c.min(axis=1, keepdims=True)
    with np.errstate(invalid="ignore"):
        ratio = np.where(np.isfinite(low), c / low, np.inf)
    return _profile(ratio, taus)


def _profile(x: np.ndarray, at) -> tuple:
    """``(at, share)``: per column of ``x`` (problems × solvers), the share of problems with
    x ≤ each point of ``at``; ``at`` default: every distinct finite value, or
    PROFILE_POINTS of them spread evenly on a log scale (the first and last kept) when there
    are more."""
    if at is None:
        at = np.unique(x[np.isfinite(x)])
        if at.size > PROFILE_POINTS:
            at = np.unique(np.concatenate([at[[0, -1]], np.geomspace(at[0], at[-1],
                                                                      PROFILE_POINTS)]))
    at = np.asarray(at, dtype=float)
    ordered = np.sort(x, axis=0)
    share = np.stack([np.searchsorted(ordered[:, s], at, side="right")
                      for s in range(x.shape[1])]) / x.shape[0]
    return at, share


def data_profile(cost: np.ndarray, alphas=None, *, dimensions=None) -> tuple:
    r"""Moré–Wild data profiles from the (problem × solver) costs in budget units (inf or NaN =
    the convergence test was never met):

    .. math:: d_s(\alpha) = \frac{1}{n_p}\,\#\{p : t_{p,s} / (n_p + 1) \le \alpha\},

    with :math:`n_p` the problem's dimension (``dimensions``; without them the divisor is 1 and
    α is in budget units). Returns ``(alphas, d)``.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.stats.curves import data_profile
    >>> alphas, d = data_profile(np.array([[1.0, 2.0], [4.0, 2.0], [3.0, np.inf]]))
    >>> alphas.tolist(), d.round(3).tolist()
    ([1.0, 2.0, 3.0, 4.0], [[0.333, 0.333, 0.667, 1.0], [0.0, 0.667, 0.667, 0.667]])
    """
    c = np.where(np.isnan(cost), np.inf, np.asarray(cost, dtype=float))
    if dimensions is not None:
        c = c / (np.asarray(dimensions, dtype=float)[:, None] + 1.0)
    return _profile(c, alphas)


def convergence_targets(first: np.ndarray, best: np.ndarray, tolerance: float) -> np.ndarray:
    r"""Moré–Wild's convergence test as a target per problem: reached when
    :math:`f \le f_L + \tau (f_0 - f_L)` (minimising), :math:`f_0` the start value and
    :math:`f_L` the best value any solver found. In higher-is-better values:
    ``best − τ·(best − first)``."""
    return best - float(tolerance) * (best - first)


@dataclass(frozen=True)
class Dewancker:
    """Optuna's ranking of solvers (``DewanckerRanker``), per problem and summed.

    ``wins[p, s]``, ``borda[p, s]`` (the number of solvers with fewer wins) and ``first[p, s]``
    per problem; ``alpha`` the level its schedule picked; ``metrics_used[p]`` how many of the
    metrics (best value, then AUC) the problem needed before the wins had no ties.
    """

    solvers: tuple
    problems: tuple
    alpha: float
    wins: np.ndarray
    borda: np.ndarray
    first: np.ndarray
    metrics_used: np.ndarray

    @property
    def borda_total(self) -> np.ndarray:
        return self.borda.sum(axis=0)

    @property
    def firsts(self) -> np.ndarray:
        return self.first.sum(axis=0)


def dewancker_alpha(k: int) -> float:
    """The level of Optuna's report: the first of 0.075, 0.05, 0.025, 0.01, then each divided by
    10, 100, 1000, whose family-wise error over the k(k−1)/2 pairs stays below 0.05."""
    candidates = np.array([0.075, 0.05, 0.025, 0.01] * 4) / np.repeat([1, 10, 100, 1000], 4)
    for cand in candidates:
        if 1 - np.power(1 - cand, binom(k, 2)) < 0.05:
            return float(cand)
    return float(candidates[-1])


def dewancker(metrics: list, *, solvers, problems) -> Dewancker:
    """Dewancker et al.'s ranking as Optuna's ``report_bayesmark.py`` runs it.

    ``metrics`` is a list, in precedence order, of ``[p][s] -> array of per-run values`` where
    smaller is better (Optuna's: each run's best value, then its AUC, the mean of its running
    best). Per problem and metric, every ordered pair (a, b) gives a a win when the one-sided
    Mann–Whitney test (scipy, ``alternative="less"``: a's values smaller) has p < α; wins add
    up over the metrics, and the next metric is used only while two solvers have the same
    number of wins. Borda points: how many solvers have fewer wins; a first: the most.

    Examples
    --------
    Six runs each, A's all better: with two solvers α = 0.025 and A wins (exact p = 0.001):

    >>> from rankwise.stats.curves import dewancker
    >>> runs = [[1.0, 2, 3, 4, 5, 6], [7.0, 8, 9, 10, 11, 12]]
    >>> d = dewancker([[runs]], solvers=("A", "B"), problems=("p",))
    >>> d.alpha, d.wins.tolist(), d.borda.tolist(), d.firsts.tolist()
    (0.025, [[1, 0]], [[1, 0]], [1, 0])
    """
    k = len(solvers)
    alpha = dewancker_alpha(k)
    n_p = len(problems)
    wins = np.zeros((n_p, k), dtype=int)
    used = np.zeros(n_p, dtype=int)
    for p in range(n_p):
        for m, metric in enumerate(metrics):
            used[p] = m + 1
            wins[p] += _pair_wins(metric[p], alpha)
            if len(np.unique(wins[p])) == k:
                break
    borda = (wins[:, :, None] > wins[:, None, :]).sum(axis=2)
    first = borda == borda.max(axis=1, keepdims=True)
    return Dewancker(tuple(solvers), tuple(problems), alpha, wins, borda, first, used)


def _pair_wins(samples, alpha: float) -> np.ndarray:
    """Per solver, how many others it beats: scipy's one-sided Mann-Whitney p < alpha. All
    pairs in one broadcast call when every solver has the same number of runs, above eight
    (scipy's "auto" is then the normal approximation for every pair, as pair by pair);
    otherwise pair by pair, as Optuna's script calls it."""
    k = len(samples)
    sizes = {len(s) for s in samples}
    if len(sizes) == 1 and min(sizes) > 8:
        x = np.asarray(samples, dtype=float)
        p = stats.mannwhitneyu(x[:, None, :], x[None, :, :], axis=-1,
                               alternative="less").pvalue
        np.fill_diagonal(p, 1.0)
        return (p < alpha).sum(axis=1)
    won = np.zeros(k, dtype=int)
    for a, b in permutations(range(k), 2):
        if stats.mannwhitneyu(samples[a], samples[b], alternative="less").pvalue < alpha:
            won[a] += 1
    return won


def within_problem_ranks(means: np.ndarray, decimals: int | None = DEFAULT_DECIMALS
                         ) -> np.ndarray:
    """Ranks (1 = best, mid-ranks for ties) of the learners within each (problem, budget) of
    the (l, p, g) means, higher values better, the values rounded to ``decimals`` first (as
    :func:`rankwise.compare` rounds them, so the same cells tie). Returns (g, p, l)."""
    x = np.moveaxis(round_scores(means, decimals), 0, -1)  # (p, g, l)
    r = stats.rankdata(-x, axis=-1, method="average", nan_policy="omit")
    return np.moveaxis(r, 1, 0)


#: Profiles are evaluated at every breakpoint up to this many, else at this many points.
PROFILE_POINTS = 1_000
#: Resampled mean ranks held at once by :func:`mean_rank_band` (draws x budgets x learners).
BAND_CELLS = 4_000_000


def mean_rank_band(ranks: np.ndarray, *, confidence: float = 0.95, draws: int = 2000,
                   seed: int = 0) -> tuple:
    r"""Mean ranks over budgets with a band simultaneous over every learner and budget.

    ``ranks`` is (g, p, l). With :math:`\hat s` each mean rank's standard error (the sample
    standard deviation over the n problems over :math:`\sqrt n`), the band is
    :math:`\bar R \pm c\,\hat s`, c the ``confidence`` quantile of the largest studentized
    deviation :math:`|\bar R^* - \bar R| / \hat s^*` over learners and budgets in ``draws``
    bootstrap samples of the problems (the same draw at every budget: a problem's curves go
    together; :math:`\hat s^*` recomputed in each sample, the bootstrap-t, which carries the
    heavier tails of a t statistic at small n into c). All the band's intervals hold together
    with probability ``confidence``. Both :math:`\hat s` and :math:`\hat s^*` are floored at
    1/(2n) (ranks are discrete: n equal ranks have no spread), so no interval has zero width.

    Returns ``(mean, low, high, c)``, each (g, l) but c.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.stats.curves import mean_rank_band
    >>> ranks = np.array([[[1.0, 2], [2, 1], [1, 2], [1, 2], [1, 2], [2, 1]]])  # 1 budget
    >>> mean, low, high, c = mean_rank_band(ranks, draws=200, seed=0)
    >>> mean.round(3).tolist(), bool((low <= mean).all() and (mean <= high).all())
    ([[1.333, 1.667]], True)
    """
    g, n, k = ranks.shape
    mean = ranks.mean(axis=1)
    # The floor below holds for the data too: a learner ranked alike on every problem has no
    # spread, and a band of zero width would claim its mean rank is known exactly.
    se = np.maximum(ranks.std(axis=1, ddof=1) / np.sqrt(n), 0.5 / n)
    rng = np.random.default_rng(seed)
    weights = bootstrap_counts(draws, n, rng) / n
    flat = ranks.transpose(1, 0, 2).reshape(n, g * k)  # problems x (budget, learner)
    square = flat * flat
    largest = np.empty(draws)
    step = max(1, BAND_CELLS // max(1, g * k))  # draws at a time: bounded temporaries
    for start in range(0, draws, step):
        w = weights[start:start + step]
        first = w @ flat
        var = np.maximum(w @ square - first * first, 0.0) * n / (n - 1)
        # Ranks are discrete: a resample can hold one rank of a learner n times (se* = 0).
        # Its se* is floored at 1/(2n), the standard error of n ranks that all agree but one,
        # by half a rank (the smallest step a mid-rank takes), so no draw is unbounded.
        se_star = np.maximum(np.sqrt(var / n), 0.5 / n)
        largest[start:start + step] = (np.abs(first - mean.ravel()) / se_star).max(axis=1)
    c = float(np.quantile(largest, confidence, method="higher"))
    return mean, mean - c * se, mean + c * se, c


def null_band_coverage(*, reps: int = 200, problems: int = 20, learners: int = 5,
                       budgets: int = 8, confidence: float = 0.95, draws: int = 1000,
                       seed: int = 0) -> float:
    """How often the simultaneous rank band covers every learner's true mean rank at every
    budget when the learners' curves have one distribution (the null): each problem has its
    own curve, each learner's curve on it that curve plus a random walk along the budget (so
    ranks are correlated across budgets, as real curves are). Under the null every true mean
    rank is (k + 1)/2; the returned coverage should be at least ``confidence`` (the slow test
    and the gallery's figure run it at full size).

    Examples
    --------
    >>> from rankwise.stats.curves import null_band_coverage
    >>> null_band_coverage(reps=20, problems=10, learners=3, budgets=4, draws=200, seed=0)
    1.0
    """
    rng = np.random.default_rng(seed)
    truth = (learners + 1) / 2
    covered = 0
    for _ in range(reps):
        base = np.cumsum(rng.random((problems, budgets)), axis=1)
        walk = np.cumsum(rng.normal(0, 1, (learners, problems, budgets)), axis=2)
        means = base[None] + walk  # (l, p, g)
        ranks = within_problem_ranks(means)
        _, low, high, _ = mean_rank_band(ranks, confidence=confidence, draws=draws,
                                         seed=int(rng.integers(2**31)))
        covered += bool(((low <= truth) & (truth <= high)).all())
    return covered / reps
