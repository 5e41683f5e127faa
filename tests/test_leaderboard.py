"""The leaderboard: every column against TabArena's bencheval (run as its users install it,
stored by tools/make_bencheval_references.py) on TabArena's own per-split results; the
Bradley-Terry fit against brute force, choix and evalica; separation, anchors, subsets, the
mean-rank order, and the command line in every format."""

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import optimize

import rankwise
from rankwise.analysis.leaderboard import leaderboard
from rankwise.errors import RankwiseError
from rankwise.stats import elo as bt

DATA = Path(__file__).parent / "data"
TABARENA = (Path(__file__).parents[1] / "src" / "rankwise" / "examples"
            / "tabarena_results_per_split.csv")
REFERENCE = json.loads((DATA / "reference" / "bencheval_leaderboard.json").read_text())
#: rankwise's column -> bencheval's
SAME = {"rank": "rank", "winrate": "winrate", "improvability": "improvability", "mrr": "mrr",
        "rank_1": "rank=1_count", "rank_2": "rank=2_count", "rank_3": "rank=3_count",
        "rank_4_plus": "rank>3_count", "normalized_error": "loss_rescaled",
        "imputed": "imputed", "median_rank": "median_rank", "time_train_s": "time_train_s",
        "time_infer_s": "time_infer_s"}


@pytest.fixture(scope="module")
def tabarena():
    # bencheval compares the values as given (no rounding): decimals=None is its board
    return leaderboard(TABARENA, anchor="RF (default)", decimals=None)


def test_every_column_equals_bencheval_on_tabarenas_own_results(tabarena):
    b = tabarena.board
    assert len(b.learners) == len(REFERENCE["leaderboard"]) == 78 and b.datasets == 51
    for j, name in enumerate(b.learners):
        ref = REFERENCE["leaderboard"][name]
        for ours, theirs in SAME.items():
            assert b.columns[ours][j] == pytest.approx(ref[theirs], rel=1e-12, abs=1e-12), \
                (name, ours)
        # bencheval rounds Elo and its bars to 0.1; the same resamples (seed 0, data sets in
        # sorted order) give the same interval
        assert round(b.columns["elo"][j], 1) == pytest.approx(ref["elo"], abs=1e-9), name
        assert b.columns["elo_high"][j] - b.columns["elo"][j] == pytest.approx(
            ref["elo+"], abs=0.051)
        assert b.columns["elo"][j] - b.columns["elo_low"][j] == pytest.approx(
            ref["elo-"], abs=0.051)
        for side, sign in (("improvability_high", 1), ("improvability_low", -1)):
            width = sign * (b.columns[side][j] - b.columns["improvability"][j])
            assert width == pytest.approx(
                ref["improvability+" if sign > 0 else "improvability-"], abs=1e-12)
    assert b.columns["elo"][b.learners.index("RF (default)")] == pytest.approx(1000.0)


def test_the_win_rate_matrix_equals_bencheval(tabarena):
    b = tabarena.board
    m = REFERENCE["winrate_matrix"]
    order = [b.learners.index(n) for n in m["methods"]]
    ours = b.matrix[np.ix_(order, order)]
    theirs = np.array([[np.nan if v is None else v for v in row] for row in m["values"]])
    assert np.allclose(ours, theirs, atol=1e-7, equal_nan=True)   # bencheval adds in float32


def test_the_board_says_what_it_means(tabarena):
    b = tabarena.board
    text = " ".join(b.sentences)
    assert b.complete and "the Elo order is the mean-rank order" in text
    assert b.learners[0] in b.tied_with_first and b.tied_with_first[0] == b.learners[0]
    assert list(b.columns["rank"]) == sorted(b.columns["rank"])   # complete: same order
    assert b.friedman["rejected"] and b.friedman["best"] == b.learners[0]
    assert "Holm" in text and "not significantly worse" in text


def _random_table(rng, k=6, n=12, folds=3, holes=0):
    rows = []
    skill = rng.normal(0, 0.03, k)
    for d in range(n):
        for f in range(folds):
            for j in range(k):
                rows.append({"dataset": f"d{d}", "fold": f, "method": f"m{j}",
                             "metric_error": round(abs(0.3 - skill[j] + rng.normal(0, 0.05)),
                                                   3)})
    frame = pd.DataFrame(rows)
    if holes:
        frame = frame.drop(index=rng.choice(len(frame), holes, replace=False))
    return frame


def _loglik(theta, w):
    d = theta[:, None] - theta[None, :]
    return float(np.sum(w * -np.logaddexp(0.0, -d)))


def test_the_fit_is_the_maximum_likelihood_brute_force():
    """Missing results: the pair form, against a general-purpose optimiser."""
    rng = np.random.default_rng(3)
    for trial in range(5):
        k = 5
        w = rng.integers(0, 6, (k, k)).astype(float) + rng.random((k, k))
        np.fill_diagonal(w, 0.0)
        theta, bound = bt.fit(w, w + w.T, lightest=1.0)
        best = optimize.minimize(lambda t: -_loglik(np.r_[0.0, t], w), np.zeros(k - 1),
                                 method="BFGS", options={"gtol": 1e-12})
        ref = np.r_[0.0, best.x]
        assert not bound.any()
        assert np.allclose(theta - theta.mean(), ref - ref.mean(), atol=1e-6)
        assert _loglik(theta, w) >= -best.fun - 1e-9


def test_strengths_equal_choix_and_evalica():
    small = REFERENCE["small"]
    names = small["names"]
    ix = {n: i for i, n in enumerate(names)}
    k = len(names)
    decisive, with_ties = np.zeros((k, k)), np.zeros((k, k))
    for battle in small["battles"]:
        a, b = ix[battle[0]], ix[battle[1]]
        if len(battle) == 3:
            with_ties[a, b] += 0.5
            with_ties[b, a] += 0.5
        else:
            decisive[a, b] += 1
            with_ties[a, b] += 1
    theta, _ = bt.fit(decisive, decisive + decisive.T, lightest=1.0)
    choix = np.array(small["choix_decisive_only"])
    assert np.allclose(theta - theta.mean(), choix - choix.mean(), atol=1e-6)
    theta, _ = bt.fit(with_ties, with_ties + with_ties.T, lightest=1.0)
    scores = np.log([small["evalica_scores"][n] for n in names])
    assert np.allclose(theta - theta.mean(), scores - scores.mean(), atol=1e-5)


def test_a_learner_that_wins_everything_gets_a_stated_finite_bound():
    rng = np.random.default_rng(5)
    frame = _random_table(rng, k=5, n=8, folds=2)
    frame.loc[frame["method"] == "m0", "metric_error"] = 0.0   # m0 is never beaten...
    frame.loc[frame["method"] == "m4", "metric_error"] = 9.0   # ... m4 never wins
    lb = leaderboard(frame, draws=30)
    b = lb.board
    assert b.learners[0] == "m0" and b.learners[-1] == "m4"
    assert b.bound[0] == 1 and b.bound[-1] == -1 and not b.bound[1:-1].any()
    assert np.isfinite(b.columns["elo"]).all() and np.isfinite(b.columns["elo_low"]).all()
    # separation changes how the board reads: the verdict's first sentences, not notes
    assert b.sentences[0].startswith("m0 won every battle it fought") \
        and "a lower bound" in b.sentences[0]
    assert b.sentences[1].startswith("m4 lost every battle it fought") \
        and "an upper bound" in b.sentences[1]
    assert not any("every battle" in n for n in b.notes)
    from rankwise.report.board import board_text

    text = board_text(rankwise.leaderboard(frame, draws=30))
    assert "≥ " in text and "≤ " in text
    # the bound: m0's expected score against the others equals its wins less half a battle
    theta = (b.columns["elo"] - 1000) * math.log(10) / 400
    others = theta[1:]
    per_pair = 8.0                     # 8 data sets, each weighing 1 against each opponent
    expected = per_pair * np.sum(1 / (1 + np.exp(others - theta[0])))
    assert expected == pytest.approx(per_pair * 4 - 0.5 * 0.5, rel=1e-9)   # battles weigh 1/2


def test_missing_results_battle_where_both_ran_and_say_so():
    rng = np.random.default_rng(8)
    frame = _random_table(rng, k=5, n=10, folds=2, holes=12)
    b = leaderboard(frame, draws=20).board
    assert not b.complete
    assert any("results are missing" in n for n in b.notes)
    assert np.isfinite(b.columns["elo"]).all()
    # the point is the maximum of the weighted pair likelihood
    err = frame.pivot_table(index=["dataset", "fold"], columns="method",
                            values="metric_error").reindex(columns=list(b.learners))
    w = np.zeros((5, 5))
    for (d, _), row in err.iterrows():
        e = row.to_numpy()
        weight = 1.0 / err.loc[d].shape[0]
        for i in range(5):
            for j in range(5):
                if i != j and not np.isnan(e[i]) and not np.isnan(e[j]):
                    w[i, j] += weight * ((e[i] < e[j]) + 0.5 * (e[i] == e[j]))
    best = optimize.minimize(lambda t: -_loglik(np.r_[0.0, t], w), np.zeros(4), method="BFGS",
                             options={"gtol": 1e-12})
    ref = np.r_[0.0, best.x]
    ref_elo = 1000 + 400 * (ref - ref.mean()) / math.log(10)
    assert np.allclose(b.columns["elo"], ref_elo, atol=1e-4)


def test_on_complete_tables_the_elo_order_is_the_mean_rank_order():
    rng = np.random.default_rng(11)
    for trial in range(4):
        b = leaderboard(_random_table(rng, k=7, n=9, folds=2), draws=10).board
        ranks = b.columns["rank"]
        assert all(ranks[i] <= ranks[i + 1] + 1e-12 for i in range(len(ranks) - 1))


def test_the_anchor_shifts_everything_and_nothing_else():
    rng = np.random.default_rng(2)
    frame = _random_table(rng)
    free = leaderboard(frame, draws=25).board
    anchored = leaderboard(frame, draws=25, anchor="m3").board
    j = anchored.learners.index("m3")
    assert anchored.columns["elo"][j] == pytest.approx(1000.0)
    shift = anchored.columns["elo"] - free.columns["elo"]
    assert np.allclose(shift, shift[0])
    for col in ("elo_low", "elo_high"):
        assert np.allclose(anchored.columns[col] - free.columns[col], shift[0])
    assert free.columns["elo"].mean() == pytest.approx(1000.0)
    with pytest.raises(RankwiseError, match="not a learner"):
        leaderboard(frame, draws=5, anchor="nope")


def test_subsets_are_the_boards_of_their_rows():
    rng = np.random.default_rng(4)
    frame = _random_table(rng, k=4, n=10, folds=1)
    frame["problem_type"] = np.where(frame["dataset"].str[1:].astype(int) < 5, "binary",
                                     "regression")
    lb = leaderboard(frame, draws=15, by="problem_type")
    assert [b.subset for b in lb.boards] == [None, "binary", "regression"]
    alone = leaderboard(frame[frame["problem_type"] == "binary"].drop(columns="problem_type"),
                        draws=15).board
    assert lb.boards[1].learners == alone.learners
    for col in ("elo", "elo_low", "elo_high", "rank", "winrate"):
        assert np.allclose(lb.boards[1].columns[col], alone.columns[col])
    # each subset's heading says how many data sets its own tests are on
    assert "Subset: problem_type = binary (5 data sets)" in lb.render("text")
    with pytest.raises(RankwiseError, match="no column 'nope' for --by"):
        leaderboard(frame, by="nope")


def test_same_seed_same_board_and_the_seed_matters():
    rng = np.random.default_rng(6)
    frame = _random_table(rng)
    a = leaderboard(frame, draws=30, seed=1).to_dict()
    assert a == leaderboard(frame, draws=30, seed=1).to_dict()
    assert a != leaderboard(frame, draws=30, seed=2).to_dict()


def test_bad_options_are_one_line():
    frame = _random_table(np.random.default_rng(1))
    for kwargs in ({"draws": 0}, {"draws": 2.5}, {"seed": -1}, {"confidence": 1.0},
                   {"alpha": 0}):
        with pytest.raises(RankwiseError) as err:
            leaderboard(frame, **kwargs)
        assert "\n" not in str(err.value)


@pytest.fixture(scope="module")
def tabarena_few(tmp_path_factory):
    """TabArena's per-split results of eight methods (AutoGluon, RF, CatBoost), every data set
    and problem type kept: the same file format for the command's formats, at a tenth of the
    work of the whole board."""
    results = pd.read_csv(TABARENA)
    few = results[results["method"].str.contains("AutoGluon|RF |CAT ", regex=True)]
    assert "AutoGluon 1.5 (extreme, 4h)" in set(few["method"]) and few["method"].nunique() < 12
    path = tmp_path_factory.mktemp("tabarena") / "tabarena_few.csv"
    few.to_csv(path, index=False)
    return path


@pytest.mark.figures
def test_every_format_from_the_command_line(cli, tmp_path, tabarena_few):
    # the whole board once: text, with both figures
    code, out, err = cli("leaderboard", TABARENA, "--anchor", "RF (default)", "--draws", "20",
                         "--figure", tmp_path / "b.svg", "--matrix-figure", tmp_path / "m.svg")
    assert code == 0, err
    assert "AutoGluon 1.5 (extreme, 4h)" in out
    assert (tmp_path / "b.svg").exists() and (tmp_path / "m.svg").exists()
    code, out, _ = cli("leaderboard", TABARENA, "--draws", "20", "--format", "json")
    doc = json.loads(out)
    assert doc["schema"] == "rankwise.leaderboard/2" and len(doc["boards"][0]["rows"]) == 78
    # every format of the same command, on the same file of fewer methods
    for fmt in ("text", "markdown", "latex", "html", "json", "csv"):
        code, out, err = cli("leaderboard", tabarena_few, "--anchor", "RF (default)",
                             "--draws", "20", "--format", fmt)
        assert code == 0, err
        assert "AutoGluon 1.5 (extreme, 4h)" in out
    code, out, _ = cli("leaderboard", tabarena_few, "--draws", "20", "--format", "csv",
                       "--by", "problem_type")
    csv = pd.read_csv(__import__("io").StringIO(out), keep_default_na=False)
    assert set(csv["subset"]) == {"", "binary", "multiclass", "regression"}
    code, out, err = cli("leaderboard", tabarena_few, "--anchor", "nope")
    assert code == 2 and err.startswith("rankwise: error:") and len(err.splitlines()) == 1


def test_kemeny_is_exact_up_to_its_limit_brute_force():
    import itertools

    from rankwise.stats.aggregation import KEMENY_EXACT_MAX, agreement, kemeny, majority

    rng = np.random.default_rng(12)
    for k in range(3, 9):
        for _ in range(3):
            ranks = np.array([rng.permutation(k) + 1 for _ in range(6)], float)
            m = majority(ranks)
            order, exact = kemeny(m)
            assert exact and k <= KEMENY_EXACT_MAX
            best = max(agreement(p, m) for p in itertools.permutations(range(k)))
            assert agreement(order, m) == pytest.approx(best)


def _kemeny_optimum_by_recursion(m):
    """The best agreement of any order, by plain recursion over subsets (a reference)."""
    from functools import lru_cache
    k = m.shape[0]

    @lru_cache(maxsize=None)
    def best(s):
        if not s:
            return 0.0
        members = [i for i in range(k) if s >> i & 1]
        return max(best(s & ~(1 << j)) + sum(m[i, j] for i in members if i != j)
                   for j in members)

    return best((1 << k) - 1)


@pytest.mark.parametrize("k, seed", [(11, 2), (12, 4), (13, 23)])
def test_kemeny_is_exact_where_the_heuristic_missed_the_optimum(k, seed):
    """Random profiles of 11 to 13 learners on which the local search (once used above 10
    learners) stops short of the optimum: the order is now the exact Kemeny order."""
    from rankwise.stats import aggregation

    rng = np.random.default_rng(seed)
    ranks = np.array([rng.permutation(k) + 1 for _ in range(int(rng.integers(5, 15)))], float)
    m = aggregation.majority(ranks)
    order, exact = aggregation.kemeny(m)
    optimum = _kemeny_optimum_by_recursion(m)
    assert aggregation.agreement(order, m) == pytest.approx(optimum, abs=1e-9)
    assert exact and sorted(order) == list(range(k))
    assert aggregation.agreement(aggregation.kemeny_local(m), m) < optimum - 0.5


def test_the_heuristic_beyond_the_limit_is_a_local_optimum():
    from rankwise.stats.aggregation import KEMENY_EXACT_MAX, agreement, kemeny, majority

    k = KEMENY_EXACT_MAX + 1
    rng = np.random.default_rng(13)
    ranks = np.array([rng.permutation(k) + 1 for _ in range(9)], float)
    m = majority(ranks)
    order, exact = kemeny(m)
    assert not exact
    value = agreement(order, m)
    for i in range(k):                  # no single learner moved anywhere does better
        rest = order[:i] + order[i + 1:]
        for j in range(k):
            assert agreement(rest[:j] + [order[i]] + rest[j:], m) <= value + 1e-9


def test_condorcet_paradox_copeland_and_borda():
    from rankwise.stats.aggregation import aggregate

    # three voters, A > B > C, B > C > A, C > A > B: every majority goes round
    ranks = np.array([[1, 2, 3], [3, 1, 2], [2, 3, 1]], float)
    agg = aggregate(ranks)
    assert agg.condorcet is None and agg.cycles == [[0, 1, 2]]
    assert list(agg.copeland) == [1, 1, 1] and np.allclose(agg.borda, 1.0)
    ranks = np.array([[1, 2, 3], [1, 3, 2], [2, 1, 3]], float)
    agg = aggregate(ranks)
    assert agg.condorcet == 0 and agg.cycles == [] and list(agg.copeland) == [2, 1, 0]
    assert list(agg.kemeny) == [0, 1, 2]
    assert np.allclose(agg.borda, 3 - ranks.mean(axis=0))


def _majority_row_by_row(ranks, weights=None):
    """The majority matrix as its definition reads: one data set after another."""
    r = np.asarray(ranks, dtype=float)
    k = r.shape[1]
    m = np.zeros((k, k))
    ties = np.zeros((k, k))
    for d, row in enumerate(r):
        w = 1.0 if weights is None else float(weights[d])
        m += w * (row[:, None] < row[None, :])
        ties += 0.5 * w * (row[:, None] == row[None, :])
    m += ties
    np.fill_diagonal(m, 0.0)
    return m


@pytest.mark.parametrize("k", [5, 40])
def test_the_majority_matrices_are_the_sums_data_set_by_data_set(k, monkeypatch):
    """Every data set compared at once (in chunks), the majority matrix is the very number of
    adding the data sets one after another: counted without weights, summed in order with
    them (thirds and sevenths do not add exactly), with ties and missing results; and a
    leaderboard's per-data-set matrices (its splits weighing 1/splits each) likewise."""
    from rankwise.stats import aggregation

    monkeypatch.setattr(aggregation, "_CHUNK_CELLS", 7 * k * k)   # chunks that carry over
    rng = np.random.default_rng(k)
    ranks = np.round(rng.normal(size=(60, k)), 1)
    ranks[rng.random(ranks.shape) < 0.05] = np.nan
    weights = rng.choice([1 / 3, 1 / 7, 1.0, 0.1], 60)
    assert np.array_equal(aggregation.majority(ranks), _majority_row_by_row(ranks))
    assert np.array_equal(aggregation.majority(ranks, weights),
                          _majority_row_by_row(ranks, weights))
    groups = np.repeat(np.arange(60), rng.integers(1, 4, 60))[:60]   # 1 to 3 splits each
    n_groups = int(groups.max()) + 1
    share = 1.0 / np.bincount(groups, minlength=n_groups)
    expected = np.stack([_majority_row_by_row(ranks[groups == g],
                                              np.full((groups == g).sum(), share[g]))
                         for g in range(n_groups)])
    assert np.array_equal(aggregation.majorities(ranks, groups, n_groups, share), expected)


def test_a_data_sets_mean_over_its_splits_adds_them_in_order():
    """The splits of every data set added at once, split position by split position: the
    numbers of adding them one at a time (np.add.at), uneven splits and missing results too."""
    from rankwise.analysis.leaderboard import _by_dataset

    rng = np.random.default_rng(5)
    unit_dataset = np.repeat(np.arange(20), rng.integers(1, 6, 20))
    m = rng.normal(size=(unit_dataset.size, 7)) / 3
    m[rng.random(m.shape) < 0.1] = np.nan
    sums, counts = np.zeros((20, 7)), np.zeros((20, 7))
    np.add.at(sums, unit_dataset, np.where(np.isnan(m), 0.0, m))
    np.add.at(counts, unit_dataset, ~np.isnan(m))
    with np.errstate(invalid="ignore", divide="ignore"):
        expected = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
    assert np.array_equal(_by_dataset(m, unit_dataset, 20), expected, equal_nan=True)


def test_weighted_majorities_that_tie_in_exact_arithmetic_tie():
    from rankwise.stats.aggregation import aggregate

    ranks = [[1, 2], [1, 2], [2, 1]]
    # 0.1 + 0.2 = 0.3 exactly, though 0.1 + 0.2 > 0.3 in floating point
    tie = aggregate(ranks, weights=[0.1, 0.2, 0.3])
    assert tie.majority[0, 1] > tie.majority[1, 0]          # the floats differ ...
    assert tie.copeland.tolist() == [0.5, 0.5] and tie.condorcet is None   # ... the rule ties
    assert tie.kemeny == aggregate([[1, 2], [2, 1]]).kemeny   # as an unweighted tie orders
    thirds = aggregate([[1, 2]] * 3 + [[2, 1]], weights=[1 / 3] * 3 + [1.0])
    assert thirds.copeland.tolist() == [0.5, 0.5] and thirds.condorcet is None
    # weights that genuinely differ decide, however little
    for w, winner in (([0.1, 0.2, 0.31], 1), ([0.1, 0.2, 0.29], 0),
                      ([0.1, 0.2, 0.3 + 1e-9], 1), ([1e-6, 2e-6, 3.1e-6], 1)):
        agg = aggregate(ranks, weights=w)
        assert agg.condorcet == winner and agg.copeland[winner] == 1.0
        assert agg.kemeny[0] == winner
    # three learners in a cycle only when the weighted majorities truly go round: with
    # weights 0.1, 0.2, 0.3, B against C is 0.1 + 0.2 against 0.3, a tie that breaks it
    ranks3 = [[1, 2, 3], [3, 1, 2], [2, 3, 1]]
    assert aggregate(ranks3, weights=[0.1, 0.2, 0.3]).cycles == []
    assert aggregate(ranks3, weights=[0.2, 0.3, 0.4]).cycles == [[0, 1, 2]]


def test_the_board_in_another_rules_order_and_every_rule_in_the_json():
    frame = _random_table(np.random.default_rng(14), k=6, n=9, folds=1)
    by_elo = leaderboard(frame, draws=10).board
    by_kemeny = leaderboard(frame, draws=10, rule="kemeny").board
    assert set(by_elo.learners) == set(by_kemeny.learners)
    assert list(by_kemeny.columns["kemeny"]) == list(range(1, 7))
    row = by_kemeny.to_dict()["rows"][0]
    assert {"borda", "copeland", "kemeny"} <= set(row)
    assert by_kemeny.to_dict()["kemeny"] == "exact"
    top = by_elo.learners[0]
    assert f"#1 by Elo: {top}" in " ".join(by_kemeny.sentences)   # whatever the order
    with pytest.raises(RankwiseError, match="rule must be one of"):
        leaderboard(frame, rule="plurality")


def test_the_conjugate_gradient_steps_of_many_learners_equal_the_factorised_ones():
    rng = np.random.default_rng(15)
    for k in (bt.CG_FROM + 1, 300):
        skill = rng.normal(0, 1.5, k)
        p = 1 / (1 + np.exp(-(skill[:, None] - skill[None, :])))
        np.fill_diagonal(p, 0)
        totals = 20.0 * p.sum(axis=1) + rng.normal(0, 0.5, k)
        totals -= (totals.sum() - 20.0 * k * (k - 1) / 2) / k    # consistent totals
        full = bt._newton(None, None, totals, 20.0, None)
        cg, bound = bt.fit_totals(totals, 20.0, 1.0)
        assert not bound.any()
        assert np.allclose(cg - cg.mean(), full - full.mean(), atol=1e-9)


def test_the_rounds_fitted_together_equal_each_round_fitted_alone():
    """Beyond CG_FROM learners the bootstrap rounds are fitted together (chord iterations
    from the point fit): each round's log-strengths equal its own fit_totals, a round that
    takes a learner out (one that won every battle) and one far from the point fit included,
    and the bounds with them."""
    rng = np.random.default_rng(16)
    k, n = bt.CG_FROM + 10, 30
    errors = rng.normal(np.linspace(0, 3, k), 1.0, (n, k))
    ranks = np.argsort(np.argsort(errors, axis=1), axis=1) + 1.0
    wins_d = k - ranks                               # a complete table: wins are k − rank
    counts = rng.multinomial(n, np.full(n, 1 / n), size=4).astype(float)
    totals = np.stack([c @ wins_d for c in counts])
    errors[:, 0] = -10.0                              # round 2: learner 0 wins every battle
    totals[2] = counts[2] @ (k - np.argsort(np.argsort(errors, axis=1), axis=1) - 1.0)
    totals[3] = counts[3] @ (ranks - 1.0)             # round 3: the order turned round, far
    theta0, _ = bt.fit_totals(wins_d.sum(axis=0), float(n), 1.0)
    together, bound = bt.fit_totals_rounds(totals, counts.sum(axis=1), 1.0, theta0)
    for r in range(len(counts)):
        alone, alone_bound = bt.fit_totals(totals[r], counts[r].sum(), 1.0, theta0)
        assert np.array_equal(bound[r], alone_bound)
        assert np.allclose(together[r] - together[r].mean(), alone - alone.mean(),
                           atol=1e-9, rtol=0)
    assert bound[2].any() and not bound[[0, 1, 3]].any()


@pytest.mark.slow
@pytest.mark.simulation
def test_elo_intervals_and_the_tied_set_keep_their_level():
    """Null and non-null simulations: with 1,000 resamples the 95% intervals hold the true
    Bradley-Terry ratings, and the tied-with-#1 set the true best, at their level (within two
    Monte Carlo standard errors); TabArena's 100 resamples fall short (stated in the report)."""
    from rankwise.analysis.board_coverage import coverage

    for spacing in (0.0, 0.3):
        c = coverage(reps=100, draws=1000, spacing=spacing, seed=7)   # ~4 min each
        assert c["interval_coverage"] >= 0.95 - 2 * c["interval_se"], c
        assert c["tied_coverage"] >= 0.95 - 2 * max(c["tied_se"], 0.0154), c


#: bencheval as its users install it, in a virtual environment of its own (.ci/run makes
#: ``.venv-bencheval``; ``RANKWISE_BENCHEVAL_PYTHON`` names another one).
BENCHEVAL_PYTHON = Path(__import__("os").environ.get(
    "RANKWISE_BENCHEVAL_PYTHON",
    Path(__file__).resolve().parents[1] / ".venv-bencheval" / "bin" / "python"))


@pytest.mark.subprocess
def test_bencheval_run_now_agrees(tmp_path):
    """The stored reference again, computed now by bencheval in its own environment: the
    script that wrote it, run on TabArena's table, gives the same board."""
    import subprocess

    if not BENCHEVAL_PYTHON.exists():
        pytest.skip("bencheval is not installed in .venv-bencheval (python -m venv"
                    " .venv-bencheval && .venv-bencheval/bin/pip install bencheval==0.1.0"
                    " choix evalica); the stored values are checked instead")
    tool = Path(__file__).parents[1] / "tools" / "make_bencheval_references.py"
    out = tmp_path / "now.json"
    code = (f"import json, runpy; g = runpy.run_path({str(tool)!r});"
            f" json.dump(g['board'](), open({str(out)!r}, 'w'))")
    subprocess.run([str(BENCHEVAL_PYTHON), "-c", code], check=True, capture_output=True)
    now = json.loads(out.read_text())
    for name, row in now["leaderboard"].items():
        ref = REFERENCE["leaderboard"][name]
        for key, value in row.items():
            assert value == pytest.approx(ref[key], rel=1e-9, abs=1e-9), (name, key)


def test_strengths_equal_evalica_on_its_own_example():
    """evalica's Pair2Rank example (30 food comparisons, two ties): the Bradley-Terry
    strengths (a tie half a win each) equal evalica's, up to its scale."""
    data = REFERENCE["pair2rank"]
    names = sorted({x for row in data["battles"] for x in row[:2]})
    ix = {n: i for i, n in enumerate(names)}
    w = np.zeros((len(names), len(names)))
    for left, right, winner in data["battles"]:
        a, b = ix[left], ix[right]
        if winner == "tie":
            w[a, b] += 0.5
            w[b, a] += 0.5
        else:
            w[(a, b) if winner == "left" else (b, a)] += 1
    theta, bound = bt.fit(w, w + w.T, lightest=1.0)
    scores = np.log([data["evalica_scores"][n] for n in names])
    assert not bound.any()
    assert np.allclose(theta - theta.mean(), scores - scores.mean(), atol=1e-6)


def test_a_file_it_cannot_read_is_named_in_the_one_line_error(cli, tmp_path):
    """The board reads a file as a frame first: the reader's error named "DataFrame"."""
    path = tmp_path / "one.csv"
    path.write_text("a\nb\nc\n")
    ran = cli("leaderboard", path)
    assert ran.code == 2 and ran.err.startswith(f"rankwise: error: {path}: a wide table")
    assert "DataFrame" not in ran.err and len(ran.err.strip().splitlines()) == 1


def test_a_difference_below_the_rounding_ties_as_in_compare():
    """Issue 61: 1e-15 tied in compare (mean ranks 2, 2, 2) but split in the leaderboard."""
    import numpy as np
    import pandas as pd

    import rankwise

    x = np.random.default_rng(0).uniform(0.5, 0.9, (12, 3))
    x[:, 1] = x[:, 0] + 1e-15
    df = pd.DataFrame(x, columns=["a", "b", "c"], index=[f"d{i}" for i in range(12)])
    cmp = rankwise.compare(df)
    lb = rankwise.leaderboard(df, draws=20)
    board = lb.board
    got = dict(zip(board.learners, board.columns["rank"]))
    assert got["a"] == got["b"]
    mean_ranks = dict(zip(cmp.table.learners, cmp.mean_ranks))
    assert mean_ranks["a"] == mean_ranks["b"]
    for name in "abc":
        assert abs(got[name] - mean_ranks[name]) < 1e-12


def test_decimals_none_is_the_comparison_as_given_and_the_command_takes_it(cli, tmp_path):
    """--decimals none (decimals=None) ranks the values as given, bencheval's board; the
    default rounds as compare does; every format and the report folder say which."""
    import json as _json

    import pandas as pd

    import rankwise

    frame = pd.DataFrame({"a": [0.5, 0.7, 0.9, 0.6], "b": [0.5 + 1e-15, 0.7, 0.8, 0.6],
                          "c": [0.4, 0.6, 0.7, 0.5]}, index=["d1", "d2", "d3", "d4"])
    rounded = rankwise.leaderboard(frame, draws=10).board
    given = rankwise.leaderboard(frame, draws=10, decimals=None).board
    r = dict(zip(rounded.learners, rounded.columns["rank"]))
    g = dict(zip(given.learners, given.columns["rank"]))
    assert r["a"] + r["b"] == g["a"] + g["b"] and r["a"] != g["a"]
    path = tmp_path / "t.csv"
    frame.to_csv(path, index_label="dataset")
    ran = cli("leaderboard", str(path), "--draws", "10", "--decimals", "none", "-f", "json")
    assert ran.code == 0
    assert _json.loads(ran.out)["settings"]["decimals"] is None
    assert "compared as given" in cli("leaderboard", str(path), "--draws", "10",
                                      "--decimals", "none").out
    assert "rounded to 12 decimals" in cli("leaderboard", str(path), "--draws", "10").out
    bad = cli("leaderboard", str(path), "--decimals", "two")
    assert bad.code == 2 and len(bad.err.strip().splitlines()) == 1


@pytest.mark.figures
def test_the_report_folder_holds_every_format_the_csv_and_the_figures(cli, tmp_path):
    folder = tmp_path / "board"
    ran = cli("leaderboard", "--example", "garcia2008", "--draws", "10", "--report",
              str(folder))
    assert ran.code == 0
    names = {p.name for p in folder.iterdir()}
    assert {"report.txt", "report.md", "report.tex", "report.html", "report.json",
            "board.csv", "elo.svg", "elo.pdf", "elo.png"} <= names
    text = (folder / "report.txt").read_text()
    assert text.splitlines()[0] == ran.out.splitlines()[0]
    assert "<svg" in (folder / "report.html").read_text()
    clash = cli("leaderboard", "--example", "garcia2008", "--report", str(folder), "-o",
                str(folder / "report.txt"))
    assert clash.code == 2


def test_rounds_is_draws_with_a_warning_until_it_goes(cli):
    """One word per idea: the leaderboard's and the fronts' resamples are ``draws`` (as every
    other sampler's); ``rounds=`` and ``--rounds`` still work, and say so."""
    frame = _random_table(np.random.default_rng(2))
    with pytest.warns(FutureWarning, match="rounds= is draws="):
        old = leaderboard(frame, rounds=12)
    new = leaderboard(frame, draws=12)
    assert old.to_dict() == new.to_dict() and new.settings["bootstrap"]["draws"] == 12
    ran = cli("leaderboard", "--example", "garcia2008", "--rounds", "12", "-f", "json")
    assert ran.code == 0 and "--rounds is --draws" in ran.err
    assert json.loads(ran.out)["settings"]["bootstrap"]["draws"] == 12
    import rankwise

    tables = [rankwise.load_example("demo_results", criterion=c) for c in ("accuracy", "fit_time")]
    with pytest.warns(FutureWarning, match="rounds= is draws="):
        front = rankwise.compare_criteria(tables, ["accuracy", "fit_time"], rounds=20,
                                          permutations=10)
    assert front.settings["draws"] == 20


def _table_with_two_missing_results():
    """Six learners on ten data sets of two folds, m1 without a result on d3 and m4 on d5."""
    frame = _random_table(np.random.default_rng(21), k=6, n=10, folds=2)
    gone = ((frame.dataset == "d3") & (frame.method == "m1")) | \
        ((frame.dataset == "d5") & (frame.method == "m4"))
    return frame[~gone].reset_index(drop=True)


def test_missing_results_policy_of_the_board_given_and_inferred(tmp_path, cli):
    """``--missing``: keep (the default, given or not: the same board), or compare's policies
    that make sense for a board; Skillings-Mack's (compare's test) and the items' are refused
    on a table in one line."""
    frame = _table_with_two_missing_results()
    path = tmp_path / "holes.csv"
    frame.to_csv(path, index=False)
    inferred = cli("leaderboard", path, "--draws", "5", "-f", "json")
    given = cli("leaderboard", path, "--draws", "5", "-f", "json", "--missing", "keep")
    assert inferred.code == 0 and inferred == given
    kept = json.loads(inferred.out)
    assert kept["settings"]["missing"] == "keep" and len(kept["boards"][0]["rows"]) == 6
    ran = cli("leaderboard", path, "--draws", "5", "--missing", "drop-learners", "-f", "json")
    assert ran.code == 0 and json.loads(ran.out)["settings"]["missing"] == "drop-learners"
    assert len(json.loads(ran.out)["boards"][0]["rows"]) == 4
    for bad, said in (("refuse", "2 missing cell(s)"), ("skillings-mack", "must be one of keep"),
                      ("common", "must be one of keep"), ("impute:nobody", "names no learner")):
        out = cli("leaderboard", path, "--missing", bad)
        assert out.code == 2 and said in out.err and "Traceback" not in out.err, bad
        assert len(out.err.strip().splitlines()) == 1, out.err


def test_missing_results_policies_of_the_board_in_python():
    frame = _table_with_two_missing_results()
    board = leaderboard(frame, draws=5)
    assert not board.board.complete and len(board.board.learners) == 6
    assert leaderboard(frame, draws=5, missing="keep").to_dict() == board.to_dict()
    dropped = leaderboard(frame, draws=5, missing="drop-datasets")
    assert dropped.board.complete and dropped.board.datasets == 8
    assert any("dropped 2 data set(s): d3, d5" in n for n in dropped.notes)
    learners = leaderboard(frame, draws=5, missing="drop-learners")
    assert set(learners.board.learners) == {"m0", "m2", "m3", "m5"}
    worst = leaderboard(frame, draws=5, missing="worst")
    assert worst.board.complete and len(worst.board.learners) == 6
    assert any("filled with the worst score" in n for n in worst.notes)
    assert leaderboard(frame, draws=5, missing="impute:m0").board.complete
    # a ScoreTable keeps the policy it was read with
    table = rankwise.load_table(frame, missing="skillings-mack")
    assert len(leaderboard(table, draws=5).board.learners) == 6
    with pytest.raises(RankwiseError, match="a ScoreTable's missing cells"):
        leaderboard(table, draws=5, missing="drop-datasets")


def test_the_board_of_scored_items_takes_the_items_missing_policy(cli):
    common = cli("leaderboard", "--example", "evals", "--draws", "10", "--missing", "common")
    assert common.code == 0, common.err
    assert common == cli("leaderboard", "--example", "evals", "--draws", "10")
    wrong = cli("leaderboard", "--example", "evals", "--missing", "drop-datasets")
    assert wrong.code == 2 and "--missing for items must be refuse or common" in wrong.err


def test_missing_cells_are_not_said_kept_for_a_test_the_board_does_not_run():
    """The board keeps a missing result (pairs battle where both ran); its notes once said the
    cells were kept "for the Skillings-Mack test", which the board does not run."""
    notes = leaderboard(_table_with_two_missing_results(), draws=5).notes
    assert not any("Skillings-Mack" in n for n in notes)
    assert any("kept (each pair battles where both have a result)" in n for n in notes)


def test_a_group_that_won_every_battle_against_the_rest_is_bounded_as_a_group():
    """TabArena-style scores where {d, c} beat {b, a} on every data set but not each other:
    the maximum-likelihood gap is infinite. It once ran to Elo 4461 and -2461 with no word;
    now the group is fitted on its own and set where its expected score against the rest is
    its observed score less half a battle (brute force), its ratings marked lower bounds and
    said first in the verdict."""
    from scipy.special import expit

    from rankwise.stats import elo as bt

    frame = pd.DataFrame({"d": [0.9, 0.8, 0.95, 0.7], "c": [0.85, 0.9, 0.9, 0.75],
                          "b": [0.5, 0.4, 0.6, 0.3], "a": [0.4, 0.5, 0.5, 0.2]},
                         index=[f"t{i}" for i in range(4)])
    board = leaderboard(frame, draws=30).board
    assert np.all(np.abs(board.columns["elo"] - 1000) < 600)   # was 3461 off
    assert np.isfinite(board.columns["elo_high"]).all()
    assert list(board.bound) == [bt.GROUP, bt.GROUP, 0, 0]
    assert board.sentences[0].startswith("d, c won every battle against the learners below")
    theta = (board.columns["elo"] - 1000) * np.log(10) / 400
    top, rest = theta[:2], theta[2:]
    expected = 4 * expit(top[:, None] - rest[None, :]).sum()   # 4 data sets a pair
    assert expected == pytest.approx(16 - 0.5, abs=1e-6)      # 16 won, half of one drawn
    # the same group in a log of votes (the pair matrices' path), bounded the same way
    w = np.array([[0, 3, 5, 5], [2, 0, 5, 5], [0, 0, 0, 3], [0, 0, 4, 0]], float)
    theta, bound = bt.fit(w, w + w.T, 1.0)
    assert list(bound) == [bt.GROUP, bt.GROUP, 0, 0] and np.ptp(theta) < 8
    gap = theta[:2, None] - theta[None, 2:]
    assert (5 * expit(gap)).sum() == pytest.approx(20 - 0.5, abs=1e-6)   # 5 battles a pair
