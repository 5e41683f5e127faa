"""Regenerate the example files of other tools' formats in src/rankwise/examples/:

- amlb_results.csv: an AutoML-benchmark results file (4 frameworks, 8 tasks, 5 folds; binary
  tasks scored by auc, multiclass tasks by neg_logloss), with a framework that fails on one
  task (every fold) and on one fold of another, their ``info`` messages kept;
- openml_evaluations.csv: an OpenML evaluation listing (predictive_accuracy of 5 flows, one with
  two setups, on 10 data sets; one setup run twice on one task);
- mlr3_benchmark.csv: an mlr3 benchmark table (4 learners, 6 tasks, 5-fold cross-validation,
  measures classif.ce and classif.auc);
- amlb_older_results.csv: the AutoML benchmark's older results format (no ``metric`` column,
  ``result`` is auc for binary and logloss for multi-class tasks; the metric columns acc, auc,
  logloss beside it), with a failed job;
- amlb_reruns_results.csv: a current results file with two constraints, a failed job whose
  ``info`` is a long traceback, and its re-run appended at the end.

The columns follow each tool's documentation; the numbers are made up from a fixed seed. Run
from the repository's root: python tools/make_source_examples.py
"""

from __future__ import annotations

import csv
import random
from pathlib import Path

import numpy as np

OUT = Path("src/rankwise/examples")


def amlb(rng):
    frameworks = {"AutoGluon": 0.030, "flaml": 0.018, "H2OAutoML": 0.012, "RandomForest": 0.0}
    tasks = [("openml.org/t/3913", "kc2", "binary", 0.80), ("openml.org/t/3917", "kc1", "binary",
                                                             0.78),
             ("openml.org/t/9957", "qsar-biodeg", "binary", 0.92),
             ("openml.org/t/146820", "wilt", "binary", 0.97),
             ("openml.org/t/31", "credit-g", "binary", 0.76),
             ("openml.org/t/59", "iris", "multiclass", 0.12),
             ("openml.org/t/2079", "eucalyptus", "multiclass", 0.75),
             ("openml.org/t/146821", "car", "multiclass", 0.08)]
    header = ["id", "task", "framework", "constraint", "fold", "type", "result", "metric",
              "mode", "version", "params", "app_version", "utc", "duration", "seed", "info",
              "acc", "auc", "balacc", "logloss"]
    rows = []
    for tid, task, kind, base in tasks:
        shift = rng.normal(0, 0.01, len(frameworks))
        for fold in range(5):
            noise = rng.normal(0, 0.012)
            for (fw, skill), s in zip(frameworks.items(), shift):
                seed = 1452956522 + fold
                info = ""
                if fw == "H2OAutoML" and (task == "eucalyptus" or (task == "kc1" and fold == 3)):
                    info = ("Error: H2OAutoML did not produce any model within the time limit"
                            if task == "kc1" else
                            "MemoryError: Unable to allocate 2.3 GiB for the training frame")
                    rows.append([tid, task, fw, "1h8c", fold, kind, "", "auc" if kind ==
                                 "binary" else "neg_logloss", "local", "stable", "", "v2.1.7",
                                 f"2026-05-0{1 + fold}T10:{10 + fold}:00", "", seed, info,
                                 "", "", "", ""])
                    continue
                if kind == "binary":
                    auc = min(0.999, base + skill + s + noise + rng.normal(0, 0.008))
                    acc = auc - 0.06 + rng.normal(0, 0.01)
                    logloss = 0.9 - 0.7 * auc + rng.normal(0, 0.01)
                    result, metric = auc, "auc"
                    extra = [f"{acc:.6f}", f"{auc:.6f}", f"{acc - 0.03:.6f}", f"{logloss:.6f}"]
                else:
                    logloss = max(0.01, base * (1 - 4 * skill) + s / 4 + abs(noise)
                                  + rng.normal(0, 0.01))
                    acc = 1 - logloss / 3
                    result, metric = -logloss, "neg_logloss"
                    extra = [f"{acc:.6f}", "", f"{acc - 0.02:.6f}", f"{logloss:.6f}"]
                rows.append([tid, task, fw, "1h8c", fold, kind, f"{result:.6f}", metric,
                             "local", "stable", "", "v2.1.7",
                             f"2026-05-0{1 + fold}T10:{10 + fold}:00",
                             f"{3600 * rng.uniform(0.2, 1):.1f}", seed, info, *extra])
    with open(OUT / "amlb_results.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def openml(rng):
    flows = [(8353, "sklearn.ensemble.RandomForestClassifier", [7210], 0.030),
             (8317, "sklearn.tree.DecisionTreeClassifier", [7101], 0.0),
             (8330, "sklearn.neighbors.KNeighborsClassifier", [7151], 0.006),
             (8365, "sklearn.linear_model.LogisticRegression", [7302], 0.012),
             (8314, "sklearn.svm.SVC", [7188, 7190], 0.020)]
    data = [(3, 2, "kr-vs-kp", 0.95), (6, 6, "letter", 0.88), (11, 11, "balance-scale", 0.82),
            (12, 12, "mfeat-factors", 0.93), (14, 14, "mfeat-fourier", 0.79),
            (15, 15, "breast-w", 0.95), (16, 16, "mfeat-karhunen", 0.92),
            (18, 18, "mfeat-morphological", 0.71), (22, 22, "mfeat-zernike", 0.78),
            (23, 23, "cmc", 0.52)]
    header = ["run_id", "task_id", "setup_id", "flow_id", "flow_name", "data_id", "data_name",
              "function", "upload_time", "uploader", "uploader_name", "value", "values",
              "array_data"]
    rows = []
    run = 9_000_000
    for tid, did, name, base in data:
        for fid, flow, setups, skill in flows:
            for k, setup in enumerate(setups):
                repeats = 2 if (flow.endswith("RandomForestClassifier") and name == "cmc") else 1
                for _ in range(repeats):
                    run += 1
                    acc = min(0.999, base + skill - 0.01 * k + rng.normal(0, 0.012))
                    rows.append([run, tid, setup, fid, flow, did, name, "predictive_accuracy",
                                 "2026-03-14 12:00:00", 1, "A. Researcher", f"{acc:.4f}", "",
                                 ""])
    with open(OUT / "openml_evaluations.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def mlr3(rng):
    learners = {"classif.featureless": -0.15, "classif.rpart": 0.0, "classif.log_reg": 0.015,
                "classif.ranger": 0.04}
    tasks = {"sonar": 0.75, "german_credit": 0.72, "spam": 0.90, "pima": 0.74,
             "breast_cancer": 0.94, "ilpd": 0.68}
    header = ["nr", "task_id", "learner_id", "resampling_id", "iteration", "classif.ce",
              "classif.auc"]
    rows = []
    nr = 0
    for task, base in tasks.items():
        for learner, skill in learners.items():
            nr += 1
            for it in range(1, 6):
                acc = min(0.999, base + skill + rng.normal(0, 0.025))
                auc = 0.5 if learner == "classif.featureless" else min(
                    0.999, acc + 0.05 + rng.normal(0, 0.02))
                rows.append([nr, task, learner, "cv", it, f"{1 - acc:.4f}", f"{auc:.4f}"])
    with open(OUT / "mlr3_benchmark.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


AMLB_OLDER = """id,task,framework,fold,result,mode,version,params,tag,utc,duration,models,seed,info,acc,auc,logloss
openml.org/t/146818,Australian,autosklearn,0,0.949066,aws.docker,0.5.1,,stable,2019-04-15T12:22:02,14445.0,16,1,,0.898551,0.949066,
openml.org/t/146818,Australian,autosklearn,1,0.921902,aws.docker,0.5.1,,stable,2019-04-15T12:22:34,14444.8,17,2,,0.855072,0.921902,
openml.org/t/146818,Australian,H2OAutoML,0,0.939066,aws.docker,3.2,,stable,2019-04-15T12:22:02,14445.0,16,1,,0.888551,0.939066,
openml.org/t/146818,Australian,H2OAutoML,1,0.931902,aws.docker,3.2,,stable,2019-04-15T12:22:34,14444.8,17,2,,0.865072,0.931902,
openml.org/t/146818,Australian,TPOT,0,0.929066,aws.docker,0.9,,stable,2019-04-15T12:22:02,14445.0,16,1,,0.878551,0.929066,
openml.org/t/146818,Australian,TPOT,1,,aws.docker,0.9,,stable,2019-04-15T12:22:34,14444.8,17,2,Timeout,,,
openml.org/t/146821,car,autosklearn,0,0.00265179,aws.docker,0.5.1,,stable,2019-04-15T20:41:07,14494.6,2,1,,1.0,,0.00265179
openml.org/t/146821,car,autosklearn,1,0.0138889,aws.docker,0.5.1,,stable,2019-04-15T20:42:13,14430.5,3,2,,1.0,,0.0138889
openml.org/t/146821,car,H2OAutoML,0,0.00165179,aws.docker,3.2,,stable,2019-04-15T20:41:07,14494.6,2,1,,1.0,,0.00165179
openml.org/t/146821,car,H2OAutoML,1,0.0238889,aws.docker,3.2,,stable,2019-04-15T20:42:13,14430.5,3,2,,0.99,,0.0238889
openml.org/t/146821,car,TPOT,0,0.01265179,aws.docker,0.9,,stable,2019-04-15T20:41:07,14494.6,2,1,,0.99,,0.01265179
openml.org/t/146821,car,TPOT,1,0.0338889,aws.docker,0.9,,stable,2019-04-15T20:42:13,14430.5,3,2,,0.98,,0.0338889
openml.org/t/31,credit-g,autosklearn,0,0.837143,aws.docker,0.5.1,,stable,2019-04-16T08:54:59,14409.5,13,1,,0.75,0.837143,
openml.org/t/31,credit-g,autosklearn,1,0.752381,aws.docker,0.5.1,,stable,2019-04-16T08:55:19,14435.0,12,2,,0.73,0.752381,
openml.org/t/31,credit-g,H2OAutoML,0,0.807143,aws.docker,3.2,,stable,2019-04-16T08:54:59,14409.5,13,1,,0.74,0.807143,
openml.org/t/31,credit-g,H2OAutoML,1,0.782381,aws.docker,3.2,,stable,2019-04-16T08:55:19,14435.0,12,2,,0.72,0.782381,
openml.org/t/31,credit-g,TPOT,0,0.817143,aws.docker,0.9,,stable,2019-04-16T08:54:59,14409.5,13,1,,0.76,0.817143,
openml.org/t/31,credit-g,TPOT,1,0.762381,aws.docker,0.9,,stable,2019-04-16T08:55:19,14435.0,12,2,,0.71,0.762381,
"""


def amlb_older():
    (OUT / "amlb_older_results.csv").write_text(AMLB_OLDER)


def amlb_reruns(rng):
    header = ("id,task,framework,constraint,fold,type,result,metric,mode,version,params,"
              "app_version,utc,duration,training_duration,predict_duration,models_count,seed,"
              "info,acc,auc,balacc,logloss").split(",")
    tasks = [("openml.org/t/359958", "pc4"), ("openml.org/t/359955", "blood-transfusion"),
             ("openml.org/t/146818", "Australian"), ("openml.org/t/359956", "qsar-biodeg")]
    skill = {"RandomForest": 0.0, "TunedRandomForest": 0.005, "autogluon": 0.02}
    rows = []
    for constraint in ("1h8c_gp3", "4h8c_gp3"):
        for tid, task in tasks:
            base = rng.uniform(0.75, 0.9)
            for framework, plus in skill.items():
                for fold in (0, 1):
                    auc = round(min(base + plus + rng.gauss(0, 0.01)
                                    + (0.004 if constraint == "4h8c_gp3" else 0), 0.999), 6)
                    rows.append([tid, task, framework, constraint, fold, "binary", auc, "auc",
                                 "aws.docker", "1.0", "", "v2.1.7", "2023-06-01T10:00:00", 3600,
                                 3500, 10, 12, 1234 + fold, "", round(auc - 0.1, 6), auc,
                                 round(auc - 0.12, 6), round(1 - auc, 6)])
    failed, rerun = list(rows[0]), list(rows[0])
    failed[6] = ""
    failed[19:23] = ["", "", "", ""]
    failed[18] = ("MemoryError: Unable to allocate 1.2 GiB for an array with shape (2, 80000000),"
                  " data type float64\n" + '  File "amlb/benchmark.py", line 580, in run\n' * 45)
    rows[0] = failed
    rows.append(rerun)  # the job run again, appended as the benchmark appends it
    with open(OUT / "amlb_reruns_results.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


if __name__ == "__main__":
    amlb(np.random.default_rng(25))
    openml(np.random.default_rng(26))
    mlr3(np.random.default_rng(27))
    amlb_older()
    amlb_reruns(random.Random(3))
