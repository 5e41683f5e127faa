"""Critical-difference diagrams (Demšar 2006, §3.2.4), a control diagram, and the figure files.

Figures are built on ``matplotlib.figure.Figure`` directly (no pyplot, no global backend
change), so they work headless and in any program. Rank 1 (the best) is on the left.

- :func:`cd_diagram`: all pairs. Learners hang from the mean-rank axis; a thick bar joins each
  *clique*, a maximal group of learners no two of which the chosen all-pairs procedure finds
  significantly different. Bars sit on separate levels so that they never overlap. When one
  critical difference exists (Nemenyi), it is drawn above the axis.
- :func:`control_diagram`: one learner against the others. The control is marked, the
  Bonferroni-Dunn interval (control ± CD) is shaded when given, and each learner is drawn filled
  (significantly different from the control) or hollow (not). It has no clique bars, so it
  cannot be read as an all-pairs diagram.
- the other figures of a comparison (the p-value heat map, rank sets, the forest, the
  specification curve, P(best), the multiple-comparison matrix) are in :mod:`.plots`.
"""

from __future__ import annotations

import math
from dataclasses import replace

import io

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..analysis.figures import cliques
from ..names import label
from .format import fmt_cd, literal
from .fonts import label_inches
from .plots import (forest_plot, group_boxplot, mcm_plot, p_best_plot, pvalue_heatmap,
                    rank_set_plot, specification_curve)

ROW = 0.24  # inches per label row
PNG_DPI = 150  # the raster figures' resolution
VECTOR_DPI = 1200  # the resolution a vector file's box is measured at (text as drawn)
TIGHT_PAD = 0.08  # inches of margin around a figure cropped by matplotlib's "tight" box
MIN_FONT = 6  # points: the smallest type a diagram drawn to a given width is set in
BAR_PAD = 0.006  # figure width: a clique bar reaches this far past its end learners' lines
BAR_GAP = 0.03  # inches: the least blank between two clique bars on one level
#: Inches between two learners' lines down from the axis (tied mean ranks drew one line for
#: two learners), and between two markers of the control diagram (a marker is 6-7 points).
DROP_SEP = 3 / 72
MARKER_SEP = 7.5 / 72

#: ``--figure-width`` by name, in centimetres: a column and the whole text width of the usual
#: two-column formats (ACM 8.5/17.8 cm, IEEE 8.9/18.1 cm), a little under both.
FIGURE_WIDTHS = {"column": 8.4, "page": 17.0}


def assign_levels(spans, gap: float = 0.0) -> list:
    """Level of each (lo, hi) span so that spans on one level never touch (greedy, left first)."""
    order = sorted(range(len(spans)), key=lambda i: (spans[i][0], spans[i][1]))
    ends = []
    levels = [0] * len(spans)
    for i in order:
        lo, hi = spans[i]
        for lev, end in enumerate(ends):
            if lo > end + gap:
                ends[lev] = hi
                levels[i] = lev
                break
        else:
            ends.append(hi)
            levels[i] = len(ends) - 1
    return levels


def _layout(k):
    font = 10 if k <= 20 else 8 if k <= 35 else 7
    return font


def rank_axis(mean_ranks) -> tuple:
    """``(lo, hi, major, minor)``: the mean-rank axis of a diagram and its ticks. Every one of
    k learners: 1 to k, each rank a tick, every 5th labelled (every one up to 20). Some of many
    learners (the best ``top`` of thousands, whose mean ranks can lie far above their number):
    the whole ranks around theirs, about ten labelled ticks at a round step."""
    r = np.asarray(mean_ranks, dtype=float)
    k = r.size
    top = float(np.nanmax(r)) if k else 1.0
    if top <= max(k, 2):
        step = 1 if k <= 20 else 5
        ticks = list(range(1, k + 1))
        return 1.0, float(max(k, 2)), [t for t in ticks if t in (1, k) or t % step == 0], ticks
    lo, hi = float(math.floor(np.nanmin(r))), float(math.ceil(top))
    hi = max(hi, lo + 1)
    step = next(s for s in (m * 10 ** e for e in range(12) for m in (1, 2, 5))
                if (hi - lo) / s <= 10)
    major = list(range(int(math.ceil(lo / step) * step), int(hi) + 1, step))
    minor_step = max(1, step // 5)
    minor = list(range(int(math.ceil(lo / minor_step) * minor_step), int(hi) + 1, minor_step))
    return lo, hi, major, minor


def spaced_ticks(major, room: float) -> list:
    """The labelled ticks ``major`` thinned until neighbours are ``room`` ranks apart at least
    (a label's width and a blank, on the axis as drawn): the multiples of a rounder step, the
    axis's first and last tick kept and a multiple closer than ``room`` to either left out
    (78 learners in a column: 5, 10, 15 ... ran together, and 75 into 78)."""
    major = list(major)
    if len(major) < 3:
        return major
    first, last = major[0], major[-1]
    base = major[2] - major[1]
    for step in (m * 10 ** e for e in range(9) for m in (1, 2, 5)):
        if step >= base and step >= room:
            return [first, *(t for t in major[1:-1] if t % step == 0 and t - first >= room
                             and last - t >= room), last]
    return [first, last]


def _axis_frame(mean_ranks, names, title, n_levels, suffix: str = "", width=None):
    k = len(names)
    font = _layout(k)
    half = (k + 1) // 2
    rows = max(half, k - half)
    height = 1.2 + 0.22 * n_levels + ROW * rows + (0.35 if title else 0)
    # Room for the longest label on each side, measured in the figure's font (a guess per
    # character clipped "(12.03) config_0002" at k = 30), plus the gap to the axis.
    # (the control diagram's control is labelled "[control]" in bold)
    labels = [f"{n}{suffix}" for n in names]
    label_in = label_inches(labels, k, font, bold=bool(suffix)) + 0.25
    if width is None:
        width = max(8.0, 4.8 + 2 * label_in)
    else:  # a given width: smaller type (down to 6 pt) until the axis keeps 40% of it
        while font > MIN_FONT and 2 * (label_in - 0.25) > 0.6 * width:
            font -= 1
            label_in = label_inches(labels, k, font, bold=bool(suffix)) + 0.25
        # the blank 0.25 inch beyond each label is cut from the file (less its 0.06 margin)
        width = max(width + 2 * 0.19, 2 * label_in + 1.0)  # wider: fit_width scales it down
    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, 1)
    ax.set_ylim(height, 0)  # y in inches, downwards
    ax.axis("off")
    lo, hi, major, minor = rank_axis(mean_ranks)
    left, right = label_in / width + 0.02, 1 - label_in / width - 0.02
    fig.rankwise_margin = (left - 0.02, right + 0.02)

    def x_of(r):
        return left + (r - lo) / (hi - lo) * (right - left)

    top = 0.75 + (0.35 if title else 0)
    if title:
        ax.text(0.5, 0.25, title, ha="center", va="center", fontsize=font + 1)
    ax.plot([x_of(lo), x_of(hi)], [top, top], color="black", lw=1)
    per_rank = (x_of(lo + 1) - x_of(lo)) * width   # inches
    digits = len(str(max(major, default=1)))
    labelled = set(spaced_ticks(major, (0.65 * digits * font / 72 + 0.06) / per_rank))
    for r in minor:
        big = r in labelled
        ax.plot([x_of(r), x_of(r)], [top - (0.08 if big else 0.04), top], color="black", lw=0.8)
        if big:
            ax.text(x_of(r), top - 0.12, str(r), ha="center", va="bottom", fontsize=font)
    fig.rankwise_axis = (lo, hi)
    return fig, ax, x_of, top, font, height


def spread(x, sep: float, bounds: tuple | None = None) -> np.ndarray:
    """Positions as near ``x`` as can be (least squares) with at least ``sep`` between
    neighbours, in the order of ``x`` (ties in their given order): the lines of tied learners
    drop side by side instead of as one line. Runs of points closer than ``sep`` are spread
    about their own mean; the rest stay where they are. Within ``bounds`` (the axis's ends),
    where ``sep`` is narrowed so that every point fits.

    Examples
    --------
    >>> from rankwise.report.diagrams import spread
    >>> spread([1.0, 2.0, 2.0, 4.0], 0.2).round(3).tolist()
    [1.0, 1.9, 2.1, 4.0]
    >>> spread([1.0, 1.0, 1.0], 0.2, bounds=(1.0, 4.0)).round(3).tolist()
    [1.0, 1.2, 1.4]
    """
    x = np.asarray(x, dtype=float)
    if bounds is not None and x.size > 1:
        sep = min(sep, (bounds[1] - bounds[0]) / (x.size - 1))
    out = _spread(x, sep)
    if bounds is not None and x.size:
        # pushed in from the ends, keeping the order and the separation
        order = np.argsort(out, kind="stable")
        placed = out[order]
        placed = np.maximum(placed, bounds[0] + sep * np.arange(x.size))
        placed = np.minimum(placed, bounds[1] - sep * np.arange(x.size)[::-1])
        out[order] = placed
    return out


def _spread(x: np.ndarray, sep: float) -> np.ndarray:
    order = np.argsort(x, kind="stable")
    runs = []   # [start, members, sum of (desired - place * sep)]
    for i in order:
        runs.append([x[i], 1, x[i]])
        while len(runs) > 1 and runs[-2][0] + runs[-2][1] * sep > runs[-1][0] + 1e-12:
            (_, n0, t0), (_, n1, t1) = runs[-2], runs.pop()
            total = t0 + t1 - n0 * n1 * sep   # the second run's places move up by n0
            runs[-1] = [total / (n0 + n1), n0 + n1, total]
    out = np.empty_like(x)
    starts = np.repeat([r[0] for r in runs], [r[1] for r in runs])
    places = np.concatenate([np.arange(r[1]) for r in runs]) if runs else np.empty(0)
    out[order] = starts + places * sep
    return out


def _label_x(ax):
    return ax.figure.rankwise_margin


def clique_levels(mean_ranks, groups, gap: float | None = None) -> list:
    """The bar level of each clique (groups of indices), overlapping cliques on separate levels
    (the drawn and the TikZ diagram share it). ``gap``: the least distance in ranks between
    the end learners of two cliques on one level (each diagram's reach of a bar past its end
    learners and the blank that keeps two bars apart, in its own units); default 1% of the
    axis."""
    k = len(mean_ranks)
    spans = [(mean_ranks[g[0]], mean_ranks[g[-1]]) for g in groups]
    return assign_levels(spans, gap=0.1 * (max(k, 2) - 1) / 10 if gap is None else gap)


def label_rows(mean_ranks) -> list:
    """``(learner index, row, left)`` in mean-rank order: the better half hangs to the left,
    row 0 nearest the axis; the rest to the right, the worst on row 0."""
    k = len(mean_ranks)
    half = (k + 1) // 2
    return [(int(j), pos if pos < half else k - 1 - pos, pos < half)
            for pos, j in enumerate(np.argsort(mean_ranks, kind="stable"))]


def _hang_labels(ax, mean_ranks, names, drop, top, start, font, style=None):
    """Learners with the better half of the mean ranks hang to the left, the rest to the right,
    each from its line down from the axis at ``drop[learner]`` (figure width)."""
    texts = []
    left_x, right_x = _label_x(ax)
    for idx, row, left in label_rows(mean_ranks):
        r = mean_ranks[idx]
        y = start + ROW * row
        xe, ha = (left_x, "right") if left else (right_x, "left")
        ax.plot([drop[idx], drop[idx], xe], [top, y, y], color="black", lw=0.7)
        label = (f"{literal(names[idx])} ({r:.2f})" if ha == "left"
                 else f"({r:.2f}) {literal(names[idx])}")
        extra = (style or {}).get(idx, {})
        texts.append(ax.text(xe + (-0.005 if ha == "right" else 0.005), y, label, ha=ha,
                             va="center", fontsize=font, **extra))
    return texts


def _bar_levels(fig, ax, x_of, mean_ranks, groups, levels) -> list:
    """The clique bars' levels for the axis as drawn: two bars share a level only where a
    blank of ``BAR_GAP`` inches is left between them (each reaches ``BAR_PAD`` past its end
    learners' lines), else two cliques would read as one bar. The figure grows by the levels
    this adds."""
    width, height = fig.get_size_inches()
    lo = fig.rankwise_axis[0]
    per_rank = x_of(lo + 1) - x_of(lo)   # figure width per rank
    new = clique_levels(mean_ranks, groups, gap=(2 * BAR_PAD + BAR_GAP / width) / per_rank)
    extra = max(new, default=-1) - max(levels, default=-1)
    if extra:
        height += 0.22 * extra
        fig.set_size_inches(width, height)
        ax.set_ylim(height, 0)
    return new


def cd_diagram(mean_ranks, names, significant=None, cd: float | None = None,
               title: str | None = None, alpha: float | None = None,
               procedure: str | None = None, groups=None, intervals=None,
               width: float | None = None) -> Figure:
    """All-pairs critical-difference diagram.

    Parameters
    ----------
    mean_ranks : (k,) mean ranks (1 = best).
    names : learner names.
    significant : (k, k) bool, optional
        Decisions of the chosen all-pairs procedure. Without it, the Nemenyi rule
        |R_a − R_b| ≥ ``cd`` is used.
    cd : float, optional
        The critical difference, drawn above the axis when given.
    groups : sequence of tuples of indices, optional
        The cliques, when the analysis has decided them already.
    intervals : (k, 2) array, optional
        Intervals of the mean ranks, drawn as thin bars just under the axis.
    width : float, optional
        The figure's width in inches; the labels' type is made smaller (down to 6 pt) to leave
        the axis room. Default: as wide as the labels need, at least 8 inches.
    """
    mean_ranks = np.asarray(mean_ranks, dtype=float)
    if groups is None:
        if significant is None:
            if cd is None:
                raise ValueError("give the decisions (significant), the cliques (groups) or a"
                                 " critical difference (cd)")
            significant = np.abs(mean_ranks[:, None] - mean_ranks[None, :]) >= cd
        groups = cliques(mean_ranks, significant)
    groups = [tuple(g) for g in groups]
    levels = clique_levels(mean_ranks, groups)
    if title is None and procedure:
        title = f"{procedure}" + (f", alpha = {alpha}" if alpha is not None else "")
    fig, ax, x_of, top, font, height = _axis_frame(mean_ranks, names, title,
                                                   max(levels, default=-1) + 1, width=width)
    ends = (x_of(fig.rankwise_axis[0]), x_of(fig.rankwise_axis[1]))
    drop = spread([x_of(v) for v in mean_ranks], DROP_SEP / fig.get_figwidth(), ends)
    # the bars' levels from the lines as drawn (a tie's lines stand apart)
    at = fig.rankwise_axis[0] + (drop - ends[0]) / (x_of(fig.rankwise_axis[0] + 1) - ends[0])
    levels = _bar_levels(fig, ax, x_of, at, groups, levels)
    n_levels = max(levels) + 1 if levels else 0
    if cd is not None:
        lo, hi = fig.rankwise_axis
        if lo + cd <= hi:
            ax.plot([x_of(lo), x_of(lo + cd)], [top - 0.45, top - 0.45], color="black", lw=1.2)
            for r in (lo, lo + cd):
                ax.plot([x_of(r), x_of(r)], [top - 0.5, top - 0.4], color="black", lw=1.2)
            ax.text(x_of(lo + cd / 2), top - 0.5, f"CD = {fmt_cd(cd)}", ha="center",
                    va="bottom", fontsize=font)
        else:  # a CD longer than the axis of the learners shown: said, not drawn
            ax.text(0.5, top - 0.5, f"CD = {fmt_cd(cd)} (longer than this axis)", ha="center",
                    va="bottom", fontsize=font)
    bar_top = top + 0.2
    for g, lev in zip(groups, levels):
        y = bar_top + 0.22 * lev
        xs = [drop[i] for i in g]
        ax.plot([xs[0] - BAR_PAD, xs[-1] + BAR_PAD], [y, y], color="black", lw=3.0,
                solid_capstyle="butt")
        contiguous = list(g) == [int(i) for i in np.argsort(mean_ranks, kind="stable")
                                 if mean_ranks[g[0]] <= mean_ranks[i] <= mean_ranks[g[-1]]]
        if not contiguous:  # mark the members so that a skipped learner is not read as one
            ax.plot(xs, [y] * len(xs), "o", color="black", ms=4)
    start = bar_top + 0.22 * n_levels + 0.15
    if intervals is not None:
        # Each learner's interval just above its own label line, with end caps.
        for j, row, _ in label_rows(mean_ranks):
            y = start + ROW * row - 0.09
            lo, hi = (x_of(v) for v in intervals[j])
            ax.plot([lo, hi], [y, y], color="0.35", lw=1.2, solid_capstyle="butt")
            for xe in (lo, hi):
                ax.plot([xe, xe], [y - 0.04, y + 0.04], color="0.35", lw=1.0)
    texts = _hang_labels(ax, mean_ranks, names, drop, top, start, font)
    fig.rankwise_labels = texts
    fig.rankwise_cliques = groups
    return fig


def control_diagram(mean_ranks, names, control: int, significant=None, cd: float | None = None,
                    title: str | None = None, width: float | None = None) -> Figure:
    """Comparison with a control: interval control ± ``cd`` (Bonferroni-Dunn) and/or per-learner
    decisions ``significant[j]`` of any control procedure (filled = significantly different);
    ``width`` in inches as for :func:`cd_diagram`."""
    mean_ranks = np.asarray(mean_ranks, dtype=float)
    k = len(names)
    fig, ax, x_of, top, font, height = _axis_frame(mean_ranks, names, title, 1, " [control]",
                                                   width)
    rc = mean_ranks[control]
    if cd is not None:
        axis_lo, axis_hi = fig.rankwise_axis
        lo, hi = max(axis_lo, rc - cd), min(axis_hi, rc + cd)
        ax.fill_between([x_of(lo), x_of(hi)], top - 0.06, top + 0.06, color="0.75", lw=0)
        ax.text(0.5, top - 0.4, f"shaded: control ± CD = {fmt_cd(cd)}", ha="center", va="center",
                fontsize=font - 1)
    # markers of close mean ranks side by side (on a narrow axis they merged into one)
    drop = spread([x_of(v) for v in mean_ranks], MARKER_SEP / fig.get_figwidth(),
                  (x_of(fig.rankwise_axis[0]), x_of(fig.rankwise_axis[1])))
    for j in range(k):
        if j == control:
            ax.plot([drop[j]], [top], marker="D", color="black", ms=7)
            continue
        filled = bool(significant[j]) if significant is not None else (
            cd is not None and abs(mean_ranks[j] - rc) >= cd)
        ax.plot([drop[j]], [top], marker="o", ms=6, color="black",
                markerfacecolor="black" if filled else "white")
    style = {control: {"fontweight": "bold"}}
    names = [f"{n} [control]" if j == control else n for j, n in enumerate(names)]
    texts = _hang_labels(ax, mean_ranks, names, drop, top, top + 0.55, font, style)
    ax.text(0.5, height - 0.12, "filled: significantly different from the control;"
            " hollow: not", ha="center", va="bottom", fontsize=font - 1)
    fig.rankwise_labels = texts
    return fig


def draw(plan, mean_ranks, names, titled: bool = False, width: float | None = None
         ) -> Figure | None:
    """The matplotlib figure of a :class:`~rankwise.analysis.results.FigurePlan` (None when the
    plan says it is not drawn). Everything it shows comes from the plan. Without ``titled``
    (the default, for papers) the figure has no title: its caption says what it shows.
    ``width`` (inches): the rank diagrams are laid out to it and every figure wider than it is
    scaled down to it (:func:`fit_width`)."""
    return fit_width(_plotted(plan, mean_ranks, names, titled, width), width)


def _plotted(plan, mean_ranks, names, titled, width):
    if not plan.drawn:
        return None
    if plan.name == "bayesian_simplex":
        return simplex_plot(plan.posterior)
    if plan.name == "mcm":
        return mcm_plot(plan.matrix)
    if plan.name == "groups":
        return group_boxplot(*plan.matrix)
    if plan.name == "p_best":
        return p_best_plot(plan.matrix)
    if plan.name == "rank_sets":
        return rank_set_plot(plan.matrix)
    if plan.name == "multiverse":
        return specification_curve(plan.matrix)
    if plan.name == "per_dataset":
        return forest_plot(plan.matrix)
    names = list(names)
    forced = " [forced: the omnibus test did not reject]" if plan.forced else ""
    head = f"{label(plan.procedure)}, $\\alpha$ = {plan.alpha}{forced}"
    if not titled:
        if plan.forced:  # a forced figure keeps its warning, whatever the caption says
            head = "forced: the omnibus test did not reject"
            return _draw(plan, mean_ranks, names, lambda _: head, width)
        return _draw(plan, mean_ranks, names, lambda _: None, width)
    return _draw(plan, mean_ranks, names, lambda title: f"{title}: {head}", width)


def rank_interval_plot(mean_ranks, names, intervals, worse, title=None) -> Figure:
    """Every learner's mean rank (y) with its interval, learners best first along x; filled
    dots where ``worse`` is False (the verdict's top group). Names on the axis up to 60
    learners; past that, positions (the reports' tables name them)."""
    from matplotlib.collections import LineCollection

    r = np.asarray(mean_ranks, dtype=float)
    k = r.size
    order = np.lexsort((np.arange(k), r))
    lo = np.array([intervals[i][0] for i in order])
    hi = np.array([intervals[i][1] for i in order])
    pos = np.arange(1, k + 1)
    labelled = k <= 60
    fig = Figure(figsize=(max(6.0, min(12.0, 0.16 * k)) if labelled else 8.0,
                          4.2 if labelled else 3.6))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    ax.add_collection(LineCollection(np.stack([np.column_stack([pos, lo]),
                                               np.column_stack([pos, hi])], axis=1),
                                     colors="0.45", linewidths=0.8 if k <= 200 else 0.4))
    top = np.array([not worse[i] for i in order])
    size = 14 if k <= 200 else 4
    ax.scatter(pos[top], r[order][top], s=size, color="black", zorder=3,
               label="not significantly worse than the best")
    ax.scatter(pos[~top], r[order][~top], s=size, facecolors="white", edgecolors="black",
               linewidths=0.6, zorder=3, label="significantly worse")
    ax.set_xlim(0, k + 1)
    ax.set_ylim(max(float(hi.max()), float(k)) + 0.5, 0.5)  # rank 1 at the top
    ax.set_ylabel("mean rank (1 = best)")
    if labelled:
        ax.set_xticks(pos)
        ax.set_xticklabels([literal(str(names[i])) for i in order], rotation=90, fontsize=7)
    else:
        ax.set_xlabel(f"learners by mean rank (1 to {k:,})")
    ax.legend(loc="upper right", fontsize=7, frameon=False)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    if title:
        ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig


def _draw(plan, mean_ranks, names, title, width=None):
    if plan.name == "rank_intervals":
        worse = [bool(plan.decisions.get(n, False)) for n in names]
        return rank_interval_plot(mean_ranks, names, [plan.rank_intervals[n] for n in names],
                                  worse, title("Mean ranks"))
    if plan.name == "cd_diagram":
        index = {n: j for j, n in enumerate(names)}
        groups = [tuple(index[n] for n in g) for g in plan.cliques]
        bars = None if plan.rank_intervals is None else np.array(
            [plan.rank_intervals[n] for n in names])
        return cd_diagram(mean_ranks, names, cd=plan.critical_difference, groups=groups,
                          title=title("All pairs"), intervals=bars, width=width)
    if plan.name == "control_diagram":
        control = names.index(plan.control)
        marks = np.array([bool(plan.decisions.get(n, False)) for n in names])
        return control_diagram(mean_ranks, names, control, marks, cd=plan.critical_difference,
                               title=title(f"Against {literal(plan.control)}"), width=width)
    if plan.learners and list(plan.learners) != list(names):  # fewer learners than shown
        where = {n: i for i, n in enumerate(names)}
        pick = [where[n] for n in plan.learners]
        names, mean_ranks = list(plan.learners), np.asarray(mean_ranks)[pick]
    return pvalue_heatmap(plan.pvalues, names, mean_ranks, plan.alpha,
                          title=title("Adjusted p-values") or "")


def simplex_plot(posterior) -> Figure:
    """One triangle per pair: posterior draws of (θ_a, θ_rope, θ_b) in barycentric coordinates,
    a at the lower left, b at the lower right, the ROPE at the top."""
    from matplotlib.font_manager import FontProperties, findfont

    from .fonts import text_width

    m = len(posterior)
    cols = min(m, 3)
    rows = (m + cols - 1) // cols
    face = findfont(FontProperties())

    def inches(text, font):
        return text_width(text, font, "normal", face) / 72.0

    # Long names do not fit under a corner (each has half a triangle, 1.3 inches): the corners
    # say a and b, the title names them, a line each, and the panel is as wide as its title.
    named = max(inches(literal(n), 8) for a, b, _, _ in posterior for n in (a, b)) <= 1.3
    panel = 3.4 if named else max(3.4, 0.8 + max(
        inches(f"a: {literal(n)}", 9) for a, b, _, _ in posterior for n in (a, b)))
    fig = Figure(figsize=(panel * cols, (3.3 if named else 3.6) * rows))
    FigureCanvasAgg(fig)
    h = math.sqrt(3) / 2
    colours = np.array(["#1b7837", "#999999", "#762a83"])  # a, equivalent, b
    for i, (a, b, draws, probs) in enumerate(posterior):
        ax = fig.add_subplot(rows, cols, i + 1)
        ax.set_aspect("equal")
        ax.axis("off")
        ax.plot([0, 1, 0.5, 0], [0, 0, h, 0], color="black", lw=0.8)
        d = np.asarray(draws, dtype=float)
        x = d[:, 2] + 0.5 * d[:, 1]
        y = h * d[:, 1]
        ax.scatter(x, y, s=2, c=colours[np.argmax(d, axis=1)], alpha=0.35, linewidths=0,
                   rasterized=True)
        ax.text(0, -0.06, literal(a) if named else "a", ha="center", va="top", fontsize=8)
        ax.text(1, -0.06, literal(b) if named else "b", ha="center", va="top", fontsize=8)
        ax.text(0.5, h + 0.04, "equivalent", ha="center", va="bottom", fontsize=8)
        pair = (f"{literal(a)} vs {literal(b)}" if named else
                f"a: {literal(a)}\nb: {literal(b)}")
        ax.set_title(pair + "\n" + " / ".join(f"{p:.3f}" for p in probs), fontsize=9, pad=14)
        ax.set_xlim(-0.15, 1.15)
        ax.set_ylim(-0.15, h + 0.12)
    return fig


def shown_plan(plan, learners, keep):
    """``plan`` for the learners ``keep`` (names) only: the cliques cut to them (a run cut to
    the best learners is still a run; groups inside another are dropped), the heat map's rows
    and columns picked."""
    keep = list(keep)
    inside = set(keep)
    changes = {"learners": tuple(keep)}
    if plan.cliques is not None:
        cut = [tuple(n for n in g if n in inside) for g in plan.cliques]
        cut = [g for g in cut if len(g) >= 2]
        changes["cliques"] = tuple(g for g in cut
                                   if not any(set(g) < set(h) for h in cut))
    if plan.pvalues is not None:
        where = {n: i for i, n in enumerate(plan.learners or learners)}
        kept = [n for n in keep if n in where]  # above 1,000 learners it holds at most 1,000
        rows = [where[n] for n in kept]
        changes["pvalues"] = np.asarray(plan.pvalues)[np.ix_(rows, rows)]
        changes["learners"] = tuple(kept)
    return replace(plan, **changes)


def shown_figure_inputs(cmp):
    """The learners the figures show (the reports' best ``top``), their mean ranks, and a
    function that restricts a plan to them."""
    from .blocks import figure_learners

    idx = figure_learners(cmp)
    names = [cmp.table.learners[j] for j in idx]
    if len(idx) == cmp.table.n_learners:
        return list(cmp.table.learners), cmp.mean_ranks, lambda plan: plan
    return names, np.asarray(cmp.mean_ranks)[idx], \
        lambda plan: shown_plan(plan, cmp.table.learners, names)


def draw_all(cmp, width: float | None = None) -> dict:
    """``{name: Figure}`` for every figure the analysis decided to draw (for the best ``top``
    learners when there are more); ``width`` in inches as for :func:`draw`."""
    out = {}
    titled = bool(cmp.options.get("figure_title"))
    names, ranks, restrict = shown_figure_inputs(cmp)
    for name, plan in cmp.figures.items():
        if name == "rank_intervals":  # the one figure of every learner
            fig = draw(plan, cmp.mean_ranks, cmp.table.learners, titled, width)
        else:
            fig = draw(restrict(plan), ranks, names, titled, width)
        if fig is not None:
            out[name] = fig
    return out


def _content_box(fig: Figure):
    """The box (inches) around what is drawn. An axes without axis lines (the rank diagrams)
    spans the whole figure and would keep its empty margins under bbox_inches="tight", so the
    box is the union of its lines and texts; other figures use "tight"."""
    from matplotlib.transforms import Bbox

    if any(ax.axison for ax in fig.axes) or not fig.axes:
        return "tight"
    # A renderer of one pixel measures text as one of the figure's size would (extents depend
    # on the resolution, not the canvas), without allocating the canvas: at the vector files'
    # 1,200 dpi that is hundreds of megabytes and most of a diagram's time.
    from matplotlib.backends.backend_agg import RendererAgg

    renderer = RendererAgg(1, 1, fig.dpi)
    boxes = [a.get_window_extent(renderer) for ax in fig.axes for a in ax.get_children()
             if a.get_visible() and type(a).__name__ in ("Line2D", "Text")
             and (type(a).__name__ != "Text" or a.get_text())]
    if not boxes:
        return "tight"
    box = Bbox.union(boxes)
    # savefig ignores pad_inches for an explicit box: a margin of our own, so that glyphs set
    # a pixel wider than measured are not cut at the edge.
    pad = 0.06
    x0, y0, x1, y1 = (v / fig.dpi for v in box.extents)
    return Bbox.from_extents(x0 - pad, y0 - pad, x1 + pad, y1 + pad)


def figure_width(value) -> float | None:
    """``--figure-width`` in inches: ``"column"`` (8.4 cm), ``"page"`` (17 cm), or a width in
    centimetres (a number, or text such as ``"12"`` or ``"12cm"``) from 3 to 50; None keeps
    each figure's own size.

    Examples
    --------
    >>> from rankwise.report.diagrams import figure_width
    >>> round(figure_width("column") * 2.54, 2), round(figure_width("12cm") * 2.54, 2)
    (8.4, 12.0)
    """
    from ..errors import RankwiseError

    if value is None:
        return None
    text = str(value).strip().lower()
    cm = FIGURE_WIDTHS.get(text)
    if cm is None:
        try:
            cm = float(text[:-2] if text.endswith("cm") else text)
        except ValueError:
            cm = math.nan
    if isinstance(value, bool) or not 3.0 <= cm <= 50.0:
        raise RankwiseError("the figure width (--figure-width) must be column, page or a width"
                            f" in centimetres from 3 to 50; got {value!r}")
    return cm / 2.54


def saved_width(fig: Figure) -> float:
    """Width in inches of the file :func:`figure_bytes` writes (measured as for PNG, whose
    type is the widest)."""
    return float(_measured_box(fig, PNG_DPI, resolve_tight=True).width)


def _measured_box(fig: Figure, dpi: float, resolve_tight: bool = False):
    """:func:`_content_box` measured at ``dpi`` (text set at 150 dpi is a little wider than at
    the screen's 100, which clipped the longest labels); with ``resolve_tight``, matplotlib's
    "tight" box itself, with its margin, measured there too."""
    kept = fig.dpi
    fig.set_dpi(dpi)
    try:
        box = _content_box(fig)
        if box == "tight" and resolve_tight:
            return fig.get_tightbbox(fig.canvas.get_renderer()).padded(TIGHT_PAD)
        return box
    finally:
        fig.set_dpi(kept)


def fit_width(fig: Figure | None, inches: float | None) -> Figure | None:
    """``fig`` scaled down as a whole (size, type, lines and markers alike, as LaTeX would
    scale it) until its file is at most ``inches`` wide; a narrower figure keeps its size."""
    if fig is None or inches is None:
        return fig
    for _ in range(3):  # the margins do not scale: one or two more steps close the gap
        now = saved_width(fig)
        if now <= inches * 1.002:
            break
        scale_figure(fig, inches / now)
    return fig


#: Type under this many points at the figures' width is said (a reader needs a lens for it).
SMALL_TYPE = 5.0


def warn_small_type(figs: dict, width: float | None, sizes: dict | None = None) -> None:
    """A :class:`~rankwise.RankwiseWarning` naming the figures whose smallest type is under
    :data:`SMALL_TYPE` at ``width`` (long names, many learners): the drawn ``figs`` measured,
    ``sizes`` (``{file: points}``: the TikZ diagram, which the document's line scales) as
    given."""
    import warnings

    from ..errors import RankwiseWarning

    if width is None:
        return
    small = {}
    for name, fig in figs.items():
        found = [t.get_fontsize() for t in fig.findobj(
            lambda a: type(a).__name__ == "Text" and a.get_visible() and a.get_text())]
        if found and min(found) < SMALL_TYPE:
            small[name] = min(found)
    small.update({name: pt for name, pt in (sizes or {}).items() if pt < SMALL_TYPE})
    if small:
        listed = ", ".join(f"{n} ({v:.1f} pt)" for n, v in small.items())
        warnings.warn(f"at {width * 2.54:.1f} cm the smallest type of {listed} is under"
                      f" {SMALL_TYPE:g} pt:"
                      " a wider --figure-width (page) or shorter learner names read better",
                      RankwiseWarning, stacklevel=2)


def scale_figure(fig: Figure, s: float) -> None:
    """Multiply the figure's size and every length in points (type, lines, markers, ticks and
    their padding) by ``s``: the same picture, smaller."""
    from matplotlib.collections import Collection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.text import Text

    ticks = []  # read before the type is scaled below
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            for which, made in (("major", axis.get_major_ticks()),
                                ("minor", axis.get_minor_ticks())):
                if made:
                    t = made[0]
                    ticks.append((axis, which, dict(
                        size=t._size * s, width=t._width * s, pad=t._base_pad * s,
                        labelsize=t.label1.get_fontsize() * s)))
    w, h = fig.get_size_inches()
    fig.set_size_inches(w * s, h * s)
    for a in set(fig.findobj()):
        if isinstance(a, Text):
            a.set_fontsize(a.get_fontsize() * s)
        elif isinstance(a, Line2D):
            a.set_linewidth(a.get_linewidth() * s)
            a.set_markersize(a.get_markersize() * s)
            a.set_markeredgewidth(a.get_markeredgewidth() * s)
        elif isinstance(a, Patch):
            a.set_linewidth(a.get_linewidth() * s)
        elif isinstance(a, Collection):
            a.set_linewidths(np.asarray(a.get_linewidths()) * s)
            sizes = a.get_sizes() if hasattr(a, "get_sizes") else None
            if sizes is not None and len(sizes):
                a.set_sizes(np.asarray(sizes) * s * s)  # marker areas, in points squared
    for axis, which, params in ticks:  # ticks made later copy these settings
        axis.set_tick_params(which=which, **params)
    for ax in fig.axes:
        ax.xaxis.labelpad *= s
        ax.yaxis.labelpad *= s


def figure_bytes(fig: Figure, fmt: str) -> bytes:
    """Render to ``svg``, ``pdf`` or ``png`` bytes, without dates, so output is reproducible."""
    import matplotlib

    buf = io.BytesIO()
    meta = {"svg": {"Date": None}, "pdf": {"CreationDate": None, "ModDate": None},
            "png": {}}[fmt]
    # TrueType (42) rather than Type 3 fonts in PDF: camera-ready checkers reject Type 3.
    with matplotlib.rc_context({"svg.hashsalt": "rankwise", "svg.fonttype": "none",
                                "pdf.fonttype": 42, "ps.fonttype": 42}):
        # the box at the raster's resolution, and for a vector file at a resolution where the
        # raster's rounding of small glyphs is gone: measured at 72 dpi the text is narrower
        # than the vector glyphs, and the longest labels of a column-wide diagram were cut
        fig.savefig(buf, format=fmt, metadata=meta, dpi=PNG_DPI if fmt == "png" else None,
                    bbox_inches=_measured_box(fig, PNG_DPI if fmt == "png" else VECTOR_DPI),
                    pad_inches=TIGHT_PAD)
    return buf.getvalue()


def figure_format(path) -> str:
    """``svg``, ``pdf`` or ``png`` from the file's suffix; any other is refused in one line."""
    from pathlib import Path

    from ..errors import RankwiseError

    fmt = Path(path).suffix.lower().lstrip(".")
    if fmt not in ("svg", "pdf", "png"):
        raise RankwiseError(f"figures are written as .svg, .pdf or .png, not"
                            f" {Path(path).name!r}")
    return fmt


def save_figure(fig: Figure, path) -> None:
    """Write a figure whole (renamed into place); the format comes from the file's suffix
    (.svg, .pdf or .png)."""
    from .._files import write_atomic

    write_atomic(path, figure_bytes(fig, figure_format(path)))
