"""The leaderboard (issue 47): ``rankwise leaderboard`` on a per-split table of k = 1,000
learners × N = 200 data sets × 3 folds (600,000 rows, TabArena's columns), Elo with 200
bootstrap rounds, JSON out, as a fresh process against the floor of the same run: a
``python -c`` that reads the CSV with pandas, pivots it to splits × learners and ranks every
split with scipy. Target: ≤ 10× the floor, ≤ 1 GB peak memory (resident set, from
``/usr/bin/time -v`` where it exists). Also TabArena's own table (78 × 51) as a user runs it.

Then TabArena's bencheval 0.1.0 (``BenchmarkEvaluator.leaderboard``: Elo with the same
bootstrap rounds, win rate, improvability, MRR, rank counts, rescaled loss) on the same CSV,
as a fresh process in its own environment, beside rankwise at every size of ``--versus``
(k learners, N and folds as above): target, rankwise faster at every size bencheval can run.
A size bencheval does not finish within ``--timeout`` seconds, or fails, is said, and the
larger ones are not tried. bencheval's Python: ``--bencheval-python``, else
``RANKWISE_BENCHEVAL_PYTHON``, else ``.venv-bencheval`` at the repository's root
(``python -m venv .venv-bencheval && .venv-bencheval/bin/pip install bencheval==0.1.0``);
without one the comparison is skipped with a line that says so.

    python benchmarks/leaderboard.py [--repeats 1] [--k 1000] [--n 200] [--folds 3]
        [--rounds 200] [--versus 50,200,1000] [--timeout 900] [--bencheval-python PATH]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from _timing import run

FLOOR = ("import sys, pandas as pd, scipy.stats as st; f = pd.read_csv(sys.argv[1]); "
         "w = f.pivot_table(index=['dataset', 'fold'], columns='method', values='metric_error');"
         " st.rankdata(w.to_numpy(), axis=1).mean(axis=0)")
#: bencheval's leaderboard of the same CSV (argv: the CSV, the bootstrap rounds), every column
#: rankwise's board has a counterpart of (tools/make_bencheval_references.py's settings).
BENCHEVAL = ("import sys, pandas as pd; from bencheval.evaluator import BenchmarkEvaluator as E;"
             " d = pd.read_csv(sys.argv[1]); E(task_col='dataset', seed_column='fold',"
             " columns_to_agg_extra=None).leaderboard(d, include_mrr=True,"
             " include_rank_counts=True, include_rescaled_loss=True,"
             " elo_kwargs={'BOOTSTRAP_ROUNDS': int(sys.argv[2])})")
VERSION = "from importlib.metadata import version; print(version('bencheval'))"
ROOT = Path(__file__).resolve().parents[1]


def per_split_csv(k: int, n: int, folds: int, path: Path) -> Path:
    rng = np.random.default_rng(0)
    skill = np.linspace(0, 0.05, k)
    err = np.round(np.abs(0.3 - skill + rng.normal(0, 0.03, (n, folds, k))), 4)
    d, f, m = np.meshgrid(np.arange(n), np.arange(folds), np.arange(k), indexing="ij")
    pd.DataFrame({"dataset": np.char.add("ds", d.ravel().astype(str)), "fold": f.ravel(),
                  "method": np.char.add("m", m.ravel().astype(str)),
                  "metric_error": err.ravel()}).to_csv(path, index=False)
    return path


def board_command(path: Path, rounds: int, out: Path) -> list:
    return [sys.executable, "-m", "rankwise.cli", "leaderboard", str(path), "--draws",
            str(rounds), "--format", "json", "-o", str(out)]


def best_of(command: list, repeats: int, timeout: float | None = None) -> tuple:
    """The fastest of ``repeats`` runs: (seconds, peak MB or None)."""
    return min((run(command, timeout) for _ in range(repeats)), key=lambda t: t[0])


def size(k: int, n: int, folds: int) -> str:
    return f"k={k} x {n} x {folds}"


def memory(peak) -> str:
    return f", peak {peak:.0f} MB" if peak else ""


def bencheval_python(given: str | None) -> tuple:
    """``(python, version)`` of bencheval's environment, or ``(None, why not)``."""
    python = Path(given or os.environ.get("RANKWISE_BENCHEVAL_PYTHON")
                  or ROOT / ".venv-bencheval" / "bin" / "python")
    if not python.exists():
        return None, f"no Python at {python}"
    found = subprocess.run([str(python), "-c", VERSION], capture_output=True, text=True)
    if found.returncode:
        return None, f"{python} cannot import bencheval"
    return python, found.stdout.strip()


def versus(args, tmp: Path, main_board: tuple) -> None:
    """rankwise and bencheval on the same CSV at every size of ``--versus``."""
    python, version = bencheval_python(args.bencheval_python)
    if python is None:
        print(f"versus bencheval: skipped ({version}; give --bencheval-python or"
              " RANKWISE_BENCHEVAL_PYTHON, or make .venv-bencheval)")
        return
    print(f"versus bencheval {version} ({python}), the same CSV, {args.rounds} rounds, fresh"
          " processes:")
    ran = faster = 0
    for k in args.versus:
        label = size(k, args.n, args.folds)
        if k == args.k:
            path, ours = tmp / "splits.csv", main_board
        else:
            path = per_split_csv(k, args.n, args.folds, tmp / f"splits_{k}.csv")
            ours = best_of(board_command(path, args.rounds, tmp / f"board_{k}.json"),
                           args.repeats)
        try:
            theirs = best_of([str(python), "-c", BENCHEVAL, str(path), str(args.rounds)],
                             args.repeats, args.timeout)
        except (TimeoutError, subprocess.CalledProcessError) as stop:
            why = (str(stop) if isinstance(stop, TimeoutError) else
                   f"failed: {(stop.stderr or '').strip().splitlines()[-1:] or stop}")
            print(f"{label}: rankwise {ours[0]:.1f} s; bencheval {why}; larger sizes not tried")
            break
        ran += 1
        faster += ours[0] < theirs[0]
        print(f"{label}: rankwise {ours[0]:.1f} s{memory(ours[1])}, bencheval {theirs[0]:.1f} s"
              f"{memory(theirs[1])}: rankwise {theirs[0] / ours[0]:.1f}x faster"
              if ours[0] < theirs[0] else
              f"{label}: rankwise {ours[0]:.1f} s, bencheval {theirs[0]:.1f} s: rankwise"
              f" {ours[0] / theirs[0]:.1f}x SLOWER")
    if ran:
        print(f"faster than bencheval at every size it ran: {'yes' if faster == ran else 'NO'}"
              f" ({faster} of {ran})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--k", type=int, default=1000)
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--folds", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--versus", type=lambda s: [int(x) for x in s.split(",") if x],
                        default=[50, 200, 1000], help="learners of each size run by both")
    parser.add_argument("--timeout", type=float, default=900.0,
                        help="seconds a bencheval run may take")
    parser.add_argument("--bencheval-python", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        path = per_split_csv(args.k, args.n, args.folds, tmp / "splits.csv")
        floor = best_of([sys.executable, "-c", FLOOR, str(path)], args.repeats)
        board = best_of(board_command(path, args.rounds, tmp / "board.json"), args.repeats)
        example = best_of([sys.executable, "-m", "rankwise.cli", "leaderboard", "--example",
                           "tabarena", "--anchor", "RF (default)"], args.repeats)
        label = size(args.k, args.n, args.folds)
        print(f"floor (read + pivot + rank), {label}: {floor[0]:.2f} s{memory(floor[1])}")
        ratio = board[0] / floor[0]
        print(f"{label}, {args.rounds} rounds: {board[0]:.1f} s = {ratio:.1f}x floor"
              f" (goal <= 10x: {'met' if ratio <= 10 else 'MISSED'}){memory(board[1])}")
        print(f"leaderboard --example tabarena (78 x 51), text: {example[0]:.1f} s ="
              f" {example[0] / floor[0]:.1f}x floor{memory(example[1])}")
        versus(args, tmp, board)


if __name__ == "__main__":
    main()
