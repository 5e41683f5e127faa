"""A better-and-cheaper comparison (:class:`rankwise.analysis.fronts.CriteriaComparison`) in
every format: the verdict's sentences, one document (text, Markdown, LaTeX, HTML), the JSON and
the two figures (the front; the Hasse graph of the GSD relation). Every decision, the best set
of each criterion included, is the analysis's; this module words and draws it."""

from __future__ import annotations

import numpy as np

from .._text import counted
from .format import column_format, p_words
from .blocks import (Bullets, Document, Drawn, Figure, Heading, Paragraph, Table,
                     header_text)

#: The reports list at most this many learners (front first, then by membership
#: probability); the JSON holds all.
LEARNERS_SHOWN = 20
#: A verdict bullet names at most this many learners of a list (in the table's order: the
#: front first, then the likeliest to be on it), then says how many more and where they are,
#: so that each bullet reads in a few lines ...
NAMED = 3
#: ... each with at most this many of the learners that beat it ...
BY_NAMED = 2
#: ... and at most this many of the learners tied with the best.
TIED_NAMED = 5
#: The verdict gives the membership probability of at most this many learners.
LIKELY_NAMED = 8
#: The front table's cells name at most this many learners of a list ("A, B and 12 more").
CELL_NAMED = 2
#: The front figure draws each pair of criteria up to this many panels (five criteria);
#: beyond, the first criterion against each of the others, up to this many.
PANELS_SHOWN = 10


def _dir(r, c: int) -> str:
    if r.summaries[c] == "rank":
        return "mean rank, lower is better"
    return "higher is better" if r.maximize[c] else "lower is better"


def _lower_better(r, c: int) -> bool:
    return r.summaries[c] == "rank" or not r.maximize[c]


def _summary_words(r) -> str:
    """``mean``, or per criterion when they differ (``mean rank on A, mean on B``)."""
    words = ["mean rank" if s == "rank" else s for s in r.summaries]
    if len(set(words)) == 1:
        return words[0]
    return ", ".join(f"{w} on {c}" for w, c in zip(words, r.criteria))


def _names(names) -> str:
    names = list(names)
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _mp(mb) -> str:
    """A membership test's largest p: "= p", or "> p" when a curtailed test gave it."""
    at = int(np.argmax(mb.pvalues)) if len(mb.pvalues) else 0
    sign = ">" if len(mb.pvalues) and mb.curtailed[at] else "="
    return f"{sign} {p_words(mb.pvalue)}"


def _g(x) -> str:
    return f"{x:.4g}"


def _order(r) -> np.ndarray:
    """Front first, then by membership probability, then by the first criterion."""
    first = r.points[:, 0] * (-1 if _lower_better(r, 0) else 1)
    return np.lexsort((-first, -r.probability, ~r.front))


def _some(names, n: int) -> str:
    """The first ``n`` names, then how many more ("A, B and 3 more"); all of them when at most
    one more would be left."""
    names = list(names)
    if len(names) <= n + 1:
        return _names(names)
    return ", ".join(names[:n]) + f" and {len(names) - n} more"


def _tied(names) -> str:
    """The learners tied with the best: their count when not every one is named."""
    names = list(names)
    if len(names) > TIED_NAMED + 1:
        return f"{len(names)} learners: " + _some(names, TIED_NAMED)
    return _names(names)


def _table_order(r, names) -> list:
    """``names`` in the table's order (front first, then by membership probability)."""
    at = {r.learners[i]: n for n, i in enumerate(_order(r))}
    return sorted(names, key=at.__getitem__)


def _listed(r, lists: dict, wording) -> str:
    """The first ``NAMED`` learners of ``lists`` (learner: the learners that beat it) in the
    table's order, each worded by ``wording(learner, its list)``, then how many more."""
    keys = _table_order(r, lists)
    shown = "; ".join(wording(a, _table_order(r, lists[a])) for a in keys[:NAMED])
    more = len(keys) - NAMED
    return shown + (f"; {more} more: -f json" if more > 0 else "")


def sentences(r) -> list:
    """The verdict in plain sentences, each decision read from the analysis: first the
    cautions that change how it reads, then the front, the dominance, the best sets and the
    GSD front."""
    crit = [f"{c} ({_dir(r, i)})" if r.summaries[i] == "rank" else
            f"{c} ({r.summaries[i]}, {_dir(r, i)})" for i, c in enumerate(r.criteria)]
    out = list(r.cautions)
    out.append(f"The front on {_names(crit)}: {_names(r.front_learners)}"
               f" ({int(r.front.sum())} of {len(r.learners)} learners).")
    off = r.outdone_learners
    k = len(r.learners)
    if off:
        out.append("Off the front (its point worse than another's on one criterion and not"
                   f" better on any), {len(off)} of {k} learners: "
                   + _listed(r, off, lambda a, b: f"{a} (by {_some(b, BY_NAMED)})") + ".")
    sure = [f"{r.learners[i]} {r.probability[i]:.0%}" for i in _order(r)[:LIKELY_NAMED]
            if r.probability[i] > 0]
    out.append(f"On the front in {r.settings['draws']} bootstrap draws of the data sets: "
               + ", ".join(sure) + ".")
    dom = r.dominated_learners
    if dom:
        out.append(f"Statistically dominated at alpha = {r.settings['alpha']:g} (another"
                   " learner significantly better on one criterion and not significantly"
                   " worse on any: it may be on the front by the points themselves),"
                   f" {len(dom)} of {k} learners: "
                   + _listed(r, dom, lambda a, b: f"{a} by {_some(b, BY_NAMED)}") + ".")
    else:
        out.append(f"No learner is statistically dominated at alpha = {r.settings['alpha']:g}"
                   " (significantly better on one criterion and significantly worse on"
                   " none).")
    out += _cheaper_among_tied(r)
    if r.gsd_front is not None:
        out.append(_gsd_sentence(r))
        for mb in r.memberships:
            verdict = ("is on the GSD front (static test)" if mb.static
                       else "is not shown to be on the GSD front")
            k = len(r.learners)
            over = (f"{len(mb.competitors)} competitors" if len(mb.competitors) == k - 1 else
                    f"{len(mb.competitors)} of {k - 1} competitors (the last tested already"
                    f" keeps it off)")
            out.append(f"{mb.learner} {verdict}: largest p {_mp(mb)} over {over}"
                       + ("; also at alpha/(k-1) (dynamic)" if mb.dynamic else "")
                       + (f"; robust to {counted(mb.robust_static, 'contaminated data set')}"
                          if mb.static else "") + ".")
    return out


def _gsd_sentence(r) -> str:
    """The GSD front as the membership tests decide it (the decision each learner's sentence
    reads), beside the sample's GSD front."""
    ords = r.settings["ordinal"]
    what = f"the GSD front ({'ordinal: ' + ', '.join(ords) if ords else 'all cardinal'})"
    sample = r.gsd_front_learners
    if not r.memberships:
        return f"The sample's {what}: {_names(sample)} (not tested)."
    shown = r.gsd_shown
    test = f"at alpha = {r.settings['alpha']:g} by the static test"
    if not shown:
        return (f"No learner is shown to be on {what} {test}; the sample's GSD front:"
                f" {_names(sample)}.")
    rest = [x for x in sample if x not in shown]
    return (f"Shown to be on {what} {test}: {_names(shown)}"
            + (f"; on the sample's GSD front but not shown to be on it: {_names(rest)}"
               if rest else "") + ".")


def _cheaper_among_tied(r) -> list:
    """The best set of the first criterion (the analysis's, its procedure named), then who
    among its learners is significantly better than another on each other criterion."""
    best = r.best_sets[0] if r.best_sets else None
    if best is None or len(best.learners) < 2:
        return []
    tied = [r.learners.index(x) for x in best.learners]
    out = [f"Best on {best.scope}: {best.best}; tied with it {best.how()}:"
           f" {_tied(_table_order(r, best.learners[1:]))}."]   # in the table's order
    head = f"Among the learners tied with the best on {best.scope}, "
    for c in range(1, len(r.criteria)):
        crit = r.criteria[c]
        beaten = {r.learners[j]: [r.learners[i] for i in tied if r.better[c, j, i]]
                  for j in tied}
        winners = _table_order(r, [w for w in beaten if beaten[w]])
        if not winners:
            out.append(head + f"none is significantly better on {crit} than another.")
            continue
        said = [f"{w} {'is significantly better on ' + crit + ' ' if not n else ''}than"
                f" {_some(_table_order(r, beaten[w]), BY_NAMED)}"
                for n, w in enumerate(winners[:NAMED])]
        pairs = sum(len(v) for v in beaten.values())
        more = len(winners) - NAMED
        out.append(head + "; ".join(said)
                   + (f"; {more} more learners than others ({pairs} pairs in all: -f json)"
                      if more > 0 else "") + ".")
    return out


def document(r) -> Document:
    """The report as format-neutral blocks: the verdict, the front, the GSD, the figures, the
    conventions and the notes."""
    doc = Document("rankwise: better and cheaper")
    s = r.settings
    # the ordinal criteria matter to the GSD only: said where the GSD is shown
    gsd_reading = ["" if r.cardinal[i] or r.gsd is None else ", ordinal for the GSD"
                   for i in range(len(r.criteria))]
    doc.add(Paragraph(f"{len(r.learners)} learners, {len(r.datasets)} data sets, criteria "
                      + ", ".join(f"{c} ({_dir(r, i)}{gsd_reading[i]})"
                                  for i, c in enumerate(r.criteria))
                      + f"; each learner's {_summary_words(r)} over the data sets.", "lead"))
    doc.add(Heading("Verdict"), Bullets(sentences(r), "verdict"), Heading("Front"),
            _front_table(r))
    if len(r.learners) > LEARNERS_SHOWN:
        doc.add(Paragraph(f"{len(r.learners) - LEARNERS_SHOWN} more learners in the JSON."))
    if r.gsd is not None:
        rel = [f"{r.learners[i]} dominates {r.learners[j]}"
               for i, j in r.covering_pairs]
        doc.add(Heading("Generalized stochastic dominance"),
                Paragraph("The sample's GSD front: " + _names(r.gsd_front_learners)
                          + ". Covering pairs of"
                          " the sample's GSD relation: " + ("; ".join(rel) if rel else "none")
                          + "."))
        if r.memberships:
            mrows = []
            for mb in r.memberships:
                mrows.append([mb.learner, _mp(mb).lstrip("= "), "yes" if mb.static else "no",
                              "yes" if mb.dynamic else "no",
                              str(mb.robust_static) if mb.static else "-",
                              ("every" if mb.exact else str(mb.permutations))])
            doc.add(Table(["learner", "largest p", "static", "dynamic", "robust to",
                           "splits"], mrows, "<>>>>>", key="gsd_tests"))
            doc.add(Paragraph("Each test: H0 \"the competitor GSD-dominates the learner\","
                              " the outcomes of both permuted between them (\"> p\": stopped"
                              " once p above alpha was certain); static: every"
                              f" competitor rejected at alpha = {s['alpha']:g}; dynamic: at"
                              " alpha/(k-1). Robust to: contaminated data sets under which"
                              " the static test still rejects."))
    conv = [f"Front: {'Pareto (no other learner at least as good on every criterion and better on one)' if s['front_rule'] == 'strict' else 'TabArena get_pareto_frontier rule'}.",
            f"Statistically dominated: {s['test']}, alpha = {s['alpha']:g}.",
            f"Membership probability and intervals: {s['draws']} bootstrap draws of the data"
            f" sets, seed {s['seed']}, percentile intervals."]
    if r.gsd is not None:
        conv.append(f"GSD: {s['gsd']}; {s['permutations']} permutations per pair at most.")
    doc.add(*_figure_blocks(r))
    doc.add(Heading("Conventions"), Bullets(conv))
    if r.notes:
        doc.add(Heading("Notes"), Bullets(list(r.notes), "notes"))
    return doc


def _front_table(r) -> Table:
    """The front table: each learner's point on each criterion (its summary named) with its
    interval, P(front), whether it is on the front, and who beats it (a few names of each
    list). Wider than the terminal or the page, it keeps what a person reads first: the
    intervals too where they fit, and says where the rest is."""
    head, align, points, intervals = ["learner"], "<", [], []
    for c, name in enumerate(r.criteria):
        stat = "mean rank" if r.summaries[c] == "rank" else r.summaries[c]
        points.append(len(head))
        intervals.append(len(head) + 1)
        head += [(name, stat), f"{r.settings['confidence']:.0%} interval"]
        align += "><"
    first = len(head)   # P(front) and front: read with the points
    head += ["P(front)", "front", "outdone by", "significantly by"]
    align += "><<<"
    dom, off = r.dominated_learners, r.outdone_learners
    rows = []
    order = _order(r)[:LEARNERS_SHOWN]
    # one format per criterion, for its points and their intervals: a column of 58.92, 9.706,
    # 56.8 and 1.881e+04 did not line up or read alike
    fmt = [column_format(np.concatenate([r.points[order, c], r.low[order, c],
                                         r.high[order, c]])) for c in range(len(r.criteria))]
    for i in order:
        name = r.learners[i]
        row = [name]
        for c, f in enumerate(fmt):
            row += [f(r.points[i, c]), f"[{f(r.low[i, c])}, {f(r.high[i, c])}]"]
        rows.append(row + [f"{r.probability[i]:.2f}", "yes" if r.front[i] else "",
                           _some(_table_order(r, off.get(name, [])), CELL_NAMED),
                           _some(_table_order(r, dom.get(name, [])), CELL_NAMED)])
    with_intervals = sorted([0, *points, *intervals, first, first + 1])
    bare = [0, *points, first, first + 1]

    def note(keep):
        rest = list(dict.fromkeys(f"the {header_text(head[i])}s" if i in intervals else
                                  header_text(head[i]) for i in range(len(head))
                                  if i not in keep))
        return (f"Not shown at this width: {_names(rest)} (a wider terminal or page, -f"
                " markdown or -f html; -f json: every learner, each list whole).")

    return Table(head, rows, align, key="front",
                 narrow=tuple((tuple(k), note(k)) for k in (with_intervals, bare)))


def _figure_blocks(r) -> list:
    shown = "every learner named" if r.figure_left_out() is None else \
        "the front's learners named (see the notes)"
    out = [Heading("Figures"), Figure("front", Drawn(
        "front", "The front",
        f"Each learner's point with its {r.settings['confidence']:.0%} intervals on both"
        f" criteria, shaded by its probability of being on the front, the front outlined;"
        f" {shown}.")), Figure("gsd", Drawn(
            "gsd", "The GSD relation",
            "The Hasse graph of the sample's GSD relation, the GSD front shaded.",
            drawn=r.gsd is not None, reason=_no_gsd(r)))]
    return out


def _no_gsd(r) -> str | None:
    """Why the GSD figure is not drawn, as its caption's "because ..." clause (the analysis's
    note without its period: the caption ends the sentence)."""
    if r.gsd is not None:
        return None
    left_out = [n for n in r.notes if n.startswith("GSD left out: ")]
    if not left_out:
        return "the GSD was not asked for"
    return "the GSD was left out at " + left_out[0].removeprefix("GSD left out: ").rstrip(".")


def figures(r, width: float | None = None) -> dict:
    """``{name: Figure}``: ``front`` (one panel per pair of criteria beyond two) and, with
    the GSD, ``gsd`` (``width``: unused; the figures have their own size). Each is a
    matplotlib Figure of its own (no pyplot: nothing kept open, however many pages draw
    them)."""
    out = {"front": front_figure(r)}
    if r.gsd is not None:
        out["gsd"] = hasse_figure(r)
    return out


def payload(r) -> dict:
    """The JSON's content: the result's ``to_dict()`` with the verdict's sentences before
    ``settings``, where every earlier version put them."""
    body = r.to_dict()
    out = {k: v for k, v in body.items() if k not in ("settings", "notes")}
    out["verdict"] = sentences(r)
    out["settings"], out["notes"] = body["settings"], body["notes"]
    return out


def render_fronts(r, fmt: str, width: int | None = 80) -> str:
    """``fmt``: text, markdown, html, latex or json (:meth:`CriteriaComparison.render`).

    Examples
    --------
    >>> from rankwise import compare_criteria, load_example
    >>> from rankwise.report.fronts import render_fronts
    >>> criteria = ["accuracy", "fit_time"]
    >>> tables = [load_example("demo_results", criterion=c) for c in criteria]
    >>> r = compare_criteria(tables, criteria, draws=100)
    >>> print(render_fronts(r, "markdown").splitlines()[0])
    # rankwise: better and cheaper
    """
    from .generic import render

    return render(r, fmt, width=width)


def front_figure(r, x: int | None = None, y: int | None = None):
    """Criterion ``y`` against criterion ``x``: each learner's point with its intervals on
    both axes, shaded by its membership probability, the front outlined. With two criteria
    the front is also drawn as a step. With more, the front is that of all the criteria, which
    no single plane shows as a step: one panel per pair of criteria (or the pair ``x``, ``y``
    asked for), the front's learners outlined in each, and no step.

    Examples
    --------
    >>> from rankwise import compare_criteria, load_example
    >>> from rankwise.report.fronts import front_figure
    >>> criteria = ["accuracy", "fit_time"]
    >>> tables = [load_example("demo_results", criterion=c) for c in criteria]
    >>> fig = front_figure(compare_criteria(tables, criteria, draws=100))
    >>> fig.axes[0].get_xlabel()
    'accuracy (higher is better)'
    """
    # a Figure of its own, not pyplot's: nothing left open, no backend switched
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure as Drawing

    c = len(r.criteria)
    if (x is None) != (y is None):
        raise ValueError("give both x and y (criteria positions), or neither")
    if c == 2 or x is not None:
        fig = Drawing(figsize=(6.4, 4.8))
        FigureCanvasAgg(fig)   # an Agg canvas: drawn and saved without pyplot
        ax = fig.subplots()
        x, y = (0, 1) if x is None else (x, y)
        sc, step = _front_panel(ax, r, x, y, step=c == 2)
        fig.colorbar(sc, ax=ax, label="P(on the front)")
        if c == 2:
            ax.set_title("Front (outlined) and membership probability")
        else:
            ax.set_title(f"Front over all {c} criteria (outlined) and membership probability",
                         fontsize=9)
        _said(fig, r.figure_left_out())
        fig.tight_layout(rect=(0, 0.25 / fig.get_figheight() if r.figure_left_out() else 0,
                               1, 1))
        _name_points(ax, r, x, y, step)   # once the axes have their final size
        return fig
    pairs = [(i, j) for i in range(c) for j in range(i + 1, c)]
    first = len(pairs) > PANELS_SHOWN   # a person reads so many panels at most
    if first:
        pairs = [(0, j) for j in range(1, c)][:PANELS_SHOWN]
    cols = min(3, len(pairs))
    rows = -(-len(pairs) // cols)
    fig = Drawing(figsize=(4.4 * cols + 1, 3.8 * rows), layout="constrained")
    FigureCanvasAgg(fig)   # an Agg canvas: drawn and saved without pyplot
    axes = fig.subplots(rows, cols, squeeze=False)
    for ax, (i, j) in zip(axes.flat, pairs):
        sc, _ = _front_panel(ax, r, i, j, step=False)
    for ax in axes.flat[len(pairs):]:
        ax.set_visible(False)
    fig.suptitle(f"Front over all {c} criteria (outlined) and membership probability,"
                 + (" each pair of criteria" if not first else
                    f" {r.criteria[0]} against each of the others" if len(pairs) == c - 1
                    else f" {r.criteria[0]} against {len(pairs)} of the {c - 1} others"))
    fig.colorbar(sc, ax=axes, label="P(on the front)")
    _said(fig, r.figure_left_out())
    # the layout once, then the names at the axes' final size (laid out again, the axes would
    # shrink under names placed for their former size)
    fig.get_layout_engine().execute(fig)
    fig.set_layout_engine("none")
    for ax, (i, j) in zip(axes.flat, pairs):
        _name_points(ax, r, i, j, None)
    return fig


def _said(fig, sentence: str | None) -> None:
    """What the figure leaves out, under it in the figure itself."""
    if sentence:
        fig.text(0.01, 0.005, sentence, fontsize=7, color="0.25", va="bottom", ha="left")


def _front_panel(ax, r, x: int, y: int, step: bool) -> tuple:
    """One plane of the front figure, its names left to :func:`_name_points` (placed once the
    figure is laid out); returns the scatter (for the colour bar) and the step line's corners
    (data coordinates; None without a step). An axis whose values span two orders of
    magnitude or more is on a log scale (its label says so)."""
    from ..analysis.figures import axis_scale

    px, py = r.points[:, x], r.points[:, y]
    ax.errorbar(px, py, xerr=[px - r.low[:, x], r.high[:, x] - px],
                yerr=[py - r.low[:, y], r.high[:, y] - py], fmt="none", ecolor="0.7",
                elinewidth=0.8, zorder=1)
    sc = ax.scatter(px, py, c=r.probability, cmap="viridis", vmin=0, vmax=1,
                    edgecolors=np.where(r.front, "k", "none"), s=50, zorder=2)
    corners = None
    if step:
        fr = np.flatnonzero(r.front)
        order = fr[np.argsort(px[fr], kind="stable")]
        # the step's corners drawn as a line of their own (what "steps-post" draws), so that
        # the names can keep off every segment of it
        sx, sy = np.repeat(px[order], 2)[1:], np.repeat(py[order], 2)[:-1]
        corners = (sx, sy)
        ax.plot(sx, sy, color="k", lw=0.8, zorder=0)
    for c, scale_of, label_of in ((x, ax.set_xscale, ax.set_xlabel),
                                  (y, ax.set_yscale, ax.set_ylabel)):
        log = axis_scale(np.r_[r.points[:, c], r.low[:, c], r.high[:, c]]) == "log"
        if log:
            scale_of("log")
        label_of(f"{r.criteria[c]} ({_dir(r, c)}{'; log scale' if log else ''})")
    return sc, corners


def _name_points(ax, r, x: int, y: int, corners) -> None:
    """The names the figure gives (``figure_named``), off the points, each other and the step
    line (``corners``)."""
    px, py = r.points[:, x], r.points[:, y]
    named = r.figure_named()
    # the interval bars are lines a name must not sit on, as the step line (a name once sat
    # on a bar: "LR [Rerun] (tuned + ensemble)" struck through)
    bars = [(np.array([r.low[i, x], r.high[i, x]]), np.array([py[i], py[i]]))
            for i in range(len(px))] + [
        (np.array([px[i], px[i]]), np.array([r.low[i, y], r.high[i, y]]))
        for i in range(len(px))]
    bars = [(bx, by) for bx, by in bars if np.isfinite(bx).all() and np.isfinite(by).all()]
    _place_names(ax, px[named], py[named], [r.learners[i] for i in named], (px, py),
                 lines=(() if corners is None else (corners,)) + tuple(bars))


def _place_names(ax, xs, ys, names, others=None, fontsize: float = 7, lines=()) -> None:
    """Each point's name beside it, over no other name, no point (``others``: every point
    drawn, as (x, y) arrays) and no line (``lines``: (x, y) corners of lines of horizontal and
    vertical segments, as the front's step): greedily, lowest point first, each name at the
    free place nearest its point, right or left of it, up, down or further out; a name moved
    off its point is joined to it by a thin line. Done in the axes' own coordinates
    (fractions) once the figure is laid out, each name measured as drawn."""
    ax.autoscale_view()
    fig = ax.figure
    box = ax.get_position()
    w_pt, h_pt = box.width * fig.get_figwidth() * 72, box.height * fig.get_figheight() * 72
    to_axes = (ax.transScale + ax.transLimits).transform
    at = to_axes(np.column_stack([xs, ys]))
    pts = at if others is None else to_axes(np.column_stack(others))
    segments = []   # (x0, y0, x1, y1) in axes fractions
    for lx, ly in lines:
        corners = to_axes(np.column_stack([lx, ly]))
        segments += [(*a, *b) for a, b in zip(corners[:-1], corners[1:])]
    height = 1.3 * fontsize / h_pt
    rx, ry = 4.0 / w_pt, 4.0 / h_pt   # a marker's half size
    gap_x, gap_y = 1.5 / w_pt, 1.5 / h_pt   # kept between a name and a line
    placed = np.empty((0, 4))         # left, bottom, right, top
    # offsets (points): out from the point, then up or down a line at a time
    steps = sorted(((dx, dy * 1.3 * fontsize) for dx in (5, 17, 29, 41, 60, 85, 115)
                    for dy in range(-16, 17)), key=lambda o: (abs(o[1]) + o[0] / 2, -o[1]))
    renderer = fig.canvas.get_renderer()

    leaders = []    # (x0, y0, x1, y1): from a moved name's middle to its point

    def crossed(l, b, r, t) -> bool:
        return any(_meets(seg, (l - gap_x, b - gap_y, r + gap_x, t + gap_y))
                   for seg in segments + leaders)

    def free(l, b, r, t, u, v, avoid) -> bool:
        if l < 0 or r > 1 or b < 0 or t > 1:
            return False
        hit = ((placed[:, 0] < r) & (l < placed[:, 2]) & (placed[:, 1] < t)
               & (b < placed[:, 3])).any()
        if hit or ((avoid[:, 0] > l - rx) & (avoid[:, 0] < r + rx)
                   & (avoid[:, 1] > b - ry) & (avoid[:, 1] < t + ry)).any() \
                or crossed(l, b, r, t):
            return False
        # its own leader line (when moved) over no name placed before
        leader = ((l + r) / 2, (b + t) / 2, u, v)
        return not any(_meets(leader, box) for box in placed)

    for j in np.argsort(at[:, 1], kind="stable"):
        u, v = at[j]
        probe = ax.text(0, 0, names[j], fontsize=fontsize)   # measured, then placed for real
        width = 1.05 * probe.get_window_extent(renderer).width * 72 / fig.dpi / w_pt
        probe.remove()
        # every point kept clear; where no place does, the named points only (a name over an
        # unnamed learner's dot reads better than one over a name or a line)
        spot = next(((left, v + dy / h_pt - height / 2) for avoid in (pts, at)
                     for dx, dy in steps
                     for left in (u + dx / w_pt, u - dx / w_pt - width)
                     if free(left, v + dy / h_pt - height / 2, left + width,
                             v + dy / h_pt + height / 2, u, v, avoid)), None)
        moved = spot is None or spot != (u + 5 / w_pt, v - height / 2)
        left, b = spot or (u + 5 / w_pt, v - height / 2)
        placed = np.vstack([placed, [left, b, left + width, b + height]])
        if moved:
            leaders.append((left + width / 2, b + height / 2, u, v))
        ax.annotate(names[j], (xs[j], ys[j]), xytext=(left, b + height / 2),
                    textcoords="axes fraction", fontsize=fontsize, va="center",
                    annotation_clip=False, zorder=3,
                    arrowprops=dict(arrowstyle="-", lw=0.5, color="0.45", shrinkA=0,
                                    shrinkB=3) if moved else None)


def _meets(segment, box) -> bool:
    """Does the segment ``(x0, y0, x1, y1)`` enter the open ``box`` (left, bottom, right,
    top)? (Liang-Barsky.)"""
    x0, y0, x1, y1 = segment
    l, b, r, t = box
    lo, hi = 0.0, 1.0
    dx, dy = x1 - x0, y1 - y0
    for p, q in ((-dx, x0 - l), (dx, r - x0), (-dy, y0 - b), (dy, t - y0)):
        if p == 0:
            if q <= 0:
                return False
            continue
        lo, hi = (max(lo, q / p), hi) if p < 0 else (lo, min(hi, q / p))
        if lo >= hi:
            return False
    return True


def hasse_figure(r):
    """The Hasse graph of the sample's GSD relation: each learner at the depth of its longest
    chain from the top, an arrow from each learner to those it covers.

    Examples
    --------
    >>> from rankwise import compare_criteria, load_example
    >>> from rankwise.report.fronts import hasse_figure
    >>> criteria = ["accuracy", "fit_time"]
    >>> tables = [load_example("demo_results", criterion=c) for c in criteria]
    >>> fig = hasse_figure(compare_criteria(tables, criteria, draws=100))
    >>> sorted(t.get_text() for t in fig.axes[0].texts if t.get_text())
    ['CART', 'NaiveBayes', 'RandomForest', 'kNN']
    """
    # a Figure of its own, not pyplot's: nothing left open, no backend switched
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure as Drawing

    k = len(r.learners)
    edges = r.covering_pairs
    depth = np.zeros(k, dtype=int)
    for _ in range(k):
        for i, j in edges:
            depth[j] = max(depth[j], depth[i] + 1)
    fig = Drawing(figsize=(6.4, 1.2 + 1.1 * (depth.max() + 1)))
    FigureCanvasAgg(fig)   # an Agg canvas: drawn and saved without pyplot
    ax = fig.subplots()
    pos = {}
    for d in range(depth.max() + 1):
        members = np.flatnonzero(depth == d)
        for n, i in enumerate(members):
            pos[i] = ((n + 1) / (len(members) + 1), -d)
    for i, j in edges:
        (x0, y0), (x1, y1) = pos[i], pos[j]
        ax.annotate("", (x1, y1 + 0.12), (x0, y0 - 0.12),
                    arrowprops=dict(arrowstyle="->", color="0.4"))
    for i, (xx, yy) in pos.items():
        on = r.gsd_front is not None and r.gsd_front[i]
        ax.text(xx, yy, r.learners[i], ha="center", va="center", fontsize=8,
                bbox=dict(boxstyle="round", fc="#cfe3f5" if on else "white", ec="0.3"))
    ax.set_xlim(0, 1)
    ax.set_ylim(-depth.max() - 0.5, 0.5)
    ax.axis("off")
    ax.set_title("GSD relation (shaded: the GSD front)")
    fig.tight_layout()
    return fig
