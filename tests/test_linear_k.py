"""The default analysis in linear time: each shortcut equals the k × k computation it replaces.

- ``PairMatrix``: the pairs asked for, equal to the whole matrix of rankwise 0.7's formula;
- ``nemenyi_runs``: the CD diagram's groups from the sorted mean ranks, equal to the groups of
  every pair's Nemenyi p-value (paper tables, random tables up to k = 1,000, ties, several α);
- the plans and outputs above ``PAIR_MATRIX_MAX_LEARNERS``: what they hold and what they say.
"""

import numpy as np
import pytest
from scipy import stats

from rankwise import load_example
from rankwise.analysis.figures import cliques, nemenyi_runs
from rankwise.stats.pairwise import (PairMatrix, family_pairs, nemenyi_pvalues,
                                     pairwise_statistics)
from rankwise.stats.ranking import midranks


def _scores(k, n, seed, decimals=2, spread=0.05):
    rng = np.random.default_rng(seed)
    x = 0.7 + np.linspace(0, spread, k)[None, :] + rng.normal(0, 0.03, (n, k))
    return np.round(x, decimals)


def _old_matrices(scores, se):
    """rankwise 0.7's k × k formula, written out."""
    z = (scores[:, None] - scores[None, :]) / se
    p = np.minimum(1.0, 2 * stats.norm.sf(np.abs(z)))
    np.fill_diagonal(p, 1.0)
    return z, p


@pytest.mark.parametrize("ranking", ["friedman", "friedman_aligned", "quade"])
def test_pair_matrix_equals_the_whole_matrix(ranking):
    x = _scores(40, 12, 1)
    st = pairwise_statistics(x, ranking)
    assert isinstance(st.pvalues, PairMatrix)
    z, p = _old_matrices(st.scores, st.se)
    assert np.array_equal(np.asarray(st.statistics), z)
    assert np.array_equal(np.asarray(st.pvalues), p)
    a, b = family_pairs(40, "all_pairs", None).T
    assert np.array_equal(st.pvalues[a, b], p[a, b])
    assert st.pvalues[3, 3] == 1.0 and st.statistics[5, 5] == 0.0
    assert st.pvalues[0, 7] == p[0, 7] and st.pvalues[-1, 0] == p[-1, 0]
    # what callers of rankwise 0.7 did with the arrays still works, on the whole matrix
    assert np.array_equal(st.pvalues.copy(), p) and st.pvalues.shape == (40, 40)
    assert np.array_equal(st.pvalues < 0.05, p < 0.05)
    assert np.array_equal(st.pvalues[2], p[2]) and np.array_equal(st.pvalues[:, 1], p[:, 1])


def test_conover_pair_matrix_equals_the_whole_matrix():
    x = _scores(12, 9, 2)
    st = pairwise_statistics(x, "friedman_conover")
    diff = st.scores[:, None] - st.scores[None, :]
    t = diff / st.se
    p = np.minimum(1.0, 2 * stats.t.sf(np.abs(t), st.details["df"]))
    np.fill_diagonal(p, 1.0)
    assert np.array_equal(np.asarray(st.statistics), t)
    assert np.array_equal(np.asarray(st.pvalues), p)


def test_family_pairs_are_arrays_in_the_old_order():
    assert family_pairs(4, "control", 2).tolist() == [[2, 0], [2, 1], [2, 3]]
    assert family_pairs(4, "all_pairs", None).tolist() == [
        [0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]


def _runs_by_every_pair(mean_ranks, se, alpha):
    k = len(mean_ranks)
    z = (mean_ranks[:, None] - mean_ranks[None, :]) / se
    a, b = np.triu_indices(k, 1)
    sig = np.zeros((k, k), dtype=bool)
    hit = nemenyi_pvalues(z[a, b], k) <= alpha
    sig[a, b] = sig[b, a] = hit
    return cliques(mean_ranks, sig)


def _runs_fast(mean_ranks, se, alpha):
    runs = nemenyi_runs(mean_ranks, se, alpha)
    return [tuple(int(j) for j in runs.order[s:e + 1]) for s, e in zip(runs.start, runs.end)]


@pytest.mark.parametrize("name", ["garcia2008", "garcia2010", "demsar2006_table6",
                                  "demsar2006_table2"])
@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.1])
def test_nemenyi_runs_equal_every_pair_on_the_paper_tables(name, alpha):
    t = load_example(name)
    st = pairwise_statistics(t.values, "friedman")
    for se in (st.se, np.sqrt(t.n_learners * (t.n_learners + 1) / (6 * t.n_datasets))):
        assert _runs_fast(st.scores, se, alpha) == _runs_by_every_pair(st.scores, se, alpha)


@pytest.mark.parametrize("k, n, decimals", [(3, 5, 1), (10, 14, 2), (50, 8, 1), (200, 30, 2),
                                            (1000, 20, 3)])
@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.1])
def test_nemenyi_runs_equal_every_pair_on_random_tables(k, n, decimals, alpha):
    for seed in range(3 if k < 1000 else 1):
        x = _scores(k, n, seed, decimals, spread=0.2)
        r = midranks(x, descending=True)
        st = pairwise_statistics(x, "friedman", ranks=r)
        fast = _runs_fast(st.scores, st.se, alpha)
        assert fast == _runs_by_every_pair(st.scores, st.se, alpha)


def test_a_difference_at_the_critical_difference_is_decided_by_its_p_value():
    # mean ranks placed exactly at CD, just below and just above it
    from rankwise.stats.pairwise import critical_difference

    k, se, alpha = 6, 0.5, 0.05
    cd = critical_difference(k, 1, alpha, "nemenyi", se=se).cd
    for shift in (0.0, -1e-12, 1e-12, -1e-7, 1e-7, cd * 1e-6, -cd * 1e-6):
        m = np.array([1.0, 1.0 + cd + shift, 1.2, 2.0 + cd, 3.5, 3.5 + cd + shift])
        assert _runs_fast(m, se, alpha) == _runs_by_every_pair(m, se, alpha)


def test_no_runs_without_spread():
    m = np.full(5, 3.0)
    assert _runs_fast(m, 0.0, 0.05) == [(0, 1, 2, 3, 4)]


@pytest.mark.parametrize("n, k", [(5, 8), (20, 60), (50, 300), (3, 4)])
def test_sphericity_from_the_gram_matrix_equals_the_covariance_form(n, k):
    from rankwise.stats.anova import _sphericity_epsilons, rm_anova

    x = _scores(k, n, 5, decimals=3, spread=0.1)
    resid = x - x.mean(axis=1, keepdims=True) - x.mean(axis=0)[None, :] + x.mean()
    by_cov = _sphericity_epsilons(x, np.cov(x, rowvar=False, ddof=1))
    by_gram = _sphericity_epsilons(x, None, resid)
    assert np.allclose(by_gram, by_cov, rtol=1e-10, atol=0)
    res = rm_anova(x)  # fewer data sets than learners: the Gram form, and no Mauchly test
    assert res.details["epsilon_greenhouse_geisser"] == pytest.approx(by_cov[0], rel=1e-10)
    assert res.details["mauchly_w"] is None


@pytest.mark.parametrize("n, k", [(20_000, 50), (100_000, 10), (2_000, 600)])
def test_the_covariance_of_a_large_table_on_one_blas_thread_is_np_cov(n, k):
    """From a million scores on, rm_anova's covariance runs on one BLAS thread (threads that
    wait for a busy core cost seconds): the same matrix to the last bit."""
    from rankwise.stats.anova import ONE_BLAS_THREAD_MIN_CELLS, _covariance

    x = np.round(np.random.default_rng(n).uniform(0.5, 1.0, (n, k)), 3)
    assert x.size >= ONE_BLAS_THREAD_MIN_CELLS
    assert np.array_equal(_covariance(x), np.cov(x, rowvar=False, ddof=1))


def test_column_quartiles_equal_the_quartiles_of_each_learner():
    from rankwise.stats.summary import column_quartiles, quartiles

    x = _scores(30, 11, 3, decimals=2)
    names = [f"l{j}" for j in range(30)]
    assert column_quartiles(x, names) == quartiles({n: x[:, j] for j, n in enumerate(names)})
    x[2, 4] = x[5, 4] = np.nan
    x[:, 7] = np.nan  # a learner without a value
    got = column_quartiles(x, names)
    want = quartiles({n: x[:, j] for j, n in enumerate(names)})
    assert [r.n for r in got] == [r.n for r in want]
    for g, w in zip(got, want):
        assert np.array_equal([g.minimum, g.q1, g.median, g.q3, g.maximum],
                              [w.minimum, w.q1, w.median, w.q3, w.maximum], equal_nan=True)


def test_kendall_tau_of_many_learners_equals_the_pairwise_sum(monkeypatch):
    from rankwise.stats import summary

    rng = np.random.default_rng(4)
    a = np.round(rng.normal(size=600), 1)
    b = np.round(a + rng.normal(size=600), 1)
    every_pair = summary._kendall_tau(a, b)
    monkeypatch.setattr(summary, "KENDALL_PAIRS_MAX_N", 10)
    assert summary._kendall_tau(a, b) == pytest.approx(every_pair, abs=1e-14)
    assert summary._kendall_tau(np.ones(20), b[:20]) == 0.0


def test_mean_rank_intervals_in_blocks_equal_one_block(monkeypatch):
    from rankwise.stats import ranking

    r = midranks(_scores(300, 20, 6, decimals=2), descending=True)
    whole, method = ranking.mean_rank_intervals(r)
    monkeypatch.setattr(ranking, "RANK_BOOTSTRAP_COLUMNS", 37)
    blocks, _ = ranking.mean_rank_intervals(r)
    assert method == "bootstrap" and np.array_equal(whole, blocks)
    r[3, 5] = np.nan  # missing cells: nanquantile where a replicate has none of them
    assert np.array_equal(ranking.mean_rank_intervals(r)[0][5:7],
                          ranking.mean_rank_intervals(r, draws=2000)[0][5:7])


def test_a_wide_table_keeps_data_sets_named_like_missing_values(tmp_path):
    from rankwise import load_table

    path = tmp_path / "na.csv"
    path.write_text("dataset,a,b,c\nNA,0.1,0.2,NA\nnan,0.3,0.1,0.2\nx,0.5,0.4,0.3\n")
    t = load_table(path, missing="skillings-mack")
    assert t.datasets == ("NA", "nan", "x")
    assert np.isnan(t.values[0, 2]) and t.values[1, 2] == 0.2


def test_bergmann_hommel_fast_path_keeps_the_time_budget():
    from rankwise.stats.adjust import shaffer
    from rankwise.stats.bergmann_hommel import bergmann_hommel

    x = _scores(120, 20, 7, decimals=2, spread=0.1)
    st = pairwise_statistics(x, "friedman")
    res = bergmann_hommel(np.asarray(st.pvalues), st.scores, time_budget=0.0)
    assert res.method == "shaffer_fallback" and "--bh-time-budget" in res.notes[0]
    a, b = np.triu_indices(120, 1)
    assert np.array_equal(res.apv[a, b], shaffer(np.asarray(st.pvalues)[a, b], 120))
    small = pairwise_statistics(x[:, :12], "friedman")
    assert bergmann_hommel(np.asarray(small.pvalues), small.scores).method == "fast"
