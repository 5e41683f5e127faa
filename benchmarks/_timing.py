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
