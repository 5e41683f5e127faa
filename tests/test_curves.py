"""Performance over a budget: the readers on files their tools wrote, every number against the
reference tool (IOHinspector, perprof-py, Optuna's report script) or brute force, the runner's
learning curves, the command, and the null simulation of the rank band (slow)."""

import itertools
import json
import sqlite3
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import rankwise
from rankwise.analysis.curves import AoccOptions, compare_curves
from rankwise.cli import app
from rankwise.errors import RankwiseError
from rankwise.experiment import experiment_from_dict, load_experiment, run_experiment
from rankwise.experiment.tasks import budget_subset
from rankwise.stats.curves import (aocc, data_profile, dewancker, dewancker_alpha, ecdf, ert,
                                   mean_rank_band, normalise, performance_profile,
                                   running_times)
from rankwise.tables.curves import read_curves

DATA = Path(__file__).parent / "data" / "curves"


@pytest.fixture(scope="module")
def ioh():
    return read_curves(DATA / "ioh")


@pytest.fixture(scope="module")
def ioh_ref():
    return json.loads((DATA / "ioh_reference.json").read_text())


# --- readers --------------------------------------------------------------------------------

def test_ioh_folder_reads_as_iohinspector_loads_it(ioh):
    assert ioh.learners == ("HillClimber", "RandomSearch")
    assert ioh.problems == ("Sphere-2D", "Ellipsoid-2D")
    assert ioh.values.shape[:3] == (2, 2, 15) and not ioh.maximize
    assert ioh.value_kind == "running-best" and ioh.budget_name == "evaluations"
    assert (ioh.final == 1000).all()  # each run's budget from its JSON ("evals"), not its last log
    assert ioh.dimensions.tolist() == [2, 2]
    # the first run of HillClimber on Sphere, as its .dat file logs it (improvements, then the
    # final evaluation's worse value, which the running best ignores)
    run = ioh.values[0, 0, 0]
    assert run[ioh.index_at([1])[0]] == pytest.approx(6.4816400474)
    assert run[ioh.index_at([135])[0]] == pytest.approx(0.0018008468)
    assert run[-1] == pytest.approx(0.0018008468)
    assert np.isnan(ioh.values).sum() == 0


def test_optuna_storage_file_reads_every_complete_trial():
    c = read_curves(DATA / "optuna_studies.db")
    assert c.reader == "optuna" and not c.maximize and c.budget_name == "trials"
    assert set(c.learners) == {"tpe", "random"} and set(c.problems) == {"sphere", "step"}
    assert c.values.shape == (2, 2, 2, 8) and c.grid.tolist() == list(range(1, 9))
    con = sqlite3.connect(DATA / "optuna_studies.db")
    rows = con.execute("select s.study_name, t.number, v.value from trials t join studies s"
                       " using (study_id) join trial_values v using (trial_id)"
                       " order by s.study_id, t.number").fetchall()
    con.close()
    best = {}
    for name, number, value in rows:
        learner, problem, run = name.split("/")
        key = (learner, problem, int(run))
        best[key] = min(best.get(key, np.inf), value)
        got = c.values[c.learners.index(learner), c.problems.index(problem), int(run), number]
        assert got == pytest.approx(best[key])
    seconds = read_curves(DATA / "optuna_studies.db", budget="seconds")
    assert seconds.budget_name == "seconds" and (seconds.grid >= 0).all()


def test_optuna_trials_table_explicit_and_inferred_agree():
    inferred = read_curves(DATA / "optuna_trials.csv", higher_is_better=False)
    explicit = read_curves(DATA / "optuna_trials.csv", reader="optuna", higher_is_better=False)
    assert inferred.reader == explicit.reader == "optuna"
    np.testing.assert_array_equal(inferred.values, explicit.values)
    assert inferred.values.shape == (3, 3, 8, 30)
    with pytest.raises(RankwiseError, match="does not record the direction"):
        read_curves(DATA / "optuna_trials.csv")


def test_long_table_raw_and_running_best():
    frame = pd.DataFrame({"learner": "A", "problem": "p", "run": 0,
                          "budget": [1, 2, 3, 5], "value": [0.5, 0.8, 0.6, 0.7]})
    raw = read_curves(frame, higher_is_better=True)
    best = read_curves(frame, higher_is_better=True, value_kind="running-best")
    assert raw.values[0, 0, 0].tolist() == [0.5, 0.8, 0.6, 0.7]
    assert best.values[0, 0, 0].tolist() == [0.5, 0.8, 0.8, 0.8]
    coarse = read_curves(frame, higher_is_better=True, grid=[2, 4])  # last logged at or before
    assert coarse.values[0, 0, 0].tolist() == [0.8, 0.6] and not coarse.exact


def test_duplicates_missing_runs_and_aliases():
    frame = pd.DataFrame({"algorithm": ["A", "A", "A", "B", "B"], "function": "p",
                          "seed": [0, 0, 1, 0, 0], "evaluations": [1, 1, 1, 1, 2],
                          "raw_y": [3.0, 2.0, 5.0, 4.0, 1.0]})
    raw = read_curves(frame, higher_is_better=False)
    best = read_curves(frame, higher_is_better=False, value_kind="running-best")
    # two logs of one run at one budget: raw keeps the later row, running best the better
    assert raw.values[0, 0, 0, 0] == 2.0 and best.values[0, 0, 0, 0] == 2.0
    assert raw.runs_per_cell.tolist() == [[2], [1]]
    assert np.isnan(raw.final[1, 0, 1])  # B has one run: the second slot is absent
    assert raw.budget_name == "evaluations"


@pytest.mark.parametrize("frame, message", [
    (pd.DataFrame({"learner": ["a"], "problem": ["p"], "value": [1.0]}), "no budget column"),
    (pd.DataFrame({"learner": ["a"], "problem": ["p"], "budget": [None], "value": [1.0]}),
     "have no budget"),
])
def test_bad_tables_are_one_clear_error(frame, message):
    with pytest.raises(RankwiseError, match=message):
        read_curves(frame, higher_is_better=True)


def test_a_table_needs_its_direction():
    frame = pd.DataFrame({"learner": ["a"], "problem": ["p"], "budget": [1], "value": [1.0]})
    with pytest.raises(RankwiseError, match="higher values are better"):
        read_curves(frame)


# --- numbers against the reference tools ----------------------------------------------------

@pytest.mark.parametrize("key, lb, ub, scale, budget, axis", [
    ("aocc", 1e-8, 1e8, "log", 1000, "linear"), ("aocc_log", 1e-8, 1e8, "log", 1000, "log"),
    ("aocc_lin500", 1e-3, 10, "linear", 500, "linear"),
    ("aocc_lin500_log", 1e-3, 10, "linear", 500, "log")])
def test_aocc_equals_iohinspector(ioh, ioh_ref, key, lb, ub, scale, budget, axis):
    v = normalise(ioh.values, lb, ub, maximize=False, scale=scale)
    mine = np.nanmean(aocc(v, ioh.grid, ioh.final, budget=budget, budget_scale=axis), axis=2)
    for row in ioh_ref[key]:
        l = ioh.learners.index(row["algorithm_name"])
        p = ioh.problems.index(row["function_name"] + "-2D")
        assert mine[l, p] == pytest.approx(row["AOCC"], rel=1e-12, abs=1e-14)


def test_aocc_through_compare_curves_equals_iohinspector(ioh, ioh_ref):
    r = compare_curves(ioh, aocc=AoccOptions(bounds=(1e-8, 1e8), value_scale="log",
                                             budget=1000))
    for row in ioh_ref["aocc"]:
        l = ioh.learners.index(row["algorithm_name"])
        p = ioh.problems.index(row["function_name"] + "-2D")
        assert r.aocc[l, p] == pytest.approx(row["AOCC"], rel=1e-12)


def _get_aocc_of_rows(evals, eaf, eval_max):
    """IOHinspector's ``get_aocc`` for one run's rows (its ``_aocc``, written out): the rows up
    to ``eval_max``, a row at 0 with the run's worst value and one at ``eval_max`` with its best,
    each value held until the next row, over ``eval_max``."""
    keep = evals <= eval_max
    e = np.concatenate([[0.0], evals[keep], [eval_max]])
    f = np.concatenate([[eaf[keep].min()], eaf[keep], [eaf[keep].max()]])
    order = np.argsort(e, kind="stable")
    e, f = e[order], f[order]
    return float((np.diff(e) * f[:-1]).sum() / eval_max)


def test_aocc_of_runs_that_get_worse_is_iohinspectors_on_the_running_best():
    """A long table of raw values that rise and fall (a learning curve): by default the AOCC is
    IOHinspector's on the data as its DataManager.load gives it (the running best); with
    curve="values" it is the area over the values as logged."""
    rng = np.random.default_rng(21)
    budgets = np.array([1.0, 2, 4, 7, 10, 15, 20])
    rows = []
    for learner in ("A", "B", "C"):
        for problem in ("p", "q"):
            for run in range(3):
                values = np.clip(np.cumsum(rng.normal(0.1, 0.2, budgets.size)) / 2 + 0.3, 0, 1)
                rows += [(learner, problem, run, b, v) for b, v in zip(budgets, values)]
    frame = pd.DataFrame(rows, columns=["learner", "problem", "run", "budget", "value"])
    curves = read_curves(frame, higher_is_better=True)
    bounds = AoccOptions(bounds=(0.0, 1.0))
    got = compare_curves(curves, aocc=bounds).aocc
    for (l, learner), (p, problem) in itertools.product(enumerate(curves.learners),
                                                          enumerate(curves.problems)):
        runs = frame[(frame.learner == learner) & (frame.problem == problem)]
        ref = [_get_aocc_of_rows(r.budget.to_numpy(), np.maximum.accumulate(r.value.to_numpy()),
                                 20.0) for _, r in runs.groupby("run")]
        assert got[l, p] == pytest.approx(np.mean(ref), rel=1e-12)
    assert "running best" in compare_curves(curves, aocc=bounds).to_text()
    values = compare_curves(curves, aocc=AoccOptions(bounds=(0.0, 1.0), curve="values"))
    area = np.nanmean(aocc(curves.values, curves.grid, curves.final, budget=20.0), axis=2)
    np.testing.assert_allclose(values.aocc, area, rtol=1e-12)
    assert (values.aocc < got - 1e-3).any() and (values.aocc <= got + 1e-12).all()
    assert values.to_dict()["aocc"]["curve"] == "values"
    # a file read as the running best (IOHprofiler, Optuna, --values running-best): the same
    best = read_curves(frame, higher_is_better=True, value_kind="running-best")
    for curve in ("running-best", "values"):
        r = compare_curves(best, aocc=AoccOptions(bounds=(0.0, 1.0), curve=curve))
        np.testing.assert_allclose(r.aocc, got, rtol=1e-12)
    with pytest.raises(RankwiseError, match="AOCC curve"):
        compare_curves(curves, aocc=AoccOptions(curve="best"))


def test_ert_equals_iohinspector(ioh, ioh_ref):
    rows = ioh_ref["ert_sphere"]
    targets = np.array(sorted({r["raw_y"] for r in rows}))
    p = ioh.problems.index("Sphere-2D")
    times = running_times(ioh.oriented()[:, p:p + 1], ioh.grid, -targets[None, None, None, :])
    e, successes, _ = ert(times, ioh.final[:, p:p + 1])
    for r in rows:
        l, t = ioh.learners.index(r["algorithm_name"]), list(targets).index(r["raw_y"])
        assert successes[l, 0, t] == r["success_count"]
        if r["ERT"] is None:
            assert np.isinf(e[l, 0, t])
        else:
            assert e[l, 0, t] == pytest.approx(r["ERT"], rel=1e-12)


def test_ert_equals_cocos(ioh):
    ref = json.loads((DATA / "cocopp_reference.json").read_text())
    targets = np.array(ref["targets"])
    times = running_times(ioh.oriented(), ioh.grid, -targets[None, None, None, :])
    e, _, _ = ert(times, ioh.final)
    for key, values in ref["ert"].items():
        learner, function = key.split("/")
        l, p = ioh.learners.index(learner), ioh.problems.index(f"{function}-2D")
        for t, want in enumerate(values):
            if want is None:
                assert np.isinf(e[l, p, t])
            else:
                assert e[l, p, t] == pytest.approx(want, rel=1e-12)


def test_ecdf_equals_iohinspector(ioh, ioh_ref):
    """IOHinspector's ECDF is the mean normalised value (the ECDF over targets spread evenly on
    the log scale between its bounds, in the limit of many targets)."""
    budgets = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
    v = normalise(ioh.values, 1e-8, 1e8, maximize=False, scale="log")[..., ioh.index_at(budgets)]
    mean = v.reshape(2, -1, len(budgets)).mean(axis=1)
    for r in ioh_ref["ecdf"]:
        l, j = ioh.learners.index(r["algorithm_name"]), budgets.index(r["evaluations"])
        assert mean[l, j] == pytest.approx(r["eaf"], rel=1e-12)
    # and the discrete ECDF with many log-spaced targets converges to it
    targets = np.logspace(-8, 8, 4001)
    times = running_times(ioh.oriented(), ioh.grid, -targets[None, None, None, :])
    discrete = ecdf(times, budgets)
    assert np.abs(discrete - mean).max() < 1e-3


def test_performance_profile_equals_perprof():
    ref = json.loads((DATA / "perprof_reference.json").read_text())
    cost = np.array([[np.inf if c is None else c for c in row] for row in ref["cost"]])
    taus, rho = performance_profile(cost)
    np.testing.assert_allclose(taus, ref["breakpoints"], rtol=1e-14)
    np.testing.assert_allclose(rho.T, ref["cumulative"], rtol=1e-14)


def test_profiles_brute_force():
    rng = np.random.default_rng(3)
    cost = rng.integers(1, 30, size=(25, 4)).astype(float)
    cost[rng.random(cost.shape) < 0.2] = np.inf
    taus, rho = performance_profile(cost, taus=[1, 1.5, 2, 4, 10])
    alphas, d = data_profile(cost, [1, 5, 10, 20, 40], dimensions=np.full(25, 4))
    for s in range(4):
        for j, tau in enumerate([1, 1.5, 2, 4, 10]):
            count = sum(1 for p in range(25) if np.isfinite(cost[p].min())
                        and cost[p, s] / cost[p].min() <= tau)
            assert rho[s, j] == count / 25
        for j, a in enumerate([1, 5, 10, 20, 40]):
            assert d[s, j] == sum(1 for p in range(25) if cost[p, s] / 5 <= a) / 25


def test_dewancker_equals_optunas_report_script():
    ref = json.loads((DATA / "optuna_reference.json").read_text())
    c = read_curves(DATA / "optuna_trials.csv", higher_is_better=False)
    r = compare_curves(c)
    d = r.dewancker
    assert d.alpha == dewancker_alpha(3) == 0.01
    for problem, want in ref["problems"].items():
        p = c.problems.index(problem)
        assert want["alpha"] == d.alpha
        got = {c.learners[s]: int(d.borda[p, s]) for s in range(3)}
        assert got == dict(zip(want["ranking"], want["borda"]))
        # the ranking's order: most wins first
        wins = [d.wins[p, c.learners.index(s)] for s in want["ranking"]]
        assert wins == sorted(wins, reverse=True)


def test_dewancker_alpha_schedule():
    assert [dewancker_alpha(k) for k in (2, 3, 4, 6, 10, 40)] == [
        0.025, 0.01, 0.0075, 0.0025, 0.001, 0.00005]


def test_dewancker_uses_the_second_metric_only_on_ties():
    a, b = [1.0, 2, 3, 4, 5, 6], [1.5, 2.5, 3.5, 4.5, 5.5, 6.5]
    d = dewancker([[[a, b]], [[np.zeros(6), np.ones(6)]]], solvers=("A", "B"), problems=("p",))
    assert d.metrics_used.tolist() == [2] and d.wins.tolist() == [[1, 0]]
    assert d.borda.tolist() == [[1, 0]] and d.first.tolist() == [[True, False]]


def test_running_times_and_ert_brute_force():
    rng = np.random.default_rng(7)
    values = np.cumsum(rng.random((2, 3, 4, 12)), axis=-1)
    values[0, 1, 3] = np.nan  # an absent run
    grid = np.arange(1, 13) * 10.0
    final = np.full((2, 3, 4), 120.0)
    final[0, 1, 3] = np.nan
    targets = np.array([[2.0, 4.0, 7.0]] * 3)
    times = running_times(values, grid, targets[None, :, None, :])
    e, succ, n = ert(times, final)
    for l in range(2):
        for p in range(3):
            for t, target in enumerate(targets[p]):
                spent, ok = 0.0, 0
                for r in range(4):
                    if np.isnan(final[l, p, r]):
                        continue
                    hit = [g for g, v in zip(grid, values[l, p, r]) if v >= target]
                    spent += hit[0] if hit else final[l, p, r]
                    ok += bool(hit)
                assert succ[l, p, t] == ok
                assert e[l, p, t] == (spent / ok if ok else np.inf)


def test_aocc_brute_force_step_integral():
    rng = np.random.default_rng(11)
    grid = np.sort(rng.choice(np.arange(1, 200), 15, replace=False)).astype(float)
    v = rng.random(15)
    v[:3] = np.nan  # before its first log the run is at its first value
    area = float(aocc(v, grid, np.array(180.0), budget=180))
    xs = np.arange(0, 180, 0.01) + 0.005
    first = v[3]
    idx = np.searchsorted(grid, xs, side="right") - 1
    steps = np.where(idx < 3, first, v[np.maximum(idx, 3)])
    assert area == pytest.approx(steps.mean(), abs=1e-4)


def test_mean_rank_band_holds_the_mean_and_is_deterministic():
    rng = np.random.default_rng(5)
    ranks = np.stack([np.argsort(np.argsort(rng.random((20, 4)), axis=1), axis=1) + 1.0
                      for _ in range(6)])
    a = mean_rank_band(ranks, draws=500, seed=1)
    b = mean_rank_band(ranks, draws=500, seed=1)
    assert all(np.array_equal(x, y) for x, y in zip(a[:3], b[:3])) and a[3] == b[3]
    mean, low, high, c = a
    assert (low <= mean).all() and (mean <= high).all() and c > 1.96


def test_a_learner_ranked_alike_on_every_problem_still_has_a_band():
    """Learner 0 is first on every problem at the first budget: its standard error is 0 in
    the data, and the band (floored at 1/(2n), as the guide says) keeps a width of 2c/(2n)
    there instead of none."""
    rng = np.random.default_rng(2)
    n = 12
    ranks = np.stack([np.argsort(np.argsort(rng.random((n, 3)), axis=1), axis=1) + 1.0
                      for _ in range(3)])
    ranks[0] = np.tile([1.0, 2.0, 3.0], (n, 1))
    ranks[0, ::2, 1:] = [3.0, 2.0]
    mean, low, high, c = mean_rank_band(ranks, draws=300, seed=0)
    assert mean[0, 0] == 1.0
    assert high[0, 0] - low[0, 0] == pytest.approx(2 * c * 0.5 / n)
    assert (high - low > 0).all()


def test_a_linear_aocc_over_orders_of_magnitude_says_so_where_it_is_read():
    """Budgets 1 to 1,000 and errors from 10 down to 1e-3 on a linear AOCC (the default): the
    AOCC paragraph says the last decade carries at least 90% of the area and the small values
    barely count, and names the options that weigh each decade alike; with both on a log
    scale, or on the learning-curve example (fractions 0.1 to 1), it says nothing."""
    rng = np.random.default_rng(0)
    rows = []
    for learner in range(3):
        for problem in range(4):
            v = 10.0
            for b in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000):
                v *= rng.uniform(0.3, 0.9)
                rows.append({"learner": f"opt{learner}", "problem": f"f{problem}", "run": 0,
                             "budget": b, "value": v})
    df = pd.DataFrame(rows)
    r = rankwise.compare_curves(df, higher_is_better=False, draws=200)
    warned = r.aocc_scale_warnings()
    assert len(warned) == 2 and "from 100 on" in warned[0] and "4 of 4" in warned[1]
    text = " ".join(r.to_text().split())
    assert all(f"Note: {w}." in text for w in warned)
    assert json.loads(r.to_json())["aocc"]["scale_warnings"] == list(warned)
    logged = rankwise.compare_curves(df, higher_is_better=False, draws=200,
                                     aocc=rankwise.AoccOptions(value_scale="log",
                                                               budget_scale="log"))
    assert logged.aocc_scale_warnings() == ()
    assert rankwise.compare_curves(rankwise.load_curves_example(),
                                   draws=200).aocc_scale_warnings() == ()


# --- the analysis ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def learning():
    return rankwise.compare_curves(rankwise.load_curves_example())


def test_the_end_point_misleads_on_the_example(learning):
    best = {cp.budget: cp.comparison.verdict.best for cp in learning.checkpoints}
    assert best[0.05] == "logistic" and best[1.0] == "knn"
    # outputs agree with each other: the checkpoint's mean ranks are the band's at that budget
    for cp in learning.checkpoints:
        j = int(np.flatnonzero(learning.display == cp.budget)[0])
        np.testing.assert_allclose(cp.comparison.mean_ranks, learning.mean_ranks[j])
    # the decision changes listed are the differences between consecutive checkpoints
    for a, b, states, flips in learning.changes:
        assert len(states) == len(learning.checkpoints)
        assert [learning.checkpoints[j].budget for j in range(1, len(states))
                if states[j] != states[j - 1]] == list(flips)
    assert ("logistic", "naive_bayes") in {(a, b) for a, b, *_ in learning.changes}
    # the AOCC table is the one compare() ranks
    np.testing.assert_allclose(learning.aocc_comparison.table.values, learning.aocc.T)


def signed_rank_by_enumeration(d) -> float:
    """Two-sided Wilcoxon signed-rank p-value (zeros split) over all 2^n sign flips: twice the
    smaller tail of the positive rank sum, at most 1."""
    from scipy import stats

    d = np.asarray(d, dtype=float)
    ranks = stats.rankdata(np.abs(d))
    half = ranks[d == 0].sum() / 2
    observed = ranks[d > 0].sum() + half
    signs = 1 - 2 * ((np.arange(2 ** d.size)[:, None] >> np.arange(d.size)) & 1)
    t = (ranks * (signs * d > 0)).sum(axis=1) + half
    return min(1.0, 2 * min((t >= observed).mean(), (t <= observed).mean()))


def test_trend_and_settle(learning):
    from scipy import stats

    from rankwise.stats.adjust import adjust

    assert set(learning.trend) == set(learning.learners)
    assert all(t.pvalue < 0.05 for t in learning.trend.values())  # more data helps them all
    # brute force: each checkpoint's ranks against the last, Wilcoxon (every sign flip
    # enumerated; scipy's permutation branch, 0.9 s a call, gives the same on the first two),
    # Holm over all
    ranks = [cp.comparison.ranks for cp in learning.checkpoints]
    diffs = [[r[:, l] - ranks[-1][:, l] for l in range(4)] for r in ranks[:-1]]
    p = [[signed_rank_by_enumeration(d) if np.any(d != 0) else 1.0 for d in row]
         for row in diffs]
    for d in diffs[0][:2]:
        assert stats.wilcoxon(d, zero_method="zsplit").pvalue == signed_rank_by_enumeration(d)
    adjusted = adjust(np.ravel(p), "holm").reshape(len(ranks) - 1, 4)
    np.testing.assert_allclose(learning.settle_pvalues, adjusted)
    budgets = [cp.budget for cp in learning.checkpoints]
    differs = [j for j in range(len(budgets) - 1) if (adjusted[j] < 0.05).any()]
    assert learning.rank_settle == budgets[max(differs) + 1 if differs else 0]
    # the settle point the report prints is the decisions': from the first checkpoint on
    # which every later one has the last one's winners and significant pairs
    decided = [(set(cp.decision.winners), set(cp.decision.pairs))
               for cp in learning.checkpoints]
    same = [j for j in range(len(budgets)) if all(d == decided[-1] for d in decided[j:])]
    assert learning.settle == budgets[same[0]] == 0.25


def _random_curves(problems=30, learners=4, runs=3, budgets=6, seed=0):
    rng = np.random.default_rng(seed)
    rows = [(f"L{l}", f"P{p}", r, b, float(rng.normal(b + 0.3 * l, 2.0)))
            for l in range(learners) for p in range(problems) for r in range(runs)
            for b in range(1, budgets + 1)]
    frame = pd.DataFrame(rows, columns=["learner", "problem", "run", "budget", "value"])
    return read_curves(frame, higher_is_better=True)


def test_compare_curves_is_deterministic_and_seeded():
    c = _random_curves()
    a, b = compare_curves(c, seed=3), compare_curves(c, seed=3)
    np.testing.assert_array_equal(a.band_low, b.band_low)
    assert a.band_c == b.band_c
    other = compare_curves(c, seed=4)
    assert a.band_c != other.band_c
    assert rankwise.compare_curves(rankwise.load_curves_example()).band_c > 0


def test_checkpoints_given_and_refused():
    c = rankwise.load_curves_example()
    r = compare_curves(c, budgets=[0.1, 1.0])
    assert [cp.budget for cp in r.checkpoints] == [0.1, 1.0]
    with pytest.raises(RankwiseError, match="checkpoint 0.01 is before 0.05"):
        compare_curves(c, budgets=[0.01])


def test_few_problems_get_no_band(ioh):
    r = compare_curves(ioh)
    assert np.isnan(r.band_low).all() and any("no rank band" in n for n in r.notes)


# --- the runner's learning curves -----------------------------------------------------------

def _doc(budgets=None, repeats=1):
    doc = {"experiment": {"repeats": repeats, "folds": 2, "seed": 5,
                          "criteria": ["accuracy", "f1"]},
           "datasets": [{"source": "sklearn", "name": "iris"},
                        {"source": "sklearn", "name": "breast_cancer"}],
           "learners": [{"name": "CART", "estimator": "sklearn.tree.DecisionTreeClassifier"},
                        {"name": "NB", "estimator": "sklearn.naive_bayes.GaussianNB"}]}
    if budgets is not None:
        doc["experiment"]["budgets"] = budgets
    return doc


def _results(path):
    with sqlite3.connect(path) as con:
        return pd.read_sql("select dataset, repeat, fold, learner, criterion, value from results"
                           " where criterion not like '%time' order by 1, 2, 3, 4, 5", con)


@pytest.mark.experiment
def test_budgeted_run_at_fraction_one_equals_a_plain_run(tmp_path):
    plain, budgeted = tmp_path / "p.sqlite", tmp_path / "b.sqlite"
    run_experiment(experiment_from_dict(_doc()), plain, jobs=0)
    run_experiment(experiment_from_dict(_doc([0.2, 0.5])), budgeted, jobs=0)
    pd.testing.assert_frame_equal(_results(plain), _results(budgeted))
    with sqlite3.connect(budgeted) as con:
        curve = pd.read_sql("select dataset, repeat, fold, learner, criterion, value from"
                            " curve_results where budget = 1.0 and criterion not like '%time'"
                            " order by 1, 2, 3, 4, 5", con)
        budgets = [b for (b,) in con.execute("select distinct budget from curve_results"
                                            " order by 1")]
    assert budgets == [0.2, 0.5, 1.0]
    pd.testing.assert_frame_equal(curve, _results(plain))
    c = read_curves(budgeted)
    assert c.reader == "rankwise" and c.budget_name == "fraction" and c.grid.tolist() == budgets
    assert read_curves(budgeted, reader="rankwise").values.shape == c.values.shape
    f1 = read_curves(budgeted, criterion="f1")
    assert not np.array_equal(f1.values, c.values, equal_nan=True)


def test_budget_fractions_are_nested_and_stratified():
    y = np.array(["a"] * 60 + ["b"] * 30 + ["c"] * 10)
    parts = [budget_subset(y, f, 1, "d", 0, 0) for f in (0.1, 0.25, 0.5, 1.0)]
    for small_part, large_part in zip(parts, parts[1:]):
        assert set(small_part) <= set(large_part)
    counts = {c: int((y[parts[1]] == c).sum()) for c in "abc"}
    assert counts == {"a": 15, "b": 8, "c": 3}
    assert np.array_equal(parts[-1], np.arange(100))
    again = budget_subset(y, 0.25, 1, "d", 0, 0)
    assert np.array_equal(again, parts[1])


@pytest.mark.parametrize("budgets, message", [
    ("0.5", "must be a list"), ([0, 0.5], "not a fraction"), ([1.5], "not a fraction"),
    (["a"], "must be a list")])
def test_bad_budgets_in_the_experiment_file(budgets, message):
    with pytest.raises(RankwiseError, match=message):
        experiment_from_dict(_doc(budgets))


@pytest.mark.experiment
def test_a_run_without_budgets_has_no_curves(tmp_path):
    plain = tmp_path / "p.sqlite"
    run_experiment(experiment_from_dict(_doc()), plain, jobs=0)
    with pytest.raises(RankwiseError, match="no learning curves"):
        read_curves(plain)


@pytest.mark.subprocess
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses SIGKILL")
@pytest.mark.experiment
def test_kill_9_during_a_budgeted_run_resumes_to_the_identical_results(tmp_path):
    from test_runner import kill_9_at, to_toml

    doc = _doc([0.3, 0.6], repeats=3)
    doc["learners"].append({"name": "slow", "estimator":
                            "rankwise.experiment.testing.SlowClassifier",
                            "params": {"delay": 0.05}})
    exp = tmp_path / "e.toml"
    exp.write_text(to_toml(doc))
    ref = tmp_path / "ref.sqlite"
    run_experiment(load_experiment(exp), ref, jobs=0)
    db = tmp_path / "k.sqlite"
    done = kill_9_at(6, exp, db)
    assert 6 <= done < 36
    run_experiment(load_experiment(exp), db, jobs=2)
    query = ("select dataset, repeat, fold, learner, budget, criterion, value from curve_results"
             " where criterion not like '%time' order by 1, 2, 3, 4, 5, 6")
    with sqlite3.connect(ref) as a, sqlite3.connect(db) as b:
        pd.testing.assert_frame_equal(pd.read_sql(query, a), pd.read_sql(query, b))


# --- the command ----------------------------------------------------------------------------

def _ok(args):
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.figures   # the HTML page embeds its figures
def test_cli_example_text_markdown_json_agree():
    text = _ok(["curves", "--example", "learning"])
    data = json.loads(_ok(["curves", "--example", "learning", "-f", "json"]))
    markdown = _ok(["curves", "--example", "learning", "-f", "markdown"])
    assert data["schema"] == "rankwise.curves/2" and data["checkpoints"][0]["best"] == "logistic"
    assert "0.05: best logistic" in text and "0.05: best logistic" in markdown
    assert data["aocc"]["best"] == "knn" and "through compare: best knn" in " ".join(text.split())
    assert all(len(line) <= 80 for line in text.splitlines())
    html = _ok(["curves", "--example", "learning", "-f", "html"]).replace("&nbsp;", " ")
    latex = _ok(["curves", "--example", "learning", "-f", "latex"])
    for cell in ("1.17 [1.00, 2.07]", "0.05: best logistic"):  # the same numbers everywhere
        assert cell in html and cell in latex and cell in text
        # Markdown escapes the brackets, which would otherwise start a link
        assert cell.replace("[", "\\[").replace("]", "\\]") in markdown
    assert html.startswith("<!DOCTYPE html>") and "\\begin{document}" in latex


@pytest.mark.parametrize("source, path, extra", [
    ("ioh", DATA / "ioh", []), ("optuna", DATA / "optuna_studies.db", []),
    ("optuna", DATA / "optuna_trials.csv", ["--lower-is-better"]),
    ("curves", Path(rankwise.__file__).parent / "examples" / "learning_curves.csv",
     ["--higher-is-better"])])
def test_cli_every_source_given_and_inferred(source, path, extra):
    inferred = json.loads(_ok(["curves", str(path), "-f", "json", *extra]))
    given = json.loads(_ok(["curves", str(path), "--source", source, "-f", "json", *extra]))
    assert inferred == given and inferred["reader"] == source


@pytest.mark.experiment
def test_cli_rankwise_source_given_and_inferred(tmp_path):
    db = tmp_path / "b.sqlite"
    run_experiment(experiment_from_dict(_doc([0.5])), db, jobs=0)
    inferred = json.loads(_ok(["curves", str(db), "-f", "json"]))
    given = json.loads(_ok(["curves", str(db), "--source", "rankwise", "-f", "json"]))
    assert inferred == given and inferred["reader"] == "rankwise"


def test_cli_export_feeds_compare(tmp_path):
    out = tmp_path / "aocc.csv"
    _ok(["curves", "--example", "learning", "--export", "aocc", "-o", str(out)])
    table = pd.read_csv(out, index_col=0)
    r = rankwise.compare_curves(rankwise.load_curves_example())
    np.testing.assert_allclose(table.to_numpy(), r.aocc.T, rtol=1e-12)
    again = _ok(["compare", str(out), "--higher-is-better"])
    assert "knn" in again
    at = tmp_path / "at.csv"
    _ok(["curves", "--example", "learning", "--export", "0.05", "-o", str(at)])
    assert pd.read_csv(at, index_col=0).shape == (12, 4)


@pytest.mark.figures
def test_cli_figures(tmp_path):
    out = _ok(["curves", "--example", "learning", "--figure", str(tmp_path / "f.svg"),
               "--cd-figure", str(tmp_path / "cd.png"), "-o", str(tmp_path / "r.txt")])
    assert (tmp_path / "f.svg").read_text().startswith("<?xml")
    assert (tmp_path / "cd.png").read_bytes()[:4] == b"\x89PNG"
    assert [line.split(" ")[1] for line in out.splitlines()] == ["wrote", "wrote"]
    assert (tmp_path / "r.txt").read_text().startswith("rankwise curves: example:learning")


@pytest.mark.parametrize("args, expected", [
    (["curves"], "give either a CURVES file or --example NAME"),
    (["curves", "missing.csv"], "no such file or folder"),
    (["curves", "--example", "nope"], "no bundled curves example named 'nope'"),
    (["curves", "--example", "learning", "--values", "best"], "--values must be one of"),
    (["curves", "--example", "learning", "--targets", "x"], "--targets 'x'"),
    (["curves", "--example", "learning", "--aocc-bounds", "1"], "--aocc-bounds takes"),
    (["curves", "--example", "learning", "-f", "csv"], "--format must be"),
    (["curves", "--example", "learning", "--figure", "f.gif"], "gif"),
    (["curves", str(DATA / "ioh"), "-o", str(DATA / "ioh" / "out.txt")], "inside the input"),
    (["curves", str(DATA / "ioh"), "--higher-is-better"], "cannot turn them"),
])
def test_cli_bad_input_is_one_line(args, expected):
    from test_runner_safety import one_line_error

    one_line_error(CliRunner().invoke(app, args), expected)


# --- the null simulation (slow) -------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.simulation
def test_rank_band_keeps_its_coverage_under_the_null():
    """Learners with identical curve distributions: the true mean rank of each is (k+1)/2 at
    every budget; the simultaneous band must cover all of them together at 95%."""
    from rankwise.stats.curves import null_band_coverage

    coverage = null_band_coverage(reps=300, problems=20, learners=5, budgets=8, seed=1)
    assert coverage >= 0.93, coverage


def test_vectorised_trend_and_settle_equal_the_one_at_a_time_ones():
    """Above scipy's thresholds (Page: 20 problems; Wilcoxon: 50) every learner is tested in
    one call; the numbers are those of page_trend and wilcoxon called one learner at a time."""
    from scipy import stats

    from rankwise.analysis.curve_settle import _trend_normal, rank_settle as _settle
    from rankwise.stats.family import page_trend
    from rankwise.stats.curves import within_problem_ranks

    rng = np.random.default_rng(8)
    means = np.cumsum(rng.normal(0.1, 1, (5, 60, 4)), axis=2)
    means[2] = np.round(means[2])  # ties
    names = ["1", "2", "5", "10"]
    fast = _trend_normal(tuple("ABCDE"), means, names)
    for i, learner in enumerate("ABCDE"):
        slow = page_trend(means[i], names, learners=names, higher_is_better=True)
        assert fast[learner].statistic == slow.statistic
        assert fast[learner].pvalue == pytest.approx(slow.pvalue, rel=1e-12)
        assert slow.method == "asymptotic"
    ranks = within_problem_ranks(means)  # (c, p, l)
    _, adjusted = _settle(ranks, [1, 2, 5, 10], 0.05)
    from rankwise.stats.adjust import adjust
    p = [[stats.wilcoxon(r[:, l] - ranks[-1][:, l], zero_method="zsplit").pvalue
          if np.any(r[:, l] != ranks[-1][:, l]) else 1.0 for l in range(5)]
         for r in ranks[:-1]]
    np.testing.assert_allclose(adjusted, adjust(np.ravel(p), "holm").reshape(3, 5),
                               rtol=1e-12)


@pytest.mark.parametrize("kind", ["raw", "running-best"])
def test_large_parquet_read_in_batches_equals_the_whole_read(tmp_path, monkeypatch, kind):
    import rankwise.tables.curves as module

    frame = pd.read_csv(Path(rankwise.__file__).parent / "examples" / "learning_curves.csv")
    frame = frame.sample(frac=1.0, random_state=3)  # unsorted: the slow path of a batch
    path = tmp_path / "c.parquet"
    frame.to_parquet(path, index=False)
    whole = read_curves(path, higher_is_better=True, value_kind=kind)
    monkeypatch.setattr(module, "PARQUET_BATCH", 500)
    batched = read_curves(path, higher_is_better=True, value_kind=kind)
    assert batched.rows == whole.rows == len(frame)
    # the same cells, whatever order the labels came in
    li = [batched.learners.index(n) for n in whole.learners]
    pi = [batched.problems.index(n) for n in whole.problems]
    a = np.sort(whole.values, axis=2)
    b = np.sort(batched.values[li][:, pi], axis=2)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(whole.grid, batched.grid)


@pytest.mark.experiment
def test_export_curves_reads_back_as_the_database(tmp_path):
    db = tmp_path / "b.sqlite"
    run_experiment(experiment_from_dict(_doc([0.5])), db, jobs=0)
    out = tmp_path / "curves.csv"
    _ok(["export", str(db), "--curves", "-o", str(out)])
    assert list(pd.read_csv(out).columns) == ["dataset", "repeat", "fold", "learner", "budget",
                                              "criterion", "value"]
    direct = json.loads(_ok(["curves", str(db), "-f", "json"]))
    exported = json.loads(_ok(["curves", str(out), "--criterion", "accuracy", "-f", "json"]))
    for key in ("rank_band", "checkpoints", "aocc", "fixed_target", "profiles"):
        assert exported[key] == direct[key], key
    from test_runner_safety import one_line_error

    one_line_error(CliRunner().invoke(app, ["curves", str(out)]), "choose one with --criterion")
    one_line_error(CliRunner().invoke(app, ["export", str(db), "--curves", "-f", "weka", "-o",
                                            str(tmp_path / "w.arff")]), "no budget")


@pytest.mark.large
def test_settle_signed_rank_pvalue_equals_scipys_permutation_branch(rng):
    """The exact convolution that replaces scipy's sign-flip permutation test (at most 13
    differences with ties or zeros) gives scipy's numbers, and scipy's own elsewhere."""
    from scipy import stats

    from rankwise.analysis.curve_settle import _signed_rank_pvalue

    checked = 0
    for size in list(range(1, 11)) * 4 + list(range(12, 20)):   # scipy's branch is slow at 13
        d = rng.integers(-3, 4, size=size).astype(float)
        if (d != 0).any():
            assert _signed_rank_pvalue(d) == pytest.approx(
                float(stats.wilcoxon(d, zero_method="zsplit").pvalue), abs=1e-12)
            checked += 1
    assert checked > 40


def test_a_semicolon_curves_file_is_read_as_load_table_reads_it(tmp_path):
    """One delimited-text opener under every reader: ';' and a decimal comma, sniffed or given,
    read the same curves as the comma file (issue 61: the ';' file was refused)."""
    import numpy as np
    import pandas as pd

    import rankwise
    from importlib import resources

    comma = pd.read_csv(resources.files("rankwise.examples") / "learning_curves.csv")
    plain = tmp_path / "curves.csv"
    comma.to_csv(plain, index=False)
    semi = tmp_path / "curves_semicolon.csv"
    comma.to_csv(semi, index=False, sep=";", decimal=",")
    ref = rankwise.read_curves(plain, higher_is_better=True)
    for kwargs in ({}, {"sep": ";", "decimal": ","}):
        got = rankwise.read_curves(semi, higher_is_better=True, **kwargs)
        assert got.learners == ref.learners and got.problems == ref.problems
        assert np.allclose(got.values, ref.values, equal_nan=True)


def test_maximize_is_higher_is_better_with_a_warning_until_it_goes():
    """One word per idea: a table's direction is ``higher_is_better`` in read_curves as in
    every reader; ``maximize=`` still works and says so; Curves answers to both words."""
    frame = pd.DataFrame({"learner": ["a", "a", "b", "b"], "problem": ["p"] * 4,
                          "run": [0] * 4, "budget": [1, 2, 1, 2], "value": [1.0, 2, 1.5, 1.8]})
    with pytest.warns(FutureWarning, match="maximize= is higher_is_better="):
        old = read_curves(frame, maximize=False)
    new = read_curves(frame, higher_is_better=False)
    assert old.maximize is new.maximize is new.higher_is_better is False
    assert np.array_equal(old.values, new.values, equal_nan=True)


def test_without_a_band_the_figure_caption_claims_none(ioh):
    """Two problems: no rank band is computed, and the figure's caption does not promise one."""
    from rankwise.report.curves import document
    from rankwise.report.text import text_document

    text = " ".join(text_document(document(compare_curves(ioh)), None).split())
    assert "Rank over budget with its" not in text
    assert "Rank over budget (no band: too few problems, see the notes)" in text


def test_one_problem_is_refused_in_the_words_of_curves():
    """One problem (an Optuna storage of one objective, two samplers) was refused as "need at
    least 2 data sets, got 1", in compare's words and with no way forward."""
    frame = pd.DataFrame({"learner": ["A", "A", "B", "B"], "problem": "p", "run": 0,
                          "budget": [1, 10, 1, 10], "value": [0.5, 0.8, 0.6, 0.7]})
    with pytest.raises(RankwiseError, match=r"one problem \(p\).*two or more problems"):
        compare_curves(rankwise.read_curves(frame, higher_is_better=True))
