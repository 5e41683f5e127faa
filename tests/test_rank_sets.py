"""Confidence sets for ranks: the procedure of Mogstad et al. (2023) as csranks runs it, checked
against a plain loop of the same procedure, against cases whose answer is known, and by their
coverage in simulation."""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from rankwise.errors import RankwiseError
from rankwise.stats.rank_sets import (_difference_sds, _draws, _step_down, mean_rank_sets,
                                      rank_confidence_sets)
from rankwise.stats.ranking import midranks


def loop_step_down(theta, z, sd, coverage, stepdown=True):
    """csranks' two-sided step-down, written as the paper states it: pair by pair."""
    k = theta.size
    under_test = {(i, j) for i in range(k) for j in range(k) if i != j}
    shown = set()
    while under_test:
        maxima = [max((z[r, i] - z[r, j]) / sd[i, j] for i, j in under_test)
                  for r in range(z.shape[0])]
        c = float(np.quantile(maxima, coverage))
        new = {(i, j) for i, j in under_test if theta[i] - theta[j] - sd[i, j] * c > 0}
        shown |= new
        under_test -= new
        if not stepdown or not new:
            break
    return shown, c


def table_ranks(seed, n=25, k=6):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, k)) + np.linspace(0, 1.5, k)
    return midranks(x, descending=True)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("stepdown", [True, False])
def test_vectorised_step_down_equals_the_pairwise_loop(seed, stepdown):
    ranks = table_ranks(seed)
    theta = -ranks.mean(axis=0)
    sigma = np.cov(ranks, rowvar=False) / ranks.shape[0]
    sd = _difference_sds(sigma)
    z = _draws(sigma, 300, seed)
    k = theta.size
    shown, _ = _step_down(theta, z, sd, ~np.eye(k, dtype=bool), 0.95, stepdown)
    expected, c = loop_step_down(theta, z, sd, 0.95, stepdown)
    got = {(int(i), int(j)) for i, j in zip(*np.nonzero(shown))}
    # single against double precision can move a pair only where it sits on the boundary
    for i, j in got ^ expected:
        assert abs(theta[i] - theta[j] - sd[i, j] * c) < 1e-5 * sd[i, j]
    assert got == expected or len(got ^ expected) <= 1


def test_known_answers():
    # far apart with tiny errors: every rank known; all equal: every rank possible
    sets = rank_confidence_sets([3.0, 2.0, 1.0], np.eye(3) * 1e-6, learners=["a", "b", "c"])
    assert sets.lower.tolist() == [1, 2, 3] and sets.upper.tolist() == [1, 2, 3]
    assert sets.best.tolist() == [True, False, False]
    equal = rank_confidence_sets([1.0, 1.0, 1.0, 1.0], np.eye(4))
    assert equal.lower.tolist() == [1] * 4 and equal.upper.tolist() == [4] * 4
    assert equal.best.all() and equal.rank.tolist() == [1, 1, 1, 1]
    smaller = rank_confidence_sets([3.0, 2.0, 1.0], np.eye(3) * 1e-6, larger_is_better=False)
    assert smaller.lower.tolist() == [3, 2, 1]


def test_the_estimated_rank_lies_in_its_set_and_marginal_sets_are_no_wider():
    for seed in range(5):
        ranks = table_ranks(seed, n=30, k=8)
        joint = mean_rank_sets(ranks, seed=seed)
        own = mean_rank_sets(ranks, simultaneous=False, seed=seed)
        assert (joint.lower <= joint.rank).all() and (joint.rank <= joint.upper).all()
        assert (own.lower >= joint.lower).all() and (own.upper <= joint.upper).all()
        assert joint.best[np.argmin(ranks.mean(axis=0))]
        assert (joint.best == (joint.lower == 1)).all()


def test_same_seed_same_sets_and_a_singular_covariance_is_fine():
    ranks = table_ranks(3)
    a, b = mean_rank_sets(ranks, seed=7), mean_rank_sets(ranks, seed=7)
    assert a.lower.tolist() == b.lower.tolist() and a.upper.tolist() == b.upper.tolist()
    # two learners with the same rank on every data set: no spread, never told apart
    ranks[:, 1] = ranks[:, 0]
    sets = mean_rank_sets(ranks)
    assert sets.lower[0] == sets.lower[1] and sets.upper[0] == sets.upper[1]


def test_bad_inputs():
    with pytest.raises(RankwiseError, match="at least two"):
        rank_confidence_sets([1.0], [[1.0]])
    with pytest.raises(RankwiseError, match="3 × 3"):
        rank_confidence_sets([1.0, 2.0, 3.0], np.eye(2))
    with pytest.raises(RankwiseError, match="symmetric"):
        rank_confidence_sets([1.0, 2.0], [[1.0, 0.5], [0.0, 1.0]])
    with pytest.raises(RankwiseError, match="draws"):
        rank_confidence_sets([1.0, 2.0], np.eye(2), draws=10)
    with pytest.raises(RankwiseError, match="seed"):
        rank_confidence_sets([1.0, 2.0], np.eye(2), seed=-1)
    with pytest.raises(RankwiseError, match="confidence"):
        rank_confidence_sets([1.0, 2.0], np.eye(2), confidence=1.5)


def coverage(reps, k=5, simultaneous=True, seed=0):
    """Share of samples whose sets hold every true rank (simultaneous) or, marginally, the
    share of (sample, learner) sets that hold their learner's rank."""
    rng = np.random.default_rng(seed)
    theta = np.array([0.0, 0.1, 0.1, 0.3, 0.6])[:k]
    sigma = 0.01 * (np.eye(k) + 0.3)
    true_rank = 1 + (theta[None, :] > theta[:, None]).sum(axis=1)
    hits = []
    for r in range(reps):
        est = rng.multivariate_normal(theta, sigma)
        sets = rank_confidence_sets(est, sigma, simultaneous=simultaneous, draws=400,
                                    seed=r)
        inside = (sets.lower <= true_rank) & (true_rank <= sets.upper)
        hits.append(inside.all() if simultaneous else inside.mean())
    return float(np.mean(hits))


@pytest.mark.simulation
def test_coverage_quick():
    assert coverage(150) >= 0.9
    assert coverage(100, simultaneous=False) >= 0.9


@pytest.mark.simulation
@pytest.mark.slow
def test_coverage_at_the_nominal_level():
    # 2,000 samples: the Monte Carlo standard error of a 0.95 share is 0.005
    assert coverage(2000) >= 0.95 - 3 * 0.005
    assert coverage(1000, simultaneous=False) >= 0.95 - 3 * 0.007


# -- csranks 1.2.2 (R), on the mean ranks of three tables ------------------------------------------

REFERENCE = Path(__file__).parent / "data" / "reference" / "csranks.json"
REFERENCE_TABLES = ("garcia2008", "demsar2006_table6", "seeded10")


def rank_inputs(name):
    """(x, Σ) as csranks takes them: minus the mean ranks (larger is better there) and the
    covariance of a row of ranks over N."""
    from rankwise import load_example

    if name == "seeded10":
        rng = np.random.default_rng(10)
        values = rng.normal(size=(40, 10)) + np.linspace(0, 1.2, 10)
        higher = True
    else:
        t = load_example(name)
        values, higher = t.values, t.higher_is_better
    ranks = midranks(values, descending=higher)
    return -ranks.mean(axis=0), np.cov(ranks, rowvar=False) / ranks.shape[0]


def ours(x, sigma, simultaneous, seed, draws):
    return rank_confidence_sets(x, sigma, simultaneous=simultaneous, draws=draws, seed=seed)


def assert_agrees(theirs: dict, x, sigma, simultaneous, draws):
    """Every bound equal to csranks', or off by one only for a learner whose bound moves with
    the seed of the draws here too (its decision sits within Monte Carlo error of the
    boundary)."""
    runs = [ours(x, sigma, simultaneous, seed, draws) for seed in (1, 2, 3)]
    for side in ("lower", "upper"):
        mine = np.array([getattr(r, side) for r in runs])
        given = np.array(theirs[side])
        off = np.nonzero(mine[0] != given)[0]
        for i in off:
            assert abs(int(mine[0, i]) - int(given[i])) == 1, (side, i, mine[:, i], given[i])
            assert len(set(mine[:, i])) > 1 or given[i] in mine[:, i], (side, i, mine[:, i])


@pytest.mark.parametrize("name", REFERENCE_TABLES)
def test_equal_to_csranks_stored(name):
    ref = json.loads(REFERENCE.read_text())["tables"][name]
    x, sigma = np.array(ref["x"]), np.array(ref["sigma"])
    assert np.allclose((x, sigma[0]), (rank_inputs(name)[0], rank_inputs(name)[1][0]))
    for kind in ("simultaneous", "marginal"):
        assert_agrees(ref[kind], x, sigma, kind == "simultaneous", ref["draws"])
    best = ours(x, sigma, True, 1, ref["draws"]).best
    assert best.tolist() == ref["best"]


@pytest.mark.skipif(shutil.which("Rscript") is None, reason="R is not installed")
def test_equal_to_csranks_run_now():
    import subprocess
    import sys

    sys.path.insert(0, str(Path(__file__).parents[1] / "tools"))
    try:
        from make_r_references import csranks_reference
        x, sigma = rank_inputs("seeded10")
        theirs = csranks_reference(x, sigma, 5000)
    except subprocess.CalledProcessError as exc:
        pytest.skip(f"csranks is not installed in R: {exc.stderr.strip()[-120:]}")
    for kind in ("simultaneous", "marginal"):
        assert_agrees(theirs[kind], x, sigma, kind == "simultaneous", 5000)


# -- in compare, the command line and every format -------------------------------------------------

def test_compare_rank_sets_are_the_function_on_the_analysis_ranks():
    from rankwise import compare, load_example
    from rankwise.defaults import DEFAULT_SEED

    cmp = compare(load_example("garcia2008"), rank_sets=True, alpha=0.1)
    direct = mean_rank_sets(cmp.ranks, learners=cmp.table.learners, confidence=0.9,
                            seed=DEFAULT_SEED)
    assert cmp.rank_sets.lower.tolist() == direct.lower.tolist()
    assert cmp.rank_sets.upper.tolist() == direct.upper.tolist()
    assert cmp.settings["rank_sets"]["confidence"] == 0.9
    doc = json.loads(cmp.to_json())
    assert [r["lower"] for r in doc["rank_sets"]["learners"]] == direct.lower.tolist()
    best = [n for n, b in zip(direct.learners, direct.best) if b]
    assert f"the best is one of {', '.join(best)}" in cmp.verdict.text.replace(" and ", ", ")
    assert json.loads(compare(load_example("garcia2008")).to_json())["rank_sets"] is None
    scores = compare(load_example("garcia2008"), rank_sets="scores", rank_sets_marginal=True)
    x = scores.table.values
    expected = rank_confidence_sets(x.mean(axis=0), np.cov(x, rowvar=False) / x.shape[0],
                                    simultaneous=False, seed=DEFAULT_SEED)
    assert scores.rank_sets.upper.tolist() == expected.upper.tolist()
    assert "by mean score" in scores.verdict.text


@pytest.mark.figures
def test_every_format_shows_the_rank_sets_and_mistakes_are_refused():
    from rankwise import compare, load_example
    from rankwise.errors import RankwiseError

    cmp = compare(load_example("demsar2006_table6"), rank_sets=True)
    for text, head, cell in ((cmp.to_text(), "95% rank set", "1-2*"),
                             (cmp.to_html(), "95% rank set", "1-2*"),
                             (cmp.to_markdown(), "95% rank set", "1-2\\*"),
                             (cmp.to_latex(), "95\\% rank set", "1-2*")):
        assert head in text and cell in text, head
    with pytest.raises(RankwiseError, match="goes with --rank-sets"):
        compare(load_example("demsar2006_table6"), rank_sets_marginal=True)
    with pytest.raises(RankwiseError, match="rank_sets must be one of ranks, scores"):
        compare(load_example("demsar2006_table6"), rank_sets="medians")
    with pytest.raises(RankwiseError, match="complete table"):
        compare(load_example("amlb", criterion="result", missing="skillings-mack"),
                rank_sets=True)


def test_coverage_is_confidence_with_a_warning_until_0_10():
    sigma = np.eye(3) * 0.01
    new = rank_confidence_sets([1.0, 0.5, 0.0], sigma, confidence=0.9)
    with pytest.warns(FutureWarning, match="coverage= is confidence= since rankwise 0.9"):
        old = rank_confidence_sets([1.0, 0.5, 0.0], sigma, coverage=0.9)
    assert old.to_dict() == new.to_dict() and new.to_dict()["confidence"] == 0.9
    with pytest.warns(FutureWarning, match="RankSets.coverage is RankSets.confidence"):
        assert new.coverage == 0.9


@pytest.mark.parametrize("seed", range(3))
def test_the_pruned_maxima_are_the_full_computations_numbers(seed, monkeypatch):
    """Beyond _PRUNE_FROM learners the maxima skip the rows their bound rules out: the very
    single-precision numbers of every cell taken, for every pair family the step-down meets
    (all pairs, a random part, rows left without a pair) and uneven spreads."""
    from rankwise.stats import rank_sets

    rng = np.random.default_rng(seed)
    k = rank_sets._PRUNE_FROM + 56
    root = rng.normal(size=(k, 30)) * rng.uniform(0.2, 3.0, (k, 1))
    sigma = root @ root.T / 30 + np.diag(rng.uniform(0.01, 1.0, k))
    sd = _difference_sds(sigma)
    z = _draws(sigma, 200, seed)
    everything = ~np.eye(k, dtype=bool)
    part = everything & (rng.random((k, k)) < 0.5)
    part[: k // 4] = False                       # rows with no pair left under test
    for active in (everything, part):
        pruned = rank_sets._max_statistic(z, sd, active)
        with monkeypatch.context() as m:
            m.setattr(rank_sets, "_PRUNE_FROM", 10 ** 9)
            full = rank_sets._max_statistic(z, sd, active)
        assert np.array_equal(pruned, full)
