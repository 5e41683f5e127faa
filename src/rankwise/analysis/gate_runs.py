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


def _item_counts(frame: pd.DataFrame, model: str, prefix: str) -> pd.DataFrame:
    """One row per (task, item) of ``model``: its trials, their sum and sum of squares."""
    rows = frame[frame["model"] == model]
    score = rows["score"].to_numpy(dtype=float)
    keys = pd.DataFrame({"task": rows["task"].astype(str).to_numpy(),
                         "item": rows["item"].astype(str).to_numpy(),
                         "s": score, "q": score * score, "n": np.ones(len(rows))})
    if "cluster" in rows:
        keys["cluster"] = rows["cluster"].astype(str).to_numpy()
    agg = {"n": ("n", "sum"), "s": ("s", "sum"), "q": ("q", "sum")}
    if "cluster" in keys:
        agg["cluster"] = ("cluster", "first")
    out = keys.groupby(["task", "item"], sort=False, observed=True).agg(**agg).reset_index()
    return out.rename(columns={"n": f"{prefix}_n", "s": f"{prefix}_s", "q": f"{prefix}_q"})


def match_items(baseline, candidate, *, baseline_learner=None, candidate_learner=None,
                unmatched: str = "refuse") -> Matched:
    """Match two :class:`~rankwise.tables.items.ItemTable` runs item by item within each task."""
    b_name = pick(baseline.models, baseline_learner, "baseline", "--baseline-learner")
    c_name = pick(candidate.models, candidate_learner, "candidate", "--candidate-learner")
    b = _item_counts(baseline.frame, b_name, "b")
    c = _item_counts(candidate.frame, c_name, "c")
    clusters = "cluster" in b or "cluster" in c
    if "cluster" in b and "cluster" in c:
        c = c.drop(columns="cluster")
    both = b.merge(c, on=["task", "item"], how="outer", indicator=True, sort=False)
    only_b = _only(both, "left_only")
    only_c = _only(both, "right_only")
    _refuse_unmatched(only_b, only_c, unmatched, "item")
    both = both[both["_merge"] == "both"].drop(columns="_merge")
    if both.empty:
        raise RankwiseError("the baseline and the candidate share no item of any task; check"
                            " that both runs are of the same tasks (their task and item names"
                            " must match)")
    both["task"] = pd.Categorical(both["task"], categories=list(dict.fromkeys(both["task"])))
    if not clusters:
        both["cluster"] = both["item"]
    scores = np.concatenate([baseline.frame["score"].to_numpy(), candidate.frame["score"]
                             .to_numpy()])
    binary = bool(np.all((scores == 0) | (scores == 1)))
    notes = tuple(dict.fromkeys((*baseline.notes, *candidate.notes)))
    return Matched(both.reset_index(drop=True), b_name, c_name, "items", binary, True, only_b,
                   only_c, notes, criterion=baseline.metric or candidate.metric)


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
    only_b, only_c = _only(both, "left_only"), _only(both, "right_only")
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


def _only(both: pd.DataFrame, side: str) -> dict:
    """task -> the items only one run has (in the order read)."""
    rows = both[both["_merge"] == side]
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
