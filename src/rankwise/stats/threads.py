"""Thread pools held to one thread where more only wait."""

from __future__ import annotations


def one_blas_thread():
    """BLAS on one thread, as a context manager: for many small products and solves (the
    leaderboard's bootstrap fits, the rank sets' draws) and one k × k eigen-decomposition, a
    BLAS thread that waits for a busy second core (the analysis' own, or another program's) made
    the 0.3 s decomposition of k = 1,000 take 7 s and each round's small solves as long again;
    the numbers are the same."""
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1, user_api="blas")
