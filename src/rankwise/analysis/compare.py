"""One call that analyses a table: every test, gate, post-hoc family, figure decision and the
verdict, computed once and kept, with the settings that produced them, on a :class:`Comparison`.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cached_property, partial

import numpy as np

from .. import _validate as check
from ..errors import RankwiseError
from ..names import (ALL_PAIRS_PROCEDURES, OMNIBUS_TESTS, OPTIONAL_PROCEDURES,
                     TWO_LEARNER_TESTS, label, ranking_title)
from ..stats.anova import rm_anova
from ..stats.exact import PERMUTATION_BELOW_N, skillings_mack
from ..stats.omnibus import (FRIEDMAN_METHODS, _aligned_from_ranks, _friedman_from_ranks,
                             _iman_davenport_from_friedman, _quade_from_ranks)
from ..stats.ranking import (DEFAULT_DECIMALS, RANK_BOOTSTRAP_REPLICATES, RANK_BOOTSTRAP_SEED,
                             aligned_ranks, mean_rank_intervals, midranks, quade_weights,
                             round_scores)
from ..stats.results import TestResult
from ..stats.summary import best_in_row, quartile_charts, win_tie_loss_matrix
from ..stats.two_learners import SIGN_TIES, ZERO_METHODS, paired_ttest, sign_test, wilcoxon
from ..tables import ScoreTable, load_table
from ..names import BAYESIAN_MODELS, VERDICT_BASES
from ..stats.bayesian import BAYESIAN_TESTS, DEFAULT_SAMPLES, DEFAULT_SEED, DEFAULT_THRESHOLD
from . import effects as family
from .effects import (compute_bayesian, compute_effects, effect_pairs, effects_mode,
                      magnitude_sentence)
from .figures import (every_learner_figure, plan_figures, plan_groups, plan_mcm, plan_p_best,
                      simplex_figures,
                      with_rank_intervals)
from .pool import POOL_MAX_LEARNERS
from .posthoc import Pairwise, build_posthoc, resolve_rankings
from .results import CriticalDifference, PosthocResult, Verdict
from .verdict import check_procedure, decide, with_sentence

PARALLEL_MIN_CELLS = 1_000_000


@dataclass(frozen=True)
class Summary:
    """Descriptive summaries of the table (no tests): the best cell of each data set, the
    win/tie/loss matrix and the quartile charts."""

    best: np.ndarray            # n × k booleans
    win_tie_loss: np.ndarray    # k × k × (wins, ties, losses), row against column
    quartiles: dict


@dataclass(frozen=True, repr=False)
class Comparison:
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
    """

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

    def __repr__(self) -> str:
        t = self.table
        v = self.verdict
        head = (f"<Comparison: k = {t.n_learners} learners x N = {t.n_datasets} data sets"
                f" ({t.source}); alpha = {self.alpha}; convention = {self.convention}>")
        if v is None:
            return head
        if v.detected:
            line = (f"verdict: difference detected; best {v.best}; losers:"
                    f" {', '.join(v.losers) or 'none'}")
        else:
            line = "verdict: no significant difference detected"
        return "\n".join([head, "  " + line, "  (print(cmp.to_text()) for the full report)"])

    def to_dict(self, include_table: bool | None = None) -> dict:
        """The analysis as plain JSON data (the contract without the ``report`` section).
        ``include_table``: the per-cell matrices (default: only for tables up to 10,000 cells)."""
        from .schema import comparison_dict

        return comparison_dict(self, include_table)

    def with_options(self, **changes) -> "Comparison":
        """The same analysis of the same table with some settings of :func:`compare` changed."""
        return compare(self.table, **{**self.options, **changes})

    @cached_property
    def summary(self) -> Summary:
        """Best cells, win/tie/loss and quartile charts (computed once, on first use)."""
        t = self.table
        return Summary(best=best_in_row(t.values, t.higher_is_better, self.decimals),
                       win_tie_loss=win_tie_loss_matrix(t.values, t.higher_is_better,
                                                        self.decimals, ranks=self.ranks),
                       quartiles=quartile_charts(t))

    # The convenience methods below hand the comparison to the report wing, which only reads it.
    # This is the one place where the analysis reaches up to the reports, and only when called.

    @staticmethod
    def _report():
        from .. import report

        return report

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

    def to_text(self) -> str:
        return self._report().render(self, "text")

    def to_markdown(self) -> str:
        return self._report().render(self, "markdown")

    def to_latex(self) -> str:
        return self._report().render(self, "latex")

    def to_html(self) -> str:
        """A whole, self-contained HTML page."""
        return self._report().render(self, "html")

    def _repr_html_(self) -> str:
        """Jupyter: an HTML fragment with scoped styles; its figures are rendered once."""
        return self._report().notebook_fragment(self)

    def write_report(self, folder, procedure: str | None = None):
        """Every format and figure into ``folder`` (see :func:`rankwise.report.write_report`)."""
        return self._report().write_report(self, folder, procedure)


def compare(data, *, alpha: float = 0.05, convention: str = "default",
            decimals: int | None = DEFAULT_DECIMALS, tests=None, pair=None,
            zero_method: str = "demsar", wilcoxon_method: str = "auto", sign_ties: str = "split",
            alternative: str = "two-sided", continuity_correction: bool = False,
            friedman_method: str = "auto",
            posthoc: str | None = None, control: str | None = None, procedures=None,
            rankings=None, force_posthoc: bool = False, bh_time_budget: float = 10.0,
            verdict_procedure: str = "holm", diagram_procedure: str = "nemenyi",
            effects: str | bool | None = None, confidence: float | None = None,
            bayesian: str | None = None, rope: float = 0.0, samples: int = DEFAULT_SAMPLES,
            seed: int = DEFAULT_SEED, threshold: float = DEFAULT_THRESHOLD,
            rank_intervals: bool = False, digits: int | None = None,
            figure_title: bool = False, top: int | None = 30, pool_check: bool = False,
            mcm: bool | str = False, groups: str | None = None,
            verdict: str = "frequentist", **load_options) -> Comparison:
    """Rank the table and run the omnibus tests (k ≥ 3) or the two-learner tests (k = 2).

    Parameters
    ----------
    data : ScoreTable, path or DataFrame
        Anything :func:`rankwise.load_table` reads; ``load_options`` are passed to it.
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
    zero_method, wilcoxon_method : str
        Wilcoxon's zero rule (``demsar``, ``zsplit``, ``pratt``, ``wilcox``) and p-value method
        (``auto``, ``exact``, ``normal``).
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
    continuity_correction : bool
        Continuity correction of ½ in the Wilcoxon normal approximation (the two-learner test
        and the pairwise Wilcoxon ranking), towards the null on the side tested, as in R and
        scipy. Off by default (R's default is on); it does not touch exact p-values.
    posthoc : {None, "all", "control", "both"}
        Post-hoc family: all pairs, against a control, or both (k ≥ 3). Giving ``control``
        alone implies ``"control"``.
    control : str, optional
        Control learner; ``None`` or ``"best"`` picks the best Friedman mean rank.
    procedures : sequence of str, optional
        Adjustment procedures (default: every procedure of the family).
    rankings : sequence of str, optional
        Where the pairwise statistics come from: ``friedman`` (default), ``friedman_aligned``
        (or ``aligned``), ``quade``, ``wilcoxon``, ``sign``, ``anova`` (Tukey and Dunnett).
    force_posthoc : bool
        Compute post-hoc tests even when the gating omnibus test does not reject (the result is
        marked). By default the papers' gate is followed.
    bh_time_budget : float
        Seconds for the exact Bergmann-Hommel search on matrices that are not Robinson.
    verdict_procedure : str
        The control procedure by which the verdict compares every learner with the best one
        (default ``holm``). The headline figure (the control diagram) shows these decisions.
    diagram_procedure : str
        The all-pairs procedure behind the CD diagram's cliques and the heat map (default
        ``nemenyi``, which also draws the critical difference).
    effects : {"auto", "all", "verdict", "none"}, bool or None
        Effect sizes with confidence intervals (Hodges-Lehmann, probability of superiority,
        Cohen's d_z, Cliff's δ). ``"all"`` (or True): the verdict's pairs and every pair of the
        post-hoc family; ``"verdict"``: the verdict's pairs (and ``pair``) only; ``"none"`` (or
        False): none. ``"auto"`` (None, the default): as ``"all"`` while the family has at most
        5,000 pairs (k = 100 for all pairs), else as ``"verdict"``, and none above 10,000 data
        sets; the notes say which pairs have effects.
    confidence : float or None
        Confidence level of the effect-size intervals; default 1 − alpha.
    bayesian : {None, "sign", "signed-rank", "correlated-t", "hierarchical", "plackett-luce", "bradley-terry"}
        Also the Bayesian sign or signed-rank test of the same pairs, with ``rope`` (in the
        criterion's units), ``samples`` posterior draws from ``seed``, and a decision when a
        posterior probability reaches ``threshold``; the correlated t-test per data set or the
        hierarchical test over them, from fold-level results; or a model of the whole table
        (the ``bayes`` extra): Plackett-Luce over the rankings, Wainer's Bradley-Terry over the
        wins (with the paired local ROPE where fold-level results exist). The models' results
        are in ``bayesian_model`` and a report section "Bayesian view of the whole table".
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
        JSON (and ``pairs.csv`` of a report folder) keeps every learner and pair.
    pool_check : bool
        Does the pool matter? Recompute every pair decision of the all-pairs family (the
        diagram's procedure on the first of ``rankings``, default Friedman mean ranks) and the
        verdict's top group with each learner left out in turn and with a dominated copy of
        each learner added (:mod:`rankwise.analysis.pool`); the verdict gets one sentence, the
        reports a section "Does the pool matter?", the JSON ``pool_check``. Needs k ≥ 4 and a
        complete table.
    mcm : bool or {"holm"}
        The multi-comparison matrix (Ismail-Fawaz et al. 2023; :mod:`rankwise.analysis.mcm`):
        every pair's mean difference, wins/ties/losses and Wilcoxon p-value (Pratt's zeros),
        learners by mean score; ``"holm"`` also Holm-adjusts the p-values. With
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
    """
    options = dict(alpha=alpha, convention=convention, decimals=decimals, tests=tests, pair=pair,
                   zero_method=zero_method, wilcoxon_method=wilcoxon_method,
                   sign_ties=sign_ties, alternative=alternative,
                   continuity_correction=continuity_correction,
                   friedman_method=friedman_method, posthoc=posthoc, control=control,
                   procedures=procedures, rankings=rankings, force_posthoc=force_posthoc,
                   bh_time_budget=bh_time_budget, verdict_procedure=verdict_procedure,
                   diagram_procedure=diagram_procedure, effects=effects, confidence=confidence,
                   bayesian=bayesian, rope=rope, samples=samples, seed=seed, threshold=threshold,
                   rank_intervals=bool(rank_intervals), digits=digits, top=top,
                   figure_title=bool(figure_title), pool_check=bool(pool_check),
                   mcm=mcm, groups=groups, verdict=verdict)
    table = data if isinstance(data, ScoreTable) else load_table(data, **load_options)
    if load_options and isinstance(data, ScoreTable):
        raise RankwiseError("options for reading a table cannot be applied to a ScoreTable")
    alpha = check.alpha(alpha)
    convention = check.convention(convention)
    decimals = check.decimals(decimals)
    check.choice("zero_method", zero_method, ZERO_METHODS)
    check.choice("wilcoxon_method", wilcoxon_method, ("auto", "exact", "normal"))
    check.choice("sign_ties", sign_ties, SIGN_TIES)
    alternative = check.alternative(alternative)
    continuity_correction = bool(continuity_correction)
    check.choice("friedman_method", friedman_method, FRIEDMAN_METHODS)
    confidence = 1.0 - alpha if confidence is None else check.confidence(confidence)
    if digits is not None and (isinstance(digits, bool) or not isinstance(digits, int)
                               or not 0 <= digits <= 12):
        raise RankwiseError(f"digits must be a whole number from 0 to 12; got {digits!r}")
    if bayesian is not None:
        check.choice("bayesian", bayesian, BAYESIAN_TESTS + BAYESIAN_MODELS)
    check.choice("verdict", verdict, VERDICT_BASES)
    if verdict == "bayesian" and bayesian is None:
        raise RankwiseError("the Bayesian verdict speaks in the terms of a Bayesian analysis;"
                            " choose one with --bayesian (bayesian=): plackett-luce,"
                            " bradley-terry, hierarchical, signed-rank, sign or correlated-t")
    if bayesian in BAYESIAN_MODELS:  # the tests check it themselves; the models do not
        check.threshold(threshold)
    options["effects"] = effects_mode(effects)
    if top is not None and (isinstance(top, bool) or not isinstance(top, int) or top < 0):
        raise RankwiseError(f"top must be a whole number (0 or None: every learner); got {top!r}")
    options["top"] = top or None
    options.update(alpha=alpha, convention=convention, decimals=decimals, alternative=alternative,
                   continuity_correction=continuity_correction,
                   confidence=confidence)  # as validated
    check_procedure(verdict_procedure)
    if diagram_procedure not in ALL_PAIRS_PROCEDURES + OPTIONAL_PROCEDURES:
        raise RankwiseError(f"the diagram procedure must be one of"
                            f" {', '.join(ALL_PAIRS_PROCEDURES)}; got {diagram_procedure!r}")
    k = table.n_learners
    if pair is not None:
        pair = tuple(pair)
        if len(pair) != 2 or pair[0] == pair[1]:
            raise RankwiseError("pair must name two different learners")
        for name in pair:
            table.column(name)
    elif k == 2:
        pair = tuple(table.learners)
    if control is not None and posthoc is None:
        posthoc = "control"
    if rankings is not None:
        resolve_rankings(rankings)  # an empty or unknown ranking is an error, not ignored
    for given, flag in ((rankings, "--ranking (rankings=)"), (procedures, "--procedures")):
        if given is not None and posthoc is None:
            raise RankwiseError(f"{flag} chooses what the post-hoc comparisons use; add --posthoc"
                                " all, control or both (posthoc= in Python)")
    if groups is not None and groups not in GROUP_METHODS:
        raise RankwiseError(f"groups must be one of {', '.join(GROUP_METHODS)}; got {groups!r}")
    if mcm not in (False, True, "holm", None):
        raise RankwiseError(f"mcm must be True, False or 'holm'; got {mcm!r}")
    if pool_check and k > POOL_MAX_LEARNERS:
        raise RankwiseError(
            f"the pool check reanalyses the table {2 * k:,} times (each learner left out and"
            f" cloned), which takes minutes above {POOL_MAX_LEARNERS} learners; the"
            " multi-comparison matrix (--mcm) gives pair results that do not depend on the pool")
    if pool_check and k < 4:
        raise RankwiseError("the pool check needs at least 4 learners: leaving one out must leave"
                            " 3 for a post-hoc comparison")
    if np.isnan(table.values).any():
        if pool_check or mcm or groups:
            what = ("the pool check" if pool_check else "the multi-comparison matrix" if mcm
                    else "Scott-Knott groups")
            raise RankwiseError(f"{what} needs a complete table; drop the missing cells first"
                                " (--missing drop-datasets)")
        return _compare_incomplete(table, options, pair, posthoc)
    if tests is None:
        tests = OMNIBUS_TESTS if k >= 3 else ()
        tests = tests + (TWO_LEARNER_TESTS if pair else ())
    tests = tuple(tests)
    for name in tests:
        check.choice("test", name, OMNIBUS_TESTS + TWO_LEARNER_TESTS)
        if name in TWO_LEARNER_TESTS and not pair:
            raise RankwiseError(f"the {name} test compares two learners; name them with pair=")
    x = round_scores(table.values, decimals)
    hib = table.higher_is_better
    aligned_job = None
    if "friedman_aligned" in tests:
        # The global sort of n·k aligned values dominates on large tables; numpy releases the
        # GIL while sorting, so it runs beside the rest. The result does not depend on timing.
        pool = ThreadPoolExecutor(max_workers=1) if x.size >= PARALLEL_MIN_CELLS else None
        job = partial(aligned_ranks, x, hib, decimals)
        aligned_job = pool.submit(job) if pool else job
        if pool:
            pool.shutdown(wait=False)
    ranks = midranks(x, descending=hib)
    results: dict[str, TestResult] = {}
    if "friedman" in tests or "iman_davenport" in tests:
        fried = _friedman_from_ranks(ranks, convention, friedman_method)
        if "friedman" in tests:
            results["friedman"] = fried
        if "iman_davenport" in tests:
            results["iman_davenport"] = _iman_davenport_from_friedman(fried)
    if aligned_job is not None:
        r_al = aligned_job() if callable(aligned_job) else aligned_job.result()
        results["friedman_aligned"] = _aligned_from_ranks(r_al, convention)
    if "quade" in tests:
        results["quade"] = _quade_from_ranks(ranks, quade_weights(x, decimals), convention)
    if "anova" in tests:
        results["anova"] = rm_anova(x, convention=convention, alpha=alpha, decimals=None)
    if pair:
        a, b = (x[:, table.learners.index(name)] for name in pair)
        results.update(_two_learner_tests(
            a, b, [name for name in TWO_LEARNER_TESTS if name in tests], options, hib))
    settings = _settings(options,
                         friedman="tie-corrected" if convention == "default" else "uncorrected",
                         ranks="mid-ranks, 1 = best")
    mean_r = ranks.mean(axis=0)
    engine = report = figures = cd = None
    if k >= 3:
        engine = Pairwise(x, table.learners, higher_is_better=hib, alpha=alpha,
                          convention=convention, tests=results, zero_method=zero_method,
                          wilcoxon_method=wilcoxon_method, sign_ties=sign_ties,
                          time_budget=bh_time_budget, ranks=ranks,
                          correction=continuity_correction, friedman_method=friedman_method,
                          decimals=decimals)
        cd = engine.critical_difference()
        if posthoc is not None:
            report = build_posthoc(engine, mean_r, family=posthoc, control=control,
                                   procedures=procedures, rankings=rankings, force=force_posthoc,
                                   alternative=alternative)
        verdict = decide(table, mean_r, results, pair, engine, alpha=alpha,
                         procedure=verdict_procedure)
        figures = plan_figures(engine, table.learners, mean_r, verdict, alpha=alpha,
                               diagram_procedure=diagram_procedure, force=force_posthoc)
    else:
        if posthoc is not None:
            raise RankwiseError("post-hoc comparisons need at least 3 learners; with 2, the"
                                " two-learner tests already answer the question")
        verdict_tests = results
        if "wilcoxon" not in results:
            a, b = (x[:, table.learners.index(name)] for name in pair)
            verdict_tests = {**results, "wilcoxon": wilcoxon(
                a, b, zero_method=zero_method, method=wilcoxon_method, higher_is_better=hib,
                convention=convention, decimals=decimals, alternative=alternative,
                correction=continuity_correction)}
        verdict = decide(table, mean_r, verdict_tests, pair, None, alpha=alpha)
    sizes, bayes, verdict, extra = _effects_and_bayesian(table, x, mean_r, pair, posthoc,
                                                          verdict, options, settings)
    model = None
    if bayesian in BAYESIAN_MODELS:
        from .effects import bayesian_model

        model = bayesian_model(table, bayesian, seed=seed)
        settings.update(bayesian=bayesian, bayesian_seed=seed)
    verdict = _bayesian_verdict(verdict, table, mean_r, bayes, model, options, settings)
    pool = None
    if pool_check:
        from .pool import pool_check as check_pool

        chosen = resolve_rankings(rankings)[0] if rankings is not None else "friedman"
        pool = check_pool(x, ranks, table.learners, hib, options, ranking=chosen,
                          procedure=diagram_procedure, verdict_procedure=verdict_procedure)
        verdict = with_sentence(verdict, pool.sentence())
    matrix = None
    if mcm:
        from .mcm import multi_comparison_matrix

        matrix = multi_comparison_matrix(table.values, table.learners, higher_is_better=hib,
                                         decimals=decimals, convention=convention,
                                         holm=mcm == "holm", alpha=alpha)
    rank_groups = group_samples = None
    if groups is not None:
        from .scott_knott import fold_samples, scott_knott_bootstrap, scott_knott_esd

        if groups == "scott-knott-bootstrap":
            group_samples = fold_samples(table)  # what the groups are cut from, and drawn
            rank_groups = scott_knott_bootstrap(group_samples, higher_is_better=hib,
                                                alpha=alpha, seed=seed)
        else:
            group_samples = {name: x[:, j] for j, name in enumerate(table.learners)}
            rank_groups = scott_knott_esd(table.values, table.learners, higher_is_better=hib,
                                          alpha=alpha, decimals=decimals,
                                          version="np" if groups.endswith("-np") else "p")
        verdict = with_sentence(verdict, rank_groups.sentence())
    if table.filled_cells:  # an assumption the decisions rest on: said in the verdict
        how = ("the worst score on its data set" if table.missing_policy == "worst" else
               f"{table.missing_policy[len('impute:'):]}'s score on its data set")
        verdict = with_sentence(verdict, f"{len(table.filled_cells)} missing result(s) were"
                                         f" filled with {how} (--missing"
                                         f" {table.missing_policy}).")
    intervals = _rank_intervals(ranks, options, settings)
    figures = {**(figures or {}), **simplex_figures(bayes, alpha)}
    if rank_groups is not None:
        figures["groups"] = plan_groups(rank_groups, group_samples)
    if matrix is not None:
        figures["mcm"] = plan_mcm(matrix)
    if model is not None:
        figures["p_best"] = plan_p_best(model, alpha)
    if figures and options["rank_intervals"]:
        figures = with_rank_intervals(figures, table.learners, intervals,
                                      settings["mean_rank_intervals"])
    if figures and options["top"] is not None and table.n_learners > options["top"]:
        figures = {**figures, **every_learner_figure(table.learners, intervals, verdict,
                                                     settings["mean_rank_intervals"], alpha,
                                                     options["top"])}
    notes = collect_notes(table, results, report, figures,
                          small_sample_guidance(table, results, cd, alpha) + extra)
    return Comparison(table=table, alpha=alpha, convention=convention, decimals=decimals,
                      ranks=ranks, mean_ranks=mean_r, tests=results, pair=pair,
                      settings=settings, posthoc=report, verdict=verdict,
                      figures=figures, critical_difference=cd, notes=notes,
                      options=options, effects=sizes, bayesian=bayes,
                      mean_rank_intervals=intervals, pool_check=pool, mcm=matrix,
                      groups=rank_groups, bayesian_model=model)


#: The rank-group methods of ``groups=`` (``--groups``).
GROUP_METHODS = ("scott-knott-esd", "scott-knott-esd-np", "scott-knott-bootstrap")


def _rank_intervals(ranks, options, settings):
    """The mean ranks' intervals and, in ``settings``, how they were obtained."""
    intervals, how = mean_rank_intervals(ranks, confidence=options["confidence"])
    settings["mean_rank_intervals"] = {
        "method": how, "confidence": options["confidence"],
        "replicates": RANK_BOOTSTRAP_REPLICATES if how == "bootstrap" else None,
        "seed": RANK_BOOTSTRAP_SEED if how == "bootstrap" else None}
    return intervals


def _bayesian_verdict(verdict, table, mean_r, bayes, model, options, settings):
    """With ``verdict="bayesian"``: the verdict led by the posterior's statement
    (:mod:`.bayes_verdict`); otherwise the verdict as it is."""
    settings["verdict"] = options["verdict"]
    if options["verdict"] != "bayesian":
        return verdict
    from .bayes_verdict import from_model, from_pairs, speak_bayesian

    threshold = float(options["threshold"])
    if model is not None:
        return speak_bayesian(verdict, from_model(model, threshold))
    order = [table.learners[j] for j in np.argsort(mean_r, kind="stable")]
    return speak_bayesian(verdict, from_pairs(bayes, order[0], order[1:], threshold))


def _effects_and_bayesian(table, x, mean_r, pair, posthoc, verdict, options, settings):
    """Effect sizes and the Bayesian test of the family (see :mod:`.effects`), the verdict with
    the size of its differences, and the note when effects were left out."""
    mode = options["effects"]
    extra = ()
    if mode == "auto" and table.n_datasets > family.EFFECTS_AUTO_MAX_N:
        mode = "none"
        extra = (f"Effect sizes are not computed by default above"
                 f" {family.EFFECTS_AUTO_MAX_N:,} data sets; --effects all (effects='all')"
                 " computes them.",)
    pairs = effect_pairs(table.learners, mean_r, pair, posthoc, options["control"], verdict)
    chosen = pairs
    if mode in ("auto", "verdict"):
        spoken = effect_pairs(table.learners, mean_r, pair, None, options["control"], verdict)
        if mode == "verdict" or len(pairs) > family.EFFECTS_AUTO_MAX_PAIRS:
            chosen = spoken
            if len(spoken) < len(pairs):
                why = ("--effects verdict" if mode == "verdict" else
                       f"the family has more than {family.EFFECTS_AUTO_MAX_PAIRS:,} pairs")
                extra += (f"Effect sizes are computed for the {len(spoken):,} pairs the verdict"
                          f" speaks of, not for all {len(pairs):,} pairs of the post-hoc family"
                          f" ({why}); --effects all computes every pair.",)
    sizes = bayes = ()
    wanted = mode != "none"
    settings["effects"] = bool(wanted)
    if wanted:
        settings["effects_pairs"] = ("all" if len(chosen) == len(pairs) else "verdict")
        sizes = compute_effects(table, x, chosen, confidence=options["confidence"],
                                decimals=options["decimals"])
        settings["effects_confidence"] = options["confidence"]
        sentence = magnitude_sentence(sizes, verdict, options["confidence"])
        if sentence:
            verdict = with_sentence(verdict, sentence)
    if options["bayesian"] is not None and options["bayesian"] not in BAYESIAN_MODELS:
        bayes = compute_bayesian(table, x, pairs, test=options["bayesian"], rope=options["rope"],
                                 samples=options["samples"], seed=options["seed"],
                                 threshold=options["threshold"], decimals=options["decimals"])
        sampled = options["bayesian"] != "correlated-t"
        if not bayes:
            raise RankwiseError(f"the {options['bayesian']} test found no data set on which a"
                                " pair has two or more matching fold results")
        drawn = (bayes[0].samples if options["bayesian"] == "hierarchical"
                 else options["samples"])
        settings.update(bayesian=options["bayesian"], rope=float(options["rope"]),
                        bayesian_samples=drawn if sampled else None,
                        bayesian_seed=options["seed"] if sampled else None,
                        bayesian_threshold=options["threshold"])
    return sizes, bayes, verdict, extra


def _two_learner_tests(a, b, names, options: dict, higher_is_better: bool) -> dict:
    """The named two-learner tests of b against a, with the settings of :func:`compare`."""
    common = dict(higher_is_better=higher_is_better, convention=options["convention"],
                  decimals=options["decimals"], alternative=options["alternative"])
    runners = {
        "wilcoxon": lambda: wilcoxon(a, b, zero_method=options["zero_method"],
                                     method=options["wilcoxon_method"],
                                     correction=options["continuity_correction"], **common),
        "sign": lambda: sign_test(a, b, ties=options["sign_ties"], **common),
        "ttest": lambda: paired_ttest(a, b, **common),
        "ttest_relative": lambda: paired_ttest(a, b, relative=True, **common),
    }
    return {name: runners[name]() for name in names}


INCOMPLETE_RANKINGS = ("wilcoxon", "sign")


def _settings(options: dict, **described) -> dict:
    """The settings every report states (``described``: what the analysis made of the table)."""
    return {"wilcoxon_zero_method": options["zero_method"],
            "wilcoxon_method": options["wilcoxon_method"], "sign_ties": options["sign_ties"],
            "alternative": options["alternative"],
            "continuity_correction": options["continuity_correction"],
            "friedman_method": options["friedman_method"], **described,
            "verdict_procedure": options["verdict_procedure"],
            "diagram_procedure": options["diagram_procedure"]}


def _compare_incomplete(table, options: dict, pair, posthoc) -> Comparison:
    """A table with missing cells (``--missing skillings-mack``): the Skillings-Mack test as
    the omnibus test and gate; two-learner and pairwise tests on the data sets each pair
    shares; the verdict by the verdict procedure on the pairwise Wilcoxon tests against the
    learner with the best mean rank (over the data sets where it has a value). ``options``:
    the validated settings of :func:`compare`."""
    k = table.n_learners
    tests, alpha = options["tests"], options["alpha"]
    if tests is not None:
        complete_only = [name for name in tests if name in OMNIBUS_TESTS]
        if complete_only:
            raise RankwiseError(f"the {complete_only[0]} test needs a complete table; with missing"
                                " cells the omnibus test is skillings_mack")
    x = round_scores(table.values, options["decimals"])
    hib = table.higher_is_better
    present = ~np.isnan(x)
    ranks = midranks(np.where(present, x, np.inf if not hib else -np.inf), descending=hib)
    ranks[~present] = np.nan
    mean_r = np.nanmean(ranks, axis=0)
    results: dict[str, TestResult] = {}
    if k >= 3 and (tests is None or "skillings_mack" in tests):
        results["skillings_mack"] = skillings_mack(x, higher_is_better=hib)
    wanted = tuple(t for t in (tests if tests is not None else TWO_LEARNER_TESTS)
                   if t in TWO_LEARNER_TESTS) if pair else ()
    shared = None
    if pair:
        ia, ib = (table.learners.index(name) for name in pair)
        rows = present[:, ia] & present[:, ib]
        shared = int(rows.sum())
        if shared < 2:
            raise RankwiseError(f"{pair[0]} and {pair[1]} share {shared} data set(s) with values;"
                                " the two-learner tests need at least two")
        results.update(_two_learner_tests(x[rows, ia], x[rows, ib], wanted or ("wilcoxon",),
                                          options, hib))
    settings = _settings(options, friedman="not computed (missing cells)",
                         ranks="mid-ranks among each data set's values, 1 = best",
                         missing_policy="skillings-mack")
    report, extra = None, []
    if k >= 3:
        chosen = resolve_rankings(options["rankings"]) if options["rankings"] else ["wilcoxon"]
        bad = [r for r in chosen if r not in INCOMPLETE_RANKINGS]
        if bad and posthoc is not None:
            raise RankwiseError(f"the {bad[0]} ranking needs a complete table; with missing cells"
                                f" use {' or '.join(INCOMPLETE_RANKINGS)}")
        engine = Pairwise(x, table.learners, higher_is_better=hib, alpha=alpha,
                          convention=options["convention"], tests=results,
                          zero_method=options["zero_method"],
                          wilcoxon_method=options["wilcoxon_method"],
                          sign_ties=options["sign_ties"], time_budget=options["bh_time_budget"],
                          ranks=ranks, correction=options["continuity_correction"],
                          gate_test="skillings_mack", decimals=options["decimals"])
        if posthoc is not None:
            report = build_posthoc(engine, mean_r, family=posthoc, control=options["control"],
                                   procedures=options["procedures"], rankings=chosen,
                                   force=options["force_posthoc"],
                                   alternative=options["alternative"])
        verdict = decide(table, mean_r, results, None, engine, alpha=alpha,
                         procedure=options["verdict_procedure"], ranking="wilcoxon")
        extra.append(f"The table has {len(table.missing_cells)} missing cell(s), all other cells"
                     " kept (policy skillings-mack): the omnibus test is the Skillings-Mack test,"
                     " pairwise tests use the data sets each pair shares (their numbers are in"
                     " the JSON), and there is no critical-difference diagram, multiple sign test"
                     " or contrast estimation.")
        if pair:
            extra.append(f"The two-learner tests of {pair[0]} and {pair[1]} use the {shared} data"
                         " sets where both have values.")
    else:
        verdict = decide(table, mean_r, results, pair, None, alpha=alpha)
        extra.append(f"The table has missing cells: the two-learner tests use the {shared} data"
                     f" sets where both {pair[0]} and {pair[1]} have values.")
    sizes, bayes, verdict, more = _effects_and_bayesian(table, x, mean_r, pair, posthoc, verdict,
                                                         options, settings)
    verdict = _bayesian_verdict(verdict, table, mean_r, bayes, None, options, settings)
    intervals = _rank_intervals(ranks, options, settings)
    figures = simplex_figures(bayes, alpha)
    notes = tuple(extra) + collect_notes(table, results, report, {}, more)
    return Comparison(table=table, alpha=alpha, convention=options["convention"],
                      decimals=options["decimals"], ranks=ranks, mean_ranks=mean_r,
                      tests=results, pair=pair, settings=settings, posthoc=report,
                      verdict=verdict, figures=figures, critical_difference=None, notes=notes,
                      options=options, effects=sizes, bayesian=bayes,
                      mean_rank_intervals=intervals)


def small_sample_guidance(table, tests, cd, alpha) -> tuple:
    """Below ``PERMUTATION_BELOW_N`` data sets: how large a mean-rank difference the post-hoc
    procedures can detect at this k, N and alpha, and a word on an approximation known to be
    poor there."""
    n, k = table.n_datasets, table.n_learners
    if n >= PERMUTATION_BELOW_N or k < 3:
        return ()
    out = []
    if cd is not None:
        out.append(f"Small sample (N = {n}, k = {k}, alpha = {alpha}): two mean ranks must differ"
                   f" by at least {cd.nemenyi:.4f} for the Nemenyi test (all pairs) and"
                   f" {cd.bonferroni_dunn:.4f} for Bonferroni-Dunn or Holm's first step (against"
                   " one learner) to be detected; smaller real differences will be missed.")
    for name in ("friedman", "iman_davenport"):
        res = tests.get(name)
        if res is not None and res.method in ("chi2", "F") and res.convention == "default":
            out.append(f"{label(name)}: its {res.method} p-value is an approximation that is"
                       f" rough with {n} data sets; --friedman-method exact (or auto) gives the"
                       " permutation p-value.")
    return tuple(out)


def collect_notes(table, tests, posthoc, figures, guidance=()) -> tuple:
    """Every warning and note of an analysis, each prefixed with where it comes from, in the
    order every report prints them."""
    out = [f"Warning: {w}" for w in table.warnings]
    out += list(guidance)
    out += [f"{label(name)}: {note}" for name, res in tests.items() for note in res.notes]
    if posthoc is not None:
        for ranking, entry in posthoc.rankings.items():
            if not entry.skipped:  # a skipped section says why in its own place
                out += [f"Post-hoc on {ranking_title(ranking)}: {note}" for note in entry.notes]
        if posthoc.multiple_sign_test:
            out += [f"Multiple sign test: {note}" for note in posthoc.multiple_sign_test["notes"]]
    out += [plan.note for plan in figures.values() if plan.note]
    return tuple(dict.fromkeys(out))
