"""Variance components by restricted maximum likelihood (REML), for any design of crossed and
nested random effects, balanced or not.

The model of the n scores y is

    y = 1 μ + Σ_e Z_e u_e + ε,   u_e ~ N(0, σ²_e I),   ε ~ N(0, σ²_0 I),

with μ the only fixed effect and Z_e the 0/1 matrix that gives each observation its level of
the random effect e (a learner, a data set, a learner × data set cell, a fold within a repeat
within a data set, ...). The variance of y is V = Σ_e σ²_e Z_e Z_e' + σ²_0 I, and REML
maximises the likelihood of the contrasts free of μ (Patterson & Thompson 1971):

    ℓ(θ) = −½ [(n − 1) log 2π + log|V| + log|1'V⁻¹1| + y'Py],
    P = V⁻¹ − V⁻¹1 (1'V⁻¹1)⁻¹ 1'V⁻¹,

over θ = (σ²_1, …, σ²_m, σ²_0) ≥ 0 (Harville 1977). With V_i = ∂V/∂θ_i (Z_i Z_i', or I for
the residual), the score, the expected (Fisher) information and the average information are

    g_i = −½ tr(P V_i) + ½ y'P V_i P y,
    F_ij = ½ tr(P V_i P V_j),   A_ij = ½ y'P V_i P V_j P y,

and, V being linear in θ, the observed information is exactly 2A − F. Each iteration takes a
Newton step θ ← θ + α H⁻¹ g on the components not held at 0, with H = 2A − F where it is
positive definite near the optimum and H = F (Fisher scoring) elsewhere, α halved until ℓ
does not decrease. A component that a step would take below 0 stops at 0 and is held there
while its score is ≤ 0 (the Karush-Kuhn-Tucker condition of the bound); it is freed when its
score turns positive. The iterations stop when the step is below ``tol`` times the total
variance and every held component satisfies the condition to the same precision.

Nothing n × n is formed. With W = [1, Z Λ] (Λ the diagonal of the σ_e, one per level) and
C = W'W + σ²_0 diag(0, I_q), Henderson's mixed-model equations give

    log|V| + log|1'V⁻¹1| = (n − 1 − q) log σ²_0 + log|C|,
    P y = (y − W C⁻¹ W'y) / σ²_0,   Z'PZ = (Z'Z − Z'W C⁻¹ W'Z) / σ²_0,

so an iteration costs a Cholesky factor of the (q + 1) × (q + 1) matrix C and a few products
of that size (q the number of levels of all random effects), and a component at 0 (σ_e = 0)
needs no special case. The traces that involve the residual follow from tr(PV) = n − 1:
σ²_0 tr(P) = n − 1 − Σ_e σ²_e tr(P V_e), and Σ_j θ_j F_ij = ½ tr(P V_i). The scores are
centred and divided by their spread first, so that scores from 1e-300 to 1e300 give neither
overflow nor underflow; the components are returned in the scores' units (squared).

In a balanced design the REML estimates equal the ANOVA's expected-mean-squares estimates
whenever those are all positive (Searle, Casella & McCulloch 1992, ch. 6); in an unbalanced
one (missing cells, tasks of unequal sizes, a few items with more trials) they are the
estimates Brennan (2001, §7) recommends over the many quadratic-form alternatives.

References: Patterson, H. D. and Thompson, R. (1971). Recovery of inter-block information
when block sizes are unequal. *Biometrika* 58, 545-554. Harville, D. A. (1977). Maximum
likelihood approaches to variance component estimation and to related problems. *JASA* 72,
320-338. Searle, S. R., Casella, G. and McCulloch, C. E. (1992). *Variance Components*.
Wiley, ch. 6. Gilmour, A. R., Thompson, R. and Cullis, B. R. (1995). Average information
REML. *Biometrics* 51, 1440-1450. Brennan, R. L. (2001). *Generalizability Theory*.
Springer, §7.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import linalg, sparse

from .. import _validate as check
from ..errors import RankwiseError
from ..stats.results import jsonable
from ..stats.threads import one_blas_thread

#: The most random-effect levels (all effects together) that :func:`reml` fits: each
#: iteration factors and multiplies dense matrices of that size plus one, of 0.3 GB each at
#: the limit. On one core a fit takes about a second at 1,200 levels, 20 s at 3,000 and a few
#: minutes at 6,000 (the time grows as the cube); the number of observations costs little.
MAX_LEVELS = 6000

#: The name of the residual component; no effect may have it.
RESIDUAL = "residual"


# ----------------------------------------------------------------------------- input checks

def _checked(y, effects, start):
    """``y`` as floats, each effect's codes as levels 0 … L−1 (in the order of their first
    observation), and the start values; or a one-line :class:`RankwiseError`."""
    y = check.real_array(y)
    if y.ndim != 1:
        raise RankwiseError(f"reml needs the scores as one column (a 1-D array); got the shape"
                            f" {y.shape}")
    if not np.isfinite(y).all():
        where = int(np.flatnonzero(~np.isfinite(y))[0])
        raise RankwiseError(f"reml needs finite scores; score {where + 1} is {y[where]}"
                            " (drop that observation or give its score)")
    if not isinstance(effects, dict):
        raise RankwiseError("reml needs the effects as a dict of name -> level codes, one code"
                            f" per observation; got {type(effects).__name__}")
    n, m = len(y), len(effects)
    if n < m + 2:
        raise RankwiseError(f"reml needs at least {m + 2} observations for {m} random"
                            f" effect(s), a mean and a residual; got {n}")
    codes, seen = [], {}
    for name, raw in effects.items():
        if not isinstance(name, str) or name == RESIDUAL:
            raise RankwiseError(f"each effect needs a name (a string) other than {RESIDUAL!r};"
                                f" got {name!r}")
        levels = _levels(name, raw, n)
        if levels.max() + 1 == n:
            raise RankwiseError(f"effect {name!r} has one observation per level, so it is the"
                                " residual itself (confounded with it); leave it out: the"
                                f" {RESIDUAL!r} component estimates it")
        if levels.tobytes() in seen:
            raise RankwiseError(f"effects {seen[levels.tobytes()]!r} and {name!r} group the"
                                " observations alike, so their components cannot be told"
                                " apart; keep one of them")
        seen[levels.tobytes()] = name
        codes.append(levels)
    q = sum(int(c.max()) + 1 for c in codes)
    if q > MAX_LEVELS:
        raise RankwiseError(f"reml fits at most {MAX_LEVELS} random-effect levels in all; these"
                            f" effects have {q} (fit a subset of the data sets or items)")
    names = tuple(effects) + (RESIDUAL,)
    return y, codes, names, _start(start, names)


def _levels(name, raw, n) -> np.ndarray:
    """One effect's codes as levels 0 … L−1 numbered in the order they first occur (so two
    effects that group the observations alike have equal arrays)."""
    raw = np.asarray(raw)
    if raw.ndim != 1 or len(raw) != n:
        raise RankwiseError(f"effect {name!r} needs one level code per observation ({n});"
                            f" got the shape {raw.shape}")
    if raw.dtype.kind == "f" and not (np.isfinite(raw).all() and (raw == np.round(raw)).all()):
        raise RankwiseError(f"effect {name!r} needs integer level codes; got non-integral or"
                            " missing values")
    if raw.dtype.kind not in "iubfUS":
        raise RankwiseError(f"effect {name!r} needs integer level codes; got {raw.dtype}")
    _, first, inverse = np.unique(raw, return_index=True, return_inverse=True)
    if len(first) < 2:
        raise RankwiseError(f"effect {name!r} needs at least 2 levels; all {n} observations"
                            " have the same one (leave it out)")
    order = np.empty(len(first), np.int64)
    order[np.argsort(first, kind="stable")] = np.arange(len(first))
    return order[inverse.ravel()]


def _start(start, names):
    """The start values as a checked dict (or None: the total variance split equally)."""
    if start is None:
        return None
    if not isinstance(start, dict) or set(start) != set(names):
        raise RankwiseError(f"start needs a value for each of {', '.join(names)}; got"
                            f" {sorted(start) if isinstance(start, dict) else start!r}")
    values = {k: float(start[k]) for k in names}
    if not all(math.isfinite(v) and v >= 0 for v in values.values()) or values[RESIDUAL] <= 0:
        raise RankwiseError("start needs finite values ≥ 0 (and a residual > 0); got"
                            f" {values}")
    return values


# ---------------------------------------------------------------------------- computation

def _scaled(y):
    """``y`` centred and divided by its standard deviation, with the log of that divisor;
    taken in steps (by the largest magnitude first) so that no square over- or underflows."""
    size = float(np.abs(y).max())
    z = y / size if size > 0 else y.copy()
    z -= z.mean()
    spread = float(np.abs(z).max())
    if spread == 0 or not spread * size > 0:   # all equal (to double precision)
        return None, 0.0
    z /= spread
    sd = float(np.sqrt(np.mean(z * z)))
    return z / sd, math.log(size) + math.log(spread) + math.log(sd)


class _Mme:
    """Henderson's mixed-model equations of one design, evaluated at any θ (scaled units)."""

    def __init__(self, y, codes):
        n, m = len(y), len(codes)
        self.n, self.y, self.codes = n, y, codes
        sizes = [int(c.max()) + 1 for c in codes]
        self.starts = np.cumsum([1] + sizes)      # column 0 is the mean's
        self.q = int(self.starts[-1]) - 1
        columns = np.column_stack([np.zeros(n, np.int64)]
                                  + [c + s for c, s in zip(codes, self.starts[:-1])])
        self.K = sparse.csr_matrix((np.ones(n * (m + 1)),
                                    (np.repeat(np.arange(n), m + 1), columns.ravel())),
                                   shape=(n, self.q + 1))
        self.S = (self.K.T @ self.K).toarray()    # [1, Z]'[1, Z]: counts of pairs of levels
        self.s = self.K.T @ y
        self.sizes = np.array(sizes)

    def _factor(self, theta):
        """Λ's diagonal and the Cholesky factor of C, or None where C is not positive
        definite (a residual too near 0)."""
        if not theta[-1] > 0:
            return None
        d = np.concatenate([[1.0], np.repeat(np.sqrt(theta[:-1]), self.sizes)])
        C = d[:, None] * self.S * d[None, :]
        C[np.arange(1, self.q + 1), np.arange(1, self.q + 1)] += theta[-1]
        try:
            return d, linalg.cholesky(C, lower=True, check_finite=False)
        except linalg.LinAlgError:
            return None

    def loglik(self, theta, factor=None):
        """ℓ(θ) (−inf where it is not defined), with the pieces the derivatives reuse."""
        factor = factor or self._factor(theta)
        if factor is None:
            return -math.inf, None
        d, L = factor
        b = d * linalg.cho_solve((L, True), d * self.s, check_finite=False)
        e = self.y - self.K @ b                   # y − W C⁻¹ W'y: σ²_0 P y, a residual
        log_det = 2 * float(np.log(np.diag(L)).sum())
        quad = float(self.y @ e) / theta[-1]
        value = -0.5 * ((self.n - 1) * math.log(2 * math.pi)
                        + (self.n - 1 - self.q) * math.log(theta[-1]) + log_det + quad)
        return value, (d, L, e / theta[-1])

    def derivatives(self, theta, pieces):
        """The score g, the expected information F and the average information A."""
        d, L, py = pieces
        s0 = theta[-1]
        R = linalg.solve_triangular(L, d[:, None] * self.S, lower=True, check_finite=False)
        Q = (self.S - R.T @ R) / s0               # [1, Z]' P [1, Z]
        bounds = self.starts[:-1]
        traces = np.add.reduceat(np.diag(Q)[1:], bounds - 1)          # tr(P V_e)
        kpy = self.K.T @ py
        quads = np.add.reduceat(kpy[1:] ** 2, bounds - 1)             # y'P V_e P y
        m = len(self.codes)
        trace_p = (self.n - 1 - theta[:-1] @ traces) / s0
        g = 0.5 * np.append(quads - traces, py @ py - trace_p)
        F = np.empty((m + 1, m + 1))
        blocks = np.add.reduceat(np.add.reduceat(Q[1:, 1:] ** 2, bounds - 1, axis=0),
                                 bounds - 1, axis=1)
        F[:m, :m] = 0.5 * blocks
        F[:m, m] = (0.5 * traces - F[:m, :m] @ theta[:-1]) / s0
        F[m, :m] = F[:m, m]
        F[m, m] = (0.5 * trace_p - F[m, :m] @ theta[:-1]) / s0
        # the working variates V_i P y, then P applied to each through the same equations
        works = np.column_stack([kpy[1:][c + s - 1] for c, s in zip(self.codes, bounds)]
                                + [py])
        kw = self.K.T @ works
        pw = (works - self.K @ (d[:, None] * linalg.cho_solve(
            (L, True), d[:, None] * kw, check_finite=False))) / s0
        A = 0.5 * works.T @ pw
        return g, F, 0.5 * (A + A.T)


def reml(y, effects: dict, *, start: dict | None = None, tol: float = 1e-10,
         max_iter: int = 500) -> RemlFit:
    r"""The variance components of a design of random effects by restricted maximum
    likelihood; see the module's text for the model, the formulas and the method.

    Parameters
    ----------
    y : array of n floats
        The observations (scores), finite.
    effects : dict of name -> n level codes
        Each random effect, in the order reported: a crossed or nested effect (``learner``,
        ``dataset``, ``learner x dataset``, ``fold:repeat:dataset``, ...) as the level of each
        observation; an interaction's or a nested effect's codes index the combinations (the
        caller computes them). An effect with one observation per level is the residual
        itself and is refused, as are two effects that group the observations alike.
    start : dict, optional
        Start values in the scores' units (squared), one for each effect and ``residual``;
        by default the total variance split equally.
    tol : float
        The iterations stop when no component moves by more than ``tol`` times the total
        variance and every component held at 0 has a score ≤ 0 to that precision.
    max_iter : int
        The most iterations; ``converged`` is False when they run out.

    Returns
    -------
    RemlFit
        ``components`` (each effect's σ², then the residual's), ``loglik`` (the REML
        log-likelihood ℓ at them), ``boundary`` (the components estimated at 0),
        ``standard_errors`` (from the inverse of the expected information F; NaN at the
        boundary) and more.

    Raises
    ------
    RankwiseError
        For lengths that differ, a score that is not finite, an effect with fewer than 2
        levels (or with one observation per level), fewer than m + 2 observations for m
        effects, or more than ``MAX_LEVELS`` levels in all (then fit a subset).

    Notes
    -----
    Every score equal gives every component 0 (with a NaN log-likelihood: V = 0 has none).
    A design whose effects together leave the residual no degrees of freedom drives the
    residual towards 0 and ends with ``converged`` False.

    Examples
    --------
    Three learners on four data sets, one score per cell: the design is balanced, so the
    REML estimates are the ANOVA's (``g_study``'s: σ²(l) = (MS(l) − MS(e))/4 = 0.00625).

    >>> import numpy as np
    >>> from rankwise.planning.reml import reml
    >>> x = np.array([[0.8, 0.7, 0.6], [0.9, 0.8, 0.8], [0.7, 0.7, 0.5], [0.85, 0.8, 0.7]])
    >>> dataset, learner = np.indices(x.shape)
    >>> fit = reml(x.ravel(), {"learner": learner.ravel(), "dataset": dataset.ravel()})
    >>> {name: round(v, 5) for name, v in fit.components.items()}
    {'learner': 0.00625, 'dataset': 0.00722, 'residual': 0.00187}
    >>> fit.converged, fit.boundary
    (True, ())
    """
    y, codes, names, start = _checked(y, effects, start)
    if not (isinstance(tol, (int, float)) and 0 < tol < 1):
        raise RankwiseError(f"tol must be a number between 0 and 1; got {tol!r}")
    if not (isinstance(max_iter, int) and max_iter >= 1):
        raise RankwiseError(f"max_iter must be a whole number ≥ 1; got {max_iter!r}")
    levels = {name: int(c.max()) + 1 for name, c in zip(names, codes)}
    z, log_unit = _scaled(y)
    if z is None:   # every score alike: nothing varies
        zeros = dict.fromkeys(names, 0.0)
        return RemlFit(components=zeros, shares=dict.fromkeys(names, math.nan),
                       loglik=math.nan, iterations=0, converged=True, boundary=names,
                       standard_errors=dict.fromkeys(names, math.nan), n=len(y),
                       levels=levels)
    theta = np.full(len(names), 1.0 / len(names))
    if start is not None:
        given = _in_units(np.array([start[k] for k in names]), -log_unit)
        if np.isfinite(given).all() and given[-1] > 0:
            theta = given
    # one BLAS thread: a second one that waits for a busy core makes the factorisations of a
    # few hundred levels a thousand times slower, and the numbers are the same
    with one_blas_thread():
        model = _Mme(z, codes)
        theta, value, iterations, converged = _fit(model, theta, tol, max_iter)
        pieces = model.loglik(theta)[1]
        _, F, _ = model.derivatives(theta, pieces)
    at_zero = theta <= 0
    se = np.full(len(names), math.nan)
    inside = ~at_zero
    with np.errstate(all="ignore"):
        try:   # numpy's inverse: an ill-conditioned F (a residual near 0) gives no warning
            se[inside] = np.sqrt(np.diag(np.linalg.inv(F[np.ix_(inside, inside)])))
        except np.linalg.LinAlgError:
            pass   # a singular information: the errors are not defined (NaN)
    total = theta.sum()
    return RemlFit(components=dict(zip(names, _in_units(theta, log_unit).tolist())),
                   shares=dict(zip(names, (theta / total).tolist())),
                   loglik=float(value - (len(y) - 1) * log_unit), iterations=iterations,
                   converged=converged,
                   boundary=tuple(k for k, zero in zip(names, at_zero) if zero),
                   standard_errors=dict(zip(names, _in_units(se, log_unit).tolist())),
                   n=len(y), levels=levels)


def _in_units(values, log_unit) -> np.ndarray:
    """Variances of the scaled scores in the scores' units: times exp(log_unit)² (which may
    overflow to inf or underflow to 0 at the ends of the floats' range; 0 stays 0)."""
    factor = math.exp(min(max(log_unit, -700.0), 700.0))
    rest = math.exp(log_unit - min(max(log_unit, -700.0), 700.0))
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        out = values * factor * factor * rest * rest
    return np.where(values == 0, 0.0, out)


def _fit(model, theta, tol, max_iter):
    """Newton or Fisher-scoring steps from ``theta`` on the components not held at 0, each
    halved until ℓ does not decrease: the estimate, ℓ there, the iterations, converged."""
    value, pieces = model.loglik(theta)
    if pieces is None:   # a start whose C is singular: from the equal split instead
        theta = np.full(len(theta), 1.0 / len(theta))
        value, pieces = model.loglik(theta)
    newton = False
    for iteration in range(1, max_iter + 1):
        g, F, A = model.derivatives(theta, pieces)
        delta, held = _direction(theta, g, 2 * A - F if newton else F, F)
        scale = theta.sum()
        # the step that would free a held component is below tol: the bound's KKT condition
        kkt = bool(np.all(g[held] <= tol * scale * np.diag(F)[held]))
        top = min(1.0, min((theta[j] / -delta[j] for j in np.flatnonzero(delta < 0)),
                           default=1.0))
        # round-off in ℓ (a sum of n terms) must not stop a step that is exact to it
        slack = 1e-12 * (abs(value) + model.n)
        alpha = top
        for _ in range(60):
            trial = np.maximum(theta + alpha * delta, 0.0)
            if alpha == top < 1:   # the component that meets its bound stops exactly on it
                trial[(delta < 0) & (theta + alpha * delta <= theta * 1e-12)] = 0.0
            trial_value, trial_pieces = model.loglik(trial)
            if trial_value >= value - slack:
                break
            alpha /= 2
        else:
            return theta, value, iteration, False
        moved = float(np.abs(trial - theta).max())
        newton = alpha == 1 and moved < 0.1 * scale
        theta, value, pieces = trial, trial_value, trial_pieces
        if moved <= tol * scale and kkt:
            return theta, value, iteration, True
    return theta, value, max_iter, False


def _direction(theta, g, H, F):
    """The step H⁻¹g on the free components (those above 0, and those at 0 whose score is
    positive and whose step leaves 0 upwards), 0 on the held ones, with the held mask."""
    held = (theta <= 0) & (g <= 0)
    held[-1] = False
    for _ in range(len(theta)):
        free = ~held
        delta = np.zeros(len(theta))
        delta[free] = _solve(H[np.ix_(free, free)], F[np.ix_(free, free)], g[free])
        back = free & (theta <= 0) & (delta <= 0)
        if not back.any():
            break
        held |= back   # its score is positive but the others' steps pull it below 0
    return delta, held


def _solve(H, F, g) -> np.ndarray:
    """H⁻¹g where H is positive definite (the observed information near the optimum), else
    F⁻¹g (Fisher scoring), else the least-squares step of a singular F."""
    for matrix in (H, F):
        try:
            return linalg.cho_solve((linalg.cholesky(matrix, lower=True, check_finite=False),
                                     True), g, check_finite=False)
        except (linalg.LinAlgError, ValueError):
            continue
    return np.linalg.lstsq(F, g, rcond=None)[0]


# ------------------------------------------------------------------------------- the result

@dataclass(frozen=True)
class RemlFit:
    """The REML estimates of a design's variance components (:func:`reml`).

    ``components`` maps each effect (in the order given) and then ``residual`` to its σ² in
    the scores' units squared (at the ends of the floats' range, scores near 1e±300, they
    over- or underflow to inf or 0; ``shares`` stay exact); ``shares`` each component's share
    of their sum; ``loglik`` the REML log-likelihood ℓ at the estimate (with its constant
    −(n − 1)/2 log 2π, as statsmodels' ``MixedLM`` writes it); ``iterations`` the steps
    taken; ``converged`` whether the step and the bound's condition met ``tol``;
    ``boundary`` the names of the components estimated at 0; ``standard_errors`` each
    component's from the inverse of the expected information of the components off the
    boundary (NaN on it); ``n`` the observations; ``levels`` each effect's number of levels.
    """

    components: dict
    shares: dict
    loglik: float
    iterations: int
    converged: bool
    boundary: tuple
    standard_errors: dict
    n: int
    levels: dict

    def to_dict(self) -> dict:
        """Plain JSON types (NaN and inf as None)."""
        return jsonable({"method": "REML", "components": self.components,
                         "shares": self.shares, "loglik": self.loglik,
                         "iterations": self.iterations, "converged": self.converged,
                         "boundary": list(self.boundary),
                         "standard_errors": self.standard_errors, "n": self.n,
                         "levels": self.levels})
