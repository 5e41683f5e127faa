"""Writers of an item-level comparison (:class:`rankwise.analysis.items.ItemComparison`): text,
Markdown and JSON, each showing both levels (per task, and across tasks)."""

from __future__ import annotations

import textwrap

import numpy as np

from ..names import procedure_title
from ..stats.results import jsonable

#: At most this many significant pairs are listed per task in the text and Markdown reports
#: (the JSON holds every pair).
PAIRS_SHOWN = 15
#: The JSON is indented up to this many pairs over all tasks, one line beyond.
INDENTED_PAIRS = 10_000

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


def _p(p) -> str:
    return "< 1e-300" if p < 1e-300 else f"{p:.3g}"


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


def _header(r) -> list:
    items = r.items
    n_items = sum(t.n_items for t in r.tasks)
    kind = "0/1" if items.binary else "continuous"
    s = r.settings
    lines = [f"rankwise items: {items.source}",
             f"{len(items.models)} models x {len(items.tasks)} tasks, {n_items:,} items"
             f" ({items.n_outcomes:,} scored outcomes, read as {items.reader}); scores {kind},"
             f" higher is better; alpha = {s['alpha']}; each task's pairwise p-values adjusted"
             f" across its pairs by {procedure_title(s['procedure'])}; intervals {100 * s['confidence']:g}%;"
             f" bootstrap and permutation draws {s['draws']}, seed {s['seed']}; items a model"
             f" lacks: {s['missing']}."]
    return lines


def items_text(r, width: int = 80) -> str:
    """The two-level report as plain text, wrapped to ``width``."""
    wrap = lambda s, indent="": textwrap.fill(s, width, initial_indent=indent,  # noqa: E731
                                              subsequent_indent=indent + "  ")
    out = [wrap(line) for line in _header(r)]
    for note in r.notes:
        out.append(wrap(f"Note: {note}"))
    alpha = r.settings["alpha"]
    out += ["", "Per task: every pair of models on the same items"]
    for t in r.tasks:
        out.append("")
        extra = f", {t.repeats} repeats averaged per item" if t.repeats > 1 else ""
        dropped = (f"; {t.dropped} items left out (not answered by every model)" if t.dropped
                   else "")
        out.append(wrap(f"{t.task}: {t.n_items} items{extra}{dropped}; {_test_words(t, r.settings)};"
                        f" {_interval_words(t, r.settings['confidence'])}."))
        order = np.argsort(-t.score, kind="stable")
        name_w = max(5, max(len(m) for m in t.models))
        head = f"  {'model':<{name_w}}  score  interval"
        if t.clopper_pearson is not None:
            head += "          Clopper-Pearson"
        out.append(head)
        for j in order:
            line = (f"  {t.models[j]:<{name_w}}  {_f(t.score[j])}  [{_f(t.low[j])},"
                    f" {_f(t.high[j])}]")
            if t.clopper_pearson is not None:
                line += f"    [{_f(t.clopper_pearson[0][j])}, {_f(t.clopper_pearson[1][j])}]"
            out.append(line)
        if t.normal_ok is not None and not t.normal_ok.all():
            out.append(wrap("The normal (Wald) interval would be inadequate here (fewer than 100"
                            " items, or fewer than 10 right or wrong answers): Wilson's is shown.",
                            "  "))
        out.append(wrap(f"Tied with #1 ({t.best}): {', '.join(t.tied)}.", "  "))
        pairs = _significant_pairs(t, alpha)
        if not pairs:
            out.append(wrap(f"No pair differs at alpha = {alpha} after adjustment.", "  "))
        else:
            out.append(f"  Pairs that differ ({len(pairs)} of {t.n_pairs}; difference and"
                       f" its interval, adjusted p):")
            for a, b, d, lo, hi, p, how in pairs[:PAIRS_SHOWN]:
                out.append(f"    {a} > {b}: {_f(d, True)} [{_f(lo, True)}, {_f(hi, True)}],"
                           f" p = {_p(p)} ({how})")
            if len(pairs) > PAIRS_SHOWN:
                out.append(f"    … and {len(pairs) - PAIRS_SHOWN} more (every pair is in the"
                           f" JSON)")
    out += ["", "Across tasks: the mean per model and task"]
    order = np.argsort(-r.macro, kind="stable")
    name_w = max(5, max(len(m) for m in r.models))
    out.append(f"  {'model':<{name_w}}  macro  interval (tasks, then items, resampled)")
    for j in order:
        out.append(f"  {r.models[j]:<{name_w}}  {_f(r.macro[j])}  [{_f(r.macro_low[j])},"
                   f" {_f(r.macro_high[j])}]")
    out.append(wrap(f"Tied with #1 ({r.best}) on the macro-average: {', '.join(r.tied)} (the"
                    f" one-sided simultaneous bootstrap test against the best, max-t over the"
                    f" other models, at alpha = {alpha}).", "  "))
    if r.across is not None:
        out.append(wrap(r.across.verdict.text, "  "))
    return "\n".join(out) + "\n"


def items_markdown(r) -> str:
    """The two-level report as Markdown."""
    out = ["# rankwise items", "", *(_header(r)), ""]
    out += [f"> Note: {n}" for n in r.notes]
    alpha = r.settings["alpha"]
    out += ["", "## Per task", ""]
    for t in r.tasks:
        out += [f"### {t.task}", "", f"{t.n_items} items; {_test_words(t, r.settings)};"
                f" {_interval_words(t, r.settings['confidence'])}.", ""]
        cp = t.clopper_pearson is not None
        out.append("| model | score | interval |" + (" Clopper-Pearson |" if cp else ""))
        out.append("|---|---:|---|" + ("---|" if cp else ""))
        for j in np.argsort(-t.score, kind="stable"):
            row = f"| {t.models[j]} | {_f(t.score[j])} | [{_f(t.low[j])}, {_f(t.high[j])}] |"
            if cp:
                row += f" [{_f(t.clopper_pearson[0][j])}, {_f(t.clopper_pearson[1][j])}] |"
            out.append(row)
        out += ["", f"Tied with #1 ({t.best}): {', '.join(t.tied)}.", ""]
        pairs = _significant_pairs(t, alpha)
        if pairs:
            out += ["| better | worse | difference | interval | adjusted p | test |",
                    "|---|---|---:|---|---:|---|"]
            for a, b, d, lo, hi, p, how in pairs[:PAIRS_SHOWN]:
                out.append(f"| {a} | {b} | {_f(d, True)} | [{_f(lo, True)}, {_f(hi, True)}] |"
                           f" {_p(p)} | {how} |")
            out.append("")
        else:
            out += [f"No pair differs at alpha = {alpha} after adjustment.", ""]
    out += ["## Across tasks", "", "| model | macro | interval |", "|---|---:|---|"]
    for j in np.argsort(-r.macro, kind="stable"):
        out.append(f"| {r.models[j]} | {_f(r.macro[j])} | [{_f(r.macro_low[j])},"
                   f" {_f(r.macro_high[j])}] |")
    out += ["", f"Tied with #1 ({r.best}) on the macro-average: {', '.join(r.tied)}."]
    if r.across is not None:
        out += ["", r.across.verdict.text]
    return "\n".join(out) + "\n"


def _floats(a):
    """A column of numbers for the JSON (NaN and ±inf as null), as every report writes one."""
    return jsonable(np.asarray(a, dtype=float))


def items_dict(r) -> dict:
    """Everything, every pair included, as JSON-ready data."""
    tasks = []
    for t in r.tasks:
        p = t.pairs
        entry = {
            "task": t.task, "n_items": t.n_items, "n_clusters": t.n_clusters,
            "repeats": t.repeats, "dropped_items": t.dropped, "test": p.test,
            "interval": t.interval, "pair_interval": p.interval,
            "models": list(t.models), "score": _floats(t.score), "se": _floats(t.se),
            "low": _floats(t.low), "high": _floats(t.high),
            "best": t.best, "tied_with_best": list(t.tied),
            "n_pairs": t.n_pairs,
            "pairs_kept": "all" if len(p.first) == t.n_pairs else "significant",
            "pairs": {"first": np.asarray(t.models, dtype=object)[p.first].tolist(),
                      "second": np.asarray(t.models, dtype=object)[p.second].tolist(),
                      "difference": _floats(p.difference), "se": _floats(p.se),
                      "low": _floats(p.low), "high": _floats(p.high),
                      "pvalue": _floats(p.pvalue), "adjusted": _floats(t.adjusted),
                      "method": np.asarray(p.method).astype(str).tolist()},
        }
        if t.clopper_pearson is not None:
            entry["clopper_pearson"] = {"low": _floats(t.clopper_pearson[0]),
                                        "high": _floats(t.clopper_pearson[1])}
            entry["normal_adequate"] = [bool(v) for v in t.normal_ok]
        if p.b is not None:
            entry["pairs"]["discordant"] = np.column_stack([p.b, p.c]).astype(int).tolist()
        tasks.append(entry)
    out = {"kind": "items", "source": r.items.source, "reader": r.items.reader,
           "metric": r.items.metric, "models": list(r.models), "tasks": tasks,
           "macro": {"mean": _floats(r.macro), "low": _floats(r.macro_low),
                     "high": _floats(r.macro_high), "best": r.best,
                     "tied_with_best": list(r.tied),
                     "interval": "two-level bootstrap: tasks, then items within tasks",
                     "tied_test": "one-sided simultaneous bootstrap (max-t) against the best"},
           "settings": dict(r.settings), "notes": list(r.notes)}
    return out


def render_items(r, fmt: str, width: int = 80) -> str:
    """``fmt``: text, markdown or json; the across-task analysis follows in its own format."""
    from . import render

    if fmt == "json":
        import json

        data = items_dict(r)
        if r.across is not None:
            data["across"] = json.loads(render(r.across, "json"))
        # indented for a person up to INDENTED_PAIRS pairs in all; beyond, one line (a
        # program reads it, and indenting hundreds of thousands of numbers triples the time)
        pairs = sum(len(t.adjusted) for t in r.tasks)
        return json.dumps(data, indent=2 if pairs <= INDENTED_PAIRS else None,
                          ensure_ascii=False) + "\n"
    if fmt == "markdown":
        text = items_markdown(r)
        if r.across is not None:
            text += "\n## Across tasks: the full comparison of the task-level table\n\n"
            text += render(r.across, "markdown")
        return text
    text = items_text(r, width)
    if r.across is not None:
        import textwrap

        text += ("\n" + "=" * min(width, 80) + "\n" + textwrap.fill(
            "Across tasks: the task-level table (mean score per model and task) compared as a"
            " table of learners x data sets", width) + "\n\n")
        text += render(r.across, "text", width=width)
    return text
