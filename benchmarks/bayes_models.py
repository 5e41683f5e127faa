"""The Bayesian models of the whole table at k = 10 learners × N = 30 data sets (issue target:
each at most 60 s on 2 cores with the default draws), against the analysis without them.

Each job is ``rankwise compare`` as a fresh process (imports and JAX compilation included, as a
user runs it); the floor is the same command without ``--bayesian``. The fold-level table
(10 folds per data set) feeds Bradley-Terry's paired local ROPE and the hierarchical test (the
verdict's 9 pairs). Needs the bayes extra: ``pip install -e ".[bayes]"``.

    python benchmarks/bayes_models.py [--k 10] [--n 30]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

import _timing  # noqa: F401  (its processes read compiled bytecode, as an install does)


def fold_table(k: int, n: int, folds: int, path: Path, seed: int = 0) -> Path:
    rng = np.random.default_rng(seed)
    skill = np.linspace(0, 0.04, k)
    rows = []
    for i in range(n):
        base = rng.uniform(0.6, 0.9)
        for f in range(folds):
            noise = rng.normal(0, 0.02)
            for j in range(k):
                rows.append((f"ds{i:03d}", f"learner{j:02d}", 0, f,
                             round(base + skill[j] + noise + rng.normal(0, 0.01), 4)))
    pd.DataFrame(rows, columns=["dataset", "learner", "repeat", "fold", "value"]).to_csv(
        path, index=False)
    return path


def seconds(args) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "rankwise.cli", "compare", *args], check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--n", type=int, default=30)
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = fold_table(opts.k, opts.n, 10, Path(tmp) / "folds.csv")
        common = [str(path), "--higher-is-better", "--effects", "none"]
        floor = seconds(common)
        print(f"k = {opts.k} x N = {opts.n} (10 folds each); compare alone: {floor:.1f} s")
        for model in ("plackett-luce", "bradley-terry", "hierarchical"):
            rope = ["--rope", "0.01"] if model == "hierarchical" else []  # the others read none
            took = seconds(common + ["--bayesian", model, *rope])
            print(f"  --bayesian {model:14s} {took:6.1f} s  (model {took - floor:5.1f} s;"
                  f" target <= 60 s)")


if __name__ == "__main__":
    main()
