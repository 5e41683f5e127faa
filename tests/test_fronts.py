"""Better and cheaper: the Pareto front against brute force and TabArena's own
``get_pareto_frontier`` (its output, made in its own environment), the GSD programme against an
enumeration of every constraint and against the reference repository's Gurobi results, the
permutation test against a brute-force enumeration, the demo experiment's report, the command,
and the null simulation of the GSD test (slow)."""

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rankwise import compare_criteria
from rankwise.errors import RankwiseError
from rankwise.report.fronts import render_fronts, sentences
from rankwise.stats import gsd
from rankwise.stats.fronts import (brute_front, dominance, front_probability, orient,
                                   pareto_front, statistically_dominated)

DATA = Path(__file__).parent / "data" / "fronts"


def test_front_equals_brute_force_with_ties_and_more_criteria(rng):
    for _ in range(400):
        k, m = int(rng.integers(1, 14)), int(rng.integers(1, 5))
        points = rng.integers(0, 4, size=(k, m)).astype(float)   # many ties
        assert (pareto_front(points) == brute_front(points)).all(), points


def test_front_equals_tabarenas_get_pareto_frontier():
    ref = json.loads((DATA / "tabarena_reference.json").read_text())
    differ = 0
    for case in ref["cases"]:
        pts = orient(np.c_[case["x"], case["y"]], [case["max_x"], case["max_y"]])
        names = np.array(case["names"])
        got = pareto_front(pts, "tabarena", [case["max_x"], case["max_y"]])
        assert sorted(names[got]) == case["front"]
        strict = pareto_front(pts)
        # the strict front is TabArena's without the points tied on y with a better x
        assert set(names[strict]) <= set(case["front"])
        differ += len(case["front"]) - int(strict.sum())
    assert differ > 0   # the reference cases do exercise the tie rule


def test_gsd_programme_equals_an_enumeration_of_every_constraint(rng):
    """The reduced programme (covering pairs only) against every R1 and R2 constraint written
    out, minimised over a grid of u (exact for these small cases: their vertices lie on it)."""
    checked = 0
    for case in range(80):
        x = rng.integers(0, 3, size=(2, 2)).astype(float)
        y = rng.integers(0, 3, size=(2, 2)).astype(float)
        card = [[True, False], [True, True], [False, False]][case % 3]
        pts, inv = gsd._pooled(x, y)
        system = gsd.system(pts, card)
        free = [i for i in range(len(system.points)) if i not in (system.low, system.high)]
        if len(free) > 4:
            continue
        a_ub = gsd.all_constraints(system.points, card)
        c = gsd._objective(inv[:2], inv[2:], len(system.points), 2)
        grid = np.arange(13) / 12
        u = np.zeros((13 ** len(free), len(system.points)))
        u[:, free] = np.array(list(itertools.product(grid, repeat=len(free))))
        u[:, system.high] = 1
        ok = (u @ a_ub.T <= 1e-12).all(axis=1)
        assert abs((u[ok] @ c).min() - gsd._solve(system, c)) < 1e-9
        checked += 1
    assert checked > 40


def test_warm_started_highs_equals_linprog(rng):
    x, y = rng.normal(size=(8, 2)), rng.normal(size=(8, 2))
    warm = gsd.pair_test(x, y, [True, False], permutations=60, seed=3, level=0.05)
    cold = gsd.pair_test(x, y, [True, False], permutations=60, seed=3, level=0.05, warm=False)
    assert np.allclose(warm.null, cold.null, atol=1e-9)
    assert warm.pvalue == cold.pvalue and warm.statistic == pytest.approx(cold.statistic)


def _reference_case(case):
    pts = np.c_[case["ordinal_1"], case["ordinal_2"], case["numeric"]]
    a = np.repeat(pts, case["count_a"], axis=0)   # the classifier of interest
    b = np.repeat(pts, case["count_b"], axis=0)
    # the reference minimises (sum over b - sum over a) / (2n): half of D(b, a)
    return gsd.gsd_statistic(b, a, [False, False, True]) / 2


@pytest.mark.large
def test_gsd_reproduces_the_reference_repositorys_openml_statistic():
    ref = json.loads((DATA / "gsd_reference.json").read_text())["cases"]["openml_glmnet"]
    assert _reference_case(ref) == pytest.approx(ref["d_observed_eps0"], abs=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("tag", ["pmlb_glmnet", "pmlb_knn"])
def test_gsd_reproduces_the_reference_repositorys_pmlb_statistics(tag):
    ref = json.loads((DATA / "gsd_reference.json").read_text())["cases"][tag]
    assert _reference_case(ref) == pytest.approx(ref["d_observed_eps0"], abs=1e-9)


def test_exact_permutation_test_equals_brute_force(rng):
    x, y = rng.normal(size=(3, 2)), rng.normal(size=(3, 2))
    t = gsd.pair_test(x, y, [True, True], permutations=1000, seed=1, level=0.05)
    assert t.exact and t.permutations == math.comb(6, 3)
    both = np.vstack([x, y])
    observed = gsd.gsd_statistic(y, x, [True, True])
    null = []
    for first in itertools.combinations(range(6), 3):
        rest = [i for i in range(6) if i not in first]
        null.append(gsd.gsd_statistic(both[list(first)], both[rest], [True, True]))
    assert t.statistic == pytest.approx(observed)
    assert t.pvalue == pytest.approx(np.mean(np.array(null) <= observed + gsd.TOLERANCE))


def test_robust_count_is_the_last_contamination_that_still_rejects():
    x = np.c_[np.linspace(0.9, 0.99, 12), -np.arange(12.0)]     # better on both, everywhere
    y = np.c_[np.linspace(0.5, 0.59, 12), -np.arange(12.0) - 20]
    t = gsd.pair_test(x, y, [True, False], permutations=300, seed=2, level=0.05)
    assert t.pvalue <= 0.05 and t.robust >= 0

    def p(shift):
        return (1 + (t.null <= t.statistic + shift + gsd.TOLERANCE).sum()) / (len(t.null) + 1)
    assert p(2 * t.robust / 12) <= 0.05 < p(2 * (t.robust + 1) / 12)


def test_dominance_finds_a_planted_better_learner(rng):
    n = 12
    acc = rng.uniform(0.6, 0.9, size=(n, 1)) + np.array([[0.05, 0.0, 0.02]])
    time = rng.uniform(1, 2, size=(n, 1)) * np.array([[1.0, 1.0, 0.5]])
    values = orient(np.stack([acc, time], axis=2), [True, False])
    better, adjusted = dominance(values, 0.05)
    assert better[0, 0, 1] and not better[0, 1, 0]      # A beats B on accuracy
    dom = statistically_dominated(better)
    assert dom[1, 0]                                    # B dominated by A
    assert not dom[0].any()


def _planted_table(rng, n=12):
    rows = []
    for d in range(n):
        base = rng.uniform(0.6, 0.9)
        for name, acc, t in (("A", base + 0.05, 1.0), ("B", base, 1.0), ("C", base + 0.02, 0.2)):
            rows += [(f"d{d}", name, "accuracy", acc), (f"d{d}", name, "fit_time",
                                                         t * rng.uniform(1, 1.1))]
    return pd.DataFrame(rows, columns=["dataset", "learner", "criterion", "value"])


def test_report_states_front_dominated_and_tied_with_best(rng):
    r = compare_criteria(_planted_table(rng), ["accuracy", "fit_time"], draws=200,
                         permutations=99)
    assert r.front_learners == ["A", "C"]
    assert r.dominated_learners == {"B": ["A"]} or "B" in r.dominated_learners
    text = " ".join(sentences(r))
    assert "Statistically dominated" in text and "B by A" in text
    assert r.probability[r.learners.index("A")] > 0.9
    d = r.to_dict()
    assert d["front"] == ["A", "C"] and d["statistically_dominated"]["B"][0] == "A"
    assert r.settings["ordinal"] == ["fit_time"]     # times are ordinal by default


def _demo(criteria, **options):
    from rankwise import load_example

    tables = [load_example("demo_results", criterion=c) for c in criteria]
    return compare_criteria(tables, criteria, **options)


@pytest.mark.figures   # the HTML page embeds its figures
def test_demo_experiment_report_names_the_front_and_the_learners_off_it():
    r = _demo(["accuracy", "fit_time"], draws=200)
    assert r.front_learners == ["NaiveBayes", "RandomForest"]
    assert r.outdone_learners == {"CART": ["NaiveBayes"], "kNN": ["CART", "NaiveBayes"]}
    assert r.gsd_front_learners == ["NaiveBayes", "RandomForest"]
    assert all(m.exact for m in r.memberships)      # 4 data sets: every split
    text = render_fronts(r, "text")
    assert "NaiveBayes and RandomForest" in text and "CART (by NaiveBayes)" in text
    for fmt in ("markdown", "html", "latex"):
        assert "NaiveBayes" in render_fronts(r, fmt)


def test_same_seed_same_numbers_and_means_equal_the_table():
    a = _demo(["accuracy", "auc"], draws=100, seed=5)
    b = _demo(["accuracy", "auc"], draws=100, seed=5)
    assert render_fronts(a, "json") == render_fronts(b, "json")
    from rankwise import load_example

    t = load_example("demo_results", criterion="auc")
    assert np.allclose(a.points[:, 1], t.values.mean(axis=0))


def test_front_probability_is_one_for_a_learner_best_everywhere(rng):
    v = rng.normal(size=(10, 4, 2))
    v[:, 0, :] += 10
    p, low, high = front_probability(v, "mean", 100, 1)
    assert p[0] == 1 and (low <= high).all()


def test_bad_inputs_one_line_exit_2(cli):
    for args, said in (
            (("--criteria", "accuracy"), "two or more criteria"),
            (("--criteria", "accuracy,nope"), "no rows for criterion 'nope'"),
            (("--criteria", "accuracy,fit_time", "--ordinal", "auc"), "not among the criteria"),
            (("--criteria", "accuracy,fit_time", "--posthoc", "all"), "--posthoc does not go"),
            (("--criteria", "accuracy,fit_time", "--lower-is-better"), "direction"),
            (("--ordinal", "fit_time"), "go with --criteria")):
        ran = cli("compare", "--example", "demo_results", *args)
        assert ran.code == 2 and said in ran.err and len(ran.err.strip().splitlines()) == 1, ran


@pytest.mark.figures
def test_criteria_given_explicitly_or_as_a_criterion_list_agree(cli, tmp_path):
    a = cli("compare", "--example", "demo_results", "--criteria", "accuracy,fit_time",
            "-f", "json")
    b = cli("compare", "--example", "demo_results", "-c", "accuracy,fit_time", "-f", "json")
    c = cli("compare", "--example", "demo_results", "-c", "accuracy,fit_time", "-f", "json",
            "--ordinal", "fit_time")
    assert a.code == 0 and a.out == b.out == c.out
    ran = cli("compare", "--example", "demo_results", "--criteria", "accuracy,fit_time",
              "--report", tmp_path / "rep")
    assert ran.code == 0
    assert {p.name for p in (tmp_path / "rep").iterdir()} == {
        "report.txt", "report.md", "report.html", "report.tex", "report.json",
        "report_interactive.html", *(f"{name}.{ext}" for name in ("front", "gsd") for ext in ("svg", "pdf", "png"))}


@pytest.mark.figures
def test_front_figure_of_more_than_two_criteria_has_a_panel_per_pair_and_no_step(tmp_path):
    """With three criteria the front is that of all three: no plane shows it as a step, so the
    figure draws each pair of criteria with the front's learners outlined and no step line;
    with two, one plane and the step. The report folder is the same bytes each time."""
    from rankwise.report.fronts import front_figure

    two, three = _demo(["accuracy", "fit_time"]), _demo(["accuracy", "fit_time", "auc"])
    fig = front_figure(two)
    (plane, _bar) = fig.axes
    assert len(plane.lines) == 1   # the step
    fig = front_figure(three)
    panels = [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]
    assert [(ax.get_xlabel().split()[0], ax.get_ylabel().split()[0]) for ax in panels] == [
        ("accuracy", "fit_time"), ("accuracy", "auc"), ("fit_time", "auc")]
    assert all(not ax.lines for ax in panels)
    assert "all 3 criteria" in fig._suptitle.get_text()
    one = front_figure(three, 0, 2)
    assert one.axes[0].get_ylabel().startswith("auc") and not one.axes[0].lines
    with pytest.raises(ValueError, match="both x and y"):
        front_figure(three, 0)
    crits = ["accuracy", "fit_time", "auc", "f1", "precision", "balanced_accuracy"]
    fig = front_figure(_demo(crits, draws=50))   # 15 pairs: more than a person reads
    panels = [ax for ax in fig.axes if ax.get_visible() and ax.get_label() != "<colorbar>"]
    assert [ax.get_xlabel().split()[0] for ax in panels] == ["accuracy"] * 5
    assert "accuracy against each of the others" in fig._suptitle.get_text()
    first = three.write_report(tmp_path / "a")
    second = three.write_report(tmp_path / "b")
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in second]
    assert b"<svg" in (tmp_path / "a" / "front.svg").read_bytes()


def test_command_and_function_defaults_agree(cli):
    ran = cli("compare", "--example", "demo_results", "--criteria", "accuracy,fit_time",
              "-f", "json")
    r = _demo(["accuracy", "fit_time"])
    assert ran.out == render_fronts(r, "json")


def test_compare_criteria_refuses_bad_arguments():
    for kwargs, said in (({"alpha": 2}, "alpha"), ({"summary": "mode"}, "summary"),
                         ({"draws": 0}, "draws"), ({"front_rule": "x"}, "front_rule")):
        with pytest.raises(RankwiseError, match=said):
            _demo(["accuracy", "fit_time"], **kwargs)


@pytest.mark.slow
@pytest.mark.simulation
def test_gsd_test_holds_its_level_under_the_null():
    """Two learners whose criteria vectors come from one distribution: the pairwise test
    rejects at most alpha + 2 SE of the time."""
    reps = 300
    rate = gsd.null_rejection_rate(reps, 10, permutations=99, seed=11)
    assert rate <= 0.05 + 2 * math.sqrt(0.05 * 0.95 / reps)


def test_curtailed_test_decides_as_the_full_one(rng):
    for _ in range(6):
        x, y = rng.normal(size=(12, 2)), rng.normal(size=(12, 2))
        x[:, 0] += rng.uniform(0, 1.5)
        full = gsd.pair_test(x, y, [True, False], permutations=99, seed=4, level=0.05)
        cut = gsd.pair_test(x, y, [True, False], permutations=99, seed=4, level=0.05,
                            curtail=True)
        assert (full.pvalue <= 0.05) == (cut.pvalue <= 0.05)
        assert cut.pvalue <= full.pvalue + 1e-12
        if cut.curtailed:
            assert cut.pvalue > 0.05 and cut.permutations < full.permutations
        else:
            assert cut.pvalue == full.pvalue


def test_a_learner_shown_on_the_gsd_front_with_its_robustness():
    r = compare_criteria(_planted_table(np.random.default_rng(7)), ["accuracy", "fit_time"],
                         draws=200, permutations=99)
    c = next(m for m in r.memberships if m.learner == "C")
    assert c.static and c.dynamic and c.competitors == ("B", "A") or set(c.competitors) == {
        "A", "B"}
    assert c.robust_static == int(c.robust.min()) >= 0
    assert any(s.startswith("C is on the GSD front (static test)") for s in sentences(r))
    assert r.to_dict()["gsd"]["tests"][1]["static"] is True
    # the headline reads the same decision: C shown, the rest of the sample's front not
    assert r.gsd_shown == ["C"] == r.to_dict()["gsd"]["shown"]
    rest = [x for x in r.gsd_front_learners if x != "C"]
    head = next(s for s in sentences(r) if s.startswith("Shown to be on the GSD front"))
    assert head.startswith("Shown to be on the GSD front (ordinal: fit_time) at alpha = 0.05 by"
                           " the static test: C")
    assert head.endswith(f"; on the sample's GSD front but not shown to be on it:"
                         f" {' and '.join(rest)}." if rest else ": C.")


@pytest.mark.slow
@pytest.mark.parametrize("tag", ["pmlb_knn", "openml_glmnet"])
def test_gsd_test_decides_as_the_reference_repository(tag):
    """The permutation test on the reference repository's data: the same decision at 0.05 as
    its stored permutations (Gurobi, R's generator), and a p-value within Monte Carlo error."""
    ref = json.loads((DATA / "gsd_reference.json").read_text())["cases"][tag]
    pts = np.c_[ref["ordinal_1"], ref["ordinal_2"], ref["numeric"]]
    a = np.repeat(pts, ref["count_a"], axis=0)
    b = np.repeat(pts, ref["count_b"], axis=0)
    t = gsd.pair_test(a, b, [False, False, True], permutations=200, seed=1, level=0.05)
    assert (t.pvalue <= 0.05) == (ref["pvalue"] <= 0.05)
    se = math.sqrt(max(ref["pvalue"], 0.01) * (1 - ref["pvalue"]) * (1 / 200 + 1 / ref[
        "permutations"]))
    assert abs(t.pvalue - ref["pvalue"]) <= 4 * se


def test_mean_rank_summary_shows_ranks_and_says_so():
    r = _demo(["accuracy", "fit_time"], draws=50, summary="rank")
    assert (r.points >= 1).all() and (r.points <= 4).all()
    assert r.points[r.learners.index("NaiveBayes"), 1] == pytest.approx(1.25)
    assert "mean rank, lower is better" in render_fronts(r, "text")


@pytest.mark.parametrize("case", ["constant", "identical", "two_datasets", "two_learners",
                                  "huge", "tiny"])
@pytest.mark.figures   # the HTML page embeds its figures
def test_extremes_give_every_output_without_a_warning(case):
    from rankwise.tables import ScoreTable

    rng = np.random.default_rng(0)
    a, b = {"constant": (np.full((6, 3), 0.8), np.full((6, 3), 1.0)),
            "identical": (np.tile(rng.normal(size=(6, 1)), (1, 3)),
                          np.tile(rng.lognormal(size=(6, 1)), (1, 3))),
            "two_datasets": (rng.normal(size=(2, 3)), rng.lognormal(size=(2, 3))),
            "two_learners": (rng.normal(size=(8, 2)), rng.lognormal(size=(8, 2))),
            "huge": (rng.normal(size=(6, 3)) * 1e300, rng.lognormal(size=(6, 3)) * 1e300),
            "tiny": (rng.normal(size=(6, 3)) * 1e-300,
                     rng.lognormal(size=(6, 3)) * 1e-300)}[case]
    n, k = a.shape
    names, sets = tuple(f"L{j}" for j in range(k)), tuple(f"d{i}" for i in range(n))
    tables = [ScoreTable(a, sets, names, higher_is_better=True),
              ScoreTable(b, sets, names, higher_is_better=False)]
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = compare_criteria(tables, ["accuracy", "fit_time"], draws=50, permutations=50)
        for fmt in ("text", "json", "markdown", "html", "latex"):
            assert render_fronts(r, fmt)
    assert r.front.any() and r.gsd_front.any()
    if case in ("constant", "identical"):      # nobody better: everyone on both fronts
        assert r.front.all() and r.gsd_front.all() and not r.dominated.any()


def test_summary_given_on_the_command_line_or_in_python_agree(cli):
    rank = cli("compare", "--example", "demo_results", "--criteria", "accuracy,fit_time",
               "--summary", "rank", "-f", "json")
    assert rank.code == 0 and rank.out == render_fronts(
        _demo(["accuracy", "fit_time"], summary="rank"), "json")
    mean = cli("compare", "--example", "demo_results", "--criteria", "accuracy,fit_time",
               "--summary", "mean", "-f", "json")
    plain = cli("compare", "--example", "demo_results", "--criteria", "accuracy,fit_time",
                "-f", "json")
    # the default, auto, is the mean on every criterion of the demo (no scale spreads 100-fold)
    mean, plain = json.loads(mean.out), json.loads(plain.out)
    assert plain["settings"].pop("summary") == "auto" and mean["settings"].pop("summary") == "mean"
    assert mean == plain and plain["settings"]["summaries"] == ["mean", "mean"]


def test_a_criterion_of_many_scales_is_read_by_its_mean_rank_and_the_verdict_says_so_first():
    """TabArena's errors differ 1.45e7-fold across its data sets: by default (auto) the front
    reads metric_error by its mean rank, and the verdict's first sentence says so (it was a
    note on the report's last lines, under a front of raw means)."""
    from rankwise import load_example

    tables = [load_example("tabarena", criterion=c) for c in ("metric_error", "time_train_s")]
    r = compare_criteria(tables, ["metric_error", "time_train_s"], draws=50)
    assert r.gsd is None and any("GSD left out" in n for n in r.notes)
    assert r.summaries == ("rank", "mean")
    assert r.cautions[0].startswith("metric_error's typical value differs 1.45e+07-fold")
    assert sentences(r)[0] == r.cautions[0]
    assert not any("typical value" in n for n in r.notes)
    assert not compare_criteria(tables, ["metric_error", "time_train_s"], draws=50,
                                summary="rank").cautions


@pytest.mark.large
def test_a_hundred_thousand_data_sets_with_p_below_1e300_and_no_warning():
    import warnings

    from rankwise.tables import ScoreTable

    rng = np.random.default_rng(0)
    n, k = 100_000, 4
    a = rng.normal(size=(n, 1)) + np.arange(k)
    b = rng.lognormal(size=(n, 1)) * (1 + np.arange(k))
    names, sets = tuple(f"L{j}" for j in range(k)), tuple(f"d{i}" for i in range(n))
    tables = [ScoreTable(a, sets, names, higher_is_better=True),
              ScoreTable(b, sets, names, higher_is_better=False)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = compare_criteria(tables, ["accuracy", "fit_time"], draws=100)
        render_fronts(r, "json")
    assert r.front.all()                                    # a trade-off chain
    assert r.better[0, 3, 0] and r.adjusted[0, 3, 0] < 1e-300   # far below 1e-300
    assert any(note.startswith("GSD left out: 100000 data sets") for note in r.notes)


def test_report_folder_that_is_also_the_output_file_is_refused_before_any_work(cli, tmp_path):
    out = tmp_path / "x.txt"
    for what in (("-c", "accuracy"), ("--criteria", "accuracy,fit_time")):
        ran = cli("compare", "--example", "demo_results", *what, "-o", out, "--report", out)
        assert ran.code == 2 and "is also -o" in ran.err and not out.exists(), ran


def test_each_column_of_the_front_table_prints_its_numbers_one_way(rng):
    """A criterion's points and intervals share one format: fixed decimals that give its
    smallest value four digits, or scientific notation for all of them (a column of 58.92,
    9.706, 56.8 and 1.881e+04 did not line up)."""
    import re

    t = _planted_table(rng)
    slow = t["criterion"] == "fit_time"
    t.loc[slow & (t["learner"] == "B"), "value"] *= 1500.0   # 1 s and 1,500 s in one column
    r = compare_criteria(t, ["accuracy", "fit_time"], draws=200, permutations=99)
    lines = r.to_markdown().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| ---"))
    rows = lines[start + 1:start + 4]
    cells = [re.findall(r"-?\d+\.\d+(?:e[+-]\d+)?", row) for row in rows]
    for column in zip(*cells):
        kinds = {("e" in c, len(c.split(".")[1].split("e")[0])) for c in column}
        assert len(kinds) == 1, column
