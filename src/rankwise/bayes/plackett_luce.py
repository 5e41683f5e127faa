"""The Bayesian Plackett-Luce model of the rankings (Calvo, Ceberio & Lozano, GECCO 2018).

Each data set ranks the k learners. Under Plackett-Luce with weights w on the simplex, a ranking
is built from the top: the learner placed next is drawn from those not yet placed with
probability proportional to its weight, so

    P(ranking of data set i) = Π_j  w_j / Σ_{l not placed before j} w_l.

The prior is Dirichlet(1, ..., 1) on w, as Calvo et al. use. Ties within a data set (after
rounding) are handled as Breslow's approximation handles them in survival models: tied learners
are placed together, each with the denominator of the set they were drawn from. A table without
ties gets the exact Plackett-Luce likelihood.

What the posterior gives, per learner: the expected weight E[w_j], which is the posterior
probability that j is placed first on a new data set (Calvo et al.'s "probability of winning");
P(w_j is the largest), the probability that j is the best learner; the expected rank of w_j
among the weights with its credible interval; and, per pair, E[w_a / (w_a + w_b)], the
probability that a is ranked above b on a new data set.
"""

from __future__ import annotations

from .._validate import score_input
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ..defaults import DEFAULT_DECIMALS, MODEL_DRAWS
from ..defaults import DEFAULT_SEED as SEED
from ..errors import RankwiseError
from ..stats._docs import shared_docs
from ..stats.ranking import midranks, round_scores
from ..stats.results import jsonable
from .sampling import Diagnostics, run_nuts, share_largest

#: Default sampling: enough for stable probabilities at k = 10, N = 30 in a few seconds.
DEFAULT_CHAINS = 4
DEFAULT_DRAWS = MODEL_DRAWS
DEFAULT_WARMUP = 1000
DEFAULT_SEED = SEED  # one seed policy: rankwise.defaults


@dataclass(frozen=True)
class PlackettLuce:
    """The posterior of the Plackett-Luce weights and what follows from it.

    Examples
    --------
    >>> import rankwise
    >>> from rankwise.bayes import plackett_luce
    >>> t = rankwise.load_example("demsar2006_table6")
    >>> model = plackett_luce(t, chains=2, draws=500, warmup=300)
    >>> model.weights.shape, bool(model.diagnostics.rhat_max < 1.05)
    ((1000, 4), True)
    """

    learners: tuple
    weights: np.ndarray  # draws × k (chains stacked)
    expected_weight: np.ndarray
    p_best: np.ndarray
    expected_rank: np.ndarray
    rank_interval: np.ndarray  # k × 2
    p_above: np.ndarray  # k × k: E[w_a / (w_a + w_b)]
    credible: float
    diagnostics: Diagnostics
    ties: int
    MODEL: ClassVar[str] = "plackett-luce"
    #: The interface every whole-table model shares (rankwise.bayes): its title, what its
    #: ``strengths`` are, and whether its pairs have a region of practical equivalence.
    TITLE: ClassVar[str] = "Plackett-Luce"
    STRENGTH: ClassVar[str] = "weight"
    STRENGTH_MEANS: ClassVar[str] = "the probability of ranking first on a new data set"
    HAS_ROPE: ClassVar[bool] = False

    @property
    def strengths(self) -> np.ndarray:
        """The posterior draws of what ranks the learners: the weights."""
        return self.weights

    def summary(self) -> list:
        """One dict per learner, by expected weight, best first."""
        order = np.argsort(-self.expected_weight, kind="stable")
        return [{"learner": self.learners[j], "expected_weight": float(self.expected_weight[j]),
                 "p_best": float(self.p_best[j]), "expected_rank": float(self.expected_rank[j]),
                 "rank_interval": [float(v) for v in self.rank_interval[j]]} for j in order]

    def to_dict(self) -> dict:
        return jsonable({"model": "plackett-luce", "prior": "Dirichlet(1, ..., 1)",
                         "ties": "Breslow", "tied_groups": self.ties,
                         "credible": self.credible, "learners": self.summary(),
                         "p_above": self.p_above, "diagnostics": self.diagnostics.to_dict()})


def unplaced(ranks: np.ndarray) -> np.ndarray:
    """``mask[i, j, l]``: learner l is not placed before learner j in data set i (mid-ranks,
    1 = best), so it is in j's denominator; tied learners share one denominator (Breslow)."""
    return (ranks[:, None, :] >= ranks[:, :, None]).astype(float)


def _model(mask):
    import jax.numpy as jnp
    import numpyro
    import numpyro.distributions as dist

    w = numpyro.sample("w", dist.Dirichlet(jnp.ones(mask.shape[1])))
    # mask[i, j, l]: learner l is not yet placed when j is drawn in data set i
    denominators = jnp.einsum("ijl,l->ij", mask, w)
    numpyro.factor("rankings", jnp.sum(jnp.log(w)[None, :] - jnp.log(denominators)))


@score_input
@shared_docs
def plackett_luce(x, learners, *, higher_is_better: bool | None = None,
                  decimals: int | None = DEFAULT_DECIMALS,
                  chains: int = DEFAULT_CHAINS, draws: int = DEFAULT_DRAWS,
                  warmup: int = DEFAULT_WARMUP, seed: int = DEFAULT_SEED,
                  credible: float = 0.95) -> PlackettLuce:
    """Posterior of the Plackett-Luce model of the n × k table ``x`` (see the module docstring).

    Parameters
    ----------
    {{x_learners}}
    higher_is_better : bool, default True
        Direction of the scores.
    decimals : int or None, default 12
        Scores are rounded to this many decimals before they are ranked.
    chains, draws, warmup : int
        NUTS chains (run one after the other), draws kept per chain, warm-up per chain.
    seed : int
        Seed of the sampler; the same seed gives the same posterior draws.
    credible : float, default 0.95
        Level of the rank intervals.

    Returns
    -------
    PlackettLuce
        ``expected_weight``, ``p_best``, ``expected_rank``, ``rank_interval``, ``p_above``
        (k × k), ``weights`` (the draws) and ``diagnostics``.

    References
    ----------
    Calvo, B., Ceberio, J. and Lozano, J. A. (2018). Bayesian inference for algorithm ranking
    analysis. GECCO '18 Companion, 324–325. Plackett, R. L. (1975). The analysis of
    permutations. J. R. Stat. Soc. C 24, 193–202.

    Examples
    --------
    >>> import rankwise
    >>> from rankwise.bayes import plackett_luce
    >>> t = rankwise.load_example("demsar2006_table6")
    >>> model = plackett_luce(t, chains=2, draws=500, warmup=300)
    >>> p = model.p_best   # about [0.0, 0.49, 0.0, 0.51]: a sampler's digits vary by CPU
    >>> bool(p[0] < 0.05 and p[2] < 0.05 and 0.3 < p[1] < 0.7 and 0.3 < p[3] < 0.7)
    True
    """
    x = round_scores(np.asarray(x, dtype=float), decimals)
    if x.ndim != 2 or x.shape[1] < 2 or x.shape[0] < 1:
        raise RankwiseError("the Plackett-Luce model needs a table of at least 2 learners")
    if np.isnan(x).any():
        raise RankwiseError("the Plackett-Luce model needs a complete table")
    if not 0 < credible < 1:
        raise RankwiseError(f"credible must be between 0 and 1; got {credible!r}")
    n, k = x.shape
    r = midranks(x, descending=higher_is_better)
    mask = unplaced(r)
    ties = int(sum(len(row) - len(np.unique(row)) for row in r))
    samples, diagnostics = run_nuts(_model, {"mask": mask}, chains=chains,
                                    draws=draws, warmup=warmup, seed=seed, site="w")
    w = samples.reshape(-1, k)
    best = share_largest(w)
    ranks = midranks(w, descending=True)
    lo, hi = (1 - credible) / 2, 1 - (1 - credible) / 2
    interval = np.column_stack([np.quantile(ranks, lo, axis=0, method="inverted_cdf"),
                                np.quantile(ranks, hi, axis=0, method="inverted_cdf")])
    above = (w[:, :, None] / (w[:, :, None] + w[:, None, :])).mean(axis=0)
    np.fill_diagonal(above, np.nan)
    return PlackettLuce(tuple(learners), w, w.mean(axis=0), best, ranks.mean(axis=0), interval,
                        above, credible, diagnostics, ties)
