"""D-studies of any design: what n'_f levels of each facet would give, at what cost.

With every facet random and the learners the objects of measurement, an effect α other than
the learners' contributes σ²(α) / π'(α) to the error of a learner's mean, π'(α) the product
of the D-study's sizes n'_f of α's facets other than the learners. The relative error (the
learners' order) sums the effects that hold the learners, the absolute error (their scores)
every effect (Brennan 2001, ch. 4):

    σ²(δ) = Σ_{α ∋ learner, α ≠ learner} σ²(α)/π'(α),   σ²(Δ) = Σ_{α ≠ learner} σ²(α)/π'(α),
    Eρ² = σ²(l) / (σ²(l) + σ²(δ)),   Φ = σ²(l) / (σ²(l) + σ²(Δ)).

Two learners compared on the same data sets, folds and items differ by a variance 2σ²(δ): the
standard error of a difference is √(2σ²(δ)), and the smallest true difference a two-sided
z-test at level α detects with probability ``power`` (the *resolution floor*) is
(z_{1−α/2} + z_{power}) · √(2σ²(δ)) (the two-sided quantile: z_{0.975} = 1.96 at α = 0.05).

A design's cost is Σ_f c_f · units_f, units_f the number of levels of facet f in the design
(a fold's: data sets × repeats × folds). The default cost is one unit per level of the
innermost facet (one learner's evaluation on one fold of one repeat of one data set, or on
one item), every other facet free; ``costs`` adds a cost per data set (finding and preparing
one), per repeat, and so on.

Reference: Brennan, R. L. (2001). *Generalizability Theory*. Springer, ch. 4 and 7.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

from ..errors import RankwiseError
from ..stats.results import jsonable
from .design import LEARNER, Components, Design


@dataclass(frozen=True)
class Projection:
    """What a design of ``sizes`` (n' per facet) would give: the relative and absolute error
    variances, Eρ² and Φ, the standard error of a difference of two learners' means, the
    resolution floor at ``alpha`` and ``power``, and its ``cost``."""

    sizes: dict
    relative_error: float
    absolute_error: float
    generalizability: float
    dependability: float
    difference_se: float
    resolution: float
    cost: float

    def to_dict(self) -> dict:
        return jsonable(dict(self.__dict__))


def facet_units(design: Design, sizes: dict) -> dict:
    """Each facet's number of levels in a design of ``sizes``: its own size times those of
    the facets it is nested in (the learners' left out: a cost is per learner)."""
    within = design.within
    return {f: sizes[f] * math.prod(sizes[g] for g in within[f] if g != LEARNER)
            for f in sizes}


def default_costs(design: Design) -> dict:
    """One unit per level of the innermost facet (the one no other is nested in)."""
    names = [f.name for f in design.facets]
    inner = [n for n in names if not any(n in design.within[m] for m in names)]
    return {n: (1.0 if n in inner else 0.0) for n in names}


def error_weights(g: Components) -> tuple:
    """For each effect other than the learners': its σ², whether it holds the learners, and
    the facets its divisor multiplies (as arrays the projections broadcast over)."""
    design = g.design
    rows = []
    for s in design.effect_sets():
        name = design.effect_name(s)
        if s == frozenset((LEARNER,)):
            continue
        rows.append((name, g.components[name], LEARNER in s,
                     tuple(f for f in design.names if f in s and f != LEARNER)))
    return tuple(rows)


def errors_at(g: Components, sizes: dict, fixed: tuple = (), clip: bool = True) -> tuple:
    """σ²(δ) and σ²(Δ) at ``sizes`` (each a number or an array; broadcast). A facet in
    ``fixed`` is the same in every replication (the data sets in hand): an effect of fixed
    facets only is no error (an interaction of the learners with them is part of what is
    measured, :func:`universe`)."""
    relative = absolute = 0.0
    for _, value, holds_learner, facets in error_weights(g):
        if all(f in fixed for f in facets):
            continue
        divisor = 1.0
        for f in facets:
            divisor = divisor * np.asarray(sizes[f], dtype=float)
        part = value / divisor
        absolute = absolute + part
        if holds_learner:
            relative = relative + part
    if not clip:
        return relative, absolute
    # unclipped components (:func:`unclipped`) may sum below 0 far from the pilot's design
    return np.maximum(relative, 0.0), np.maximum(absolute, 0.0)


def universe(g: Components, sizes: dict, fixed: tuple = ()) -> float:
    """The universe-score variance: σ²(l), plus each interaction of the learners with fixed
    facets only over their sizes (Brennan 2001, §4.4)."""
    total = g.components[LEARNER]
    for _, value, holds_learner, facets in error_weights(g):
        if holds_learner and fixed and all(f in fixed for f in facets):
            total += value / math.prod(sizes[f] for f in facets)
    return max(float(total), 0.0)


#: How the D-studies take a negative ANOVA estimate: ``keep`` (unclipped: every error
#: variance an unbiased combination of mean squares) or ``zero`` (as the G-study reports it).
NEGATIVE = ("keep", "zero")


def unclipped(g: Components, negative: str = "keep") -> Components:
    """The components the D-studies use. A negative ANOVA estimate is set to 0 in the
    G-study's table, but its unclipped value keeps each error variance an unbiased
    combination of mean squares: the folds of a repeat partition its data set, so the scores of
    one repeat's folds are negatively correlated and the learner × repeat component is often
    truly below 0; clipping it charges the whole residual to a repeat's mean and overstates its
    error (by a third to a half on the bundled pilot's held-out check). ``negative="zero"``:
    the clipped ones, as Brennan's D-studies take them. REML's estimates are never below 0."""
    if negative not in NEGATIVE:
        raise RankwiseError(f"negative must be one of {', '.join(NEGATIVE)}; got {negative!r}")
    if negative == "zero" or g.raw == g.components:
        return g
    from dataclasses import replace

    return replace(g, components=dict(g.raw))


def project(g: Components, sizes: dict | None = None, *, alpha: float = 0.05,
            power: float = 0.8, costs: dict | None = None, fixed: tuple = ()) -> Projection:
    """The D-study of ``g`` at ``sizes`` (default: the G-study's own). See the module's text.

    Examples
    --------
    Urbano et al.'s (2013) TREC-3 G-study (σ²(s) = 0.0071668, σ²(q) = 0.022642,
    σ²(sq,e) = 0.01092): at 50 queries Eρ² = 0.9704 and Φ = 0.9144.

    >>> from rankwise.planning.design import Components, crossed
    >>> from rankwise.planning.projection import project
    >>> parts = {"learner": 0.0071668, "dataset": 0.022642, "residual": 0.01092}
    >>> g = Components(crossed(40, 50), parts, parts, {}, {}, {}, 0.95)
    >>> p = project(g, {"dataset": 50})
    >>> round(p.generalizability, 4), round(p.dependability, 4)
    (0.9704, 0.9144)
    """
    design = g.design
    sizes = _sizes(design, sizes)
    costs = costs_of(design, costs)
    relative, absolute = errors_at(g, sizes, fixed)
    signal = universe(g, sizes, fixed)
    se = math.sqrt(2 * relative)
    z = stats.norm.isf(alpha / 2) + stats.norm.ppf(power)
    units = facet_units(design, sizes)
    return Projection(
        sizes=sizes, relative_error=float(relative), absolute_error=float(absolute),
        generalizability=_ratio(signal, relative), dependability=_ratio(signal, absolute),
        difference_se=se, resolution=float(z * se),
        cost=float(sum(costs[f] * units[f] for f in units)))


def _ratio(signal: float, error: float) -> float:
    """signal / (signal + error); NaN where both are 0 or either is beyond the floats'
    range (components of scores near 1e±300 whose squares over- or underflowed)."""
    if not (signal + error > 0 and math.isfinite(signal) and math.isfinite(error)):
        return math.nan
    top = max(signal, error)   # a ratio of two variances: on both scaled to at most 1
    return float((signal / top) / (signal / top + error / top))


def _sizes(design: Design, sizes: dict | None) -> dict:
    own = {f.name: f.size for f in design.facets}
    if sizes is None:
        return own
    unknown = sorted(set(sizes) - set(own))
    if unknown:
        raise RankwiseError(f"the design has no facet {unknown[0]!r}; its facets are"
                            f" {', '.join(own)}")
    merged = {**own, **sizes}
    for name, value in merged.items():
        if not (isinstance(value, (int, np.integer)) and value >= 1):
            raise RankwiseError(f"a D-study's size of {name} must be a whole number of at"
                                f" least 1; got {value!r}")
    return {k: int(v) for k, v in merged.items()}


def costs_of(design: Design, costs: dict | None) -> dict:
    base = default_costs(design)
    if costs is None:
        return base
    unknown = sorted(set(costs) - set(base))
    if unknown:
        raise RankwiseError(f"--cost names {unknown[0]!r}, which is not a facet of the"
                            f" design; its facets are {', '.join(base)}")
    for name, value in costs.items():
        if not (isinstance(value, (int, float)) and 0 <= value < math.inf):
            raise RankwiseError(f"the cost of a {name} must be a finite number of at least 0;"
                                f" got {value!r}")
    return {**base, **{k: float(v) for k, v in costs.items()}}


def needed(g: Components, facet: str, *, stability: float = 0.95,
           coefficient: str = "generalizability", sizes: dict | None = None,
           limit: int = 10 ** 7, fixed: tuple = ()):
    """The fewest levels of ``facet`` (the others at ``sizes``; ``fixed`` as
    :func:`errors_at` takes it) for the coefficient to reach ``stability``; None when no
    number does (more of this facet leaves an error it does not divide) or more than
    ``limit`` would be needed."""
    if not 0 < stability < 1:
        raise RankwiseError(f"the stability to reach must be between 0 and 1; got {stability}")
    sizes = _sizes(g.design, sizes)
    signal = universe(g, sizes, fixed)
    if not signal > 0:
        return None
    # the error is a + b/n in n = n'_facet: solve s/(s + a + b/n) >= stability for n
    at_one = errors_at(g, {**sizes, facet: 1}, fixed, clip=False)
    at_inf = errors_at(g, {**sizes, facet: math.inf}, fixed, clip=False)
    pick = 0 if coefficient == "generalizability" else 1
    a, b = float(at_inf[pick]), float(at_one[pick] - at_inf[pick])
    allowed = signal * (1 - stability) / stability
    if b <= 0:        # more of this facet does not lower the error (unclipped components)
        return 1 if a + b <= allowed else None
    room = allowed - a
    if room <= 0:
        return None
    n = max(1, math.ceil(b / room - 1e-12))
    return n if n <= limit else None


def cost_table(g: Components, *, base: dict | None = None, factors=(1, 2, 4, 8),
               alpha: float = 0.05, power: float = 0.8, costs: dict | None = None) -> list:
    """Precision against cost: for each facet, the design with it multiplied by each of
    ``factors`` (the others as in ``base``), each a :class:`Projection`."""
    base = _sizes(g.design, base)
    rows = []
    for facet in base:
        for factor in factors:
            sizes = {**base, facet: base[facet] * factor}
            rows.append((facet, factor, project(g, sizes, alpha=alpha, power=power,
                                                costs=costs)))
    return rows


def best_buy(g: Components, *, base: dict | None = None, costs: dict | None = None) -> list:
    """Per facet: the share by which one more level cuts the variance of a difference, per
    unit of the cost it adds, best first (a facet that costs nothing to add is left out)."""
    base = _sizes(g.design, base)
    now = project(g, base, costs=costs)
    rows = []
    for facet in base:
        more = project(g, {**base, facet: base[facet] + 1}, costs=costs)
        spent = more.cost - now.cost
        if spent <= 0:
            continue
        gain = (1 - more.relative_error / now.relative_error) if now.relative_error > 0 \
            else 0.0
        rows.append({"facet": facet, "cut": gain, "cost": spent, "cut_per_cost": gain / spent,
                     "difference_se": more.difference_se})
    return sorted(rows, key=lambda r: -r["cut_per_cost"])


def cheapest(g: Components, *, target_se: float | None = None, stability: float | None = None,
             costs: dict | None = None, limits: dict | None = None,
             least: dict | None = None):
    """The cheapest design (over a grid of every facet from ``least`` (default 1) to its
    limit, default 4 times the pilot's size and at least 10) whose difference SE is at most
    ``target_se`` or whose Eρ² reaches ``stability``;
    None when none on the grid does. Vectorised over the grid."""
    design = g.design
    costs = costs_of(design, costs)
    own = {f.name: f.size for f in design.facets}
    limits = {n: max(10, 4 * s) for n, s in own.items()} | (limits or {})
    least = least or {}
    axes = [np.arange(least.get(n, 1), max(least.get(n, 1), limits[n]) + 1) for n in own]
    grid = dict(zip(own, np.meshgrid(*axes, indexing="ij", sparse=True)))
    relative, _ = errors_at(g, grid)
    relative = np.broadcast_to(relative, tuple(len(a) for a in axes))
    units = facet_units(design, grid)
    cost = sum(costs[f] * np.asarray(units[f], dtype=float) for f in units)
    cost = np.broadcast_to(cost, relative.shape)
    signal = universe(g, {})
    ok = np.ones(relative.shape, dtype=bool)
    if target_se is not None:
        ok &= np.sqrt(2 * relative) <= target_se
    if stability is not None:
        ok &= signal * (1 - stability) >= stability * relative
    if not ok.any():
        return None
    # the cheapest; among equals the smallest error, then the fewest levels (deterministic)
    masked = np.where(ok, cost, np.inf)
    low = masked.min()
    tie = ok & (cost <= low * (1 + 1e-12))
    index = np.unravel_index(np.argmin(np.where(tie, relative, np.inf)), relative.shape)
    sizes = {n: int(axes[i][index[i]]) for i, n in enumerate(own)}
    return project(g, sizes, costs=costs)


@dataclass(frozen=True)
class Separability:
    """How well a design of ``sizes`` would tell the learners apart, on the learners' true
    means as the pilot estimates them (their means shrunk towards the grand mean by
    σ²(l) / (σ²(l) + σ²(δ)), the pilot's generalizability: best linear unbiased predictors).

    ``tied_with_best``: the expected number of learners a two-sided z-test at ``alpha``
    (Bonferroni over the k − 1 comparisons with the best) does not separate from the best,
    the best included; ``widths``: each learner's expected rank-set width, 1 + the expected
    number of learners it is not separated from (Bonferroni over its k − 1 comparisons), an
    approximation of the rank sets' width (simultaneous, so wider)."""

    sizes: dict
    tied_with_best: float
    widths: np.ndarray
    best: int
    alpha: float

    def to_dict(self) -> dict:
        return jsonable({"sizes": self.sizes, "tied_with_best": self.tied_with_best,
                         "widths": self.widths, "best": self.best, "alpha": self.alpha})


def separability(g: Components, means, sizes: dict | None = None, *, alpha: float = 0.05,
                 higher_is_better: bool = True, chunk: int = 512,
                 fixed: tuple = ()) -> Separability:
    """See :class:`Separability`. ``means``: each learner's mean in the pilot (its order is
    the design's learners'); vectorised in blocks of ``chunk`` learners (k² pairs, k × chunk
    in memory)."""
    means = np.asarray(means, dtype=float)
    k = means.size
    if k < 2:
        raise RankwiseError("separability needs at least 2 learners")
    own = {f.name: f.size for f in g.design.facets}
    pilot_relative, _ = errors_at(g, own, fixed)
    signal = universe(g, own, fixed)
    shrink = signal / (signal + pilot_relative) if signal + pilot_relative > 0 else 0.0
    centre = means.mean()
    truth = centre + shrink * (means - centre)
    relative, _ = errors_at(g, _sizes(g.design, sizes), fixed)
    se = math.sqrt(2 * float(relative))
    z = stats.norm.isf(alpha / 2 / (k - 1))
    best = int(np.argmax(truth) if higher_is_better else np.argmin(truth))
    widths = np.empty(k)
    for start in range(0, k, chunk):
        gap = np.abs(truth[start:start + chunk, None] - truth[None, :])
        unresolved = _unresolved(gap, se, z)
        rows = np.arange(start, min(start + chunk, k))
        unresolved[rows - start, rows] = 1.0        # a learner is not separated from itself
        widths[start:start + chunk] = unresolved.sum(axis=1)
    tied = _unresolved(np.abs(truth - truth[best]), se, z)
    tied[best] = 1.0
    tied = float(tied.sum())
    return Separability(sizes=_sizes(g.design, sizes), tied_with_best=tied, widths=widths,
                        best=best, alpha=alpha)


def _unresolved(gap: np.ndarray, se: float, z: float) -> np.ndarray:
    """The probability that a two-sided z-test at the critical value ``z`` does not separate
    two learners ``gap`` apart when their difference has standard error ``se`` (1 on the
    diagonal: a learner is not separated from itself)."""
    if se <= 0:
        return (gap == 0).astype(float)
    shift = gap / se
    return stats.norm.cdf(z - shift) - stats.norm.cdf(-z - shift)
