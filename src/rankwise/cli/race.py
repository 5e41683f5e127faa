"""``rankwise race``: a race replayed over a finished table, or the race of a results file."""

from __future__ import annotations

from pathlib import Path

import typer

from .._text import counted
from ..cli_options import D, P
from ..errors import RankwiseError
from ..option_table import READ
from .driver import command, given_on_line, read_table, write_figure

R, RD = P.race, D.race


def race(
    input: R.input = RD.input, example: R.example = RD.example,
    criterion: R.criterion = RD.criterion,
    higher_is_better: R.higher_is_better = RD.higher_is_better,
    aggregate: R.aggregate = RD.aggregate, shape: R.shape = RD.shape,
    columns: R.columns = RD.columns, source_format: R.source_format = RD.source_format,
    missing: R.missing = RD.missing, duplicates: R.duplicates = RD.duplicates,
    where: R.where = RD.where, sep: R.sep = RD.sep, decimal: R.decimal = RD.decimal,
    alpha: R.alpha = RD.alpha, goal: R.goal = RD.goal, order: R.order = RD.order,
    seed: R.seed = RD.seed, fmt: R.fmt = RD.fmt, report: R.report = RD.report,
    figure: R.figure = RD.figure, output: R.output = RD.output, ctx: typer.Context = None,
):
    """Replay a race over a finished table or results database: eliminate a learner as soon as another beats it, with a guarantee that holds whenever the race stops. On a results file of rankwise run --race: that race."""
    from dataclasses import replace

    from .. import _validate
    from ..stats.racing import race as run_race

    given = dict(locals())
    with command("race", given, what="an INPUT", inputs={"the input": input},
                 figures=("figure",)) as out:
        _validate.alpha(alpha)   # every option first, then the table, then its notes
        _validate.seed(seed)
        top = goal_of(goal)
        result = race_of_results(input, ctx) if input is not None else None
        if result is None:
            table = read_table(input, example, **{o.name: given[o.name] for o in READ})
            from ..analysis.verdict import direction_sentence

            result = run_race(table, alpha=alpha, goal=top, order=order, seed=seed)
            for note in (*table.warnings, direction_sentence(table)):   # once it could run
                typer.echo(f"rankwise: note: {note}", err=True)
        else:
            result = replace(result, source=str(input))
        if figure is not None:
            from ..report.race import race_figure

            write_figure(race_figure(result), figure, "the race")
        out.finish(result, lambda: result.render(fmt, width=out.width if fmt == "text"
                                                 else None))


def race_of_results(path: Path, ctx):
    """The race ``rankwise run --race`` ran into the results file ``path`` (None for any other
    input). It is shown as it is: an option that would make it another race is refused."""
    from ..experiment.racing import recorded_race

    found = recorded_race(path)
    if found is None:
        return None
    result, record = found
    given = [f"--{p.name.replace('_', '-')}" for p in ctx.command.params
             if p.name not in ("input", "fmt", "figure", "output", "report")
             and given_on_line(ctx, p.name)]
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
               + (" not rounded)" if s["decimals"] is None else
                  f" rounded to {counted(s['decimals'], 'decimal')})")
               + ("" if record["finished"] else "; it is unfinished") + f"; outcomes missing"
               f" (a failed task): {record['missing']}", err=True)
    return result


def goal_of(goal: str) -> int:
    """``--goal best`` is 1; ``top:M`` is M."""
    text = str(goal).strip().lower()
    if text == "best":
        return 1
    if text.startswith("top:") and text[4:].isdigit() and int(text[4:]) >= 1:
        return int(text[4:])
    raise RankwiseError(f"--goal must be best or top:M (M a whole number, 1 or more); got"
                        f" {goal!r}")
