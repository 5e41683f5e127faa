"""Two runs matched unit by unit for :func:`rankwise.gate`: the baseline's and the candidate's
scores on the same items of the same tasks (scored items), or on the same data sets (score
tables), with every repeated trial counted, and what only one run has counted too.

A run of scored items may hold several trials of an item (inspect_ai's epochs, lm-eval's
repeats, SWE-bench's or tau-bench's trials): they are kept as counts (``n`` trials, ``s`` their
sum, ``q`` the sum of squares), so the per-item mean, pass@k and pass^k and the within-item
variance come from one pass over the rows, whatever the number of trials.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._text import counted
from ..errors import RankwiseError

#: What ``unmatched`` may be: an item or task only one run has is an error, or left out (and
#: counted in the report).
UNMATCHED = ("refuse", "drop")
#: The task a score table's data sets form (each data set one unit of the paired test).
DATASETS_TASK = "data sets"


@dataclass(frozen=True)
class Matched:
    """The units both runs have, one row each (``frame``: ``task``, ``item``, ``cluster`` and
    for each run ``b_n``/``c_n`` trials, ``b_s``/``c_s`` their sums, ``b_q``/``c_q`` their sums
    of squares), the runs' names, what was left out, and how the units were read.

    ``units`` is ``items`` (scored items) or ``datasets`` (a score table: each data set a unit,
    oriented so that a larger value is better); ``binary``: every score is 0 or 1."""

    frame: pd.DataFrame
    baseline: str
    candidate: str
    units: str
    binary: bool
    higher_is_better: bool
    only_baseline: dict
    only_candidate: dict
    notes: tuple
    criterion: str | None = None
    #: Whether items share clusters (else every item is a cluster of its own).
    clustered: bool = False

    @property
    def tasks(self) -> tuple:
        return tuple(self.frame["task"].cat.categories)

    @property
    def trials(self) -> bool:
        """Whether any item has more than one trial in either run."""
        return bool((self.frame["b_n"] > 1).any() or (self.frame["c_n"] > 1).any())

    def difference(self) -> np.ndarray:
        """Per unit: the candidate's mean minus the baseline's (larger is better)."""
        f = self.frame
        return f["c_s"].to_numpy() / f["c_n"].to_numpy() - f["b_s"].to_numpy() / f["b_n"].to_numpy()


def pick(models: tuple, chosen: str | None, run: str, flag: str) -> str:
    """The one learner of a run: its only one, or the one named by ``flag``."""
    if chosen is not None:
        if chosen not in models:
            raise RankwiseError(f"the {run} has no learner named {chosen!r}; it has"
                                f" {_listed(models)} (give one to {flag})")
        return chosen
    if len(models) != 1:
        raise RankwiseError(f"the {run} holds {counted(len(models), 'learner')}"
                            f" ({_listed(models)}); name the one to gate with {flag}")
    return models[0]


def _listed(names, most: int = 6) -> str:
    names = list(map(str, names))
    more = len(names) - most
    return ", ".join(names[:most]) + (f" and {more} more" if more > 0 else "")


@dataclass(frozen=True)
class _Counts:
    """One run's units: per (task, item), in the order read, the category codes of its task
    and item (``tasks``, ``items``: the labels), its trials ``n``, their sum ``s`` and sum of
    squares ``q``, and its cluster's label (None without clusters)."""

    task: np.ndarray
    item: np.ndarray
    tasks: np.ndarray
    items: np.ndarray
    n: np.ndarray
    s: np.ndarray
    q: np.ndarray
    cluster: np.ndarray | None


def _item_counts(frame: pd.DataFrame, model: str) -> _Counts:
    """One run's units, grouped on the labels' category codes (10 million rows in a second or
    two: no label is made per row, only per item), in the order of the codes (tasks, then
    items, each in its labels' sorted order)."""
    rows = frame[(frame["model"] == model).to_numpy()]
    task, item = rows["task"].cat, rows["item"].cat
    width = len(item.categories)
    key = task.codes.to_numpy().astype(np.int64) * width + item.codes.to_numpy()
    if len(key) and key.max() < 4 * len(key):     # dense keys: counted, not hashed
        present = np.bincount(key, minlength=int(key.max()) + 1) > 0
        uniq = np.flatnonzero(present)
        codes = np.cumsum(present)[key] - 1
    else:
        codes, uniq = pd.factorize(key, sort=True)   # the same order as the counted keys
    score = rows["score"].to_numpy(dtype=float)
    g = len(uniq)
    cluster = None
    if "cluster" in rows:
        first = np.empty(g, dtype=np.int64)
        first[codes] = np.arange(len(codes))     # a row of each item (one cluster an item)
        cl = rows["cluster"].astype("category").cat
        at = cl.codes.to_numpy()[first]
        labels = _labels(cl.categories)
        own = np.char.add("\x00", _labels(item.categories)[uniq % width].astype(str))
        # an item without a cluster is a cluster of its own (as compare's items count it)
        cluster = np.where(at >= 0, labels[np.maximum(at, 0)] if len(labels) else own,
                           own.astype(object))
    return _Counts(uniq // width, uniq % width, _labels(task.categories),
                   _labels(item.categories), np.bincount(codes, minlength=g).astype(float),
                   np.bincount(codes, score, g), np.bincount(codes, score * score, g), cluster)


def _labels(index) -> np.ndarray:
    """A categorical's labels as strings (an Arrow-backed index converted at once, not label by
    label)."""
    return np.asarray(index.astype(str).to_numpy(dtype=object), dtype=object)


def _only_of(counts: _Counts, rows) -> dict:
    """task -> the items (of ``rows``) only this run has, in the order read."""
    out: dict = {}
    for t, i in zip(counts.tasks[counts.task[rows]], counts.items[counts.item[rows]]):
        out.setdefault(t, []).append(i)
    return {t: tuple(v) for t, v in out.items()}


def match_items(baseline, candidate, *, baseline_learner=None, candidate_learner=None,
                unmatched: str = "refuse") -> Matched:
    """Match two :class:`~rankwise.tables.items.ItemTable` runs item by item within each task
    (grouped by task in the baseline's order of tasks, items as read within a task)."""
    b_name = pick(baseline.models, baseline_learner, "baseline", "--baseline-learner")
    c_name = pick(candidate.models, candidate_learner, "candidate", "--candidate-learner")
    b = _item_counts(baseline.frame, b_name)
    c = _item_counts(candidate.frame, c_name)
    # the candidate's labels in the baseline's codes (-1: a label the baseline lacks)
    t_map = pd.Index(b.tasks).get_indexer(c.tasks)
    i_map = pd.Index(b.items).get_indexer(c.items)
    width = max(len(b.items), 1)
    ct, ci = t_map[c.task], i_map[c.item]
    c_key = np.where((ct >= 0) & (ci >= 0), ct.astype(np.int64) * width + ci, -1)
    b_key = b.task.astype(np.int64) * width + b.item
    at = pd.Index(c_key).get_indexer(b_key)          # each baseline unit's candidate unit
    in_b = np.zeros(len(c_key), dtype=bool)
    in_b[at[at >= 0]] = True
    keep = at >= 0
    only_b = _only_of(b, ~keep) if not keep.all() else {}
    only_c = _only_of(c, ~in_b) if not in_b.all() else {}
    _refuse_unmatched(only_b, only_c, unmatched, "item")
    if not keep.any():
        raise RankwiseError("the baseline and the candidate share no item of any task; check"
                            " that both runs are of the same tasks (their task and item names"
                            " must match)")
    rows, other = np.flatnonzero(keep), at[keep]
    # grouped by task, the tasks in the order the baseline's file has them
    present = np.zeros(len(b.tasks), dtype=bool)
    present[b.task[rows]] = True
    first = pd.Index(b.tasks).get_indexer(list(baseline.tasks))
    first = first[(first >= 0) & present[np.maximum(first, 0)]]
    rank = np.empty(len(b.tasks), dtype=np.int64)
    rank[first] = np.arange(len(first))
    order = np.argsort(rank[b.task[rows]], kind="stable")
    rows, other = rows[order], other[order]
    task = pd.Categorical.from_codes(rank[b.task[rows]], categories=b.tasks[first])
    both = pd.DataFrame({"task": task, "item": b.items[b.item[rows]],
                         "b_n": b.n[rows], "b_s": b.s[rows], "b_q": b.q[rows],
                         "c_n": c.n[other], "c_s": c.s[other], "c_q": c.q[other]})
    cluster = b.cluster[rows] if b.cluster is not None else (
        c.cluster[other] if c.cluster is not None else None)
    both["cluster"] = cluster if cluster is not None else both["item"].to_numpy()
    binary = all(bool(np.all((t.frame["score"].to_numpy() == 0)
                             | (t.frame["score"].to_numpy() == 1))) for t in (baseline, candidate))
    notes = tuple(dict.fromkeys((*baseline.notes, *candidate.notes)))
    return Matched(both, b_name, c_name, "items", binary, True, only_b, only_c, notes,
                   criterion=baseline.metric or candidate.metric, clustered=cluster is not None)


def match_tables(baseline, candidate, *, baseline_learner=None, candidate_learner=None,
                 unmatched: str = "refuse") -> Matched:
    """Match two score tables (:class:`~rankwise.tables.ScoreTable`) data set by data set: each
    data set is one unit of the paired test, its score the table's (mean of folds)."""
    if baseline.higher_is_better != candidate.higher_is_better:
        raise RankwiseError("the baseline is read as "
                            + ("higher" if baseline.higher_is_better else "lower")
                            + " is better and the candidate as the other; give both the same"
                            " direction (--higher-is-better or --lower-is-better)")
    b_name = pick(baseline.learners, baseline_learner, "baseline", "--baseline-learner")
    c_name = pick(candidate.learners, candidate_learner, "candidate", "--candidate-learner")
    sign = 1.0 if baseline.higher_is_better else -1.0
    b = pd.DataFrame({"item": [str(d) for d in baseline.datasets],
                      "b_s": sign * baseline.column(b_name)})
    c = pd.DataFrame({"item": [str(d) for d in candidate.datasets],
                      "c_s": sign * candidate.column(c_name)})
    b, c = b[np.isfinite(b["b_s"])], c[np.isfinite(c["c_s"])]
    both = b.merge(c, on="item", how="outer", indicator=True, sort=False)
    both["task"] = DATASETS_TASK
    only_b = _only(both[both["_merge"] == "left_only"])
    only_c = _only(both[both["_merge"] == "right_only"])
    _refuse_unmatched(only_b, only_c, unmatched, "data set")
    both = both[both["_merge"] == "both"].drop(columns="_merge")
    if both.empty:
        raise RankwiseError("the baseline and the candidate share no data set; their data set"
                            " names must match")
    both["task"] = pd.Categorical(both["task"], categories=[DATASETS_TASK])
    both["cluster"] = both["item"]
    for run in ("b", "c"):
        both[f"{run}_n"] = 1.0
        both[f"{run}_q"] = both[f"{run}_s"] ** 2
    notes = tuple(dict.fromkeys((*baseline.warnings, *candidate.warnings)))
    values = np.concatenate([both["b_s"].to_numpy(), both["c_s"].to_numpy()])
    binary = bool(np.all((values == 0) | (values == 1)))
    return Matched(both.reset_index(drop=True), b_name, c_name, "datasets", binary,
                   baseline.higher_is_better, only_b, only_c, notes,
                   criterion=baseline.criterion or candidate.criterion)


def _only(rows: pd.DataFrame) -> dict:
    """task -> the items only one run has (in the order read)."""
    return {task: tuple(items) for task, items in rows.groupby("task", sort=False)["item"]}


def _refuse_unmatched(only_b: dict, only_c: dict, unmatched: str, unit: str) -> None:
    if unmatched not in UNMATCHED:
        raise RankwiseError(f"--unmatched must be one of {', '.join(UNMATCHED)}; got"
                            f" {unmatched!r}")
    if unmatched == "drop" or not (only_b or only_c):
        return
    said = []
    for run, only in (("the baseline", only_b), ("the candidate", only_c)):
        if only:
            n = sum(len(v) for v in only.values())
            task, items = next(iter(only.items()))
            said.append(f"{run} has {counted(n, unit)} the other lacks (first: {items[0]!r}"
                        f" of {task!r})")
    raise RankwiseError("; ".join(said) + "; give --unmatched drop to gate on the units both"
                        " runs have (the report counts the rest)")


def unmatched_count(only: dict) -> int:
    return sum(len(v) for v in only.values())
