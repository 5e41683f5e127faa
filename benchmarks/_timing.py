"""Wall-clock timing shared by the benchmark scripts (run them from the repository root:
``python benchmarks/NAME.py``; this folder is then on the import path)."""

from __future__ import annotations

import time


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
