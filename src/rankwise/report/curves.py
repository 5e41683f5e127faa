"""Writers of a comparison along a budget (:class:`rankwise.analysis.curves.CurveComparison`):
text, Markdown and JSON, every part read from the one analysis."""

from __future__ import annotations

import json
import textwrap

import numpy as np

from ..stats.results import jsonable

#: The text and Markdown reports list at most this many learners per table (best first by mean
#: rank at the last checkpoint); the JSON holds all.
LEARNERS_SHOWN = 12
#: ... and at most this many budgets of the rank-over-budget table.
BUDGETS_SHOWN = 8


_KIND_WORDS = {"running-best": "as each run's running best",
               "raw": "as logged (not the running best)"}


def _floats(a):
    return jsonable(np.asarray(a, dtype=float))


def _g(x) -> str:
    return "-" if x is None or not np.isfinite(x) else f"{x:.4g}"


def _p(p) -> str:
    return "< 1e-300" if p < 1e-300 else f"{p:.3g}"


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
        p = f"{test_title(gate.test)} p = {_p(gate.pvalue)}"
    else:
        test = next(iter(cp.comparison.tests.values()), None)
        p = f"{test_title(test.test)} p = {_p(test.pvalue)}" if test is not None else "no test"
    winners = ", ".join(v.winners) if v.winners else v.best
    return (f"{cp.budget:g}: best {v.best}; {p}; not significantly worse than the best:"
            f" {winners}; {int(np.triu(cp.significant, 1).sum())} pair(s) differ in the CD"
            " diagram")


def curves_text(r, width: int = 80) -> str:
    c = r.curves
    f = facts(r)
    wrap = lambda s, indent="": textwrap.fill(s, width, initial_indent=indent,  # noqa: E731
                                              subsequent_indent=indent + "  ")
    out = [f"rankwise curves: {c.source}", wrap(f["header"]), ""]
    order = _order(r)[:LEARNERS_SHOWN]
    name_w = min(max(len(c.learners[i]) for i in order), 18)
    cols = _shown_budgets(r, max(2, (width - name_w - 2) // 11))
    under = "; under each mean rank, its band" if np.isfinite(r.band_c) else ""
    out.append(wrap("Rank over budget: " + f["band"] + under + "."))
    out.append(" " * name_w + "".join(f"{_g(r.display[j]):>11}" for j in cols))
    k = len(c.learners)
    for i in order:
        out.append(f"{c.learners[i][:name_w]:<{name_w}}"
                   + "".join(f"{r.mean_ranks[j, i]:>11.2f}" for j in cols))
        if np.isfinite(r.band_low[cols, i]).all():
            out.append(" " * name_w + "".join(
                f"{max(r.band_low[j, i], 1):.2f}-{min(r.band_high[j, i], k):.2f}".rjust(11)
                for j in cols))
    if len(c.learners) > LEARNERS_SHOWN:
        out.append(f"(the {LEARNERS_SHOWN} best at the last budget of {len(c.learners)}; the"
                   " JSON holds all)")
    out += ["", wrap(f"Checkpoints (everything compare does on the mean over runs at each;"
                     f" alpha = {r.alpha}):")]
    for cp in r.checkpoints:
        out.append(wrap(_verdict_line(cp), "  "))
    if r.changes:
        out.append(wrap("Pairs whose decision changes along the budget (significant in the"
                        " CD diagram or not, at each checkpoint):"))
        for a, b, states, flips in r.changes[:LEARNERS_SHOWN]:
            marks = " ".join("yes" if s else "no" for s in states)
            out.append(wrap(f"{a} vs {b}: {marks} (changes at {', '.join(map(_g, flips))})",
                            "  "))
    else:
        out.append(wrap("No pairwise decision changes between the checkpoints."))
    out.append("")
    if r.trend:
        helped = [n for n, t in r.trend.items() if t.pvalue < r.alpha]
        out.append(wrap(f"Does more budget help? Page's trend test per learner over the"
                        f" checkpoints: significant for {len(helped)} of {len(r.trend)}"
                        f" ({', '.join(helped) or 'none'})."))
    if r.settle is not None:
        out.append(wrap(f"From {c.budget_name} {_g(r.settle)} on, no learner's rank differs"
                        f" significantly from its rank at the last checkpoint (Wilcoxon"
                        f" signed-rank per learner and checkpoint, Holm over all)."))
    o = r.aocc_options
    bounds = ("each problem's worst and best value" if o.bounds == "problem"
              else f"[{o.bounds[0]:g}, {o.bounds[1]:g}]")
    out += ["", wrap(f"AOCC (area over the convergence curve, 1 = best from the start;"
                     f" values normalised to {bounds} on a {o.value_scale} scale, budget axis"
                     f" {o.budget_scale}; mean over runs) through compare: best"
                     f" {r.aocc_comparison.verdict.best}.")]
    aocc_mean = np.nanmean(r.aocc, axis=1)
    for i in np.argsort(-aocc_mean, kind="stable")[:LEARNERS_SHOWN]:
        out.append(f"  {c.learners[i][:name_w]:<{name_w}} {aocc_mean[i]:.4f}")
    solved = (r.successes > 0).mean(axis=(1, 2))
    out += ["", wrap(f"Fixed targets ({r.targets.shape[-1]} per problem): share of"
                     f" (problem, target) pairs some run reached, and the ECDF of running"
                     f" times at the last budget:")]
    for i in order:
        out.append(f"  {c.learners[i][:name_w]:<{name_w}} reached {solved[i]:.3f}"
                   f"  ECDF {r.ecdf[i, -1]:.3f}")
    taus, rho = r.performance
    out += ["", wrap(f"Profiles (cost: ERT to f <= f_L + {r.tolerance:g}(f_0 - f_L)):"
                     " performance profile at ratio 1 (efficiency) and its end (robustness):")]
    for i in order:
        eff = rho[i, 0] if rho.shape[1] else float("nan")
        rob = rho[i, -1] if rho.shape[1] else float("nan")
        out.append(f"  {c.learners[i][:name_w]:<{name_w}} {eff:.3f}  {rob:.3f}")
    d = r.dewancker
    if d is None:
        out += [""] + [wrap(f"Note: {n}.") for n in r.notes]
        return "\n".join(out) + "\n"
    out += ["", wrap(f"Optuna's ranking (Dewancker et al.: one-sided Mann-Whitney at alpha"
                     f" {d.alpha:g} on each run's best value, then its AUC): Borda points and"
                     f" firsts over {len(c.problems)} problems:")]
    for i in np.argsort(-d.borda_total, kind="stable")[:LEARNERS_SHOWN]:
        out.append(f"  {c.learners[i][:name_w]:<{name_w}} {int(d.borda_total[i]):>5}"
                   f" {int(d.firsts[i]):>5}")
    if r.notes:
        out += [""] + [wrap(f"Note: {n}.") for n in r.notes]
    return "\n".join(out) + "\n"


def curves_markdown(r) -> str:
    c = r.curves
    f = facts(r)
    order = _order(r)[:LEARNERS_SHOWN]
    cols = _shown_budgets(r)
    k = len(c.learners)
    out = [f"# rankwise curves: {c.source}", "", f["header"], "", "## Rank over budget", "",
           f["band"][0].upper() + f["band"][1:] + ".", "",
           "| learner | " + " | ".join(_g(r.display[j]) for j in cols) + " |",
           "|---|" + "---:|" * len(cols)]
    for i in order:
        out.append(f"| {c.learners[i]} | " + " | ".join(
            f"{r.mean_ranks[j, i]:.2f}" + (f" [{max(r.band_low[j, i], 1):.2f},"
                                           f" {min(r.band_high[j, i], k):.2f}]"
                                           if np.isfinite(r.band_low[j, i]) else "")
            for j in cols) + " |")
    out += ["", "## Checkpoints", ""] + [f"- {_verdict_line(cp)}" for cp in r.checkpoints]
    if r.changes:
        out += ["", "Pairs whose decision changes:", ""]
        out += [f"- {a} vs {b}: changes at {', '.join(map(_g, flips))}"
                for a, b, _, flips in r.changes]
    out += ["", "## AOCC", "", f"Best: {r.aocc_comparison.verdict.best}.", "",
            "| learner | AOCC |", "|---|---:|"]
    aocc_mean = np.nanmean(r.aocc, axis=1)
    out += [f"| {c.learners[i]} | {aocc_mean[i]:.4f} |"
            for i in np.argsort(-aocc_mean, kind="stable")[:LEARNERS_SHOWN]]
    d = r.dewancker
    if d is None:
        out += ["", "## Notes", ""] + [f"- {n}" for n in r.notes]
        return "\n".join(out) + "\n"
    out += ["", "## Optuna's ranking (Dewancker)", "", "| learner | Borda | Firsts |",
            "|---|---:|---:|"]
    out += [f"| {c.learners[i]} | {int(d.borda_total[i])} | {int(d.firsts[i])} |"
            for i in np.argsort(-d.borda_total, kind="stable")[:LEARNERS_SHOWN]]
    if r.notes:
        out += ["", "## Notes", ""] + [f"- {n}" for n in r.notes]
    return "\n".join(out) + "\n"


def curves_dict(r) -> dict:
    """Everything as JSON-ready data (every learner, problem, budget and target)."""
    c = r.curves
    taus, rho = r.performance
    alphas, dp = r.data
    d = r.dewancker
    return {
        "kind": "curves", "source": c.source, "reader": c.reader,
        "learners": list(c.learners), "problems": list(c.problems),
        "maximize": c.maximize, "value_kind": c.value_kind, "budget": c.budget_name,
        "exact_grid": c.exact, "rows": c.rows, "runs": c.runs,
        "rank_band": {"budgets": _floats(r.display), "mean_rank": _floats(r.mean_ranks),
                      "low": _floats(np.maximum(r.band_low, 1.0)),
                      "high": _floats(np.minimum(r.band_high, len(c.learners))),
                      "critical_value": _floats(r.band_c), "confidence": r.confidence,
                      "draws": r.draws, "seed": r.seed,
                      "method": "bootstrap of the problems, simultaneous over learners and"
                                " budgets (max-t)"},
        "checkpoints": [{"budget": cp.budget, "best": cp.comparison.verdict.best,
                         "winners": list(cp.comparison.verdict.winners),
                         "verdict": cp.comparison.verdict.text,
                         "significant_pairs": [list(pair) for pair in cp.pairs()],
                         "tests": {k: {"statistic": _floats(t.statistic),
                                       "pvalue": _floats(t.pvalue)}
                                   for k, t in cp.comparison.tests.items()},
                         "mean_ranks": _floats(cp.comparison.mean_ranks)}
                        for cp in r.checkpoints],
        "decision_changes": [{"a": a, "b": b, "significant": list(s), "changes_at": list(f)}
                             for a, b, s, f in r.changes],
        "trend": {n: {"statistic": t.statistic, "pvalue": t.pvalue, "method": t.method}
                  for n, t in r.trend.items()},
        "settle": r.settle, "settle_adjusted_pvalues": _floats(r.settle_pvalues),
        "aocc": {"mean": _floats(r.aocc), "best": r.aocc_comparison.verdict.best,
                 "bounds": r.aocc_options.bounds if isinstance(r.aocc_options.bounds, str)
                 else list(r.aocc_options.bounds),
                 "value_scale": r.aocc_options.value_scale,
                 "budget_scale": r.aocc_options.budget_scale,
                 "budget": r.aocc_options.budget},
        "fixed_target": {"targets": _floats(r.targets), "ert": _floats(r.ert),
                         "successes": np.asarray(r.successes).tolist(),
                         "ecdf": _floats(r.ecdf)},
        "profiles": {"tolerance": r.tolerance, "cost": _floats(r.profile_cost),
                     "performance": {"tau": _floats(taus), "rho": _floats(rho)},
                     "data": {"alpha": _floats(alphas), "d": _floats(dp),
                              "per_dimension": c.dimensions is not None}},
        "dewancker": None if d is None else {
            "alpha": d.alpha, "wins": d.wins.tolist(), "borda": d.borda.tolist(),
            "borda_total": d.borda_total.tolist(), "firsts": d.firsts.tolist(),
            "metrics_used": d.metrics_used.tolist(),
            "convention": "Optuna's report_bayesmark.py DewanckerRanker"},
        "notes": list(r.notes),
    }


def curves_document(r):
    """The report as a :class:`~rankwise.report.document.Document` (the HTML and LaTeX
    writers lay it out): the same sections and numbers as the Markdown report."""
    from .document import Bullets, Document, Heading, Paragraph, Table

    c = r.curves
    f = facts(r)
    order = _order(r)[:LEARNERS_SHOWN]
    cols = _shown_budgets(r)
    k = len(c.learners)
    doc = Document(f"rankwise curves: {c.source}")
    doc.add(Paragraph(f["header"], "lead"), Heading("Rank over budget"),
            Paragraph(f["band"][0].upper() + f["band"][1:] + "."))
    rows = []
    for i in order:
        rows.append([c.learners[i]] + [
            f"{r.mean_ranks[j, i]:.2f}" + (f" [{max(r.band_low[j, i], 1):.2f},"
                                           f" {min(r.band_high[j, i], k):.2f}]"
                                           if np.isfinite(r.band_low[j, i]) else "")
            for j in cols])
    doc.add(Table(["learner"] + [_g(r.display[j]) for j in cols], rows,
                  "<" + ">" * len(cols), key="rank_band"))
    doc.add(Heading("Checkpoints"), Bullets([_verdict_line(cp) for cp in r.checkpoints]))
    if r.changes:
        doc.add(Paragraph("Pairs whose decision changes along the budget:"),
                Bullets([f"{a} vs {b}: changes at {', '.join(map(_g, flips))}"
                         for a, b, _, flips in r.changes[:LEARNERS_SHOWN]]))
    aocc_mean = np.nanmean(r.aocc, axis=1)
    doc.add(Heading("AOCC"), Paragraph(f"Best: {r.aocc_comparison.verdict.best}."),
            Table(["learner", "AOCC"],
                  [[c.learners[i], f"{aocc_mean[i]:.4f}"]
                   for i in np.argsort(-aocc_mean, kind="stable")[:LEARNERS_SHOWN]],
                  "<>", key="aocc"))
    d = r.dewancker
    if d is not None:
        doc.add(Heading("Optuna's ranking (Dewancker)"),
                Table(["learner", "Borda", "Firsts"],
                      [[c.learners[i], str(int(d.borda_total[i])), str(int(d.firsts[i]))]
                       for i in np.argsort(-d.borda_total, kind="stable")[:LEARNERS_SHOWN]],
                      "<>>", key="dewancker"))
    if r.notes:
        doc.add(Heading("Notes"), Bullets(list(r.notes), "notes"))
    return doc


def render_curves(r, fmt: str, width: int = 80) -> str:
    """``fmt``: text, markdown, html, latex or json."""
    if fmt in ("html", "latex"):
        doc = curves_document(r)
        if fmt == "html":
            from .html import html_page

            return html_page(doc, doc.title)
        from .latex import latex_document

        return latex_document(doc, r.curves.learners + r.curves.problems)
    if fmt == "json":
        return json.dumps(curves_dict(r), indent=2, ensure_ascii=False) + "\n"
    if fmt == "markdown":
        return curves_markdown(r)
    return curves_text(r, width)


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
