"""The power study as text, JSON and figures (rejection rate and replicability against bias)."""

from __future__ import annotations

import json
from pathlib import Path

from ..names import label

FIGURES = ("power_rejection", "power_replicability")


def text_report(study, width: int | None = None) -> str:
    """The study as text: its paragraphs and notes wrapped to ``width`` columns (None: a line
    each), its tables in blocks of columns that fit."""
    from ..report.text import table_lines

    s = study
    size = (str(s.sample_sizes[0]) if len(s.sample_sizes) == 1 else
            f"{s.sample_sizes[0]} to {s.sample_sizes[-1]}")
    lines = [f"rankwise power study: {s.source}",
             f"Pool: {s.pool_size} data sets; learners: {', '.join(s.learners)}"
             + (f"; control: {s.control}" if s.control else "") + ";"
             f" {'higher' if s.higher_is_better else 'lower'} is better"
             + (f" (criterion: {s.criterion})" if s.criterion else "") + ".",
             f"Each draw takes N = {size} data sets without replacement, data set i with"
             f" probability proportional to 1/(1 + exp(-k*d_i)), d_i = {s.difference} (Demšar"
             f" 2006, §4); {s.draws:,} draws per bias and sample size, seed {s.seed};"
             f" alpha = {s.alpha}.",
             "Rejection rate: share of draws with p <= alpha [95% Wilson interval]. R(e):"
             " probability that two independent draws agree on rejecting or not (Bouckaert)."
             " R(p) = 1 - 2 var(p) (Demšar). For a procedure, p is the smallest adjusted p-value"
             " of the draw, 'rejects' means at least one hypothesis rejected.", ""]
    for size in s.sample_sizes:
        for name in s.tests + s.procedures:
            rows = [e for e in s.results if e.test == name and e.sample_size == size]
            proc = rows[0].kind == "procedure"
            lines.append(f"{label(name)}" + (f" (N = {size})" if len(s.sample_sizes) > 1
                                               else ""))
            head = ["bias", "rejection rate", "R(e)", "R(p)", "mean p", "median p"]
            if proc:
                head += ["mean rejected", "mean APV"]
            table = [head]
            for e in rows:
                row = [f"{e.bias:g}", f"{e.rejection_rate:.3f} [{e.ci_low:.3f}, {e.ci_high:.3f}]",
                       f"{e.replicability:.3f}", f"{e.replicability_p:.3f}", f"{e.p_mean:.4f}",
                       f"{e.p_median:.4f}"]
                if proc:
                    row += [f"{e.mean_rejected:.2f}", f"{e.mean_apv:.4f}"]
                table.append(row)
            # in blocks of columns that fit the width (one block without one), as compare's
            lines += table_lines(table[1:], head, "<" + ">" * (len(head) - 1), width)
            lines.append("")
    if s.planning:
        lines.append(f"Planning: the smallest N (of {s.sample_sizes[0]} to {s.sample_sizes[-1]})"
                     f" whose rejection rate reaches {s.target_power}")
        for name in s.tests + s.procedures:
            cells = [f"k={p['bias']:g}: {p['sample_size'] if p['sample_size'] else '> max'}"
                     for p in s.planning if p["test"] == name]
            lines.append(f"  {label(name)}: " + ", ".join(cells))
        lines.append("")
    for note in s.notes:
        lines.append(f"Note: {note}")
    if width is not None:
        lines = [part for line in lines for part in _wrapped(line, width)]
    return "\n".join(lines).rstrip() + "\n"


def _wrapped(line: str, width: int) -> list:
    """A prose line in lines of at most ``width`` columns, a planning line (indented: a list of
    ``k=B: N``) broken only between its items; a table's line (cells two spaces apart, or a
    rule) and a short line as they are."""
    import textwrap

    if len(line) <= width or "  " in line.strip() or set(line.strip()) <= {"-", " "}:
        return [line]
    if not line.startswith("  "):
        return textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False)
    out, items = [], line.split(", ")
    current = items[0]
    for item in items[1:]:
        if len(current) + 2 + len(item) + 1 > width:   # room for the comma after it
            out.append(current + ",")
            current = "    " + item
        else:
            current += ", " + item
    return out + [current]


def json_report(study, indent: int | None = 2) -> str:
    return json.dumps(study.to_dict(), indent=indent, ensure_ascii=False) + "\n"


def figures(study) -> dict:
    """``{name: Figure}``: rejection rate and replicability against the bias (one line per
    test, at each sample size)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    out = {}
    names = study.tests + study.procedures
    for fig_name, value, ylabel in (
            ("power_rejection", "rejection_rate", f"rejection rate at alpha = {study.alpha}"),
            ("power_replicability", "replicability", "replicability R(e)")):
        fig = Figure(figsize=(7.0, 4.2))
        FigureCanvasAgg(fig)
        ax = fig.add_axes((0.1, 0.13, 0.6, 0.8))
        styles = ["-", "--", ":", "-."]
        for si, size in enumerate(study.sample_sizes[:4]):
            for name in names:
                rows = [e for e in study.results if e.test == name and e.sample_size == size]
                x = [e.bias for e in rows]
                y = [getattr(e, value) for e in rows]
                tag = label(name) + (f", N = {size}" if len(study.sample_sizes) > 1 else "")
                line, = ax.plot(x, y, styles[si], marker="o", ms=3, label=tag)
                if value == "rejection_rate":
                    ax.fill_between(x, [e.ci_low for e in rows], [e.ci_high for e in rows],
                                    color=line.get_color(), alpha=0.15, lw=0)
        if value == "rejection_rate":
            ax.axhline(study.alpha, color="0.5", lw=0.8, ls=":")
            ax.set_ylim(0, 1)
        else:
            ax.set_ylim(0.5, 1)
        ax.set_xlabel("bias k")
        ax.set_ylabel(ylabel)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False)
        ax.grid(alpha=0.3)
        out[fig_name] = fig
    return out


def figure_captions(study) -> dict:
    n = (f"N = {study.sample_sizes[0]}" if len(study.sample_sizes) == 1 else
         "the sample sizes shown (up to four)")
    return {
        "power_rejection": (f"Share of {study.draws:,} draws of {n} data sets in which each test"
                            f" rejects at alpha = {study.alpha}, against the bias k (shaded: 95%"
                            " Wilson intervals; dotted: alpha)."),
        "power_replicability": ("Bouckaert's replicability R(e), the probability that two"
                                " independent draws agree on rejecting or not, against the"
                                " bias k; it is lowest where a test rejects about half of the"
                                " time.")}


def write_report(study, folder, width: float | None = None) -> list:
    """power.txt, power.json and the figures (SVG, PDF, PNG) into ``folder``, each renamed into
    place once all are written (a failure leaves ``folder`` as it was); the paths written.
    ``width`` (inches): figures wider than it are scaled down to it."""
    from .._files import moved, staged_folder

    with staged_folder(folder) as staging:
        written = _write_all(study, staging, width)
    return moved(written, folder)


def _write_all(study, folder: Path, width=None) -> list:
    import textwrap

    from ..report.diagrams import figure_bytes, fit_width, warn_small_type
    from ..report.text import WIDTH

    written = []
    drawn = {name: fit_width(fig, width) for name, fig in figures(study).items()}
    warn_small_type(drawn, width)
    for name, fig in drawn.items():
        for fmt in ("svg", "pdf", "png"):
            path = folder / f"{name}.{fmt}"
            path.write_bytes(figure_bytes(fig, fmt))
            written.append(path)
    captions = figure_captions(study)
    text = text_report(study, WIDTH) + "\nFigures:\n" + "".join(
        textwrap.fill(f"- {name}.svg: {cap}", WIDTH, subsequent_indent="  ",
                      break_long_words=False, break_on_hyphens=False) + "\n"
        for name, cap in captions.items())
    for name, content in (("power.txt", text), ("power.json", json_report(study))):
        path = folder / name
        path.write_text(content, encoding="utf-8")
        written.append(path)
    return written
