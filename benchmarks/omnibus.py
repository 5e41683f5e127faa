"""Time the full omnibus analysis on k = 50 learners × N = 100,000 data sets.

Prints the time of `rankwise.compare` (ranking once, then Friedman, Iman-Davenport, aligned
ranks, Quade and repeated-measures ANOVA) and, as a baseline measured in the same run, scipy's
`friedmanchisquare` alone on the same table. Target: the full analysis well under a second.

    python benchmarks/omnibus.py [--n 100000] [--k 50] [--repeats 5]
"""

from __future__ import annotations

import argparse

import numpy as np
from scipy import stats

from rankwise import ScoreTable, compare
from _timing import times_of


def best_of(fn, repeats):
    times = times_of(fn, repeats)
    return min(times), float(np.median(times)), times[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--k", type=int, default=50)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    # Scores on a 3-decimal grid, as published tables are: ties occur, as in real use.
    values = np.round(rng.uniform(0.5, 1.0, size=(args.n, args.k)) + 0.001 * np.arange(args.k), 3)
    table = ScoreTable(values=values, datasets=tuple(map(str, range(args.n))),
                       learners=tuple(f"L{j}" for j in range(args.k)))
    ours = best_of(lambda: compare(table), args.repeats)
    base = best_of(lambda: stats.friedmanchisquare(*values.T), args.repeats)
    print(f"table: k = {args.k} learners x N = {args.n:,} data sets")
    print(f"rankwise.compare (5 omnibus tests): best {ours[0]:.3f} s, median {ours[1]:.3f} s,"
          f" first call {ours[2]:.3f} s")
    print(f"scipy friedmanchisquare (1 test):  best {base[0]:.3f} s, median {base[1]:.3f} s")
    print(f"ratio rankwise(all 5) / scipy(Friedman only): {ours[0] / base[0]:.2f}")


if __name__ == "__main__":
    main()
