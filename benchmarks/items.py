"""Items nested in tasks (issue 48): ``rankwise compare ITEMS.parquet --items -f json`` on 200
models × 20 tasks × 5,000 items (20 million 0/1 outcomes), as a fresh process, against the
floor of the same run: a ``python -c`` that reads the Parquet file with pandas and takes the
mean per model and task. Targets: ≤ 60 s and ≤ 2 GB peak memory (resident set, from
``/usr/bin/time -v`` where it exists) on 2 cores.

Each way of reading the file is timed (issue 67): the whole table in pandas (``--source
items``), task by task through Dask (``items-stream``, which keeps only the pairs that differ),
queried in place by DuckDB (``items-duckdb``), and the default (``auto``, which queries a
Parquet file of a million rows or more in place where DuckDB is installed); the pandas and
DuckDB JSON files are compared byte for byte. A path whose library is not installed is skipped.

    python benchmarks/items.py [--models 200] [--tasks 20] [--items 5000] [--repeats 1]
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from _timing import run

FLOOR = ("import sys, pandas as pd; f = pd.read_parquet(sys.argv[1]);"
         " f.groupby(['task', 'model'], observed=True)['score'].mean()")


def items_parquet(models: int, tasks: int, items: int, path: Path) -> Path:
    """0/1 outcomes: each model answers an item right with probability logistic(skill −
    difficulty), so answers are correlated through the items, as real ones are."""
    rng = np.random.default_rng(48)
    skill = np.linspace(-0.5, 0.5, models)
    frames = []
    for t in range(tasks):
        difficulty = rng.normal(0, 1.5, items)
        p = 1 / (1 + np.exp(-(skill[None, :] - difficulty[:, None])))
        right = (rng.random((items, models)) < p).astype(np.int8)
        frames.append(pd.DataFrame({
            "model": pd.Categorical.from_codes(np.tile(np.arange(models), items),
                                               [f"model-{i:03d}" for i in range(models)]),
            "task": pd.Categorical.from_codes(np.zeros(items * models, dtype=int),
                                              [f"task-{t:02d}"]),
            "item": pd.Categorical.from_codes(np.repeat(np.arange(items), models),
                                              [f"t{t:02d}-q{i:05d}" for i in range(items)]),
            "score": right.ravel()}))
    frame = pd.concat(frames, ignore_index=True)
    for c in ("model", "task", "item"):
        frame[c] = frame[c].astype(str)          # as a user's file holds them: plain strings
    frame.to_parquet(path, index=False)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", type=int, default=200)
    parser.add_argument("--tasks", type=int, default=20)
    parser.add_argument("--items", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = items_parquet(args.models, args.tasks, args.items, Path(tmp) / "items.parquet")
        outcomes = args.models * args.tasks * args.items
        print(f"items: {args.models} models x {args.tasks} tasks x {args.items:,} items ="
              f" {outcomes:,} outcomes ({path.stat().st_size / 2**20:.0f} MB Parquet)")
        floor = min(run([sys.executable, "-c", FLOOR, str(path)]) for _ in range(args.repeats))
        mem = lambda mb: "n/a" if mb is None else f"{mb:,.0f} MB"  # noqa: E731
        print(f"floor (read the Parquet file, mean per model and task): {floor[0]:6.1f} s,"
              f" peak {mem(floor[1])}")
        outputs = {}
        for source, needs in (("items", None), ("items-stream", "dask"),
                              ("items-duckdb", "duckdb"), ("auto", None)):
            if needs is not None and importlib.util.find_spec(needs) is None:
                print(f"--source {source}: skipped ({needs} is not installed)")
                continue
            outputs[source] = Path(tmp) / f"{source}.json"
            ours = min(run([sys.executable, "-m", "rankwise.cli", "compare", str(path),
                            "--items", "--source", source, "-f", "json", "-o",
                            str(outputs[source])]) for _ in range(args.repeats))
            ratio = "" if None in (ours[1], floor[1]) else f", {ours[1] / floor[1]:.1f}x its peak"
            label = f"rankwise compare --items --source {source} -f json:"
            print(f"{label:<56}{ours[0]:6.1f} s, peak {mem(ours[1])}  ({ours[0] / floor[0]:.1f}x"
                  f" the floor's time{ratio}; target <= 60 s, <= 2,048 MB)")
        if {"items", "items-duckdb"} <= set(outputs):
            same = outputs["items"].read_bytes() == outputs["items-duckdb"].read_bytes()
            print(f"JSON of items and items-duckdb: {'identical' if same else 'DIFFERENT'}")

if __name__ == "__main__":
    main()
