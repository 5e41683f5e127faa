"""The data-set-by-data-set table: WEKA's own experiment file gives WEKA's own table, a results
database its exact n2/n1, other tools' folds the stated assumption; bad requests are refused."""

import json
from pathlib import Path

import numpy as np
import pytest

from rankwise import compare, load_example, load_table
from rankwise.errors import RankwiseError
from rankwise.experiment import experiment_from_dict
from rankwise.experiment.driver import run_experiment
from rankwise.report import render


DATA = Path(__file__).parent / "data"
WEKA = Path(__file__).parents[1] / "src" / "rankwise" / "examples" / "weka_cv10x5.arff"
REFERENCE = json.loads((DATA / "reference" / "weka_corrected_ttest.json").read_text())
SHORT = ("rules.ZeroR", "trees.J48", "bayes.NaiveBayes")


@pytest.mark.parametrize("name", ["weka_cv10x5.arff", "weka_split66x10.arff"])
@pytest.mark.parametrize("base", [0, 1, 2])
def test_the_weka_file_gives_wekas_table(base, name):
    """Both of the Experimenter's designs: cross-validation and its default random split (each
    run one train/test split, no Key_Fold), number for number against WEKA's tester."""
    path = WEKA if name == "weka_cv10x5.arff" else DATA / "weka" / name
    cmp = compare(load_table(path), per_dataset=True, control=SHORT[base], effects="none")
    table = cmp.per_dataset
    assert table.base == SHORT[base] and table.learners[0] == SHORT[base]
    assert table.settings["test_train_ratio"] == "from WEKA's instance counts"
    assert ("design" in table.settings) == (name == "weka_split66x10.arff")
    marks = table.marks()
    pairs = {(p.dataset, p.learner): p for p in table.against_base}
    for entry in REFERENCE["files"][name]["Percent_correct"]:
        if entry["b"] != base:
            continue
        learner = SHORT[entry["a"]]
        i = table.datasets.index(entry["dataset"])
        j = table.learners.index(learner)
        assert table.means[i, j] == pytest.approx(entry["x_mean"], rel=1e-12)
        # WEKA's running sum of squares leaves ~5e-7 on constant values near 33 (ZeroR)
        assert table.sds[i, j] == pytest.approx(entry["x_sd"], rel=1e-9, abs=1e-6)
        assert table.folds[i, j] == entry["count"]
        pair = pairs[(entry["dataset"], learner)]
        assert pair.corrected.pvalue == pytest.approx(entry["p"], rel=1e-8, abs=1e-300)
        # WEKA's significance: +1 when the row's result set is higher (here: better)
        assert marks[(entry["dataset"], learner)] == {1: "v", 0: "", -1: "*"}[
            entry["significance"]]


def test_a_random_split_file_gets_the_split_correlation():
    """The Bayesian correlated t-test on WEKA's random splits: rho = n2/(n1 + n2) of the data
    set's instance counts (0.34 for a 66 % split), not 1/folds; the caption names the splits."""
    cmp = compare(load_table(DATA / "weka" / "weka_split66x10.arff"), per_dataset=True,
                  effects="none")
    ratios = cmp.per_dataset.settings["ratios"]
    for pair in cmp.per_dataset.against_base:
        details = pair.bayesian.details
        ratio = ratios[pair.dataset]
        assert details["rho"] == pytest.approx(ratio / (1 + ratio), rel=1e-12)
        assert details["folds"] is None and details["n"] == 10
        assert 0.33 < details["rho"] < 0.35
    text = render(cmp, "text")
    assert "over the 10 random train/test splits of each" in " ".join(text.split())
    same = compare(load_table(DATA / "weka" / "weka_split66x10.arff", source_format="weka"),
                   per_dataset=True, effects="none")
    assert same.per_dataset.to_dict() == cmp.per_dataset.to_dict()
    bayes = compare(load_table(DATA / "weka" / "weka_split66x10.arff"),
                    bayesian="correlated-t", effects="none")
    assert all(0.33 < r.details["rho"] < 0.35 for r in bayes.bayesian)
    assert "from its random train/test splits" in " ".join(render(bayes, "text").split())
    with pytest.raises(RankwiseError, match="one train/test split per run"):
        compare(load_table(DATA / "weka" / "weka_split66x10.arff"), bayesian="hierarchical",
                effects="none")


@pytest.mark.figures
def test_every_format_and_the_json_carry_it():
    cmp = compare(load_table(WEKA), per_dataset=True, control="rules.ZeroR", effects="none")
    for fmt in ("text", "markdown", "latex", "html"):
        out = render(cmp, fmt)
        assert "Data set by data set" in out and "(3/0/0)" in out and "(2/1/0)" in out, fmt
        assert "not a test across data sets" in out, fmt
    data = json.loads(cmp.to_json())["per_dataset"]
    assert data["totals"] == {"trees.J48": {"better": 3, "neither": 0, "worse": 0},
                              "bayes.NaiveBayes": {"better": 2, "neither": 1, "worse": 0}}
    first = data["against_base"][0]
    assert first["corrected_t"]["test_train_ratio"] == pytest.approx(1 / 9)
    assert first["bayesian"]["test"] == "correlated-t"


def test_holm_over_the_data_sets_never_marks_more():
    plain = compare(load_table(WEKA), per_dataset=True, effects="none").per_dataset
    holm = compare(load_table(WEKA), per_dataset=True, per_dataset_adjust="holm",
                   effects="none").per_dataset
    for p, q in zip(plain.against_base, holm.against_base):
        assert q.adjusted >= p.corrected.pvalue
        assert not (q.mark and not p.mark)


def test_five_by_two_on_its_design_only():
    cmp = compare(load_table(DATA / "weka" / "weka_5x2.arff"), per_dataset="5x2cv",
                  effects="none")
    pair = cmp.per_dataset.against_base[0]
    assert pair.five_by_two_t.df == (5,) and pair.five_by_two_f.df == (10, 5)
    with pytest.raises(RankwiseError, match="5 repetitions of 2-fold"):
        compare(load_table(WEKA), per_dataset="5x2cv")


@pytest.mark.experiment
def test_a_results_database_gives_its_design(tmp_path):
    doc = {"experiment": {"repeats": 2, "folds": 3, "seed": 5, "criteria": ["accuracy"]},
           "datasets": [{"source": "sklearn", "name": "iris"},
                        {"source": "sklearn", "name": "wine"}],
           "learners": [{"name": "CART", "estimator": "sklearn.tree.DecisionTreeClassifier"},
                        {"name": "NB", "estimator": "sklearn.naive_bayes.GaussianNB"},
                        {"name": "KNN", "estimator": "sklearn.neighbors.KNeighborsClassifier"}]}
    path = tmp_path / "r.sqlite"
    run_experiment(experiment_from_dict(doc), path, jobs=0)
    cmp = compare(str(path), criterion="accuracy", per_dataset=True, effects="none")
    s = cmp.per_dataset.settings
    assert s["test_train_ratio"] == "from the design: 3-fold cross-validation"
    assert s["ratios"] == {"iris": 0.5, "wine": 0.5} and (s["repeats"], s["folds"]) == (2, 3)
    assert all(p.n == 6 for p in cmp.per_dataset.against_base)


def test_other_tools_folds_state_the_assumption():
    for name, options in (("amlb", {"criterion": "auc"}), ("mlr3", {"criterion": "classif.ce"}),
                          ("folds_demo", {"criterion": "accuracy"})):
        cmp = compare(load_example(name, **options), per_dataset=True, effects="none")
        how = cmp.per_dataset.settings["test_train_ratio"]
        assert how.startswith("assumed:"), (name, how)
        assert "assumed" in cmp.to_text()
    fixed = compare(load_example("folds_demo", criterion="accuracy"), per_dataset=True,
                    test_fraction=0.2, effects="none").per_dataset
    assert all(v == pytest.approx(0.25) for v in fixed.settings["ratios"].values())


def test_refusals(capsys, cli):
    code, out, err = cli("compare", "--example", "garcia2010", "--per-dataset")
    assert code == 2 and "results of each fold" in err
    code, out, err = cli("compare", "--example", "folds_demo", "--criterion", "accuracy",
                         "--test-fraction", "1.5", "--per-dataset")
    assert code == 2 and "test fraction" in err and len(err.strip().splitlines()) == 1
    code, out, err = cli("compare", "--example", "folds_demo", "--criterion", "accuracy",
                         "--test-fraction", "0.2")
    assert code == 2 and "go with --per-dataset" in err
    code, out, err = cli("compare", WEKA, "--per-dataset", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["per_dataset"]["settings"]["tests"] == "corrected"
    assert np.isfinite(json.loads(out)["per_dataset"]["means"][0][0])


@pytest.mark.figures
def test_the_forest_plot_shows_the_tables_decisions():
    cmp = compare(load_example("weka"), per_dataset=True, control="rules.ZeroR",
                  effects="none")
    plan = cmp.figures["per_dataset"]
    marks = cmp.per_dataset.marks()
    for panel in plan.matrix["panels"]:
        for dataset, mean, lo, hi, mark in panel["rows"]:
            assert mark == marks[(dataset, panel["learner"])]
            assert lo <= mean <= hi
            assert (lo > 0 or hi < 0) == bool(mark)  # the interval and the test agree
    assert cmp.figure_svgs["per_dataset"].startswith("<?xml")


def _folds(higher_is_better: bool):
    """3 learners × 4 data sets × 10 folds of one repetition: B clearly above A, C like A."""
    import pandas as pd

    rng = np.random.default_rng(3)
    rows = [(f"d{d}", name, 1, f, 0.7 + shift + rng.normal(0, 0.01))
            for d in range(4) for name, shift in (("A", 0.0), ("B", 0.1), ("C", 0.0))
            for f in range(10)]
    frame = pd.DataFrame(rows, columns=["dataset", "learner", "repeat", "fold", "value"])
    from rankwise import load_table

    return load_table(frame, higher_is_better=higher_is_better)


def test_weka_marks_say_higher_and_lower_and_flip_only_for_lower_is_better():
    from rankwise import PerDatasetOptions, compare

    for higher_is_better in (False, True):
        table = _folds(higher_is_better)
        ours = compare(table, per_dataset=PerDatasetOptions("corrected"), control="A")
        weka = compare(table, per_dataset=PerDatasetOptions("corrected", marks="weka"),
                       control="A")
        mine, theirs = ours.per_dataset.marks(), weka.per_dataset.marks()
        assert {mine[(f"d{d}", "B")] for d in range(4)} == {"v" if higher_is_better else "*"}
        assert {theirs[(f"d{d}", "B")] for d in range(4)} == {"v"}   # B's values are higher
        swap = {"v": "*", "*": "v", "": ""}
        assert theirs == (mine if higher_is_better else {k: swap[v] for k, v in mine.items()})
        assert weka.per_dataset.settings["marks"] == "weka"
        assert "a significantly higher value" in " ".join(weka.to_text().split())
        assert "v significantly better" in " ".join(ours.to_text().split())
