"""``rankwise compare``: a table of learners x data sets, scored items (``--items``) or a front
of criteria (``--criteria``)."""

from __future__ import annotations

import typer

from ..cli_options import D, P
from ..defaults import FRONT_SUMMARY
from ..errors import RankwiseError
from ..option_table import READ
from .driver import (command, fail, given_on_line, is_items_input, one_line,
                     read_items_input, read_table, separator)

C, CD = P.compare, D.compare


def compare(
    input: C.input = CD.input, example: C.example = CD.example,
    criterion: C.criterion = CD.criterion, higher_is_better: C.higher_is_better = CD.higher_is_better,
    aggregate: C.aggregate = CD.aggregate, shape: C.shape = CD.shape,
    columns: C.columns = CD.columns, source_format: C.source_format = CD.source_format,
    missing: C.missing = CD.missing, duplicates: C.duplicates = CD.duplicates,
    where: C.where = CD.where, sep: C.sep = CD.sep, decimal: C.decimal = CD.decimal,
    # the analysis: each option's type and default as rankwise.option_table declares it
    decimals: C.decimals = CD.decimals, alpha: C.alpha = CD.alpha,
    convention: C.convention = CD.convention, tests: C.tests = CD.tests, pair: C.pair = CD.pair,
    trend: C.trend = CD.trend,
    alternative: C.alternative = CD.alternative, zero_method: C.zero_method = CD.zero_method,
    wilcoxon_method: C.wilcoxon_method = CD.wilcoxon_method,
    continuity_correction: C.continuity_correction = CD.continuity_correction,
    sign_ties: C.sign_ties = CD.sign_ties, friedman_method: C.friedman_method = CD.friedman_method,
    posthoc: C.posthoc = CD.posthoc, control: C.control = CD.control,
    procedures: C.procedures = CD.procedures, ranking: C.ranking = CD.ranking,
    force_posthoc: C.force_posthoc = CD.force_posthoc,
    verdict_procedure: C.verdict_procedure = CD.verdict_procedure,
    diagram_procedure: C.diagram_procedure = CD.diagram_procedure,
    bh_time_budget: C.bh_time_budget = CD.bh_time_budget, pool_check: C.pool_check = CD.pool_check,
    mcm: C.mcm = CD.mcm, groups: C.groups = CD.groups, rank_sets: C.rank_sets = CD.rank_sets,
    marginal_rank_sets: C.marginal_rank_sets = CD.marginal_rank_sets,
    dataset_check: C.dataset_check = CD.dataset_check, multiverse: C.multiverse = CD.multiverse,
    per_dataset: C.per_dataset = CD.per_dataset,
    per_dataset_adjust: C.per_dataset_adjust = CD.per_dataset_adjust,
    per_dataset_marks: C.per_dataset_marks = CD.per_dataset_marks,
    test_fraction: C.test_fraction = CD.test_fraction, effects: C.effects = CD.effects,
    no_effects: C.no_effects = CD.no_effects, confidence: C.confidence = CD.confidence,
    bayesian: C.bayesian = CD.bayesian, rope: C.rope = CD.rope, draws: C.draws = CD.draws,
    seed: C.seed = CD.seed, threshold: C.threshold = CD.threshold, verdict: C.verdict = CD.verdict,
    top: C.top = CD.top, digits: C.digits = CD.digits,
    rank_intervals: C.rank_intervals = CD.rank_intervals,
    figure_title: C.figure_title = CD.figure_title,
    fmt: C.fmt = CD.fmt, output: C.output = CD.output, report: C.report = CD.report,
    pairs: C.pairs = CD.pairs, significant_pairs: C.significant_pairs = CD.significant_pairs,
    include_table: C.include_table = CD.include_table,
    figure_width: C.figure_width = CD.figure_width,
    latex_fragment: C.latex_fragment = CD.latex_fragment,
    items: C.items = CD.items, metric: C.metric = CD.metric,
    item_filter: C.item_filter = CD.item_filter, cluster: C.cluster = CD.cluster,
    criteria: C.criteria = CD.criteria, ordinal: C.ordinal = CD.ordinal,
    permutations: C.permutations = CD.permutations,
    summary: C.summary = CD.summary, ctx: typer.Context = None,
):
    """Compare learners on a table of scores, another tool's results file, scored items (--items) or two or more criteria as a front (--criteria A,B). Omnibus or two-learner tests, post-hoc procedures, effect sizes and a verdict."""
    from ..option_table import api_values

    given = dict(locals())
    options = api_values(given)
    if criteria is not None or (criterion is not None and "," in criterion) \
            or ordinal is not None or summary != FRONT_SUMMARY:
        return compare_criteria(given, options)
    with one_line():
        scored_items = items or is_items_input(input, example, source_format)
    if no_effects:
        options["effects"] = "none"
    if scored_items:
        if not given_on_line(ctx, "seed"):   # both levels take the items' own seed
            del options["seed"]
            given["seed"] = None
        return compare_items(given, options)
    return compare_table(given, options)


def compare_table(given: dict, options: dict) -> None:
    """compare on a table of learners x data sets (rankwise.compare)."""
    from ..analysis import compare as run_compare
    from ..analysis.option_groups import grouped
    from ..report import render

    multiverse, pairs = given["multiverse"], given["pairs"]
    grid = multiverse if multiverse not in (None, "default") else None
    with command("compare", given, what="an INPUT", writes={"--pairs": pairs},
                 inputs={"the input": given["input"], "the grid": grid}) as out:
        for name, flag in (("metric", "--metric"), ("item_filter", "--item-filter"),
                           ("cluster", "--cluster")):
            if given[name] is not None:
                raise RankwiseError(f"{flag} goes with scored items (--items)")
        if given["latex_fragment"] and given["fmt"] != "latex":
            raise RankwiseError("--latex-fragment goes with --format latex")
        if pairs is not None:
            from ..report.pairs_file import check_pairs_path

            check_pairs_path(pairs)
        elif given["significant_pairs"]:
            raise RankwiseError("--significant-pairs goes with --pairs FILE")
        table = read_table(given["input"], given["example"],
                           **{o.name: given[o.name] for o in READ})
        if pairs is not None:   # before the analysis: the table says how many pairs
            from ..report.pairs_file import needs_all_pairs

            why = needs_all_pairs(table.n_learners, given["posthoc"])
            if why:
                raise RankwiseError(why)
        result = run_compare(table, **grouped(options))
        out.finish(result, lambda: render(
            result, given["fmt"], include_table=given["include_table"],
            fragment=given["latex_fragment"], width=out.width),
            between=lambda: pairs is not None and write_pairs_file(
                result, pairs, given["significant_pairs"]))


def write_pairs_file(result, path, significant_only: bool) -> None:
    """``--pairs FILE``, with one line saying what was written."""
    from pathlib import Path

    from ..report.pairs_file import write_pairs
    from .staging import current

    path = Path(path)
    try:   # staged in a folder of its own: there may be a file per ranking
        names = current().folder(lambda folder: write_pairs(
            result, Path(folder) / path.name, significant_only), path.parent)
    except OSError as exc:
        raise RankwiseError(f"cannot write {path}: {exc.strerror or exc}; nothing was"
                            " written") from None
    paths = [path.parent / Path(name).name for name in names]
    current().say(f"rankwise: wrote the pairs to {', '.join(map(str, paths))}")


def compare_items(given: dict, options: dict) -> None:
    """compare --items: both levels, in any report format, and --report DIR."""
    from ..analysis.items import compare_items as run_items
    from ..analysis.option_groups import grouped
    from ..report.items import render_items

    with command("compare", given, what="an INPUT", inputs={"the input": given["input"]}) as out:
        if given["pairs"] is not None:
            raise RankwiseError("--pairs is not written for scored items yet; the JSON"
                                " (-f json) holds every pair of every task")
        if given["latex_fragment"]:
            raise RankwiseError("--latex-fragment is not written for scored items; -f"
                                " latex writes the whole document")
        table = read_items_input(given["input"], given["example"], given["source_format"],
                                 metric=given["metric"], filter=given["item_filter"],
                                 cluster=given["cluster"], missing=given["missing"],
                                 sep=separator(given["sep"]), decimal=given["decimal"],
                                 columns=given["columns"], duplicates=given["duplicates"])
        # the across-task comparison takes every analysis option compare was given;
        # compare_items' own seed where --seed was not given (None); a --seed equal to
        # compare's default is the user's choice, and is used
        seeded = {} if given["seed"] is None else {"seed": given["seed"]}
        result = run_items(table, alpha=given["alpha"], confidence=given["confidence"],
                           across=grouped(options), **seeded)
        out.finish(result, lambda: render_items(result, given["fmt"], out.width))


def compare_criteria(given: dict, options: dict) -> None:
    """compare --criteria A,B: the better-and-cheaper front (rankwise.compare_criteria)."""
    from ..analysis.fronts import compare_criteria as run_criteria
    from ..option_table import command_words
    from ..tables.sources import parse_columns

    criteria = given["criteria"] if given["criteria"] is not None else given["criterion"]
    if criteria is None:
        fail("--ordinal and --summary go with --criteria A,B (two or more criteria)")
    with command("compare", given, what="an INPUT", inputs={"the input": given["input"]}) as out:
        if given["criteria"] is not None and given["criterion"] is not None:
            raise RankwiseError(f"--criterion {given['criterion']} and --criteria"
                                f" {given['criteria']}: give one (--criteria A,B for a front of"
                                " criteria)")
        for flag, name in (("--items", "items"), ("--pairs", "pairs"), ("--metric", "metric")):
            if given[name]:
                raise RankwiseError(f"{flag} does not go with --criteria (a front of criteria)")
        if given["higher_is_better"] is not None:
            raise RankwiseError("--higher-is-better/--lower-is-better do not go with"
                                " --criteria: each criterion's direction comes from its name"
                                " (times, errors and losses are lower-is-better)")
        other = command_words({k: v for k, v in options.items()
                               if k not in ("alpha", "confidence", "seed")})
        if other:
            raise RankwiseError(f"{other[0]} does not go with --criteria; a front takes"
                                f" --alpha, --confidence, --seed, --ordinal, --permutations"
                                f" and the input options")
        read = {name: given[name] for name in ("shape", "aggregate", "columns", "source_format",
                                               "missing", "duplicates", "where", "sep",
                                               "decimal")}
        read.update(columns=parse_columns(read["columns"]), sep=separator(read["sep"]))
        names_ = [c.strip() for c in criteria.split(",") if c.strip()]
        if given["example"] is not None:
            from ..examples import load_example

            data = [load_example(given["example"], criterion=c, **read) for c in names_]
        else:
            data = given["input"]
        settings = {"alpha": options["alpha"], "seed": options["seed"],
                    "permutations": given["permutations"], "summary": given["summary"]}
        if options.get("confidence") is not None:
            settings["confidence"] = options["confidence"]
        if given["ordinal"] is not None:
            settings["ordinal"] = [c.strip() for c in given["ordinal"].split(",") if c.strip()]
        result = run_criteria(data, names_, **settings,
                              **({} if given["example"] is not None else read))
        out.finish(result, lambda: result.render(given["fmt"], width=out.width))
