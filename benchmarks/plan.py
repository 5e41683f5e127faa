"""The plan (issue 66): ``rankwise.plan`` on 1,000 learners × 200 data sets × 10 folds (two
million scores), against the floor of the same run: pandas' mean of every learner on every data
set of the same long table (what any analysis of the table has to do). Target: ≤ 10 s on 2
cores for the plan itself (the table is read once, before either timing).

    python benchmarks/plan.py [--learners 1000] [--datasets 200] [--folds 10]
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd

from rankwise import load_table, plan
from _timing import timed


def pilot(k: int, n: int, folds: int, rng) -> pd.DataFrame:
    """Scores of a learner x (fold:dataset) design with every component present."""
    x = (rng.normal(0, 0.02, (k, 1, 1)) + rng.normal(0, 0.1, (1, n, 1))
         + rng.normal(0, 0.01, (k, n, 1)) + rng.normal(0, 0.03, (1, n, folds))
         + rng.normal(0, 0.01, (k, n, folds)))
    l, d, f = np.meshgrid(np.arange(k), np.arange(n), np.arange(folds), indexing="ij")
    return pd.DataFrame({"learner": [f"L{i:04d}" for i in l.ravel()],
                         "dataset": [f"D{j:03d}" for j in d.ravel()],
                         "fold": f.ravel(), "value": 0.8 + x.ravel()})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=1000)
    parser.add_argument("--datasets", type=int, default=200)
    parser.add_argument("--folds", type=int, default=10)
    args = parser.parse_args()
    frame = pilot(args.learners, args.datasets, args.folds, np.random.default_rng(66))
    table = load_table(frame, criterion=None)
    base = timed(lambda: frame.groupby(["learner", "dataset"])["value"].mean())
    seconds = timed(lambda: plan(table))
    print(f"pilot: {args.learners:,} learners x {args.datasets} data sets x {args.folds} folds"
          f" ({len(frame):,} scores)")
    print(f"  floor (pandas: each learner's mean on each data set): {base:6.2f} s")
    print(f"  rankwise.plan:                                    {seconds:6.2f} s"
          f"  ({seconds / base:.1f}x the floor; target <= 10 s)")


if __name__ == "__main__":
    main()
