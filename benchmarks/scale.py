"""Time rankwise at scale, each figure against the floor measured in the same run.

For a k = 50 × N = 100,000 table of 3-decimal scores written as CSV, prints the best of
``--repeats`` runs of: pandas.read_csv (the floor for reading), load_table of the CSV and of a
DataFrame, compare() without and with all-pairs post-hoc tests, the latter with its JSON, and the
command line end to end (CSV in, JSON out, a fresh process, with its peak memory from
/usr/bin/time when available); then the start-up of ``rankwise --help`` against
``python -c "import typer"``. Ratios are rankwise / floor.

    python benchmarks/scale.py [--n 100000] [--k 50] [--repeats 3]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from rankwise import compare, load_table
from _timing import times_of


def best(fn, repeats):
    return min(times_of(fn, repeats))


def process(cmd, repeats):
    """Best wall time of a command, and its peak memory (MB) from /usr/bin/time -v if there."""
    timer = shutil.which("time") or "/usr/bin/time"
    peak = None
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        if Path(timer).exists():
            out = subprocess.run([timer, "-v", *cmd], capture_output=True, text=True)
            for line in out.stderr.splitlines():
                if "Maximum resident set size" in line:
                    peak = int(line.split()[-1]) / 1024
        else:
            subprocess.run(cmd, capture_output=True)
        times.append(time.perf_counter() - start)
    return min(times), peak


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--k", type=int, default=50)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    x = np.round(rng.uniform(0.5, 1.0, size=(args.n, args.k)) + 0.001 * np.arange(args.k), 3)
    frame = pd.DataFrame(x, columns=[f"L{j}" for j in range(args.k)],
                         index=[f"d{i}" for i in range(args.n)])
    with tempfile.TemporaryDirectory() as tmp:
        csv = Path(tmp) / "table.csv"
        frame.rename_axis("dataset").to_csv(csv)
        floor = best(lambda: pd.read_csv(csv), args.repeats)
        table = load_table(csv)
        rows = [("pandas.read_csv (floor)", floor),
                ("load_table(CSV)", best(lambda: load_table(csv), args.repeats)),
                ("load_table(DataFrame)", best(lambda: load_table(frame), args.repeats)),
                ("compare(table)", best(lambda: compare(table), args.repeats))]
        rows += [("compare(table, posthoc='all')",
                  best(lambda: compare(table, posthoc="all"), args.repeats)),
                 ("the same + to_json()",
                  best(lambda: compare(table, posthoc="all").to_json(), args.repeats))]
        cli, peak = process([sys.executable, "-m", "rankwise.cli", "compare", str(csv),
                             "--posthoc", "all", "--format", "json", "-o",
                             str(Path(tmp) / "out.json")], args.repeats)
        rows.append(("CLI end to end (CSV in, JSON out)", cli))
        # What the interpreter holds before any data: the modules the same command imports.
        _, baseline = process([sys.executable, "-c", "import rankwise.cli, rankwise.analysis."
                               "compare, rankwise.report.json_report, pandas, scipy.stats"], 1)
        _, parser_peak = process([sys.executable, "-c", "import pandas, scipy.stats;"
                                  f" pandas.read_csv({str(csv)!r})"], 1)
        _, parser_base = process([sys.executable, "-c", "import pandas, scipy.stats"], 1)
        help_time, _ = process([sys.executable, "-m", "rankwise.cli", "--help"], 5)
        typer_time, _ = process([sys.executable, "-c", "import typer"], 5)
    print(f"table: k = {args.k} learners x N = {args.n:,} data sets; best of {args.repeats}")
    for label, seconds in rows:
        print(f"{label:36s} {seconds:7.3f} s   x{seconds / floor:6.1f} of the floor")
    if peak is not None:
        matrix = x.nbytes / 2**20
        print(f"CLI peak memory: {peak:,.0f} MB, of which {baseline:,.0f} MB are the imported"
              f" modules; the work took {peak - baseline:,.0f} MB = {(peak - baseline) / matrix:.1f}"
              f" x the float64 matrix of {matrix:,.0f} MB (pandas.read_csv alone:"
              f" {(parser_peak - parser_base) / matrix:.1f} x)")
    print(f"rankwise --help {help_time:.3f} s; python -c 'import typer' {typer_time:.3f} s;"
          f" ratio {help_time / typer_time:.2f}")


if __name__ == "__main__":
    main()
