"""The hierarchical Bayesian correlated t-test over data sets (Corani et al., Mach. Learn. 2017).

For two learners and q data sets, each with n fold-level differences d_i (runs × folds, b − a):

    d_i ~ MVN(δ_i·1, σ_i²·M),  M = (1 − ρ)I + ρ11ᵀ,  ρ = 1/folds   (overlapping training sets)
    δ_i ~ Student-t(ν, δ₀, σ₀)                                       (data sets share a population)
    δ₀ ~ U(−max|d|, max|d|),  σ₀ ~ U(0, 1000·s_among),  σ_i ~ U(0, 1000·s_within)
    ν − 1 ~ Gamma(α, β),  α ~ U(1, 2),  β ~ U(0.01, 0.1)

with the differences divided first by the mean of the data sets' standard deviations, as the
authors' released code (baycomp) does; these are the paper's priors. For a new data set the
posterior predictive of δ is Student-t(ν, δ₀, σ₀): each posterior draw gives P(δ < −r),
P(|δ| ≤ r), P(δ > r) for the ROPE r. rankwise reports both readings: the mean of those
probabilities over the draws, and (as rankwise's other Bayesian tests and baycomp do) the share
of draws in which each is the largest. The shrunk per-data-set means are the posterior means
of δ_i, in the scores' units, with each data set's own P(δ_i < −r), P(|δ_i| ≤ r), P(δ_i > r);
the population's mean difference δ₀ comes with its posterior mean and 95% credible interval.
A data set whose differences do not vary (σ_i would be 0) gets the
symmetric pattern ±r·j/n in place of its constant differences, deterministically (baycomp
draws it at random).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

from ..defaults import DEFAULT_SEED as SEED, MODEL_DRAWS
from ..errors import RankwiseError
from ..stats.results import jsonable
from .sampling import Diagnostics, run_nuts, share_largest

DEFAULT_CHAINS = 4
DEFAULT_DRAWS = MODEL_DRAWS
DEFAULT_WARMUP = 1000
DEFAULT_SEED = SEED  # one seed policy: rankwise.defaults


def _model(x, rho, lows_highs):
    import jax.numpy as jnp
    import numpyro
    import numpyro.distributions as dist

    q, n = x.shape
    maxdiff, std0_hi, std_hi = lows_highs[0], lows_highs[1], lows_highs[2]
    delta0 = numpyro.sample("delta0", dist.Uniform(-maxdiff, maxdiff))
    std0 = numpyro.sample("std0", dist.Uniform(0.0, std0_hi))
    alpha = numpyro.sample("alpha", dist.Uniform(1.0, 2.0))
    beta = numpyro.sample("beta", dist.Uniform(0.01, 0.1))
    nu = numpyro.deterministic("nu", 1.0 + numpyro.sample("nu_minus_one",
                                                          dist.Gamma(alpha, beta)))
    with numpyro.plate("datasets", q):
        t = numpyro.sample("t", dist.StudentT(nu, 0.0, 1.0))
        sigma = numpyro.sample("sigma", dist.Uniform(0.0, std_hi))
    delta = numpyro.deterministic("delta", delta0 + std0 * t)  # non-centred Student-t
    diff = x - delta[:, None]
    # M⁻¹ and det M in closed form for the equicorrelated M
    quad = (jnp.sum(diff ** 2, axis=1)
            - rho / (1 + (n - 1) * rho) * jnp.sum(diff, axis=1) ** 2) / (1 - rho)
    log_det = 2 * n * jnp.log(sigma) + jnp.log(1 + (n - 1) * rho) + (n - 1) * jnp.log(1 - rho)
    numpyro.factor("folds", jnp.sum(-0.5 * log_det - 0.5 * n * jnp.log(2 * jnp.pi)
                                    - 0.5 * quad / sigma ** 2))


@dataclass(frozen=True)
class Hierarchical:
    """The posterior of one pair: what to expect on a new data set, and each data set's δ.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.bayes import hierarchical_test
    >>> rng = np.random.default_rng(0)
    >>> a = 0.80 + rng.normal(0, 0.02, (6, 10))   # 6 data sets x 10 folds
    >>> b = a - 0.02 + rng.normal(0, 0.01, (6, 10))
    >>> res = hierarchical_test(a, b, folds=10, rope=0.01, chains=2, draws=500, warmup=300)
    >>> res.p_left > res.p_rope + res.p_right   # delta = b - a: a is better
    True
    """

    a: str
    b: str
    rope: float
    p_left: float  # mean posterior predictive P(δ < −r): a better (δ = b − a)
    p_rope: float
    p_right: float
    share_left: float  # share of draws in which P(left) is the largest of the three
    share_rope: float
    share_right: float
    shrunk_means: np.ndarray  # posterior mean δ_i per data set, scores' units
    dataset_probs: np.ndarray  # q × 3: P(δ_i < −r), P(|δ_i| ≤ r), P(δ_i > r)
    datasets: tuple
    diagnostics: Diagnostics
    population_mean: float = float("nan")  # posterior mean of δ₀, scores' units
    population_interval: tuple = (float("nan"), float("nan"))  # its 95% credible interval

    def to_dict(self) -> dict:
        return jsonable({
            "model": "hierarchical", "a": self.a, "b": self.b, "rope": self.rope,
            "difference": "b - a", "p_left": self.p_left, "p_rope": self.p_rope,
            "p_right": self.p_right, "share_left": self.share_left,
            "share_rope": self.share_rope, "share_right": self.share_right,
            "shrunk_means": dict(zip(self.datasets, self.shrunk_means)),
            "dataset_probs": {d: list(p) for d, p in zip(self.datasets, self.dataset_probs)},
            "population_mean": self.population_mean,
            "population_interval": list(self.population_interval),
            "diagnostics": self.diagnostics.to_dict()})


def hierarchical_test(a, b, *, folds: int, rope: float = 0.0, names=("a", "b"),
                      datasets=None, chains: int = DEFAULT_CHAINS, draws: int = DEFAULT_DRAWS,
                      warmup: int = DEFAULT_WARMUP, seed: int = DEFAULT_SEED) -> Hierarchical:
    """The hierarchical correlated t-test of learner ``b`` against ``a`` (see the module
    docstring).

    Parameters
    ----------
    a, b : array_like, shape (q, n)
        Fold-level scores, one row per data set, the n = runs × folds results in the same
        order for both learners.
    folds : int
        Folds per cross-validation run (sets ρ = 1/folds).
    rope : float, default 0.0
        Half-width of the region of practical equivalence, in the scores' units.
    names : (str, str)
        The two learners' names.
    datasets : sequence of str, optional
        The data sets' names, for the shrunk means.
    chains, draws, warmup, seed
        Sampling, as in :func:`rankwise.bayes.plackett_luce`.

    Returns
    -------
    Hierarchical
        ``p_left``, ``p_rope``, ``p_right`` (posterior predictive on a new data set, δ = b − a),
        ``share_left``/``share_rope``/``share_right``, ``shrunk_means`` and ``dataset_probs``
        per data set, ``population_mean`` and ``population_interval`` (δ₀, 95%), and
        ``diagnostics``.

    References
    ----------
    Corani, G., Benavoli, A., Demšar, J., Mangili, F. and Zaffalon, M. (2017). Statistical
    comparison of classifiers through Bayesian hierarchical modelling. Machine Learning 106,
    1817–1837.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.bayes import hierarchical_test
    >>> rng = np.random.default_rng(1)
    >>> a = 0.80 + rng.normal(0, 0.02, (6, 10))
    >>> b = a + rng.normal(0, 0.002, (6, 10))   # the same learner, a little noise
    >>> res = hierarchical_test(a, b, folds=10, rope=0.01, chains=2, draws=500, warmup=300)
    >>> res.p_rope > max(res.p_left, res.p_right)
    True
    """
    a = np.atleast_2d(np.asarray(a, float))
    b = np.atleast_2d(np.asarray(b, float))
    if a.shape != b.shape or a.shape[1] < 2:
        raise RankwiseError("the hierarchical test needs the same fold-level results (at least"
                            " 2 per data set) for both learners")
    if isinstance(folds, bool) or not isinstance(folds, int) or folds < 2:
        raise RankwiseError(f"folds must be a whole number of at least 2; got {folds!r}")
    if rope < 0:
        raise RankwiseError(f"the ROPE must be 0 or more; got {rope!r}")
    diff = b - a
    q, n = diff.shape
    scale = float(np.mean(np.std(diff, axis=1)))
    if scale == 0:
        raise RankwiseError("the two learners' fold-level results never differ")
    x = diff / scale
    r = rope / scale
    pattern = r * np.arange(1, n // 2 + 1) / n
    for row in x:
        if np.var(row) == 0:  # a data set without spread: a symmetric stand-in (see above)
            row[:len(pattern)] = pattern
            row[len(pattern):2 * len(pattern)] = -pattern
            if n % 2:
                row[-1] = 0.0
    within = float(np.mean(np.std(x, axis=1)))
    among = float(np.std(np.mean(x, axis=1))) if q > 1 else within
    maxdiff = float(np.max(np.abs(x)))
    samples, diagnostics = run_nuts(
        _model, {"x": x, "rho": 1.0 / folds,
                 "lows_highs": np.array([maxdiff, 1000.0 * max(among, 1e-12),
                                         1000.0 * within])},
        chains=chains, draws=draws, warmup=warmup, seed=seed,
        site=("delta0", "std0", "nu", "delta"))
    mu, std0, nu = (samples[s].reshape(-1) for s in ("delta0", "std0", "nu"))
    delta = samples["delta"].reshape(-1, q)
    left = stats.t.cdf(-r, nu, mu, std0)
    right = stats.t.sf(r, nu, mu, std0)
    middle = 1.0 - left - right
    trio = np.column_stack([left, middle, right])
    share = share_largest(trio)
    return Hierarchical(names[0], names[1], rope, float(left.mean()), float(middle.mean()),
                        float(right.mean()), float(share[0]), float(share[1]), float(share[2]),
                        delta.mean(axis=0) * scale,
                        np.column_stack([(delta < -r).mean(axis=0),
                                         (np.abs(delta) <= r).mean(axis=0),
                                         (delta > r).mean(axis=0)]),
                        tuple(datasets) if datasets is not None else tuple(range(q)),
                        diagnostics, float(mu.mean() * scale),
                        tuple(float(v) * scale for v in np.quantile(mu, [0.025, 0.975])))

