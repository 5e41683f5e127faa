"""Reports: text, Markdown, LaTeX, HTML and JSON, the figures, and a folder with everything.

Report writers read a :class:`~rankwise.analysis.Comparison`; they never compute a statistic.
:mod:`document` decides the content once; :mod:`text`, :mod:`markdown`, :mod:`latex` and
:mod:`html` lay it out; :mod:`diagrams` draws the figures the analysis planned; :mod:`methods`
writes the methods paragraph; :mod:`json_report` adds the ``report`` section to the JSON.
Imports go down to :mod:`rankwise.analysis`, :mod:`rankwise.stats` (descriptive helpers) and
:mod:`rankwise.names`.
"""

from __future__ import annotations

from ..names import REPORT_FORMATS
from .html import html_report, notebook_fragment as _compare_fragment
from .json_report import report_section
from .latex import latex_report
from .markdown import markdown_report
from .text import text_report

FORMATS = REPORT_FORMATS


def _with_diagram(cmp, procedure):
    """The comparison whose CD diagram uses ``procedure`` (the same one if it does already)."""
    if procedure is None or procedure == cmp.settings.get("diagram_procedure"):
        return cmp
    return cmp.with_options(diagram_procedure=procedure)


def _other(result) -> bool:
    """Whether ``result`` is an analysis other than compare (presented through :mod:`.kinds`)."""
    return getattr(result, "kind", "compare") != "compare"


def build_document(result):
    """The content of ``result``'s report (any analysis: a comparison, a leaderboard, items,
    curves, fronts, an audit, a race, a power study) as format-neutral blocks (a
    :class:`~rankwise.report.document.Document`), which every format lays out.

    Examples
    --------
    >>> import rankwise
    >>> from rankwise.report import build_document
    >>> board = rankwise.leaderboard(rankwise.load_example("garcia2008"), draws=20)
    >>> doc = build_document(board)
    >>> doc.title, type(doc.blocks[0]).__name__
    ('rankwise leaderboard: example:garcia2008', 'Paragraph')
    """
    if _other(result):
        from .kinds import presenter

        return presenter(result).document(result)
    from .document import build

    return build(result)


def render(cmp, fmt: str, procedure: str | None = None, indent: int | None = 2,
           include_table: bool | None = None, fragment: bool = False,
           width: int | None = None) -> str:
    """The report of ``cmp`` (a :class:`~rankwise.analysis.Comparison`, or any other analysis
    result: its presenter is declared in :mod:`rankwise.report.kinds`) in ``fmt`` (one of
    ``FORMATS``); ``procedure``, ``include_table`` and ``fragment`` are a comparison's;
    ``include_table``: the JSON's
    per-cell matrices (default: only for tables up to 10,000 cells); ``fragment``: LaTeX
    tables and figure environments only; ``width``: text paragraphs wrapped to that many
    columns (None: one line each).

    Examples
    --------
    >>> import rankwise
    >>> from rankwise.report import render
    >>> cmp = rankwise.compare(rankwise.load_example("garcia2008"), posthoc="all")
    >>> print(render(cmp, "markdown").splitlines()[0])
    # rankwise report: example:garcia2008
    >>> render(cmp, "json").startswith("{")
    True
    """
    from ..errors import RankwiseError

    if fmt not in FORMATS:
        raise RankwiseError(f"the format must be one of {', '.join(FORMATS)}; got {fmt!r}")
    if _other(cmp):
        from .generic import render as render_other

        return render_other(cmp, fmt, width=width, indent=indent)
    cmp = _with_diagram(cmp, procedure)
    if fmt == "json":
        from .json_report import json_report

        return json_report(cmp, indent, include_table)
    if fmt == "latex":
        return latex_report(cmp, figure_files=fragment, fragment=fragment)
    if fmt == "text":
        return text_report(cmp, width)
    return {"markdown": markdown_report, "html": html_report}[fmt](cmp)


def figures(cmp, procedure: str | None = None, figure_width=None) -> dict:
    """The drawn figures of ``cmp`` as matplotlib Figures, ``{name: Figure}``; ``procedure``
    redoes the analysis with another all-pairs procedure for the CD diagram; ``figure_width``
    (``"column"``, ``"page"`` or centimetres) draws them for a paper's column or page, as
    ``--figure-width`` does (:func:`rankwise.report.diagrams.figure_width`).

    Examples
    --------
    >>> import rankwise
    >>> from rankwise.report import figures
    >>> cmp = rankwise.compare(rankwise.load_example("garcia2008"), posthoc="all")
    >>> sorted(figures(cmp))
    ['cd_diagram', 'control_diagram', 'pvalue_heatmap']
    >>> cd = figures(cmp, figure_width="column")["cd_diagram"]
    >>> from rankwise.report.diagrams import saved_width
    >>> saved_width(cd) * 2.54 <= 8.4
    True
    """
    from .diagrams import draw_all, figure_width as inches

    if _other(cmp):
        from .generic import figures as other_figures

        return other_figures(cmp, inches(figure_width))
    return draw_all(_with_diagram(cmp, procedure), inches(figure_width))


def figure_svgs(cmp) -> dict:
    """``{name: SVG text}`` of the drawn figures (``Comparison.figure_svgs`` caches it).

    Examples
    --------
    >>> import rankwise
    >>> from rankwise.report import figure_svgs
    >>> cmp = rankwise.compare(rankwise.load_example("garcia2008"), posthoc="all")
    >>> svgs = figure_svgs(cmp)
    >>> sorted(svgs), svgs["cd_diagram"].lstrip().startswith("<?xml")
    (['cd_diagram', 'control_diagram', 'pvalue_heatmap'], True)
    """
    from .diagrams import draw_all, figure_bytes

    if _other(cmp):
        from .generic import svgs

        return svgs(cmp)
    return {name: figure_bytes(fig, "svg").decode("utf-8") for name, fig in draw_all(cmp).items()}


def write_report(cmp, folder, procedure: str | None = None, figure_width=None) -> list:
    """Every format and figure into ``folder`` (see :func:`rankwise.report.folder.write_report`);
    ``figure_width`` as for :func:`figures`.

    Examples
    --------
    >>> import tempfile, pathlib, rankwise
    >>> from rankwise.report import write_report
    >>> cmp = rankwise.compare(rankwise.load_example("garcia2008"), posthoc="all")
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     names = sorted(p.name for p in write_report(cmp, folder))
    >>> len(names), names[:4]
    (19, ['cd_diagram.pdf', 'cd_diagram.png', 'cd_diagram.svg', 'cd_diagram.tikz'])
    """
    from .diagrams import figure_width as inches
    from .folder import write_report as write

    width = inches(figure_width)  # refused before the analysis is redone
    if _other(cmp):
        from .generic import write_folder

        return write_folder(cmp, folder, width)
    # An unknown procedure is refused by compare(), which _with_diagram reruns with it.
    return write(_with_diagram(cmp, procedure), folder, width)


def notebook_fragment(result) -> str:
    """For Jupyter: the report as an HTML fragment with scoped styles (no page, no global
    styles); a comparison's figures come from its cache.

    Examples
    --------
    >>> import rankwise
    >>> from rankwise.report import notebook_fragment
    >>> cmp = rankwise.compare(rankwise.load_example("garcia2008"), posthoc="all")
    >>> html = notebook_fragment(cmp)
    >>> html.startswith("<div"), "<svg" in html
    (True, True)
    """
    if _other(result):
        from .generic import notebook_fragment as other

        return other(result)
    return _compare_fragment(result)


def extra_files(result) -> dict:
    """The further files of ``result``'s report folder beside its formats and figures (a
    leaderboard's ``board.csv``): ``{file name: text}``, {} for a kind without any.

    Examples
    --------
    >>> import rankwise
    >>> from rankwise.report import extra_files
    >>> board = rankwise.leaderboard(rankwise.load_example("garcia2008"), draws=20)
    >>> list(extra_files(board)), extra_files(board)["board.csv"].split(",")[:3]
    (['board.csv'], ['subset', 'position', 'learner'])
    """
    if not _other(result):
        return {}
    from .kinds import presenter

    extras = getattr(presenter(result), "extras", None)
    return {} if extras is None else extras(result)


def interactive_page(result, svgs: dict | None = None) -> str:
    """``result``'s interactive HTML page (:mod:`rankwise.report.page`): the static page's
    content with tables that sort, a switch between subsets, numbers linked to the sentences
    that print them and hover details; ``svgs``: its figures (drawn when None).

    Examples
    --------
    >>> import rankwise
    >>> from rankwise.report import interactive_page
    >>> page = interactive_page(rankwise.compare(rankwise.load_example("garcia2010")))
    >>> page.count("<script>"), 'data-subset="Bupa"' in page
    (1, True)
    """
    from .html import html_page, html_report

    if not _other(result):
        return html_report(result, svgs, interactive=True)
    from .generic import svgs as draw
    from .kinds import presenter

    doc = presenter(result).document(result)
    return html_page(doc, doc.title, draw(result) if svgs is None else svgs, interactive=True)


def result_frame(result):
    """``result``'s main table as a pandas DataFrame (:mod:`rankwise.report.frames`).

    Examples
    --------
    >>> import rankwise
    >>> from rankwise.report import result_frame
    >>> cmp = rankwise.compare(rankwise.load_example("garcia2008"))
    >>> result_frame(cmp)["learner"].iloc[0]
    'C4.5'
    """
    from .frames import result_frame as frame

    return frame(result)


#: A result's plain repr: at most this many columns and lines of its first paragraph.
SUMMARY_COLUMNS, SUMMARY_LINES = 80, 6


def plain_summary(result) -> str:
    """A result's ``repr``: ``<Kind (rankwise.kind/N): title>`` and its report's first
    paragraph wrapped within 80 columns (at most six lines), then how to print the whole
    report.

    Examples
    --------
    >>> import rankwise
    >>> board = rankwise.leaderboard(rankwise.load_example("garcia2008"), draws=20)
    >>> text = repr(board)
    >>> text.splitlines()[0]
    '<Leaderboard (rankwise.leaderboard/2): example:garcia2008>'
    >>> max(map(len, text.splitlines())) <= 80, text.splitlines()[-1]
    (True, '  (print(result.to_text()) for the whole report)')
    """
    import textwrap

    from .blocks import Paragraph

    doc = build_document(result)
    title = doc.title.split(": ", 1)[-1]
    head = textwrap.wrap(f"<{type(result).__name__} ({result.schema}): {title}>",
                         SUMMARY_COLUMNS, subsequent_indent="  ", break_long_words=True)
    paragraphs = [b for b in doc.blocks if isinstance(b, Paragraph) and b.text]
    first = next((b.text for b in paragraphs if b.role == "verdict"),
                 paragraphs[0].text if paragraphs else "")
    body = textwrap.wrap(first, SUMMARY_COLUMNS, initial_indent="  ",
                         subsequent_indent="  ", break_long_words=True)
    if len(body) > SUMMARY_LINES:
        body = body[:SUMMARY_LINES - 1] + [textwrap.shorten(
            " ".join(body[SUMMARY_LINES - 1:]), SUMMARY_COLUMNS - 2, placeholder=" ...")]
        body[-1] = "  " + body[-1].strip()
    return "\n".join(head + body + ["  (print(result.to_text()) for the whole report)"])


__all__ = ["FORMATS", "build_document", "figure_svgs", "figures", "html_report", "latex_report", "markdown_report",
           "notebook_fragment", "plain_summary", "extra_files", "result_frame",
           "interactive_page", "render", "report_section", "text_report", "write_report"]


def write_pairs(cmp, path, significant_only: bool = False) -> list:
    """Every pair's numbers to ``path`` (see :mod:`rankwise.report.pairs_file`)."""
    from .pairs_file import write_pairs as write

    return write(cmp, path, significant_only)
