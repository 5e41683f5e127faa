"""The ``rankwise`` command line. User mistakes print one line and exit with 2."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from . import defaults, names
from .errors import RankwiseError

app = typer.Typer(add_completion=True, no_args_is_help=True,
                  help="Compare learners over many data sets, with the statistics done right.",
                  pretty_exceptions_enable=False)

FORMATS = names.REPORT_FORMATS


def fail(message: str) -> None:
    from ._text import visible

    typer.echo(f"rankwise: error: {visible(message)}", err=True)
    raise typer.Exit(2)


def write_folder(write, folder: Path) -> None:
    """``write(folder)`` (which returns the paths written), with one line either way."""
    try:
        paths = write(folder)
    except OSError as exc:
        raise RankwiseError(f"cannot write the report to {folder}: {exc.strerror}") from None
    typer.echo(f"rankwise: wrote {len(paths)} files to {folder}", err=True)


def emit(text: str, output: Optional[Path]) -> None:
    """The command's output to the screen, or to ``output``."""
    if output is None:
        sys.stdout.write(text)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise RankwiseError(f"cannot write {output}: {exc.strerror}") from None


def _version(value: bool):
    if value:
        from ._version import __version__
        typer.echo(f"rankwise {__version__}")
        raise typer.Exit()


@app.callback()
def main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      metavar="", help="Print the version and exit.")):
    """rankwise: which learners are really better, and how sure can you be?"""


def _choices(values):
    """What a choice option shows in --help and offers to shell completion."""
    values = tuple(values)
    return dict(metavar="[" + "|".join(values) + "]",
                autocompletion=lambda incomplete: [v for v in values if v.startswith(incomplete)])


def opt(default, *names, help: str, panel: str, choices=None, metavar=None, complete=None):
    """An option; the choices are listed in --help and completed by the shell, and validated by
    the library (one-line errors). ``complete``: values the shell offers for an option that
    also takes others (``--missing impute:LEARNER``)."""
    extra = _choices(choices) if choices else ({"metavar": metavar} if metavar else {})
    if complete:
        values = tuple(complete)
        extra["autocompletion"] = lambda incomplete: [v for v in values
                                                      if v.startswith(incomplete)]
    if choices and len(extra["metavar"]) > LONG_CHOICES:
        # A list too long for an 80-column line is named under the option, where it wraps.
        extra["metavar"] = "NAME"
        help = f"{help} One of: {', '.join(choices)}."
    return typer.Option(default, *names, help=help, rich_help_panel=panel, **extra)


def _separator(sep):
    """``--sep``: one character; a backslash-t or ``tab`` means a tab."""
    if sep is None:
        return None
    sep = "\t" if sep in ("\\t", "tab", "TAB") else sep
    if len(sep) != 1:
        raise RankwiseError(f"--sep takes one character (e.g. ';' or tab); got {sep!r}")
    return sep


#: A choice list longer than this is listed in the option's help instead of beside its name.
LONG_CHOICES = 60


#: The options that say how a table is read, shared by compare and power: (choices or metavar,
#: help).
READING = {
    "duplicates": (dict(choices=names.DUPLICATES), "Repeated rows: refuse, or keep the last or"
                   " first (default: last for the AutoML benchmark, else refuse)."),
    "where": (dict(metavar="COL=VALUE,..."), "Read only these rows (e.g. constraint=1h8c_gp3)."),
    "sep": (dict(metavar="CHAR"), "Field separator (default: sniffed: tab, ';' or ',')."),
    "decimal": (dict(choices=names.DECIMAL_MARKS), "Decimal mark (default: sniffed)."),
}


def reading_opt(name: str, panel: str, more: str = ""):
    """One of the ``READING`` options, in ``panel``."""
    how, help_text = READING[name]
    return opt(None, f"--{name}", panel=panel, help=help_text + more, **how)


def flag(default, *names, help: str, panel: str):
    """A flag: shown as a flag (no type), its default said in its help when it matters."""
    return typer.Option(default, *names, help=help, rich_help_panel=panel, metavar="",
                        show_default=False)


def text_width(output) -> int:
    """Text paragraphs are wrapped to the terminal's width on a terminal, else to 80 columns."""
    import shutil

    if output is None and sys.stdout.isatty():
        return max(shutil.get_terminal_size((80, 24)).columns, 40)
    return 80


# Each panel names the user-guide page (docs/guide/) that explains its options.
IN = "Input (guide: input)"
TESTS_P = "Tests (guide: choosing-a-test, conventions)"
POST = "Post-hoc (guide: posthoc)"
EFFECT = "Effect sizes and Bayesian (guide: effects)"
OUT = "Output (guide: reports, papers, large-k)"
POOL_P = "Pool (guide: power)"
STUDY = "Study (guide: power; docs/reference/power.md)"
RUN_P = "Parallel runs (the results do not depend on them)"
OUT_P = "Output"


@app.command()
def compare(
    input: Optional[Path] = typer.Argument(None, help="CSV/TSV table (wide or long) or results"
                                           " database.", show_default=False, metavar="INPUT"),
    example: Optional[str] = opt(None, "--example", metavar="NAME", panel=IN,
                                 help="A bundled table instead (rankwise examples)."),
    criterion: Optional[str] = opt(None, "--criterion", "-c", metavar="NAME", panel=IN,
                                   help="Criterion of a long table or results database."),
    higher_is_better: Optional[bool] = flag(
        None, "--higher-is-better/--lower-is-better", panel=IN,
        help="Direction. Default: from the criterion's name, else higher."),
    aggregate: str = opt("median", "--aggregate", choices=names.AGGREGATES, panel=IN,
                         help="Cell of repeats x folds."),
    shape: str = opt("auto", "--shape", choices=names.SHAPES, panel=IN, help="Table layout."),
    columns: Optional[str] = opt(None, "--columns", metavar="ROLE=COL,...", panel=IN,
                                 help="Column roles (e.g. value=result)."),
    source_format: str = opt("auto", "--source", choices=names.SOURCE_FORMATS, panel=IN,
                             help="Another tool's format."),
    missing: str = opt("refuse", "--missing", metavar="POLICY", panel=IN,
                       complete=names.MISSING_POLICIES + (names.MISSING_IMPUTE,),
                       help="Missing cells: refuse, drop-datasets, drop-learners,"
                            " skillings-mack (keep them), worst or impute:LEARNER (fill them)."),
    duplicates: Optional[str] = reading_opt("duplicates", IN),
    where: Optional[str] = reading_opt("where", IN),
    sep: Optional[str] = reading_opt("sep", IN),
    decimal: Optional[str] = reading_opt("decimal", IN),
    decimals: int = opt(defaults.DEFAULT_DECIMALS, "--decimals", metavar="D", panel=IN,
                        help="Round scores to D decimals before comparing."),
    alpha: float = opt(0.05, "--alpha", metavar="A", panel=TESTS_P, help="Significance level."),
    convention: str = opt("default", "--convention", choices=names.CONVENTIONS, panel=TESTS_P,
                          help="Exact formulas, or as published (ERRATA)."),
    pair: Optional[tuple[str, str]] = typer.Option(
        None, "--pair", show_default=False, metavar="A B", rich_help_panel=TESTS_P,
        help="With 3+ learners, also the two-learner tests of A and B."),
    alternative: str = opt("two-sided", "--alternative", choices=names.ALTERNATIVES,
                           panel=TESTS_P, help="Two-learner tests; greater: B of --pair better."),
    zero_method: str = opt("demsar", "--zero-method", choices=names.ZERO_METHODS, panel=TESTS_P,
                           help="Wilcoxon: zero differences."),
    wilcoxon_method: str = opt("auto", "--wilcoxon-method", choices=names.WILCOXON_METHODS,
                               panel=TESTS_P, help="Wilcoxon p-value (auto: exact to N = 50)."),
    continuity_correction: bool = flag(
        False, "--continuity-correction/--no-continuity-correction", panel=TESTS_P,
        help="Wilcoxon normal approximation corrected by 1/2 (R's default; off here)."),
    sign_ties: str = opt("split", "--sign-ties", choices=names.SIGN_TIES, panel=TESTS_P,
                         help="Sign test: ties."),
    friedman_method: str = opt("auto", "--friedman-method", choices=names.FRIEDMAN_METHODS,
                               panel=TESTS_P,
                               help="Friedman/Iman-Davenport p (auto: permutation below N = 20)."),
    posthoc: Optional[str] = opt(None, "--posthoc", choices=names.POSTHOC_FAMILIES, panel=POST,
                                 help="Post-hoc family."),
    control: Optional[str] = opt(None, "--control", metavar="NAME", panel=POST,
                                 help="Control learner (default: best mean rank)."),
    procedures: Optional[str] = opt(
        None, "--procedures", metavar="LIST", panel=POST,
        help="Comma-separated: " + ", ".join(dict.fromkeys(
            names.CONTROL_PROCEDURES + names.ALL_PAIRS_PROCEDURES + names.OPTIONAL_PROCEDURES))
        + " (default: all of the family)."),
    ranking: Optional[str] = opt(None, "--ranking", metavar="LIST", panel=POST,
                                 help="Comma-separated: " + ", ".join(names.RANKINGS_ALL)
                                 + " (default friedman)."),
    force_posthoc: bool = flag(False, "--force-posthoc", panel=POST,
                               help="Post-hoc tests even if the omnibus test does not reject."),
    verdict_procedure: str = opt("holm", "--verdict-procedure",
                                 choices=names.CONTROL_PROCEDURES + names.OPTIONAL_PROCEDURES,
                                 panel=POST, help="The verdict: each learner against the best."),
    diagram_procedure: str = opt("nemenyi", "--diagram-procedure",
                                 choices=names.ALL_PAIRS_PROCEDURES, panel=POST,
                                 help="The CD diagram's cliques."),
    bh_time_budget: float = opt(10.0, "--bh-time-budget", metavar="S", panel=POST,
                                help="Seconds for the exact Bergmann-Hommel search."),
    pool_check: bool = flag(False, "--pool-check", panel=POST,
                            help="Does the pool matter?"),
    mcm: Optional[str] = opt(None, "--mcm", choices=names.MCM_CHOICES, panel=POST,
                             help="Multi-comparison matrix."),
    groups: Optional[str] = opt(None, "--groups", choices=names.GROUP_METHODS, panel=POST,
                                help="Rank groups."),
    effects: str = opt("auto", "--effects", choices=names.EFFECTS_MODES, panel=EFFECT,
                       help="Pairs with effect sizes (auto: all up to 5,000 pairs, else the"
                       " verdict's; none above N = 10,000)."),
    no_effects: bool = typer.Option(False, "--no-effects", hidden=True,
                                    help="The same as --effects none."),
    confidence: Optional[float] = opt(None, "--confidence", metavar="C", panel=EFFECT,
                                      help="Level of the intervals (default 1 - alpha)."),
    bayesian: Optional[str] = opt(None, "--bayesian", choices=names.BAYESIAN_TESTS
                                  + names.BAYESIAN_MODELS, panel=EFFECT,
                                  help="Also a Bayesian test of the same pairs."),
    rope: float = opt(0.0, "--rope", metavar="R", panel=EFFECT,
                      help="Practical equivalence, in the criterion's units."),
    samples: int = opt(defaults.BAYESIAN_SAMPLES, "--samples", metavar="S", panel=EFFECT, help="Posterior samples."),
    seed: int = opt(defaults.DEFAULT_SEED, "--seed", metavar="SEED", panel=EFFECT, help="Their seed."),
    threshold: float = opt(defaults.BAYESIAN_THRESHOLD, "--threshold", metavar="P", panel=EFFECT,
                           help="Posterior probability that decides."),
    verdict: str = opt("frequentist", "--verdict", choices=names.VERDICT_BASES, panel=EFFECT,
                       help="Posterior terms first (needs --bayesian)."),
    fmt: str = opt("text", "--format", "-f", choices=names.REPORT_FORMATS, panel=OUT,
                   help="Output format."),
    output: Optional[Path] = opt(None, "--output", "-o", metavar="FILE", panel=OUT,
                                 help="Write to FILE instead of the screen."),
    report: Optional[Path] = opt(None, "--report", metavar="DIR", panel=OUT,
                                 help="Every format and figure (SVG, PDF, PNG, TikZ) into DIR."),
    include_table: Optional[bool] = flag(
        None, "--include-table/--no-include-table", panel=OUT,
        help="JSON: the per-cell matrices (default: up to 10,000 cells)."),
    top: int = opt(30, "--top", metavar="N", panel=OUT,
                   help="Reports show the best N learners (0: all); JSON keeps all."),
    digits: Optional[int] = opt(None, "--digits", metavar="D", panel=OUT,
                                help="Decimals of the values in reports (default: the input's)."),
    rank_intervals: bool = flag(False, "--rank-intervals", panel=OUT,
                                help="Mean ranks' intervals on the CD diagram."),
    figure_title: bool = flag(False, "--figure-title", panel=OUT,
                              help="A title inside the figures (default: caption only)."),
    latex_fragment: bool = flag(False, "--latex-fragment", panel=OUT,
                                help="--format latex: only tables and figures, to \\input."),
):
    """Rank the learners and run the omnibus (k >= 3) or two-learner (k = 2) tests."""
    from .analysis import compare as run_compare
    from .examples import load_example
    from .tables import load_table

    try:
        if fmt not in FORMATS:
            raise RankwiseError(f"--format must be one of {', '.join(FORMATS)}; got {fmt!r}")
        if mcm is not None and mcm not in names.MCM_CHOICES:
            raise RankwiseError(f"--mcm must be plain or holm; got {mcm!r}")
        if (input is None) == (example is None):
            raise RankwiseError("give either an INPUT file or --example NAME (not both)")
        from .tables.sources import parse_columns

        options = dict(shape=shape, criterion=criterion, higher_is_better=higher_is_better,
                       aggregate=aggregate, missing=missing, columns=parse_columns(columns),
                       source_format=source_format, duplicates=duplicates, where=where,
                       sep=_separator(sep), decimal=decimal)
        table = load_example(example, **options) if example else load_table(input, **options)
        chosen = tuple(pair) if pair else None
        result = run_compare(table, alpha=alpha, convention=convention, decimals=decimals,
                             pair=chosen, zero_method=zero_method,
                             wilcoxon_method=wilcoxon_method, sign_ties=sign_ties,
                             alternative=alternative,
                             continuity_correction=continuity_correction,
                             friedman_method=friedman_method, posthoc=posthoc, control=control, procedures=procedures,
                             rankings=ranking, force_posthoc=force_posthoc,
                             bh_time_budget=bh_time_budget, diagram_procedure=diagram_procedure,
                             verdict_procedure=verdict_procedure,
                             effects="none" if no_effects else effects,
                             confidence=confidence, bayesian=bayesian, rope=rope,
                             samples=samples, seed=seed, threshold=threshold,
                             rank_intervals=rank_intervals, digits=digits, top=top,
                             figure_title=figure_title, pool_check=pool_check,
                             mcm={None: False, "plain": True, "holm": "holm"}.get(mcm, mcm),
                             groups=groups, verdict=verdict)
        from .report import render

        if report is not None:
            write_folder(result.write_report, report)
        if latex_fragment and fmt != "latex":
            raise RankwiseError("--latex-fragment goes with --format latex")
        emit(render(result, fmt, include_table=include_table, fragment=latex_fragment,
                    width=text_width(output)), output)
    except RankwiseError as exc:
        fail(str(exc))


@app.command()
def power(
    pool: Optional[Path] = typer.Argument(None, help="Table of results whose data sets are the"
                                          " population (wide, long or a results database).",
                                          show_default=False, metavar="POOL"),
    example: Optional[str] = opt(None, "--example", metavar="NAME", panel=POOL_P,
                                 help="A bundled table as the pool instead."),
    criterion: Optional[str] = opt(None, "--criterion", "-c", metavar="NAME", panel=POOL_P,
                                   help="Criterion of a long table or results database."),
    higher_is_better: Optional[bool] = flag(
        None, "--higher-is-better/--lower-is-better", panel=POOL_P,
        help="Direction. Default: from the criterion's name, else higher."),
    missing: str = opt("refuse", "--missing", metavar="POLICY", panel=POOL_P,
                       complete=names.MISSING_POLICIES + (names.MISSING_IMPUTE,),
                       help="Missing cells of the pool: refuse, drop-datasets, drop-learners,"
                            " worst or impute:LEARNER."),
    columns: Optional[str] = opt(None, "--columns", metavar="ROLE=COL,...", panel=POOL_P,
                                 help="Column roles, as for compare."),
    source_format: str = opt("auto", "--source", choices=names.SOURCE_FORMATS, panel=POOL_P,
                             help="Another tool's format (auto: from the header)."),
    duplicates: Optional[str] = reading_opt("duplicates", POOL_P, " As for compare."),
    where: Optional[str] = reading_opt("where", POOL_P, " As for compare."),
    sep: Optional[str] = reading_opt("sep", POOL_P, " As for compare."),
    decimal: Optional[str] = reading_opt("decimal", POOL_P, " As for compare."),
    learners: Optional[str] = opt(None, "--learners", metavar="LIST", panel=STUDY,
                                  help="Learners (default: all). Two: d = first - second; more:"
                                       " the control against the mean of the others."),
    control: Optional[str] = opt(None, "--control", metavar="NAME", panel=STUDY,
                                 help="Control with 3+ learners (default: the first of"
                                      " --learners, else the best mean rank)."),
    sample_size: str = opt("10", "--sample-size", "-n", metavar="N|a:b", panel=STUDY,
                           help="Data sets per draw, or a range for planning."),
    bias: Optional[str] = opt(None, "--bias", metavar="LIST", panel=STUDY,
                              help="Biases k (default 0,2,...,20)."),
    draws: int = opt(defaults.POWER_DRAWS, "--draws", metavar="D", panel=STUDY,
                     help="Samples per bias and sample size."),
    seed: int = opt(defaults.POWER_SEED, "--seed", metavar="SEED", panel=STUDY, help="Seed of the draws."),
    tests: Optional[str] = opt(
        None, "--tests", metavar="LIST", panel=STUDY,
        help="Comma-separated (default: wilcoxon,sign,ttest for two learners; the five omnibus"
             " tests for more): " + ", ".join(names.TWO_LEARNER_TESTS + names.OMNIBUS_TESTS)
             + "."),
    procedures: Optional[str] = opt(
        None, "--procedures", metavar="LIST", panel=STUDY,
        help="Control procedures on Friedman ranks (3+ learners; default none): "
             + ", ".join(names.CONTROL_PROCEDURES + names.OPTIONAL_PROCEDURES) + "."),
    alpha: float = opt(0.05, "--alpha", metavar="A", panel=STUDY, help="Significance level."),
    target_power: float = opt(0.8, "--power", metavar="P", panel=STUDY,
                              help="With --sample-size a:b, the rejection rate to reach."),
    jobs: int = opt(1, "--jobs", "-j", metavar="N", panel=RUN_P,
                    help="Worker processes (0: one per CPU)."),
    dask_scheduler: Optional[str] = opt(None, "--dask-scheduler", metavar="ADDRESS", panel=RUN_P,
                                        help="Dask scheduler address, scheduler file, or 'local'."),
    fmt: str = opt("text", "--format", "-f", choices=names.SUMMARY_FORMATS, panel=OUT_P,
                   help="Output format."),
    report: Optional[Path] = opt(None, "--report", metavar="DIR", panel=OUT_P,
                                 help="The text, JSON and figures (SVG, PDF, PNG) into DIR."),
    output: Optional[Path] = opt(None, "--output", "-o", metavar="FILE", panel=OUT_P,
                                 help="Write to FILE instead of the screen."),
):
    """How often, and how reproducibly, each test rejects on biased samples of the pool's data sets (Demšar 2006, §4)."""
    from .examples import load_example
    from .power import power_study
    from .power.report import json_report, text_report, write_report

    try:
        if fmt not in names.SUMMARY_FORMATS:
            raise RankwiseError(f"--format must be text or json; got {fmt!r}")
        if (pool is None) == (example is None):
            raise RankwiseError("give either a POOL file or --example NAME (not both)")
        if missing == "skillings-mack":
            raise RankwiseError("the power study draws complete samples: use --missing"
                                " drop-datasets or drop-learners")
        from .tables.sources import parse_columns

        options = dict(criterion=criterion, higher_is_better=higher_is_better, missing=missing,
                       columns=parse_columns(columns), source_format=source_format,
                       duplicates=duplicates, where=where, sep=_separator(sep), decimal=decimal)
        if example:
            table = load_example(example, **options)
        else:
            from .tables import load_table

            table = load_table(pool, **options)
        study = power_study(table, learners=learners, control=control, sample_size=sample_size,
                            biases=bias, draws=draws, seed=seed, tests=tests,
                            procedures=procedures, alpha=alpha, target_power=target_power,
                            jobs=jobs, dask_scheduler=dask_scheduler)
        if report is not None:
            write_folder(lambda folder: write_report(study, folder), report)
        emit(json_report(study) if fmt == "json" else text_report(study), output)
    except RankwiseError as exc:
        fail(str(exc))


@app.command("run")
def run_command(
    experiment: Optional[Path] = typer.Argument(None, help="Experiment TOML file (it runs code).",
                                                show_default=False),
    results: Path = typer.Option(..., "--results", "-r", help="Results database (SQLite)."),
    example: Optional[str] = typer.Option(None, "--example",
                                          help="Run a bundled experiment instead: demo."),
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
):
    """Run R repeats x N-fold cross-validation of learners over data sets; running it again on the same results file continues where it stopped."""
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
        summary = run_experiment(exp, results, jobs=jobs, dask_scheduler=dask_scheduler,
                                 retry_failed=retry_failed, force=force,
                                 progress=ProgressBar(quiet=quiet))
        for note in summary["notes"]:
            typer.echo(f"rankwise: note: {note}", err=True)
        if summary["removed"]:
            typer.echo(f"rankwise: removed {summary['removed']} stored task(s) that belong to no"
                       " task of this experiment (--force)", err=True)
        typer.echo(f"rankwise: {summary['total']} tasks: {summary['already']} were already done,"
                   f" {summary['run']} ran now ({summary['failed']} failed);"
                   f" {summary['failures_total']} failed in all; results in {results}", err=True)
        if summary["warned"]:
            typer.echo(f"rankwise: {summary['warned']} task(s) raised learner warnings; they are"
                       f" stored with the tasks (rankwise status {results} lists them)", err=True)
        if summary["failures_total"]:
            error, times = summary["common_error"]
            from ._text import visible

            typer.echo(f"rankwise: the most common failure ({times} of"
                       f" {summary['failures_total']}): {visible(error)}", err=True)
        if summary["total"] and summary["failures_total"] == summary["total"]:
            typer.echo(f"rankwise: error: every task failed; nothing to compare (rankwise status"
                       f" {results} lists each failure)", err=True)
            raise typer.Exit(1)
    except RankwiseError as exc:
        fail(str(exc))
    except RunInterrupted as exc:
        typer.echo(f"rankwise: {exc}", err=True)
        raise typer.Exit(130)
    except KeyboardInterrupt:
        typer.echo(f"rankwise: interrupted; nothing is lost: run the same command to continue"
                   f" (rankwise status {results} shows what is done)", err=True)
        raise typer.Exit(130)


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
                         status_text(info))
    except RankwiseError as exc:
        fail(str(exc))


@app.command()
def export(
    results: Path = typer.Argument(..., help="Results database written by `rankwise run`."),
    fmt: str = typer.Option("csv", "--format", "-f", help="csv or parquet."),
    output: Path = typer.Option(..., "--output", "-o", help="File to write."),
):
    """Write the long table (dataset, repeat, fold, learner, criterion, value)."""
    from .experiment.store import read_results

    try:
        if fmt not in ("csv", "parquet"):
            raise RankwiseError(f"--format must be csv or parquet; got {fmt!r}")
        if not results.exists():
            raise RankwiseError(f"{results}: no such file")
        table, _, _ = read_results(results)
        if output.is_dir():
            raise RankwiseError(f"{output}: is a folder; give a file name such as"
                                f" {output}/results.{fmt}")
        if not output.parent.exists():
            raise RankwiseError(f"{output}: the folder {output.parent} does not exist; create it"
                                " first")
        try:
            if fmt == "csv":
                # A name starting with = + - @ would run as a formula in a spreadsheet.
                from ._text import spreadsheet_safe

                names_ = [c for c in ("dataset", "learner", "criterion") if c in table]
                table = table.assign(**{c: table[c].map(spreadsheet_safe) for c in names_})
                table.to_csv(output, index=False)
            else:
                table.to_parquet(output, index=False)
        except ImportError:
            raise RankwiseError("Parquet needs pyarrow: pip install 'rankwise[parquet]'") from None
        except OSError as exc:
            raise RankwiseError(f"cannot write {output}: {exc.strerror or exc}") from None
        typer.echo(f"rankwise: wrote {len(table)} rows to {output}", err=True)
    except RankwiseError as exc:
        fail(str(exc))


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


#: Below this many columns (and when piped: 80) --help is click's plain layout, which keeps
#: every option name whole and every choice list unbroken; wider terminals get the panels.
PANELS_MIN_COLUMNS = 120


def run():  # console-script entry point
    import shutil

    if shutil.get_terminal_size((80, 24)).columns < PANELS_MIN_COLUMNS:
        app.rich_markup_mode = None
    app()


if __name__ == "__main__":
    run()
