"""The report as HTML (lays out :mod:`rankwise.report.document`): one self-contained page with
the figures inline as SVG and no external resources, or, for Jupyter, a fragment whose styles
apply only inside its own wrapper. Every name and note is escaped."""

from __future__ import annotations

import html
import re

import numpy as np

from .._text import visible
from .format import fmt_p

from . import page
from .blocks import BEST, header_lines
from .document import (Bullets, Cell, Figure, Heading, Paragraph, Preformatted, Table, build,
                       figure_caption, source_name, table_digits)

WRAPPER = "rankwise-report"
# Every rule is scoped to the wrapper, so a notebook around the fragment keeps its own look.
# A table wider than the page scrolls inside its own box, and long names wrap, so that the page
# itself never scrolls sideways (checked in a browser at 1280 and 390 px, tests/test_browser.py).
_CSS = """.W{font-family:system-ui,sans-serif;color:#222;line-height:1.4}
.W.page{max-width:1100px;margin:2em auto;padding:0 1em}
.W table{border-collapse:collapse;margin:1em 0;font-size:0.9em;display:block;max-width:100%;overflow-x:auto}
.W p,.W li,.W figcaption,.W h1,.W h2{overflow-wrap:anywhere}.W .quartile-charts{max-width:100%;overflow-x:auto}
.W th,.W td{padding:0.25em 0.6em;border-bottom:1px solid #ddd;text-align:right}
.W th:first-child,.W td:first-child{text-align:left}
.W table.names td:nth-child(2),.W table.names th:nth-child(2){text-align:left}.W thead th{border-bottom:2px solid #444}
.W .best{font-weight:bold}.W .sig{color:#a00;font-weight:bold}.W .caption{font-size:0.85em;color:#555}
.W pre{background:#f6f6f6;padding:0.8em;overflow-x:auto}.W figure{margin:1.5em 0}
.W .verdict{font-size:1.1em;background:#eef5ff;padding:0.8em;border-left:4px solid #36c}
.W figure svg{max-width:100%;height:auto}.W .notes li{margin:0.2em 0}
""".replace("W", WRAPPER) + page.CSS.replace(".W", "." + WRAPPER)


def _h(text) -> str:
    return html.escape(visible(text), quote=True)


_BRACKETED = re.compile(r"\[[^\[\]]*\]")


def _td(text) -> str:
    """A cell's text escaped, an interval ``[low, high]`` kept on one line: a narrow column
    broke it after the comma, the bound apart from its bracket."""
    return _BRACKETED.sub(lambda m: m.group(0).replace(" ", "&nbsp;"), _h(text))


def _cell(c, links=None) -> str:
    """A table cell. On the interactive page (``links``: the document's
    :class:`~rankwise.report.page.Sentences`) also ``data-v`` (the unrounded number the page
    sorts by and a reader can check against the JSON), the exact value or hint on hover, and a
    link to the sentence that prints its number."""
    text = c.text if isinstance(c, Cell) else str(c)
    classes = _classes(c)
    attrs = f' class="{classes}"' if classes else ""
    inner = _td(text)
    if links is not None:
        exact = c.value if isinstance(c, Cell) else None
        shown = page.number_in(text)
        value = shown if exact is None else exact
        # repr keeps every digit; JavaScript's parseFloat reads "Infinity", not Python's "inf"
        if value is not None:
            attrs = f' data-v="{repr(value).replace("inf", "Infinity")}"' + attrs
        hint = "; ".join(x for x in (getattr(c, "hint", ""), "" if exact is None or shown == exact
                                     else f"{exact:.10g}") if x)   # the value the text rounds
        attrs += f' title="{_h(hint)}"' if hint else ""
        target = links.target(text, exact) if value is not None else None
        if target:
            inner = f'<a href="#{target}">{inner}</a>'
    # the star every other format prints (the legend names it), beside the colour
    star = "<sup>*</sup>" if isinstance(c, Cell) and c.mark else ""
    return f"<td{attrs}>{inner}{star}</td>"


def _classes(c) -> str:
    if not isinstance(c, Cell):
        return ""
    return " ".join(cls for cls, on in (("best", c.best), ("sig", c.mark)) if on)


def _svg_only(svg: str) -> str:
    return svg[svg.index("<svg"):]  # no XML prolog or DOCTYPE inside HTML


def _box_chart(title: str, rows, lo: float, hi: float, digits: int) -> str:
    """One inline SVG: a box (q1-q3), median and whiskers (min-max) per learner, on the scale
    lo..hi shared by every chart of the report, with five labelled ticks."""
    label_w, plot_w, row_h, top = 150, 360, 18, 22
    height = top + row_h * len(rows) + 30
    span = (hi - lo) or 1.0

    def x(v):
        return label_w + (v - lo) / span * plot_w

    out = [f'<svg class="quartiles" width="{label_w + plot_w + 40}" height="{height}"'
           f' role="img" aria-label="{_h(title)}: quartiles per learner">',
           f'<text x="0" y="14" font-weight="bold">{_h(title)}</text>']
    for i, r in enumerate(rows):
        y = top + row_h * i + row_h / 2
        out.append(f'<text x="{label_w - 6}" y="{y + 4:.1f}" text-anchor="end">'
                   f"{_h(r.learner)}</text>")
        if not r.n:
            out.append(f'<text x="{label_w + 6}" y="{y + 4:.1f}">no values</text>')
            continue
        out.append(f'<line x1="{x(r.minimum):.1f}" x2="{x(r.maximum):.1f}" y1="{y:.1f}"'
                   f' y2="{y:.1f}" stroke="#555"/>')
        out.append(f'<rect x="{x(r.q1):.1f}" y="{y - 5:.1f}" width="{max(x(r.q3) - x(r.q1), 1):.1f}"'
                   f' height="10" fill="#c6dbef" stroke="#08306b"/>')
        out.append(f'<line x1="{x(r.median):.1f}" x2="{x(r.median):.1f}" y1="{y - 6:.1f}"'
                   f' y2="{y + 6:.1f}" stroke="#08306b" stroke-width="2"/>')
    base = top + row_h * len(rows) + 4
    out.append(f'<line x1="{label_w}" x2="{label_w + plot_w}" y1="{base}" y2="{base}"'
               f' stroke="#000"/>')
    for t in np.linspace(lo, hi, 5):
        out.append(f'<line x1="{x(t):.1f}" x2="{x(t):.1f}" y1="{base}" y2="{base + 4}"'
                   f' stroke="#000"/><text x="{x(t):.1f}" y="{base + 16}" text-anchor="middle">'
                   f"{t:.{digits}f}</text>")
    return "".join(out) + "</svg>"


def quartile_svgs(cmp) -> str:
    """The quartile charts in HTML: the overall chart and, when the text report shows them,
    the per-data-set charts, all on one scale."""
    charts = cmp.summary.quartiles
    d = table_digits(cmp)
    svgs = [_box_chart("Overall", charts["overall"], charts["lo"], charts["hi"], d)]
    if charts["per_dataset"] and not charts["overall_enough"]:
        svgs += [_box_chart(name, rows, charts["lo"], charts["hi"], d)
                 for name, rows in charts["per_dataset"].items()]
    return '<div class="quartile-charts">' + "".join(svgs) + "</div>"


def body(cmp, svgs: dict, interactive: bool = False) -> str:
    """The report's content inside its wrapper ``<div>`` (figures from ``svgs``)."""
    return document_body(build(cmp), svgs, cmp, interactive)


def document_body(doc, svgs: dict, cmp=None, interactive: bool = False) -> str:
    """A :class:`~rankwise.report.document.Document` as HTML (``cmp``: the comparison whose
    quartile charts a ``quartiles`` block draws). ``interactive``: every sentence anchored,
    every subset in a section of its own, every number of a table linked to the sentence that
    prints it (:mod:`rankwise.report.page`)."""
    links = page.Sentences() if interactive else None
    said = {}     # the sentences first: a table's number links to a sentence after it too
    for i, block in enumerate(doc.blocks):
        if isinstance(block, Paragraph):
            said[i] = links.spans(block.text) if interactive else _h(block.text)
        elif isinstance(block, Bullets):
            said[i] = [links.spans(item) if interactive else _h(item) for item in block.items]
    sections = page.Sections() if interactive else page.NoSections()
    parts = [f"<h1>{_h(doc.title)}</h1>"]
    for i, block in enumerate(doc.blocks):
        if isinstance(block, Heading):
            parts.append(sections.at(block) + f"<h{block.level}>{_h(block.text)}</h{block.level}>")
        elif isinstance(block, Paragraph):
            attrs = {"verdict": ' class="verdict" id="verdict"', "methods": ' id="methods"',
                     "lead": ' class="lead"'}.get(block.role, "")
            parts.append(f"<p{attrs}>{said[i]}</p>")
        elif isinstance(block, Bullets):
            parts.append(f'<ul class="{block.role}" id="{block.role}">'
                         + "".join(f"<li>{item}</li>" for item in said[i]) + "</ul>")
        elif isinstance(block, Figure):
            caption = _h(figure_caption(block.plan))
            if block.name in svgs:
                parts.append(f'<figure id="{block.name}">{_svg_only(svgs[block.name])}'
                             f"<figcaption>{caption}</figcaption></figure>")
            else:
                parts.append(f'<p class="caption" id="{block.name}">{caption}</p>')
        elif isinstance(block, Table):
            parts.append(_table(block, links))
        elif isinstance(block, Preformatted):
            # each line made inert on its own: the line breaks are the block's, not a name's
            text = "<pre>" + "\n".join(_h(line) for line in block.lines) + "</pre>"
            if block.key == "quartiles" and cmp is not None:
                parts.append(quartile_svgs(cmp) + "<details><summary>As text</summary>"
                             + text + "</details>")
            else:
                parts.append(text)
    return "\n".join(parts) + sections.close()


def _table(block, links) -> str:
    """A table with every row (the page's tables sort and scroll: the rows the text leaves
    out, ``more_rows``, are here too) and its caption."""
    head = "".join("<th>" + "<br>".join(_h(x) for x in header_lines(h)) + "</th>"
                   for h in block.header)
    more = block.more_rows if links is not None else []
    rows = "".join("<tr>" + "".join(_cell(c, links) for c in r) + "</tr>"
                   for r in [*block.rows, *more])
    # the names' column on the left, as the other formats set it
    names = ' class="names"' if block.align[1:2] == "<" else ""
    out = (f'<table id="{_h(block.key)}"{names}><thead><tr>{head}</tr></thead>'
           f"<tbody>{rows}</tbody></table>")
    caption = block.more_caption if more and block.more_caption else block.caption
    if caption:
        out += f'<p class="caption">{_h(caption.replace(BEST, "bold"))}</p>'
    return out


# Sorting (click a heading; again to reverse) and filtering (by learner name) of the full
# ranking, inline: no external script. The URL fragment can set both (#filter=abc&sort=2:desc).
_RANKING_JS = """(function(){var t=document.getElementById('full_ranking');if(!t)return;
var b=t.tBodies[0],q=document.getElementById('full_ranking_filter');
function rows(){return Array.prototype.slice.call(b.rows);}
function filter(v){v=(v||'').toLowerCase();q.value=v;rows().forEach(function(r){
r.hidden=!!v&&r.cells[1].textContent.toLowerCase().indexOf(v)<0;});}
function sort(c,d){var rs=rows();rs.sort(function(x,y){var a=x.cells[c].getAttribute('data-v'),
e=y.cells[c].getAttribute('data-v'),na=parseFloat(a),ne=parseFloat(e);
var r=(isNaN(na)||isNaN(ne))?String(a).localeCompare(String(e)):na-ne;return d?-r:r;});
rs.forEach(function(r){b.appendChild(r);});t.setAttribute('data-sorted',c+(d?':desc':':asc'));}
Array.prototype.forEach.call(t.tHead.rows[0].cells,function(th,i){th.style.cursor='pointer';
th.title='sort';th.addEventListener('click',function(){
sort(i,t.getAttribute('data-sorted')===i+':asc');});});
q.addEventListener('input',function(){filter(q.value);});
var h=new URLSearchParams(location.hash.slice(1));if(h.get('filter'))filter(h.get('filter'));
if(h.get('sort')){var s=h.get('sort').split(':');sort(parseInt(s[0],10),s[1]==='desc');}})();"""


def full_ranking(cmp, interactive: bool = False) -> str:
    """Every learner in one sortable, filterable table (for reports that show only the best
    ``top``): position, name, mean rank and interval, the verdict's decision and adjusted p
    against the best, and the median difference from the best where it was computed."""
    from ..analysis.effects import effects_against
    from .blocks import shown_learners

    t = cmp.table
    if len(shown_learners(cmp)) == t.n_learners:
        return ""
    v = cmp.verdict
    sizes = {name: e.hodges_lehmann.estimate
             for name, e in effects_against(cmp.effects, v.best).items()}
    ci = cmp.mean_rank_intervals
    order = sorted(range(t.n_learners), key=lambda j: (cmp.mean_ranks[j], j))

    def td(text, value=None):
        value = text if value is None else value
        return f'<td data-v="{_h(value)}">{_td(text)}</td>'

    rows = []
    decisions = v.decisions([t.learners[j] for j in order])
    for pos, (j, decision) in enumerate(zip(order, decisions), 1):
        name = t.learners[j]
        apv = v.apv.get(name)
        hl = sizes.get(name)
        cells = [td(str(pos), pos), td(name), td(f"{cmp.mean_ranks[j]:.3f}", cmp.mean_ranks[j]),
                 td("" if ci is None else f"[{ci[j, 0]:.3f}, {ci[j, 1]:.3f}]",
                    "" if ci is None else ci[j, 0]),
                 td(decision), td("" if apv is None else fmt_p(apv), "" if apv is None else apv),
                 td("" if hl is None else f"{hl:.4g}", "" if hl is None else hl)]
        rows.append("<tr>" + "".join(cells) + "</tr>")
    head = "".join(f"<th>{_h(h)}</th>" for h in (
        "#", "learner", "mean rank", "interval", "decision", f"adjusted p vs {v.best or '-'}",
        f"median difference vs {v.best or '-'}"))
    return (f'<h2 id="all-learners">All {t.n_learners:,} learners</h2>'
            '<p><label>Filter by name: <input id="full_ranking_filter"'
            + (' class="table-filter" data-table="full_ranking"' if interactive else "")
            + ' type="search"></label>'
            ' Click a heading to sort (again to reverse).</p>'
            f'<table id="full_ranking"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}'
            '</tbody></table><p class="caption">Every learner, best mean rank first; decisions'
            " by the verdict's procedure against the best ('not detected' is not evidence of"
            f" equivalence).</p>" + ("" if interactive else f"<script>{_RANKING_JS}</script>"))


#: The page shows each data set's scores and ranks (a section each, one at a time) up to this
#: many cells (learners x data sets); beyond, the JSON carries them.
BY_DATASET_CELLS = 20_000


def by_dataset(cmp) -> str:
    """Each data set as a subset of its own: a switch between every data set's scores and ranks
    (computed by rankwise, as the JSON's ``values`` and ``ranks``) and, first, the whole table's
    mean ranks, their intervals and the verdict's decisions."""
    t = cmp.table
    if t.n_datasets * t.n_learners > BY_DATASET_CELLS:
        return (f'<h2 id="each-dataset">Each data set</h2><p>{t.n_datasets:,} data sets x'
                f" {t.n_learners:,} learners: more than the page shows data set by data set"
                f" ({BY_DATASET_CELLS:,} cells); the JSON's values and ranks hold them.</p>")
    v, ci, order = cmp.verdict, cmp.mean_rank_intervals, np.argsort(cmp.mean_ranks, kind="stable")
    decisions = v.decisions([t.learners[j] for j in order])
    sections = page.Sections()
    cells = page.Sentences()    # no sentences here: the cells' values and hovers alone
    parts = ['<h2 id="each-dataset">Each data set</h2><p>The whole table, then every data set'
             " alone: its scores and the ranks within it (1 = best, ties get mid-ranks).</p>"]

    rows = [[str(i + 1), t.learners[j], Cell(f"{cmp.mean_ranks[j]:.3f}",
                                             value=float(cmp.mean_ranks[j])),
             "" if ci is None else Cell(f"[{ci[j, 0]:.3f}, {ci[j, 1]:.3f}]", value=float(ci[j, 0]),
                                        hint=f"upper {ci[j, 1]:.10g}"),
             decision] for i, (j, decision) in enumerate(zip(order, decisions))]
    parts.append(sections.at(Heading(f"All {t.n_datasets:,} data sets", 3, subset="all"))
                 + f"<h3>All {t.n_datasets:,} data sets</h3>" + _table(Table(
                     ["#", "learner", "mean rank", "interval", "decision"], rows, "<<>><",
                     key="each_all"), cells))
    d = table_digits(cmp)
    for i, name in enumerate(t.datasets):
        values, ranks = t.values[i], cmp.ranks[i]
        best = np.nanmin(ranks) if np.isfinite(ranks).any() else np.nan
        rows = [[str(pos + 1), t.learners[j],
                 Cell("-" if np.isnan(values[j]) else f"{values[j]:.{d}f}",
                      best=bool(ranks[j] == best),
                      value=None if np.isnan(values[j]) else float(values[j])),
                 Cell("-" if np.isnan(ranks[j]) else f"{ranks[j]:g}",
                      value=None if np.isnan(ranks[j]) else float(ranks[j]))]
                for pos, j in enumerate(np.argsort(ranks, kind="stable"))]
        heading = Heading(f"Data set {name}", 3, subset=str(name))
        parts.append(sections.at(heading) + f"<h3>{_h(heading.text)}</h3>" + _table(Table(
            ["#", "learner", t.criterion or "score", "rank"], rows, "<<>>",
            key=f"each_{i + 1}", caption=f"The best score in {BEST}."), cells))
    return "\n".join(parts) + sections.close()


def html_report(cmp, svgs: dict | None = None, interactive: bool = False) -> str:
    """One self-contained page (with every learner in a sortable table when the tables above
    show only the best ``top``). ``interactive``: the page of :mod:`rankwise.report.page`
    (``report_interactive.html`` of a report folder), with each data set's section.

    Examples
    --------
    >>> import rankwise
    >>> from rankwise.report import html_report
    >>> cmp = rankwise.compare(rankwise.load_example("garcia2008"), posthoc="all")
    >>> page = html_report(cmp)
    >>> page.startswith("<!DOCTYPE html>"), page.count("<svg") >= 3
    (True, True)
    >>> "subset-switch" in html_report(cmp, interactive=True), "<script" in page
    (True, False)
    """
    svgs = cmp.figure_svgs if svgs is None else svgs
    content = (body(cmp, svgs, interactive) + "\n" + full_ranking(cmp, interactive)
               + ("\n" + by_dataset(cmp) if interactive else ""))
    return _page(f"rankwise report: {source_name(cmp.table.source)}", content, interactive)


def html_page(doc, title: str, svgs: dict | None = None, interactive: bool = False) -> str:
    """A :class:`~rankwise.report.document.Document` as one self-contained page
    (``interactive``: with :mod:`rankwise.report.page`'s sections, links and script)."""
    return _page(title, document_body(doc, svgs or {}, interactive=interactive), interactive)


def _page(title: str, content: str, interactive: bool) -> str:
    script = f"<script>{page.JS}</script>" if interactive else ""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{_h(title)}</title>"
            f"<style>{_CSS}</style></head><body>\n<div class=\"{WRAPPER} page\">\n"
            + content + f"\n</div>{script}</body></html>\n")


def document_fragment(doc, svgs: dict) -> str:
    """For Jupyter: a :class:`~rankwise.report.document.Document` with scoped styles."""
    return f'<div class="{WRAPPER}"><style>{_CSS}</style>\n' + document_body(doc, svgs) + "\n</div>"


def notebook_fragment(cmp) -> str:
    """For Jupyter: no document, no global styles; the figures come from the comparison's cache
    (:func:`rankwise.report.notebook_fragment` hands a comparison here; its example runs it)."""
    return (f'<div class="{WRAPPER}"><style>{_CSS}</style>\n' + body(cmp, cmp.figure_svgs)
            + "\n</div>")
