"""Files as other tools write them, and numbers at their extremes (issue: real files, real sizes).

Each reader is tested on a small file written after the tool's own format (tests/data/sources):
the AutoML benchmark's older results (no metric column) and its current results with re-runs
appended and two constraints, R's write.csv, a semicolon file with decimal commas, an mlr3 table
with repeated rows. Each gives the right table or a one-line error that names the row, the column
and the fix.
"""

import json
import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import rankwise
from rankwise import RankwiseError, compare, load_table
from rankwise.examples import example_path
from rankwise.report.format import fmt_p
from rankwise.stats.pairwise import nemenyi_pvalues
from rankwise.stats.studentized_range import (asymptotic_start, log_range_tail, log_union_bound,
                                              range_logsf, union_bound_error)
from rankwise.stats.results import PVALUE_FLOOR, floor_pvalues, p_phrase

DATA = Path(__file__).parent / "data" / "sources"
#: The bundled AutoML-benchmark examples (the guide's pages run on them too).
AMLB_OLDER = Path(str(example_path("amlb_older")))
AMLB_RERUNS = Path(str(example_path("amlb_reruns")))




# --- the studentized range in the far tail ------------------------------------------------


@pytest.mark.parametrize("k", [2, 3, 10, 50, 1000])
def test_every_z_gives_a_number_without_a_warning(k):
    z = np.concatenate([np.linspace(0, 60, 601), [100.0, 1e3, 1e4]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        logp = range_logsf(np.sqrt(2) * z, k)
        p = nemenyi_pvalues(z, k)
    assert np.isfinite(logp).all() and not np.isnan(p).any()
    assert (np.diff(logp) <= 1e-12).all()  # a tail probability never increases
    assert (p[z > 40] < PVALUE_FLOOR).all() and (p >= 0).all()


@pytest.mark.parametrize("k", [3, 10, 50, 200, 1000])
def test_the_closed_form_agrees_with_the_log_space_integral_where_it_takes_over(k):
    """From asymptotic_start(k) on, the union bound replaces the integral: there both agree
    to the integral's own precision, and the proven error bound is below 1e-14."""
    q0 = asymptotic_start(k)
    q = np.linspace(q0 - 2.0, q0 + 4.0, 25)
    assert np.abs(log_range_tail(q, k) - log_union_bound(q, k)).max() < 5e-11
    assert union_bound_error(np.array([q0]), k)[0] <= 1e-14
    assert union_bound_error(np.array([q0 - 2.0]), k)[0] > 1e-14
    # and the function switches at q0 with no jump
    below = range_logsf(np.array([q0 - 1e-9]), k)[0]  # the integral
    assert abs(below - log_union_bound(np.array([q0 - 1e-9]), k)[0]) < 5e-11


def test_k2_is_the_closed_form_to_any_depth():
    q = np.array([1.0, 5.0, 30.0, 60.0, 500.0, 5000.0])
    closed = np.log(2.0) + stats.norm.logsf(q / np.sqrt(2.0))
    assert np.allclose(range_logsf(q, 2), closed, rtol=1e-13, atol=1e-300)


def test_the_union_bound_is_a_bound_and_tight():
    """Brute force over the k(k−1) ordered pairs: S1 − S2 ≤ P ≤ S1 with S2 counted exactly for
    k = 3 (bivariate normal probabilities), at a q where both are far apart from rounding."""
    k, q = 3, 8.0
    s = stats.norm.sf(q / math.sqrt(2))
    exact = math.exp(log_range_tail(np.array([q]), k)[0])
    assert exact <= k * (k - 1) * s
    assert exact >= k * (k - 1) * s * (1 - union_bound_error(np.array([q]), k)[0])


def test_many_statistics_in_the_far_tail_are_fast_enough_and_exact():
    """1,225 pairs of 50 learners with |z| spread to 150 (the interpolated path for the body,
    the closed form beyond): each equals the one-by-one value."""
    rng = np.random.default_rng(1)
    z = rng.uniform(0, 150, 1225)
    many = nemenyi_pvalues(z, 50)
    few = np.array([nemenyi_pvalues(np.array([v]), 50)[0] for v in z[:40]])
    body = few > 1e-300
    assert np.allclose(many[:40][body], few[body], rtol=1e-7, atol=1e-12)


def test_pvalue_floor_in_every_format():
    assert fmt_p(0.0) == "< 1e-300" and fmt_p(1e-301) == "< 1e-300"
    assert fmt_p(2e-300) == "2.000e-300"
    assert p_phrase(0.0) == "p < 1e-300" and p_phrase(0.0123) == "p = 0.0123"
    doc = {"pvalue": 0.0, "apv": {"holm": [0.0, 0.5, None]}, "pvalue_heatmap": {"x": 0.0},
           "mean_ranks": [0.0], "tests": {"anova": {"pvalue_huynh_feldt": 1e-320}}}
    floor_pvalues(doc)
    assert doc["pvalue"] == PVALUE_FLOOR and doc["apv"]["holm"] == [PVALUE_FLOOR, 0.5, None]
    assert doc["pvalue_heatmap"] == {"x": 0.0} and doc["mean_ranks"] == [0.0]
    assert doc["tests"]["anova"]["pvalue_huynh_feldt"] == PVALUE_FLOOR
    from rankwise.report.latex import _number
    assert _number("< 1e-300") == "$<10^{-300}$"


@pytest.fixture(scope="module")
def far_table(tmp_path_factory):
    """k = 20 learners of very different skill over N = 5,000 data sets: most pairs have
    |z| far above 38.5, where p underflows double precision."""
    rng = np.random.default_rng(5)
    k, n = 20, 5000
    x = np.round(np.arange(k)[None, :] * 0.02 + rng.normal(0, 0.01, (n, k)), 4)
    path = tmp_path_factory.mktemp("far") / "far.csv"
    frame = pd.DataFrame(x, columns=[f"L{j:02d}" for j in range(k)])
    frame.insert(0, "dataset", [f"d{i}" for i in range(n)])
    frame.to_csv(path, index=False)
    return path


@pytest.fixture(scope="module")
def far_compare(far_table):
    """``compare --posthoc all`` of the far table, once for the module's tests (about 12 s)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return compare(load_table(far_table), posthoc="all")


def test_far_tail_run_has_no_missing_pvalue_and_nothing_on_stderr(far_table, far_compare,
                                                                  tmp_path, cli_process):
    out = cli_process("compare", far_table, "--posthoc", "all", "--format", "json", "-o",
                      tmp_path / "r.json")
    assert out.returncode == 0 and out.stderr == ""
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["pvalue_floor"] == PVALUE_FLOOR
    family = doc["posthoc"]["friedman"]["all_pairs"]
    for values in [family["pvalue"], *family["apv"].values()]:
        assert None not in values and min(values) >= PVALUE_FLOOR
    assert family["apv"]["nemenyi"].count(PVALUE_FLOOR) > 100  # the far tail is there
    assert doc["tests"]["friedman"]["pvalue"] == PVALUE_FLOOR
    # the text of the same analysis (computed once for the module), no warning on the way
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        text = far_compare.to_text()
    assert "(p < 1e-300)" in text and "< 1e-300" in text
    assert "nan" not in text.lower().replace("nanos", "")


def test_json_is_the_same_data_with_columns_on_one_line(far_compare):
    cmp = far_compare
    written = cmp.to_json()
    assert json.loads(written) == json.loads(json.dumps(json.loads(written)))
    # a column of numbers is one line
    assert any(line.strip().startswith('"pvalue": [') and line.rstrip().endswith("],")
               for line in written.splitlines())


def test_contrast_matrices_follow_the_table_rule():
    t = rankwise.load_example("garcia2010")
    doc = json.loads(compare(t, posthoc="control").to_json())
    ce = doc["posthoc"]["contrast_estimation"]
    assert ce["matrices_included"] is True and len(ce["estimates"]) == 4
    rng = np.random.default_rng(0)
    x = rng.normal(size=(10, 120))
    # the asymptotic gate: the rule is about the JSON, not the permutation p-value (3.5 s)
    big = compare(pd.DataFrame(x, index=[f"d{i}" for i in range(10)],
                               columns=[f"L{j}" for j in range(120)]), posthoc="control",
                  friedman_method="chi2")
    ce = json.loads(big.to_json())["posthoc"]["contrast_estimation"]
    assert ce["matrices_included"] is False and ce["estimates"] is None
    assert len(ce["m"]) == 120
    full = json.loads(big.to_json(include_table=True))["posthoc"]["contrast_estimation"]
    m = np.array(full["m"])
    assert np.allclose(np.array(full["estimates"]), m[:, None] - m[None, :])


# --- Scott-Knott refuses what every procedure refuses --------------------------------------


def test_scott_knott_esd_refuses_a_missing_value():
    from rankwise.analysis.scott_knott import scott_knott_esd

    x = np.random.default_rng(0).random((6, 3))
    x[2, 1] = np.nan
    with pytest.raises(RankwiseError, match=r"scores must be finite: nan at row 3, column 2"):
        scott_knott_esd(x, ["a", "b", "c"])


# --- repeated rows -------------------------------------------------------------------------


def test_duplicate_rows_error_names_the_true_pairs():
    with pytest.raises(RankwiseError) as err:
        load_table(DATA / "mlr3_repeated_rows.csv", criterion="classif.ce")
    message = str(err.value)
    assert "\n" not in message
    assert "rows 2 and 10 (task_id = sonar, learner_id = classif.rpart, iteration = 1)" in message
    assert "rows 9 and 11 (task_id = pima, learner_id = classif.ranger, iteration = 2)" in message
    assert "--duplicates last|first" in message


@pytest.mark.parametrize("keep", ["last", "first"])
def test_duplicate_rows_kept_last_or_first_and_said(keep):
    t = load_table(DATA / "mlr3_repeated_rows.csv", criterion="classif.ce", duplicates=keep)
    assert t.values.shape == (3, 2)
    assert any(f"the {keep} row of each was kept" in w for w in t.warnings)


def test_amlb_reruns_replace_the_failed_job_by_default():
    t = load_table(AMLB_RERUNS, where="constraint=1h8c_gp3")
    # the failed job of RandomForest on pc4 fold 0 was re-run: no missing value, no failure
    assert t.reading.failed is None
    assert not np.isnan(t.values).any()
    assert any("the last row of each was kept" in w for w in t.warnings)
    frame = pd.read_csv(AMLB_RERUNS)
    rerun = frame.iloc[-1]
    raw = t.raw
    row = raw[(raw.dataset == "pc4") & (raw.learner == "RandomForest") & (raw.fold == "0")]
    assert row["value"].tolist() == [rerun["result"]]
    with pytest.raises(RankwiseError, match="rows 2 and 50"):
        load_table(AMLB_RERUNS, duplicates="refuse")


def test_amlb_failed_job_is_reported_when_first_is_kept():
    t = load_table(AMLB_RERUNS, where="constraint=1h8c_gp3", duplicates="first")
    assert t.reading.failed.startswith("1 job(s) failed")
    assert "MemoryError: Unable to allocate" in t.reading.failed
    assert len(t.reading.failed) < 400  # the traceback is cut, not printed whole


# --- the AutoML benchmark: formats and constraints -----------------------------------------


def test_amlb_older_format_is_recognised_and_each_task_has_its_metric():
    with pytest.raises(RankwiseError, match=r"several metrics \(auc \(2 tasks\), logloss"
                                            r" \(1 tasks\)\)"):
        load_table(AMLB_OLDER)
    t = load_table(AMLB_OLDER, criterion="result", missing="worst")
    assert t.reading.source == "amlb"
    assert "older results format" in " ".join(t.reading.notes)
    assert t.higher_is_better is True
    frame = pd.read_csv(AMLB_OLDER)
    # car is multi-class: its result is a log loss, negated so that higher is better
    car = frame[frame.task == "car"].groupby("framework")["result"].median()
    j = list(t.datasets).index("car")
    for name, value in car.items():
        assert t.values[j, list(t.learners).index(name)] == pytest.approx(-value)
    auc = load_table(AMLB_OLDER, criterion="auc")
    assert set(auc.datasets) == {"Australian", "credit-g"}
    acc = load_table(AMLB_OLDER, criterion="acc")
    assert set(acc.datasets) == {"Australian", "car", "credit-g"}


def test_amlb_older_format_row_with_its_result_in_another_metric_column(tmp_path):
    """The benchmark's own results_medium-8c4h.csv has a re-run row of a multi-class task whose
    log loss sits in the auc column: the task is still a logloss task, its result is read, and
    the report counts the row."""
    frame = pd.read_csv(AMLB_OLDER, keep_default_na=False, dtype=str)
    row = frame.index[(frame.task == "car") & (frame.framework == "TPOT")][0]
    frame.loc[row, "auc"], frame.loc[row, "logloss"] = frame.loc[row, "result"], ""
    frame.to_csv(tmp_path / "f.csv", index=False)
    t = load_table(tmp_path / "f.csv", criterion="result", missing="worst")
    reference = load_table(AMLB_OLDER, criterion="result", missing="worst")
    assert np.array_equal(t.values, reference.values)
    assert "In 1 completed job(s) that column differs from result" in t.reading.sentence()


def test_amlb_older_format_without_its_metric_columns_is_an_error(tmp_path):
    frame = pd.read_csv(AMLB_OLDER).drop(columns=["auc", "logloss"])
    frame.to_csv(tmp_path / "f.csv", index=False)
    with pytest.raises(RankwiseError, match="no metric column \\(acc\\) equals its result"):
        load_table(tmp_path / "f.csv", source_format="amlb")


def test_several_constraints_inferred_and_with_where():
    both = load_table(AMLB_RERUNS)
    assert "RandomForest (1h8c_gp3)" in both.learners and len(both.learners) == 6
    assert "--where constraint=NAME" in " ".join(both.reading.notes)
    one = load_table(AMLB_RERUNS, where={"constraint": "4h8c_gp3"})
    assert one.learners == ("RandomForest", "TunedRandomForest", "autogluon")
    assert "constraint = 4h8c_gp3" in " ".join(one.reading.notes)
    j = list(both.learners).index("autogluon (4h8c_gp3)")
    assert np.array_equal(both.values[:, j], one.values[:, 2])


@pytest.mark.parametrize("where, message", [
    ("budget=1h", "--where names no column 'budget'; the table's columns are id, task"),
    ("constraint=8h", "no row has constraint = 8h; the column holds 1h8c_gp3, 4h8c_gp3"),
    ("constraint", "--where takes COLUMN=VALUE"),
])
def test_where_mistakes_are_one_line_errors(where, message):
    with pytest.raises(RankwiseError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_table(AMLB_RERUNS, where=where)


def test_where_keeps_a_dataframes_data_sets_in_its_index():
    frame = pd.DataFrame({"A": [0.9, 0.8, 0.7], "B": [0.8, 0.9, 0.6], "kind": ["x", "y", "x"]},
                         index=["iris", "wine", "zoo"])
    t = load_table(frame.drop(columns="kind").assign(kind=frame["kind"]), where="kind=x",
                   shape="wide")
    assert t.datasets == ("iris", "zoo")


def test_where_works_on_any_table():
    t = load_table(DATA / "mlr3_repeated_rows.csv", criterion="classif.ce",
                   where="task_id=sonar|spam", duplicates="last")
    assert set(t.datasets) == {"sonar", "spam"}


def _amlb_frame():
    return pd.read_csv(AMLB_RERUNS, keep_default_na=False, dtype=str)


def test_a_row_with_an_empty_metric_takes_its_tasks_metric(tmp_path):
    frame = _amlb_frame()
    frame.loc[3, "metric"] = ""
    frame.to_csv(tmp_path / "f.csv", index=False)
    t = load_table(tmp_path / "f.csv", where="constraint=1h8c_gp3")
    reference = load_table(AMLB_RERUNS, where="constraint=1h8c_gp3")
    assert np.array_equal(t.values, reference.values)
    assert "1 row(s) with an empty metric took their task's metric" in " ".join(t.reading.notes)


def test_a_result_without_a_knowable_metric_is_an_error(tmp_path):
    frame = _amlb_frame()
    frame.loc[3, "metric"] = ""
    frame.loc[3, "task"] = "new-task"
    frame.to_csv(tmp_path / "f.csv", index=False)
    with pytest.raises(RankwiseError, match=r"row 5 has a result \(0\.\d+\) but no metric,"
                                            r" and task 'new-task' has no other rows"):
        load_table(tmp_path / "f.csv", where="constraint=1h8c_gp3")


def test_a_metric_column_criterion_keeps_the_failed_jobs_of_a_quoted_file():
    """The file is quoted (its info holds commas and newlines); --criterion logloss reads a
    metric column: the failed job is still reported, as from the same data as a DataFrame."""
    from_file = load_table(AMLB_RERUNS, criterion="logloss", duplicates="first",
                           where="constraint=1h8c_gp3", missing="drop-datasets")
    frame = pd.read_csv(AMLB_RERUNS)
    frame = frame[frame.constraint == "1h8c_gp3"].iloc[:-1]
    from_frame = load_table(frame, criterion="logloss", missing="drop-datasets")
    assert from_file.reading.failed is not None
    assert from_file.reading.failed == from_frame.reading.failed


def test_a_long_cell_in_a_column_not_read_is_no_error_but_a_long_name_is(tmp_path):
    t = load_table(AMLB_RERUNS, where="constraint=1h8c_gp3", duplicates="first")
    assert t.values.shape == (4, 3)  # the 2,122-character info did not refuse the file
    frame = _amlb_frame()
    frame.loc[5, "framework"] = "x" * 1500
    frame.to_csv(tmp_path / "f.csv", index=False)
    with pytest.raises(RankwiseError, match=r"row 7, column 'framework \(constraint\)' has a"
                                            " cell of 1,511 characters"):
        load_table(tmp_path / "f.csv")


# --- R, European exports, scikit-learn's successive halving --------------------------------


def test_r_write_csv_row_names_are_the_data_sets():
    t = load_table(DATA / "r_write_csv_wide.csv")
    assert t.datasets[:2] == ("abalone", "adult") and t.learners == ("C4.5", "1-NN",
                                                                     "NaiveBayes")
    assert "R's row names" in t.reading.sentence()


def test_r_write_csv_row_numbers_of_a_long_table_are_left_out():
    t = load_table(DATA / "r_write_csv_long.csv")
    assert t.values.shape == (3, 2)
    assert "R's row numbers" in t.reading.sentence()


def test_r_row_names_beside_a_dataset_column_are_an_error(tmp_path):
    (tmp_path / "f.csv").write_text('"","dataset","A","B"\n"x","d1",1,2\n"y","d2",2,1\n')
    with pytest.raises(RankwiseError, match="row.names = FALSE"):
        load_table(tmp_path / "f.csv")


def test_semicolons_and_decimal_commas_are_sniffed_and_said(cli):
    t = load_table(DATA / "european.csv")
    reference = load_table(DATA / "r_write_csv_wide.csv")
    assert np.array_equal(t.values, reference.values)
    assert "';' as the separator and ',' as the decimal mark" in t.reading.sentence()
    same = load_table(DATA / "european.csv", sep=";", decimal=",")
    assert np.array_equal(same.values, t.values)
    with pytest.raises(RankwiseError, match="'0,21' is not a number"):
        load_table(DATA / "european.csv", decimal=".")
    out = cli("compare", DATA / "european.csv", "--sep", ",", "--decimal", ",")
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert "a decimal comma needs another separator" in out.stderr


def test_halving_search_keeps_each_configurations_last_evaluation():
    sklearn = pytest.importorskip("sklearn")  # noqa: F841
    from sklearn.datasets import load_breast_cancer, load_iris, load_wine
    from sklearn.experimental import enable_halving_search_cv  # noqa: F401
    from sklearn.model_selection import HalvingGridSearchCV
    from sklearn.tree import DecisionTreeClassifier

    from rankwise.tables.from_sklearn import from_search

    grid = {"max_depth": [1, 2, 3, 5], "min_samples_leaf": [1, 5]}
    results = {}
    for name, loader in (("iris", load_iris), ("wine", load_wine),
                         ("cancer", load_breast_cancer)):
        X, y = loader(return_X_y=True)
        search = HalvingGridSearchCV(DecisionTreeClassifier(random_state=0), grid, cv=3,
                                     random_state=0, min_resources=30).fit(X, y)
        results[name] = search.cv_results_
    frame = from_search(results)
    t = load_table(frame)
    assert t.values.shape == (3, 8)
    assert "Successive halving" in t.reading.sentence()
    cv = results["iris"]
    last = max(i for i, p in enumerate(cv["params"]) if p == {"max_depth": 3,
                                                              "min_samples_leaf": 1})
    assert cv["iter"][last] == max(cv["iter"][i] for i, p in enumerate(cv["params"])
                                   if p == {"max_depth": 3, "min_samples_leaf": 1})
    rows = frame[(frame.dataset == "iris") & (frame.learner == "max_depth=3, min_samples_leaf=1")]
    assert rows["value"].tolist() == [cv[f"split{f}_test_score"][last] for f in range(3)]


# --- filling failed runs -------------------------------------------------------------------


def _holes():
    x = np.array([[0.80, 0.70, 0.60], [0.82, np.nan, 0.65], [0.90, 0.75, 0.70],
                  [0.85, 0.72, np.nan], [0.88, 0.71, 0.66]])
    return pd.DataFrame(x, index=[f"d{i}" for i in range(5)], columns=["A", "B", "const"])


def test_missing_worst_fills_with_the_worst_score_on_the_data_set():
    t = load_table(_holes(), missing="worst")
    assert t.values[1, 1] == 0.65 and t.values[3, 2] == 0.72
    assert t.filled_cells == (("d1", "B"), ("d3", "const"))
    low = load_table(_holes(), missing="worst", higher_is_better=False)
    assert low.values[1, 1] == 0.82
    cmp = compare(t)
    assert "2 missing result(s) were filled with the worst score" in cmp.verdict.text
    assert "filled with the worst score on its data set" in cmp.report["methods"]
    assert json.loads(cmp.to_json())["missing"]["filled"] == [["d1", "B"], ["d3", "const"]]


def test_missing_impute_fills_with_a_named_learners_score():
    frame = _holes()
    frame.loc["d3", "const"] = 0.5
    t = load_table(frame, missing="impute:const")
    assert t.values[1, 1] == 0.65
    out = compare(t).verdict.text
    assert "filled with const's score on its data set" in out
    with pytest.raises(RankwiseError, match="const has no score on 'd3' either"):
        load_table(_holes(), missing="impute:const")
    with pytest.raises(RankwiseError, match="--missing impute:C names no learner"):
        load_table(_holes(), missing="impute:C")
    complete = _holes().fillna(0.5)
    with pytest.raises(RankwiseError, match="--missing impute:Z names no learner"):
        load_table(complete, missing="impute:Z")  # a typo is caught before it matters
    with pytest.raises(RankwiseError, match="or impute:LEARNER; got 'fill'"):
        load_table(_holes(), missing="fill")


def test_missing_impute_from_the_command_line(tmp_path, cli):
    _holes().rename_axis("dataset").reset_index().to_csv(tmp_path / "h.csv", index=False)
    out = cli("compare", tmp_path / "h.csv", "--missing", "impute:A")
    assert out.returncode == 0, out.stderr
    assert "filled with A's score on its data set (--missing impute:A)" in " ".join(
        out.stdout.split())
    bad = cli("compare", tmp_path / "h.csv")
    assert bad.returncode == 2 and "worst or impute:LEARNER" in bad.stderr
