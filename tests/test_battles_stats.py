"""The numerical core for vote logs (issue 65): cells, Bradley–Terry fits with three tie
conventions, the bootstrap over votes or prompts, style control, online Elo, win probabilities.

References: FastChat's ``compute_mle_elo`` and ``get_bootstrap_result`` (reimplemented here from
lm-sys/FastChat ``fastchat/serve/monitor/elo_analysis.py``), LMArena's style matrices
(``construct_style_matrices``, same file), evalica's ``bradley_terry`` and choix's
``opt_pairwise``/``ilsr_pairwise`` (installed), Davidson and Rao–Kupper by a brute-force
maximisation of their explicit likelihoods (scipy.optimize), and Chatbot Arena's votes of
2024-08-14 as leaderbot ships them.
"""

import importlib.metadata
import itertools
import json
import math
import warnings

import numpy as np
import pytest
from scipy import optimize, stats

from rankwise.errors import RankwiseError
from rankwise.stats import battles
from rankwise.stats.battle_styles import style_fit
from rankwise.stats.battles import bootstrap, cells, fit, online_elo, win_probability

LN10 = math.log(10.0)


def random_log(k, votes, seed, tie_share=0.2, spread=1.0):
    """Votes between random ordered pairs; outcome drawn from Bradley–Terry with a tie share."""
    rng = np.random.default_rng(seed)
    theta = rng.normal(0, spread, k)
    a = rng.integers(0, k, votes)
    b = (a + rng.integers(1, k, votes)) % k
    p = 1 / (1 + np.exp(theta[b] - theta[a]))
    u = rng.random(votes)
    outcome = np.where(u < tie_share, 2, np.where(rng.random(votes) < p, 0, 1))
    return a, b, outcome


# -- FastChat's compute_mle_elo (the pivot-table version) as published, on k × k tables --------

def fastchat_mle_elo(a_win, b_win, tie, scale=400, base=10, init=1000, tol=1e-12):
    """``compute_mle_elo``: ptbl_win = 2·A + 2·Bᵀ + (T + Tᵀ); for every ordered pair one row
    labelled 1 weighted ptbl_win[a, b] and one labelled 0 weighted ptbl_win[b, a]; sklearn's
    LogisticRegression(fit_intercept=False, penalty=None); 400·coef + 1000. Tables are full
    k × k arrays here (pandas' pivot with every model on both axes); ``tol`` is tightened from
    FastChat's 1e-6 so that the comparison tests our solver, not sklearn's stopping rule."""
    from sklearn.linear_model import LogisticRegression

    win = a_win * 2 + b_win.T * 2 + (tie + tie.T)
    p = win.shape[0]
    rows, labels, weights = [], [], []
    for m_a in range(p):
        for m_b in range(p):
            if m_a == m_b:
                continue
            x = np.zeros(p)
            x[m_a], x[m_b] = math.log(base), -math.log(base)
            rows += [x, x]
            labels += [1.0, 0.0]
            weights += [win[m_a, m_b], win[m_b, m_a]]
    with warnings.catch_warnings():
        # sklearn 1.8 deprecates penalty=None (for C=inf); the call stays as FastChat wrote it
        warnings.simplefilter("ignore", FutureWarning)
        lr = LogisticRegression(fit_intercept=False, penalty=None, tol=tol, max_iter=100_000)
        lr.fit(np.array(rows), np.array(labels), sample_weight=np.array(weights))
    return scale * lr.coef_[0] + init


def arena_counts():
    """Chatbot Arena 2024-08-14 as leaderbot ships it: pairs (i, j) with (wins of i, wins of
    j, ties, ties both bad)."""
    try:
        dist = importlib.metadata.distribution("leaderbot")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("leaderbot (the test extra) is not installed: it holds Chatbot Arena's"
                    " 2024-08-14 counts")
    path = dist.locate_file("leaderbot/data/chatbotarena_20240814.json")
    data = json.loads(path.read_text())
    return data["models"], np.array(data["X"]), np.array(data["Y"], dtype=float)


def test_half_on_chatbot_arena_equals_fastchat_compute_mle_elo():
    models, pairs, counts = arena_counts()
    k = len(models)
    i, j = pairs[:, 0], pairs[:, 1]
    ties = counts[:, 2] + counts[:, 3]                     # "tie" and "tie (bothbad)"
    c = cells(np.repeat(i, 3), np.repeat(j, 3), np.tile([0, 1, 2], i.size),
              np.stack([counts[:, 0], counts[:, 1], ties], axis=1).ravel(), k=k)
    assert c.n.sum() == counts.sum()
    ours = fit(c)
    a_win, b_win, tie = np.zeros((k, k)), np.zeros((k, k)), np.zeros((k, k))
    a_win[i, j], b_win[i, j], tie[i, j] = counts[:, 0], counts[:, 1], ties
    reference = fastchat_mle_elo(a_win, b_win, tie)
    assert k == 129 and (ours.bound == 0).all()
    assert np.max(np.abs(ours.elo - reference)) < 0.01
    top = models[int(np.argmax(ours.elo))]
    assert top.startswith("chatgpt-4o-latest") or top.startswith("gemini-1.5-pro-exp")


def fastchat_rows_mle(frame, k):
    """compute_mle_elo on a battles frame (pivot tables of its rows, as FastChat builds them)."""
    import pandas as pd

    def table(rows):
        return pd.pivot_table(rows, index="model_a", columns="model_b", aggfunc="size",
                              fill_value=0).reindex(index=range(k), columns=range(k),
                                                    fill_value=0).to_numpy(float)

    tie = table(frame[frame["winner"].isin(["tie", "tie (bothbad)"])])
    return fastchat_mle_elo(table(frame[frame["winner"] == "model_a"]),
                            table(frame[frame["winner"] == "model_b"]), tie, tol=1e-8)


@pytest.mark.slow
def test_bootstrap_quantiles_match_fastchat_row_resampling():
    """200 rounds each on k = 6, 3,000 votes: the 2.5 % and 97.5 % quantiles of every model
    agree within 4 standard errors of the difference of two independent quantile estimates,
    SE(q̂) = √(q(1 − q)/R) / f(x_q) with f the normal density of the draws' spread."""
    import pandas as pd

    k, rounds = 6, 200
    a, b, outcome = random_log(k, 3000, seed=3)
    frame = pd.DataFrame({"model_a": a, "model_b": b,
                          "winner": np.array(["model_a", "model_b", "tie"])[outcome]})
    rng = np.random.RandomState(42)
    theirs = np.array([fastchat_rows_mle(frame.sample(frac=1.0, replace=True, random_state=rng),
                                         k) for _ in range(rounds)])
    ours = bootstrap(cells(a, b, outcome), rounds=rounds, seed=5)
    sd = ours.std(axis=0)
    for q in (0.025, 0.975):
        se = math.sqrt(q * (1 - q) / rounds) / (stats.norm.pdf(stats.norm.ppf(q)) / sd)
        gap = np.abs(np.quantile(ours, q, axis=0) - np.quantile(theirs, q, axis=0))
        assert np.all(gap < 4 * math.sqrt(2) * se), (q, gap, se)


# -- ties as half against evalica and choix on evalica's own test data ---------------------

SIMPLE = ("0,1,tie 0,2,right 0,2,tie 0,4,tie 1,0,left 1,2,tie 1,2,tie 1,3,tie 2,4,tie 3,0,left"
          " 3,1,left 3,2,left 3,4,tie 3,4,tie 4,0,left 4,3,left")
FOOD = ("Pizza,Sushi,left Burger,Pasta,right Tacos,Pizza,left Sushi,Tacos,right Burger,Pizza,left"
        " Pasta,Sushi,right Tacos,Burger,left Pizza,Pasta,tie Sushi,Burger,right Pasta,Tacos,left"
        " Burger,Sushi,right Tacos,Pizza,left Sushi,Pasta,tie Burger,Tacos,left"
        " Pizza,Burger,right Pasta,Tacos,right Burger,Sushi,right Tacos,Pasta,left"
        " Pizza,Tacos,right Sushi,Burger,left Pasta,Pizza,right Burger,Sushi,right"
        " Tacos,Pasta,left Pizza,Sushi,left Sushi,Burger,right Pasta,Tacos,right"
        " Tacos,Pizza,left Burger,Pasta,right Sushi,Tacos,left Pizza,Burger,right")


def evalica_data(text):
    """evalica's simple.csv / food.csv (its test suite's data), as indices and outcomes."""
    rows = [row.split(",") for row in text.split()]
    names = sorted({r[0] for r in rows} | {r[1] for r in rows})
    a = np.array([names.index(r[0]) for r in rows])
    b = np.array([names.index(r[1]) for r in rows])
    outcome = np.array([{"left": 0, "right": 1, "tie": 2}[r[2]] for r in rows])
    return names, a, b, outcome


@pytest.mark.parametrize("data", [SIMPLE, FOOD], ids=["simple", "food"])
def test_half_equals_evalica_bradley_terry(data):
    evalica = pytest.importorskip("evalica", reason="evalica (the test extra) is not installed")
    names, a, b, outcome = evalica_data(data)
    ours = fit(cells(a, b, outcome))
    winners = [[evalica.Winner.X, evalica.Winner.Y, evalica.Winner.Draw][o] for o in outcome]
    result = evalica.bradley_terry([names[i] for i in a], [names[i] for i in b], winners,
                                   tolerance=1e-14, limit=100_000, solver="naive")
    theirs = np.log(result.scores.reindex(names).to_numpy())
    assert np.max(np.abs((ours.theta - ours.theta.mean()) - (theirs - theirs.mean()))) < 1e-6


@pytest.mark.parametrize("data", [SIMPLE, FOOD], ids=["simple", "food"])
def test_half_equals_choix_with_ties_as_one_win_each_way(data):
    choix = pytest.importorskip("choix")
    names, a, b, outcome = evalica_data(data)
    # FastChat's doubling: a win is two wins, a tie one win each way (choix takes no ties)
    duels = [(x, y) for x, y, o in zip(a, b, outcome)
             for (x, y) in ([(x, y)] * 2 if o == 0 else [(y, x)] * 2 if o == 1
                            else [(x, y), (y, x)])]
    ours = fit(cells(a, b, outcome)).theta
    for method in (choix.opt_pairwise, choix.ilsr_pairwise):
        kwargs = {"tol": 1e-14} if method is choix.ilsr_pairwise else {}
        theirs = method(len(names), duels, alpha=0.0, **kwargs)
        assert np.max(np.abs((ours - ours.mean()) - (theirs - theirs.mean()))) < 1e-5


# -- Davidson and Rao–Kupper against their explicit likelihoods ---------------------------

def brute(model, a, b, outcome, k):
    """Maximise the textbook likelihood (π = e^θ, θ_0 = 0) with BFGS; Davidson ν and
    Rao–Kupper η = 1 + e^s by another parameterisation than the solver's."""
    def negative(x):
        pi = np.exp(np.r_[0.0, x[:k - 1]])
        pa, pb = pi[a], pi[b]
        if model == "davidson":
            nu = np.exp(x[-1])
            den = pa + pb + nu * np.sqrt(pa * pb)
            prob = np.select([outcome == 0, outcome == 1], [pa / den, pb / den],
                             nu * np.sqrt(pa * pb) / den)
        else:
            eta = 1 + np.exp(x[-1])
            win_a, win_b = pa / (pa + eta * pb), pb / (pb + eta * pa)
            prob = np.select([outcome == 0, outcome == 1], [win_a, win_b],
                             (eta ** 2 - 1) * pa * pb / ((pa + eta * pb) * (pb + eta * pa)))
        return -np.sum(np.log(prob))

    best = optimize.minimize(negative, np.zeros(k), method="BFGS",
                             options={"gtol": 1e-10, "maxiter": 10_000})
    theta = np.r_[0.0, best.x[:k - 1]]
    tie = np.exp(best.x[-1]) if model == "davidson" else 1 + np.exp(best.x[-1])
    return theta - theta.mean(), tie, -best.fun


@pytest.mark.parametrize("model", ["davidson", "rao-kupper"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_tie_models_equal_brute_force_likelihood(model, seed):
    k = 3 + seed
    a, b, outcome = random_log(k, 150, seed=seed, tie_share=0.25)
    ours = fit(cells(a, b, outcome), ties=model)
    theta, tie, loglik = brute(model, a, b, outcome, k)
    assert (ours.bound == 0).all()
    assert np.max(np.abs(ours.theta - theta)) < 1e-5
    assert abs(ours.tie - tie) < 1e-5 * tie
    assert ours.loglik == pytest.approx(loglik, abs=1e-8)
    # the solver's optimum is at least as high as the brute force's
    assert ours.loglik >= loglik - 1e-9


def test_half_loglik_and_elo_scale():
    a, b, outcome = random_log(5, 400, seed=9)
    r = fit(cells(a, b, outcome), anchor=2)
    assert r.elo[2] == pytest.approx(1000.0)
    d = r.elo[:, None] - r.elo[None, :]
    assert np.allclose(d, 400 * (r.theta[:, None] - r.theta[None, :]) / LN10)
    y = np.array([1.0, 0.0, 0.5])[outcome]
    u = r.theta[a] - r.theta[b]
    direct = np.sum(-y * np.logaddexp(0, -u) - (1 - y) * np.logaddexp(0, u))
    assert r.loglik == pytest.approx(direct, rel=1e-12)
    # the order of a vote's two models does not matter
    flipped = fit(cells(b, a, np.array([1, 0, 2])[outcome]), anchor=2)
    assert np.allclose(flipped.elo, r.elo, atol=1e-8)


# -- extremes ------------------------------------------------------------------------------

@pytest.mark.parametrize("ties", battles.TIES)
def test_a_model_that_wins_everything_gets_a_bound(ties):
    a, b, outcome = random_log(4, 300, seed=4, tie_share=0.2)
    # model 4 wins its 20 votes, model 5 loses its 20
    extra_a = np.r_[np.full(20, 4), np.full(20, 5)]
    extra_b = np.r_[np.arange(20) % 4, np.arange(20) % 4]
    extra_o = np.r_[np.zeros(20, int), np.ones(20, int)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = fit(cells(np.r_[a, extra_a], np.r_[b, extra_b], np.r_[outcome, extra_o]),
                ties=ties)
    assert r.bound.tolist() == [0, 0, 0, 0, 1, -1]
    assert np.all(np.isfinite(r.elo)) and r.elo[4] == r.elo.max() and r.elo[5] == r.elo.min()
    assert "bound" in r.note


@pytest.mark.parametrize("ties", battles.TIES)
def test_two_models_and_one_vote_per_pair(ties):
    # k = 2: the maximum is closed form for ties as half, log((w + t/2)/(l + t/2)): model 1
    # has 2 wins and a tie (2.5), model 0 one win and the tie (1.5)
    r = fit(cells([0, 0, 1, 0], [1, 1, 0, 1], [0, 2, 0, 1]), ties=ties)
    if ties == "half":
        assert r.theta[1] - r.theta[0] == pytest.approx(math.log(2.5 / 1.5), abs=1e-9)
    assert np.all(np.isfinite(r.elo))
    # one vote per pair of 5 models in a cycle plus ties
    a, b = np.array([0, 1, 2, 3, 4, 0, 1]), np.array([1, 2, 3, 4, 0, 2, 3])
    r = fit(cells(a, b, [0, 0, 0, 0, 0, 2, 2]), ties=ties)
    assert np.all(np.isfinite(r.elo)) and (r.bound == 0).all()


def test_ten_million_votes_on_one_pair_and_extreme_weights():
    big = fit((np.array([0, 0]), np.array([1, 1]), np.array([0, 1]),
               np.array([6e6, 4e6])))
    assert big.theta[0] - big.theta[1] == pytest.approx(math.log(1.5), rel=1e-10)
    a, b, outcome = random_log(4, 200, seed=11)
    w = np.random.default_rng(1).uniform(0.5, 2.0, a.size)
    base = fit(cells(a, b, outcome, w)).elo
    for scale in (1e-12, 1e12):
        assert np.allclose(fit(cells(a, b, outcome, w * scale)).elo, base, atol=1e-6)
    # weights spanning 1e-12..1e12 in one log: finite, no warning
    spread = 10.0 ** np.linspace(-12, 12, a.size)
    for ties in battles.TIES:
        r = fit(cells(a, b, outcome, spread), ties=ties)
        assert np.all(np.isfinite(r.elo))
    # a weight multiplies: a vote of weight 3 is three votes
    three = fit(cells([0, 1, 2, 0], [1, 2, 0, 2], [0, 0, 1, 2], [3, 1, 1, 1])).elo
    copies = fit(cells([0, 0, 0, 1, 2, 0], [1, 1, 1, 2, 0, 2], [0, 0, 0, 0, 1, 2])).elo
    assert np.allclose(three, copies, atol=1e-8)


@pytest.mark.parametrize("ties", ["davidson", "rao-kupper"])
def test_tie_models_without_ties_fall_back_to_half_with_a_note(ties):
    a, b, outcome = random_log(4, 200, seed=2, tie_share=0.0)
    r = fit(cells(a, b, outcome), ties=ties)
    assert np.isnan(r.tie) and "no tie" in r.note
    assert np.allclose(r.elo, fit(cells(a, b, outcome)).elo, atol=1e-8)


# -- the bootstrap ---------------------------------------------------------------------------

def test_bootstrap_is_deterministic_and_batches_do_not_matter():
    a, b, outcome = random_log(5, 800, seed=1)
    c = cells(a, b, outcome)
    first = bootstrap(c, rounds=30, seed=7)
    assert np.array_equal(first, bootstrap(c, rounds=30, seed=7))
    assert np.max(np.abs(first - bootstrap(c, rounds=30, seed=7, batch=1))) < 1e-9
    assert not np.array_equal(first, bootstrap(c, rounds=30, seed=8))
    prompts = np.arange(a.size) // 3
    one = bootstrap(c, rounds=20, seed=3, over="prompts", prompt=prompts, ties="davidson")
    two = bootstrap(c, rounds=20, seed=3, over="prompts", prompt=prompts, ties="davidson",
                    batch=7)
    assert np.max(np.abs(one - two)) < 1e-9


def test_chord_rounds_equal_each_round_fitted_alone(monkeypatch):
    """The batched chord iterations give the rounds' own Newton fits (elo.fit): both stop when
    no log-strength moves by 1e-10 (1.7e-8 Elo points), so they agree to 1e-7 points."""
    a, b, outcome = random_log(12, 3000, seed=13)
    c = cells(a, b, outcome)
    together = bootstrap(c, rounds=40, seed=4)
    monkeypatch.setattr(battles, "CHORD_ITERATIONS", 0)      # every round to its own Newton
    alone = bootstrap(c, rounds=40, seed=4)
    assert np.max(np.abs(together - alone)) < 1e-7


@pytest.mark.parametrize("ties", battles.TIES)
def test_bootstrap_rounds_with_an_undefeated_model_stay_finite(ties):
    # model 3 fights 4 votes and wins 3: some rounds it wins every vote it draws
    a, b, outcome = random_log(3, 300, seed=14, tie_share=0.2)
    a = np.r_[a, [3, 3, 3, 3]]
    b = np.r_[b, [0, 1, 2, 0]]
    outcome = np.r_[outcome, [0, 0, 0, 1]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        draws = bootstrap(cells(a, b, outcome), rounds=40, seed=1, ties=ties)
    assert np.all(np.isfinite(draws))


def test_weighted_bootstrap_keeps_each_votes_weight():
    a, b, outcome = random_log(4, 600, seed=15)
    w = np.where(np.arange(a.size) % 2 == 0, 1.0, 3.0)
    c = cells(a, b, outcome, w)
    draws = bootstrap(c, rounds=30, seed=2)
    assert np.array_equal(draws, bootstrap(c, rounds=30, seed=2))
    # the draws centre on the weighted point fit
    assert np.allclose(np.median(draws, axis=0), fit(c).elo, atol=4 * draws.std(axis=0).max())
    assert np.all(np.isfinite(bootstrap(c, rounds=5, seed=2, ties="rao-kupper")))


def test_bootstrap_over_battles_is_a_row_resample_in_law():
    """The multinomial on cells has the law of resampling rows: the bootstrap standard
    deviations of both agree within their Monte Carlo error (chi-square interval on 400
    rounds, ±25 %), and both centre on the point fit."""
    a, b, outcome = random_log(4, 1500, seed=12)
    c = cells(a, b, outcome)
    ours = bootstrap(c, rounds=400, seed=1)
    rng = np.random.default_rng(2)
    rows = []
    for _ in range(400):
        take = rng.integers(0, a.size, a.size)
        rows.append(fit(cells(a[take], b[take], outcome[take], k=4)).elo)
    rows = np.array(rows)
    ratio = ours.std(axis=0) / rows.std(axis=0)
    assert np.all((ratio > 0.8) & (ratio < 1.25)), ratio
    assert np.allclose(ours.mean(axis=0), fit(c).elo, atol=4 * ours.std(axis=0).max() / 20)


def test_bootstrap_over_prompts_widens_for_repeated_votes():
    """Every vote cast twice under one prompt: resampling votes treats the copies as
    independent, resampling prompts does not; the spread grows by about √2."""
    a, b, outcome = random_log(4, 1000, seed=5)
    a2, b2, o2 = np.repeat(a, 2), np.repeat(b, 2), np.repeat(outcome, 2)
    c = cells(a2, b2, o2)
    votes = bootstrap(c, rounds=300, seed=1)
    prompts = bootstrap(c, rounds=300, seed=1, over="prompts",
                        prompt=np.repeat(np.arange(a.size), 2))
    ratio = prompts.std(axis=0) / votes.std(axis=0)
    assert np.all((ratio > 1.15) & (ratio < 1.7)), ratio


def test_bootstrap_anchor_moves_rounds_by_the_point_offset():
    a, b, outcome = random_log(4, 600, seed=6)
    c = cells(a, b, outcome)
    plain, anchored = bootstrap(c, rounds=10, seed=1), bootstrap(c, rounds=10, seed=1, anchor=1)
    offset = fit(c, anchor=1).elo - fit(c).elo
    assert np.allclose(anchored - plain, offset[0])


# -- style control ---------------------------------------------------------------------------

def lmarena_style_fit(a, b, outcome, fa, fb, k):
    """LMArena's construct_style_matrices + fit_mle_elo: every vote twice, a tie labelled once
    each way, features (f_a − f_b)/(f_a + f_b + 1) standardised; logistic regression without
    intercept, here without penalty (LMArena keeps sklearn's default C = 1)."""
    from sklearn.linear_model import LogisticRegression

    n = a.size * 2
    a2, b2, o2 = np.r_[a, a], np.r_[b, b], np.r_[outcome, outcome]
    x = np.zeros((n, k + fa.shape[1]))
    x[np.arange(n), a2] = LN10
    x[np.arange(n), b2] = -LN10
    diff = (np.r_[fa, fa] - np.r_[fb, fb]) / (np.r_[fa, fa] + np.r_[fb, fb] + 1)
    x[:, k:] = (diff - diff.mean(axis=0)) / diff.std(axis=0)
    y = (o2 == 0).astype(float)
    tie = o2 == 2
    tie[n // 2:] = False
    y[tie] = 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)     # penalty=None, as published
        lr = LogisticRegression(fit_intercept=False, penalty=None, tol=1e-12, max_iter=100_000)
        lr.fit(x, y)
    return 400 * lr.coef_[0][:k] + 1000, lr.coef_[0][k:]


def test_style_fit_equals_lmarena_construction():
    k, n = 5, 3000
    a, b, outcome = random_log(k, n, seed=21, tie_share=0.15)
    rng = np.random.default_rng(4)
    fa = rng.integers(20, 900, (n, 2)).astype(float)
    fb = rng.integers(20, 900, (n, 2)).astype(float)
    ours = style_fit((a, b, outcome), fa, fb)
    elo, beta = lmarena_style_fit(a, b, outcome, fa, fb, k)
    assert np.max(np.abs(ours.elo - (elo - elo.mean() + 1000))) < 0.01
    # LMArena's β multiplies log(10)·θ-scale logits: its coefficients are in natural log-odds
    assert np.allclose(ours.beta, beta, atol=1e-6)
    assert np.allclose(ours.elo_plain, fit(cells(a, b, outcome)).elo)
    assert np.array_equal(ours.rank_change, ours.rank_plain - ours.rank)


def test_style_fit_accepts_cells_and_reports_bad_features():
    a, b, outcome = random_log(3, 300, seed=2)
    f = np.random.default_rng(0).integers(1, 50, (300, 1)).astype(float)
    g = np.random.default_rng(1).integers(1, 50, (300, 1)).astype(float)
    one = style_fit(cells(a, b, outcome), f, g)
    two = style_fit((a, b, outcome), f, g)
    assert np.allclose(one.elo, two.elo)
    with pytest.raises(RankwiseError, match="same difference"):
        style_fit((a, b, outcome), np.ones((300, 1)), np.ones((300, 1)))
    with pytest.raises(RankwiseError, match="one row per vote"):
        style_fit((a, b, outcome), f[:10], g[:10])


# -- online Elo and win probabilities -------------------------------------------------------

def test_online_elo_is_fastchat_compute_elo_and_order_dependent():
    a, b, outcome = random_log(4, 500, seed=8)
    rating = {m: 1000.0 for m in range(4)}
    for x, y, o in zip(a, b, outcome):          # FastChat's loop as published
        ea = 1 / (1 + 10 ** ((rating[y] - rating[x]) / 400))
        eb = 1 / (1 + 10 ** ((rating[x] - rating[y]) / 400))
        sa = {0: 1.0, 1: 0.0, 2: 0.5}[int(o)]
        rating[x] += 4 * (sa - ea)
        rating[y] += 4 * (1 - sa - eb)
    ours = online_elo(a, b, outcome)
    assert np.allclose(ours, [rating[m] for m in range(4)], atol=1e-9)
    assert not np.allclose(online_elo(a[::-1], b[::-1], outcome[::-1]), ours, atol=1e-3)


def test_win_probability_is_bradley_terry_and_its_interval_holds_the_point():
    a, b, outcome = random_log(4, 800, seed=3)
    c = cells(a, b, outcome)
    r = fit(c)
    w = win_probability(r, bootstrap(c, rounds=50, seed=2))
    assert np.allclose(w.p, 1 / (1 + np.exp(r.theta[None, :] - r.theta[:, None])))
    assert np.allclose(w.p + w.p.T, 1.0)
    off = ~np.eye(4, dtype=bool)
    assert np.all(w.lower[off] <= w.p[off] + 0.02) and np.all(w.upper[off] >= w.p[off] - 0.02)


# -- bad input -------------------------------------------------------------------------------

@pytest.mark.parametrize("call, message", [
    (lambda: cells([0, 1], [0, 2], [0, 0]), "battling itself"),
    (lambda: cells([0, 1], [1, 2], [0, 0], [1.0, -1.0]), "weight"),
    (lambda: cells([0, 1], [1, 2], [0, 0], [1.0, np.nan]), "weight"),
    (lambda: cells([0, 1], [1, 2], [0, 0], [np.inf, 1.0]), "weight"),
    (lambda: cells([], [], []), "empty"),
    (lambda: cells([0], [1], [0], k=1), "whole number"),
    (lambda: cells([0], [1], [3]), "outcome"),
    (lambda: cells([0], [1], [0], k=2) and fit(cells([0], [1], [0]), ties="draws"),
     "unknown ties"),
    (lambda: bootstrap(cells([0], [1], [0]), rounds=2, over="people"), "unknown bootstrap"),
    (lambda: bootstrap(cells([0], [1], [0]), rounds=2, over="prompts"), "prompt"),
    (lambda: cells([0.5], [1], [0]), "whole numbers"),
    (lambda: fit(cells([0], [1], [0]), start=[0.0]), "start"),
    (lambda: win_probability([1000.0]), "at least two"),
])
def test_bad_input_is_one_line(call, message):
    with pytest.raises(RankwiseError, match=message) as err:
        call()
    assert "\n" not in str(err.value)


def test_cells_are_unique_and_invert_to_the_votes():
    a, b, outcome = random_log(6, 2000, seed=0)
    c = cells(a, b, outcome)
    assert np.array_equal(c.a[c.inverse], a) and np.array_equal(c.b[c.inverse], b)
    assert np.array_equal(c.outcome[c.inverse], outcome)
    assert c.n.sum() == a.size and len(set(zip(c.a, c.b, c.outcome))) == c.n.size
    brute = {key: sum(1 for v in zip(a, b, outcome) if v == key)
             for key in itertools.islice(zip(c.a.tolist(), c.b.tolist(),
                                             c.outcome.tolist()), 10)}
    assert [brute[key] for key in brute] == c.n[:10].tolist()


def test_a_tie_model_with_a_model_that_only_tied_or_lost_falls_back_to_half_and_says_so():
    """y never won a decided vote (5 ties, 25 losses): Davidson's and Rao-Kupper's likelihoods
    have no finite maximum (y's strength goes to 0 as the tie parameter grows; it once printed
    nu = 6.7e7 and Elo -3515). The fit is then ties as half, bounds and all, and said."""
    a = np.array([0] * 20 + [1] * 10)
    b = np.array([1] * 20 + [2] * 10)
    outcome = np.array([0] * 20 + [2] * 5 + [1] * 5)
    c = battles.cells(a, b, outcome, k=3)
    half = battles.fit(c, ties="half")
    for model in ("davidson", "rao-kupper"):
        r = battles.fit(c, ties=model)
        assert np.isnan(r.tie) and "no finite maximum" in r.note
        assert np.allclose(r.elo, half.elo) and list(r.bound) == list(half.bound)


def test_a_tie_model_with_a_group_that_beat_the_rest_is_fitted_as_half_with_its_bound():
    """{0, 1} beat {2, 3} in every decided vote, with ties inside each group: Davidson's fit
    ran apart (Elo 7487 against -5478); it is now the half fit, the group bounded."""
    w = np.array([[0, 3, 5, 5], [2, 0, 5, 5], [0, 0, 0, 3], [0, 0, 4, 0]])
    i, j = np.nonzero(w)
    a = np.r_[np.repeat(i, w[i, j]), 0, 2]
    b = np.r_[np.repeat(j, w[i, j]), 1, 3]
    outcome = np.r_[np.zeros(int(w.sum()), int), 2, 2]
    c = battles.cells(a, b, outcome, k=4)
    half = battles.fit(c, ties="half")
    for model in ("davidson", "rao-kupper"):
        r = battles.fit(c, ties=model)
        assert np.allclose(r.elo, half.elo) and (r.bound[:2] > 0).all()
        assert np.ptp(r.elo) < 1000 and "no finite maximum" in r.note
