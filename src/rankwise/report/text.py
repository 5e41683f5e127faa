"""The report as plain text for the terminal (lays out :mod:`rankwise.report.document`)."""

from __future__ import annotations

from .._text import visible
from .blocks import header_lines
from .document import (Bullets, Cell, Figure, Heading, Paragraph, Preformatted, Table, build,
                       figure_caption)


def table_lines(rows, header, align, width: int | None = None) -> list:
    """A table's lines; wider than ``width`` columns, in blocks of columns that fit, each with
    the first column (the row labels) again, as R and pandas print a wide data frame. A header
    of several lines (:func:`~rankwise.report.blocks.header_lines`) stands on its last ones."""
    heads = [header_lines(h) for h in header]
    depth = max(len(h) for h in heads)
    heads = [[""] * (depth - len(h)) + h for h in heads]
    widths = [max(len(str(x)) for x in [*heads[i], *(r[i] for r in rows)])
              for i in range(len(header))]

    def line(r, cols):
        cells = [str(r[i]).ljust(widths[i]) if align[i] == "<" else str(r[i]).rjust(widths[i])
                 for i in cols]
        return "  ".join(cells).rstrip()

    out = []
    blocks = column_blocks(widths, width)
    for n, cols in enumerate(blocks):
        if n:
            out.append("")
        if len(blocks) > 1:
            out.append(f"(columns {cols[1]}-{cols[-1]} of {len(widths) - 1})")
        out += [line([h[d] for h in heads], cols) for d in range(depth)]
        out += ["  ".join("-" * widths[i] for i in cols)]
        out += [line(r, cols) for r in rows]
    return out


def column_blocks(widths, width: int | None) -> list:
    """Column indices of each block: the first column, then as many of the others as fit in
    ``width`` (at least one); one block when everything fits or ``width`` is None."""
    every = list(range(len(widths)))
    if width is None or len(widths) < 3 or sum(widths) + 2 * (len(widths) - 1) <= width:
        return [every]
    blocks, current, used = [], [], widths[0]
    for i in every[1:]:
        if current and used + 2 + widths[i] > width:
            blocks.append([0] + current)
            current, used = [], widths[0]
        current.append(i)
        used += 2 + widths[i]
    blocks.append([0] + current)
    # a last block of one column (a p-value's stars apart from its rows' numbers) takes the
    # column before it, where it fits: no column stands alone
    last = blocks[-1]
    if len(blocks) > 1 and len(last) == 2 and len(blocks[-2]) > 2:
        moved = [0, blocks[-2][-1], last[1]]
        if sum(widths[i] for i in moved) + 4 <= width:
            blocks[-2], blocks[-1] = blocks[-2][:-1], moved
    return blocks


def _cell(c) -> str:
    if isinstance(c, Cell):
        return visible(c.text) + ("*" if c.best or c.mark else "")
    return visible(c)


#: Paragraphs are wrapped to this many columns (a terminal's width or, piped, 80).
WIDTH = 80


def _wrap(text: str, indent: str = "", width: int | None = WIDTH) -> list:
    """A paragraph in lines of at most ``width`` columns (a bullet's lines hang under its text);
    words longer than a line (paths, long names) are not broken. ``width=None``: one line."""
    text = indent + visible(text)
    if width is None or len(text) <= width:
        return [text]
    import textwrap

    return textwrap.wrap(text, width=width, subsequent_indent=" " * len(indent),
                         break_long_words=False, break_on_hyphens=False)


def _width(rows, header) -> list:
    """Each column's width: its widest cell or header line."""
    return [max(len(str(x)) for x in [*header_lines(header[i]), *(r[i] for r in rows)])
            for i in range(len(header))]


def _table(block, width: int | None) -> list:
    """A table's lines and caption; wider than ``width``, the first of the table's ``narrow``
    choices whose columns fit (the last whatever its width), with its note of where the
    others are."""
    rows = [[_cell(c) for c in r] for r in block.rows]
    header = [tuple(visible(x) for x in header_lines(h)) for h in block.header]
    align, note = block.align, ""
    if block.narrow and len(column_blocks(_width(rows, header), width)) > 1:
        for keep, note in block.narrow:
            if len(column_blocks(_width([[r[i] for i in keep] for r in rows],
                                        [header[i] for i in keep]), width)) == 1:
                break
        rows = [[r[i] for i in keep] for r in rows]
        header, align = [header[i] for i in keep], "".join(align[i] for i in keep)
    out = table_lines(rows, header, align, width)
    if block.caption:
        out += _wrap(block.said(bold=False), width=width)
    if note:
        out += _wrap(note, width=width)
    return out


def text_report(cmp, width: int | None = None) -> str:
    """The report as text, paragraphs wrapped to ``width`` columns (None: one line each).

    Examples
    --------
    >>> import rankwise
    >>> from rankwise.report import text_report
    >>> cmp = rankwise.compare(rankwise.load_example("garcia2008"), posthoc="all")
    >>> print(text_report(cmp, width=80).splitlines()[0])
    rankwise report: example:garcia2008
    """
    return text_document(build(cmp), width)


def text_document(doc, width: int | None = None) -> str:
    """A :class:`~rankwise.report.document.Document` laid out as text (the comparison's
    report, the leaderboard's)."""
    out = [visible(doc.title)]
    for block in doc.blocks:
        if isinstance(block, Heading):
            out += ["", visible(block.text) if block.level <= 2 else f"  {visible(block.text)}"]
        elif isinstance(block, Paragraph):
            out += _wrap(block.text, width=width)
        elif isinstance(block, Bullets):
            for item in block.items:
                out += _wrap(item, "- ", width)
        elif isinstance(block, Figure):
            out += _wrap(figure_caption(block.plan), "- ", width)
        elif isinstance(block, Table):
            out += _table(block, width)
        elif isinstance(block, Preformatted):
            out += [visible(line) for line in block.lines]
    return "\n".join(out) + "\n"
