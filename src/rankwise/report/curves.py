"""A comparison along a budget (:class:`rankwise.analysis.curves.CurveComparison`) in every
format: one :class:`~rankwise.report.document.Document` (text, Markdown, LaTeX, HTML), the JSON
(the result's ``to_dict``) and the figures, every number and decision read from the analysis."""

from __future__ import annotations

import numpy as np

from .format import p_words
from .blocks import Bullets, Document, Drawn, Figure, Heading, Paragraph, Table

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


def facts(r) -> dict:
    """The report's decisions in words and numbers, one place for every format."""
    c = r.curves
    last = r.checkpoints[-1]
    first = r.checkpoints[0]
    best_end = last.comparison.verdict.best
    best_start = first.comparison.verdict.best
    return {
        "header": (f"{len(c.learners)} learners x {len(c.problems)} problems, up to {c.runs} runs"
                   f" each; {c.rows:,} logged points read as {c.reader} from {c.source};"
                   f" values {'higher' if c.maximize else 'lower'} is better, taken"
                   f" {_KIND_WORDS[c.value_kind]};"
                   f" budget in {c.budget_name}"
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


def _verdict_line(cp) -> str:
    from ..names import test_title

    v = cp.comparison.verdict
    gate = v.gate
    if gate is not None:
        p = f"{test_title(gate.test)} p = {p_words(gate.pvalue)}"
    else:
        test = next(iter(cp.comparison.tests.values()), None)
        p = f"{test_title(test.test)} p = {p_words(test.pvalue)}" if test is not None else "no test"
    winners = ", ".join(v.winners) if v.winners else v.best
    return (f"{cp.budget:g}: best {v.best}; {p}; not significantly worse than the best:"
            f" {winners}; {int(np.triu(cp.significant, 1).sum())} pair(s) differ in the CD"
            " diagram")


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
        Paragraph("Pairs whose decision changes along the budget (significant in the CD"
                  " diagram or not, at each checkpoint):"),
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


def _settle_section(r) -> list:
    c = r.curves
    if r.settle is None:
        text = ("Not tested: the signed-rank test of each learner's ranks needs two or more"
                " problems.")
    else:
        text = (f"From {c.budget_name} {_g(r.settle)} on, no learner's rank differs"
                f" significantly from its rank at the last checkpoint (Wilcoxon signed-rank"
                f" per learner and checkpoint, Holm over all, alpha = {r.alpha}).")
    return [Heading("Where the ranks settle"), Paragraph(text)]


def _aocc_section(r) -> list:
    o = r.aocc_options
    bounds = ("each problem's worst and best value" if o.bounds == "problem"
              else f"[{o.bounds[0]:g}, {o.bounds[1]:g}]")
    curve = ("over each run's running best, as IOHinspector" if o.curve == "running-best"
             or r.curves.value_kind == "running-best" else "over the values as logged")
    means = r.aocc_means
    rows = [[r.learners[i], f"{means[i]:.4f}"]
            for i in np.argsort(-means, kind="stable")[:LEARNERS_SHOWN]]
    return [Heading("AOCC"),
            Paragraph(f"Area over the convergence curve (1 = best from the start; {curve};"
                      f" values normalised to {bounds} on a {o.value_scale} scale, budget axis"
                      f" {o.budget_scale}; mean over runs, then over problems), through"
                      f" compare: best {r.aocc_comparison.verdict.best}."),
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


def _figure_section(r) -> list:
    n = min(len(r.learners), LEARNERS_SHOWN)
    cd = _draws_cd(r)
    return [Heading("Figures"),
            Figure("curves", Drawn(
                "curves", "Curves over the budget",
                f"Rank over budget with its {100 * r.confidence:g}% band, convergence (median"
                f" of the normalised value over problems and runs, with quartiles), the ECDF"
                f" of running times and the performance profile, for the best {n} of"
                f" {len(r.learners)} learners.")),
            Figure("checkpoints", Drawn(
                "checkpoints", "CD diagram at each checkpoint",
                "One critical-difference diagram per checkpoint, as compare draws it.",
                drawn=cd, reason=None if cd else "no checkpoint has three or more learners"))]


def document(r) -> Document:
    """Every section of the report as format-neutral blocks (text, Markdown, LaTeX and HTML
    lay out the same ones)."""
    doc = Document(f"rankwise curves: {r.curves.source}")
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
    problems and runs of the normalised value, with its quartiles), each learner's ECDF of
    running times over the fixed targets, and the performance profiles."""
    from matplotlib.figure import Figure

    c = r.curves
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = Figure(figsize=(10, 7.5), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(2, 2)
    log_x = c.grid[0] > 0 and c.grid[-1] / c.grid[0] >= 100
    colors = [f"C{i % 10}" for i in range(len(c.learners))]
    shown = _order(r)[:LEARNERS_SHOWN]
    ax = axes[0, 0]
    for i in shown:
        ax.plot(r.display, r.mean_ranks[:, i], color=colors[i], label=c.learners[i])
        if np.isfinite(r.band_low[:, i]).all():
            ax.fill_between(r.display, np.maximum(r.band_low[:, i], 1),
                            np.minimum(r.band_high[:, i], len(c.learners)),
                            color=colors[i], alpha=0.15, linewidth=0)
    ax.invert_yaxis()
    ax.set_ylabel("mean rank (1 = best)")
    ax.set_title(f"Rank over budget ({100 * r.confidence:g}% simultaneous band)", fontsize=10)
    ax = axes[0, 1]
    from ..stats.curves import normalise

    lb, ub = r.aocc_bounds  # the AOCC's own, so both show one normalisation
    idx = c.index_at(r.display)
    normed = normalise(c.values[..., idx], lb, ub, maximize=c.maximize,
                       scale=r.aocc_options.value_scale)
    normed = np.where(np.isnan(c.values[..., idx]), np.nan, normed)
    for i in shown:
        flat = normed[i].reshape(-1, idx.size)
        with np.errstate(invalid="ignore"):
            q = np.nanquantile(flat, [0.25, 0.5, 0.75], axis=0) if np.isfinite(flat).any() \
                else np.full((3, idx.size), np.nan)
        ax.plot(r.display, q[1], color=colors[i])
        ax.fill_between(r.display, q[0], q[2], color=colors[i], alpha=0.15, linewidth=0)
    ax.set_ylabel("normalised value (1 = best)")
    ax.set_title("Convergence: median over problems and runs, quartiles", fontsize=10)
    ax = axes[1, 0]
    for i in shown:
        ax.step(r.display, r.ecdf[i], where="post", color=colors[i])
    ax.set_ylabel("share of (problem, run, target) reached")
    ax.set_title(f"ECDF of running times ({r.targets.shape[-1]} targets per problem)",
                 fontsize=10)
    for a in (axes[0, 0], axes[0, 1], axes[1, 0]):
        a.set_xlabel(c.budget_name)
        if log_x:
            a.set_xscale("log")
    ax = axes[1, 1]
    taus, rho = r.performance
    if taus.size:
        ends = np.concatenate([taus, [taus[-1] * 1.05]])
        for i in shown:
            ax.step(ends, np.concatenate([rho[i], rho[i][-1:]]), where="post", color=colors[i])
        if taus[-1] / taus[0] >= 100:
            ax.set_xscale("log")
    ax.set_xlabel("ratio to the best cost τ")
    ax.set_ylabel("share of problems")
    ax.set_title("Performance profile (ERT to the convergence test)", fontsize=10)
    fig.legend(*axes[0, 0].get_legend_handles_labels(), loc="outside lower center",
               ncols=min(len(shown), 6), frameon=False)
    return fig


def checkpoint_figure(r, width: float | None = None):
    """One critical-difference diagram per checkpoint, stacked in one figure (each as the
    checkpoint's comparison draws it)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    import io

    from matplotlib.image import imread

    from .diagrams import draw, figure_bytes

    images = []
    for cp in r.checkpoints:
        plan = cp.comparison.figures.get("cd_diagram")
        sub = draw(plan, cp.comparison.mean_ranks, cp.comparison.table.learners) \
            if plan is not None else None
        if sub is None:
            continue
        # each diagram as it is saved alone (its measured box), then placed
        images.append((cp.budget, imread(io.BytesIO(figure_bytes(sub, "png")), format="png")))
    if not images:
        return None
    from .diagrams import PNG_DPI as dpi

    gap = 0.35  # inches for each panel's title
    heights = [img.shape[0] / dpi + gap for _, img in images]
    w = max(img.shape[1] for _, img in images) / dpi
    h = sum(heights)
    fig = Figure(figsize=(w, h), dpi=dpi)
    FigureCanvasAgg(fig)
    top = h
    for (budget, img), height in zip(images, heights):
        top -= height
        frac_w = img.shape[1] / dpi / w
        ax = fig.add_axes((0, top / h, frac_w, (height - gap) / h))
        ax.imshow(img, interpolation="none")
        ax.set_axis_off()
        fig.text(0.01, (top + height - 0.05) / h, f"{r.curves.budget_name} {budget:g}",
                 fontsize=10, va="top")
    return fig
