"""A replayed race as text, JSON and a figure (``rankwise race``)."""

from __future__ import annotations

import json

import numpy as np

from .._text import visible
from ..stats.racing import goal_text


def race_text(r, width: int = 80) -> str:
    """The race in plain words: the settings, each elimination, the survivors, what was not
    needed, and the guarantee."""
    import textwrap

    k, n = len(r.learners), len(r.order)
    lines = [f"Race over {n} data sets, {k} learners (alpha = {r.alpha:g}, goal:"
             f" {goal_text(r.goal)})", ""]
    if r.eliminations:
        lines.append("Eliminated (after how many data sets, by whom, e-value):")
        name_w = max(len(visible(e.learner)) for e in r.eliminations)
        for e in r.eliminations:
            lines.append(f"  {visible(e.learner):<{name_w}}  after {e.step:>4}  by"
                         f" {visible(e.by)} (e = {e.evalue:,.0f})")
    else:
        lines.append("No learner was eliminated.")
    lines.append("")
    said = ("The goal was reached" if r.settled else "The goal was not reached")
    lines += textwrap.wrap(
        f"{said} after {r.steps} of {n} data sets; left: "
        + ", ".join(map(visible, r.survivors)) + f". The race evaluated {r.tasks_used:,} of"
        f" {r.tasks_full:,} (learner, data set) pairs: {r.saved:.0%} of the experiment was"
        f" not needed. Ties between two learners on a data set: {r.ties:,} (they carry no"
        " evidence).", width)
    lines.append("")
    lines += textwrap.wrap("Guarantee: " + r.guarantee(), width)
    lines.append("")
    order = ("Data sets in a random order (seed " + str(r.seed) + ")" if r.seed is not None
             else "Data sets in the table's order")
    shown = [visible(d) for d in r.order[:min(r.steps, SHOWN)]]
    rest = (f", ... ({r.steps} taken of {n}; the JSON lists them all)"
            if r.steps > SHOWN else "" if r.steps == n else f" ({r.steps} taken of {n})")
    lines += textwrap.wrap(f"{order}: " + ", ".join(shown) + rest + ".", width)
    return "\n".join(lines) + "\n"


#: The data sets the text lists by name, in the race's order.
SHOWN = 12


def race_json(r, indent: int | None = 2) -> str:
    return json.dumps({"rankwise": "race/1", **r.to_dict()}, indent=indent,
                      ensure_ascii=False) + "\n"


def race_figure(r, limit: int = 60):
    """Learners (rows, last eliminated on top, survivors first) against the data sets taken:
    a line while the learner races, a cross where it is eliminated, with who beat it."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    out_at = {e.learner: e for e in r.eliminations}
    order = sorted(range(len(r.learners)), key=lambda j: (
        -(out_at[r.learners[j]].step if r.learners[j] in out_at else r.steps + 1), j))
    order = order[:limit]
    rows = len(order)
    fig = Figure(figsize=(7.0, 1.0 + 0.26 * rows))
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.25, 0.6 / (1.0 + 0.26 * rows) + 0.02, 0.7,
                       0.26 * rows / (1.0 + 0.26 * rows)))
    for y, j in enumerate(order):
        name = r.learners[j]
        e = out_at.get(name)
        end = e.step if e else r.steps
        ax.plot([1, end], [y, y], color="black" if e is None else "0.45", lw=2.0)
        if e is not None:
            ax.plot([end], [y], marker="x", color="#b2182b", ms=7, mew=2)
            ax.text(end + 0.01 * r.steps + 0.3, y, f"by {visible(e.by)}", va="center",
                    fontsize=7, color="#b2182b")
    ax.set_yticks(range(rows), [visible(r.learners[j]) for j in order], fontsize=8)
    ax.set_ylim(rows - 0.5, -0.5)
    ax.set_xlim(0.5, max(r.steps, 2) * 1.15)
    ax.set_xlabel("data sets taken")
    ax.spines[["top", "right"]].set_visible(False)
    return fig


def rates_figure(rates: dict, alpha: float):
    """The share of null races with a wrong elimination by each data set: anytime-valid race
    against F-Race's repeated Friedman tests."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.0, 3.4))
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.12, 0.16, 0.84, 0.78))
    steps = np.asarray(rates["steps"])
    ax.plot(steps, rates["frace"], color="#b2182b", lw=1.8,
            label="repeated Friedman tests (F-Race)")
    ax.plot(steps, rates["anytime"], color="black", lw=1.8, label="anytime-valid race")
    ax.axhline(alpha, color="0.5", ls="--", lw=0.8)
    ax.text(steps[-1], alpha, f" alpha = {alpha:g}", va="bottom", ha="right", fontsize=8,
            color="0.3")
    ax.set_xlabel("data sets taken")
    ax.set_ylabel("races with a wrong elimination")
    ax.set_ylim(0, max(0.1, float(np.max(rates["frace"])) * 1.1))
    ax.legend(frameon=False, fontsize=8, loc="upper left")
    ax.spines[["top", "right"]].set_visible(False)
    return fig
