"""REML variance components (rankwise.planning.reml): the ANOVA's estimates in balanced designs,
statsmodels' MixedLM and a brute-force optimum of the dense likelihood in unbalanced ones,
the bound at 0, scores at the ends of the floats' range, and the input checks."""

import json
import math
import warnings

import numpy as np
import pytest

from rankwise.errors import RankwiseError
from rankwise.planning.reml import MAX_LEVELS, reml
from rankwise.stats.threads import one_blas_thread


# ------------------------------------------------------------------------------ helpers

def crossed(k, d, rng, sd=(0.8, 1.3, 0.5)):
    """A learner × data set table with one score per cell, as codes and scores."""
    learner, dataset = (a.ravel() for a in np.meshgrid(np.arange(k), np.arange(d),
                                                         indexing="ij"))
    y = (sd[0] * rng.normal(size=k)[learner] + sd[1] * rng.normal(size=d)[dataset]
         + sd[2] * rng.normal(size=k * d))
    return y, learner, dataset


def dense_loglik(y, effects, theta):
    """The REML log-likelihood by the n × n formula −½[(n−1) log 2π + log|V| + log|1'V⁻¹1|
    + y'Py], for the brute-force checks."""
    n = len(y)
    V = theta[-1] * np.eye(n)
    for codes, value in zip(effects.values(), theta):
        V += value * (codes[:, None] == codes[None, :])
    Vi = np.linalg.inv(V)
    one = np.ones(n)
    xvx = one @ Vi @ one
    P = Vi - np.outer(Vi @ one, one @ Vi) / xvx
    return -0.5 * ((n - 1) * math.log(2 * math.pi) + np.linalg.slogdet(V)[1] + math.log(xvx)
                   + y @ P @ y)


def dense_standard_errors(y, effects, theta):
    """√diag F⁻¹ with F_ij = ½ tr(P V_i P V_j) by the n × n matrices."""
    n = len(y)
    Vs = [(c[:, None] == c[None, :]).astype(float) for c in effects.values()] + [np.eye(n)]
    V = sum(t * Vi for t, Vi in zip(theta, Vs))
    Vinv = np.linalg.inv(V)
    one = np.ones(n)
    P = Vinv - np.outer(Vinv @ one, one @ Vinv) / (one @ Vinv @ one)
    PV = [P @ Vi for Vi in Vs]
    F = 0.5 * np.array([[np.sum(a * b.T) for b in PV] for a in PV])
    return np.sqrt(np.diag(np.linalg.inv(F)))


def items_design(rng):
    """4 models × items nested in 3 tasks of 30, 50 and 80 items, a second trial of a
    quarter of the items: the effects model, task, item:task, model × task."""
    tasks = np.repeat(np.arange(3), [30, 50, 80])
    items = np.arange(len(tasks))
    trials = np.where(rng.random(len(items)) < 0.25, 2, 1)
    item = np.repeat(np.tile(items, 4), np.tile(trials, 4))
    model = np.repeat(np.repeat(np.arange(4), len(items)), np.tile(trials, 4))
    task = tasks[item]
    mt = model * 3 + task
    y = (0.5 * rng.normal(size=4)[model] + 0.7 * rng.normal(size=3)[task]
         + 1.0 * rng.normal(size=len(items))[item] + 0.3 * rng.normal(size=12)[mt]
         + 0.6 * rng.normal(size=len(item)))
    return y, {"model": model, "task": task, "item:task": item, "model x task": mt}


def mixedlm(y, effects):
    """statsmodels' REML components of the same crossed/nested random effects (one group
    holding every observation, each effect a variance component), fitted by BFGS to a tight
    gradient tolerance: the components in the order given, the residual, its llf."""
    sm = pytest.importorskip("statsmodels.api")
    pd = pytest.importorskip("pandas")
    columns = {f"e{i}": codes for i, codes in enumerate(effects.values())}
    data = pd.DataFrame({"y": y, "g": 1, **columns})
    model = sm.MixedLM.from_formula(
        "y ~ 1", groups="g", re_formula="0", data=data,
        vc_formula={name: f"0 + C({name})" for name in columns})
    with warnings.catch_warnings(), one_blas_thread():
        warnings.simplefilter("ignore")   # its convergence notes: the tolerance is ours
        fit = model.fit(reml=True, method=["bfgs"], gtol=1e-12, maxiter=5000)
    vcomp = dict(zip(model.exog_vc.names, fit.vcomp))
    values = [vcomp[f"e{i}"] for i in range(len(effects))] + [fit.scale]
    return dict(zip(list(effects) + ["residual"], values)), fit.llf


def assert_is_local_optimum(y, effects, fit, step=1e-4):
    """No component moved by ±step (relative) improves the dense likelihood, whose value at
    the estimate is the fit's; the dense score is ≈ 0 at components off the boundary."""
    theta = np.array(list(fit.components.values()))
    best = dense_loglik(y, effects, theta)
    assert best == pytest.approx(fit.loglik, rel=1e-10, abs=1e-9)
    scale = theta.sum()
    for j in range(len(theta)):
        for sign in (1, -1):
            moved = theta.copy()
            moved[j] = max(moved[j] + sign * step * scale, 0.0)
            assert dense_loglik(y, effects, moved) <= best + 1e-12 * abs(best)
        if theta[j] > 0:
            h = 1e-5 * scale
            up, down = theta.copy(), theta.copy()
            up[j] += h
            down[j] -= h
            score = (dense_loglik(y, effects, up) - dense_loglik(y, effects, down)) / (2 * h)
            # relative to the score's spread, the curvature times a component's size
            assert abs(score) * scale < 1e-5 * len(y)


# ------------------------------------------------------------------ balanced designs: ANOVA

def test_crossed_balanced_equals_anova():
    """learner × data set, one score per cell: σ²(e) = MS(e), σ²(l) = (MS(l) − MS(e))/d,
    σ²(d) = (MS(d) − MS(e))/k, exactly."""
    k, d = 5, 12
    y, learner, dataset = crossed(k, d, np.random.default_rng(3))
    x = y.reshape(k, d)
    m = x.mean()
    ms_l = d * ((x.mean(axis=1) - m) ** 2).sum() / (k - 1)
    ms_d = k * ((x.mean(axis=0) - m) ** 2).sum() / (d - 1)
    resid = x - x.mean(axis=1, keepdims=True) - x.mean(axis=0, keepdims=True) + m
    ms_e = (resid ** 2).sum() / ((k - 1) * (d - 1))
    anova = {"learner": (ms_l - ms_e) / d, "dataset": (ms_d - ms_e) / k, "residual": ms_e}
    assert min(anova.values()) > 0
    fit = reml(y, {"learner": learner, "dataset": dataset})
    assert fit.converged and fit.boundary == ()
    assert fit.components == pytest.approx(anova, rel=1e-8)
    assert list(fit.components) == ["learner", "dataset", "residual"]
    # the fit's log-likelihood is the dense formula's at the estimate
    theta = np.array(list(fit.components.values()))
    assert fit.loglik == pytest.approx(
        dense_loglik(y, {"l": learner, "d": dataset}, theta), rel=1e-10)


def test_nested_cv_balanced_equals_anova():
    """learner × (fold : repeat : data set): the seven mean squares of the balanced design
    and their expectations solved for the components, exactly."""
    k, D, R, F = 4, 8, 3, 3
    rng = np.random.default_rng(11)
    l, d, r, f = np.indices((k, D, R, F))
    sd = {"learner": 0.9, "dataset": 1.5, "repeat:dataset": 0.8, "fold:repeat:dataset": 0.6,
          "learner x dataset": 0.7, "learner x repeat:dataset": 0.6}
    codes = {"learner": l, "dataset": d, "repeat:dataset": d * R + r,
             "fold:repeat:dataset": (d * R + r) * F + f, "learner x dataset": l * D + d,
             "learner x repeat:dataset": (l * D + d) * R + r}
    x = 0.5 * rng.normal(size=l.shape)
    for name, c in codes.items():
        x = x + sd[name] * rng.normal(size=c.max() + 1)[c]
    m = x.mean()
    m_l, m_d = x.mean(axis=(1, 2, 3)), x.mean(axis=(0, 2, 3))
    m_rd, m_frd = x.mean(axis=(0, 3)), x.mean(axis=0)
    m_ld, m_lrd = x.mean(axis=(2, 3)), x.mean(axis=3)
    ms = {
        "l": D * R * F * ((m_l - m) ** 2).sum() / (k - 1),
        "d": k * R * F * ((m_d - m) ** 2).sum() / (D - 1),
        "r": k * F * ((m_rd - m_d[:, None]) ** 2).sum() / (D * (R - 1)),
        "f": k * ((m_frd - m_rd[:, :, None]) ** 2).sum() / (D * R * (F - 1)),
        "ld": R * F * ((m_ld - m_l[:, None] - m_d[None, :] + m) ** 2).sum()
        / ((k - 1) * (D - 1)),
        "lr": F * ((m_lrd - m_ld[:, :, None] - m_rd[None] + m_d[None, :, None]) ** 2).sum()
        / ((k - 1) * D * (R - 1)),
        "e": ((x - m_lrd[..., None] - m_frd[None] + m_rd[None, :, :, None]) ** 2).sum()
        / ((k - 1) * D * R * (F - 1)),
    }
    anova = {"learner": (ms["l"] - ms["ld"]) / (D * R * F),
             "dataset": (ms["d"] - ms["r"] - ms["ld"] + ms["lr"]) / (k * R * F),
             "repeat:dataset": (ms["r"] - ms["f"] - ms["lr"] + ms["e"]) / (k * F),
             "fold:repeat:dataset": (ms["f"] - ms["e"]) / k,
             "learner x dataset": (ms["ld"] - ms["lr"]) / (R * F),
             "learner x repeat:dataset": (ms["lr"] - ms["e"]) / F,
             "residual": ms["e"]}
    assert min(anova.values()) > 0
    fit = reml(x.ravel(), {name: c.ravel() for name, c in codes.items()})
    assert fit.converged and fit.boundary == ()
    assert list(fit.components) == list(anova)
    assert fit.components == pytest.approx(anova, rel=1e-8)


# ------------------------------------------------------ unbalanced designs: MixedLM, brute force

def missing_cells(rng):
    """8 learners × 20 data sets with 10% of the cells missing."""
    y, learner, dataset = crossed(8, 20, rng)
    keep = np.ones(len(y), bool)
    keep[rng.choice(len(y), size=len(y) // 10, replace=False)] = False
    return y[keep], {"learner": learner[keep], "dataset": dataset[keep]}


@pytest.mark.parametrize("design", [missing_cells, items_design])
def test_unbalanced_equals_mixedlm(design):
    """Each component equals statsmodels' to 1e-6 (relative), the log-likelihood is at
    least MixedLM's, and equals it to round-off."""
    y, effects = design(np.random.default_rng(5))
    fit = reml(y, effects)
    assert fit.converged and fit.boundary == ()
    theirs, llf = mixedlm(y, effects)
    assert fit.components == pytest.approx(theirs, rel=1e-6)
    assert fit.loglik >= llf - 1e-9
    assert fit.loglik == pytest.approx(llf, abs=1e-7)


@pytest.mark.parametrize("design", [missing_cells, items_design])
def test_unbalanced_optimum_by_brute_force(design):
    """The dense n × n likelihood agrees with the fit's at the estimate, no small move of a
    component improves it, and its score is ≈ 0 off the boundary."""
    y, effects = design(np.random.default_rng(6))
    if len(y) > 600:   # the dense check on a third of the items design's tasks' items
        task = effects["task"]
        keep = (task == 0) | (effects["item:task"] % 5 == 0)
        y, effects = y[keep], {name: c[keep] for name, c in effects.items()}
    fit = reml(y, effects)
    assert fit.converged
    with one_blas_thread():
        assert_is_local_optimum(y, effects, fit)
        se = dense_standard_errors(y, effects, np.array(list(fit.components.values())))
    assert list(fit.standard_errors.values()) == pytest.approx(se, rel=1e-7)


# ------------------------------------------------------------------------- the bound at 0

def test_a_component_at_zero_is_held_there_by_its_kkt_condition():
    """No learner effect and a learner mean square below the residual's: REML puts σ²(l) at
    0 (named in ``boundary``, with a NaN standard error), its score there is ≤ 0, and the
    other two are the one-way design's (the learner and residual sums of squares pooled)."""
    k, d = 4, 10
    for seed in range(100):   # the first data whose learner mean square is the smaller
        y, learner, dataset = crossed(k, d, np.random.default_rng(seed), sd=(0.0, 1.0, 0.7))
        x = y.reshape(k, d)
        m = x.mean()
        ss_l = d * ((x.mean(axis=1) - m) ** 2).sum()
        ss_d = k * ((x.mean(axis=0) - m) ** 2).sum()
        ss_e = ((x - m) ** 2).sum() - ss_l - ss_d
        if ss_l / (k - 1) < ss_e / ((k - 1) * (d - 1)):
            break
    effects = {"learner": learner, "dataset": dataset}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit = reml(y, effects)
    assert fit.converged and fit.boundary == ("learner",)
    assert fit.components["learner"] == 0
    assert math.isnan(fit.standard_errors["learner"])
    residual = (ss_l + ss_e) / ((k - 1) + (k - 1) * (d - 1))
    assert fit.components["residual"] == pytest.approx(residual, rel=1e-8)
    assert fit.components["dataset"] == pytest.approx((ss_d / (d - 1) - residual) / k,
                                                      rel=1e-8)
    theta = np.array(list(fit.components.values()))
    h = 1e-6 * theta.sum()
    up = theta + np.array([h, 0, 0])
    assert dense_loglik(y, effects, up) < dense_loglik(y, effects, theta)   # score < 0
    assert_is_local_optimum(y, effects, fit)


# ------------------------------------------------------------------------------- extremes

@pytest.mark.parametrize("scale", [1e-300, 1e-150, 1e150, 1e300])
def test_scores_at_any_scale_give_the_components_scaled_by_its_square(scale):
    """Scores times c: the components times c² (exactly representable between 1e-150 and
    1e150; beyond, they under- or overflow while the shares stay exact), the log-likelihood
    less (n − 1) log c, and no warning of any kind."""
    y, effects = missing_cells(np.random.default_rng(8))
    base = reml(y, effects)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit = reml(y * scale, effects)
        json.dumps(fit.to_dict())
    assert fit.converged and fit.boundary == ()
    assert fit.shares == pytest.approx(base.shares, rel=1e-8)
    assert fit.loglik == pytest.approx(base.loglik - (len(y) - 1) * math.log(scale),
                                       rel=1e-10)
    if 1e-150 <= scale <= 1e150:
        expected = {k: v * scale ** 2 for k, v in base.components.items()}
        assert fit.components == pytest.approx(expected, rel=1e-8)
        expected = {k: v * scale ** 2 for k, v in base.standard_errors.items()}
        assert fit.standard_errors == pytest.approx(expected, rel=1e-8)
    else:   # beyond the floats' range, as the G-study's components
        assert all(v == (math.inf if scale > 1 else 0.0) for v in fit.components.values())


def test_a_shift_changes_nothing():
    y, effects = items_design(np.random.default_rng(2))
    base = reml(y, effects)
    fit = reml(y + 1e6, effects)
    assert fit.components == pytest.approx(base.components, rel=1e-6)


@pytest.mark.parametrize("value", [0.0, 0.7, -3e300, 1e-300])
def test_all_equal_scores_give_every_component_zero(value):
    _, effects = missing_cells(np.random.default_rng(0))
    n = len(effects["learner"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit = reml(np.full(n, value), effects)
        payload = json.loads(json.dumps(fit.to_dict()))
    assert fit.components == {"learner": 0.0, "dataset": 0.0, "residual": 0.0}
    assert fit.boundary == ("learner", "dataset", "residual")
    assert payload["components"]["residual"] == 0.0 and payload["loglik"] is None


# ------------------------------------------------------------------ options and the result

def test_start_values_and_repeated_fits_agree():
    y, effects = items_design(np.random.default_rng(4))
    fit = reml(y, effects)
    assert reml(y, effects).components == fit.components   # deterministic
    start = {name: 5.0 * (i + 1) for i, name in enumerate(fit.components)}
    again = reml(y, effects, start=start)
    assert again.converged
    assert again.components == pytest.approx(fit.components, rel=1e-8)
    assert again.loglik == pytest.approx(fit.loglik, abs=1e-9)
    # a component started at its bound is freed by its positive score
    at_zero = reml(y, effects, start={**start, "model": 0.0, "item:task": 0.0})
    assert at_zero.converged and at_zero.boundary == ()
    assert at_zero.components == pytest.approx(fit.components, rel=1e-8)


def test_to_dict_is_plain_json():
    y, effects = missing_cells(np.random.default_rng(1))
    fit = reml(y, effects)
    payload = json.loads(json.dumps(fit.to_dict()))
    assert payload["components"] == pytest.approx(fit.components, rel=1e-15)
    assert payload["boundary"] == [] and payload["converged"] is True
    assert set(payload["standard_errors"]) == {"learner", "dataset", "residual"}
    assert all(se > 0 for se in payload["standard_errors"].values())
    assert payload["levels"] == {"learner": 8, "dataset": 20}


def test_too_few_iterations_say_so():
    y, effects = items_design(np.random.default_rng(4))
    fit = reml(y, effects, max_iter=1)
    assert not fit.converged and fit.iterations == 1


# ------------------------------------------------------------------------------ bad input

def _bad_inputs():
    rng = np.random.default_rng(0)
    y, learner, dataset = crossed(3, 4, rng)
    ok = {"learner": learner, "dataset": dataset}
    many = np.arange(2 * (MAX_LEVELS + 1)) // 2
    return [
        (y, {"learner": learner[:-1]}, "one level code per observation"),
        (np.append(y[:-1], np.nan), ok, "finite scores"),
        (np.append(y[:-1], np.inf), ok, "finite scores"),
        (y, {"learner": np.zeros(len(y), int)}, "at least 2 levels"),
        (y[:3], {"learner": learner[:3], "dataset": dataset[:3]}, "at least 4 observations"),
        (y, {"cell": np.arange(len(y))}, "one observation per level"),
        (y, {"learner": learner, "again": learner + 10}, "group the observations alike"),
        (y, {"residual": learner}, "other than 'residual'"),
        (y, [learner], "dict"),
        (y.reshape(3, 4), ok, "1-D"),
        (y, {"learner": learner + 0.5}, "integer level codes"),
        (np.zeros(len(many)) + np.arange(len(many)) % 3, {"item": many}, "at most 6000"),
    ]


@pytest.mark.parametrize("y, effects, message", _bad_inputs())
def test_bad_input_names_the_problem(y, effects, message):
    with pytest.raises(RankwiseError, match=message) as err:
        reml(y, effects)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("option, message", [
    ({"start": {"learner": 1.0}}, "start needs a value"),
    ({"start": {"learner": 1.0, "dataset": -1.0, "residual": 1.0}}, "finite values"),
    ({"tol": 0}, "tol must be"), ({"max_iter": 0}, "max_iter must be")])
def test_bad_options_name_the_problem(option, message):
    y, learner, dataset = crossed(3, 4, np.random.default_rng(0))
    with pytest.raises(RankwiseError, match=message):
        reml(y, {"learner": learner, "dataset": dataset}, **option)


def test_a_near_exact_fit_gives_no_warning():
    """Scores that the effects explain to 1e-9: the residual goes to (nearly) 0 with an
    ill-conditioned information, and still nothing warns."""
    rng = np.random.default_rng(0)
    learner, dataset = rng.integers(0, 3, 30), rng.integers(0, 5, 30)
    y = 10.0 * learner + 3.0 * dataset + 1e-9 * rng.normal(size=30)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit = reml(y, {"learner": learner, "dataset": dataset})
    assert fit.components["residual"] < 1e-12 * fit.components["learner"]
    assert all(math.isfinite(v) for v in fit.components.values())
