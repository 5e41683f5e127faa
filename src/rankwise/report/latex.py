"""The report as a compilable LaTeX document with booktabs tables (lays out
:mod:`rankwise.report.document`). Every name and note is escaped."""

from __future__ import annotations

import contextvars
import re
from dataclasses import replace

from .._text import visible
from .blocks import header_lines
from .document import (Bullets, Cell, Figure, Heading, Paragraph, Preformatted, Table, build,
                       figure_caption)

_LATEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
          "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
          "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}",
          "\u2212": "$-$", "\u03b4": r"$\delta$", "\u03b1": r"$\alpha$", "\u2264": r"$\le$",
          "\u00d7": r"$\times$", "\u2265": r"$\ge$", "\u03c1": r"$\rho$", "\u03a6": r"$\Phi$",
          # not "$^2$": after a "$\rho$" it would make "$$", TeX's display math
          "\u00b2": r"\textsuperscript{2}"}
_SCIENTIFIC = re.compile(r"^(-?\d\.\d+)e([-+]\d+)$")
_BOUND = re.compile(r"^< 1e-(\d+)$")  # a p-value below the floor: "< 1e-300"


def latex_escape(text) -> str:
    # "--summary" would be typeset with an en dash ("–summary"): a "-{}" between two hyphens
    # keeps an option's name as it is typed
    return re.sub("-(?=-)", "-{}", "".join(_LATEX.get(c, c) for c in visible(text)))


def _number(text: str, mark: bool = False) -> str:
    """A printed number in LaTeX: 2.580e-06 becomes $2.580\\cdot 10^{-6}$ (with the
    significance star inside the same formula)."""
    star = "{}^{*}" if mark else ""
    m = _BOUND.match(text)
    if m:
        return f"$<10^{{-{m.group(1)}}}{star}$"
    m = _SCIENTIFIC.match(text)
    if m:
        return f"${m.group(1)}\\cdot 10^{{{int(m.group(2))}}}{star}$"
    return latex_escape(text) + (f"${star}$" if mark else "")


def _cell(c) -> str:
    if isinstance(c, Cell):
        if c.best:
            return r"\textbf{" + _number(c.text) + "}" + ("${}^{*}$" if c.mark else "")
        return _number(c.text, c.mark)
    return _number(str(c))


#: Text widths (pt) of the report's pages (A4 or letter, 2.5 cm margins) in portrait and in
#: landscape, and of one column of a two-column paper (a fragment's table wider than that is a
#: table*). A table is set in landscape rather than shrunk when it does not fit in portrait, and
#: takes a smaller font only when it does not fit in landscape either.
PORTRAIT_PT = 440
LANDSCAPE_PT = 640
COLUMN_PT = 240
CHAR_PT = 4.9       # an average letter of the 10 pt body font (T1 Latin Modern, measured)
DIGIT_PT = 5.0      # a digit
#: The width (pt) of each printable ASCII character, space to tilde, in the 10 pt body font
#: (T1 Latin Modern, measured by TeX: \setbox0\hbox{c}\the\wd0); others take ``CHAR_PT``.
#: An estimate from one average letter was up to 19% wide, which sent tables that fit a
#: portrait page to a landscape one.
ASCII_PT = tuple(float(w) for w in (
    "3.33 2.78 3.74 8.33 5.00 8.33 7.78 2.78 3.89 3.89 5.00 7.78 2.78 3.33 2.78 5.00 5.00 5.00"
    " 5.00 5.00 5.00 5.00 5.00 5.00 5.00 5.00 2.78 2.78 7.78 7.78 7.78 4.72 7.78 7.50 7.08 7.22"
    " 7.64 6.81 6.53 7.85 7.50 3.61 5.14 7.78 6.25 9.17 7.50 7.78 6.81 7.78 7.36 5.56 7.22 7.50"
    " 7.50 10.28 7.50 7.50 6.11 2.78 5.00 2.78 5.00 7.50 2.78 5.00 5.56 4.44 5.56 4.44 3.06"
    " 5.00 5.56 2.78 3.06 5.28 2.78 8.33 5.56 5.00 5.56 5.28 3.92 3.94 3.89 5.56 5.28 7.22 5.28"
    " 5.28 4.44 5.00 2.78 5.00 5.00").split())
#: Bold (\textbf) is this much wider than the body font, on average over those characters.
BOLD_SCALE = 1.16
MONO_PT = 5.25      # a character of the 10 pt typewriter font
COLUMN_GAP_PT = 12  # 2 \tabcolsep
_MATH = re.compile(r"(?P<alpha>\balpha(?: = (?P<a>-?[0-9.]+))?\b)"
                   r"|(?P<kn>\b(?P<var>[kN]) = (?P<num>[0-9]+(?:,[0-9]{3})*))"
                   r"|(?P<le>\\textless\{\}=)"
                   r"|(?P<chi>\bchi(?:2|-square)\b)")


def _to_math(m) -> str:
    if m.group("alpha"):
        return r"$\alpha = " + m.group("a") + "$" if m.group("a") else r"$\alpha$"
    if m.group("kn"):
        return f"${m.group('var')} = {m.group('num')}$"
    if m.group("le"):
        return r"$\le$"
    return r"$\chi^2$"


def math(text: str) -> str:
    """Escaped text with its formulas in math mode: α, χ², k = 5, N = 30, ≤ (one pass, so a
    replacement is never matched again)."""
    return _MATH.sub(_to_math, text)


#: The names of the report being written that :func:`math` would change (a learner called
#: ``alpha`` or ``chi2``), as one pattern: names are text, never mathematics.
_NAMES = contextvars.ContextVar("rankwise_latex_names", default=None)


def _names_pattern(names):
    """A pattern matching the escaped ``names`` that contain what :func:`math` typesets."""
    risky = sorted({latex_escape(n) for n in names if _MATH.search(latex_escape(n))},
                   key=len, reverse=True)
    # "alpha = 0.05" is the level, never a name: a name is not followed by " = number".
    return re.compile("((?:" + "|".join(map(re.escape, risky)) + r")(?! = -?[0-9]))") \
        if risky else None


#: A word this long (a path, a file name) may break after a slash or an underscore: TeX
#: breaks only at spaces and hyphens, and a path in a title ran 179 pt off the page.
_LONG_WORD = re.compile(r"[^\s$]{30,}")


def _breakable(text: str) -> str:
    return _LONG_WORD.sub(lambda m: re.sub(r"(/|\\_)", r"\1\\allowbreak{}", m.group()), text)


def _text(text) -> str:
    escaped = latex_escape(text)
    names = _NAMES.get()
    if names is None:
        return _breakable(math(escaped))
    # the names stand at the odd places of the split, and stay as they are
    return _breakable("".join(part if i % 2 else math(part)
                              for i, part in enumerate(names.split(escaped))))


def _width(block: Table) -> tuple:
    """Estimated width (pt) of the table's text (its longest cell in each column, bold a
    little wider) and of the gaps between its columns, which a smaller font does not shrink."""
    cols = list(zip(*([block.header] + block.rows))) if block.rows else [[h] for h in block.header]

    def size(c):
        if isinstance(c, tuple):   # a header of several lines: its longest
            return max(size(line) for line in c)
        text = c.text if isinstance(c, Cell) else str(c)
        mark = isinstance(c, Cell) and c.mark
        if _SCIENTIFIC.match(text):  # 1.618·10^-7: the mantissa, ·10 and a small exponent
            width = (len(text.split("e")[0]) + 6) * DIGIT_PT
        else:
            width = sum(ASCII_PT[ord(ch) - 32] if " " <= ch <= "~" else CHAR_PT
                        for ch in text)
        if isinstance(c, Cell) and c.best:
            width *= BOLD_SCALE
        return width + (4.0 if mark else 0.0)

    # 3 % more than the sum (kerning, the mathematics of a p-value), since a table that
    # overflows is worse than one set smaller.
    return 1.03 * sum(max(size(c) for c in col) for col in cols), COLUMN_GAP_PT * len(cols)


def _tabular(block: Table) -> list:
    cols = "".join("r" if a == ">" else "l" for a in block.align)
    out = [r"\begin{tabular}{" + cols + "}", r"\toprule",
           " & ".join(_head(h, a) for h, a in zip(block.header, block.align)) + r" \\",
           r"\midrule"]
    out += [" & ".join(_cell(c) for c in r) + r" \\" for r in block.rows]
    return out + [r"\bottomrule", r"\end{tabular}"]


def _head(head, align: str) -> str:
    """A header cell; one of several lines stacked, aligned as its column (on the line of the
    others' baseline: its last line)."""
    lines = header_lines(head)
    if len(lines) == 1:
        return _text(lines[0])
    return (r"\shortstack[" + ("r" if align == ">" else "l") + "]{"
            + r"\\".join(_text(line) for line in lines) + "}")


def _label(kind: str, key: str) -> str:
    return f"{kind}:rankwise-{re.sub(r'[^A-Za-z0-9-]+', '-', key or 'table')}"


#: The font sizes a table may take, with the measured shrink of the text (numbers,
#: superscripts) in each; a table that fits in none is set in \tiny.
SIZES = (("", 1.0), (r"\small", 0.93), (r"\footnotesize", 0.87), (r"\scriptsize", 0.8))
#: The line height (pt: the 10 pt class's \baselineskip) of each size and of \tiny: a table
#: is not broken over pages, so one taller than the page takes a smaller size, as one wider.
LINE_PT = {"": 12.0, r"\small": 11.0, r"\footnotesize": 9.5, r"\scriptsize": 8.0,
           r"\tiny": 6.0}
#: Text heights (pt) of the report's page in portrait and in landscape (A4, the shorter of A4
#: and letter, 2.5 cm margins), less a title line's room above the table.
PORTRAIT_HIGH_PT = 660
LANDSCAPE_HIGH_PT = 430
#: \tiny's text is at least this share of the body font's width (the 15-column leaderboard of
#: 78 learners measured 0.63; 0.66 leaves a margin): wider than a landscape page even so, the
#: table keeps the columns a person reads first (its ``narrow`` choice).
TINY_AT_LEAST = 0.66
#: The gap between two columns in \tiny (2 \tabcolsep, set to 2 pt there): a table that
#: needs \tiny keeps its columns closer rather than lose some.
TINY_GAP_PT = 4


def _narrowed(block: Table) -> tuple:
    """``(table, note)``: a table that would run off a landscape page even in ``\\tiny``
    keeps the first of its ``narrow`` choices that fits (the last whatever its width), with the
    note of where the other columns are; any other table as it is."""
    def fits(b):
        text, _ = _width(b)
        return text * TINY_AT_LEAST + TINY_GAP_PT * len(b.header) <= LANDSCAPE_PT

    if not block.narrow or fits(block):
        return block, ""
    for keep, note in block.narrow:
        kept = replace(block, header=[block.header[i] for i in keep],
                       rows=[[r[i] for i in keep] for r in block.rows],
                       align="".join(block.align[i] for i in keep), narrow=())
        if fits(kept):
            break
    return kept, note


def _table(block: Table, fragment: bool) -> list:
    """A table at the body font: in portrait when it fits, else in landscape (pdflscape), and
    only the widest get a smaller font; never shrunk by a box."""
    block, note = _narrowed(block)
    text, gaps = _width(block)
    width = text + gaps
    room = PORTRAIT_PT if width <= PORTRAIT_PT else LANDSCAPE_PT
    high = PORTRAIT_HIGH_PT if width <= PORTRAIT_PT else LANDSCAPE_HIGH_PT
    # the rows, the header (its lines), the rules and the caption (about three lines)
    lines = len(block.rows) + max((len(header_lines(h)) for h in block.header), default=1) + 5
    size = next(([name] if name else [] for name, scale in SIZES
                 if text * scale + gaps <= room and lines * LINE_PT[name] <= high),
                [r"\tiny", r"\setlength{\tabcolsep}{%dpt}" % (TINY_GAP_PT // 2)])
    # the note says where the other columns are; a page has no terminal to widen
    note = note.replace("a wider terminal, ", "")
    caption = " ".join(_text(x) for x in (block.said(), note) if x)
    if fragment:
        env = "table*" if width > COLUMN_PT else "table"
        return ([f"\\begin{{{env}}}[htbp]", r"\centering"] + size
                + [r"\rankwisefit{%"] + _tabular(block) + ["}"]
                + ([r"\caption{" + caption + "}"] if caption else [])
                + [r"\label{" + _label("tab", block.key) + "}", f"\\end{{{env}}}", ""])
    # In the report the tables are not floats: a report has many, and LaTeX holds at most 18
    # floats back.
    # in a minipage: the caption stays on the page of its table (it was left to the next)
    body = [r"\begin{center}", r"\begin{minipage}{\linewidth}", r"\centering"] + size \
        + _tabular(block)
    if caption:
        body.append(r"\\[2pt] {\small " + caption + "}")
    body += [r"\end{minipage}", r"\end{center}"]
    if width > PORTRAIT_PT:
        body = [r"\begin{landscape}"] + body + [r"\end{landscape}"]
    return body + [""]


def _figure(block: Figure) -> list:
    caption = _text(figure_caption(block.plan))
    # a tall figure (the Elo of 78 learners) is scaled to the page's height, not run off it
    graphic = (rf"\includegraphics[width=\linewidth,height=0.8\textheight,keepaspectratio]"
               rf"{{{block.name}.pdf}}")
    if block.name == "cd_diagram":
        # The TikZ version (in the document's fonts) where TikZ is loaded, else the PDF.
        graphic = (r"\ifdefined\tikz\input{cd_diagram.tikz}\else" + "\n" + graphic + "\n"
                   + r"\fi")
    return [r"\begin{figure}[htbp]", r"\centering", graphic,
            r"\caption{" + caption + "}", r"\label{" + _label("fig", block.name) + "}",
            r"\end{figure}", ""]


#: Scales its argument (a tabular, a tikzpicture) down to the line width where it is wider,
#: and leaves it at its own size where it fits: a table or CD diagram of a report fragment
#: then fits a column of a two-column paper (``table``/``figure``) or the page (``table*``).
FIT = (r"\providecommand{\rankwisefit}[1]{\begingroup\sbox0{#1}\ifdim\wd0>\linewidth"
       r"\resizebox{\linewidth}{!}{\usebox0}\else\usebox0\fi\endgroup}%")

PREAMBLE = [r"\documentclass{article}", r"\usepackage[T1]{fontenc}", r"\usepackage{lmodern}",
            r"\usepackage[margin=2.5cm]{geometry}", r"\usepackage{booktabs}",
            r"\usepackage{graphicx}", r"\usepackage{pdflscape}",
            r"\IfFileExists{tikz.sty}{\usepackage{tikz}}{}",
            # a line with few spaces (a path in a title) may stretch to break where it can
            r"\setlength{\emergencystretch}{3em}"]


def latex_report(cmp, figure_files: bool = False, fragment: bool = False) -> str:
    """A compilable document (Latin Modern vector fonts, booktabs, wide tables in landscape).
    With ``figure_files`` the figures' PDFs (written beside it by ``--report``) are included as
    figure floats with captions and labels. ``fragment``: only the table and figure
    environments (with captions and ``tab:rankwise-…``/``fig:rankwise-…`` labels), to
    ``\\input`` into a paper that loads booktabs and graphicx.

    Examples
    --------
    >>> import rankwise
    >>> from rankwise.report import latex_report
    >>> cmp = rankwise.compare(rankwise.load_example("garcia2008"), posthoc="all")
    >>> latex_report(cmp).splitlines()[0]
    '\\\\documentclass{article}'
    >>> fragment = latex_report(cmp, fragment=True, figure_files=True)
    >>> r"\\documentclass" in fragment, r"\\begin{table" in fragment
    (False, True)
    """
    token = _NAMES.set(_names_pattern(cmp.table.learners + cmp.table.datasets))
    try:
        return _latex_report(cmp, figure_files, fragment)
    finally:
        _NAMES.reset(token)


def latex_document(doc, names=(), figure_files: bool = False) -> str:
    """A :class:`~rankwise.report.document.Document` as a LaTeX document (``names``: the
    learners' and data sets' names, kept as text, never as mathematics; ``figure_files``: the
    figures' PDFs written beside it included as floats)."""
    token = _NAMES.set(_names_pattern(tuple(names)))
    try:
        return _latex_blocks(doc, None, figure_files, False)
    finally:
        _NAMES.reset(token)


def _latex_report(cmp, figure_files: bool, fragment: bool) -> str:
    return _latex_blocks(build(cmp), cmp, figure_files, fragment)


def _latex_blocks(doc, cmp, figure_files: bool, fragment: bool) -> str:
    out = [] if fragment else PREAMBLE + [r"\begin{document}", "",
                                          r"\section*{" + _text(doc.title) + "}"]
    if fragment:
        out += [f"% rankwise {visible(cmp.table.source)}: tables and figures to \\input into a paper;",
                "% needs \\usepackage{booktabs,graphicx} (and the figures' PDFs from --report).",
                FIT, ""]
    lead = None   # where the headings (and paragraphs) just before a table begin in ``out``
    end = None    # where the landscape page of the table just before ends in ``out``
    for block in doc.blocks:
        if isinstance(block, Table):
            body = _table(block, fragment)
            if body[0] == r"\begin{landscape}" and lead is not None:
                # its heading goes to the landscape page with it: left behind, it ended the
                # page before on its own
                body = body[:1] + out[lead:] + body[1:]
                del out[lead:]
            out += body
            lead = None
            end = len(out) - 2 if body[0] == r"\begin{landscape}" else None
            continue
        if isinstance(block, Paragraph) and end is not None and not fragment:
            # a paragraph after a landscape table stays on its page (alone, it took a page)
            out[end:end] = [_text(block.text), ""]
            end += 2
            continue
        end = None
        if not isinstance(block, (Heading, Paragraph)):
            lead = None
        elif isinstance(block, Heading) and lead is None and not fragment:
            lead = len(out)
        if isinstance(block, Figure):
            if figure_files and block.plan.drawn:
                out += _figure(block)
            elif not fragment:
                out += [_text(figure_caption(block.plan)), ""]
        elif fragment:
            continue
        elif isinstance(block, Heading):
            command = "section" if block.level <= 2 else "subsection"
            out += ["", f"\\{command}*{{{_text(block.text)}}}"]
        elif isinstance(block, Paragraph):
            out += [_text(block.text), ""]
        elif isinstance(block, Bullets):
            out += [r"\begin{itemize}"] + [r"\item " + _text(i) for i in block.items]
            out += [r"\end{itemize}"]
        elif isinstance(block, Preformatted):
            longest = max((len(line) for line in block.lines), default=0) * MONO_PT
            size = next((name for name, scale in (("normalsize", 1.0), ("footnotesize", 0.8),
                                                  ("scriptsize", 0.7))
                         if longest * scale <= PORTRAIT_PT), "tiny")
            out += ["{\\" + size, r"\begin{verbatim}", *(visible(line) for line in block.lines),
                    r"\end{verbatim}", "}"]
    if not fragment:
        out += ["", r"\end{document}"]
    return "\n".join(out) + "\n"
