"""Time the power study against its target and against its own floor.

The target of the power study: 1,000 draws × 11 biases × the five omnibus tests on a pool of 30
data sets in at most 60 s on 2 cores. Prints the wall time with ``--jobs 1`` and ``--jobs 2``,
and, as the floor measured in the same run, the time of calling the five omnibus tests directly
on the same number of random 10-data-set samples (no sampling, no bookkeeping): the ratio says
what the study adds to the tests themselves.

    python benchmarks/power.py [--draws 1000]
"""

from __future__ import annotations

import argparse

import numpy as np

from rankwise import load_example
from rankwise.power import power_study
from rankwise.power.study import DEFAULT_BIASES
from rankwise.stats import friedman, friedman_aligned, iman_davenport, quade, rm_anova
from _timing import timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=1000)
    args = parser.parse_args()
    pool = load_example("garcia2008")  # 30 data sets × 5 learners
    rng = np.random.default_rng(0)
    samples = [pool.values[rng.choice(30, 10, replace=False)]
               for _ in range(args.draws * len(DEFAULT_BIASES))]

    def floor():
        for x in samples:
            friedman(x, method="chi2"), iman_davenport(x, method="chi2")
            friedman_aligned(x), quade(x), rm_anova(x)

    base = timed(floor)
    print(f"pool: 30 data sets x 5 learners; {args.draws} draws x {len(DEFAULT_BIASES)} biases"
          f" x 5 omnibus tests (N = 10)")
    print(f"  floor (the tests alone, one process): {base:6.1f} s")
    for jobs in (1, 2):
        t = timed(lambda: power_study(pool, draws=args.draws, jobs=jobs))
        print(f"  rankwise power --jobs {jobs}:            {t:6.1f} s  ({t / base:.2f}x the floor;"
              f" target <= 60 s)")


if __name__ == "__main__":
    main()
