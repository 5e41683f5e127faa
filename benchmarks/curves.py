"""Performance over a budget (issue 49): ``rankwise curves CURVES.parquet -f json`` on 1,000
configurations x 100 problems x 10 runs x 200 budget points (200 million values), as a fresh
process, against the floor of the same run: a ``python -c`` that reads the Parquet file with
pyarrow. Targets: <= 2 minutes and <= 3 GB peak memory (resident set, from ``/usr/bin/time -v``
where it exists) on 2 cores.

    python benchmarks/curves.py [--learners 1000] [--problems 100] [--runs 10] [--points 200]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

from _timing import run

FLOOR = "import sys, pyarrow.parquet as pq; pq.read_table(sys.argv[1])"


def curves_parquet(learners: int, problems: int, runs: int, points: int, path: Path) -> Path:
    """Best-so-far traces of a minimised value: each configuration has a speed, each problem a
    difficulty, each run noise; sorted by learner, problem, run and budget, with the learner and
    problem as dictionary columns (as pandas categoricals and polars write them)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(49)
    budgets = np.arange(1, points + 1, dtype=np.int32) * 5
    speed = rng.uniform(0.5, 2.0, learners)
    hard = rng.uniform(0.5, 3.0, problems)
    names = pa.array([f"config-{i:04d}" for i in range(learners)])
    pnames = pa.array([f"problem-{p:03d}" for p in range(problems)])
    block = max(1, 10_000_000 // (problems * runs * points))
    writer = None
    for start in range(0, learners, block):
        ls = np.arange(start, min(start + block, learners))
        shape = (ls.size, problems, runs, points)
        rate = speed[ls, None, None, None] / hard[None, :, None, None]
        noise = rng.lognormal(0, 0.3, shape[:3])[..., None]
        value = noise * hard[None, :, None, None] / (1 + rate * np.log1p(budgets))
        value = np.minimum.accumulate(value * rng.uniform(0.98, 1.02, shape), axis=-1)
        n = value.size
        idx = np.indices(shape[:3]).reshape(3, -1)
        table = pa.table({
            "learner": pa.DictionaryArray.from_arrays(
                pa.array(np.repeat(ls[idx[0]], points).astype(np.int16)), names),
            "problem": pa.DictionaryArray.from_arrays(
                pa.array(np.repeat(idx[1], points).astype(np.int16)), pnames),
            "run": pa.array(np.repeat(idx[2], points).astype(np.int8)),
            "evaluations": pa.array(np.tile(budgets, n // points)),
            "value": pa.array(value.ravel())})
        if writer is None:
            writer = pq.ParquetWriter(path, table.schema)
        writer.write_table(table, row_group_size=2_000_000)
    writer.close()
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--learners", type=int, default=1000)
    parser.add_argument("--problems", type=int, default=100)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--points", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = curves_parquet(args.learners, args.problems, args.runs, args.points,
                              Path(tmp) / "curves.parquet")
        values = args.learners * args.problems * args.runs * args.points
        print(f"curves: {args.learners:,} configurations x {args.problems} problems x"
              f" {args.runs} runs x {args.points} budgets = {values:,} values"
              f" ({path.stat().st_size / 2**20:.0f} MB Parquet)")
        floor = min(run([sys.executable, "-c", FLOOR, str(path)]) for _ in range(args.repeats))
        ours = min(run([sys.executable, "-m", "rankwise.cli", "curves", str(path),
                        "--lower-is-better", "--values", "running-best", "-f", "json", "-o",
                        str(Path(tmp) / "out.json")])
                   for _ in range(args.repeats))
        mem = lambda mb: "n/a" if mb is None else f"{mb:,.0f} MB"  # noqa: E731
        print(f"floor (read the Parquet file with pyarrow): {floor[0]:6.1f} s, peak"
              f" {mem(floor[1])}")
        print(f"rankwise curves -f json:                    {ours[0]:6.1f} s, peak"
              f" {mem(ours[1])}  ({ours[0] / floor[0]:.1f}x the floor; target <= 120 s,"
              f" <= 3,072 MB)")


if __name__ == "__main__":
    main()
