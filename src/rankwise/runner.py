"""Run an experiment: every (data set, repeat, fold, learner) is one task.

- Splits depend only on (seed, data set, repeat) and are stratified, so every learner sees the
  same folds; learners get ``random_state`` from (seed, data set, repeat, fold, learner).
- Each task runs with one thread (threadpoolctl) and returns its criteria; the driver commits it
  at once, in one transaction (:mod:`rankwise.store`). Re-running on the same results file
  continues with exactly the missing tasks.
- Execution: in-process (``jobs=0``), a local process pool (``jobs ≥ 1``, default 1; a learner
  that kills its worker is isolated and recorded as failed), or Dask (``dask_scheduler``: an
  address, a scheduler file, or ``"local"`` for a LocalCluster). Results are identical in every
  mode, except the measured fit and predict times.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import platform
import signal
import sys
import threading
import time
import traceback
import warnings
from collections import deque
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

import numpy as np

from .criteria import class_scores, evaluate
from .datasets import DatasetSpec, load_dataset
from .errors import RankwiseError
from .experiment import Experiment, Learner, derive_seed
from .store import Store


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

    @property
    def key(self) -> tuple:
        return (self.dataset.name, self.repeat, self.fold, self.learner.name)


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


def _dataset(spec: DatasetSpec):
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
        data = _dataset(task.dataset)
        if data.content_hash != task.dataset_hash:
            raise RankwiseError(f"data set {data.name!r} differs from the one the run started"
                                " with (content hash)")
        train, test = _split(data, task)
        model, frame = build_pipeline(task.learner, data, derive_seed(
            task.seed, "learner", data.name, task.repeat, task.fold, task.learner.name))
        X = data.X if frame else data.X.to_numpy(dtype=float)
        X_train = X.iloc[train] if frame else X[train]
        X_test = X.iloc[test] if frame else X[test]
        if use_alarm:
            signal.signal(signal.SIGALRM, _alarm)
            signal.setitimer(signal.ITIMER_REAL, float(task.time_limit))
        with warnings.catch_warnings(record=True) as caught:
            # The learner's warnings belong to the task's record, not to the terminal.
            warnings.simplefilter("always")
            start = time.perf_counter()
            model.fit(X_train, data.y[train])
            fitted = time.perf_counter()
            pred = model.predict(X_test)
            predicted = time.perf_counter()
            classes = [str(c) for c in getattr(model, "classes_", data.classes)]
            scores = class_scores(model, X_test, classes)
        noted = list(dict.fromkeys(f"{w.category.__name__}: {str(w.message).splitlines()[0]}"
                                   for w in caught))
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
        values = evaluate(task.criteria, data.y[test], np.asarray(pred).astype(str).astype(object),
                          scores, classes, data.positive)
        values["fit_time"] = (fitted - start, None)
        values["predict_time"] = (predicted - fitted, None)
        return {"key": key, "status": "done", "values": values, "error": None,
                "warnings": noted[:20]}
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


def _worker_init(driver: int | None = None):
    # A worker must not outlive a driver that was killed, even with SIGKILL. Linux's parent-death
    # signal covers direct children; under the forkserver the parent is the server (kept alive
    # by its children), so every worker also watches the driver's PID and leaves when it is gone.
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except OSError:
            pass
    if driver is not None:
        threading.Thread(target=_watch_driver, args=(driver,), daemon=True).start()
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")


def _watch_driver(driver: int):
    while True:
        try:
            os.kill(driver, 0)
        except ProcessLookupError:
            os._exit(1)
        except PermissionError:  # the PID was reused by another user's process: driver gone
            os._exit(1)
        time.sleep(0.2)


def _isolated_entry(task, conn, driver):
    _worker_init(driver)
    conn.send(run_task(task))
    conn.close()


def _run_isolated(task: Task, ctx) -> dict:
    """Run one task alone in a fresh process; a dead process is a failed task."""
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_isolated_entry, args=(task, child, os.getpid()), daemon=True)
    proc.start()
    child.close()
    result = None
    try:
        if parent.poll(None):
            result = parent.recv()
    except EOFError:
        result = None
    proc.join()
    if result is not None:
        return result
    code = proc.exitcode
    how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
    return {"key": task.key, "status": "failed", "values": {},
            "error": f"the worker process died ({how})"}


def _context():
    methods = mp.get_all_start_methods()
    ctx = mp.get_context("forkserver" if "forkserver" in methods else "spawn")
    if ctx.get_start_method() == "forkserver":
        ctx.set_forkserver_preload(["rankwise.runner"])
    return ctx


def execute_pool(tasks, jobs: int, commit):
    """A process pool with at most ``jobs`` tasks in flight, so that when a learner kills its
    worker only those few are suspects; each suspect is then re-run alone."""
    ctx = _context()
    pending = deque(tasks)
    while pending:
        suspects = []
        with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_worker_init,
                                 initargs=(os.getpid(),)) as pool:
            inflight = {}
            broken = False
            while (pending or inflight) and not broken:
                while pending and len(inflight) < jobs:
                    task = pending.popleft()
                    inflight[pool.submit(run_task, task)] = task
                done, _ = wait(list(inflight), return_when=FIRST_COMPLETED)
                for fut in done:
                    task = inflight.pop(fut)
                    try:
                        commit(fut.result())
                    except BrokenProcessPool:
                        broken = True
                        suspects.append(task)
            if broken:
                suspects.extend(inflight.values())
                pool.shutdown(wait=True, cancel_futures=True)
        for task in suspects:
            commit(_run_isolated(task, ctx))


def execute_dask(tasks, address: str, jobs: int, commit):
    try:
        from distributed import Client, LocalCluster, as_completed
        from distributed.scheduler import KilledWorker
    except ImportError:
        raise RankwiseError("Dask execution needs the dask extra: pip install 'rankwise[dask]'"
                            ) from None
    cluster = None
    try:
        if address == "local":
            cluster = LocalCluster(n_workers=max(1, jobs), threads_per_worker=1, processes=True,
                                   dashboard_address=None)
            client = Client(cluster)
        elif os.path.exists(address):
            client = Client(scheduler_file=address, timeout="20s")
        else:
            client = Client(address, timeout="20s")
    except OSError as exc:
        raise RankwiseError(f"cannot reach the Dask scheduler {address}: {exc}") from None
    try:
        futures = {client.submit(run_task, t, pure=False, retries=0): t for t in tasks}
        for fut in as_completed(list(futures)):
            task = futures[fut]
            try:
                commit(fut.result())
            except KilledWorker:
                commit({"key": task.key, "status": "failed", "values": {},
                        "error": "the worker process died (Dask KilledWorker)"})
            except Exception as exc:
                commit({"key": task.key, "status": "failed", "values": {},
                        "error": f"{type(exc).__name__}: {exc}"})
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def versions() -> dict:
    import numpy
    import pandas
    import scipy
    import sklearn

    from . import __version__
    return {"python": platform.python_version(), "numpy": numpy.__version__,
            "scipy": scipy.__version__, "pandas": pandas.__version__,
            "scikit-learn": sklearn.__version__, "rankwise": __version__}


def plan(experiment: Experiment):
    """Load every data set once (validating them) and list the tasks in a fixed order."""
    hashes, tasks = {}, []
    for spec in experiment.datasets:
        data = _dataset(spec)  # cached: in-process tasks reuse it
        hashes[spec.name] = data.content_hash
        for repeat in range(experiment.repeats):
            for fold in range(experiment.folds):
                for learner in experiment.learners:
                    tasks.append(Task(spec, data.content_hash, repeat, fold, learner,
                                      experiment.all_criteria, experiment.seed, experiment.folds,
                                      experiment.time_limit))
    return hashes, tasks


def run_experiment(experiment: Experiment, results, *, jobs: int = 1,
                   dask_scheduler: str | None = None, retry_failed: bool = False,
                   force: bool = False, progress=None) -> dict:
    """Run (or continue) an experiment into the results database ``results``.

    Returns a summary: total, already done, run now, failed now, failures overall.
    """
    if jobs < 0:
        raise RankwiseError("--jobs must be 0 (in-process), 1 or more")
    hashes, tasks = plan(experiment)
    store = Store(results)
    try:
        meta = store.meta()
        now = {"design": experiment.design(), "dataset_hashes": hashes, "versions": versions(),
               "total_tasks": len(tasks), "seed": experiment.seed, "format": 1}
        if meta:
            changed = [k for k in ("design", "dataset_hashes", "versions") if meta.get(k) != now[k]]
            if changed and not force:
                what = {"design": "the experiment design", "dataset_hashes": "the data sets",
                        "versions": "the library versions"}
                raise RankwiseError(f"{results}: {', '.join(what[c] for c in changed)} changed"
                                    " since this results file was started; use a new results"
                                    " file, or --force to continue anyway")
            if changed:
                now["forced_changes"] = meta.get("forced_changes", []) + [changed]
        store.set_meta(now)
        finished = store.finished()
        todo = [t for t in tasks if finished.get(t.key) is None
                or (retry_failed and finished[t.key] == "failed")]
        summary = {"total": len(tasks), "already": len(tasks) - len(todo), "run": 0, "failed": 0,
                   "warned": 0}
        if progress:
            progress.start(len(tasks), len(tasks) - len(todo),
                           sum(1 for s in finished.values() if s == "failed" and not retry_failed))

        def commit(result):
            store.record(result["key"], result["status"], result["values"], result["error"],
                         result.get("warnings"))
            summary["run"] += 1
            summary["warned"] += bool(result.get("warnings"))
            summary["failed"] += result["status"] == "failed"
            if progress:
                progress.advance(result["status"] == "failed")

        if dask_scheduler:
            execute_dask(todo, dask_scheduler, jobs, commit)
        elif jobs == 0:
            from threadpoolctl import threadpool_limits

            with threadpool_limits(limits=1):
                for task in todo:
                    commit(run_task(task, limit_threads=False))
        else:
            execute_pool(todo, jobs, commit)
        summary["failures_total"] = sum(1 for s in store.finished().values() if s == "failed")
        return summary
    finally:
        if progress:
            progress.stop()
        store.close()


class ProgressBar:
    """done / total, failures, elapsed and remaining time (rich), on stderr."""

    def __init__(self, quiet: bool = False):
        self.quiet = quiet
        self.bar = None

    def start(self, total, done, failed):
        self.failed = failed
        if self.quiet:
            return
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)

        self.bar = Progress(TextColumn("tasks"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("failed: {task.fields[failed]}"), TimeElapsedColumn(),
                            TextColumn("left:"), TimeRemainingColumn(),
                            console=Console(stderr=True), transient=False)
        self.bar.start()
        self.task = self.bar.add_task("run", total=total, completed=done, failed=failed)

    def advance(self, failed: bool):
        self.failed += failed
        if self.bar:
            self.bar.update(self.task, advance=1, failed=self.failed)

    def stop(self):
        if self.bar:
            self.bar.stop()
