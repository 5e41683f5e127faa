"""The design of a pilot experiment and its variance components (a G-study of any design).

A design is the learners (the objects of measurement) crossed with facets, each either crossed
with the others or nested within some of them: data sets; repeats within data sets and folds
within repeats (the folds of cross-validation, shared by every learner); tasks, and items
within tasks; trials of one learner on one item (replicates). Its effects are the sets of
facets closed under nesting (a fold's effect carries its repeat and data set); an effect with
primary facets P and nesting facets N has the sum of squares and degrees of freedom

    SS(α) = Σ_{A ⊆ P} (−1)^{|P|−|A|} T(A ∪ N),   T(B) = π(B̄) Σ_{levels of B} x̄_B²,
    df(α) = Π_{f ∈ P} (n_f − 1) · Π_{f ∈ N} n_f,

and, every facet random, the expected mean square E MS(α) = Σ_{β ⊇ α} π(β̄) σ²(β) (π(β̄): the
product of the sizes of the facets not in β), solved from the innermost effect out (Brennan
2001, §3.4 and appendix; Cornfield & Tukey 1956). A negative estimate is set to 0 after every
component has been solved with the unmodified estimates (Brennan's rule: the others stay
unbiased), and said. The effect that holds every facet is the residual (the highest-order
interaction, confounded with error).

References: Brennan, R. L. (2001). *Generalizability Theory*. Springer, ch. 3-5, 7.
Cornfield, J. and Tukey, J. W. (1956). Average values of mean squares in factorials. *Ann.
Math. Statist.* 27, 907-949. Satterthwaite, F. E. (1946). *Biometrics Bull.* 2, 110-114.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from .. import _validate as check
from ..errors import RankwiseError
from ..stats.generalizability import satterthwaite, shares_of, unit_scaled
from ..stats.results import jsonable

#: The object of measurement: the facet every other one is crossed with.
LEARNER = "learner"
#: The name of the effect that holds every facet (confounded with error).
RESIDUAL = "residual"


@dataclass(frozen=True)
class Facet:
    """One facet of a design: its ``name``, its number of levels (``size``; for a nested
    facet, within each level of what it is nested in) and the facets it is nested ``within``
    (all of them: a fold is within its repeat and its data set)."""

    name: str
    size: int
    within: tuple = ()


@dataclass(frozen=True)
class Design:
    """The learners crossed with ``facets`` (each a :class:`Facet`); the data's axes follow
    ``names``: the learners first, then the facets in order.

    Examples
    --------
    Cross-validation: learners × (folds within repeats within data sets).

    >>> from rankwise.planning.design import cross_validation
    >>> d = cross_validation(learners=4, datasets=5, repeats=3, folds=10)
    >>> for effect in d.effects():
    ...     print(effect)
    learner
    dataset
    learner x dataset
    repeat:dataset
    learner x repeat:dataset
    fold:repeat:dataset
    residual
    >>> d.notation
    'learner x (fold:repeat:dataset)'
    """

    learners: int
    facets: tuple

    @property
    def names(self) -> tuple:
        return (LEARNER,) + tuple(f.name for f in self.facets)

    @property
    def sizes(self) -> dict:
        return {LEARNER: self.learners, **{f.name: f.size for f in self.facets}}

    @property
    def within(self) -> dict:
        return {LEARNER: (), **{f.name: tuple(f.within) for f in self.facets}}

    @property
    def notation(self) -> str:
        """Brennan's notation with the plain names: ``learner x dataset``,
        ``learner x (fold:repeat:dataset)``, ``learner x (item:task)``."""
        # a facet nested in the learners too (trials) replicates each cell: said after
        replicated = [f.name for f in self.facets if LEARNER in f.within]
        inner = [f for f in self.facets if f.name not in replicated
                 and not any(f.name in g.within for g in self.facets if g.name not in replicated)]
        parts = [":".join([f.name] + self._outward(f.name)) for f in inner]
        crossed = [p if ":" not in p else f"({p})" for p in parts]
        return " x ".join([LEARNER] + crossed) + "".join(f", {n}s replicated"
                                                           for n in replicated)

    def _outward(self, name: str) -> list:
        """The facets ``name`` is nested within, innermost first."""
        return sorted(self.within[name], key=lambda f: -len(self.within[f]))

    def effects(self) -> tuple:
        """Every effect's name, from the learners' and the main effects outward to the
        residual (the effect of every facet)."""
        return tuple(self.effect_name(s) for s in self.effect_sets())

    def effect_sets(self) -> tuple:
        """The effects as frozensets of facet names, closed under nesting, ordered by size
        (then by the facets' order), the empty set (the grand mean) left out."""
        names, within = self.names, self.within
        closed = []
        for size in range(1, len(names) + 1):
            for combo in combinations(names, size):
                s = frozenset(combo)
                if all(set(within[f]) <= s for f in s):
                    closed.append(s)
        order = {n: i for i, n in enumerate(names)}
        # each effect after those it nests in: by its deepest facet, then its size
        return tuple(sorted(closed, key=lambda s: (max(len(within[f]) for f in s), len(s),
                                                   sorted(order[f] for f in s))))

    def primary(self, s: frozenset) -> tuple:
        """The facets of effect ``s`` that are not nesting facets of another of its facets."""
        nesting = set().union(*(self.within[f] for f in s))
        return tuple(f for f in self.names if f in s and f not in nesting)

    def effect_name(self, s: frozenset) -> str:
        if s == frozenset(self.names):
            return RESIDUAL
        primary = self.primary(s)
        parts = []
        for f in primary:
            parts.append(":".join([f] + self._outward(f)))
        return " x ".join(parts)

    def levels(self) -> dict:
        """Each effect's number of levels (the product of its facets' sizes), the residual
        left out: the random-effect levels REML estimates."""
        sizes = self.sizes
        return {self.effect_name(s): math.prod(sizes[f] for f in s)
                for s in self.effect_sets() if self.effect_name(s) != RESIDUAL}

    def describe(self) -> dict:
        return {"notation": self.notation, "sizes": self.sizes,
                "nested": {f.name: list(self._outward(f.name)) for f in self.facets
                           if f.within}}


def crossed(learners: int, datasets: int) -> Design:
    """The learner × data set design of a score table (one score per cell)."""
    return Design(learners, (Facet("dataset", datasets),))


def cross_validation(learners: int, datasets: int, repeats: int = 1, folds: int = 1) -> Design:
    """Learners × (folds within repeats within data sets); a facet of one level is left
    out (one repeat: folds within data sets; one fold and several repeats: seeds)."""
    facets = [Facet("dataset", datasets)]
    if repeats > 1:
        facets.append(Facet("repeat", repeats, ("dataset",)))
    if folds > 1:
        facets.append(Facet("fold", folds, tuple(f.name for f in facets)))
    return Design(learners, tuple(facets))


def items(learners: int, tasks: int, per_task: int, trials: int = 1) -> Design:
    """Learners × (items within tasks), with ``trials`` of each learner on each item (the
    trials nested in learner × item, so their effect is the residual's)."""
    facets = [Facet("task", tasks), Facet("item", per_task, ("task",))]
    if trials > 1:
        facets.append(Facet("trial", trials, (LEARNER, "task", "item")))
    return Design(learners, tuple(facets))


@dataclass(frozen=True)
class Components:
    """The variance components of a design (a G-study).

    ``components``: each effect's σ² (in the scores' units squared; a negative estimate
    set to 0), ``raw`` the estimates before that, ``mean_squares`` and ``df`` (the ANOVA's;
    empty by REML), ``intervals`` each component's interval at ``confidence``
    (Satterthwaite's by ANOVA), ``method`` ``anova`` or ``reml``, ``notes`` what was set to 0.
    """

    design: Design
    components: dict
    raw: dict
    mean_squares: dict
    df: dict
    intervals: dict
    confidence: float
    method: str = "anova"
    notes: tuple = field(default=())

    @property
    def shares(self) -> dict:
        """Each component's share of their sum."""
        return shares_of(self.components)

    def to_dict(self) -> dict:
        return jsonable({"design": self.design.describe(), "method": self.method,
                         "components": self.components, "shares": self.shares,
                         "mean_squares": self.mean_squares, "df": self.df,
                         "intervals": {k: list(v) for k, v in self.intervals.items()},
                         "confidence": self.confidence, "notes": list(self.notes)})


def anova(x, design: Design, *, confidence: float = 0.95) -> Components:
    """The variance components of the balanced data ``x`` (an array whose axes are
    ``design.names``: learners first; a nested facet's axis indexes its levels within each
    level of what it is nested in) by the expected mean squares; see the module's text.

    Examples
    --------
    Brennan's (2001) synthetic data set No. 4 (10 persons × 12 items, his Table 3.2):
    σ²(p) = .6258, σ²(i) = .8840, σ²(pi,e) = 2.7872.

    >>> from rankwise import load_example
    >>> from rankwise.planning.design import anova, crossed
    >>> x = load_example("brennan2001_synthetic4").values.T
    >>> g = anova(x, crossed(*x.shape))
    >>> {k: round(v, 4) for k, v in g.components.items()}
    {'learner': 0.6258, 'dataset': 0.884, 'residual': 2.7872}
    """
    x = np.asarray(x, dtype=float)
    shape = tuple(design.sizes[n] for n in design.names)
    if x.shape != shape:
        raise RankwiseError(f"the scores' shape {x.shape} is not the design's"
                            f" {shape} ({', '.join(design.names)})")
    if min(shape) < 2:
        small = [n for n, s in zip(design.names, shape) if s < 2]
        raise RankwiseError(f"a G-study needs at least 2 levels of each facet; {small[0]} has"
                            f" {design.sizes[small[0]]}")
    if not np.isfinite(x).all():
        raise RankwiseError("the ANOVA's G-study needs every score of a balanced design (a"
                            " missing or infinite score); use the REML estimates (method"
                            " 'reml') or complete the table first")
    confidence = check.confidence(confidence)
    u, scale = unit_scaled(x)
    sets = design.effect_sets()
    names = [design.effect_name(s) for s in sets]
    ss, df = _sums_of_squares(u, design, sets)
    ms = {n: float(max(ss[s], 0.0) / df[s]) for n, s in zip(names, sets)}
    coefficients = _ems_inverse(design, sets)        # σ² = C · MS
    vector = np.array([ms[n] for n in names])
    raw = dict(zip(names, (coefficients @ vector).tolist()))
    parts = {n: max(v, 0.0) for n, v in raw.items()}
    dfs = {n: int(df[s]) for n, s in zip(names, sets)}
    intervals = {}
    for i, n in enumerate(names):
        terms = [(c, names[j]) for j, c in enumerate(coefficients[i]) if c != 0]
        intervals[n] = satterthwaite(parts[n], terms, ms, dfs, confidence)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        unit = np.float64(scale) ** 2
        back = (lambda v: float(v * unit) if v != 0 else 0.0)   # 0 stays 0 at any scale
        raw, ms, parts = ({n: back(v) for n, v in d.items()} for d in (raw, ms, parts))
        intervals = {n: (back(lo), back(hi)) for n, (lo, hi) in intervals.items()}
    notes = tuple(f"the estimate of the {n} component is negative ({v:.4g}); set to 0 (after"
                  " every component was solved with it)" for n, v in raw.items() if v < 0)
    return Components(design=design, components=parts, raw=raw, mean_squares=ms, df=dfs,
                      intervals=intervals, confidence=confidence, method="anova", notes=notes)


def _sums_of_squares(u: np.ndarray, design: Design, sets) -> tuple:
    """Each effect's sum of squares (from the T terms) and degrees of freedom."""
    names, sizes = design.names, design.sizes
    total = u.size
    cache = {}

    def t(b: frozenset) -> float:
        if b not in cache:
            axes = tuple(i for i, n in enumerate(names) if n not in b)
            means = u.mean(axis=axes) if axes else u
            levels = means.size
            cache[b] = float((total / levels) * np.square(means).sum())
        return cache[b]

    ss, df = {}, {}
    for s in sets:
        primary = design.primary(s)
        nesting = s - set(primary)
        value = 0.0
        for size in range(len(primary) + 1):
            for subset in combinations(primary, size):
                sign = (-1) ** (len(primary) - size)
                value += sign * t(frozenset(subset) | nesting)
        ss[s] = value
        df[s] = math.prod(sizes[f] - 1 for f in primary) * math.prod(sizes[f] for f in nesting)
    return ss, df


def _ems_inverse(design: Design, sets) -> np.ndarray:
    """The matrix C with σ² = C · MS: the inverse of the expected mean squares' coefficients
    A[α, β] = π(β̄) for β ⊇ α (upper triangular in the effects' order: exact)."""
    sizes, names = design.sizes, design.names
    a = np.zeros((len(sets), len(sets)))
    for i, s in enumerate(sets):
        for j, b in enumerate(sets):
            if s <= b:
                a[i, j] = math.prod(sizes[f] for f in names if f not in b)
    return np.linalg.inv(a)
