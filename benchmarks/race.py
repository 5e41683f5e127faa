"""The replayed race (issue 37): ``rankwise race`` on k = 100 learners × N = 200 data sets,
as a fresh process in the text and the JSON format, against the floor of the same run (a
``python -c`` that reads the CSV with pandas and ranks every data set with scipy). Target:
at most 5 s. Also the in-process call, and the null simulation's cost per race. Then the race
inside the runner: ``rankwise run --example race --race`` against the full design of the same
example, both with ``--jobs 2``, in the same run (the saving in tasks and in time).

    python benchmarks/race.py [--repeats 3]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _timing import cli_seconds, wide_csv

FLOOR = ("import sys, pandas as pd, scipy.stats as st; x = pd.read_csv(sys.argv[1]).iloc[:, 1:]"
         ".to_numpy(); st.rankdata(-x, axis=1).mean(axis=0)")


def floor_seconds(path: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", FLOOR, str(path)], check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    import rankwise
    from rankwise.stats.racing import null_error_rates

    with tempfile.TemporaryDirectory() as tmp:
        path = wide_csv(100, 200, Path(tmp) / "k100.csv", spread=0.3)
        rows = {}
        for name, extra in (("text", []), ("json", ["--format", "json", "-o",
                                                      str(Path(tmp) / "race.json")])):
            job = [min(cli_seconds(["race", str(path), *extra]) for _ in range(args.repeats))]
            floor = min(floor_seconds(path) for _ in range(args.repeats))
            rows[name] = (job[0], floor)
        table = rankwise.load_table(path)
        start = time.perf_counter()
        result = rankwise.race(table)
        in_process = time.perf_counter() - start
        start = time.perf_counter()
        null_error_rates(k=10, n=100, reps=50)
        per_race = (time.perf_counter() - start) / 50
    print("rankwise race, k = 100 x N = 200 (target: at most 5 s)")
    for name, (job, floor) in rows.items():
        print(f"  {name:5s} {job:6.2f} s   floor {floor:5.2f} s   ratio {job / floor:5.1f}x"
              f"   {'ok' if job <= 5 else 'OVER TARGET'}")
    print(f"  in process: {in_process:.3f} s; {len(result.eliminations)} eliminated,"
          f" {result.saved:.0%} of the experiment not needed")
    print(f"null simulation (k = 10, N = 100, both rules): {per_race * 1000:.0f} ms per race")
    runner()


def runner() -> None:
    """The bundled race example, raced and in full, as the user runs it."""
    import sqlite3

    times, tasks = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, extra in (("full", []), ("raced", ["--race"])):
            db = Path(tmp) / f"{name}.sqlite"
            times[name] = cli_seconds(["run", "--example", "race", "--results", str(db),
                                       "--jobs", "2", "--quiet", *extra])
            with sqlite3.connect(db) as con:
                tasks[name] = con.execute("SELECT count(*) FROM tasks").fetchone()[0]
    print("rankwise run --example race (24 data sets, 6 learners, 720 tasks), --jobs 2")
    for name in ("full", "raced"):
        print(f"  {name:5s} {times[name]:6.2f} s   {tasks[name]} tasks")
    print(f"  raced / full: {times['raced'] / times['full']:.2f} of the time,"
          f" {tasks['raced'] / tasks['full']:.2f} of the tasks")


if __name__ == "__main__":
    main()
