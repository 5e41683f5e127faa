"""How often a leaderboard's Elo intervals hold the true ratings, and its tied-with-#1 set the
true best: a simulation of tables whose truth is known."""

from __future__ import annotations

import math

import numpy as np

from ..defaults import DEFAULT_SEED
from ..stats import elo as bt
from ..stats.resample import sorted_choice_counts
from .board_common import quantiles, tied_with_first
from .leaderboard import average_ranks


def coverage(*, k: int = 5, n: int = 30, reps: int = 200, draws: int = bt.ROUNDS,
             confidence: float = 0.95, spacing: float = 0.0,
             seed: int = DEFAULT_SEED) -> dict:
    """How often the Elo intervals hold the true ratings, and the tied-with-#1 set the true
    best, over ``reps`` tables of ``n`` data sets × ``k`` learners whose scores are
    μ_j + N(0, 1) with μ_j = ``spacing`` · j (0: the null, every learner alike).

    The true rating is the Bradley–Terry rating of the population win probabilities
    P(i beats j) = Φ((μ_i − μ_j)/√2), mean 1000 (every learner 1000 under the null). Under the
    null every learner is tied for place 1, so the tied set must hold all of them; otherwise it
    must hold the learner with the largest μ. Returns the share of intervals that hold their
    learner's true rating (all learners pooled) and the share of tables whose tied set held
    the true best, with their Monte Carlo standard errors.

    References
    ----------
    Mogstad, M., Romano, J. P., Shaikh, A. M. & Wilhelm, D. (2023). Inference for ranks with
    applications to mobility across neighbourhoods and academic achievement across
    countries. Review of Economic Studies.

    Examples
    --------
    >>> from rankwise.analysis.board_coverage import coverage
    >>> c = coverage(k=3, n=10, reps=4, draws=20, seed=1)
    >>> c["reps"], 0.0 <= c["interval_coverage"] <= 1.0, 0.0 <= c["tied_coverage"] <= 1.0
    (4, True, True)
    """
    from scipy import stats as st

    mu = spacing * np.arange(k, dtype=float)
    p = st.norm.cdf((mu[:, None] - mu[None, :]) / math.sqrt(2.0))
    np.fill_diagonal(p, 0.0)
    truth = bt.to_elo(bt.fit(p, p + p.T, lightest=1.0)[0])
    rng = np.random.default_rng(seed)
    held = tied_ok = 0
    order = np.arange(n)
    names = [f"L{j + 1}" for j in range(k)]
    for rep in range(reps):
        x = mu + rng.standard_normal((n, k))
        wins = (k - average_ranks(-x)[0])          # higher is better: −x as the error
        theta, _ = bt.fit_totals(wins.sum(axis=0), float(n), 1.0)
        point = bt.to_elo(theta)
        counts = sorted_choice_counts(n, order, draws, seed + 1 + rep)
        elo_draws = np.array([bt.to_elo(bt.fit_totals(c @ wins, c.sum(), 1.0, theta)[0])
                              for c in counts])
        lo, hi = quantiles(elo_draws, confidence)
        lo, hi = np.minimum(lo, point), np.maximum(hi, point)
        held += int(np.sum((lo <= truth + 1e-9) & (truth <= hi + 1e-9)))
        tied = set(tied_with_first(point, elo_draws, names, confidence, seed + rep))
        best = names if spacing == 0 else [names[int(np.argmax(mu))]]
        tied_ok += int(set(best) <= tied)
    share, first = held / (reps * k), tied_ok / reps
    return {"k": k, "n": n, "reps": reps, "draws": draws, "confidence": confidence,
            "spacing": spacing, "interval_coverage": share,
            "interval_se": math.sqrt(share * (1 - share) / (reps * k)),
            "tied_coverage": first, "tied_se": math.sqrt(max(first * (1 - first), 1e-12) / reps)}
