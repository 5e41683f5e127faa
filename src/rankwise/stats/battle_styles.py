"""Style control for vote logs: Bradley–Terry with the two answers' style features as covariates.

LMArena's style control (Li et al. 2024, FastChat ``construct_style_matrices``) fits, per vote,

    logit P(a beats b) = (θ_a − θ_b) + β · z,

where z holds one normalised difference per style feature (answer length, headers, lists,
bold, ...): for each feature the difference of the two answers divided by their sum plus one,

    r = (f_a − f_b) / (f_a + f_b + 1)          (``ratio=True``, LMArena's ``apply_ratio``
                                                 with ``add_one=True``; the raw difference
                                                 f_a − f_b where ``ratio`` is False),

then standardised over the votes: z = (r − mean r) / std r (numpy's population std, as
LMArena). A tie counts half a win to each side (LMArena duplicates every vote and labels a
tie once each way). The strengths θ are then the ratings *controlled for style*; β says how
much a unit of each standardised difference moves the log-odds.

The fit is unpenalised maximum likelihood by Newton's method (LMArena's scikit-learn call
keeps its default L2 penalty C = 1, negligible at arena sizes; here there is none), with the
Hessian assembled from per-vote weights by ``bincount`` (models) and one dense product
(features), so no vote is visited in Python.

References
----------
Li, T., Angelopoulos, A., Chiang, W.-L. (2024). Does style matter? Disentangling style and
substance in Chatbot Arena. LMSYS blog, 2024-08-28.

Examples
--------
>>> import numpy as np
>>> from rankwise.stats.battle_styles import style_fit
>>> rng = np.random.default_rng(0)
>>> a = rng.integers(0, 3, 400); b = (a + rng.integers(1, 3, 400)) % 3
>>> length_a, length_b = rng.integers(50, 500, 400), rng.integers(50, 500, 400)
>>> outcome = (rng.random(400) < 0.5).astype(int)
>>> r = style_fit((a, b, outcome), length_a[:, None], length_b[:, None])
>>> r.elo.shape, r.beta.shape
((3,), (1,))
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from scipy import linalg

from ..errors import RankwiseError
from . import battles

#: Newton's method stops when no parameter moves by more than this.
TOLERANCE = 1e-10
MAX_ITERATIONS = 100


@dataclass(frozen=True)
class StyleFit:
    """Ratings with and without style control.

    ``elo``/``theta``: controlled (scale 400, base 10, mean 1000 or the anchor at 1000);
    ``elo_plain``: the plain fit (ties as half, :func:`rankwise.stats.battles.fit`);
    ``beta``: one coefficient per feature (log-odds per standard deviation of z);
    ``rank``/``rank_plain``: 1 = best (equal ratings share the smaller rank);
    ``rank_change`` = rank_plain − rank (> 0: the model climbs under control);
    ``mean``/``std``: the normalisation of the features; ``loglik`` and ``iterations`` of the
    controlled fit.

    Examples
    --------
    >>> from rankwise.stats.battle_styles import StyleFit
    >>> "rank_change" in StyleFit.__dataclass_fields__
    True
    """

    theta: np.ndarray
    elo: np.ndarray
    beta: np.ndarray
    elo_plain: np.ndarray
    rank: np.ndarray
    rank_plain: np.ndarray
    rank_change: np.ndarray
    mean: np.ndarray
    std: np.ndarray
    loglik: float
    iterations: int


def _ranks(elo: np.ndarray) -> np.ndarray:
    order = -elo
    return 1 + (order[None, :] < order[:, None] - 1e-9).sum(axis=1)


def features(features_a, features_b, ratio=True) -> tuple:
    """The standardised style differences of the module docstring.

    Parameters
    ----------
    features_a, features_b : array
        (votes × features) features of each vote's two answers.
    ratio : bool or array of bool
        Divide each difference by f_a + f_b + 1 (per feature).

    Returns
    -------
    tuple
        (z, mean, std): z = (r − mean)/std per feature, r the (ratio of the) differences.

    References
    ----------
    FastChat ``construct_style_matrices`` (``apply_ratio``, ``add_one``).

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.stats.battle_styles import features
    >>> z, mean, std = features(np.array([[3.0], [1.0]]), np.array([[1.0], [3.0]]))
    >>> z.ravel().tolist(), mean.tolist(), std.tolist()
    ([1.0, -1.0], [0.0], [0.4])
    """
    fa, fb = np.asarray(features_a, dtype=float), np.asarray(features_b, dtype=float)
    if fa.ndim == 1:
        fa, fb = fa[:, None], fb[:, None] if fb.ndim == 1 else fb
    if fa.shape != fb.shape or fa.ndim != 2:
        raise RankwiseError(f"features_a and features_b must have the same shape (votes ×"
                            f" features); got {fa.shape} and {fb.shape}")
    if not (np.all(np.isfinite(fa)) and np.all(np.isfinite(fb))):
        raise RankwiseError("style features must be finite numbers; a vote has NaN or inf")
    use = np.broadcast_to(np.asarray(ratio, dtype=bool), fa.shape[1:])
    diff = fa - fb
    total = fa + fb + 1.0
    if np.any(use) and np.any(total[:, use] == 0):
        raise RankwiseError("a style feature has f_a + f_b + 1 = 0 in some vote; the ratio"
                            " needs features ≥ 0 (or ratio=False for that feature)")
    diff[:, use] = diff[:, use] / total[:, use]
    mean, std = diff.mean(axis=0), diff.std(axis=0)
    flat = np.flatnonzero(~(std > 0))
    if flat.size:
        raise RankwiseError(f"style feature {int(flat[0])} has the same difference in every"
                            " vote, so it cannot be standardised; drop it")
    return (diff - mean) / std, mean, std


def style_fit(votes, features_a, features_b, weight=None, k: int | None = None,
              ratio=True, anchor: int | None = None) -> StyleFit:
    """Bradley–Terry ratings controlled for style (LMArena's style control).

    logit P(a beats b) = θ_a − θ_b + β · z, z the standardised style differences
    (module docstring); ties count half a win to each side.

    Parameters
    ----------
    votes : Cells or tuple
        :func:`rankwise.stats.battles.cells` (its votes, through ``inverse``) or
        (a, b, outcome) arrays, one entry per vote.
    features_a, features_b : array
        (votes × features) style features of each vote's two answers (token counts, header
        counts, ...), in the order of the votes.
    weight : array, optional
        A weight per vote (needed again with weighted cells: cells keep sums only).
    k : int, optional
    ratio : bool or array of bool
        Divide each feature's difference by f_a + f_b + 1 before standardising.
    anchor : int, optional
        The model put at 1000.

    Returns
    -------
    StyleFit

    References
    ----------
    Li, Angelopoulos & Chiang (2024), "Does style matter?"; FastChat
    ``elo_analysis.py`` (``construct_style_matrices``, ``fit_mle_elo``).

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.stats.battle_styles import style_fit
    >>> rng = np.random.default_rng(1)
    >>> a = (rng.random(2000) < 0.5).astype(int); b = 1 - a      # sides drawn at random
    >>> own = rng.integers(100, 400, 2000), rng.integers(300, 900, 2000)   # 1 writes longer
    >>> la, lb = np.where(a == 1, own[1], own[0]), np.where(a == 1, own[0], own[1])
    >>> u = 3.0 * (la - lb) / (la + lb + 1)                     # only length decides
    >>> outcome = (rng.random(2000) > 1 / (1 + np.exp(-u))).astype(int)
    >>> r = style_fit((a, b, outcome), la, lb)
    >>> r.elo_plain.round().tolist(), r.elo.round().tolist()  # the gap is mostly style
    ([897.0, 1103.0], [993.0, 1007.0])
    """
    if isinstance(votes, battles.Cells):
        if votes.weight is not None and weight is None:
            weight = votes.weight
        a, b = votes.a[votes.inverse], votes.b[votes.inverse]
        outcome = votes.outcome[votes.inverse]
        k = votes.k if k is None else k
    else:
        try:
            a, b, outcome = votes
        except (TypeError, ValueError):
            raise RankwiseError("votes must be cells or a tuple (a, b, outcome)") from None
    c = battles.cells(a, b, outcome, weight, k)
    a, b = c.a[c.inverse], c.b[c.inverse]
    outcome = c.outcome[c.inverse]
    z, mean, std = features(features_a, features_b, ratio)
    if z.shape[0] != a.size:
        raise RankwiseError(f"style features must have one row per vote ({a.size}); got"
                            f" {z.shape[0]}")
    plain = battles.fit(c, ties="half", anchor=anchor)
    if (plain.bound != 0).any():
        i = int(np.flatnonzero(plain.bound)[0])
        raise RankwiseError(f"model {i} won or lost every vote, so its style-controlled rating"
                            " is infinite; fit without it (battles.fit gives it a bound)")
    w = np.ones(a.size) if c.weight is None else c.weight
    y = np.array([1.0, 0.0, 0.5])[outcome]
    theta, beta, steps, value = _newton(a, b, y, w, z, c.k)
    theta = theta - theta.mean()
    elo = battles.ratings(theta, plain.anchor)
    rank, rank_plain = _ranks(elo), _ranks(plain.elo)
    return StyleFit(theta=theta, elo=elo, beta=beta, elo_plain=plain.elo, rank=rank,
                    rank_plain=rank_plain, rank_change=rank_plain - rank, mean=mean, std=std,
                    loglik=value, iterations=steps)


def _newton(a, b, y, w, z, k):
    """Maximise Σ w [y log σ(u) + (1 − y) log σ(−u)], u = θ_a − θ_b + z β, with θ_0 = 0."""
    m = z.shape[1]
    theta, beta = np.zeros(k), np.zeros(m)

    def loglik(t, bt):
        u = t[a] - t[b] + z @ bt
        return float(np.sum(w * (-y * np.logaddexp(0.0, -u) - (1 - y) * np.logaddexp(0.0, u))))

    current = loglik(theta, beta)
    steps = 0
    for steps in range(1, MAX_ITERATIONS + 1):
        u = theta[a] - theta[b] + z @ beta
        p = 0.5 * (1.0 + np.tanh(0.5 * u))
        r = w * (y - p)
        s = w * p * (1.0 - p)
        grad = np.concatenate([np.bincount(a, r, k) - np.bincount(b, r, k), z.T @ r])
        pair = np.bincount(a * k + b, s, k * k).reshape(k, k)
        pair = pair + pair.T
        h = np.zeros((k + m, k + m))
        h[:k, :k] = np.diag(pair.sum(axis=1)) - pair
        sz = s[:, None] * z
        cross = np.stack([np.bincount(a, sz[:, f], k) - np.bincount(b, sz[:, f], k)
                          for f in range(m)], axis=1)
        h[:k, k:], h[k:, :k], h[k:, k:] = cross, cross.T, z.T @ sz
        free = np.arange(1, k + m)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", linalg.LinAlgWarning)
                step = linalg.cho_solve(linalg.cho_factor(h[np.ix_(free, free)]), grad[free])
        except (linalg.LinAlgError, linalg.LinAlgWarning, ValueError):
            step = linalg.lstsq(h[np.ix_(free, free)], grad[free])[0]
        size = 1.0
        while True:
            t_new, b_new = theta.copy(), beta + size * step[k - 1:]
            t_new[1:] += size * step[:k - 1]
            value = loglik(t_new, b_new)
            if value >= current - 1e-12 * abs(current) or size < 1e-8:
                break
            size *= 0.5
        theta, beta, current = t_new, b_new, value
        if np.max(np.abs(size * step)) < TOLERANCE:
            break
    return theta, beta, steps, current
