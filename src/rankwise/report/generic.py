"""Every format and the report folder of every analysis but ``compare``, from its presenter
(:mod:`.kinds`): one layout per format, the same blocks in each, so every section a result has
appears in every format."""

from __future__ import annotations

import json
from pathlib import Path

from .kinds import presenter

#: The report folder's files of the formats (the figures and extras come beside them).
FILES = {"text": "report.txt", "markdown": "report.md", "latex": "report.tex",
         "html": "report.html", "json": "report.json"}
#: The interactive page every report folder has beside them (:mod:`.page`).
INTERACTIVE = "report_interactive.html"


def _names(doc) -> tuple:
    """The names a document shows in tables (kept as text, never as mathematics, in LaTeX)."""
    from .blocks import Table

    names = set()
    for block in doc.blocks:
        if isinstance(block, Table):
            for row in block.rows:
                names.update(str(getattr(c, "text", c)) for c in row[:2])
    return tuple(sorted(names))


def payload(result) -> dict:
    """The JSON's content: ``schema`` and ``rankwise_version`` first, then the result's own."""
    from .._version import __version__

    own = getattr(presenter(result), "payload", None)
    body = own(result) if own is not None else result.to_dict()
    body = {k: v for k, v in body.items() if k not in ("schema", "rankwise_version")}
    return {"schema": result.schema, "rankwise_version": __version__, **body}


def json_text(result, indent: int | None = 2) -> str:
    """The JSON; a result that says it is large (``json_one_line``: the gate's lists of a
    million items) is written on one line, as compare's above 10,000 pairs (json's C encoder
    writes only unindented text, several times faster)."""
    if getattr(result, "json_one_line", False):
        indent = None
    return json.dumps(payload(result), indent=indent, ensure_ascii=False,
                      allow_nan=False) + "\n"


def figures(result, width: float | None = None) -> dict:
    """``{name: Figure}`` the presenter draws (none when it draws none)."""
    draw = getattr(presenter(result), "figures", None)
    return {} if draw is None else draw(result, width)


def svgs(result, width: float | None = None) -> dict:
    from .diagrams import figure_bytes

    return {name: figure_bytes(fig, "svg").decode("utf-8")
            for name, fig in figures(result, width).items()}


def render(result, fmt: str, width: int | None = None, indent: int | None = 2,
           figure_files: bool = False, inline: dict | None = None) -> str:
    """``result`` in ``fmt``; ``figure_files``: Markdown and LaTeX link the figure files a
    report folder writes beside them; ``inline``: the HTML page's SVGs (drawn when None)."""
    if fmt == "json":
        return json_text(result, indent)
    doc = presenter(result).document(result)
    if fmt == "text":
        from .text import text_document

        return text_document(doc, width)
    if fmt == "markdown":
        from .markdown import markdown_document

        return markdown_document(doc, figure_files=figure_files)
    if fmt == "latex":
        from .latex import latex_document

        return latex_document(doc, _names(doc), figure_files=figure_files)
    from .html import html_page

    return html_page(doc, doc.title, svgs(result) if inline is None else inline)


def notebook_fragment(result) -> str:
    from .html import document_fragment

    return document_fragment(presenter(result).document(result), svgs(result))


def write_folder(result, folder, width: float | None = None) -> list:
    """report.{txt,md,tex,html,json}, each figure as SVG, PDF and PNG and the presenter's
    extra files into ``folder``, staged and renamed into place (a failure half-way leaves
    ``folder`` as it was); return the paths written."""
    from .._files import moved, staged_folder

    with staged_folder(folder) as staging:
        written = _write_all(result, Path(staging), width)
    return moved(written, folder)


def files(result) -> dict:
    """format -> file name in the report folder: ``report.*``, or the presenter's ``FILES``
    (a power study keeps the ``power.txt`` and ``power.json`` its folder always had)."""
    return dict(getattr(presenter(result), "FILES", FILES))


def _write_all(result, folder: Path, width) -> list:
    from .diagrams import figure_bytes
    from .text import WIDTH

    written, inline = [], {}
    for name, fig in figures(result, width).items():
        for fmt in ("svg", "pdf", "png"):
            data = figure_bytes(fig, fmt)
            if fmt == "svg":
                inline[name] = data.decode("utf-8")
            path = folder / f"{name}.{fmt}"
            path.write_bytes(data)
            written.append(path)
    texts = {name: render(result, fmt, width=WIDTH if fmt == "text" else None,
                          figure_files=True, inline=inline) for fmt, name in files(result).items()}
    from .html import html_page

    doc = presenter(result).document(result)   # the page whose tables sort, subsets switch
    texts[INTERACTIVE] = html_page(doc, doc.title, inline, interactive=True)
    extras = getattr(presenter(result), "extras", None)
    texts.update({} if extras is None else extras(result))
    for name, text in texts.items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
