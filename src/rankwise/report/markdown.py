"""The report as Markdown (lays out :mod:`rankwise.report.document`). Every name and note is
escaped, so a learner called ``<script>`` or ``a|b`` is shown literally."""

from __future__ import annotations

import re

from .._text import visible

from .blocks import header_text
from .document import (Bullets, Cell, Figure, Heading, Paragraph, Preformatted, Table, build,
                       figure_caption)

_MD = {"\\": "\\\\", "|": "\\|", "*": "\\*", "_": "\\_", "`": "\\`", "[": "\\[",
       "]": "\\]", "$": "\\$", "<": "&lt;", ">": "&gt;", "&": "&amp;", "#": "\\#"}


def md(text) -> str:
    """Text shown literally in Markdown (names, notes): no emphasis, HTML, math, cell or line
    breaks, and control characters made visible."""
    return "".join(_MD.get(c, c) for c in visible(text))


def _cell(c) -> str:
    if isinstance(c, Cell):
        text = md(c.text)
        if c.best:
            text = f"**{text}**"
        return text + (" \\*" if c.mark else "")
    return md(c)


def markdown_report(cmp, figure_files: bool = False) -> str:
    """The report in Markdown (GitHub tables); ``figure_files`` links the figures as the
    SVG files ``--report`` writes beside it.

    Examples
    --------
    >>> import rankwise
    >>> from rankwise.report import markdown_report
    >>> cmp = rankwise.compare(rankwise.load_example("garcia2008"), posthoc="all")
    >>> print(markdown_report(cmp).splitlines()[0])
    # rankwise report: example:garcia2008
    """
    return markdown_document(build(cmp), figure_files)


def markdown_document(doc, figure_files: bool = False) -> str:
    """A :class:`~rankwise.report.document.Document` laid out in Markdown."""
    out = [f"# {md(doc.title)}"]
    for block in doc.blocks:
        if isinstance(block, Heading):
            out += ([""] if out[-1] else []) + ["#" * block.level + " " + md(block.text), ""]
        elif isinstance(block, Paragraph):
            out += [md(block.text), ""]
        elif isinstance(block, Bullets):
            out += [f"- {md(item)}" for item in block.items] + [""]
        elif isinstance(block, Figure):
            if figure_files and block.plan.drawn:
                out += [f"![{md(block.plan.caption)}]({block.name}.svg)", ""]
            out += [md(figure_caption(block.plan)), ""]
        elif isinstance(block, Table):
            align = ["---:" if a == ">" else "---" for a in block.align]
            out += ["| " + " | ".join(md(header_text(h)) for h in block.header) + " |",
                    "| " + " | ".join(align) + " |"]
            out += ["| " + " | ".join(_cell(c) for c in r) + " |" for r in block.rows]
            out += [""] + ([md(block.said()), ""] if block.caption else [])
        elif isinstance(block, Preformatted):
            # A fence longer than any run of backticks inside keeps the block closed.
            runs = re.findall(r"`+", "\n".join(block.lines))
            fence = "`" * max(3, 1 + max(map(len, runs), default=0))
            out += [fence + "text", *(visible(line) for line in block.lines), fence, ""]
    return "\n".join(out).rstrip("\n") + "\n"
