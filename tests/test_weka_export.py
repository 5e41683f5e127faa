"""A results database exported as WEKA's result file: WEKA loads it and its corrected t-test
gives rankwise's p-values; rankwise reads it back to the same tests; missing data sets say so."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from rankwise import compare
from rankwise.experiment import experiment_from_dict
from rankwise.experiment.driver import run_experiment


TOOLS = Path(__file__).parents[1] / "tools" / "weka"
JAR = Path("/usr/share/java/weka.jar")


def design(tmp_path, extra=()):
    return {"experiment": {"repeats": 2, "folds": 3, "seed": 3,
                           "criteria": ["accuracy", "auc"]},
            "datasets": [{"source": "sklearn", "name": "iris"},
                         {"source": "sklearn", "name": "wine"}, *extra],
            "learners": [{"name": "CART", "estimator": "sklearn.tree.DecisionTreeClassifier"},
                         {"name": "NB", "estimator": "sklearn.naive_bayes.GaussianNB"}]}


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("weka")
    db = tmp / "r.sqlite"
    run_experiment(experiment_from_dict(design(tmp)), db, jobs=0)
    out = tmp / "r.arff"
    return db, out


def test_the_export_reads_back_to_the_same_tests(capsys, exported, cli):
    db, out = exported
    code, _, err = cli("export", db, "--format", "weka", "-o", out)
    assert code == 0 and "wrote 24 rows" in err, err
    text = out.read_text()
    assert text.startswith("@relation") and "@attribute Key_Dataset {iris,wine}" in text
    assert "@attribute Percent_correct numeric" in text and "@attribute auc numeric" in text
    from_db = compare(str(db), criterion="accuracy", per_dataset=True, control="CART",
                      effects="none").per_dataset
    from_file = compare(str(out), per_dataset=True, control="CART", effects="none").per_dataset
    assert from_file.settings["test_train_ratio"] == "from WEKA's instance counts"
    assert from_file.settings["ratios"] == {"iris": 0.5, "wine": 0.5}
    for a, b in zip(from_db.against_base, from_file.against_base):
        assert (a.dataset, a.learner) == (b.dataset, b.learner)
        assert a.corrected.pvalue == pytest.approx(b.corrected.pvalue, rel=1e-9)
    assert from_file.means[0, 0] == pytest.approx(100 * from_db.means[0, 0])
    # the instance counts of each repetition add up to the data set
    rows = [line.split(",") for line in text.split("@data")[1].split() if line]
    iris = [int(r[8]) for r in rows if r[0] == "iris" and r[1] == "1" and r[3] == "CART"]
    assert sum(iris) == 150


@pytest.mark.subprocess
def test_weka_loads_it_and_agrees(tmp_path, exported):
    db, out = exported
    if not out.exists():
        pytest.skip("the export test above writes the file")
    if not JAR.exists() or not shutil.which("javac"):
        pytest.skip("WEKA (Debian's weka package) or javac is not installed here; the"
                    " read-back test checks the file instead")
    subprocess.run(["javac", "-nowarn", "-cp", str(JAR), "-d", str(tmp_path),
                    str(TOOLS / "TTest.java")], check=True, capture_output=True)
    column = [line.split()[1] for line in out.read_text().splitlines()
              if line.startswith("@attribute")].index("Percent_correct") + 1
    done = subprocess.run(["java", "-cp", f"{JAR}:{tmp_path}", "TTest", str(out), str(column)],
                          check=True, capture_output=True, text=True).stdout
    weka = [json.loads(line) for line in done.splitlines() if line.startswith("{")]
    mine = compare(str(out), per_dataset=True, control="CART", effects="none").per_dataset
    for pair in mine.against_base:
        entry = next(e for e in weka if e["dataset"] == pair.dataset and e["a"] == 1
                     and e["b"] == 0)
        assert pair.corrected.pvalue == pytest.approx(entry["p"], rel=1e-9)


@pytest.mark.experiment
def test_a_data_set_that_cannot_be_loaded_gets_missing_counts(capsys, tmp_path, cli):
    csv = tmp_path / "mine.csv"
    csv.write_text("a,b,class\n" + "\n".join(f"{i},{i % 3},{'x' if i % 2 else 'y'}"
                                            for i in range(30)) + "\n")
    doc = design(tmp_path, extra=[{"source": "csv", "name": "mine", "path": str(csv),
                                   "target": "class"}])
    db = tmp_path / "r.sqlite"
    run_experiment(experiment_from_dict(doc), db, jobs=0)
    csv.unlink()
    code, _, err = cli("export", db, "--format", "weka", "-o", tmp_path / "r.arff")
    assert code == 0 and "mine could not be loaded" in err
    rows = [line.split(",") for line in (tmp_path / "r.arff").read_text().split("@data")[1]
            .split() if line]
    assert all(r[7] == "?" and r[8] == "?" for r in rows if r[0] == "mine")
    assert all(r[7] != "?" for r in rows if r[0] == "iris")
    code, _, err = cli("export", db, "--format", "xls", "-o", tmp_path / "x")
    assert code == 2 and "must be one of csv, parquet, weka" in err
