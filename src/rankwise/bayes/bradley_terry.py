"""The Bayesian Bradley-Terry model of wins over data sets (Wainer, JMLR 24, 2023).

For every pair of learners the data sets are counted as wins, ties and losses. With fold-level
results, a data set is a tie when the mean of the per-fold differences lies within the *local
ROPE*, ``local_rope`` (0.4) times their standard deviation (the paired local ROPE); with one
value per data set, only equal values tie. Ties are then spread as Wainer's package spreads
them: ⌈t/2⌉ added to the wins of each side.

The model (Wainer's, as his package's simplified Stan program states it):

    σ ~ LogNormal(0, 0.5),   β_j ~ Normal(0, σ),   wins_ab ~ Binomial(n_ab, logistic(β_a − β_b))

and the summary of every pair, larger β first, is the posterior of p = logistic(β_a − β_b), the
probability that a beats b on a new data set: its mean and median, the 89 % highest-density
interval and its width (``delta``), ``above_50`` = P(p > 0.5) and ``in_rope`` = P(0.45 ≤ p ≤
0.55). rankwise adds the three-way reading of the same ROPE: P(a better) = P(p > 0.55),
P(equivalent) = ``in_rope``, P(b better) = P(p < 0.45). A pair's numbers depend on the other
learners only through σ, so they are nearly stable under changes of the pool.
"""

from __future__ import annotations

from .._validate import score_input
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ..defaults import DEFAULT_DECIMALS, MODEL_DRAWS
from ..defaults import DEFAULT_SEED as SEED
from ..errors import RankwiseError
from ..stats.ranking import round_scores
from ..stats.results import jsonable
from ..stats.summary import win_tie_loss_matrix
from .sampling import Diagnostics, run_nuts, share_largest

LOCAL_ROPE = 0.4
PWIN_ROPE = (0.45, 0.55)
HDI_MASS = 0.89
DEFAULT_CHAINS = 4
DEFAULT_DRAWS = MODEL_DRAWS
DEFAULT_WARMUP = 1000
DEFAULT_SEED = SEED  # one seed policy: rankwise.defaults


def win_table(values, *, folds=None, higher_is_better: bool = True,
              local_rope: float = LOCAL_ROPE, decimals: int | None = DEFAULT_DECIMALS) -> dict:
    """Wins, ties and losses of every pair (a < b in column order) over the data sets.

    ``values``: n × k, one value per data set (ties: equal values); or ``folds``: a list of
    (folds × k) arrays, one per data set (paired local ROPE, see the module docstring).
    """
    if folds is None:
        x = np.asarray(values, float)
        a, b = np.triu_indices(x.shape[1], 1)
        wtl = win_tie_loss_matrix(x, higher_is_better, decimals)[a, b]
        wins, ties, losses = wtl[:, 0], wtl[:, 1], wtl[:, 2]
    else:
        k = folds[0].shape[1]
        a, b = np.triu_indices(k, 1)
        wins = np.zeros(len(a), int)
        losses = np.zeros(len(a), int)
        ties = np.zeros(len(a), int)
        sign = 1.0 if higher_is_better else -1.0
        for block in folds:
            block = round_scores(np.asarray(block, float), decimals)
            d = round_scores(sign * (block[:, a] - block[:, b]), decimals)
            m = d.mean(axis=0)
            s = d.std(axis=0, ddof=1) if len(d) > 1 else np.zeros(len(a))
            rope = local_rope * np.nan_to_num(s)
            wins += m > rope
            losses += m < -rope
            ties += np.abs(m) <= rope
    return {"a": a, "b": b, "wins": np.asarray(wins), "ties": np.asarray(ties),
            "losses": np.asarray(losses)}


def spread_ties(table: dict) -> tuple:
    """``(wins_a, wins_b)`` with ⌈t/2⌉ of each pair's ties added to both (Wainer's rule)."""
    half = np.ceil(table["ties"] / 2).astype(int)
    return table["wins"] + half, table["losses"] + half


def _model(a, b, wins, n, learners):
    import jax.numpy as jnp
    import numpyro
    import numpyro.distributions as dist

    sigma = numpyro.sample("sigma", dist.LogNormal(0.0, 0.5))
    z = numpyro.sample("z", dist.Normal(0.0, 1.0).expand([learners.shape[0]]))
    beta = numpyro.deterministic("beta", sigma * z)  # β ~ Normal(0, σ), non-centred
    numpyro.sample("wins", dist.Binomial(total_count=n, logits=beta[a] - beta[b]), obs=wins)
    return jnp.zeros(())


def hdi(draws: np.ndarray, mass: float = HDI_MASS) -> tuple:
    """The shortest interval holding ``mass`` of the draws."""
    x = np.sort(np.asarray(draws, float))
    width = max(1, int(np.floor(mass * len(x))))
    spans = x[width:] - x[:len(x) - width]
    i = int(np.argmin(spans))
    return float(x[i]), float(x[i + width])


@dataclass(frozen=True)
class BradleyTerry:
    """The posterior of Wainer's model and the summary of every pair.

    Examples
    --------
    >>> import rankwise
    >>> from rankwise.bayes import bradley_terry
    >>> t = rankwise.load_example("demsar2006_table6")
    >>> model = bradley_terry(t, chains=2, draws=500, warmup=300)
    >>> type(model).__name__, len(model.pairs), model.beta.shape
    ('BradleyTerry', 6, (1000, 4))
    """

    learners: tuple
    beta: np.ndarray  # draws × k
    table: dict  # the win table before the ties were spread
    pairs: list  # one dict per pair, larger mean β first
    diagnostics: Diagnostics
    local_rope: float | None
    p_best: np.ndarray  # per learner: the share of draws in which its β is the largest
    MODEL: ClassVar[str] = "bradley-terry"
    #: The interface every whole-table model shares (see PlackettLuce).
    TITLE: ClassVar[str] = "Bradley-Terry"
    STRENGTH: ClassVar[str] = "ability"
    STRENGTH_MEANS: ClassVar[str] = "beta, on the log-odds scale"
    HAS_ROPE: ClassVar[bool] = True

    @property
    def strengths(self) -> np.ndarray:
        """The posterior draws of what ranks the learners: the abilities β."""
        return self.beta

    def to_dict(self) -> dict:
        t = self.table
        return jsonable({
            "model": "bradley-terry", "prior": "sigma ~ LogNormal(0, 0.5), beta ~ Normal(0, sigma)",
            "ties": "spread (ceil(t/2) to each side)", "local_rope": self.local_rope,
            "pwin_rope": list(PWIN_ROPE), "hdi": HDI_MASS,
            "win_table": [{"a": self.learners[i], "b": self.learners[j], "wins": int(w),
                           "ties": int(tt), "losses": int(l)}
                          for i, j, w, tt, l in zip(t["a"], t["b"], t["wins"], t["ties"],
                                                    t["losses"])],
            "pairs": self.pairs, "diagnostics": self.diagnostics.to_dict()})


@score_input
def bradley_terry(x=None, learners=None, *, folds=None, higher_is_better: bool | None = None,
                  local_rope: float = LOCAL_ROPE, decimals: int | None = DEFAULT_DECIMALS,
                  chains: int = DEFAULT_CHAINS, draws: int = DEFAULT_DRAWS,
                  warmup: int = DEFAULT_WARMUP, seed: int = DEFAULT_SEED) -> BradleyTerry:
    """Wainer's Bayesian Bradley-Terry model (see the module docstring).

    Parameters
    ----------
    x : array_like, shape (n, k), optional
        One value per data set and learner; or give ``folds``.
    learners : sequence of str
        The learners' names.
    folds : list of arrays (folds × k), optional
        Fold-level results per data set, for the paired local ROPE.
    higher_is_better : bool, default True
        Direction of the scores.
    local_rope : float, default 0.4
        Multiple of the per-fold differences' standard deviation within which a data set is a
        tie (fold-level input only).
    decimals : int or None, default 12
        Scores and differences are rounded to this many decimals first.
    chains, draws, warmup, seed
        Sampling, as in :func:`rankwise.bayes.plackett_luce`.

    Returns
    -------
    BradleyTerry
        ``pairs`` (mean, median, hdi_low, hdi_high, delta, above_50, in_rope, p_a_better,
        p_equivalent, p_b_better per pair, larger β first), ``beta`` draws, the ``table`` of
        wins and ``diagnostics``.

    References
    ----------
    Wainer, J. (2023). A Bayesian Bradley-Terry model to compare multiple ML algorithms on
    multiple data sets. JMLR 24(341), 1–34.

    Examples
    --------
    >>> import rankwise
    >>> from rankwise.bayes import bradley_terry
    >>> t = rankwise.load_example("demsar2006_table6")
    >>> model = bradley_terry(t, chains=2, draws=500, warmup=300)
    >>> model.learners
    ('C4.5', 'C4.5+m', 'C4.5+cf', 'C4.5+m+cf')
    """
    if (x is None) == (folds is None):
        raise RankwiseError("give either a table of values or the fold-level results (folds=)")
    table = win_table(x, folds=folds, higher_is_better=higher_is_better, local_rope=local_rope,
                      decimals=decimals)
    k = int(max(table["a"].max(), table["b"].max())) + 1
    learners = tuple(learners) if learners is not None else tuple(f"L{j}" for j in range(k))
    if len(learners) != k:
        raise RankwiseError(f"{len(learners)} names for {k} learners")
    wins_a, wins_b = spread_ties(table)
    samples, diagnostics = run_nuts(
        _model, {"a": table["a"], "b": table["b"], "wins": wins_a, "n": wins_a + wins_b,
                 "learners": np.zeros(k)}, chains=chains, draws=draws, warmup=warmup, seed=seed, site="beta")
    beta = samples.reshape(-1, k)
    order = np.argsort(-beta.mean(axis=0), kind="stable")
    pos = {int(j): i for i, j in enumerate(order)}
    pairs = []
    for i, j in sorted(zip(table["a"].tolist(), table["b"].tolist()),
                       key=lambda p: (min(pos[p[0]], pos[p[1]]), max(pos[p[0]], pos[p[1]]))):
        hi, lo = (i, j) if pos[i] < pos[j] else (j, i)
        p = 1.0 / (1.0 + np.exp(-(beta[:, hi] - beta[:, lo])))
        low, high = hdi(p)
        pairs.append({"larger": learners[hi], "smaller": learners[lo],
                      "mean": float(p.mean()), "median": float(np.median(p)),
                      "hdi_low": low, "hdi_high": high, "delta": high - low,
                      "above_50": float((p > 0.5).mean()),
                      "in_rope": float(((p >= PWIN_ROPE[0]) & (p <= PWIN_ROPE[1])).mean()),
                      "p_a_better": float((p > PWIN_ROPE[1]).mean()),
                      "p_equivalent": float(((p >= PWIN_ROPE[0]) & (p <= PWIN_ROPE[1])).mean()),
                      "p_b_better": float((p < PWIN_ROPE[0]).mean())})
    return BradleyTerry(learners, beta, table, pairs, diagnostics,
                        local_rope if folds is not None else None, share_largest(beta))
