"""The ``rankwise`` command line. User mistakes print one line and exit with 2."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
import typer.main

from . import names, option_table
from .cli_options import Board, Fronts, In, Items, NoEffects, Out, Pool, Racing, Study
from .cli_options import CommandDefaults, Commands
from .cli_options import Defaults as D, Options as O
from .defaults import FRONT_PERMUTATIONS, FRONT_SUMMARY
from ._paths import refuse_clashes
from .errors import RankwiseError

# Each command's options from the option table, by name (compare's are O and D).
P, PD = Commands.power, CommandDefaults.power
R, RD = Commands.race, CommandDefaults.race
B, BD = Commands.leaderboard, CommandDefaults.leaderboard
C, CD = Commands.curves, CommandDefaults.curves
A, AD = Commands.audit, CommandDefaults.audit

app = typer.Typer(add_completion=True, no_args_is_help=True,
                  help="Compare learners over many data sets, with the statistics done right.",
                  pretty_exceptions_enable=False)

def fail(message: str) -> None:
    from ._text import visible

    typer.echo(f"rankwise: error: {visible(message)}", err=True)
    raise typer.Exit(2)


def write_folder(write, folder: Path) -> None:
    """``write(folder)`` (which returns the paths written), with one line either way; each
    :class:`RankwiseWarning` it raised is printed as a note."""
    import warnings

    from .errors import RankwiseWarning

    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", RankwiseWarning)
            paths = write(folder)
    except OSError as exc:
        raise RankwiseError(f"cannot write the report to {folder}: {exc.strerror or exc};"
                            " nothing in it was changed") from None
    for w in caught:
        if issubclass(w.category, RankwiseWarning):
            typer.echo(f"rankwise: note: {w.message}", err=True)
        else:
            warnings.showwarning(w.message, w.category, w.filename, w.lineno)
    typer.echo(f"rankwise: wrote {len(paths)} files to {folder}", err=True)


def figure_inches(value, report):
    """``--figure-width`` checked: it goes with ``--report``."""
    if value is None:   # without it, no figure module (matplotlib: half a second) is loaded
        return None
    from .report.diagrams import figure_width

    if report is None:
        raise RankwiseError("--figure-width sizes the figures of --report DIR; add --report")
    return figure_width(value)


def write_pairs_file(result, path: Path, significant_only: bool) -> None:
    """``--pairs FILE``, with one line saying what was written."""
    from .report.pairs_file import write_pairs

    try:
        paths = write_pairs(result, path, significant_only)
    except OSError as exc:
        raise RankwiseError(f"cannot write {path}: {exc.strerror or exc}; nothing was"
                            " written") from None
    typer.echo(f"rankwise: wrote the pairs to {', '.join(map(str, paths))}", err=True)


def check_destinations(output: Optional[Path], folder: Optional[Path] = None) -> None:
    """Before any work: ``-o FILE`` names a file in an existing folder, ``--report DIR`` a
    folder (not a file, not an empty name)."""
    if folder is not None:
        if str(folder) in ("", "."):
            raise RankwiseError("--report needs the name of a folder to write into (e.g."
                                " --report results/report)")
        if folder.exists() and not folder.is_dir():
            raise RankwiseError(f"--report {folder}: is a file; give a folder")
        for parent in folder.parents:
            if parent.exists() and not parent.is_dir():
                raise RankwiseError(f"--report {folder}: {parent} is a file, not a folder")
    if output is not None:
        if str(output) in ("", "."):
            raise RankwiseError("--output needs a file name")
        if output.is_dir():
            raise RankwiseError(f"{output}: is a folder; give a file name such as"
                                f" {output}/report.txt")
        if output.parent.exists() and not output.parent.is_dir():
            raise RankwiseError(f"{output}: {output.parent} is a file, not a folder")
        if not output.parent.exists():
            raise RankwiseError(f"{output}: the folder {output.parent} does not exist; create it"
                                " first")


def emit(text: str, output: Optional[Path]) -> None:
    """The command's output to the screen, or to ``output``."""
    if output is None:
        sys.stdout.write(text)
        return
    from ._files import write_atomic

    try:
        write_atomic(output, text)
    except OSError as exc:
        raise RankwiseError(f"cannot write {output}: {exc.strerror or exc}; nothing was"
                            " written") from None


def _version(value: bool):
    if value:
        from ._version import __version__
        typer.echo(f"rankwise {__version__}")
        raise typer.Exit()


@app.callback()
def main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      metavar="", help="Print the version and exit.")):
    """rankwise: which learners are really better, and how sure can you be?"""


def _separator(sep):
    """``--sep``: one character; a backslash-t or ``tab`` means a tab."""
    if sep is None:
        return None
    sep = "\t" if sep in ("\\t", "tab", "TAB") else sep
    if len(sep) != 1:
        raise RankwiseError(f"--sep takes one character (e.g. ';' or tab); got {sep!r}")
    return sep


def read_table(path, example, what: str, **options):
    """The table of ``path`` or the bundled ``example`` (exactly one), read with ``options``;
    ``what`` names the file argument in the error."""
    from .examples import load_example
    from .tables.sources import parse_columns

    if (path is None) == (example is None):
        raise RankwiseError(f"give either {what} file or --example NAME (not both)")
    options.update(columns=parse_columns(options["columns"]), sep=_separator(options["sep"]))
    if example is not None:
        return load_example(example, **options)
    from .tables import load_table

    return load_table(path, **options)


def text_width(output) -> int:
    """Text paragraphs are wrapped to the terminal's width on a terminal, else to 80 columns."""
    import shutil

    if output is None and sys.stdout.isatty():
        return max(shutil.get_terminal_size((80, 24)).columns, 40)
    return 80


@app.command()
def compare(
    input: In.File = None, example: In.Example = None, criterion: In.Criterion = None,
    higher_is_better: In.Direction = None, aggregate: In.Aggregate = "median",
    shape: In.Shape = "auto", columns: In.Columns = None, source_format: In.Source = "auto",
    missing: In.Missing = "refuse", duplicates: In.Duplicates = None, where: In.Where = None,
    sep: In.Sep = None, decimal: In.Decimal = None,
    # the analysis: each option's type and default as rankwise.option_table declares it
    decimals: O.decimals = D.decimals, alpha: O.alpha = D.alpha,
    convention: O.convention = D.convention, tests: O.tests = D.tests, pair: O.pair = D.pair,
    trend: O.trend = D.trend,
    alternative: O.alternative = D.alternative, zero_method: O.zero_method = D.zero_method,
    wilcoxon_method: O.wilcoxon_method = D.wilcoxon_method,
    continuity_correction: O.continuity_correction = D.continuity_correction,
    sign_ties: O.sign_ties = D.sign_ties, friedman_method: O.friedman_method = D.friedman_method,
    posthoc: O.posthoc = D.posthoc, control: O.control = D.control,
    procedures: O.procedures = D.procedures, ranking: O.rankings = D.rankings,
    force_posthoc: O.force_posthoc = D.force_posthoc,
    verdict_procedure: O.verdict_procedure = D.verdict_procedure,
    diagram_procedure: O.diagram_procedure = D.diagram_procedure,
    bh_time_budget: O.bh_time_budget = D.bh_time_budget, pool_check: O.pool_check = D.pool_check,
    mcm: O.mcm = D.mcm, groups: O.groups = D.groups, rank_sets: O.rank_sets = D.rank_sets,
    marginal_rank_sets: O.rank_sets_marginal = D.rank_sets_marginal,
    dataset_check: O.dataset_check = D.dataset_check, multiverse: O.multiverse = D.multiverse,
    per_dataset: O.per_dataset = D.per_dataset,
    per_dataset_adjust: O.per_dataset_adjust = D.per_dataset_adjust,
    per_dataset_marks: O.per_dataset_marks = D.per_dataset_marks,
    test_fraction: O.test_fraction = D.test_fraction, effects: O.effects = D.effects,
    no_effects: NoEffects = False, confidence: O.confidence = D.confidence,
    bayesian: O.bayesian = D.bayesian, rope: O.rope = D.rope, draws: O.draws = D.draws,
    seed: O.seed = D.seed, threshold: O.threshold = D.threshold, verdict: O.verdict = D.verdict,
    top: O.top = D.top, digits: O.digits = D.digits,
    rank_intervals: O.rank_intervals = D.rank_intervals,
    figure_title: O.figure_title = D.figure_title,
    fmt: Out.Format = "text", output: Out.Output = None, report: Out.Report = None,
    pairs: Out.Pairs = None, significant_pairs: Out.SignificantPairs = False,
    include_table: Out.IncludeTable = None,
    figure_width: Out.FigureWidth = None, latex_fragment: Out.LatexFragment = False,
    items: Items.Flag = False, metric: Items.Metric = None, item_filter: Items.Filter = None,
    cluster: Items.Cluster = None,
    criteria: Fronts.Criteria = None, ordinal: Fronts.Ordinal = None,
    permutations: Fronts.Permutations = FRONT_PERMUTATIONS,
    summary: Fronts.Summary = FRONT_SUMMARY, ctx: typer.Context = None,
):
    """Rank the learners and run the omnibus (k >= 3) or two-learner (k = 2) tests."""
    from .analysis import compare as run_compare
    from .option_table import api_values
    from .report import render

    given = api_values(locals())
    try:
        if criteria is not None or (criterion is not None and "," in criterion) \
                or ordinal is not None or summary != FRONT_SUMMARY:
            return _compare_criteria(
                input, example, criteria if criteria is not None else criterion, given,
                ordinal=ordinal, permutations=permutations, summary=summary, fmt=fmt,
                output=output,
                report=report, higher_is_better=higher_is_better,
                read=dict(shape=shape, aggregate=aggregate, columns=columns,
                          source_format=source_format, missing=missing,
                          duplicates=duplicates, where=where, sep=sep, decimal=decimal),
                refused={"--items": items, "--pairs": pairs, "--metric": metric})
        if items or _items_input(input, example, source_format):
            from .analysis.option_groups import grouped

            if pairs is not None:
                raise RankwiseError("--pairs is not written for scored items yet; the JSON"
                                    " (-f json) holds every pair of every task")
            if latex_fragment:
                raise RankwiseError("--latex-fragment is not written for scored items; -f"
                                    " latex writes the whole document")
            if no_effects:
                given["effects"] = "none"
            if not _given(ctx, "seed"):   # both levels take the items' own seed
                del given["seed"]
                seed = None
            return _compare_items(input, example, source_format, metric=metric,
                                  item_filter=item_filter, cluster=cluster, missing=missing,
                                  sep=sep, alpha=alpha, confidence=confidence, seed=seed,
                                  fmt=fmt, output=output, across=grouped(given),
                                  report=report, figure_width=figure_width)
        for value, flag_ in ((metric, "--metric"), (item_filter, "--item-filter"),
                             (cluster, "--cluster")):
            if value is not None:
                raise RankwiseError(f"{flag_} goes with scored items (--items)")
        if fmt not in names.REPORT_FORMATS:
            raise RankwiseError(f"--format must be one of {', '.join(names.REPORT_FORMATS)};"
                                f" got {fmt!r}")
        if mcm is not None and mcm not in names.MCM_CHOICES:
            raise RankwiseError(f"--mcm must be plain or holm; got {mcm!r}")
        if latex_fragment and fmt != "latex":
            raise RankwiseError("--latex-fragment goes with --format latex")
        check_destinations(output, report)
        grid = multiverse if multiverse not in (None, "default") else None
        refuse_clashes({"the input": input, "the grid": grid},
                       {"-o": output, "--pairs": pairs}, {"--report": report})
        figure_inches(figure_width, report)
        if pairs is not None:
            from .report.pairs_file import check_pairs_path

            check_pairs_path(pairs)
        elif significant_pairs:
            raise RankwiseError("--significant-pairs goes with --pairs FILE")
        table = read_table(input, example, "an INPUT", shape=shape, criterion=criterion,
                           higher_is_better=higher_is_better, aggregate=aggregate,
                           missing=missing, columns=columns, source_format=source_format,
                           duplicates=duplicates, where=where, sep=sep, decimal=decimal)
        if pairs is not None:   # before the analysis: the table says how many pairs
            from .report.pairs_file import needs_all_pairs

            why = needs_all_pairs(table.n_learners, posthoc)
            if why:
                raise RankwiseError(why)
        if no_effects:
            given["effects"] = "none"
        from .analysis.option_groups import grouped

        result = run_compare(table, **grouped(given))
        if report is not None:
            write_folder(lambda folder: result.write_report(folder, figure_width=figure_width),
                         report)
        if pairs is not None:
            write_pairs_file(result, pairs, significant_pairs)
        emit(render(result, fmt, include_table=include_table, fragment=latex_fragment,
                    width=text_width(output)), output)
    except RankwiseError as exc:
        fail(str(exc))


def _compare_criteria(input, example, criteria, given, *, ordinal, permutations, summary, fmt,
                      output, report, higher_is_better, read, refused):
    """compare --criteria A,B: the better-and-cheaper front (rankwise.compare_criteria)."""
    from .analysis.fronts import compare_criteria
    from .option_table import command_words
    from .tables.sources import parse_columns

    if criteria is None:
        raise RankwiseError("--ordinal and --summary go with --criteria A,B (two or more"
                            " criteria)")
    names_ = [c.strip() for c in criteria.split(",") if c.strip()]
    if (input is None) == (example is None):
        raise RankwiseError("give either an INPUT file or --example NAME (not both)")
    for flag_, value in refused.items():
        if value:
            raise RankwiseError(f"{flag_} does not go with --criteria (a front of criteria)")
    if higher_is_better is not None:
        raise RankwiseError("--higher-is-better/--lower-is-better do not go with --criteria:"
                            " each criterion's direction comes from its name (times, errors"
                            " and losses are lower-is-better)")
    other = command_words({k: v for k, v in given.items()
                           if k not in ("alpha", "confidence", "seed")})
    if other:
        raise RankwiseError(f"{other[0]} does not go with --criteria; a front takes --alpha,"
                            f" --confidence, --seed, --ordinal, --permutations and the input"
                            f" options")
    if fmt not in names.REPORT_FORMATS:
        raise RankwiseError(f"--format must be one of {', '.join(names.REPORT_FORMATS)};"
                            f" got {fmt!r}")
    check_destinations(output, report)
    refuse_clashes({"the input": input}, {"-o": output}, {"--report": report})
    read.update(columns=parse_columns(read["columns"]), sep=_separator(read["sep"]))
    if example is not None:
        from .examples import load_example

        data = [load_example(example, criterion=c, **read) for c in names_]
    else:
        data = input
    options = {"alpha": given["alpha"], "seed": given["seed"], "permutations": permutations,
               "summary": summary}
    if given.get("confidence") is not None:
        options["confidence"] = given["confidence"]
    if ordinal is not None:
        options["ordinal"] = [c.strip() for c in ordinal.split(",") if c.strip()]
    result = compare_criteria(data, names_, **options,
                              **({} if example is not None else read))
    if report is not None:
        write_folder(result.write_report, report)
    emit(result.render(fmt, width=text_width(output)), output)


def _items_input(input, example, source_format) -> bool:
    """Whether compare's input is scored items: an item example, an item --source, or a file
    whose name or columns say so."""
    from .examples import ITEM_EXAMPLES

    if example is not None:
        return example in ITEM_EXAMPLES
    if source_format in names.ITEM_SOURCES:
        return True
    if source_format != "auto" or input is None or not Path(input).exists():
        return False
    from .tables.items import is_item_file

    return is_item_file(input)


def _read_items_input(input, example, source_format, **options):
    """The scored items of ``input`` or of the bundled item example (compare's and leaderboard's
    one way to read them; ``options`` as :func:`rankwise.read_items` takes them)."""
    from .examples import ITEM_EXAMPLES, load_items_example
    from .tables.items import read_items

    if example is not None:
        if example not in ITEM_EXAMPLES:
            raise RankwiseError(f"--example {example} is a table of learners x data sets, not"
                                f" scored items; the item examples: {', '.join(ITEM_EXAMPLES)}")
        return load_items_example(example, missing=options.get("missing", "refuse"))
    return read_items(input, reader=source_format, **options)


def _compare_items(input, example, source_format, *, metric, item_filter, cluster, missing,
                   sep, alpha, confidence, seed, fmt, output, across, report=None,
                   figure_width=None):
    """compare --items: both levels, in any report format, and --report DIR."""
    from .analysis.items import compare_items
    from .report.diagrams import figure_width as inches
    from .report.items import render_items

    if fmt not in names.REPORT_FORMATS:
        raise RankwiseError(f"--format must be one of {', '.join(names.REPORT_FORMATS)};"
                            f" got {fmt!r}")
    if (input is None) == (example is None):
        raise RankwiseError("give either an INPUT file or --example NAME (not both)")
    check_destinations(output, report)
    refuse_clashes({"the input": input}, {"-o": output}, {"--report": report})
    inches(figure_width)    # a bad width is refused before the analysis runs
    table = _read_items_input(input, example, source_format, metric=metric,
                              filter=item_filter, cluster=cluster, missing=missing,
                              sep=_separator(sep))
    # the across-task comparison takes every analysis option compare was given
    # compare_items' own seed where --seed was not given (None); a --seed equal to compare's
    # default is the user's choice, and is used
    seeded = {} if seed is None else {"seed": seed}
    result = compare_items(table, alpha=alpha, confidence=confidence, across=across,
                           **seeded)
    if report is not None:
        write_folder(lambda folder: result.write_report(folder, figure_width), report)
    emit(render_items(result, fmt, text_width(output)), output)


@app.command()
def power(
    pool: Pool.File = None, example: Pool.Example = None, criterion: Pool.Criterion = None,
    higher_is_better: Pool.Direction = None, missing: Pool.Missing = "refuse",
    columns: Pool.Columns = None, source_format: Pool.Source = "auto",
    duplicates: Pool.Duplicates = None, where: Pool.Where = None, sep: Pool.Sep = None,
    decimal: Pool.Decimal = None,
    learners: P.learners = PD.learners, control: P.control = PD.control,
    sample_size: P.sample_size = PD.sample_size, bias: P.biases = PD.biases,
    draws: P.draws = PD.draws, seed: P.seed = PD.seed, tests: P.tests = PD.tests,
    procedures: P.procedures = PD.procedures, alpha: P.alpha = PD.alpha,
    target_power: P.target_power = PD.target_power, jobs: P.jobs = PD.jobs,
    dask_scheduler: P.dask_scheduler = PD.dask_scheduler,
    fmt: Study.Format = "text", report: Study.Report = None, output: Study.Output = None,
    figure_width: Study.FigureWidth = None,
):
    """How often, and how reproducibly, each test rejects on biased samples of the pool's data sets (Demšar 2006, §4)."""
    from .power import power_study

    try:
        _analysis_format(fmt)
        if missing == "skillings-mack":
            raise RankwiseError("the power study draws complete samples: use --missing"
                                " drop-datasets or drop-learners")
        check_destinations(output, report)
        refuse_clashes({"the pool": pool}, {"-o": output}, {"--report": report})
        figure_inches(figure_width, report)   # checked before the study runs
        table = read_table(pool, example, "a POOL", criterion=criterion,
                           higher_is_better=higher_is_better, missing=missing, columns=columns,
                           source_format=source_format, duplicates=duplicates, where=where,
                           sep=sep, decimal=decimal)
        study = power_study(table, learners=learners, control=control, sample_size=sample_size,
                            biases=bias, draws=draws, seed=seed, tests=tests,
                            procedures=procedures, alpha=alpha, target_power=target_power,
                            jobs=jobs, dask_scheduler=dask_scheduler)
        _emit_analysis(study, fmt, output, report, figure_width)
    except RankwiseError as exc:
        fail(str(exc))


@app.command()
def race(
    input: In.File = None, example: In.Example = None, criterion: In.Criterion = None,
    higher_is_better: In.Direction = None, aggregate: In.Aggregate = "median",
    shape: In.Shape = "auto", columns: In.Columns = None, source_format: In.Source = "auto",
    missing: In.Missing = "refuse", duplicates: In.Duplicates = None, where: In.Where = None,
    sep: In.Sep = None, decimal: In.Decimal = None,
    alpha: R.alpha = RD.alpha, goal: R.goal = RD.goal, order: R.order = RD.order,
    seed: R.seed = RD.seed, fmt: Racing.Format = "text", report: Racing.Report = None,
    figure: Racing.Figure = None, output: Racing.Output = None, ctx: typer.Context = None,
):
    """Replay a race over a finished table: eliminate a learner as soon as another beats it, with a guarantee that holds whenever the race stops. On a results file of rankwise run --race: that race."""
    from dataclasses import replace

    from .stats.racing import race as run_race

    try:
        _analysis_format(fmt)
        if order not in ("random", "given"):
            raise RankwiseError(f"--order must be random or given; got {order!r}")
        check_destinations(output, report)
        refuse_clashes({"the input": input}, {"-o": output, "--figure": figure},
                       {"--report": report})
        from . import _validate

        _validate.alpha(alpha)   # every option first, then the table, then its notes
        _validate.seed(seed)
        top = _goal(goal)
        if figure is not None:
            _check_figure_path(figure)
        result = _run_race_of(input, ctx) if input is not None else None
        if result is None:
            table = read_table(input, example, "an INPUT", shape=shape, criterion=criterion,
                               higher_is_better=higher_is_better, aggregate=aggregate,
                               missing=missing, columns=columns, source_format=source_format,
                               duplicates=duplicates, where=where, sep=sep, decimal=decimal)
            from .analysis.verdict import direction_sentence

            result = run_race(table, alpha=alpha, goal=top, order=order, seed=seed)
            for note in (*table.warnings, direction_sentence(table)):   # once it could run
                typer.echo(f"rankwise: note: {note}", err=True)
        else:
            result = replace(result, source=str(input))
        if figure is not None:
            _write_race_figure(result, figure)
        _emit_analysis(result, fmt, output, report)
    except RankwiseError as exc:
        fail(str(exc))


def _given(ctx, name: str) -> bool:
    """Whether option ``name`` was given on the command line (not left at its default)."""
    return ctx is not None and getattr(ctx.get_parameter_source(name), "name", "") == \
        "COMMANDLINE"


def _run_race_of(path: Path, ctx):
    """The race ``rankwise run --race`` ran into the results file ``path`` (None for any other
    input). It is shown as it is: an option that would make it another race is refused."""
    from .experiment.racing import recorded_race

    found = recorded_race(path)
    if found is None:
        return None
    result, record = found
    given = [f"--{p.name.replace('_', '-')}" for p in ctx.command.params
             if p.name not in ("input", "fmt", "figure", "output", "report")
             and _given(ctx, p.name)]
    s = record["settings"]
    if given:
        raise RankwiseError(f"{path}: its race was run by rankwise run --race (on"
                            f" {s['criterion']}, alpha {s['alpha']:g}) and is shown as it is,"
                            f" so {', '.join(given)} cannot apply; to replay another race,"
                            f" export the table (rankwise export {path} -o table.csv) and race"
                            " that")
    way = "higher" if s["higher_is_better"] else "lower"
    typer.echo(f"rankwise: note: the race that rankwise run --race ran into {path}, on"
               f" {s['criterion']} ({way} is better; the median of the repeats x folds,"
               f" rounded to {s['decimals']} decimals)" + ("" if record["finished"] else
                                                "; it is unfinished") + f"; outcomes missing"
               f" (a failed task): {record['missing']}", err=True)
    return result


@app.command()
def leaderboard(
    input: In.File = None, example: In.Example = None, criterion: In.Criterion = None,
    higher_is_better: In.Direction = None, columns: In.Columns = None,
    source_format: In.Source = "auto", duplicates: In.Duplicates = None, where: In.Where = None,
    sep: In.Sep = None, decimal: In.Decimal = None,
    anchor: B.anchor = BD.anchor, rounds: B.rounds = BD.rounds, seed: B.seed = BD.seed,
    confidence: B.confidence = BD.confidence, alpha: B.alpha = BD.alpha, by: B.by = BD.by,
    rule: B.rule = BD.rule, decimals: B.decimals = BD.decimals,
    fmt: Board.Format = "text", output: Board.Output = None, report: Board.Report = None,
    figure: Board.Figure = None, matrix_figure: Board.MatrixFigure = None,
):
    """A leaderboard as the benchmarks publish one: Elo with a bootstrap interval over data sets, win rate, mean rank, rank counts, MRR, improvability; who is tied with #1, and what the Friedman test says beside it."""
    from .analysis.leaderboard import leaderboard as board_of
    from .report.board import board_figure, render
    from .tables.sources import parse_columns

    try:
        if fmt not in names.BOARD_FORMATS:
            raise RankwiseError(f"--format must be one of {', '.join(names.BOARD_FORMATS)};"
                                f" got {fmt!r}")
        check_destinations(output, report)
        refuse_clashes({"the input": input}, {"-o": output, "--figure": figure,
                                              "--matrix-figure": matrix_figure},
                       {"--report": report})
        decimals = _decimals(decimals)
        for path in (figure, matrix_figure):
            if path is not None:
                _check_figure_path(path)
        if (input is None) == (example is None):
            raise RankwiseError("give either an INPUT file or --example NAME (not both)")
        from contextlib import nullcontext

        if _items_input(input, example, source_format):
            # scored items: the board of the task-level table (mean per model and task)
            opened = nullcontext(_read_items_input(input, example, source_format).task_table())
            source_format = "auto"
        elif example is not None:
            from importlib.resources import as_file

            from .examples import CRITERIA, example_path
            opened = as_file(example_path(example))
            if criterion is None:   # the example's criterion, as load_example names it
                criterion = CRITERIA.get(example)
        else:
            opened = nullcontext(input)
        with opened as source:
            result = board_of(source, anchor=anchor, rounds=rounds, seed=seed,
                              confidence=confidence, alpha=alpha, by=by, rule=rule,
                              criterion=criterion, higher_is_better=higher_is_better,
                              columns=parse_columns(columns), source_format=source_format,
                              where=where, sep=_separator(sep), decimal=decimal,
                              duplicates=duplicates, decimals=decimals)
        if example is not None:
            from dataclasses import replace
            result = replace(result, source=f"example:{example}")
        if report is not None:
            write_folder(result.write_report, report)
        for path, draw, what in ((figure, board_figure, "the board"),
                                 (matrix_figure, matrix_figure_of, "the win-rate matrix")):
            if path is not None:
                _write_figure(draw(result), path, what)
        emit(render(result, fmt, text_width(output)), output)
    except RankwiseError as exc:
        fail(str(exc))


def _decimals(text: str):
    """``--decimals D|none`` as the analysis takes it (None: no rounding)."""
    if str(text).strip().lower() == "none":
        return None
    try:
        return int(text)
    except ValueError:
        raise RankwiseError(f"--decimals must be a whole number from 0 to 15 or 'none'; got"
                            f" {text!r}") from None


@app.command()
def audit(
    board: Annotated[Optional[Path], typer.Argument(
        help="A published board as printed: models in the first column, one column of"
             " proportions or percentages per task (CSV, TSV or a Markdown table).", show_default=False, metavar="BOARD")],
    counts: Annotated[Optional[str], typer.Option(
        "--counts", metavar="TASK=N,...", help="Item counts of some tasks (the others are"
        " recovered from the rounding).")] = None,
    alpha: A.alpha = AD.alpha, confidence: A.confidence = AD.confidence,
    fmt: Study.Format = "text", report: Study.Report = None, output: Study.Output = None,
):
    """Audit a published board of proportions: the item counts behind each task, each score's interval, the models tied with #1 per task and overall, and what cannot be checked."""
    from .analysis.audit import audit as run_audit

    try:
        _analysis_format(fmt)
        check_destinations(output, report)
        refuse_clashes({"the board": board}, {"-o": output}, {"--report": report})
        result = run_audit(board, counts=_audit_counts(counts), alpha=alpha,
                           confidence=confidence)
        _emit_analysis(result, fmt, output, report)
    except RankwiseError as exc:
        fail(str(exc))


def _audit_counts(counts) -> dict:
    """``--counts TASK=N,...`` as ``{task: N}``."""
    given = {}
    for part in (counts or "").split(","):
        if not part.strip():
            continue
        name, _, value = part.partition("=")
        if not value.strip().isdigit() or int(value) < 1:
            raise RankwiseError(f"--counts takes TASK=N with N a positive whole number;"
                                f" got {part.strip()!r}")
        given[name.strip()] = int(value)
    return given


def _analysis_format(fmt: str) -> None:
    """``--format`` of audit, race and power: one of the report formats."""
    if fmt not in names.REPORT_FORMATS:
        raise RankwiseError(f"--format must be one of {', '.join(names.REPORT_FORMATS)}; got"
                            f" {fmt!r}")


def _emit_analysis(result, fmt: str, output, report, figure_width=None) -> None:
    """An analysis (audit, race, power) in ``fmt`` to the screen or ``-o``, after its report
    folder (every format and figure) when ``--report`` names one: the folder is written whole
    or not at all, before anything is printed."""
    if report is not None:
        write_folder(lambda folder: result.write_report(folder, figure_width=figure_width),
                     report)
    emit(result.render(fmt, width=text_width(output) if fmt == "text" else None), output)


@app.command()
def curves(
    input: Annotated[Optional[Path], typer.Argument(
        help="Curves: a table learner, problem, run, budget, value (CSV, TSV, Parquet), an"
             " IOHprofiler folder, an Optuna storage (.db) or trials table, or a results"
             " database of rankwise run --budgets.", show_default=False, metavar="CURVES")] = None,
    example: Annotated[Optional[str], typer.Option(
        "--example", metavar="NAME", help="A bundled example instead (rankwise examples).")
    ] = None,
    source: Annotated[str, typer.Option(
        "--source", metavar="[auto|" + "|".join(names.CURVE_SOURCES) + "]",
        help="Which reader (auto: from the file's shape).")] = "auto",
    higher_is_better: Annotated[Optional[bool], typer.Option(
        "--higher-is-better/--lower-is-better", show_default=False,
        help="Direction of a table's values (IOHprofiler and Optuna files say it).")] = None,
    values: Annotated[Optional[str], typer.Option(
        "--values", metavar="[raw|running-best]", show_default=False,
        help="Take values as logged or each run's running best [default: raw for a table,"
             " running-best for IOHprofiler and Optuna].")] = None,
    budget_unit: Annotated[str, typer.Option(
        "--budget-unit", metavar="[trials|seconds]",
        help="Optuna: the budget is the trial count or the seconds since the run's first"
             " trial.")] = "trials",
    criterion: Annotated[Optional[str], typer.Option(
        "--criterion", "-c", help="Results database: the criterion (default: its first).")
    ] = None,
    budgets: Annotated[Optional[str], typer.Option(
        "--budgets", metavar="B1,B2,...", show_default=False,
        help="Checkpoints, where everything compare does runs [default: every budget up to"
             " six, else four spread over the budget].")] = None,
    targets: Annotated[str, typer.Option(
        "--targets", metavar="N|T1,T2,...",
        help="Fixed targets: N per problem between its worst and best value, or the same"
             " values on every problem.")] = "10",
    aocc_bounds: Annotated[str, typer.Option(
        "--aocc-bounds", metavar="problem|LOW,HIGH",
        help="AOCC: values normalised to each problem's range or to LOW,HIGH.")] = "problem",
    value_scale: Annotated[str, typer.Option(
        "--value-scale", metavar="[linear|log]", help="AOCC: scale of the values.")] = "linear",
    budget_scale: Annotated[str, typer.Option(
        "--budget-scale", metavar="[linear|log]", help="AOCC: scale of the budget axis.")
    ] = "linear",
    aocc_budget: Annotated[Optional[float], typer.Option(
        "--aocc-budget", show_default=False,
        help="AOCC: integrate up to this budget [default: the largest run budget].")] = None,
    tolerance: C.tolerance = CD.tolerance, alpha: C.alpha = CD.alpha,
    confidence: C.confidence = CD.confidence, seed: C.seed = CD.seed,
    export: Annotated[Optional[str], typer.Option(
        "--export", metavar="aocc|BUDGET", show_default=False,
        help="Write a score table (problems x learners, CSV) for rankwise compare instead of"
             " the report: the AOCC, or the mean over runs at BUDGET.")] = None,
    figure: Annotated[Optional[Path], typer.Option(
        "--figure", metavar="FILE", show_default=False,
        help="Draw rank over budget, convergence, ECDF and profiles (.svg, .pdf, .png).")
    ] = None,
    cd_figure: Annotated[Optional[Path], typer.Option(
        "--cd-figure", metavar="FILE", show_default=False,
        help="Draw one CD diagram per checkpoint in one figure.")] = None,
    fmt: Annotated[str, typer.Option("--format", "-f",
                                     metavar="[text|markdown|html|latex|json]",
                                     help="Output format.")] = "text",
    output: Annotated[Optional[Path], typer.Option("--output", "-o", metavar="FILE",
                                                   help="Write to FILE.")] = None,
    report: Annotated[Optional[Path], typer.Option(
        "--report", metavar="DIR", show_default=False,
        help="Every format and figure (SVG, PDF, PNG) into DIR.")] = None,
):
    """Compare learners along a budget (optimizer traces, learning curves, anytime scores): rank over budget with a simultaneous band, everything compare does at checkpoints, where decisions change, whether more budget helps, AOCC, ERT and ECDF, performance and data profiles, and Optuna's Dewancker ranking."""
    try:
        if fmt not in ("text", "markdown", "html", "latex", "json"):
            raise RankwiseError(f"--format must be text, markdown, html, latex or json; got"
                                f" {fmt!r}")
        if (input is None) == (example is None):
            raise RankwiseError("give either a CURVES file or --example NAME (not both)")
        check_destinations(output, report)
        if report is not None and export is not None:
            raise RankwiseError("--report writes the report; --export writes a score table"
                                " instead of it: give one of them")
        for label, path in (("--figure", figure), ("--cd-figure", cd_figure)):
            if path is not None:
                from .report.diagrams import figure_format

                figure_format(path)
                check_destinations(path, None)
        refuse_clashes({"the curves": input}, {"-o": output, "--figure": figure,
                                                "--cd-figure": cd_figure}, {"--report": report})
        result = _curves_analysis(input, example, source, higher_is_better, values,
                                  budget_unit, criterion, budgets, targets, aocc_bounds,
                                  value_scale, budget_scale, aocc_budget, tolerance, alpha,
                                  confidence, seed)
        if export is not None:
            emit(_curves_export(result, export), output)
        else:
            if report is not None:
                write_folder(result.write_report, report)
            emit(result.render(fmt, width=text_width(output)), output)
        _curves_figures(result, figure, cd_figure)
    except RankwiseError as exc:
        fail(str(exc))


def _numbers(option: str, text: str) -> list:
    try:
        return [float(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise RankwiseError(f"{option} {text!r}: give numbers separated by commas") from None


def _curves_analysis(input, example, source, higher_is_better, values, budget_unit, criterion,
                     budgets, targets, aocc_bounds, value_scale, budget_scale, aocc_budget,
                     tolerance, alpha, confidence, seed):
    from .analysis.curves import AoccOptions, compare_curves
    from .tables.curves import VALUE_KINDS, read_curves

    for option, value, allowed in (("--values", values, VALUE_KINDS),
                                   ("--budget-unit", budget_unit, ("trials", "seconds")),
                                   ("--value-scale", value_scale, ("linear", "log")),
                                   ("--budget-scale", budget_scale, ("linear", "log"))):
        if value is not None and value not in allowed:
            raise RankwiseError(f"{option} must be one of {', '.join(allowed)}; got {value!r}")
    if not 0 < alpha < 1 or not 0 < confidence < 1:
        raise RankwiseError("--alpha and --confidence must lie strictly between 0 and 1")
    if example is not None:
        from .examples import load_curves_example

        curves = load_curves_example(example)
        if values is not None and values != curves.value_kind:
            raise RankwiseError("--values applies to a file read; the example is read as"
                                " logged")
    else:
        curves = read_curves(input, reader=source, maximize=higher_is_better,
                             value_kind=values, budget=budget_unit, criterion=criterion)
    if higher_is_better is not None and curves.maximize != higher_is_better \
            and curves.reader in ("ioh", "optuna"):
        raise RankwiseError(f"{curves.source}: the {curves.reader} files say"
                            f" {'higher' if curves.maximize else 'lower'} is better;"
                            " --higher-is-better/--lower-is-better cannot turn them")
    bounds = aocc_bounds if aocc_bounds == "problem" else tuple(
        _numbers("--aocc-bounds", aocc_bounds))
    if bounds != "problem" and len(bounds) != 2:
        raise RankwiseError(f"--aocc-bounds takes problem or LOW,HIGH; got {aocc_bounds!r}")
    if targets.strip().isdigit():
        goal = int(targets)
        if goal < 1:
            raise RankwiseError("--targets N needs N of 1 or more")
    else:
        goal = _numbers("--targets", targets)
    return compare_curves(
        curves, budgets=_numbers("--budgets", budgets) if budgets else None, alpha=alpha,
        confidence=confidence,
        aocc=AoccOptions(bounds=bounds, value_scale=value_scale, budget_scale=budget_scale,
                         budget=aocc_budget),
        targets=goal, tolerance=tolerance, seed=seed)


def _curves_export(result, what: str) -> str:
    """The score table ``--export`` names, as CSV (data set, then one column per learner)."""
    import io

    if what == "aocc":
        table = result.aocc_comparison.table
    else:
        budget = _numbers("--export", what)
        if len(budget) != 1:
            raise RankwiseError(f"--export takes aocc or one budget; got {what!r}")
        table = result.curves.at_budget(budget[0])
    frame = table.to_frame()
    buffer = io.StringIO()
    frame.to_csv(buffer, index=True, index_label="dataset")
    return buffer.getvalue()


def _curves_figures(result, figure, cd_figure) -> None:
    from .report.curves import checkpoint_figure, curves_figure
    from .report.diagrams import save_figure

    for path, draw in ((figure, curves_figure), (cd_figure, checkpoint_figure)):
        if path is None:
            continue
        fig = draw(result)
        if fig is None:
            typer.echo(f"rankwise: {path}: no CD diagram to draw (no checkpoint has three or"
                       " more learners)", err=True)
            continue
        try:
            save_figure(fig, path)
        except OSError as exc:
            raise RankwiseError(f"cannot write the figure to {path}:"
                                f" {exc.strerror or exc}") from None
        typer.echo(f"rankwise: wrote {path}", err=True)


def board_max() -> int:
    from .analysis.leaderboard import MATRIX_MAX

    return MATRIX_MAX


def matrix_figure_of(result):
    from .report.board import matrix_figure

    fig = matrix_figure(result)
    if fig is None:
        raise RankwiseError(f"--matrix-figure: the win-rate matrix is kept up to"
                            f" {board_max()} learners")
    return fig


def _write_figure(fig, path: Path, what: str) -> None:
    from .report.diagrams import save_figure

    try:
        save_figure(fig, path)
    except OSError as exc:
        raise RankwiseError(f"cannot write the figure to {path}: {exc.strerror or exc}") from None
    typer.echo(f"rankwise: wrote {what} to {path}", err=True)


def _goal(goal: str) -> int:
    """``--goal best`` is 1; ``top:M`` is M."""
    text = str(goal).strip().lower()
    if text == "best":
        return 1
    if text.startswith("top:") and text[4:].isdigit() and int(text[4:]) >= 1:
        return int(text[4:])
    raise RankwiseError(f"--goal must be best or top:M (M a whole number, 1 or more); got"
                        f" {goal!r}")


def _check_figure_path(path: Path) -> None:
    from .report.diagrams import figure_format

    try:
        figure_format(path)
    except RankwiseError as exc:
        raise RankwiseError(f"--figure: {exc}") from None
    check_destinations(path, None)


def _write_race_figure(result, path: Path) -> None:
    from .report.diagrams import save_figure
    from .report.race import race_figure

    try:
        save_figure(race_figure(result), path)
    except OSError as exc:
        raise RankwiseError(f"cannot write the figure to {path}: {exc.strerror or exc}") from None
    typer.echo(f"rankwise: wrote the race to {path}", err=True)


@app.command("run")
def run_command(
    experiment: Optional[Path] = typer.Argument(None, help="Experiment TOML file (it runs code).",
                                                show_default=False),
    results: Path = typer.Option(..., "--results", "-r", help="Results database (SQLite)."),
    example: Optional[str] = typer.Option(None, "--example",
                                          help="Run a bundled experiment instead: demo or race."),
    jobs: int = typer.Option(1, "--jobs", "-j",
                             help="Worker processes (0: in the driver process, no isolation)."),
    dask_scheduler: Optional[str] = typer.Option(
        None, "--dask-scheduler", help="Dask scheduler address, scheduler file, or 'local'."),
    retry_failed: bool = typer.Option(False, "--retry-failed", help="Run failed tasks again."),
    force: bool = typer.Option(False, "--force",
                               help="Continue although the design or library versions changed."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    time_limit: Optional[float] = typer.Option(
        None, "--time-limit", help="Seconds per task (overrides the file's time_limit)."),
    budgets: Optional[str] = typer.Option(
        None, "--budgets", metavar="F1,F2,...", show_default=False,
        help="Learning curves: also train each learner on these nested fractions of every"
             " training part, e.g. 0.1,0.25,0.5,1.0 (overrides the file's budgets)."),
    race: Optional[str] = typer.Option(
        None, "--race", metavar="[CRITERION]", show_default=False,
        help="Race the learners on CRITERION (alone: the file's first criterion): the data sets"
             " one at a time, and a learner the race eliminates is not run on later ones."),
    alpha: Optional[float] = typer.Option(
        None, "--alpha", show_default=False,
        help="Race: chance of any wrong elimination over the whole race [default: 0.05]."),
    goal: Optional[str] = typer.Option(
        None, "--goal", metavar="best|top:M", show_default=False,
        help="Race: stop when the best, or the top M, are left [default: best]."),
    order: Optional[str] = typer.Option(
        None, "--order", metavar="random|given", show_default=False,
        help="Race: the data sets in a random order (the experiment's seed) or the file's"
             " [default: random]."),
):
    """Run R repeats x N-fold cross-validation of learners over data sets; running it again on the same results file continues where it stopped. With --race, stop running the learners a race has eliminated."""
    import signal

    from .experiment import load_experiment, run_experiment
    from .experiment.driver import RunInterrupted
    from .experiment.progress import ProgressBar

    def stop(signum, frame):  # SIGTERM means what Ctrl-C means, from the first moment
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        if (experiment is None) == (example is None):
            raise RankwiseError("give either an EXPERIMENT file or --example NAME (not both)")
        if example is not None:
            from .examples import experiment_path

            with experiment_path(example) as path:
                exp = load_experiment(path)
        else:
            exp = load_experiment(experiment)
        if time_limit is not None:
            from dataclasses import replace

            exp = replace(exp, time_limit=time_limit)
        if budgets is not None:
            from dataclasses import replace

            exp = replace(exp, budgets=tuple(_numbers("--budgets", budgets)))
        settings = _race_settings(race, alpha, goal, order)
        summary = run_experiment(exp, results, jobs=jobs, dask_scheduler=dask_scheduler,
                                 retry_failed=retry_failed, force=force,
                                 progress=ProgressBar(quiet=quiet), race=settings)
        _say_run(summary, results)
    except RankwiseError as exc:
        fail(str(exc))
    except RunInterrupted as exc:
        typer.echo(f"rankwise: {exc}", err=True)
        raise typer.Exit(130)
    except KeyboardInterrupt:
        typer.echo(f"rankwise: interrupted; nothing is lost: run the same command to continue"
                   f" (rankwise status {results} shows what is done)", err=True)
        raise typer.Exit(130)


def _say_run(summary: dict, results: Path) -> None:
    """What a run did, on stderr; exit 1 when every task it needed failed."""
    for note in summary["notes"]:
        typer.echo(f"rankwise: note: {note}", err=True)
    if summary["removed"]:
        typer.echo(f"rankwise: removed {summary['removed']} stored task(s) that belong to no"
                   " task of this experiment (--force)", err=True)
    raced = (f"; the race did not need {summary['race']['tasks_not_needed']}"
             if summary.get("race") else "")
    typer.echo(f"rankwise: {summary['total']} tasks: {summary['already']} were already done,"
               f" {summary['run']} ran now ({summary['failed']} failed){raced};"
               f" {summary['failures_total']} failed in all; results in {results}", err=True)
    if summary.get("race"):
        from .experiment.racing import race_lines

        for line in race_lines(summary["race"], text_width(None) - 10):
            typer.echo(f"rankwise: {line}", err=True)
    if summary["warned"]:
        typer.echo(f"rankwise: {summary['warned']} task(s) raised learner warnings; they are"
                   f" stored with the tasks (rankwise status {results} lists them)", err=True)
    if summary["failures_total"]:
        error, times = summary["common_error"]
        from ._text import visible

        typer.echo(f"rankwise: the most common failure ({times} of"
                   f" {summary['failures_total']}): {visible(error)}", err=True)
    needed = summary["total"] - (summary["race"]["tasks_not_needed"] if summary.get("race")
                                 else 0)
    if needed and summary["failures_total"] >= needed:
        typer.echo(f"rankwise: error: every task failed; nothing to compare (rankwise status"
                   f" {results} lists each failure)", err=True)
        raise typer.Exit(1)


def _race_settings(race, alpha, goal, order):
    """``run --race``'s settings, or None; the race's options without --race are refused."""
    from .experiment.racing import RaceSettings

    if race is None:
        given = [name for name, value in (("--alpha", alpha), ("--goal", goal),
                                          ("--order", order)) if value is not None]
        if given:
            raise RankwiseError(f"{', '.join(given)} set(s) a race: add --race (or --race"
                                " CRITERION)")
        return None
    return RaceSettings(None if race == RACE_FIRST else race,
                        0.05 if alpha is None else alpha,
                        1 if goal is None else _goal(goal), order or "random")


#: What ``--race`` given alone stands for: the experiment's first criterion.
RACE_FIRST = "first"


@app.command()
def status(
    results: Path = typer.Argument(..., help="Results database written by `rankwise run`."),
    fmt: str = typer.Option("text", "--format", "-f", help="text or json."),
):
    """Show a results file: the experiment, tasks done, failed and to do per data set and learner, failures, learner warnings, library versions, and whether a run is writing to it."""
    import json

    from .experiment.status import status as read_status
    from .experiment.status import status_text

    try:
        if fmt not in names.SUMMARY_FORMATS:
            raise RankwiseError(f"--format must be text or json; got {fmt!r}")
        info = read_status(results)
        sys.stdout.write(json.dumps(info, indent=2) + "\n" if fmt == "json" else
                         status_text(info, width=text_width(None)))
    except RankwiseError as exc:
        fail(str(exc))


@app.command()
def export(
    results: Path = typer.Argument(..., help="Results database written by `rankwise run`."),
    fmt: str = typer.Option("csv", "--format", "-f",
                            help="csv, parquet or weka (WEKA's Experimenter result file, ARFF)."),
    output: Path = typer.Option(..., "--output", "-o", help="File to write."),
    curves: bool = typer.Option(False, "--curves",
                                help="The learning curves of a run with --budgets (a budget"
                                     " column), for rankwise curves."),
):
    """Write the long table (dataset, repeat, fold, learner, criterion, value), or WEKA's
    result file."""
    from .experiment.status import read_results

    try:
        if fmt not in ("csv", "parquet", "weka"):
            raise RankwiseError(f"--format must be csv, parquet or weka; got {fmt!r}")
        if not results.exists():
            raise RankwiseError(f"{results}: no such file")
        if output.is_dir():
            raise RankwiseError(f"{output}: is a folder; give a file name such as"
                                f" {output}/results.{fmt}")
        check_destinations(output)
        refuse_clashes({"the results database": results}, {"-o": output})
        table, meta, _ = read_results(results)
        if curves:
            table = _curve_rows(results, fmt)
        try:
            if fmt == "weka":
                from .experiment.weka import weka_results

                text, count, notes = weka_results(table, meta)
                data = text.encode("utf-8")
                for note in notes:
                    typer.echo(f"rankwise: note: {note}", err=True)
            elif fmt == "csv":
                # A name starting with = + - @ would run as a formula in a spreadsheet.
                from ._text import spreadsheet_safe

                names_ = [c for c in ("dataset", "learner", "criterion") if c in table]
                table = table.assign(**{c: table[c].map(spreadsheet_safe) for c in names_})
                data = table.to_csv(index=False).encode("utf-8")
            else:
                data = table.to_parquet(index=False)
            from ._files import write_atomic

            write_atomic(output, data)
        except ImportError:
            raise RankwiseError("Parquet needs pyarrow: pip install 'rankwise[parquet]'") from None
        except OSError as exc:
            raise RankwiseError(f"cannot write {output}: {exc.strerror or exc}") from None
        typer.echo(f"rankwise: wrote {count if fmt == 'weka' else len(table)} rows to {output}",
                   err=True)
    except RankwiseError as exc:
        fail(str(exc))


def _curve_rows(results: Path, fmt: str):
    """``export --curves``: the learning curves as a long table with a budget column."""
    from .experiment.store import Store

    if fmt == "weka":
        raise RankwiseError("--curves writes csv or parquet: WEKA's result file has no budget")
    store = Store(results, readonly=True)
    try:
        table = store.curve_table()
    finally:
        store.close()
    if table.empty:
        raise RankwiseError(f"{results}: no learning curves in this results file (run the"
                            " experiment with --budgets)")
    return table


@app.command()
def examples():
    """List the bundled example tables."""
    import shutil
    import textwrap

    from .examples import EXAMPLES

    width = max(60, min(100, shutil.get_terminal_size((80, 24)).columns))
    for name, (_, description, conv) in EXAMPLES.items():
        if conv == "paper":  # a paper's table: its printed numbers need the paper's formulas
            description += "; published numbers: --convention paper"
        typer.echo(name)
        typer.echo(textwrap.fill(description, width, initial_indent="    ",
                                 subsequent_indent="    "))
    from .examples import ITEM_EXAMPLES

    for name, (_, description) in ITEM_EXAMPLES.items():
        typer.echo(name)
        typer.echo(textwrap.fill(description + "; read as items (compare --example " + name +
                                 ")", width, initial_indent="    ", subsequent_indent="    "))
    from .examples import CURVE_EXAMPLES

    for name, (_, description) in CURVE_EXAMPLES.items():
        typer.echo(name)
        typer.echo(textwrap.fill(description + "; curves over a budget (rankwise curves"
                                 " --example " + name + ")", width, initial_indent="    ",
                                 subsequent_indent="    "))


#: Below this many columns (and when piped: 80) --help is click's plain layout, which keeps
#: every option name whole and every choice list unbroken; wider terminals get the panels.
PANELS_MIN_COLUMNS = 120


def _click_errors() -> tuple:
    """``(no-args help, usage errors, abort)``: click's exception classes, from each click that
    may be at work (recent typer carries its own copy)."""
    import importlib

    found = []
    for name in ("typer._click.exceptions", "click.exceptions"):
        try:
            found.append(importlib.import_module(name))
        except ImportError:
            pass
    return (tuple(m.NoArgsIsHelpError for m in found if hasattr(m, "NoArgsIsHelpError")),
            tuple(m.UsageError for m in found),
            (typer.Abort,) + tuple(m.Abort for m in found if hasattr(m, "Abort")))


def run():  # console-script entry point
    import shutil

    if shutil.get_terminal_size((80, 24)).columns < PANELS_MIN_COLUMNS:
        app.rich_markup_mode = None
    no_args, usage, abort = _click_errors()
    args = optional_values(renamed_flags(sys.argv[1:]))
    command = typer.main.get_command(app)   # built once: checked here, then run
    taken = option_taken_as_value(args, command)
    if taken is not None:
        typer.echo(f"rankwise: error: {taken}", err=True)
        sys.exit(2)
    try:
        code = command(args=args, standalone_mode=False, prog_name="rankwise")
    except no_args as exc:
        exc.show()
        code = exc.exit_code
    except usage as exc:
        # click's own parsing errors (a mistyped option, text for a number) in one line, as the
        # library's, with where to look.
        command = exc.ctx.command_path if exc.ctx is not None else "rankwise"
        typer.echo(f"rankwise: error: {usage_message(exc)} (see {command} --help)", err=True)
        code = 2
    except abort:
        typer.echo("rankwise: interrupted", err=True)
        code = 130
    sys.exit(code if isinstance(code, int) else 0)


#: Options whose value may be left out, and what they mean without one.
OPTIONAL_VALUES = {**{o.flag: o.alone for o in option_table.COMPARE if o.alone},
                   "--race": RACE_FIRST}


def renamed_flags(args: list) -> list:
    """compare's arguments with a flag renamed since 0.8 (``--samples``) given its new name,
    and a note on stderr saying so (the old name goes in 0.10)."""
    if not args or args[0] != "compare":
        return args
    out = list(args)
    for i, arg in enumerate(args):
        old, sep, value = arg.partition("=")
        if old in option_table.RENAMED_FLAGS:
            new = option_table.RENAMED_FLAGS[old]
            out[i] = new + sep + value
            typer.echo(f"rankwise: note: {old} is {new} since rankwise 0.9 (one word per idea);"
                       f" {old} goes in 0.10", err=True)
    return out


def optional_values(args: list) -> list:
    """The arguments with the implied value of an option given alone (``--multiverse`` at the
    end or before another option), which the command-line parser cannot leave out itself."""
    out = []
    for i, arg in enumerate(args):
        out.append(arg)
        nxt = args[i + 1] if i + 1 < len(args) else None
        if arg in OPTIONAL_VALUES and (nxt is None or nxt.startswith("-")):
            out.append(OPTIONAL_VALUES[arg])
    return out


def option_taken_as_value(args: list, command) -> str | None:
    """The message when an option that takes a value is followed by another option
    (``--rank-sets --format json``), which the parser would take as its value; None when
    there is none. Values that start with one dash (``--alpha -1``) are left to the checks."""
    if not args or args[0].startswith("-"):
        return None
    sub = getattr(command, "commands", {}).get(args[0])
    if sub is None:
        return None
    takes = {name: param for param in sub.params if getattr(param, "opts", None)
             and not getattr(param, "is_flag", False) and param.nargs != 0
             for name in param.opts}
    for arg, nxt in zip(args[1:], args[2:]):
        if arg in takes and nxt.startswith("--"):
            param = takes[arg]
            wants = (param.metavar or param.name.upper()).strip("[]").split("|")
            wants = ", ".join(wants[:-1]) + " or " + wants[-1] if len(wants) > 1 else wants[0]
            return (f"{arg} needs a value ({wants}); got the option {nxt} (see rankwise"
                    f" {args[0]} --help)")
    return None


def usage_message(exc) -> str:
    """click's message on one line: 'Error: ' and typer's parse wording trimmed."""
    message = " ".join(exc.format_message().split())
    return message.replace(": Input should be a valid ", ": expected a valid ") \
        .replace(", unable to parse string as an integer", "") \
        .replace(", unable to parse string as a number", "")


if __name__ == "__main__":
    run()
