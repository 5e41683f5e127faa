"""The driver of a run: plan the tasks, check the results file against the experiment, hand the
missing tasks to an executor and commit each result as it arrives.

A stored result is reused only when its task's identity (data set content, seed, folds, repeat,
fold, learner estimator and parameters, criteria) equals the planned task's. A changed experiment
is refused with a message that names what changed; ``force`` keeps the results that still match
and runs the rest again, and removes results that belong to no task of the experiment, so that
after any sequence of runs the file holds what one uninterrupted run of the final experiment
would hold.
"""

from __future__ import annotations

import platform
import signal
import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path

from .._version import __version__
from ..errors import RankwiseError
from .design import Experiment, learner_identity
from .executors import execute_dask, execute_pool
from .racing import RunRace, cannot_eliminate, settings_from
from .store import Store, StoreFull, is_full, open_readonly, write_error
from .tasks import Task, cached_dataset, run_task, task_identity

FORMAT = 2


class RunInterrupted(KeyboardInterrupt):
    """A run stopped by SIGINT or SIGTERM after committing what had finished."""

    def __init__(self, done: int, total: int):
        super().__init__(f"interrupted: {done} of {total} tasks done; run the same command to"
                         " continue")
        self.done, self.total = done, total


def versions() -> dict:
    import numpy
    import pandas
    import scipy
    import sklearn

    return {"python": platform.python_version(), "numpy": numpy.__version__,
            "scipy": scipy.__version__, "pandas": pandas.__version__,
            "scikit-learn": sklearn.__version__, "rankwise": __version__}


def plan(experiment: Experiment):
    """Load every data set once (validating it against the folds) and list the tasks in a fixed
    order. Returns ``(hashes, tasks, notes)``."""
    hashes, tasks, notes = {}, [], []
    for spec in experiment.datasets:
        data = cached_dataset(spec)  # cached: in-process tasks reuse it
        hashes[spec.name] = data.content_hash
        notes.extend(_check_folds(data, experiment.folds))
        for repeat in range(experiment.repeats):
            for fold in range(experiment.folds):
                for learner in experiment.learners:
                    tasks.append(Task(spec, data.content_hash, repeat, fold, learner,
                                      experiment.all_criteria, experiment.seed, experiment.folds,
                                      experiment.time_limit, experiment.budgets))
    return hashes, tasks, notes


def _check_folds(data, folds: int) -> list:
    """Stratified splits need folds ≤ the size of the largest class; a class smaller than the
    number of folds is kept in the proportions it can have and is absent from some test parts."""
    counts = {c: int((data.y == c).sum()) for c in data.classes}
    largest = max(counts.values())
    if folds > largest:
        raise RankwiseError(f"data set {data.name!r}: folds = {folds} but its largest class has"
                            f" only {largest} examples; use folds ≤ {largest}")
    small = {c: n for c, n in counts.items() if n < folds}
    if not small:
        return []
    shown = ", ".join(f"{c!r} ({n})" for c, n in sorted(small.items()))
    return [f"data set {data.name!r}: class(es) {shown} have fewer examples than folds = {folds};"
            " they are absent from the test part of some folds, and criteria that need them there"
            " are recorded as missing with their reason"]


def describe_changes(old: dict, new: dict) -> list:
    """The differences between two run descriptions (meta), in words."""
    out = []
    od, nd = old.get("design", {}), new["design"]
    for key in ("repeats", "folds", "seed", "criteria"):
        if od.get(key) != nd.get(key):
            out.append(f"{key} {od.get(key)} -> {nd.get(key)}")
    for kind in ("datasets", "learners"):
        before = {d["name"]: d for d in od.get(kind, [])}
        after = {d["name"]: d for d in nd.get(kind, [])}
        label = "data set" if kind == "datasets" else "learner"
        for name in after.keys() - before.keys():
            out.append(f"{label} {name!r} added")
        for name in before.keys() - after.keys():
            out.append(f"{label} {name!r} removed")
        for name in before.keys() & after.keys():
            if before[name] != after[name]:
                what = "source" if kind == "datasets" else "estimator or parameters"
                out.append(f"{label} {name!r}: {what} changed")
    if old.get("race_settings") != new.get("race_settings"):
        out.append(f"race {_race_words(old.get('race_settings'))} ->"
                   f" {_race_words(new.get('race_settings'))}")
    old_hashes, new_hashes = old.get("dataset_hashes", {}), new["dataset_hashes"]
    for name in sorted(old_hashes.keys() & new_hashes.keys()):
        if old_hashes[name] != new_hashes[name]:
            out.append(f"data set {name!r}: content changed")
    return sorted(out)


def _race_words(settings) -> str:
    if not settings:
        return "none"
    return (f"on {settings['criterion']} (alpha {settings['alpha']:g}, goal {settings['goal']},"
            f" {settings['order_rule']} order)")


def version_changes(old: dict, new: dict) -> list:
    ov, nv = old.get("versions", {}), new["versions"]
    return [f"{lib} {ov.get(lib)} -> {nv[lib]}" for lib in nv if ov.get(lib) != nv[lib]]


def stored_identities(meta: dict) -> dict:
    """Identities of the tasks a 0.1 results file holds, from the design it recorded."""
    design = meta.get("design", {})
    hashes = meta.get("dataset_hashes", {})
    learners = {d["name"]: learner_identity(d) for d in design.get("learners", [])}
    out = {}
    for name, digest in hashes.items():
        for learner, ident in learners.items():
            for repeat in range(design.get("repeats", 0)):
                for fold in range(design.get("folds", 0)):
                    out[(name, repeat, fold, learner)] = task_identity(
                        digest, design.get("seed", 0), design.get("folds", 0), repeat, fold,
                        ident, design.get("criteria", []))
    return out


@contextmanager
def _interruptible():
    """SIGINT/SIGTERM raise KeyboardInterrupt, but never inside a commit: one arriving there is
    held until the commit is done."""
    state = {"pending": False, "critical": False}
    if threading.current_thread() is not threading.main_thread():
        yield state
        return

    def handler(signum, frame):
        state["pending"] = True
        if not state["critical"]:
            raise KeyboardInterrupt

    previous = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield state
    finally:
        for s, h in previous.items():
            signal.signal(s, h)


def run_experiment(experiment: Experiment, results, *, jobs: int = 1,
                   dask_scheduler: str | None = None, retry_failed: bool = False,
                   force: bool = False, progress=None, race=None) -> dict:
    """Run (or continue) an experiment into the results database ``results``.

    Returns a summary: total, already done, run now, failed now, failures overall, removed
    (stale results dropped under ``force``) and notes. Raises :class:`RunInterrupted` on SIGINT
    or SIGTERM, after committing every finished task.

    ``race`` (True, a criterion's name or :class:`~rankwise.experiment.RaceSettings`) races
    the learners: the data sets are run one at a time and a learner the race eliminates is not
    run on later ones (the guide's "Racing" page); the summary's ``race`` says what it
    decided.

    Examples
    --------
    >>> import tempfile, pathlib, rankwise
    >>> from rankwise import DatasetSpec, Experiment, Learner
    >>> exp = Experiment(datasets=(DatasetSpec("sklearn", "iris"),),
    ...                  learners=(Learner("tree", "sklearn.tree.DecisionTreeClassifier"),
    ...                            Learner("nb", "sklearn.naive_bayes.GaussianNB")),
    ...                  repeats=1, folds=2)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     summary = rankwise.run_experiment(exp, pathlib.Path(folder) / 'r.sqlite')
    >>> summary['total'], summary['run'], summary['failed']
    (4, 4, 0)
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 0:
        raise RankwiseError("--jobs must be 0 (in-process), 1 or more")
    settings = settings_from(race, experiment)
    try:
        return _run(experiment, results, jobs=jobs, dask_scheduler=dask_scheduler,
                    retry_failed=retry_failed, force=force, progress=progress,
                    race=settings)
    except (StoreFull, sqlite3.OperationalError) as exc:
        if not isinstance(exc, StoreFull) and not is_full(exc):
            raise write_error(results, exc) from None
        kept = _committed(results)
        raise RankwiseError(f"{results}: the disk is full; {kept} task(s) are saved in it and"
                            " nothing committed is lost: free some space and run the same"
                            " command to continue") from None


def _committed(results) -> str:
    """How many tasks a results file holds, for a message (or "the finished" if unknown)."""
    try:
        db = open_readonly(Path(results))
        try:
            return str(db.execute("SELECT count(*) FROM tasks").fetchone()[0])
        finally:
            db.close()
    except (sqlite3.Error, RankwiseError):
        return "the finished"


def _run(experiment, results, *, jobs, dask_scheduler, retry_failed, force, progress,
         race) -> dict:
    store = Store(results)  # checks the path and takes the lock before any work
    try:
        hashes, tasks, notes = plan(experiment)
        if dask_scheduler and experiment.time_limit is not None:
            notes.append(f"the time limit of {experiment.time_limit:g} s is not enforced on Dask"
                         " workers; a stuck task holds its worker until it ends")
        if race is not None and cannot_eliminate(race):
            notes.append(cannot_eliminate(race))
        planned, stale = _reconcile(store, experiment, tasks, hashes, results, force, race)
        finished = store.finished()
        todo = [t for t in tasks if finished.get(t.key) is None
                or (retry_failed and finished[t.key] == "failed")]
        summary = {"total": len(tasks), "already": len(tasks) - len(todo), "run": 0,
                   "failed": 0, "warned": 0, "removed": len(stale), "notes": notes}
        pending = {t.key for t in todo}
        with _interruptible() as state:
            @contextmanager
            def guard():
                """An interruption arriving inside is raised when the block is done."""
                state["critical"] = True
                try:
                    yield
                finally:
                    state["critical"] = False
                if state["pending"]:
                    raise KeyboardInterrupt

            def commit(result):
                with guard():
                    store.record(result["key"], result["status"], result["values"],
                                 result["error"], result.get("warnings"),
                                 planned[result["key"]], curve=result.get("curve"))
                    pending.discard(result["key"])
                summary["run"] += 1
                summary["warned"] += bool(result.get("warnings"))
                summary["failed"] += result["status"] == "failed"
                if progress:
                    progress.advance(result["status"] == "failed")

            try:
                if progress:
                    progress.start(len(tasks), len(tasks) - len(todo),
                                   sum(1 for s in finished.values()
                                       if s == "failed" and not retry_failed))
                batches = ([todo] if race is None else
                           _race_batches(store, race, experiment, tasks, pending, summary,
                                         guard, progress))
                _execute(batches, jobs, dask_scheduler, commit, guard)
            except KeyboardInterrupt:
                done = sum(1 for k in store.finished() if k in planned)
                raise RunInterrupted(done, len(tasks)) from None
        summary["failures_total"] = sum(1 for s in store.finished().values() if s == "failed")
        if summary["failures_total"]:
            summary["common_error"] = _common_error(store)
        return summary
    finally:
        if progress:
            progress.stop()
        store.close()


def _race_batches(store, settings, experiment, tasks, pending, summary, guard, progress):
    """The tasks of one data set at a time, as the race asks for them: before each, the race
    takes every data set already run (recomputed from the file, so a resumed race is the
    uninterrupted one) and its record is written to the file."""
    state = RunRace(settings, experiment.repeats * experiment.folds)
    said = 0
    while True:
        state.advance(store, pending)
        record = state.record()
        summary["race"] = record
        with guard():
            store.set_meta({"race": record})
        if progress:
            progress.set_total(len(tasks) - record["tasks_not_needed"])
            for e in record["eliminations"][said:]:
                progress.say(f"rankwise: race: {e['learner']} eliminated after {e['step']}"
                             f" data sets by {e['by']} (e = {e['evalue']:,.0f})")
        said = len(record["eliminations"])
        if state.finished:
            return
        dataset, alive = state.next_dataset, set(state.alive)
        yield [t for t in tasks if t.key in pending and t.key[0] == dataset
               and t.key[3] in alive]


def _reconcile(store, experiment, tasks, hashes, results, force, race=None) -> tuple:
    """``(planned, stale)``: the planned tasks' identities and the stored tasks that no longer
    match them. A changed experiment or library is refused unless ``force`` (then recorded in
    the file); stale tasks are removed and the file's description updated."""
    meta = store.meta()
    now = {"design": experiment.design(), "dataset_hashes": hashes, "versions": versions(),
           "total_tasks": len(tasks), "seed": experiment.seed, "format": FORMAT,
           "forced_changes": meta.get("forced_changes", []), "race_settings": race}
    if race is None:
        now["race"] = None
    stored = store.tasks()
    # A 0.1 file continued with --force may hold results of several experiments, and its
    # meta describes only the last one: its tasks' identities are unknown, never guessed.
    trusted = meta.get("format", 1) >= 2 or not meta.get("forced_changes")
    if trusted and any(ident is None for _, ident in stored.values()):
        store.set_identities({k: i for k, i in stored_identities(meta).items()
                              if k in stored and stored[k][1] is None})
        stored = store.tasks()
    planned = {t.key: t.identity for t in tasks}
    stale = [k for k, (_, ident) in stored.items() if planned.get(k) != ident]
    changes = describe_changes(meta, now) if meta else []
    libraries = version_changes(meta, now) if meta else []
    if (changes or libraries or stale) and not force:
        keep = len(stored) - len(stale)
        if changes or stale:
            what = "; ".join(changes) or (
                f"{len(stale)} stored task(s) no longer match" if trusted else
                "it was continued with --force by rankwise 0.1, which could mix results of"
                " different experiments")
            rest = ("run what else it needs" if race or meta.get("race_settings") else
                    f"run the other {len(tasks) - keep} again")
            raise RankwiseError(
                f"{results}: the experiment changed since this results file was started"
                f" ({what}); use a new results file, or --force to keep the {keep} stored"
                f" task(s) that still match and {rest}")
        raise RankwiseError(
            f"{results}: library versions changed since this results file was started"
            f" ({'; '.join(libraries)}); use a new results file, or --force to keep the"
            " stored results (the change is recorded in the file)")
    if changes or libraries or stale:
        now["forced_changes"] = now["forced_changes"] + [changes + libraries]
    store.delete(stale)
    store.set_meta(now)
    return planned, stale


def _common_error(store) -> tuple:
    """``(message, count)``: the most frequent error of the failed tasks (the first in
    alphabetical order among equally frequent ones)."""
    counts = store.failures()["error"].fillna("unknown error").value_counts()
    top = int(counts.max())
    return min(str(e) for e, c in counts.items() if c == top), top


def _execute(batches, jobs, dask_scheduler, commit, guard):
    """Run each batch of tasks, committing each result; the next batch is asked for only when
    the one before is committed."""
    if dask_scheduler:
        execute_dask(batches, dask_scheduler, jobs, commit)
    elif jobs == 0:
        from threadpoolctl import threadpool_limits

        with threadpool_limits(limits=1):
            for batch in batches:
                for task in batch:
                    commit(run_task(task, limit_threads=False))
    else:
        execute_pool(batches, jobs, commit, guard)
