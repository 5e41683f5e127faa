"""One task of an experiment: a (data set, repeat, fold, learner), trained and evaluated.

- Splits depend only on (seed, data set, repeat) and are stratified, so every learner sees the
  same folds; learners get ``random_state`` from (seed, data set, repeat, fold, learner).
- Each task runs with one thread (threadpoolctl) and returns its criteria; the driver commits it
  at once, in one transaction (:mod:`rankwise.experiment.store`). Re-running on the same results file
  continues with exactly the missing tasks.
- Execution: in-process (``jobs=0``), a local process pool (``jobs ≥ 1``, default 1; a learner
  that kills its worker is isolated and recorded as failed), or Dask (``dask_scheduler``: an
  address, a scheduler file, or ``"local"`` for a LocalCluster). Results are identical in every
  mode, except the measured fit and predict times.
"""

from __future__ import annotations

import signal
import threading
import time
import traceback
import warnings
from dataclasses import dataclass

import numpy as np

from ..errors import RankwiseError
from .criteria import class_scores, evaluate
from .datasets import DatasetSpec, load_dataset
from .design import Learner, derive_seed


@dataclass(frozen=True)
class Task:
    dataset: DatasetSpec
    dataset_hash: str
    repeat: int
    fold: int
    learner: Learner
    criteria: tuple
    seed: int
    folds: int
    time_limit: float | None = None
    budgets: tuple = ()

    @property
    def key(self) -> tuple:
        return (self.dataset.name, self.repeat, self.fold, self.learner.name)

    @property
    def identity(self) -> str:
        return task_identity(self.dataset_hash, self.seed, self.folds, self.repeat, self.fold,
                             self.learner.identity, self.criteria, self.budgets)


def task_identity(dataset_hash, seed, folds, repeat, fold, learner_identity, criteria,
                  budgets=()) -> str:
    """What a stored result belongs to: the data set's content, the split (seed, folds, repeat,
    fold), the learner's identity and the criteria. A result is reused only for this task."""
    import hashlib
    import json

    parts = [dataset_hash, int(seed), int(folds), int(repeat), int(fold), learner_identity,
             sorted(criteria)]
    if budgets:  # a plain task keeps the identity it always had
        parts.append([float(b) for b in budgets])
    body = json.dumps(parts)
    return hashlib.sha256(body.encode()).hexdigest()[:24]


class TaskTimeout(Exception):
    pass


_DATASETS: dict = {}
_SPLITS: dict = {}
_LIMITED = [False]  # this process's thread pools are already limited to one thread


def _one_thread():
    """Limit BLAS/OpenMP pools to one thread for the rest of this (worker) process: doing it once
    costs nothing per task, where a per-task context manager costs milliseconds."""
    if not _LIMITED[0]:
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=1)
        _LIMITED[0] = True


def cached_dataset(spec: DatasetSpec):
    """Each process loads a data set once."""
    key = repr(spec.to_dict())
    if key not in _DATASETS:
        _DATASETS[key] = load_dataset(spec)
    return _DATASETS[key]


def fold_indices(y, seed: int, dataset: str, repeat: int, folds: int) -> list:
    """(train, test) index arrays of one repeat: stratified, shuffled by the derived seed."""
    import warnings

    from sklearn.model_selection import StratifiedKFold

    skf = StratifiedKFold(n_splits=folds, shuffle=True,
                          random_state=derive_seed(seed, "split", dataset, repeat))
    with warnings.catch_warnings():
        # A class with fewer members than folds is allowed; it is then absent from some folds.
        warnings.simplefilter("ignore", UserWarning)
        return list(skf.split(np.zeros(len(y)), y))


def budget_subset(y_train, fraction: float, seed: int, dataset: str, repeat: int,
                  fold: int) -> np.ndarray:
    """Positions in the training part of a learning-curve fraction: per class, the first
    ⌈fraction · n_c⌉ (at least one) of a permutation seeded by (seed, data set, repeat, fold), so
    the fractions are nested and stratified; in the training part's own order."""
    if fraction >= 1.0:
        return np.arange(len(y_train))
    rng = np.random.default_rng(derive_seed(seed, "budget", dataset, repeat, fold))
    keep = []
    for c in np.unique(y_train.astype(str)):
        members = np.flatnonzero(y_train.astype(str) == c)
        order = members[rng.permutation(members.size)]
        keep.append(order[:max(1, int(np.ceil(fraction * members.size - 1e-9)))])
    return np.sort(np.concatenate(keep))


def build_pipeline(learner: Learner, data, random_state: int):
    """The learner, preceded by imputation and one-hot encoding when the data need them (fitted
    on the training part only, as part of the pipeline)."""
    est = learner.build()
    params = est.get_params(deep=True)
    seeds = {k: random_state for k, v in params.items() if k.endswith("random_state") and v is None}
    if seeds:
        est.set_params(**seeds)
    if not data.nominal and not data.has_missing:
        return est, False
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import OneHotEncoder

    numeric = [c for c in data.X.columns if c not in data.nominal]
    parts = []
    if numeric:
        parts.append(("num", SimpleImputer(strategy="median", keep_empty_features=True), numeric))
    if data.nominal:
        parts.append(("cat", Pipeline([
            ("impute", SimpleImputer(strategy="most_frequent", missing_values=np.nan)),
            ("onehot", OneHotEncoder(handle_unknown="ignore"))]), list(data.nominal)))
    return Pipeline([("prepare", ColumnTransformer(parts)), ("learner", est)]), True


def _alarm(signum, frame):
    raise TaskTimeout


def _split(data, task: Task):
    key = (data.name, data.content_hash, task.seed, task.repeat, task.folds)
    if key not in _SPLITS:
        if len(_SPLITS) > 256:
            _SPLITS.clear()
        _SPLITS[key] = fold_indices(data.y, task.seed, data.name, task.repeat, task.folds)
    return _SPLITS[key][task.fold]


def _fit_score(task: Task, data, train, test, X, frame: bool, noted: list,
               model=None) -> dict:
    """Fit the task's learner (``model``, or a new one with the same random_state) on
    ``train`` and score it on ``test``; the learner's warnings are added to ``noted`` (they
    belong to the task's record, not to the terminal)."""
    if model is None:
        model, _ = build_pipeline(task.learner, data, derive_seed(
            task.seed, "learner", data.name, task.repeat, task.fold, task.learner.name))
    X_train = X.iloc[train] if frame else X[train]
    X_test = X.iloc[test] if frame else X[test]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        start = time.perf_counter()
        model.fit(X_train, data.y[train])
        fitted = time.perf_counter()
        pred = model.predict(X_test)
        predicted = time.perf_counter()
        classes = [str(c) for c in getattr(model, "classes_", data.classes)]
        scores = class_scores(model, X_test, classes)
    noted.extend(m for m in dict.fromkeys(f"{w.category.__name__}:"
                                          f" {str(w.message).splitlines()[0]}" for w in caught)
                 if m not in noted)
    values = evaluate(task.criteria, data.y[test], np.asarray(pred).astype(str).astype(object),
                      scores, classes, data.positive)
    values["fit_time"] = (fitted - start, None)
    values["predict_time"] = (predicted - fitted, None)
    return values


def run_task(task: Task, limit_threads: bool = True) -> dict:
    """Fit on N−1 parts, test on the last; never raises (a failure is a result).

    ``limit_threads``: limit this process's thread pools to one thread first (workers); the
    in-process mode limits them around the whole run instead.
    """
    if limit_threads:
        _one_thread()
    key = task.key
    use_alarm = (task.time_limit is not None and hasattr(signal, "SIGALRM")
                 and threading.current_thread() is threading.main_thread())
    try:
        data = cached_dataset(task.dataset)
        if data.content_hash != task.dataset_hash:
            raise RankwiseError(f"data set {data.name!r} differs from the one the run started"
                                " with (content hash)")
        train, test = _split(data, task)
        model, frame = build_pipeline(task.learner, data, derive_seed(
            task.seed, "learner", data.name, task.repeat, task.fold, task.learner.name))
        X = data.X if frame else data.X.to_numpy(dtype=float)
        if use_alarm:
            signal.signal(signal.SIGALRM, _alarm)
            signal.setitimer(signal.ITIMER_REAL, float(task.time_limit))
        noted: list = []
        values = _fit_score(task, data, train, test, X, frame, noted, model=model)
        if use_alarm and not task.budgets:  # with budgets the limit covers every fit
            signal.setitimer(signal.ITIMER_REAL, 0)
        curve = {}
        for fraction in task.budgets:  # the learning curve: nested parts of the same fold
            if fraction >= 1.0:
                curve[1.0] = values
                continue
            part = train[budget_subset(data.y[train], fraction, task.seed, data.name,
                                       task.repeat, task.fold)]
            curve[fraction] = _fit_score(task, data, part, test, X, frame, noted)
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
        return {"key": key, "status": "done", "values": values, "error": None,
                "warnings": noted[:20], "curve": curve or None}
    except TaskTimeout:
        return {"key": key, "status": "failed", "values": {},
                "error": f"time limit of {task.time_limit:g} s exceeded"}
    except Exception as exc:  # the learner's own error is the result
        tb = traceback.extract_tb(exc.__traceback__)
        where = f" ({tb[-1].filename.rsplit('/', 1)[-1]}:{tb[-1].lineno})" if tb else ""
        return {"key": key, "status": "failed", "values": {},
                "error": f"{type(exc).__name__}: {exc}{where}"}
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)


