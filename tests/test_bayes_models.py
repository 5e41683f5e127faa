"""The Bayesian models of the whole table (rankwise.bayes): Plackett-Luce so far."""

import builtins
import math

import numpy as np
import pytest

from rankwise import RankwiseError, load_example

pytest.importorskip("numpyro", reason="the bayes extra: pip install 'rankwise[bayes]'")

from rankwise.bayes import plackett_luce  # noqa: E402
from rankwise.bayes.plackett_luce import unplaced  # noqa: E402
from rankwise.stats.ranking import midranks  # noqa: E402

FAST = dict(chains=2, draws=400, warmup=300)


def simulate(weights, n, rng):
    """Rankings drawn from Plackett-Luce (Gumbel trick), as scores: higher = placed earlier."""
    return np.log(weights)[None, :] + rng.gumbel(size=(n, len(weights)))


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
    assert pl.diagnostics.chains == 2 and pl.diagnostics.draws == 400


def test_summaries_and_seeded_draws():
    t = load_example("garcia2008")
    pl = plackett_luce(t.values, t.learners, **FAST)
    again = plackett_luce(t.values, t.learners, **FAST)
    assert np.array_equal(pl.weights, again.weights)
    assert pl.p_best.sum() == pytest.approx(1.0)
    assert pl.expected_weight.sum() == pytest.approx(1.0)
    assert pl.summary()[0]["learner"] == "C4.5" and pl.summary()[-1]["learner"] == "Kernel"
    above = pl.p_above
    off = ~np.eye(5, dtype=bool)
    assert np.allclose((above + above.T)[off], 1.0)
    assert pl.ties > 0 and pl.to_dict()["ties"] == "Breslow"


def test_too_few_draws_are_reported_as_not_converged():
    pl = plackett_luce(load_example("garcia2010").values, list("ABCD"), chains=2, draws=30,
                       warmup=30)
    assert not pl.diagnostics.converged
    assert "NOT CONVERGED" in pl.diagnostics.sentence()
    assert pl.to_dict()["diagnostics"]["converged"] is False


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
