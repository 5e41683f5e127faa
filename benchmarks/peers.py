"""Race rankwise against the tools users would pick instead, on the same CSV files, in one run.

Jobs (each contender reads the CSV and does the whole job; runs are interleaved, best of
``--repeats``):

- ``friedman+nemenyi``: the Friedman test and Nemenyi all-pairs post-hoc tests. rankwise:
  ``load_table`` + ``compare(tests=["friedman"], posthoc="all", procedures="nemenyi")`` (which
  also decides the verdict and the figures and computes contrast estimation); scikit-posthocs: ``pandas.read_csv`` +
  ``scipy.stats.friedmanchisquare`` + ``posthoc_nemenyi_friedman``; autorank (N ≤ 1,000): its
  whole automatic analysis.
- ``wilcoxon+holm``: pairwise Wilcoxon signed-ranks tests with Holm's adjustment (N ≤ 1,000).
  rankwise: ``compare(posthoc="all", rankings="wilcoxon", procedures="holm")``;
  scikit-posthocs: ``posthoc_wilcoxon(p_adjust="holm")``.

The floor is ``pandas.read_csv`` plus one ranking pass (``scipy.stats.rankdata`` along rows).
Ratios are rankwise / peer and rankwise / floor. The peers are optional: ``pip install
'rankwise[bench]'``.

    python benchmarks/peers.py [--repeats 3] [--sizes 5x30,10x1000,50x100000]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from rankwise import PosthocOptions, compare, load_table
from _timing import timed


def jobs(csv: Path, n: int):
    def floor():
        x = pd.read_csv(csv).iloc[:, 1:].to_numpy()
        stats.rankdata(-x, axis=1)

    def rw_nemenyi():
        compare(load_table(csv), tests=["friedman"],
                posthoc=PosthocOptions("all", procedures="nemenyi"))

    def sp_nemenyi():
        import scikit_posthocs as sp

        x = pd.read_csv(csv).iloc[:, 1:].to_numpy()
        stats.friedmanchisquare(*x.T)
        sp.posthoc_nemenyi_friedman(x)

    def autorank_job():
        from autorank import autorank

        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")
            autorank(pd.read_csv(csv).iloc[:, 1:], alpha=0.05)

    def rw_wilcoxon():
        compare(load_table(csv), tests=["friedman"], posthoc=PosthocOptions(
            "all", rankings="wilcoxon", procedures="holm", force=True))

    def sp_wilcoxon():
        import scikit_posthocs as sp

        x = pd.read_csv(csv).iloc[:, 1:].to_numpy()
        sp.posthoc_wilcoxon([x[:, j] for j in range(x.shape[1])], p_adjust="holm")

    out = {"friedman+nemenyi": {"rankwise": rw_nemenyi, "scikit-posthocs": sp_nemenyi}}
    if n <= 1_000:
        out["friedman+nemenyi"]["autorank"] = autorank_job
        out["wilcoxon+holm"] = {"rankwise": rw_wilcoxon, "scikit-posthocs": sp_wilcoxon}
    return floor, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--sizes", default="5x30,10x30,50x30,5x1000,10x1000,50x1000,5x100000,"
                                        "10x100000,50x100000")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes.split(","):
            k, n = map(int, size.split("x"))
            x = np.round(rng.uniform(0.5, 1.0, size=(n, k)) + 0.002 * np.arange(k), 3)
            csv = Path(tmp) / f"{k}x{n}.csv"
            pd.DataFrame(x, columns=[f"L{j}" for j in range(k)],
                         index=pd.Index([f"d{i}" for i in range(n)], name="dataset")).to_csv(csv)
            floor, contenders = jobs(csv, n)
            for job, runners in contenders.items():
                best = {name: np.inf for name in ["floor", *runners]}
                for _ in range(args.repeats):  # interleaved, so that drift hits all alike
                    best["floor"] = min(best["floor"], timed(floor))
                    for name, fn in runners.items():
                        best[name] = min(best[name], timed(fn))
                for name in runners:
                    if name != "rankwise":
                        rows.append((k, n, job, name, best["rankwise"], best[name],
                                     best["floor"]))
    print(f"{'k':>3} {'N':>7}  {'job':17} {'peer':16} {'rankwise s':>10} {'peer s':>8}"
          f" {'rw/peer':>8} {'rw/floor':>8}")
    for k, n, job, name, ours, theirs, floor in rows:
        print(f"{k:>3} {n:>7}  {job:17} {name:16} {ours:10.3f} {theirs:8.3f}"
              f" {ours / theirs:8.2f} {ours / floor:8.1f}")


if __name__ == "__main__":
    main()
