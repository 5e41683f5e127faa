"""The JSON contract of an analysis: the serialisation of a :class:`Comparison`'s results.

Schema ``rankwise.compare/2`` (docs/json.md): keys are only ever added within a
schema version. The ``report`` section (prose, tables, figures) is added by the report wing.
Schema 2 keeps pair-level results as columns (learners by their index in ``learners``) instead
of one object per pair, so that 499,500 pairs are a few arrays; :func:`pair_rows` turns a
column section back into one dict per pair.
"""

from __future__ import annotations

from .._version import __version__
from ..names import TWO_LEARNER_TESTS
from .effect_columns import effects_columns
from ..stats.results import PVALUE_FLOOR, floor_pvalues, jsonable

SCHEMA = "rankwise.compare/2"
#: Up to this many cells the JSON carries the table itself (values, ranks, best-cell flags), so
#: that small reports stay self-contained; above it only on request.
TABLE_CELLS = 10_000


def include_table(cmp, include: bool | None) -> bool:
    return include if include is not None else cmp.table.values.size <= TABLE_CELLS


def include_matrices(cmp, include: bool | None) -> bool:
    """The k × k matrices of the contrast estimation follow the table's rule, on k² cells."""
    k = cmp.table.n_learners
    return include if include is not None else k * k <= TABLE_CELLS


def comparison_dict(cmp, include: bool | None = None, arrays: bool = False) -> dict:
    """The analysis as JSON data; ``include``: the per-cell matrices (default: only up to
    ``TABLE_CELLS`` cells). ``arrays``: leave those matrices as numpy arrays, for a writer that
    formats them a row at a time instead of making a Python object of every number."""
    t = cmp.table
    table = include_table(cmp, include)
    tests = {}
    for name, res in cmp.tests.items():
        entry = res.to_dict(cmp.alpha)
        if name in TWO_LEARNER_TESTS:
            entry = {"a": cmp.pair[0], "b": cmp.pair[1], **entry}
        tests[name] = entry
    doc = jsonable({
        "schema": SCHEMA,
        "rankwise_version": __version__,
        "source": t.source,
        "input": t.reading.to_dict() if getattr(t, "reading", None) is not None else None,
        "criterion": t.criterion,
        "learners": list(t.learners),
        "datasets": list(t.datasets),
        "n_datasets": t.n_datasets,
        "n_learners": t.n_learners,
        "higher_is_better": t.higher_is_better,
        "direction_source": t.direction_source,
        "direction_word": t.direction_word,
        "aggregate": t.aggregate,
        "decimals": cmp.decimals,
        "alpha": cmp.alpha,
        "pvalue_floor": PVALUE_FLOOR,
        "convention": cmp.convention,
        "settings": cmp.settings,
        "mean_ranks": dict(zip(t.learners, cmp.mean_ranks)),
        "mean_rank_intervals": (None if cmp.mean_rank_intervals is None else
                                {name: list(v) for name, v in
                                 zip(t.learners, cmp.mean_rank_intervals)}),
        "table_included": table,
        "values": t.values if table and not arrays else None,
        "ranks": cmp.ranks if table and not arrays else None,
        "missing": {"policy": t.missing_policy, "cells": [list(c) for c in t.missing_cells],
                    "filled": [list(c) for c in t.filled_cells],
                    "dropped_datasets": list(t.dropped_datasets),
                    "dropped_learners": list(t.dropped_learners)},
        "warnings": list(t.warnings),
        "pair": list(cmp.pair) if cmp.pair else None,
        "tests": tests,
        "concordance": None if cmp.concordance is None else cmp.concordance.to_dict(),
        "critical_difference": (cmp.critical_difference.to_dict()
                                if cmp.critical_difference is not None else None),
        "posthoc": (cmp.posthoc.to_dict(matrices=include_matrices(cmp, include))
                    if cmp.posthoc is not None else None),
        "effects": effects_columns(cmp.effects, t.learners),
        "bayesian": [b.to_dict() for b in cmp.bayesian],
        "pool_check": cmp.pool_check.to_dict() if cmp.pool_check is not None else None,
        "mcm": cmp.mcm.to_dict() if cmp.mcm is not None else None,
        "groups": cmp.groups.to_dict() if cmp.groups is not None else None,
        "bayesian_model": (cmp.bayesian_model.to_dict() if cmp.bayesian_model is not None
                           else None),
        "rank_sets": cmp.rank_sets.to_dict() if cmp.rank_sets is not None else None,
        "letters": _letters(cmp),
        "dataset_check": (cmp.dataset_check.to_dict() if cmp.dataset_check is not None
                          else None),
        "multiverse": cmp.multiverse.to_dict() if cmp.multiverse is not None else None,
        "per_dataset": cmp.per_dataset.to_dict() if cmp.per_dataset is not None else None,
        "notes": list(cmp.notes),
    })
    floor_pvalues(doc)
    if table and arrays:  # the keys exist already, so the order of the document is kept
        doc["values"], doc["ranks"] = t.values, cmp.ranks
    return doc


def _letters(cmp):
    """The letter display with the procedure and ranking whose decisions it shows."""
    if cmp.letters is None:
        return None
    plan = cmp.figures["cd_diagram"]
    return {"procedure": plan.procedure, "ranking": plan.ranking, "alpha": plan.alpha,
            **cmp.letters.to_dict()}


def pair_rows(columns: dict, learners) -> list:
    """A column section of the JSON (a post-hoc family, ``effects``) as one dict per pair, with
    learner names: ``{"a": name, "b": name, key: value, ...}``; nested column groups (``apv``,
    each effect) become nested dicts."""
    learners = list(learners)
    n = len(columns["a"])

    def pick(value, i):
        if isinstance(value, dict):
            return {k: pick(v, i) for k, v in value.items()}
        if hasattr(value, "__len__") and not isinstance(value, str):  # a column
            return value[i]
        return value

    out = []
    for i in range(n):
        row = {key: pick(value, i) for key, value in columns.items()}
        row["a"], row["b"] = learners[int(row["a"])], learners[int(row["b"])]
        out.append(row)
    return out
