"""Results as other tools write them (tables/sources.py, tables/from_sklearn.py): each format's
example gives the same analysis as the long table renamed by hand; failed jobs are reported
with their messages; folds are never data sets; bad mappings end in one line and exit 2."""

import json
from importlib import resources

import numpy as np
import pandas as pd
import pytest

from rankwise import (RankwiseError, compare, from_cross_validate, from_search, load_example,
                      load_table)
from rankwise.examples import example_path


def frame_of(name):
    return pd.read_csv(example_path(name))


def same_analysis(a, b):
    """The numbers and decisions of two comparisons agree."""
    assert a.table.learners == b.table.learners and a.table.datasets == b.table.datasets
    assert np.array_equal(a.table.values, b.table.values, equal_nan=True)
    assert a.table.higher_is_better == b.table.higher_is_better
    assert np.allclose(a.mean_ranks, b.mean_ranks)
    for name in a.tests:
        assert a.tests[name].pvalue == b.tests[name].pvalue
    assert a.verdict.statement == b.verdict.statement


# --- the AutoML benchmark -------------------------------------------------------------------

def test_amlb_one_metric_equals_the_renamed_long_table():
    cmp = compare(load_example("amlb", criterion="auc"))
    raw = frame_of("amlb")
    raw = raw[raw["metric"] == "auc"]
    hand = raw.rename(columns={"task": "dataset", "framework": "learner", "result": "value",
                               "metric": "criterion"})[["dataset", "learner", "fold",
                                                        "criterion", "value"]]
    same_analysis(cmp, compare(hand, criterion="auc"))
    assert cmp.table.n_datasets == 5 and cmp.table.n_learners == 4  # tasks, not folds
    r = cmp.table.reading
    assert r.source == "amlb" and r.detected
    assert r.columns == {"dataset": "task", "learner": "framework", "value": "result",
                         "criterion": "metric", "fold": "fold"}
    text = cmp.to_text()
    assert "Input read as an AutoML-benchmark results file (recognised from its header" in text
    assert json.loads(cmp.to_json())["input"]["source"] == "amlb"


def test_amlb_every_task_on_its_own_metric():
    cmp = compare(load_example("amlb", criterion="result", missing="drop-datasets"))
    raw = frame_of("amlb")
    flip = raw["metric"].isin(["logloss"])  # the file's only lower-is-better metric name
    assert not flip.any()  # neg_logloss is already oriented: nothing is negated
    hand = raw.rename(columns={"task": "dataset", "framework": "learner", "result": "value"})
    same_analysis(cmp, compare(hand[["dataset", "learner", "fold", "value"]],
                               higher_is_better=True, missing="drop-datasets"))
    assert cmp.table.direction_source == "source"
    assert "every task on its own metric" in cmp.verdict.direction
    assert "Each task is ranked on its own metric (auc for 5 tasks, neg_logloss for 3" \
        in cmp.table.reading.sentence()


def test_amlb_lower_is_better_metrics_are_negated_for_result(tmp_path):
    raw = frame_of("amlb")
    old = raw.copy()
    neg = old["metric"] == "neg_logloss"
    old.loc[neg, "result"] = -old.loc[neg, "result"]
    old.loc[neg, "metric"] = "logloss"  # the benchmark's older files: logloss as it is
    path = tmp_path / "results.csv"
    old.to_csv(path, index=False)
    a = compare(load_table(path, criterion="result", missing="drop-datasets"))
    b = compare(load_example("amlb", criterion="result", missing="drop-datasets"))
    assert np.allclose(a.table.values, b.table.values)
    assert "negated" in a.table.reading.sentence()


def test_amlb_several_metrics_need_a_choice_and_failed_jobs_are_reported():
    with pytest.raises(RankwiseError, match=r"auc \(5 tasks\), neg_logloss \(3 tasks\)"):
        load_example("amlb")
    with pytest.raises(RankwiseError) as info:
        load_example("amlb", criterion="result")  # H2OAutoML failed on every fold of a task
    message = str(info.value)
    assert "eucalyptus / H2OAutoML" in message and "MemoryError" in message
    assert "\n" not in message
    t = load_example("amlb", criterion="neg_logloss", missing="drop-learners")
    assert "H2OAutoML" in t.dropped_learners
    assert any("MemoryError: Unable to allocate" in w for w in t.warnings)
    # the metric columns of the file can be analysed for every task
    acc = load_example("amlb", criterion="acc", missing="drop-datasets")
    assert acc.criterion == "acc" and acc.n_datasets == 7


def test_amlb_constraints_become_part_of_the_learner(tmp_path):
    raw = frame_of("amlb")
    other = raw[raw["framework"] == "flaml"].assign(constraint="4h16c")
    path = tmp_path / "results.csv"
    pd.concat([raw, other]).to_csv(path, index=False)
    t = load_table(path, criterion="auc")
    assert "flaml (1h8c)" in t.learners and "flaml (4h16c)" in t.learners


# --- OpenML -----------------------------------------------------------------------------------

def test_openml_listing_equals_the_renamed_long_table():
    cmp = compare(load_example("openml"))
    raw = frame_of("openml")
    svc = raw["flow_name"] == "sklearn.svm.SVC"
    learner = raw["flow_name"].where(~svc, raw["flow_name"] + " (setup "
                                     + raw["setup_id"].astype(str) + ")")
    hand = pd.DataFrame({"dataset": raw["data_name"], "learner": learner,
                         "criterion": raw["function"], "repeat": raw["run_id"],
                         "value": raw["value"]})
    same_analysis(cmp, compare(hand))
    assert cmp.table.n_datasets == 10 and cmp.table.n_learners == 6
    assert cmp.table.criterion == "predictive_accuracy" and cmp.table.higher_is_better
    # a DataFrame straight from openml.evaluations.list_evaluations(output_format="dataframe")
    same_analysis(cmp, compare(raw))


# --- mlr3 -------------------------------------------------------------------------------------

@pytest.mark.parametrize("measure, higher", [("classif.ce", False), ("classif.auc", True)])
def test_mlr3_table_equals_the_renamed_long_table(measure, higher):
    cmp = compare(load_example("mlr3", criterion=measure))
    raw = frame_of("mlr3")
    hand = pd.DataFrame({"dataset": raw["task_id"], "learner": raw["learner_id"],
                         "fold": raw["iteration"], "value": raw[measure]})
    same_analysis(cmp, compare(hand, higher_is_better=higher))
    assert cmp.table.higher_is_better is higher and cmp.table.direction_source == "criterion"
    assert cmp.table.n_datasets == 6  # tasks, not iterations
    with pytest.raises(RankwiseError, match="several measures"):
        load_example("mlr3")


# --- a column mapping -------------------------------------------------------------------------

@pytest.fixture
def renamed(tmp_path):
    t = load_example("folds_demo", criterion="accuracy").raw
    df = t.rename(columns={"dataset": "problem", "learner": "algo", "fold": "split",
                           "repeat": "run", "value": "acc"})
    path = tmp_path / "mine.csv"
    df.to_csv(path, index=False)
    return path


def test_a_column_mapping_reads_any_long_table(renamed, cli):
    mapping = {"dataset": "problem", "learner": "algo", "fold": "split", "repeat": "run",
               "value": "acc"}
    a = compare(renamed, columns=mapping, criterion="accuracy")
    b = compare(load_example("folds_demo", criterion="accuracy"))
    same_analysis(a, b)
    assert a.table.reading.source == "columns" and a.table.reading.columns == mapping
    out = cli("compare", str(renamed), "--criterion", "accuracy", "--columns",
              "dataset=problem,learner=algo,fold=split,repeat=run,value=acc")
    assert out.returncode == 0, out.stderr
    assert "Input read as a long table with a column mapping" in out.stdout.replace("\n", " ")


@pytest.mark.parametrize("columns, message", [
    ("dataset=problem,learner=algo,value=accuracy", "no column 'accuracy' (mapped to value);"
     " the table's columns are problem, algo, acc, run, split"),
    ("dataset=problem,learner=problem,value=acc", "column 'problem' is mapped twice"),
    ("dataset=problem,learner=algo,value=acc,data=run", "unknown role 'data'"),
    ("dataset=problem,learner=algo,value", "ROLE=COLUMN pairs"),
    ("dataset=problem,learner=run,repeat=split,fold=acc,value=algo",
     "column 'algo': 'bc' is not a number"),
    ("dataset=problem,value=acc", "needs learner as well"),
    ("dataset=problem,learner=algo,learner=run,value=acc", "gives the role 'learner' twice"),
])
def test_bad_mappings_are_one_line_errors(renamed, columns, message, cli):
    out = cli("compare", str(renamed), "--columns", columns)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert message in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_source_rankwise_and_shape_wide_override_the_detection(tmp_path, cli):
    out = cli("compare", str(example_path("amlb")), "--source", "rankwise")
    assert out.returncode == 2 and "column 'task' holds names such as 'kc2'" in out.stderr \
        and "--columns dataset=COLUMN,learner=COLUMN,value=COLUMN" in out.stderr
    out = cli("compare", str(example_path("mlr3")), "--source", "amlb")
    assert out.returncode == 2 and "--source amlb needs the columns task, framework" in out.stderr
    assert "Traceback" not in out.stderr
    with pytest.raises(RankwiseError, match="--shape wide"):
        load_table(example_path("mlr3"), shape="wide", criterion="classif.ce")


def test_cli_reads_each_format(cli):
    for args in (["--example", "amlb", "--criterion", "auc"],
                 ["--example", "openml"],
                 ["--example", "mlr3", "--criterion", "classif.ce"]):
        out = cli("compare", *args, "--format", "json")
        assert out.returncode == 0, out.stderr
        doc = json.loads(out.stdout)
        assert doc["input"]["detected"] is True
        assert doc["report"]["verdict"]["text"]


# --- scikit-learn -----------------------------------------------------------------------------

sklearn = pytest.importorskip("sklearn")


def sklearn_runs():
    from sklearn.datasets import load_breast_cancer, load_iris, load_wine
    from sklearn.model_selection import StratifiedKFold, cross_validate
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.tree import DecisionTreeClassifier

    learners = {"tree": DecisionTreeClassifier(random_state=0), "nb": GaussianNB(),
                "knn": KNeighborsClassifier()}
    data = {"iris": load_iris(return_X_y=True), "wine": load_wine(return_X_y=True),
            "breast_cancer": load_breast_cancer(return_X_y=True)}
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    return {name: {l: cross_validate(est, X, y, cv=cv, scoring=["accuracy", "neg_log_loss"])
                   for l, est in learners.items()} for name, (X, y) in data.items()}


def test_from_cross_validate_equals_the_hand_built_table():
    runs = sklearn_runs()
    long = from_cross_validate(runs)
    assert set(long["criterion"]) == {"accuracy", "neg_log_loss"}
    rows = [(d, l, f, v) for d, ls in runs.items() for l, cv in ls.items()
            for f, v in enumerate(cv["test_accuracy"])]
    hand = pd.DataFrame(rows, columns=["dataset", "learner", "fold", "value"])
    same_analysis(compare(long, criterion="accuracy"),
                  compare(hand, criterion="accuracy"))
    nll = compare(long, criterion="neg_log_loss")
    assert nll.table.higher_is_better  # scikit-learn's negated loss: higher is better
    timed = from_cross_validate(runs, times=True)
    assert {"fit_time", "score_time"} <= set(timed["criterion"])
    assert not load_table(timed, criterion="fit_time").higher_is_better


def test_from_search_names_configurations_from_their_parameters():
    from sklearn.datasets import load_iris, load_wine
    from sklearn.model_selection import GridSearchCV
    from sklearn.tree import DecisionTreeClassifier

    grid = {"max_depth": [1, 3, None], "criterion": ["gini", "entropy"]}
    found = {}
    for name, (X, y) in {"iris": load_iris(return_X_y=True),
                         "wine": load_wine(return_X_y=True)}.items():
        search = GridSearchCV(DecisionTreeClassifier(random_state=0), grid, cv=4).fit(X, y)
        found[name] = search.cv_results_
    long = from_search(found)
    assert long["learner"].nunique() == 6 and set(long["fold"]) == {0, 1, 2, 3}
    assert "criterion=entropy, max_depth=3" in set(long["learner"])
    cmp = compare(long)
    assert cmp.table.n_datasets == 2 and cmp.table.n_learners == 6
    # each cell is the median of the configuration's split scores
    res = found["iris"]
    j = [i for i, p in enumerate(res["params"]) if p == {"criterion": "gini", "max_depth": 1}][0]
    expected = np.median([res[f"split{i}_test_score"][j] for i in range(4)])
    assert cmp.table.values[cmp.table.datasets.index("iris"),
                            cmp.table.learners.index("criterion=gini, max_depth=1")] == expected


def test_sklearn_helpers_refuse_what_they_cannot_read():
    with pytest.raises(RankwiseError, match="no test scores"):
        from_cross_validate({"iris": {"tree": {"fit_time": [1.0]}}})
    with pytest.raises(RankwiseError, match="cv_results_"):
        from_search({"iris": {"mean_test_score": [0.9]}})
    with pytest.raises(RankwiseError, match="non-empty mapping"):
        from_cross_validate([])


def test_openml_data_set_with_several_tasks_keeps_them_apart():
    raw = frame_of("openml")
    cmc = raw[raw["data_name"] == "cmc"].assign(task_id=9999,
                                                run_id=lambda d: d["run_id"] + 10**6)
    t = load_table(pd.concat([raw, cmc]))
    assert {"cmc (task 23)", "cmc (task 9999)"} <= set(t.datasets)
    assert "kr-vs-kp" in t.datasets  # a data set with one task keeps its plain name
    assert "task_id where a data set has several tasks" in t.reading.sentence()


def test_mlr3_aggregated_table_and_amlb_scores_file(tmp_path):
    raw = frame_of("mlr3")
    agg = raw.groupby(["task_id", "learner_id"], sort=False, as_index=False)[
        ["classif.ce", "classif.auc"]].mean()
    agg.insert(0, "nr", range(1, len(agg) + 1))
    agg["resampling_id"], agg["iters"] = "cv", 5  # as bmr$aggregate() has them
    t = load_table(agg, criterion="classif.ce")
    assert t.n_datasets == 6 and t.aggregate is None and not t.higher_is_better
    assert "fold" not in t.reading.columns
    # the benchmark's scores/*.csv: the results' columns and a few more
    scores = frame_of("amlb").assign(training_duration=1.0, predict_duration=0.1,
                                     models_count=12)
    path = tmp_path / "RandomForest.benchmark_test.csv"
    scores.to_csv(path, index=False)
    same_analysis(compare(path, criterion="auc"), compare(load_example("amlb", criterion="auc")))


def test_a_results_database_takes_no_mapping(tmp_path):
    from rankwise.experiment.store import Store

    path = tmp_path / "results.db"
    Store(path).close()
    with pytest.raises(RankwiseError, match="has its own columns"):
        load_table(path, columns={"value": "x"})


def test_a_result_that_is_not_a_number_is_an_error_for_every_reading():
    raw = frame_of("amlb").astype({"result": object})
    raw.loc[3, "result"] = "abc"  # the file's row 5
    for criterion in ("auc", "result"):
        with pytest.raises(RankwiseError, match=r"row 5, column 'result': 'abc' is not a number"):
            load_table(raw, criterion=criterion, missing="drop-datasets")


#: Files other tools wrote, one or more per format, with the options that pick one criterion.
FORMAT_FILES = [
    ("amlb", "example:amlb", {"criterion": "result", "missing": "drop-datasets"}),
    ("amlb", "example:amlb_older", {"criterion": "result", "missing": "worst"}),
    ("amlb", "example:amlb_reruns", {"where": "constraint=1h8c_gp3"}),
    ("openml", "example:openml", {}),
    ("mlr3", "example:mlr3", {"criterion": "classif.ce"}),
    ("weka", "example:weka", {}),
    ("weka", "tests/data/weka/weka_5x2.arff", {}),
    ("weka", "tests/data/weka/weka_split66x10.arff", {}),
    ("tabarena", "example:tabarena", {}),
    ("mlflow", "tests/data/sources/mlflow_runs.csv", {"criterion": "accuracy"}),
    ("wandb", "tests/data/sources/wandb_export.csv",
     {"criterion": "accuracy", "missing": "drop-datasets"}),
]


@pytest.mark.parametrize("fmt, where, options", FORMAT_FILES,
                         ids=[f"{f}-{w.split('/')[-1].split(':')[-1]}" for f, w, _ in FORMAT_FILES])
def test_each_format_given_explicitly_reads_what_detection_reads(fmt, where, options):
    """``--source NAME`` given reads every file that detection reads as NAME, to the same
    table (0.8 refused every WEKA file given as ``--source weka``: its required columns were
    compared in their own case with the header lowered)."""
    from pathlib import Path

    from rankwise import load_table
    if where.startswith("example:"):
        with resources.as_file(example_path(where.split(":")[1])) as path:
            inferred = load_table(str(path), **options)
            given = load_table(str(path), source_format=fmt, **options)
            header = inferred.reading.source
    else:
        path = Path(__file__).parents[1] / where
        inferred = load_table(str(path), **options)
        given = load_table(str(path), source_format=fmt, **options)
        header = inferred.reading.source
    assert header == fmt
    assert inferred.learners == given.learners and inferred.datasets == given.datasets
    assert np.array_equal(inferred.values, given.values, equal_nan=True)


def test_rankwise_weka_export_is_read_with_source_weka(tmp_path, capsys, cli, demo_results):
    code, _, err = cli("export", demo_results, "-f", "weka",
                       "-o", tmp_path / "r.arff")
    assert code == 0, err
    code, out, err = cli("compare", tmp_path / "r.arff", "--source", "weka",
                         "--criterion", "auc")
    assert code == 0, err
    assert "rankwise report" in out


def test_what_the_user_maps_wins_over_the_amlb_readers_inference():
    """--columns says what the constraint is: the constraint is no longer appended to the
    learner; learner=framework alone, which would put two results in one cell, is refused."""
    both = load_example("amlb_reruns")
    assert len(both.learners) == 6 and all("(" in name for name in both.learners)
    stated = load_example("amlb_reruns", columns={"learner": "framework",
                                                  "repeat": "constraint"})
    assert sorted(stated.learners) == sorted({name.split(" (")[0] for name in both.learners})
    with pytest.raises(RankwiseError, match="learner=framework,repeat=constraint"):
        load_example("amlb_reruns", columns={"learner": "framework"})


def test_a_mapped_value_column_of_the_amlb_older_format_is_the_criterion():
    mapped = load_example("amlb_older", columns={"dataset": "task", "learner": "framework",
                                                 "value": "auc", "fold": "fold"})
    named = load_example("amlb_older", criterion="auc")
    assert mapped.criterion == "auc" and mapped.learners == named.learners
    assert np.array_equal(mapped.values, named.values, equal_nan=True)


def test_a_long_table_whose_scores_column_is_the_criterion(tmp_path):
    rows = ["dataset,learner,repeat,fold,accuracy"]
    rows += [f"d{d},{lrn},0,{f},{0.6 + 0.1 * i + 0.01 * d + 0.001 * f}"
             for d in range(5) for i, lrn in enumerate("ABC") for f in range(2)]
    path = tmp_path / "long.csv"
    path.write_text("\n".join(rows) + "\n")
    table = load_table(str(path), criterion="accuracy")
    assert table.learners == ("A", "B", "C") and table.n_datasets == 5
    assert table.reading.columns["value"] == "accuracy"
    assert any("named by --criterion" in note for note in table.reading.notes)
    assert table.values[0, 2] == pytest.approx(0.8005)
    # without the criterion the table is not guessed at
    with pytest.raises(RankwiseError, match="name its columns"):
        load_table(str(path))


def test_a_weka_measure_declared_nominal_is_refused_as_weka_refuses_it(tmp_path, cli):
    """WEKA's tester reads numeric measures only; a nominal one whose labels look like
    numbers is not a score."""
    from pathlib import Path

    from rankwise.tables.arff import read_arff

    source = (Path(__file__).parent / "data" / "weka" / "weka_5x2.arff").read_text()
    labels = sorted(set(read_arff(source, "weka_5x2")["Percent_correct"].dropna()))
    lines = [("@attribute Percent_correct {" + ",".join(labels) + "}"
              if line.split()[:2] == ["@attribute", "Percent_correct"] else line)
             for line in source.splitlines()]
    bad = tmp_path / "nominal.arff"
    bad.write_text("\n".join(lines) + "\n")
    assert read_arff(bad.read_text(), "x").attrs["arff_types"]["Percent_correct"] == "nominal"
    for given in ([], ["--source", "weka"]):
        code, _, err = cli("compare", bad, *given)
        assert code == 2 and "declared nominal" in err and len(err.strip().splitlines()) == 1


def test_benchevals_own_input_columns_read_as_tabarenas():
    """bencheval's ``BenchmarkEvaluator`` names the data set ``task`` and the split ``seed``:
    the same table as TabArena's per-split file."""
    with resources.as_file(example_path("tabarena")) as path:
        frame = pd.read_csv(path)
    theirs = frame.rename(columns={"dataset": "task", "fold": "seed"})[
        ["task", "seed", "method", "metric_error"]]
    a, b = load_table(frame), load_table(theirs)
    assert a.reading.source == b.reading.source == "tabarena" and b.reading.detected
    assert a.learners == b.learners and a.datasets == b.datasets
    assert np.array_equal(a.values, b.values) and not b.higher_is_better
