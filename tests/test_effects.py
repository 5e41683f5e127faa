"""Effect sizes and the Bayesian tests, against R, brute force, closed forms, baycomp (when
installed) and null simulations."""

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from rankwise.stats import effects as fx
from rankwise.stats.bayesian import (bayesian_sign_test, bayesian_signed_rank_test,
                                     correlated_t_test)

# Twenty data sets, untied differences; R 4.2 values printed beside them.
X = [0.912, 0.845, 0.771, 0.690, 0.933, 0.802, 0.655, 0.871, 0.799, 0.731, 0.884, 0.702, 0.816,
     0.759, 0.947, 0.688, 0.834, 0.793, 0.721, 0.866]
Y = [0.897, 0.851, 0.742, 0.701, 0.925, 0.771, 0.659, 0.844, 0.787, 0.718, 0.868, 0.711, 0.790,
     0.749, 0.930, 0.670, 0.811, 0.800, 0.716, 0.852]
# wilcox.test(X, Y, paired = TRUE, conf.int = TRUE, conf.level = cl, exact = TRUE)
R_WILCOX = {0.95: (0.01175, 0.0045, 0.0185), 0.90: (0.01175, 0.0055, 0.017),
            0.99: (0.01175, 0.0025, 0.0205)}
# d_z and its interval: uniroot() on pt(t, n - 1, ncp) in R
R_DZ = (0.867215812399, 0.342234051204, 1.37577590217)


def _walsh(d):
    return sorted((d[i] + d[j]) / 2 for i in range(len(d)) for j in range(i, len(d)))


def test_hodges_lehmann_against_r_and_the_walsh_averages():
    for confidence, (est, low, high) in R_WILCOX.items():
        r = fx.hodges_lehmann(X, Y, confidence=confidence)
        assert r.method == "exact"
        assert (r.estimate, r.ci_low, r.ci_high) == pytest.approx((est, low, high), abs=1e-12)
        assert r.achieved_confidence >= confidence
    # R's help page example (depression scores): 0.46, [0.010, 0.786]
    r = fx.hodges_lehmann([1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30],
                          [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29])
    assert (r.estimate, r.ci_low, r.ci_high) == pytest.approx((0.46, 0.010, 0.786), abs=1e-12)
    # brute force: the median of every Walsh average, ties and zeros included
    rng = np.random.default_rng(5)
    for _ in range(30):
        n = int(rng.integers(2, 40))
        a = rng.integers(0, 20, n) / 100
        b = rng.integers(0, 20, n) / 100
        d = [round(u - v, 12) for u, v in zip(a, b)]
        r = fx.hodges_lehmann(a, b)
        assert r.estimate == pytest.approx(float(np.median(_walsh(d))), abs=1e-12)
        w = _walsh(d)
        assert w[0] <= r.ci_low <= r.estimate <= r.ci_high <= w[-1]
        if r.method == "normal":
            assert "achieved_confidence" not in r.details


def test_walsh_selection_without_listing_equals_the_full_list(monkeypatch):
    rng = np.random.default_rng(6)
    for d in (rng.normal(size=900), np.round(rng.normal(size=1100), 1), rng.integers(-3, 4, 700)):
        d = d.astype(float)
        m = d.size * (d.size + 1) // 2
        positions = [0, 1, m // 3, (m - 1) // 2, m // 2, m - 2, m - 1]
        monkeypatch.setattr(fx, "WALSH_LIST_MAX", m)
        full = fx.walsh_order_statistics(d, positions)
        monkeypatch.setattr(fx, "WALSH_LIST_MAX", 1000)
        assert fx.walsh_order_statistics(d, positions) == pytest.approx(full, abs=1e-12)


@pytest.mark.simulation
def test_hodges_lehmann_interval_covers_at_its_level():
    """Null and shifted simulations: the interval holds the true median difference in at least
    the stated share of tables (exact method; normal method from 50 data sets)."""
    rng = np.random.default_rng(7)
    for n, reps in ((12, 600), (60, 300)):
        hits = 0
        for _ in range(reps):
            d = rng.standard_t(5, size=n) + 0.3
            r = fx.hodges_lehmann(d, np.zeros(n), decimals=None)
            hits += r.ci_low <= 0.3 <= r.ci_high
        assert hits / reps >= 0.95 - 2.5 * math.sqrt(0.05 * 0.95 / reps), (n, hits / reps)


def test_cohens_dz_against_r_and_a_direct_inversion():
    r = fx.cohens_dz(X, Y)
    assert r.method == "noncentral-t"
    assert (r.estimate, r.ci_low, r.ci_high) == pytest.approx(R_DZ, abs=1e-6)
    # a direct inversion by bisection on scipy's noncentral t
    d = np.array(X) - np.array(Y)
    n = d.size
    t = d.mean() / d.std(ddof=1) * math.sqrt(n)

    def bisect(target):
        lo, hi = -20.0, 40.0
        for _ in range(200):
            mid = (lo + hi) / 2
            if stats.nct.cdf(t, n - 1, mid) > target:
                lo = mid
            else:
                hi = mid
        return mid / math.sqrt(n)

    assert r.ci_low == pytest.approx(bisect(0.975), abs=1e-9)
    assert r.ci_high == pytest.approx(bisect(0.025), abs=1e-9)
    same = fx.cohens_dz([1, 2, 3], [0, 1, 2])
    assert math.isnan(same.estimate) and same.method == "undefined"


@pytest.mark.simulation
def test_cliffs_delta_against_a_brute_force_count_and_its_coverage():
    rng = np.random.default_rng(8)
    for _ in range(30):
        n = int(rng.integers(2, 30))
        a, b = rng.integers(0, 8, n) / 10, rng.integers(0, 8, n) / 10
        gt = sum(u > v for u, v in itertools.product(a, b))
        lt = sum(u < v for u, v in itertools.product(a, b))
        r = fx.cliffs_delta(a, b)
        assert r.estimate == pytest.approx((gt - lt) / n ** 2, abs=1e-12)
        assert r.a12 == pytest.approx((gt + 0.5 * (n * n - gt - lt)) / n ** 2, abs=1e-12)
        assert -1 <= r.ci_low <= r.estimate <= r.ci_high <= 1
        # the variance written out over the N × N matrix of signs
        m = np.sign(np.subtract.outer(a, b))
        delta = m.mean()
        di, dj = m.mean(axis=1), m.mean(axis=0)
        s2 = (n * n * ((di - delta) ** 2).sum() + n * n * ((dj - delta) ** 2).sum()
              - ((m - delta) ** 2).sum()) / (n * n * (n - 1) ** 2)
        z = stats.norm.isf(0.025)
        s = math.sqrt(max(s2, 0))
        if s > 0:
            low = (delta - delta ** 3 - z * s * math.sqrt((1 - delta ** 2) ** 2 + z * z * s2)) / (
                1 - delta ** 2 + z * z * s2)
            assert r.ci_low == pytest.approx(max(-1, low), abs=1e-12)
    assert [fx.cliff_magnitude(v) for v in (0.1, -0.2, 0.4, -0.5)] == \
        ["negligible", "small", "medium", "large"]
    hits = 0
    for _ in range(500):
        a, b = rng.normal(size=25), rng.normal(0.5, 1, size=25)
        true = 2 * stats.norm.cdf(-0.5 / math.sqrt(2)) - 1  # P(A > B) − P(A < B)
        r = fx.cliffs_delta(a, b, decimals=None)
        hits += r.ci_low <= true <= r.ci_high
    assert hits / 500 >= 0.95 - 2.5 * math.sqrt(0.05 * 0.95 / 500)


def test_probability_of_superiority_and_wilson_interval():
    from statsmodels.stats.proportion import proportion_confint

    r = fx.probability_of_superiority(X, Y)
    wins = sum(u > v for u, v in zip(X, Y))
    assert r.estimate == wins / 20 and r.method == "wilson"
    low, high = proportion_confint(wins, 20, alpha=0.05, method="wilson")
    assert (r.ci_low, r.ci_high) == pytest.approx((low, high), abs=1e-12)
    tied = fx.probability_of_superiority([1, 2, 3, 4], [1, 1, 5, 4])
    assert tied.estimate == (1 + 0.5 * 2) / 4 and tied.ties == 2


def test_effect_sizes_bundle_and_its_contract():
    e = fx.effect_sizes(X, Y, names=("A", "B"), confidence=0.9)
    d = e.to_dict()
    assert set(d) == {"a", "b", "n", "hodges_lehmann", "probability_of_superiority",
                      "cohens_dz", "cliffs_delta", "a12", "confidence"}
    assert d["hodges_lehmann"]["ci_low"] == pytest.approx(R_WILCOX[0.90][1], abs=1e-12)
    assert d["cliffs_delta"]["magnitude"] in ("negligible", "small", "medium", "large")
    assert d["a12"] == pytest.approx((d["cliffs_delta"]["estimate"] + 1) / 2)
    from rankwise import RankwiseError
    with pytest.raises(RankwiseError, match="confidence must be between 0 and 1"):
        fx.effect_sizes(X, Y, confidence=95)


# ---------------------------------------------------------------- Bayesian tests


def _baycomp():
    return pytest.importorskip("baycomp")


def test_bayesian_tests_against_baycomp():
    """Same data, same number of samples, different seeds: agreement within Monte Carlo error
    (4 standard errors of a proportion from 50,000 draws each). baycomp's x − y orientation:
    p_left is x's probability; our a is its x."""
    baycomp = _baycomp()
    rng = np.random.default_rng(9)
    for n, shift, rope in ((10, 0.01, 0.0), (10, 0.01, 0.01), (30, 0.004, 0.01), (25, 0.0, 0.02)):
        x = rng.normal(0.8, 0.05, n)
        y = x + rng.normal(shift, 0.02, n)
        for ours, theirs in ((bayesian_sign_test, baycomp.SignTest),
                             (bayesian_signed_rank_test, baycomp.SignedRankTest)):
            r = ours(x, y, rope=rope, decimals=None)
            probs = theirs.probs(x, y, rope=rope, nsamples=50_000, random_state=1)
            ref = (probs[0], probs[1], probs[2]) if rope > 0 else (probs[0], 0.0, probs[1])
            for p, q in zip((r.p_a, r.p_rope, r.p_b), ref):
                se = math.sqrt(max(q * (1 - q), 1e-4) / 50_000)
                assert abs(p - q) <= 4 * math.sqrt(2) * se, (ours.__name__, n, rope, p, q)


def test_bayesian_signed_rank_against_its_double_sum():
    """The O(N) staircase against Σ_ij w_i w_j H(z_i + z_j − 2r) written out for the same
    Dirichlet draws, with ties among the sums (rounded scores)."""
    from rankwise.stats.bayesian import _staircase_mass

    rng = np.random.default_rng(10)
    z = np.sort(np.append(np.round(rng.normal(0, 0.02, 15), 2), 0.0))
    w = rng.dirichlet(np.ones(z.size), 50)
    for bound in (0.0, 0.02, 0.05):
        sums = z[:, None] + z[None, :]
        h = (sums > bound) + 0.5 * np.isclose(sums, bound, atol=1e-12, rtol=0)
        h[np.isclose(sums, bound, atol=1e-12, rtol=0)] = 0.5
        direct = np.einsum("si,ij,sj->s", w, h, w)
        assert _staircase_mass(w, z, bound) == pytest.approx(direct, abs=1e-12)


def test_bayesian_tests_are_seeded_directional_and_decide():
    a = np.array(X)
    b = np.array(Y)
    one = bayesian_signed_rank_test(a, b, rope=0.005, names=("A", "B"), draws=20_000, seed=4)
    two = bayesian_signed_rank_test(a, b, rope=0.005, names=("A", "B"), draws=20_000, seed=4)
    assert one == two and one.draws == 20_000 and one.seed == 4
    assert one.p_a + one.p_rope + one.p_b == pytest.approx(1.0)
    # lower is better: the same numbers read the other way round
    low = bayesian_signed_rank_test(a, b, rope=0.005, names=("A", "B"), draws=20_000, seed=4,
                                    higher_is_better=False)
    assert (low.p_a, low.p_b) == pytest.approx((one.p_b, one.p_a), abs=0.02)
    strong = bayesian_sign_test(a + 0.05, a, rope=0.01)
    assert strong.decision == "a" and strong.p_a >= 0.95
    equal = bayesian_sign_test(a, a + 0.001, rope=0.01)
    assert equal.decision == "equivalent"
    assert equal.to_dict()["test"] == "sign" and {"p_a", "p_rope", "p_b", "draws", "seed",
                                                   "decision", "rope"} <= set(equal.to_dict())
    from rankwise import RankwiseError
    with pytest.raises(RankwiseError, match="ROPE must be a number"):
        bayesian_sign_test(a, b, rope=-1)


@pytest.mark.simulation
def test_bayesian_sign_test_is_calibrated_under_the_null():
    """Two learners that differ only by noise: 'a practically better' at 0.95 is declared in
    at most about 5 % of tables."""
    rng = np.random.default_rng(11)
    wrong = 0
    for _ in range(200):
        z = rng.normal(0, 0.02, 20)
        r = bayesian_sign_test(z, np.zeros(20), rope=0.0, draws=2_000, seed=int(rng.integers(1e9)))
        wrong += r.decision == "a"
    assert wrong / 200 <= 0.05 + 2.5 * math.sqrt(0.05 * 0.95 / 200)


def test_correlated_t_test_closed_form_and_baycomp():
    rng = np.random.default_rng(12)
    x = rng.normal(0.80, 0.03, 30)  # 3 repeats × 10 folds
    y = x + rng.normal(0.01, 0.02, 30)
    r = correlated_t_test(y, x, folds=10, rope=0.005, names=("y", "x"), decimals=None)
    z = y - x
    n, rho = 30, 0.1
    scale = math.sqrt((1 / n + rho / (1 - rho)) * z.var(ddof=1))
    assert r.p_a == pytest.approx(stats.t.sf((0.005 - z.mean()) / scale, n - 1), abs=1e-12)
    assert r.p_b == pytest.approx(stats.t.cdf((-0.005 - z.mean()) / scale, n - 1), abs=1e-12)
    assert r.draws is None and r.details["rho"] == 0.1
    try:
        import baycomp
    except ImportError:
        return
    left, rope, right = baycomp.CorrelatedTTest.probs(x, y, rope=0.005, runs=3)
    assert (r.p_b, r.p_rope, r.p_a) == pytest.approx((left, rope, right), abs=1e-12)


def test_correlated_t_test_on_random_splits_takes_the_test_fraction():
    """Repeated random train/test splits: rho = the share tested on (n2/(n1 + n2)), so the
    scale's correction rho/(1 - rho) is n2/n1, the corrected t-test's; the p-values agree
    with the corrected resampled t-test's one-sided ones at rope 0."""
    from rankwise.errors import RankwiseError
    from rankwise.stats.per_dataset import corrected_resampled_ttest

    rng = np.random.default_rng(5)
    x = rng.normal(0.80, 0.03, 10)
    y = x + rng.normal(0.01, 0.02, 10)
    r = correlated_t_test(y, x, test_fraction=0.34, names=("y", "x"), decimals=None)
    z = y - x
    scale = math.sqrt((1 / 10 + 0.34 / 0.66) * z.var(ddof=1))
    assert r.details["rho"] == 0.34 and r.details["folds"] is None
    assert r.details["scale"] == pytest.approx(scale, rel=1e-12)
    assert r.p_a == pytest.approx(stats.t.sf(-z.mean() / scale, 9), rel=1e-12)
    t = corrected_resampled_ttest(x, y, test_train_ratio=0.34 / 0.66, alternative="greater",
                                  decimals=None)
    assert r.p_b == pytest.approx(t.pvalue, rel=1e-10)
    for bad in ({}, {"folds": 10, "test_fraction": 0.3}, {"test_fraction": 1.0},
                {"test_fraction": 0.0}):
        with pytest.raises(RankwiseError):
            correlated_t_test(y, x, **bad)


# ---------------------------------------------------------------- in compare() and the reports


def test_compare_effects_family_json_text_and_verdict_agree():
    import json

    from rankwise import compare, load_example

    cmp = compare(load_example("garcia2008"))
    best = cmp.verdict.best
    assert [(e.a, e.b) for e in cmp.effects] == [(n, best) for n in
                                                 ("NaiveBayes", "CN2", "1-NN", "Kernel")]
    doc = json.loads(cmp.to_json())
    from rankwise.analysis.schema import pair_rows

    rows = pair_rows(doc["effects"], doc["learners"])  # the JSON's columns, pair by pair
    assert len(rows) == len(cmp.effects)
    for row, e in zip(rows, cmp.effects):
        ref = e.to_dict()
        assert (row["a"], row["b"], row["n"], row["a12"]) == (e.a, e.b, e.n, ref["a12"])
        for name in ("hodges_lehmann", "probability_of_superiority", "cohens_dz",
                     "cliffs_delta"):
            assert {k: v for k, v in row[name].items() if v is not None} == \
                {k: v for k, v in ref[name].items() if k in row[name]}
    assert doc["bayesian"] == [] and doc["settings"]["effects_confidence"] == 0.95
    text = cmp.to_text()
    for e in cmp.effects:
        hl = e.hodges_lehmann
        # the verdict prints the numbers of the JSON
        assert f"median difference {hl.estimate:.3g} [{hl.ci_low:.3g}, {hl.ci_high:.3g}]" in \
            cmp.verdict.text
        # the effects table too, in the same row as the pair
        row = next(line for line in text.splitlines() if line.startswith(f"{e.a} - {e.b} "))
        assert f"{hl.estimate:.4f} [{hl.ci_low:.4f}, {hl.ci_high:.4f}]" in row
        assert e.cliffs_delta.magnitude in row
        # the bundle equals the functions on the two columns
        ia, ib = (cmp.table.learners.index(n) for n in (e.a, e.b))
        ref = fx.effect_sizes(cmp.table.values[:, ia], cmp.table.values[:, ib],
                              names=(e.a, e.b))
        assert ref.to_dict() == e.to_dict()
    for loser in cmp.verdict.losers:
        assert f"{loser} is worse than {best}:" in cmp.verdict.text
    assert doc["report"]["verdict"]["text"] == cmp.verdict.text


def test_effects_follow_the_posthoc_family_and_the_options():
    from rankwise import compare, load_example

    table = load_example("garcia2008")
    every = compare(table, posthoc="all", procedures=["holm"])
    assert len(every.effects) == 10
    pairs = {frozenset((e.a, e.b)) for e in every.effects}
    assert len(pairs) == 10
    control = compare(table, posthoc="control", control="CN2", procedures=["holm"])
    oriented = {(e.a, e.b) for e in control.effects}
    assert ("CN2", "C4.5") in oriented and ("Kernel", "CN2") in oriented  # each pair once
    assert len(oriented) == 4 + 3
    off = compare(table, effects=False)
    assert off.effects == () and off.settings["effects"] is False
    assert "Size of each difference" not in off.verdict.text
    level = compare(table, confidence=0.9)
    assert level.effects[0].confidence == 0.9 and "90% intervals" in level.verdict.text
    alpha = compare(table, alpha=0.1)
    assert alpha.effects[0].confidence == pytest.approx(0.9)


def test_effects_above_the_automatic_size_are_announced(monkeypatch):
    from rankwise import compare, load_example
    from rankwise.analysis import effects as family

    monkeypatch.setattr(family, "EFFECTS_AUTO_MAX_N", 10)
    cmp = compare(load_example("garcia2008"))
    assert cmp.effects == () and any("--effects" in n for n in cmp.notes)
    assert compare(load_example("garcia2008"), effects=True).effects


def test_effects_and_bayesian_with_lower_is_better_and_missing_cells(tmp_path):
    from rankwise import compare

    p = tmp_path / "err.csv"
    p.write_text("dataset,A,B,C\n" + "".join(
        f"d{i},{0.10 + 0.01 * i:.2f},{0.15 + 0.01 * i:.2f},{'' if i == 3 else f'{0.12 + 0.011 * i:.3f}'}\n"
        for i in range(12)))
    cmp = compare(p, higher_is_better=False, missing="skillings-mack", bayesian="sign",
                  rope=0.01, samples=5_000)
    assert cmp.verdict.best == "A"
    by_pair = {(e.a, e.b): e for e in cmp.effects}
    # a − b in the criterion's units: B has the larger error rate
    assert by_pair[("B", "A")].hodges_lehmann.estimate == pytest.approx(0.05)
    assert by_pair[("C", "A")].n == 11  # the data sets both have values on
    bayes = {(r.a, r.b): r for r in cmp.bayesian}
    # lower is better: A is practically better than B, which is b in the pair (B, A)
    assert bayes[("B", "A")].p_b > 0.95 and bayes[("B", "A")].decision == "b"
    assert bayes[("C", "A")].details["n"] == 11


@pytest.mark.figures
def test_bayesian_section_is_reproducible_and_in_every_format():
    from rankwise import compare, load_example

    one = compare(load_example("demsar2006_table2"), bayesian="signed-rank", rope=0.005)
    two = compare(load_example("demsar2006_table2"), bayesian="signed-rank", rope=0.005)
    assert one.to_json() == two.to_json()
    r = one.bayesian[0]
    for text in (one.to_text(), one.to_markdown(), one.to_html()):
        assert "Bayesian analysis" in text and f"{r.p_b:.3f}" in text
    assert "Bayesian signed-rank test" in one.to_latex()
    other = compare(load_example("demsar2006_table2"), bayesian="signed-rank", rope=0.005,
                    seed=5)
    assert other.bayesian[0].p_b == pytest.approx(r.p_b, abs=0.01) and other.bayesian[0].seed == 5


# ---------------------------------------------------------------- mean-rank intervals


@pytest.mark.simulation
def test_mean_rank_intervals_bootstrap_normal_and_coverage(monkeypatch):
    from rankwise.stats import ranking
    from rankwise.stats.ranking import mean_rank_intervals, midranks

    rng = np.random.default_rng(13)
    ranks = midranks(rng.normal(size=(30, 4)))
    ci, how = mean_rank_intervals(ranks, confidence=0.95)
    assert how == "bootstrap" and ci.shape == (4, 2)
    assert np.all(ci[:, 0] <= ranks.mean(axis=0)) and np.all(ranks.mean(axis=0) <= ci[:, 1])
    again, _ = mean_rank_intervals(ranks, confidence=0.95)
    assert np.array_equal(ci, again)
    # an independent bootstrap (index resampling, another seed) agrees within its noise
    idx = np.random.default_rng(99).integers(0, 30, size=(4000, 30))
    other = np.quantile(ranks[idx].mean(axis=1), [0.025, 0.975], axis=0).T
    assert ci == pytest.approx(other, abs=0.08)
    # above the work limit: mean ± z·sd/√n, written out
    monkeypatch.setattr(ranking, "RANK_BOOTSTRAP_MAX_CELLS", 10)
    normal, how = mean_rank_intervals(ranks, confidence=0.9)
    half = stats.norm.isf(0.05) * ranks.std(axis=0, ddof=1) / math.sqrt(30)
    assert how == "normal"
    assert normal == pytest.approx(np.column_stack([ranks.mean(0) - half, ranks.mean(0) + half]))
    monkeypatch.undo()
    # missing cells: each learner's mean over its own data sets
    holes = ranks.copy()
    holes[:5, 0] = np.nan
    ci, _ = mean_rank_intervals(holes)
    assert ci[0, 0] <= np.nanmean(holes[:, 0]) <= ci[0, 1]
    # coverage of the expected rank (2.5 for four exchangeable learners) at about 95 %
    hits = 0
    for _ in range(300):
        r = midranks(rng.normal(size=(25, 4)))
        c, _ = mean_rank_intervals(r, draws=500, seed=int(rng.integers(1e9)))
        hits += c[0, 0] <= 2.5 <= c[0, 1]
    assert hits / 300 >= 0.95 - 0.035  # the percentile bootstrap is a little liberal at N = 25


def test_mean_rank_intervals_printed_drawn_and_in_the_json():
    import json

    from rankwise import compare, load_example

    cmp = compare(load_example("garcia2008"), rank_intervals=True)
    doc = json.loads(cmp.to_json())
    ci = doc["mean_rank_intervals"]
    assert doc["report"]["figures"]["cd_diagram"]["rank_intervals"] == ci
    assert doc["settings"]["mean_rank_intervals"]["method"] == "bootstrap"
    text = cmp.to_text()
    for name, (lo, hi) in ci.items():
        row = next(line for line in text.splitlines() if line.split()[1:2] == [name])
        assert f"[{lo:.3f}, {hi:.3f}]" in row
    plain = compare(load_example("garcia2008"))
    assert plain.figures["cd_diagram"].rank_intervals is None
    assert np.array_equal(plain.mean_rank_intervals, cmp.mean_rank_intervals)


@pytest.mark.figures
def test_simplex_plot_shows_the_posterior_of_the_json(tmp_path):
    import json

    from rankwise import compare, load_example
    from rankwise.report.diagrams import draw_all

    cmp = compare(load_example("demsar2006_table2"), bayesian="sign", rope=0.01, samples=3_000)
    assert set(cmp.figures) == {"bayesian_simplex"}
    plan = cmp.figures["bayesian_simplex"]
    r = cmp.bayesian[0]
    (a, b, draws, probs), = plan.posterior
    assert (a, b) == (r.a, r.b) and probs == (r.p_a, r.p_rope, r.p_b)
    # the draws are the posterior the probabilities were counted from (columns a, rope, b)
    winners = np.bincount(np.argmax(draws, axis=1), minlength=3) / len(draws)
    assert tuple(winners) == pytest.approx(probs, abs=1e-12)
    fig = draw_all(cmp)["bayesian_simplex"]
    title = fig.axes[0].get_title()
    assert " / ".join(f"{p:.3f}" for p in probs) in title
    paths = cmp.write_report(tmp_path)
    assert (tmp_path / "bayesian_simplex.svg") in paths
    doc = json.loads((tmp_path / "report.json").read_text())
    assert doc["report"]["figures"]["bayesian_simplex"]["drawn"] is True
    assert "posterior" not in doc["report"]["figures"]["bayesian_simplex"]
    assert "Posterior of the Bayesian test" in cmp.to_text()


def test_correlated_t_test_data_set_by_data_set_from_fold_results():
    import json

    import pandas as pd

    from rankwise import RankwiseError, compare, load_example
    from rankwise.examples import example_path

    cmp = compare(load_example("folds_demo", criterion="accuracy"), bayesian="correlated-t",
                  rope=0.01)
    raw = pd.read_csv(example_path("folds_demo"))
    raw = raw[raw["criterion"] == "accuracy"]
    folds = raw["fold"].nunique()
    assert {r.details["dataset"] for r in cmp.bayesian} == set(raw["dataset"])
    for r in cmp.bayesian:
        one = raw[raw["dataset"] == r.details["dataset"]].pivot_table(
            index=["repeat", "fold"], columns="learner", values="value")
        z = (one[r.a] - one[r.b]).to_numpy()
        n = z.size
        scale = math.sqrt((1 / n + (1 / folds) / (1 - 1 / folds)) * z.var(ddof=1))
        assert r.p_a == pytest.approx(stats.t.sf((0.01 - z.mean()) / scale, n - 1), abs=1e-9)
        assert r.p_b == pytest.approx(stats.t.cdf((-0.01 - z.mean()) / scale, n - 1), abs=1e-9)
        assert r.draws is None and r.details["folds"] == folds
    doc = json.loads(cmp.to_json())
    assert doc["bayesian"][0]["test"] == "correlated-t" and "dataset" in doc["bayesian"][0]
    assert doc["settings"]["bayesian_draws"] is None
    assert "bayesian_simplex" not in cmp.figures
    assert "correlated t-test" in cmp.to_text()
    with pytest.raises(RankwiseError, match="reads the results of each fold"):
        compare(load_example("garcia2008"), bayesian="correlated-t")


@pytest.mark.experiment
def test_correlated_t_test_reads_a_results_database(tmp_path):
    from rankwise import compare, load_table
    from rankwise.experiment import experiment_from_dict, run_experiment

    doc = {"experiment": {"repeats": 2, "folds": 3, "seed": 5, "criteria": ["accuracy"]},
           "datasets": [{"source": "sklearn", "name": n} for n in ("iris", "wine")],
           "learners": [{"name": "CART", "estimator": "sklearn.tree.DecisionTreeClassifier"},
                        {"name": "NB", "estimator": "sklearn.naive_bayes.GaussianNB"}]}
    db = tmp_path / "cv.sqlite"
    run_experiment(experiment_from_dict(doc), db, jobs=0)
    cmp = compare(load_table(db, criterion="accuracy"), bayesian="correlated-t", rope=0.01)
    assert [r.details["dataset"] for r in cmp.bayesian] == ["iris", "wine"]
    assert all(r.details["n"] == 6 and r.details["folds"] == 3 for r in cmp.bayesian)
    assert all(r.details["rho"] == pytest.approx(1 / 3) for r in cmp.bayesian)
