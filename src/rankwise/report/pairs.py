"""``pairs.csv``: one row per pair of learners, every pair-level number of one analysis.

Rows are the pairs (a, b) with a before b in the table's order; columns, left to right: the two
names and mean ranks; the adjusted p-value of the CD diagram's procedure (when it is drawn);
for every ranking with an all-pairs family, its statistic, unadjusted p and each procedure's
adjusted p (p-values below 1e-300 written as 1e-300, a bound, as in the JSON); and the effect
sizes of ``a − b`` where they were computed (empty elsewhere). Built
from arrays, so 1,000 learners (499,500 rows) are written without an object per pair.
"""

from __future__ import annotations

import csv
import io
import math

import numpy as np

from .._text import spreadsheet_safe, visible
from ..analysis.effect_columns import effects_columns
from ..stats.results import clip_to_floor


def _fmt(values) -> list:
    """Shortest round-trip text of each number, empty where it is not finite."""
    finite = math.isfinite
    return [_repr(v) if finite(v) else "" for v in np.asarray(values, float).tolist()]


_repr = float.__repr__


def _fmt_p(values) -> list:
    """p-values as :func:`_fmt`, those below ``PVALUE_FLOOR`` written as the floor (as in the
    JSON: read 1e-300 as p < 1e-300)."""
    return _fmt(clip_to_floor(values))


def pairs_columns(cmp) -> dict:
    """``{column: list of cells}`` of ``pairs.csv`` (see the module docstring)."""
    t = cmp.table
    k = t.n_learners
    a, b = np.triu_indices(k, 1)
    names = [spreadsheet_safe(visible(n)) for n in t.learners]
    cols = {"a": [names[i] for i in a], "b": [names[j] for j in b],
            "mean_rank_a": _fmt(cmp.mean_ranks[a]), "mean_rank_b": _fmt(cmp.mean_ranks[b])}
    plan = cmp.figures.get("pvalue_heatmap") if cmp.figures else None
    if plan is not None and plan.drawn and plan.pvalues is not None:
        order = {name: i for i, name in enumerate(plan.learners)}
        where = np.array([order[n] for n in t.learners])
        cols[f"diagram_{plan.procedure}"] = _fmt_p(plan.pvalues[where[a], where[b]])
    position = np.full((k, k), -1, dtype=np.int64)
    position[a, b] = np.arange(a.size)
    index = {name: i for i, name in enumerate(t.learners)}
    if cmp.posthoc is not None:
        for ranking, entry in cmp.posthoc.rankings.items():
            fam = entry.families.get("all_pairs") if not entry.skipped else None
            if fam is None:
                continue
            column = np.array([index[n] for n in fam.learners])
            fa, fb = column[fam.a], column[fam.b]
            lo, hi = np.minimum(fa, fb), np.maximum(fa, fb)
            rows = position[lo, hi]
            flip = fa > fb  # the statistic of (b, a) is minus that of (a, b)
            for label, values, signed in (("statistic", fam.statistics, True),
                                          ("p", fam.pvalues, False),
                                          *((proc, fam.apvs[proc], False)
                                            for proc in fam.procedures)):
                column = np.full(a.size, np.nan)
                column[rows] = np.where(flip, -values, values) if signed else values
                cols[f"{ranking}_{label}"] = (_fmt if signed else _fmt_p)(column)
    if cmp.effects:  # the JSON's columns (arrays), each pair turned to (earlier, later)
        e = effects_columns(cmp.effects, t.learners)
        ea, eb = np.asarray(e["a"]), np.asarray(e["b"])
        flip = ea > eb  # b − a: the estimate and interval change sign and ends
        rows = position[np.minimum(ea, eb), np.maximum(ea, eb)]
        hl, cd = e["hodges_lehmann"], e["cliffs_delta"]
        fields = {"hl": np.where(flip, -hl["estimate"], hl["estimate"]),
                  "hl_low": np.where(flip, -hl["ci_high"], hl["ci_low"]),
                  "hl_high": np.where(flip, -hl["ci_low"], hl["ci_high"]),
                  "cliffs_delta": np.where(flip, -cd["estimate"], cd["estimate"])}
        for name, values in fields.items():
            column = np.full(a.size, np.nan)
            column[rows] = values
            cols[f"effect_{name}"] = _fmt(column)
        magnitude = [""] * a.size
        for r, word in zip(rows.tolist(), cd["magnitude"]):
            magnitude[r] = word or ""
        cols["effect_magnitude"] = magnitude
    return cols


def pairs_csv(cmp) -> str:
    cols = pairs_columns(cmp)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(list(cols))
    writer.writerows(zip(*cols.values()))
    return out.getvalue()
