"""``rankwise curves``: learners compared along a budget."""

from __future__ import annotations

import typer

from ..cli_options import D, P
from ..errors import RankwiseError
from .driver import command, numbers, write_figure

C, CD = P.curves, D.curves


def curves(
    input: C.input = CD.input, example: C.example = CD.example, source: C.source = CD.source,
    higher_is_better: C.higher_is_better = CD.higher_is_better, values: C.values = CD.values,
    budget_unit: C.budget_unit = CD.budget_unit, criterion: C.criterion = CD.criterion,
    budgets: C.budgets = CD.budgets, targets: C.targets = CD.targets,
    aocc_bounds: C.aocc_bounds = CD.aocc_bounds, value_scale: C.value_scale = CD.value_scale,
    budget_scale: C.budget_scale = CD.budget_scale, aocc_budget: C.aocc_budget = CD.aocc_budget,
    aocc_curve: C.aocc_curve = CD.aocc_curve, tolerance: C.tolerance = CD.tolerance, alpha: C.alpha = CD.alpha,
    confidence: C.confidence = CD.confidence, seed: C.seed = CD.seed,
    export: C.export = CD.export, figure: C.figure = CD.figure,
    cd_figure: C.cd_figure = CD.cd_figure, fmt: C.fmt = CD.fmt, output: C.output = CD.output,
    report: C.report = CD.report,
):
    """Compare learners along a budget: optimizer traces, learning curves and anytime scores, from a long table, an IOHprofiler folder, an Optuna storage or a run with --budgets. Rank over budget with a simultaneous band, everything compare does at checkpoints, where decisions change, whether more budget helps, AOCC, ERT and ECDF, performance and data profiles, and Optuna's Dewancker ranking."""
    from ..analysis.curves import compare_curves

    with command("curves", dict(locals()), what="a CURVES", inputs={"the curves": input},
                 figures=("figure", "cd_figure")) as out:
        if report is not None and export is not None:
            raise RankwiseError("--report writes the report; --export writes a score table"
                                " instead of it: give one of them")
        settings = curve_settings(budgets, targets, aocc_bounds, value_scale, budget_scale,
                                  aocc_budget, aocc_curve, tolerance, alpha, confidence,
                                  seed)
        at = export_budget(export, fmt)
        curves = read_curves_of(input, example, source, higher_is_better, values, budget_unit,
                                criterion)
        result = compare_curves(curves, **settings)
        if export is not None:
            out.finish(None, lambda: curves_export(result, at, fmt),
                       between=lambda: curves_figures(result, figure, cd_figure))
        else:
            out.finish(result, lambda: result.render(fmt, width=out.width),
                       between=lambda: curves_figures(result, figure, cd_figure))


def curve_settings(budgets, targets, aocc_bounds, value_scale, budget_scale, aocc_budget,
                   aocc_curve, tolerance, alpha, confidence, seed) -> dict:
    """compare_curves' keywords from the command line's text, checked by the checks the
    library makes (:func:`rankwise.analysis.curves.check_options`), each named by its flag,
    before anything is read."""
    from ..analysis.curves import AoccOptions, check_options

    bounds = aocc_bounds if aocc_bounds == "problem" else tuple(
        numbers("--aocc-bounds", aocc_bounds))
    if bounds != "problem" and len(bounds) != 2:
        raise RankwiseError(f"--aocc-bounds takes problem or LOW,HIGH; got {aocc_bounds!r}")
    goal = int(targets) if targets.strip().isdigit() else numbers("--targets", targets)
    settings = dict(
        budgets=numbers("--budgets", budgets) if budgets else None, alpha=alpha,
        confidence=confidence, targets=goal, tolerance=tolerance, seed=seed,
        aocc=AoccOptions(bounds=bounds, value_scale=value_scale, budget_scale=budget_scale,
                         budget=aocc_budget, curve=aocc_curve))
    flags = {k: "--" + k.replace("_", "-") for k in ("budgets", "aocc_bounds", "aocc_budget",
                                                    "targets", "tolerance", "seed")}
    check_options(**settings, draws=1, names=flags)
    return settings


def export_budget(export, fmt: str):
    """``--export aocc|BUDGET`` checked before anything is read: "aocc", or one finite budget
    above 0; the table is CSV, or JSON with ``-f json`` (no other format)."""
    from .. import _validate as check

    if export is None:
        return None
    if fmt not in ("text", "json"):
        raise RankwiseError(f"--export writes a score table as CSV, or as JSON with -f json;"
                            f" -f {fmt} is the report's")
    if export == "aocc":
        return "aocc"
    budget = numbers("--export", export)
    if len(budget) != 1:
        raise RankwiseError(f"--export takes aocc or one budget; got {export!r}")
    return check.finite("--export", budget[0], 0, strict=True)


def read_curves_of(input, example, source, higher_is_better, values, budget_unit, criterion):
    """The curves of the file ``input`` or of the bundled ``example``."""
    from ..tables.curves import DirectionMissing, read_curves

    if example is not None:
        from ..examples import load_curves_example

        curves = load_curves_example(example)
        if values is not None and values != curves.value_kind:
            raise RankwiseError("--values applies to a file read; the example is read as"
                                " logged")
    else:
        try:
            curves = read_curves(input, reader=source, higher_is_better=higher_is_better,
                                 value_kind=values, budget=budget_unit, criterion=criterion)
        except DirectionMissing as exc:   # the command line's words, not Python's
            raise DirectionMissing(exc.source, "--higher-is-better or --lower-is-better") \
                from None
    if higher_is_better is not None and curves.maximize != higher_is_better \
            and curves.reader in ("ioh", "optuna"):
        raise RankwiseError(f"{curves.source}: the {curves.reader} files say"
                            f" {'higher' if curves.maximize else 'lower'} is better;"
                            " --higher-is-better/--lower-is-better cannot turn them")
    return curves


def curves_export(result, what, fmt: str = "csv") -> str:
    """The score table ``--export`` names (``"aocc"`` or a budget), as CSV (data set, then one
    column per learner) or, with ``-f json``, as JSON ({"datasets", "learners", "values",
    "criterion", "higher_is_better"})."""
    import io
    import json

    table = result.aocc_comparison.table if what == "aocc" else \
        result.curves.at_budget(float(what))
    frame = table.to_frame()
    if fmt == "json":
        values = [[None if v != v else float(v) for v in row] for row in frame.to_numpy()]
        return json.dumps({"datasets": [str(d) for d in frame.index],
                           "learners": [str(c) for c in frame.columns], "values": values,
                           "criterion": str(table.criterion),
                           "higher_is_better": bool(table.higher_is_better)}, indent=2) + "\n"
    buffer = io.StringIO()
    frame.to_csv(buffer, index=True, index_label="dataset")
    return buffer.getvalue()


def curves_figures(result, figure, cd_figure) -> None:
    from ..report.curves import checkpoint_figure, curves_figure

    for path, draw in ((figure, curves_figure), (cd_figure, checkpoint_figure)):
        if path is None:
            continue
        fig = draw(result)
        if fig is None:
            typer.echo(f"rankwise: {path}: no CD diagram to draw (no checkpoint has three or"
                       " more learners)", err=True)
            continue
        write_figure(fig, path)
