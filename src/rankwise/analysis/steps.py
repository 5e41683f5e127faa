"""The steps of one analysis, in the order :func:`rankwise.compare` runs them (``STEPS``).

Every step has one shape: it takes the :class:`Context` (the table, the validated
:class:`~.options.Options` and what the earlier steps found) and returns one
:class:`Contribution`: its named results, the ``settings`` entries every report states, its
notes, its sentences for the verdict and its figure plans. :func:`fold` runs the steps in
order; the verdict is written once at the end (:func:`written_verdict`), from the decision of
the frequentist step and every step's sentences. A table with missing cells
(``--missing skillings-mack``) runs the same steps; where it differs (its ranks, its omnibus
test, its post-hoc engine and notes), the step says so.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from functools import partial
from types import MappingProxyType

import numpy as np

from ..errors import RankwiseError
from ..option_table import echoed
from ..names import BAYESIAN_MODELS, TWO_LEARNER_TESTS, imputed_from
from ..stats.anova import rm_anova
from ..stats.exact import PERMUTATION_BELOW_N
from ..stats.exact import skillings_mack
from ..stats.family import (concordance_from_ranks, durbin, is_balanced_incomplete,
                            page_trend)
from ..stats.omnibus import (aligned_from_ranks, friedman_from_ranks,
                             iman_davenport_from_friedman, quade_from_ranks)
from ..stats.ranking import (RANK_BOOTSTRAP_REPLICATES, RANK_BOOTSTRAP_SEED, aligned_ranks,
                             mean_rank_intervals, midranks, quade_weights, round_scores)
from ..stats.letters import compact_letters
from ..stats.rank_sets import mean_rank_sets, rank_confidence_sets
from ..stats.two_learners import paired_ttest, sign_test, wilcoxon
from . import effects as family_effects
from .bayesian import compute_bayesian
from .effects import columns_of, compute_effects, effect_pairs, magnitude_sentence
from .figures import (every_learner_figure, matrix_rows, plan_figures, significant_among, plan_groups, plan_mcm, plan_p_best,
                      plan_rank_sets, simplex_figures, with_rank_intervals)
from .posthoc import Pairwise, build_posthoc, resolve_rankings
from .verdict import decide, some_names, with_sentence
from ..names import label, ranking_title, test_title

#: From this many cells the aligned ranks are sorted in a thread beside the other tests.
PARALLEL_MIN_CELLS = 1_000_000
#: The pairwise rankings a table with missing cells can use (each pair on its shared data sets).
INCOMPLETE_RANKINGS = ("wilcoxon", "sign", "durbin_conover")


@dataclass(frozen=True)
class Contribution:
    """What one step adds to the analysis: ``results`` by name (a name that is a field of
    :class:`~.compare.Comparison` ends up there), the ``settings`` every report states, its
    ``notes``, its ``sentences`` for the verdict (in step order, after the decision) and its
    figure ``plans`` (a plan of an existing name replaces it where it stands)."""

    results: dict = field(default_factory=dict)
    settings: dict = field(default_factory=dict)
    notes: tuple = ()
    sentences: tuple = ()
    figures: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Context:
    """What a step reads: the table, the validated options, ``rerun`` (:func:`compare` with
    flat settings, for the multiverse) and everything the earlier steps contributed; a result
    is read as an attribute (``ctx.mean_ranks``)."""

    table: object
    opts: object
    rerun: object = None
    results: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    settings: dict = field(default_factory=dict)
    notes: tuple = ()
    sentences: tuple = ()
    figures: dict = field(default_factory=dict)

    def __getattr__(self, name):
        results = self.__dict__.get("results", {})
        if name in results:
            return results[name]
        raise AttributeError(f"no step before this one contributes {name!r}")

    def plus(self, added: Contribution) -> "Context":
        """The context with a step's contribution; a result is contributed once."""
        again = self.results.keys() & added.results.keys()
        if again:  # a fact kept twice is the defect this shape exists to prevent
            raise AssertionError(f"results contributed twice: {sorted(again)}")
        return replace(self, results=MappingProxyType({**self.results, **added.results}),
                       settings={**self.settings, **added.settings},
                       notes=self.notes + added.notes,
                       sentences=self.sentences + added.sentences,
                       figures={**self.figures, **added.figures})


def settings_of(opts, **described) -> dict:
    """The settings every report states: the options the table says are echoed, and
    (``described``) what the analysis made of the table."""
    return {**echoed(opts), **described}


def rank(ctx) -> Contribution:
    """``x``, ``ranks``, ``mean_ranks``: scores rounded to ``decimals`` and ranked within each
    data set (1 = best, mid-ranks); with missing cells, each data set's values among
    themselves (NaN where a cell is missing)."""
    table, opts = ctx.table, ctx.opts
    x = round_scores(table.values, opts.decimals)
    hib = table.higher_is_better
    if opts.complete:
        ranks = midranks(x, descending=hib)
        return Contribution({"x": x, "ranks": ranks, "mean_ranks": ranks.mean(axis=0)},
                            settings_of(opts, friedman="tie-corrected"
                                        if opts.convention == "default" else "uncorrected",
                                        ranks="mid-ranks, 1 = best"))
    present = ~np.isnan(x)
    ranks = midranks(np.where(present, x, np.inf if not hib else -np.inf), descending=hib)
    ranks[~present] = np.nan
    return Contribution({"x": x, "ranks": ranks, "mean_ranks": np.nanmean(ranks, axis=0)},
                        settings_of(opts, friedman="not computed (missing cells)",
                                    ranks="mid-ranks among each data set's values, 1 = best",
                                    missing_policy="skillings-mack"))


def run_tests(ctx) -> Contribution:
    """``tests``: the omnibus tests (Skillings-Mack with missing cells) and the two-learner
    tests of the pair; ``shared``: the data sets the pair shares (missing cells), else None."""
    table, opts = ctx.table, ctx.opts
    if not opts.complete:
        tests, shared = _incomplete_tests(table, ctx.x, opts)
        return Contribution({"tests": tests, "shared": shared})
    x, ranks, names = ctx.x, ctx.ranks, opts.used_tests
    aligned_job = _aligned_job(x, table.higher_is_better, opts) \
        if "friedman_aligned" in names else None
    results = {}
    if "friedman" in names or "iman_davenport" in names:
        fried = friedman_from_ranks(ranks, opts.convention, opts.friedman_method)
        if "friedman" in names:
            results["friedman"] = fried
        if "iman_davenport" in names:
            results["iman_davenport"] = iman_davenport_from_friedman(fried)
    if aligned_job is not None:
        r_al = aligned_job() if callable(aligned_job) else aligned_job.result()
        results["friedman_aligned"] = aligned_from_ranks(r_al, opts.convention)
    if "quade" in names:
        results["quade"] = quade_from_ranks(ranks, quade_weights(x, opts.decimals),
                                             opts.convention)
    if "anova" in names:
        results["anova"] = rm_anova(x, convention=opts.convention, alpha=opts.alpha,
                                    decimals=None)
    if opts.trend:
        results["page"] = page_trend(x, opts.trend, learners=table.learners,
                                     higher_is_better=table.higher_is_better, decimals=None)
    if opts.used_pair:
        a, b = (x[:, table.learners.index(name)] for name in opts.used_pair)
        results.update(two_learner_tests(a, b, [t for t in TWO_LEARNER_TESTS if t in names],
                                         opts, table.higher_is_better))
    return Contribution({"tests": results, "shared": None})


def concordance(ctx) -> Contribution:
    """``concordance``: Kendall's W of a complete table of k ≥ 3 learners, with its bootstrap
    interval over the data sets (the omnibus test's effect size, in every report)."""
    table, opts = ctx.table, ctx.opts
    if not opts.complete or table.n_learners < 3:
        return Contribution({"concordance": None})
    return Contribution({"concordance": concordance_from_ranks(ctx.ranks, opts.used_confidence,
                                                               seed=opts.seed)})


def _aligned_job(x, hib, opts):
    """The aligned ranks, or on a large table a future of them: the global sort of n·k aligned
    values dominates there, and numpy releases the GIL while sorting, so it runs beside the
    rest. The result does not depend on timing."""
    job = partial(aligned_ranks, x, hib, opts.decimals)
    if x.size < PARALLEL_MIN_CELLS:
        return job
    pool = ThreadPoolExecutor(max_workers=1)
    future = pool.submit(job)
    pool.shutdown(wait=False)
    return future


def _incomplete_tests(table, x, opts) -> tuple:
    hib, tests = table.higher_is_better, opts.used_tests
    results = {}
    if table.n_learners >= 3 and is_balanced_incomplete(x) and (
            tests is None or "durbin" in tests):
        # a balanced incomplete block design: Durbin's test is the one made for it
        results["durbin"] = durbin(x, higher_is_better=hib, decimals=None)
    if table.n_learners >= 3 and (tests is None or "skillings_mack" in tests):
        results["skillings_mack"] = skillings_mack(x, higher_is_better=hib)
    pair, shared = opts.used_pair, None
    if pair:
        wanted = tuple(t for t in (tests if tests is not None else TWO_LEARNER_TESTS)
                       if t in TWO_LEARNER_TESTS)
        present = ~np.isnan(x)
        ia, ib = (table.learners.index(name) for name in pair)
        rows = present[:, ia] & present[:, ib]
        shared = int(rows.sum())
        if shared < 2:
            raise RankwiseError(f"{pair[0]} and {pair[1]} share {shared} data set(s) with values;"
                                " the two-learner tests need at least two")
        results.update(two_learner_tests(x[rows, ia], x[rows, ib], wanted or ("wilcoxon",),
                                         opts, hib))
    return results, shared


def two_learner_tests(a, b, names, opts, higher_is_better: bool) -> dict:
    """The named two-learner tests of b against a, with the settings of :func:`compare`."""
    common = dict(higher_is_better=higher_is_better, convention=opts.convention,
                  decimals=opts.decimals, alternative=opts.alternative)
    runners = {
        "wilcoxon": lambda: wilcoxon(a, b, zero_method=opts.zero_method,
                                     method=opts.wilcoxon_method,
                                     correction=opts.continuity_correction, **common),
        "sign": lambda: sign_test(a, b, ties=opts.sign_ties, **common),
        "ttest": lambda: paired_ttest(a, b, **common),
        "ttest_relative": lambda: paired_ttest(a, b, relative=True, **common),
    }
    return {name: runners[name]() for name in names}


def frequentist(ctx) -> Contribution:
    """``engine`` (the post-hoc engine), ``posthoc`` (the families), ``critical_difference``
    and ``verdict`` (the decision, before any step's sentence), and the figures' plans (k ≥ 3);
    or the decision of the two-learner tests (k = 2). With missing cells it leads the notes."""
    table, opts = ctx.table, ctx.opts
    if table.n_learners < 3:
        return _two_learners(ctx)
    complete = opts.complete
    rankings = opts.rankings if complete else _incomplete_rankings(opts, ctx.tests)
    # Without missing cells Friedman's p-value method is the analysis'; with them the gate of
    # every ranking is Skillings-Mack.
    engine = Pairwise(ctx.x, table.learners, opts, higher_is_better=table.higher_is_better,
                      tests=ctx.tests, ranks=ctx.ranks,
                      gate_test=None if complete else incomplete_gate(ctx.tests),
                      shown=matrix_rows(ctx.mean_ranks, opts.top), top_pairs=opts.top)
    cd = engine.critical_difference() if complete else None
    _diagram_at_large_k(table.n_learners, opts)
    report = None if opts.family is None else build_posthoc(
        engine, ctx.mean_ranks, family=opts.family, control=opts.control,
        procedures=opts.procedures, rankings=rankings, force=opts.force_posthoc,
        alternative=opts.alternative)
    found = {"engine": engine, "posthoc": report, "critical_difference": cd}
    if not complete:
        verdict = decide(table, ctx.mean_ranks, ctx.tests, None, engine, alpha=opts.alpha,
                         procedure=opts.verdict_procedure,
                         ranking="durbin_conover" if "durbin" in ctx.tests else "wilcoxon")
        return Contribution({**found, "verdict": verdict},
                            notes=_incomplete_notes(table, opts.used_pair, ctx.shared,
                                                    ctx.tests))
    verdict = decide(table, ctx.mean_ranks, ctx.tests, opts.used_pair, engine,
                     alpha=opts.alpha, procedure=opts.verdict_procedure)
    figures = plan_figures(engine, table.learners, ctx.mean_ranks, verdict, alpha=opts.alpha,
                           diagram_procedure=opts.diagram_procedure, force=opts.force_posthoc,
                           top=opts.top)
    return Contribution({**found, "verdict": verdict}, figures=figures)


def incomplete_gate(tests) -> str:
    """The omnibus test of a table with missing cells: Durbin's where the missing cells leave a
    balanced incomplete block design, else Skillings-Mack's."""
    return "durbin" if "durbin" in tests else "skillings_mack"


def _diagram_at_large_k(k: int, opts) -> None:
    """Above ``PAIR_MATRIX_MAX_LEARNERS`` the CD diagram's procedure adjusts all pairs in
    blocks, which Shaffer's and Bergmann-Hommel's cannot."""
    from ..defaults import PAIR_MATRIX_MAX_LEARNERS
    from ..stats.all_pairs import STREAMED_PROCEDURES

    if k > PAIR_MATRIX_MAX_LEARNERS and opts.diagram_procedure not in STREAMED_PROCEDURES:
        raise RankwiseError(f"--diagram-procedure {opts.diagram_procedure} needs every pair at"
                            f" once; above {PAIR_MATRIX_MAX_LEARNERS:,} learners ({k:,} here)"
                            " use nemenyi (the default), holm, bonferroni, sidak,"
                            " benjamini_hochberg or benjamini_yekutieli")


def _incomplete_rankings(opts, tests=None) -> list:
    """The post-hoc rankings of a table with missing cells: the Durbin-Conover comparisons
    where Durbin's test is the gate (a balanced incomplete design), else pairwise Wilcoxon
    tests on the data sets each pair shares."""
    default = ["durbin_conover"] if tests and "durbin" in tests else ["wilcoxon"]
    chosen = resolve_rankings(opts.rankings) if opts.rankings else default
    bad = [r for r in chosen if r not in INCOMPLETE_RANKINGS]
    if bad and opts.family is not None:
        raise RankwiseError(f"the {bad[0]} ranking needs a complete table; with missing cells"
                            f" use {' or '.join(INCOMPLETE_RANKINGS)}")
    return chosen


def _incomplete_notes(table, pair, shared, tests=None) -> tuple:
    which = (f"{test_title('durbin')} (the missing cells leave a balanced incomplete block design: every"
             " data set with the same number of learners, every pair together equally often;"
             " its chi-square p-value decides, the F form is in the JSON; Skillings-Mack's is"
             " beside it)" if tests and "durbin" in tests else test_title("skillings_mack"))
    notes = [f"The table has {len(table.missing_cells)} missing cell(s), all other cells"
             f" kept (policy skillings-mack): the omnibus test is {which},"
             " pairwise tests use the data sets each pair shares (their numbers are in"
             " the JSON), and there is no critical-difference diagram, multiple sign test"
             " or contrast estimation."]
    if pair:
        notes.append(f"The two-learner tests of {pair[0]} and {pair[1]} use the {shared} data"
                     " sets where both have values.")
    return tuple(notes)


def _two_learners(ctx) -> Contribution:
    table, opts, results = ctx.table, ctx.opts, ctx.tests
    pair, mean_r = opts.used_pair, ctx.mean_ranks
    none = {"engine": None, "posthoc": None, "critical_difference": None}
    if not opts.complete:
        verdict = decide(table, mean_r, results, pair, None, alpha=opts.alpha)
        return Contribution({**none, "verdict": verdict}, notes=(
            f"The table has missing cells: the two-learner tests use the {ctx.shared} data"
            f" sets where both {pair[0]} and {pair[1]} have values.",))
    if opts.family is not None:
        raise RankwiseError("post-hoc comparisons need at least 3 learners; with 2, the"
                            " two-learner tests already answer the question")
    verdict_tests = results
    if "wilcoxon" not in results:
        a, b = (ctx.x[:, table.learners.index(name)] for name in pair)
        verdict_tests = {**results, **two_learner_tests(a, b, ["wilcoxon"], opts,
                                                         table.higher_is_better)}
    verdict = decide(table, mean_r, verdict_tests, pair, None, alpha=opts.alpha)
    return Contribution({**none, "verdict": verdict})


def cautions(ctx) -> Contribution:
    """The table's warnings and, below ``PERMUTATION_BELOW_N`` data sets, how large a
    mean-rank difference the post-hoc procedures can detect at this k, N and alpha, and a word
    on an approximation known to be poor there."""
    table, alpha, cd = ctx.table, ctx.opts.alpha, ctx.critical_difference
    out = [f"Warning: {w}" for w in table.warnings]
    n, k = table.n_datasets, table.n_learners
    if n >= PERMUTATION_BELOW_N or k < 3:
        return Contribution(notes=tuple(out))
    if cd is not None:
        out.append(f"Small sample (N = {n}, k = {k}, alpha = {alpha}): two mean ranks must differ"
                   f" by at least {cd.nemenyi:.4f} for the Nemenyi test (all pairs) and"
                   f" {cd.bonferroni_dunn:.4f} for Bonferroni-Dunn or Holm's first step (against"
                   " one learner) to be detected; smaller real differences will be missed.")
    for name in ("friedman", "iman_davenport"):
        res = ctx.tests.get(name)
        if res is not None and res.method in ("chi2", "F") and res.convention == "default":
            out.append(f"{label(name)}: its {res.method} p-value is an approximation that is"
                       f" rough with {n} data sets; --friedman-method exact (or auto) gives the"
                       " permutation p-value.")
    return Contribution(notes=tuple(out))


def effects_and_bayesian(ctx) -> Contribution:
    """``effects`` and ``bayesian``: effect sizes and the Bayesian test of the family (see
    :mod:`.effects`); the verdict's sentence on the size of its differences, and the note when
    effects were left out."""
    table, opts, verdict = ctx.table, ctx.opts, ctx.verdict
    chosen, pairs, notes = _effect_pairs(table, ctx.mean_ranks, verdict, opts)
    sizes = bayes = ()
    sentences = ()
    settings = {"effects": opts.effects != "none" and chosen is not None}
    if settings["effects"]:
        settings["effects_pairs"] = "all" if len(chosen) == len(pairs) else "verdict"
        if np.isnan(ctx.x).any():   # missing cells: a pair needs two shared data sets
            kept = [(a, b) for a, b in chosen if columns_of(table, ctx.x, a, b)[0].size >= 2]
            if len(kept) < len(chosen):
                left = [f"{a} vs {b}" for a, b in chosen if (a, b) not in kept]
                notes += (f"No effect sizes for {len(left)} pair(s) that share fewer than two"
                          f" data sets with values: {', '.join(left[:5])}"
                          + (", ..." if len(left) > 5 else "") + ".",)
            chosen = kept
        sizes = compute_effects(table, ctx.x, chosen, confidence=opts.used_confidence,
                                decimals=opts.decimals)
        settings["effects_confidence"] = opts.used_confidence
        sentence = magnitude_sentence(sizes, verdict, opts.used_confidence)
        sentences = (sentence,) if sentence else ()
    if opts.bayesian is not None and opts.bayesian not in BAYESIAN_MODELS:
        pairs, note = _bayesian_pairs(table, ctx.mean_ranks, pairs, verdict, opts)
        notes += note
        bayes = compute_bayesian(table, ctx.x, pairs, test=opts.bayesian, rope=opts.rope,
                                 draws=opts.draws, seed=opts.seed, threshold=opts.threshold,
                                 decimals=opts.decimals)
        if not bayes:
            raise RankwiseError(f"the {opts.bayesian} test found no data set on which a"
                                " pair has two or more matching fold results")
        sampled = opts.bayesian != "correlated-t"
        drawn = bayes[0].draws if opts.bayesian == "hierarchical" else opts.draws
        settings.update(bayesian=opts.bayesian, rope=float(opts.rope),
                        bayesian_draws=drawn if sampled else None,
                        bayesian_seed=opts.seed if sampled else None,
                        bayesian_threshold=opts.threshold)
    return Contribution({"effects": sizes, "bayesian": bayes}, settings, notes, sentences)


def _bayesian_pairs(table, mean_r, pairs, verdict, opts) -> tuple:
    """``(pairs, notes)``: the pairs of the Bayesian test, bounded as the effect sizes are by
    default: every pair of the family up to ``EFFECTS_AUTO_MAX_PAIRS``, else the verdict's."""
    limit = family_effects.EFFECTS_AUTO_MAX_PAIRS
    if len(pairs) <= limit:
        return list(pairs), ()
    spoken = effect_pairs(table.learners, mean_r, opts.used_pair, None, opts.control, verdict)
    return spoken, (f"The Bayesian {opts.bayesian} test is run on the {len(spoken):,} pairs the"
                    f" verdict speaks of, not on all {len(pairs):,} pairs of the post-hoc family"
                    f" (above {limit:,} pairs, as for the effect sizes: each pair draws its own"
                    " posterior, so 500,000 pairs would take about an hour).",)


def _effect_pairs(table, mean_r, verdict, opts) -> tuple:
    """``(chosen, pairs, notes)``: the pairs that get effect sizes (None: none), the pairs of
    the family, and the note when some were left out."""
    mode, notes = opts.effects, ()
    limit_n, limit_pairs = family_effects.EFFECTS_AUTO_MAX_N, family_effects.EFFECTS_AUTO_MAX_PAIRS
    if mode == "auto" and table.n_datasets > limit_n:
        mode = "none"
        notes = (f"Effect sizes are not computed by default above {limit_n:,} data sets;"
                 " --effects all (effects='all') computes them.",)
    pairs = _FamilyPairs(table, mean_r, verdict, opts)
    if mode == "all" and len(pairs) > EFFECTS_ALL_MAX_PAIRS:
        raise RankwiseError(f"--effects all would compute effect sizes for {len(pairs):,} pairs;"
                            f" up to {EFFECTS_ALL_MAX_PAIRS:,} are computed (--effects verdict:"
                            " the pairs the verdict speaks of)")
    chosen = pairs
    if mode in ("auto", "verdict"):
        spoken = effect_pairs(table.learners, mean_r, opts.used_pair, None, opts.control,
                              verdict)
        if mode == "verdict" or len(pairs) > limit_pairs:
            chosen = spoken
            if len(spoken) < len(pairs):
                why = ("--effects verdict" if mode == "verdict" else
                       f"the family has more than {limit_pairs:,} pairs")
                notes += (f"Effect sizes are computed for the {len(spoken):,} pairs the verdict"
                          f" speaks of, not for all {len(pairs):,} pairs of the post-hoc family"
                          f" ({why}); --effects all computes every pair.",)
    if chosen is pairs:
        chosen = pairs.pairs()
    return (None if mode == "none" else chosen), pairs, notes


#: ``--effects all`` computes at most this many pairs (all pairs of 1,000 learners).
EFFECTS_ALL_MAX_PAIRS = 499_500


class _FamilyPairs:
    """The (a, b) pairs of the post-hoc family that effect sizes and the Bayesian test may
    cover: their number at once, the list only when it is read (all pairs of 10,000 learners
    would be 50 million tuples)."""

    def __init__(self, table, mean_r, verdict, opts):
        self.args = (table.learners, mean_r, opts.used_pair, opts.family, opts.control, verdict)
        k = table.n_learners
        self.size = k * (k - 1) // 2 if opts.family in ("all", "both") and k > 2 else None
        self._pairs = None

    def pairs(self) -> list:
        if self._pairs is None:
            self._pairs = effect_pairs(*self.args)
        return self._pairs

    def __len__(self) -> int:
        return self.size if self.size is not None else len(self.pairs())

    def __iter__(self):
        return iter(self.pairs())


def whole_table_model(ctx) -> Contribution:
    """``bayesian_model``: a Bayesian model of the whole table (``bayesian=`` one of the
    models), or None."""
    opts = ctx.opts
    if opts.bayesian not in BAYESIAN_MODELS or not opts.complete:
        return Contribution({"bayesian_model": None})
    from .bayesian import bayesian_model

    return Contribution({"bayesian_model": bayesian_model(ctx.table, opts.bayesian,
                                                          seed=opts.seed)},
                        {"bayesian": opts.bayesian, "bayesian_seed": opts.seed})


def bayesian_verdict(ctx) -> Contribution:
    """``bayesian_view``: with ``verdict="bayesian"``, what the posterior says (:mod:`.bayes_verdict`),
    which leads the written verdict; otherwise None."""
    opts = ctx.opts
    settings = {"verdict": opts.verdict}
    if opts.verdict != "bayesian":
        return Contribution({"bayesian_view": None}, settings)
    from .bayes_verdict import from_model, from_pairs

    threshold = float(opts.threshold)
    if ctx.bayesian_model is not None:
        return Contribution({"bayesian_view": from_model(ctx.bayesian_model, threshold)},
                            settings)
    order = [ctx.table.learners[j] for j in np.argsort(ctx.mean_ranks, kind="stable")]
    return Contribution({"bayesian_view": from_pairs(ctx.bayesian, order[0], order[1:],
                                                     threshold)}, settings)


def pool_views(ctx) -> Contribution:
    """The analyses that look at the pool as a whole: ``pool_check``, ``mcm`` (the
    multi-comparison matrix) and ``groups`` (Scott-Knott, with ``group_samples``, what they
    were cut from), each None unless asked for, and their sentences."""
    table, opts = ctx.table, ctx.opts
    x, hib = ctx.x, table.higher_is_better
    pool = matrix = rank_groups = group_samples = None
    sentences = ()
    if opts.pool_check:
        from .pool import pool_check as check_pool

        chosen = resolve_rankings(opts.rankings)[0] if opts.rankings is not None else "friedman"
        pool = check_pool(x, ctx.ranks, table.learners, hib, opts.as_dict(), ranking=chosen,
                          procedure=opts.diagram_procedure,
                          verdict_procedure=opts.verdict_procedure)
        sentences += (pool.sentence(),)
    if opts.mcm:
        from .mcm import multi_comparison_matrix

        matrix = multi_comparison_matrix(table.values, table.learners, higher_is_better=hib,
                                         decimals=opts.decimals, convention=opts.convention,
                                         holm=opts.mcm == "holm", alpha=opts.alpha)
    if opts.groups is not None:
        rank_groups, group_samples = _groups(table, x, opts)
        sentences += (rank_groups.sentence(),)
    return Contribution({"pool_check": pool, "mcm": matrix, "groups": rank_groups,
                         "group_samples": group_samples}, sentences=sentences)


def _groups(table, x, opts) -> tuple:
    """``(groups, samples)``: the Scott-Knott groups and what they were cut from."""
    from .scott_knott import fold_samples, scott_knott_bootstrap, scott_knott_esd

    hib = table.higher_is_better
    if opts.groups == "scott-knott-bootstrap":
        samples = fold_samples(table)  # what the groups are cut from, and drawn
        return scott_knott_bootstrap(samples, higher_is_better=hib, alpha=opts.alpha,
                                     seed=opts.seed), samples
    samples = {name: x[:, j] for j, name in enumerate(table.learners)}
    return scott_knott_esd(table.values, table.learners, higher_is_better=hib, alpha=opts.alpha,
                           decimals=opts.decimals,
                           version="np" if opts.groups.endswith("-np") else "p"), samples


def filled_cells(ctx) -> Contribution:
    """The sentence of the assumption the verdict rests on when missing cells were filled."""
    table = ctx.table
    if not table.filled_cells:
        return Contribution()
    how = ("the worst score on its data set" if table.missing_policy == "worst" else
           f"{imputed_from(table.missing_policy)}'s score on its data set")
    return Contribution(sentences=(f"{len(table.filled_cells)} missing result(s) were filled"
                                   f" with {how} (--missing {table.missing_policy}).",))


def rank_intervals(ctx) -> Contribution:
    """``mean_rank_intervals``: the mean ranks' intervals, and how they were obtained."""
    confidence = ctx.opts.used_confidence
    intervals, how = mean_rank_intervals(ctx.ranks, confidence=confidence)
    return Contribution({"mean_rank_intervals": intervals}, {"mean_rank_intervals": {
        "method": how, "confidence": confidence,
        "draws": RANK_BOOTSTRAP_REPLICATES if how == "bootstrap" else None,
        "seed": RANK_BOOTSTRAP_SEED if how == "bootstrap" else None}})


def rank_sets(ctx) -> Contribution:
    """``rank_sets``: confidence sets for the ranks at 1 − alpha (``rank_sets=``), by mean
    rank or by mean score, and the verdict's sentence on who could be the best; or None."""
    table, opts = ctx.table, ctx.opts
    if opts.rank_sets is None:
        return Contribution({"rank_sets": None})
    common = dict(learners=table.learners, confidence=1.0 - opts.alpha,
                  simultaneous=not opts.rank_sets_marginal, seed=opts.seed)
    if opts.rank_sets == "ranks":
        sets = mean_rank_sets(ctx.ranks, **common)
    else:
        x = ctx.x
        sets = rank_confidence_sets(x.mean(axis=0), np.cov(x, rowvar=False) / x.shape[0],
                                    larger_is_better=table.higher_is_better, **common)
    return Contribution({"rank_sets": sets},
                        {"rank_sets": {"basis": opts.rank_sets, "simultaneous": sets.simultaneous,
                                       "confidence": sets.confidence, "draws": sets.draws,
                                       "seed": sets.seed, "stepdown": sets.stepdown}},
                        sentences=(rank_set_sentence(sets, opts.rank_sets),))


def rank_set_sentence(sets, basis) -> str:
    """What the rank sets say, in a sentence or two: who could be the best, the first one's
    rank, and (joint sets) the tiers."""
    level = f"{100 * sets.confidence:g}%"
    jointly = "jointly for every learner" if sets.simultaneous else "for each learner on its own"
    basis = "mean rank" if basis == "ranks" else "mean score"
    could = [name for name, b in zip(sets.learners, sets.best) if b]
    order = sorted(range(len(sets.learners)), key=lambda j: (sets.rank[j], j))
    first = sets.learners[order[0]]
    span = f"{sets.lower[order[0]]}–{sets.upper[order[0]]}" \
        if sets.lower[order[0]] != sets.upper[order[0]] else f"{sets.lower[order[0]]}"
    who = (f"{could[0]} is the best" if len(could) == 1 else
           f"the best is one of {some_names(could)}")
    tiers = sets.tiers()
    shown = "; ".join(f"{i + 1}: {some_names(t)}" for i, t in enumerate(tiers[:TIERS_NAMED]))
    more = f"; and {len(tiers) - TIERS_NAMED} more" if len(tiers) > TIERS_NAMED else ""
    tiered = (f" Tiers (by how many learners are surely better): {shown}{more}."
              if len(tiers) > 1 and sets.simultaneous else "")
    return (f"How sure: with {level} confidence ({jointly}; confidence sets for the ranks by"
            f" {basis}, Mogstad et al. 2023), {who}; {first}'s rank lies in {span}.{tiered}")


#: The verdict names the learners of this many tiers (the JSON has every learner's tier).
TIERS_NAMED = 3


def dataset_check(ctx) -> Contribution:
    """``dataset_check``: with ``dataset_check=True``, which data sets carry each claim of the
    verdict (and of the CD diagram, with the all-pairs family), and the verdict's sentence on
    what it found; else None."""
    table, opts = ctx.table, ctx.opts
    if not opts.dataset_check:
        return Contribution({"dataset_check": None})
    from .dataset_check import dataset_check as check_datasets

    pairs = opts.family in ("all", "both")
    found = check_datasets(ctx.ranks, table.learners, table.datasets, alpha=opts.alpha,
                           convention=opts.convention, friedman_method=opts.friedman_method,
                           verdict_procedure=opts.verdict_procedure,
                           pair_procedure=opts.diagram_procedure if pairs else None,
                           force_posthoc=opts.force_posthoc,
                           gate_passed=ctx.verdict.gate.passed)
    return Contribution({"dataset_check": found}, sentences=(found.sentence(),))


def multiverse(ctx) -> Contribution:
    """``multiverse``: with ``multiverse=``, the verdict's claims rerun over the grid (each
    analysis by ``ctx.rerun``, :func:`rankwise.compare`), its sentence and its figure; else
    None."""
    opts = ctx.opts
    if opts.multiverse is None:
        return Contribution({"multiverse": None})
    from types import SimpleNamespace

    from .figures import plan_multiverse
    from .multiverse import multiverse as rerun_over_grid

    base = SimpleNamespace(table=ctx.table, options=opts.as_dict(), verdict=ctx.verdict)
    found = rerun_over_grid(base, opts.multiverse, rerun=ctx.rerun)
    return Contribution({"multiverse": found}, sentences=(found.sentence(),),
                        figures={"multiverse": plan_multiverse(found, opts.alpha)})


def per_dataset(ctx) -> Contribution:
    """``per_dataset``: with ``per_dataset=``, every learner against the base (``control``,
    else the best mean rank) on every data set, from the fold-level results, and its forest
    plot; else None."""
    table, opts, mean_r = ctx.table, ctx.opts, ctx.mean_ranks
    if opts.per_dataset is None:
        return Contribution({"per_dataset": None})
    from .figures import plan_per_dataset
    from .per_dataset import per_dataset as by_dataset

    base = opts.control if opts.control not in (None, "best") else \
        table.learners[int(np.argmin(np.where(np.isnan(mean_r), np.inf, mean_r)))]
    found = by_dataset(table, base, alpha=opts.alpha, tests=opts.per_dataset,
                       adjust_over=opts.per_dataset_adjust, test_fraction=opts.test_fraction,
                       marks=opts.per_dataset_marks,
                       rope=opts.rope, threshold=opts.threshold, decimals=opts.decimals,
                       all_pairs=opts.family in ("all", "both"))
    return Contribution({"per_dataset": found}, figures={
        "per_dataset": plan_per_dataset(found, mean_r, table.learners, opts.alpha)})


#: Letters for more learners than this (``--top 0`` at large k) are not computed: nobody reads
#: them, and the groups of a thousand learners take minutes.
LETTERS_MAX_LEARNERS = 100


def letters(ctx) -> Contribution:
    """``letters``: with the all-pairs family (``posthoc="all"`` or ``"both"``), the compact
    letter display of the CD diagram's decisions for the learners a report shows (``top``,
    best first), and the diagram's caption naming them; else None."""
    table, opts = ctx.table, ctx.opts
    plan = ctx.figures.get("cd_diagram")
    if opts.family not in ("all", "both") or plan is None or not plan.drawn:
        return Contribution({"letters": None})
    order = [int(j) for j in np.argsort(ctx.mean_ranks, kind="stable")][:opts.top]
    if len(order) > LETTERS_MAX_LEARNERS:
        return Contribution({"letters": None})
    fam, _, _ = ctx.engine.family(plan.ranking, "all_pairs", (plan.procedure,), None)
    sig = significant_among(fam, plan.procedure, plan.alpha, order)
    try:
        display = compact_letters([table.learners[j] for j in order], sig)
    except RankwiseError:  # more letters than a person can read: the figure says none
        return Contribution({"letters": None})
    shown = ", ".join(f"{name} {mark}" for name, mark in zip(display.learners, display.letters))
    caption = (f"{plan.caption} Letters (learners that share one are not significantly"
               f" different): {shown}.")
    return Contribution({"letters": display},
                        figures={"cd_diagram": replace(plan, caption=caption)})


def figure_plan(ctx) -> Contribution:
    """Every figure's plan: the Bayesian simplices and P(best), the MCM and groups, with rank
    intervals drawn on every figure planned so far and the every-learner figure above ``top``
    learners. A table with missing cells has the simplices only."""
    table, opts = ctx.table, ctx.opts
    figures = {**ctx.figures, **simplex_figures(ctx.bayesian, opts.alpha)}
    if not opts.complete:
        return Contribution(figures=figures)
    if ctx.groups is not None:
        figures["groups"] = plan_groups(ctx.groups, ctx.group_samples)
    if ctx.mcm is not None:
        figures["mcm"] = plan_mcm(ctx.mcm)
    if ctx.bayesian_model is not None:
        figures["p_best"] = plan_p_best(ctx.bayesian_model, opts.alpha)
    how = ctx.settings["mean_rank_intervals"]
    intervals = ctx.mean_rank_intervals
    if figures and opts.rank_intervals:
        figures = with_rank_intervals(figures, table.learners, intervals, how)
    if figures and opts.top is not None and table.n_learners > opts.top:
        figures = {**figures, **every_learner_figure(table.learners, intervals, ctx.verdict,
                                                     how, opts.alpha, opts.top)}
    return Contribution(figures=figures)


def rank_set_figure(ctx) -> Contribution:
    """The rank sets' figure (with the data-set check's marks) when there are sets."""
    if ctx.rank_sets is None:
        return Contribution()
    return Contribution(figures={"rank_sets": plan_rank_sets(
        ctx.rank_sets, ctx.mean_ranks, ctx.dataset_check, ctx.opts.alpha, ctx.opts.rank_sets)})


def notes(ctx) -> Contribution:
    """The notes of the tests, of the post-hoc families and of the figures (a table with
    missing cells: of the tests and families only), each prefixed with where it comes from."""
    out = [f"{label(name)}: {note}" for name, res in ctx.tests.items() for note in res.notes]
    posthoc = ctx.posthoc
    if posthoc is not None:
        for ranking, entry in posthoc.rankings.items():
            if not entry.skipped:  # a skipped section says why in its own place
                out += [f"Post-hoc on {ranking_title(ranking)}: {note}" for note in entry.notes]
        if posthoc.multiple_sign_test:
            out += [f"Multiple sign test: {note}" for note in posthoc.multiple_sign_test["notes"]]
    if ctx.opts.complete:
        out += [plan.note for plan in ctx.figures.values() if plan.note]
    return Contribution(notes=tuple(out))


#: The steps of an analysis, in order: the frequentist decision first (the verdict's claims),
#: then what each option adds, the figure plans and the notes, and the multiverse last (it
#: reruns the whole analysis over its grid and compares the claims).
STEPS = (rank, run_tests, concordance, frequentist, cautions, letters, effects_and_bayesian,
         whole_table_model, bayesian_verdict, pool_views, filled_cells, rank_intervals,
         rank_sets, dataset_check, figure_plan, rank_set_figure, per_dataset, notes,
         multiverse)


def fold(table, opts, rerun=None, steps=STEPS) -> Context:
    """Run ``steps`` in order, each on the context the earlier ones made."""
    ctx = Context(table, opts, rerun)
    for step in steps:
        ctx = ctx.plus(step(ctx))
    return ctx


def written_verdict(ctx):
    """The verdict, written once: the frequentist decision with every step's sentences in
    step order, led by the posterior's statement with ``verdict="bayesian"``."""
    verdict = ctx.verdict
    for sentence in ctx.sentences:
        verdict = with_sentence(verdict, sentence)
    if ctx.bayesian_view is not None:
        from .bayes_verdict import speak_bayesian

        verdict = speak_bayesian(verdict, ctx.bayesian_view)
    return verdict
