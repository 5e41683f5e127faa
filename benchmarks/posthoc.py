"""Time Shaffer and Bergmann-Hommel for all pairwise comparisons.

Rank-based p-values (Friedman z-tests, the polynomial Bergmann-Hommel method) at
k = 5, 9, 10, 20, 50, 100, and arbitrary p-value matrices (pairwise Wilcoxon, branch and bound)
at k = 8, 10, 12, 15, 20. Baseline measured in the same run: brute-force enumeration of the
Bell(k) partitions, where it is feasible (k ≤ 10). Targets: rank-based Bergmann-Hommel at
k = 100 under 0.5 s, Shaffer at k = 100 under 0.1 s, arbitrary-matrix Bergmann-Hommel at
k = 15 under 2 s.

    python benchmarks/posthoc.py [--n 30] [--budget 120]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rankwise.adjust import shaffer, shaffer_counts
from rankwise.bergmann_hommel import bergmann_hommel, brute_force
from rankwise.posthoc import pairwise_statistics


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def table(rng, n, k):
    return np.round(rng.normal(size=(n, k)) + np.linspace(0, 1.5, k), 3)


def row(k, st, width, **options):
    """Time Shaffer, Bergmann-Hommel and (k ≤ 10) brute force on one p-value matrix; print."""
    iu = np.triu_indices(k, 1)
    shaffer_counts.cache_clear()
    _, t_sh = timed(lambda: shaffer(st.pvalues[iu], k))
    res, t_bh = timed(lambda: bergmann_hommel(st.pvalues, **options))
    brute = ""
    if k <= 10:
        ref, t_bf = timed(lambda: brute_force(st.pvalues))
        assert np.array_equal(ref, res.apv)
        brute = f"{t_bf:.4f}"
    print(f"{k:>4} {t_sh:>9.4f} {t_bh:>16.4f} {res.method:>{width}} {brute:>12}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=30, help="data sets")
    ap.add_argument("--budget", type=float, default=120.0, help="branch-and-bound time budget (s)")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    print(f"N = {args.n} data sets; times in seconds (first call, including Shaffer's S(k))")
    print("rank-based (Friedman z-tests):")
    print(f"{'k':>4} {'shaffer':>9} {'bergmann_hommel':>16} {'method':>12} {'brute force':>12}")
    for k in (5, 9, 10, 20, 50, 100):
        st = pairwise_statistics(table(rng, args.n, k), "friedman")
        row(k, st, 12, scores=st.scores)
    print("arbitrary matrices (pairwise Wilcoxon signed-ranks p-values):")
    print(f"{'k':>4} {'shaffer':>9} {'bergmann_hommel':>16} {'method':>16} {'brute force':>12}")
    for k in (8, 10, 12, 15, 20):
        st = pairwise_statistics(table(rng, args.n, k), "wilcoxon", zero_method="pratt")
        row(k, st, 16, time_budget=args.budget)


if __name__ == "__main__":
    main()
