"""TabArena's leaderboard of its own per-split results, as bencheval computes it: the input
(``src/rankwise/examples/tabarena_results_per_split.csv``, ``--example tabarena``:
TabArena's example evaluation
``example_tabarena_v0pt1_local``, subset ``lite``: 78 methods x 51 data sets, fold 0, as
its repository holds it) and ``tests/data/reference/bencheval_leaderboard.json`` (every
column of ``BenchmarkEvaluator.leaderboard`` with Elo anchored at ``RF (default)``, the
win-rate matrix, and Bradley-Terry strengths of choix and evalica on a small example).

Run it with a Python that has the reference tools as their users install them, in a
virtual environment of their own:

    python -m venv /tmp/ref && /tmp/ref/bin/pip install bencheval==0.1.0 choix evalica
    /tmp/ref/bin/python tools/make_bencheval_references.py
"""

from __future__ import annotations

import json
import sys
from importlib.metadata import version
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
INPUT = ROOT / "src" / "rankwise" / "examples" / "tabarena_results_per_split.csv"
OUT = ROOT / "tests" / "data" / "reference" / "bencheval_leaderboard.json"
#: A small tournament with a tie, for the Bradley-Terry strengths of choix and evalica:
#: (winner, loser) pairs, a tie as (a, b, "tie").
SMALL = [("a", "b"), ("a", "b"), ("b", "a"), ("a", "c"), ("c", "a"), ("b", "c"),
         ("c", "b"), ("c", "b"), ("a", "d"), ("d", "b"), ("c", "d"), ("b", "d", "tie"),
         ("d", "a")]


#: evalica's own example (its Pair2Rank space's example.csv: 30 food comparisons, two ties).
PAIR2RANK = """Pizza,Sushi,left Burger,Pasta,right Tacos,Pizza,left Sushi,Tacos,right Burger,Pizza,left
Pasta,Sushi,right Tacos,Burger,left Pizza,Pasta,tie Sushi,Burger,right Pasta,Tacos,left
Burger,Sushi,right Tacos,Pizza,left Sushi,Pasta,tie Burger,Tacos,left Pizza,Burger,right
Pasta,Tacos,right Burger,Sushi,right Tacos,Pasta,left Pizza,Tacos,right Sushi,Burger,left
Pasta,Pizza,right Burger,Sushi,right Tacos,Pasta,left Pizza,Sushi,left Sushi,Burger,right
Pasta,Tacos,right Tacos,Pizza,left Burger,Pasta,right Sushi,Tacos,left Pizza,Burger,right"""


def pair2rank() -> dict:
    import evalica

    rows = [r.split(",") for r in PAIR2RANK.split()]
    code = {"left": evalica.Winner.X, "right": evalica.Winner.Y, "tie": evalica.Winner.Draw}
    result = evalica.bradley_terry([r[0] for r in rows], [r[1] for r in rows],
                                   [code[r[2]] for r in rows], tolerance=1e-12, limit=100_000)
    return {"battles": rows, "evalica_scores": {str(k): float(v)
                                                for k, v in result.scores.items()}}


def board() -> dict:
    from bencheval.evaluator import BenchmarkEvaluator

    df = pd.read_csv(INPUT)
    data = df[["dataset", "fold", "method", "metric_error", "time_train_s", "time_infer_s",
               "imputed"]].copy()
    data["imputed"] = data["imputed"].astype(float)
    ev = BenchmarkEvaluator(task_col="dataset", seed_column="fold",
                            columns_to_agg_extra=["time_train_s", "time_infer_s", "imputed"])
    lb = ev.leaderboard(data, include_mrr=True, include_rank_counts=True,
                        include_rescaled_loss=True,
                        elo_kwargs={"calibration_framework": "RF (default)",
                                    "BOOTSTRAP_ROUNDS": 100})
    per_task = ev.compute_results_per_task(data=data, include_seed_col=True)
    matrix = ev.compute_winrate_matrix(per_task)
    return {"leaderboard": {m: {c: float(v) for c, v in row.items()}
                            for m, row in lb.iterrows()},
            "winrate_matrix": {"methods": list(matrix.index),
                               "values": np.where(np.isnan(matrix.to_numpy()), None,
                                                  matrix.to_numpy()).tolist()}}


def small() -> dict:
    import choix
    import evalica

    names = sorted({x for battle in SMALL for x in battle[:2]})
    ix = {n: i for i, n in enumerate(names)}
    decisive = [(ix[b[0]], ix[b[1]]) for b in SMALL if len(b) == 2]
    strengths = choix.opt_pairwise(len(names), decisive, alpha=0.0, tol=1e-12)
    xs = [b[0] for b in SMALL]
    ys = [b[1] for b in SMALL]
    winners = [evalica.Winner.Draw if len(b) == 3 else evalica.Winner.X for b in SMALL]
    result = evalica.bradley_terry(xs, ys, winners, tolerance=1e-12, limit=100_000)
    return {"battles": [list(b) for b in SMALL], "names": names,
            "choix_decisive_only": [float(v) for v in strengths],
            "evalica_scores": {str(k): float(v) for k, v in result.scores.items()}}


def main() -> int:
    reference = {"bencheval": version("bencheval"), "choix": version("choix"),
                 "evalica": version("evalica"), "input": str(INPUT.relative_to(ROOT)),
                 "settings": "BenchmarkEvaluator(task_col='dataset', seed_column='fold');"
                             " leaderboard(include_mrr, include_rank_counts,"
                             " include_rescaled_loss, elo anchored at 'RF (default)',"
                             " 100 bootstrap rounds, seed 0)",
                 **board(), "small": small(), "pair2rank": pair2rank()}
    OUT.write_text(json.dumps(reference, indent=1) + "\n")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
