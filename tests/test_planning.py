"""The planning analyses' core: designs and their effects, the ANOVA's components of any
balanced design, D-studies at a cost, and the pilot read from a table or from items."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from rankwise import load_example
from rankwise.errors import RankwiseError
from rankwise.planning import projection as proj
from rankwise.planning.design import (Components, anova, cross_validation, crossed, items)
from rankwise.planning.pilot import effect_codes, from_items, from_table
from rankwise.stats.generalizability import d_study, g_study

TREC3 = {"learner": 0.0071668, "dataset": 0.022642, "residual": 0.01092}


def _given(parts, design):
    return Components(design, parts, dict(parts), {}, {}, {}, 0.95)


def test_effects_of_the_designs():
    assert crossed(3, 4).effects() == ("learner", "dataset", "residual")
    assert cross_validation(3, 4, 1, 5).effects() == (
        "learner", "dataset", "learner x dataset", "fold:dataset", "residual")
    assert items(3, 4, 10, 2).effects() == (
        "learner", "task", "learner x task", "item:task", "learner x item:task", "residual")
    assert cross_validation(3, 4, 5, 1).notation == "learner x (repeat:dataset)"


def test_the_anova_of_a_crossed_table_is_the_g_study():
    x = load_example("brennan2001_synthetic4").values
    g, old = anova(x.T, crossed(x.shape[1], x.shape[0])), g_study(x)
    for name in ("learner", "dataset", "residual"):
        assert g.components[name] == pytest.approx(old.components[name], rel=1e-12)
        assert g.mean_squares[name] == pytest.approx(old.mean_squares[name], rel=1e-12)
        assert g.intervals[name] == pytest.approx(old.intervals[name], rel=1e-10)


def _nested(rng, sd, shape):
    """Scores of learners x (fold:repeat:dataset) with the effects' standard deviations."""
    k, n, r, f = shape
    x = rng.normal(0, sd[0], (k, 1, 1, 1)) + rng.normal(0, sd[1], (1, n, 1, 1))
    x = x + rng.normal(0, sd[2], (k, n, 1, 1)) + rng.normal(0, sd[3], (1, n, r, 1))
    x = x + rng.normal(0, sd[4], (k, n, r, 1)) + rng.normal(0, sd[5], (1, n, r, f))
    return x + rng.normal(0, sd[6], (k, n, r, f))


def test_the_nested_anova_by_brute_force():
    """Each mean square from its definition (the effect's estimates squared, summed over the
    data) and the components solved by hand from the expected mean squares."""
    rng = np.random.default_rng(3)
    k, n, r, f = 3, 4, 3, 5
    x = _nested(rng, (1, 2, .7, .5, .4, 1.2, 1), (k, n, r, f))
    g = anova(x, cross_validation(k, n, r, f))
    m = x.mean()
    ml, md = x.mean((1, 2, 3)), x.mean((0, 2, 3))
    mld, mdr = x.mean((2, 3)), x.mean((0, 3))
    mldr, mdrf = x.mean(3), x.mean(0)
    ms = {"learner": n * r * f * ((ml - m) ** 2).sum() / (k - 1),
          "dataset": k * r * f * ((md - m) ** 2).sum() / (n - 1),
          "learner x dataset": r * f * ((mld - ml[:, None] - md[None] + m) ** 2).sum()
          / ((k - 1) * (n - 1)),
          "repeat:dataset": k * f * ((mdr - md[:, None]) ** 2).sum() / (n * (r - 1)),
          "learner x repeat:dataset": f * ((mldr - mld[..., None] - mdr[None] + md[None, :, None])
                                           ** 2).sum() / ((k - 1) * n * (r - 1)),
          "fold:repeat:dataset": k * ((mdrf - mdr[..., None]) ** 2).sum() / (n * r * (f - 1)),
          "residual": ((x - mldr[..., None] - mdrf[None] + mdr[None, ..., None]) ** 2).sum()
          / ((k - 1) * n * r * (f - 1))}
    for name, value in ms.items():
        assert g.mean_squares[name] == pytest.approx(value, rel=1e-9)
    e = ms["residual"]
    lrd = (ms["learner x repeat:dataset"] - e) / f
    frd = (ms["fold:repeat:dataset"] - e) / k
    ld = (ms["learner x dataset"] - ms["learner x repeat:dataset"]) / (r * f)
    rd = (ms["repeat:dataset"] - ms["learner x repeat:dataset"] - ms["fold:repeat:dataset"]
          + e) / (k * f)
    dd = (ms["dataset"] - ms["learner x dataset"] - ms["repeat:dataset"]
          + ms["learner x repeat:dataset"]) / (k * r * f)
    ll = (ms["learner"] - ms["learner x dataset"]) / (n * r * f)
    want = {"learner": ll, "dataset": dd, "learner x dataset": ld, "repeat:dataset": rd,
            "learner x repeat:dataset": lrd, "fold:repeat:dataset": frd, "residual": e}
    for name, value in want.items():
        assert g.raw[name] == pytest.approx(value, rel=1e-9, abs=1e-12)


@pytest.mark.simulation
def test_the_nested_anova_is_unbiased():
    """Averaged over 2,000 simulated pilots, each raw estimate is within 4 standard errors of
    the true component."""
    rng = np.random.default_rng(11)
    sd = (1, 2, .7, .55, .45, 1.4, 1)
    shape = (4, 6, 3, 5)
    design = cross_validation(*shape)
    draws = np.array([list(anova(_nested(rng, sd, shape), design).raw.values())
                      for _ in range(2000)])
    truth = np.square(sd)
    mean, se = draws.mean(0), draws.std(0, ddof=1) / math.sqrt(len(draws))
    assert np.all(np.abs(mean - truth) < 4 * se)


def test_published_d_studies():
    """Urbano et al.'s TREC-3 (Erho2 0.9704, Phi 0.9144 at 50 queries; 29 for 0.95) and
    Brennan's Table 6.5 (0.729 at 12 items), as the crossed D-study gives them."""
    g = _given(TREC3, crossed(40, 50))
    p = proj.project(g)
    assert round(p.generalizability, 4) == 0.9704 and round(p.dependability, 4) == 0.9144
    assert proj.needed(g, "dataset", stability=0.95) == 29
    x = load_example("brennan2001_synthetic4").values
    g4 = anova(x.T, crossed(x.shape[1], x.shape[0]))
    old = d_study(g_study(x))
    p4 = proj.project(g4)
    assert p4.generalizability == pytest.approx(old.generalizability, rel=1e-12)
    assert p4.dependability == pytest.approx(old.dependability, rel=1e-12)
    assert p4.difference_se == pytest.approx(old.difference_se, rel=1e-12)
    assert proj.needed(g4, "dataset") == old.needed["generalizability"]
    assert proj.needed(g4, "dataset", coefficient="dependability") == \
        old.needed["dependability"]


def test_needed_and_the_cheapest_design_by_brute_force():
    parts = {"learner": 0.02, "dataset": 0.3, "learner x dataset": 0.05,
             "repeat:dataset": 0.01, "learner x repeat:dataset": 0.004,
             "fold:repeat:dataset": 0.2, "residual": 0.06}
    g = _given(parts, cross_validation(5, 10, 3, 5))
    for facet in ("dataset", "repeat", "fold"):
        found = proj.needed(g, facet, stability=0.9)
        ok = [n for n in range(1, 5000)
              if proj.project(g, {facet: n}).generalizability >= 0.9]
        assert found == (ok[0] if ok else None)
    costs = {"dataset": 30.0}
    best = proj.cheapest(g, stability=0.9, costs=costs)
    brute = []
    for n in range(1, 41):
        for r in range(1, 13):
            for f in range(1, 21):
                q = proj.project(g, {"dataset": n, "repeat": r, "fold": f}, costs=costs)
                if q.generalizability >= 0.9:
                    brute.append(q.cost)
    assert best.cost == pytest.approx(min(brute)) and best.generalizability >= 0.9


def test_fixed_data_sets_leave_their_interaction_out_of_the_error():
    parts = {"learner": 0.02, "dataset": 0.3, "learner x dataset": 0.05,
             "fold:dataset": 0.2, "residual": 0.06}
    g = _given(parts, cross_validation(5, 10, 1, 5))
    free, fixed = proj.project(g), proj.project(g, fixed=("dataset",))
    assert free.relative_error == pytest.approx(0.05 / 10 + 0.06 / 50)
    assert fixed.relative_error == pytest.approx(0.06 / 50)
    assert fixed.generalizability == pytest.approx((0.02 + 0.005) / (0.025 + 0.06 / 50))


def test_the_resolution_floor_takes_the_two_sided_quantile():
    g = _given(TREC3, crossed(40, 50))
    p = proj.project(g, alpha=0.05, power=0.8)
    assert p.resolution == pytest.approx((1.959964 + 0.841621) * p.difference_se, rel=1e-6)


def test_the_best_buy_and_the_cost_table():
    parts = {"learner": 0.02, "dataset": 0.3, "learner x dataset": 0.05,
             "fold:dataset": 0.2, "residual": 0.06}
    g = _given(parts, cross_validation(5, 10, 1, 5))
    buys = proj.best_buy(g)       # one unit per fold: a data set costs 5 folds
    assert [b["facet"] for b in buys] == sorted(
        ("dataset", "fold"), key=lambda f: -next(b["cut_per_cost"] for b in buys
                                                 if b["facet"] == f))
    rows = proj.cost_table(g)
    assert {(f, x) for f, x, _ in rows} == {(f, x) for f in ("dataset", "fold")
                                           for x in (1, 2, 4, 8)}
    for facet in ("dataset", "fold"):
        ses = [q.difference_se for f, _, q in rows if f == facet]
        assert ses == sorted(ses, reverse=True)


def test_separability_of_two_learners_is_the_power_of_a_z_test():
    g = _given(TREC3, crossed(2, 50))
    s = proj.separability(g, [0.5, 0.4], alpha=0.05)
    shrink = 0.0071668 / (0.0071668 + 0.01092 / 50)
    gap = 0.1 * shrink
    se = math.sqrt(2 * 0.01092 / 50)
    from scipy import stats
    power = stats.norm.sf(1.959964 - gap / se) + stats.norm.cdf(-1.959964 - gap / se)
    assert s.best == 0
    assert s.tied_with_best == pytest.approx(1 + (1 - power), rel=1e-5)
    assert s.widths == pytest.approx([1 + (1 - power)] * 2, rel=1e-5)


def test_the_pilot_of_a_long_table_is_its_folds():
    t = load_example("folds_demo", criterion="accuracy")
    p = from_table(t)
    assert p.design.notation == "learner x (fold:repeat:dataset)" and p.balanced
    assert p.array.shape == (4, 5, 5, 2)
    raw = t.raw
    learner, dataset = t.learners[1], t.datasets[2]
    cell = p.array[1, 2]
    mine = raw[(raw["learner"] == learner) & (raw["dataset"] == dataset)]["value"]
    assert sorted(cell.ravel()) == sorted(mine.to_numpy())
    assert p.table[2, 1] == pytest.approx(cell.mean())
    assert p.repeats.shape == (4, 5) and p.replicates.shape == (5, 4, 10)


def test_a_pilot_with_a_missing_fold_is_unbalanced():
    t = load_example("folds_demo", criterion="accuracy")
    from dataclasses import replace
    raw = t.raw.drop(index=t.raw.index[3])
    p = from_table(replace(t, raw=raw))
    assert not p.balanced and p.array is None
    codes = effect_codes(p)
    assert set(codes) == {"learner", "dataset", "learner x dataset", "repeat:dataset",
                          "learner x repeat:dataset", "fold:repeat:dataset"}
    assert p.design.levels() == {name: len(np.unique(c)) for name, c in codes.items()}
    assert len(np.unique(codes["fold:repeat:dataset"])) == 5 * 5 * 2


def test_the_pilot_of_scored_items():
    from rankwise.examples import load_items_example
    p = from_items(load_items_example("evals"))
    assert p.design.notation == "learner x (item:task)" and not p.balanced
    assert p.table.shape == (4, 4) and np.isfinite(p.table).all()


def test_extremes_leave_no_warning():
    rng = np.random.default_rng(5)
    x = rng.normal(size=(3, 4, 2, 3))
    design = cross_validation(3, 4, 2, 3)
    base = anova(x, design)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for scale in (1e-150, 1e150, 1e-300, 1e300):
            g = anova(x * scale, design)
            p = proj.project(g)
            if 1e-150 <= scale <= 1e150:
                for name, value in base.components.items():
                    assert g.components[name] == pytest.approx(value * scale ** 2, rel=1e-9)
                assert p.generalizability == pytest.approx(
                    proj.project(base).generalizability, rel=1e-9)
            else:   # squares beyond the floats' range: no number planned, no warning
                assert not 0 < p.generalizability < 1
        still = anova(np.ones_like(x), design)
        assert all(v == 0 for v in still.components.values())


def test_bad_designs_and_sizes_are_refused():
    with pytest.raises(RankwiseError, match="shape"):
        anova(np.ones((3, 4)), crossed(3, 5))
    x = np.ones((3, 4))
    x[0, 0] = np.nan
    with pytest.raises(RankwiseError, match="reml"):
        anova(x, crossed(3, 4))
    g = _given(TREC3, crossed(40, 50))
    with pytest.raises(RankwiseError, match="no facet 'fold'"):
        proj.project(g, {"fold": 3})
    with pytest.raises(RankwiseError, match="whole number"):
        proj.project(g, {"dataset": 0})
    with pytest.raises(RankwiseError, match="not a facet"):
        proj.project(g, costs={"folds": 2.0})
