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
LEVEL_CM = 0.22     # between clique bars
ROW_CM = 0.45       # between label rows


def _f(v: float) -> str:
    return f"{v:.4f}".rstrip("0").rstrip(".")


def cd_diagram_tikz(plan, mean_ranks, names) -> str:
    """The ``tikzpicture`` of a drawn CD-diagram plan (y grows downwards, in cm)."""
    from .diagrams import clique_levels, label_rows, rank_axis

    r = np.asarray(mean_ranks, dtype=float)
    names = list(names)
    k = len(names)
    lo, hi, major, _ = rank_axis(r)
    every = lo == 1 and hi == max(k, 2)  # all learners: each rank a labelled tick, as always
    unit = WIDTH_CM / max(hi - lo, 1)
    gap = 0.2 if every else 0.025 * (hi - lo)  # from the axis's ends to the label lines
    index = {n: j for j, n in enumerate(names)}
    groups = [tuple(index[n] for n in g) for g in (plan.cliques or ())]
    levels = clique_levels(r, groups)
    n_levels = max(levels) + 1 if levels else 0
    out = [f"\\begin{{tikzpicture}}[x={_f(unit)}cm, y=-1cm, font=\\small]",
           f"  \\draw ({_f(lo)},0) -- ({_f(hi) if not every else k},0);"]
    for t in (range(1, k + 1) if every else major):
        out.append(f"  \\draw ({t},0) -- ({t},-0.1) node[above] {{{t}}};")
    cd = plan.critical_difference
    if cd is not None and lo + cd <= hi:
        a, b = ("1", _f(1 + cd)) if every else (_f(lo), _f(lo + cd))
        out += [f"  \\draw ({a},-0.75) -- ({b},-0.75);",
                f"  \\draw ({a},-0.68) -- ({a},-0.82);",
                f"  \\draw ({b},-0.68) -- ({b},-0.82);",
                f"  \\node[above] at ({_f(lo + cd / 2)},-0.78) {{CD = {fmt_cd(cd)}}};"]
    elif cd is not None:
        out.append(f"  \\node[above] at ({_f((lo + hi) / 2)},-0.78) {{CD = {fmt_cd(cd)}"
                   " (longer than this axis)};")
    for g, lev in zip(groups, levels):
        y = 0.25 + LEVEL_CM * lev
        lo, hi = r[g[0]] - 0.03, r[g[-1]] + 0.03
        out.append(f"  \\draw[line width=2pt] ({_f(lo)},{_f(y)}) -- ({_f(hi)},{_f(y)});")
    start = 0.25 + LEVEL_CM * n_levels + 0.25
    for j, row, left in label_rows(r):
        name = latex_escape(names[j])
        y = start + ROW_CM * row
        if left:
            out.append(f"  \\draw ({_f(r[j])},0) |- ({_f(lo - gap)},{_f(y)}) node[left]"
                       f" {{({r[j]:.2f}) {name}}};")
        else:
            out.append(f"  \\draw ({_f(r[j])},0) |- ({_f(hi + gap)},{_f(y)}) node[right]"
                       f" {{{name} ({r[j]:.2f})}};")
    out.append("\\end{tikzpicture}")
    return "\n".join(out) + "\n"


def fitted(picture: str) -> str:
    """The picture scaled down to ``\\linewidth`` where it is wider (a column of a two-column
    paper), at its own size where it fits (``\\rankwisefit``, defined here when the document
    has not; it needs graphicx)."""
    from .latex import FIT

    return ("% rankwise: the CD diagram, scaled down to the line width where it is wider\n"
            "% (needs \\usepackage{tikz,graphicx})\n" + FIT + "\n\\rankwisefit{%\n"
            + picture.rstrip("\n") + "%\n}\n")


def page_size(names, plan) -> tuple:
    """(width, height) in cm of a page that holds the picture: the axis, the longest label on
    each side (about 0.2 cm a character of the small font), the bars and the label rows."""
    k = len(names)
    longest = max(len(str(n)) for n in names) + 7
    width = WIDTH_CM + 2 * (0.2 * longest + 0.5)
    levels = len(plan.cliques or ())
    height = 1.3 + LEVEL_CM * levels + ROW_CM * ((k + 1) // 2) + 0.8
    return round(width, 1), round(height, 1)


def standalone(picture: str, size: tuple) -> str:
    """A document that compiles on its own to a page just around the picture."""
    width, height = size
    return ("\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{lmodern}\n"
            f"\\usepackage[paperwidth={width}cm,paperheight={height}cm,margin=2mm]{{geometry}}\n"
            "\\usepackage{tikz}\n\\usepackage{graphicx}\n\\pagestyle{empty}\n"
            "\\begin{document}\n\\centering\n" + picture + "\\end{document}\n")
