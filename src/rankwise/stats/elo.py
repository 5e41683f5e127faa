"""Bradley–Terry ("Elo") ratings from battles between learners, with a data-set bootstrap.

Every split (a data set's fold or seed) is a round in which each pair of learners that both
have a result fights one battle: the lower error (the better score) wins, equal scores tie
and count half a win to each. A battle weighs 1/(number of splits of its data set), so every
data set weighs 1 however many splits it ran. With ``w[i, j]`` the weighted wins of i over j
and ``n[i, j] = w[i, j] + w[j, i]`` the weighted battles between them, the Bradley–Terry
log-likelihood in log-strengths θ is

    ℓ(θ) = Σ_{i≠j} w[i, j] · (θ_i − log(e^θ_i + e^θ_j)),

concave; its maximum is unique up to a common shift when the "beats" graph is strongly
connected (Zermelo 1929; Ford 1957). The rating of a learner is

    Elo_i = 1000 + 400 · (θ_i − mean θ) / ln 10        (scale 400, base 10, initial 1000),

and ``anchor`` shifts every rating (and every bootstrap rating) so that the named learner is
at 1000. The interval is the 2.5 % and 97.5 % quantiles of the ratings refitted on data sets
drawn with replacement, centred as the point (mean 1000) and then shifted by the same anchor
offset, as TabArena's bencheval does (``post_calibrate``): the interval of the anchor itself
is then not zero.

A learner that wins every battle it fights (or loses every one) has an infinite maximum-
likelihood rating. It is taken out, the others are fitted, and its rating is given as a
*bound*: the rating at which its expected score against its opponents equals its observed
score less half of its lightest battle (as if it had drawn that one) — a lower bound for a
learner that won everything, an upper bound for one that lost everything. The report marks
it (≥ or ≤) and says so; nothing is infinite and nothing crashes.

On a complete table (every learner on every split) the weighted wins of a learner are
(k − its rank) summed over the splits, so the likelihood depends on the data only through
each learner's mean rank: the Bradley–Terry order *is* the (weighted) mean-rank order. The
solver uses that (:func:`fit_totals`) and never forms a k × k matrix per bootstrap round;
:func:`fit_totals_rounds` fits every bootstrap round of many learners at once.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from scipy import linalg, sparse

from ..defaults import LEADERBOARD_ROUNDS as ROUNDS, LEADERBOARD_SEED as SEED  # noqa: F401

#: TabArena's constants (bencheval 0.1.0 ``compute_elo``): scale, base, initial rating (its
#: bootstrap's rounds and seed are in :mod:`rankwise.defaults`).
SCALE = 400.0
BASE = 10.0
INITIAL = 1000.0
#: Newton's method stops when no log-strength moves by more than this (≈ 2e-8 Elo).
TOLERANCE = 1e-10
MAX_ITERATIONS = 200


def to_elo(theta: np.ndarray) -> np.ndarray:
    """Log-strengths → Elo ratings centred at 1000 (mean over the learners: the last axis, so
    that rows of rounds convert at once)."""
    return INITIAL + SCALE * (theta - theta.mean(axis=-1, keepdims=True)) / math.log(BASE)


def _newton(w: np.ndarray, n: np.ndarray | None, totals: np.ndarray | None,
            per_pair: float | None, theta0: np.ndarray | None) -> np.ndarray:
    """Maximise ℓ(θ) with Newton's method on the k − 1 free log-strengths (θ_0 = 0), with a
    backtracking line search. Either the pair matrices ``w``, ``n`` or, for a complete
    balanced schedule, the win ``totals`` and the weight ``per_pair`` of every pair."""
    k = len(totals) if totals is not None else w.shape[0]
    wins = totals if totals is not None else w.sum(axis=1)
    theta = np.zeros(k) if theta0 is None else theta0 - theta0[0]

    def loglik(t):
        d = t[:, None] - t[None, :]
        # log σ(d) = −log(1 + e^−d), stable both ways
        logsig = -np.logaddexp(0.0, -d)
        if totals is not None:
            return float(wins @ t - per_pair * 0.5 * np.sum(
                np.logaddexp(t[:, None], t[None, :])[~np.eye(k, dtype=bool)]))
        return float(np.sum(w * logsig))

    current = loglik(theta)
    for _ in range(MAX_ITERATIONS):
        d = theta[:, None] - theta[None, :]
        p = 0.5 * (1.0 + np.tanh(0.5 * d))          # σ(d), no overflow
        np.fill_diagonal(p, 0.0)
        games = per_pair if totals is not None else n
        expected = (games * p).sum(axis=1)
        grad = wins - expected
        h = games * p * p.T                          # n_ij p_ij p_ji
        np.fill_diagonal(h, 0.0)
        hess = np.diag(h.sum(axis=1)) - h            # −∇²ℓ (a weighted Laplacian)
        step = np.zeros(k)
        try:
            with warnings.catch_warnings():
                # an ill-conditioned Hessian (near-separated learners) goes to least squares
                # instead of warning the user about a matrix they never see
                warnings.simplefilter("error", linalg.LinAlgWarning)
                step[1:] = linalg.solve(hess[1:, 1:], grad[1:], assume_a="pos")
        except (linalg.LinAlgError, linalg.LinAlgWarning, ValueError):
            step[1:] = linalg.lstsq(hess[1:, 1:], grad[1:])[0]
        size = 1.0
        while True:
            trial = theta + size * step
            value = loglik(trial)
            if value >= current - 1e-12 * abs(current) or size < 1e-8:
                break
            size *= 0.5
        theta, current = trial, value
        if np.max(np.abs(size * step)) < TOLERANCE:
            break
    return theta


#: Above this many learners the complete-schedule fit solves each Newton step by conjugate
#: gradients (k² work per product) instead of factorising a (k − 1)² system; the Hessian is a
#: weighted complete-graph Laplacian, well conditioned off the constant direction, so a few
#: products suffice (tested equal to the factorised steps to 1e-9).
CG_FROM = 150


def _newton_cg_totals(totals: np.ndarray, per_pair: float, theta0) -> np.ndarray:
    """Newton's method on a complete schedule with each step solved by preconditioned
    conjugate gradients on the centred vectors; a step that does not shrink the gradient is
    halved."""
    k = totals.size
    theta = np.zeros(k) if theta0 is None else theta0 - theta0.mean()

    def state(t):
        # p_ij = e_i / (e_i + e_j): k exponentials and k² divisions, not k² of them
        e = np.exp(np.maximum(t - t.max(), -700.0))
        p = e[:, None] / (e[:, None] + e[None, :])
        np.fill_diagonal(p, 0.0)
        return p, totals - per_pair * p.sum(axis=1)

    p, g = state(theta)
    for _ in range(MAX_ITERATIONS):
        a = per_pair * p * (1.0 - p)       # n p_ij p_ji, as p_ji = 1 − p_ij
        np.fill_diagonal(a, 0.0)
        d = a.sum(axis=1)
        step = _cg(lambda v: d * v - a @ v, g - g.mean(), 1.0 / np.maximum(d, 1e-300))
        size = 1.0
        while True:
            trial = theta + size * step
            trial -= trial.mean()
            p_new, g_new = state(trial)
            if np.abs(g_new).max() <= np.abs(g).max() * (1 + 1e-12) or size < 1e-8:
                break
            size *= 0.5
        theta, p, g = trial, p_new, g_new
        if np.max(np.abs(size * step)) < TOLERANCE:
            break
    return theta


def _cg(matvec, b: np.ndarray, inverse_diagonal: np.ndarray) -> np.ndarray:
    """Preconditioned conjugate gradients for the centred solution of ``matvec(x) = b``."""
    x = np.zeros_like(b)
    r = b.copy()
    z = inverse_diagonal * r
    z -= z.mean()
    q = z.copy()
    rz = r @ z
    scale = np.linalg.norm(b)
    if scale == 0.0:
        return x
    for _ in range(max(50, 4 * b.size)):
        aq = matvec(q)
        alpha = rz / (q @ aq)
        x += alpha * q
        r -= alpha * aq
        if np.linalg.norm(r) <= 1e-13 * scale:
            break
        z = inverse_diagonal * r
        z -= z.mean()
        rz_new = r @ z
        q = z + (rz_new / rz) * q
        rz = rz_new
    return x - x.mean()


def _peeled(k: int, found, after=None) -> tuple[np.ndarray, np.ndarray]:
    """``(order, sides)``: learners that won (side +1) or lost (−1) every battle they fought
    among those still in, taken out one after another (taking one out can leave another
    undefeated). ``found(alive)`` gives the (top, bottom) masks; ``after(i, side, alive)``
    updates what ``found`` reads once learner i is out."""
    alive = np.ones(k, dtype=bool)
    order, sides = [], []
    while alive.sum() > 1:
        top, bottom = found(alive)
        if not top.any() and not bottom.any():
            break
        for i in np.flatnonzero(top | bottom):
            order.append(int(i))
            sides.append(1 if top[i] else -1)
            alive[i] = False
            if after is not None:
                after(i, sides[-1], alive)
    return np.array(order, dtype=int), np.array(sides, dtype=int)


def _peel(w: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_peeled` on the pair matrices."""
    def found(alive):
        both = alive[:, None] & alive[None, :]
        fought = np.where(both, n, 0.0).sum(axis=1)
        won = np.where(both, w, 0.0).sum(axis=1)
        top = alive & (fought > 0) & (won >= fought)
        return top, alive & (fought > 0) & (won <= 0) & ~top
    return _peeled(w.shape[0], found)


def _bound(side: int, others: np.ndarray, games: np.ndarray, won: float,
           lightest: float) -> float:
    """The log-strength at which a learner's expected score against opponents of
    log-strengths ``others`` (``games`` weighted battles with each) equals its observed score
    ``won`` less (side +1) or plus (side −1) half its lightest battle."""
    if games.size == 0:
        return float("nan")
    target = won - side * 0.5 * lightest
    lo, hi = others.min() - 60.0, others.max() + 60.0
    for _ in range(200):                          # bisection: the score rises with θ
        mid = 0.5 * (lo + hi)
        score = float(np.sum(games * 0.5 * (1.0 + np.tanh(0.5 * (mid - others)))))
        lo, hi = (mid, hi) if score < target else (lo, mid)
    return 0.5 * (lo + hi)


def fit(w: np.ndarray, n: np.ndarray, lightest: float,
        theta0: np.ndarray | None = None) -> tuple:
    """``(theta, bound)``: the maximum-likelihood log-strengths of the pair matrices ``w``
    (weighted wins of row over column) and ``n`` (weighted battles), and for each learner 0,
    or +1/−1 where its value is the lower/upper bound of an infinite maximum (module
    docstring); ``lightest``: the weight of the lightest single battle."""
    k = w.shape[0]
    order, sides = _peel(w, n)
    alive = np.ones(k, dtype=bool)
    alive[order] = False
    theta, bound = np.zeros(k), np.zeros(k, dtype=int)
    if alive.sum() >= 2:
        keep = np.flatnonzero(alive)
        sub = np.ix_(keep, keep)
        theta[keep], bound[keep] = _pair_blocks(w[sub], n[sub], lightest,
                                                None if theta0 is None else theta0[keep])
    for i, side, met in put_back(order, sides, alive, n > 0):
        theta[i] = _bound(side, theta[met], n[i, met], float(w[i, met].sum()), lightest)
        bound[i] = side
    return theta, bound


def put_back(order, sides, alive: np.ndarray, played: np.ndarray):
    """``(learner, side, met)`` for each peeled learner that met a learner already back, in
    the order they go back, marking each back in ``alive`` (changed in place). The last taken
    out goes back first; learners taken out in one pass may have met only each other, so one
    that met none of those back yet waits for one that did (its bound would have no opponent:
    NaN); one that met none at all starts a part of its own (nothing yielded for it).

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.stats.elo import put_back
    >>> played = np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]], dtype=bool)
    >>> alive = np.array([False, True, False])
    >>> [(int(i), s) for i, s, _ in put_back([0, 2], [1, -1], alive, played)]
    [(2, -1), (0, 1)]
    """
    pending = list(zip(order, sides))
    while pending:
        ready = [p for p, (i, _) in enumerate(pending) if (alive & played[i]).any()]
        i, side = pending.pop(ready[-1] if ready else len(pending) - 1)
        met = alive & played[i]
        if met.any():
            yield i, side, met
        alive[i] = True


def _pair_split(w: np.ndarray, n: np.ndarray) -> np.ndarray | None:
    """The learners of a group that no learner outside it took anything from (not a win, not
    a tie) though they met: a strongly connected component of "took something from" with no
    edge into it and a battle out of it. None when there is none."""
    from scipy.sparse.csgraph import connected_components

    count, label = connected_components(sparse.csr_matrix(w > 0), directed=True,
                                        connection="strong")
    if count < 2:
        return None
    took = w > 0
    for c in range(count):
        inside = label == c
        if not took[np.ix_(~inside, inside)].any() and (n[np.ix_(inside, ~inside)] > 0).any():
            return np.flatnonzero(inside)
    return None


def _pair_blocks(w: np.ndarray, n: np.ndarray, lightest: float, start) -> tuple:
    """:func:`_blocks` on the pair matrices: a group that won every battle against the
    others it met is fitted on its own, the others on their own, and the group set where its
    expected score against them equals its observed score less half the lightest battle."""
    k = w.shape[0]
    top = _pair_split(w, n)
    if top is None or top.size == k:
        return _newton(w, n, None, None, start), np.zeros(k, dtype=int)
    upper = np.zeros(k, dtype=bool)
    upper[top] = True
    rest = np.flatnonzero(~upper)
    theta, bound = np.zeros(k), np.zeros(k, dtype=int)
    theta[top], bound[top] = fit(w[np.ix_(top, top)], n[np.ix_(top, top)], lightest)
    theta[rest], bound[rest] = fit(w[np.ix_(rest, rest)], n[np.ix_(rest, rest)], lightest)
    return _set_group(theta, bound, top, rest, n[np.ix_(top, rest)],
                      float(w[np.ix_(top, rest)].sum()) - 0.5 * lightest)


def _set_group(theta, bound, top, rest, games, target) -> tuple:
    """The group ``top`` moved as one until its expected score against ``rest`` (``games``
    weighted battles a pair) is ``target``, its ratings marked :data:`GROUP`; centred."""
    gap = theta[top][:, None] - theta[rest][None, :]
    lo, hi = -60.0 - gap.max(), 60.0 - gap.min()
    for _ in range(200):                         # bisection: the group's score rises with it
        mid = 0.5 * (lo + hi)
        score = float(np.sum(games * 0.5 * (1.0 + np.tanh(0.5 * (gap + mid)))))
        lo, hi = (mid, hi) if score < target else (lo, mid)
    theta[top] += 0.5 * (lo + hi)
    bound[top] = np.where(bound[top] == 0, GROUP, bound[top])
    return theta - theta.mean(), bound


def fit_totals(totals: np.ndarray, per_pair: float, lightest: float,
               theta0: np.ndarray | None = None) -> tuple:
    """:func:`fit` for a complete, balanced schedule (every pair fought ``per_pair`` weighted
    battles) from the win totals alone: no k × k matrix. A learner with every win beat every
    other one, and one with none lost to every other one, so taking it out leaves a complete,
    balanced schedule again, with the others' totals less what they won against it."""
    totals = np.asarray(totals, dtype=float).copy()
    k = totals.size
    eps = 1e-9 * per_pair

    def found(alive):
        top = alive & (totals >= per_pair * (int(alive.sum()) - 1) - eps)
        return top, alive & (totals <= eps) & ~top

    def after(i, side, alive):
        if side < 0:                                  # each other learner beat it once
            totals[alive] -= per_pair

    order, sides = _peeled(k, found, after)
    alive = np.ones(k, dtype=bool)
    alive[order] = False
    theta, bound = np.zeros(k), np.zeros(k, dtype=int)
    if alive.sum() >= 2:
        keep = np.flatnonzero(alive)
        start = None if theta0 is None else theta0[keep]
        theta[keep], bound[keep] = _blocks(totals[keep], per_pair, lightest, start)
    for i, side in zip(order[::-1], sides[::-1]):
        if alive.any():
            others = theta[alive]
            games = np.full(others.size, per_pair)
            won = per_pair * others.size if side > 0 else 0.0
            theta[i] = _bound(side, others, games, won, lightest)
            bound[i] = side
        alive[i] = True
    return theta, bound


#: ``bound`` of a learner whose rating is a lower bound as one of a group that won every battle
#: against the others (not every battle it fought): :func:`_blocks`.
GROUP = 2


def _split(totals: np.ndarray, per_pair: float) -> np.ndarray | None:
    """The learners of the smallest group (of two or more) that won every battle against
    every learner outside it, in a complete balanced schedule: the m largest totals add up
    to per_pair · (m(m − 1)/2 + m(k − m)) exactly then. None when there is no such group."""
    k = totals.size
    order = np.argsort(-totals, kind="stable")
    m = np.arange(1, k)
    most = per_pair * (m * (m - 1) / 2.0 + m * (k - m))
    hit = np.flatnonzero(np.cumsum(totals[order])[:-1] >= most - 1e-9 * per_pair * k * k)
    return None if not hit.size else order[:hit[0] + 1]


def _blocks(totals: np.ndarray, per_pair: float, lightest: float, start) -> tuple:
    """``(theta, bound)`` of learners none of whom won or lost every battle. A group that won
    every battle against the others (their maximum-likelihood gap is infinite, as a single
    learner's) is fitted on its own, the others on their own, and the group is then set where
    its expected score against the others equals its observed score less half the lightest
    battle (the bound of :func:`_bound`, for a group): its members' ratings are lower
    bounds (:data:`GROUP`). Without such a group: Newton's method."""
    k = totals.size
    top = _split(totals, per_pair)
    if top is None:
        theta = (_newton_cg_totals(totals, per_pair, start) if k > CG_FROM else
                 _newton(None, None, totals, per_pair, start))
        return theta, np.zeros(k, dtype=int)
    upper = np.zeros(k, dtype=bool)
    upper[top] = True
    rest = np.flatnonzero(~upper)
    theta, bound = np.zeros(k), np.zeros(k, dtype=int)
    # the group's totals less its wins over the rest; the rest won nothing against the group
    theta[top], bound[top] = fit_totals(totals[top] - per_pair * rest.size, per_pair,
                                        lightest)
    theta[rest], bound[rest] = fit_totals(totals[rest], per_pair, lightest)
    return _set_group(theta, bound, top, rest, per_pair,
                      per_pair * top.size * rest.size - 0.5 * lightest)


#: The chord iterations of :func:`fit_totals_rounds` give up after this many (a round that has
#: not converged by then is fitted by :func:`fit_totals` alone).
CHORD_ITERATIONS = 100
#: Rows of the k × k win probabilities held at once (a block that stays in the cache).
_ROWS_AT_ONCE = 64


def _win_shares(theta: np.ndarray, buffer: np.ndarray) -> np.ndarray:
    """Σ_{j≠i} σ(θ_i − θ_j) for every i: the expected wins per unit weight of each pair, from
    the pairs above the diagonal only (σ(θ_j − θ_i) = 1 − σ(θ_i − θ_j)), a block of rows at a
    time in ``buffer``."""
    k = theta.size
    e = np.exp(np.maximum(theta - theta.max(), -700.0))
    out = np.zeros(k)
    rows = _ROWS_AT_ONCE
    for lo in range(0, k, rows):
        hi = min(lo + rows, k)
        v = buffer[:(hi - lo) * (k - lo)].reshape(hi - lo, k - lo)
        np.add(e[lo:hi, None], e[None, lo:], out=v)
        np.divide(e[lo:hi, None], v, out=v)          # σ(θ_i − θ_j) = e_i / (e_i + e_j)
        out[lo:hi] += v.sum(axis=1)
        out[hi:] += (hi - lo) - v[:, hi - lo:].sum(axis=0)
    return out - 0.5                                  # the diagonal's σ(0)


def fit_totals_rounds(totals: np.ndarray, per_pair: np.ndarray, lightest: float,
                      theta0: np.ndarray) -> tuple:
    """:func:`fit_totals` of every row of ``totals`` (a bootstrap round's win totals, each
    with its ``per_pair``), started from ``theta0``: ``(theta, bound)``, one row per round.

    Beyond :data:`CG_FROM` learners the rounds that take no learner out are solved together
    by chord iterations: Newton's method with the Hessian of ``theta0`` (factorised once, for
    every round) in place of each round's own, so that an iteration costs each round only
    its expected wins (k²/2 divisions) and all rounds one triangular solve. A round of a
    bootstrap lies close to the point fit, so each iteration shrinks the error by a factor
    of about 0.07 and ten or so reach :data:`TOLERANCE`, the tolerance of the Newton steps;
    a round whose steps shrink slowly (far from the point fit) or not at all, and every
    round with fewer learners, is fitted by :func:`fit_totals` alone."""
    totals = np.asarray(totals, dtype=float)
    per_pair = np.broadcast_to(np.asarray(per_pair, dtype=float), totals.shape[:1])
    rounds, k = totals.shape
    theta, bound = np.zeros((rounds, k)), np.zeros((rounds, k), dtype=int)
    alone = np.ones(rounds, dtype=bool)
    if k > CG_FROM and np.isfinite(theta0).all():
        eps = 1e-9 * per_pair[:, None]
        extreme = ((totals >= per_pair[:, None] * (k - 1) - eps) | (totals <= eps)).any(axis=1)
        together = np.flatnonzero(~extreme)
        if together.size:
            theta[together], done = _chord_rounds(totals[together] / per_pair[together, None],
                                                  theta0)
            alone[together[done]] = False
    for r in np.flatnonzero(alone):
        theta[r], bound[r] = fit_totals(totals[r], per_pair[r], lightest, theta0)
    return theta, bound


def _chord_rounds(shares: np.ndarray, theta0: np.ndarray) -> tuple:
    """``(theta, converged)``: the log-strengths (mean 0) whose expected wins per unit weight
    of each pair are the rows of ``shares``, by chord iterations from ``theta0``
    (:func:`fit_totals_rounds`); θ_0 stays where it started, the others move."""
    rounds, k = shares.shape
    start = theta0 - theta0.mean()
    e = np.exp(np.maximum(start - start.max(), -700.0))
    p = e[:, None] / (e[:, None] + e[None, :])
    a = p * (1.0 - p)                                 # the Hessian per unit weight of a pair
    np.fill_diagonal(a, 0.0)
    hessian = np.diag(a.sum(axis=1)) - a
    x = np.tile(start, (rounds, 1))
    converged = np.zeros(rounds, dtype=bool)
    try:
        factor = linalg.cho_factor(hessian[1:, 1:])
    except (linalg.LinAlgError, ValueError):
        return x, converged
    buffer = np.empty(_ROWS_AT_ONCE * k)
    base = _win_shares(start, buffer)                 # every round starts at the same θ
    gradient = shares - base
    live = np.arange(rounds)
    before = np.full(rounds, np.inf)
    for iteration in range(CHORD_ITERATIONS):
        step = linalg.cho_solve(factor, gradient[:, 1:].T).T
        x[live, 1:] += step
        moved = np.abs(step).max(axis=1)
        converged[live[moved < TOLERANCE]] = True
        # a round far from the start (whose steps do not at least halve after the first few)
        # or one that overflowed is left to its own Newton method
        keep = (moved >= TOLERANCE) & np.isfinite(moved) & (
            (iteration < 4) | (moved <= 0.5 * before[live]))
        before[live] = moved
        live = live[keep]
        if not live.size:
            break
        gradient = shares[live] - np.array([_win_shares(x[r], buffer) for r in live])
    return x - x.mean(axis=1, keepdims=True), converged
