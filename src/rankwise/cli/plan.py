"""``rankwise plan``: what buys certainty next, and the rank to expect on the next data set."""

from __future__ import annotations

from ..cli_options import D, P
from ..errors import RankwiseError
from ..option_table import READ
from .driver import command, is_items_input, read_items_input, read_table, separator

L, LD = P.plan, D.plan


def plan(
    input: L.input = LD.input, example: L.example = LD.example,
    criterion: L.criterion = LD.criterion, higher_is_better: L.higher_is_better =
    LD.higher_is_better, columns: L.columns = LD.columns,
    source_format: L.source_format = LD.source_format, missing: L.missing = LD.missing,
    duplicates: L.duplicates = LD.duplicates, where: L.where = LD.where, sep: L.sep = LD.sep,
    decimal: L.decimal = LD.decimal, items: L.items = LD.items, metric: L.metric = LD.metric,
    item_filter: L.item_filter = LD.item_filter, cluster: L.cluster = LD.cluster,
    method: L.method = LD.method, confidence: L.confidence = LD.confidence,
    alpha: L.alpha = LD.alpha, power: L.power = LD.power, stability: L.stability =
    LD.stability, cost: L.cost = LD.cost, design: L.design = LD.design,
    next_alpha: L.next_alpha = LD.next_alpha, next_method: L.next_method = LD.next_method,
    negative: L.negative = LD.negative, draws: L.draws = LD.draws, seed: L.seed = LD.seed,
    fmt: L.fmt = LD.fmt, report: L.report = LD.report, output: L.output = LD.output,
    figure_width: L.figure_width = LD.figure_width,
):
    """Plan the next experiment from a pilot: the variance components of its design (learners, data sets, repeats, folds; or tasks, items, trials), what more data sets, folds, repeats or items would buy at their cost (D-studies: E rho^2, Phi, the SE of a difference, the resolution floor), the cheapest design that settles the order, the suite's signal-to-noise and decision accuracy, and each learner's rank interval on the next data set."""
    from ..analysis.plan import plan as run_plan

    given = dict(locals())
    with command("plan", given, what="an INPUT", inputs={"the pilot": input}) as out:
        costs = assignments("--cost", cost, float)
        sizes = assignments("--design", design, int)
        pilot = read_pilot(given)
        result = run_plan(pilot, method=method, confidence=confidence, alpha=alpha,
                          power=power, stability=stability, costs=costs, sizes=sizes,
                          next_alpha=next_alpha, next_method=next_method,
                          negative=negative, draws=draws,
                          seed=seed)
        out.finish(result, lambda: result.render(fmt, width=out.width if fmt == "text"
                                                 else None))


def assignments(flag: str, values, kind) -> dict | None:
    """``FACET=VALUE,...`` as a dict; one line naming the flag when a part is not one."""
    from .._validate import parse_list

    values = parse_list(values)
    if not values:
        return None
    out = {}
    for part in values:
        name, eq, raw = str(part).partition("=")
        try:
            if not eq or not name.strip():
                raise ValueError
            value = kind(raw)
        except ValueError:
            word = "a number" if kind is float else "a whole number"
            raise RankwiseError(f"{flag} takes FACET=VALUE pairs, the value {word}"
                                f" (e.g. dataset=20); got {part!r}") from None
        out[name.strip()] = value
    return out


def read_pilot(given: dict):
    """The pilot: curves (planned at their last budget), scored items, or a table (long
    tables keep their repeats and folds)."""
    path, example = given["input"], given["example"]
    from ..examples import CURVE_EXAMPLES
    from ..tables.registry import curve_kind

    # a results database is read as its table (its learning curves: rankwise curves)
    if example in CURVE_EXAMPLES or (path is not None and _curve_file(path, curve_kind)):
        from .curves import read_curves_of

        return read_curves_of(path, example, given["source_format"],
                              given["higher_is_better"], None, None, given["criterion"])
    if given["items"] or is_items_input(path, example, given["source_format"]):
        return read_items_input(
            path, example, given["source_format"], metric=given["metric"],
            filter=given["item_filter"], cluster=given["cluster"],
            missing=given["missing"] or "refuse", sep=separator(given["sep"]),
            decimal=given["decimal"], columns=given["columns"],
            duplicates=given["duplicates"])
    return read_table(path, example, **{o.name: given[o.name] for o in READ
                                        if o.name in given})


def _curve_file(path, kind_of) -> bool:
    """Whether ``path`` is a trajectory file or folder (IOHprofiler, Optuna, a curves table),
    not a results database."""
    try:
        return kind_of(path) not in (None, "rankwise")
    except (OSError, ValueError):
        return False
