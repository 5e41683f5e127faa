"""Post-hoc procedures against independent computations, brute force and null simulations."""

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

from rankwise import RankwiseError, compare, load_example
from rankwise.stats.adjust import CONTROL_PROCEDURES, adjust, rom_constants, shaffer_counts
from rankwise.stats.bergmann_hommel import (bergmann_hommel, branch_and_bound, brute_force, fast,
                                            set_partitions)
from rankwise.stats.anova import dunnett_pvalue, tukey_dunnett
from rankwise.stats.pairwise import pairwise_statistics


def random_pvalues(rng, m):
    kind = rng.integers(3)
    if kind == 0:
        return rng.uniform(size=m)
    if kind == 1:
        return rng.uniform(size=m) ** 4
    return np.round(rng.uniform(size=m) ** 2, 2)  # ties


@pytest.mark.large
@pytest.mark.parametrize("ours, theirs", [
    ("holm", "holm"), ("hochberg", "simes-hochberg"), ("hommel", "hommel"),
    ("holland", "holm-sidak"), ("bonferroni_dunn", "bonferroni")])
def test_against_statsmodels(ours, theirs, monkeypatch):
    # statsmodels' Holm calls gc.collect() on every call: 0.4 s each in a test process that
    # holds JAX and Matplotlib (24 s for this test); its numbers do not depend on it
    import gc

    monkeypatch.setattr(gc, "collect", lambda *generation: 0)  # for this test only
    rng = np.random.default_rng(11)
    for _ in range(60):
        p = random_pvalues(rng, rng.integers(1, 12))
        assert adjust(p, ours) == pytest.approx(multipletests(p, method=theirs)[1], abs=1e-12)


def hommel_rule(p, alpha):
    m = len(p)
    ps = np.sort(p)
    js = [j for j in range(1, m + 1)
          if all(ps[m - j + l - 1] > l * alpha / j for l in range(1, j + 1))]
    if not js:
        return np.ones(m, dtype=bool)
    return p <= alpha / max(js)


def hochberg_rule(p, alpha):
    m = len(p)
    ps = np.sort(p)
    ok = [i for i in range(1, m + 1) if ps[i - 1] <= alpha / (m - i + 1)]
    return p <= ps[max(ok) - 1] if ok else np.zeros(m, dtype=bool)


def rom_rule(p, alpha):
    m = len(p)
    ps = np.sort(p)
    c = rom_constants(m, alpha)
    ok = [i for i in range(1, m + 1) if ps[i - 1] <= c[m - i]]
    return p <= ps[max(ok) - 1] if ok else np.zeros(m, dtype=bool)


def finner_rule(p, alpha):
    m = len(p)
    ps = np.sort(p)
    out = np.zeros(m, dtype=bool)
    for i in range(1, m + 1):
        if ps[i - 1] > 1 - (1 - alpha) ** (i / m):
            break
        out |= p == ps[i - 1]
    return out


def li_rule(p, alpha):
    last = p.max()
    if last <= alpha:
        return np.ones(len(p), dtype=bool)
    return p <= alpha * (1 - last) / (1 - alpha)


@pytest.mark.parametrize("name, rule", [("hommel", hommel_rule), ("hochberg", hochberg_rule),
                                        ("rom", rom_rule), ("finner", finner_rule),
                                        ("li", li_rule)])
def test_apv_below_alpha_iff_rule_rejects(name, rule):
    """An APV ≤ α exactly when the procedure's own rejection rule rejects (docs/reference/adjustments.md)."""
    rng = np.random.default_rng(12)
    for _ in range(300):
        p = rng.uniform(size=rng.integers(1, 9)) ** 3
        apv = adjust(p, name)
        for alpha in (0.01, 0.05, 0.1, 0.2):
            if np.any(np.isclose(apv, alpha, rtol=1e-9)):
                continue  # boundary: decided by rounding, not by the procedure
            assert np.array_equal(apv <= alpha, rule(p, alpha)), (name, p, alpha)


def test_apvs_capped_ordered_and_in_input_order():
    rng = np.random.default_rng(13)
    for _ in range(100):
        p = random_pvalues(rng, rng.integers(2, 10))
        perm = rng.permutation(p.size)
        for proc in CONTROL_PROCEDURES:
            apv = adjust(p, proc)
            assert np.all((apv >= p - 1e-15) & (apv <= 1))
            assert adjust(p[perm], proc) == pytest.approx(apv[perm], abs=1e-12)
            order = np.argsort(p, kind="stable")
            assert np.all(np.diff(apv[order]) >= -1e-12)  # monotone in p


def test_shaffer_counts_are_partition_pair_counts():
    for k in range(1, 9):
        labels = set_partitions(k)
        counts = {int(sum(math_comb(int((lab == b).sum())) for b in set(lab))) for lab in labels}
        assert set(shaffer_counts(k)) == counts
    assert [len(set_partitions(k)) - 1 for k in range(4, 10)] == [14, 51, 202, 876, 4139, 21146]


def math_comb(n):
    return n * (n - 1) // 2


def brute_force_shaffer(p, k):
    """Shaffer's rule from the counts of true hypotheses, by enumeration of partitions."""
    labels = set_partitions(k)
    iu = np.triu_indices(k, 1)
    same = labels[:, iu[0]] == labels[:, iu[1]]
    possible = sorted(set(same.sum(axis=1).tolist()))
    m = len(p)
    t = [max(s for s in possible if s <= m - i) for i in range(m)]
    order = np.argsort(p, kind="stable")
    apv = np.maximum.accumulate(np.array(t) * p[order])
    out = np.empty(m)
    out[order] = np.minimum(apv, 1)
    return out


def test_shaffer_against_enumeration():
    rng = np.random.default_rng(14)
    for _ in range(100):
        k = int(rng.integers(3, 8))
        p = random_pvalues(rng, k * (k - 1) // 2)
        assert adjust(p, "shaffer", k=k) == pytest.approx(brute_force_shaffer(p, k), abs=1e-15)


def robinson_instance(rng, k):
    n = int(rng.integers(3, 40))
    x = np.round(rng.normal(size=(n, k)) + rng.normal(0, 1, size=k) * rng.uniform(0, 1.5), 1)
    ranking = ["friedman", "friedman_aligned", "quade"][rng.integers(3)]
    st = pairwise_statistics(x, ranking, convention=["default", "paper"][rng.integers(2)])
    return st.pvalues, st.scores


@pytest.mark.large
def test_bergmann_hommel_fast_equals_brute_force():
    rng = np.random.default_rng(15)
    for trial in range(1000):
        k = int(rng.integers(3, 10)) if trial % 4 else 9
        p, scores = robinson_instance(rng, k)
        assert np.array_equal(fast(p, scores), brute_force(p)), trial


def arbitrary_instance(rng, k):
    a = rng.uniform(size=(k, k)) ** rng.uniform(0.5, 5)
    if rng.integers(2):
        a = np.round(a, 2)  # ties
    a = np.triu(a, 1)
    a = a + a.T
    np.fill_diagonal(a, 1)
    return a


@pytest.mark.large
@pytest.mark.parametrize("trials", [pytest.param(250),
                                    pytest.param(1000, marks=pytest.mark.slow)])
def test_bergmann_hommel_branch_and_bound_equals_brute_force(trials):
    """Random matrices up to k = 9 (21,147 partitions): 250 in the default run, the first 1,000
    of the same stream with ``-m slow``."""
    rng = np.random.default_rng(16)
    for trial in range(trials):
        k = int(rng.integers(3, 10)) if trial % 5 else 9
        p = arbitrary_instance(rng, k)
        assert np.array_equal(branch_and_bound(p), brute_force(p)), trial


def test_bergmann_hommel_on_pairwise_wilcoxon_matrices():
    rng = np.random.default_rng(17)
    for _ in range(20):
        k = int(rng.integers(4, 10))
        x = rng.normal(size=(int(rng.integers(5, 25)), k)) + np.linspace(0, 1, k)
        p = pairwise_statistics(np.round(x, 1), "wilcoxon").pvalues
        assert np.array_equal(branch_and_bound(p), brute_force(p))


def test_bergmann_hommel_counterexamples_of_the_contiguity_shortcut():
    """BH §4: the true APV is 7·p(a, b); contiguous blocks alone would give 6·p(a, b)."""
    x = np.array([0, 0.5, 1, 1.40, 1.45, 1.49])
    p = 2 * stats.norm.sf(np.abs(x[:, None] - x[None, :]) / 0.2)
    np.fill_diagonal(p, 1)
    assert fast(p, x)[0, 2] == pytest.approx(7 * p[0, 2], rel=1e-12)
    assert fast(p, x)[0, 2] == pytest.approx(4.013e-6, rel=1e-3)
    sums = np.array([188, 138, 195, 121, 117, 39]) / 38
    se = np.sqrt(6 * 7 / (6 * 38))
    p = 2 * stats.norm.sf(np.abs(sums[:, None] - sums[None, :]) / se)
    np.fill_diagonal(p, 1)
    assert np.array_equal(fast(p, sums), brute_force(p))
    # Learners 4 (121) and 6 (39): 7·p = 3.474e-6, where contiguous blocks would give 6·p.
    assert fast(p, sums)[3, 5] == pytest.approx(7 * p[3, 5], rel=1e-12)
    assert fast(p, sums)[3, 5] == pytest.approx(3.474e-6, rel=1e-3)


def test_bergmann_hommel_time_budget_falls_back_to_shaffer():
    rng = np.random.default_rng(18)
    p = arbitrary_instance(rng, 14)
    res = bergmann_hommel(p, time_budget=0.0)
    assert res.method == "shaffer_fallback"
    assert "Shaffer" in res.notes[0] and "did not finish" in res.notes[0]
    iu = np.triu_indices(14, 1)
    assert res.apv[iu] == pytest.approx(adjust(p[iu], "shaffer", k=14))


def test_bergmann_hommel_never_above_shaffer_and_never_below_p():
    rng = np.random.default_rng(19)
    for _ in range(200):
        k = int(rng.integers(3, 9))
        p, scores = robinson_instance(rng, k)
        iu = np.triu_indices(k, 1)
        bh = bergmann_hommel(p, scores).apv[iu]
        assert np.all(bh <= adjust(p[iu], "shaffer", k=k) + 1e-15)
        assert np.all(bh >= p[iu] - 1e-15)


def test_dunnett_against_scipy():
    # scipy integrates the multivariate t by randomised quasi-Monte Carlo: seed it, and allow
    # for its integration error (about 1e-3); our quadrature is deterministic.
    rng = np.random.default_rng(20)
    for _ in range(10):
        k, n = int(rng.integers(3, 6)), int(rng.integers(4, 15))
        samples = [rng.normal(size=n) for _ in range(k)]
        res = stats.dunnett(*samples[1:], control=samples[0], random_state=0)
        df = k * n - k
        for t, p in zip(res.statistic, res.pvalue):
            assert dunnett_pvalue(t, k - 1, df) == pytest.approx(p, abs=1e-3)


@pytest.mark.parametrize("df", [3, 12, 69, 1e6, np.inf])
def test_dunnett_with_one_comparison_is_the_t_test(df):
    """With a single treatment, max |T_j| is one t variable: the p-value is exact, also far
    in the tail."""
    for t in (0.3, 1.0, 2.0, 3.5, 5.0, 8.0):
        assert dunnett_pvalue(t, 1, df) == pytest.approx(2 * stats.t.sf(t, df), rel=1e-6)


def test_tukey_matches_studentized_range_of_anova_residuals():
    from statsmodels.stats.anova import AnovaRM
    import pandas as pd

    rng = np.random.default_rng(21)
    x = rng.normal(size=(12, 4)) + np.arange(4) * 0.3 + rng.normal(size=(12, 1))
    res = tukey_dunnett(x, 0)
    frame = pd.DataFrame({"s": np.repeat(np.arange(12), 4), "t": np.tile(np.arange(4), 12),
                          "y": x.ravel()})
    table = AnovaRM(frame, "y", "s", within=["t"]).fit().anova_table.iloc[0]
    ms_treat = 12 * ((x.mean(0) - x.mean()) ** 2).sum() / 3
    assert res.mse == pytest.approx(ms_treat / table["F Value"], rel=1e-9)
    first = res.tukey[0]
    q = abs(x[:, 0].mean() - x[:, 1].mean()) / np.sqrt(res.mse / 12)
    assert first["pvalue"] == pytest.approx(stats.studentized_range.sf(q, 4, 33), rel=1e-9)


# --- null simulations -----------------------------------------------------------------------

def null_tables(rng, reps, n, k):
    for _ in range(reps):
        yield rng.normal(size=(n, 1)) * 2 + rng.normal(size=(n, k))


@pytest.mark.simulation
@pytest.mark.parametrize("ranking", ["friedman", "friedman_aligned", "quade"])
def test_familywise_error_at_most_alpha(ranking):
    """Under H0 the probability of any false rejection stays at or below α for every procedure."""
    rng = np.random.default_rng(22)
    reps, alpha, k = 600, 0.05, 5
    any_control = {p: 0 for p in CONTROL_PROCEDURES}
    any_pairs = {p: 0 for p in ("nemenyi", "bonferroni", "holm", "shaffer", "bergmann_hommel")}
    from rankwise.stats.pairwise import adjusted_pvalues
    for x in null_tables(rng, reps, 20, k):
        st = pairwise_statistics(x, ranking)
        _, _, apv, _, _ = adjusted_pvalues(st, "control", CONTROL_PROCEDURES, control=0)
        for proc, v in apv.items():
            any_control[proc] += bool((v <= alpha).any())
        _, _, apv, _, _ = adjusted_pvalues(st, "all_pairs", tuple(any_pairs))
        for proc, v in apv.items():
            any_pairs[proc] += bool((v <= alpha).any())
    # 600 replicates: a true FWER of 0.05 exceeds 0.075 with probability < 0.2%.
    for proc, count in {**any_control, **any_pairs}.items():
        assert count / reps <= 0.075, (ranking, proc, count / reps)


@pytest.mark.simulation
@pytest.mark.parametrize("ranking, convention, lo, hi", [
    ("friedman", "default", 0.035, 0.065),
    ("friedman_aligned", "default", 0.035, 0.065),
    ("quade", "default", 0.035, 0.065),
    # The published SEs: aligned ranks too small (anti-conservative, ERRATA G4), Quade too large
    # for k > 3 (conservative, ERRATA G9).
    ("friedman_aligned", "paper", 0.065, 1.0),
    ("quade", "paper", 0.0, 0.03),
])
def test_single_pair_calibration(ranking, convention, lo, hi):
    rng = np.random.default_rng(23)
    reps = 2000
    hits = sum(pairwise_statistics(x, ranking, convention=convention).pvalues[0, 1] <= 0.05
               for x in null_tables(rng, reps, 24, 4))
    assert lo <= hits / reps <= hi, hits / reps


def test_compare_posthoc_gate_and_force():
    rng = np.random.default_rng(24)
    x = rng.normal(size=(10, 4))
    from rankwise import ScoreTable
    table = ScoreTable(values=x, datasets=tuple("abcdefghij"), learners=("A", "B", "C", "D"))
    doc = compare(table, posthoc="both").to_dict()["posthoc"]
    assert doc["friedman"]["gate"]["passed"] is False and doc["friedman"]["skipped"] is True
    assert "control" not in doc["friedman"]
    forced = compare(table, posthoc="both", force_posthoc=True).to_dict()["posthoc"]
    assert forced["forced"] and len(forced["friedman"]["all_pairs"]["a"]) == 6
    assert "does not reject" in forced["friedman"]["notes"][0]


def test_compare_posthoc_options_and_errors():
    t = load_example("garcia2010")
    doc = compare(t, control="FH-GBML", procedures="holm,li",
                  rankings="aligned,quade,wilcoxon,sign,anova").to_dict()["posthoc"]
    assert doc["control"] == "FH-GBML" and doc["control_source"] == "option"
    assert doc["families"] == ["control"]
    for r in ("friedman_aligned", "quade", "wilcoxon", "sign"):
        assert set(doc[r]["control"]["apv"]) == {"holm", "li"}
        assert all(len(v) == 3 for v in doc[r]["control"]["apv"].values())
    assert set(doc["anova"]["control"]["apv"]) == {"dunnett"}
    with pytest.raises(RankwiseError, match="unknown procedure 'bogus'"):
        compare(t, posthoc="all", procedures="bogus")
    with pytest.raises(RankwiseError, match="no learner named 'X' to use as control"):
        compare(t, control="X")
    with pytest.raises(RankwiseError, match="at least 3 learners"):
        compare(load_example("demsar2006_table2"), posthoc="all")
    with pytest.raises(RankwiseError, match="ranking must be one of"):
        compare(t, posthoc="all", rankings="median")


def test_contrast_medians_equal_the_pairwise_medians_of_rounded_differences(monkeypatch):
    """The selection of two order statistics (rounded afterwards) gives exactly the median of
    the rounded differences, with even and odd n, ties and several roundings; the two-thread
    path gives the same numbers as the sequential one."""
    import rankwise.stats.contrast as contrast
    from rankwise.stats.contrast import contrast_estimation
    from rankwise.stats.ranking import round_scores

    rng = np.random.default_rng(7)
    for _ in range(200):
        n, k = int(rng.integers(2, 30)), int(rng.integers(2, 7))
        y = np.round(rng.normal(size=(n, k)), int(rng.integers(0, 4)))
        for dec in (12, 2, None):
            r = round_scores(y, dec)
            expected = np.array([[np.median(round_scores(r[:, u] - r[:, v], dec))
                                  for v in range(k)] for u in range(k)])
            assert np.array_equal(contrast_estimation(y, dec).medians, expected)
    x = np.round(rng.uniform(size=(4_000, 8)), 3)
    monkeypatch.setattr(contrast, "PARALLEL_MIN_CELLS", 1)
    threaded = contrast_estimation(x).medians
    monkeypatch.setattr(contrast, "PARALLEL_MIN_CELLS", 10 ** 12)
    sequential = contrast_estimation(x).medians
    assert np.array_equal(threaded, sequential)
    for cells in (1, 3 * 4_000, 10 ** 9):  # one row, three rows, every row per block
        monkeypatch.setattr(contrast, "BLOCK_CELLS", cells)
        assert np.array_equal(contrast_estimation(x).medians, sequential)
        odd = x[:3_999]
        assert np.array_equal(contrast_estimation(odd).medians, np.array(
            [[np.median(round_scores(odd[:, u] - odd[:, v], 12)) for v in range(8)]
             for u in range(8)]))


def test_multiple_sign_critical_value_normal_approximation():
    """Beyond the exact programme and the Monte Carlo (many data sets), r* comes from the
    normal approximation with equicorrelated counts (ρ = 1/3). It gives the exact r* where the
    programme can still run with many data sets, the Monte Carlo's where that can, and under
    H0 its experimentwise error stays at the nominal level."""
    from rankwise.stats import multiple_sign as ms

    for m, n in [(2, 60), (2, 200), (3, 60), (3, 100), (4, 30)]:
        assert ms._critical_value(m, n, 0.05) == (ms._critical_value_normal(m, n, 0.05), "exact")
    assert ms._critical_value(5, 60, 0.05) == (ms._critical_value_normal(5, 60, 0.05),
                                                "monte carlo")
    # 50 learners over 100,000 data sets: answered at once, labelled, and sensible
    r_star, method = ms._critical_value(49, 100_000, 0.05)
    assert method == "normal" and 49_000 < r_star < 50_000
    rng = np.random.default_rng(12)
    m, n, reps = 6, 400, 4_000
    r_star = ms._critical_value_normal(m, n, 0.05)
    vals = rng.random((reps, n, m + 1))
    pluses = (vals[:, :, 1:] > vals[:, :, :1]).sum(axis=1)
    rate = float((pluses.min(axis=1) <= r_star).mean())
    assert 0.035 <= rate <= 0.058, rate


def test_multiple_sign_test_on_many_data_sets_says_how_r_was_found():
    x = np.random.default_rng(1).random((3_000, 12))
    from rankwise.stats.multiple_sign import multiple_sign_test

    res = multiple_sign_test(x, 0)
    assert res.critical_value_method == "normal" and not res.exact
    assert any("normal approximation" in note for note in res.notes)


def test_sign_critical_value_methods_by_name():
    from rankwise.stats.multiple_sign import sign_critical_value

    assert sign_critical_value(3, 24, 0.05) == (6, True)
    assert sign_critical_value(3, 24, 0.05, method="exact") == (6, True)
    assert sign_critical_value(3, 24, 0.05, method="normal")[1] is False
    assert sign_critical_value(5, 60, 0.05, method="monte carlo") == \
        sign_critical_value(5, 60, 0.05, method="normal")
    with pytest.raises(RankwiseError, match="method must be one of"):
        sign_critical_value(3, 24, 0.05, method="mc")


@pytest.mark.simulation
def test_sidak_matches_statsmodels_and_holds_the_familywise_level():
    """Šidák's single step against statsmodels, in both families, by name only (the default
    sets reproduce the papers' tables), and its familywise error under H0."""
    rng = np.random.default_rng(31)
    for _ in range(100):
        p = random_pvalues(rng, rng.integers(1, 12))
        assert adjust(p, "sidak") == pytest.approx(multipletests(p, method="sidak")[1],
                                                   rel=1e-12, abs=1e-15)
    assert adjust([1.0, 0.0], "sidak").tolist() == [1.0, 0.0]
    cmp = compare(load_example("garcia2008"), posthoc="both", procedures=["holm", "sidak"])
    ph = cmp.to_dict()["posthoc"]["friedman"]
    assert set(ph["all_pairs"]["apv"]) == {"holm", "sidak"}
    assert set(compare(load_example("garcia2008"), posthoc="both").to_dict()["posthoc"][
        "friedman"]["all_pairs"]["apv"]).isdisjoint({"sidak"})
    assert compare(load_example("garcia2008"), verdict_procedure="sidak").verdict.procedure == \
        "sidak"
    from rankwise.stats.pairwise import adjusted_pvalues
    count = 0
    for x in null_tables(rng, 600, 20, 5):
        _, _, apv, _, _ = adjusted_pvalues(pairwise_statistics(x), "all_pairs", ("sidak",))
        count += bool((apv["sidak"] <= 0.05).any())
    assert count / 600 <= 0.075


def _conover_by_the_book(x):
    """Conover (1999) §5.8 written out with loops and scipy's ranks: Friedman (rank sums,
    A1, C1, T1) and Quade (Q_i, S_ij, A2, B) two-sided p-values of every pair."""
    n, k = x.shape
    r = np.array([stats.rankdata(row) for row in x])
    rank_sums = [sum(r[i, j] for i in range(n)) for j in range(k)]
    a1 = sum(r[i, j] ** 2 for i in range(n) for j in range(k))
    c1 = n * k * (k + 1) ** 2 / 4
    t1 = (k - 1) * (sum(s ** 2 for s in rank_sums) - n * c1) / (a1 - c1)
    df = (n - 1) * (k - 1)
    f_den = np.sqrt(2 * n * (a1 - c1) / df * (1 - t1 / (n * (k - 1))))
    q = stats.rankdata([max(row) - min(row) for row in x])
    s = [[q[i] * (r[i, j] - (k + 1) / 2) for j in range(k)] for i in range(n)]
    a2 = sum(v ** 2 for row in s for v in row)
    s_j = [sum(s[i][j] for i in range(n)) for j in range(k)]
    b = sum(v ** 2 for v in s_j) / n
    q_den = np.sqrt(2 * n * (a2 - b) / df)
    fried, quade = np.ones((k, k)), np.ones((k, k))
    for a in range(k):
        for c in range(k):
            if a != c:
                fried[a, c] = 2 * stats.t.sf(abs(rank_sums[a] - rank_sums[c]) / f_den, df)
                quade[a, c] = 2 * stats.t.sf(abs(s_j[a] - s_j[c]) / q_den, df)
    return fried, quade


def test_conover_posthocs_against_the_book_and_scikit_posthocs():
    """Friedman and Quade Conover t-tests: the formulas written out independently, and (when
    installed) scikit-posthocs' posthoc_conover_friedman / posthoc_quade(dist="t"), on integer
    tables with ties (integers, so that every tool sees the same ties)."""
    rng = np.random.default_rng(41)
    try:
        import scikit_posthocs as sp
    except ImportError:
        sp = None
    for _ in range(40):
        n, k = int(rng.integers(4, 15)), int(rng.integers(3, 7))
        x = rng.integers(0, 6, size=(n, k)).astype(float) + rng.integers(0, 3, size=(n, 1))
        if np.ptp(x, axis=1).min() == 0 or len(set(map(tuple, np.sort(x, axis=1)))) == 1:
            continue
        fried, quade = _conover_by_the_book(x)
        ours_f = pairwise_statistics(x, "friedman_conover", higher_is_better=False).pvalues
        ours_q = pairwise_statistics(x, "quade_conover", higher_is_better=False).pvalues
        assert ours_f == pytest.approx(fried, rel=1e-9, abs=1e-14)
        assert ours_q == pytest.approx(quade, rel=1e-9, abs=1e-14)
        if sp is not None:
            assert ours_f == pytest.approx(sp.posthoc_conover_friedman(x).values, rel=1e-9)
            assert ours_q == pytest.approx(sp.posthoc_quade(x, dist="t").values, rel=1e-9)


# Sachs (1997, p. 675): Na concentration for six diuretics A-F (columns) in six persons (rows),
# the example of PMCMRplus's Friedman post-hoc help pages.
SACHS = np.array([[3.88, 30.58, 25.24, 4.44, 29.41, 38.87],
                  [5.64, 30.14, 33.52, 7.94, 30.72, 33.12],
                  [5.76, 16.92, 25.45, 4.04, 32.92, 39.15],
                  [4.25, 23.19, 18.85, 4.40, 28.23, 28.06],
                  [5.91, 26.74, 20.45, 4.23, 23.35, 38.23],
                  [4.33, 10.91, 26.67, 4.36, 12.00, 26.65]])
# (a, b, frdAllPairsConoverTest, quadeAllPairsTest(dist = "TDist")), p.adjust.method = "none",
# PMCMRplus 1.9.10.
SACHS_CONOVER = [
    (0, 1, 1.4265457359e-04, 3.7015006387e-03), (0, 2, 3.0327983205e-05, 4.9969230867e-03),
    (0, 3, 5.5547245626e-01, 9.5139559781e-01), (0, 4, 6.5360234933e-06, 6.7583607188e-04),
    (0, 5, 8.0062881230e-08, 1.0832009966e-05), (1, 2, 5.5547245626e-01, 9.0298232941e-01),
    (1, 3, 6.6615480146e-04, 4.3026011774e-03), (1, 4, 2.4321311001e-01, 5.0446068506e-01),
    (1, 5, 6.2136199478e-03, 3.1534584774e-02), (2, 3, 1.4265457359e-04, 5.7979151779e-03),
    (2, 4, 5.5547245626e-01, 4.3102111542e-01), (2, 5, 2.4680185767e-02, 2.4102695165e-02),
    (3, 4, 3.0327983205e-05, 7.9092725138e-04), (3, 5, 3.3329892931e-07, 1.2684816294e-05),
    (4, 5, 8.5107379780e-02, 1.2198451033e-01)]


def test_conover_posthocs_reproduce_pmcmrplus_on_its_example():
    fried = pairwise_statistics(SACHS, "friedman_conover", higher_is_better=False).pvalues
    quade = pairwise_statistics(SACHS, "quade_conover", higher_is_better=False).pvalues
    for a, b, p_fried, p_quade in SACHS_CONOVER:
        assert fried[a, b] == pytest.approx(p_fried, rel=1e-9)
        assert quade[a, b] == pytest.approx(p_quade, rel=1e-9)


@pytest.mark.simulation
@pytest.mark.parametrize("ranking", ["friedman_conover", "quade_conover"])
def test_conover_familywise_error_at_most_alpha(ranking):
    rng = np.random.default_rng(42)
    from rankwise.stats.pairwise import adjusted_pvalues
    counts = {"holm": 0, "bonferroni": 0, "shaffer": 0}
    for x in null_tables(rng, 600, 20, 5):
        _, _, apv, _, _ = adjusted_pvalues(pairwise_statistics(x, ranking), "all_pairs",
                                           tuple(counts))
        for proc, v in apv.items():
            counts[proc] += bool((v <= 0.05).any())
    for proc, count in counts.items():
        assert count / 600 <= 0.075, (ranking, proc, count / 600)


def test_conover_rankings_in_compare_and_json():
    cmp = compare(load_example("garcia2008"), posthoc="both",
                  rankings=["friedman_conover", "quade_conover"],
                  procedures=["holm", "nemenyi", "bergmann_hommel"])
    doc = cmp.to_dict()["posthoc"]
    for ranking in ("friedman_conover", "quade_conover"):
        entry = doc[ranking]
        assert entry["df"] == 29 * 4 and entry["statistic"] == "t (116 df)"
        assert set(entry["all_pairs"]["apv"]) == {"holm", "bergmann_hommel"}
        assert any("nemenyi needs the z-tests" in note for note in entry["notes"])
    assert "t = (M_a - M_b) / SE on t with 116 degrees of freedom" in cmp.to_text()


def test_one_sided_control_family():
    """--alternative with a named control: each ranking's own upper (or lower) tail for the
    pairs (control, j); the all-pairs family and the verdict stay two-sided."""
    from rankwise.stats.exact import rank_sum_difference_distribution
    from rankwise.stats.two_learners import wilcoxon

    t = load_example("garcia2010")
    rankings = ["friedman", "friedman_exact", "friedman_conover", "wilcoxon", "sign"]
    both = {alt: compare(t, posthoc="both", control="FH-GBML", rankings=rankings,
                         procedures=["holm", "bonferroni"], alternative=alt, force_posthoc=True)
            for alt in ("two-sided", "greater", "less")}
    c = t.learners.index("FH-GBML")
    for ranking in rankings:
        rows = {alt: {r.b: r for r in cmp.posthoc.rankings[ranking].families["control"]
                      .comparisons} for alt, cmp in both.items()}
        pairs = {alt: [(r.a, r.b, r.pvalue) for r in
                       cmp.posthoc.rankings[ranking].families["all_pairs"].comparisons]
                 for alt, cmp in both.items()}
        assert pairs["greater"] == pairs["two-sided"] == pairs["less"]
        for name, row in rows["greater"].items():
            j = t.learners.index(name)
            less = rows["less"][name].pvalue
            if ranking == "friedman":
                assert row.pvalue == pytest.approx(stats.norm.sf(row.statistic), rel=1e-12)
                assert row.pvalue + less == pytest.approx(1.0)
            elif ranking == "friedman_conover":
                assert row.pvalue + less == pytest.approx(1.0)
            elif ranking == "friedman_exact":
                ranks = both["greater"].ranks
                values, probs = rank_sum_difference_distribution(ranks)
                d = 2 * row.statistic
                assert row.pvalue == pytest.approx(probs[values >= d - 1e-9].sum(), abs=1e-12)
                assert row.pvalue + less == pytest.approx(1 + probs[np.isclose(values, d)].sum())
            elif ranking == "wilcoxon":
                ref = wilcoxon(t.values[:, c], t.values[:, j], alternative="greater")
                assert row.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    assert both["greater"].verdict.apv == both["two-sided"].verdict.apv
    with pytest.raises(RankwiseError, match="needs the control named"):
        compare(t, posthoc="control", alternative="greater")


@pytest.mark.simulation
def test_one_sided_control_family_holds_the_familywise_level():
    rng = np.random.default_rng(23)
    from rankwise import ScoreTable

    hits = 0
    for x in null_tables(rng, 400, 20, 5):
        table = ScoreTable(values=x, datasets=tuple(map(str, range(20))),
                           learners=tuple("ABCDE"))
        cmp = compare(table, tests=["iman_davenport"], posthoc="control", control="A",
                      procedures=["holm"], alternative="greater", force_posthoc=True)
        fam = cmp.posthoc.rankings["friedman"].families["control"]
        hits += any(r.apv["holm"] <= 0.05 for r in fam.comparisons)
    assert hits / 400 <= 0.05 + 2 * np.sqrt(0.05 * 0.95 / 400)


def test_pairwise_rankings_round_differences_as_the_two_learner_tests_do():
    """The post-hoc Wilcoxon and sign rankings give each pair the p-value of the two-learner
    test on the same pair: differences such as 0.768 − 0.763 and 0.936 − 0.931 tie after
    rounding (0.1 ranked them unrounded in the post-hoc section, so floating-point noise broke
    such ties: garcia2010, PDFC vs IS-CHC+1NN, p = 0.00546 instead of 0.00518)."""
    from rankwise.stats.two_learners import sign_test, wilcoxon

    t = load_example("garcia2010")
    cmp = compare(t, posthoc="all", rankings=["wilcoxon", "sign"], force_posthoc=True)
    names = list(t.learners)
    for ranking, test in (("wilcoxon", wilcoxon), ("sign", sign_test)):
        for r in cmp.posthoc.rankings[ranking].families["all_pairs"].comparisons:
            a, b = names.index(r.a), names.index(r.b)
            assert r.pvalue == test(t.values[:, a], t.values[:, b]).pvalue
    pair = next(r for r in cmp.posthoc.rankings["wilcoxon"].families["all_pairs"].comparisons
                if (r.a, r.b) == ("PDFC", "IS-CHC+1NN"))
    assert pair.pvalue == pytest.approx(0.005184531211853027, rel=1e-12)


def test_result_classes_are_read_by_their_attributes_only():
    """The dict and tuple access of rankwise 0.5, deprecated in 0.6, is gone (as CHANGELOG 0.6.0
    said it would be): the result classes are read by their attributes and ``to_dict``."""
    from rankwise import (contrast_estimation, critical_difference, multiple_sign_test,
                          tukey_dunnett, win_tie_loss)
    from rankwise.examples import load_example

    x = load_example("garcia2010").values
    res = critical_difference(4, 14, 0.05)
    with pytest.raises(TypeError):
        cd, q = res
    wtl = win_tie_loss(x[:, 0], x[:, 1])
    with pytest.raises(TypeError):
        tuple(wtl)
    mst = multiple_sign_test(x, 0)
    with pytest.raises(TypeError):
        mst["critical_value"]
    assert mst.critical_value == 6
    ce = contrast_estimation(x)
    assert np.array_equal(ce.to_dict()["estimates"], ce.estimates)
    td = tukey_dunnett(x, 0)
    with pytest.raises(TypeError):
        td["mse"]
    assert td.to_dict()["tukey"][0] == td.tukey[0] and mst.to_dict()["n"] == 24
