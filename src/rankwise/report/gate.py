"""The gate (:func:`rankwise.gate`) as format-neutral blocks: the verdict first (what was asked,
the answer, the exit code), the overall and per-task tests, the items that regressed and
improved, repeated trials, the looks of the ledger, how it was computed, and the notes. Sized
for a pull-request comment in Markdown: a task table, a few items per task (the JSON has all)."""

from __future__ import annotations

from .._text import counted
from ..analysis.gate import LISTED, NULLS
from ..stats.results import p_phrase
from .blocks import Bullets, Cell, Document, Heading, Paragraph, Table
from .document import source_name

#: The tasks the per-task table shows at most (the JSON has them all).
TASKS_SHOWN = 40
TEST_NAMES = {"mcnemar": "exact McNemar test on the discordant items",
              "t": "paired t test on the per-item differences",
              "wilcoxon": "Wilcoxon signed-rank test (zeros split, Demšar's convention)",
              "z": "z test of the macro-average over the tasks",
              "permutation": "paired sign-flip permutation test (clusters flipped together)"}


def _num(x: float) -> str:
    return "n/a" if x != x else f"{x:+.3g}" if x else "0"


def _plain(x: float) -> str:
    return "n/a" if x != x else f"{x:.3g}"


def verdict(g) -> str:
    """The gate's answer in one sentence, its exit code and what decided it."""
    o = g.overall
    answer = {("regression", True): "No regression shown",
              ("regression", False): "Regression shown",
              ("non-inferiority", True): "Non-inferiority shown",
              ("non-inferiority", False): "Non-inferiority not shown",
              ("equivalence", True): "Equivalence shown",
              ("equivalence", False): "Equivalence not shown",
              ("superiority", True): "Superiority shown",
              ("superiority", False): "Superiority not shown"}[(g.question, g.passed)]
    level = (1 - 2 * g.alpha) if g.question == "equivalence" else g.confidence
    over = "" if len(g.tasks) == 1 else f" (macro-average over {counted(len(g.tasks), 'task')})"
    # what decided first: a task's regression can decide while the overall test does not
    return (f"{answer}: {g.decided_by}. Overall, {g.candidate} minus {g.baseline} ="
            f" {_num(o.difference)}{over}, {100 * level:g}% interval [{_plain(o.low)},"
            f" {_plain(o.high)}], {p_phrase(o.p)} (one-sided). Exit code {g.exit_code}.")


def document(g) -> Document:
    doc = Document(f"rankwise gate: {source_name(str(g.candidate))} against"
                   f" {source_name(str(g.baseline))}")
    unit = "items" if g.units == "items" else "data sets"
    margin = g.settings["margin"]
    m_text = (f"{100 * margin:g}% of the baseline's score" if g.settings["relative"]
              else f"{margin:g}")
    doc.add(Paragraph(f"Baseline {g.baseline} ({g.sources[0]}), candidate {g.candidate}"
                      f" ({g.sources[1]}): {counted(g.overall.n, unit[:-1])} both runs have"
                      f" in {counted(len(g.tasks), 'task')}. Question: {g.question};"
                      f" {NULLS[g.question]}, margin m = {m_text}; alpha = {g.alpha:g}.",
                      role="lead"))
    doc.add(Heading("Verdict"), Paragraph(verdict(g), role="verdict"))
    if g.evalue is not None:
        doc.add(Paragraph(_evidence(g)))
    doc.add(Heading("Per task"), _task_table(g))
    changed = _changed(g)
    if changed:
        doc.add(Heading("Items that changed" if g.units == "items" else "Data sets that"
                                                                            " changed"),
                Bullets(changed))
    if g.trials:
        doc.add(Heading("Repeated trials"), *_trial_blocks(g))
    if g.looks:
        doc.add(Heading("Looks"), _looks_table(g))
    doc.add(Heading("How it was computed"), Paragraph(_methods(g), role="methods"))
    if g.notes:
        doc.add(Heading("Notes"), Bullets(list(g.notes), role="notes"))
    return doc


def _evidence(g) -> str:
    said = (f"This look's e-value is {g.evalue:.3g}" + (
        f"; the e-process over {counted(len(g.looks), 'look')} is {g.eprocess:.3g}"
        if g.eprocess is not None else "") + f" (1/alpha = {1 / g.alpha:g} decides at any"
        " look, however often the gate is asked).")
    if not g.looks:
        said += (" Without --ledger this is one look: keep a ledger (--ledger FILE) to gate"
                 " every run with a false-alarm rate of at most alpha over all of them.")
    return said


def _task_table(g) -> Table:
    level = (1 - 2 * g.alpha) if g.question == "equivalence" else g.confidence
    several = len(g.tasks) > 1
    rows = []
    for t in (*g.tasks[:TASKS_SHOWN], *([g.overall] if several else [])):
        p = Cell(_p(t.p), mark=t.shown and not several)
        row = [t.task, _plain(t.baseline), _plain(t.candidate), _num(t.difference),
               f"[{_short(t.low)}, {_short(t.high)}]", p]
        if several:
            row.append(Cell(_p(t.p_holm), mark=t.shown))
        rows.append(row)
    word = {"regression": "a regression", "non-inferiority": "non-inferiority",
            "equivalence": "equivalence", "superiority": "superiority"}[g.question]
    more = ("" if len(g.tasks) <= TASKS_SHOWN else
            f" The first {TASKS_SHOWN} of {len(g.tasks)} tasks (the JSON has them all).")
    header = ["task", "baseline", "candidate", "difference", f"{100 * level:g}% interval",
              "p"] + (["Holm p"] if several else [])
    return Table(header, rows, "<>>>>>>>"[:len(header)], key="tasks",
                 caption="Difference = candidate - baseline (larger is better); p one-sided"
                         " for the question" + ("; Holm over the tasks; the last row the"
                                                 " macro-average (z test)" if several else "")
                         + f"; * {word} shown at alpha = {g.alpha:g}.{more}")


def _short(x: float) -> str:
    return "n/a" if x != x else f"{x:.2g}"


def _p(p: float) -> str:
    return p_phrase(p).removeprefix("p = ").removeprefix("p ")


def _changed(g) -> list:
    """Per task: its units, and the items that regressed and improved (the first few)."""
    out = []
    unit = "item" if g.units == "items" else "data set"
    for t in g.tasks[:TASKS_SHOWN]:
        said = []
        for word, items in (("regressed", t.regressed), ("improved", t.improved)):
            if items:
                listed = ", ".join(map(str, items[:LISTED]))
                rest = f" and {len(items) - LISTED} more" if len(items) > LISTED else ""
                said.append(f"{len(items)} {word} ({listed}{rest})")
        out.append(f"{t.task} ({counted(t.n, unit)}): " + ("; ".join(said) or "none changed")
                   + ".")
    return out


def _trial_blocks(g) -> list:
    """pass@k and pass^k of both runs with the paired difference of pass@k; then the trials'
    variance split."""
    rows = []
    for tr in g.trials:
        for k in sorted(tr.pass_at.get("baseline", {})):
            rows.append([tr.task, str(k),
                         f"{_plain(tr.pass_at['baseline'][k])} -> "
                         f"{_plain(tr.pass_at['candidate'][k])}",
                         _num(tr.difference[k]),
                         f"[{_short(tr.low[k])}, {_short(tr.high[k])}]",
                         f"{_plain(tr.pass_all['baseline'][k])} -> "
                         f"{_plain(tr.pass_all['candidate'][k])}"])
    blocks = []
    if rows:
        blocks.append(Table(["task", "k", "pass@k", "difference", "95% interval", "pass^k"],
                            rows, "<>>>>>", key="pass_at_k",
                            caption="Baseline -> candidate over the items: pass@k (at least one"
                                    " of k trials right; unbiased, Chen et al. 2021) with the"
                                    " paired difference and its t interval over the items,"
                                    " and pass^k (all k right; Yao et al. 2024)."))
    split = [[tr.task, " / ".join(_trials_text(tr.trials[r]) for r in ("baseline", "candidate")),
              f"{_plain(tr.within['baseline'])} / {_plain(tr.within['candidate'])}",
              f"{_plain(tr.between['baseline'])} / {_plain(tr.between['candidate'])}"]
             for tr in g.trials]
    blocks.append(Table(["task", "trials per item", "within items", "between items"], split,
                        "<>>>", key="trial_variance",
                        caption="Baseline / candidate: trials per item (fewest-most), the"
                                " variance of an item's trials (within) and of the items' true"
                                " means (between, one-way random effects)."))
    return blocks


def _trials_text(pair) -> str:
    lo, hi = pair
    return f"{lo}" if lo == hi else f"{lo}-{hi}"


def _looks_table(g) -> Table:
    rows = [[str(lk["look"]), lk["when"], lk["candidate"], _num(lk["estimate"]),
             "none" if lk["evalue"] is None else f"{lk['evalue']:.3g}",
             "none" if lk["eprocess"] is None else f"{lk['eprocess']:.3g}",
             lk["fixed_n"], lk["decision"]] for lk in g.looks]
    return Table(["look", "when", "candidate", "estimate", "e-value", "e-process",
                  "fixed n", "decision"], rows, "><<>>><<", key="looks",
                 caption=f"The ledger's looks: the e-process is the product of the e-values;"
                         f" an alarm where it reaches 1/alpha = {1 / g.alpha:g} (Ville's"
                         f" inequality bounds the chance of ever reaching it under H0 by"
                         f" alpha). 'fixed n' is the look's own answer, valid once only.")


def _methods(g) -> str:
    test = TEST_NAMES[g.overall.test if len(g.tasks) == 1 else g.tasks[0].test]
    unit = ("each item's mean over its trials, matched by task and item" if g.units == "items"
            else "each data set's score (a lower-is-better criterion turned round), matched"
                 " by data set")
    eq = (" Equivalence: two one-sided tests (TOST), the interval at 1 - 2 alpha."
          if g.question == "equivalence" else "")
    return (f"Per task: {test}, one-sided for the question, on {unit}; the difference's"
            f" interval is Tango's score interval for McNemar's case and the t interval"
            f" otherwise (clustered where items share a context). Overall: the mean of the"
            f" tasks' differences (each task weighs the same), a z test from the tasks'"
            f" standard errors. Holm's procedure over the tasks.{eq} E-value: betting on the"
            f" item differences scaled into [-1, 1] (a mixture of bets, as the race's);"
            f" its product over looks is an e-process.")


def payload(g) -> dict:
    return g.to_dict()
