"""Tests of two learners on one data set: the corrected resampled t-test against WEKA's own
PairedCorrectedTTester (stored values, and WEKA run now where it is installed), every test
against its formula written out, and the type-I error of the corrected test in simulation."""

import csv
import json
import math
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from rankwise.errors import RankwiseError
from rankwise.experiment.testing import equal_learners_fold_accuracies
from rankwise.stats.per_dataset import corrected_resampled_ttest, five_by_two_f, five_by_two_t

DATA = Path(__file__).parent / "data"
WEKA_FILES = {"weka_cv10x5.arff": Path(__file__).parents[1] / "src" / "rankwise" / "examples"
              / "weka_cv10x5.arff", "weka_5x2.arff": DATA / "weka" / "weka_5x2.arff",
              "weka_split66x10.arff": DATA / "weka" / "weka_split66x10.arff"}
REFERENCE = json.loads((DATA / "reference" / "weka_corrected_ttest.json").read_text())
SCHEMES = ("weka.classifiers.rules.ZeroR", "weka.classifiers.trees.J48",
           "weka.classifiers.bayes.NaiveBayes")


def arff_rows(path):
    """The attribute names and data rows of a WEKA result file, read as plainly as possible
    (independent of rankwise's reader)."""
    lines = Path(path).read_text().split("\n")
    names = [line.split()[1] for line in lines if line.startswith("@attribute")]
    start = lines.index("@data") + 1
    rows = list(csv.reader([line for line in lines[start:] if line.strip()], quotechar="'",
                           escapechar="\\"))
    return names, rows


def folds_of(path, dataset, scheme, column):
    names, rows = arff_rows(path)
    ix = {name: j for j, name in enumerate(names)}
    mine = sorted((r for r in rows if r[ix["Key_Dataset"]] == dataset
                   and r[ix["Key_Scheme"]] == scheme),
                  # WEKA's random-split design has no Key_Fold: one split per run
                  key=lambda r: (int(r[ix["Key_Run"]]),
                                 int(r[ix["Key_Fold"]]) if "Key_Fold" in ix else 1))
    value = np.array([float(r[ix[column]]) for r in mine])
    test = np.array([float(r[ix["Number_of_testing_instances"]]) for r in mine])
    train = np.array([float(r[ix["Number_of_training_instances"]]) for r in mine])
    return value, test.sum() / train.sum()


@pytest.mark.parametrize("name", sorted(REFERENCE["files"]))
@pytest.mark.parametrize("column", ["Percent_correct", "Area_under_ROC"])
def test_equal_to_weka_paired_corrected_ttester(name, column):
    for entry in REFERENCE["files"][name][column]:
        x, ratio = folds_of(WEKA_FILES[name], entry["dataset"], SCHEMES[entry["a"]], column)
        y, _ = folds_of(WEKA_FILES[name], entry["dataset"], SCHEMES[entry["b"]], column)
        # WEKA tests x − y; rankwise b − a: a = y, b = x
        r = corrected_resampled_ttest(y, x, test_train_ratio=ratio, decimals=None)
        assert r.n == entry["count"]
        assert r.mean_difference == pytest.approx(entry["diff_mean"], rel=1e-9, abs=1e-9)
        assert r.sd_difference == pytest.approx(entry["diff_sd"], rel=1e-7, abs=1e-9)
        assert r.pvalue == pytest.approx(entry["p"], rel=1e-8, abs=1e-300)
        significance = 0 if r.pvalue > 0.05 else int(np.sign(r.mean_difference))
        assert significance == entry["significance"], entry


@pytest.mark.subprocess
def test_weka_run_now(tmp_path):
    """WEKA as installed (Debian's weka package): its tester on its own file, now."""
    jar = Path("/usr/share/java/weka.jar")
    if not jar.exists() or not shutil.which("javac"):
        pytest.skip("WEKA (Debian's weka package) or javac is not installed here; the stored"
                    " values above are checked instead")
    tools = Path(__file__).parents[1] / "tools" / "weka"
    subprocess.run(["javac", "-nowarn", "-cp", str(jar), "-d", str(tmp_path),
                    str(tools / "TTest.java")], check=True, capture_output=True)
    for name, column in (("weka_cv10x5.arff", "13"), ("weka_split66x10.arff", "12")):
        out = subprocess.run(["java", "-cp", f"{jar}:{tmp_path}", "TTest",
                              str(WEKA_FILES[name]), column], check=True,
                             capture_output=True, text=True).stdout
        now = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
        assert now == REFERENCE["files"][name]["Percent_correct"]


def test_corrected_t_is_its_formula():
    rng = np.random.default_rng(4)
    for n, ratio in ((10, 1 / 9), (50, 0.25), (6, 1.0)):
        a, b = rng.normal(0.8, 0.05, n), rng.normal(0.82, 0.05, n)
        d = b - a
        t = d.mean() / math.sqrt((1 / n + ratio) * d.var(ddof=1))
        for alt, p in (("two-sided", 2 * stats.t.sf(abs(t), n - 1)),
                       ("greater", stats.t.sf(t, n - 1)), ("less", stats.t.cdf(t, n - 1))):
            r = corrected_resampled_ttest(a, b, test_train_ratio=ratio, alternative=alt,
                                          decimals=None)
            assert r.statistic == pytest.approx(t, rel=1e-12)
            assert r.pvalue == pytest.approx(p, rel=1e-10)
        half = stats.t.ppf(0.975, n - 1) * math.sqrt((1 / n + ratio) * d.var(ddof=1))
        assert (r.ci_low, r.ci_high) == pytest.approx((d.mean() - half, d.mean() + half))
        # lower is better: the sign turns, the p-value stays
        low = corrected_resampled_ttest(a, b, test_train_ratio=ratio, higher_is_better=False,
                                        decimals=None)
        assert low.statistic == pytest.approx(-t) and low.pvalue == pytest.approx(
            2 * stats.t.sf(abs(t), n - 1))
        # without the correction (ratio -> 0) it is the paired t-test over folds
        plain = corrected_resampled_ttest(a, b, test_train_ratio=1e-300, decimals=None)
        assert plain.statistic == pytest.approx(stats.ttest_rel(b, a).statistic)


def five_by_two_loop(a, b):
    """Dietterich's and Alpaydın's statistics, written as the papers write them."""
    p = [[b[i][j] - a[i][j] for j in range(2)] for i in range(5)]
    s2 = []
    for i in range(5):
        mean = (p[i][0] + p[i][1]) / 2
        s2.append((p[i][0] - mean) ** 2 + (p[i][1] - mean) ** 2)
    t = p[0][0] / math.sqrt(sum(s2) / 5)
    f = sum(p[i][j] ** 2 for i in range(5) for j in range(2)) / (2 * sum(s2))
    return t, f


def test_five_by_two_are_their_formulas():
    rng = np.random.default_rng(9)
    for _ in range(20):
        a = rng.normal(0.8, 0.03, (5, 2))
        b = a + rng.normal(0.01, 0.02, (5, 2))
        t, f = five_by_two_loop(a.tolist(), b.tolist())
        rt = five_by_two_t(a, b, decimals=None)
        rf = five_by_two_f(a, b, decimals=None)
        assert rt.statistic == pytest.approx(t, rel=1e-12) and rt.df == (5,)
        assert rt.pvalue == pytest.approx(2 * stats.t.sf(abs(t), 5), rel=1e-10)
        assert rf.statistic == pytest.approx(f, rel=1e-12) and rf.df == (10, 5)
        assert rf.pvalue == pytest.approx(stats.f.sf(f, 10, 5), rel=1e-10)


def test_degenerate_and_refused():
    same = corrected_resampled_ttest([0.8] * 5, [0.8] * 5, test_train_ratio=0.25)
    assert same.statistic == 0 and same.pvalue == 1 and same.notes
    shifted = corrected_resampled_ttest([0.8] * 5, [0.9] * 5, test_train_ratio=0.25)
    assert shifted.statistic == math.inf and shifted.pvalue == 0
    with pytest.raises(RankwiseError, match="positive"):
        corrected_resampled_ttest([1, 2], [2, 3], test_train_ratio=0)
    with pytest.raises(RankwiseError, match="at least two folds"):
        corrected_resampled_ttest([1], [2], test_train_ratio=0.5)
    with pytest.raises(RankwiseError, match="5 repetitions x 2 folds"):
        five_by_two_t(np.zeros((10, 1)), np.zeros((10, 1)))


def simulate(replicates, n_instances=200, repeats=10, folds=10, seed=0):
    """Two learners of equal true accuracy (each thresholds one of two exchangeable noisy
    features at the midpoint of its training class means) under repeats × folds
    cross-validation of data sets drawn afresh: the share of data sets on which the corrected
    and the plain paired t-test reject at 0.05."""
    rng = np.random.default_rng(seed)
    rejected = np.zeros(2)
    for _ in range(replicates):
        acc = equal_learners_fold_accuracies(rng, n_instances, repeats, folds)
        ratio = (n_instances / folds) / (n_instances - n_instances / folds)
        rejected[0] += corrected_resampled_ttest(acc[0], acc[1], test_train_ratio=ratio,
                                                 decimals=None).pvalue <= 0.05
        rejected[1] += stats.ttest_rel(acc[0], acc[1]).pvalue <= 0.05
    return rejected / replicates


def test_type_one_error_quick():
    corrected, plain = simulate(60, repeats=5, seed=1)
    assert corrected <= 0.15 and plain >= corrected


@pytest.mark.simulation
@pytest.mark.slow
def test_type_one_error_at_the_nominal_level():
    corrected, plain = simulate(1000, n_instances=500, seed=2)
    # Bouckaert & Frank (2004): the plain test rejects far above 5% over 10 x 10 folds; the
    # corrected one near 5% (it is conservative on small data sets: 1-3% at 60-200 instances)
    assert 0.025 <= corrected <= 0.075
    assert plain > 0.3
