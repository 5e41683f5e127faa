"""The power study (``rankwise power``) in every format from one
:class:`~rankwise.report.document.Document`, its JSON, and its figures (rejection rate and
replicability against the bias); the report folder is the generic writer's, with this
module's file names (:data:`FILES`)."""

from __future__ import annotations

from ..names import label
from .blocks import Bullets, Document, Drawn, Figure, Heading, Paragraph, Table
from .document import source_name

FIGURES = ("power_rejection", "power_replicability")


#: The report folder's files (``--report DIR``): a power study's folder has always named its
#: text and JSON ``power.txt`` and ``power.json``; the other formats follow them.
FILES = {"text": "power.txt", "json": "power.json", "markdown": "power.md",
         "latex": "power.tex", "html": "power.html"}


def document(study) -> Document:
    """The study as format-neutral blocks: how the draws were made, one table per test (or
    procedure) and sample size, the planning, the figures and the notes."""
    s = study
    size = (str(s.sample_sizes[0]) if len(s.sample_sizes) == 1 else
            f"{s.sample_sizes[0]} to {s.sample_sizes[-1]}")
    doc = Document(f"rankwise power study: {source_name(s.source)}")
    doc.add(Paragraph(
        f"Pool: {s.pool_size} data sets; learners: {', '.join(s.learners)}"
        + (f"; control: {s.control}" if s.control else "") + ";"
        f" {'higher' if s.higher_is_better else 'lower'} is better"
        + (f" (criterion: {s.criterion})" if s.criterion else "") + ".", role="lead"))
    doc.add(Paragraph(
        f"Each draw takes N = {size} data sets without replacement, data set i with"
        f" probability proportional to 1/(1 + exp(-k*d_i)), d_i = {s.difference} (Demšar"
        f" 2006, §4); {s.draws:,} draws per bias and sample size, seed {s.seed};"
        f" alpha = {s.alpha}."))
    doc.add(Paragraph(
        "Rejection rate: share of draws with p <= alpha [95% Wilson interval]. R(e):"
        " probability that two independent draws agree on rejecting or not (Bouckaert)."
        " R(p) = 1 - 2 var(p) (Demšar). For a procedure, p is the smallest adjusted p-value"
        " of the draw, 'rejects' means at least one hypothesis rejected."))
    for size in s.sample_sizes:
        for name in s.tests + s.procedures:
            doc.add(Heading(label(name) + (f" (N = {size})" if len(s.sample_sizes) > 1
                                           else "")), _entry_table(s, name, size))
    if s.planning:
        doc.add(*_planning(s))
    captions = figure_captions(s)
    doc.add(Heading("Figures"), *(Figure(name, Drawn(name, TITLES[name], captions[name]))
                                  for name in FIGURES))
    if s.notes:
        doc.add(Heading("Notes"), Bullets(list(s.notes), role="notes"))
    return doc


#: The figures' titles, as every format prints them before the caption.
TITLES = {"power_rejection": "Rejection rate against the bias",
          "power_replicability": "Replicability against the bias"}


def _entry_table(s, name: str, size: int) -> Table:
    """One test's (or procedure's) rejection rate, replicabilities and p-values by bias."""
    rows = [e for e in s.results if e.test == name and e.sample_size == size]
    proc = rows[0].kind == "procedure"
    head = ["bias", "rejection rate", "R(e)", "R(p)", "mean p", "median p"]
    if proc:
        head += ["mean rejected", "mean APV"]
    table = []
    for e in rows:
        row = [f"{e.bias:g}", f"{e.rejection_rate:.3f} [{e.ci_low:.3f}, {e.ci_high:.3f}]",
               f"{e.replicability:.3f}", f"{e.replicability_p:.3f}", f"{e.p_mean:.4f}",
               f"{e.p_median:.4f}"]
        if proc:
            row += [f"{e.mean_rejected:.2f}", f"{e.mean_apv:.4f}"]
        table.append(row)
    # a key per table: LaTeX labels and HTML ids must not repeat
    return Table(head, table, "<" + ">" * (len(head) - 1), key=f"power_{name}_{size}")


def _planning(s) -> list:
    """The smallest sample size that reaches the target power, per test and bias."""
    biases = [b for b in s.biases]
    rows = []
    for name in s.tests + s.procedures:
        found = {p["bias"]: p["sample_size"] for p in s.planning if p["test"] == name}
        rows.append([label(name)] + [str(found[b]) if found.get(b) else "> max"
                                     for b in biases])
    return [Heading("Planning"),
            Paragraph(f"The smallest N (of {s.sample_sizes[0]} to {s.sample_sizes[-1]}) whose"
                      f" rejection rate reaches {s.target_power}, by bias k; > max: none of"
                      " them."),
            Table(["test"] + [f"k={b:g}" for b in biases], rows, "<" + ">" * len(biases),
                  key="planning")]


def text_report(study, width: int | None = None) -> str:
    """The study as text: its paragraphs and notes wrapped to ``width`` columns (None: a line
    each), its tables in blocks of columns that fit (the document laid out, as every
    format)."""
    from .generic import render

    return render(study, "text", width=width)


def json_report(study, indent: int | None = 2) -> str:
    """The study's JSON: ``schema`` (``rankwise.power/1``) and ``rankwise_version`` first."""
    from .generic import render

    return render(study, "json", indent=indent)


def figures(study, width: float | None = None) -> dict:
    """``{name: Figure}``: rejection rate and replicability against the bias (one line per
    test, at each sample size), scaled down to ``width`` inches when wider (with a warning
    when their type gets too small to read)."""
    from .diagrams import fit_width, warn_small_type

    drawn = {name: fit_width(fig, width) for name, fig in _drawn(study).items()}
    warn_small_type(drawn, width)
    return drawn


def _drawn(study) -> dict:
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
    n = (f"N = {study.sample_sizes[0]} data sets" if len(study.sample_sizes) == 1 else
         "N data sets (each sample size shown, up to four)")
    return {
        "power_rejection": (f"Share of {study.draws:,} draws of {n} in which each test"
                            f" rejects at alpha = {study.alpha}, against the bias k (shaded: 95%"
                            " Wilson intervals; dotted: alpha)."),
        "power_replicability": ("Bouckaert's replicability R(e), the probability that two"
                                " independent draws agree on rejecting or not, against the"
                                " bias k; it is lowest where a test rejects about half of the"
                                " time.")}


def write_report(study, folder, width: float | None = None) -> list:
    """Every format (``power.txt``, ``power.json``, ``power.md``, ``power.tex``,
    ``power.html``) and the figures (SVG, PDF, PNG) into ``folder``, each renamed into place
    once all are written (a failure leaves ``folder`` as it was); the paths written.
    ``width`` (inches): figures wider than it are scaled down to it."""
    from .generic import write_folder

    return write_folder(study, folder, width)
