"""The three speed figures of issue 63 in one run, each against the floor of its own script:

1. ``compare(posthoc="all")`` at k = 50 × N = 100,000 (Kendall's W vectorised): ≤ 2× the floor
   (``large_k.py --only-k50``);
2. ``load_table`` of a CSV: ≤ 2× ``pandas.read_csv`` (``scale.py``);
3. the leaderboard at k = 1,000 × 200 × 3 with 200 rounds: ≤ 10× the floor, and beside it
   bencheval on the same tables where it is installed (``leaderboard.py``).

    python benchmarks/speed_goals.py

Each script prints its figures in the format users write ("12.3 s = 1.6x the floor"); this one
runs them one after the other, so the three come from one run on one machine.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
JOBS = (("Kendall's W: compare(posthoc='all'), k = 50 x N = 100,000",
         ["large_k.py", "--only-k50", "--repeats", "1"]),
        ("load_table against read_csv", ["scale.py", "--repeats", "2"]),
        ("the leaderboard, k = 1,000 x 200 x 3, 200 rounds, and bencheval",
         ["leaderboard.py"]))


def main() -> None:
    for title, args in JOBS:
        print(f"== {title}", flush=True)
        done = subprocess.run([sys.executable, str(HERE / args[0]), *args[1:]], cwd=HERE.parent)
        if done.returncode:
            raise SystemExit(f"{args[0]} failed (exit {done.returncode})")


if __name__ == "__main__":
    main()
