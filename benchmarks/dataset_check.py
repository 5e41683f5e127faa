"""The data-set check at k = 30 × N = 100 (161,700 subsets of three), against the analysis
without it, in one run.

Each job is ``rankwise compare TABLE`` as a fresh process; the check adds ``--dataset-check``
(every subset of one, two and three data sets, then the greedy bound for each claim that
survives). Jobs: the verdict's claims (default), and every pair's decision too (``--posthoc
all``) with the CD diagram's procedure Nemenyi (the default) and Holm (step-wise: every subset
sorts 435 p-values), each also writing JSON as users do. Targets: the check's wall time ≤ 10 s
and its ratio to the plain compare of the same run, best of ``--repeats`` interleaved runs.

    python benchmarks/dataset_check.py [--repeats 2] [--k 30] [--n 100]
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
    ap.add_argument("--k", type=int, default=30)
    ap.add_argument("--n", type=int, default=100)
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = wide_csv(opts.k, opts.n, Path(tmp) / "t.csv", spread=0.03)
        out = str(Path(tmp) / "out.json")
        print(f"k = {opts.k} x N = {opts.n}, best of {opts.repeats}; target: the check <= 10 s")
        print(f"{'job':44s} {'compare':>9s} {'+ check':>9s} {'ratio':>7s} {'target':>7s}")
        jobs = {"verdict's claims": [],
                "verdict's claims, JSON": ["--format", "json", "-o", out],
                "all pairs, Nemenyi": ["--posthoc", "all"],
                "all pairs, Nemenyi, JSON": ["--posthoc", "all", "--format", "json", "-o", out],
                "all pairs, Holm": ["--posthoc", "all", "--diagram-procedure", "holm"]}
        for name, extra in jobs.items():
            common = ["compare", str(path), "--higher-is-better", "--effects", "none", *extra]
            base, check = [], []
            for _ in range(opts.repeats):
                base.append(seconds(common))
                check.append(seconds(common + ["--dataset-check"]))
            b, c = min(base), min(check)
            print(f"{name:44s} {b:8.2f}s {c:8.2f}s {c / b:6.1f}x"
                  f" {'met' if c - b <= 10 else 'NOT met':>7s}")


if __name__ == "__main__":
    main()
