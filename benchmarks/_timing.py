"""Wall-clock timing shared by the benchmark scripts (run them from the repository root:
``python benchmarks/NAME.py``; this folder is then on the import path)."""

from __future__ import annotations

import os
import time

# Every process a benchmark starts reads compiled bytecode, as an installed rankwise does (pip
# compiles it at install time). Where PYTHONDONTWRITEBYTECODE is set, an editable checkout
# would otherwise compile its modules from source in every process: 0.25-0.45 s of each
# timing that no user pays, and that the floor (pandas and scipy, compiled) does not pay either.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def timed(fn) -> float:
    """Seconds one call of ``fn`` takes."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def times_of(fn, repeats: int) -> list:
    """Seconds of ``repeats`` calls, in order (the first is the cold one)."""
    return [timed(fn) for _ in range(repeats)]


def cli_seconds(args) -> float:
    """Seconds of ``rankwise ARGS`` as a fresh process (its output discarded)."""
    import subprocess
    import sys

    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "rankwise.cli", *args], check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def run(args: list, timeout: float | None = None) -> tuple:
    """(seconds, peak MB or None) of ``args`` as a fresh process, the peak resident set from
    ``/usr/bin/time -v`` where it exists. A process still running after ``timeout`` seconds
    is stopped, with every process it started, and TimeoutError raised; one that fails raises
    CalledProcessError."""
    import os
    import re
    import shutil
    import signal
    import subprocess
    from pathlib import Path

    timer = shutil.which("time") or ("/usr/bin/time" if Path("/usr/bin/time").exists() else None)
    command = ([timer, "-v"] if timer else []) + list(args)
    start = time.perf_counter()
    with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          start_new_session=True) as done:
        try:
            _, err = done.communicate(timeout=timeout)
        except BaseException as stop:             # the time is up, or Ctrl-C
            os.killpg(done.pid, signal.SIGKILL)     # the timer and the program it runs
            done.communicate()
            if isinstance(stop, subprocess.TimeoutExpired):
                raise TimeoutError(f"still running after {timeout:.0f} s") from None
            raise
    seconds = time.perf_counter() - start
    if done.returncode:
        raise subprocess.CalledProcessError(done.returncode, args, stderr=err)
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", err)
    return seconds, (int(peak.group(1)) / 1024 if peak else None)


def wide_csv(k: int, n: int, path, spread: float = 0.05, seed: int = 0):
    """A wide CSV of k learners × n data sets (scores near 0.7, means ``spread`` apart)."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    x = np.round(0.7 + np.linspace(0, spread, k) + rng.normal(0, 0.03, (n, k)), 3)
    frame = pd.DataFrame(x, columns=[f"learner_{j:02d}" for j in range(k)])
    frame.insert(0, "dataset", [f"ds{i:04d}" for i in range(n)])
    frame.to_csv(path, index=False)
    return path
