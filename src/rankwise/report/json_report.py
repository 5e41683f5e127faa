"""The JSON contract with its ``report`` section: the analysis (``Comparison.to_dict()``) plus
what the reports show — verdict, methods paragraph, rank-table marks, wins/ties/losses,
quartiles, the figures' decisions and the notes."""

from __future__ import annotations

import numpy as np

from ..analysis.schema import comparison_dict
from ..analysis.schema import include_table as included
from ..stats.results import arrays_kept, floor_pvalues, jsonable
from .json_text import dumps
from . import how_sure
from .methods import methods_paragraph


def report_section(cmp, include_table: bool | None = None, arrays: bool = False) -> dict:
    """The ``report`` section of the JSON contract (:doc:`/json`): the verdict, methods,
    notes, tables and figures as the other formats show them. ``include_table``: the
    per-cell matrices (default: up to 10,000 cells); ``arrays``: NumPy arrays left as they
    are, for a writer that converts them itself.

    Examples
    --------
    >>> import rankwise
    >>> from rankwise.report import report_section
    >>> cmp = rankwise.compare(rankwise.load_example("garcia2008"), posthoc="all")
    >>> section = report_section(cmp)
    >>> sorted(section)[:4]
    ['figures', 'how_sure', 'methods', 'notes']
    """
    t = cmp.table
    learners = list(t.learners)
    summary = cmp.summary
    wtl = summary.win_tie_loss.copy()
    diagonal = np.arange(wtl.shape[0])
    wtl[diagonal, diagonal, :] = 0  # a learner is not compared with itself
    charts = summary.quartiles

    def qrows(rows):
        return [{"learner": r.learner, "min": r.minimum, "q1": r.q1, "median": r.median,
                 "q3": r.q3, "max": r.maximum, "n": r.n} for r in rows]

    section = jsonable({
        "verdict": cmp.verdict.to_dict(),
        "methods": methods_paragraph(cmp),
        "rank_table": {"best": summary.best if included(cmp, include_table) and not arrays
                       else None,
                       "average_ranks": dict(zip(learners, cmp.mean_ranks))},
        "win_tie_loss": {"wins": wtl[:, :, 0], "ties": wtl[:, :, 1], "losses": wtl[:, :, 2],
                         **({} if len(summary.win_tie_loss_rows) == len(learners) else
                            {"learners": [learners[j] for j in summary.win_tie_loss_rows]})},
        "quartiles": {"fold_level": charts["fold_level"], "scale": [charts["lo"], charts["hi"]],
                      "overall": qrows(charts["overall"]),
                      "per_dataset": {d: qrows(r) for d, r in charts["per_dataset"].items()},
                      "agreement_tau": charts["agreement"],
                      "overall_enough": charts["overall_enough"], "tau_threshold": charts["tau"]},
        "figures": {name: plan.to_dict() for name, plan in cmp.figures.items()},
        "how_sure": how_sure.to_dict(cmp),
        "notes": list(cmp.notes),
    })
    floor_pvalues(section)
    if arrays and included(cmp, include_table):
        section["rank_table"]["best"] = summary.best
    return section


def full_json(cmp, include_table: bool | None = None) -> dict:
    doc = cmp.to_dict(include_table)
    doc["report"] = cmp.report if include_table is None else report_section(cmp, include_table)
    return doc


def json_report(cmp, indent: int | None = 2, include_table: bool | None = None) -> str:
    if indent is None:
        return dumps(full_json(cmp, include_table), indent=indent) + "\n"
    # Long columns and the per-cell matrices stay numpy arrays; the writer formats each in one
    # pass, a bounded chunk at a time, instead of making a Python object of every number.
    with arrays_kept():
        doc = comparison_dict(cmp, include_table, arrays=True)
        doc["report"] = report_section(cmp, include_table, arrays=True)
    return dumps(doc, indent=indent) + "\n"
