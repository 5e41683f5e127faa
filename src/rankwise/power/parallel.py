"""Run the study's chunks in this process, on a local process pool or on a Dask cluster.

Every chunk carries its own seed, and the results come back in submission order, so the output
does not depend on where or in which order the chunks ran.
"""

from __future__ import annotations

from ..errors import RankwiseError


def run_all(func, jobs_list, *, jobs: int = 1, dask_scheduler: str | None = None) -> list:
    if int(jobs) != jobs or jobs < 0:
        raise RankwiseError(f"--jobs must be a whole number ≥ 0 (0: as many as CPUs); got {jobs!r}")
    if dask_scheduler is not None:
        return _dask(func, jobs_list, dask_scheduler, jobs)
    if jobs == 0:
        import os

        jobs = os.cpu_count() or 1
    if jobs == 1 or len(jobs_list) == 1:
        return [func(job) for job in jobs_list]
    import os
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from ..experiment.executors import process_context, worker_init  # one way to start workers

    try:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=process_context(),
                                 initializer=worker_init, initargs=(os.getpid(),)) as pool:
            return list(pool.map(func, jobs_list,
                                 chunksize=max(1, len(jobs_list) // (4 * jobs))))
    except BrokenProcessPool:
        raise RankwiseError("a worker process died (out of memory, killed, or started from a"
                            " script that cannot be imported, such as standard input); run"
                            " again, or with --jobs 1") from None


def _dask(func, jobs_list, address: str, jobs: int) -> list:
    from ..experiment.executors import dask_client

    client, cluster = dask_client(address, jobs)
    try:
        futures = client.map(func, jobs_list, pure=False)
        return client.gather(futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
