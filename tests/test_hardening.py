"""Results files under stress: a full disk, read-only storage, damaged pages."""

import shutil
import sqlite3
import subprocess
import sys

import pandas as pd
import pytest

from rankwise import RankwiseError
from rankwise.examples import experiment_path
from rankwise.experiment import load_experiment, run_experiment
from rankwise.experiment import store as store_module
from rankwise.experiment.status import read_results


def iris_experiment(tmp_path, learner: str, repeats: int = 1, folds: int = 2):
    """An experiment file: one learner (its TOML lines) on iris."""
    exp = tmp_path / "e.toml"
    exp.write_text(f'[experiment]\nrepeats = {repeats}\nfolds = {folds}\nseed = 1\n'
                   f'criteria = ["accuracy"]\n[[datasets]]\nsource = "sklearn"\nname = "iris"\n'
                   f'[[learners]]\n{learner}\n')
    return exp


def demo():
    with experiment_path("demo") as path:
        return load_experiment(path)


def values(path):
    table, _, _ = read_results(path)
    return table[table["criterion"] != "fit_time"].drop(columns=[]).sort_values(
        ["dataset", "repeat", "fold", "learner", "criterion"]).reset_index(drop=True)


@pytest.mark.experiment
def test_a_full_disk_keeps_what_was_committed_and_the_run_continues(tmp_path, monkeypatch,
                                                                   demo_results):
    """SQLite's page limit plays the full disk: one line that says what is kept; the same
    command later finishes the run, equal to an uninterrupted one."""
    real = store_module.Store.__init__

    def small_disk(self, path, readonly=False):
        real(self, path, readonly)
        if not readonly:
            self.db.execute("PRAGMA max_page_count = 12")

    monkeypatch.setattr(store_module.Store, "__init__", small_disk)
    path = tmp_path / "r.sqlite"
    with pytest.raises(RankwiseError, match=r"the disk is full; \d+ task\(s\) are saved in it"
                                            r" and nothing committed is lost"):
        run_experiment(demo(), path, jobs=0)
    monkeypatch.undo()
    summary = run_experiment(demo(), path, jobs=0)
    assert summary["already"] > 0 and summary["failed"] == 0
    cols = ["dataset", "repeat", "fold", "learner", "criterion", "value"]
    timed = {"fit_time", "predict_time", "runtime"}
    a, b = values(path), values(demo_results)
    keep = ~a["criterion"].isin(timed)
    pd.testing.assert_frame_equal(a[keep][cols].reset_index(drop=True),
                                  b[~b["criterion"].isin(timed)][cols].reset_index(drop=True))


def test_read_only_storage_is_read_as_immutable(tmp_path, monkeypatch, demo_results):
    """Where SQLite cannot open a WAL file read-only (its shared memory cannot be created), the
    file is read as immutable; a pending write-ahead log is refused, never ignored."""
    copy = tmp_path / "ro.sqlite"
    shutil.copy(demo_results, copy)
    real = sqlite3.connect
    calls = []

    class Unopenable:  # what SQLite gives on read-only storage for a WAL file
        def execute(self, *args):
            raise sqlite3.OperationalError("unable to open database file")

        def close(self):
            pass

    def read_only_storage(target, *args, **kwargs):
        calls.append(target)
        if "mode=ro" in str(target):
            return Unopenable()
        return real(target, *args, **kwargs)

    monkeypatch.setattr(store_module.sqlite3, "connect", read_only_storage)
    table, _, status = read_results(copy)
    assert status["complete"] and len(table) > 0
    assert any("immutable=1" in str(u) for u in calls)
    (tmp_path / "ro.sqlite-wal").write_bytes(b"pending")
    with pytest.raises(RankwiseError, match="its last writes are still in ro.sqlite-wal"):
        read_results(copy)


def _damaged(demo_results, tmp_path):
    bad = tmp_path / "bad.sqlite"
    shutil.copy(demo_results, bad)
    size = bad.stat().st_size
    with open(bad, "r+b") as f:
        for offset in range(4096 * 3, size - 4096, 4096 * 2):
            f.seek(offset + 100)
            f.write(b"\xff" * 300)
    return bad


@pytest.mark.subprocess
@pytest.mark.parametrize("command", [["compare", "{f}", "-c", "auc"], ["status", "{f}"],
                                     ["export", "{f}", "-o", "{d}/out.csv"],
                                     ["run", "--example", "demo", "--results", "{f}", "--quiet"]])
def test_a_damaged_file_is_named_in_one_line(tmp_path, demo_results, command):
    bad = _damaged(demo_results, tmp_path)
    before = bad.read_bytes()
    args = [a.format(f=bad, d=tmp_path) for a in command]
    out = subprocess.run([sys.executable, "-m", "rankwise.cli", *args], capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 2, out.stderr
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert "the results file is damaged (" in out.stderr
    if command[0] == "run":
        assert "nothing was changed" in out.stderr and bad.read_bytes() == before


@pytest.mark.subprocess
@pytest.mark.experiment
def test_a_learner_that_ignores_its_time_limit_is_stopped_from_outside(tmp_path):
    import time

    from rankwise.experiment import experiment_from_dict

    doc = {"experiment": {"repeats": 1, "folds": 2, "seed": 1, "criteria": ["accuracy"],
                          "time_limit": 0.5},
           "datasets": [{"source": "sklearn", "name": "iris"}],
           "learners": [{"name": "deaf", "estimator": "rankwise.experiment.testing.StubbornClassifier",
                         "params": {"delay": 60}},
                        {"name": "NB", "estimator": "sklearn.naive_bayes.GaussianNB"}]}
    start = time.monotonic()
    summary = run_experiment(experiment_from_dict(doc), tmp_path / "r.sqlite", jobs=2)
    assert time.monotonic() - start < 40  # not the 60 s the learner wanted, per task
    assert summary["failed"] == 2 and summary["run"] == 4
    with sqlite3.connect(tmp_path / "r.sqlite") as db:
        rows = dict(db.execute("SELECT learner || fold, error FROM tasks"))
    assert rows["deaf0"].startswith("time limit of 0.5 s exceeded (the learner did not stop")
    assert rows["NB0"] is None and rows["NB1"] is None  # innocent tasks in flight: run again


@pytest.mark.subprocess
def test_the_output_of_a_killed_driver_closes_at_once(tmp_path):
    """After kill -9 of `rankwise run`, nothing keeps its pipes open: a caller reading its output
    (subprocess.run(capture_output=True)) is not left waiting."""
    import os
    import signal
    import time

    exp = iris_experiment(tmp_path, 'name = "slow"\nestimator ='
                                    ' "rankwise.experiment.testing.SlowClassifier"'
                                    '\nparams = { delay = 1.0 }', repeats=5)
    proc = subprocess.Popen([sys.executable, "-m", "rankwise.cli", "run", str(exp), "--results",
                             str(tmp_path / "r.sqlite"), "--jobs", "2", "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(3)
    os.kill(proc.pid, signal.SIGKILL)
    killed = time.monotonic()
    proc.communicate(timeout=30)
    # the tasks left take tens of seconds; a loaded machine may take a few to reap the workers
    assert time.monotonic() - killed < 5.0


@pytest.mark.subprocess
@pytest.mark.parametrize("learner, folds, message", [
    ('estimator = "sklearn.tree.DecisionTreeClassifier"\nparams = { max_depth = -3 }', 2,
     "learner 'bad': The 'max_depth' parameter"),
    ('estimator = "sklearn.naive_bayes.GaussianNB"', 60, "folds = 60 but its largest class"),
])
def test_experiments_that_cannot_succeed_are_refused_before_running(tmp_path, learner, folds,
                                                                    message):
    exp = iris_experiment(tmp_path, f'name = "bad"\n{learner}', folds=folds)
    out = subprocess.run([sys.executable, "-m", "rankwise.cli", "run", str(exp), "--results",
                          str(tmp_path / "r.sqlite"), "--quiet"], capture_output=True, text=True)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and message in out.stderr
    assert not (tmp_path / "r.sqlite").exists() or (tmp_path / "r.sqlite").stat().st_size < 50_000


@pytest.mark.subprocess
def test_a_run_whose_tasks_all_fail_exits_non_zero_with_the_reason(tmp_path):
    exp = iris_experiment(tmp_path, 'name = "fails"\n'
                                    'estimator = "rankwise.experiment.testing.FailingClassifier"')
    out = subprocess.run([sys.executable, "-m", "rankwise.cli", "run", str(exp), "--results",
                          str(tmp_path / "r.sqlite"), "--quiet", "--jobs", "0"],
                         capture_output=True, text=True)
    assert out.returncode == 1, out.stderr
    assert "the most common failure (2 of 2): ValueError: this learner always fails" in out.stderr
    assert "every task failed" in out.stderr and "Traceback" not in out.stderr
