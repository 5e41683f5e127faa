"""The report as HTML (lays out :mod:`rankwise.report.document`): one self-contained page with
the figures inline as SVG and no external resources, or, for Jupyter, a fragment whose styles
apply only inside its own wrapper. Every name and note is escaped."""

from __future__ import annotations

import html

from .document import (Bullets, Cell, Figure, Heading, Paragraph, Preformatted, Table, build,
                       figure_caption)

WRAPPER = "rankwise-report"
# Every rule is scoped to the wrapper, so a notebook around the fragment keeps its own look.
_CSS = """.W{font-family:system-ui,sans-serif;color:#222;line-height:1.4}
.W.page{max-width:1100px;margin:2em auto;padding:0 1em}
.W table{border-collapse:collapse;margin:1em 0;font-size:0.9em}
.W th,.W td{padding:0.25em 0.6em;border-bottom:1px solid #ddd;text-align:right}
.W th:first-child,.W td:first-child{text-align:left}.W thead th{border-bottom:2px solid #444}
.W .best{font-weight:bold}.W .sig{color:#a00;font-weight:bold}.W .caption{font-size:0.85em;color:#555}
.W pre{background:#f6f6f6;padding:0.8em;overflow-x:auto}.W figure{margin:1.5em 0}
.W .verdict{font-size:1.1em;background:#eef5ff;padding:0.8em;border-left:4px solid #36c}
.W figure svg{max-width:100%;height:auto}.W .notes li{margin:0.2em 0}""".replace("W", WRAPPER)


def _h(text) -> str:
    return html.escape(str(text), quote=True)


def _cell(c) -> str:
    if isinstance(c, Cell):
        classes = " ".join(cls for cls, on in (("best", c.best), ("sig", c.mark)) if on)
        return (f'<td class="{classes}">' if classes else "<td>") + _h(c.text) + "</td>"
    return f"<td>{_h(c)}</td>"


def _svg_only(svg: str) -> str:
    return svg[svg.index("<svg"):]  # no XML prolog or DOCTYPE inside HTML


def body(cmp, svgs: dict) -> str:
    """The report's content inside its wrapper ``<div>`` (figures from ``svgs``)."""
    doc = build(cmp)
    parts = [f"<h1>{_h(doc.title)}</h1>"]
    for block in doc.blocks:
        if isinstance(block, Heading):
            parts.append(f"<h{block.level}>{_h(block.text)}</h{block.level}>")
        elif isinstance(block, Paragraph):
            attrs = {"verdict": ' class="verdict" id="verdict"', "methods": ' id="methods"',
                     "lead": ' class="lead"'}.get(block.role, "")
            parts.append(f"<p{attrs}>{_h(block.text)}</p>")
        elif isinstance(block, Bullets):
            parts.append(f'<ul class="{block.role}" id="{block.role}">'
                         + "".join(f"<li>{_h(i)}</li>" for i in block.items) + "</ul>")
        elif isinstance(block, Figure):
            caption = _h(figure_caption(block.plan))
            if block.name in svgs:
                parts.append(f'<figure id="{block.name}">{_svg_only(svgs[block.name])}'
                             f"<figcaption>{caption}</figcaption></figure>")
            else:
                parts.append(f'<p class="caption" id="{block.name}">{caption}</p>')
        elif isinstance(block, Table):
            head = "".join(f"<th>{_h(h)}</th>" for h in block.header)
            rows = "".join("<tr>" + "".join(_cell(c) for c in r) + "</tr>" for r in block.rows)
            parts.append(f'<table id="{block.key}"><thead><tr>{head}</tr></thead>'
                         f"<tbody>{rows}</tbody></table>")
            if block.caption:
                parts.append(f'<p class="caption">{_h(block.caption)}</p>')
        elif isinstance(block, Preformatted):
            parts.append("<pre>" + _h("\n".join(block.lines)) + "</pre>")
    return "\n".join(parts)


def html_report(cmp, svgs: dict | None = None) -> str:
    """One self-contained page."""
    svgs = cmp.figure_svgs if svgs is None else svgs
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>rankwise report: {_h(cmp.table.source)}</title>"
            f"<style>{_CSS}</style></head><body>\n<div class=\"{WRAPPER} page\">\n"
            + body(cmp, svgs) + "\n</div></body></html>\n")


def notebook_fragment(cmp) -> str:
    """For Jupyter: no document, no global styles; the figures come from the comparison's cache."""
    return (f'<div class="{WRAPPER}"><style>{_CSS}</style>\n' + body(cmp, cmp.figure_svgs)
            + "\n</div>")
