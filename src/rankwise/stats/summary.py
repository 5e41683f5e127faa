"""Descriptive summaries: rank table, win/tie/loss matrix, quartile charts.

Quartile charts, in the text layout of empirical software-engineering papers: per learner
``name, min, q1, median, q3, max, [bar]``, the bar drawn on one scale shared by every learner of
the chart, ``-`` from the lower quartile to the median, ``|`` at the median, ``+`` from the median
to the upper quartile.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from .ranking import DEFAULT_DECIMALS, rank_within_datasets, round_scores

BAR_WIDTH = 40
#: A text chart's lines fit in this many columns (its bars narrowed, to BAR_MIN_WIDTH at least).
LINE_WIDTH = 80
BAR_MIN_WIDTH = 10
#: Kendall's τ between a data set's order of learners (by median) and the overall order, at or
#: above which that data set is "not strikingly different" from the overall chart.
AGREEMENT_TAU = 0.6


def win_tie_loss_matrix(values, higher_is_better: bool = True,
                        decimals: int | None = DEFAULT_DECIMALS, *, ranks=None) -> np.ndarray:
    """W[a, b, :] = (wins, ties, losses) of learner a against learner b over the data sets.

    A learner wins a data set when its score, rounded to ``decimals``, is better. Within a data
    set the mid-ranks keep exactly that order (equal scores share a rank, a better score has a
    smaller rank), so the comparisons are made on twice the ranks as small integers: a quarter
    of the memory traffic of the scores. ``ranks``: the mid-ranks (1 = best) when the caller
    has them already; they must come from the same scores, direction and rounding.
    """
    if ranks is None:
        ranks = rank_within_datasets(values, higher_is_better, decimals)
    ranks = np.asarray(ranks, dtype=float)
    n, k = ranks.shape
    if np.isnan(ranks).any():  # missing cells: each pair counted over the data sets it shares
        out = np.zeros((k, k, 3), dtype=np.int64)
        for a in range(k):
            wins = np.count_nonzero(ranks[:, [a]] < ranks, axis=0)
            ties = np.count_nonzero(ranks[:, [a]] == ranks, axis=0)
            losses = np.count_nonzero(ranks[:, [a]] > ranks, axis=0)
            out[a] = np.column_stack([wins, ties, losses])
        return out
    # the ranks may come from more learners than these (a subset's columns): their largest
    # value, not k, decides the integer type
    largest = 2 * max(k, float(ranks.max()) if ranks.size else 0.0)
    kind = np.int16 if largest < np.iinfo(np.int16).max else np.int32
    rt = np.ascontiguousarray((2 * ranks).T).astype(kind)
    out = np.zeros((k, k, 3), dtype=np.int64)
    for a in range(k - 1):
        later = rt[a + 1:]
        wins = np.count_nonzero(rt[a] < later, axis=1)
        losses = np.count_nonzero(rt[a] > later, axis=1)
        ties = n - wins - losses
        out[a, a + 1:] = np.column_stack([wins, ties, losses])
        out[a + 1:, a] = np.column_stack([losses, ties, wins])
    out[np.arange(k), np.arange(k)] = (0, n, 0)
    return out


def best_in_row(values, higher_is_better: bool = True,
                decimals: int | None = DEFAULT_DECIMALS) -> np.ndarray:
    """Boolean mask of the best cell(s) of every data set (ties all marked)."""
    x = round_scores(values, decimals)
    with warnings.catch_warnings():  # a missing cell (NaN) is never the best
        warnings.simplefilter("ignore", RuntimeWarning)
        best = (np.nanmax(x, axis=1, keepdims=True) if higher_is_better
                else np.nanmin(x, axis=1, keepdims=True))
    return x == best


@dataclass(frozen=True)
class QuartileRow:
    learner: str
    minimum: float
    q1: float
    median: float
    q3: float
    maximum: float
    n: int


def quartiles(samples: dict) -> list:
    """Five-number summary per learner (``numpy.percentile``, linear interpolation); a learner
    without a value (a missing cell kept by ``missing="skillings-mack"``) gets NaN and n = 0."""
    rows = []
    for name, vals in samples.items():
        v = np.asarray(vals, dtype=float)
        v = v[~np.isnan(v)]  # missing cells are not values
        q = np.percentile(v, [0, 25, 50, 75, 100]) if v.size else np.full(5, np.nan)
        rows.append(QuartileRow(name, *map(float, q), n=v.size))
    return rows


def column_quartiles(values, learners) -> list:
    """:func:`quartiles` of each column of ``values`` (one per learner) in one call: the same
    numbers (``numpy.percentile`` along the columns; ``nanpercentile`` where a cell is
    missing), without a call per learner."""
    x = np.asarray(values, dtype=float)
    probs = [0, 25, 50, 75, 100]
    if x.shape[0] == 0:
        return quartiles({name: [] for name in learners})
    present = (~np.isnan(x)).sum(axis=0)
    if present.all() and (present == x.shape[0]).all():
        q = np.percentile(x, probs, axis=0)
    else:
        q = np.full((5, x.shape[1]), np.nan)
        some = present > 0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            q[:, some] = np.nanpercentile(x[:, some], probs, axis=0)
    return [QuartileRow(name, *map(float, q[:, j]), n=int(present[j]))
            for j, name in enumerate(learners)]


def quartile_bar(row: QuartileRow, lo: float, hi: float, width: int = BAR_WIDTH) -> str:
    """The notes' bar: '-' from q1 to the median, '|' at the median, '+' to q3, on [lo, hi];
    a row without values says so."""
    if not row.n:
        return "[" + "no values".center(width) + "]"
    span = hi - lo

    def pos(v):
        return 0 if span <= 0 else min(width - 1, int(round((v - lo) / span * (width - 1))))

    cells = [" "] * width
    p1, pm, p3 = pos(row.q1), pos(row.median), pos(row.q3)
    for i in range(p1, pm):
        cells[i] = "-"
    for i in range(pm + 1, p3 + 1):
        cells[i] = "+"
    cells[pm] = "|"
    return "[" + "".join(cells) + "]"


#: The columns of a quartile chart, named in a header line above its rows.
CHART_COLUMNS = ("learner", "min", "q1", "median", "q3", "max")


def format_quartile_chart(title: str, rows: list, lo: float, hi: float, digits: int = 3,
                          width: int = BAR_WIDTH, header: bool = False) -> list:
    """Lines of one chart, in the notes' layout (columns padded so that the bars line up);
    ``header``: a line naming the columns under the title."""
    cells = [[r.learner] + [f"{v:.{digits}f}" if r.n else "-" for v in
                            (r.minimum, r.q1, r.median, r.q3, r.maximum)] for r in rows]
    widths = [max(len(c[i]) for c in cells + ([list(CHART_COLUMNS)] if header else []))
              for i in range(6)]
    out = [f"----| {title} |-----"]
    if header and rows:
        names = [CHART_COLUMNS[0].ljust(widths[0])] + [CHART_COLUMNS[i].rjust(widths[i])
                                                       for i in range(1, 6)]
        out.append(", ".join(names) + ", bar")
    for r, c in zip(rows, cells):
        parts = [c[0].ljust(widths[0])] + [c[i].rjust(widths[i]) for i in range(1, 6)]
        out.append(", ".join(parts) + ", " + quartile_bar(r, lo, hi, width))
    return out


#: Above this many learners Kendall's τ is not computed from every pair of them.
KENDALL_PAIRS_MAX_N = 1_000


def _kendall_tau(a, b) -> float:
    """Kendall's tau-a of the learners that have a value in both (NaN: none)."""
    a, b = np.asarray(a), np.asarray(b)
    both = ~(np.isnan(a) | np.isnan(b))
    a, b = a[both], b[both]
    n = a.size
    if n < 2:
        return 1.0
    if n > KENDALL_PAIRS_MAX_N:  # (C − D)/C(n, 2) from scipy's O(n log n) tau-b
        from scipy import stats

        pairs = n * (n - 1) / 2.0
        tied = [float(sum(c * (c - 1) / 2.0 for c in np.unique(v, return_counts=True)[1]))
                for v in (a, b)]
        tau_b = stats.kendalltau(a, b).statistic
        scale = np.sqrt((pairs - tied[0]) * (pairs - tied[1])) / pairs
        return 0.0 if not np.isfinite(tau_b) else float(tau_b * scale)
    i, j = np.triu_indices(n, 1)
    s = np.sign(a[i] - a[j]) * np.sign(b[i] - b[j])
    return float(s.sum() / len(s))


def quartile_charts(table, width: int = BAR_WIDTH, tau: float = AGREEMENT_TAU) -> dict:
    """The overall chart and, when fold-level values exist, one chart per data set.

    ``overall_enough`` says when the overall chart is enough (the per-data-set charts are
    then left out), made precise: every data set orders the learners by
    median with Kendall's τ ≥ ``tau`` (default 0.6) against the overall order of medians.
    Without fold-level values the overall chart summarises the per-data-set cells.
    """
    learners = list(table.learners)
    raw = table.raw
    if raw is not None:
        values = _values_by(raw, "learner")
        rows = quartiles({name: values.get(name, np.empty(0)) for name in learners})
    else:
        rows = column_quartiles(table.values, learners)
    lo = min(r.minimum for r in rows if r.n)
    hi = max(r.maximum for r in rows if r.n)
    per_dataset = {}
    agreements = {}
    sign = 1 if table.higher_is_better else -1
    if raw is not None:
        med_all = np.array([r.median for r in rows]) * sign
        cells = _values_by(raw, ["dataset", "learner"])
        for d in table.datasets:
            drows = quartiles({name: cells.get((d, name), np.empty(0)) for name in learners})
            per_dataset[d] = drows
            agreements[d] = _kendall_tau(np.array([r.median for r in drows]) * sign, med_all)
    enough = all(t >= tau for t in agreements.values())
    return {"overall": rows, "lo": lo, "hi": hi, "per_dataset": per_dataset,
            "agreement": agreements, "overall_enough": enough, "tau": tau, "width": width,
            "fold_level": raw is not None}


def _values_by(raw, keys) -> dict:
    """``{key: the "value" column of its rows, in file order}`` in one grouping pass."""
    groups = raw.groupby(keys, sort=False, observed=True)["value"]
    return {key: group.to_numpy() for key, group in groups}


def quartile_chart_lines(table, criterion_label: str | None = None, digits: int = 3,
                         show_all: bool = False, charts: dict | None = None) -> list:
    """The charts as text: overall, then per data set unless the overall chart is enough.
    ``charts``: the result of :func:`quartile_charts`, when it is at hand already."""
    charts = quartile_charts(table) if charts is None else charts
    label = criterion_label or table.criterion or "score"
    shown = [("Overall", charts["overall"])]
    if charts["per_dataset"] and not (charts["overall_enough"] and not show_all):
        shown += list(charts["per_dataset"].items())
    # The bars are narrowed (all alike, so that they line up) until every line fits in
    # LINE_WIDTH columns, down to BAR_MIN_WIDTH.
    width = charts["width"]
    longest = max(len(line) for title, rows in shown for line in
                  format_quartile_chart(title, rows, charts["lo"], charts["hi"], digits, width,
                                        header=True)[1:]
                  ) if any(rows for _, rows in shown) else 0
    width = max(BAR_MIN_WIDTH, min(width, width - (longest - LINE_WIDTH)))
    out = ["=====", f"Criteria {label}",
           f"(bars on one scale from {charts['lo']:.{digits}f} to {charts['hi']:.{digits}f}:",
           " - from q1 to the median, | the median, + from the median to q3)"]
    out.extend(format_quartile_chart("Overall", charts["overall"], charts["lo"], charts["hi"],
                                     digits, width, header=True))
    if charts["per_dataset"]:
        if charts["overall_enough"] and not show_all:
            # two lines: a text report keeps every line within 80 columns
            out += ["(every data set orders the learners like the overall chart,",
                    f" Kendall tau >= {charts['tau']}: per-data-set charts omitted)"]
        else:
            for d, rows in charts["per_dataset"].items():
                out.extend(format_quartile_chart(d, rows, charts["lo"], charts["hi"], digits,
                                                 width))
    return out
