"""Many learners: each job of issue 21 as a whole process, timed against the floor in one run.

The floor is a ``python -c`` that reads the CSV with pandas, ranks every data set with
``scipy.stats.rankdata`` and takes the mean ranks. Every job runs as a fresh process (imports
included, as a user would run it), ``--repeats`` times interleaved with the floor, and the best
time of each is kept; ratios are job / floor of the same run. Peak memory (resident set) comes
from ``/usr/bin/time -v`` where it exists.

Jobs (3-decimal scores with ties; learners differ in skill):

- k = 100 × N = 50: ``rankwise compare --posthoc all`` (effects on: all 4,950 pairs), as text
  and with ``--format json -o FILE`` (target: ≤ 3× the floor)
- k = 1000 × N = 200: ``rankwise compare`` (default), ``--posthoc all --procedures
  holm,shaffer,nemenyi``, both also with ``--format json -o FILE`` (the file's size and the
  peak memory against their targets: ≤ 4× and ≤ 8× the floor, ≤ 70 MB, ≤ 600 MB), and
  ``--report DIR`` (every format and figure, and pairs.csv), and ``--rank-sets ranks`` (the
  confidence sets for the ranks: target ≤ 8× the floor)
- k = 50 × N = 100,000: ``rankwise compare --posthoc all`` (target: ≤ 2× the floor), peak
  memory against the floor's; its JSON must hold every p-value (none null: the far tail is a
  bound, 1e-300) and nothing may be printed on stderr (``--only-k50``: this job alone)
- ten thousand and more (issue 35), each a fresh process against the floor of the same run:
  k = 10,000 × N = 50 and × 200 ``rankwise compare`` (default) with text and with JSON out
  (targets: ≤ 10× the floor, ≤ 1 GB), ``--report DIR`` at N = 200 (≤ 20×, ≤ 1.5 GB);
  ``--posthoc all --procedures holm,nemenyi --pairs pairs.parquet`` at N = 50 (≤ 60×, ≤ 2 GB;
  50 million pairs); k = 100,000 × N = 20 default (≤ 2 minutes, ≤ 4 GB). ``--skip-huge``
  leaves them out.
- the race: Friedman + Nemenyi for all pairs at k = 50, 200 and 1,000 (N = 200), rankwise's
  ``compare(tests=["friedman"], posthoc="all", procedures="nemenyi")`` against
  scikit-posthocs' ``friedmanchisquare`` + ``posthoc_nemenyi_friedman``, each reading the CSV.
  scikit-posthocs is installed by this script in a virtual environment of its own
  (``--peer-venv``, created on first use), not as a dependency of rankwise.

    python benchmarks/large_k.py [--repeats 2] [--skip-peer] [--skip-memory] [--skip-huge]
                                 [--only-k50] [--only-k100]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

import _timing  # noqa: F401  (its processes read compiled bytecode, as an install does)

FLOOR = ("import sys, pandas as pd, scipy.stats as st; x = pd.read_csv(sys.argv[1]).iloc[:, 1:]"
         ".to_numpy(); st.rankdata(-x, axis=1).mean(axis=0)")
RANKWISE_NEMENYI = ("import sys; from rankwise import PosthocOptions, compare, load_table;"
                    " compare(load_table(sys.argv[1]), tests=['friedman'],"
                    " posthoc=PosthocOptions('all', procedures='nemenyi'))")
PEER_NEMENYI = ("import sys, pandas as pd, scipy.stats as st, scikit_posthocs as sp; "
                "x = pd.read_csv(sys.argv[1]).iloc[:, 1:].to_numpy(); "
                "st.friedmanchisquare(*x.T); sp.posthoc_nemenyi_friedman(x)")


def table(k: int, n: int, path: Path, seed: int = 0) -> Path:
    rng = np.random.default_rng(seed)
    skill = rng.normal(0, 0.02, k)
    x = np.round(np.clip(rng.uniform(0.6, 0.9, (n, 1)) + skill + rng.normal(0, 0.03, (n, k)),
                         0, 1), 3)
    frame = pd.DataFrame(x, columns=[f"config_{j:04d}" for j in range(k)])
    frame.insert(0, "dataset", [f"ds{i:06d}" for i in range(n)])
    frame.to_csv(path, index=False)
    return path


#: What the last run printed on stderr (without /usr/bin/time's own report).
LAST_STDERR = {"text": ""}


def run(cmd) -> tuple:
    """Wall seconds and peak resident memory (MB, or None) of one process."""
    timer = "/usr/bin/time"
    start = time.perf_counter()
    if Path(timer).exists():
        out = subprocess.run([timer, "-v", *cmd], capture_output=True, text=True)
        peak = next((int(line.split()[-1]) / 1024 for line in out.stderr.splitlines()
                     if "Maximum resident set size" in line), None)
        cut = out.stderr.find("\tCommand being timed")
        LAST_STDERR["text"] = out.stderr[:cut] if cut >= 0 else out.stderr
    else:
        out = subprocess.run(cmd, capture_output=True, text=True)
        peak = None
        LAST_STDERR["text"] = out.stderr
    elapsed = time.perf_counter() - start
    if out.returncode != 0:
        raise SystemExit(f"failed: {' '.join(map(str, cmd))}\n{out.stderr[-2000:]}")
    return elapsed, peak


def best(cmds: dict, repeats: int) -> dict:
    """Best time and largest peak of each command, runs interleaved."""
    times = {name: [] for name in cmds}
    peaks = {name: None for name in cmds}
    for _ in range(repeats):
        for name, cmd in cmds.items():
            t, peak = run(cmd)
            times[name].append(t)
            if peak is not None:
                peaks[name] = max(peaks[name] or 0.0, peak)
    return {name: (min(times[name]), peaks[name]) for name in cmds}


def peer_python(venv: Path) -> Path:
    python = venv / "bin" / "python"
    if not python.exists():
        print(f"installing scikit-posthocs into {venv} (once) ...", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "scikit-posthocs"],
                       check=True)
    return python


def line(label, seconds, floor, peak=None, target=None):
    ratio = seconds / floor
    mem = f"  peak {peak:6.0f} MB" if peak else ""
    goal = f"  (target <= {target:g}x: {'met' if ratio <= target else 'NOT met'})" \
        if target else ""
    print(f"{label:<58} {seconds:7.2f} s  {ratio:6.2f}x floor{mem}{goal}", flush=True)


def target_line(label, seconds, floor, peak, ratio_max=None, peak_max=None, seconds_max=None):
    """One job against its targets: ratio to the floor, peak memory, wall time."""
    ratio = seconds / floor
    goals = []
    if ratio_max is not None:
        goals.append(f"<= {ratio_max:g}x: {'met' if ratio <= ratio_max else 'NOT met'}")
    if peak_max is not None and peak:
        goals.append(f"<= {peak_max:,} MB: {'met' if peak <= peak_max else 'NOT met'}")
    if seconds_max is not None:
        goals.append(f"<= {seconds_max} s: {'met' if seconds <= seconds_max else 'NOT met'}")
    mem = f"  peak {peak:6.0f} MB" if peak else ""
    print(f"{label:<58} {seconds:7.2f} s  {ratio:6.2f}x floor{mem}  ({'; '.join(goals)})",
          flush=True)


def huge(py, rankwise, tmp: Path, repeats: int) -> None:
    """k = 10,000 and 100,000: the jobs of issue 35 and their targets."""
    for k, n in ((10_000, 50), (10_000, 200), (100_000, 20)):
        csv = table(k, n, tmp / f"huge{k}x{n}.csv")
        report = tmp / f"report{k}x{n}"

        def clean_report(report=report, csv=csv):
            shutil.rmtree(report, ignore_errors=True)
            return [*rankwise, "compare", str(csv), "--report", str(report), "-o", os.devnull]

        jobs = {"floor": [py, "-c", FLOOR, str(csv)],
                "default": [*rankwise, "compare", str(csv), "-o", str(tmp / "d.txt")],
                "json": [*rankwise, "compare", str(csv), "--format", "json",
                         "-o", str(tmp / "d.json")]}
        if (k, n) == (10_000, 200):
            jobs["report"] = clean_report()
        if (k, n) == (10_000, 50):
            jobs["pairs"] = [*rankwise, "compare", str(csv), "--posthoc", "all", "--procedures",
                             "holm,nemenyi", "--pairs", str(tmp / "pairs.parquet"),
                             "-o", os.devnull]
        res = best(jobs, 1 if k > 10_000 else repeats)
        floor = res["floor"][0]
        print(f"\nk = {k:,} x N = {n}")
        line("floor (read, rank, mean ranks)", floor, floor, res["floor"][1])
        small = k == 10_000
        target_line("compare (default), text", res["default"][0], floor, res["default"][1],
                    10 if small else None, 1024 if small else 4096, None if small else 120)
        target_line("compare --format json", res["json"][0], floor, res["json"][1],
                    10 if small else None, 1024 if small else 4096, None if small else 120)
        if "report" in res:
            target_line("compare --report DIR (every format and figure)", res["report"][0],
                        floor, res["report"][1], 20, 1536)
        if "pairs" in res:
            target_line("--posthoc all --procedures holm,nemenyi --pairs .parquet",
                        res["pairs"][0], floor, res["pairs"][1], 60, 2048)


def k50_n100000(py, rankwise, tmp: Path, repeats: int) -> None:
    """k = 50 × N = 100,000: ``compare --posthoc all`` against the floor, its peak memory
    against the floor's, and its JSON (no null p-value, nothing on stderr)."""
    big = table(50, 100_000, tmp / "k50n100000.csv")
    res = best({"floor": [py, "-c", FLOOR, str(big)],
                "posthoc": [*rankwise, "compare", str(big), "--posthoc", "all"]},
               max(1, repeats - 1))
    print("\nk = 50 x N = 100,000")
    line("floor (read, rank, mean ranks)", res["floor"][0], res["floor"][0],
         res["floor"][1])
    line("compare --posthoc all", res["posthoc"][0], res["floor"][0], res["posthoc"][1], 2)
    if res["floor"][1] and res["posthoc"][1]:
        ratio = res["posthoc"][1] / res["floor"][1]
        print(f"{'':<58} peak memory {ratio:.2f}x the floor's (target <= 2x:"
              f" {'met' if ratio <= 2 else 'NOT met'})")
    seconds, _ = run([*rankwise, "compare", str(big), "--posthoc", "all", "--format",
                      "json", "-o", str(tmp / "big.json")])
    stderr = LAST_STDERR["text"].strip()
    doc = json.loads((tmp / "big.json").read_text())
    nulls = sum(v is None for ranking in doc["posthoc"]["rankings"]
                for family in doc["posthoc"]["families"]
                for column in [doc["posthoc"][ranking][family]["pvalue"],
                               *doc["posthoc"][ranking][family]["apv"].values()]
                for v in column)
    floored = doc["posthoc"]["friedman"]["all_pairs"]["apv"]["nemenyi"].count(
        doc["pvalue_floor"])
    print(f"{'':<58} --format json {seconds:.2f} s: {nulls} null p-values (target 0:"
          f" {'met' if nulls == 0 else 'NOT met'}); {floored} Nemenyi APVs at the"
          f" bound < 1e-300; stderr {'empty' if not stderr else repr(stderr[:200])}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--skip-peer", action="store_true")
    ap.add_argument("--skip-memory", action="store_true", help="skip k = 50 x N = 100,000")
    ap.add_argument("--only-k50", action="store_true",
                    help="only k = 50 x N = 100,000 (compare --posthoc all against the floor)")
    ap.add_argument("--only-k100", action="store_true",
                    help="only k = 100 x N = 50 (about a minute)")
    ap.add_argument("--skip-huge", action="store_true",
                    help="skip k = 10,000 and 100,000 (about 15 minutes)")
    ap.add_argument("--peer-venv", type=Path,
                    default=Path.home() / ".cache" / "rankwise-bench" / "scikit-posthocs")
    args = ap.parse_args()
    py = sys.executable
    rankwise = [py, "-m", "rankwise.cli"]
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, best of {args.repeats}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        if args.only_k50:
            k50_n100000(py, rankwise, tmp, args.repeats)
            return
        k100 = table(100, 50, tmp / "k100.csv")
        k1000 = table(1000, 200, tmp / "k1000.csv")
        report = tmp / "report"

        def clean_report():
            shutil.rmtree(report, ignore_errors=True)
            return [*rankwise, "compare", str(k1000), "--report", str(report)]

        res = best({"floor100": [py, "-c", FLOOR, str(k100)],
                    "posthoc100": [*rankwise, "compare", str(k100), "--posthoc", "all"],
                    "posthoc100_json": [*rankwise, "compare", str(k100), "--posthoc", "all",
                                        "--format", "json", "-o", str(tmp / "k100.json")]},
                   args.repeats)
        print("\nk = 100 x N = 50")
        line("floor (read, rank, mean ranks)", res["floor100"][0], res["floor100"][0],
             res["floor100"][1])
        line("compare --posthoc all (effects on)", res["posthoc100"][0], res["floor100"][0],
             res["posthoc100"][1], 3)
        line("compare --posthoc all --format json -o FILE", res["posthoc100_json"][0],
             res["floor100"][0], res["posthoc100_json"][1], 3)
        if args.only_k100:
            return
        posthoc_args = ["--posthoc", "all", "--procedures", "holm,shaffer,nemenyi"]
        res = best({"floor": [py, "-c", FLOOR, str(k1000)],
                    "default": [*rankwise, "compare", str(k1000)],
                    "posthoc": [*rankwise, "compare", str(k1000), *posthoc_args],
                    "default_json": [*rankwise, "compare", str(k1000), "--format", "json",
                                     "-o", str(tmp / "default.json")],
                    "posthoc_json": [*rankwise, "compare", str(k1000), *posthoc_args,
                                     "--format", "json", "-o", str(tmp / "posthoc.json")],
                    "rank_sets": [*rankwise, "compare", str(k1000), "--rank-sets", "ranks"],
                    "report": clean_report()}, args.repeats)
        floor = res["floor"][0]
        print("\nk = 1000 x N = 200")
        line("floor (read, rank, mean ranks)", floor, floor, res["floor"][1])
        line("compare (default)", res["default"][0], floor, res["default"][1], 4)
        if res["default"][1]:
            print(f"{'':<58} peak memory target <= 1024 MB:"
                  f" {'met' if res['default'][1] <= 1024 else 'NOT met'}")
        line("compare --posthoc all --procedures holm,shaffer,nemenyi", res["posthoc"][0],
             floor, res["posthoc"][1], 8)
        for key, label, target in (("default_json", "compare --format json (default)", 4),
                                   ("posthoc_json", "compare --posthoc all ... --format json",
                                    8)):
            line(label, res[key][0], floor, res[key][1], target)
            size = (tmp / f"{key.split('_')[0]}.json").stat().st_size / 1e6
            peak = res[key][1]
            print(f"{'':<58} file {size:.1f} MB (target <= 70 MB:"
                  f" {'met' if size <= 70 else 'NOT met'})"
                  + (f"; peak {peak:.0f} MB (target <= 600 MB:"
                     f" {'met' if peak <= 600 else 'NOT met'})" if peak else ""))
        line("compare --rank-sets ranks (499,500 pairs x 1,000 draws)", res["rank_sets"][0],
             floor, res["rank_sets"][1], 8)
        line("compare --report DIR (every format and figure)", res["report"][0], floor,
             res["report"][1], 10)
        text = report / "report.txt"
        if text.exists():
            print(f"{'':<58} report.txt {text.stat().st_size / 1e3:.0f} KB (target <= 400 KB)")
        if not args.skip_memory:
            k50_n100000(py, rankwise, tmp, args.repeats)
        if not args.skip_huge:
            huge(py, rankwise, tmp, args.repeats)
        if args.skip_peer:
            return
        peer = peer_python(args.peer_venv)
        print("\nFriedman + Nemenyi, all pairs, N = 200 (a process each, reading the CSV)")
        for k in (50, 200, 1000):
            csv = k1000 if k == 1000 else table(k, 200, tmp / f"race{k}.csv")
            res = best({"floor": [py, "-c", FLOOR, str(csv)],
                        "rankwise": [py, "-c", RANKWISE_NEMENYI, str(csv)],
                        "peer": [str(peer), "-c", PEER_NEMENYI, str(csv)]}, args.repeats)
            rw, sp = res["rankwise"][0], res["peer"][0]
            print(f"k = {k:>4}: floor {res['floor'][0]:.2f} s, rankwise {rw:.2f} s"
                  f" ({rw / res['floor'][0]:.2f}x floor), scikit-posthocs {sp:.2f} s;"
                  f" rankwise / scikit-posthocs = {rw / sp:.2f}", flush=True)


if __name__ == "__main__":
    main()
