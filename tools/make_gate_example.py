"""Writes the bundled pair of runs of ``rankwise gate --example nightly``:
``src/rankwise/examples/gate_baseline.csv`` and ``gate_candidate.csv``.

A released model (``v1.4``) and tonight's candidate (``v1.5``) answer the same items of three
tasks (120 arithmetic, 164 code, 300 trivia items), five trials (epochs) each, 0/1 scores. An
item has a difficulty; a model answers a trial right with probability logistic(skill −
difficulty). The candidate is as good on arithmetic and trivia and worse on code (its skill
there 0.45 lower): the regression the gate should find, on one task of three. Deterministic:
seed 1406.

    python tools/make_gate_example.py
"""

from pathlib import Path

import numpy as np
import pandas as pd

TASKS = {"arith": 120, "code": 164, "trivia": 300}
SKILL = {"v1.4": {"arith": 0.8, "code": 0.6, "trivia": 1.0},
         "v1.5": {"arith": 0.8, "code": 0.15, "trivia": 1.05}}
TRIALS = 5


def main():
    rng = np.random.default_rng(1406)
    difficulty = {task: rng.normal(0, 1.6, n) for task, n in TASKS.items()}
    out = Path(__file__).parents[1] / "src" / "rankwise" / "examples"
    for model, name in (("v1.4", "gate_baseline.csv"), ("v1.5", "gate_candidate.csv")):
        rows = []
        for task, n in TASKS.items():
            p = 1 / (1 + np.exp(-(SKILL[model][task] - difficulty[task])))
            right = rng.random((n, TRIALS)) < p[:, None]
            for i in range(n):
                for r in range(TRIALS):
                    rows.append((model, task, f"{task}-{i:03d}", r + 1, int(right[i, r])))
        pd.DataFrame(rows, columns=["model", "task", "item", "repeat", "score"]).to_csv(
            out / name, index=False)


if __name__ == "__main__":
    main()
