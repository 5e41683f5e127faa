"""Running a NumPyro model reproducibly, and judging its chains."""

from __future__ import annotations

import os
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from .. import _validate as check
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

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # ArviZ announces its refactor on import
            import arviz  # noqa: F401  (the diagnostics need it)
    except ImportError:
        raise RankwiseError(f"the hierarchical, Plackett-Luce and Bradley-Terry models need"
                            f" NumPyro, JAX and ArviZ; install them with: {INSTALL}") from None
    return numpyro, jax


@dataclass(frozen=True)
class Diagnostics:
    """How the posterior was sampled and whether its chains agree.

    Examples
    --------
    >>> import rankwise
    >>> from rankwise.bayes import plackett_luce
    >>> t = rankwise.load_example("garcia2008")
    >>> model = plackett_luce(t, chains=2, draws=500, warmup=300)
    >>> d = model.diagnostics
    >>> d.chains, d.draws, d.divergences, bool(d.rhat_max < 1.05)
    (2, 500, 0, True)
    """

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


def share_largest(draws: np.ndarray) -> np.ndarray:
    """The share of draws (rows) in which each column is the largest: P(best) of a learner,
    or how often each of left / equivalent / right is the most probable."""
    draws = np.asarray(draws)
    return np.bincount(np.argmax(draws, axis=1), minlength=draws.shape[1]) / len(draws)


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


#: Compiled chains by (model, draws, warm-up, data shapes); a handful per process.
_SAMPLERS: dict = {}


def _compiled(model, draws: int, warmup: int, shapes: tuple):
    """``(kernel, run)``: a NUTS kernel and one compiled function that runs a whole chain
    (warm-up, then draws, then the model's deterministic sites) for data of the given shapes.

    NumPyro's ``MCMC`` driver builds a fresh loop for every chain and every call, and JAX
    compiles each one (about 3 s a chain here: most of the hierarchical test's time when it
    ran through ``MCMC``). Driving the kernel directly compiles once per model and shape, and
    every chain of every pair after the first reuses it (about 0.6 s a chain)."""
    key = (model, draws, warmup, shapes)
    if key not in _SAMPLERS:
        _, jax = require()
        from jax import lax
        from numpyro.infer import NUTS

        kernel = NUTS(model)

        def run(state, data):
            def adapt(s, _):
                return kernel.sample(s, (), data), None

            def draw(s, _):
                s = kernel.sample(s, (), data)
                return s, (s.z, s.diverging)

            state, _ = lax.scan(adapt, state, None, length=warmup)
            _, (z, diverging) = lax.scan(draw, state, None, length=draws)
            return jax.vmap(kernel.postprocess_fn((), data))(z), diverging

        _SAMPLERS[key] = (kernel, jax.jit(run))
    return _SAMPLERS[key]


def run_nuts(model, data: dict, *, chains: int, draws: int, warmup: int, seed: int,
             site: str) -> tuple:
    """Samples of ``site`` (chains × draws × ...; a tuple of names gives a dict) by NUTS, chains
    one after the other, each from its own key split from ``seed`` (the same draws on any
    machine), and their diagnostics over every site returned."""
    _, jax = require()
    for name, value in (("chains", chains), ("draws", draws), ("warmup", warmup)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise RankwiseError(f"{name} must be a whole number of at least 1; got {value!r}")
    check.seed(seed)
    data = {k: np.asarray(v) for k, v in data.items()}
    shapes = tuple(sorted((k, v.shape, v.dtype.str) for k, v in data.items()))
    kernel, run = _compiled(model, draws, warmup, shapes)
    names = (site,) if isinstance(site, str) else tuple(site)
    picked = {name: [] for name in names}
    divergences = 0
    # Each chain starts from its own key; the starts are made first (``init`` sets state on
    # the kernel), then the chains run on the machine's cores (XLA releases the GIL), and
    # they are read back in key order: the same draws however many cores there are.
    starts = [kernel.init(key, warmup, None, (), data)
              for key in jax.random.split(jax.random.PRNGKey(seed), chains)]
    # Compiled here, once: chains started on several threads before the first compile has
    # finished would each compile the same chain (about 8 s of a core each for the
    # hierarchical model); the executable is the one the jitted call would have built.
    run = run.lower(starts[0], data).compile()
    with ThreadPoolExecutor(max_workers=min(chains, os.cpu_count() or 1)) as pool:
        finished = list(pool.map(lambda state: run(state, data), starts))
    for values, diverging in finished:
        for name in names:
            picked[name].append(np.asarray(values[name], dtype=float))
        divergences += int(np.asarray(diverging).sum())
    picked = {name: np.stack(v) for name, v in picked.items()}
    flat = np.concatenate([v.reshape(v.shape[0], v.shape[1], -1) for v in picked.values()],
                          axis=2)
    rhat, ess = diagnose(flat)
    diagnostics = Diagnostics(chains, draws, warmup, seed, rhat, ess, divergences)
    return (picked[site] if isinstance(site, str) else picked), diagnostics
