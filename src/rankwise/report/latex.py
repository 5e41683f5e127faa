"""The report as a compilable LaTeX document with booktabs tables (lays out
:mod:`rankwise.report.document`). Every name and note is escaped."""

from __future__ import annotations

import re

from .document import (Bullets, Cell, Figure, Heading, Paragraph, Preformatted, Table, build,
                       figure_caption)

_LATEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
          "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
          "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}",
          "\u2212": "$-$", "\u03b4": r"$\delta$", "\u03b1": r"$\alpha$", "\u2264": r"$\le$",
          "\u00d7": r"$\times$"}
_SCIENTIFIC = re.compile(r"^(-?\d\.\d+)e([-+]\d+)$")


def latex_escape(text) -> str:
    return "".join(_LATEX.get(c, c) for c in str(text))


def _number(text: str) -> str:
    """A printed number in LaTeX: 2.580e-06 becomes $2.580\\cdot 10^{-6}$."""
    m = _SCIENTIFIC.match(text)
    if m:
        return f"${m.group(1)}\\cdot 10^{{{int(m.group(2))}}}$"
    return latex_escape(text)


def _cell(c) -> str:
    if isinstance(c, Cell):
        text = _number(c.text) if _SCIENTIFIC.match(c.text) else latex_escape(c.text)
        if c.best:
            text = r"\textbf{" + text + "}"
        return text + (r"$^{*}$" if c.mark else "")
    return _number(str(c))


def latex_report(cmp, figure_files: bool = False) -> str:
    """A compilable document; copy the tables you need. With ``figure_files`` the figures'
    PDFs (written beside it by ``--report``) are included."""
    doc = build(cmp)
    out = [r"\documentclass{article}", r"\usepackage[T1]{fontenc}", r"\usepackage{booktabs}",
           r"\usepackage{graphicx}", r"\begin{document}", "",
           r"\section*{" + latex_escape(doc.title) + "}"]
    for block in doc.blocks:
        if isinstance(block, Heading):
            command = "section" if block.level <= 2 else "subsection"
            out += ["", f"\\{command}*{{{latex_escape(block.text)}}}"]
        elif isinstance(block, Paragraph):
            out += [latex_escape(block.text), ""]
        elif isinstance(block, Bullets):
            out += [r"\begin{itemize}"] + [r"\item " + latex_escape(i) for i in block.items]
            out += [r"\end{itemize}"]
        elif isinstance(block, Figure):
            if figure_files and block.plan.drawn:
                out += [r"\begin{center}",
                        rf"\includegraphics[width=\linewidth]{{{block.name}.pdf}}\\",
                        r"\small " + latex_escape(figure_caption(block.plan)), r"\end{center}"]
            else:
                out += [latex_escape(figure_caption(block.plan)), ""]
        elif isinstance(block, Table):
            cols = "".join("r" if a == ">" else "l" for a in block.align)
            # Not floats: a report has many tables, and LaTeX holds at most 18 floats back.
            out += [r"\begin{center}",
                    r"\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}{%",
                    r"\begin{tabular}{" + cols + "}", r"\toprule",
                    " & ".join(latex_escape(h) for h in block.header) + r" \\", r"\midrule"]
            out += [" & ".join(_cell(c) for c in r) + r" \\" for r in block.rows]
            out += [r"\bottomrule", r"\end{tabular}}"]
            if block.caption:
                out.append(r"\\[2pt] \small " + latex_escape(block.caption))
            out += [r"\end{center}", ""]
        elif isinstance(block, Preformatted):
            out += [r"\begin{verbatim}", *block.lines, r"\end{verbatim}"]
    out += ["", r"\end{document}", ""]
    return "\n".join(out)
