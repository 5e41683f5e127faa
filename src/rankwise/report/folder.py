"""``--report DIR``: every format and every figure of one analysis, written together."""

from __future__ import annotations

from pathlib import Path

from .._files import moved, staged_folder
from .diagrams import draw_all, figure_bytes, shown_figure_inputs, warn_small_type
from .generic import INTERACTIVE
from .html import html_report
from .json_report import json_report
from .latex import latex_report
from .markdown import markdown_report
from .pairs import pairs_csv
from .pairs_file import folder_pairs
from .text import WIDTH, text_report
from .tikz import axis_for, cd_diagram_tikz, fitted, page_size, standalone, type_at


def tikz_files(cmp, width: float | None = None) -> dict:
    """The CD diagram as TikZ (``cd_diagram.tikz``, which ``report.tex`` inputs where TikZ is
    loaded, and ``cd_diagram_tikz.tex``, which compiles on its own); none when no CD diagram
    is drawn. Every report folder that holds a comparison's CD diagram writes them. ``width``
    (inches, ``--figure-width``): laid out for a line that wide (a shorter axis, the labels'
    type kept), as the drawn figures are."""
    plan = cmp.figures.get("cd_diagram")
    if plan is None or not plan.drawn:
        return {}
    names, ranks, restrict = shown_figure_inputs(cmp)
    plan = restrict(plan)
    axis = axis_for(ranks, names, None if width is None else width * 2.54)
    picture = fitted(cd_diagram_tikz(plan, ranks, names, axis))
    return {"cd_diagram.tikz": picture,
            "cd_diagram_tikz.tex": standalone(picture, page_size(names, plan, axis))}


def tikz_type(cmp, width: float | None) -> dict:
    """``{"cd_diagram.tikz": points}``: the TikZ diagram's type once scaled to a line of
    ``width`` inches (it is scaled to the document's line, which ``--figure-width`` says);
    empty without a width or a TikZ diagram."""
    plan = cmp.figures.get("cd_diagram")
    if width is None or plan is None or not plan.drawn:
        return {}
    names, ranks, _ = shown_figure_inputs(cmp)
    return {"cd_diagram.tikz": type_at(ranks, names, width * 2.54)}


def write_report(cmp, folder, width: float | None = None) -> list:
    """Write report.{txt,md,tex,html,json}, report_interactive.html (the page whose tables
    sort and whose data sets switch, :mod:`.page`), report_fragment.tex (the tables and figure
    environments to \\input into a paper), each drawn figure as SVG, PDF and PNG, and the CD
    diagram also as TikZ (cd_diagram.tikz, and cd_diagram_tikz.tex, which compiles on its own;
    not cd_diagram.tex, whose PDF would overwrite the drawn cd_diagram.pdf) and pairs.csv
    (every pair's numbers, :mod:`.pairs`; above 1,000 learners with --posthoc all, every pair
    streamed to pairs.parquet, :mod:`.pairs_file`) into ``folder``; return the paths written. Every
    file is written first into a staging folder and then renamed into place, so a failure
    half-way (a full disk) leaves ``folder`` as it was. ``width`` (inches): the SVG, PDF and PNG
    figures are drawn for it (:func:`.diagrams.fit_width`); the HTML report's keep their
    own size."""
    with staged_folder(folder) as staging:
        written = _write_all(cmp, staging, width)
    return moved(written, folder)


def _write_all(cmp, folder: Path, width=None) -> list:
    written = []
    svgs = {} if width is None else None
    drawn = draw_all(cmp, width)
    warn_small_type(drawn, width, tikz_type(cmp, width))
    for name, fig in drawn.items():
        for fmt in ("svg", "pdf", "png"):
            data = figure_bytes(fig, fmt)
            if fmt == "svg" and svgs is not None:
                svgs[name] = data.decode("utf-8")
            path = folder / f"{name}.{fmt}"
            path.write_bytes(data)
            written.append(path)
    for name, content in tikz_files(cmp, width).items():
        path = folder / name
        path.write_text(content, encoding="utf-8")
        written.append(path)
    texts = {"report.txt": text_report(cmp, WIDTH),
             "report.md": markdown_report(cmp, figure_files=True),
             "report.tex": latex_report(cmp, figure_files=True),
             "report_fragment.tex": latex_report(cmp, figure_files=True, fragment=True),
             "report.html": html_report(cmp, cmp.figure_svgs if svgs is None else svgs),
             INTERACTIVE: html_report(cmp, cmp.figure_svgs if svgs is None else svgs,
                                      interactive=True),
             "report.json": json_report(cmp)}
    streamed = folder_pairs(cmp, folder)  # every pair of a streamed family, block by block
    if not streamed:
        texts["pairs.csv"] = pairs_csv(cmp)
    for name, text in texts.items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written + streamed
