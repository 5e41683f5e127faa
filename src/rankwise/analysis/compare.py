"""One call that analyses a table: every test, gate, post-hoc family, figure decision and the
verdict, computed once and kept, with the settings that produced them, on a :class:`Comparison`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import ClassVar

import numpy as np

from ..errors import RankwiseError
from ..option_table import BY_NAME, RENAMED
# Names that rankwise 0.5 defined or imported here, kept importable from here for one release.
from ..names import (ALL_PAIRS_PROCEDURES, GROUP_METHODS, OMNIBUS_TESTS,  # noqa: F401
                     OPTIONAL_PROCEDURES, TWO_LEARNER_TESTS)
from .steps import INCOMPLETE_RANKINGS, PARALLEL_MIN_CELLS  # noqa: F401
from ..stats.ranking import DEFAULT_DECIMALS
from ..stats.summary import best_in_row, quartile_charts, win_tie_loss_matrix
from ..tables import ScoreTable, load_table
from ..stats.bayesian import DEFAULT_SEED
from . import steps
from .options import validate
from .figures import matrix_rows
from .option_groups import (BayesianOptions, PerDatasetOptions, PosthocOptions, Presentation,
                            RankSetOptions, WilcoxonOptions, flat_settings, grouped)
from ..protocol import Analysis
from .results import CriticalDifference, PosthocResult, Verdict


@dataclass(frozen=True)
class Summary:
    """Descriptive summaries of the table (no tests): the best cell of each data set, the
    win/tie/loss matrix and the quartile charts."""

    best: np.ndarray            # n × k booleans
    win_tie_loss: np.ndarray    # m × m × (wins, ties, losses), row against column
    quartiles: dict
    win_tie_loss_rows: np.ndarray  # the m learners of the matrix (all up to 1,000 learners)


@dataclass(frozen=True, repr=False)
class Comparison(Analysis):
    """Everything :func:`compare` decided, with the settings that produced it.

    Attributes
    ----------
    tests : dict of TestResult
        The omnibus tests (k ≥ 3) and/or the two-learner tests, by name.
    posthoc : PosthocResult or None
        The requested post-hoc families (``posthoc=``), typed.
    verdict : Verdict
        The plain answer, with the procedure, gate, direction and caveats it rests on.
    figures : dict of FigurePlan
        What each figure shows (cliques, decisions, the CD drawn), or why it is not drawn.
    critical_difference : CriticalDifference or None
        The one CD of mean ranks every output prints and draws (k ≥ 3).
    notes : tuple of str
        Every warning and note, as every report format prints them.
    effects : tuple of PairEffects
        Effect sizes with intervals of the verdict's family (and the post-hoc family), ``a − b``.
    bayesian : tuple of BayesianResult
        The Bayesian test of the same pairs (``bayesian=``), with its ROPE and decision.
    mean_rank_intervals : ndarray or None
        k × 2 confidence intervals of the mean ranks (bootstrap over data sets), at the
        effect sizes' confidence level; how, in ``settings["mean_rank_intervals"]``.
    pool_check : PoolCheck or None
        With ``pool_check=True``: which pair decisions and which members of the verdict's top
        group change when one learner leaves the pool or a dominated copy joins it.
    mcm : MultiComparisonMatrix or None
        With ``mcm=``: the multi-comparison matrix of every pair.
    groups : RankGroups or None
        With ``groups=``: the Scott-Knott ESD groups, best first.
    rank_sets : RankSets or None
        With ``rank_sets=``: the confidence sets for the learners' ranks.
    letters : LetterDisplay or None
        With the all-pairs family: the compact letter display of the CD diagram's decisions
        (Piepho 2004) for the learners the reports show.
    dataset_check : DatasetCheck or None
        With ``dataset_check=True``: the fewest data sets whose removal overturns each claim.
    multiverse : Multiverse or None
        With ``multiverse=``: the verdict rerun over a grid of other reasonable analyses.
    per_dataset : PerDataset or None
        With ``per_dataset=``: the tests of each learner against the base on each data set.
    concordance : Concordance or None
        Kendall's W with its bootstrap interval, the omnibus test's effect size (a complete
        table of k ≥ 3 learners).

    Examples
    --------
    >>> import rankwise
    >>> cmp = rankwise.compare(rankwise.load_example("garcia2008"), posthoc="all")
    >>> cmp.verdict.best, cmp.verdict.losers
    ('C4.5', ('CN2', '1-NN', 'Kernel'))
    >>> round(cmp.tests['iman_davenport'].pvalue, 12)
    1.323e-09
    >>> [round(float(r), 3) for r in cmp.mean_ranks]
    [2.1, 3.25, 2.2, 4.333, 3.117]
    >>> sorted(cmp.figures)
    ['cd_diagram', 'control_diagram', 'pvalue_heatmap']
    """

    kind: ClassVar[str] = "compare"
    version: ClassVar[int] = 2   # the schema rankwise.compare/2 (analysis/schema.py)

    table: ScoreTable
    alpha: float
    convention: str
    decimals: int | None
    ranks: np.ndarray
    mean_ranks: np.ndarray
    tests: dict
    pair: tuple | None = None
    settings: dict = field(default_factory=dict)
    posthoc: PosthocResult | None = None
    verdict: Verdict | None = None
    figures: dict = field(default_factory=dict)
    critical_difference: CriticalDifference | None = None
    notes: tuple = ()
    options: dict = field(default_factory=dict)
    effects: tuple = ()
    bayesian: tuple = ()
    mean_rank_intervals: np.ndarray | None = None
    pool_check: object | None = None  # a PoolCheck (analysis.pool), with pool_check=True
    mcm: object | None = None  # a MultiComparisonMatrix (analysis.mcm), with mcm=True
    groups: object | None = None  # RankGroups (analysis.scott_knott), with groups=
    bayesian_model: object | None = None  # PlackettLuce or BradleyTerry (rankwise.bayes)
    rank_sets: object | None = None  # RankSets (stats.rank_sets), with rank_sets=
    letters: object | None = None  # LetterDisplay (stats.letters), with the all-pairs family
    dataset_check: object | None = None  # DatasetCheck (analysis.dataset_check)
    multiverse: object | None = None  # Multiverse (analysis.multiverse), with multiverse=
    per_dataset: object | None = None  # PerDataset (analysis.per_dataset), with per_dataset=
    concordance: object | None = None  # Concordance (stats.family): Kendall's W, k >= 3

    def __repr__(self) -> str:
        """Three lines within 80 columns: k, N and the source; the verdict; the level and
        the convention, and how to print the whole report."""
        import textwrap

        t = self.table
        v = self.verdict
        lead = f"<Comparison: k = {t.n_learners} learners x N = {t.n_datasets} data sets ("
        head = lead + textwrap.shorten(str(t.source), max(10, 78 - len(lead)),
                                       placeholder="...") + ")>"
        tail = (f"  alpha = {self.alpha}, convention = {self.convention}"
                " (print(cmp.to_text()): the full report)")
        if v is None:
            return "\n".join([head, tail])
        if v.detected:
            line = (f"verdict: difference detected; best {v.best}; losers:"
                    f" {', '.join(v.losers) or 'none'}")
        else:
            line = "verdict: no significant difference detected"
        return "\n".join([head, "  " + textwrap.shorten(line, 78, placeholder=" ..."), tail])

    def to_dict(self, include_table: bool | None = None) -> dict:
        """The analysis as plain JSON data (the contract without the ``report`` section).
        ``include_table``: the per-cell matrices (default: only for tables up to 10,000 cells)."""
        from .schema import comparison_dict

        return comparison_dict(self, include_table)

    def with_options(self, **changes) -> "Comparison":
        """The same analysis of the same table with some settings of :func:`compare` changed:
        compare's keywords (``posthoc=PosthocOptions(...)``) or the flat names of
        ``options`` (``zero_method="pratt"``)."""
        flat = {**self.options, **{k: v for k, v in changes.items() if k in self.options}}
        keywords = {**grouped(flat), **{k: v for k, v in changes.items()
                                        if k not in self.options}}
        return compare(self.table, **keywords)

    @cached_property
    def summary(self) -> Summary:
        """Best cells, win/tie/loss and quartile charts (computed once, on first use)."""
        t = self.table
        rows = matrix_rows(self.mean_ranks, self.options.get("top"))
        every = len(rows) == t.n_learners
        # Mid-ranks over every learner keep each data set's order among any of them.
        wtl = win_tie_loss_matrix(t.values if every else t.values[:, rows], t.higher_is_better,
                                  self.decimals, ranks=self.ranks if every or self.ranks is None
                                  else self.ranks[:, rows])
        return Summary(best=best_in_row(t.values, t.higher_is_better, self.decimals),
                       win_tie_loss=wtl, quartiles=quartile_charts(t), win_tie_loss_rows=rows)

    # The convenience methods below hand the comparison to the report wing, which only reads it,
    # through Analysis._report() (rankwise/protocol.py): the one place where the analysis
    # reaches up to the reports, documented in docs/about/architecture.md, and only when called.

    @cached_property
    def figure_svgs(self) -> dict:
        """The drawn figures as SVG text, rendered once (the HTML report and Jupyter reuse it)."""
        return self._report().figure_svgs(self)

    @cached_property
    def report(self) -> dict:
        """The ``report`` section of the JSON contract (verdict, methods, tables, figures)."""
        return self._report().report_section(self)

    def to_json(self, indent: int | None = 2, include_table: bool | None = None) -> str:
        """The JSON contract, with the ``report`` section."""
        return self._report().render(self, "json", indent=indent, include_table=include_table)

    # to_text, to_markdown, to_latex, to_html and _repr_html_ are the protocol's (Analysis)

    def write_pairs(self, path, significant_only: bool = False) -> list:
        """Every pair's numbers to ``path`` (.parquet or .csv): above 1,000 learners the pairs of
        the streamed all-pairs family (``posthoc="all"``), block by block, most significant
        first (see :mod:`rankwise.report.pairs_file`); return the paths written."""
        return self._report().write_pairs(self, path, significant_only)

    def write_report(self, folder, procedure: str | None = None, figure_width=None):
        """Every format and figure into ``folder``; ``figure_width`` (``"column"``, ``"page"``
        or centimetres) draws the SVG, PDF and PNG figures for a paper (see
        :func:`rankwise.report.write_report`)."""
        return self._report().write_report(self, folder, procedure, figure_width)


def _analysis(declared):
    """The analysis behind ``declared``, whose signature and docstring are compare's: each call
    is bound to that signature (its defaults applied, an unknown keyword passed on to
    :func:`load_table`), as scikit-learn's ``validate_params`` does, and run by
    :func:`_compare`. The signature stays explicit for IDEs and help(); the option table
    (``rankwise.option_table``) is checked against it by the tests."""
    import functools
    import inspect

    signature = inspect.signature(declared)
    # A keyword compare does not declare is a reading option or an 0.8 flat name of a group.
    known = (set(inspect.signature(load_table).parameters) - {"source"}) | {
        name for name, option in BY_NAME.items() if option.group} | set(RENAMED)

    @functools.wraps(declared)
    def call(data, /, **kwargs):
        bound = signature.bind(data, **kwargs)
        bound.apply_defaults()
        given = dict(bound.arguments)
        data, load_options = given.pop("data"), dict(given.pop("load_options"))
        unknown = sorted(set(load_options) - known)
        if unknown:  # as Python says it, not as a reading option that does not apply
            raise TypeError(f"{declared.__name__}() got an unexpected keyword argument"
                            f" {unknown[0]!r}")
        return _compare(data, load_options, flat_settings(given, load_options))
    return call


@_analysis
def compare(data, *, alpha: float = 0.05, convention: str = "default",
            decimals: int | None = DEFAULT_DECIMALS, tests=None, pair=None, trend=None,
            wilcoxon: WilcoxonOptions | None = None, sign_ties: str = "split",
            alternative: str = "two-sided", friedman_method: str = "auto",
            posthoc: str | PosthocOptions | None = None, verdict_procedure: str = "holm",
            effects: str | bool | None = None,
            confidence: float | None = None, bayesian: str | BayesianOptions | None = None,
            seed: int = DEFAULT_SEED, presentation: Presentation | None = None,
            pool_check: bool = False, mcm: str | bool = False, groups: str | None = None,
            verdict: str = "frequentist", rank_sets: bool | str | RankSetOptions | None = None,
            dataset_check: bool = False, multiverse=None,
            per_dataset: bool | str | PerDatasetOptions | None = None,
            **load_options) -> Comparison:
    """Rank the table and run the omnibus tests (k ≥ 3) or the two-learner tests (k = 2).

    Parameters
    ----------
    data : ScoreTable, path, DataFrame or 2-D array
        Anything :func:`rankwise.load_table` reads; ``load_options`` are passed to it. An
        array's learners are named L1…Lk and its data sets D1…DN (said in the report).
    alpha : float
        Significance level used for the ``reject`` flags and the ANOVA assumption checks.
    convention : {"default", "paper"}
        ``default``: exact formulas (tie corrections, correct aligned-ranks and Quade statistics).
        ``paper``: the formulas behind the published numbers.
    decimals : int or None
        Scores and their differences are rounded to this many places before any comparison.
    tests : sequence of str, optional
        Which tests to run; default: all omnibus tests for k ≥ 3, all two-learner tests for k = 2.
    pair : (str, str), optional
        With k ≥ 3, also run the two-learner tests on these two learners (b is compared with a).
    trend : sequence of str, optional
        With k ≥ 3, also run Page's test (:func:`rankwise.page_trend`) that performance
        increases along these learners, given from the one predicted worst to the one
        predicted best (budgets, versions); it is reported, it does not decide the verdict.
    wilcoxon : WilcoxonOptions, optional
        How the Wilcoxon signed-ranks test (the two-learner test and the pairwise Wilcoxon
        ranking) treats zeros and computes its p-value; its fields:

        zero_method, method : str
            Wilcoxon's zero rule (``demsar``, ``zsplit``, ``pratt``, ``wilcox``) and p-value method
            (``auto``, ``exact``, ``normal``).
        continuity_correction : bool
            Continuity correction of ½ in the Wilcoxon normal approximation (the two-learner test
            and the pairwise Wilcoxon ranking), towards the null on the side tested, as in R and
            scipy. Off by default (R's default is on); it does not touch exact p-values.
    sign_ties : {"split", "drop"}
        Tie rule of the sign test.
    alternative : {"two-sided", "greater", "less"}
        Of the two-learner tests: ``greater`` means "b (the second of ``pair``) is better than
        a", in the table's direction (higher- or lower-is-better); ``less`` the opposite. With a
        named ``control`` it also makes the control family one-sided ("each learner is better
        than the control", or worse); the all-pairs family stays two-sided.
    friedman_method : {"auto", "chi2", "exact", "monte-carlo"}
        p-value of the Friedman and Iman-Davenport tests: ``auto`` (default) takes the
        permutation distribution given each data set's ranks below 20 data sets (exact when the
        programme fits, else 100,000 seeded arrangements) and chi-square / F from 20 on and
        under ``convention="paper"``.
    posthoc : {None, "all", "control", "both"} or PosthocOptions
        The post-hoc family (``"all"``: every pair, ``"control"``: every learner against the
        control, ``"both"``), or a :class:`PosthocOptions` with the family and how it is
        computed (k ≥ 3); its fields:

        family : {None, "all", "control", "both"}
            Post-hoc family: all pairs, against a control, or both (k ≥ 3). Giving ``control``
            alone implies ``"control"``.
        control : str, optional
            Control learner; ``None`` or ``"best"`` picks the best Friedman mean rank.
        procedures : sequence of str, optional
            Adjustment procedures (default: every procedure of the family).
        rankings : sequence of str, optional
            Where the pairwise statistics come from: ``friedman`` (default), ``friedman_aligned``
            (or ``aligned``), ``quade``, ``wilcoxon``, ``sign``, ``anova`` (Tukey and Dunnett).
        force : bool
            Compute post-hoc tests even when the gating omnibus test does not reject (the result is
            marked). By default the papers' gate is followed.
        bh_time_budget : float
            Seconds for the exact Bergmann-Hommel search on matrices that are not Robinson.
        diagram : str
            The all-pairs procedure behind the CD diagram's cliques and the heat map (default
            ``nemenyi``, which also draws the critical difference); ``diagram_procedure=``, its
            name before 0.9, is taken with a FutureWarning until 0.10.
    verdict_procedure : str
        The control procedure by which the verdict compares every learner with the best one
        (default ``holm``). The headline figure (the control diagram) shows these decisions.
    effects : {"auto", "all", "verdict", "none"}, bool or None
        Effect sizes with confidence intervals (Hodges-Lehmann, probability of superiority,
        Cohen's d_z, Cliff's δ). ``"all"`` (or True): the verdict's pairs and every pair of the
        post-hoc family; ``"verdict"``: the verdict's pairs (and ``pair``) only; ``"none"`` (or
        False): none. ``"auto"`` (None, the default): as ``"all"`` while the family has at most
        5,000 pairs (k = 100 for all pairs), else as ``"verdict"``, and none above 10,000 data
        sets; the notes say which pairs have effects.
    confidence : float or None
        Confidence level of the effect-size intervals; default 1 − alpha.
    bayesian : str or BayesianOptions, optional
        A Bayesian analysis: the name of the test or model, or a :class:`BayesianOptions` with
        it and its settings; its fields:

        test : {None, "sign", "signed-rank", "correlated-t", "hierarchical", "plackett-luce", "bradley-terry"}
            Also the Bayesian sign or signed-rank test of the same pairs, with ``rope`` (in the
            criterion's units), ``draws`` posterior draws from ``seed``, and a decision when a
            posterior probability reaches ``threshold``; the correlated t-test per data set or the
            hierarchical test over them, from fold-level results; or a model of the whole table
            (the ``bayes`` extra): Plackett-Luce over the rankings, Wainer's Bradley-Terry over the
            wins (with the paired local ROPE where fold-level results exist). The models' results
            are in ``bayesian_model`` and a report section "Bayesian view of the whole table".
        rope : float
            The region of practical equivalence of the Bayesian tests, in the criterion's units
            (default 0: none); a test that does not read it refuses it.
        draws : int
            Posterior draws of the Bayesian sign and signed-rank tests.
        threshold : float
            The posterior probability at which a Bayesian decision is drawn.
    seed : int
        The seed of every draw: the posteriors, the rank sets, the bootstrap groups.
    presentation : Presentation, optional
        How the reports show the analysis (no number of it depends on these); its fields:

        rank_intervals : bool
            Draw the mean ranks' confidence intervals as bars on the CD diagram (the intervals
            themselves are always in the mean-rank table and the JSON).
        digits : int or None
            Decimals of the table's values in the reports (default: as many as the input has, at
            most 6). Presentation only: the analysis uses ``decimals``.
        figure_title : bool
            Keep a title inside the figures (by default the caption carries it, as papers want).
        top : int or None
            The text, Markdown, LaTeX and HTML reports show the best ``top`` learners by mean rank
            in every ranked table (default 30; 0 or None: all) and say how many were left out; the
            JSON (and ``pairs.csv`` of a report folder) keeps every learner and, up to 1,000
            learners, every pair (above: the pairs of the learners shown, at most 1,000 of them;
            every pair of ``posthoc="all"`` goes to :meth:`Comparison.write_pairs`).
    pool_check : bool
        Does the pool matter? Recompute every pair decision of the all-pairs family (the
        diagram's procedure on the first of ``rankings``, default Friedman mean ranks) and the
        verdict's top group with each learner left out in turn and with a dominated copy of
        each learner added (:mod:`rankwise.analysis.pool`); the verdict gets one sentence, the
        reports a section "Does the pool matter?", the JSON ``pool_check``. Needs k ≥ 4 and a
        complete table.
    mcm : {False, "plain", "holm"} or bool
        The multi-comparison matrix (Ismail-Fawaz et al. 2023; :mod:`rankwise.analysis.mcm`):
        every pair's mean difference, wins/ties/losses and Wilcoxon p-value (Pratt's zeros),
        learners by mean score (``"plain"``, or True, as ``--mcm plain``); ``"holm"`` also
        Holm-adjusts the p-values. With
        ``convention="paper"`` its numbers are those of the ``multi-comp-matrix`` package.
        A report section, a figure (``mcm``) and the JSON ``mcm``. Needs a complete table.
    groups : {None, "scott-knott-esd", "scott-knott-esd-np", "scott-knott-bootstrap"}
        Scott-Knott rank groups (:mod:`rankwise.analysis.scott_knott`): ESD on the scores or
        (``-np``) on each data set's ranks, or the bootstrap/A12 variant on the per-fold
        results (a long table with repeats and folds, or a results database; its draws come
        from ``seed``): listed in the verdict, a row of the rank table, the quartile charts, a
        report section, a figure of box plots by group (``groups``) and the JSON ``groups``.
    verdict : {"frequentist", "bayesian"}
        What the verdict speaks in. ``"bayesian"`` (needs ``bayesian=``) leads it with the
        posterior (:mod:`rankwise.analysis.bayes_verdict`): with a model of the whole table, each
        learner's probability of being the best, and every learner against the model's best;
        with a pairwise test, every learner against the best-ranked one; each "practically
        worse", "practically equivalent", "practically better" or "undecided" at ``threshold``.
        The frequentist verdict (the figures' and tables' decisions) follows it, named as such.
    rank_sets : {None, True, "ranks", "scores"} or RankSetOptions
        Confidence sets for the learners' ranks: the basis, or a :class:`RankSetOptions`
        with it; its fields:

        basis : {None, True, "ranks", "scores"}
            Confidence sets for the learners' ranks (:func:`rankwise.rank_confidence_sets`,
            Mogstad et al. 2023) at 1 − ``alpha``, jointly for every learner: by mean rank
            (``True`` or ``"ranks"``: the N × k ranks give the covariance) or by mean score
            (``"scores"``, when the scores of different data sets are on one scale); 1,000 draws
            from ``seed``. A column of the mean-rank table, a sentence of the verdict (the learners
            that could be the best) and the JSON ``rank_sets``. Needs a complete table.
        marginal : bool
            Each learner's own (marginal) set instead of sets that hold jointly.
    dataset_check : bool
        Which data sets carry the claims (:mod:`rankwise.analysis.dataset_check`): for the
        best-ranked learner, the gate, each learner's decision in the verdict and (with the
        all-pairs family) each pair's decision in the CD diagram, the fewest data sets whose
        removal changes it (every subset of up to three, then a greedy upper bound), and
        leave-one-data-set-out. Claims that one or two data sets carry are named in the verdict;
        the JSON ``dataset_check``. Needs k ≥ 3 and a complete table.
    multiverse : None, True, "default", dict or path
        Another reasonable analysis (:mod:`rankwise.analysis.multiverse`): the verdict rerun
        over a grid of defensible choices (every criterion of the input, the fold aggregation,
        the rounding, the missing-value rule, the basis of the verdict), each a ``compare`` of
        its own; for each claim of this verdict, the share of analyses that agree and the
        choices that flip it. True or ``"default"`` (as ``--multiverse default``): the
        default grid; a dict or a TOML file (``[grid]``): your own. A sentence of the verdict,
        a report section, a figure (``multiverse``) and the JSON ``multiverse``.
    per_dataset : {None, True, "corrected", "5x2cv"} or PerDatasetOptions
        Data set by data set: the tests, or a :class:`PerDatasetOptions` with them; its
        fields:

        tests : {None, True, "corrected", "5x2cv"}
            Data set by data set (:mod:`rankwise.analysis.per_dataset`), from the results of every
            fold: each learner against the base (``control``, else the best mean rank) on each
            data set by the corrected resampled t-test (True or ``"corrected"``), with the 5×2cv t
            and F tests (``"5x2cv"``, on 5 repetitions of 2-fold cross-validation only), and the
            Bayesian correlated t-test with ``rope``; WEKA's table of mean (sd) with ``v``/``*``
            marks and the ``(v/ /*)`` counts in every report, the JSON ``per_dataset``. Needs
            fold-level results.
        adjust : {"none", "holm"}
            Adjust each learner's p-values over the data sets (default none, as WEKA).
        marks : {"better", "weka"}
            What ``v`` and ``*`` mark: significantly better and worse in the criterion's
            direction (default), or, as WEKA's Experimenter, a significantly higher and lower
            value whatever the measure (they differ for lower-is-better measures); the
            table's legend says which.
        test_fraction : float, optional
            The share of instances tested on, for n₂/n₁ when the results do not say it (default:
            WEKA's instance counts, a results database's k folds, or 1/(k − 1) assumed).

    Examples
    --------
    >>> import rankwise
    >>> cmp = rankwise.compare(rankwise.load_example("garcia2010"), posthoc="control")
    >>> cmp.verdict.best, cmp.verdict.losers, cmp.verdict.procedure
    ('PDFC', ('FH-GBML',), 'holm')
    >>> round(cmp.critical_difference.nemenyi, 4)
    0.9534
    >>> print(cmp.to_text().splitlines()[0])
    rankwise report: example:garcia2010
    """


def _compare(data, load_options: dict, given: dict) -> Comparison:
    """:func:`compare` with its options bound (``given``, by name): the table read, the options
    checked, the steps folded (:data:`.steps.STEPS`) and their results kept."""
    if load_options and isinstance(data, ScoreTable):
        raise RankwiseError("options for reading a table cannot be applied to a ScoreTable")
    table = data if isinstance(data, ScoreTable) else load_table(data, **load_options)
    opts = validate(table, given)
    ctx = steps.fold(table, opts, rerun=_rerun)
    kept = {name: value for name, value in ctx.results.items() if name in _RESULT_FIELDS}
    return Comparison(**{**kept, "verdict": steps.written_verdict(ctx)}, table=table,
                      alpha=opts.alpha, convention=opts.convention, decimals=opts.decimals,
                      pair=opts.used_pair, settings=ctx.settings, figures=ctx.figures,
                      notes=tuple(dict.fromkeys(ctx.notes)), options=opts.as_dict())


#: The results of the steps that a Comparison keeps (the others, such as the post-hoc engine,
#: are the steps' own).
_RESULT_FIELDS = frozenset(f.name for f in fields(Comparison)) - {
    "table", "alpha", "convention", "decimals", "pair", "settings", "figures", "notes",
    "options"}


def _rerun(table, **flat) -> Comparison:
    """:func:`compare` of ``table`` with flat settings (a multiverse entry's ``options``)."""
    return _compare(table, {}, flat)
