"""The Bayesian models of the whole table (rankwise.bayes): Plackett-Luce, Bradley-Terry and the
hierarchical correlated t-test."""

import builtins
import math

import numpy as np
import pytest

from rankwise import RankwiseError, load_example

pytest.importorskip("numpyro", reason="the bayes extra: pip install 'rankwise[bayes]'")

from rankwise.bayes import plackett_luce  # noqa: E402
from rankwise.bayes.plackett_luce import unplaced  # noqa: E402
from rankwise.stats.ranking import midranks  # noqa: E402

#: The doctests' settings: a chain compiled for one data shape and these settings is reused by
#: every later call in the same test process (compiling it takes most of a test's time)
FAST = dict(chains=2, draws=500, warmup=300)


@pytest.fixture(scope="module")
def garcia_pl():
    """Plackett-Luce on garcia2008 with the doctests' settings, fitted once for the tests that
    read it (none of them changes it)."""
    t = load_example("garcia2008")
    return t, plackett_luce(t.values, t.learners, **FAST)


@pytest.fixture(scope="module")
def unconverged_pl():
    """Plackett-Luce on garcia2008 from 2 chains x 30 draws: too few to converge."""
    t = load_example("garcia2008")
    return t, plackett_luce(t.values, t.learners, chains=2, draws=30, warmup=30)


def simulate(weights, n, rng):
    """Rankings drawn from Plackett-Luce (Gumbel trick), as scores: higher = placed earlier."""
    return np.log(weights)[None, :] + rng.gumbel(size=(n, len(weights)))


@pytest.mark.mcmc
def test_the_likelihood_terms_are_plackett_luce_and_breslow_for_ties():
    rng = np.random.default_rng(0)
    w = rng.dirichlet(np.ones(5))
    order = rng.permutation(5)  # best first
    ranks = np.empty(5)
    ranks[order] = np.arange(1, 6)
    mask = unplaced(ranks[None, :])[0]
    terms = np.log(w) - np.log(mask @ w)
    explicit = sum(math.log(w[j] / w[order[pos:]].sum()) for pos, j in enumerate(order))
    assert terms.sum() == pytest.approx(explicit, abs=1e-12)
    # a tie of learners 1 and 2 at the top: both drawn from all five (Breslow), then the rest
    tied = midranks(np.array([[0.5, 0.9, 0.9, 0.3, 0.1]]), descending=True)
    mask = unplaced(tied)[0]
    terms = np.log(w) - np.log(mask @ w)
    breslow = (math.log(w[1] / w.sum()) + math.log(w[2] / w.sum())
               + math.log(w[0] / w[[0, 3, 4]].sum()) + math.log(w[3] / w[[3, 4]].sum()) + 0.0)
    assert terms.sum() == pytest.approx(breslow, abs=1e-12)


@pytest.mark.mcmc
def test_posterior_means_agree_with_choix_maximum_likelihood():
    choix = pytest.importorskip("choix")
    rng = np.random.default_rng(1)
    truth = np.array([0.4, 0.25, 0.15, 0.12, 0.08])
    x = simulate(truth, 600, rng)
    pl = plackett_luce(x, list("ABCDE"), **FAST)
    rankings = [list(np.argsort(-row)) for row in x]
    params = choix.ilsr_rankings(5, rankings)
    mle = np.exp(params) / np.exp(params).sum()
    assert np.abs(pl.expected_weight - mle).max() < 0.01
    assert np.abs(pl.expected_weight - truth).max() < 0.03
    assert pl.diagnostics.chains == 2 and pl.diagnostics.draws == FAST["draws"]


@pytest.mark.mcmc
def test_summaries_and_seeded_draws(garcia_pl):
    t, pl = garcia_pl
    again = plackett_luce(t.values, t.learners, **FAST)
    assert np.array_equal(pl.weights, again.weights)
    assert pl.p_best.sum() == pytest.approx(1.0)
    assert pl.expected_weight.sum() == pytest.approx(1.0)
    assert pl.summary()[0]["learner"] == "C4.5" and pl.summary()[-1]["learner"] == "Kernel"
    above = pl.p_above
    off = ~np.eye(5, dtype=bool)
    assert np.allclose((above + above.T)[off], 1.0)
    assert pl.ties > 0 and pl.to_dict()["ties"] == "Breslow"


@pytest.mark.mcmc
def test_too_few_draws_are_reported_as_not_converged(unconverged_pl):
    _, pl = unconverged_pl
    assert not pl.diagnostics.converged
    assert "NOT CONVERGED" in pl.diagnostics.sentence()
    assert pl.to_dict()["diagnostics"]["converged"] is False


@pytest.mark.mcmc
def test_without_the_extra_the_error_is_one_line(monkeypatch):
    real = builtins.__import__

    def no_numpyro(name, *args, **kwargs):
        if name.split(".")[0] in ("numpyro", "jax"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_numpyro)
    with pytest.raises(RankwiseError, match=r'pip install "rankwise\[bayes\]"') as info:
        plackett_luce(load_example("garcia2010").values, list("ABCD"))
    assert "\n" not in str(info.value)


# --- Bradley-Terry (Wainer 2023) ------------------------------------------------------------

def bbtcomp_example():
    import pandas as pd
    from pathlib import Path

    df = pd.read_csv(Path(__file__).parent / "data" / "bbtcomp_ss.csv", comment="#")
    names = ["lgbm", "svm", "rf", "dt", "knn"]
    return [g[names].to_numpy() for _, g in df.groupby("db", sort=False)], names


@pytest.mark.mcmc
def test_bradley_terry_win_table_is_wainers():
    """bbtcomp's README, table_wintable(y$wintable, which = "both"): paired local ROPE 0.4."""
    from rankwise.bayes.bradley_terry import spread_ties, win_table

    folds, names = bbtcomp_example()
    t = win_table(None, folds=folds)
    got = {(names[a], names[b]): (w, l, ti) for a, b, w, ti, l in
           zip(t["a"], t["b"], t["wins"], t["ties"], t["losses"])}
    printed = {("lgbm", "svm"): (9, 5, 6), ("lgbm", "rf"): (7, 6, 7), ("lgbm", "dt"): (18, 2, 0),
               ("lgbm", "knn"): (11, 5, 4), ("svm", "rf"): (5, 11, 4), ("svm", "dt"): (13, 6, 1),
               ("svm", "knn"): (9, 3, 8), ("rf", "dt"): (14, 4, 2), ("rf", "knn"): (11, 5, 4),
               ("dt", "knn"): (6, 12, 2)}
    assert got == printed
    win1, win2 = spread_ties(t)
    assert (win1[:2].tolist(), win2[:2].tolist()) == ([12, 11], [8, 10])  # ⌈t/2⌉ each side


@pytest.mark.mcmc
def test_bradley_terry_reproduces_wainers_summary_within_monte_carlo_error():
    """bbtcomp's README, table_pwin(x): mean, delta (89 % HDI width), above.50, in.rope."""
    from rankwise.bayes import bradley_terry

    folds, names = bbtcomp_example()
    m = bradley_terry(folds=folds, learners=names, chains=2, draws=1500, warmup=500)
    printed = {("lgbm", "rf"): (0.53, 0.22, 0.66, 0.49), ("lgbm", "svm"): (0.62, 0.21, 0.96, 0.16),
               ("lgbm", "knn"): (0.68, 0.19, 1.00, 0.02), ("lgbm", "dt"): (0.79, 0.16, 1.00, 0.00),
               ("rf", "svm"): (0.59, 0.22, 0.90, 0.26), ("rf", "knn"): (0.66, 0.20, 0.99, 0.05),
               ("rf", "dt"): (0.77, 0.17, 1.00, 0.00), ("svm", "knn"): (0.57, 0.22, 0.85, 0.33),
               ("svm", "dt"): (0.69, 0.20, 1.00, 0.02), ("knn", "dt"): (0.63, 0.22, 0.97, 0.11)}
    got = {(p["larger"], p["smaller"]): p for p in m.pairs}
    assert set(got) == set(printed)  # the same pairs, the same way round
    for pair, (mean, delta, above, rope) in printed.items():
        p = got[pair]
        assert abs(p["mean"] - mean) <= 0.015, pair
        assert abs(p["delta"] - delta) <= 0.025, pair
        assert abs(p["above_50"] - above) <= 0.05, pair
        assert abs(p["in_rope"] - rope) <= 0.05, pair
        assert p["p_a_better"] + p["p_equivalent"] + p["p_b_better"] == pytest.approx(1.0)
    assert m.diagnostics.converged


@pytest.mark.mcmc
def test_bradley_terry_on_simulated_tables():
    from rankwise.bayes import bradley_terry

    rng = np.random.default_rng(4)
    x = rng.normal(0.8, 0.02, (30, 4))
    x[:, 0] += 0.1  # a dominant learner
    m = bradley_terry(x, list("ABCD"), **FAST)
    for p in m.pairs:
        if p["larger"] == "A":
            assert p["p_a_better"] > 0.95
    # every data set a tie (the shape of the table above: its compiled chain serves)
    same = np.repeat(rng.normal(0.8, 0.05, (30, 1)), 4, axis=1)
    m = bradley_terry(same, list("WXYZ"), **FAST)
    for p in m.pairs:
        assert p["p_equivalent"] > max(p["p_a_better"], p["p_b_better"])


# --- the hierarchical correlated t-test (Corani et al. 2017) ----------------------------------

def folds_table(rng, true, n=10, noise=0.01):
    a = rng.normal(0.8, 0.02, (len(true), n))
    return a, a + np.asarray(true)[:, None] + rng.normal(0, noise, (len(true), n))


@pytest.mark.mcmc
def test_hierarchical_recovers_a_clear_difference_and_an_equivalence():
    from rankwise.bayes import hierarchical_test

    rng = np.random.default_rng(5)
    a, b = folds_table(rng, rng.normal(0.05, 0.005, 6))  # the doctests' 6 x 10
    h = hierarchical_test(a, b, folds=10, rope=0.01, **FAST)
    assert h.p_right > 0.95 and h.share_right > 0.95
    assert np.all(h.dataset_probs[:, 2] > 0.9)
    a, b = folds_table(rng, np.zeros(6), noise=0.002)
    h = hierarchical_test(a, b, folds=10, rope=0.01, **FAST)
    assert h.p_rope > max(h.p_left, h.p_right)


@pytest.mark.mcmc
def test_hierarchical_shrinks_towards_the_population():
    from rankwise.bayes import hierarchical_test

    rng = np.random.default_rng(6)
    true = rng.normal(0.02, 0.01, 6)
    a, b = folds_table(rng, true)
    h = hierarchical_test(a, b, folds=10, rope=0.01, **FAST)
    observed = (b - a).mean(axis=1)
    centre = h.shrunk_means.mean()
    # every shrunk mean lies between its data set's own mean and the population's
    assert np.all(np.abs(h.shrunk_means - centre) <= np.abs(observed - centre) + 1e-3)


@pytest.mark.mcmc
def test_hierarchical_with_one_data_set_reads_like_the_correlated_t_test():
    from rankwise import correlated_t_test
    from rankwise.bayes import hierarchical_test

    rng = np.random.default_rng(7)
    a, b = folds_table(rng, [0.012], n=10, noise=0.01)
    h = hierarchical_test(a, b, folds=10, rope=0.01, chains=2, draws=2000, warmup=1000)
    c = correlated_t_test(b[0], a[0], folds=10, rope=0.01)  # p_a: b better than a by > r
    assert h.dataset_probs[0, 2] == pytest.approx(c.p_a, abs=0.06)
    assert h.dataset_probs[0, 1] == pytest.approx(c.p_rope, abs=0.06)


@pytest.mark.mcmc
def test_hierarchical_reproduces_the_authors_published_example():
    """NBC against HNB on the 54 UCI data sets of Corani et al. (2017), 10 runs of 10-fold
    cross-validation, ROPE 0.01: the authors' code printed P(HNB > NBC) = 0.998, P(rope) =
    0.002, P(NBC > HNB) = 0.0 (shares of posterior draws); rankwise, from the long table as a
    user would give it, within Monte Carlo error (about 0.002 at this effective sample
    size)."""
    import pandas as pd
    from pathlib import Path

    from rankwise import compare

    wide = pd.read_csv(Path(__file__).parent / "data" / "uci_nbc_hnb.csv", comment="#")
    long = wide.melt(id_vars=["dataset", "repeat", "fold"], var_name="learner",
                     value_name="value")
    long["value"] /= 100  # accuracy as a proportion, as the ROPE of 0.01 reads it
    cmp = compare(long, bayesian="hierarchical", rope=0.01, higher_is_better=True)
    (r,) = cmp.bayesian
    hnb_better = r.p_a if r.a == "hnb" else r.p_b
    nbc_better = r.p_b if r.a == "hnb" else r.p_a
    assert r.details["n_datasets"] == 54 and r.details["diagnostics"]["converged"]
    assert hnb_better == pytest.approx(0.998, abs=0.006)
    assert r.p_rope == pytest.approx(0.002, abs=0.006)
    assert nbc_better == pytest.approx(0.0, abs=0.006)


@pytest.mark.mcmc
def test_hierarchical_draws_do_not_depend_on_cores_or_on_the_pairs_before(monkeypatch):
    from rankwise.bayes import hierarchical_test, sampling

    rng = np.random.default_rng(8)
    a, b = folds_table(rng, rng.normal(0.01, 0.005, 6))
    other = folds_table(rng, rng.normal(-0.01, 0.005, 6))
    alone = hierarchical_test(a, b, folds=10, rope=0.01, **FAST)
    hierarchical_test(*other, folds=10, rope=0.01, **FAST)  # the compiled chain is reused
    monkeypatch.setattr(sampling.os, "cpu_count", lambda: 1)
    after = hierarchical_test(a, b, folds=10, rope=0.01, **FAST)
    assert np.array_equal(alone.shrunk_means, after.shrunk_means)
    assert alone.p_left == after.p_left and alone.p_right == after.p_right


@pytest.mark.mcmc
@pytest.mark.figures
def test_hierarchical_in_compare_and_every_format(cli):
    import json

    from rankwise import compare

    cmp = compare(load_example("folds_demo", criterion="accuracy"), bayesian="hierarchical",
                  rope=0.01)
    doc = json.loads(cmp.to_json())
    first = doc["bayesian"][0]
    assert first["test"] == "hierarchical" and first["diagnostics"]["chains"] == 4
    assert {"p_left", "p_rope", "p_right"} <= set(first["predictive"])
    assert doc["settings"]["bayesian_draws"] == 8000
    for text in (cmp.to_text(), cmp.to_markdown(), cmp.to_html(), cmp.to_latex()):
        assert "Hierarchical Bayesian correlated t-test" in text
    code, _, err = cli("compare", "--example", "garcia2008", "--bayesian", "hierarchical")
    assert code == 2 and "reads the results of each fold" in err and "Traceback" not in err


@pytest.mark.mcmc
@pytest.mark.parametrize("model, example, extra", [
    ("plackett-luce", "garcia2008", {}),
    ("bradley-terry", "folds_demo", {"criterion": "accuracy"}),
])
@pytest.mark.figures
def test_whole_table_models_in_compare_and_every_format(model, example, extra):
    import json

    from rankwise import compare

    cmp = compare(load_example(example, **extra), bayesian=model)
    m = cmp.bayesian_model
    assert m is not None and cmp.bayesian == ()
    doc = json.loads(cmp.to_json())
    assert doc["bayesian_model"]["model"] == model
    assert doc["bayesian_model"]["diagnostics"]["chains"] == 4
    for text in (cmp.to_text(), cmp.to_markdown(), cmp.to_html(), cmp.to_latex()):
        assert "Bayesian view of the whole table" in text
        assert m.diagnostics.sentence()[:20] in text
    if model == "bradley-terry":
        assert doc["bayesian_model"]["local_rope"] == 0.4  # fold-level results: paired ROPE
        # the number printed is the JSON's
        first = doc["bayesian_model"]["pairs"][0]
        assert f"{first['p_a_better']:.3f}" in cmp.to_text()
    else:
        best = doc["bayesian_model"]["learners"][0]
        assert best["learner"] == "C4.5" and f"{best['p_best']:.3f}" in cmp.to_text()
        # P(a ranks above b) for the verdict's pairs: the printed column is the JSON's matrix
        ref = list(m.learners).index(cmp.verdict.best)
        for j, name in enumerate(m.learners):
            if j != ref:
                assert f"{doc['bayesian_model']['p_above'][j][ref]:.3f}" in cmp.to_text()


# --- the verdict in posterior terms and the figure of P(best) -----------------------------------

@pytest.mark.mcmc
def test_plackett_luce_verdict_reads_the_posterior_draws(garcia_pl):
    from rankwise.analysis.bayes_verdict import from_model

    t, pl = garcia_pl
    v = from_model(pl, 0.95)
    assert v.reference == "C4.5" and list(v.p_best)[0] == "C4.5"
    assert v.p_best == pytest.approx(dict(zip(t.learners, pl.p_best)))
    w = pl.weights
    ref = t.learners.index("C4.5")
    for row in v.rows:
        j = t.learners.index(row["learner"])
        assert row["p_worse"] == pytest.approx((w[:, ref] > w[:, j]).mean())
        assert row["p_equivalent"] is None
        assert row["decision"] == ("worse" if row["p_worse"] >= 0.95 else "undecided")
    assert f"C4.5 is the best learner with probability {v.p_best['C4.5']:.2f}" in v.statement


@pytest.mark.mcmc
def test_unconverged_chains_decide_nothing(unconverged_pl):
    from rankwise.analysis.bayes_verdict import from_model

    _, pl = unconverged_pl
    assert not pl.diagnostics.converged
    v = from_model(pl, 0.95)
    assert not v.converged and all(r["decision"] == "undecided" for r in v.rows)
    assert "did not converge" in v.statement and "is weaker" not in v.statement


@pytest.mark.mcmc
def test_many_learners_are_counted_not_listed():
    from rankwise.analysis.bayes_verdict import from_model

    rng = np.random.default_rng(3)
    truth = np.linspace(1, 0.1, 12)
    x = simulate(truth / truth.sum(), 80, rng)
    names = [f"L{j:02d}" for j in range(12)]
    v = from_model(plackett_luce(x, names, chains=2, draws=1000, warmup=500), 0.95)
    assert v.converged
    assert len(v.rows) == 11
    counts = sum(1 for r in v.rows if r["decision"] == "worse")
    assert f"{counts:,} weaker" in v.statement
    assert "verdict.bayesian in the JSON" in v.statement


@pytest.mark.mcmc
def test_bradley_terry_verdict_and_the_p_best_figure():
    import json

    from rankwise import compare
    from rankwise.report import figures

    cmp = compare(load_example("folds_demo", criterion="accuracy"), bayesian="bradley-terry",
                  verdict="bayesian")
    m, bv = cmp.bayesian_model, cmp.verdict.bayesian
    assert bv.source == "bradley-terry" and bv.reference == m.pairs[0]["larger"]
    for row in bv.rows:
        pair = next(p for p in m.pairs if p["larger"] == bv.reference
                    and p["smaller"] == row["learner"])
        assert (row["p_worse"], row["p_equivalent"], row["p_better"]) == (
            pair["p_a_better"], pair["p_equivalent"], pair["p_b_better"])
    assert sum(bv.p_best.values()) == pytest.approx(1.0)
    assert "from 0.45 to 0.55" in cmp.verdict.text
    doc = json.loads(cmp.to_json())
    assert doc["report"]["verdict"]["bayesian"]["p_best"] == pytest.approx(bv.p_best)
    assert doc["settings"]["verdict"] == "bayesian"
    # the figure draws the verdict's P(best), in the same order
    plan = cmp.figures["p_best"]
    assert plan.drawn and "p_best" in doc["report"]["figures"]
    assert plan.matrix["learners"][0] == bv.reference  # best mean ability first
    assert dict(zip(plan.matrix["learners"], plan.matrix["p_best"])) == pytest.approx(
        {k: bv.p_best[k] for k in plan.matrix["learners"]})
    fig = figures(cmp)["p_best"]
    bars = fig.axes[0].patches
    assert [b.get_width() for b in bars] == pytest.approx(list(plan.matrix["p_best"]))
