"""The regression gate (issue 64): ``rankwise gate BASE.parquet CAND.parquet -f json`` on 200
tasks × 5,000 items × 10 trials per model (10 million outcomes a run), as a fresh process,
against the floor of the same run: a ``python -c`` that reads both Parquet files with pandas
and takes each run's mean per task. Targets: ≤ 30 s and ≤ 2 GB peak memory (resident set,
from ``/usr/bin/time -v`` where it exists) on 2 cores.

    python benchmarks/gate.py [--tasks 200] [--items 5000] [--trials 10] [--repeats 1]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

import _timing  # noqa: F401  (compiled bytecode for every process, as an install has)

FLOOR = ("import sys, pandas as pd\n"
         "for p in sys.argv[1:]: pd.read_parquet(p).groupby('task', observed=True)"
         "['score'].mean()")


def run_parquet(model: str, tasks: int, items: int, trials: int, shift: float, path: Path,
                rng) -> Path:
    """0/1 outcomes, right with probability logistic(skill − difficulty) (the difficulty of
    an item the same in both runs: seeded by the item)."""
    diff = np.random.default_rng(64).normal(0, 1.5, (tasks, items))
    p = 1 / (1 + np.exp(-(0.5 + shift - diff)))
    right = (rng.random((tasks, items, trials)) < p[..., None]).astype(np.int8)
    n = tasks * items * trials
    frame = pd.DataFrame({
        "model": model,
        "task": pd.Categorical.from_codes(np.repeat(np.arange(tasks), items * trials),
                                          [f"task-{t:03d}" for t in range(tasks)]),
        "item": pd.Categorical.from_codes(np.tile(np.repeat(np.arange(items), trials), tasks),
                                          [f"q{i:05d}" for i in range(items)]),
        "repeat": np.tile(np.arange(1, trials + 1), tasks * items).astype(np.int16),
        "score": right.reshape(n)})
    frame.to_parquet(path, index=False)
    return path


def run(args: list) -> tuple:
    """(seconds, peak MB or None, exit code) of ``args`` as a fresh process (the gate exits 1
    when it shows a regression: that is an answer, not a failure)."""
    timer = shutil.which("time") or ("/usr/bin/time" if Path("/usr/bin/time").exists() else None)
    start = time.perf_counter()
    done = subprocess.run(([timer, "-v"] if timer else []) + list(args),
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(map(str, args))} failed:\n{done.stderr}")
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    return seconds, (int(peak.group(1)) / 1024 if peak else None), done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", type=int, default=200)
    parser.add_argument("--items", type=int, default=5000)
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(2026)
    with tempfile.TemporaryDirectory() as tmp:
        base = run_parquet("v1", args.tasks, args.items, args.trials, 0.0,
                           Path(tmp) / "base.parquet", rng)
        cand = run_parquet("v2", args.tasks, args.items, args.trials, -0.02,
                           Path(tmp) / "cand.parquet", rng)
        outcomes = args.tasks * args.items * args.trials
        print(f"gate: {args.tasks} tasks x {args.items:,} items x {args.trials} trials ="
              f" {outcomes:,} outcomes a run")
        floor = min(run([sys.executable, "-c", FLOOR, str(base), str(cand)])
                    for _ in range(args.repeats))
        ours = min(run([sys.executable, "-m", "rankwise.cli", "gate", str(base), str(cand),
                        "-f", "json", "-o", str(Path(tmp) / "gate.json")])
                   for _ in range(args.repeats))
        mem = lambda mb: "n/a" if mb is None else f"{mb:,.0f} MB"  # noqa: E731
        print(f"floor (read both Parquet files, mean per task): {floor[0]:6.1f} s,"
              f" peak {mem(floor[1])}")
        print(f"rankwise gate -f json (exit {ours[2]}):              {ours[0]:6.1f} s,"
              f" peak {mem(ours[1])}  ({ours[0] / floor[0]:.1f}x the floor; target <= 30 s,"
              f" <= 2,048 MB)")


if __name__ == "__main__":
    main()
