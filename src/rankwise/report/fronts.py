"""A better-and-cheaper comparison (:class:`rankwise.analysis.fronts.CriteriaComparison`) in
every format: the verdict's sentences, one document (text, Markdown, LaTeX, HTML), the JSON and
the two figures (the front; the Hasse graph of the GSD relation). Every decision, the best set
of each criterion included, is the analysis's; this module words and draws it."""

from __future__ import annotations

import numpy as np

from .._text import counted
from .format import p_words
from .blocks import Bullets, Document, Drawn, Figure, Heading, Paragraph, Table

#: The reports list at most this many learners (front first, then by membership
#: probability); the JSON holds all.
LEARNERS_SHOWN = 20
#: ... and name at most this many statistically dominated learners in the verdict.
DOMINATED_SHOWN = 8
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


def _tied(names) -> str:
    names = list(names)
    if len(names) > DOMINATED_SHOWN:
        return f"{len(names)} learners: " + ", ".join(names[:DOMINATED_SHOWN]) + ", ..."
    return _names(names)


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
    if off:
        shown = list(off.items())[:DOMINATED_SHOWN]
        out.append("Off the front (its point worse than another's on one criterion and not"
                   " better on any): " + "; ".join(
                       f"{a} (by {_names(b[:3])}{' and more' if len(b) > 3 else ''})"
                       for a, b in shown)
                   + (f"; {len(off) - len(shown)} more in the JSON" if len(off) > len(shown)
                      else "") + ".")
    sure = [f"{r.learners[i]} {r.probability[i]:.0%}" for i in _order(r)[:DOMINATED_SHOWN]
            if r.probability[i] > 0]
    out.append(f"On the front in {r.settings['draws']} bootstrap draws of the data sets: "
               + ", ".join(sure) + ".")
    dom = r.dominated_learners
    if dom:
        parts = []
        for loser, winners in list(dom.items())[:DOMINATED_SHOWN]:
            i = r.learners.index(loser)
            for w in winners[:3]:
                j = r.learners.index(w)
                on = [r.criteria[c] for c in range(len(r.criteria)) if r.better[c, j, i]]
                parts.append(f"{loser} by {w} (better on {_names(on)}, not worse on any)")
            if len(winners) > 3:
                parts[-1] += f" and {len(winners) - 3} more"
        more = (f"; {len(dom) - DOMINATED_SHOWN} more learners in the JSON"
                if len(dom) > DOMINATED_SHOWN else "")
        out.append(f"Statistically dominated at alpha = {r.settings['alpha']:g}"
                   f" ({len(dom)} of {len(r.learners)}): " + "; ".join(parts) + more + ".")
    else:
        out.append(f"No learner is statistically dominated at alpha = {r.settings['alpha']:g}"
                   " (significantly better on one criterion and worse on none).")
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
           f" {_tied(best.learners[1:])}."]
    head = f"Among the learners tied with the best on {best.scope}, "
    for c in range(1, len(r.criteria)):
        wins = [(j, i) for j in tied for i in tied if r.better[c, j, i]]
        if wins:
            out.append(head + "; ".join(f"{r.learners[j]} is significantly better on"
                                        f" {r.criteria[c]} than {r.learners[i]}"
                                        for j, i in wins[:6])
                       + (f" ({len(wins) - 6} more such pairs)" if len(wins) > 6 else "") + ".")
        else:
            out.append(head + f"none is significantly better on {r.criteria[c]} than another.")
    return out


def document(r) -> Document:
    """The report as format-neutral blocks: the verdict, the front, the GSD, the figures, the
    conventions and the notes."""
    doc = Document("rankwise: better and cheaper")
    s = r.settings
    doc.add(Paragraph(f"{len(r.learners)} learners, {len(r.datasets)} data sets, criteria "
                      + ", ".join(f"{c} ({_dir(r, i)}"
                                  + ("" if r.cardinal[i] else ", ordinal for the GSD") + ")"
                                  for i, c in enumerate(r.criteria))
                      + f"; each learner's {_summary_words(r)} over the data sets.", "lead"))
    doc.add(Heading("Verdict"), Bullets(sentences(r), "verdict"))
    head = ["learner"] + [f"{c} [{s['confidence']:.0%}]" for c in r.criteria] + [
        "P(front)", "front", "outdone by", "significantly by"]
    rows = []
    dom = r.dominated_learners
    off = r.outdone_learners
    for i in _order(r)[:LEARNERS_SHOWN]:
        rows.append([r.learners[i]]
                    + [f"{_g(r.points[i, c])} [{_g(r.low[i, c])}, {_g(r.high[i, c])}]"
                       for c in range(len(r.criteria))]
                    + [f"{r.probability[i]:.2f}", "yes" if r.front[i] else "",
                       ", ".join(off.get(r.learners[i], [])),
                       ", ".join(dom.get(r.learners[i], []))])
    doc.add(Heading("Front"), Table(head, rows, "<" + ">" * len(r.criteria) + "><<<",
                                    key="front"))
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
    if r.gsd is not None:
        return None
    left_out = [n for n in r.notes if n.startswith("GSD left out")]
    return left_out[0].replace("GSD left out: ", "the GSD was left out (") + ")" \
        if left_out else "the GSD was not asked for"


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
        sc = _front_panel(ax, r, x, y, step=c == 2)
        fig.colorbar(sc, ax=ax, label="P(on the front)")
        if c == 2:
            ax.set_title("Front (outlined) and membership probability")
        else:
            ax.set_title(f"Front over all {c} criteria (outlined) and membership probability",
                         fontsize=9)
        _said(fig, r.figure_left_out())
        fig.tight_layout(rect=(0, 0.25 / fig.get_figheight() if r.figure_left_out() else 0,
                               1, 1))
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
        sc = _front_panel(ax, r, i, j, step=False)
    for ax in axes.flat[len(pairs):]:
        ax.set_visible(False)
    fig.suptitle(f"Front over all {c} criteria (outlined) and membership probability,"
                 + (" each pair of criteria" if not first else
                    f" {r.criteria[0]} against each of the others" if len(pairs) == c - 1
                    else f" {r.criteria[0]} against {len(pairs)} of the {c - 1} others"))
    fig.colorbar(sc, ax=axes, label="P(on the front)")
    _said(fig, r.figure_left_out())
    return fig


def _said(fig, sentence: str | None) -> None:
    """What the figure leaves out, under it in the figure itself."""
    if sentence:
        fig.text(0.01, 0.005, sentence, fontsize=7, color="0.25", va="bottom", ha="left")


def _front_panel(ax, r, x: int, y: int, step: bool):
    """One plane of the front figure; returns the scatter (for the colour bar). An axis whose
    values span two orders of magnitude or more is on a log scale (its label says so)."""
    from ..analysis.figures import axis_scale

    px, py = r.points[:, x], r.points[:, y]
    ax.errorbar(px, py, xerr=[px - r.low[:, x], r.high[:, x] - px],
                yerr=[py - r.low[:, y], r.high[:, y] - py], fmt="none", ecolor="0.7",
                elinewidth=0.8, zorder=1)
    sc = ax.scatter(px, py, c=r.probability, cmap="viridis", vmin=0, vmax=1,
                    edgecolors=np.where(r.front, "k", "none"), s=50, zorder=2)
    fr = np.flatnonzero(r.front)
    if step:
        order = fr[np.argsort(px[fr])]
        ax.step(px[order], py[order], where="post", color="k", lw=0.8, zorder=0)
    for c, scale_of, label_of in ((x, ax.set_xscale, ax.set_xlabel),
                                  (y, ax.set_yscale, ax.set_ylabel)):
        log = axis_scale(np.r_[r.points[:, c], r.low[:, c], r.high[:, c]]) == "log"
        if log:
            scale_of("log")
        label_of(f"{r.criteria[c]} ({_dir(r, c)}{'; log scale' if log else ''})")
    named = r.figure_named()
    _place_names(ax, px[named], py[named], [r.learners[i] for i in named], (px, py))
    return sc


def _place_names(ax, xs, ys, names, others=None, fontsize: float = 7) -> None:
    """Each point's name beside it, over no other name and no point (``others``: every point
    drawn, as (x, y) arrays): greedily, lowest point first, each name at the free place
    nearest its point, right or left of it, up, down or further out; a name moved off its
    point is joined to it by a thin line. Done in the axes' own coordinates (fractions), so
    that the layout of the figure after it does not undo it."""
    ax.autoscale_view()
    fig = ax.figure
    box = ax.get_position()
    w_pt, h_pt = box.width * fig.get_figwidth() * 72, box.height * fig.get_figheight() * 72
    to_axes = (ax.transScale + ax.transLimits).transform
    at = to_axes(np.column_stack([xs, ys]))
    pts = at if others is None else to_axes(np.column_stack(others))
    height = 1.3 * fontsize / h_pt
    rx, ry = 4.0 / w_pt, 4.0 / h_pt   # a marker's half size
    placed = np.empty((0, 4))         # left, bottom, right, top
    # offsets (points): out from the point, then up or down a line at a time
    steps = sorted(((dx, dy * 1.3 * fontsize) for dx in (5, 17, 29, 41)
                    for dy in range(-12, 13)), key=lambda o: (abs(o[1]) + o[0] / 2, -o[1]))

    def free(l, b, r, t) -> bool:
        if l < 0 or r > 1 or b < 0 or t > 1:
            return False
        hit = ((placed[:, 0] < r) & (l < placed[:, 2]) & (placed[:, 1] < t)
               & (b < placed[:, 3])).any()
        return not hit and not ((pts[:, 0] > l - rx) & (pts[:, 0] < r + rx)
                                & (pts[:, 1] > b - ry) & (pts[:, 1] < t + ry)).any()

    for j in np.argsort(at[:, 1], kind="stable"):
        u, v = at[j]
        width = 1.05 * 0.6 * fontsize * len(names[j]) / w_pt
        spot = None
        for dx, dy in steps:
            for left in (u + dx / w_pt, u - dx / w_pt - width):
                b = v + dy / h_pt - height / 2
                if free(left, b, left + width, b + height):
                    spot = (left, b)
                    break
            if spot:
                break
        moved = spot is None or spot != (u + 5 / w_pt, v - height / 2)
        left, b = spot or (u + 5 / w_pt, v - height / 2)
        placed = np.vstack([placed, [left, b, left + width, b + height]])
        ax.annotate(names[j], (xs[j], ys[j]), xytext=(left, b + height / 2),
                    textcoords="axes fraction", fontsize=fontsize, va="center",
                    annotation_clip=False, zorder=3,
                    arrowprops=dict(arrowstyle="-", lw=0.5, color="0.45", shrinkA=0,
                                    shrinkB=3) if moved else None)


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
