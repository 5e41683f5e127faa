"""Typed results of an analysis: what :func:`~rankwise.analysis.compare` decided, kept as data.

Every report, figure and the JSON contract read these objects; none of them computes a p-value.
Each class has ``to_dict()``, its part of the JSON contract (docs/json.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ..stats.results import jsonable


@dataclass(frozen=True)
class Gate:
    """The omnibus test that must reject before a ranking's post-hoc tests are computed."""

    test: str
    statistic: float
    pvalue: float
    alpha: float
    passed: bool

    def to_dict(self) -> dict:
        return jsonable({"test": self.test, "statistic": self.statistic, "pvalue": self.pvalue,
                         "alpha": self.alpha, "passed": self.passed})


@dataclass(frozen=True)
class PairComparison:
    """One hypothesis of a family: learner ``a`` against learner ``b``.

    Examples
    --------
    >>> import rankwise
    >>> cmp = rankwise.compare(rankwise.load_example("garcia2008"), posthoc="all")
    >>> pair = cmp.posthoc.rankings['friedman'].families['all_pairs'].comparisons[0]
    >>> pair.a, pair.b, round(pair.pvalue, 6)
    ('C4.5', '1-NN', 0.004708)
    >>> sorted(pair.apv)
    ['bergmann_hommel', 'bonferroni', 'holm', 'nemenyi', 'shaffer']
    """

    a: str
    b: str
    statistic: float
    pvalue: float
    apv: dict  # procedure -> adjusted p-value

    def rejected(self, procedure: str, alpha: float) -> bool:
        value = self.apv.get(procedure)
        return value is not None and math.isfinite(value) and value <= alpha

    def to_dict(self) -> dict:
        return jsonable({"a": self.a, "b": self.b, "statistic": self.statistic,
                         "pvalue": self.pvalue, "apv": dict(self.apv)})


@dataclass(frozen=True, eq=False)
class FamilyResult:
    """A family of comparisons (``control`` or ``all_pairs``) with the APVs of its procedures.

    Kept as arrays, one entry per pair (``a``, ``b``: indices into ``learners``), so that the
    499,500 pairs of 1,000 learners stay four vectors; ``comparisons`` makes one
    :class:`PairComparison` per pair the first time a writer asks for them.
    """

    family: str
    procedures: tuple
    learners: tuple
    a: np.ndarray
    b: np.ndarray
    statistics: np.ndarray
    pvalues: np.ndarray
    apvs: dict  # procedure -> array of adjusted p-values

    def __len__(self) -> int:
        return len(self.a)

    @cached_property
    def comparisons(self) -> tuple:
        return self.select(np.arange(len(self)))

    def select(self, rows) -> tuple:
        """One :class:`PairComparison` for each of ``rows`` (indices of pairs), in that order."""
        rows = np.asarray(rows, dtype=np.int64)
        names = self.learners
        columns = [self.apvs[proc][rows].tolist() for proc in self.procedures]
        return tuple(PairComparison(names[a], names[b], s, p,
                                    dict(zip(self.procedures, (col[i] for col in columns))))
                     for i, (a, b, s, p) in enumerate(zip(
                         self.a[rows].tolist(), self.b[rows].tolist(),
                         self.statistics[rows].tolist(), self.pvalues[rows].tolist())))

    def rejected(self, procedure: str, alpha: float) -> np.ndarray:
        """Per pair: True where ``procedure`` rejects at ``alpha``."""
        if procedure not in self.apvs:
            return np.zeros(len(self), dtype=bool)
        v = self.apvs[procedure]
        return np.isfinite(v) & (v <= alpha)

    def _positions(self, learners):
        if tuple(learners) == self.learners:
            return self.a, self.b
        index = {name: j for j, name in enumerate(learners)}
        where = np.array([index[name] for name in self.learners], dtype=np.int64)
        return where[self.a], where[self.b]

    def significant(self, procedure: str, alpha: float, learners) -> np.ndarray:
        """k × k booleans: True where ``procedure`` rejects the pair at ``alpha``."""
        a, b = self._positions(learners)
        sig = np.zeros((len(learners), len(learners)), dtype=bool)
        hit = self.rejected(procedure, alpha)
        sig[a, b] = hit
        sig[b, a] = hit
        return sig

    def apv_matrix(self, procedure: str, learners) -> np.ndarray:
        """k × k adjusted p-values of ``procedure`` (1 on the diagonal and for absent pairs)."""
        a, b = self._positions(learners)
        out = np.ones((len(learners), len(learners)))
        out[a, b] = self.apvs[procedure]
        out[b, a] = self.apvs[procedure]
        return out

    def to_list(self) -> list:
        """One dict per pair (schema 1's form; :meth:`to_columns` is the JSON's)."""
        return [c.to_dict() for c in self.comparisons]

    def to_columns(self) -> dict:
        """The JSON form (schema 2): ``a`` and ``b`` as indices into ``learners``, then one
        array per number, ``apv`` one array per procedure."""
        return {"a": self.a, "b": self.b, "statistic": self.statistics, "pvalue": self.pvalues,
                "apv": {proc: self.apvs[proc] for proc in self.procedures}}


@dataclass(frozen=True, eq=False)
class StreamedFamily:
    """All pairs of more learners than the outputs hold (``PAIR_MATRIX_MAX_LEARNERS``):
    computed in blocks, most significant first (:mod:`rankwise.stats.all_pairs`), and kept as
    what a reader uses: how many pairs each procedure rejects at ``alpha``, the most
    significant pairs (``top``), the pairs of the learners the reports show (``among``), and
    the stream itself, which writes every pair to a file (``--pairs FILE``)."""

    family: str
    procedures: tuple
    learners: tuple
    n_pairs: int
    alpha: float
    rejected: dict                 # procedure -> pairs rejected at alpha
    top: FamilyResult              # the pairs with the smallest p, in that order
    among: FamilyResult            # the pairs of the learners the reports show
    last_rejected: dict            # procedure -> (largest p, smallest difference) rejected
    stream: object = field(default=None, repr=False, compare=False)

    complete = False

    def __len__(self) -> int:
        return self.n_pairs

    def to_columns(self) -> dict:
        """The JSON form: no ``a``/``b`` columns of every pair (they would be gigabytes), but
        the counts, the most significant pairs and the pairs of the learners shown, each in the
        columns of a complete family."""
        return {"complete": False, "n_pairs": self.n_pairs, "alpha": self.alpha,
                "rejected": dict(self.rejected), "top_order": "smallest p first",
                "top": self.top.to_columns(), "among_shown": self.among.to_columns()}

    def to_list(self) -> list:
        return self.top.to_list()


@dataclass(frozen=True)
class CriticalDifference:
    """Critical differences of mean Friedman ranks at ``alpha`` (Demšar 2006, §3.2.2).

    ``se`` is the standard error of a difference of two mean ranks that every rank-based
    decision of the analysis uses (tie-aware under the default convention, Demšar's
    √(k(k+1)/(6n)) under ``paper``), so the value printed is the value drawn.

    Examples
    --------
    >>> import rankwise
    >>> cmp = rankwise.compare(rankwise.load_example("garcia2008"), posthoc="all")
    >>> cd = cmp.critical_difference
    >>> round(cd.nemenyi, 4), round(cd.bonferroni_dunn, 4), cd.alpha
    (1.1099, 1.0163, 0.05)
    """

    alpha: float
    se: float
    se_formula: str
    nemenyi: float
    q_nemenyi: float
    bonferroni_dunn: float
    q_bonferroni_dunn: float

    def value(self, procedure: str) -> float | None:
        """The CD of a procedure that has one (``nemenyi``, ``bonferroni_dunn``), else None."""
        return {"nemenyi": self.nemenyi, "bonferroni_dunn": self.bonferroni_dunn}.get(procedure)

    def to_dict(self) -> dict:
        return jsonable({"alpha": self.alpha, "nemenyi": self.nemenyi,
                         "q_nemenyi": self.q_nemenyi, "bonferroni_dunn": self.bonferroni_dunn,
                         "q_bonferroni_dunn": self.q_bonferroni_dunn, "se": self.se,
                         "se_formula": self.se_formula})


@dataclass(frozen=True)
class RankingResult:
    """The post-hoc comparisons of one ranking (``friedman``, ``wilcoxon``, ``anova``, …)."""

    ranking: str
    gate: Gate
    skipped: bool                  # the gate stopped it
    forced: bool                   # computed although the gate did not pass
    statistic: str | None = None   # what the comparisons' statistic is
    se: float | None = None
    se_formula: str | None = None
    mean_scores: dict | None = None
    critical_difference: CriticalDifference | None = None
    families: dict = field(default_factory=dict)   # family -> FamilyResult
    methods: dict = field(default_factory=dict)    # how a procedure was computed
    notes: tuple = ()
    details: dict = field(default_factory=dict)    # ranking-specific extras

    def to_dict(self, rows: bool = False) -> dict:
        """The JSON form; ``rows``: families as one dict per pair (schema 1's form)."""
        out = {"gate": self.gate.to_dict()}
        if self.skipped:
            out["skipped"] = True
            out["notes"] = list(self.notes)
            return jsonable(out)
        out["statistic"] = self.statistic
        if self.se is not None:
            out["se"] = self.se
            out["se_formula"] = self.se_formula
            out["mean_scores"] = self.mean_scores
            out["critical_difference"] = (self.critical_difference.to_dict()
                                      if self.critical_difference is not None else None)
        out.update(self.details)
        for name, fam in self.families.items():
            out[name] = fam.to_list() if rows else fam.to_columns()
        if self.methods:
            out["methods"] = dict(self.methods)
        out["notes"] = list(self.notes)
        return jsonable(out)


@dataclass(frozen=True)
class PosthocResult:
    """Every requested post-hoc family on every requested ranking, plus the multiple sign test
    and contrast estimation.

    Examples
    --------
    >>> import rankwise
    >>> cmp = rankwise.compare(rankwise.load_example("garcia2008"), posthoc="all")
    >>> post = cmp.posthoc
    >>> sorted(post.rankings), sorted(post.rankings['friedman'].families)
    (['friedman'], ['all_pairs'])
    """

    families: tuple
    rankings: dict                 # ranking -> RankingResult, in the requested order
    control: str | None
    control_source: str | None
    procedures: dict               # family -> tuple of procedures
    forced: bool
    critical_difference: CriticalDifference
    multiple_sign_test: dict | None
    contrast: object = field(default=None, repr=False)  # computes the contrast estimation

    @cached_property
    def contrast_estimation(self) -> dict:
        """Contrast estimation based on medians, computed the first time it is read (it is the
        costliest part of a large analysis, and only reports print it)."""
        return self.contrast() if callable(self.contrast) else self.contrast

    def to_dict(self, rows: bool = False, matrices: bool = True) -> dict:
        """The JSON form; ``rows``: families as one dict per pair (schema 1's form);
        ``matrices``: the contrast estimation's k × k matrices (else null, with
        ``matrices_included`` false: ``estimates`` is m_u − m_v of its ``m``)."""
        out = {"families": list(self.families), "rankings": list(self.rankings),
               "control": self.control, "control_source": self.control_source,
               "procedures": {f: list(p) for f, p in self.procedures.items()},
               "forced": self.forced}
        for name, entry in self.rankings.items():
            out[name] = entry.to_dict(rows)
        out["critical_difference"] = (self.critical_difference.to_dict()
                                      if self.critical_difference is not None else None)
        if self.multiple_sign_test is not None:
            out["multiple_sign_test"] = self.multiple_sign_test
        contrast = self.contrast_estimation
        if contrast is not None:
            contrast = {**contrast, "matrices_included": matrices}
            if not matrices:
                contrast["estimates"] = contrast["medians"] = None
        out["contrast_estimation"] = contrast
        return jsonable(out)

    def __getitem__(self, key):
        """The dict interface of rankwise 0.1 (``cmp.posthoc["friedman"]["all_pairs"]``): reads
        the JSON form, families as one dict per pair, as 0.1 had them."""
        return self.to_dict(rows=True)[key]


@dataclass(frozen=True)
class Verdict:
    """The plain answer: which learners are detectably worse than the best, and on what basis.

    ``detected`` is False when no significant difference was detected (which is not evidence
    that the learners are equivalent). ``caveats`` are the sentences that qualify the answer
    (small samples, approximations); ``direction`` says which way the scores were read.

    Examples
    --------
    >>> import rankwise
    >>> cmp = rankwise.compare(rankwise.load_example("garcia2008"), posthoc="all")
    >>> v = cmp.verdict
    >>> v.detected, v.best, v.winners, v.losers, v.procedure
    (True, 'C4.5', ('C4.5', 'NaiveBayes'), ('CN2', '1-NN', 'Kernel'), 'holm')
    >>> round(v.apv['Kernel'], 10)
    1.618e-07
    """

    text: str
    detected: bool
    winners: tuple
    losers: tuple
    best: str | None
    procedure: str | None
    ranking: str
    family: str | None
    alpha: float
    gate: Gate | None
    direction: str
    caveats: tuple = ()
    apv: dict = field(default_factory=dict)  # learner -> APV against the best
    statement: str = ""  # the text before its caveats and direction
    basis: str = "frequentist"  # "bayesian": the statement leads with ``bayesian``
    bayesian: object | None = None  # a BayesianVerdict (analysis.bayes_verdict)

    @property
    def tie(self) -> bool:
        """Deprecated name of ``not detected`` (kept in the JSON contract)."""
        return not self.detected

    def decisions(self, learners) -> list:
        """What the verdict says of each of ``learners``: ``best``, ``worse`` (a loser) or ``not
        detected`` (every learner when no difference was detected; not evidence of
        equivalence), as every report's tables and the result's frame print it (the losers
        looked up in a set: a list of 100,000 learners stays linear)."""
        if not self.detected:
            return ["not detected"] * len(learners)
        losers = set(self.losers)
        return ["best" if name == self.best else "worse" if name in losers else "not detected"
                for name in learners]

    def to_dict(self) -> dict:
        return jsonable({"text": self.text, "tie": self.tie, "difference_detected": self.detected,
                         "winners": list(self.winners), "losers": list(self.losers),
                         "best": self.best, "procedure": self.procedure, "ranking": self.ranking,
                         "family": self.family,
                         "gate": None if self.gate is None else
                         {"test": self.gate.test, "pvalue": self.gate.pvalue,
                          "alpha": self.gate.alpha},
                         "direction": self.direction, "caveats": list(self.caveats),
                         "apv_against_best": dict(self.apv), "basis": self.basis,
                         "bayesian": None if self.bayesian is None else self.bayesian.to_dict()})


@dataclass(frozen=True, eq=False)
class Runs:
    """Groups of learners that are runs of the mean-rank order, as a CD diagram's bars are:
    group g is ``order[start[g]:end[g] + 1]`` (``order``: learner indices by (mean rank,
    index)). At most k groups of two ints each, where the groups as lists of names can hold
    k²/2 names."""

    order: np.ndarray
    start: np.ndarray
    end: np.ndarray

    def __len__(self) -> int:
        return len(self.start)

    def groups(self, learners, first: int | None = None) -> tuple:
        """The groups as tuples of names, cut to the ``first`` learners of the order (a run
        cut to them is still a run; a cut run inside an earlier one is dropped)."""
        order = self.order.tolist()
        last = len(order) - 1 if first is None else min(first, len(order)) - 1
        out, reach = [], -1
        for s, e in zip(self.start.tolist(), self.end.tolist()):
            e = min(e, last)
            if e - s >= 1 and e > reach:
                out.append(tuple(learners[j] for j in order[s:e + 1]))
                reach = e
        return tuple(out)

    def to_dict(self) -> dict:
        return {"order": self.order, "ranges": np.column_stack([self.start, self.end])}


@dataclass(frozen=True)
class FigurePlan:
    """What one figure shows, decided by the analysis; the drawing code only draws it.

    ``cliques`` (all-pairs diagrams) are groups of learners no two of which the procedure
    separates; ``decisions`` (the control diagram) say which learners differ from the control;
    ``pvalues`` (the heat map) are the adjusted p-values. ``note`` is the sentence a report
    prints beside the figure when it may be read against the verdict.
    """

    name: str
    drawn: bool
    headline: bool
    procedure: str | None
    family: str | None
    ranking: str
    alpha: float
    caption: str
    reason: str | None = None                 # why it is not drawn
    forced: bool = False                      # drawn although the gate did not pass
    critical_difference: float | None = None  # drawn on the figure when set
    cd_procedure: str | None = None
    control: str | None = None
    cliques: tuple | None = None              # tuples of learner names
    runs: Runs | None = field(default=None, repr=False, compare=False)  # every learner's groups
    decisions: dict | None = None             # learner -> differs from the control
    pvalues: np.ndarray | None = None
    learners: tuple = ()                      # the order of the rows of ``pvalues``
    subset: bool = False                      # ``learners`` are some of the table's only
    note: str | None = None
    rank_intervals: dict | None = None        # learner -> (low, high), drawn as thin bars
    # (a, b, posterior draws, (p_a, p_rope, p_b)) per pair, for the simplex plot
    posterior: tuple | None = field(default=None, repr=False, compare=False)
    # the multi-comparison matrix (analysis.mcm), for its heat map
    matrix: object | None = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict:
        out = {"drawn": self.drawn, "headline": self.headline, "procedure": self.procedure,
               "family": self.family, "ranking": self.ranking, "alpha": self.alpha,
               "caption": self.caption, "forced": self.forced}
        if self.reason:
            out["reason"] = self.reason
        if self.drawn:
            out["critical_difference"] = self.critical_difference
            out["cd_procedure"] = self.cd_procedure
            if self.control is not None:
                out["control"] = self.control
            if self.cliques is not None:
                out["cliques"] = [list(g) for g in self.cliques]
            if self.runs is not None:
                out["runs"] = self.runs.to_dict()
            if self.decisions is not None:
                out["decisions"] = dict(self.decisions)
            if self.pvalues is not None and self.learners:
                i, j = np.nonzero(np.triu(np.asarray(self.pvalues) <= self.alpha, 1))
                out["outlined"] = np.column_stack([i, j])  # indices into ``learners``
                if self.subset:  # the matrix holds some learners only: which, in its order
                    out["learners"] = list(self.learners)
            if self.rank_intervals is not None:
                out["rank_intervals"] = {k: list(v) for k, v in self.rank_intervals.items()}
        if self.note:
            out["note"] = self.note
        return jsonable(out)
