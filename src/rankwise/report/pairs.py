"""``pairs.csv``: one row per pair of learners, every pair-level number of one analysis.

Rows are the pairs (a, b) with a before b in the table's order (every pair up to 1,000
learners; above, the pairs of the learners the reports show, the best ``top``); columns, left to right: the two
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
from ..analysis.figures import matrix_rows
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
    rows = _pair_learners(cmp)
    a, b = (rows[i] for i in np.triu_indices(rows.size, 1))
    row_of = _row_index(t.n_learners, rows)
    names = [spreadsheet_safe(visible(n)) for n in t.learners]
    cols = {"a": [names[i] for i in a], "b": [names[j] for j in b],
            "mean_rank_a": _fmt(cmp.mean_ranks[a]), "mean_rank_b": _fmt(cmp.mean_ranks[b])}
    plan = cmp.figures.get("pvalue_heatmap") if cmp.figures else None
    if plan is not None and plan.drawn and plan.pvalues is not None:
        order = {name: i for i, name in enumerate(plan.learners)}
        where = np.array([order.get(n, -1) for n in t.learners])
        cols[f"diagram_{plan.procedure}"] = _fmt_p(np.asarray(plan.pvalues)[where[a], where[b]])
    index = {name: i for i, name in enumerate(t.learners)}
    if cmp.posthoc is not None:
        for ranking, entry in cmp.posthoc.rankings.items():
            fam = entry.families.get("all_pairs") if not entry.skipped else None
            if fam is None:
                continue
            fam = getattr(fam, "among", fam)  # streamed: the pairs of the learners shown
            column = np.array([index[n] for n in fam.learners])
            fa, fb = column[fam.a], column[fam.b]
            at, flip = row_of(fa, fb)
            kept = at >= 0
            for label, values, signed in (("statistic", fam.statistics, True),
                                          ("p", fam.pvalues, False),
                                          *((proc, fam.apvs[proc], False)
                                            for proc in fam.procedures)):
                column = np.full(a.size, np.nan)
                v = np.where(flip, -values, values) if signed else values
                column[at[kept]] = v[kept]
                cols[f"{ranking}_{label}"] = (_fmt if signed else _fmt_p)(column)
    if cmp.effects:  # the JSON's columns (arrays), each pair turned to (earlier, later)
        _effect_columns(cmp, a.size, row_of, cols)
    return cols


def _pair_learners(cmp) -> np.ndarray:
    """The learners whose pairs pairs.csv lists, in table order: every learner up to
    ``PAIR_MATRIX_MAX_LEARNERS``, else those of the outputs' matrices (the best ``top``)."""
    return np.sort(matrix_rows(cmp.mean_ranks, cmp.options.get("top")))


def _row_index(k: int, rows: np.ndarray):
    """A function of two learner-index arrays giving each pair's row of the file (−1 when a
    learner is not among ``rows``) and whether the pair is turned ((b, a) stored as (a, b)),
    without a k × k table."""
    place = np.full(k, -1, dtype=np.int64)
    place[rows] = np.arange(rows.size)
    m = rows.size

    def row_of(fa, fb):
        u, v = place[np.minimum(fa, fb)], place[np.maximum(fa, fb)]
        at = u * (2 * m - u - 1) // 2 + (v - u - 1)
        return np.where((u >= 0) & (v >= 0), at, -1), fa > fb

    return row_of


def _effect_columns(cmp, size: int, row_of, cols: dict) -> None:
    e = effects_columns(cmp.effects, cmp.table.learners)
    at, flip = row_of(np.asarray(e["a"]), np.asarray(e["b"]))  # b − a: sign and ends change
    kept = at >= 0
    hl, cd = e["hodges_lehmann"], e["cliffs_delta"]
    fields = {"hl": np.where(flip, -hl["estimate"], hl["estimate"]),
              "hl_low": np.where(flip, -hl["ci_high"], hl["ci_low"]),
              "hl_high": np.where(flip, -hl["ci_low"], hl["ci_high"]),
              "cliffs_delta": np.where(flip, -cd["estimate"], cd["estimate"])}
    for name, values in fields.items():
        column = np.full(size, np.nan)
        column[at[kept]] = np.asarray(values)[kept]
        cols[f"effect_{name}"] = _fmt(column)
    magnitude = [""] * size
    for r, word, keep in zip(at.tolist(), cd["magnitude"], kept.tolist()):
        if keep:
            magnitude[r] = word or ""
    cols["effect_magnitude"] = magnitude


def pairs_csv(cmp) -> str:
    return columns_csv(pairs_columns(cmp))


def columns_csv(cols: dict) -> str:
    """``{column: cells}`` as CSV text, the header first."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(list(cols))
    writer.writerows(zip(*cols.values()))
    return out.getvalue()
