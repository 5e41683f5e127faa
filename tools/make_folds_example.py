"""Regenerate src/rankwise/examples/folds_demo.csv: a small long table with repeats × folds.

Four learners on five data sets, 5 repeats × 2 folds, criteria accuracy and runtime; made-up
numbers from a fixed seed, for the quartile charts of the notes (which need fold-level values).
"""

import numpy as np

rng = np.random.default_rng(3)
learners = {"bc": (0.80, 0.03, 2.0), "bfc": (0.82, 0.02, 6.0), "bf": (0.79, 0.04, 4.0),
            "fc": (0.74, 0.05, 9.0)}
datasets = {"iris": 0.10, "wine": 0.05, "bupa": -0.12, "cmc": -0.20, "vote": 0.12}
lines = ["dataset,learner,criterion,repeat,fold,value"]
for d, shift in datasets.items():
    for r in range(5):
        for f in range(2):
            for l, (acc, sd, cost) in learners.items():
                a = min(1.0, acc + shift + rng.normal(0, sd))
                t = cost * (1 + abs(shift)) * rng.lognormal(0, 0.3)
                lines.append(f"{d},{l},accuracy,{r},{f},{a:.3f}")
                lines.append(f"{d},{l},runtime,{r},{f},{t:.2f}")
open("src/rankwise/examples/folds_demo.csv", "w").write("\n".join(lines) + "\n")
