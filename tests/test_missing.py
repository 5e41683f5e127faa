"""Tables with missing cells kept (--missing skillings-mack): the Skillings-Mack test, pairwise
tests on the data sets each pair shares, and reports that say so."""

import json
import re

import numpy as np
import pytest
from scipy import stats

from rankwise import RankwiseError, compare, load_table, skillings_mack

TABLE = """dataset,A,B,C,D
d1,0.81,0.79,0.70,0.75
d2,0.77,,0.66,0.70
d3,0.90,0.85,0.80,
d4,0.66,0.65,0.60,0.61
d5,0.71,0.70,,0.69
d6,0.88,0.86,0.79,0.80
d7,0.93,0.90,0.85,0.87
d8,0.60,0.62,0.55,0.58
d9,0.75,0.74,0.70,0.71
d10,0.82,0.80,0.76,0.78
"""


@pytest.fixture
def path(tmp_path):
    p = tmp_path / "missing.csv"
    p.write_text(TABLE)
    return p


def test_the_policy_keeps_every_available_cell(path, tmp_path):
    with pytest.raises(RankwiseError, match="skillings-mack, worst or impute:LEARNER"):
        load_table(path)
    t = load_table(path, missing="skillings-mack")
    assert t.n_datasets == 10 and np.isnan(t.values).sum() == 3
    assert t.missing_cells == (("d2", "B"), ("d3", "D"), ("d5", "C"))
    assert any("3 missing cell(s) kept" in w for w in t.warnings)
    empty = tmp_path / "empty.csv"
    empty.write_text("dataset,A,B,C\nd1,1,,2\nd2,2,,1\n")
    with pytest.raises(RankwiseError, match="learner 'B' has no values at all"):
        load_table(empty, missing="skillings-mack")


def test_compare_with_missing_cells(path):
    t = load_table(path, missing="skillings-mack")
    cmp = compare(t, posthoc="all", procedures=["holm"])
    assert set(cmp.tests) == {"skillings_mack"}
    assert cmp.tests["skillings_mack"].statistic == pytest.approx(
        skillings_mack(t.values).statistic)
    assert cmp.verdict.gate.test == "skillings_mack" and cmp.verdict.ranking == "wilcoxon"
    assert cmp.critical_difference is None and cmp.figures == {}
    # each pair on the data sets it shares: the p-value of a Wilcoxon test on those rows
    x = t.values
    entry = cmp.posthoc.rankings["wilcoxon"]
    assert entry.details["n_used"]["A"]["B"] == 9 and entry.details["n_used"]["B"]["C"] == 8
    rows = ~np.isnan(x[:, 1]) & ~np.isnan(x[:, 2])
    ref = stats.wilcoxon(x[rows, 2], x[rows, 1], method="exact").pvalue
    pair = next(c for c in entry.families["all_pairs"].comparisons if (c.a, c.b) == ("B", "C"))
    assert pair.pvalue == pytest.approx(ref, rel=1e-9)
    # mean ranks over the data sets where each learner has a value
    ranks = cmp.ranks
    assert np.isnan(ranks[1, 1]) and ranks[1, [0, 2, 3]].tolist() == [1.0, 3.0, 2.0]
    assert cmp.mean_ranks[1] == pytest.approx(np.nanmean(ranks[:, 1]))
    wtl = cmp.summary.win_tie_loss
    assert wtl[0, 1].tolist() == [8, 0, 1] and wtl[1, 2].sum() == 8
    doc = json.loads(cmp.to_json())
    assert doc["values"][1][1] is None and doc["missing"]["policy"] == "skillings-mack"
    assert doc["tests"]["skillings_mack"]["method"] == "monte-carlo"
    assert doc["critical_difference"] is None
    text = cmp.to_text()
    assert not re.search(r"\bnan\b", text.lower())
    assert "Skillings-Mack test for incomplete tables" in text
    assert "No results were missing" not in text


def test_what_a_table_with_missing_cells_cannot_do(path):
    t = load_table(path, missing="skillings-mack")
    with pytest.raises(RankwiseError, match="the friedman test needs a complete table"):
        compare(t, tests=["friedman"])
    with pytest.raises(RankwiseError, match="the friedman ranking needs a complete table"):
        compare(t, posthoc="all", rankings=["friedman"])
    two = compare(t, pair=("A", "B"))
    assert two.tests["wilcoxon"].n == 9
    assert any("use the 9 data sets where both have values" in n for n in two.notes)


def test_command_line(path):
    from typer.testing import CliRunner

    from rankwise.cli import app

    res = CliRunner().invoke(app, ["compare", str(path), "--missing", "skillings-mack",
                                   "--posthoc", "all", "--format", "json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["posthoc"]["wilcoxon"]["n_used"]["A"]["B"] == 9
    bad = CliRunner().invoke(app, ["compare", str(path), "--missing", "skillings-mack",
                                   "--posthoc", "all", "--ranking", "quade"])
    assert bad.exit_code == 2 and "needs a complete table" in bad.stderr


def test_long_tables_and_results_with_missing_cells(tmp_path):
    """A long table (as a results database reads) where one learner has no value on one data
    set: kept, listed in the warnings, analysed with the other cells."""
    rows = ["dataset,learner,fold,value"]
    rng = np.random.default_rng(4)
    for d in range(8):
        for learner in "ABC":
            if (d, learner) == (3, "C"):
                continue  # every fold of this task failed
            for fold in range(3):
                rows.append(f"d{d},{learner},{fold},{rng.uniform(0.5, 1):.3f}")
    p = tmp_path / "long.csv"
    p.write_text("\n".join(rows) + "\n")
    with pytest.raises(RankwiseError, match="1 missing cell.*d3 / C"):
        load_table(p)
    t = load_table(p, missing="skillings-mack")
    assert t.missing_cells == (("d3", "C"),) and t.aggregate == "median"
    cmp = compare(t)
    assert cmp.tests["skillings_mack"].details["n_missing_cells"] == 1
    assert any("d3 / C" in n for n in cmp.notes)


@pytest.mark.experiment
def test_a_results_database_whose_learner_crashed_on_one_data_set(tmp_path):
    """`rankwise run` with a learner that fails on the data set with many features: the
    results database is refused by default and read with the policy, the failure and the
    missing cell in the warnings, the Skillings-Mack test on the other cells."""
    from rankwise.experiment import experiment_from_dict, run_experiment

    doc = {"experiment": {"repeats": 1, "folds": 2, "seed": 3, "criteria": ["accuracy"]},
           "datasets": [{"source": "sklearn", "name": name}
                        for name in ("iris", "wine", "breast_cancer")],
           "learners": [{"name": "CART", "estimator": "sklearn.tree.DecisionTreeClassifier"},
                        {"name": "NB", "estimator": "sklearn.naive_bayes.GaussianNB"},
                        {"name": "crashes", "estimator": "rankwise.experiment.testing.FailingClassifier",
                         "params": {"min_features": 20}}]}
    db = tmp_path / "crash.sqlite"
    summary = run_experiment(experiment_from_dict(doc), db, jobs=0)
    assert summary["failed"] == 2
    with pytest.raises(RankwiseError, match="1 missing cell.*breast_cancer / crashes"):
        load_table(db, criterion="accuracy")
    table = load_table(db, criterion="accuracy", missing="skillings-mack")
    assert table.missing_cells == (("breast_cancer", "crashes"),)
    assert any("2 task(s) failed" in w for w in table.warnings)
    cmp = compare(table)
    sm = cmp.tests["skillings_mack"]
    assert sm.details["n_missing_cells"] == 1 and sm.details["n"] == 3
    assert np.isnan(table.values).sum() == 1
    assert sm.statistic == pytest.approx(skillings_mack(table.values).statistic)
    assert any("breast_cancer / crashes" in n for n in cmp.notes)
