"""Audit a published board of proportions (models × tasks, as printed): the item counts behind
each task, each score's binomial interval, the models tied with #1 per task and overall, and
what cannot be checked.

The count of a task is given, or recovered as the smallest denominator n for which every printed
score of the task is a fraction k/n rounded as printed (the check of opencompass #2574). It is
called recovered when scores that are not such fractions would fit a denominator that small by
the rounding alone with probability below 1% (Σ_{n' ≤ n} min(1, w·n')^m for m scores rounded
to a width w); otherwise it is a lower bound, and said so. A task that no denominator up to ``MAX_COUNT`` fits is said too (its scores are not
single proportions: averages of sub-tasks, or weighted).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np
import pandas as pd
from scipy import stats

from .._text import counted
from ..errors import RankwiseError
from ..stats.adjust import adjust
from ..stats.items import proportion_interval
from ..stats.results import jsonable
from ..tables.board import read_board
from ..protocol import Analysis

#: The largest item count the recovery tries.
MAX_COUNT = 100_000


@dataclass(frozen=True)
class TaskAudit:
    """One task of the board: its count (``n``; ``how`` says given, recovered, lower bound or
    unknown), the printed decimals, each model's score and Wilson interval, the models tied with
    #1 (unpaired two-proportion tests against the best, Holm; pairing is unknown from a board)."""

    task: str
    decimals: int
    n: int | None
    how: str
    score: np.ndarray
    low: np.ndarray
    high: np.ndarray
    best: str
    tied: tuple

    @property
    def dataset(self) -> str:
        """The task's name: a data set, as the JSON and every analysis name it."""
        return self.task


@dataclass(frozen=True, repr=False)
class Audit(Analysis):
    """The audit of a board (:func:`audit`); ``settings`` echoes the options it ran with
    (``alpha``, ``confidence``, the intervals' method, the counts given, ``percent``,
    ``max_count``), and :mod:`rankwise.report.audit` presents it in every format.

    Examples
    --------
    >>> import pandas as pd
    >>> from rankwise.analysis.audit import audit
    >>> board = pd.DataFrame({"model": ["A", "B"], "MATH": ["65.5", "63.0"],
    ...                       "HumanEval": ["83.5", "86.6"]})
    >>> a = audit(board, counts={"MATH": 5000, "HumanEval": 164})
    >>> [t.tied for t in a.tasks]
    [('A',), ('B', 'A')]
    >>> a.schema, a.settings["confidence"]
    ('rankwise.audit/2', 0.95)
    """

    kind: ClassVar[str] = "audit"
    # 2: compare's words for the keys (learners, datasets, per_dataset, dataset; 1 had
    # models, tasks, task). 1: the first versioned schema (before it, {"kind": "audit", ...}
    # with no id; the keys are those of then, with ``settings`` added).
    version: ClassVar[int] = 2

    source: str
    models: tuple
    tasks: tuple
    percent: bool
    alpha: float
    overall_best: str | None
    overall_tied: tuple
    overall_note: str
    notes: tuple
    settings: dict = field(default_factory=dict)

    @property
    def confidence(self) -> float:
        """The level of the score intervals."""
        return float(self.settings.get("confidence", 0.95))

    @property
    def learners(self) -> tuple:
        """The board's models: the learners, as the JSON and every analysis name them."""
        return self.models

    def to_dict(self) -> dict:
        """The audit as JSON data, in compare's words: the board's models are ``learners``, its
        tasks ``datasets`` (their names), each task's audit an entry of ``per_dataset``."""
        return {"kind": "audit", "source": self.source, "learners": list(self.models),
                "datasets": [t.task for t in self.tasks],
                "percent": self.percent, "alpha": self.alpha,
                "per_dataset": [{"dataset": t.task, "decimals": t.decimals, "n": t.n,
                                 "count": t.how, "score": jsonable(t.score),
                                 "low": jsonable(t.low), "high": jsonable(t.high),
                                 "best": t.best, "tied_with_best": list(t.tied)}
                                for t in self.tasks],
                "overall": {"best": self.overall_best, "tied_with_best": list(self.overall_tied),
                            "how": self.overall_note},
                "settings": jsonable(self.settings), "notes": list(self.notes)}


def _decimals(text: str) -> int:
    m = re.search(r"\.(\d+)", text)
    return len(m.group(1)) if m else 0


def smallest_denominator(values, half: float, max_count: int = MAX_COUNT) -> int | None:
    """The smallest n ≤ ``max_count`` such that every value is within ``half`` of some k/n
    (0 ≤ k ≤ n), or None.

    Examples
    --------
    >>> from rankwise.analysis.audit import smallest_denominator
    >>> smallest_denominator([0.333, 0.667, 1.0], half=0.0005)
    3
    """
    v = np.asarray(values, dtype=float)
    for start in range(1, max_count + 1, 4096):
        n = np.arange(start, min(start + 4096, max_count + 1), dtype=float)[:, None]
        k = np.clip(np.rint(v[None, :] * n), 0, n)
        fits = (np.abs(k / n - v[None, :]) <= half * (1 + 1e-9) + 1e-12).all(axis=1)
        if fits.any():
            return int(n[np.argmax(fits), 0])
    return None


def _chance(n: int, half: float, m: int) -> float:
    """How likely ``m`` scores that are not fractions of a small count would, by the rounding
    alone, all fit some denominator up to ``n``: Σ_{n' ≤ n} min(1, 2·half·n')^m (a score lies
    within ``half`` of a multiple of 1/n' with probability 2·half·n')."""
    sizes = np.arange(1, n + 1, dtype=float)
    return float(np.minimum(1.0, 2 * half * sizes) .__pow__(m).sum())


def audit(board, *, counts: dict | None = None, alpha: float = 0.05,
          confidence: float = 0.95, percent: bool | None = None,
          max_count: int = MAX_COUNT) -> Audit:
    """Audit a board of proportions as printed (a CSV file or a DataFrame of strings: models in
    the first column, one column per task).

    ``counts``: the item count of some tasks (the others are recovered). ``percent``: whether
    the scores are percentages (default: when any exceeds 1). ``confidence``: the level of each
    score's Wilson interval (echoed in ``settings`` and printed in every format); ``alpha``:
    the level of the tied-with-#1 decisions.

    Examples
    --------
    >>> import pandas as pd
    >>> from rankwise.analysis.audit import audit
    >>> board = pd.DataFrame({"model": ["A", "B", "C"],
    ...                       "task": ["0.333", "0.667", "1.000"]})
    >>> t = audit(board).tasks[0]
    >>> t.n, t.how
    (3, 'recovered')
    """
    from .. import _validate as check

    check.alpha(alpha)   # the options before the board is read
    level = check.confidence(confidence)
    counts = check.counts("counts", counts)
    from ..tables.frames import as_pandas

    board = as_pandas(board)
    source = "DataFrame" if isinstance(board, pd.DataFrame) else str(board)
    models, texts, values = read_board(board, source)
    unknown = set(counts) - set(texts.columns)
    if unknown:
        raise RankwiseError(f"--counts names tasks not on the board: {', '.join(sorted(unknown))}"
                            f" (its tasks: {', '.join(texts.columns)})")
    if percent is None:
        percent = bool((values.to_numpy() > 1).any())
    scale = 100.0 if percent else 1.0
    p = values.to_numpy(dtype=float) / scale
    if (p < 0).any() or (p > 1).any():
        raise RankwiseError(f"{source}: scores must be proportions (0 to 1) or percentages"
                            f" (0 to 100)")
    tasks, notes = [], []
    for j, task in enumerate(texts.columns):
        d = max(_decimals(t) for t in texts[task])
        half = 0.5 * 10.0 ** -d / scale
        if task in counts:
            n, how = int(counts[task]), "given"
            _fits(p[:, j], half, n, task, texts[task], models, notes)
        else:
            n = smallest_denominator(p[:, j], half, max_count)
            if n is None:
                how = "unknown"
                notes.append(f"{task}: no item count up to {max_count:,} fits every score as"
                             f" printed: the scores are not single proportions (averages or"
                             f" weighted); nothing about this task can be checked")
            elif _chance(n, half, len(models)) >= 0.01:
                how = "lower bound"
                notes.append(f"{task}: scores rounded to {counted(d, 'decimal')} fit {n}"
                             f" items already; the rounding is too coarse to tell the count"
                             f" (give it with --counts {task}=N); intervals use n = {n}, a"
                             f" lower bound, so they are at least this wide")
            else:
                how = "recovered"
        score = p[:, j]
        if n is None:
            low = high = np.full(len(models), np.nan)
            best = models[int(np.argmax(score))]
            tasks.append(TaskAudit(task, d, None, how, score, low, high, best, (best,)))
            continue
        tasks.append(_task_audit(task, d, n, how, score, models, level, alpha))
    overall_best, overall_tied, how = _overall(p, texts.columns, models, alpha, source)
    notes.append("Per task, each model against the task's best by the unpaired two-proportion"
                 " z-test (one-sided, Holm): a board does not say which items each model got"
                 " right, so the paired test, often far more powerful, cannot be run; a model"
                 " 'tied' here may still differ on the items.")
    settings = {"alpha": alpha, "confidence": level, "interval": "wilson",
                "counts": {task: int(n) for task, n in counts.items()}, "percent": percent,
                "max_count": max_count}
    return Audit(source, models, tuple(tasks), percent, alpha, overall_best, overall_tied, how,
                 tuple(notes), settings)


def _fits(score, half: float, n: int, task: str, printed, models, notes: list) -> None:
    """A given count that some printed score can be a fraction of (within its rounding): one
    line when none can (``--counts`` contradicted by the whole board), a note naming those
    that cannot (an average over samples, say) when only some can."""
    off = np.abs(np.rint(score * n) / n - score) > half * (1 + 1e-9) + 1e-12
    if off.all():
        i = int(np.flatnonzero(off)[0])
        raise RankwiseError(f"--counts {task}={n}: no score of {task} is a fraction of {n} items"
                            f" as printed ({models[i]}'s {printed.iloc[i]}: the nearest is"
                            f" {int(np.rint(score[i] * n))}/{n} = {np.rint(score[i] * n) / n:.6g});"
                            f" check the count, or leave it out to recover it")
    if off.any():
        notes.append(f"{task}: the scores of {', '.join(str(m) for m, o in zip(models, off) if o)}"
                     f" are no fractions of the {n} items given (averages over samples?);"
                     f" their intervals take them as they are")


def _task_audit(task, d, n, how, score, models, level, alpha) -> TaskAudit:
    """One task of known count ``n``: each score's Wilson interval at ``level``, and the
    models not significantly below the best (unpaired two-proportion z-tests, Holm)."""
    hits = np.clip(np.rint(score * n), 0, n)
    low, high = proportion_interval(hits, n, confidence=level, method="wilson")
    b = int(np.argmax(score))
    others = [i for i in range(len(models)) if i != b]
    pooled = (hits[b] + hits[others]) / (2 * n)
    se = np.sqrt(pooled * (1 - pooled) * 2 / n)
    with np.errstate(divide="ignore", invalid="ignore"):
        zval = np.where(se > 0, (score[b] - score[others]) / se, 0.0)
    pv = stats.norm.sf(zval)
    apv = adjust(pv, "holm") if len(pv) else pv
    tied = [b] + [i for i, a in zip(others, apv) if a > alpha]
    tied = tuple(models[i] for i in sorted(tied, key=lambda i: -score[i]))
    return TaskAudit(task, d, n, how, score, np.asarray(low), np.asarray(high), models[b], tied)


def _overall(p, tasks, models, alpha, source) -> tuple:
    """``(best, tied, how)`` across the tasks: compare's verdict with the tasks as data sets
    (nothing with one task)."""
    if len(tasks) < 2:
        return None, (), "one task: nothing across tasks"
    from ..tables.table import ScoreTable
    from . import compare

    table = ScoreTable(values=p.T, datasets=tuple(tasks), learners=models,
                       higher_is_better=True, direction_source="source", criterion="score",
                       source=source)
    verdict = compare(table, alpha=alpha).verdict
    if verdict.best is None:
        return None, (), verdict.text.split(". ")[0]
    return verdict.best, tuple(verdict.winners), _overall_how(verdict, len(tasks))


def _overall_how(verdict, tasks: int) -> str:
    """How the overall verdict was reached, as it was: the omnibus test and, where it
    rejects, the procedure against the best (by its display name); two models: their test."""
    from ..names import procedure_title, test_title
    from ..stats.results import p_phrase

    over = f"over {tasks} tasks as data sets"
    gate = verdict.gate
    if gate is None:   # two models: the verdict's own test decided
        return f"the Wilcoxon signed-ranks test, {over}"
    if not gate.passed:
        return (f"{test_title(gate.test)} does not reject that all models perform alike"
                f" ({p_phrase(gate.pvalue)}) {over}, so none is shown worse than the best")
    return (f"{test_title(gate.test)} rejects that all models perform alike"
            f" ({p_phrase(gate.pvalue)}) {over}; then each model against the best-ranked by"
            f" {procedure_title(verdict.procedure)}")


def audit_text(a: Audit, width: int | None = 80) -> str:
    """The audit as plain text (:mod:`rankwise.report.audit` lays it out, as every format)."""
    return a.render("text", width=width)
