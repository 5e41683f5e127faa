"""Learners compared along a budget, not only at its end.

:func:`compare_curves` runs every view of :mod:`rankwise.stats.curves` on a
:class:`~rankwise.tables.curves.Curves` and decides each once, for every report to read:

- **rank over budget**: the learners' mean ranks (within problems, of the mean over runs) at
  each budget of a display grid, with a band simultaneous over learners and budgets;
- **checkpoints**: at a few budgets, the mean over runs as a score table through
  :func:`rankwise.compare` (omnibus, the verdict, the CD diagram's cliques), and the pairs
  whose decision changes from one checkpoint to the next;
- **does more budget help**: Page's trend test per learner over the checkpoints; the
  checkpoint from which every checkpoint decides as the last one (the same learners not
  significantly worse than the best, the same pairs different: the decisions the checkpoints
  print), and the one from which no learner's rank differs significantly from its rank at the
  last one (Wilcoxon signed-rank per learner and checkpoint, Holm over all of them);
- **AOCC**: the area over each run's normalised convergence curve, averaged over runs, as a
  score table through :func:`rankwise.compare`;
- **fixed target**: ERT per learner, problem and target, and each learner's ECDF of running
  times over the display grid;
- **profiles**: Dolan–Moré performance profiles and Moré–Wild data profiles of the ERT to the
  convergence test ``f ≤ f_L + τ (f_0 − f_L)``;
- **Dewancker**: Optuna's ranking (best value, then AUC), Borda points and firsts.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

import numpy as np

from ..defaults import CURVE_DRAWS, CURVE_SEED
from ..errors import RankwiseError
from ..stats.curves import (aocc as area_over, convergence_targets, data_profile, dewancker,
                            ecdf, ert, mean_rank_band, normalise, performance_profile,
                            running_times, within_problem_ranks)
from ..stats.results import jsonable
from ..tables.curves import Curves, read_curves
from ..protocol import Analysis
from . import curve_settle
from .curve_settle import decisions_settle
from .figures import axis_scale
from .verdict import some_names

#: Budgets of the rank band and the ECDF when the grid has more points than this.
DISPLAY_POINTS = 25
#: Checkpoints (budgets where everything compare does runs) unless given; a grid of at most
#: ALL_CHECKPOINTS budgets has every one as a checkpoint.
CHECKPOINTS = 4
ALL_CHECKPOINTS = 6
#: The rank band needs this many problems (the bootstrap resamples them).
BAND_MIN_PROBLEMS = 5
#: Optuna's ranking tests every ordered pair on every problem: up to this many learners.
DEWANCKER_MAX_LEARNERS = 100
#: The curves figure draws at most this many learners (the best by mean rank at the last budget):
#: a colour and a legend entry each.
FIGURE_LEARNERS = 12



@dataclass(frozen=True)
class AoccOptions:
    """How runs are turned into areas over their convergence curves.

    Parameters
    ----------
    bounds : "problem" or (low, high)
        ``problem``: each problem's worst and best logged values (so every problem spans
        [0, 1]); a pair: the same bounds on every problem, in the values' units (IOHinspector's
        defaults are ``(1e-8, 1e8)`` with ``value_scale="log"``).
    value_scale, budget_scale : {"linear", "log"}
        The scale of the values (before they are mapped to [0, 1]) and of the budget axis.
    budget : float, optional
        The budget the area runs to; default: the largest run budget.
    curve : {"running-best", "values"}
        ``running-best`` (default): the area over each run's running best (best so far), as
        IOHinspector computes it on the data its ``DataManager.load`` gives by default
        (``monotonic=True``); ``values``: over the curve as read (``value_kind``: raw values
        or the running best). They differ only for a run whose values get worse somewhere
        (a raw learning curve, anytime scores). The running best is taken on the curves'
        grid (every logged budget unless a coarser grid was asked for).

    Examples
    --------
    IOHinspector's defaults for a minimised gap to the optimum:

    >>> import rankwise
    >>> o = rankwise.AoccOptions(bounds=(1e-8, 1e8), value_scale="log")
    >>> o.bounds, o.value_scale, o.budget_scale, o.budget, o.curve
    ((1e-08, 100000000.0), 'log', 'linear', None, 'running-best')
    """

    bounds: object = "problem"
    value_scale: str = "linear"
    budget_scale: str = "linear"
    budget: float | None = None
    curve: str = "running-best"


#: What the AOCC integrates (:class:`AoccOptions`).
AOCC_CURVES = ("running-best", "values")


@dataclass(frozen=True)
class Decision:
    """What one comparison through :func:`rankwise.compare` decided, in the words every report
    prints: ``best`` (the verdict's best, or with two learners and no difference detected the
    better mean rank, the first on ties, as the verdict of three or more names it), the test
    that decided (``test``, ``pvalue``: the omnibus gate, or the two-learner test the verdict
    reads), ``winners`` (not significantly worse than the best) and the ``pairs`` that differ
    (``pairs_by``: ``cd_diagram``, the CD diagram's cliques, or the two-learner test)."""

    best: str
    detected: bool
    test: str | None
    pvalue: float | None
    winners: tuple
    pairs: tuple
    pairs_by: str | None

    def to_dict(self) -> dict:
        return {"best": self.best, "difference_detected": self.detected, "test": self.test,
                "pvalue": self.pvalue, "winners": list(self.winners),
                "significant_pairs": [list(pair) for pair in self.pairs],
                "pairs_by": self.pairs_by}


def decision(comparison, significant: np.ndarray) -> Decision:
    """The :class:`Decision` of ``comparison``, whose significant pairs are ``significant``
    (learners x learners booleans)."""
    v = comparison.verdict
    names = comparison.table.learners
    best = v.best if v.best is not None else names[int(np.argmin(comparison.mean_ranks))]
    if v.gate is not None:
        test, pvalue = v.gate.test, v.gate.pvalue
    elif v.ranking in comparison.tests:
        test, pvalue = v.ranking, comparison.tests[v.ranking].pvalue
    else:
        test = pvalue = None
    a, b = np.nonzero(np.triu(significant, 1))
    by = "cd_diagram" if len(names) > 2 else test
    return Decision(best, bool(v.detected), test, None if pvalue is None else float(pvalue),
                    tuple(v.winners), tuple((names[i], names[j]) for i, j in zip(a, b)), by)


@dataclass(frozen=True)
class Checkpoint:
    """One budget: the comparison of the mean over runs there, and the pairs it calls
    different (``significant``: learners x learners booleans; the CD diagram's cliques, or
    with two learners the verdict's test)."""

    budget: float
    comparison: object
    significant: np.ndarray

    def pairs(self) -> list:
        """The significant pairs as (a, b) names, a before b in the table's order."""
        return list(self.decision.pairs)

    @property
    def decision(self) -> Decision:
        """What the checkpoint decided, as the report prints it."""
        return decision(self.comparison, self.significant)


@dataclass(frozen=True, repr=False)
class CurveComparison(Analysis):
    """Everything :func:`compare_curves` decided (see the module docstring for each part).

    ``display`` are the budgets of the rank band (``mean_ranks``, ``band_low``,
    ``band_high``: budgets × learners; ``band_c`` its critical value), ``checkpoints`` the
    :class:`Checkpoint` comparisons, ``changes`` the pairs whose decision changes
    ``(a, b, significant at each checkpoint, budgets where it changes)``, ``trend`` Page's test
    per learner, ``settle`` the first checkpoint from which every checkpoint's decisions (its
    winners and its significant pairs) are those of the last, ``rank_settle`` the first from
    which no learner's rank differs significantly from its rank at the last,
    ``aocc`` (learners × problems), ``aocc_bounds`` (the ``(low, high)`` the values were
    normalised with) and ``aocc_comparison``, ``targets``/``ert``/``successes``
    (learners × problems × targets), ``ecdf`` (learners × display budgets), ``performance`` and
    ``data`` the profiles' ``(x, share)``, ``dewancker`` Optuna's ranking.

    Examples
    --------
    >>> import rankwise
    >>> r = rankwise.compare_curves(rankwise.load_curves_example())
    >>> r.display.tolist(), r.settle, r.rank_settle
    ([0.05, 0.1, 0.25, 0.5, 1.0], 0.25, 0.1)
    >>> [(a, b, flips) for a, b, _, flips in r.changes][:1]
    [('forest', 'logistic', (0.1, 0.25))]
    >>> r.schema, r.helped
    ('rankwise.curves/2', ('forest', 'knn', 'logistic', 'naive_bayes'))
    """

    kind: ClassVar[str] = "curves"
    # 1 (unreleased): {"kind": "curves", ...}; 2: "schema" in its place, every other key kept
    version: ClassVar[int] = 2

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
    rank_settle: float | None
    aocc: np.ndarray
    aocc_options: AoccOptions
    aocc_bounds: tuple
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

    def figure_order(self) -> np.ndarray:
        """The learners the curves figure draws (indices), best mean rank at the last budget
        first: every one up to ``FIGURE_LEARNERS``."""
        return np.argsort(self.mean_ranks[-1], kind="stable")[:FIGURE_LEARNERS]

    def figure_left_out(self) -> str | None:
        """The sentence the curves figure prints in itself and the notes carry when it draws
        fewer learners than there are (None when it draws them all)."""
        from .figures import left_out

        return left_out("The curves figure", len(self.figure_order()), len(self.learners),
                        "the best by mean rank at the last budget; the JSON holds every"
                        " learner")

    def cd_left_out(self) -> str | None:
        """The sentence the figure of the checkpoints' CD diagrams prints in itself and the
        notes carry when some checkpoint has no diagram (None when each has one)."""
        return _cd_left_out(self.checkpoints, self.curves.budget_name)

    @property
    def learners(self) -> tuple:
        return self.curves.learners

    @property
    def problems(self) -> tuple:
        return self.curves.problems

    @property
    def helped(self) -> tuple:
        """The learners whose Page trend over the checkpoints is significant at ``alpha``
        (more budget helps them), in the order of the trend."""
        return tuple(n for n, t in self.trend.items() if t.pvalue < self.alpha)

    @property
    def aocc_decision(self) -> Decision:
        """What compare decided on the AOCC table (its best named, as at a checkpoint)."""
        return decision(self.aocc_comparison, _significant_pairs(self.aocc_comparison))

    @property
    def aocc_means(self) -> np.ndarray:
        """Each learner's AOCC, the mean over problems of its mean over runs."""
        return np.nanmean(self.aocc, axis=1)

    @property
    def reached(self) -> np.ndarray:
        """Each learner's share of (problem, target) pairs that some run reached."""
        return (self.successes > 0).mean(axis=(1, 2))

    def to_dict(self) -> dict:
        """Everything as JSON-ready data (every learner, problem, budget and target); the
        JSON is this after ``schema`` and ``rankwise_version``."""
        c = self.curves
        return {
            "source": c.source, "reader": c.reader,
            "learners": list(c.learners), "problems": list(c.problems),
            "maximize": c.maximize, "value_kind": c.value_kind, "budget": c.budget_name,
            "exact_grid": c.exact, "rows": c.rows, "runs": c.runs,
            "rank_band": self._band_dict(),
            "checkpoints": [_checkpoint_dict(cp) for cp in self.checkpoints],
            "decision_changes": [{"a": a, "b": b, "significant": list(s),
                                  "changes_at": list(f)} for a, b, s, f in self.changes],
            "trend": {n: {"statistic": t.statistic, "pvalue": t.pvalue, "method": t.method}
                      for n, t in self.trend.items()},
            "settle": self.settle, "rank_settle": self.rank_settle,
            "settle_adjusted_pvalues": _floats(self.settle_pvalues),
            "aocc": self._aocc_dict(),
            "fixed_target": {"targets": _floats(self.targets), "ert": _floats(self.ert),
                             "successes": np.asarray(self.successes).tolist(),
                             "ecdf": _floats(self.ecdf)},
            "profiles": self._profiles_dict(),
            "dewancker": _dewancker_dict(self.dewancker),
            "notes": list(self.notes),
        }

    def _band_dict(self) -> dict:
        return {"budgets": _floats(self.display), "mean_rank": _floats(self.mean_ranks),
                "low": _floats(np.maximum(self.band_low, 1.0)),
                "high": _floats(np.minimum(self.band_high, len(self.learners))),
                "critical_value": _floats(self.band_c), "confidence": self.confidence,
                "draws": self.draws, "seed": self.seed,
                "method": "bootstrap of the problems, simultaneous over learners and budgets"
                          " (max-t)"}

    def _aocc_dict(self) -> dict:
        o = self.aocc_options
        d = self.aocc_decision
        return {"mean": _floats(self.aocc), "best": d.best, "winners": list(d.winners),
                "test": d.test, "pvalue": d.pvalue,
                "bounds": o.bounds if isinstance(o.bounds, str) else list(o.bounds),
                "value_scale": o.value_scale, "budget_scale": o.budget_scale,
                "budget": o.budget, "curve": o.curve,
                "scale_warnings": list(self.aocc_scale_warnings())}

    def aocc_scale_warnings(self) -> tuple:
        """Sentences for a linear AOCC axis over values or budgets that span two orders of
        magnitude or more (the figures' rule, :func:`.figures.axis_scale`): the area is then
        decided by the last decade of the budget, or by the largest values, and a log scale
        weighs each decade alike. Empty where the scales suit the data."""
        o = self.aocc_options
        out = []
        grid = self.curves.grid
        if o.budget is not None:
            grid = grid[grid <= o.budget]
        name = self.curves.budget_name
        if o.budget_scale == "linear" and axis_scale(grid) == "log":
            last = grid[-1] / 10
            out.append(f"the budget ({name}) runs from {grid[0]:g} to {grid[-1]:g} on a"
                       f" linear axis:"
                       f" the area from {last:g} on (the last order of magnitude) carries at least 90%"
                       f" of its weight; --budget-scale log weighs each order of magnitude"
                       f" alike")
        lb, ub = (np.broadcast_to(np.asarray(b, dtype=float).ravel(),
                                  (len(self.curves.problems),)) for b in self.aocc_bounds)
        wide = [p for p, lo, hi in zip(self.curves.problems, lb, ub)
                if axis_scale([lo, hi]) == "log"]
        if o.value_scale == "linear" and wide:
            how = ("--value-scale log weighs each order of magnitude alike" if (lb > 0).all()
                   else "--value-scale log with --aocc-bounds above 0 (IOHinspector's"
                        " 1e-8,1e8 for gaps to the optimum) weighs each order of magnitude"
                        " alike")
            out.append(f"the values span two orders of magnitude or more on {len(wide)} of"
                       f" {len(lb)} problems ({some_names(wide)}) and are normalised on a"
                       f" linear scale, where differences among the smallest barely count;"
                       f" {how}")
        return tuple(out)

    def _profiles_dict(self) -> dict:
        taus, rho = self.performance
        alphas, dp = self.data
        return {"tolerance": self.tolerance, "cost": _floats(self.profile_cost),
                "performance": {"tau": _floats(taus), "rho": _floats(rho)},
                "data": {"alpha": _floats(alphas), "d": _floats(dp),
                         "per_dimension": self.curves.dimensions is not None}}


def _floats(a):
    return jsonable(np.asarray(a, dtype=float))


def _checkpoint_dict(cp) -> dict:
    d = cp.decision
    return {"budget": cp.budget, **d.to_dict(), "verdict": cp.comparison.verdict.text,
            "tests": {k: {"statistic": _floats(t.statistic), "pvalue": _floats(t.pvalue)}
                      for k, t in cp.comparison.tests.items()},
            "mean_ranks": _floats(cp.comparison.mean_ranks)}


def _dewancker_dict(d) -> dict | None:
    if d is None:
        return None
    return {"alpha": d.alpha, "wins": d.wins.tolist(), "borda": d.borda.tolist(),
            "borda_total": d.borda_total.tolist(), "firsts": d.firsts.tolist(),
            "metrics_used": d.metrics_used.tolist(),
            "convention": "Optuna's report_bayesmark.py DewanckerRanker"}


def _cd_left_out(checkpoints, budget_name: str) -> str | None:
    """Which checkpoints have no CD diagram (their omnibus test did not reject), and why; None
    when every one has one, or none can (fewer than three learners)."""
    from ..names import test_title
    from ..stats.results import p_phrase

    gone = []
    for cp in checkpoints:
        plan = cp.comparison.figures.get("cd_diagram")
        if plan is None or plan.drawn:
            continue
        gate = cp.comparison.verdict.gate
        gone.append(f"{budget_name} {cp.budget:g}" + (
            f" ({test_title(gate.test)} does not reject at alpha = {gate.alpha},"
            f" {p_phrase(gate.pvalue)})" if gate is not None and not gate.passed else ""))
    if not gone:
        return None
    return (f"The CD diagrams of the checkpoints: {len(checkpoints) - len(gone)} of"
            f" {len(checkpoints)} drawn; none at {'; '.join(gone)}: no post-hoc decision to"
            " draw.")


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
    latest = -1
    for b in curves.blocks():
        logged = ~np.isnan(curves.values[b])
        first = np.where(logged.any(axis=-1), logged.argmax(axis=-1), curves.grid.size - 1)
        present = ~np.isnan(curves.final[b])
        if present.any():
            latest = max(latest, int(first[present].max()))
    return float(curves.grid[max(latest, 0)])


def _significant_pairs(comparison) -> np.ndarray:
    """The pairs the CD diagram says differ (no clique holds both), as a learners x learners
    boolean matrix (a product of clique memberships: every pair at once); with two learners,
    whether the verdict's test detects a difference (no CD diagram is drawn for one pair)."""
    plan = comparison.figures.get("cd_diagram")
    learners = comparison.table.learners
    k = len(learners)
    if k == 2:
        detected = bool(comparison.verdict.detected)
        return np.array([[False, detected], [detected, False]])
    if plan is None or not plan.drawn or plan.cliques is None:
        return np.zeros((k, k), dtype=bool)
    index = {name: i for i, name in enumerate(learners)}
    member = np.zeros((len(plan.cliques), k), dtype=np.float32)
    for row, clique in enumerate(plan.cliques):
        member[row, [index[name] for name in clique]] = 1.0
    together = (member.T @ member) > 0
    np.fill_diagonal(together, True)
    return ~together


def _problem_span(curves: Curves) -> dict:
    """Each problem's lowest and highest logged value (own units) and its worst first value
    (oriented: higher is better), a block of learners at a time."""
    n_p = len(curves.problems)
    low, high, first = np.full(n_p, np.inf), np.full(n_p, -np.inf), np.full(n_p, np.inf)
    for b in curves.blocks():
        v = curves.values[b]
        with np.errstate(invalid="ignore"):
            low = np.fmin(low, np.nanmin(np.where(np.isnan(v), np.inf, v), axis=(0, 2, 3)))
            high = np.fmax(high, np.nanmax(np.where(np.isnan(v), -np.inf, v), axis=(0, 2, 3)))
        head = np.take_along_axis(v, np.isnan(v).argmin(axis=-1)[..., None], -1)[..., 0]
        head = head if curves.maximize else -head
        first = np.fmin(first, np.nanmin(np.where(np.isnan(head), np.inf, head), axis=(0, 2)))
    return {"low": low, "high": high, "first": first}


def _per_run(curves: Curves, lb, ub, options: AoccOptions, tv, conv) -> dict:
    """Per run: its AOCC, its running times to the targets and to the convergence test, its
    best value and AUC (Optuna's metrics, smaller is better), a block of learners at a time."""
    n_l, n_p, n_r, _ = curves.values.shape
    out = {"aocc": np.full((n_l, n_p, n_r), np.nan),
           "times": np.full((n_l, n_p, n_r, tv.shape[1]), np.inf),
           "conv": np.full((n_l, n_p, n_r), np.inf),
           "best": np.full((n_l, n_p, n_r), np.nan), "auc": np.full((n_l, n_p, n_r), np.nan)}
    inside = curves.grid[None, None, None, :]
    for b in curves.blocks():
        v = curves.values[b]
        final = curves.final[b]
        w = aocc_curve(v, curves, options)
        normed = normalise(w, lb, ub, maximize=curves.maximize, scale=options.value_scale)
        normed[np.isnan(v)] = np.nan
        out["aocc"][b] = area_over(normed, curves.grid, final, budget=options.budget,
                                   budget_scale=options.budget_scale)
        del normed
        o = v if curves.maximize else -v
        out["times"][b] = running_times(o, curves.grid, tv[None, :, None, :])
        out["conv"][b] = running_times(o, curves.grid, conv[None, :, None, None])[..., 0]
        running = np.fmax.accumulate(np.where(np.isnan(o), -np.inf, o), axis=-1)
        within = (inside <= final[..., None]) & np.isfinite(running)
        with np.errstate(invalid="ignore"):
            out["best"][b] = np.where(within, -running, np.inf).min(axis=-1)
            out["auc"][b] = np.where(within, -running, 0.0).sum(axis=-1) / within.sum(axis=-1)
    return out


def aocc_over_running_best(curves: Curves, options: AoccOptions) -> bool:
    """Whether the AOCC's curves are each run's running best: asked for, or the values are
    one already."""
    return options.curve == "running-best" or curves.value_kind == "running-best"


def aocc_curve(v: np.ndarray, curves: Curves, options: AoccOptions) -> np.ndarray:
    """The values the AOCC's area is over, from ``v`` (a block of ``curves.values``, the whole
    grid): each run's running best where :func:`aocc_over_running_best` (taken here unless the
    values are one already), else ``v`` as read. The convergence figure draws the same."""
    if options.curve == "running-best" and curves.value_kind != "running-best":
        return _running_best(v, curves.maximize)
    return v


def _running_best(v: np.ndarray, maximize: bool) -> np.ndarray:
    """Each run's best value so far along the grid (NaN before its first log)."""
    return (np.fmax if maximize else np.fmin).accumulate(v, axis=-1)


def _dewancker(curves: Curves, final_best: np.ndarray, auc: np.ndarray):
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
    budgets, alpha, confidence, aocc, targets, tolerance, draws, seed = check_options(
        budgets, alpha, confidence, aocc, targets, tolerance, draws, seed)  # before reading
    if not isinstance(curves, Curves):
        curves = read_curves(curves, **read_options)
    elif read_options:
        raise RankwiseError(f"read options {', '.join(read_options)} need a path or a table,"
                            " not curves already read")
    n_l, n_p = len(curves.learners), len(curves.problems)
    if n_l < 2:
        raise RankwiseError(f"{curves.source}: one learner ({curves.learners[0]}); comparing"
                            " needs two or more")
    if n_p < 2:
        # every view ranks the learners within each problem, then across problems
        raise RankwiseError(f"{curves.source}: one problem ({curves.problems[0]}); comparing"
                            " over the budget ranks the learners on each problem and needs"
                            " two or more problems (data sets, functions, tasks): add runs"
                            " on other problems")
    notes = list(curves.notes)
    start = _common_start(curves)
    if start > curves.grid[0]:
        notes.append(f"ranks start at {curves.budget_name} {start:g}, the first budget at"
                     " which every run has a value")
    cps = _checkpoint_budgets(curves, budgets, start)
    display = np.unique(np.concatenate([_display_budgets(curves.grid, start, DISPLAY_POINTS),
                                        cps]))
    means = curves.means()  # (l, p, g)
    mean_r, low, high, c = _rank_band(means, curves.index_at(display), confidence, draws,
                                      seed, notes)
    checkpoints, changes = _checkpoint_comparisons(curves, cps, alpha, seed)
    c_idx = curves.index_at(cps)
    trend = curve_settle.trend(curves, means, c_idx, cps)
    ranks_cp = within_problem_ranks(means[..., c_idx])
    rank_settle, settle_p = (curve_settle.rank_settle(ranks_cp, cps, alpha) if n_p >= 2
                             else (None, np.empty((0,))))
    settle = decisions_settle(checkpoints) if n_p >= 2 else None
    # one pass for each problem's range and start, one for everything per run: a block of
    # learners at a time, so no temporary is the size of the cube
    span = _problem_span(curves)
    lb, ub = _aocc_bounds(aocc, span)
    tv, best = _target_values(curves, span, targets)
    runs = _per_run(curves, lb, ub, aocc, tv, convergence_targets(span["first"], best,
                                                                   tolerance))
    aocc_mean, aocc_cmp = _aocc_comparison(curves, runs, alpha, seed)
    e, succ, _ = ert(runs["times"], curves.final)
    times_d = np.where(np.isnan(curves.final)[..., None], np.nan, runs["times"])
    cost, perf, data = _profiles(curves, runs, notes)
    if n_l <= DEWANCKER_MAX_LEARNERS:
        dw = _dewancker(curves, runs["best"], runs["auc"])
    else:
        dw = None
        notes.append(f"Optuna's ranking is not computed above {DEWANCKER_MAX_LEARNERS}"
                     f" learners (every ordered pair's Mann-Whitney test on every problem)")
    result = CurveComparison(
        curves=curves, alpha=alpha, confidence=confidence, display=display, mean_ranks=mean_r,
        band_low=low, band_high=high, band_c=c, checkpoints=checkpoints,
        changes=changes, trend=trend, settle=settle, settle_pvalues=settle_p,
        rank_settle=rank_settle,
        aocc=aocc_mean, aocc_options=aocc, aocc_bounds=(lb, ub), aocc_comparison=aocc_cmp,
        targets=tv if curves.maximize else -tv, ert=e, successes=succ,
        ecdf=ecdf(times_d, display), tolerance=float(tolerance), profile_cost=cost,
        performance=perf, data=data, dewancker=dw, draws=int(draws), seed=int(seed),
        notes=tuple(notes), settings={"checkpoints": [float(b) for b in cps]})
    cut = [x for x in (result.figure_left_out(), result.cd_left_out()) if x]
    return replace(result, notes=result.notes + tuple(cut)) if cut else result


def check_options(budgets, alpha, confidence, aocc, targets, tolerance, draws, seed,
                  names: dict | None = None) -> tuple:
    """:func:`compare_curves`' options checked (the command line's before it reads anything):
    levels in (0, 1), finite numbers, AOCC bounds LOW < HIGH (above 0 on a log scale), a
    budget above 0, a whole number of targets or finite target values, a seed; one line for
    the first that is not, in :mod:`rankwise._validate`'s words, naming the value by the
    keyword or by ``names`` (the command line's flags)."""
    from .. import _validate as check

    n = {k: k.replace("_", " ") for k in ("budgets", "aocc_bounds", "aocc_budget", "targets",
                                          "tolerance", "seed")}
    n.update(names or {})
    budgets = None if budgets is None else check.numbers(n["budgets"], budgets, 0)
    alpha, confidence = check.alpha(alpha), check.confidence(confidence)
    aocc = aocc or AoccOptions()
    if not isinstance(aocc, AoccOptions):
        raise RankwiseError(f"aocc must be an AoccOptions; got {type(aocc).__name__}")
    if aocc.curve not in AOCC_CURVES:
        raise RankwiseError(f"AOCC curve {aocc.curve!r}: use running-best or values")
    for name in ("value_scale", "budget_scale"):
        check.choice(f"aocc {name}", getattr(aocc, name), ("linear", "log"))
    if not (isinstance(aocc.bounds, str) and aocc.bounds == "problem"):
        if isinstance(aocc.bounds, str):
            raise RankwiseError(f"AOCC bounds {aocc.bounds!r}: use 'problem' or (low, high)")
        low, high = check.ordered_pair(n["aocc_bounds"], aocc.bounds)
        if aocc.value_scale == "log" and low <= 0:
            raise RankwiseError(f"{n['aocc_bounds']} on a log scale must be above 0; got"
                                f" {low:g}")
    if aocc.budget is not None:
        check.positive(n["aocc_budget"], aocc.budget)
    if isinstance(targets, (int, np.integer)) and not isinstance(targets, bool):
        targets = check.whole(n["targets"], targets)
    else:
        targets = check.numbers(n["targets"], targets)
    tolerance = check.finite(n["tolerance"], tolerance, 0)
    return (budgets, alpha, confidence, aocc, targets, tolerance, check.whole("draws", draws),
            check.seed(seed, n["seed"]))


def _checkpoint_budgets(curves, budgets, start) -> np.ndarray:
    """The checkpoints on the grid: every usable budget up to ALL_CHECKPOINTS, else
    CHECKPOINTS spread; or those given (none before ``start``)."""
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
    return curves.grid[curves.index_at(cps)]


def _rank_band(means, d_idx, confidence, draws, seed, notes) -> tuple:
    """Mean ranks over the display budgets and their simultaneous band (none, with a note,
    below BAND_MIN_PROBLEMS problems)."""
    ranks = within_problem_ranks(means[..., d_idx])  # (g, p, l)
    n_p, n_l = ranks.shape[1], ranks.shape[2]
    if n_p >= BAND_MIN_PROBLEMS:
        mean_r, low, high, c = mean_rank_band(ranks, confidence=confidence, draws=draws,
                                              seed=seed)
        return mean_r, np.maximum(low, 1.0), np.minimum(high, float(n_l)), c
    mean_r = ranks.mean(axis=1)
    low = high = np.full_like(mean_r, np.nan)
    notes.append(f"{n_p} problem(s): no rank band (the bootstrap resamples the problems;"
                 f" it needs {BAND_MIN_PROBLEMS} or more)")
    return mean_r, low, high, float("nan")


def _checkpoint_comparisons(curves, cps, alpha, seed) -> tuple:
    """compare() at each checkpoint, and the pairs whose decision changes between them."""
    from .compare import compare

    n_l = len(curves.learners)
    checkpoints = []
    for b in cps:
        cmp = compare(curves.at_budget(b), alpha=alpha, seed=seed)
        checkpoints.append(Checkpoint(float(b), cmp, _significant_pairs(cmp)))
    changes = []
    if len(checkpoints) > 1:
        states = np.stack([cp.significant for cp in checkpoints])  # (checkpoints, k, k)
        flipped = states[1:] != states[:-1]
        upper = np.triu(np.ones((n_l, n_l), dtype=bool), 1)
        for a, b in zip(*np.nonzero(flipped.any(axis=0) & upper)):
            changes.append((curves.learners[a], curves.learners[b],
                            tuple(bool(s) for s in states[:, a, b]),
                            tuple(checkpoints[j + 1].budget
                                  for j in np.flatnonzero(flipped[:, a, b]))))
    return tuple(checkpoints), tuple(changes)


def _aocc_bounds(aocc, span) -> tuple:
    if isinstance(aocc.bounds, str):
        if aocc.bounds != "problem":
            raise RankwiseError(f"AOCC bounds {aocc.bounds!r}: use 'problem' or (low, high)")
        return span["low"][None, :, None, None], span["high"][None, :, None, None]
    return tuple(float(x) for x in aocc.bounds)


def _target_values(curves, span, targets) -> tuple:
    """The fixed targets, oriented (higher is better), (problems, T); and each problem's best
    value, oriented."""
    n_p = len(curves.problems)
    worst, best = (span["low"], span["high"]) if curves.maximize else (-span["high"],
                                                                       -span["low"])
    if np.ndim(targets) == 0:
        steps = np.arange(1, int(targets) + 1) / int(targets)
        return worst[:, None] + (best - worst)[:, None] * steps[None, :], best
    raw = np.asarray(targets, dtype=float)
    return np.broadcast_to(raw if curves.maximize else -raw, (n_p, raw.size)), best


def _aocc_comparison(curves, runs, alpha, seed) -> tuple:
    """The AOCC of each learner on each problem (the mean over runs) and compare() of it."""
    from ..tables.table import ScoreTable
    from .compare import compare

    n_l, n_p = len(curves.learners), len(curves.problems)
    with np.errstate(invalid="ignore"):
        aocc_mean = np.nanmean(runs["aocc"], axis=2) if np.isfinite(runs["aocc"]).any() \
            else np.full((n_l, n_p), np.nan)
    aocc_table = ScoreTable(values=aocc_mean.T, datasets=curves.problems,
                            learners=curves.learners, higher_is_better=True,
                            direction_source="source", criterion="AOCC", aggregate="mean",
                            cells="a learner's mean AOCC over its runs (the problems are the"
                                  " data sets)",
                            source=curves.source)
    return aocc_mean, compare(aocc_table, alpha=alpha, seed=seed)


def _profiles(curves, runs, notes) -> tuple:
    """The cost of converging (problems × learners), and the performance and data profiles."""
    cost, _, _ = ert(runs["conv"][..., None], curves.final)
    cost = cost[..., 0].T  # (p, l)
    positive = np.where(np.isfinite(cost), cost, np.nan)
    if np.nanmin(positive, initial=np.inf) <= 0:
        shift = 1.0
        notes.append(f"profiles: costs are {curves.budget_name} + 1 (a budget of 0 occurs)")
    else:
        shift = 0.0
    return cost, performance_profile(cost + shift), data_profile(cost,
                                                                 dimensions=curves.dimensions)
