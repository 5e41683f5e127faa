"""The driver of a run: plan the tasks, check the results file against the design, hand the
missing tasks to an executor and commit each result as it arrives."""

from __future__ import annotations

import platform

from .._version import __version__
from ..errors import RankwiseError
from .design import Experiment
from .executors import execute_dask, execute_pool
from .store import Store
from .tasks import Task, _dataset, run_task


def versions() -> dict:
    import numpy
    import pandas
    import scipy
    import sklearn

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
