"""The anytime-valid race (rankwise.race, ``rankwise race``): its e-values against a
computation written out with loops, its eliminations against the rule applied by hand, its
error rate under the complete null against the nominal level (and F-Race's repeated Friedman
tests above it), what it saves on a table with a dominated half, and its inputs."""

import json
import math

import numpy as np
import pandas as pd
import pytest

import rankwise
from rankwise import RankwiseError
from rankwise.stats.racing import (BETS, null_error_rates, race, race_order,
                                   repeated_friedman_race)



def looped_evidence(x, rows):
    """e(a, b) after the given rows: the average over the bets of prod(1 + bet * sign)."""
    k = x.shape[1]
    e = np.ones((k, k))
    for a in range(k):
        for b in range(k):
            if a == b:
                continue
            total = 0.0
            for bet in BETS:
                wealth = 1.0
                for i in rows:
                    d = x[i, a] - x[i, b]
                    wealth *= 1 + bet * (1 if d > 0 else -1 if d < 0 else 0)
                total += wealth
            e[a, b] = total / len(BETS)
    return e


@pytest.mark.parametrize("seed", range(4))
def test_evidence_equals_the_products_written_out(seed):
    rng = np.random.default_rng(seed)
    x = np.round(rng.normal(size=(25, 5)), 1)  # rounded: ties happen
    r = race(x, alpha=1e-12, order="given")  # a threshold nothing reaches
    assert r.eliminations == () and r.steps == 25
    assert np.allclose(r.evidence, looped_evidence(x, range(25)), rtol=1e-12)
    signs = np.sign(x[:, :, None] - x[:, None, :])
    assert r.ties == int(sum(np.triu(s == 0, 1).sum() for s in signs))


def test_eliminations_follow_the_rule_applied_by_hand():
    rng = np.random.default_rng(7)
    x = rng.normal(size=(80, 6)) + np.array([1.2, 1.0, 0.8, 0.0, -0.4, -0.8])
    r = race(x, learners=list("ABCDEF"), order="given", alpha=0.05)
    threshold = 6 * 5 / 0.05
    assert r.threshold == threshold
    alive, expected = set(range(6)), []
    for step in range(1, 81):
        still = sorted(alive)
        out = []
        for b in still:  # evidence of the learners still racing, over the rows seen so far
            best = max((looped_evidence(x[:, [a, b]], range(step))[0, 1], a)
                       for a in still if a != b)
            if best[0] >= threshold:
                out.append((b, best[1]))
        for b, a in out:
            expected.append(("ABCDEF"[b], "ABCDEF"[a], step))
            alive.discard(b)
        if len(alive) <= 1:
            break
    assert [(e.learner, e.by, e.step) for e in r.eliminations] == expected
    assert all(e.evalue >= threshold for e in r.eliminations)
    assert len(expected) >= 3  # the rule was exercised


@pytest.mark.simulation
def test_anytime_race_holds_its_level_where_repeated_friedman_tests_do_not():
    """120 races of ten equal learners over 100 data sets: wrong eliminations in at most
    alpha + 3 standard errors of them at every stopping time; F-Race's rule far above (the
    thousand races of ``-m slow`` hold the level to 2 standard errors)."""
    reps = 120
    rates = null_error_rates(k=10, n=100, reps=reps, alpha=0.05, seed=11)
    se = math.sqrt(0.05 * 0.95 / reps)
    assert np.all(np.diff(rates["anytime"]) >= 0)
    assert rates["anytime"].max() <= 0.05 + 3 * se
    assert rates["frace"][-1] > max(0.15, 0.05 + 3 * se)


@pytest.mark.simulation
@pytest.mark.slow
def test_the_issue_null_simulation_of_a_thousand_races():
    rates = null_error_rates(k=10, n=100, reps=1000, alpha=0.05, seed=2024)
    se = math.sqrt(0.05 * 0.95 / 1000)
    assert rates["anytime"].max() <= 0.05 + 2 * se
    assert rates["frace"][-1] > 0.05 + 4 * se


@pytest.mark.parametrize("seed", range(6))
def test_repeated_friedman_rule_uses_friedman_and_conover_as_rankwise_computes_them(seed):
    """The baseline's decisions at one look equal those of rankwise's Friedman test (chi-square
    p-value) and Conover's t-tests against the best mean rank."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(12, 5)) + np.linspace(0, 1.2, 5)
    found = repeated_friedman_race(x, alpha=0.05, first_test=12)
    fr = rankwise.friedman(x, method="chi2")
    conover = rankwise.pairwise_statistics(x, "friedman_conover").pvalues
    best = int(np.argmin(rankwise.mean_ranks(x)))
    worse = ({j for j in range(5) if j != best and conover[best, j] <= 0.05}
             if fr.pvalue <= 0.05 else set())
    assert {j for _, j in found} == worse


def test_a_dominated_half_goes_before_a_third_of_the_data_sets():
    rng = np.random.default_rng(5)
    x = rng.normal(size=(90, 10)) + np.r_[1.5, np.zeros(4), -1.5 * np.ones(5)]
    names = [f"config_{j}" for j in range(10)]
    frame = pd.DataFrame(x, columns=names, index=[f"d{i}" for i in range(90)])
    r = rankwise.race(frame)
    out = {e.learner: e.step for e in r.eliminations}
    assert all(out[f"config_{j}"] < 30 for j in range(5, 10))
    full = rankwise.compare(frame)
    assert r.survivors == (full.verdict.best,) == ("config_0",)
    assert r.settled and r.saved > 0.4
    assert r.tasks_used == int(r.evaluated.sum()) < r.tasks_full == 900


def test_order_seed_and_determinism():
    t = rankwise.load_example("garcia2008")
    a, b = rankwise.race(t), rankwise.race(t)
    assert a.order == b.order and a.eliminations == b.eliminations and a.seed == b.seed
    other = rankwise.race(t, seed=1)
    assert other.order != a.order and sorted(other.order) == sorted(a.order)
    given = rankwise.race(t, order="given")
    assert given.order == tuple(t.datasets) and given.seed is None
    assert race_order(4, [2, 0, 3, 1]).tolist() == [2, 0, 3, 1]


def test_direction_ties_and_goals():
    t = rankwise.load_example("mlr3", criterion="classif.ce")  # lower is better
    r = rankwise.race(t, order="given")
    flipped = rankwise.race(-t.values, learners=t.learners, order="given")
    assert r.eliminations == flipped.eliminations
    same = np.tile(np.arange(5.0)[:, None], (1, 3))  # three identical learners
    tied = race(same, order="given")
    assert tied.eliminations == () and np.allclose(tied.evidence, 1) and tied.ties == 15
    x = np.random.default_rng(1).normal(size=(60, 6)) + np.array([2, 2, 2, 0, 0, 0])
    top = race(x, goal=3, order="given")
    assert top.settled and len(top.survivors) == 3


@pytest.mark.parametrize("kwargs, message", [
    ({"alpha": 1.5}, "alpha must be between 0 and 1"),
    ({"goal": 0}, "goal must be a whole number from 1 to 4"),
    ({"goal": 5}, "goal must be a whole number from 1 to 4"),
    ({"order": "sorted"}, "order must be random, given or a list of rows"),
    ({"order": [0, 1]}, "order must list each of the 6 data sets once"),
    ({"learners": list("ABC")}, "learners must be 5 distinct names"),
    ({"alpha": 1e-299}, r"alpha = 1e-299 is too small for 5 learners"),
])
def test_bad_settings_are_refused_in_one_line(kwargs, message):
    x = np.random.default_rng(0).normal(size=(6, 5))
    with pytest.raises(RankwiseError, match=message) as err:
        race(x, **kwargs)
    assert "\n" not in str(err.value)


@pytest.mark.figures
def test_command_line_text_json_and_figure(tmp_path, capsys, cli):
    code, out, err = cli("race", "--example", "garcia2008", "--order", "given")
    assert code == 0
    eliminated = [line.split() for line in out.splitlines() if line.startswith("Kernel ")]
    assert eliminated == [["Kernel", "16", "C4.5", "500"]] and "\nGuarantee\n" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    code, out, err = cli("race", "--example", "garcia2008", "--order", "given",
                         "--format", "json", "--figure", tmp_path / "race.svg")
    assert code == 0 and (tmp_path / "race.svg").read_text().lstrip().startswith("<?xml")
    data = json.loads(out)
    assert list(data)[:2] == ["schema", "rankwise_version"]
    assert data["schema"] == "rankwise.race/2" and data["eliminations"][0]["learner"] == "Kernel"
    assert data["tasks_used"] + sum(30 - e["step"] for e in data["eliminations"]) == 150
    for args, message in [(["--goal", "top:0"], "--goal must be best or top:M"),
                          (["--order", "sorted"], "--order must be one of random, given"),
                          (["--figure", tmp_path / "race.txt"],
                           "--figure: figures are written as .svg, .pdf or .png")]:
        code, out, err = cli("race", "--example", "garcia2008", *args)
        assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_command_line_refuses_missing_cells(tmp_path, capsys, cli):
    frame = rankwise.load_example("garcia2008").to_frame()
    frame.iloc[0, 1] = np.nan
    frame.to_csv(tmp_path / "holes.csv", index_label="dataset")
    code, out, err = cli("race", tmp_path / "holes.csv", "--missing", "skillings-mack")
    assert code == 2 and "every learner's score on every data set" in err
    # Dropped, they are said: the race is over 29 data sets, and the note names the one.
    code, out, err = cli("race", tmp_path / "holes.csv", "--missing", "drop-datasets")
    assert code == 0 and out.splitlines()[1].startswith("Race over 29 data sets")
    assert "rankwise: note: 1 missing cell(s); dropped 1 data set(s)" in err
    assert "rankwise: note: Scores were read as higher is better" in err


def test_sample_size_comparison_against_a_fixed_design():
    """The fixed design's power grows with N and reaches the race's; the race evaluates every
    learner at most as often as it ran."""
    from rankwise.stats.racing import sample_size_comparison

    out = sample_size_comparison(k=5, shift=1.5, n_max=60, reps=30, seed=4)
    assert out["race_power"] >= 0.9 and 0 < out["race_mean"] <= 60
    assert np.all(np.diff(out["fixed_power"][out["grid"] >= 10]) >= -0.1)
    assert out["fixed_n"] is not None and out["fixed_tasks"] == 5 * out["fixed_n"]
    assert out["race_tasks"] <= 5 * out["race_steps"].clip(max=60).mean() + 1e-9


def test_a_table_with_holes_is_refused_in_python_too():
    x = np.random.default_rng(0).normal(size=(8, 4))
    x[2, 1] = np.nan
    with pytest.raises(RankwiseError, match=r"every learner's score on every data set \(1 "
                                            r"missing\)") as err:
        race(x)
    assert "\n" not in str(err.value)
