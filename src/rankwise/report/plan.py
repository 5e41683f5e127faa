"""The plan (``rankwise plan``) in every format from one
:class:`~rankwise.report.document.Document`, and its figure (precision against cost); the
report folder is the generic writer's, with this module's file names (:data:`FILES`)."""

from __future__ import annotations

import math

from .blocks import Bullets, Document, Drawn, Figure, Heading, Paragraph, Table
from .document import source_name

FIGURES = ("plan_cost",)
FILES = {"text": "plan.txt", "json": "plan.json", "markdown": "plan.md", "latex": "plan.tex",
         "html": "plan.html"}
#: The next-data-set table shows this many learners (best mean rank first); the JSON has all.
SHOWN = 30


def _g(value, digits: int = 4) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "-" if value is None or math.isnan(value) else "inf"
    return f"{value:.{digits}g}"


def _pct(value) -> str:
    return "-" if value is None or not math.isfinite(value) else f"{100 * value:.1f}%"


def _word(p) -> str:
    """The top facet in prose: data set, task or problem."""
    return "data set" if p.top == "dataset" else p.top


def document(p) -> Document:
    """The plan as blocks: the pilot and its design, the components, what the design gives
    now, what buys certainty next, precision against cost, the suite's numbers, the rank on
    the next data set, the assumptions and notes."""
    d = p.design
    doc = Document(f"rankwise plan: {source_name(p.source)}")
    sizes = ", ".join(f"{n} {d.sizes[n]}" for n in d.names)
    doc.add(Paragraph(
        f"Pilot: {len(p.learners)} learners on {len(p.levels)} {_word(p)}s ({p.what});"
        f" {'higher' if p.higher_is_better else 'lower'} is better"
        + (f" (criterion: {p.criterion})" if p.criterion else "") + f". Design: {d.notation}"
        f" ({sizes}); components by {'REML' if p.method == 'reml' else 'the ANOVA'}.",
        role="lead"))
    doc.add(Paragraph(_verdict(p), role="verdict"))
    doc.add(Heading("Variance components"), _components_table(p))
    doc.add(Heading("What the pilot's design gives"), _now_table(p), Paragraph(_now_text(p)))
    doc.add(Heading("What buys certainty next"), *_next_blocks(p))
    doc.add(Heading("Precision against cost"), _cost_table(p),
            Figure("plan_cost", Drawn("plan_cost", "Precision against cost",
                                      _cost_caption(p))))
    doc.add(Heading("The suite's numbers"), *_suite_blocks(p))
    if p.next_ranks is not None:
        doc.add(Heading(f"The rank on the next {_word(p)}"), *_next_rank_blocks(p))
    doc.add(Heading("Assumptions"), Bullets(_assumptions(p), role="notes"))
    if p.notes:
        doc.add(Heading("Notes"), Bullets(list(p.notes), role="notes"))
    return doc


def _verdict(p) -> str:
    """The plan in two sentences: how sure the pilot's design is, and what to add next."""
    c = p.current
    if not sum(p.components.components.values()) > 0:
        return ("Every score of the pilot is the same: nothing varies, so there is nothing"
                " to plan.")
    text = (f"With {_sizes_text(c.sizes)} the learners' order generalises with"
            f" Eρ² = {_g(c.generalizability, 3)} (Φ = {_g(c.dependability, 3)}); two"
            f" learners' difference has a standard error of {_g(c.difference_se, 3)}, and the"
            f" smallest difference it resolves (alpha = {p.options['alpha']}, power"
            f" {p.options['power']}) is {_g(c.resolution, 3)}.")
    if p.buys:
        best = p.buys[0]
        text += (f" Per unit of cost, one more {_noun(best['facet'])} buys the most: it cuts the"
                 f" variance of a difference by {_pct(best['cut'])}.")
    if p.cheapest is not None:
        text += (f" The cheapest design with Eρ² ≥ {p.options['stability']} has"
                 f" {_sizes_text(p.cheapest.sizes)} (cost {_g(p.cheapest.cost, 5)}).")
    return text


def _noun(facet: str) -> str:
    return "data set" if facet == "dataset" else facet


def _sizes_text(sizes: dict) -> str:
    return ", ".join(f"{v} {_noun(k)}{'s' if v != 1 else ''}" for k, v in sizes.items())


def _components_table(p) -> Table:
    g, other = p.components, p.other
    head = ["effect", "variance", "share", f"{g.confidence:.0%} interval"]
    if other is not None:
        head.append("by " + ("REML" if other.method == "reml" else "ANOVA"))
    rows = []
    for name in g.design.effects():
        lo, hi = g.intervals.get(name, (math.nan, math.nan))
        row = [name, _g(g.components[name]), _pct(g.shares[name]),
               f"[{_g(lo)}, {_g(hi)}]"]
        if other is not None:
            row.append(_g(other.components.get(name)))
        rows.append(row)
    caption = ("Variance components (the scores' units squared); intervals: "
               + ("Satterthwaite's" if g.method == "anova" else "Wald, from the REML"
                  " information; [0, -]: estimated at its bound, no interval") + ".")
    return Table(head, rows, "<" + ">" * (len(head) - 1), caption=caption, key="components")


def _now_table(p) -> Table:
    rows = []
    for label, q in ((f"new {_word(p)}s", p.current),
                     *(((f"these {_word(p)}s", p.in_hand),) if p.in_hand is not None else ()),
                     *((("the design asked", p.asked),) if p.asked is not None else ())):
        rows.append([label, _g(q.generalizability, 3), _g(q.dependability, 3),
                     _g(q.difference_se, 3), _g(q.resolution, 3)])
    return Table(["generalising to", "Eρ²", "Φ", "SE of a difference",
                  "resolution floor"], rows, "<>>>>", key="now",
                 caption=f"The pilot's design (and the one asked): to new {_word(p)}s, or"
                         " with these held fixed (the comparison on them only"
                         + ("" if p.in_hand is not None else f"; one score per {_word(p)}"
                            " leaves no error to measure within them") + ").")


def _now_text(p) -> str:
    s = p.separation
    return (f"Expected learners not separated from the best (two-sided z-tests at alpha ="
            f" {p.options['alpha']}, Bonferroni over its {len(p.learners) - 1} comparisons):"
            f" {_g(s.tied_with_best, 3)} of {len(p.learners)}, the best included; expected"
            f" rank-set width {_g(float(s.widths.mean()), 3)} on average.")


def _next_blocks(p) -> list:
    blocks = []
    if p.buys:
        rows = [[b["facet"], _g(b["cost"]), _pct(b["cut"]), _g(b["difference_se"], 3)]
                for b in p.buys]
        blocks.append(Table(["one more", "costs", "cuts the variance by",
                             "SE of a difference then"], rows, "<>>>", key="buys",
                            caption="One more level of each facet, best buy first."))
    rows = [[f, _count(v["generalizability"]), _count(v["dependability"])]
            for f, v in p.needed.items()]
    stability = p.options["stability"]
    blocks.append(Table(["facet", f"for Eρ² ≥ {stability}", f"for Φ ≥ {stability}"],
                        rows, "<>>", key="needed",
                        caption="The fewest levels of each facet, the others as in the pilot"
                                " (none: no number of it is enough)."))
    if p.cheapest is not None:
        c, sc = p.cheapest, p.separation_cheapest
        blocks.append(Paragraph(
            f"The cheapest design reaching Eρ² ≥ {stability}: {_sizes_text(c.sizes)}"
            f" (cost {_g(c.cost, 5)}; the pilot's {_g(p.current.cost, 5)}): Eρ² ="
            f" {_g(c.generalizability, 3)}, SE of a difference {_g(c.difference_se, 3)},"
            f" about {_g(sc.tied_with_best, 3)} learners left tied with the best."))
    else:
        blocks.append(Paragraph(f"No design on the grid reaches Eρ² ≥ {stability}."))
    return blocks


def _count(value) -> str:
    return "none" if value is None else f"{value:,}"


def _cost_table(p) -> Table:
    facets = list(p.current.sizes)
    rows = [[f, f"x{x}", *(str(q.sizes[g]) for g in facets), _g(q.cost, 5),
             _g(q.difference_se, 3), _g(q.generalizability, 3)] for f, x, q in p.costed]
    return Table(["more", "times", *(f"{_noun(g)}s" for g in facets), "cost", "SE of a difference",
                  "Eρ²"], rows, "<>" + ">" * (len(facets) + 3), key="cost",
                 caption="Each facet multiplied, the others as in the pilot.")


def _cost_caption(p) -> str:
    return ("The standard error of a difference between two learners against the design's"
            " cost, each facet multiplied by 1, 2, 4 and 8 (the others as in the pilot);"
            " cost: " + ", ".join(f"{_g(v)} per {_noun(k)}" for k, v in
                                  p.options["costs"].items() if v) + ".")


def _suite_blocks(p) -> list:
    blocks = []
    if p.signal is not None:
        blocks.append(Paragraph(p.signal.sentence()))
    if p.accuracy is not None:
        blocks.append(_accuracy_table(p))
    if p.budget_accuracy is not None:
        b = p.budget_accuracy
        rows = [[_g(float(x), 5), _g(float(a), 3)] for x, a in zip(b.budgets, b.accuracy)]
        blocks.append(Table(["budget", "decision accuracy"], rows, ">>", key="budgets",
                            caption="Each budget's order of the learners (their mean over"
                                    " problems and runs) against the last budget's: the share"
                                    " of pairs it orders the same."))
        blocks.append(Paragraph(b.sentence()))
    held = ("" if p.in_hand is None else
            f", {_g(p.in_hand.resolution, 3)} (these {_word(p)}s)")
    blocks.append(Paragraph(
        f"Resolution floor of the pilot's design: {_g(p.current.resolution, 3)} (new"
        f" {_word(p)}s){held}; expected tied with #1: {_g(p.separation.tied_with_best, 3)}."))
    return blocks


def _accuracy_table(p) -> Table:
    a = p.accuracy
    rows = [[str(int(size)), _g(float(acc), 3), f"[{_g(float(lo), 3)}, {_g(float(hi), 3)}]",
             _g(float(best), 3)]
            for size, acc, lo, hi, best in zip(a.sizes, a.accuracy, a.lower, a.upper,
                                                a.same_best)]
    return Table([f"{_word(p)}s", "decision accuracy", "95% of draws", "same #1"], rows, ">>>>",
                 key="accuracy", caption=f"Smaller suites drawn from these {_word(p)}s"
                 f" ({a.draws} draws each): the share of learner pairs they order as the"
                 f" whole suite does, and the share of their #1s that are its #1.")


def _next_rank_blocks(p) -> list:
    r = p.next_ranks
    order = sorted(range(len(p.learners)), key=lambda i: (r.median_rank[i], i))
    rows = [[p.learners[i], _g(float(r.median_rank[i]), 3),
             f"[{_g(float(r.lower[i]), 3)}, {_g(float(r.upper[i]), 3)}]"]
            for i in order[:SHOWN]]
    blocks = [Paragraph(r.question)]
    if p.coverage is not None:
        blocks.append(Paragraph(
            f"Checked on these {_word(p)}s: leaving each out in turn, its ranks fell inside the"
            f" intervals of the others {_pct(p.coverage)} of the time (at least"
            f" {_pct(1 - r.alpha)} is promised)."))
    caption = (f"{r.method.capitalize()} intervals at {1 - r.alpha:.0%}"
               + (f"; the best {SHOWN} of {len(order)} by median rank (every learner in the"
                  " JSON)" if len(order) > SHOWN else "") + ".")
    blocks.append(Table(["learner", "median rank", f"next {_word(p)}: {1 - r.alpha:.0%}"],
                        rows, "<>>", key="next_ranks", caption=caption))
    return blocks


def _assumptions(p) -> list:
    return [
        f"Every facet is random: the {_word(p)}s, and what is nested in them, are samples"
        " of populations a new experiment draws from again (the rows 'these"
        f" {_word(p)}s' hold them fixed).",
        "Scores are additive in the effects (no scale change across data sets); the"
        " components are the same for every learner.",
        "The next-data-set intervals assume the new data set is exchangeable with these"
        " (drawn from the same population).",
        "The resolution floor uses the two-sided normal quantile z(1 - alpha/2) plus"
        " z(power).",
        ("The D-studies take a negative ANOVA estimate as it is (each error variance an"
         " unbiased combination of mean squares; the folds of a repeat partition its data set,"
         " which makes some components truly negative); the table shows it at 0."
         if p.options["negative"] == "keep" and p.method == "anova" else
         "The D-studies take the components as the table shows them (negative ANOVA"
         " estimates at 0)." if p.method == "anova" else
         "REML's components are never below 0; the D-studies take them as they are."),
    ]


def figures(p, width: float | None = None) -> dict:
    """``{"plan_cost": Figure}``: the SE of a difference against cost, a line per facet."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure as MplFigure

    from .diagrams import fit_width, warn_small_type

    fig = MplFigure(figsize=(6.4, 4.0))
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.12, 0.13, 0.6, 0.8))
    # two facets of equal cost and effect draw the same line: styles tell them apart
    styles = (("-", "o"), ("--", "s"), (":", "^"), ("-.", "v"))
    for i, facet in enumerate(dict.fromkeys(f for f, _, _ in p.costed)):
        points = [(q.cost, q.difference_se) for f, _, q in p.costed if f == facet]
        line, mark = styles[i % len(styles)]
        ax.plot(*zip(*points), ls=line, marker=mark, ms=4, mfc="none",
                label=f"more {_noun(facet)}s")
    ax.plot([p.current.cost], [p.current.difference_se], "k*", ms=9, label="the pilot")
    if p.cheapest is not None:
        ax.plot([p.cheapest.cost], [p.cheapest.difference_se], "kD", ms=5,
                label=f"cheapest, Eρ² ≥ {p.options['stability']}")
    ax.set_xscale("log")
    # ticks at the designs' costs, as plain numbers (log minor labels overprint each other)
    from matplotlib.ticker import FixedLocator, NullLocator
    costs = sorted({q.cost for _, _, q in p.costed if q.cost > 0}
                   | ({p.cheapest.cost} if p.cheapest is not None and p.cheapest.cost > 0
                      else set()))
    ax.xaxis.set_major_locator(FixedLocator(_spaced(costs)))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(lambda v, _: _g(v, 4))
    ax.set_xlabel("cost")
    ax.set_ylabel("SE of a difference")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False)
    drawn = {"plan_cost": fit_width(fig, width)}
    warn_small_type(drawn, width)
    return drawn


def _spaced(values: list, ratio: float = 1.6) -> list:
    """Of sorted positive ``values``, those at least ``ratio`` apart on a log axis (labels
    that do not collide)."""
    kept = []
    for v in values:
        if not kept or v >= kept[-1] * ratio:
            kept.append(v)
    return kept
