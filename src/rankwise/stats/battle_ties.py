"""Bradley–Terry models with an explicit tie parameter, fitted on the pair counts of a vote log.

For each unordered pair {i, j} (i < j) the log holds ``x`` wins of i, ``y`` wins of j and
``t`` ties (weighted counts). With strengths π = e^θ:

Davidson (1970), tie parameter ν = e^λ > 0::

    P(i beats j) = π_i / (π_i + π_j + ν √(π_i π_j)),   P(tie) = ν √(π_i π_j) / (same),

a multinomial logit with utilities θ_i, θ_j and λ + (θ_i + θ_j)/2, so the log-likelihood is
concave in (θ, λ).

Rao & Kupper (1967), tie parameter η = e^κ > 1::

    P(i beats j) = π_i / (π_i + η π_j) = σ(θ_i − θ_j − κ),
    P(tie) = (η² − 1) π_i π_j / ((π_i + η π_j)(π_j + η π_i)),

so that ℓ = Σ (x + t) log σ(d − κ) + (y + t) log σ(−d − κ) + t log(η² − 1) with d = θ_i − θ_j,
again concave in (θ, κ) for κ > 0.

Both are maximised by Newton's method with a backtracking line search on the k − 1 free
log-strengths (the first one held at 0) and the tie parameter, the gradient and Hessian summed
over the pairs in one vectorised step (a 3 × 3 block per pair scattered with ``bincount``).

A model that wins every vote it takes part in (no tie, no loss) or loses every one has no
finite maximum; :mod:`rankwise.stats.battles` takes it out before calling :func:`newton` and
gives it a bound (:func:`bound`), as :func:`rankwise.stats.elo.fit` does for ties as half.

References
----------
Davidson, R. R. (1970). On extending the Bradley-Terry model to accommodate ties in paired
comparison experiments. JASA 65(329), 317-328.
Rao, P. V. & Kupper, L. L. (1967). Ties in paired-comparison experiments: a generalization of
the Bradley-Terry model. JASA 62(317), 194-204.

Examples
--------
>>> import numpy as np
>>> from rankwise.stats.battle_ties import newton
>>> pairs = (np.array([0]), np.array([1]), np.array([6.0]), np.array([2.0]), np.array([2.0]))
>>> theta, extra, steps = newton("davidson", 2, pairs)
>>> round(float(theta[1] - theta[0]), 4)      # log(2/6) for Davidson on one pair
-1.0986
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy import linalg

#: Newton's method stops when no parameter moves by more than this (as elo.fit).
TOLERANCE = 1e-10
MAX_ITERATIONS = 200


def start_extra(model: str, pairs) -> float:
    """The tie parameter at which equal strengths give the observed share of ties τ:
    Davidson λ = log(2τ/(1 − τ)), Rao–Kupper κ = log((1 + τ)/(1 − τ))."""
    _, _, x, y, t = pairs
    tau = float(t.sum() / (x.sum() + y.sum() + t.sum()))
    tau = min(max(tau, 1e-6), 1 - 1e-6)
    if model == "davidson":
        return float(np.log(2 * tau / (1 - tau)))
    return float(np.log((1 + tau) / (1 - tau)))


def _log_sigmoid(u: np.ndarray) -> np.ndarray:
    return -np.logaddexp(0.0, -u)


def _sigmoid(u: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * u))


def loglik(model: str, theta: np.ndarray, extra: float, pairs) -> float:
    """The log-likelihood of the tie model (module docstring) at log-strengths ``theta`` and
    tie parameter ``extra`` (λ = log ν, or κ = log η); −inf where κ ≤ 0."""
    i, j, x, y, t = pairs
    if model == "davidson":
        u = np.stack([theta[i], theta[j], extra + 0.5 * (theta[i] + theta[j])])
        m = x + y + t
        norm = np.logaddexp(np.logaddexp(u[0], u[1]), u[2])
        return float(np.sum(x * u[0] + y * u[1] + t * u[2] - m * norm))
    if not extra > 0:
        return -np.inf
    d = theta[i] - theta[j]
    # log(η² − 1) = 2κ + log(1 − e^−2κ), no overflow for a large κ
    log_tie = 2 * extra + np.log(-np.expm1(-2 * extra))
    return float(np.sum((x + t) * _log_sigmoid(d - extra) + (y + t) * _log_sigmoid(-d - extra)
                        + t * log_tie))


def _derivatives(model: str, theta: np.ndarray, extra: float, pairs, k: int):
    """(gradient, negative Hessian) in (θ_0..θ_{k−1}, extra), each pair's 3 × 3 block (in its
    coordinates i, j, extra) summed into the (k + 1)² matrix with one ``bincount``."""
    i, j, x, y, t = pairs
    if model == "davidson":
        u = np.stack([theta[i], theta[j], extra + 0.5 * (theta[i] + theta[j])], axis=1)
        p = np.exp(u - u.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        m = x + y + t
        v = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.5, 0.5, 1.0]])   # ∂u_o, per outcome
        local_grad = np.stack([x, y, t], axis=1) @ v - m[:, None] * (p @ v)
        mean = p @ v                                                        # E[∂u]
        second = np.einsum("po,oa,ob->pab", p, v, v)                        # E[∂u ∂uᵀ]
        block = m[:, None, None] * (second - mean[:, :, None] * mean[:, None, :])
    else:
        d = theta[i] - theta[j]
        sa, sb = _sigmoid(d - extra), _sigmoid(-d - extra)
        ga, gb = (x + t) * (1 - sa), (y + t) * (1 - sb)
        da, db = np.array([1.0, -1.0, -1.0]), np.array([-1.0, 1.0, -1.0])
        local_grad = ga[:, None] * da + gb[:, None] * db
        ha, hb = (x + t) * sa * (1 - sa), (y + t) * sb * (1 - sb)
        block = ha[:, None, None] * np.outer(da, da) + hb[:, None, None] * np.outer(db, db)
    index = np.stack([i, j, np.full_like(i, k)], axis=1)
    size = k + 1
    grad = np.bincount(index.ravel(), weights=local_grad.ravel(), minlength=size)
    flat = (index[:, :, None] * size + index[:, None, :]).ravel()
    hess = np.bincount(flat, weights=block.ravel(), minlength=size * size).reshape(size, size)
    if model == "rao-kupper":
        ties = float(t.sum())
        e = -np.expm1(-2 * extra)                                     # 1 − e^−2κ
        grad[k] += 2 * ties / e
        hess[k, k] += 4 * ties * np.exp(-2 * extra) / (e * e)
    return grad, hess


def newton(model: str, k: int, pairs, theta0: np.ndarray | None = None,
           extra0: float | None = None) -> tuple:
    """The maximum likelihood of a tie model by Newton's method with a line search.

    Parameters
    ----------
    model : {"davidson", "rao-kupper"}
    k : int
        The number of models.
    pairs : tuple of arrays
        (i, j, x, y, t): each pair i < j with the wins of i, the wins of j and the ties.
    theta0, extra0 : optional
        A start (θ_0 is held at 0: the result is shifted so).

    Returns
    -------
    tuple
        (theta, extra, iterations): log-strengths, λ = log ν (Davidson) or κ = log η
        (Rao–Kupper), Newton steps taken.

    References
    ----------
    Davidson (1970); Rao & Kupper (1967).

    Examples
    --------
    >>> import numpy as np
    >>> pairs = (np.array([0]), np.array([1]), np.array([3.0]), np.array([1.0]), np.array([1.0]))
    >>> theta, kappa, _ = newton("rao-kupper", 2, pairs)
    >>> bool(theta[1] < 0 < kappa)
    True
    """
    theta = np.zeros(k) if theta0 is None else np.asarray(theta0, float) - theta0[0]
    extra = start_extra(model, pairs) if extra0 is None or not np.isfinite(extra0) else extra0
    if model == "rao-kupper":
        extra = max(extra, 1e-6)
    current = loglik(model, theta, extra, pairs)
    free = np.r_[np.arange(1, k), k]
    iterations = 0
    for iterations in range(1, MAX_ITERATIONS + 1):
        grad, hess = _derivatives(model, theta, extra, pairs, k)
        g, h = grad[free], hess[np.ix_(free, free)]
        try:
            with warnings.catch_warnings():
                # a near-singular Hessian goes to least squares instead of warning the user
                warnings.simplefilter("error", linalg.LinAlgWarning)
                step = linalg.cho_solve(linalg.cho_factor(h), g)
        except (linalg.LinAlgError, linalg.LinAlgWarning, ValueError):
            step = linalg.lstsq(h, g)[0]
        size = 1.0
        while True:
            trial_theta = theta.copy()
            trial_theta[1:] += size * step[:-1]
            trial_extra = extra + size * step[-1]
            value = loglik(model, trial_theta, trial_extra, pairs)
            if value >= current - 1e-12 * abs(current) or size < 1e-8:
                break
            size *= 0.5
        if not np.isfinite(value):
            break
        theta, extra, current = trial_theta, trial_extra, value
        if np.max(np.abs(size * step)) < TOLERANCE:
            break
    return theta, float(extra), iterations


def expected_score(model: str, d: np.ndarray, extra: float) -> np.ndarray:
    """P(win) + P(tie)/2 of a model whose log-strength exceeds its opponent's by ``d``."""
    if model == "davidson":
        u = np.stack([d, np.zeros_like(d), extra + 0.5 * d])
        p = np.exp(u - u.max(axis=0))
        p /= p.sum(axis=0)
        return p[0] + 0.5 * p[2]
    win, loss = _sigmoid(d - extra), _sigmoid(-d - extra)
    return win + 0.5 * (1.0 - win - loss)


def bound(model: str, side: int, others: np.ndarray, games: np.ndarray, won: float,
          lightest: float, extra: float) -> float:
    """The log-strength at which the expected score (:func:`expected_score`) against
    opponents of log-strengths ``others`` (``games`` votes with each) equals the observed
    score ``won`` less (side +1) or plus (side −1) half the lightest vote: the rule of
    :func:`rankwise.stats.elo.fit` under the tie model's probabilities."""
    if games.size == 0:
        return float("nan")
    target = won - side * 0.5 * lightest
    lo, hi = others.min() - 60.0 - abs(extra), others.max() + 60.0 + abs(extra)
    for _ in range(200):                          # bisection: the score rises with θ
        mid = 0.5 * (lo + hi)
        score = float(np.sum(games * expected_score(model, mid - others, extra)))
        lo, hi = (mid, hi) if score < target else (lo, mid)
    return 0.5 * (lo + hi)
