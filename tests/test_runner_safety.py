"""The runner never mixes or loses results, refuses every bad input with one line, stops cleanly
on SIGINT/SIGTERM, shows the state of a run, and runs pipelines."""

import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from rankwise import RankwiseError
from rankwise.cli import app
from rankwise.experiment import experiment_from_dict, load_experiment, run_experiment
from rankwise.experiment.status import status, status_text
from test_runner import committed, results_table, small, to_toml


def design(cart_depth=2, seed=11, repeats=2, slow=None):
    doc = small(repeats=repeats, seed=seed)
    doc["learners"] = [
        {"name": "CART", "estimator": "sklearn.tree.DecisionTreeClassifier",
         "params": {"max_depth": cart_depth}},
        {"name": "NB", "estimator": "sklearn.naive_bayes.GaussianNB"}]
    if slow is not None:
        doc["learners"].append({"name": "slow", "estimator": "rankwise.experiment.testing.SlowClassifier",
                                "params": {"delay": slow}})
    return doc


def fresh(tmp_path, doc, name):
    path = tmp_path / name
    run_experiment(experiment_from_dict(doc), path, jobs=0)
    return results_table(path)


# --- identity of a result and --force ------------------------------------------------------

@pytest.mark.experiment
def test_force_never_reuses_a_result_of_another_identity(tmp_path):
    """The issue's case: same-named learners with other parameters and another seed. After any
    sequence of runs the file equals a fresh run of the final experiment, value for value."""
    db = tmp_path / "r.sqlite"
    run_experiment(experiment_from_dict(design(cart_depth=2)), db, jobs=0)
    changed = design(cart_depth=4)
    with pytest.raises(RankwiseError, match=r"learner 'CART': estimator or parameters changed.*"
                                            r"--force to keep the 8 stored task\(s\) that still"
                                            r" match and run the other 8 again"):
        run_experiment(experiment_from_dict(changed), db, jobs=0)
    summary = run_experiment(experiment_from_dict(changed), db, jobs=0, force=True)
    assert (summary["already"], summary["run"], summary["removed"]) == (8, 8, 8)
    pd.testing.assert_frame_equal(results_table(db), fresh(tmp_path, changed, "a.sqlite"))
    # Another seed changes every split: nothing may be reused.
    reseeded = design(cart_depth=4, seed=12, repeats=1)
    with pytest.raises(RankwiseError, match=r"repeats 2 -> 1; seed 11 -> 12"):
        run_experiment(experiment_from_dict(reseeded), db, jobs=0)
    summary = run_experiment(experiment_from_dict(reseeded), db, jobs=0, force=True)
    assert summary["already"] == 0 and summary["removed"] == 16 and summary["run"] == 8
    pd.testing.assert_frame_equal(results_table(db), fresh(tmp_path, reseeded, "b.sqlite"))
    meta = status(db)
    assert len(meta["forced_changes"]) == 2 and meta["done"] == 8 and meta["total_tasks"] == 8


@pytest.mark.experiment
def test_a_0_1_results_file_resumes_by_identity(tmp_path):
    """Files written by 0.1 have no identity column: it is derived from the design they
    recorded, so an unchanged experiment resumes without --force."""
    db = tmp_path / "old.sqlite"
    doc = design()
    run_experiment(experiment_from_dict(doc), db, jobs=0)
    with sqlite3.connect(db) as con:  # turn it into a 0.1 file: no identity, one task missing
        con.execute("CREATE TABLE t2 AS SELECT dataset, repeat, fold, learner, status, error,"
                    " finished, warnings FROM tasks")
        con.execute("DROP TABLE tasks")
        con.execute("ALTER TABLE t2 RENAME TO tasks")
        con.execute("DELETE FROM tasks WHERE learner='NB' AND repeat=1 AND fold=1 AND"
                    " dataset='iris'")
        con.execute("DELETE FROM results WHERE learner='NB' AND repeat=1 AND fold=1 AND"
                    " dataset='iris'")
    summary = run_experiment(experiment_from_dict(doc), db, jobs=0)
    assert (summary["already"], summary["run"]) == (15, 1)
    pd.testing.assert_frame_equal(results_table(db), fresh(tmp_path, doc, "f.sqlite"))
    # A 0.1 file that was continued with --force cannot say which experiment made each result.
    with sqlite3.connect(db) as con:
        con.execute("UPDATE tasks SET identity = NULL")
        con.execute("""INSERT OR REPLACE INTO meta VALUES ('forced_changes', '[["design"]]')""")
        con.execute("""INSERT OR REPLACE INTO meta VALUES ('format', '1')""")
    with pytest.raises(RankwiseError, match="continued with --force by rankwise 0.1"):
        run_experiment(experiment_from_dict(doc), db, jobs=0)
    summary = run_experiment(experiment_from_dict(doc), db, jobs=0, force=True)
    assert summary["removed"] == 16 and summary["run"] == 16


# --- one writer -----------------------------------------------------------------------------

@pytest.mark.subprocess
def test_a_second_driver_is_refused_and_the_first_is_unharmed(tmp_path):
    exp = tmp_path / "e.toml"
    # Eight slow tasks of 0.6 s: the first driver is still running when the second has started,
    # even on a loaded machine.
    exp.write_text(to_toml(design(slow=0.6)))
    db = tmp_path / "r.sqlite"
    first = subprocess.Popen([sys.executable, "-m", "rankwise.cli", "run", str(exp), "-r",
                              str(db), "--jobs", "0", "-q"], stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while committed(db) < 2 and time.time() < deadline:
        time.sleep(0.02)
    assert status(db)["running"]
    second = subprocess.run([sys.executable, "-m", "rankwise.cli", "run", str(exp), "-r",
                             str(db), "-q"], capture_output=True, text=True, timeout=120)
    assert second.returncode == 2 and "Traceback" not in second.stderr
    assert second.stderr.strip().splitlines() == [
        f"rankwise: error: {db}: another rankwise run is writing to this results file; wait for it"
        " to finish (rankwise status shows it), or use another --results file"]
    assert first.wait(timeout=120) == 0, first.stderr.read()
    info = status(db)
    assert info["done"] == info["total_tasks"] == 24 and not info["running"]


@pytest.mark.subprocess
@pytest.mark.experiment
def test_a_killed_driver_leaves_no_stale_lock(tmp_path):
    exp = tmp_path / "e.toml"
    exp.write_text(to_toml(design(slow=0.15)))
    db = tmp_path / "r.sqlite"
    proc = subprocess.Popen([sys.executable, "-m", "rankwise.cli", "run", str(exp), "-r",
                             str(db), "--jobs", "0", "-q"], stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while committed(db) < 2 and time.time() < deadline:
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not status(db)["running"]
    run_experiment(load_experiment(exp), db, jobs=0)
    assert status(db)["complete"]


# --- interruption ---------------------------------------------------------------------------

@pytest.mark.subprocess
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX signals")
@pytest.mark.parametrize("jobs, point, sig", [("0", 3, signal.SIGINT), ("2", 6, signal.SIGINT),
                                              ("2", 15, signal.SIGTERM)])
@pytest.mark.experiment
def test_interrupt_commits_what_finished_then_resume_equals_the_uninterrupted_run(
        tmp_path, jobs, point, sig):
    doc = design(slow=0.1)
    exp = tmp_path / "e.toml"
    exp.write_text(to_toml(doc))
    db = tmp_path / "r.sqlite"
    proc = subprocess.Popen([sys.executable, "-m", "rankwise.cli", "run", str(exp), "-r",
                             str(db), "--jobs", jobs, "-q"], stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while committed(db) < point and proc.poll() is None and time.time() < deadline:
        time.sleep(0.01)
    proc.send_signal(sig)
    err = proc.communicate(timeout=60)[1]
    assert proc.returncode == 130, err
    done = committed(db)
    assert point <= done < 24
    assert err.strip().splitlines()[-1] == (f"rankwise: interrupted: {done} of 24 tasks done;"
                                            " run the same command to continue")
    assert "Traceback" not in err
    info = status(db)
    assert not info["running"] and info["to_do"] == 24 - done
    assert "run the same command again to continue" in " ".join(status_text(info).split())
    with sqlite3.connect(db) as con:  # nothing half-written: every task has all its results
        counts = con.execute("SELECT count(*) FROM results GROUP BY dataset, repeat, fold,"
                             " learner").fetchall()
        assert len(counts) == done and {c for (c,) in counts} == {9}
    again = subprocess.run([sys.executable, "-m", "rankwise.cli", "run", str(exp), "-r", str(db),
                            "--jobs", jobs, "-q"], capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    assert f"{done} were already done, {24 - done} ran now" in again.stderr
    pd.testing.assert_frame_equal(results_table(db), fresh(tmp_path, doc, "u.sqlite"))


# --- status -----------------------------------------------------------------------------------

@pytest.mark.experiment
def test_status_of_a_failing_run_lists_failures_and_warnings(tmp_path):
    doc = design()
    doc["learners"].append({"name": "fails", "estimator": "rankwise.experiment.testing.FailingClassifier"})
    doc["learners"].append({"name": "LR", "estimator": "sklearn.linear_model.LogisticRegression",
                            "params": {"max_iter": 2}})
    db = tmp_path / "f.sqlite"
    run_experiment(experiment_from_dict(doc), db, jobs=0)
    info = status(db)
    assert info["failed"] == 8 and info["done"] == 24 and info["complete"]
    assert {f["error"].split(" (")[0] for f in info["failures"]} == {
        "ValueError: this learner always fails"}
    assert [c for c in info["cells"] if c["learner"] == "fails"][0] == {
        "dataset": "iris", "learner": "fails", "done": 0, "failed": 4, "to_do": 0,
        "not_needed": 0}
    assert any(w["learner"] == "LR" and w["message"].startswith("ConvergenceWarning")
               and w["tasks"] >= 1 for w in info["warnings"])
    runner = CliRunner()
    text = runner.invoke(app, ["status", str(db)])
    assert text.exit_code == 0 and "Failures (8):" in text.stdout
    assert "Learner warnings (number of tasks):" in text.stdout
    # every line within 80 columns (the failures' messages and the warnings wrapped, their
    # continuation lines indented), nothing lost in the wrapping
    assert all(len(line) <= 80 or len(line.split()) == 1   # a path is not broken
               for line in text.stdout.splitlines())
    assert "scikit-learn" in text.stdout.split("Library versions:")[1]
    assert " ".join(text.stdout.split()).count("ValueError: this learner always fails") == 8
    as_json = json.loads(runner.invoke(app, ["status", str(db), "--format", "json"]).stdout)
    assert as_json["schema"] == "rankwise.status/1" and as_json["failed"] == 8
    assert set(as_json["versions"]) >= {"python", "numpy", "scikit-learn", "rankwise"}


# --- pipelines ------------------------------------------------------------------------------

PIPELINE = """
[experiment]
repeats = 1
folds = 2
seed = 3
criteria = ["accuracy"]

[[datasets]]
source = "sklearn"
name = "wine"

[[learners]]
name = "kNN"
estimator = "sklearn.neighbors.KNeighborsClassifier"

[[learners]]
name = "scaled kNN"
steps = [
    { estimator = "sklearn.preprocessing.StandardScaler" },
    { estimator = "sklearn.neighbors.KNeighborsClassifier" },
]

[[learners]]
name = "recorder"
steps = [
    { estimator = "sklearn.preprocessing.StandardScaler" },
    { estimator = "rankwise.experiment.testing.RecordingClassifier", params = { log = "LOG" } },
]
"""


@pytest.mark.experiment
def test_pipelines_are_fitted_on_the_training_part_only(tmp_path):
    from sklearn.datasets import load_wine
    from sklearn.preprocessing import StandardScaler

    from rankwise.experiment.tasks import fold_indices

    log = tmp_path / "fits.log"
    exp = tmp_path / "p.toml"
    exp.write_text(PIPELINE.replace("LOG", str(log)))
    experiment = load_experiment(exp)
    scaled = experiment.learners[1]
    assert scaled.describe()["steps"][0]["estimator"] == "sklearn.preprocessing.StandardScaler"
    assert scaled.identity != experiment.learners[0].identity
    db = tmp_path / "p.sqlite"
    run_experiment(experiment, db, jobs=0)
    acc = results_table(db).pivot_table(index="learner", values="value", aggfunc="mean")
    assert acc.loc["scaled kNN", "value"] > acc.loc["kNN", "value"] + 0.1  # scaling matters
    X, y = load_wine(return_X_y=True)
    labels = np.array([str(n) for n in load_wine().target_names[y]], dtype=object)
    expected = []
    for train, _ in fold_indices(labels, 3, "wine", 0, 2):
        scaled_train = StandardScaler().fit(X[train]).transform(X[train])
        expected.append(hashlib.sha256(np.ascontiguousarray(scaled_train).tobytes())
                        .hexdigest()[:16])
    recorded = [line.split()[0] for line in log.read_text().splitlines()]
    assert recorded == expected


# --- every mistake is one line, exit 2, no traceback -------------------------------------------

GOOD = to_toml(design(repeats=1))


def bad_experiments():
    return {
        "repeats as text": GOOD.replace("repeats = 1", 'repeats = "three"'),
        "repeats not whole": GOOD.replace("repeats = 1", "repeats = 1.7"),
        "time limit with unit": GOOD.replace("[experiment]", '[experiment]\ntime_limit = "10s"'),
        "params not a table": GOOD.replace('params = { max_depth = 2 }', 'params = "x"'),
        "bad parameter value": GOOD.replace('max_depth = 2', 'max_depth = "deep"'),
        # Top-level keys must come before the first table header.
        "datasets as text": 'datasets = "iris"\n' + GOOD.split("[[datasets]]")[0]
                            + "[[learners]]" + GOOD.split("[[learners]]", 1)[1],
        "learners as numbers": "learners = [1, 2]\n" + GOOD.split("[[learners]]")[0],
        "relative estimator path": GOOD.replace("sklearn.naive_bayes.GaussianNB", "..x"),
        "unknown key": GOOD.replace("[experiment]", "[experiment]\nrepeat = 2"),
        "folds above the largest class": GOOD.replace("folds = 2", "folds = 400"),
    }


EXPECTED = {
    "repeats as text": "[experiment] repeats must be a whole number ≥ 1; got 'three'",
    "repeats not whole": "[experiment] repeats must be a whole number ≥ 1; got 1.7",
    "time limit with unit": "[experiment] time_limit must be a number of seconds",
    "params not a table": "learner 'CART': params must be a table",
    "bad parameter value": "learner 'CART': The 'max_depth' parameter of DecisionTreeClassifier",
    "datasets as text": "datasets must be an array of tables",
    "learners as numbers": "learners must be an array of tables",
    "relative estimator path": "learner 'NB': estimator must be an import path",
    "unknown key": "unknown key 'repeat' in [experiment]; did you mean 'repeats'?",
    "folds above the largest class": "folds = 400 but its largest class has only",
}


def one_line_error(result, expected):
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rankwise: error: "), result.output
    assert expected in lines[0], lines[0]
    assert "Traceback" not in result.output


@pytest.mark.parametrize("case", list(EXPECTED))
def test_bad_experiment_files(tmp_path, case):
    exp = tmp_path / "e.toml"
    exp.write_text(bad_experiments()[case])
    result = CliRunner().invoke(app, ["run", str(exp), "-r", str(tmp_path / "r.sqlite"), "-q"])
    one_line_error(result, EXPECTED[case])
    assert not (tmp_path / "r.sqlite").exists() or case == "folds above the largest class"


def prepare(tmp_path):
    """Files a hurried user might hand to the wrong place."""
    good = tmp_path / "good.toml"
    good.write_text(GOOD)
    results = tmp_path / "res.sqlite"
    run_experiment(load_experiment(good), results, jobs=0)
    (tmp_path / "latin1.toml").write_bytes(GOOD.replace("CART", "Ärbre").encode("latin-1"))
    (tmp_path / "notes.txt").write_text("just some notes\n")
    (tmp_path / "folder").mkdir()
    (tmp_path / "empty.csv").write_text("")
    (tmp_path / "empty_source.toml").write_text(
        GOOD.split("[[datasets]]")[0]
        + f'[[datasets]]\nsource = "csv"\npath = "{tmp_path / "empty.csv"}"\ntarget = "y"\n'
        + "[[learners]]" + GOOD.split("[[learners]]", 1)[1])
    meta_only = tmp_path / "meta_only.sqlite"
    with sqlite3.connect(meta_only) as con:
        con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        con.execute("INSERT INTO meta VALUES ('design', '{}')")
    bad_meta = tmp_path / "bad_meta.sqlite"
    bad_meta.write_bytes(results.read_bytes())
    with sqlite3.connect(bad_meta) as con:
        con.execute("UPDATE meta SET value = 'not json' WHERE key = 'design'")
    return tmp_path


CLI_CASES = {
    "results database as experiment": (["run", "{t}/res.sqlite", "-r", "{t}/x.sqlite"],
                                       "is a results database, not an experiment file"),
    "experiment is a folder": (["run", "{t}/folder", "-r", "{t}/x.sqlite"], "is a folder"),
    "latin-1 experiment": (["run", "{t}/latin1.toml", "-r", "{t}/x.sqlite"], "not UTF-8 text"),
    "empty csv data source": (["run", "{t}/empty_source.toml", "-r", "{t}/x.sqlite"],
                              "empty.csv is empty"),
    "results is a text file": (["run", "{t}/good.toml", "-r", "{t}/notes.txt"],
                               "exists and is not a results database"),
    "results is a folder": (["run", "{t}/good.toml", "-r", "{t}/folder"], "is a folder"),
    "results in a missing folder": (["run", "{t}/good.toml", "-r", "{t}/nope/r.sqlite"],
                                    "does not exist; create it first"),
    "export into a missing folder": (["export", "{t}/res.sqlite", "-o", "{t}/nope/out.csv"],
                                     "does not exist; create it first"),
    "meta table but no results": (["compare", "{t}/meta_only.sqlite"],
                                  "not a rankwise results database"),
    "meta value not JSON": (["compare", "{t}/bad_meta.sqlite"], "is not JSON"),
    "status of a text file": (["status", "{t}/notes.txt"], "not a rankwise results database"),
    "experiment given to compare": (["compare", "{t}/good.toml"],
                                    "is an experiment file, not a table of results"),
    "experiment given to status": (["status", "{t}/good.toml"],
                                   "it looks like an experiment file: rankwise run"),
    "folder given to export": (["export", "{t}/folder", "-o", "{t}/o.csv"], "is a folder"),
    "negative jobs": (["run", "{t}/good.toml", "-r", "{t}/y.sqlite", "--jobs", "-1"],
                      "--jobs must be 0"),
}


@pytest.fixture(scope="module")
def wrong_files(tmp_path_factory):
    return prepare(tmp_path_factory.mktemp("wrong"))


@pytest.mark.parametrize("case", list(CLI_CASES))
def test_wrong_files_and_places(wrong_files, case):
    args, expected = CLI_CASES[case]
    result = CliRunner().invoke(app, [a.format(t=wrong_files) for a in args])
    one_line_error(result, expected)


@pytest.mark.parametrize("content, expected", [
    ("dataset,A,B\nd1,0.5,0.6\nd2\u2028x,0.7,0.6\nd3,0.1,0.2\n", "line separator (U+2028)"),
    ("dataset,A,B\nd1,0.5,0.6\nd2,0.7\f,0.6\nd3,0.1,0.2\n", "line 3 contains a form feed"),
    ("dataset,A,B\nd1," + "9" * 200_000 + ",0.6\nd2,0.7,0.6\n",
     "row 2, column 'A' has a cell of 200,000 characters"),
    ("dataset,A,B\n" + "x" * 200_000 + ",0.5,0.6\nd2,0.7,0.6\n",
     "row 2, column 'dataset' has a cell of 200,000 characters"),
    ("dataset,A,B\nd1,0.5," + "7" * 50_000_000 + "\nd2,0.7,0.6\n",
     "row 2, column 'B' has a cell of 50,000,000 characters"),
])
def test_hostile_tables_are_one_line_errors(tmp_path, content, expected):
    import csv
    import scipy.io.arff  # noqa: F401  (it raises the csv module's global field limit)

    previous = csv.field_size_limit(2 ** 20)  # whatever another library set, the same outcome
    try:
        path = tmp_path / "t.csv"
        path.write_text(content, encoding="utf-8")
        one_line_error(CliRunner().invoke(app, ["compare", str(path)]), expected)
    finally:
        csv.field_size_limit(previous)


def test_a_quoted_newline_is_valid_csv(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text('dataset,A,B,C\n"two\nlines",0.5,0.6,0.7\nd2,0.7,0.6,0.5\nd3,0.1,0.2,0.3\n')
    result = CliRunner().invoke(app, ["compare", str(path), "-f", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["datasets"][0] == "two\nlines"


@pytest.mark.parametrize("args, expected", [
    (["--decimals", "-1"], "decimals must be a whole number from 0 to 15"),
    (["--decimals", "400"], "decimals must be a whole number from 0 to 15"),
    (["--ranking", ""], "--ranking is empty"),
    (["--ranking", "quade"], "add --posthoc all, control or both"),
])
def test_bad_compare_options(args, expected):
    one_line_error(CliRunner().invoke(app, ["compare", "--example", "garcia2010", *args]),
                   expected)


@pytest.mark.subprocess
def test_real_process_errors_have_exit_2_and_no_traceback(wrong_files):
    for case in ("results database as experiment", "results is a text file"):
        args, expected = CLI_CASES[case]
        out = subprocess.run([sys.executable, "-m", "rankwise.cli",
                              *[a.format(t=wrong_files) for a in args]],
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 2 and "Traceback" not in out.stderr
        assert expected in out.stderr and len(out.stderr.strip().splitlines()) == 1


@pytest.mark.experiment
def test_small_classes_get_a_documented_note(tmp_path):
    path = tmp_path / "d.csv"
    rng = np.random.default_rng(0)
    rows = ["a,b,y"] + [f"{rng.normal()},{rng.normal()},{'rare' if i < 3 else 'common'}"
                        for i in range(40)]
    path.write_text("\n".join(rows) + "\n")
    doc = design(repeats=1)
    doc["experiment"]["folds"] = 5
    doc["datasets"] = [{"source": "csv", "name": "d", "path": str(path), "target": "y"}]
    summary = run_experiment(experiment_from_dict(doc), tmp_path / "r.sqlite", jobs=0)
    assert any("class(es) 'rare' (3) have fewer examples than folds = 5" in n
               for n in summary["notes"])
    assert summary["failed"] == 0


@pytest.mark.subprocess
def test_a_killed_run_leaves_no_leaked_semaphore_warning_on_the_terminal():
    """After kill -9 the resource tracker frees what the run held and warns that it "leaked";
    the helpers of a run start with that warning filtered (the run resumes as if nothing
    happened, so the warning is noise). A process that exits abruptly stands for the kill."""
    import subprocess
    import sys
    import time

    code = ("from rankwise.experiment.executors import process_context\n"
            "import os\n"
            "ctx = process_context(); s = ctx.Semaphore(); os._exit(0)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    time.sleep(1.0)   # the tracker reports when it sees its pipe close
    assert out.returncode == 0 and "leaked semaphore" not in out.stderr, out.stderr
