"""Learners compared along a budget, not only at its end.

:func:`compare_curves` runs every view of :mod:`rankwise.stats.curves` on a
:class:`~rankwise.tables.curves.Curves` and decides each once, for every report to read:

- **rank over budget**: the learners' mean ranks (within problems, of the mean over runs) at
  each budget of a display grid, with a band simultaneous over learners and budgets;
- **checkpoints**: at a few budgets, the mean over runs as a score table through
  :func:`rankwise.compare` (omnibus, the verdict, the CD diagram's cliques), and the pairs
  whose decision changes from one checkpoint to the next;
- **does more budget help**: Page's trend test per learner over the checkpoints, and the
  checkpoint from which no learner's rank differs significantly from its rank at the last one
  (Wilcoxon signed-rank per learner and checkpoint, Holm over all of them);
- **AOCC**: the area over each run's normalised convergence curve, averaged over runs, as a
  score table through :func:`rankwise.compare`;
- **fixed target**: ERT per learner, problem and target, and each learner's ECDF of running
  times over the display grid;
- **profiles**: Dolan–Moré performance profiles and Moré–Wild data profiles of the ERT to the
  convergence test ``f ≤ f_L + τ (f_0 − f_L)``;
- **Dewancker**: Optuna's ranking (best value, then AUC), Borda points and firsts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
from scipy import stats

from ..defaults import CURVE_DRAWS, CURVE_SEED
from ..errors import RankwiseError
from ..stats.adjust import adjust
from ..stats.curves import (aocc as area_over, convergence_targets, data_profile, dewancker,
                            ecdf, ert, mean_rank_band, normalise, performance_profile,
                            running_times, within_problem_ranks)
from ..tables.curves import Curves, read_curves

#: Budgets of the rank band and the ECDF when the grid has more points than this.
DISPLAY_POINTS = 25
#: Checkpoints (budgets where everything compare does runs) unless given; a grid of at most
#: ALL_CHECKPOINTS budgets has every one as a checkpoint.
CHECKPOINTS = 4
ALL_CHECKPOINTS = 6
#: The rank band needs this many problems (the bootstrap resamples them).
BAND_MIN_PROBLEMS = 5


@dataclass(frozen=True)
class AoccOptions:
    """How runs are turned into areas over their convergence curves.

    bounds : "problem" or (low, high)
        ``problem``: each problem's worst and best logged values (so every problem spans
        [0, 1]); a pair: the same bounds on every problem, in the values' units (IOHinspector's
        defaults are ``(1e-8, 1e8)`` with ``value_scale="log"``).
    value_scale, budget_scale : "linear" or "log"
    budget : float, optional
        The budget the area runs to; default: the largest run budget.
    """

    bounds: object = "problem"
    value_scale: str = "linear"
    budget_scale: str = "linear"
    budget: float | None = None


@dataclass(frozen=True)
class Checkpoint:
    """One budget: the comparison of the mean over runs there, and its significant pairs."""

    budget: float
    comparison: object
    significant: frozenset


@dataclass(frozen=True)
class CurveComparison:
    """Everything :func:`compare_curves` decided (see the module docstring for each part)."""

    curves: Curves
    alpha: float
    confidence: float
    display: np.ndarray
    mean_ranks: np.ndarray
    band_low: np.ndarray
    band_high: np.ndarray
    band_c: float
    checkpoints: tuple
    changes: tuple
    trend: dict
    settle: float | None
    settle_pvalues: np.ndarray
    aocc: np.ndarray
    aocc_options: AoccOptions
    aocc_comparison: object
    targets: np.ndarray
    ert: np.ndarray
    successes: np.ndarray
    ecdf: np.ndarray
    tolerance: float
    profile_cost: np.ndarray
    performance: tuple
    data: tuple
    dewancker: object
    draws: int
    seed: int
    notes: tuple = ()
    settings: dict = field(default_factory=dict)

    @property
    def learners(self) -> tuple:
        return self.curves.learners

    @property
    def problems(self) -> tuple:
        return self.curves.problems


def _display_budgets(grid: np.ndarray, start: float, points: int) -> np.ndarray:
    g = grid[grid >= start]
    if g.size <= points:
        return g
    lo, hi = g[0], g[-1]
    if lo > 0 and hi / lo >= 100:
        want = np.geomspace(lo, hi, points)
    else:
        want = np.linspace(lo, hi, points)
    idx = np.searchsorted(g, want, side="right") - 1
    return np.unique(g[np.clip(idx, 0, g.size - 1)])


def _common_start(curves: Curves) -> float:
    """The first budget at which every run present has logged a value."""
    present = ~np.isnan(curves.final)
    logged = ~np.isnan(curves.values)
    first = np.where(logged.any(axis=-1), logged.argmax(axis=-1), curves.grid.size - 1)
    return float(curves.grid[first[present].max()]) if present.any() else float(curves.grid[0])


def _significant_pairs(comparison) -> frozenset:
    """The pairs the CD diagram says differ: no clique holds both."""
    plan = comparison.figures.get("cd_diagram")
    learners = comparison.table.learners
    if plan is None or not plan.drawn or plan.cliques is None:
        return frozenset()
    cliques = [set(c) for c in plan.cliques]
    return frozenset((a, b) for a, b in combinations(learners, 2)
                     if not any(a in c and b in c for c in cliques))


def _trend(curves: Curves, idx: np.ndarray, budgets) -> dict:
    from ..stats.family import page_trend

    if len(idx) < 3 or len(curves.problems) < 2:
        return {}
    means = curves.means()[..., idx]  # (l, p, c), higher better
    names = [f"{b:g}" for b in budgets]
    out = {}
    for l, learner in enumerate(curves.learners):
        x = means[l]
        if np.isnan(x).any():
            continue
        out[learner] = page_trend(x, names, learners=names, higher_is_better=True)
    return out


def _settle(ranks_at: np.ndarray, budgets, alpha: float) -> tuple:
    """Wilcoxon signed-rank of each learner's within-problem ranks at each checkpoint against
    the last, Holm over every (checkpoint, learner); the first checkpoint from which none
    differs."""
    c, n, k = ranks_at.shape
    p = np.ones((c, k))
    for j in range(c - 1):
        d = ranks_at[j] - ranks_at[-1]
        for l in range(k):
            if np.any(d[:, l] != 0):
                p[j, l] = stats.wilcoxon(d[:, l], zero_method="zsplit").pvalue
    adj = adjust(p[:-1].ravel(), "holm").reshape(c - 1, k) if c > 1 else p[:0]
    settle = None
    for j in range(c - 1, -1, -1):
        if j < c - 1 and (adj[j] < alpha).any():
            break
        settle = float(budgets[j])
    return settle, adj


def _dewancker(curves: Curves):
    best = np.fmax.accumulate(np.where(np.isnan(curves.oriented()), -np.inf,
                                       curves.oriented()), axis=-1)
    inside = curves.grid[None, None, None, :] <= curves.final[..., None]
    started = np.isfinite(best)
    within = inside & started
    smaller = -best  # Optuna's metrics are minimised
    with np.errstate(invalid="ignore"):
        final_best = np.where(within, smaller, np.inf).min(axis=-1)
        auc = np.where(within, smaller, 0.0).sum(axis=-1) / within.sum(axis=-1)
    metrics = []
    for m in (final_best, auc):
        metrics.append([[m[s, p][~np.isnan(curves.final[s, p])] for s in
                         range(len(curves.learners))] for p in range(len(curves.problems))])
    return dewancker(metrics, solvers=curves.learners, problems=curves.problems)


def compare_curves(curves, *, budgets=None, alpha: float = 0.05, confidence: float = 0.95,
                   aocc: AoccOptions | None = None, targets=10, tolerance: float = 1e-3,
                   draws: int = CURVE_DRAWS, seed: int = CURVE_SEED,
                   **read_options) -> CurveComparison:
    """Compare learners along the budget (every view at once; see the module docstring).

    Parameters
    ----------
    curves : Curves, path or DataFrame
        Anything :func:`rankwise.read_curves` reads; ``read_options`` go to it.
    budgets : sequence of float, optional
        The checkpoints; default: four budgets evenly spread (on a log axis when the budgets
        span two decades or more) from the first budget at which every run has a value.
    alpha, confidence : float
        The level of every test, and of the rank band.
    aocc : AoccOptions, optional
    targets : int or sequence of float
        Fixed targets: that many per problem evenly spread between its worst and best logged
        value (the best included), or the same values on every problem.
    tolerance : float
        τ of the profiles' convergence test.
    draws, seed : int
        The bootstrap of the rank band.

    Examples
    --------
    >>> import rankwise
    >>> c = rankwise.compare_curves(rankwise.load_curves_example())
    >>> [(cp.budget, cp.comparison.verdict.best) for cp in c.checkpoints]
    [(0.05, 'logistic'), (0.1, 'forest'), (0.25, 'knn'), (0.5, 'knn'), (1.0, 'knn')]
    """
    if not isinstance(curves, Curves):
        curves = read_curves(curves, **read_options)
    elif read_options:
        raise RankwiseError(f"read options {', '.join(read_options)} need a path or a table,"
                            " not curves already read")
    aocc = aocc or AoccOptions()
    n_l, n_p = len(curves.learners), len(curves.problems)
    if n_l < 2:
        raise RankwiseError(f"{curves.source}: one learner ({curves.learners[0]}); comparing"
                            " needs two or more")
    notes = list(curves.notes)
    start = _common_start(curves)
    if start > curves.grid[0]:
        notes.append(f"ranks start at {curves.budget_name} {start:g}, the first budget at"
                     " which every run has a value")
    display = _display_budgets(curves.grid, start, DISPLAY_POINTS)
    if budgets is None:
        usable = curves.grid[curves.grid >= start]
        cps = usable if usable.size <= ALL_CHECKPOINTS else _display_budgets(
            curves.grid, start, CHECKPOINTS)
    else:
        cps = np.unique(np.asarray(budgets, dtype=float))
        early = cps[cps < start]
        if early.size:
            raise RankwiseError(f"checkpoint {early[0]:g} is before {start:g}, the first"
                                f" {curves.budget_name} at which every run has a value")
    cps = curves.grid[curves.index_at(cps)]
    display = np.unique(np.concatenate([display, cps]))
    means = curves.means()  # (l, p, g)
    d_idx = curves.index_at(display)
    ranks = within_problem_ranks(means[..., d_idx])  # (g, p, l)
    if n_p >= BAND_MIN_PROBLEMS:
        mean_r, low, high, c = mean_rank_band(ranks, confidence=confidence, draws=draws,
                                              seed=seed)
        low, high = np.maximum(low, 1.0), np.minimum(high, float(n_l))
    else:
        mean_r = ranks.mean(axis=1)
        low = high = np.full_like(mean_r, np.nan)
        c = float("nan")
        notes.append(f"{n_p} problem(s): no rank band (the bootstrap resamples the problems;"
                     f" it needs {BAND_MIN_PROBLEMS} or more)")
    from .compare import compare

    checkpoints = []
    for b in cps:
        table = curves.at_budget(b)
        cmp = compare(table, alpha=alpha, seed=seed)
        checkpoints.append(Checkpoint(float(b), cmp, _significant_pairs(cmp)))
    changes = []
    for a, b in combinations(curves.learners, 2):
        states = [(a, b) in cp.significant for cp in checkpoints]
        flips = [checkpoints[j].budget for j in range(1, len(states))
                 if states[j] != states[j - 1]]
        if flips:
            changes.append((a, b, tuple(states), tuple(flips)))
    c_idx = curves.index_at(cps)
    trend = _trend(curves, c_idx, cps)
    ranks_cp = within_problem_ranks(means[..., c_idx])
    settle, settle_p = _settle(ranks_cp, cps, alpha) if n_p >= 2 else (None, np.empty((0,)))

    # AOCC
    if isinstance(aocc.bounds, str):
        if aocc.bounds != "problem":
            raise RankwiseError(f"AOCC bounds {aocc.bounds!r}: use 'problem' or (low, high)")
        lb = np.nanmin(curves.values, axis=(0, 2, 3))[None, :, None, None]
        ub = np.nanmax(curves.values, axis=(0, 2, 3))[None, :, None, None]
    else:
        lb, ub = (float(x) for x in aocc.bounds)
    normed = normalise(curves.values, lb, ub, maximize=curves.maximize,
                       scale=aocc.value_scale)
    normed = np.where(np.isnan(curves.values), np.nan, normed)
    areas = area_over(normed, curves.grid, curves.final, budget=aocc.budget,
                      budget_scale=aocc.budget_scale)
    with np.errstate(invalid="ignore"):
        aocc_mean = np.nanmean(np.where(np.isnan(areas), np.nan, areas), axis=2) \
            if np.isfinite(areas).any() else np.full((n_l, n_p), np.nan)
    from ..tables.table import ScoreTable

    aocc_table = ScoreTable(values=aocc_mean.T, datasets=curves.problems,
                            learners=curves.learners, higher_is_better=True,
                            direction_source="source", criterion="AOCC", aggregate="mean",
                            source=curves.source)
    aocc_cmp = compare(aocc_table, alpha=alpha, seed=seed)

    # fixed targets
    oriented = curves.oriented()
    if np.ndim(targets) == 0:
        t = int(targets)
        worst = np.nanmin(oriented, axis=(0, 2, 3))
        best = np.nanmax(oriented, axis=(0, 2, 3))
        steps = np.arange(1, t + 1) / t
        tv = worst[:, None] + (best - worst)[:, None] * steps[None, :]  # (p, T)
    else:
        raw = np.asarray(targets, dtype=float)
        tv = np.broadcast_to(raw if curves.maximize else -raw, (n_p, raw.size))
    times = running_times(oriented, curves.grid, tv[None, :, None, :])
    e, succ, _ = ert(times, curves.final)
    times_d = np.where(np.isnan(curves.final)[..., None], np.nan, times)
    cdf = ecdf(times_d, display)

    # profiles: the ERT to the convergence test
    head = np.take_along_axis(oriented, np.isnan(oriented).argmin(axis=-1)[..., None], -1)
    first = np.nanmin(head[..., 0], axis=(0, 2))
    top = np.nanmax(oriented, axis=(0, 2, 3))
    conv = convergence_targets(first, top, tolerance)
    conv_times = running_times(oriented, curves.grid, conv[None, :, None, None])
    cost, _, _ = ert(conv_times, curves.final)
    cost = cost[..., 0].T  # (p, l)
    positive = np.where(np.isfinite(cost), cost, np.nan)
    if np.nanmin(positive, initial=np.inf) <= 0:
        shift = 1.0
        notes.append(f"profiles: costs are {curves.budget_name} + 1 (a budget of 0 occurs)")
    else:
        shift = 0.0
    perf = performance_profile(cost + shift)
    data = data_profile(cost, dimensions=curves.dimensions)
    dw = _dewancker(curves)
    return CurveComparison(
        curves=curves, alpha=alpha, confidence=confidence, display=display, mean_ranks=mean_r,
        band_low=low, band_high=high, band_c=c, checkpoints=tuple(checkpoints),
        changes=tuple(changes), trend=trend, settle=settle, settle_pvalues=settle_p,
        aocc=aocc_mean, aocc_options=aocc, aocc_comparison=aocc_cmp,
        targets=tv if curves.maximize else -tv, ert=e, successes=succ, ecdf=cdf,
        tolerance=float(tolerance), profile_cost=cost, performance=perf, data=data,
        dewancker=dw, draws=int(draws), seed=int(seed), notes=tuple(notes),
        settings={"checkpoints": [float(b) for b in cps]})
