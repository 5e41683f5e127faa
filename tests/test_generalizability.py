"""Generalizability theory (G- and D-studies of a learner × data set table): the book's numbers,
a published G-study, an independent REML fit, and a simulation of what the D-study promises."""

import math

import numpy as np
import pytest

from rankwise import load_example
from rankwise.errors import RankwiseError
from rankwise.stats.generalizability import GStudy, d_study, g_study


def test_brennans_synthetic_data_set_4_g_study():
    """Brennan (2001), synthetic data set No. 4 (10 persons × 12 items), the G-study of his
    Table 6.2 as gt4ireval's tests give it: components and mean squares to 1e-4."""
    g = g_study(load_example("brennan2001_synthetic4").values)
    assert (g.n_learners, g.n_datasets) == (10, 12)
    expected = {"learner": 0.6258, "dataset": 0.8840, "residual": 2.7872}
    assert g.components == pytest.approx(expected, abs=1e-4)
    assert g.mean_squares == pytest.approx(
        {"learner": 10.2963, "dataset": 11.6273, "residual": 2.7872}, abs=1e-4)
    assert g.df == {"learner": 9, "dataset": 11, "residual": 99}
    assert sum(g.shares.values()) == pytest.approx(1.0) and not g.notes


def test_brennans_d_study_with_its_intervals():
    """Brennan's Table 6.5 (gt4ireval's tests): at 12 items, 80% intervals, Eρ² = .729
    [.541, .876] (Feldt) and Φ = .672 [.457, .845] (Arteaga et al.)."""
    d = d_study(g_study(load_example("brennan2001_synthetic4").values), confidence=0.8)
    assert d.n_datasets == 12
    assert d.generalizability == pytest.approx(0.729, abs=5e-4)
    assert d.generalizability_interval == pytest.approx((0.541, 0.876), abs=5e-4)
    assert d.dependability == pytest.approx(0.672, abs=5e-4)
    assert d.dependability_interval == pytest.approx((0.457, 0.845), abs=5e-4)


def test_urbano_et_al_trec3_ad_hoc_d_study():
    """Urbano, Marrero and Martín (SIGIR 2013) on TREC-3 ad hoc (40 systems × 50 queries):
    σ²(s) = 0.0071668, σ²(q) = 0.022642, σ²(e) = 0.01092 (17.6 / 55.6 / 26.8 %); at 50 queries
    Eρ² = 0.9704 and Φ = 0.9144; 29 queries for Eρ² = 0.95 (the components rebuilt from the
    publication: the TREC runs are not shipped)."""
    g = GStudy(40, 50, {"learner": 0.0071668, "dataset": 0.022642, "residual": 0.01092},
               {}, {}, {}, 0.95)
    assert [round(100 * v, 1) for v in g.shares.values()] == [17.6, 55.6, 26.8]
    d = d_study(g, 50)
    assert round(d.generalizability, 4) == 0.9704 and round(d.dependability, 4) == 0.9144
    assert d.needed["generalizability"] == 29
    assert d_study(g, 29).generalizability >= 0.95 > d_study(g, 28).generalizability


def test_components_equal_reml_of_an_independent_mixed_model():
    """On a balanced table the ANOVA estimates are the REML estimates where none is negative:
    statsmodels' MixedLM with crossed random effects for learners and data sets (one group,
    variance components), fitted by REML, gives the same components."""
    import pandas as pd
    from statsmodels.regression.mixed_linear_model import MixedLM

    rng = np.random.default_rng(3)
    n, k = 15, 6
    x = (rng.normal(0, 0.5, k)[None, :] + rng.normal(0, 1.0, n)[:, None]
         + rng.normal(0, 0.7, (n, k)))
    g = g_study(x)
    assert not g.notes
    long = pd.DataFrame({"y": x.ravel(), "dataset": np.repeat(np.arange(n), k),
                         "learner": np.tile(np.arange(k), n), "one": 1})
    fit = MixedLM.from_formula("y ~ 1", groups="one", re_formula="0",
                               vc_formula={"learner": "0 + C(learner)",
                                           "dataset": "0 + C(dataset)"},
                               data=long).fit(reml=True, method="lbfgs")
    reml = dict(zip(fit.model.exog_vc.names, fit.vcomp))
    # to MixedLM's own convergence (its L-BFGS stops about 1e-5 from the optimum)
    assert reml["learner"] == pytest.approx(g.components["learner"], rel=1e-4)
    assert reml["dataset"] == pytest.approx(g.components["dataset"], rel=1e-4)
    assert fit.scale == pytest.approx(g.components["residual"], rel=1e-4)


def test_the_d_study_standard_error_of_a_difference_holds_in_simulation():
    """Tables drawn from known components: the standard error the D-study gives for the
    difference of two learners' means over n data sets is the spread of that difference
    over the simulated tables (within 5%), and Eρ² is close to the true one."""
    rng = np.random.default_rng(7)
    s_l, s_d, s_e, n, k, reps = 0.04, 0.25, 0.09, 30, 5, 2000
    learners = rng.normal(0, math.sqrt(s_l), k)
    x = (learners[None, None, :] + rng.normal(0, math.sqrt(s_d), (reps, n, 1))
         + rng.normal(0, math.sqrt(s_e), (reps, n, k)))
    diffs = x[:, :, 0].mean(axis=1) - x[:, :, 1].mean(axis=1)
    predicted = np.mean([d_study(g_study(x[r])).difference_se for r in range(200)])
    assert predicted == pytest.approx(diffs.std(ddof=1), rel=0.05)
    assert predicted == pytest.approx(math.sqrt(2 * s_e / n), rel=0.05)


def test_the_residual_interval_is_the_exact_chi_square_interval():
    """The residual component is one mean square: its Satterthwaite interval is the exact
    one, df·MS/χ²(df)."""
    from scipy import stats

    g = g_study(load_example("brennan2001_synthetic4").values, confidence=0.9)
    ms, df = g.mean_squares["residual"], g.df["residual"]
    assert g.intervals["residual"] == pytest.approx(
        (df * ms / stats.chi2.ppf(0.95, df), df * ms / stats.chi2.ppf(0.05, df)))
    low, high = g.intervals["learner"]
    assert low < g.components["learner"] < high


def test_a_negative_estimate_is_set_to_zero_and_said():
    """Four data sets that barely differ: the data set component's estimate is negative; it
    is 0 and a note says so (Brennan's and gt4ireval's convention)."""
    x = load_example("brennan2001_synthetic4").values[3:7, 3:7]
    g = g_study(x)
    assert g.components["dataset"] == 0.0
    assert any("dataset component is negative" in n for n in g.notes)


@pytest.mark.parametrize("x, said", [
    (np.ones((1, 3)), "at least 2 data sets and 2 learners"),
    (np.array([[1.0, np.nan], [2.0, 3.0]]), "every cell"),
])
def test_bad_tables_are_one_line(x, said):
    with pytest.raises(RankwiseError, match=said):
        g_study(x)


def test_d_study_refuses_what_it_cannot_plan():
    g = g_study(load_example("brennan2001_synthetic4").values)
    for bad in (0, 2.5, True):
        with pytest.raises(RankwiseError):
            d_study(g, bad)
    with pytest.raises(RankwiseError, match="stability"):
        d_study(g, 10, stability=1.0)
    none = GStudy(3, 4, {"learner": 0.0, "dataset": 1.0, "residual": 1.0}, {}, {}, {}, 0.95)
    assert d_study(none).needed == {"generalizability": None, "dependability": None}


@pytest.mark.parametrize("scale", [1e-300, 1e-150, 1e-8, 1e8, 1e150, 1e300])
def test_scores_at_any_scale_give_no_warning_and_the_same_coefficients(scale, recwarn):
    """The components scale with the scores' square and the coefficients not at all; at the
    ends of the floats' range (components under- or overflowing) the coefficients are NaN
    and nothing is planned, with no warning reaching the user."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(6, 4)) + rng.normal(size=4)
    ref = d_study(g_study(x))
    g = g_study(x * scale)
    d = d_study(g)
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]
    if 1e-150 <= scale <= 1e150:
        assert d.generalizability == pytest.approx(ref.generalizability, rel=1e-9)
        assert d.needed == ref.needed
        assert g.components["learner"] == pytest.approx(
            g_study(x).components["learner"] * scale ** 2, rel=1e-9)
    else:
        assert math.isnan(d.generalizability) and d.needed["generalizability"] is None
