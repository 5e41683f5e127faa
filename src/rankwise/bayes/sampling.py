"""Running a NumPyro model reproducibly, and judging its chains."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from ..errors import RankwiseError
from ..stats.results import jsonable

#: A chain set whose worst split R-hat exceeds this has not converged (Vehtari et al. 2021).
RHAT_MAX = 1.01
#: ... nor one whose smallest bulk effective sample size is below this.
ESS_MIN = 400
INSTALL = 'pip install "rankwise[bayes]"'


def require():
    """``(numpyro, jax)``, or a one-line error that names the install command."""
    try:
        import jax
        import numpyro
    except ImportError:
        raise RankwiseError(f"the Bayesian models of the whole table need NumPyro and ArviZ;"
                            f" install them with: {INSTALL}") from None
    return numpyro, jax


@dataclass(frozen=True)
class Diagnostics:
    """How the posterior was sampled and whether its chains agree."""

    chains: int
    draws: int
    warmup: int
    seed: int
    rhat_max: float
    ess_bulk_min: float
    divergences: int

    @property
    def converged(self) -> bool:
        return self.rhat_max <= RHAT_MAX and self.ess_bulk_min >= ESS_MIN

    def sentence(self) -> str:
        head = (f"{self.chains} chains x {self.draws:,} draws after {self.warmup:,} warm-up"
                f" (seed {self.seed}); largest split R-hat {self.rhat_max:.3f}, smallest bulk"
                f" ESS {self.ess_bulk_min:,.0f}")
        if self.converged:
            return head + "."
        return (head + f": NOT CONVERGED (needs R-hat <= {RHAT_MAX} and ESS >= {ESS_MIN});"
                " run more draws before relying on it.")

    def to_dict(self) -> dict:
        return jsonable({"chains": self.chains, "draws": self.draws, "warmup": self.warmup,
                         "seed": self.seed, "rhat_max": self.rhat_max,
                         "ess_bulk_min": self.ess_bulk_min, "divergences": self.divergences,
                         "converged": self.converged, "rhat_limit": RHAT_MAX,
                         "ess_limit": ESS_MIN})


def diagnose(draws: np.ndarray) -> tuple:
    """``(largest split R-hat, smallest bulk ESS)`` of ``draws`` (chains × draws × parameters),
    by ArviZ."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ArviZ announces its refactor on import
        import arviz as az
    rhat, ess = [], []
    for p in range(draws.shape[2]):
        column = draws[:, :, p]
        if np.ptp(column) == 0:  # a constant parameter carries no information to mix
            continue
        rhat.append(float(az.rhat(column, method="rank")))
        ess.append(float(az.ess(column, method="bulk")))
    return (max(rhat) if rhat else 1.0), (min(ess) if ess else float(draws.shape[0]
                                                                         * draws.shape[1]))


#: Compiled samplers by (model, chains, draws, warm-up, data shapes); a handful per process.
_SAMPLERS: dict = {}
#: Chains one after the other: the same draws on any machine. ("vectorized" compiles once per
#: run instead of once per chain; measured 8 s against 13 s a pair of the hierarchical test.)
CHAIN_METHOD = "sequential"


def run_nuts(model, data: dict, *, chains: int, draws: int, warmup: int, seed: int,
             site: str) -> tuple:
    """Samples of ``site`` (chains × draws × ...; a tuple of names gives a dict) by NUTS, chains
    one after the other (the same draws on any machine), and their diagnostics over every
    site returned."""
    numpyro, jax = require()
    from numpyro.infer import MCMC, NUTS

    for name, value in (("chains", chains), ("draws", draws), ("warmup", warmup)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise RankwiseError(f"{name} must be a whole number of at least 1; got {value!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise RankwiseError(f"the seed must be a whole number of at least 0; got {seed!r}")
    # One sampler per model and data shapes, reused by the pairs of a table (the data are
    # traced arguments, jit_model_args). JAX still compiles each sequential chain's loop
    # (about 2.7 s a chain on the development VM): most of the hierarchical test's time.
    shapes = tuple(sorted((k, np.shape(v), np.asarray(v).dtype.str) for k, v in data.items()))
    key = (model, chains, draws, warmup, shapes)
    mcmc = _SAMPLERS.get(key)
    if mcmc is None:
        mcmc = MCMC(NUTS(model), num_warmup=warmup, num_samples=draws, num_chains=chains,
                    chain_method=CHAIN_METHOD, progress_bar=False, jit_model_args=True)
        _SAMPLERS[key] = mcmc
    mcmc.run(jax.random.PRNGKey(seed), **{k: np.asarray(v) for k, v in data.items()},
             extra_fields=("diverging",))
    everything = mcmc.get_samples(group_by_chain=True)
    names = (site,) if isinstance(site, str) else tuple(site)
    picked = {name: np.asarray(everything[name], dtype=float) for name in names}
    divergences = int(np.asarray(mcmc.get_extra_fields()["diverging"]).sum())
    flat = np.concatenate([v.reshape(v.shape[0], v.shape[1], -1) for v in picked.values()],
                          axis=2)
    rhat, ess = diagnose(flat)
    diagnostics = Diagnostics(chains, draws, warmup, seed, rhat, ess, divergences)
    return (picked[site] if isinstance(site, str) else picked), diagnostics
