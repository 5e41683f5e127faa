"""The leaderboard (issue 47): ``rankwise leaderboard`` on a per-split table of k = 1,000
learners × N = 200 data sets × 3 folds (600,000 rows, TabArena's columns), Elo with 200
bootstrap rounds, JSON out, as a fresh process against the floor of the same run: a
``python -c`` that reads the CSV with pandas, pivots it to splits × learners and ranks every
split with scipy. Target: ≤ 10× the floor, ≤ 1 GB peak memory (resident set, from
``/usr/bin/time -v`` where it exists). Also TabArena's own table (78 × 51) as a user runs it.

    python benchmarks/leaderboard.py [--repeats 1] [--k 1000] [--n 200] [--folds 3]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from _timing import run

FLOOR = ("import sys, pandas as pd, scipy.stats as st; f = pd.read_csv(sys.argv[1]); "
         "w = f.pivot_table(index=['dataset', 'fold'], columns='method', values='metric_error');"
         " st.rankdata(w.to_numpy(), axis=1).mean(axis=0)")


def per_split_csv(k: int, n: int, folds: int, path: Path) -> Path:
    rng = np.random.default_rng(0)
    skill = np.linspace(0, 0.05, k)
    err = np.round(np.abs(0.3 - skill + rng.normal(0, 0.03, (n, folds, k))), 4)
    d, f, m = np.meshgrid(np.arange(n), np.arange(folds), np.arange(k), indexing="ij")
    pd.DataFrame({"dataset": np.char.add("ds", d.ravel().astype(str)), "fold": f.ravel(),
                  "method": np.char.add("m", m.ravel().astype(str)),
                  "metric_error": err.ravel()}).to_csv(path, index=False)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--k", type=int, default=1000)
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--folds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = per_split_csv(args.k, args.n, args.folds, Path(tmp) / "splits.csv")
        jobs = {
            f"leaderboard k={args.k} N={args.n}x{args.folds}, 200 rounds, JSON":
                [sys.executable, "-m", "rankwise.cli", "leaderboard", str(path), "--draws",
                 "200", "--format", "json", "-o", str(Path(tmp) / "board.json")],
            "leaderboard --example tabarena (78 x 51), text":
                [sys.executable, "-m", "rankwise.cli", "leaderboard", "--example", "tabarena",
                 "--anchor", "RF (default)"],
        }
        floor = [sys.executable, "-c", FLOOR, str(path)]
        best = {name: (float("inf"), None) for name in ["floor", *jobs]}
        for _ in range(args.repeats):
            for name, command in [("floor", floor), *jobs.items()]:
                seconds, peak = run(command)
                if seconds < best[name][0]:
                    best[name] = (seconds, peak)
        base = best["floor"][0]
        print(f"floor (read + pivot + rank, {args.k} x {args.n} x {args.folds}):"
              f" {base:.2f} s" + (f", {best['floor'][1]:.0f} MB" if best["floor"][1] else ""))
        for name in jobs:
            seconds, peak = best[name]
            memory = f", peak {peak:.0f} MB" if peak else ""
            print(f"{name}: {seconds:.2f} s = {seconds / base:.1f}x the floor{memory}")


if __name__ == "__main__":
    main()
