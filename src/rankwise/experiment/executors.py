"""Where tasks run: a local process pool with crash isolation, or a Dask cluster.

Each executor takes the tasks to do and a ``commit`` callback; only the driver commits. A worker
runs one task at a time with one BLAS/OpenMP thread and never outlives a killed driver.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import re
import signal
import sys
import threading
import time
from collections import deque
from contextlib import nullcontext
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from ..errors import RankwiseError
from .tasks import Task, run_task


def worker_init(driver: int | None = None):
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
    # Ctrl-C reaches the whole process group; the driver decides what stops, and ends workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
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
        if _zombie(driver):
            # Killed but not yet reaped: its parent may be waiting for the driver's output to
            # close, which this worker still holds, so waiting to be reaped would never end.
            os._exit(1)
        time.sleep(0.2)


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] == b"Z"
    except (OSError, IndexError):
        return False


def _isolated_entry(task, conn, driver):
    worker_init(driver)
    conn.send(run_task(task))
    conn.close()


def _run_isolated(task: Task, ctx, guard=nullcontext) -> dict:
    """Run one task alone in a fresh process; a dead process is a failed task."""
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_isolated_entry, args=(task, child, os.getpid()), daemon=True)
    with guard():
        proc.start()
    child.close()
    result = None
    limit = _hard_limit(task)
    try:
        if parent.poll(limit):
            result = parent.recv()
        elif limit is not None:  # the learner ignored the time limit: end its process
            proc.kill()
            proc.join()
            return _timed_out(task)
    except EOFError:
        result = None
    except BaseException:  # interrupted: the task is abandoned, its process ended
        proc.kill()
        proc.join()
        raise
    proc.join()
    if result is not None:
        return result
    code = proc.exitcode
    how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
    return {"key": task.key, "status": "failed", "values": {},
            "error": f"the worker process died ({how})"}


#: Seconds a task may run past its time limit before its process is ended from outside (the
#: alarm inside the worker stops well-behaved learners at the limit itself).
GRACE = 2.0


def _hard_limit(task) -> float | None:
    return None if task.time_limit is None else float(task.time_limit) + GRACE


def _timed_out(task) -> dict:
    return {"key": task.key, "status": "failed", "values": {},
            "error": f"time limit of {task.time_limit:g} s exceeded (the learner did not stop;"
                     " its process was ended)"}


#: The warning filter the helper processes of multiprocessing start with. After ``kill -9`` of
#: a run, the resource tracker (a process of its own, writing to the user's terminal) frees
#: the semaphores the killed run held and warns that they "leaked": the run resumes as if
#: nothing happened, so the warning is noise to the user.
QUIET_TRACKER = "ignore:resource_tracker:UserWarning"


def process_context():
    if QUIET_TRACKER not in sys.warnoptions:   # the helpers copy the interpreter's -W options
        sys.warnoptions.append(QUIET_TRACKER)
    methods = mp.get_all_start_methods()
    ctx = mp.get_context("forkserver" if "forkserver" in methods else "spawn")
    if ctx.get_start_method() == "forkserver":
        # Imported once in the fork server, so that every worker starts with them loaded.
        ctx.set_forkserver_preload(["rankwise.experiment.tasks", "sklearn.model_selection",
                                    "sklearn.pipeline", "sklearn.compose", "sklearn.impute",
                                    "sklearn.preprocessing", "sklearn.metrics"])
    return ctx


def execute_pool(batches, jobs: int, commit, guard=nullcontext):
    """A process pool with at most ``jobs`` tasks in flight, so that when a learner kills its
    worker only those few are suspects; each suspect is then re-run alone. ``batches`` is an
    iterable of task lists: the next one is asked for only when every task of the one before
    is committed (a race decides between data sets). On an interruption (KeyboardInterrupt in
    the driver) the tasks in flight are abandoned and the workers ended. ``guard()`` holds an
    interruption back while a worker is being started, so that every started worker is known
    and can be ended."""
    ctx = process_context()
    pool = None
    try:
        for batch in batches:
            pool = _run_batch(deque(batch), pool, ctx, jobs, commit, guard)
    except BaseException:
        if pool is not None:
            _end_pool(pool)
        raise
    if pool is not None:
        pool.shutdown(wait=True)


def _new_pool(ctx, jobs):
    return ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=worker_init,
                               initargs=(os.getpid(),))


def _run_batch(pending, pool, ctx, jobs, commit, guard):
    """Every task of ``pending`` committed; returns the pool, still usable (or None)."""
    while pending:
        suspects = []
        pool = pool or _new_pool(ctx, jobs)
        try:
            broken = _drain(pending, pool, jobs, commit, guard, suspects)
        except BaseException:
            _end_pool(pool)
            raise
        if broken:
            pool.shutdown(wait=True)
            pool = None
        for task in suspects:
            commit(_run_isolated(task, ctx, guard))
    return pool


def _drain(pending, pool, jobs, commit, guard, suspects) -> bool:
    """Run ``pending`` on ``pool`` until done or the pool breaks (True: the suspects, the tasks
    in flight then, are in ``suspects`` and the pool must be replaced)."""
    inflight, started = {}, {}
    while pending or inflight:
        while pending and len(inflight) < jobs:
            task = pending.popleft()
            try:
                with guard():
                    fut = pool.submit(run_task, task)
            except BrokenProcessPool:
                # A worker died (a learner killed it) after the last wait: the pool takes no
                # more work. This task never started; those in flight are settled below.
                pending.appendleft(task)
                _settle(inflight, commit, suspects)
                pool.shutdown(wait=True, cancel_futures=True)
                return True
            inflight[fut] = task
            started[fut] = time.monotonic()
        # A learner stuck in C code, or one that swallows the alarm, is stopped from outside:
        # past its limit the pool is ended and the tasks in flight are run again one by one,
        # each with the same limit.
        limits = [started[f] + _hard_limit(t) for f, t in inflight.items()
                  if t.time_limit is not None]
        timeout = max(0.0, min(limits) - time.monotonic()) if limits else None
        done, _ = wait(list(inflight), timeout=timeout, return_when=FIRST_COMPLETED)
        if not done and limits:
            suspects.extend(inflight.values())
            _end_pool(pool)
            return True
        broken = False
        for fut in done:
            task = inflight.pop(fut)
            try:
                result = fut.result()
            except BrokenProcessPool:
                broken = True
                suspects.append(task)
                continue
            commit(result)
        if broken:
            _settle(inflight, commit, suspects)
            pool.shutdown(wait=True, cancel_futures=True)
            return True
    return False


def _settle(inflight, commit, suspects):
    """After the pool broke: commit the tasks of ``inflight`` that finished with a result; the
    others (one of them killed the worker) are suspects, each to be run again alone."""
    for fut, task in inflight.items():
        if fut.done() and not fut.cancelled() and fut.exception() is None:
            commit(fut.result())
        else:
            suspects.append(task)


def _end_pool(pool):
    # Kill the workers first, then shut down and join: the pool's own thread then sees a broken
    # pool and ends quietly, instead of reading from pipes that a hasty shutdown closed.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for proc in processes:
        proc.kill()
    for proc in processes:
        proc.join(timeout=5)
    pool.shutdown(wait=True, cancel_futures=True)


def dask_client(address: str, jobs: int):
    """``(client, cluster)`` for ``--dask-scheduler``: ``local`` starts a LocalCluster of
    ``jobs`` single-threaded worker processes (returned, to be closed), a path is a scheduler
    file, anything else a scheduler address."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise RankwiseError("Dask execution needs the dask extra: pip install 'rankwise[dask]'"
                            ) from None
    known = address == "local" or os.path.exists(address)
    if not known and "://" not in address and not re.fullmatch(r"[\w.\-\[\]:]+:\d+", address):
        raise RankwiseError(f"--dask-scheduler {address!r} is neither a scheduler file that"
                            " exists nor an address; give 'local', an address such as"
                            " tcp://host:8786, or the path of a scheduler file")
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
    except (OSError, ValueError) as exc:
        if cluster is not None:
            cluster.close()
        raise RankwiseError(f"cannot reach the Dask scheduler {address}: {exc}") from None
    return client, cluster


def execute_dask(batches, address: str, jobs: int, commit):
    """Each batch of tasks on the cluster; the next batch is asked for only when every task of
    the one before is committed."""
    client, cluster = dask_client(address, jobs)
    from distributed import as_completed
    from distributed.scheduler import KilledWorker

    try:
        for batch in batches:
            futures = {client.submit(run_task, t, pure=False, retries=0): t for t in batch}
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


# The names of rankwise 0.5 (private then, used by rankwise.power), kept for one release.
_worker_init, _context = worker_init, process_context
