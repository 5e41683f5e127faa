"""The critical-difference diagram as TikZ, for papers: the same plan as the drawn figure (mean
ranks, cliques, the CD), in the document's own fonts.

``cd_diagram.tikz`` is the bare ``tikzpicture``, to ``\\input`` into a document that loads TikZ;
``cd_diagram_tikz.tex`` compiles on its own (``pdflatex cd_diagram_tikz.tex``; its name keeps
its PDF from overwriting the drawn ``cd_diagram.pdf``).
"""

from __future__ import annotations

import numpy as np

from .format import fmt_cd
from .latex import latex_escape

WIDTH_CM = 8.0      # from rank 1 to rank k
#: The shortest axis of a picture laid out for a given line (``--figure-width``): the axis
#: gives way to the labels down to this, then the picture is scaled (its type with it).
MIN_AXIS_CM = 3.0
LEVEL_CM = 0.22     # between clique bars
ROW_CM = 0.45       # between label rows
LABEL_GAP_CM = 0.4  # from an end of the axis to the label column on its side
BAR_PAD_CM = 0.06   # a clique bar reaches this far past its outer learners' lines
BAR_GAP_CM = 0.12   # blank between two clique bars on one level, at least
DROP_SEP_CM = 0.106  # between two learners' lines down from the axis (3 pt, as drawn)


#: The labels' type before any scaling: ``\small`` of a 10 pt document (a two-column paper's).
TYPE_PT = 9.0


def _f(v: float) -> str:
    return f"{v:.4f}".rstrip("0").rstrip(".")


def cd_diagram_tikz(plan, mean_ranks, names, axis_cm: float = WIDTH_CM) -> str:
    """The ``tikzpicture`` of a drawn CD-diagram plan (y grows downwards, in cm), laid out as
    the drawn figure: each learner's line drops from its mean rank and turns outwards to the
    label column beyond the axis's end on its side, its label outside the line's end.
    ``axis_cm``: the axis's length (:func:`axis_for`)."""
    from .diagrams import clique_levels, label_rows, rank_axis, spaced_ticks, spread

    r = np.asarray(mean_ranks, dtype=float)
    names = list(names)
    lo, hi, major, minor = rank_axis(r)
    unit = axis_cm / max(hi - lo, 1)
    index = {n: j for j, n in enumerate(names)}
    groups = [tuple(index[n] for n in g) for g in (plan.cliques or ())]
    drop = spread(r, DROP_SEP_CM / unit, (lo, hi))   # tied learners' lines apart, as drawn
    levels = clique_levels(drop, groups, gap=(2 * BAR_PAD_CM + BAR_GAP_CM) / unit)
    n_levels = max(levels) + 1 if levels else 0
    out = [f"\\begin{{tikzpicture}}[x={_f(unit)}cm, y=-1cm, font=\\small]",
           f"  \\draw ({_f(lo)},0) -- ({_f(hi)},0);"]
    # every rank (or a round step) ticked; the labelled ones longer, as many as have room
    # (a digit of the small type is 0.5 em, 4.5 pt; 3 pt between two labels)
    room = (4.5 * len(str(max(major, default=1))) + 3) / 72.27 * 2.54 / unit
    labelled = set(spaced_ticks(major, room))
    for t in minor:
        out.append(f"  \\draw ({t},0) -- ({t},-0.1) node[above] {{{t}}};" if t in labelled
                   else f"  \\draw ({t},0) -- ({t},-0.05);")
    out += _cd_bar(plan.critical_difference, lo, hi)
    out += _clique_bars(drop, groups, levels, BAR_PAD_CM / unit)
    start = 0.25 + LEVEL_CM * n_levels + 0.25
    left_x, right_x = lo - LABEL_GAP_CM / unit, hi + LABEL_GAP_CM / unit
    for j, row, left in label_rows(r):
        name = latex_escape(names[j])
        y = start + ROW_CM * row
        # down from the mean rank, then out to the label column; the label beyond the end
        if left:
            out.append(f"  \\draw ({_f(drop[j])},0) |- ({_f(left_x)},{_f(y)}) node[left]"
                       f" {{({r[j]:.2f}) {name}}};")
        else:
            out.append(f"  \\draw ({_f(drop[j])},0) |- ({_f(right_x)},{_f(y)}) node[right]"
                       f" {{{name} ({r[j]:.2f})}};")
    out.append("\\end{tikzpicture}")
    return "\n".join(out) + "\n"


def _cd_bar(cd, lo, hi) -> list:
    """The critical difference above the axis, from its left end (said, not drawn, when it is
    longer than the axis)."""
    if cd is None:
        return []
    if lo + cd > hi:
        return [f"  \\node[above] at ({_f((lo + hi) / 2)},-0.78) {{CD = {fmt_cd(cd)}"
                " (longer than this axis)};"]
    a, b = _f(lo), _f(lo + cd)
    return [f"  \\draw ({a},-0.75) -- ({b},-0.75);",
            f"  \\draw ({a},-0.68) -- ({a},-0.82);",
            f"  \\draw ({b},-0.68) -- ({b},-0.82);",
            f"  \\node[above] at ({_f(lo + cd / 2)},-0.78) {{CD = {fmt_cd(cd)}}};"]


def _clique_bars(r, groups, levels, pad) -> list:
    """A thick bar under the axis for each clique, on its level, between its end learners'
    lines ``r``; a clique that skips a learner between its ends has its members dotted, as in
    the drawn figure."""
    out = []
    for g, lev in zip(groups, levels):
        y = _f(0.25 + LEVEL_CM * lev)
        out.append(f"  \\draw[line width=2pt] ({_f(r[g[0]] - pad)},{y}) --"
                   f" ({_f(r[g[-1]] + pad)},{y});")
        inside = [int(i) for i in np.argsort(r, kind="stable")
                  if r[g[0]] <= r[i] <= r[g[-1]]]
        if list(g) != inside:
            out += [f"  \\fill ({_f(r[i])},{y}) circle (2pt);" for i in g]
    return out


def fitted(picture: str) -> str:
    """The picture scaled down to ``\\linewidth`` where it is wider (a column of a two-column
    paper), at its own size where it fits (``\\rankwisefit``, defined here when the document
    has not; it needs graphicx)."""
    from .latex import FIT

    return ("% rankwise: the CD diagram, scaled down to the line width where it is wider\n"
            "% (needs \\usepackage{tikz,graphicx})\n" + FIT + "\n\\rankwisefit{%\n"
            + picture.rstrip("\n") + "%\n}\n")


def page_size(names, plan, axis_cm: float = WIDTH_CM) -> tuple:
    """(width, height) in cm of a page that holds the picture: the axis, the longest label on
    each side (about 0.2 cm a character of the small font), the bars and the label rows."""
    k = len(names)
    longest = max(len(str(n)) for n in names) + 7
    width = axis_cm + 2 * (0.2 * longest + 0.5)
    levels = len(plan.cliques or ())
    height = 1.3 + LEVEL_CM * levels + ROW_CM * ((k + 1) // 2) + 0.8
    return round(width, 1), round(height, 1)


#: The width of a character of the labels' type, in cm (about half an em of 9 pt, measured on
#: Latin Modern: 0.154 cm on the bundled examples' labels).
CHAR_CM = 0.16
#: TikZ's blank around a label (its inner sep, 0.333 em on each side), in cm.
LABEL_SEP_CM = 0.21


def natural_width(mean_ranks, names, axis_cm: float = WIDTH_CM) -> float:
    """The picture's width in cm before any scaling: the axis, the gaps to the label columns
    and the longest label on each side (its width by :data:`CHAR_CM`)."""
    from .diagrams import label_rows

    r = np.asarray(mean_ranks, dtype=float)
    longest = {True: 0, False: 0}
    for j, _, left in label_rows(r):
        longest[left] = max(longest[left], len(f"({r[j]:.2f}) {names[j]}") * CHAR_CM
                            + LABEL_SEP_CM)
    return axis_cm + 2 * LABEL_GAP_CM + longest[True] + longest[False]


def axis_for(mean_ranks, names, width_cm: float | None) -> float:
    """The axis's length (cm) of a picture for a line of ``width_cm`` (None: its own size,
    :data:`WIDTH_CM`): what the labels leave of the line, from :data:`MIN_AXIS_CM` up to
    :data:`WIDTH_CM`; a column's picture (8.4 cm) with an 8 cm axis was scaled to about 60%,
    its 9 pt labels set in 5.4 pt.

    Examples
    --------
    >>> from rankwise.report.tikz import axis_for
    >>> ranks, names = [1.5, 2.0, 2.5], ["C4.5", "NaiveBayes", "Kernel"]
    >>> axis_for(ranks, names, None), axis_for(ranks, names, 30.0)
    (8.0, 8.0)
    >>> axis_for(ranks, names, 8.4), round(axis_for(ranks, names, 12.0), 2)
    (3.0, 5.98)
    """
    if width_cm is None:
        return WIDTH_CM
    labels = natural_width(mean_ranks, names, 0.0)
    return float(min(WIDTH_CM, max(MIN_AXIS_CM, width_cm - labels)))


def type_at(mean_ranks, names, width_cm: float) -> float:
    """The labels' type in points once ``\\rankwisefit`` scales the picture, laid out for a
    line of ``width_cm`` (:func:`axis_for`), down to that line (the longest labels set its
    width, not the number of learners)."""
    axis = axis_for(mean_ranks, names, width_cm)
    return TYPE_PT * min(1.0, width_cm / natural_width(mean_ranks, names, axis))


def standalone(picture: str, size: tuple) -> str:
    """A document that compiles on its own to a page just around the picture."""
    width, height = size
    return ("\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{lmodern}\n"
            f"\\usepackage[paperwidth={width}cm,paperheight={height}cm,margin=2mm]{{geometry}}\n"
            "\\usepackage{tikz}\n\\usepackage{graphicx}\n\\pagestyle{empty}\n"
            "\\begin{document}\n\\centering\n" + picture + "\\end{document}\n")
