"""A comparison along a budget (:class:`rankwise.analysis.curves.CurveComparison`) in every
format: one :class:`~rankwise.report.document.Document` (text, Markdown, LaTeX, HTML), the JSON
(the result's ``to_dict``) and the figures, every number and decision read from the analysis."""

from __future__ import annotations

import numpy as np

from .._text import counted
from ..analysis.curves import aocc_over_running_best
from .format import p_words
from .blocks import Bullets, Document, Drawn, Figure, Heading, Paragraph, Table
from .document import source_name

#: The text and Markdown reports list at most this many learners per table (best first by mean
#: rank at the last checkpoint); the JSON holds all.
LEARNERS_SHOWN = 12
#: ... and at most this many budgets of the rank-over-budget table.
BUDGETS_SHOWN = 8


_KIND_WORDS = {"running-best": "as each run's running best",
               "raw": "as logged (not the running best)"}


def _g(x) -> str:
    return "-" if x is None or not np.isfinite(x) else f"{x:.4g}"


def _order(r) -> np.ndarray:
    """Learners best first: mean rank at the last budget of the display."""
    return np.argsort(r.mean_ranks[-1], kind="stable")


def _shown_budgets(r, most: int = BUDGETS_SHOWN) -> np.ndarray:
    """The budgets a table shows: the checkpoints, then others evenly spread, at most
    ``most`` (the checkpoints first to go beyond it, the last one never)."""
    idx = np.arange(r.display.size)
    if idx.size <= most:
        return idx
    cps = [int(np.flatnonzero(r.display == b)[0]) for b in r.settings["checkpoints"]
           if (r.display == b).any()]
    keep = sorted(set(cps))
    if len(keep) > most:
        keep = keep[-most:]
    spread = np.linspace(0, idx.size - 1, most).round().astype(int)
    for j in spread:
        if len(keep) >= most:
            break
        if j not in keep:
            keep.append(int(j))
    return np.array(sorted(keep))


def _budget_words(name: str) -> str:
    """``budget in fraction``; a budget named budget is just the budget."""
    return "budget" if name == "budget" else f"budget in {name}"


def facts(r) -> dict:
    """The report's decisions in words and numbers, one place for every format."""
    c = r.curves
    last = r.checkpoints[-1]
    first = r.checkpoints[0]
    best_end = last.decision.best
    best_start = first.decision.best
    return {
        "header": (f"{len(c.learners)} learners x {len(c.problems)} problems, up to {c.runs} runs"
                   f" each; {c.rows:,} logged points read as {c.reader} from {c.source};"
                   f" values {'higher' if c.maximize else 'lower'} is better, taken"
                   f" {_KIND_WORDS[c.value_kind]};"
                   f" {_budget_words(c.budget_name)}"
                   f" ({c.grid.size} distinct budgets{'' if c.exact else ', on a grid'})."),
        "best_end": best_end, "best_start": best_start,
        "band": (f"mean ranks within problems (1 = best) of the mean over runs, with a"
                 f" {100 * r.confidence:g}% band simultaneous over all {len(c.learners)} learners"
                 f" and {r.display.size} budgets (bootstrap of the problems, {r.draws} draws,"
                 f" seed {r.seed}, max-t; c = {_g(r.band_c)})"
                 if np.isfinite(r.band_c) else
                 "mean ranks within problems (1 = best) of the mean over runs (no band: too"
                 " few problems to resample)"),
    }


def decision_words(d) -> str:
    """A comparison's :class:`~rankwise.analysis.curves.Decision` in words: its best, the test
    that decided with its p-value, who is not significantly worse than the best, and how many
    pairs differ (by the CD diagram, or with two learners by their test)."""
    from ..names import test_title

    p = f"{test_title(d.test)} p = {p_words(d.pvalue)}" if d.test is not None else "no test"
    n = len(d.pairs)
    by = "in the CD diagram" if d.pairs_by == "cd_diagram" else (
        f"by {test_title(d.pairs_by)}" if d.pairs_by else "")
    return (f"best {d.best}; {p}; not significantly worse than the best:"
            f" {', '.join(d.winners) or d.best}; {counted(n, 'pair differs', 'pairs differ')}"
            + (f" {by}" if by else ""))


def _verdict_line(cp) -> str:
    return f"{cp.budget:g}: {decision_words(cp.decision)}"


def _rows_note(r, by: str = "at the last budget") -> str:
    """Which learners a table shows when there are too many: the best by the table's own
    order (``by``)."""
    n = len(r.learners)
    return (f"The {LEARNERS_SHOWN} best {by} of {n}; the JSON holds all."
            if n > LEARNERS_SHOWN else "")


def _band_section(r) -> list:
    c, k = r.curves, len(r.learners)
    f = facts(r)
    cols = _shown_budgets(r)
    rows = [[c.learners[i]] + [
        f"{r.mean_ranks[j, i]:.2f}" + (f" [{max(r.band_low[j, i], 1):.2f},"
                                       f" {min(r.band_high[j, i], k):.2f}]"
                                       if np.isfinite(r.band_low[j, i]) else "")
        for j in cols] for i in _order(r)[:LEARNERS_SHOWN]]
    under = "; beside each mean rank, its band" if np.isfinite(r.band_c) else ""
    return [Heading("Rank over budget"),
            Paragraph(f["band"][0].upper() + f["band"][1:] + under + "."),
            Table(["learner"] + [_g(r.display[j]) for j in cols], rows, "<" + ">" * len(cols),
                  caption=_rows_note(r), key="rank_band")]


def _checkpoint_section(r) -> list:
    out = [Heading("Checkpoints"),
           Paragraph(f"Everything compare does, on the mean over runs at each checkpoint"
                     f" (alpha = {r.alpha}):"),
           Bullets([_verdict_line(cp) for cp in r.checkpoints])]
    if not r.changes:
        return out + [Paragraph("No pairwise decision changes between the checkpoints.")]
    more = len(r.changes) - LEARNERS_SHOWN
    return out + [
        Paragraph("Pairs whose decision changes along the budget (significant"
                  + (" in the CD diagram" if r.checkpoints[0].decision.pairs_by == "cd_diagram"
                     else "")
                  + " or not, at each checkpoint):"),
        Bullets([f"{a} vs {b}: {' '.join('yes' if s else 'no' for s in states)} (changes at"
                 f" {', '.join(map(_g, flips))})"
                 for a, b, states, flips in r.changes[:LEARNERS_SHOWN]]
                + ([f"{more} more pairs in the JSON"] if more > 0 else []))]


def _trend_section(r) -> list:
    out = [Heading("Does more budget help?")]
    if not r.trend:
        return out + [Paragraph("Page's trend test is not run: it needs three or more"
                                " checkpoints and two or more problems.")]
    helped = r.helped
    out.append(Paragraph(
        f"Page's trend test per learner over the checkpoints (one-sided: performance increases"
        f" with the budget): significant at alpha = {r.alpha} for {len(helped)} of"
        f" {len(r.trend)} ({', '.join(helped) or 'none'})."))
    shown = [r.learners[i] for i in _order(r)[:LEARNERS_SHOWN] if r.learners[i] in r.trend]
    rows = [[n, f"{r.trend[n].statistic:.4g}", p_words(r.trend[n].pvalue),
             "yes" if n in helped else "no"] for n in shown]
    return out + [Table(["learner", "Page's L", "p", "helps"], rows, "<>><",
                        caption=_rows_note(r), key="trend")]


def settle_sentence(r) -> str:
    """Where the checkpoints' decisions settle: read from the decisions they print."""
    name = r.curves.budget_name
    if r.settle is None:
        return "Not decided: comparing at the checkpoints needs two or more problems."
    if len(r.checkpoints) == 1:
        return "One checkpoint: nothing to settle."
    same = ("the same learners are not significantly worse than the best and the same pairs"
            " differ")
    if r.settle == r.checkpoints[0].budget:
        return f"Every checkpoint decides as the last: {same}."
    return f"From {name} {_g(r.settle)} on, every checkpoint decides as the last: {same}."


def _rank_settle_sentence(r) -> str:
    """The ranks alone: the signed-rank test of each learner's rank against its last."""
    if r.rank_settle is None:
        return ""
    name = r.curves.budget_name
    test = (f"Wilcoxon signed-rank per learner and checkpoint, Holm over all, alpha ="
            f" {r.alpha}")
    text = (f"Each learner's rank against its rank at the last checkpoint ({test}): no"
            f" significant difference from {name} {_g(r.rank_settle)} on")
    if r.settle is not None and r.rank_settle < r.settle:
        text += (f", though the decisions settle only from {name} {_g(r.settle)}: a rank"
                 f" can move too little to be significant alone and still change a decision")
    return text + "."


def _settle_section(r) -> list:
    out = [Heading("Where the decisions settle"), Paragraph(settle_sentence(r))]
    ranks = _rank_settle_sentence(r)
    return out + ([Paragraph(ranks)] if ranks else [])


def _aocc_section(r) -> list:
    o = r.aocc_options
    bounds = ("each problem's worst and best value" if o.bounds == "problem"
              else f"[{o.bounds[0]:g}, {o.bounds[1]:g}]")
    curve = ("over each run's running best, as IOHinspector"
             if aocc_over_running_best(r.curves, o) else "over the values as logged")
    means = r.aocc_means
    rows = [[r.learners[i], f"{means[i]:.4f}"]
            for i in np.argsort(-means, kind="stable")[:LEARNERS_SHOWN]]
    return [Heading("AOCC"),
            Paragraph(f"Area over the convergence curve (1 = best from the start; {curve};"
                      f" values normalised to {bounds} on a {o.value_scale} scale, budget axis"
                      f" {o.budget_scale}; mean over runs, then over problems), through"
                      f" compare: {decision_words(r.aocc_decision)}."
                      + "".join(f" Note: {w}." for w in r.aocc_scale_warnings())),
            Table(["learner", "AOCC"], rows, "<>", caption=_rows_note(r, "by AOCC"),
                  key="aocc")]


def _targets_section(r) -> list:
    reached = r.reached
    rows = [[r.learners[i], f"{reached[i]:.3f}", f"{r.ecdf[i, -1]:.3f}"]
            for i in _order(r)[:LEARNERS_SHOWN]]
    return [Heading("Fixed targets and ECDF"),
            Paragraph(f"Fixed targets ({r.targets.shape[-1]} per problem): the share of"
                      f" (problem, target) pairs some run reached, and the ECDF of running"
                      f" times at the last budget."),
            Table(["learner", "reached", "ECDF"], rows, "<>>", caption=_rows_note(r),
                  key="fixed_target")]


def _profiles_section(r) -> list:
    rho = r.performance[1]
    rows = []
    for i in _order(r)[:LEARNERS_SHOWN]:
        eff, rob = (rho[i, 0], rho[i, -1]) if rho.shape[1] else (float("nan"),) * 2
        rows.append([r.learners[i], f"{eff:.3f}", f"{rob:.3f}"])
    return [Heading("Profiles"),
            Paragraph(f"Cost: the ERT to f <= f_L + {r.tolerance:g}(f_0 - f_L). The"
                      f" performance profile at ratio 1 (efficiency) and at its end"
                      f" (robustness); the data profile is in the JSON."),
            Table(["learner", "efficiency", "robustness"], rows, "<>>",
                  caption=_rows_note(r), key="profiles")]


def _dewancker_section(r) -> list:
    out = [Heading("Optuna's ranking (Dewancker)")]
    d = r.dewancker
    if d is None:
        return out + [Paragraph("Not computed: too many learners (see the notes).")]
    rows = [[r.learners[i], str(int(d.borda_total[i])), str(int(d.firsts[i]))]
            for i in np.argsort(-d.borda_total, kind="stable")[:LEARNERS_SHOWN]]
    return out + [
        Paragraph(f"Dewancker et al.: one-sided Mann-Whitney at alpha {d.alpha:g} on each"
                  f" run's best value, then its AUC; Borda points and firsts over"
                  f" {len(r.problems)} problems."),
        Table(["learner", "Borda", "firsts"], rows, "<>>",
              caption=_rows_note(r, "by Borda points"),
              key="dewancker")]


def _draws_cd(r) -> bool:
    """Whether some checkpoint's comparison plans a CD diagram (three or more learners)."""
    return any((plan := cp.comparison.figures.get("cd_diagram")) is not None and plan.drawn
               for cp in r.checkpoints)


def _has_band(r) -> bool:
    """Whether the rank band was computed (not below the problems the bootstrap needs)."""
    return bool(np.isfinite(r.band_low).any())


def _band_words(r) -> str:
    return (f"with its {100 * r.confidence:g}% band" if _has_band(r) else
            "(no band: too few problems, see the notes)")


def _figure_section(r) -> list:
    n, k = len(r.figure_order()), len(r.learners)
    cd = _draws_cd(r)
    some = any(cp.comparison.figures.get("cd_diagram") is not None for cp in r.checkpoints)
    missing = r.cd_left_out()
    return [Heading("Figures"),
            Figure("curves", Drawn(
                "curves", "Curves over the budget",
                f"Rank over budget {_band_words(r)}, convergence (median"
                f" of the normalised {_drawn_words(r)} over problems and runs, with"
                f" quartiles: the curves the AOCC is the area over), the ECDF"
                f" of running times and the performance profile, for "
                + (f"every one of the {k} learners." if n == k else
                   f"the best {n} of {k} learners (see the notes)."))),
            Figure("checkpoints", Drawn(
                "checkpoints", "CD diagram at each checkpoint",
                "One critical-difference diagram per checkpoint, as compare draws it"
                + ("; a checkpoint without one says why (see the notes)." if missing else "."),
                drawn=cd, reason=None if cd else
                "no checkpoint's omnibus test rejects" if some else
                "no checkpoint has three or more learners"))]


def document(r) -> Document:
    """Every section of the report as format-neutral blocks (text, Markdown, LaTeX and HTML
    lay out the same ones)."""
    doc = Document(f"rankwise curves: {source_name(r.curves.source)}")
    doc.add(Paragraph(facts(r)["header"], "lead"))
    for section in (_band_section, _checkpoint_section, _trend_section, _settle_section,
                    _aocc_section, _targets_section, _profiles_section, _dewancker_section,
                    _figure_section):
        doc.add(*section(r))
    if r.notes:
        doc.add(Heading("Notes"), Bullets(list(r.notes), "notes"))
    return doc


def figures(r, width: float | None = None) -> dict:
    """``{name: Figure}``: the four panels, and the CD diagrams of the checkpoints when one is
    drawn (``width``: unused; the panels have their own size)."""
    out = {"curves": curves_figure(r)}
    cd = checkpoint_figure(r) if _draws_cd(r) else None
    if cd is not None:
        out["checkpoints"] = cd
    return out


def render_curves(r, fmt: str, width: int | None = 80) -> str:
    """``fmt``: text, markdown, html, latex or json (:meth:`CurveComparison.render`)."""
    from .generic import render

    return render(r, fmt, width=width)


def curves_figure(r):
    """Four panels: the rank band over the budget, the convergence curves (median over
    problems and runs of the normalised running best, or of the value as logged with
    ``--aocc-curve values``: what the AOCC takes, with its quartiles), each learner's ECDF of
    running times over the fixed targets, and the performance profiles. Lines for every
    learner drawn (``r.figure_order()``); the band and the quartiles as bars at the
    checkpoints, side by side, so that they do not cover one another."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    c = r.curves
    fig = Figure(figsize=(10, 7.5), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(2, 2)
    shown = r.figure_order()
    colors = looks(len(c.learners), shown)
    log_x = _budget_axis(r) == "log"
    cps = np.asarray(r.settings["checkpoints"], dtype=float)
    for a in (axes[0, 0], axes[0, 1], axes[1, 0]):   # first: the bars are placed on it
        a.set_xlabel(c.budget_name + (" (log scale)" if log_x else ""))
        if log_x:
            a.set_xscale("log")
            if cps.size <= 8:   # the checkpoints as they are written (0.05, not 5x10^-2)
                a.set_xticks(cps, [f"{v:g}" for v in cps])
                a.minorticks_off()
    _rank_panel(axes[0, 0], r, shown, colors)
    _convergence_panel(axes[0, 1], r, shown, colors)
    ax = axes[1, 0]
    for i in shown:
        ax.step(r.display, r.ecdf[i], where="post", **colors[i])
    ax.set_ylabel("share of (problem, run, target) reached")
    ax.set_title(f"ECDF of running times ({r.targets.shape[-1]} targets per problem)",
                 fontsize=10)
    _profile_panel(axes[1, 1], r, shown, colors)
    fig.legend(*axes[0, 0].get_legend_handles_labels(), loc="outside lower center",
               ncols=min(len(shown), 6), frameon=False)
    cut = r.figure_left_out()
    if cut:
        fig.suptitle(cut, fontsize=8, color="0.25")
    return fig


def _budget_axis(r) -> str:
    """The budget axis of the curves figure: logarithmic where the budgets span two orders of
    magnitude (every figure's rule), or one where the checkpoints crowd its start (0.05 and
    0.1 of 1: their bars ran together), else linear."""
    from ..analysis.figures import axis_scale

    grid = r.curves.grid
    if axis_scale(grid) == "log":
        return "log"
    cps = np.sort(np.asarray(r.settings["checkpoints"], dtype=float))
    crowded = cps.size > 2 and np.diff(cps).min() < (grid.max() - grid.min()) / 12
    return "log" if (grid > 0).all() and grid.max() >= 10 * grid.min() and crowded else "linear"


def looks(k: int, shown) -> list:
    """Each learner's colour and dashes, ``{"color", "ls"}``, by its place among the ``shown``:
    the ten colours of the cycle solid, then dashed (by the learner's index, the 11th of 12
    shown took the first's colour and line, and the legend named two alike)."""
    out = [{"color": "0.5", "ls": ":"} for _ in range(k)]
    for place, i in enumerate(shown):
        out[i] = {"color": f"C{place % 10}", "ls": ("-", "--", ":", "-.")[place // 10 % 4]}
    return out


def _at_checkpoints(r) -> np.ndarray:
    """The positions in ``r.display`` of the checkpoints (where the bars are drawn)."""
    return np.flatnonzero(np.isin(r.display, np.asarray(r.settings["checkpoints"], float)))


def _bars(ax, x, low, high, shown, colors, index):
    """Each learner's interval at the budgets ``x`` as a bar, the learners side by side (a
    few points apart, on a linear or a log axis alike)."""
    from matplotlib.transforms import offset_copy

    n = len(shown)
    # 3 points apart, or closer where two budgets are near (0.05 and 0.1 of a linear axis):
    # a budget's bars take at most 60% of the gap to the next, so no two budgets interleave
    step = 3.0
    if len(x) > 1 and n > 1:
        ax.autoscale_view()
        at = ax.transData.transform(np.column_stack([x, np.zeros(len(x))]))[:, 0]
        gap = float(np.diff(np.sort(at)).min()) * 72.0 / ax.figure.dpi
        step = min(step, 0.6 * gap / (n - 1))
    for place, i in enumerate(shown):
        shift = offset_copy(ax.transData, fig=ax.figure, x=step * (place - (n - 1) / 2),
                            y=0.0, units="points")
        ax.vlines(x, low[index(i)], high[index(i)], color=colors[i]["color"], lw=1.6,
                  alpha=0.7, transform=shift)


def _rank_panel(ax, r, shown, colors):
    k = len(r.learners)
    cp = _at_checkpoints(r)
    for i in shown:
        ax.plot(r.display, r.mean_ranks[:, i], **colors[i], label=r.curves.learners[i],
                lw=1.4)
    if np.isfinite(r.band_low[cp][:, shown]).all():
        low, high = np.maximum(r.band_low[cp], 1), np.minimum(r.band_high[cp], k)
        _bars(ax, r.display[cp], low, high, shown, colors, lambda i: (slice(None), i))
    ax.set_ylim(k + 0.15, 0.85)   # best on top; every band whole
    ax.set_ylabel("mean rank (1 = best)")
    ax.set_title("Rank over budget (" + (f"bars: {100 * r.confidence:g}% simultaneous band"
                                         if _has_band(r) else "no band: too few problems")
                 + ")", fontsize=10)


def _convergence_panel(ax, r, shown, colors):
    """The curves the AOCC is the area over (each run's running best, or the values as
    logged with ``--aocc-curve values``), normalised as the AOCC normalises them."""
    from ..analysis.curves import aocc_curve
    from ..stats.curves import normalise

    c = r.curves
    lb, ub = r.aocc_bounds  # the AOCC's own, so both show one normalisation
    idx = c.index_at(r.display)
    drawn = np.empty(c.values.shape[:-1] + (idx.size,))
    for b in c.blocks():  # the running best along the whole grid, then at the budgets drawn
        drawn[b] = aocc_curve(c.values[b], c, r.aocc_options)[..., idx]
    normed = normalise(drawn, lb, ub, maximize=c.maximize, scale=r.aocc_options.value_scale)
    normed = np.where(np.isnan(c.values[..., idx]), np.nan, normed)
    cp = _at_checkpoints(r)
    q = np.full((len(c.learners), 3, idx.size), np.nan)
    for i in shown:
        flat = normed[i].reshape(-1, idx.size)
        with np.errstate(invalid="ignore"):
            if np.isfinite(flat).any():
                q[i] = np.nanquantile(flat, [0.25, 0.5, 0.75], axis=0)
        ax.plot(r.display, q[i, 1], **colors[i], lw=1.4)
    _bars(ax, r.display[cp], q[:, 0][:, cp], q[:, 2][:, cp], shown, colors,
          lambda i: i)
    ax.set_ylabel(f"normalised {_drawn_words(r)} (1 = best)")
    ax.set_title("Convergence: median over problems and runs (bars: quartiles)",
                 fontsize=10)


def _drawn_words(r) -> str:
    """What the convergence panel draws: the AOCC's curve."""
    return ("running best" if aocc_over_running_best(r.curves, r.aocc_options)
            else "value as logged")


def _profile_panel(ax, r, shown, colors):
    """The performance profiles on τ from 1 to where every learner has reached its share (the
    analysis's end), on a log₂ axis as Dolan & Moré draw them."""
    from ..analysis.figures import profile_tau_end

    taus, rho = r.performance
    end = profile_tau_end(taus)
    if taus.size:
        ends = np.concatenate([taus, [end]])
        for i in shown:
            ax.step(ends, np.concatenate([rho[i], rho[i][-1:]]), where="post",
                    **colors[i])
    from matplotlib.ticker import FuncFormatter, NullFormatter

    ax.set_xscale("log", base=2)
    ax.set_xlim(1, end)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_ylim(-0.03, 1.03)
    # under the axis, not in the panel: a profile's line ran through it mid-panel
    ax.set_xlabel("ratio to the best cost τ (log₂ scale)" + (
        "\nevery finite ratio is 1: on each problem, every learner that converges does so"
        " at the best cost" if taus.size and taus.max() <= 1 else ""))
    ax.set_ylabel("share of problems")
    ax.set_title("Performance profile (ERT to the convergence test)", fontsize=10)


def checkpoint_figure(r, width: float | None = None):
    """One critical-difference diagram per checkpoint, stacked in one figure (each as the
    checkpoint's comparison draws it)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    import io

    from matplotlib.image import imread

    from ..names import test_title
    from .diagrams import draw, figure_bytes

    images = []
    for cp in r.checkpoints:
        plan = cp.comparison.figures.get("cd_diagram")
        sub = draw(plan, cp.comparison.mean_ranks, cp.comparison.table.learners) \
            if plan is not None else None
        # each diagram as it is saved alone (its measured box), then placed; a checkpoint
        # without one keeps its place, with the reason
        images.append((cp.budget, None if sub is None else
                       imread(io.BytesIO(figure_bytes(sub, "png")), format="png"), cp))
    if all(img is None for _, img, _ in images):
        return None
    from .diagrams import PNG_DPI as dpi

    gap = 0.35  # inches for each panel's title
    heights = [(0.0 if img is None else img.shape[0] / dpi) + gap for _, img, _ in images]
    w = max(img.shape[1] for _, img, _ in images if img is not None) / dpi
    h = sum(heights)
    fig = Figure(figsize=(w, h), dpi=dpi)
    FigureCanvasAgg(fig)
    top = h
    for (budget, img, cp), height in zip(images, heights):
        top -= height
        title = f"{r.curves.budget_name} {budget:g}"
        if img is None:
            gate = cp.comparison.verdict.gate
            title += (": no CD diagram, no post-hoc decision to draw"
                      + (f" ({test_title(gate.test)} does not reject, p = {p_words(gate.pvalue)})"
                         if gate is not None and not gate.passed else ""))
        else:
            ax = fig.add_axes((0, top / h, img.shape[1] / dpi / w, (height - gap) / h))
            ax.imshow(img, interpolation="none")
            ax.set_axis_off()
        fig.text(0.01, (top + height - 0.05) / h, title, fontsize=10, va="top",
                 color="black" if img is not None else "0.35")
    return fig
