"""An item-level comparison (:class:`rankwise.analysis.items.ItemComparison`) in every format:
text, Markdown, LaTeX and HTML from one :class:`~rankwise.report.document.Document`, JSON, and
its figures (the macro-average with its interval; the across-task comparison's diagrams).

The report answers one question once: which models are best. Its verdict is the
macro-average's best set (the max-t test on the two-level bootstrap); the across-task
comparison (Friedman ranks over the tasks) follows as evidence, without a verdict of its own,
and where its set differs the verdict says why in one sentence
(:func:`rankwise.analysis.best.reconcile`).
"""

from __future__ import annotations

import numpy as np

from ..names import procedure_title
from ..stats.results import p_phrase
from .blocks import Document, Drawn, Figure, Heading, Paragraph, Table
from .._text import counted
from .format import p_words
from .document import source_name

#: At most this many significant pairs are listed per task in the readable formats (the JSON
#: holds every pair).
PAIRS_SHOWN = 15
#: The JSON is indented up to this many pairs over all tasks, one line beyond.
INDENTED_PAIRS = 10_000
#: At most this many rows (a task's learner) of the repeated trials' tables in the readable
#: formats (the JSON holds them all).
TRIAL_ROWS_SHOWN = 120
#: The sections of the across-task comparison left out here: its lead and methods speak of
#: data sets and folds, and its verdict is replaced by the report's one verdict.
_ACROSS_LEFT_OUT = ("Verdict", "Methods")

_TEST_WORDS = {
    "mcnemar": "McNemar's test on the discordant items (exact binomial below 25 of them,"
               " chi-square with continuity correction from 25 on)",
    "permutation": "the paired sign-flip permutation test of the mean difference",
}


def _test_words(task, settings) -> str:
    words = _TEST_WORDS[task.pairs.test]
    if task.pairs.test == "mcnemar" and settings["mcnemar"] != "auto":
        words = f"McNemar's test ({settings['mcnemar']})"
    if task.pairs.test == "permutation":
        unit = (f"{task.n_clusters} clusters flipped whole" if task.n_clusters < task.n_items
                else "items flipped")
        words += f" ({task.pairs.draws} draws, {unit})"
    return words


def _interval_words(task, confidence) -> str:
    pct = f"{100 * confidence:g}%"
    if task.interval == "wilson":
        return f"accuracy with Wilson {pct} intervals (Clopper-Pearson beside them)"
    unit = (f"clustered over {task.n_clusters} clusters" if task.n_clusters < task.n_items
            else "over the items")
    return f"mean score with t {pct} intervals from the standard error {unit}"


def _f(x, signed=False) -> str:
    return f"{x:+.3f}" if signed else f"{x:.3f}"


def _significant_pairs(task, alpha):
    idx = task.significant(alpha)
    idx = idx[np.argsort(task.adjusted[idx], kind="stable")]
    out = []
    for i in idx:
        a, b = task.pairs.first[i], task.pairs.second[i]
        d, lo, hi = task.pairs.difference[i], task.pairs.low[i], task.pairs.high[i]
        if d < 0:       # name the better model first
            a, b, d, lo, hi = b, a, -d, -hi, -lo
        out.append((task.models[a], task.models[b], d, lo, hi, task.adjusted[i],
                    str(task.pairs.method[i])))
    return out


def lead(r) -> str:
    """The first paragraph: what was read and how every decision is made."""
    items = r.items
    n_items = sum(t.n_items for t in r.tasks)
    kind = "0/1" if items.binary else "continuous"
    s = r.settings
    return (f"{counted(len(items.models), 'model')} (learners) x"
            f" {counted(len(items.tasks), 'task')} (data sets),"
            f" {n_items:,} items"
            f" ({items.n_outcomes:,} scored outcomes, read as {items.reader}); scores {kind},"
            f" higher is better; alpha = {s['alpha']}; each task's pairwise p-values adjusted"
            f" across its pairs by {procedure_title(s['procedures'])}; intervals"
            f" {100 * s['confidence']:g}%; bootstrap and permutation draws {s['draws']}, seed"
            f" {s['seed']}; items a model lacks: {s['missing']}.")


def verdict(r) -> str:
    """The one answer: the macro-average's best set, named by its procedure, and why the
    across-task set differs where it does."""
    return " ".join(x for x in (r.best_set.sentence(), r.reconciled) if x)


def document(r) -> Document:
    """Both levels as format-neutral blocks: the verdict, each task, the macro-average, the
    comparison across tasks and the methods."""
    doc = Document(f"rankwise items: {source_name(r.items.source)}")
    doc.add(Paragraph(lead(r), "lead"))
    doc.add(*(Paragraph(f"Note: {note}") for note in r.notes))
    doc.add(Heading("Verdict"), Paragraph(verdict(r), "verdict"))
    doc.add(Heading("Per task: every pair of models on the same items"))
    for i, t in enumerate(r.tasks):
        doc.add(*_task_blocks(r, t, i))
    if r.trials:
        doc.add(Heading("Repeated trials"), *_trial_blocks(r))
    doc.add(Heading("Across tasks: the mean per model and task"), _macro_table(r),
            Figure("macro", Drawn("macro", "Macro-average with intervals", _macro_caption(r))))
    if r.across is not None:
        doc.add(*_across_blocks(r))
    doc.add(Heading("Methods"), Paragraph(methods(r), "methods"))
    return doc


def _task_blocks(r, t, i) -> list:
    alpha, cp = r.settings["alpha"], t.clopper_pearson is not None
    extra = f", {t.repeats} repeats averaged per item" if t.repeats > 1 else ""
    dropped = (f"; {counted(t.dropped, 'item')} left out (not answered by every model)"
               if t.dropped else "")
    out = [Heading(t.task, 3, subset=t.task), Paragraph(   # the page switches between tasks
        f"{t.n_items} items{extra}{dropped}; {_test_words(t, r.settings)};"
        f" {_interval_words(t, r.settings['confidence'])}.")]
    rows = []
    for j in np.argsort(-t.score, kind="stable"):
        row = [t.models[j], _f(t.score[j]), f"[{_f(t.low[j])}, {_f(t.high[j])}]"]
        if cp:
            row.append(f"[{_f(t.clopper_pearson[0][j])}, {_f(t.clopper_pearson[1][j])}]")
        rows.append(row)
    head = ["learner", "score", "interval"] + (["Clopper-Pearson"] if cp else [])
    out.append(Table(head, rows, "<>>" + (">" if cp else ""), key=f"task_{i}_scores"))
    if t.normal_ok is not None and not t.normal_ok.all():
        out.append(Paragraph("The normal (Wald) interval would be inadequate here (fewer than"
                             " 100 items, or fewer than 10 right or wrong answers): Wilson's"
                             " is shown."))
    out.append(Paragraph(f"Tied with #1 ({t.best}): {', '.join(t.tied)}."))
    pairs = _significant_pairs(t, alpha)
    if not pairs:
        out.append(Paragraph(f"No pair differs at alpha = {alpha} after adjustment."))
        return out
    caption = (f"Pairs that differ ({len(pairs)} of {t.n_pairs}): the difference and its"
               " interval, the adjusted p-value and the test.")
    if len(pairs) > PAIRS_SHOWN:
        caption += f" The first {PAIRS_SHOWN} are shown; every pair is in the JSON."
    rows = [[a, b, _f(d, True), f"[{_f(lo, True)}, {_f(hi, True)}]", p_words(p), how]
            for a, b, d, lo, hi, p, how in pairs[:PAIRS_SHOWN]]
    out.append(Table(["better", "worse", "difference", "interval", "adjusted p", "test"],
                     rows, "<<>>><", caption, key=f"task_{i}_pairs"))
    return out


def _trial_blocks(r) -> list:
    """Laid out as the gate's: pass@k and pass^k per task, learner and k (0/1 scores only);
    then the trials per item, the mean and the variance split per task and learner."""
    pairs = [(tr, j) for tr in r.trials for j in range(len(tr.models))]
    more = ("" if len(pairs) <= TRIAL_ROWS_SHOWN else
            f" The first {TRIAL_ROWS_SHOWN} of {len(pairs)} rows (the JSON has them all).")
    pairs = pairs[:TRIAL_ROWS_SHOWN]
    blocks = []
    rows = [[tr.task, tr.models[j], str(k), _f(tr.pass_at[k][j]), _f(tr.pass_hat[k][j])]
            for tr, j in pairs for k in tr.ks]
    if rows:
        blocks.append(Table(["task", "learner", "k", "pass@k", "pass^k"], rows, "<<>>>",
                            "Over the items of each task: pass@k (at least one of k trials"
                            " right; unbiased, Chen et al. 2021) and pass^k (all k right; Yao"
                            " et al. 2024), for k = 1 and the fewest trials of an item in the"
                            " task." + more, key="pass_at_k"))
    split = [[tr.task, tr.models[j], _span(tr.trials[j]), _f(tr.mean[j]),
              _g(tr.within[j]), _g(tr.between[j])] for tr, j in pairs]
    why = "" if r.items.binary else " pass@k and pass^k need 0/1 scores."
    blocks.append(Table(["task", "learner", "trials per item", "mean", "within items",
                         "between items"], split, "<<>>>>",
                        "Trials per item (fewest-most), the mean over the items of each"
                        " item's mean, the variance of an item's trials (within) and of the"
                        " items' true means (between, one-way random effects); each item"
                        " counted once." + why + more, key="trial_variance"))
    return blocks


def _span(pair) -> str:
    lo, hi = (int(v) for v in pair)
    return f"{lo}" if lo == hi else f"{lo}-{hi}"


def _g(x) -> str:
    return "n/a" if x != x else f"{x:.3g}"


def _macro_table(r) -> Table:
    tied = set(r.tied)
    rows = [[f"{r.models[j]}{' *' if r.models[j] in tied else ''}", _f(r.macro[j]),
             f"[{_f(r.macro_low[j])}, {_f(r.macro_high[j])}]"]
            for j in np.argsort(-r.macro, kind="stable")]
    conf = f"{100 * r.settings['confidence']:g}%"
    return Table(["learner", "macro", "interval"], rows, "<>>",
                 f"The macro-average (the mean over tasks of each task's mean) with its {conf}"
                 " interval (tasks, then items within each task, resampled); * the verdict's"
                 " best set.", key="macro")


def _macro_caption(r) -> str:
    conf = f"{100 * r.settings['confidence']:g}%"
    return (f"Each model's macro-average with its {conf} two-level bootstrap interval, best on"
            " top; * the verdict's best set.")


def _across_blocks(r) -> list:
    """The comparison of the task-level table, as compare reports it, less its lead, verdict
    and methods (the report has one of each), its headings one level down."""
    from .document import build

    cmp = r.across
    blocks = [Heading("Across tasks: the task-level table compared"),
              Paragraph(_across_lead(r))]
    skipping = False
    for block in build(cmp).blocks:
        if isinstance(block, Heading):
            skipping = block.text in _ACROSS_LEFT_OUT
            if not skipping:
                blocks.append(Heading(block.text, block.level + 1))
        elif isinstance(block, Figure) and not skipping:
            blocks.append(Figure(block.name, _across_plan(block.plan)))
        elif not skipping and getattr(block, "role", "") != "lead":
            blocks.append(block)
    return blocks


def _across_plan(plan):
    """A figure plan of the across-task comparison whose caption does not call its comparisons
    the verdict's (the report's verdict is the macro-average's)."""
    from dataclasses import is_dataclass, replace

    caption = getattr(plan, "caption", "")
    if not is_dataclass(plan) or "the verdict's comparisons" not in caption:
        return plan
    return replace(plan, caption=caption.replace("the verdict's comparisons",
                                                 "the across-task comparisons"))


def _across_lead(r) -> str:
    """What the across-task comparison compared, and its decision, in the tasks' words."""
    cmp, v = r.across, r.across.verdict
    t = cmp.table
    out = [f"The task-level table: {counted(t.n_learners, 'model')} x"
           f" {counted(t.n_datasets, 'task')}, each cell a"
           " model's mean score over the task's items; the tasks are the data sets of the"
           " tables below, the models their learners, ranked within each task (1 = best)."]
    gate = v.gate
    if gate is not None and gate.test:
        says = "rejects" if gate.passed else "does not reject"
        out.append(f"Across the tasks, {_test_title(gate.test)} {says} that all models perform"
                   f" alike at alpha = {v.alpha} ({p_phrase(gate.pvalue)}).")
    other = r.across_best_set
    out.append(f"Its set of models tied with #1, {other.how()}: {', '.join(other.learners)}"
               + (" (the same as the verdict's)." if r.reconciled is None else
                  " (the verdict says why it differs from the macro-average's)."))
    out += list(v.caveats)
    return " ".join(out)


def _test_title(name) -> str:
    from ..names import test_title

    return test_title(name)


def methods(r) -> str:
    """What was done at both levels; the across-task part in the tasks' words."""
    from . import methods as m

    s = r.settings
    pct = f"{100 * s['confidence']:g}%"
    parts = [
        "Within each task every pair of models was compared on the same items: McNemar's test"
        " for 0/1 scores on independent items, otherwise the paired sign-flip permutation test"
        f" ({s['draws']} draws; clustered items flipped whole cluster by cluster); each task's"
        f" p-values were adjusted across its pairs by {procedure_title(s['procedures'])}, at"
        f" alpha = {s['alpha']}. Each model's score on a task has a {pct} interval (Wilson, with"
        " Clopper-Pearson beside it, for 0/1 scores on independent items; otherwise t from the"
        " clustered standard error).",
        f"The macro-average is the mean over tasks of each model's task mean; its {pct}"
        " interval is the two-level bootstrap (tasks resampled, then items within each task;"
        f" {s['draws']} draws, seed {s['seed']}). The verdict's best set is decided"
        f" {r.best_set.how()}."]
    if r.trials:
        parts.append("Items tried more than once enter the tests as the mean of their trials;"
                     " the repeated trials' section adds pass@k and pass^k (the unbiased"
                     " estimators of Chen et al. 2021 and Yao et al. 2024, averaged over the"
                     " items) and the one-way random-effects split of the trials' variance"
                     " into within and between items.")
    if r.across is not None:
        cmp = r.across
        parts.append(f"Across tasks, the task-level table (k = {cmp.table.n_learners} models on"
                     f" N = {counted(cmp.table.n_datasets, 'task')}, each cell a model's mean over the"
                     " task's items) was compared as a table of learners x data sets, the"
                     " tasks as the data sets.")
        for sentences in (m._omnibus, m._two_learners, m._posthoc, m._effects, m._bayesian):
            parts += sentences(cmp)
        parts.append(f"Its best set is decided {r.across_best_set.how()}.")
    return " ".join(parts)


def figures(r, width: float | None = None) -> dict:
    """The macro-average's figure and the across-task comparison's drawn diagrams."""
    out = {"macro": macro_figure(r)}
    if r.across is not None:
        from .diagrams import draw_all

        out.update(draw_all(r.across, width))
    return out


def macro_figure(r):
    """Each model's macro-average with its interval, best on top; * the best set. Drawn on a
    Figure of its own (no pyplot: no backend changed, nothing left open in a notebook)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    order = np.argsort(-r.macro, kind="stable")
    n = len(order)
    y = np.arange(n)[::-1]
    m, lo, hi = r.macro[order], r.macro_low[order], r.macro_high[order]
    fig = Figure(figsize=(6.0, 0.9 + 0.24 * n))
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    ax.errorbar(m, y, xerr=[m - lo, hi - m], fmt="o", color="#1f4e79", ecolor="0.55",
                elinewidth=1.2, capsize=2, markersize=4)
    tied = set(r.tied)
    ax.set_yticks(y)
    ax.set_yticklabels([("* " if r.models[j] in tied else "") + r.models[j] for j in order],
                       fontsize=7)
    ax.set_xlabel(f"macro-average ({100 * r.settings['confidence']:g}% two-level bootstrap)")
    ax.set_title("Macro-average (* the best set)", fontsize=9)
    ax.grid(axis="x", color="0.9")
    fig.tight_layout()
    return fig


def extras(r) -> dict:
    """The across-task comparison's CD diagram as TikZ, which report.tex inputs."""
    if r.across is None:
        return {}
    from .folder import tikz_files

    return tikz_files(r.across)


def payload(r) -> dict:
    """The JSON's content: the result's own data, with the across-task comparison's whole JSON
    report (its ``report`` section included) as ``across``."""
    import json

    from . import render

    data = r.to_dict()
    if r.across is not None:
        data["across"] = json.loads(render(r.across, "json"))
    return data


def json_indent(r) -> int | None:
    """Indented for a person up to ``INDENTED_PAIRS`` pairs in all; beyond, one line (a program
    reads it, and indenting hundreds of thousands of numbers triples the time)."""
    return 2 if sum(len(t.adjusted) for t in r.tasks) <= INDENTED_PAIRS else None


def items_dict(r) -> dict:
    """The JSON's content (kept for callers of rankwise 0.x: read ``r.to_dict()``)."""
    from .generic import payload as whole

    return whole(r)


def items_text(r, width: int | None = 80) -> str:
    from .generic import render as generic

    return generic(r, "text", width=width)


def items_markdown(r) -> str:
    from .generic import render as generic

    return generic(r, "markdown")


def render_items(r, fmt: str, width: int | None = 80) -> str:
    """``r`` in ``fmt`` (any report format) through the generic writer; the JSON indented as
    ``json_indent`` says."""
    from . import render

    return render(r, fmt, width=width, indent=json_indent(r))
