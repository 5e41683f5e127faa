"""The report as plain text for the terminal (lays out :mod:`rankwise.report.document`)."""

from __future__ import annotations

from .._text import visible
from .document import (Bullets, Cell, Figure, Heading, Paragraph, Preformatted, Table, build,
                       figure_caption)


def table_lines(rows, header, align) -> list:
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]

    def line(r):
        cells = [str(c).ljust(w) if a == "<" else str(c).rjust(w)
                 for c, w, a in zip(r, widths, align)]
        return "  ".join(cells).rstrip()

    return [line(header), "  ".join("-" * w for w in widths)] + [line(r) for r in rows]


def _cell(c) -> str:
    if isinstance(c, Cell):
        return visible(c.text) + ("*" if c.best or c.mark else "")
    return visible(c)


def _wrap(text: str, indent: str = "") -> list:
    # One line per paragraph: the terminal wraps, and a line can be searched as a whole.
    return [indent + visible(text)]


def text_report(cmp) -> str:
    doc = build(cmp)
    out = [visible(doc.title)]
    for block in doc.blocks:
        if isinstance(block, Heading):
            out += ["", visible(block.text) if block.level <= 2 else f"  {visible(block.text)}"]
        elif isinstance(block, Paragraph):
            out += _wrap(block.text)
        elif isinstance(block, Bullets):
            for item in block.items:
                out += _wrap(item, "- ")
        elif isinstance(block, Figure):
            out += _wrap(figure_caption(block.plan), "- ")
        elif isinstance(block, Table):
            rows = [[_cell(c) for c in r] for r in block.rows]
            out += table_lines(rows, [visible(h) for h in block.header], block.align)
            if block.caption:
                out += _wrap(block.caption)
        elif isinstance(block, Preformatted):
            out += [visible(line) for line in block.lines]
    return "\n".join(out) + "\n"
