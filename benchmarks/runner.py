"""Runner overhead per task against a bare scikit-learn loop on the same folds, and the
speed-up of --jobs 2 over one worker process.

Targets: overhead under 5 % or a few milliseconds per task; speed-up of at least 1.7 on 2 cores.

    python benchmarks/runner.py [--repeats 5] [--folds 2]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from rankwise.criteria import class_scores, evaluate
from rankwise.datasets import load_dataset
from rankwise.experiment import derive_seed, experiment_from_dict
from rankwise.runner import build_pipeline, fold_indices, plan, run_experiment
from _timing import timed


def experiment(repeats, folds, n_estimators):
    return experiment_from_dict({
        "experiment": {"repeats": repeats, "folds": folds, "seed": 1,
                       "criteria": ["accuracy", "auc", "pd", "pf", "precision", "f1",
                                    "balanced_accuracy"]},
        "datasets": [{"source": "sklearn", "name": n} for n in ("breast_cancer", "digits")],
        "learners": [
            {"name": "RF", "estimator": "sklearn.ensemble.RandomForestClassifier",
             "params": {"n_estimators": n_estimators}},
            {"name": "CART", "estimator": "sklearn.tree.DecisionTreeClassifier"},
            {"name": "kNN", "estimator": "sklearn.neighbors.KNeighborsClassifier"},
            {"name": "NB", "estimator": "sklearn.naive_bayes.GaussianNB"}]})


def bare_loop(exp):
    """The same fits, predictions and criteria, with no runner around them."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):
        for spec in exp.datasets:
            data = load_dataset(spec)
            X = data.X.to_numpy(dtype=float)
            for r in range(exp.repeats):
                for f, (train, test) in enumerate(fold_indices(data.y, exp.seed, data.name, r,
                                                               exp.folds)):
                    for learner in exp.learners:
                        model, _ = build_pipeline(learner, data, derive_seed(
                            exp.seed, "learner", data.name, r, f, learner.name))
                        model.fit(X[train], data.y[train])
                        pred = model.predict(X[test])
                        classes = [str(c) for c in model.classes_]
                        evaluate(exp.all_criteria, data.y[test], pred.astype(str).astype(object),
                                 class_scores(model, X[test], classes), classes, data.positive)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--folds", type=int, default=2)
    ap.add_argument("--trees", type=int, default=100)
    args = ap.parse_args()
    exp = experiment(args.repeats, args.folds, args.trees)
    n_tasks = len(plan(exp)[1])
    bare_loop(exp)  # warm caches and imports
    with tempfile.TemporaryDirectory() as tmp:
        t_bare = timed(lambda: bare_loop(exp))
        t_seq = timed(lambda: run_experiment(exp, Path(tmp) / "seq.sqlite", jobs=0))
        t_one = timed(lambda: run_experiment(exp, Path(tmp) / "one.sqlite", jobs=1))
        t_two = timed(lambda: run_experiment(exp, Path(tmp) / "two.sqlite", jobs=2))
    over_seq = (t_seq - t_bare) / n_tasks * 1000
    over_one = (t_one - t_bare) / n_tasks * 1000
    print(f"{n_tasks} tasks (2 data sets x {args.repeats} repeats x {args.folds} folds x"
          " 4 learners)")
    print(f"bare scikit-learn loop:         {t_bare:7.2f} s")
    print(f"rankwise run --jobs 0 (driver): {t_seq:7.2f} s  overhead {over_seq:6.2f} ms/task"
          f" ({(t_seq / t_bare - 1) * 100:5.1f} %)")
    print(f"rankwise run --jobs 1:          {t_one:7.2f} s  overhead {over_one:6.2f} ms/task"
          f" ({(t_one / t_bare - 1) * 100:5.1f} %, includes starting the worker)")
    print(f"rankwise run --jobs 2:          {t_two:7.2f} s  speed-up over --jobs 1:"
          f" {t_one / t_two:4.2f}x")


if __name__ == "__main__":
    main()
