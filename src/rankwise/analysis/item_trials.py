"""Repeated trials of a task's items in an item-level comparison: per model the trials per
item, the mean, pass@k and pass^k, and the split of the trials' variance.

``compare --items`` averages an item's repeats into one score for its paired tests; this keeps
what the average hides, as the gate does for its two runs (:mod:`rankwise.analysis.gate`):
pass@k, the chance that at least one of k trials succeeds, and pass^k, that all k do
(:mod:`rankwise.stats.trials`), for k = 1 and the fewest trials of any item of the task (so
every model of the task is estimated at the same k), and the within- and between-item
variances of the one-way random-effects analysis of variance.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..stats.results import jsonable
from ..stats.trials import pass_at_k, pass_hat_k, trial_variance_from_sums


@dataclass(frozen=True)
class TaskTrials:
    """One task's repeated trials; every array follows the task's models.

    ``trials``: models × 2, the fewest and most trials of an item; ``mean``: the mean over the
    items of each item's mean over its trials (each item counted once, weights not applied);
    ``pass_at``, ``pass_hat``: per k, pass@k and pass^k averaged over the items (empty unless
    the scores are 0/1); ``within``, ``between``: σ²_within and σ²_between (NaN where no item
    of the model has two trials, or the task has one item).
    """

    task: str
    models: tuple
    trials: np.ndarray
    mean: np.ndarray
    pass_at: dict
    pass_hat: dict
    within: np.ndarray
    between: np.ndarray

    @property
    def ks(self) -> tuple:
        return tuple(self.pass_at)

    def to_dict(self) -> dict:
        return jsonable({"dataset": self.task, "trials": self.trials.tolist(),
                         "mean": self.mean, "pass_at_k": self.pass_at,
                         "pass_hat_k": self.pass_hat, "within_item_variance": self.within,
                         "between_item_variance": self.between})


def task_trials(task, binary: bool) -> TaskTrials:
    """The repeated trials of ``task`` (an :class:`~rankwise.tables.items.ItemTask`); pass@k
    and pass^k only where ``binary`` (0/1 scores: c successes in n trials). Every item and
    model at once: no loop over the items."""
    if task.trials is None:          # one trial of every item
        n = np.ones(task.scores.shape)
        sums, squares = task.scores, task.scores ** 2
    else:
        n, sums, squares = (np.asarray(a, dtype=float) for a in task.trials)
    fewest = int(n.min())
    span = np.column_stack([n.min(axis=0), n.max(axis=0)]).astype(int)
    mean = (sums / n).mean(axis=0)
    pass_at, pass_hat = {}, {}
    if binary:
        c = np.rint(sums)
        for k in sorted({1, fewest}):
            pass_at[k] = pass_at_k(n, c, k).mean(axis=0)
            pass_hat[k] = pass_hat_k(n, c, k).mean(axis=0)
    within = np.full(len(task.models), np.nan)
    between = np.full(len(task.models), np.nan)
    # the split needs two items and an item with two trials (per model: one call each,
    # vectorised over the items)
    for j in np.flatnonzero(n.sum(axis=0) > n.shape[0]) if n.shape[0] > 1 else ():
        split = trial_variance_from_sums(n[:, j], sums[:, j], squares[:, j])
        within[j], between[j] = float(split.within), float(split.between)
    return TaskTrials(task.name, tuple(task.models), span, mean, pass_at, pass_hat, within,
                      between)
