"""The power and replicability study: the sampling against its formula, the level under the
null, the growth with the bias, Demšar's findings on a real pool, and parallel = sequential."""

import itertools
import json
import math

import numpy as np
import pandas as pd
import pytest

from rankwise import RankwiseError, load_example
from rankwise.power import power_study
from rankwise.power.sampling import draw_samples, selection_weights


def test_selection_weights_follow_demsars_formula():
    d = np.array([-0.2, -0.05, 0.0, 0.03, 0.1, 0.3])
    for bias in (0.0, 5.0, 20.0):
        w = selection_weights(d, bias)
        expected = 1 / (1 + np.exp(-bias * d))
        assert w == pytest.approx(expected / expected.sum())
        # one data set per draw: its frequency is its weight
        rows = draw_samples(w, 1, 200_000, np.random.default_rng(1))
        freq = np.bincount(rows[:, 0], minlength=d.size) / rows.shape[0]
        se = np.sqrt(w * (1 - w) / rows.shape[0])
        assert np.all(np.abs(freq - w) <= 4 * se)


def _inclusion(w, size):
    """Exact inclusion probabilities of successive sampling without replacement."""
    out = np.zeros(w.size)
    for order in itertools.permutations(range(w.size), size):
        p, left = 1.0, 1.0
        for i in order:
            p *= w[i] / left
            left -= w[i]
        for i in order:
            out[i] += p
    return out


def test_samples_without_replacement_are_successive_sampling():
    w = selection_weights(np.array([-0.3, -0.1, 0.0, 0.2, 0.4]), 6.0)
    rows = draw_samples(w, 3, 100_000, np.random.default_rng(2))
    assert all(len(set(r)) == 3 for r in rows[:1000])
    freq = np.bincount(rows.ravel(), minlength=5) / rows.shape[0]
    exact = _inclusion(w, 3)
    assert freq == pytest.approx(exact, abs=4 * np.sqrt(0.25 / rows.shape[0]))


def _symmetric_pool(n=200, k=2, seed=3):
    """Learners that differ only by noise, with every difference matched by its mirror."""
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.6, 0.9, n // 2)
    noise = rng.normal(0, 0.02, (n // 2, k))
    half = base[:, None] + noise
    mirrored = base[:, None] + noise[:, ::-1]  # the same noise, learners swapped
    values = np.round(np.vstack([half, mirrored]), 4)
    frame = pd.DataFrame(values, columns=[f"L{j}" for j in range(k)])
    frame.insert(0, "dataset", [f"d{i}" for i in range(n)])
    return frame


@pytest.mark.simulation
def test_at_bias_zero_exchangeable_learners_reject_at_about_alpha():
    two = power_study(_symmetric_pool(), biases=[0], draws=2000, tests=[
        "wilcoxon", "sign", "ttest", "ttest_relative"])
    se = math.sqrt(0.05 * 0.95 / 2000)
    for e in two.results:
        # the sign test is discrete (at N = 10 its exact level is 0.021), so it stays below
        low = 0.0 if e.test == "sign" else 0.05 - 4 * se
        assert low <= e.rejection_rate <= 0.05 + 4 * se, (e.test, e.rejection_rate)
    many = power_study(_symmetric_pool(k=4), biases=[0], draws=1000, procedures=["holm"])
    se = math.sqrt(0.05 * 0.95 / 1000)
    for e in many.results:
        assert e.rejection_rate <= 0.05 + 4 * se, (e.test, e.rejection_rate)
        if e.test in ("iman_davenport", "anova"):
            assert e.rejection_rate >= 0.05 - 4 * se, (e.test, e.rejection_rate)


@pytest.mark.simulation
def test_rejection_rates_grow_with_the_bias():
    study = power_study(load_example("garcia2008"), learners=["C4.5", "1-NN"],
                        biases=[0, 5, 10, 20], draws=400)
    for name in study.tests:
        rates = [study.entry(name, b).rejection_rate for b in study.biases]
        assert rates[-1] > rates[0] + 0.2, (name, rates)
        assert all(b >= a - 0.05 for a, b in zip(rates, rates[1:])), (name, rates)


@pytest.mark.simulation
def test_demsars_findings_on_garcia_and_herreras_pool():
    """What we find on this pool (30 data sets, N = 10, 400 draws): the Wilcoxon test rejects
    at least as often as the sign test for every pair at every bias (Demšar §4.2); for C4.5
    against 1-NN, whose differences are heavy-tailed (excess kurtosis 2.5), the paired t-test
    rejects much less often than Wilcoxon once the bias favours C4.5, and its R(e) is lower
    at the largest bias. R(e) is not uniformly in Wilcoxon's favour: it is smallest where a
    test rejects about half of the time, as Demšar notes."""
    pool = load_example("garcia2008")
    for a, b in itertools.combinations(pool.learners, 2):
        study = power_study(pool, learners=[a, b], biases=[0, 10, 20], draws=400,
                            tests=["wilcoxon", "sign"])
        for bias in study.biases:
            w, s = study.entry("wilcoxon", bias), study.entry("sign", bias)
            assert w.rejection_rate >= s.rejection_rate - 0.02, (a, b, bias)
    study = power_study(pool, learners=["C4.5", "1-NN"], biases=[10, 20], draws=400)
    for bias in (10, 20):
        assert study.entry("ttest", bias).rejection_rate < \
            study.entry("wilcoxon", bias).rejection_rate - 0.2
    assert study.entry("ttest", 20).replicability < study.entry("wilcoxon", 20).replicability


def test_replicability_estimators():
    study = power_study(load_example("garcia2008"), learners=["C4.5", "CN2"], biases=[0],
                        draws=300, tests=["wilcoxon"])
    e = study.entry("wilcoxon", 0)
    r = round(e.rejection_rate * 300)
    a = 300 - r
    assert e.replicability == pytest.approx((r * (r - 1) + a * (a - 1)) / (300 * 299))
    # R(e) equals 1 − 2·var(decisions), Demšar's identity
    decisions = np.r_[np.ones(r), np.zeros(a)]
    assert e.replicability == pytest.approx(1 - 2 * decisions.var(ddof=1))
    assert 0.5 <= e.replicability <= 1 and e.replicability_p <= 1
    assert e.ci_low <= e.rejection_rate <= e.ci_high


def test_procedures_and_planning():
    study = power_study(load_example("garcia2008"), biases=[0, 10], draws=200,
                        sample_size="6:10", procedures=["holm", "finner"], tests=["friedman"])
    for size in study.sample_sizes:
        for bias in study.biases:
            holm, finner = study.entry("holm", bias, size), study.entry("finner", bias, size)
            assert holm.kind == "procedure" and 0 <= holm.mean_rejected <= 4
            assert finner.rejection_rate >= holm.rejection_rate  # Finner is the more powerful
            assert finner.mean_rejected >= holm.mean_rejected
            assert finner.mean_apv <= holm.mean_apv
    for plan in study.planning:
        if plan["sample_size"] is not None:
            e = study.entry(plan["test"], plan["bias"], plan["sample_size"])
            assert e.rejection_rate >= study.target_power
            smaller = [s for s in study.sample_sizes if s < plan["sample_size"]]
            assert all(study.entry(plan["test"], plan["bias"], s).rejection_rate
                       < study.target_power for s in smaller)


@pytest.mark.subprocess
def test_parallel_runs_give_the_same_study():
    pool = load_example("garcia2008")
    one = power_study(pool, biases=[0, 10], draws=120, jobs=1)
    two = power_study(pool, biases=[0, 10], draws=120, jobs=2)
    assert one.to_dict() == two.to_dict()
    other = power_study(pool, biases=[0, 10], draws=120, seed=7)
    assert other.to_dict() != one.to_dict()




@pytest.mark.figures
def test_command_line_json_report_and_mistakes(tmp_path, cli):
    out = cli("power", "--example", "garcia2008", "--learners", "C4.5,CN2", "--draws", "50",
               "--bias", "0,10", "--format", "json", "--report", str(tmp_path / "rep"))
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert {"draws", "sample_size", "seed", "alpha", "results"} <= set(doc)
    assert doc["draws"] == 50 and doc["sample_size"] == 10 and len(doc["results"]) == 6
    assert {"test", "bias", "rejection_rate", "ci_low", "ci_high", "replicability",
            "p_median"} <= set(doc["results"][0])
    assert (tmp_path / "rep" / "power_rejection.svg").exists()
    assert (tmp_path / "rep" / "power.json").read_text() == out.stdout
    for args, message in (
            (("--learners", "C4.5,Foo"), "unknown learner 'Foo'"),
            (("--sample-size", "99"), "between 2 and the pool's 30"),
            (("--bias", "x"), "--bias takes numbers"),
            (("--learners", "C4.5,CN2", "--procedures", "holm"), "post-hoc procedures compare"),
            (("--tests", "quade", "--learners", "C4.5,CN2"), "unknown test 'quade'"),
            (("--format", "pdf"), "--format must be one of text, json, markdown")):
        bad = cli("power", "--example", "garcia2008", "--draws", "10", *args)
        assert bad.returncode == 2 and message in bad.stderr and "Traceback" not in bad.stderr
    with pytest.raises(RankwiseError, match="draws must be a whole number ≥ 2"):
        power_study(load_example("garcia2008"), draws=1)
    assert "--draws must be a whole number ≥ 2" in cli("power", "--example", "garcia2008",
                                                       "--draws", "1").stderr


def test_dask_local_cluster_gives_the_same_study():
    pytest.importorskip("distributed")
    pool = load_example("garcia2008")
    here = power_study(pool, learners=["C4.5", "CN2"], biases=[0, 10], draws=100)
    there = power_study(pool, learners=["C4.5", "CN2"], biases=[0, 10], draws=100, jobs=2,
                        dask_scheduler="local")
    assert here.to_dict() == there.to_dict()


@pytest.mark.simulation
def test_the_text_fits_80_columns_and_says_what_the_unwrapped_text_says(cli):
    """Piped or in a file, the study's paragraphs and planning lines wrap at 80 columns (a
    planning line only between its items) and its tables come in blocks of columns, as
    compare's do; the words are those of the unwrapped text, in order."""
    from rankwise.power import power_study
    from rankwise.report.power import text_report

    args = ["--learners", "C4.5,CN2,Kernel", "--draws", "20", "--sample-size", "5:6",
            "--procedures", "holm", "--bias", "0,10"]
    ran = cli("power", "--example", "garcia2008", *args)
    assert ran.code == 0, ran.err
    lines = ran.out.splitlines()
    assert max(map(len, lines)) <= 80
    assert any(line.startswith("(columns ") for line in lines)   # the procedure's table
    planning = lines[lines.index("Planning"):]   # a table: a row per test, a column per bias
    head = [line.split() for line in planning].index(["test", "k=0", "k=10"])
    assert any(line.split()[:1] == ["Holm"] and len(line.split()) in (3, 4, 5)
               for line in planning[head + 2:])
    study = power_study(load_example("garcia2008"), learners=["C4.5", "CN2", "Kernel"],
                        draws=20, sample_size="5:6", procedures=["holm"], biases=[0, 10])
    prose = [line for line in text_report(study).splitlines()
             if len(line) > 80 and "  " not in line.strip()]   # tables aside
    said = " ".join(ran.out.split())
    assert len(prose) >= 2 and all(" ".join(line.split()) in said for line in prose)
