"""The ``rankwise`` command line. User mistakes print one line and exit with 2."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from .errors import RankwiseError

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Compare learners over many data sets, with the statistics done right.",
                  pretty_exceptions_enable=False)

FORMATS = ("text", "json", "markdown", "latex", "html")


def fail(message: str) -> None:
    typer.echo(f"rankwise: error: {message}", err=True)
    raise typer.Exit(2)


def _version(value: bool):
    if value:
        from ._version import __version__
        typer.echo(f"rankwise {__version__}")
        raise typer.Exit()


@app.callback()
def main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help="Print the version and exit.")):
    """rankwise: which learners are really better, and how sure can you be?"""


@app.command()
def compare(
    input: Optional[Path] = typer.Argument(None, help="CSV/TSV table (wide or long).",
                                           show_default=False),
    example: Optional[str] = typer.Option(None, "--example",
                                          help="Use a bundled table instead (see `rankwise examples`)."),
    criterion: Optional[str] = typer.Option(None, "--criterion", "-c",
                                            help="Criterion to analyse in a long table."),
    higher_is_better: Optional[bool] = typer.Option(
        None, "--higher-is-better/--lower-is-better",
        help="Direction of the scores. Default: from the criterion name if known, else higher."),
    aggregate: str = typer.Option("median", "--aggregate", help="median or mean of repeats x folds."),
    alpha: float = typer.Option(0.05, "--alpha", help="Significance level."),
    convention: str = typer.Option("default", "--convention",
                                   help="default (exact formulas) or paper (as published)."),
    fmt: str = typer.Option("text", "--format", "-f",
                            help="text, json, markdown, latex or html."),
    report: Optional[Path] = typer.Option(
        None, "--report", help="Write every format and figure (SVG, PDF, PNG) into this folder."),
    diagram_procedure: str = typer.Option(
        "nemenyi", "--diagram-procedure",
        help="All-pairs procedure behind the CD diagram's cliques (nemenyi, bonferroni, holm,"
             " shaffer, bergmann_hommel)."),
    verdict_procedure: str = typer.Option(
        "holm", "--verdict-procedure",
        help="Control procedure by which the verdict compares every learner with the best one"
             " (holm, bonferroni_dunn, hochberg, hommel, holland, rom, finner, li, sidak)."),
    include_table: Optional[bool] = typer.Option(
        None, "--include-table/--no-include-table",
        help="JSON: include the per-cell values, ranks and best-cell flags (default: only for"
             " tables up to 10,000 cells)."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write to this file."),
    shape: str = typer.Option("auto", "--shape", help="auto, wide or long."),
    missing: str = typer.Option("refuse", "--missing",
                                help="refuse, drop-datasets, drop-learners or skillings-mack"
                                     " (keep every available cell)."),
    decimals: int = typer.Option(12, "--decimals",
                                 help="Round scores to this many decimals before comparing."),
    pair: Optional[tuple[str, str]] = typer.Option(
        None, "--pair", show_default=False,
        help="With 3+ learners, also run the two-learner tests on A B."),
    zero_method: str = typer.Option("demsar", "--zero-method",
                                    help="Wilcoxon zeros: demsar, zsplit, pratt or wilcox."),
    wilcoxon_method: str = typer.Option("auto", "--wilcoxon-method",
                                        help="Wilcoxon p-value: auto, exact or normal."),
    sign_ties: str = typer.Option("split", "--sign-ties", help="Sign-test ties: split or drop."),
    alternative: str = typer.Option(
        "two-sided", "--alternative",
        help="Two-learner tests: two-sided, greater (the second learner of --pair, or of the"
             " table, is better) or less; in the table's direction."),
    friedman_method: str = typer.Option(
        "auto", "--friedman-method",
        help="Friedman / Iman-Davenport p-value: auto (permutation below 20 data sets: exact"
             " when feasible, else Monte Carlo; chi-square from 20 on), chi2, exact, monte-carlo."),
    continuity_correction: bool = typer.Option(
        False, "--continuity-correction/--no-continuity-correction",
        help="Continuity correction of the Wilcoxon normal approximation (as R's default)."),
    posthoc: Optional[str] = typer.Option(
        None, "--posthoc", help="Post-hoc family: all (pairs), control, or both."),
    control: Optional[str] = typer.Option(
        None, "--control", help="Control learner for --posthoc control ('best': best mean rank)."),
    procedures: Optional[str] = typer.Option(
        None, "--procedures", help="Comma-separated adjustment procedures (default: all)."),
    ranking: Optional[str] = typer.Option(
        None, "--ranking",
        help="Comma-separated: friedman, friedman_exact, aligned, quade, friedman_conover,"
             " quade_conover, wilcoxon, sign, anova (default friedman)."),
    force_posthoc: bool = typer.Option(
        False, "--force-posthoc", help="Run post-hoc tests even if the omnibus test does not reject."),
    bh_time_budget: float = typer.Option(
        10.0, "--bh-time-budget", help="Seconds for the exact Bergmann-Hommel search."),
    effects: Optional[bool] = typer.Option(
        None, "--effects/--no-effects",
        help="Effect sizes with confidence intervals (Hodges-Lehmann, probability of"
             " superiority, Cohen's d_z, Cliff's delta) for the verdict's family and the"
             " post-hoc family. Default: on up to 10,000 data sets."),
    confidence: Optional[float] = typer.Option(
        None, "--confidence", help="Confidence level of the effect-size intervals (default"
                                   " 1 - alpha)."),
    bayesian: Optional[str] = typer.Option(
        None, "--bayesian", help="Also a Bayesian test of the same pairs: sign or signed-rank."),
    rope: float = typer.Option(
        0.0, "--rope", help="Region of practical equivalence, in the criterion's units (e.g."
                            " 0.01), for --bayesian."),
    samples: int = typer.Option(50_000, "--samples", help="Posterior samples for --bayesian."),
    seed: int = typer.Option(20170101, "--seed", help="Seed of the posterior samples."),
    threshold: float = typer.Option(
        0.95, "--threshold", help="Posterior probability at which --bayesian decides."),
    rank_intervals: bool = typer.Option(
        False, "--rank-intervals", help="Draw the mean ranks' confidence intervals on the CD"
                                        " diagram (they are always in the mean-rank table)."),
    digits: Optional[int] = typer.Option(
        None, "--digits", help="Decimals of the table's values in reports (default: the"
                               " input's own, at most 6)."),
    figure_title: bool = typer.Option(
        False, "--figure-title", help="Keep a title inside the figures (default: the caption"
                                      " carries it)."),
    latex_fragment: bool = typer.Option(
        False, "--latex-fragment", help="With --format latex: only the tables and figure"
                                        " environments, to \\input into a paper."),
):
    """Rank the learners and run the omnibus (k >= 3) or two-learner (k = 2) tests."""
    from .analysis import compare as run_compare
    from .examples import load_example
    from .tables import load_table

    try:
        if fmt not in FORMATS:
            raise RankwiseError(f"--format must be one of {', '.join(FORMATS)}; got {fmt!r}")
        if (input is None) == (example is None):
            raise RankwiseError("give either an INPUT file or --example NAME (not both)")
        options = dict(shape=shape, criterion=criterion, higher_is_better=higher_is_better,
                       aggregate=aggregate, missing=missing)
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
                             verdict_procedure=verdict_procedure, effects=effects,
                             confidence=confidence, bayesian=bayesian, rope=rope,
                             samples=samples, seed=seed, threshold=threshold,
                             rank_intervals=rank_intervals, digits=digits,
                             figure_title=figure_title)
        from .report import render

        if report is not None:
            try:
                paths = result.write_report(report)
            except OSError as exc:
                raise RankwiseError(f"cannot write the report to {report}: {exc.strerror}") from None
            typer.echo(f"rankwise: wrote {len(paths)} files to {report}", err=True)
        if latex_fragment and fmt != "latex":
            raise RankwiseError("--latex-fragment goes with --format latex")
        text = render(result, fmt, include_table=include_table, fragment=latex_fragment)
        if output is None:
            sys.stdout.write(text)
        else:
            try:
                output.write_text(text, encoding="utf-8")
            except OSError as exc:
                raise RankwiseError(f"cannot write {output}: {exc.strerror}") from None
    except RankwiseError as exc:
        fail(str(exc))


@app.command()
def power(
    pool: Optional[Path] = typer.Argument(None, help="Table of results whose data sets are the"
                                          " population (wide, long or a results database).",
                                          show_default=False),
    example: Optional[str] = typer.Option(None, "--example",
                                          help="Use a bundled table as the pool instead."),
    criterion: Optional[str] = typer.Option(None, "--criterion", "-c",
                                            help="Criterion to analyse in a long table."),
    higher_is_better: Optional[bool] = typer.Option(
        None, "--higher-is-better/--lower-is-better",
        help="Direction of the scores. Default: from the criterion name if known, else higher."),
    missing: str = typer.Option("refuse", "--missing",
                                help="refuse, drop-datasets or drop-learners."),
    learners: Optional[str] = typer.Option(
        None, "--learners", help="Comma-separated learners (default: all). With two, d = first"
                                 " - second; with more, the control against the mean of the others."),
    control: Optional[str] = typer.Option(
        None, "--control", help="The control with 3+ learners (default: the first of --learners,"
                                " else the best mean rank of the pool)."),
    sample_size: str = typer.Option("10", "--sample-size", "-n",
                                    help="Data sets per draw, or a range a:b for planning."),
    bias: Optional[str] = typer.Option(None, "--bias",
                                       help="Comma-separated biases k (default 0,2,...,20)."),
    draws: int = typer.Option(1000, "--draws", help="Samples per bias and sample size."),
    seed: int = typer.Option(2006, "--seed", help="Seed of the draws."),
    tests: Optional[str] = typer.Option(
        None, "--tests", help="Comma-separated tests (default: wilcoxon,sign,ttest for two"
                              " learners; the five omnibus tests for more)."),
    procedures: Optional[str] = typer.Option(
        None, "--procedures", help="Comma-separated control procedures on Friedman ranks"
                                   " (3+ learners; default none)."),
    alpha: float = typer.Option(0.05, "--alpha", help="Significance level."),
    target_power: float = typer.Option(
        0.8, "--power", help="With --sample-size a:b, the rejection rate to reach."),
    jobs: int = typer.Option(1, "--jobs", "-j", help="Worker processes (0: one per CPU)."),
    dask_scheduler: Optional[str] = typer.Option(
        None, "--dask-scheduler", help="Dask scheduler address, scheduler file, or 'local'."),
    fmt: str = typer.Option("text", "--format", "-f", help="text or json."),
    report: Optional[Path] = typer.Option(
        None, "--report", help="Write the text, JSON and figures (SVG, PDF, PNG) into this folder."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write to this file."),
):
    """How often, and how reproducibly, each test rejects on biased samples of the pool's data sets (Demšar 2006, §4)."""
    from .examples import load_example
    from .power import power_study
    from .power.report import json_report, text_report, write_report

    try:
        if fmt not in ("text", "json"):
            raise RankwiseError(f"--format must be text or json; got {fmt!r}")
        if (pool is None) == (example is None):
            raise RankwiseError("give either a POOL file or --example NAME (not both)")
        if missing == "skillings-mack":
            raise RankwiseError("the power study draws complete samples: use --missing"
                                " drop-datasets or drop-learners")
        options = dict(criterion=criterion, higher_is_better=higher_is_better, missing=missing)
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
            try:
                paths = write_report(study, report)
            except OSError as exc:
                raise RankwiseError(f"cannot write the report to {report}: {exc.strerror}") from None
            typer.echo(f"rankwise: wrote {len(paths)} files to {report}", err=True)
        text = json_report(study) if fmt == "json" else text_report(study)
        if output is None:
            sys.stdout.write(text)
        else:
            try:
                output.write_text(text, encoding="utf-8")
            except OSError as exc:
                raise RankwiseError(f"cannot write {output}: {exc.strerror}") from None
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
    """Show a results file: the experiment, tasks done / failed / to do per data set and learner,
    failures, learner warnings, library versions, and whether a run is writing to it."""
    import json

    from .experiment.status import status as read_status
    from .experiment.status import status_text

    try:
        if fmt not in ("text", "json"):
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
    from .examples import EXAMPLES

    for name, (_, description, conv) in EXAMPLES.items():
        typer.echo(f"{name:28s} {description} (published numbers: --convention {conv})")


def run():  # console-script entry point
    app()


if __name__ == "__main__":
    run()
