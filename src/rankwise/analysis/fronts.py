"""Better and cheaper: which learners are on the front of two or more criteria (accuracy and
fit time, score and price), how sure that is, and which learners another beats significantly
without losing on any criterion; and the generalized stochastic dominance (GSD) front, which
reads cardinal and ordinal criteria as they are, with its permutation tests.

Choices (each stated in every report):

- Each learner's point on a criterion is its mean over the data sets, or, where the
  criterion's typical value differs more than ``SCALE_SPREAD``-fold across the data sets (a raw
  mean is then led by the data sets of largest values), its mean within-data-set rank
  (``summary="auto"``; ``mean``, ``median`` or ``rank`` for every criterion); the front is
  Pareto's (``strict``; ``tabarena``: TabArena's ``get_pareto_frontier`` rule for two
  criteria).
- Cautions that change how the verdict reads (a summary chosen for the scales, or the scales
  left to a mean; too few data sets for any test to reject) are the verdict's first sentences
  (``cautions``), not notes at the end.
- How sure: the share of ``draws`` bootstrap draws of the data sets in which the learner is on
  the front, and percentile intervals of each point at ``confidence``.
- Statistically dominated: another learner is significantly better on at least one criterion
  (Wilcoxon signed-rank over the data sets, Holm over the pairs of each criterion, at ``alpha``)
  and significantly worse on none.
- GSD: criteria named in ``ordinal`` count by their order only; by default the times (names
  such as ``fit_time``, ``predict_time``, ``runtime``) are ordinal and the rest cardinal. The
  membership tests run for the learners on the sample's GSD front (the others are dominated in
  the sample), against every other learner, with ``permutations`` splits each (every split when
  there are fewer; a test whose p-value is certain to exceed ``alpha`` stops early and reports
  a lower bound, "> p"; the likeliest dominator is tested first, and once one test keeps the
  learner off the front the others are not run). ``static``: each pairwise test at ``alpha`` (the intersection-union
  test of one learner named in advance); ``dynamic``: at ``alpha`` / (k − 1), the reference
  code's rejection region, which holds for every learner tested at once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

import numpy as np

from .._validate import renamed as check_renamed
from ..defaults import DEFAULT_SEED, FRONT_PERMUTATIONS, FRONT_ROUNDS, FRONT_SUMMARY
from ..errors import RankwiseError
from ..names import FRONT_SUMMARIES as SUMMARIES
from ..stats import fronts as F
from ..stats import gsd as G
from ..stats.results import jsonable
from .best import BestSet
from ..protocol import Analysis

#: The GSD programmes are solved for every ordered pair: up to this many learners.
GSD_MAX_LEARNERS = 30
#: ... and up to this many data sets (2n outcomes per pair; PMLB's 63 take seconds a pair).
GSD_MAX_DATASETS = 100
#: A criterion whose typical value (median over learners) differs more than this factor across
#: the data sets is summarised by its mean rank (``summary="auto"``), or, summarised by its
#: mean, gets a caution: its mean is led by a few data sets.
SCALE_SPREAD = 100
#: The k x k matrix of which point beats which is kept up to this many learners.
OUTDONE_MAX_LEARNERS = 5000
#: The front figure names every learner up to this many; beyond, the front's learners only, up to
#: as many (every point is drawn; more names than these overprint one plane).
FIGURE_NAMED = 20
#: Criterion names read as ordinal by the GSD by default (times).
TIME_WORDS = ("time", "runtime", "seconds", "latency", "duration")


@dataclass(frozen=True)
class Membership:
    """The test that one learner is on the GSD front."""

    learner: str
    competitors: tuple
    pvalues: np.ndarray       # one per competitor: H0 "the competitor dominates the learner"
    statistics: np.ndarray    # D(competitor, learner)
    exact: bool
    permutations: int
    robust: np.ndarray        # per competitor: contaminated data sets the rejection survives
    static: bool              # every p ≤ alpha
    dynamic: bool             # every p ≤ alpha / (k − 1)
    robust_static: int        # contaminated data sets under which static still rejects (-1)
    curtailed: np.ndarray     # per competitor: stopped once p > alpha was certain

    @property
    def pvalue(self) -> float:
        """The intersection-union p-value: the largest of the pairwise ones (a lower bound
        when a curtailed test gave it)."""
        return float(self.pvalues.max()) if len(self.pvalues) else 0.0


@dataclass(frozen=True, repr=False)
class CriteriaComparison(Analysis):
    """Everything :func:`compare_criteria` decided, with the settings that produced it.

    ``best_sets``: per criterion, the learners tied with the best on it (a
    :class:`~rankwise.analysis.best.BestSet`: not significantly worse than the best learner's
    point in the pairwise test against it, Holm-adjusted over the criterion's pairs).

    Examples
    --------
    >>> from rankwise import compare_criteria, load_example
    >>> criteria = ["accuracy", "fit_time"]
    >>> tables = [load_example("demo_results", criterion=c) for c in criteria]
    >>> r = compare_criteria(tables, criteria, draws=100)
    >>> r.outdone_learners["CART"], r.gsd_front_learners
    (['NaiveBayes'], ['NaiveBayes', 'RandomForest'])
    >>> r.schema, r.best_sets[0].best, r.best_sets[0].procedure
    ('rankwise.fronts/2', 'RandomForest', 'against-best')
    >>> r.summaries, r.gsd_shown
    (('mean', 'mean'), [])
    """

    kind: ClassVar[str] = "fronts"
    # 1 (unreleased): {"kind": "fronts", ...}; 2: "schema" in its place, "best_sets" added
    version: ClassVar[int] = 2

    learners: tuple
    datasets: tuple
    criteria: tuple
    maximize: tuple           # per criterion
    cardinal: tuple           # per criterion (GSD)
    values: np.ndarray        # n × k × m, as read (not oriented)
    points: np.ndarray        # k × m: each learner's summary, as read
    low: np.ndarray           # k × m interval ends (as read)
    high: np.ndarray
    front: np.ndarray         # k booleans
    probability: np.ndarray   # k: share of bootstrap draws on the front
    better: np.ndarray        # m × k × k: [c, i, j] i significantly better than j on c
    adjusted: np.ndarray      # m × k × k Holm-adjusted p-values
    dominated: np.ndarray     # k × k: [i, j] i statistically dominated by j
    outdone: np.ndarray       # k × k: [i, j] j's point at least as good everywhere, better once
    gsd: np.ndarray | None    # k × k D(i, j), or None when skipped
    gsd_front: np.ndarray | None
    memberships: tuple
    settings: dict
    notes: tuple
    best_sets: tuple = ()     # per criterion: BestSet, the learners tied with its best
    cautions: tuple = ()      # sentences that change the reading: the verdict's first

    @property
    def summaries(self) -> tuple:
        """Each criterion's summary over the data sets (``mean``, ``median`` or ``rank``)."""
        return tuple(self.settings.get("summaries")
                     or [self.settings.get("summary", "mean")] * len(self.criteria))

    @property
    def gsd_shown(self) -> list:
        """The learners the membership test shows on the GSD front (static: every competitor
        rejected at alpha); the decision every sentence about the GSD front reads."""
        return [m.learner for m in self.memberships if m.static]

    @property
    def front_learners(self) -> list:
        return [self.learners[i] for i in np.flatnonzero(self.front)]

    @property
    def dominated_learners(self) -> dict:
        """Each statistically dominated learner: the learners that dominate it."""
        return {self.learners[i]: [self.learners[j] for j in np.flatnonzero(self.dominated[i])]
                for i in range(len(self.learners)) if self.dominated[i].any()}

    @property
    def outdone_learners(self) -> dict:
        """Each learner off the front: the learners whose points dominate its point."""
        return {self.learners[i]: [self.learners[j] for j in np.flatnonzero(self.outdone[i])]
                for i in range(len(self.learners)) if self.outdone[i].any()}

    def figure_named(self) -> np.ndarray:
        """The learners the front figure names (indices): every one up to ``FIGURE_NAMED``,
        else the front's, up to as many."""
        k = len(self.learners)
        return np.arange(k) if k <= FIGURE_NAMED else np.flatnonzero(self.front)[:FIGURE_NAMED]

    def figure_left_out(self) -> str | None:
        """The sentence the front figure prints in itself and the notes carry when it names
        fewer learners than it draws (None when it names them all)."""
        named, k, front = len(self.figure_named()), len(self.learners), int(self.front.sum())
        if named == k:
            return None
        which = ("the front's learners" if named == front else
                 f"the first {named} of the front's {front} learners")
        return (f"The front figure: every one of the {k} learners drawn, {which} named"
                f" ({named}); the table and the JSON name the others.")

    @property
    def gsd_front_learners(self) -> list:
        if self.gsd_front is None:
            return []
        return [self.learners[i] for i in np.flatnonzero(self.gsd_front)]

    @property
    def covering_pairs(self) -> list:
        """The covering pairs of the strict GSD relation: (i, j) with i dominating j and no
        learner between them (none without the GSD)."""
        if self.gsd is None:
            return []
        return list(zip(*np.nonzero(G.covering(G.strict(self.gsd)))))

    def to_dict(self) -> dict:
        """Everything as JSON-ready data (every learner); the JSON adds the verdict's
        sentences, which the report words (``verdict``, before ``settings``)."""
        names = self.learners
        return {
            "learners": list(names), "datasets": list(self.datasets),
            "criteria": [{"name": c, "higher_is_better": self.maximize[i],
                          "cardinal": self.cardinal[i], "summary": self.summaries[i]}
                         for i, c in enumerate(self.criteria)],
            "points": jsonable(self.points), "low": jsonable(self.low),
            "high": jsonable(self.high), "front": self.front_learners,
            "probability": jsonable(self.probability),
            "statistically_dominated": self.dominated_learners,
            "outdone": self.outdone_learners,
            "better": {c: [[names[i], names[j]] for i, j in zip(*np.nonzero(self.better[n]))]
                       for n, c in enumerate(self.criteria)},
            "holm_pvalues": {c: jsonable(self.adjusted[n])
                             for n, c in enumerate(self.criteria)},
            "best_sets": [b.to_dict() for b in self.best_sets],
            "gsd": None if self.gsd is None else self._gsd_dict(),
            "settings": jsonable(self.settings), "cautions": list(self.cautions),
            "notes": list(self.notes),
        }

    def _gsd_dict(self) -> dict:
        names = self.learners
        return {"statistic": jsonable(self.gsd), "front": self.gsd_front_learners,
                "shown": self.gsd_shown,
                "covering_pairs": [[names[i], names[j]] for i, j in self.covering_pairs],
                "tests": [{"learner": m.learner, "competitors": list(m.competitors),
                           "pvalues": jsonable(m.pvalues), "statistics": jsonable(m.statistics),
                           "robust": np.asarray(m.robust).tolist(),
                           "curtailed": np.asarray(m.curtailed).tolist(), "static": m.static,
                           "dynamic": m.dynamic, "robust_static": m.robust_static,
                           "exact": m.exact, "permutations": m.permutations}
                          for m in self.memberships]}


def _best_sets(points, criteria, better, learners, summaries, maximize, test,
               alpha) -> tuple:
    """Per criterion: the best point and the learners not significantly worse than it
    (``better[c, best, i]`` false), best first, then in the table's order."""
    words = ("Wilcoxon signed-rank" if F.chosen_test(test, len(learners)) == "wilcoxon"
             else "mean-rank z-test of Friedman's ranks")
    out = []
    for c, name in enumerate(criteria):
        lower_better = summaries[c] == "rank" or not maximize[c]   # points shown as read
        best = int(np.argmax(points[:, c] * (-1 if lower_better else 1)))
        tied = [best] + [i for i in range(len(learners)) if i != best and not better[c, best, i]]
        out.append(BestSet("against-best", learners[best], tuple(learners[i] for i in tied),
                           detail=f"{words}, Holm over all pairs on {name},"
                                  f" alpha = {alpha:g}", scope=name))
    return tuple(out)


def _is_time(name: str) -> bool:
    low = name.lower()
    return any(w in low for w in TIME_WORDS)


def compare_criteria(data, criteria, *, ordinal=None, alpha: float = 0.05,
                     confidence: float = 0.95, summary: str = FRONT_SUMMARY,
                     draws: int = FRONT_ROUNDS, permutations: int = FRONT_PERMUTATIONS,
                     seed: int = DEFAULT_SEED,
                     front_rule: str = "strict", gsd: bool = True, test: str = "auto",
                     **load_options) -> CriteriaComparison:
    """The front of two or more criteria, how sure it is, who is statistically dominated, and
    the GSD front with its membership tests.

    Parameters
    ----------
    data : path, DataFrame, or a sequence of ScoreTable (one per criterion)
        A long table or results database with a ``criterion`` column (each criterion read with
        :func:`rankwise.load_table` and ``load_options``), or the tables of the criteria.
    criteria : sequence of str
        Two or more criteria; each one's direction as :func:`rankwise.load_table` reads it
        (times, errors and losses are lower-is-better).
    ordinal : sequence of str, optional
        The criteria the GSD reads by their order only; default: the times.
    alpha, confidence : float
        Level of the tests; confidence of the intervals.
    summary : {"auto", "mean", "median", "rank"}
        Each learner's point on a criterion: its mean over the data sets, median, or mean
        within-data-set rank; ``auto`` (default): the mean, or the mean rank where the
        criterion's typical value differs more than ``SCALE_SPREAD``-fold across the data sets
        (the verdict says so first).
    draws : int
        Bootstrap draws of the data sets for the membership probability and the intervals.
    permutations : int
        Splits of each GSD pairwise test (every split when there are fewer).
    seed : int
        Seeds the bootstrap and the permutations (default: compare's, ``--seed``'s).
    front_rule : {"strict", "tabarena"}
        The Pareto rule (module :mod:`rankwise.stats.fronts`).
    test : {"auto", "wilcoxon", "friedman"}
        The pairwise test of statistical dominance: Wilcoxon signed-rank, or the mean-rank
        z-test of Friedman's ranks; ``auto``: Wilcoxon up to 200 learners.
    gsd : bool
        Compute the GSD relation, front and tests (up to ``GSD_MAX_LEARNERS`` learners).

    Returns
    -------
    CriteriaComparison

    References
    ----------
    Jansen, C., Schollmeyer, G., Rodemann, J., Blocher, H. & Augustin, T. (2024). Statistical
    multicriteria benchmarking via the GSD-front. NeurIPS 37. Jansen, C., Nalenz, M.,
    Schollmeyer, G. & Augustin, T. (2023). Statistical comparisons of classifiers by
    generalized stochastic dominance. JMLR 24(231).

    Examples
    --------
    The bundled demo experiment's accuracy and fit time (4 data sets):

    >>> from rankwise import compare_criteria, load_example
    >>> criteria = ["accuracy", "fit_time"]
    >>> tables = [load_example("demo_results", criterion=c) for c in criteria]
    >>> r = compare_criteria(tables, criteria, draws=200)
    >>> r.front_learners
    ['NaiveBayes', 'RandomForest']
    """
    criteria = tuple(criteria)
    draws = check_renamed(draws, load_options.pop("rounds", None), "rounds", "draws")
    # one word per idea: "convention" is compare's {default, paper}; the front's tie rule is
    # front_rule (convention= still works, with a FutureWarning, until 0.10)
    front_rule = check_renamed(front_rule, load_options.pop("convention", None), "convention",
                               "front_rule")
    _check(criteria, alpha, confidence, summary, draws, permutations, front_rule, test, seed)
    tables = _tables(data, criteria, load_options)
    learners, datasets, values, notes = _align(tables, criteria)
    maximize = tuple(bool(t.higher_is_better) for t in tables)
    if ordinal is None:
        ordinal = [c for c in criteria if _is_time(c)]
    unknown = sorted(set(ordinal) - set(criteria))
    if unknown:
        raise RankwiseError(f"ordinal criteria {', '.join(unknown)} are not among the criteria"
                            f" ({', '.join(criteria)})")
    cardinal = tuple(c not in set(ordinal) for c in criteria)
    oriented = F.orient(values, maximize)
    n, k, m = values.shape
    if n < 2:
        raise RankwiseError(f"the front needs at least 2 data sets; the table has {n}")
    spread = _scale_spread(values)
    summaries = tuple(("rank" if spread[c] > SCALE_SPREAD else "mean") if summary == "auto"
                      else summary for c in range(m))
    summarised, how = _summarised(oriented, summaries)
    point = F.aggregate(summarised, how)
    front = F.pareto_front(point, front_rule, maximize)
    probability, low, high = F.front_probability(summarised, how, draws, seed, front_rule,
                                                 confidence, maximize)
    better, adjusted = F.dominance(oriented, alpha, test=test)
    dominated = F.statistically_dominated(better)
    if k <= OUTDONE_MAX_LEARNERS:
        outdone = F.outdone(point)
    else:
        outdone = np.zeros((k, k), dtype=bool)
        notes.append(f"which learners' points beat each point off the front is left out above"
                     f" {OUTDONE_MAX_LEARNERS:,} learners (a k x k matrix); the front and the"
                     f" probabilities are all there")
    # shown as read: each criterion in its own direction; mean ranks as ranks (1 = best)
    sign = np.where(np.array(summaries) == "rank", -1.0, np.where(maximize, 1.0, -1.0))
    points = point * sign
    lo, hi = np.minimum(low * sign, high * sign), np.maximum(low * sign, high * sign)
    gsd_d = gsd_front = None
    memberships = ()
    if gsd and k > GSD_MAX_LEARNERS:
        notes.append(f"GSD left out: {k} learners, above the {GSD_MAX_LEARNERS} it takes (it"
                     " solves a programme for each ordered pair).")
    elif gsd and n > GSD_MAX_DATASETS:
        notes.append(f"GSD left out: {n} data sets, above the {GSD_MAX_DATASETS} it takes"
                     " (each pair's programme grows with the square of its outcomes).")
    elif gsd:
        systems = {}
        gsd_d = G.relation(oriented, cardinal, systems)
        gsd_front = G.front(gsd_d)
        memberships = _memberships(oriented, learners, cardinal, gsd_front, alpha,
                                   permutations, seed, systems, gsd_d)
    if memberships and not all(m.exact for m in memberships) \
            and alpha / max(k - 1, 1) < 1 / (permutations + 1):
        notes.append(f"the dynamic test cannot reject with {permutations} permutations:"
                     f" alpha/(k-1) = {alpha / max(k - 1, 1):.3g} is below the smallest"
                     f" p-value, 1/{permutations + 1}; raise --permutations")
    cautions = _cautions(spread, criteria, summaries, summary, n, alpha)
    settings = {"summary": summary, "summaries": list(summaries), "draws": draws, "seed": seed,
                "confidence": confidence, "alpha": alpha, "front_rule": front_rule,
                "permutations": permutations,
                "test": ("Wilcoxon signed-rank (zero rule demsar)"
                         if F.chosen_test(test, k) == "wilcoxon" else
                         "mean-rank z-test of Friedman's ranks") + ", Holm over each"
                        " criterion's pairs",
                "ordinal": [c for c, card in zip(criteria, cardinal) if not card],
                "gsd": "weak representations (epsilon = 0); pairwise programmes solved by"
                       " HiGHS"}
    result = CriteriaComparison(
        tuple(learners), tuple(datasets), criteria, maximize, cardinal, values, points, lo, hi,
        front, probability, better, adjusted, dominated, outdone, gsd_d, gsd_front,
        tuple(memberships), settings, tuple(notes),
        _best_sets(points, criteria, better, learners, summaries, maximize, test, alpha),
        tuple(cautions))
    named = result.figure_left_out()
    return replace(result, notes=result.notes + (named,)) if named else result


def _scale_spread(values) -> np.ndarray:
    """Per criterion: how many-fold its typical value (the median over learners of the
    absolute values) differs across the data sets (1 where fewer than two are non-zero)."""
    out = np.ones(values.shape[2])
    for c in range(values.shape[2]):
        typical = np.median(np.abs(values[:, :, c]), axis=1)
        typical = typical[typical > 0]
        if typical.size > 1:
            out[c] = typical.max() / typical.min()
    return out


def _summarised(oriented, summaries) -> tuple:
    """``(values, how)`` for :func:`rankwise.stats.fronts.aggregate`: the oriented values and
    the one summary when every criterion has it; else (the mean for some criteria, the mean
    rank for others) each rank-summarised criterion as minus its within-data-set rank, all
    averaged."""
    if len(set(summaries)) == 1:
        return oriented, summaries[0]
    from scipy.stats import rankdata

    out = np.array(oriented, dtype=float)
    for c, how in enumerate(summaries):
        if how == "rank":
            out[:, :, c] = -rankdata(-out[:, :, c], axis=1)
    return out, "mean"


def _cautions(spread, criteria, summaries, asked: str, n: int, alpha: float) -> list:
    """The sentences that change how the verdict reads, its first: for each criterion whose
    typical value spreads over SCALE_SPREAD-fold across the data sets, what its summary makes
    of it (the mean rank chosen for it, or a mean asked for, which the data sets of largest
    values lead); and with fewer than six data sets, that the tests can hardly reject."""
    out = []
    if n < 6:
        out.append(f"With {n} data sets the smallest two-sided Wilcoxon p-value is"
                   f" {2 / 2 ** n:.3g}: no learner can be significantly better at alpha ="
                   f" {alpha:g} before Holm's adjustment." if 2 / 2 ** n > alpha else
                   f"With {n} data sets few pairs can reach significance.")
    for c, name in enumerate(criteria):
        if spread[c] <= SCALE_SPREAD:
            continue
        fold = f"{name}'s typical value differs {spread[c]:.3g}-fold across the {n} data sets"
        if summaries[c] == "rank" and asked == "auto":
            out.append(f"{fold}, so each learner's point on {name} is its mean within-data-set"
                       f" rank (1 = best), not its mean, which the data sets of largest values"
                       f" would lead (the raw mean: --summary mean, or summary='mean').")
        elif summaries[c] == "mean":
            out.append(f"{fold}: its mean is led by the data sets of largest values;"
                       f" --summary rank (summary='rank': the mean within-data-set rank) reads"
                       f" every data set alike.")
    return out


def _check(criteria, alpha, confidence, summary, draws, permutations, front_rule, test,
           seed):
    if len(criteria) < 2:
        raise RankwiseError("a front needs two or more criteria (e.g. accuracy,fit_time)")
    if len(set(criteria)) != len(criteria):
        raise RankwiseError(f"a criterion is named twice: {', '.join(criteria)}")
    from .. import _validate as check

    check.alpha(alpha)
    check.confidence(confidence)
    check.seed(seed)
    if test not in F.TESTS:
        raise RankwiseError(f"test must be one of {', '.join(F.TESTS)}; got {test!r}")
    if summary not in SUMMARIES:
        raise RankwiseError(f"summary must be one of {', '.join(SUMMARIES)}; got {summary!r}")
    if front_rule not in F.CONVENTIONS:
        raise RankwiseError(f"front_rule must be one of {', '.join(F.CONVENTIONS)};"
                            f" got {front_rule!r}")
    if front_rule == "tabarena" and len(criteria) != 2:
        raise RankwiseError("the tabarena front rule takes two criteria")
    check.whole("draws", draws)
    check.whole("permutations", permutations)


def _tables(data, criteria, load_options) -> list:
    from ..tables import ScoreTable, load_table

    if isinstance(data, (list, tuple)) and data and all(isinstance(t, ScoreTable)
                                                        for t in data):
        if len(data) != len(criteria):
            raise RankwiseError(f"{len(data)} tables for {len(criteria)} criteria")
        return list(data)
    tables = [load_table(data, criterion=c, **load_options) for c in criteria]
    wide = [t for t in tables if getattr(t.reading, "source", None) == "wide"]
    if wide:
        learners = [c for c in criteria if c in wide[0].learners]
        said = (f"its learners {', '.join(learners)} are not criteria" if learners else
                "each criterion would read the same scores")
        raise RankwiseError(f"{wide[0].source}: a wide table (data sets x learners) holds one"
                            f" criterion, so --criteria picks nothing ({said}); give a long"
                            " table with a criterion column, or one column per criterion")
    return tables


def _align(tables, criteria):
    """The learners and data sets every criterion has; the others are named in a note."""
    # positions by name: each lookup O(1), so 100,000 data sets align in linear time
    where = [({x: i for i, x in enumerate(t.learners)}, {d: i for i, d in enumerate(t.datasets)})
             for t in tables]
    learners = [x for x in tables[0].learners if all(x in w[0] for w in where)]
    datasets = [d for d in tables[0].datasets if all(d in w[1] for w in where)]
    kept_l, kept_d = set(learners), set(datasets)
    notes = []
    for t, c in zip(tables, criteria):
        gone_l = [x for x in t.learners if x not in kept_l]
        gone_d = [d for d in t.datasets if d not in kept_d]
        if gone_l:
            notes.append(f"{c}: learners without every criterion left out: {', '.join(gone_l)}")
        if gone_d:
            notes.append(f"{c}: data sets without every criterion left out: {', '.join(gone_d)}")
    if len(learners) < 2:
        raise RankwiseError("fewer than two learners have every criterion"
                            f" ({', '.join(criteria)})")
    values = np.stack([t.values[np.ix_([w[1][d] for d in datasets],
                                       [w[0][x] for x in learners])]
                       for t, w in zip(tables, where)], axis=2)
    if not np.isfinite(values).all():
        raise RankwiseError("the front needs a value of every criterion for every learner and"
                            " data set; use --missing drop-datasets or drop-learners")
    return learners, datasets, values, notes


def _memberships(oriented, learners, cardinal, gsd_front, alpha, permutations, seed,
                 systems, d) -> list:
    """Each learner on the sample's GSD front against every other learner, the likeliest
    dominator first (largest D(other, learner)); once one test is certain to give p > alpha the
    learner cannot be shown on the front, and the others are not run (the decision is the
    same)."""
    k = len(learners)
    out = []
    seeds = np.random.SeedSequence(seed).spawn(k * k)
    for i in np.flatnonzero(gsd_front):
        order = sorted((j for j in range(k) if j != i), key=lambda j: (-d[j, i], j))
        comp, tests = [], []
        for j in order:
            t = G.pair_test(oriented[:, i], oriented[:, j], cardinal,
                            permutations=permutations, seed=seeds[i * k + j], level=alpha,
                            system=systems.get((min(i, j), max(i, j))), curtail=True)
            comp.append(j)
            tests.append(t)
            if t.curtailed or t.pvalue > alpha:
                break
        p = np.array([t.pvalue for t in tests])
        robust = np.array([t.robust for t in tests])
        complete = len(comp) == k - 1
        out.append(Membership(learners[i], tuple(learners[j] for j in comp), p,
                              np.array([t.statistic for t in tests]),
                              all(t.exact for t in tests), max(t.permutations for t in tests),
                              robust, complete and bool((p <= alpha).all()),
                              complete and bool((p <= alpha / max(k - 1, 1)).all()),
                              int(robust.min()) if complete else -1,
                              np.array([t.curtailed for t in tests])))
    return out
