"""The steps of one analysis, in the order :func:`rankwise.compare` runs them.

Each step is a function of the table, the validated :class:`~.options.Options` and the earlier
steps' results, and returns its own results (and the ``settings`` entries it adds, which every
report states). A table with missing cells (``--missing skillings-mack``) runs the same steps;
where it differs (its ranks, its omnibus test, its post-hoc engine and notes), the step says so.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from functools import partial

import numpy as np

from ..errors import RankwiseError
from ..option_table import echoed
from ..names import BAYESIAN_MODELS, TWO_LEARNER_TESTS, imputed_from
from ..stats.anova import rm_anova
from ..stats.exact import skillings_mack
from ..stats.omnibus import (aligned_from_ranks, friedman_from_ranks,
                             iman_davenport_from_friedman, quade_from_ranks)
from ..stats.ranking import (RANK_BOOTSTRAP_REPLICATES, RANK_BOOTSTRAP_SEED, aligned_ranks,
                             mean_rank_intervals, midranks, quade_weights, round_scores)
from ..stats.letters import compact_letters
from ..stats.rank_sets import mean_rank_sets, rank_confidence_sets
from ..stats.two_learners import paired_ttest, sign_test, wilcoxon
from . import effects as family_effects
from .bayesian import compute_bayesian
from .effects import compute_effects, effect_pairs, magnitude_sentence
from .figures import (every_learner_figure, matrix_rows, plan_figures, significant_among, plan_groups, plan_mcm, plan_p_best,
                      plan_rank_sets, simplex_figures, with_rank_intervals)
from .posthoc import Pairwise, build_posthoc, resolve_rankings
from .verdict import decide, some_names, with_sentence

#: From this many cells the aligned ranks are sorted in a thread beside the other tests.
PARALLEL_MIN_CELLS = 1_000_000
#: The pairwise rankings a table with missing cells can use (each pair on its shared data sets).
INCOMPLETE_RANKINGS = ("wilcoxon", "sign")


@dataclass(frozen=True)
class Ranked:
    """The rounded scores, their within-data-set ranks (NaN where a cell is missing) and the
    mean ranks; ``settings``: how the ranks were made, as the reports state it."""

    x: np.ndarray
    ranks: np.ndarray
    mean_ranks: np.ndarray
    settings: dict


@dataclass(frozen=True)
class Frequentist:
    """The post-hoc engine and families, the critical difference, the verdict, the figures'
    decisions and the notes this step leads with (a table with missing cells)."""

    engine: object
    posthoc: object
    critical_difference: object
    verdict: object
    figures: dict
    leading_notes: tuple = ()


def settings_of(opts, **described) -> dict:
    """The settings every report states: the options the table says are echoed, and
    (``described``) what the analysis made of the table."""
    return {**echoed(opts), **described}


def rank(table, opts) -> Ranked:
    """Scores rounded to ``decimals`` and ranked within each data set (1 = best, mid-ranks);
    with missing cells, each data set's values among themselves."""
    x = round_scores(table.values, opts.decimals)
    hib = table.higher_is_better
    if opts.complete:
        ranks = midranks(x, descending=hib)
        return Ranked(x, ranks, ranks.mean(axis=0), settings_of(
            opts, friedman="tie-corrected" if opts.convention == "default" else "uncorrected",
            ranks="mid-ranks, 1 = best"))
    present = ~np.isnan(x)
    ranks = midranks(np.where(present, x, np.inf if not hib else -np.inf), descending=hib)
    ranks[~present] = np.nan
    return Ranked(x, ranks, np.nanmean(ranks, axis=0), settings_of(
        opts, friedman="not computed (missing cells)",
        ranks="mid-ranks among each data set's values, 1 = best",
        missing_policy="skillings-mack"))


def run_tests(table, ranked: Ranked, opts) -> tuple:
    """``(tests, shared)``: the omnibus tests (Skillings-Mack with missing cells) and the
    two-learner tests of the pair; ``shared``: the data sets the pair shares (missing cells)."""
    if not opts.complete:
        return _incomplete_tests(table, ranked, opts)
    x, ranks, names = ranked.x, ranked.ranks, opts.used_tests
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
    if opts.used_pair:
        a, b = (x[:, table.learners.index(name)] for name in opts.used_pair)
        results.update(two_learner_tests(a, b, [t for t in TWO_LEARNER_TESTS if t in names],
                                         opts, table.higher_is_better))
    return results, None


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


def _incomplete_tests(table, ranked, opts) -> tuple:
    x, hib, tests = ranked.x, table.higher_is_better, opts.used_tests
    results = {}
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


def frequentist(table, ranked: Ranked, results: dict, shared, opts) -> Frequentist:
    """The post-hoc families, the verdict and the figures' decisions (k ≥ 3), or the verdict of
    the two-learner tests (k = 2)."""
    if table.n_learners < 3:
        return _two_learners(table, ranked, results, shared, opts)
    complete = opts.complete
    rankings = opts.rankings if complete else _incomplete_rankings(opts)
    engine = Pairwise(ranked.x, table.learners, higher_is_better=table.higher_is_better,
                      alpha=opts.alpha, convention=opts.convention, tests=results,
                      zero_method=opts.zero_method, wilcoxon_method=opts.wilcoxon_method,
                      sign_ties=opts.sign_ties, time_budget=opts.bh_time_budget,
                      ranks=ranked.ranks, correction=opts.continuity_correction,
                      decimals=opts.decimals,
                      shown=matrix_rows(ranked.mean_ranks, opts.top), top_pairs=opts.top,
                      **({"friedman_method": opts.friedman_method} if complete
                         else {"gate_test": "skillings_mack"}))
    cd = engine.critical_difference() if complete else None
    _diagram_at_large_k(table.n_learners, opts)
    report = None if opts.family is None else build_posthoc(
        engine, ranked.mean_ranks, family=opts.family, control=opts.control,
        procedures=opts.procedures, rankings=rankings, force=opts.force_posthoc,
        alternative=opts.alternative)
    if not complete:
        verdict = decide(table, ranked.mean_ranks, results, None, engine, alpha=opts.alpha,
                         procedure=opts.verdict_procedure, ranking="wilcoxon")
        return Frequentist(engine, report, None, verdict, {},
                           _incomplete_notes(table, opts.used_pair, shared))
    verdict = decide(table, ranked.mean_ranks, results, opts.used_pair, engine,
                     alpha=opts.alpha, procedure=opts.verdict_procedure)
    figures = plan_figures(engine, table.learners, ranked.mean_ranks, verdict, alpha=opts.alpha,
                           diagram_procedure=opts.diagram_procedure, force=opts.force_posthoc,
                           top=opts.top)
    return Frequentist(engine, report, cd, verdict, figures)


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


def _incomplete_rankings(opts) -> list:
    chosen = resolve_rankings(opts.rankings) if opts.rankings else ["wilcoxon"]
    bad = [r for r in chosen if r not in INCOMPLETE_RANKINGS]
    if bad and opts.family is not None:
        raise RankwiseError(f"the {bad[0]} ranking needs a complete table; with missing cells"
                            f" use {' or '.join(INCOMPLETE_RANKINGS)}")
    return chosen


def _incomplete_notes(table, pair, shared) -> tuple:
    notes = [f"The table has {len(table.missing_cells)} missing cell(s), all other cells"
             " kept (policy skillings-mack): the omnibus test is the Skillings-Mack test,"
             " pairwise tests use the data sets each pair shares (their numbers are in"
             " the JSON), and there is no critical-difference diagram, multiple sign test"
             " or contrast estimation."]
    if pair:
        notes.append(f"The two-learner tests of {pair[0]} and {pair[1]} use the {shared} data"
                     " sets where both have values.")
    return tuple(notes)


def _two_learners(table, ranked, results, shared, opts) -> Frequentist:
    pair, mean_r = opts.used_pair, ranked.mean_ranks
    if not opts.complete:
        verdict = decide(table, mean_r, results, pair, None, alpha=opts.alpha)
        return Frequentist(None, None, None, verdict, {}, (
            f"The table has missing cells: the two-learner tests use the {shared} data"
            f" sets where both {pair[0]} and {pair[1]} have values.",))
    if opts.family is not None:
        raise RankwiseError("post-hoc comparisons need at least 3 learners; with 2, the"
                            " two-learner tests already answer the question")
    verdict_tests = results
    if "wilcoxon" not in results:
        a, b = (ranked.x[:, table.learners.index(name)] for name in pair)
        verdict_tests = {**results, **two_learner_tests(a, b, ["wilcoxon"], opts,
                                                         table.higher_is_better)}
    verdict = decide(table, mean_r, verdict_tests, pair, None, alpha=opts.alpha)
    return Frequentist(None, None, None, verdict, None)


def effects_and_bayesian(table, ranked: Ranked, verdict, opts) -> tuple:
    """``(effects, bayesian, verdict, notes, settings)``: effect sizes and the Bayesian test of
    the family (see :mod:`.effects`), the verdict with the size of its differences, and the note
    when effects were left out."""
    chosen, pairs, notes = _effect_pairs(table, ranked.mean_ranks, verdict, opts)
    sizes = bayes = ()
    settings = {"effects": opts.effects != "none" and chosen is not None}
    if settings["effects"]:
        settings["effects_pairs"] = "all" if len(chosen) == len(pairs) else "verdict"
        sizes = compute_effects(table, ranked.x, chosen, confidence=opts.used_confidence,
                                decimals=opts.decimals)
        settings["effects_confidence"] = opts.used_confidence
        sentence = magnitude_sentence(sizes, verdict, opts.used_confidence)
        if sentence:
            verdict = with_sentence(verdict, sentence)
    if opts.bayesian is not None and opts.bayesian not in BAYESIAN_MODELS:
        pairs, note = _bayesian_pairs(table, ranked.mean_ranks, pairs, verdict, opts)
        notes += note
        bayes = compute_bayesian(table, ranked.x, pairs, test=opts.bayesian, rope=opts.rope,
                                 samples=opts.samples, seed=opts.seed, threshold=opts.threshold,
                                 decimals=opts.decimals)
        if not bayes:
            raise RankwiseError(f"the {opts.bayesian} test found no data set on which a"
                                " pair has two or more matching fold results")
        sampled = opts.bayesian != "correlated-t"
        drawn = bayes[0].samples if opts.bayesian == "hierarchical" else opts.samples
        settings.update(bayesian=opts.bayesian, rope=float(opts.rope),
                        bayesian_samples=drawn if sampled else None,
                        bayesian_seed=opts.seed if sampled else None,
                        bayesian_threshold=opts.threshold)
    return sizes, bayes, verdict, notes, settings


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


def whole_table_model(table, opts) -> tuple:
    """``(model, settings)``: a Bayesian model of the whole table (``bayesian=`` one of the
    models), or ``(None, {})``."""
    if opts.bayesian not in BAYESIAN_MODELS or not opts.complete:
        return None, {}
    from .bayesian import bayesian_model

    return (bayesian_model(table, opts.bayesian, seed=opts.seed),
            {"bayesian": opts.bayesian, "bayesian_seed": opts.seed})


def bayesian_verdict(verdict, table, mean_r, bayes, model, opts) -> tuple:
    """``(verdict, settings)``: with ``verdict="bayesian"`` the verdict led by the posterior's
    statement (:mod:`.bayes_verdict`); otherwise the verdict as it is."""
    settings = {"verdict": opts.verdict}
    if opts.verdict != "bayesian":
        return verdict, settings
    from .bayes_verdict import from_model, from_pairs, speak_bayesian

    threshold = float(opts.threshold)
    if model is not None:
        return speak_bayesian(verdict, from_model(model, threshold)), settings
    order = [table.learners[j] for j in np.argsort(mean_r, kind="stable")]
    return speak_bayesian(verdict, from_pairs(bayes, order[0], order[1:], threshold)), settings


@dataclass(frozen=True)
class PoolViews:
    """The analyses that look at the pool as a whole: the pool check, the multi-comparison
    matrix and the Scott-Knott groups (each None unless asked for), and the verdict with their
    sentences."""

    pool_check: object
    mcm: object
    groups: object
    group_samples: object
    verdict: object


def pool_views(table, ranked: Ranked, verdict, opts) -> PoolViews:
    x, hib = ranked.x, table.higher_is_better
    pool = matrix = rank_groups = group_samples = None
    if opts.pool_check:
        from .pool import pool_check as check_pool

        chosen = resolve_rankings(opts.rankings)[0] if opts.rankings is not None else "friedman"
        pool = check_pool(x, ranked.ranks, table.learners, hib, opts.as_dict(), ranking=chosen,
                          procedure=opts.diagram_procedure,
                          verdict_procedure=opts.verdict_procedure)
        verdict = with_sentence(verdict, pool.sentence())
    if opts.mcm:
        from .mcm import multi_comparison_matrix

        matrix = multi_comparison_matrix(table.values, table.learners, higher_is_better=hib,
                                         decimals=opts.decimals, convention=opts.convention,
                                         holm=opts.mcm == "holm", alpha=opts.alpha)
    if opts.groups is not None:
        rank_groups, group_samples = _groups(table, x, opts)
        verdict = with_sentence(verdict, rank_groups.sentence())
    return PoolViews(pool, matrix, rank_groups, group_samples, verdict)


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


def with_filled_cells(verdict, table):
    """The verdict with the assumption it rests on when missing cells were filled."""
    if not table.filled_cells:
        return verdict
    how = ("the worst score on its data set" if table.missing_policy == "worst" else
           f"{imputed_from(table.missing_policy)}'s score on its data set")
    return with_sentence(verdict, f"{len(table.filled_cells)} missing result(s) were filled with"
                                  f" {how} (--missing {table.missing_policy}).")


def rank_intervals(ranked: Ranked, opts) -> tuple:
    """``(intervals, settings)``: the mean ranks' intervals and how they were obtained."""
    intervals, how = mean_rank_intervals(ranked.ranks, confidence=opts.used_confidence)
    return intervals, {"mean_rank_intervals": {
        "method": how, "confidence": opts.used_confidence,
        "replicates": RANK_BOOTSTRAP_REPLICATES if how == "bootstrap" else None,
        "seed": RANK_BOOTSTRAP_SEED if how == "bootstrap" else None}}


def rank_sets(table, ranked: Ranked, opts) -> tuple:
    """``(sets, settings)``: confidence sets for the ranks at 1 − alpha (``rank_sets=``), by
    mean rank or by mean score, or ``(None, {})``."""
    if opts.rank_sets is None:
        return None, {}
    common = dict(learners=table.learners, coverage=1.0 - opts.alpha,
                  simultaneous=not opts.rank_sets_marginal, seed=opts.seed)
    if opts.rank_sets == "ranks":
        sets = mean_rank_sets(ranked.ranks, **common)
    else:
        x = ranked.x
        sets = rank_confidence_sets(x.mean(axis=0), np.cov(x, rowvar=False) / x.shape[0],
                                    larger_is_better=table.higher_is_better, **common)
    return sets, {"rank_sets": {"basis": opts.rank_sets, "simultaneous": sets.simultaneous,
                                "coverage": sets.coverage, "draws": sets.draws,
                                "seed": sets.seed, "stepdown": sets.stepdown}}


def with_rank_sets(verdict, sets, basis):
    """The verdict with what the rank sets say of the best: who could be it, at what level."""
    if sets is None:
        return verdict
    return with_sentence(verdict, rank_set_sentence(sets, basis))


def rank_set_sentence(sets, basis) -> str:
    """What the rank sets say, in a sentence or two: who could be the best, the first one's
    rank, and (joint sets) the tiers."""
    level = f"{100 * sets.coverage:g}%"
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


def dataset_check(table, ranked: Ranked, freq: Frequentist, verdict, opts) -> tuple:
    """``(check, verdict)``: with ``dataset_check=True``, which data sets carry each claim of
    the verdict (and of the CD diagram, with the all-pairs family), and the verdict with what
    it found; else ``(None, verdict)``."""
    if not opts.dataset_check:
        return None, verdict
    from .dataset_check import dataset_check as check_datasets

    pairs = opts.family in ("all", "both")
    found = check_datasets(ranked.ranks, table.learners, table.datasets, alpha=opts.alpha,
                           convention=opts.convention, friedman_method=opts.friedman_method,
                           verdict_procedure=opts.verdict_procedure,
                           pair_procedure=opts.diagram_procedure if pairs else None,
                           force_posthoc=opts.force_posthoc,
                           gate_passed=freq.verdict.gate.passed)
    return found, with_sentence(verdict, found.sentence())


def multiverse(table, verdict, figures, opts, rerun) -> tuple:
    """``(multiverse, verdict, figures)``: with ``multiverse=``, the verdict rerun over the
    grid (each analysis by ``rerun``, :func:`rankwise.compare`), its sentence added to the
    verdict and its figure to the plan; else None and the two as they are."""
    if opts.multiverse is None:
        return None, verdict, figures
    from types import SimpleNamespace

    from .figures import plan_multiverse
    from .multiverse import multiverse as rerun_over_grid

    base = SimpleNamespace(table=table, options=opts.as_dict(), verdict=verdict)
    found = rerun_over_grid(base, opts.multiverse, rerun=rerun)
    return (found, with_sentence(verdict, found.sentence()),
            {**figures, "multiverse": plan_multiverse(found, opts.alpha)})


def per_dataset(table, ranked: Ranked, verdict, opts):
    """With ``per_dataset=``, every learner against the base (``control``, else the best mean
    rank) on every data set, from the fold-level results; else None."""
    if opts.per_dataset is None:
        return None
    from .per_dataset import per_dataset as by_dataset

    base = opts.control if opts.control not in (None, "best") else \
        table.learners[int(np.argmin(np.where(np.isnan(ranked.mean_ranks), np.inf,
                                              ranked.mean_ranks)))]
    return by_dataset(table, base, alpha=opts.alpha, tests=opts.per_dataset,
                      adjust_over=opts.per_dataset_adjust, test_fraction=opts.test_fraction,
                      rope=opts.rope, threshold=opts.threshold, decimals=opts.decimals,
                      all_pairs=opts.family in ("all", "both"))


#: Letters for more learners than this (``--top 0`` at large k) are not computed: nobody reads
#: them, and the groups of a thousand learners take minutes.
LETTERS_MAX_LEARNERS = 100


def letters(table, ranked: Ranked, freq: Frequentist, opts) -> tuple:
    """``(display, freq)``: with the all-pairs family (``posthoc="all"`` or ``"both"``), the
    compact letter display of the CD diagram's decisions for the learners a report shows
    (``top``, best first), and the diagram's caption naming them; else ``(None, freq)``."""
    plan = (freq.figures or {}).get("cd_diagram")
    if opts.family not in ("all", "both") or plan is None or not plan.drawn:
        return None, freq
    order = [int(j) for j in np.argsort(ranked.mean_ranks, kind="stable")][:opts.top]
    if len(order) > LETTERS_MAX_LEARNERS:
        return None, freq
    fam, _, _ = freq.engine.family(plan.ranking, "all_pairs", (plan.procedure,), None)
    sig = significant_among(fam, plan.procedure, plan.alpha, order)
    try:
        display = compact_letters([table.learners[j] for j in order], sig)
    except RankwiseError:  # more letters than a person can read: the figure says none
        return None, freq
    shown = ", ".join(f"{name} {mark}" for name, mark in zip(display.learners, display.letters))
    caption = (f"{plan.caption} Letters (learners that share one are not significantly"
               f" different): {shown}.")
    figures = {**freq.figures, "cd_diagram": replace(plan, caption=caption)}
    return display, replace(freq, figures=figures)


def with_rank_set_figure(figures: dict, sets, check, ranked: Ranked, opts) -> dict:
    """The figures with the rank sets' (and the data-set check's marks) when there are sets."""
    if sets is None:
        return figures
    return {**figures, "rank_sets": plan_rank_sets(sets, ranked.mean_ranks, check, opts.alpha,
                                                   opts.rank_sets)}


def with_per_dataset_figure(figures: dict, found, ranked: Ranked, table, opts) -> dict:
    """The figures with the per-data-set forest plot when there are per-data-set tests."""
    if found is None:
        return figures
    from .figures import plan_per_dataset

    return {**figures, "per_dataset": plan_per_dataset(found, ranked.mean_ranks, table.learners,
                                                       opts.alpha)}


def figure_plan(table, freq: Frequentist, bayes, model, views: PoolViews, verdict, intervals,
                interval_settings: dict, opts) -> dict:
    """Every figure's plan: the frequentist ones, the Bayesian simplices and P(best), the MCM
    and groups, with rank intervals and the every-learner figure above ``top`` learners. A
    table with missing cells has the simplices only."""
    figures = {**(freq.figures or {}), **simplex_figures(bayes, opts.alpha)}
    if not opts.complete:
        return figures
    if views.groups is not None:
        figures["groups"] = plan_groups(views.groups, views.group_samples)
    if views.mcm is not None:
        figures["mcm"] = plan_mcm(views.mcm)
    if model is not None:
        figures["p_best"] = plan_p_best(model, opts.alpha)
    how = interval_settings["mean_rank_intervals"]
    if figures and opts.rank_intervals:
        figures = with_rank_intervals(figures, table.learners, intervals, how)
    if figures and opts.top is not None and table.n_learners > opts.top:
        figures = {**figures, **every_learner_figure(table.learners, intervals, verdict, how,
                                                     opts.alpha, opts.top)}
    return figures
