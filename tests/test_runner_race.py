"""The race inside the runner (``rankwise run --race``): fewer tasks than the full design, the
same decisions as the replay of the full table, the same state in every execution mode and
after kill -9, what status and compare say of a raced file, and the refusals."""

import json
import re
import sqlite3
import sys
from importlib.resources import files

import numpy as np
import pandas as pd
import pytest

import rankwise
from rankwise import RankwiseError
from rankwise.experiment import (RaceSettings, experiment_from_dict, load_experiment,
                                 run_experiment)
from rankwise.experiment.datasets import load_dataset
from rankwise.experiment.racing import race_progress
from rankwise.experiment.status import read_results, status
from rankwise.experiment.store import Store

from test_runner import kill_9_at, to_toml


def small(delay=0.0, datasets=12, **race_head):
    """Twelve small synthetic data sets; a majority-class baseline that loses everywhere."""
    return {
        "experiment": {"repeats": 1, "folds": 2, "seed": 5, "criteria": ["accuracy"]},
        "datasets": [{"source": "synthetic", "name": f"s{i:02d}", "samples": 60,
                      "features": 4, "informative": 2, "separation": 2.0, "flip": 0.0,
                      "seed": i} for i in range(datasets)],
        "learners": [
            {"name": "majority", "estimator": "rankwise.experiment.testing.SlowClassifier",
             "params": {"delay": delay}},
            {"name": "NB", "estimator": "sklearn.naive_bayes.GaussianNB"},
            {"name": "stump", "estimator": "sklearn.tree.DecisionTreeClassifier",
             "params": {"max_depth": 1}}],
    }


ALPHA = 0.5  # a loose race, so that twelve data sets are enough to eliminate the baseline


def task_keys(path):
    with sqlite3.connect(path) as db:
        return sorted(db.execute("SELECT dataset, repeat, fold, learner, status FROM tasks"))


def accuracy(path):
    table, _, _ = read_results(path)
    return table[table["criterion"] == "accuracy"].reset_index(drop=True)


def stored_race(path):
    store = Store(path, readonly=True)
    try:
        meta = store.meta()
        return meta["race"], race_progress(store, meta)
    finally:
        store.close()


@pytest.fixture(scope="module")
def raced(tmp_path_factory):
    folder = tmp_path_factory.mktemp("race")
    exp = experiment_from_dict(small())
    summary = run_experiment(exp, folder / "raced.sqlite", jobs=0,
                             race=RaceSettings(alpha=ALPHA))
    run_experiment(exp, folder / "full.sqlite", jobs=0)
    return folder, summary


def test_the_race_runs_fewer_tasks_and_decides_as_the_replay_of_the_full_table(raced):
    folder, summary = raced
    record = summary["race"]
    full = 12 * 3 * 2
    assert summary["total"] == full and summary["run"] + record["tasks_not_needed"] == full
    assert record["tasks_not_needed"] > 0
    assert [e["learner"] for e in record["eliminations"]] == ["majority"]
    # The replay of the full table, in the race's order, eliminates the same learners at the
    # same data sets with the same evidence.
    table = rankwise.load_table(folder / "full.sqlite", criterion="accuracy")
    rows = [table.datasets.index(d) for d in record["settings"]["order"]]
    replay = rankwise.race(table, alpha=ALPHA, order=rows)
    assert [(e.learner, e.by, e.step) for e in replay.eliminations] == \
        [(e["learner"], e["by"], e["step"]) for e in record["eliminations"]]
    assert [e.evalue for e in replay.eliminations] == \
        pytest.approx([e["evalue"] for e in record["eliminations"]], rel=1e-12)
    assert list(replay.survivors) == record["survivors"]
    # The random order is the experiment's seed's permutation of the file's data sets.
    names = [f"s{i:02d}" for i in range(12)]
    assert record["settings"]["order"] == [names[i] for i in
                                           np.random.default_rng(5).permutation(12)]
    # An eliminated learner has no task on a data set after its elimination, and every
    # learner still in the race has all of its tasks on every data set taken.
    out = record["eliminations"][0]
    later = set(record["settings"]["order"][out["step"]:])
    keys = task_keys(folder / "raced.sqlite")
    assert not [k for k in keys if k[3] == "majority" and k[0] in later]
    assert {(k[0], k[3]) for k in keys} == {
        (d, lrn) for i, d in enumerate(record["settings"]["order"])
        for lrn in ("majority", "NB", "stump") if lrn != "majority" or i < out["step"]}
    # The stored values are those of the full run, task by task.
    full_acc = accuracy(folder / "full.sqlite").set_index(
        ["dataset", "repeat", "fold", "learner"])
    raced_acc = accuracy(folder / "raced.sqlite").set_index(
        ["dataset", "repeat", "fold", "learner"])
    pd.testing.assert_frame_equal(raced_acc, full_acc.loc[raced_acc.index])


def test_the_stored_record_is_the_recomputed_race_and_status_shows_it(raced, capsys, cli):
    folder, summary = raced
    kept, recomputed = stored_race(folder / "raced.sqlite")
    assert kept == recomputed == json.loads(json.dumps(summary["race"]))
    info = status(folder / "raced.sqlite")
    assert info["complete"] and info["to_do"] == 0
    assert info["not_needed"] == summary["race"]["tasks_not_needed"]
    assert info["done"] + info["not_needed"] == info["total_tasks"]
    cells = {(c["dataset"], c["learner"]): c for c in info["cells"]}
    step = summary["race"]["eliminations"][0]["step"]
    for i, d in enumerate(summary["race"]["settings"]["order"]):
        assert cells[(d, "majority")]["not_needed"] == (2 if i >= step else 0)
    code, text, _ = cli("status", folder / "raced.sqlite")
    assert code == 0
    assert "Race on accuracy (alpha = 0.5" in text
    assert f"majority eliminated after {step} data sets" in text
    assert "not needed (the race)" in text


def test_compare_on_a_raced_file_analyses_the_complete_part_and_says_so(raced, capsys, cli):
    folder, summary = raced
    step = summary["race"]["eliminations"][0]["step"]
    table = rankwise.load_table(folder / "raced.sqlite", criterion="accuracy")
    assert sorted(table.datasets) == sorted(summary["race"]["settings"]["order"][:step])
    assert table.learners == ("majority", "NB", "stump")
    said = " ".join(table.warnings)
    assert "raced on accuracy" in said and "majority was eliminated by" in said
    assert f"left {summary['race']['tasks_not_needed']} tasks unrun" in said
    survivors = rankwise.load_table(folder / "raced.sqlite", criterion="accuracy",
                                    missing="drop-learners")
    assert survivors.learners == ("NB", "stump") and len(survivors.datasets) == 12
    code, out, _ = cli("compare", folder / "raced.sqlite", "--criterion", "accuracy")
    assert code == 0 and "was raced on accuracy" in " ".join(out.split())
    assert "unfinished" not in out


@pytest.mark.parametrize("mode", [{"jobs": 2}, {"jobs": 2, "dask_scheduler": "local"}],
                         ids=["pool", "dask"])
@pytest.mark.experiment
def test_the_race_is_the_same_in_every_execution_mode(raced, tmp_path, mode):
    folder, summary = raced
    path = tmp_path / "r.sqlite"
    again = run_experiment(experiment_from_dict(small()), path, race=RaceSettings(alpha=ALPHA),
                           **mode)
    assert again["race"] == summary["race"]
    assert task_keys(path) == task_keys(folder / "raced.sqlite")
    pd.testing.assert_frame_equal(accuracy(path), accuracy(folder / "raced.sqlite"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc and SIGKILL")
@pytest.mark.subprocess
@pytest.mark.experiment
def test_kill_9_in_the_middle_of_a_race_resumes_to_the_identical_state(raced, tmp_path):
    folder, summary = raced
    exp_file = tmp_path / "exp.toml"
    exp_file.write_text(to_toml(small(delay=0.05)))
    reference = tmp_path / "reference.sqlite"
    run_experiment(load_experiment(exp_file), reference, jobs=0, race=RaceSettings(alpha=ALPHA))
    needed = len(task_keys(reference))
    # The slow baseline runs until its elimination (36 tasks in): kills land early and just
    # before it; the recomputed race takes over from either.
    for point in (3, 33):
        db = tmp_path / f"killed{point}.sqlite"
        done_at_kill = kill_9_at(point, exp_file, db, "--race", "--alpha", str(ALPHA))
        assert point <= done_at_kill < needed, (point, done_at_kill)
        # What a reader sees of the killed race is the race recomputed from the file.
        assert status(db)["race"]["steps"] <= summary["race"]["steps"]
        again = run_experiment(load_experiment(exp_file), db, jobs=2,
                               race=RaceSettings(alpha=ALPHA))
        assert again["already"] + again["run"] == needed
        assert task_keys(db) == task_keys(reference)
        pd.testing.assert_frame_equal(accuracy(db), accuracy(reference))
        assert stored_race(db) == stored_race(reference)
    assert stored_race(reference)[0] == json.loads(json.dumps(summary["race"]))


@pytest.mark.experiment
def test_a_failing_learner_gives_missing_outcomes_not_losses(tmp_path):
    doc = small(datasets=4)
    doc["learners"].append({"name": "broken", "estimator": "rankwise.experiment.testing.FailingClassifier"})
    summary = run_experiment(experiment_from_dict(doc), tmp_path / "r.sqlite", jobs=0,
                             race=RaceSettings("accuracy", alpha=ALPHA))
    record = summary["race"]
    # Each data set: the broken learner's three pairs have no outcome.
    assert record["missing"] == 4 * 3 and record["steps"] == 4
    assert "broken" in record["survivors"]


@pytest.mark.experiment
def test_changed_race_settings_are_refused_then_forced(raced, tmp_path):
    folder, _ = raced
    path = tmp_path / "r.sqlite"
    exp = experiment_from_dict(small())
    run_experiment(exp, path, jobs=0, race=RaceSettings(alpha=ALPHA))
    with pytest.raises(RankwiseError, match=r"race on accuracy \(alpha 0.5, goal 1, random"
                                            r" order\) -> on accuracy \(alpha 0.05"):
        run_experiment(exp, path, jobs=0, race=RaceSettings(alpha=0.05))
    with pytest.raises(RankwiseError, match=r"race on accuracy .* -> none"):
        run_experiment(exp, path, jobs=0)
    # Without the race, --force completes the full design.
    summary = run_experiment(exp, path, jobs=0, force=True)
    assert summary["run"] == 12 * 3 * 2 - len(task_keys(folder / "raced.sqlite"))
    assert "race" not in summary and status(path)["race"] is None
    assert status(path)["complete"] and status(path)["not_needed"] == 0


@pytest.mark.experiment
def test_run_race_command_line(tmp_path, capsys, cli):
    exp_file = tmp_path / "exp.toml"
    exp_file.write_text(to_toml(small()))
    db = tmp_path / "r.sqlite"
    code, _, err = cli("run", exp_file, "--results", db, "--race", "accuracy",
                       "--alpha", ALPHA, "--order", "given", "--quiet")
    assert code == 0, err
    said = " ".join(line.removeprefix("rankwise: ") for line in err.splitlines())
    assert "the race did not need" in said
    assert "Race on accuracy (alpha = 0.5, goal: the best, data sets in the experiment" in said
    assert "majority eliminated after" in said
    assert stored_race(db)[0]["settings"]["order"] == [f"s{i:02d}" for i in range(12)]
    race_said = err[err.index("rankwise: Race on"):].splitlines()
    assert len(race_said) >= 3 and all(len(line) <= 80 for line in race_said)
    for args, message in [
            (["--alpha", "0.1"], "--alpha set(s) a race: add --race"),
            (["--race", "auc"], "--race auc: the experiment does not record it"),
            (["--race", "--goal", "top:3"], "--goal: a race of 3 learners keeps from 1 to 2"),
            (["--race", "--goal", "worst"], "--goal must be best or top:M"),
            (["--race", "--order", "sorted"], "--order must be random or given"),
            (["--race", "--alpha", "1.5"], "alpha must be between 0 and 1")]:
        code, _, err = cli("run", exp_file, "--results", tmp_path / "x.sqlite",
                           "--quiet", *args)
        assert code == 2 and message in err, (args, err)
        assert "Traceback" not in err and len(err.splitlines()) == 1


@pytest.mark.experiment
def test_the_bundled_race_example_needs_fewer_tasks_than_its_full_design(tmp_path):
    exp = load_experiment(files("rankwise.examples") / "race_experiment.toml")
    summary = run_experiment(exp, tmp_path / "r.sqlite", jobs=0, race=True)
    assert summary["run"] < summary["total"]
    assert summary["run"] + summary["race"]["tasks_not_needed"] == summary["total"]
    assert [e["learner"] for e in summary["race"]["eliminations"]][:1] == ["majority"]


def test_synthetic_data_sets_are_the_same_everywhere_and_checked():
    doc = small(datasets=1)
    spec = experiment_from_dict(doc).datasets[0]
    a, b = load_dataset(spec), load_dataset(spec)
    assert a.content_hash == b.content_hash and a.X.shape == (60, 4)
    assert a.classes == ["c0", "c1"]
    for change, message in [({"samples": 5}, "samples must be a whole number from 20"),
                            ({"informative": 9}, "informative (9) cannot exceed features"),
                            ({"classes": 5}, "5 classes need informative ≥ 3"),
                            ({"flip": 0.9}, "flip must be a number from 0.0 to 0.5"),
                            ({"sampels": 100}, "did you mean 'samples'")]:
        bad = small(datasets=1)
        bad["datasets"][0].update(change)
        with pytest.raises(RankwiseError, match=re.escape(message)):
            experiment_from_dict(bad)


@pytest.mark.figures
def test_rankwise_race_on_a_raced_file_shows_that_race(raced, capsys, tmp_path, cli):
    folder, summary = raced
    record = summary["race"]
    code, out, err = cli("race", folder / "raced.sqlite", "--format", "json",
                         "--figure", tmp_path / "race.svg")
    assert code == 0, err
    shown = json.loads(out)
    assert [(e["learner"], e["by"], e["step"]) for e in shown["eliminations"]] == \
        [(e["learner"], e["by"], e["step"]) for e in record["eliminations"]]
    assert shown["order"] == record["settings"]["order"] and shown["seed"] == 5
    assert shown["steps"] == record["steps"] and shown["survivors"] == record["survivors"]
    assert shown["alpha"] == ALPHA
    # (learner, data set) evaluations: the tasks the race ran, per repeat x fold.
    assert shown["tasks_used"] * 2 == summary["run"]
    assert "the race that rankwise run --race ran into" in err
    assert "on accuracy (higher is better;" in err
    assert (tmp_path / "race.svg").stat().st_size > 0
    # An option that would make it another race is refused, in one line.
    code, _, err = cli("race", folder / "raced.sqlite", "--alpha", "0.1")
    assert code == 2 and "--alpha cannot apply" in err and len(err.splitlines()) == 1
    # A results file run without a race is replayed as a table, and what the reading did
    # is said.
    code, out, err = cli("race", folder / "full.sqlite", "--criterion", "accuracy",
                         "--alpha", str(ALPHA), "--order", "given")
    assert code == 0 and "Race over 12 data sets, 3 learners" in out
    assert "ran into" not in err


@pytest.mark.experiment
def test_a_settled_race_runs_nothing_more(raced, tmp_path):
    """With goal top:2 the race is settled when the baseline goes: no later data set runs."""
    folder, summary = raced
    step = summary["race"]["eliminations"][0]["step"]
    path = tmp_path / "top2.sqlite"
    done = run_experiment(experiment_from_dict(small()), path, jobs=0,
                          race=RaceSettings(alpha=ALPHA, goal=2))
    record = done["race"]
    assert record["settled"] and record["finished"] and record["steps"] == step
    assert record["survivors"] == ["NB", "stump"] and record["next"] is None
    assert done["run"] == step * 3 * 2
    assert record["tasks_not_needed"] == (12 - step) * 3 * 2
    info = status(path)
    assert info["complete"] and info["to_do"] == 0 and info["not_needed"] == (12 - step) * 6
    table = rankwise.load_table(path, criterion="accuracy")
    assert len(table.datasets) == step and "the race took" in " ".join(table.warnings)


@pytest.mark.experiment
def test_a_race_too_short_to_eliminate_says_so(tmp_path):
    from rankwise.stats.racing import log_evalue

    summary = run_experiment(experiment_from_dict(small(datasets=4)), tmp_path / "r.sqlite",
                             jobs=0, race=RaceSettings("accuracy", alpha=0.05))
    assert any("with 4 data set(s) the race cannot eliminate any learner" in n
               for n in summary["notes"])
    assert summary["race"]["eliminations"] == [] and summary["race"]["tasks_not_needed"] == 0
    # The note's arithmetic: four wins and no loss stay below k(k - 1)/alpha = 120.
    assert np.exp(log_evalue(4, 0)) < 120
    quiet = run_experiment(experiment_from_dict(small()), tmp_path / "q.sqlite", jobs=0,
                           race=RaceSettings(alpha=ALPHA))
    assert not any("cannot eliminate" in n for n in quiet["notes"])


@pytest.mark.experiment
def test_the_progress_bar_counts_down_the_tasks_not_needed_and_says_each_elimination(
        raced, tmp_path):
    folder, summary = raced

    class Bar:
        def __init__(self):
            self.totals, self.lines, self.done = [], [], 0

        def start(self, total, done, failed):
            self.totals.append(total)

        def advance(self, failed):
            self.done += 1

        def set_total(self, total):
            self.totals.append(total)

        def say(self, line):
            self.lines.append(line)

        def stop(self):
            pass

    bar = Bar()
    run_experiment(experiment_from_dict(small()), tmp_path / "r.sqlite", jobs=0,
                   race=RaceSettings(alpha=ALPHA), progress=bar)
    e = summary["race"]["eliminations"][0]
    assert bar.lines == [f"rankwise: race: majority eliminated after {e['step']} data sets by"
                         f" {e['by']} (e = {e['evalue']:,.0f})"]
    assert bar.totals[0] == 72 and bar.totals[-1] == bar.done == summary["run"]
    assert sorted(bar.totals, reverse=True) == bar.totals
