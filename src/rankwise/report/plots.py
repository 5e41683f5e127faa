"""The figures of a comparison beyond the rank diagrams: the p-value heat map, the groups'
box plot, rank confidence sets, the per-data-set forest, the multiverse's specification
curve, the Bayesian models' P(best), and the multiple-comparison matrix. Built on
``matplotlib.figure.Figure`` directly, as :mod:`.diagrams` builds the rank diagrams."""

from __future__ import annotations

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from ..stats.results import PVALUE_FLOOR
from .fonts import label_inches
from .format import BELOW_FLOOR, literal


#: The heat map's colour classes of p: each boundary is a level a reader may use.
P_BOUNDS = (0.0, 0.001, 0.01, 0.05, 0.1, 1.0)
P_COLOURS = ("#08306b", "#2171b5", "#6baed6", "#c6dbef", "#f7fbff")


def pvalue_heatmap(pvalues, names, mean_ranks=None, alpha: float = 0.05,
                   title: str | None = None) -> Figure:
    """Heat map of a k × k p-value matrix, learners in mean-rank order, in five colour classes
    (below 0.001, 0.01, 0.05, 0.1, and up to 1); cells ≤ α outlined; the diagonal neutral."""
    from matplotlib.colors import BoundaryNorm, ListedColormap

    p = np.asarray(pvalues, dtype=float)
    k = len(names)
    order = np.argsort(mean_ranks, kind="stable") if mean_ranks is not None else np.arange(k)
    q = p[np.ix_(order, order)]
    size = min(12.0, 2.0 + 0.35 * k)
    fig = Figure(figsize=(size + 1.2, size))
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.22, 0.22, 0.62, 0.7))
    cmap = ListedColormap(P_COLOURS).with_extremes(bad="#d9d9d9")  # the diagonal: neutral
    shown = np.ma.masked_array(np.clip(q, 0.0, 1.0), mask=np.eye(k, dtype=bool))
    im = ax.imshow(shown, cmap=cmap, norm=BoundaryNorm(P_BOUNDS, cmap.N))
    font = 9 if k <= 15 else 6 if k <= 30 else 4
    labels = [literal(names[i]) for i in order]
    ax.set_xticks(range(k), labels, rotation=90, fontsize=font)
    ax.set_yticks(range(k), labels, fontsize=font)
    if k <= 15:
        for i in range(k):
            for j in range(k):
                if i != j:
                    label = f"{q[i, j]:.2g}" if q[i, j] >= PVALUE_FLOOR else BELOW_FLOOR
                    ax.text(j, i, label, ha="center", va="center", fontsize=font - 2,
                            color="white" if q[i, j] < 0.01 else "black")
    for i in range(k):
        for j in range(k):
            if i != j and q[i, j] <= alpha:
                ax.add_patch(_square(j, i))
    cax = fig.add_axes((0.87, 0.22, 0.03, 0.7))
    bar = fig.colorbar(im, cax=cax, ticks=P_BOUNDS)
    bar.ax.set_yticklabels(["0", "0.001", "0.01", "0.05", "0.1", "1"], fontsize=8)
    bar.set_label("adjusted p", fontsize=9)
    if title:
        ax.set_title(title, fontsize=10)
    return fig


def group_boxplot(groups, data, limit: int = 30, left_out: str | None = None) -> Figure:
    """Box plots of each learner's values (``data[j]``), best first, coloured by group: the
    best ``limit``, and ``left_out`` (the plan's sentence) under them when that is fewer than
    every learner."""
    order = list(groups.order)[:limit]
    k = len(order)
    fig = Figure(figsize=(max(4.0, 0.45 * k + 1.5), 3.6))
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.1, 0.3, 0.86, 0.66))
    palette = ["#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d",
               "#666666"]
    parts = ax.boxplot([data[j] for j in order], patch_artist=True, widths=0.6)
    for box, j in zip(parts["boxes"], order):
        box.set_facecolor(palette[(int(groups.rank[j]) - 1) % len(palette)])
        box.set_alpha(0.8)
    ax.set_xticks(range(1, k + 1), [f"{literal(groups.learners[j])} ({groups.rank[j]})"
                                    for j in order], rotation=60, ha="right", fontsize=8)
    ax.tick_params(axis="y", labelsize=8)
    ax.grid(axis="y", color="0.9")
    if left_out:
        fig.text(0.01, 0.005, left_out, fontsize=7, color="0.3")
    return fig


def rank_set_plot(data: dict) -> Figure:
    """Rank sets as horizontal bars (rank 1 on the left), one row per learner, best first;
    the estimated rank a dot (filled: could be the best); fragile claims named at the right."""
    names = list(data["learners"])
    m = len(names)
    lo, hi = np.asarray(data["lower"], float), np.asarray(data["upper"], float)
    rank, best = np.asarray(data["rank"], float), np.asarray(data["best"], bool)
    fragile = data["fragile"]
    fig = Figure(figsize=(7.0 if fragile else 5.5, max(1.6, 0.28 * m + 0.9)))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    y = np.arange(m)
    ax.hlines(y, lo - 0.35, hi + 0.35, color="#9ecae1", linewidth=7, zorder=1)
    # filled: could be the best (the caption says so; a legend would crowd a small figure)
    ax.scatter(rank[best], y[best], s=22, color="black", zorder=3)
    ax.scatter(rank[~best], y[~best], s=22, facecolors="white", edgecolors="black",
               linewidths=0.8, zorder=3)
    top = float(max(hi.max(), rank.max()))
    for i, name in enumerate(names):
        if name in fragile:
            ax.text(top + 0.9, i, "falls without " + ", ".join(map(literal, fragile[name])),
                    va="center", fontsize=7, color="#b2182b")
    ax.set_yticks(y)
    ax.set_yticklabels([literal(n) for n in names], fontsize=8)
    ax.set_ylim(m - 0.5, -0.5)
    ax.set_xlim(0.3, top + (0.7 + 0.35 * max(len(", ".join(v)) for v in fragile.values()) / 4
                            if fragile else 0.7))
    ax.set_xlabel(f"rank (1 = best; {int(data['k']):,} learners)")
    ticks = MaxNLocator(integer=True).tick_values(1, top)
    ax.set_xticks([t for t in ticks if 1 <= t <= top])  # no ranks beyond the last under the names
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    k = int(data["k"])
    if m < k:   # the file alone says it, as the caption does
        fig.tight_layout(rect=(0, 0.3 / fig.get_figheight(), 1, 1))
        fig.text(0.01, 0.004, f"The best {m} of {k:,} learners by mean rank; {k - m:,} left"
                 " out: the report's table lists every learner's set.", fontsize=7,
                 color="0.25", va="bottom", ha="left")
        return fig
    fig.tight_layout()
    return fig


def forest_plot(data: dict) -> Figure:
    """One panel per learner: its difference from the base on each data set (rows) with the
    interval; a line at 0; filled where significant."""
    panels, datasets = data["panels"], data["datasets"]
    m, n = len(panels), len(datasets)
    fig = Figure(figsize=(min(12.0, 2.0 + 2.3 * m), max(1.8, 0.25 * n + 1.0)))
    FigureCanvasAgg(fig)
    for p, panel in enumerate(panels):
        ax = fig.add_subplot(1, m, p + 1)
        for i, (_, mean, lo, hi, mark) in enumerate(panel["rows"]):
            if mean is None:
                continue
            ax.hlines(i, lo, hi, color="0.45", linewidth=1.0)
            filled = bool(mark)
            ax.scatter([mean], [i], s=18, zorder=3, color="black" if filled else "white",
                       edgecolors="black", linewidths=0.8)
        ax.axvline(0.0, color="#b2182b", linewidth=0.8, linestyle="--")
        ax.set_ylim(n - 0.5, -0.5)
        ax.set_yticks(range(n))
        ax.set_yticklabels([literal(d) for d in datasets] if p == 0 else [], fontsize=7)
        ax.set_title(literal(panel["learner"]), fontsize=8)
        ax.tick_params(axis="x", labelsize=7)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
    fig.supxlabel(f"difference from {literal(data['base'])} (positive: better)", fontsize=8)
    fig.tight_layout()
    return fig


def specification_curve(data: dict) -> Figure:
    """Top: each analysis's share of the verdict's claims (filled: the same best learner);
    bottom: the choices of each analysis, one row per choice."""
    share = np.asarray(data["share"], float)
    same = np.asarray(data["same_best"], bool)
    rows, used = data["rows"], np.asarray(data["used"], bool).reshape(len(data["rows"]), -1)
    m = share.size
    x = np.arange(m)
    fig = Figure(figsize=(max(5.0, min(12.0, 0.22 * m + 2.5)), 2.4 + 0.22 * len(rows)))
    FigureCanvasAgg(fig)
    grid = fig.add_gridspec(2, 1, height_ratios=[2.2, max(0.6, 0.22 * len(rows))], hspace=0.08)
    top = fig.add_subplot(grid[0])
    top.scatter(x[same], share[same], s=20, color="black", zorder=3)
    top.scatter(x[~same], share[~same], s=20, facecolors="white", edgecolors="black", zorder=3)
    top.set_ylim(-0.05, 1.05)
    top.set_xlim(-0.7, m - 0.3)
    top.set_ylabel("share of the\nverdict's claims", fontsize=8)
    top.set_xticks([])
    for side in ("top", "right"):
        top.spines[side].set_visible(False)
    if rows:
        low = fig.add_subplot(grid[1], sharex=top)
        for r in range(len(rows)):
            low.scatter(x[used[r]], np.full(int(used[r].sum()), r), s=10, color="#3670c9")
        low.set_yticks(range(len(rows)))
        low.set_yticklabels([literal(r) for r in rows], fontsize=7)
        low.set_ylim(len(rows) - 0.5, -0.5)
        low.set_xlabel("analyses of the grid", fontsize=8)
        low.set_xticks([])
        for side in ("top", "right"):
            low.spines[side].set_visible(False)
    fig.subplots_adjust(left=0.3, right=0.97, top=0.95, bottom=0.12)
    return fig


def p_best_plot(data: dict) -> Figure:
    """Two panels sharing the learners (best at the top): bars of P(best) with their values,
    and violins of the posterior weight or ability with the median marked."""
    names = [literal(n) for n in data["learners"]]
    k = len(names)
    p_best = np.asarray(data["p_best"], float)
    draws = np.asarray(data["draws"], float)
    width, height = 7.0, 0.9 + 0.32 * k
    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    left = min(0.4, (label_inches(names, k, 8) + 0.15) / width)
    bottom, tall = 0.55 / height, 1 - 0.75 / height
    bars = fig.add_axes((left, bottom, 0.22, tall))
    violins = fig.add_axes((left + 0.26, bottom, 0.97 - left - 0.26, tall), sharey=bars)
    y = np.arange(k)
    bars.barh(y, p_best, color="#3670c9", height=0.6)
    for i, p in enumerate(p_best):
        bars.text(min(p, 1.0) + 0.02, i, f"{p:.2f}", va="center", fontsize=7)
    bars.set_xlim(0, 1.25)
    bars.set_xticks([0, 0.5, 1])
    bars.set_xlabel("P(best)", fontsize=8)
    bars.set_yticks(y, names, fontsize=8)
    bars.invert_yaxis()
    # Matplotlib 3.10 names the direction ``orientation``; older releases call it ``vert``
    import inspect

    way = ({"orientation": "horizontal"} if "orientation" in
           inspect.signature(violins.violinplot).parameters else {"vert": False})
    parts = violins.violinplot([draws[:, j] for j in range(k)], positions=y, widths=0.8,
                               showextrema=False, showmedians=True, **way)
    for body in parts["bodies"]:
        body.set_facecolor("#9ecae1")
        body.set_alpha(0.8)
    parts["cmedians"].set_color("#08306b")
    violins.set_xlabel("posterior " + ("weight" if data["scale"] == "weight" else "ability"),
                       fontsize=8)
    violins.tick_params(axis="y", left=False, labelleft=False)
    for ax in (bars, violins):
        ax.tick_params(axis="x", labelsize=7)
        ax.grid(axis="x", color="0.9")
        ax.set_axisbelow(True)
    return fig


def mcm_plot(matrix, limit: int | None = None) -> Figure:
    """The multi-comparison matrix as a heat map in the layout of Ismail-Fawaz et al. (2023):
    the upper triangle, rows and columns in order of mean score (best first), each cell with
    the mean difference, wins / ties / losses and the p-value, coloured by the mean difference
    on a diverging scale centred at 0, bold where the pair is significant."""
    from matplotlib.colors import TwoSlopeNorm

    from ..analysis.figures import MCM_FIGURE_MAX

    limit = MCM_FIGURE_MAX if limit is None else limit
    order = list(matrix.order)[:limit]
    k = len(order)
    names = [literal(matrix.learners[j]) for j in order]
    full = len(matrix.learners)
    diff = matrix.matrix("mean_difference")[:k, :k]
    wins = matrix.matrix("wins")[:k, :k]
    ties = matrix.matrix("ties")[:k, :k]
    losses = matrix.matrix("losses")[:k, :k]
    p = matrix.matrix("apv_holm" if matrix.holm else "pvalue")[:k, :k]
    sig = matrix.matrix("significant")[:k, :k] > 0
    rows, cols = k - 1, k - 1
    cell = 1.25
    fig = Figure(figsize=(1.6 + cell * cols, 0.6 + 0.8 * rows))
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.18, 0.04, 0.7, 0.82))
    upper = np.full((rows, cols), np.nan)
    for i in range(rows):
        for j in range(i + 1, k):
            upper[i, j - 1] = diff[i, j]
    span = float(np.nanmax(np.abs(upper))) if np.isfinite(upper).any() else 1.0
    span = span if span > 0 else 1.0
    shown = np.ma.masked_invalid(upper)
    ax.imshow(shown, cmap="coolwarm_r", norm=TwoSlopeNorm(0.0, -span, span), aspect="auto")
    for i in range(rows):
        for j in range(i + 1, k):
            text = (f"{diff[i, j]:.4f}\n{int(wins[i, j])} / {int(ties[i, j])} /"
                    f" {int(losses[i, j])}\n{p[i, j]:.2g}")
            ax.text(j - 1, i, text, ha="center", va="center", fontsize=7,
                    fontweight="bold" if sig[i, j] else "normal",
                    color="white" if abs(diff[i, j]) > 0.6 * span else "black")
    ax.set_xticks(range(cols), names[1:], rotation=30, ha="left", fontsize=8)
    ax.xaxis.tick_top()
    ax.set_yticks(range(rows), names[:-1], fontsize=8)
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    if k < full:
        fig.text(0.01, 0.005, f"the best {k} of {full} learners", fontsize=7, color="0.3")
    return fig


def _square(x, y):
    from matplotlib.patches import Rectangle

    return Rectangle((x - 0.5, y - 0.5), 1, 1, fill=False, edgecolor="red", lw=1.2)
