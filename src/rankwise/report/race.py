"""A replayed race (``rankwise race``) in every format from one
:class:`~rankwise.report.document.Document`, its JSON and its figure."""

from __future__ import annotations

import numpy as np

from .._text import visible
from ..stats.racing import goal_text
from .blocks import Bullets, Document, Drawn, Figure, Heading, Paragraph, Table


def document(r) -> Document:
    """The race as format-neutral blocks: the settings, each elimination, the outcome (the
    survivors and what was not needed), the guarantee, the order of the data sets, the figure
    and the notes."""
    k, n = len(r.learners), len(r.order)
    doc = Document("rankwise race" + (f": {r.source}" if r.source else ""))
    doc.add(Paragraph(f"Race over {n} data sets, {k} learners (alpha = {r.alpha:g}, goal:"
                      f" {goal_text(r.goal)}).", role="lead"))
    doc.add(Heading("Eliminations"))
    if r.eliminations:
        rows = [[e.learner, str(e.step), e.by, f"{e.evalue:,.0f}"] for e in r.eliminations]
        doc.add(Table(["learner", "after", "by", "e-value"], rows, "<><>", key="eliminations",
                      caption="In the order they happened: after how many data sets, by"
                              f" whom, with what e-value (an elimination needs"
                              f" {r.threshold:,.0f})."))
    else:
        doc.add(Paragraph("No learner was eliminated."))
    said = "The goal was reached" if r.settled else "The goal was not reached"
    doc.add(Heading("Outcome"), Paragraph(
        f"{said} after {r.steps} of {n} data sets; left: " + ", ".join(r.survivors)
        + f". The race evaluated {r.tasks_used:,} of {r.tasks_full:,} (learner, data set)"
        f" pairs: {r.saved:.0%} of the experiment was not needed. Ties between two learners on"
        f" a data set: {r.ties:,} (they carry no evidence).", role="verdict"))
    doc.add(Heading("Guarantee"), Paragraph(r.guarantee()))
    order = (f"Data sets in a random order (seed {r.seed})" if r.seed is not None
             else "Data sets in the table's order")
    shown = list(r.order[:min(r.steps, SHOWN)])
    rest = (f", ... ({r.steps} taken of {n}; the JSON lists them all)"
            if r.steps > SHOWN else "" if r.steps == n else f" ({r.steps} taken of {n})")
    doc.add(Heading("Order"), Paragraph(f"{order}: " + ", ".join(shown) + rest + "."))
    who = (f"The first {FIGURE_LIMIT} of {k} learners" if k > FIGURE_LIMIT else "Each learner")
    doc.add(Heading("Figures"), Figure("race", Drawn(
        "race", "The race",
        f"{who} (the last eliminated on top) against the data sets taken: a line while it races, a cross where it is eliminated, with who beat"
        " it.")))
    if r.notes:
        doc.add(Heading("Notes"), Bullets(list(r.notes), role="notes"))
    return doc


#: The data sets the text lists by name, in the race's order.
SHOWN = 12
#: The learners the figure draws at most (a row each).
FIGURE_LIMIT = 60


def figures(r, width: float | None = None) -> dict:
    """``{"race": Figure}``, scaled down to ``width`` inches when it is wider."""
    from .diagrams import fit_width

    return {"race": fit_width(race_figure(r, FIGURE_LIMIT), width)}


def race_text(r, width: int | None = 80) -> str:
    """The race as text (the document laid out, as every format)."""
    from .generic import render

    return render(r, "text", width=width)


def race_json(r, indent: int | None = 2) -> str:
    """The race's JSON: ``schema`` (``rankwise.race/2``) and ``rankwise_version`` first."""
    from .generic import render

    return render(r, "json", indent=indent)


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
    cut = len(r.learners) - rows
    below = 0.25 if cut else 0.0   # inches for the sentence of what is left out
    tall = 1.0 + below + 0.26 * rows
    fig = Figure(figsize=(7.0, tall))
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.25, (0.6 + below) / tall + 0.02 * (1.0 + 0.26 * rows) / tall, 0.7,
                       0.26 * rows / tall))
    if cut:   # the file alone says it, as the report's caption does
        fig.text(0.01, 0.004, f"The first {rows} of {len(r.learners)} learners (the last"
                 f" eliminated on top); {cut} left out: the report's table lists every"
                 " elimination.", fontsize=7, color="0.25", va="bottom", ha="left")
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
