"""``rankwise.plan``: what buys certainty next, and the rank to expect on the next data set.

From a pilot (a score table, the folds of its repeats, or scored items) :func:`plan` estimates
the variance components of its design (a G-study: by the ANOVA's expected mean squares where
the design is balanced, by REML where it is not), projects designs of more or fewer data
sets, repeats, folds, items or trials at their cost (D-studies), says which facet buys the
most certainty per unit of cost and the cheapest design that reaches a stability, publishes
the suite's numbers (signal-to-noise, decision accuracy at smaller suites, the expected size
of the tied-with-#1 group and the resolution floor), and gives each learner's prediction
interval for its rank on one new data set. Every number is in :class:`Plan`, which
:mod:`rankwise.report.plan` presents in every format.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from .. import _validate as check
from ..errors import RankwiseError
from ..protocol import Analysis
from ..stats.results import jsonable

#: How the components are estimated: auto is the ANOVA where the design is balanced, REML
#: where it is not.
METHODS = ("auto", "anova", "reml")
#: The next-data-set rank intervals: auto is hierarchical where the pilot has folds.
NEXT_METHODS = ("auto", "conformal", "hierarchical")
#: auto takes the hierarchical next-data-set ranks up to this many fold scores × draws (the
#: bootstrap's work; beyond it the conformal ones, said in the notes).
HIERARCHICAL_MOST = 5 * 10 ** 7
#: The smaller suites' decision accuracy orders at most about this many pairs x draws.
ACCURACY_PAIRS = 4 * 10 ** 7
#: The cheapest design is sought over a grid of at most this many designs.
GRID_MOST = 2 * 10 ** 6
#: REML beside the ANOVA of a balanced design is fitted up to this many random-effect
#: levels (beyond it the ANOVA, REML's equal when no estimate is negative, stands alone).
REML_BESIDE = 1000


@dataclass(frozen=True, repr=False)
class Plan(Analysis):
    """Everything :func:`plan` computed, with the settings it ran with.

    ``components`` (the G-study by ``method``) and ``other`` (by the other method, where
    computed); ``current`` (:class:`~rankwise.planning.projection.Projection` of the pilot's
    own design, data sets random) and ``in_hand`` (the same with the data sets fixed: the
    error of the comparison on these data sets only); ``asked`` (the design given with
    ``sizes``); ``needed_in_hand`` (facet nested in the data sets → the fewest levels for
    Eρ² on these data sets to reach ``stability``); ``needed`` (facet → the fewest levels
    for Eρ² and for Φ to reach
    ``stability``); ``buys`` (per facet: the cut in the variance of a difference per unit of
    cost); ``costed`` (precision against cost: (facet, factor, projection)); ``cheapest``
    (the cheapest design reaching ``stability``); ``separation`` and ``separation_cheapest``
    (the expected tied-with-#1 group and rank-set widths); ``signal`` (signal-to-noise over
    repeats or trials, where the pilot has them); ``accuracy`` (decision accuracy of smaller
    suites); ``next_ranks`` (each learner's interval for its rank on a new data set) and
    ``coverage`` (its leave-one-data-set-out coverage on the pilot).

    Examples
    --------
    The bundled pilot (5 learners, 12 data sets, 20 repeats x 5 folds, really run):

    >>> from rankwise import load_example, plan
    >>> p = plan(load_example("pilot", criterion="accuracy"), draws=100)
    >>> p.schema, p.design.notation, p.method
    ('rankwise.plan/1', 'learner x (fold:repeat:dataset)', 'anova')
    >>> p.in_hand.difference_se < p.current.difference_se   # these data sets, or new ones
    True
    >>> p.cheapest.sizes["fold"], p.cheapest.generalizability >= 0.95
    (5, True)
    """

    kind: ClassVar[str] = "plan"
    version: ClassVar[int] = 1

    source: str
    criterion: str | None
    higher_is_better: bool
    learners: tuple
    levels: tuple
    top: str
    what: str
    method: str
    components: object
    other: object
    means: np.ndarray
    current: object
    in_hand: object
    asked: object
    needed: dict
    needed_in_hand: dict
    buys: list
    costed: list
    cheapest: object
    separation: object
    separation_cheapest: object
    signal: object
    accuracy: object
    next_ranks: object
    coverage: float | None
    options: dict
    notes: tuple = field(default=())
    budget_accuracy: object = None

    @property
    def design(self):
        return self.components.design

    @property
    def settings(self) -> dict:
        """The options the plan ran with."""
        return dict(self.options)

    def to_dict(self) -> dict:
        part = (lambda x: None if x is None else x.to_dict())
        return jsonable({
            "source": self.source, "criterion": self.criterion,
            "higher_is_better": self.higher_is_better, "learners": list(self.learners),
            self.top + "s": list(self.levels), "pilot": self.what,
            "design": self.design.describe(), "method": self.method,
            "components": self.components.to_dict(), "other_method": part(self.other),
            "means": self.means, "current": self.current.to_dict(),
            "in_hand": part(self.in_hand), "asked": part(self.asked),
            "needed": self.needed, "needed_in_hand": self.needed_in_hand,
            "best_buy": self.buys,
            "precision_against_cost": [{"facet": f, "factor": x, **p.to_dict()}
                                       for f, x, p in self.costed],
            "cheapest": part(self.cheapest), "separation": part(self.separation),
            "separation_cheapest": part(self.separation_cheapest),
            "signal_to_noise": part(self.signal), "decision_accuracy": part(self.accuracy),
            "next_ranks": part(self.next_ranks), "next_ranks_coverage": self.coverage,
            "budget_accuracy": part(self.budget_accuracy),
            "settings": self.settings, "notes": list(self.notes)})


def plan(source, *, method: str = "auto", confidence: float = 0.95, alpha: float = 0.05,
         power: float = 0.8, stability: float = 0.95, costs: dict | None = None,
         sizes: dict | None = None, next_alpha: float = 0.1, next_method: str = "auto",
         negative: str = "keep", draws: int = 1000, seed: int = 0) -> Plan:
    """The plan of a pilot ``source`` (a :class:`~rankwise.ScoreTable`, read from a long table
    with its repeats and folds where it has them, or scored items,
    :class:`~rankwise.tables.items.ItemTable`).

    Parameters
    ----------
    method : {"auto", "anova", "reml"}
        How the variance components are estimated (auto: the ANOVA where the design is
        balanced, REML where it is not).
    confidence : float
        Level of the components' intervals.
    alpha, power : float
        The resolution floor: the smallest true difference a two-sided test at ``alpha``
        detects with probability ``power``; ``alpha`` is also the level of the separations.
    stability : float
        The Eρ² (and Φ) the needed sizes and the cheapest design reach.
    costs : dict, optional
        Cost of one level of each facet (``{"dataset": 20}``: a data set costs 20 folds' worth
        of work); default: one unit per level of the innermost facet.
    sizes : dict, optional
        A design to project besides the pilot's (``{"dataset": 40, "fold": 5}``).
    next_alpha : float
        The next-data-set rank intervals cover with probability at least 1 − ``next_alpha``.
    next_method : {"auto", "conformal", "hierarchical"}
        auto: hierarchical where the pilot has folds (the per-data-set rank's uncertainty),
        else conformal.
    negative : {"keep", "zero"}
        How the D-studies take a negative ANOVA estimate: unclipped (every error variance an
        unbiased combination of mean squares; see
        :func:`rankwise.planning.projection.unclipped`) or set to 0 as in the G-study's table.
    draws, seed : int
        Resamples of the hierarchical intervals and of the decision accuracy, and their seed.

    Examples
    --------
    >>> from rankwise import load_example, plan
    >>> p = plan(load_example("brennan2001_synthetic4"))
    >>> p.design.notation, round(p.current.generalizability, 3), p.needed["dataset"]
    ('learner x dataset', 0.729, {'generalizability': 85, 'dependability': 112})
    """
    from ..planning import projection as proj
    from ..planning.pilot import from_curves, from_items, from_table

    method = check.choice("method", method, METHODS)
    next_method = check.choice("next_method", next_method, NEXT_METHODS)
    negative = check.choice("negative", negative, ("keep", "zero"))
    confidence, next_alpha = check.confidence(confidence), check.alpha(next_alpha)
    alpha = check.alpha(alpha)
    power = check.level("power", power)
    stability = check.level("stability", stability)
    draws, seed = check.whole("draws", draws, 100), check.seed(seed)
    pilot = (from_items(source) if hasattr(source, "models") else
             from_curves(source) if hasattr(source, "grid") else from_table(source))
    hib = pilot_direction(source)
    notes = []
    components, other = _components(pilot, method, confidence, notes)
    _check_range(components, pilot)
    shown = components                      # the G-study's table: negative estimates at 0
    components = proj.unclipped(components, negative)
    top = pilot.top
    facets = [f.name for f in pilot.design.facets]
    current = proj.project(components, alpha=alpha, power=power, costs=costs)
    # with the data sets held fixed, only what is nested in them is error: none where the
    # pilot has one score per learner and data set
    in_hand = None if len(facets) == 1 else proj.project(
        components, alpha=alpha, power=power, costs=costs, fixed=(top,))
    asked = None if sizes is None else proj.project(components, sizes, alpha=alpha,
                                                    power=power, costs=costs)
    needed = {f: {c: proj.needed(components, f, stability=stability, coefficient=c)
                  for c in ("generalizability", "dependability")} for f in facets}
    means = np.nanmean(pilot.table, axis=0)
    limits = {f: max(10, 4 * components.design.sizes[f], *(n for n in needed[f].values()
                                                          if n is not None))
              for f in facets}
    # the number of folds stays the pilot's: k-fold with another k trains on other sizes, so
    # its scores are not more draws of the same facet
    held = {f: components.design.sizes[f] for f in facets if f == "fold"}
    cheapest = proj.cheapest(components, stability=stability, costs=costs,
                             limits={**_bounded(limits, top), **held},
                             least={top: 2, **held})
    if cheapest is not None:
        notes += _zero_notes(shown)
    separation = proj.separability(components, means, alpha=alpha, higher_is_better=hib)
    separation_cheapest = None if cheapest is None else proj.separability(
        components, means, cheapest.sizes, alpha=alpha, higher_is_better=hib)
    signal, accuracy, next_ranks, coverage = _suite(pilot, source, next_alpha, next_method,
                                                    draws, seed, notes)
    budget_accuracy = _budget_accuracy(source) if hasattr(source, "grid") else None
    notes += _scale_notes(pilot)
    options = {"method": method, "confidence": confidence, "alpha": alpha, "power": power,
               "stability": stability, "costs": proj.costs_of(components.design, costs),
               "sizes": sizes, "next_alpha": next_alpha, "negative": negative,
               "next_method": next_ranks.method if next_ranks is not None else next_method,
               "draws": draws, "seed": seed}
    return Plan(
        source=str(getattr(source, "source", "table")),
        criterion=getattr(source, "criterion", None) or getattr(source, "metric", None),
        higher_is_better=hib, learners=pilot.learners,
        levels=pilot.levels, top=top, what=pilot.what, method=components.method,
        components=shown, other=other, means=means, current=current, in_hand=in_hand,
        asked=asked, needed=needed, needed_in_hand={
            f: proj.needed(components, f, stability=stability, fixed=(top,))
            for f in facets if f != top}, buys=proj.best_buy(components, costs=costs),
        costed=proj.cost_table(components, alpha=alpha, power=power, costs=costs),
        cheapest=cheapest, separation=separation, separation_cheapest=separation_cheapest,
        signal=signal, accuracy=accuracy, next_ranks=next_ranks, coverage=coverage,
        budget_accuracy=budget_accuracy, options=options, notes=tuple(notes + list(shown.notes)))


def pilot_direction(source) -> bool:
    """Whether higher scores are better (scored items: always)."""
    return bool(getattr(source, "higher_is_better", True))


def _components(pilot, method: str, confidence: float, notes: list) -> tuple:
    """The G-study by the method asked, and by the other where it is computed."""
    from ..planning import design as designs
    from ..planning.fit import reml_components

    if method == "anova" and not pilot.balanced:
        raise RankwiseError("the ANOVA's G-study needs a balanced design (every learner"
                            " scored on the same levels of every facet); this pilot is not:"
                            " use method 'reml' (--method reml) or 'auto'")
    if method == "reml" or (method == "auto" and not pilot.balanced):
        main = reml_components(pilot, confidence)
        other = None
        if pilot.balanced:
            other = designs.anova(pilot.array, pilot.design, confidence=confidence)
        return main, other
    main = designs.anova(pilot.array, pilot.design, confidence=confidence)
    other = None
    if sum(pilot.design.levels().values()) <= REML_BESIDE:
        try:
            other = reml_components(pilot, confidence)
        except RankwiseError as exc:
            notes.append(f"REML not computed beside the ANOVA: {exc}")
    else:
        notes.append(f"REML not computed beside the ANOVA (more than {REML_BESIDE:,}"
                     " random-effect levels); on a balanced design it equals the ANOVA"
                     " wherever no estimate is negative")
    return main, other


def _suite(pilot, source, next_alpha, next_method, draws, seed, notes) -> tuple:
    """Signal-to-noise (over repeats or trials), decision accuracy of smaller suites, the
    next-data-set rank intervals and their leave-one-out coverage on the pilot."""
    from ..planning.next_rank import loo_coverage, next_rank_intervals
    from ..planning.signal import signal_to_noise, suite_decision_accuracy

    hib = pilot_direction(source)
    signal = None
    if pilot.repeats is not None:
        signal = signal_to_noise(pilot.repeats, higher_is_better=hib,
                                 learners=pilot.learners)
    else:
        notes.append("signal-to-noise needs repeats (or repeated trials) of the whole"
                     f" benchmark; this pilot has {pilot.what}")
    keep = np.isfinite(pilot.table).all(axis=1)      # the data sets every learner has
    complete = pilot.table[keep]
    n = len(complete)
    accuracy = None
    if n >= 3 and complete.shape[1] >= 2:
        sizes = sorted({max(2, int(round(n * f))) for f in (0.25, 0.5, 0.75)} | {n})
        # ranked as given (the next-data-set ranks are): rounding scores of 1e-150 to 12
        # decimals would tie them all
        # each draw orders every pair: at 1,000 learners and more, fewer draws (the
        # caption says how many)
        most = max(20, ACCURACY_PAIRS // complete.shape[1] ** 2)
        try:
            accuracy = suite_decision_accuracy(complete, sizes, higher_is_better=hib,
                                               draws=min(draws, 200, most), seed=seed,
                                               decimals=None)
        except RankwiseError as exc:     # every learner tied: no order for a suite to agree with
            notes.append(f"no decision accuracy: {exc}")
    if n < len(pilot.table):
        notes.append(f"{len(pilot.table) - n} {pilot.top}s with a missing learner are left"
                     " out of the decision accuracy and the next-data-set ranks")
    if next_method == "hierarchical" and pilot.replicates is None:
        raise RankwiseError("the hierarchical next-data-set ranks need the folds of each"
                            " data set (a balanced long table); use --next-method conformal")
    chosen = next_method if next_method != "auto" else (
        "hierarchical" if pilot.replicates is not None else "conformal")
    if next_method == "auto" and chosen == "hierarchical" and \
            pilot.replicates.size * draws > HIERARCHICAL_MOST:
        chosen = "conformal"
        notes.append(f"the next-data-set ranks are conformal: the hierarchical intervals of"
                     f" {pilot.replicates.size:,} fold scores x {draws:,} draws are beyond"
                     " what auto runs (ask for them with --next-method hierarchical, or"
                     " fewer --draws)")
    if n < 2:
        notes.append("the next-data-set ranks need at least 2 complete data sets")
        return signal, accuracy, None, None
    folds = pilot.replicates[keep] if chosen == "hierarchical" else None
    kwargs = dict(higher_is_better=hib, alpha=next_alpha, method=chosen, folds=folds,
                  draws=draws, seed=seed)
    ranks = next_rank_intervals(complete, learners=pilot.learners, **kwargs)
    coverage = None
    if n >= 3 and (chosen == "conformal" or folds.size * draws * n <= HIERARCHICAL_MOST):
        coverage = loo_coverage(complete, **kwargs)
    elif n >= 3:
        notes.append("the hierarchical intervals' leave-one-out check is not run at this"
                     " size (it refits them once per data set)")
    return signal, accuracy, ranks, coverage


def _check_range(components, pilot) -> None:
    """Scores whose squares leave double precision (near 1e±300) have variances of 0 or inf
    however much they vary: refused in one line, rather than planned on nonsense."""
    values = np.array(list(components.components.values()) + list(components.raw.values()))
    scores = pilot.frame["value"].to_numpy(dtype=float)
    varies = scores.size > 1 and np.nanmax(scores) > np.nanmin(scores)
    if not np.isfinite(values).all() or (varies and not (np.abs(values) > 0).any()):
        top = float(np.nanmax(np.abs(scores)))
        raise RankwiseError(f"the scores' variances are beyond double precision (scores up to"
                            f" {top:.3g}): rescale them (divide or multiply by a power of ten)"
                            " before planning")


def _bounded(limits: dict, top: str) -> dict:
    """The grid's limits, the inner facets' cut (largest first) until the grid holds at most
    GRID_MOST designs; the top facet's kept (its needed size must be on the grid)."""
    limits = dict(limits)
    while math.prod(limits.values()) > GRID_MOST:
        inner = [f for f in limits if f != top and limits[f] > 10]
        if not inner:
            limits[top] = max(10, GRID_MOST // max(1, math.prod(
                v for f, v in limits.items() if f != top)))
            break
        widest = max(inner, key=lambda f: limits[f])
        limits[widest] = max(10, limits[widest] // 2)
    return limits


def _zero_notes(components) -> list:
    """A component of the learners' estimated at 0 makes designs that skimp on its facet
    look better than they may be: said."""
    zero = [n for n in components.design.effects()
            if n.startswith("learner x") and components.components[n] == 0]
    if not zero:
        return []
    return [f"the {', '.join(zero)} component{'s are' if len(zero) > 1 else ' is'} estimated"
            " at 0: designs with few levels of its facets look as good as the estimate"
            " says, and would be worse if it is above 0 (its interval says how far)"]


#: The budgets a curves plan reports decision accuracy at: this many, spread on a log scale.
BUDGETS_SHOWN = 8


def _budget_accuracy(curves):
    """Decision accuracy of each budget's order (the learners' mean over problems and runs)
    against the last budget's, at up to BUDGETS_SHOWN budgets spread over the grid."""
    from ..planning.signal import budget_decision_accuracy

    means = curves.means()                              # learners x problems x grid
    complete = np.isfinite(means).all(axis=(0, 2))
    if complete.sum() < 1 or means.shape[0] < 2:
        return None
    score = means[:, complete].mean(axis=1).T            # grid x learners, higher = better
    started = np.isfinite(score).all(axis=1)
    grid, score = curves.grid[started], score[started]
    if len(grid) < 2:
        return None
    keep = np.unique(np.round(np.geomspace(1, len(grid), BUDGETS_SHOWN)).astype(int) - 1)
    try:
        return budget_decision_accuracy(score[keep], grid[keep], higher_is_better=True)
    except RankwiseError:      # every learner tied at the last budget: no order to agree with
        return None


def _scale_notes(pilot) -> list:
    """Where the data sets' scores differ in spread by orders of magnitude, the components
    mix scales (a regression error in dollars beside an accuracy): said."""
    table = pilot.table[np.isfinite(pilot.table).all(axis=1)]
    if len(table) < 2:
        return []
    spread = np.ptp(table, axis=1)
    spread = spread[spread > 0]
    if len(spread) < 2:
        return []
    ratio = float(spread.max() / spread.min())
    if ratio < 100:
        return []
    return [f"the {pilot.top}s' scores differ in spread by a factor of {ratio:,.3g}: the"
            " components mix their scales, and the largest dominate; plan on a criterion"
            " of one scale (an error rate, a normalised score) for a plan every data set"
            " speaks in"]
