"""An audit of a published board (:func:`rankwise.analysis.audit.audit`) as format-neutral
blocks: every format (text, Markdown, LaTeX, HTML) lays out the same sections, the JSON is the
result's ``to_dict()``."""

from __future__ import annotations

import numpy as np

from .blocks import Bullets, Document, Heading, Paragraph, Table
from .._text import counted
from .document import source_name


def level_text(confidence: float) -> str:
    """A level as people write it: 0.95 -> '95%', 0.975 -> '97.5%' (never rounded away)."""
    return f"{100 * confidence:g}%"


def document(a) -> Document:
    """The board's audit: how it was read, each task (its count, every model's score and
    interval, who is tied with #1), the verdict over the tasks, and the notes."""
    level = level_text(a.confidence)
    unit = "percent" if a.percent else "proportions"
    doc = Document(f"rankwise audit: {source_name(a.source)}")
    doc.add(Paragraph(f"{counted(len(a.models), 'model')} (learners) x"
                      f" {counted(len(a.tasks), 'task')} (data sets),"
                      f" scores read as {unit}; alpha = {a.alpha}; intervals Wilson {level}.",
                      role="lead"))
    for j, t in enumerate(a.tasks):
        doc.add(Heading(f"Task: {t.task}"), *_task_blocks(a, t, level, j))
    doc.add(Heading("Overall"))
    if a.overall_best is not None:
        doc.add(Paragraph(f"Overall, tied with #1 ({a.overall_best}):"
                          f" {', '.join(a.overall_tied)} ({a.overall_note}).", role="verdict"))
    else:
        doc.add(Paragraph(f"Overall: {a.overall_note}.", role="verdict"))
    if a.notes:
        doc.add(Heading("Notes"), Bullets(list(a.notes), role="notes"))
    return doc


def _task_blocks(a, t, level: str, j: int) -> list:
    count = "unknown" if t.n is None else f"{t.n} ({t.how})"
    rows = []
    for i in np.argsort(-t.score, kind="stable"):   # best first, ties in the board's order
        interval = ("-" if not np.isfinite(t.low[i]) else
                    f"[{t.low[i]:.3f}, {t.high[i]:.3f}]")
        rows.append([a.models[i], f"{t.score[i]:.4f}", interval])
    caption = (f"Scores as proportions, best first; {level} Wilson intervals with"
               + (" no count (none fits the scores as printed)." if t.n is None else
                  f" n = {t.n} items" + (", a lower bound: at least this wide."
                                         if t.how == "lower bound" else ".")))
    return [Paragraph(f"Items: {count}; printed to {counted(t.decimals, 'decimal')}."),
            Table(["learner", "score", f"{level} interval"], rows, "<>>", caption,
                  key=f"task_{j + 1}"),   # a task's name may not suit an id
            Paragraph(f"Tied with #1 ({t.best}): {', '.join(t.tied)}.", role="verdict")]
