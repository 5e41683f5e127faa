"""``rankwise plan`` and :func:`rankwise.plan`: one result in every format, checked against the
G-study of the stats module, REML, the coverage it promises and the command line's checks."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from rankwise import load_example, load_table, plan
from rankwise.errors import RankwiseError
from rankwise.stats.generalizability import d_study, g_study


@pytest.fixture(scope="module")
def folds():
    return plan(load_example("folds_demo", criterion="accuracy"))


def test_a_score_table_is_the_crossed_g_study():
    t = load_example("brennan2001_synthetic4")
    p, old = plan(t), d_study(g_study(t.values))
    assert p.design.notation == "learner x dataset" and p.method == "anova"
    assert p.current.generalizability == pytest.approx(old.generalizability, rel=1e-12)
    assert p.needed["dataset"]["generalizability"] == old.needed["generalizability"]
    assert p.in_hand is None           # one score per cell: nothing to err within a data set
    assert p.cheapest.sizes == {"dataset": old.needed["generalizability"]}
    assert p.other is not None and p.other.method == "reml"
    for name, value in p.components.components.items():
        assert p.other.components[name] == pytest.approx(value, rel=1e-6)


def _balanced_frame(seed=2, k=4, n=6, r=3, f=4):
    rng = np.random.default_rng(seed)
    x = (rng.normal(0, .05, (k, 1, 1, 1)) + rng.normal(0, .1, (1, n, 1, 1))
         + rng.normal(0, .03, (k, n, 1, 1)) + rng.normal(0, .02, (1, n, r, 1))
         + rng.normal(0, .02, (k, n, r, 1)) + rng.normal(0, .04, (1, n, r, f))
         + rng.normal(0, .03, (k, n, r, f)))
    l, d, rr, ff = np.meshgrid(*map(np.arange, (k, n, r, f)), indexing="ij")
    return pd.DataFrame({"learner": [f"L{i}" for i in l.ravel()],
                         "dataset": [f"D{j}" for j in d.ravel()], "repeat": rr.ravel(),
                         "fold": ff.ravel(), "value": 0.7 + x.ravel()})


def test_reml_beside_the_anova_of_a_balanced_pilot():
    p = plan(load_table(_balanced_frame()))
    assert p.design.notation == "learner x (fold:repeat:dataset)"
    raw = p.components.raw
    assert min(raw.values()) > 0       # no estimate cut at 0: REML equals the ANOVA
    for name, value in p.components.components.items():
        assert p.other.components[name] == pytest.approx(value, rel=1e-6)


def test_an_unbalanced_pilot_is_fitted_by_reml():
    frame = _balanced_frame().drop(index=[5, 77, 140])
    p = plan(load_table(frame))
    assert p.method == "reml" and p.other is None
    with pytest.raises(RankwiseError, match="balanced"):
        plan(load_table(frame), method="anova")


def test_every_format_and_the_json_agree(folds):
    data = json.loads(folds.render("json"))
    assert data["schema"] == "rankwise.plan/1"
    assert data["current"]["generalizability"] == pytest.approx(
        folds.current.generalizability)
    assert data["cheapest"]["sizes"] == folds.cheapest.sizes
    text = folds.render("text", width=80)
    assert max(map(len, text.splitlines())) <= 80
    sizes = ", ".join(f"{v} {('data set' if k == 'dataset' else k)}{'s' if v != 1 else ''}"
                      for k, v in folds.cheapest.sizes.items())
    for fmt in ("text", "markdown", "html", "latex"):
        out = folds.render(fmt)
        assert sizes in out and "Variance components" in out
    assert data["settings"]["next_method"] == folds.next_ranks.method == "hierarchical"


def test_the_next_data_set_intervals_cover_as_promised():
    for name in ("garcia2008", "garcia2010", "demsar2006_table6", "tabarena"):
        p = plan(load_example(name))
        assert p.next_ranks.method == "conformal"
        assert p.coverage >= 1 - p.next_ranks.alpha, name
        assert np.all(p.next_ranks.lower <= p.next_ranks.median_rank)
        assert np.all(p.next_ranks.median_rank <= p.next_ranks.upper)


def test_the_design_asked_and_its_costs(folds):
    t = load_example("folds_demo", criterion="accuracy")
    p = plan(t, sizes={"dataset": 20, "fold": 5}, costs={"dataset": 100.0})
    assert p.asked.sizes == {"dataset": 20, "repeat": 5, "fold": 5}
    assert p.asked.cost == pytest.approx(20 * 100 + 20 * 5 * 5)
    assert p.asked.difference_se < p.current.difference_se
    assert "the design asked" in p.render("text")
    # a data set that costs a hundred folds is no longer the best buy
    assert p.buys[0]["facet"] != "dataset"


def test_scored_items_are_planned_by_reml():
    from rankwise.examples import load_items_example
    p = plan(load_items_example("evals"))
    assert p.design.notation == "learner x (item:task)" and p.method == "reml"
    assert p.top == "task" and "The rank on the next task" in p.render("text")


def test_bad_options_are_refused():
    t = load_example("garcia2008")
    with pytest.raises(RankwiseError, match="method"):
        plan(t, method="ml")
    with pytest.raises(RankwiseError, match="no facet 'fold'"):
        plan(t, sizes={"fold": 3})
    with pytest.raises(RankwiseError, match="hierarchical"):
        plan(t, next_method="hierarchical")


@pytest.mark.figures
def test_the_command_line(cli, tmp_path):
    r = cli("plan", "--example", "folds_demo", "-c", "accuracy", "--design", "dataset=10",
            "--cost", "dataset=20")
    assert r.returncode == 0 and "the design asked" in r.stdout
    r = cli("plan", "--example", "folds_demo", "-c", "accuracy", "--cost", "dataset")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--cost" in r.stderr
    r = cli("plan", "--example", "evals", "--method", "anova")
    assert r.returncode == 2 and "balanced" in r.stderr and "Traceback" not in r.stderr
    r = cli("plan", "--example", "garcia2008", "--report", str(tmp_path / "rep"), "-f", "json")
    assert r.returncode == 0
    assert json.loads(r.stdout)["schema"] == "rankwise.plan/1"
    assert {p.name for p in (tmp_path / "rep").iterdir()} >= {
        "plan.txt", "plan.json", "plan.md", "plan.tex", "plan.html", "plan_cost.svg"}


def test_extremes_are_planned_without_a_warning(recwarn):
    t = load_example("garcia2008")
    from dataclasses import replace
    for scale in (1e-150, 1e150):
        p = plan(replace(t, values=t.values * scale, raw=None))
        assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]
        assert p.current.generalizability == pytest.approx(plan(t).current.generalizability,
                                                           rel=1e-9)
    assert math.isfinite(plan(t).current.resolution)
    for scale in (1e-300, 1e300):       # squares beyond double precision: refused, said
        with pytest.raises(RankwiseError, match="double precision"):
            plan(replace(t, values=t.values * scale, raw=None))
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


def _small_experiment(repeats=2):
    """Three learners on six small synthetic data sets, ``repeats`` x 2 folds."""
    from test_runner import to_toml
    return to_toml({
        "experiment": {"repeats": repeats, "folds": 2, "seed": 5, "criteria": ["accuracy"]},
        "datasets": [{"source": "synthetic", "name": f"s{i}", "samples": 80, "features": 4,
                      "informative": 2, "separation": 0.8, "flip": 0.1, "seed": i}
                     for i in range(6)],
        "learners": [{"name": "NB", "estimator": "sklearn.naive_bayes.GaussianNB"},
                     {"name": "stump", "estimator": "sklearn.tree.DecisionTreeClassifier",
                      "params": {"max_depth": 1}},
                     {"name": "tree", "estimator": "sklearn.tree.DecisionTreeClassifier",
                      "params": {"max_depth": 3}}]})


@pytest.mark.experiment
def test_run_plan_writes_the_next_run_and_it_keeps_every_stored_task(cli, tmp_path):
    exp = tmp_path / "exp.toml"
    exp.write_text(_small_experiment(), encoding="utf-8")
    db = tmp_path / "r.db"
    r = cli("run", str(exp), "--results", str(db), "--quiet", "--plan")
    assert r.returncode == 0, r.stderr
    assert "rankwise: plan: on accuracy: learner x (fold:repeat:dataset)" in r.stderr
    nxt = tmp_path / "exp.next.toml"
    if nxt.exists():             # more repeats asked for: the file differs only there
        import re
        want = int(re.search(r"^repeats = (\d+)", nxt.read_text(), re.M).group(1))
        assert want > 2 and f"{want} repeats give" in r.stderr
        # the number the plan of the results reports, not one worked out again
        done = plan(load_table(db, criterion="accuracy"))
        assert done.needed_in_hand["repeat"] == want
        assert nxt.read_text().replace(f"repeats = {want}", "repeats = 2") == exp.read_text()
        again = cli("run", str(nxt), "--results", str(db), "--quiet", "--force")
        assert again.returncode == 0
        assert f"{3 * 6 * 2 * want} tasks: {3 * 6 * 2 * 2} were already done" in again.stderr
    else:
        assert "already give" in r.stderr or "no number of repeats" in r.stderr
    fresh = tmp_path / "fresh.db"     # a criterion the run does not record: before any task
    r = cli("run", str(exp), "--results", str(fresh), "--plan", "auc")
    assert r.returncode == 2 and "--plan auc" in r.stderr and not fresh.exists()
    clash = tmp_path / "exp.next.toml"   # the next run would be written over the results
    before = clash.read_bytes() if clash.exists() else None
    r = cli("run", str(exp), "--results", str(clash), "--plan")
    assert r.returncode == 2 and "--plan's next run" in r.stderr
    assert (clash.read_bytes() if clash.exists() else None) == before   # nothing touched
    r = cli("run", str(exp), "--results", str(db), "--plan", "--race")
    assert r.returncode == 2 and "--plan" in r.stderr and "Traceback" not in r.stderr


def _half(table, repeats):
    raw = table.raw[table.raw["repeat"].astype(int).isin(repeats)]
    return load_table(raw[["dataset", "learner", "repeat", "fold", "value"]])


@pytest.mark.parametrize("plan_on, check_on", [(range(10), range(10, 20)),
                                               (range(10, 20), range(10))])
def test_a_plan_on_half_the_repeats_predicts_the_other_half(plan_on, check_on):
    """The bundled pilot (5 learners, 12 data sets, 20 repeats x 5 folds, really run): a plan
    on ten repeats predicts, within 15 %, the standard error of a difference of two learners'
    means over the other ten with the data sets held fixed, as those ten measure it: the
    repeat-to-repeat spread of every learner's mean on every data set, the learners' and the
    repeats' means removed (pooled over learners and data sets), computed here from the scores
    alone. Clipping the negative learner x repeat component (Brennan's G-study convention)
    overstates it by a quarter or more (the folds of a repeat partition its data set)."""
    t = load_example("pilot", criterion="accuracy")
    p = plan(_half(t, list(plan_on)), draws=100)
    other = _half(t, list(check_on))
    frame = other.raw.groupby(["learner", "dataset", "repeat"])["value"].mean().unstack()
    k, n = len(other.learners), len(other.datasets)
    r = frame.shape[1]
    m = frame.to_numpy().reshape(k, n, r)      # learner x data set x repeat means
    e = (m - m.mean(2, keepdims=True) - m.mean(0, keepdims=True)
         + m.mean((0, 2), keepdims=True))
    spread = (e ** 2).sum() / ((k - 1) * (r - 1) * n)
    measured = math.sqrt(2 * spread / (n * r))
    predicted = p.in_hand.difference_se
    assert predicted == pytest.approx(measured, rel=0.15)
    clipped = plan(_half(t, list(plan_on)), draws=100, negative="zero").in_hand.difference_se
    assert clipped > 1.15 * measured


def test_curves_are_planned_at_their_last_budget_with_the_budgets_decision_accuracy():
    from rankwise import load_curves_example
    c = load_curves_example("learning")
    p = plan(c)
    assert p.design.notation == "learner x problem, runs replicated" and p.top == "problem"
    assert p.signal is not None and p.signal.n_repeats == 10
    b = p.budget_accuracy
    assert b.budgets[-1] == c.grid[-1] and b.accuracy[-1] == 1
    # the last budget's table is the one compare reads at that budget
    assert np.allclose(p.means, np.nanmean(c.at_budget(c.grid[-1]).values, axis=0))
    text = p.render("text")
    assert "The rank on the next problem" in text and "decision accuracy" in text
