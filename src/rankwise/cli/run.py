"""``rankwise run``: an experiment run into a results database, continued where it stopped."""

from __future__ import annotations

from pathlib import Path

import typer

from ..cli_options import D, P
from ..errors import RankwiseError
from ..option_table import line_option
from .driver import command, numbers, text_width
from .plan_next import next_experiment
from .race import goal_of

U, UD = P.run, D.run
#: What ``--race`` given alone stands for: the experiment's first criterion.
RACE_FIRST = line_option("run", "race").alone
#: What ``--plan`` given alone stands for: the experiment's first criterion.
PLAN_FIRST = line_option("run", "plan").alone


def run_command(
    experiment: U.experiment = UD.experiment, results: U.results = UD.results,
    example: U.example = UD.example, jobs: U.jobs = UD.jobs,
    dask_scheduler: U.dask_scheduler = UD.dask_scheduler,
    retry_failed: U.retry_failed = UD.retry_failed, force: U.force = UD.force,
    quiet: U.quiet = UD.quiet, time_limit: U.time_limit = UD.time_limit,
    budgets: U.budgets = UD.budgets, race: U.race = UD.race, alpha: U.alpha = UD.alpha,
    goal: U.goal = UD.goal, order: U.order = UD.order, plan: U.plan = UD.plan,
):
    """Run a cross-validation experiment (a TOML file: R repeats x N folds of learners over data sets) into a results database. Running it again on the same results file continues where it stopped. With --race, stop running the learners a race has eliminated."""
    import signal
    from dataclasses import replace

    from ..experiment import load_experiment, run_experiment
    from ..experiment.driver import RunInterrupted
    from ..experiment.progress import ProgressBar

    def stop(signum, frame):  # SIGTERM means what Ctrl-C means, from the first moment
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        # the next run --plan may write beside the experiment: never over what the run reads
        nxt = None if plan is None or experiment is None else next_experiment(experiment)
        with command("run", dict(locals()), what="an EXPERIMENT", source="experiment",
                     inputs={"the experiment": experiment, "--results": results},
                     writes={"--plan's next run": nxt}):
            if example is not None:
                from ..examples import experiment_path

                with experiment_path(example) as path:
                    exp = load_experiment(path)
            else:
                exp = load_experiment(experiment)
            if time_limit is not None:
                exp = replace(exp, time_limit=time_limit)
            if budgets is not None:
                exp = replace(exp, budgets=tuple(numbers("--budgets", budgets)))
            settings = race_settings(race, alpha, goal, order)
            if plan is not None and settings is not None:
                raise RankwiseError("--plan plans on complete results; a race leaves the"
                                    " learners it eliminated unscored: run the race, then"
                                    " plan a run without --race")
            if plan is not None:      # a criterion the run does not record: said before it
                from .plan_next import plan_criterion

                planned = plan_criterion(exp, None if plan == PLAN_FIRST else plan)
            summary = run_experiment(exp, results, jobs=jobs, dask_scheduler=dask_scheduler,
                                     retry_failed=retry_failed, force=force,
                                     progress=ProgressBar(quiet=quiet), race=settings)
            say_run(summary, results)
            if plan is not None:
                from .plan_next import plan_after_run

                plan_after_run(experiment, exp, results, planned, nxt)
    except RunInterrupted as exc:
        typer.echo(f"rankwise: {exc}", err=True)
        raise typer.Exit(130)
    except KeyboardInterrupt:
        typer.echo(f"rankwise: interrupted; nothing is lost: run the same command to continue"
                   f" (rankwise status {results} shows what is done)", err=True)
        raise typer.Exit(130)


def say_run(summary: dict, results: Path) -> None:
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
        from ..experiment.racing import race_lines

        for line in race_lines(summary["race"], text_width(None) - 10):
            typer.echo(f"rankwise: {line}", err=True)
    if summary["warned"]:
        typer.echo(f"rankwise: {summary['warned']} task(s) raised learner warnings; they are"
                   f" stored with the tasks (rankwise status {results} lists them)", err=True)
    if summary["failures_total"]:
        error, times = summary["common_error"]
        from .._text import visible

        typer.echo(f"rankwise: the most common failure ({times} of"
                   f" {summary['failures_total']}): {visible(error)}", err=True)
    needed = summary["total"] - (summary["race"]["tasks_not_needed"] if summary.get("race")
                                 else 0)
    if needed and summary["failures_total"] >= needed:
        typer.echo(f"rankwise: error: every task failed; nothing to compare (rankwise status"
                   f" {results} lists each failure)", err=True)
        raise typer.Exit(1)


def race_settings(race, alpha, goal, order):
    """``run --race``'s settings, or None; the race's options without --race are refused."""
    from ..experiment.racing import RaceSettings

    if race is None:
        given = [name for name, value in (("--alpha", alpha), ("--goal", goal),
                                          ("--order", order)) if value is not None]
        if given:
            raise RankwiseError(f"{', '.join(given)} set(s) a race: add --race (or --race"
                                " CRITERION)")
        return None
    return RaceSettings(None if race == RACE_FIRST else race,
                        0.05 if alpha is None else alpha,
                        1 if goal is None else goal_of(goal), order or "random")
