"""Better and cheaper (issue 50): ``rankwise compare CSV --criteria accuracy,fit_time -f json``
on k = 1,000 learners x 200 data sets x 2 criteria (a long CSV of 400,000 rows; the front,
1,000 bootstrap rounds, the mean-rank tests of every pair; the GSD is left out above 30
learners), as a fresh process, against the floor of the same run: a ``python -c`` that reads the
CSV with pandas, pivots each criterion to data sets x learners and ranks every data set.
Target: <= 10x the floor (the issue's 200 rounds; the command's default is 1,000).

    python benchmarks/fronts.py [--learners 1000] [--datasets 200] [--repeats 3]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

from _timing import run

FLOOR = ("import sys, pandas as pd, scipy.stats as st; d = pd.read_csv(sys.argv[1]);"
         " [st.rankdata(-g.pivot(index='dataset', columns='learner', values='value')"
         ".to_numpy(), axis=1).mean(axis=0) for _, g in d.groupby('criterion')]")


def long_csv(k: int, n: int, path: Path) -> Path:
    import pandas as pd

    rng = np.random.default_rng(50)
    acc = np.round(0.7 + np.linspace(0, 0.05, k) + rng.normal(0, 0.03, (n, k)), 3)
    time = np.round(rng.lognormal(0, 1, (n, 1)) * np.linspace(0.5, 5, k)
                    * rng.lognormal(0, 0.2, (n, k)), 4)
    ds = np.repeat([f"ds{i:03d}" for i in range(n)], k)
    ln = np.tile([f"L{j:04d}" for j in range(k)], n)
    pd.concat([pd.DataFrame({"dataset": ds, "learner": ln, "criterion": c, "value": v.ravel()})
               for c, v in (("accuracy", acc), ("fit_time", time))]).to_csv(path, index=False)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--learners", type=int, default=1000)
    parser.add_argument("--datasets", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = long_csv(args.learners, args.datasets, Path(tmp) / "fronts.csv")
        print(f"fronts: {args.learners:,} learners x {args.datasets} data sets x 2 criteria"
              f" ({2 * args.learners * args.datasets:,} rows)")
        floors, ours = [], []
        for _ in range(args.repeats):   # interleaved: the ratio is of the same run
            floors.append(run([sys.executable, "-c", FLOOR, str(path)]))
            ours.append(run([sys.executable, "-m", "rankwise.cli", "compare", str(path),
                             "--criteria", "accuracy,fit_time", "-f", "json", "-o",
                             str(Path(tmp) / "out.json")]))
        floor, best = min(floors), min(ours)
        mem = lambda mb: "n/a" if mb is None else f"{mb:,.0f} MB"  # noqa: E731
        print(f"floor (pandas read, pivot, rank):          {floor[0]:6.1f} s, peak"
              f" {mem(floor[1])}")
        print(f"rankwise compare --criteria -f json:       {best[0]:6.1f} s, peak"
              f" {mem(best[1])}  ({best[0] / floor[0]:.1f}x the floor; target <= 10x)")


if __name__ == "__main__":
    main()
