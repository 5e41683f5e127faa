"""The pool check at k = 50 × N = 100, against the analysis without it, in one run.

Each job is ``rankwise compare TABLE --posthoc all`` as a fresh process; the pool check job adds
``--pool-check`` (2k = 100 pools, each analysed by the all-pairs family and the verdict). The
ratio is pool check / plain compare of the same run, best of ``--repeats`` interleaved runs, for
the diagram procedures Holm, Shaffer, Nemenyi and Bergmann-Hommel.

    python benchmarks/pool_check.py [--repeats 2] [--k 50] [--n 100]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from _timing import cli_seconds as seconds
from _timing import wide_csv


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--k", type=int, default=50)
    ap.add_argument("--n", type=int, default=100)
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = wide_csv(opts.k, opts.n, Path(tmp) / "t.csv", spread=0.05)
        print(f"k = {opts.k} x N = {opts.n}, best of {opts.repeats}")
        print(f"{'procedure':16s} {'compare':>9s} {'--pool-check':>13s} {'ratio':>7s}")
        for proc in ("holm", "shaffer", "nemenyi", "bergmann_hommel"):
            common = ["compare", str(path), "--posthoc", "all", "--higher-is-better",
                      "--diagram-procedure", proc, "--effects", "none"]
            base, pool = [], []
            for _ in range(opts.repeats):
                base.append(seconds(common))
                pool.append(seconds(common + ["--pool-check"]))
            print(f"{proc:16s} {min(base):8.2f}s {min(pool):12.2f}s {min(pool) / min(base):6.1f}x")


if __name__ == "__main__":
    main()
