"""Bayesian comparison of two learners with a region of practical equivalence (ROPE).

Across data sets: the Bayesian sign test and the Bayesian signed-rank test (Benavoli, Mangili,
Corani, Zaffalon & Ruggeri 2014; Benavoli, Corani, Demšar & Zaffalon 2017), a Dirichlet-process
posterior sampled by a seeded Monte Carlo. On one data set: the Bayesian correlated t-test
(Corani & Benavoli 2015), in closed form, from the fold-level results of cross-validation.

Orientation: ``p_a`` is the posterior probability that ``a`` is *practically better* (better by
more than the ROPE in the criterion's direction), ``p_b`` that ``b`` is, ``p_rope`` that they are
practically equivalent. Formulas and cross-checks: ``docs/reference/bayesian.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy import stats

from ..defaults import BAYESIAN_SAMPLES, BAYESIAN_THRESHOLD
from ..defaults import DEFAULT_SEED as SEED
from .. import _validate as check
from ..errors import RankwiseError
from ..names import BAYESIAN_TESTS  # noqa: F401  (re-exported)
from .ranking import DEFAULT_DECIMALS, round_scores
from .results import jsonable
from ._docs import shared_docs
#: Posterior samples by default (as baycomp).
DEFAULT_SAMPLES = BAYESIAN_SAMPLES
DEFAULT_SEED = SEED
#: Posterior probability at which a decision is taken.
DEFAULT_THRESHOLD = BAYESIAN_THRESHOLD
#: Weight of the prior pseudo-observation: 1 in the ROPE for the sign test, 0.5 at z₀ = 0 for the
#: signed-rank test (Benavoli et al. 2017, §4; baycomp's defaults).
SIGN_PRIOR = 1.0
SIGNED_RANK_PRIOR = 0.5
# Weights drawn at once: samples × (N + 1) doubles, kept below about 64 MB.
_CHUNK_CELLS = 8_000_000


@dataclass(frozen=True)
class BayesianResult:
    """Posterior probabilities of a practically better, practically equivalent, b practically
    better, and the decision at ``threshold``.

    Examples
    --------
    >>> from rankwise import bayesian_signed_rank_test, load_example
    >>> a, b = load_example("demsar2006_table2").values.T
    >>> res = bayesian_signed_rank_test(a, b, rope=0.01)
    >>> round(res.p_a, 3), round(res.p_rope, 3), round(res.p_b, 3), res.decision
    (0.0, 0.331, 0.669, 'undecided')
    """

    test: str
    a: str
    b: str
    rope: float
    p_a: float
    p_rope: float
    p_b: float
    draws: int | None
    seed: int | None
    threshold: float
    decision: str
    details: dict = field(default_factory=dict)
    posterior: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def samples(self) -> int | None:
        """The number of posterior draws (its name before 0.9; goes in 0.10)."""
        import warnings

        warnings.warn("BayesianResult.samples is BayesianResult.draws since rankwise 0.9;"
                      " samples goes in 0.10", FutureWarning, stacklevel=2)
        return self.draws

    def to_dict(self) -> dict:
        out = {"a": self.a, "b": self.b, "test": self.test, "rope": self.rope,
               "p_a": self.p_a, "p_rope": self.p_rope, "p_b": self.p_b,
               "draws": self.draws, "seed": self.seed, "threshold": self.threshold,
               "decision": self.decision}
        out.update(self.details)
        return jsonable(out)


def decide(p_a: float, p_rope: float, p_b: float, threshold: float, a: str, b: str) -> str:
    """``"a"``, ``"b"``, ``"equivalent"`` when a posterior probability reaches ``threshold``,
    else ``"undecided"`` (the words of the reports come from this one value)."""
    for p, word in ((p_a, "a"), (p_b, "b"), (p_rope, "equivalent")):
        if p >= threshold:
            return word
    return "undecided"


#: The most posterior draws one test takes (each keeps three numbers: 240 MB at this many).
MAX_SAMPLES = 10_000_000


def _inputs(a, b, rope, higher_is_better, decimals, threshold, draws=None, seed=0):
    x = round_scores(check.score_pair(a, b, min_rows=1), decimals)
    z = x[:, 0] - x[:, 1] if higher_is_better else x[:, 1] - x[:, 0]
    z = round_scores(z, decimals)  # positive: a better
    rope = check.rope(rope)
    check.threshold(threshold)
    if draws is not None and (isinstance(draws, bool) or int(draws) != draws
                              or not 100 <= draws <= MAX_SAMPLES):
        raise RankwiseError(f"draws must be a whole number from 100 to {MAX_SAMPLES:,} (each"
                            f" draw keeps three numbers per pair); got {draws!r}")
    check.seed(seed)
    return z, rope


def _result(test, names, rope, winners, draws, seed, threshold, details, posterior, z):
    counts = np.bincount(winners, minlength=3) / winners.size
    if rope == 0 and not np.any(z):
        # No ROPE and no difference: no draw favours either learner, and by the posterior's
        # symmetry each gets 0.5 (its draws' exact ties would be split by rounding noise).
        counts = np.array([0.5, 0.0, 0.5])
        details = {**details, "note": "every difference is 0 and there is no ROPE: neither"
                   " learner is favoured (probability 0.5 each)"}
    elif rope == 0 and counts[1] > 0:
        # No equivalence region: draws where the tie class is largest say nothing about a
        # against b, and are left out (as baycomp does).
        counts = np.array([counts[0], 0.0, counts[2]]) / (counts[0] + counts[2])
    p_b, p_rope, p_a = (float(v) for v in counts)
    word = decide(p_a, p_rope, p_b, threshold, *names)
    return BayesianResult(test, str(names[0]), str(names[1]), rope, p_a, p_rope, p_b,
                          int(draws), int(seed), float(threshold), word, details, posterior)


@shared_docs
def bayesian_sign_test(a, b, *, rope: float = 0.0, names=("a", "b"),
                       higher_is_better: bool = True, prior: float = SIGN_PRIOR,
                       draws: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED,
                       threshold: float = DEFAULT_THRESHOLD,
                       decimals: int | None = DEFAULT_DECIMALS,
                       keep_samples: bool = False, samples: int | None = None) -> BayesianResult:
    """Bayesian sign test (Benavoli et al. 2014, 2017).

    With z_i the difference in favour of ``a`` (a − b, or b − a when lower is better), the data
    sets fall into three classes: z < −r (b practically better), abs(z) ≤ r (equivalent), z > r
    (a practically better). Their probabilities (θ_b, θ_rope, θ_a) have the posterior
    Dirichlet(n_b, n_rope + s, n_a) with the prior pseudo-observation of weight s in the ROPE.
    P(a practically better) is the share of draws in which θ_a is the largest of the three, and so
    on. A tiny 1e-4 is added to every count so that an empty class has a proper Dirichlet
    parameter (as baycomp does). With ``rope=0`` the draws in which the class of exact ties
    (holding the prior) is the largest are left out, and p_a and p_b are shares of the rest.

    Parameters
    ----------
    {{bayes_a_b}}
    prior : float, default 1.0
        Weight s of the prior pseudo-observation.
    {{bayes_draws}}

    Returns
    -------
    {{bayesian_result}}

    References
    ----------
    Benavoli, A., Corani, G., Demšar, J. and Zaffalon, M. (2017). Time for a change: a tutorial
    for comparing multiple classifiers through Bayesian analysis. JMLR 18(77), 1–36.

    Examples
    --------
    a wins 14 data sets by more than the ROPE, b 4, and 2 are equivalent; a direct numpy draw from
    Dirichlet(4, 2 + 1, 14) gives the same probability:

    >>> X = [0.912, 0.845, 0.771, 0.690, 0.933, 0.802, 0.655, 0.871, 0.799, 0.731,
    ...      0.884, 0.702, 0.816, 0.759, 0.947, 0.688, 0.834, 0.793, 0.721, 0.866]
    >>> Y = [0.897, 0.851, 0.742, 0.701, 0.925, 0.771, 0.659, 0.844, 0.787, 0.718,
    ...      0.868, 0.711, 0.790, 0.749, 0.930, 0.670, 0.811, 0.800, 0.716, 0.852]
    >>> import numpy as np
    >>> from rankwise import bayesian_sign_test
    >>> r = bayesian_sign_test(X, Y, rope=0.005)
    >>> d = r.details
    >>> (d["n_a"], d["n_rope"], d["n_b"]), round(r.p_a, 2), r.decision
    ((14, 2, 4), 0.99, 'a')
    >>> theta = np.random.default_rng(1).dirichlet([4, 3, 14], size=200_000)
    >>> round(float((theta.argmax(axis=1) == 2).mean()), 2)
    0.99
    """
    draws = check.renamed(draws, samples, "samples", "draws")
    z, rope = _inputs(a, b, rope, higher_is_better, decimals, threshold, draws, seed)
    n_b, n_a = int((z < -rope).sum()), int((z > rope).sum())
    n_rope = z.size - n_a - n_b
    alpha = np.array([n_b, n_rope + prior, n_a], dtype=float) + 1e-4
    thetas = np.random.default_rng(seed).dirichlet(alpha, int(draws))
    details = {"n": int(z.size), "n_a": n_a, "n_rope": n_rope, "n_b": n_b, "prior": prior}
    return _result("sign", names, rope, np.argmax(thetas, axis=1), draws, seed, threshold,
                   details, thetas[:, ::-1] if keep_samples else None, z)  # columns: a, rope, b


def _staircase_mass(w: np.ndarray, z: np.ndarray, bound: float) -> np.ndarray:
    """For each row of Dirichlet weights w over sorted points z: Σ_ij w_i w_j H(z_i + z_j − bound)
    with H(0) = ½, in O(N) per row: for each i the j with z_j > bound − z_i are a suffix."""
    above = np.searchsorted(z, bound - z, side="right")   # first j with z_j > bound − z_i
    equal = np.searchsorted(z, bound - z, side="left")    # first j with z_j ≥ bound − z_i
    tail = np.cumsum(w[:, ::-1], axis=1)[:, ::-1]         # tail[:, j] = Σ_{j' ≥ j} w_j'
    tail = np.concatenate([tail, np.zeros((w.shape[0], 1))], axis=1)
    strictly = tail[:, above]
    ties = tail[:, equal] - strictly
    return np.einsum("si,si->s", w, strictly + 0.5 * ties)


@shared_docs
def bayesian_signed_rank_test(a, b, *, rope: float = 0.0, names=("a", "b"),
                              higher_is_better: bool = True, prior: float = SIGNED_RANK_PRIOR,
                              draws: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED,
                              threshold: float = DEFAULT_THRESHOLD,
                              decimals: int | None = DEFAULT_DECIMALS,
                              keep_samples: bool = False,
                              samples: int | None = None) -> BayesianResult:
    r"""Bayesian signed-rank test (Benavoli et al. 2014, 2017).

    A Dirichlet process with a pseudo-observation z₀ = 0 of weight s and the observed differences
    z_1..z_N in favour of ``a``: each posterior draw is a weight vector w ~ Dirichlet(s, 1, …, 1),
    and

    .. math:: θ_a = Σ_{i,j} w_i w_j H(z_i + z_j − 2r),\quad
              θ_b = Σ_{i,j} w_i w_j H(−z_i − z_j − 2r),\quad θ_{rope} = 1 − θ_a − θ_b

    (H the step function with H(0) = ½; i, j over z₀..z_N). P(a practically better) is the share
    of draws in which θ_a is the largest. Without a ROPE (r = 0) θ_rope is 0 and the test is one
    of a against b. The double sum is evaluated in O(N) per draw (the pairs with z_i + z_j above a
    bound form a staircase over the sorted z), so N·draws sets the cost.

    Parameters
    ----------
    {{bayes_a_b}}
    prior : float, default 0.5
        Weight s of the pseudo-observation at 0.
    {{bayes_draws}}

    Returns
    -------
    {{bayesian_result}}

    References
    ----------
    Benavoli, A., Corani, G., Mangili, F., Zaffalon, M. and Ruggeri, F. (2014). A Bayesian
    Wilcoxon signed-rank test based on the Dirichlet process. ICML. Benavoli et al. (2017), JMLR 18.

    Examples
    --------
    The double sum evaluated directly, O(N²) per draw, on 5,000 draws of its own:

    >>> X = [0.912, 0.845, 0.771, 0.690, 0.933, 0.802, 0.655, 0.871, 0.799, 0.731,
    ...      0.884, 0.702, 0.816, 0.759, 0.947, 0.688, 0.834, 0.793, 0.721, 0.866]
    >>> Y = [0.897, 0.851, 0.742, 0.701, 0.925, 0.771, 0.659, 0.844, 0.787, 0.718,
    ...      0.868, 0.711, 0.790, 0.749, 0.930, 0.670, 0.811, 0.800, 0.716, 0.852]
    >>> import numpy as np
    >>> from rankwise import bayesian_signed_rank_test
    >>> r = bayesian_signed_rank_test(X, Y, rope=0.005)
    >>> round(r.p_a, 2), r.decision
    (1.0, 'a')
    >>> z = np.concatenate([[0.0], np.round(np.subtract(X, Y), 12)])
    >>> w = np.random.default_rng(1).dirichlet([0.5] + [1.0] * 20, size=5000)
    >>> H = lambda v: (v > 0) + 0.5 * (v == 0)
    >>> s = z[:, None] + z[None, :]
    >>> ta = np.einsum("di,ij,dj->d", w, H(s - 0.01), w)
    >>> tb = np.einsum("di,ij,dj->d", w, H(-s - 0.01), w)
    >>> round(float(((ta > 1 - ta - tb) & (ta > tb)).mean()), 2)
    1.0
    """
    draws = check.renamed(draws, samples, "samples", "draws")
    z, rope = _inputs(a, b, rope, higher_is_better, decimals, threshold, draws, seed)
    points = np.sort(np.append(z, 0.0))
    weights = np.ones(points.size)
    weights[np.searchsorted(points, 0.0)] = prior  # z₀; equal points are interchangeable
    rng = np.random.default_rng(seed)
    chunk = max(1, _CHUNK_CELLS // points.size)
    thetas = np.empty((int(draws), 3))
    for start in range(0, int(draws), chunk):
        w = rng.dirichlet(weights, min(chunk, int(draws) - start))
        stop = start + w.shape[0]
        thetas[start:stop, 2] = _staircase_mass(w, points, 2 * rope)
        if rope > 0:  # b's side: the same sum over the mirrored points (and their weights)
            thetas[start:stop, 0] = _staircase_mass(w[:, ::-1], -points[::-1], 2 * rope)
        else:
            thetas[start:stop, 0] = 1.0 - thetas[start:stop, 2]
    thetas[:, 1] = 1.0 - thetas[:, 0] - thetas[:, 2] if rope > 0 else 0.0
    details = {"n": int(z.size), "prior": prior}
    return _result("signed-rank", names, rope, np.argmax(thetas, axis=1), draws, seed,
                   threshold, details, thetas[:, ::-1] if keep_samples else None, z)


@shared_docs
def correlated_t_test(a, b, *, folds: int | None = None, rope: float = 0.0, names=("a", "b"),
                      higher_is_better: bool = True, threshold: float = DEFAULT_THRESHOLD,
                      decimals: int | None = DEFAULT_DECIMALS,
                      test_fraction: float | None = None) -> BayesianResult:
    """Bayesian correlated t-test on one data set (Corani & Benavoli 2015).

    ``a``, ``b``: the two learners' results on the n = repeats × folds test folds of one data set,
    in the same fold order. With z the differences in favour of ``a``, their mean z̄ and variance
    σ̂² (n − 1 in the denominator), and the correlation ρ = 1/folds of results on overlapping
    training sets (for repeated random train/test splits ρ = n₂/(n₁ + n₂), the share of
    instances tested on, given as ``test_fraction``), the posterior of the mean difference is Student's t with n − 1 degrees of
    freedom, location z̄ and scale √((1/n + ρ/(1 − ρ))·σ̂²) (the Nadeau-Bengio correction).
    P(a practically better) = P(μ > r), P(b …) = P(μ < −r); in closed form, so ``draws`` and
    ``seed`` are None.

    Parameters
    ----------
    a, b : array_like, shape (n,)
        Results on the same n test folds of one data set.
    folds : int, optional
        Folds per repetition of the cross-validation (sets ρ = 1/folds).
    {{bayes_rope_names}}
    higher_is_better : bool, default True
        Direction of the scores.
    threshold : float, default 0.95
        Probability a decision needs.
    {{effect_decimals}}
    test_fraction : float, optional
        Instead of ``folds``: the share of instances each run tested on, for repeated random
        train/test splits (WEKA's default design); sets ρ = ``test_fraction``.

    Returns
    -------
    {{bayesian_result}}

    References
    ----------
    Corani, G. and Benavoli, A. (2015). A Bayesian approach for comparing cross-validated
    algorithms on multiple data sets. Mach. Learn. 100, 285–304. Nadeau, C. and Bengio, Y. (2003).
    Mach. Learn. 52, 239–281.

    Examples
    --------
    The closed form, checked against scipy's t distribution:

    >>> import numpy as np
    >>> from scipy import stats
    >>> from rankwise import correlated_t_test
    >>> rng = np.random.default_rng(0)
    >>> a = rng.normal(0.8, 0.02, 50)
    >>> b = a - 0.01 + rng.normal(0, 0.01, 50)
    >>> r = correlated_t_test(a, b, folds=10, rope=0.005)
    >>> t = stats.t(r.details["df"], r.details["mean"], r.details["scale"])
    >>> round(r.p_a, 6) == round(float(t.sf(0.005)), 6), r.decision
    (True, 'undecided')
    """
    z, rope = _inputs(a, b, rope, higher_is_better, decimals, threshold)
    n = z.size
    if (folds is None) == (test_fraction is None):
        raise RankwiseError("the correlated t-test needs either folds (cross-validation) or"
                            " test_fraction (random train/test splits), not both or neither")
    if test_fraction is not None:
        rho = float(test_fraction)
        if not 0.0 < rho < 1.0 or n < 2:
            raise RankwiseError(f"the correlated t-test on random splits needs at least two"
                                f" results and a test fraction strictly between 0 and 1; got"
                                f" {n} value(s) and {test_fraction!r}")
    else:
        folds = int(folds)
        if folds < 2 or n < 2:
            raise RankwiseError(f"the correlated t-test needs at least two fold results of a"
                                f" cross-validation with at least two folds; got {n} value(s)"
                                f" and {folds} fold(s)")
        rho = 1.0 / folds
    mean = float(np.mean(z))
    var = float(np.var(z, ddof=1))
    scale = math.sqrt((1.0 / n + rho / (1.0 - rho)) * var)
    if scale == 0.0:
        p_b, p_a = float(mean < -rope), float(mean > rope)
    else:
        dist = stats.t(n - 1, loc=mean, scale=scale)
        p_b, p_a = float(dist.cdf(-rope)), float(dist.sf(rope))
    p_rope = max(0.0, 1.0 - p_a - p_b)
    word = decide(p_a, p_rope, p_b, threshold, *names)
    details = {"n": n, "folds": folds, "rho": rho, "mean": mean, "scale": scale, "df": n - 1}
    if folds is not None and n % folds:
        details["note"] = (f"{n} fold results are not whole runs of {folds} folds (failed or"
                           " missing folds); the correlation 1/folds is assumed all the same")
    return BayesianResult("correlated-t", str(names[0]), str(names[1]), rope, p_a, p_rope, p_b,
                          None, None, float(threshold), word, details)


BAYESIAN = {"sign": bayesian_sign_test, "signed-rank": bayesian_signed_rank_test}
