"""Writes the bundled learning-curve example ``src/rankwise/examples/learning_curves.csv`` with
rankwise's own runner (``rankwise run --budgets``).

Twelve classification data sets drawn with scikit-learn's ``make_classification`` (seeded; 400
to 900 rows, 8 to 40 features, 2 or 3 classes, some with label noise) are written as CSV
files into a temporary folder; four learners (naive Bayes, logistic regression, a random
forest, 15-NN) run 2 repeats x 5-fold cross-validation with budgets 0.05, 0.1, 0.25, 0.5 and
1.0 of each training part; the accuracy of every run at every budget is exported as the long
table ``learner, problem, run, budget, value``. Deterministic (the runner's seeds; seed 49 for
the data sets).

    python tools/make_curves_example.py          # about three minutes on two cores
"""

import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.datasets import make_classification

import rankwise
from rankwise import DatasetSpec, Experiment, Learner
from rankwise.experiment.store import Store

OUT = Path(__file__).resolve().parents[1] / "src/rankwise/examples/learning_curves.csv"


def datasets(folder: Path) -> tuple:
    rng = np.random.default_rng(49)
    specs = []
    for i in range(12):
        n = int(rng.integers(400, 901))
        d = int(rng.integers(8, 41))
        classes = int(rng.integers(2, 4))
        X, y = make_classification(n_samples=n, n_features=d,
                                   n_informative=max(3, d // int(rng.integers(2, 5))),
                                   n_redundant=int(rng.integers(0, 4)), n_classes=classes,
                                   flip_y=float(rng.choice([0.0, 0.05, 0.15])),
                                   class_sep=float(rng.uniform(0.6, 1.4)),
                                   random_state=int(rng.integers(0, 2**31)))
        frame = pd.DataFrame(X, columns=[f"x{j}" for j in range(d)]).round(6)
        frame["class"] = [f"c{v}" for v in y]
        path = folder / f"synthetic{i + 1:02d}.csv"
        frame.to_csv(path, index=False)
        specs.append(DatasetSpec("csv", name=path.stem, path=str(path), target="class"))
    return tuple(specs)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        exp = Experiment(
            datasets=datasets(folder),
            learners=(Learner("naive_bayes", "sklearn.naive_bayes.GaussianNB"),
                      Learner("logistic", "sklearn.linear_model.LogisticRegression",
                              {"max_iter": 1000}),
                      Learner("forest", "sklearn.ensemble.RandomForestClassifier",
                              {"n_estimators": 100}),
                      Learner("knn", "sklearn.neighbors.KNeighborsClassifier",
                              {"n_neighbors": 15})),
            repeats=2, folds=5, seed=49, criteria=("accuracy",),
            budgets=(0.05, 0.1, 0.25, 0.5, 1.0))
        results = folder / "results.db"
        rankwise.run_experiment(exp, results, jobs=2)
        store = Store(results, readonly=True)
        table = store.curve_table()
        store.close()
    table = table[table.criterion == "accuracy"]
    out = pd.DataFrame({"learner": table.learner, "problem": table.dataset,
                        "run": table["repeat"].astype(str) + "/" + table["fold"].astype(str),
                        "fraction": table.budget, "value": table.value.round(6)})
    out = out.sort_values(["problem", "learner", "run", "budget"], kind="stable")
    out.to_csv(OUT, index=False)
    print(f"wrote {len(out)} rows to {OUT}")


if __name__ == "__main__":
    main()
