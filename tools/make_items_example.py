"""Writes the bundled item-level example ``src/rankwise/examples/evals_items.csv``.

Four models answer the items of four tasks (a HumanEval-sized code task of 164 items, a trivia
task of 400 items, a reading task of 480 questions on 60 passages — the ``cluster`` column —
and a 120-item arithmetic task). Each item has a difficulty; a model answers it correctly with
probability logistic(skill − difficulty), so the models' answers are correlated through the
items (the reason paired tests are more powerful), and the reading questions share their
passage's difficulty (the reason for clustered standard errors). Deterministic: seed 2411.

    python tools/make_items_example.py
"""

from pathlib import Path

import numpy as np
import pandas as pd

MODELS = {"alpha": -0.4, "beta": 0.0, "gamma": 0.35, "delta": 0.45}
TASKS = {"code": (164, None), "trivia": (400, None), "reading": (480, 60), "arith": (120, None)}


def main():
    rng = np.random.default_rng(2411)
    rows = []
    for task, (n, passages) in TASKS.items():
        if passages:
            passage = np.repeat(np.arange(passages), n // passages)
            difficulty = rng.normal(0, 1.5, passages)[passage] + rng.normal(0, 0.5, n)
        else:
            passage = None
            difficulty = rng.normal(0, 1.5, n)
        for model, skill in MODELS.items():
            p = 1 / (1 + np.exp(-(skill + 0.8 - difficulty)))
            right = (rng.random(n) < p).astype(int)
            for i in range(n):
                row = {"model": model, "task": task, "item": f"{task}-{i:03d}",
                       "score": int(right[i])}
                row["cluster"] = f"passage-{passage[i]:02d}" if passages else ""
                rows.append(row)
    out = Path(__file__).resolve().parents[1] / "src/rankwise/examples/evals_items.csv"
    pd.DataFrame(rows).to_csv(out, index=False)
    print(out, len(rows))


if __name__ == "__main__":
    main()
