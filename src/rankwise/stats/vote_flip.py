"""How many votes decide a claim such as "#1 = X": the fewest votes whose removal flips it.

A vote log is given as *cells* (the battles convention of rankwise): models 0..k−1, and for
each cell c the pair ``a[c], b[c]`` as voted, the ``outcome[c]`` (0: a wins, 1: b wins, 2: a
tie) and the number ``n[c]`` of such votes. A tie counts half a win to each side, so with
``w[i, j]`` the wins of i over j plus half their ties and ``m = w + wᵀ`` the votes of each
pair, the Bradley–Terry log-strengths θ maximise

    ℓ(θ) = Σ_{i≠j} w[i, j] · log σ(θ_i − θ_j),        σ(x) = 1 / (1 + e^−x),

fitted by :func:`rankwise.stats.elo.fit` (a model that won or lost all its votes gets the
bound stated there, never infinity). The claim "X ahead of Y" holds while θ_X > θ_Y; it is
*flipped* by a removal after which the refit puts Y at or above X (θ_Y ≥ θ_X − 1e-9, the
fit's tolerance). A removal that leaves X without a vote, or Y with no chain of votes to X,
rates them on no common scale and flips nothing (a log in parts is refitted part by part).
The claim ``"first"`` is "#1 = X ahead of every other model", X the fitted
#1 (or the one named); it is flipped by flipping "X ahead of Y" for any challenger Y, so its
answer is the smallest over the challengers: every challenger's linearised answer is computed
(one solve for all), and the :data:`CHALLENGERS_SEARCHED` smallest are searched with refits.

The votes of one cell are exchangeable, so a removal is a count ``r[c] ≤ n[c]`` per cell.
Removing one vote of cell c (a against b, a's score s = 1, 0 or ½) moves the gap
d = θ_X − θ_Y, to first order, by

    Δd_c = −(u_a − u_b) · (s − σ(θ_a − θ_b)),        J u = e_X − e_Y,

where J = −∇²ℓ(θ̂) is the Bradley–Terry information (a weighted graph Laplacian; one solve
per claim, every cell at once): the linearised influence of dropping data (Broderick, Giordano
& Meager 2020) that Huang, Shen, Wei & Broderick (2025) apply to arena leaderboards (a model
that won or lost all its votes moves through its bound instead: :func:`vote_influence`). The
search takes votes from the cells of the most negative Δd until the predicted change closes
the gap, refits, and repeats from the refit until the refit flips; then, cell by cell, it
puts back 1, 2, 4, … votes while the refit still flips and halves the interval to the most
that can go back, until no cell can give back a single vote (the set is then
*removal-minimal*). When X won every vote its rating is a bound, which a free challenger's
linearised influence does not reach, so the search also starts from the removal of every vote
the challenger did not win (it then has a bound of its own). Its total is an upper bound on
the fewest votes, confirmed by the refit; on Chatbot Arena's 129 models it takes about 30
refits.

Exact answers: with two models the gap is log(w_XY / w_YX), so the fewest votes are the
X-wins ⌈w_XY − w_YX⌉ (ties move both sides alike); otherwise, when the removals of fewer votes
than the bound number at most :data:`EXHAUSTIVE_LIMIT` (and the models at most
:data:`EXHAUSTIVE_MODELS`), every one of them is refitted in order
of size, and the first that flips (or none: the bound) is the exact answer. When the search
space is larger the result says "upper bound" and gives the lower bound it certified (1: the
claim holds now); a set of one vote is exact.

References
----------
Broderick, T., Giordano, R. & Meager, R. (2020). An automatic finite-sample robustness metric:
when can dropping a little data make a big difference? arXiv:2011.14999.
Huang, J. Y., Shen, Y., Wei, D. & Broderick, T. (2025). Dropping just a handful of
preferences can change top large language model rankings. arXiv:2508.11847.
Bradley, R. A. & Terry, M. E. (1952). Rank analysis of incomplete block designs: I. The method
of paired comparisons. Biometrika 39, 324–345.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
from scipy import linalg, sparse
from scipy.sparse.csgraph import connected_components

from ..errors import RankwiseError
from . import elo
from .threads import one_blas_thread

#: The gap θ_X − θ_Y at or below which Y counts as at or above X (the fit's tolerance, 1e-10,
#: with room for the bound of a peeled model).
FLIPPED_AT = 1e-9
#: The most removals the exhaustive search refits (smaller search spaces are answered exactly):
#: one refit of a few models takes about a millisecond, so this is a few seconds at most.
EXHAUSTIVE_LIMIT = 5_000
#: The exhaustive search runs only on logs of at most this many models (a refit of k models
#: costs about k² work, so larger logs would spend seconds on a few hundred removals).
EXHAUSTIVE_MODELS = 16
#: The most refits the influence search spends on one claim (greedy steps, pruning, checks).
MAX_REFITS = 40
#: With the claim "first", the challengers whose linearised answer is smallest that are searched
#: with refits (the others are ranked by the linearised answer only).
CHALLENGERS_SEARCHED = 3
#: One vote: the lightest battle (the bound of a model that won or lost all its votes).
ONE_VOTE = 1.0


@dataclass(frozen=True)
class VoteFlip:
    """The fewest votes found whose removal flips a claim "X ahead of Y".

    ``cells`` index the input cells with votes removed and ``removed`` says how many of each;
    ``votes`` is their total and ``share`` its fraction of all votes. ``elo_before`` and
    ``elo_after`` are the Elo ratings (:func:`rankwise.stats.elo.to_elo`) of X and Y before and
    after the removal; ``confirmed`` says the refit puts Y at or above X. ``exact`` says
    ``votes`` is the fewest possible; otherwise it is an upper bound and ``lower`` the certified
    lower bound. ``minimal`` says no single vote of the set can be put back.
    ``found`` is False when no flip was found within ``max_votes`` or the refit budget (then
    ``votes`` is 0 and ``lower`` what was certified). ``refits`` counts the Bradley–Terry fits
    spent (the first included).

    References
    ----------
    Huang, J. Y., Shen, Y., Wei, D. & Broderick, T. (2025). Dropping just a handful of
    preferences can change top large language model rankings. arXiv:2508.11847.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.stats.vote_flip import fewest_votes_to_flip
    >>> a, b = np.array([0, 0]), np.array([1, 1])
    >>> out = fewest_votes_to_flip(a, b, np.array([0, 1]), np.array([12.0, 9.0]), 2)
    >>> out.claim, out.votes, out.exact, out.confirmed
    ('#1 = model 0 ahead of model 1', 3, True, True)
    """

    claim: str
    first: int
    challenger: int
    cells: np.ndarray
    removed: np.ndarray
    votes: int
    share: float
    elo_before: tuple
    elo_after: tuple
    confirmed: bool
    found: bool
    exact: bool
    lower: int
    minimal: bool
    method: str
    refits: int


def _wins(a, b, outcome, n, k: int) -> tuple:
    """``(w, m)``: the k × k wins of row over column with ties as half (w) and the votes of
    each pair (m = w + wᵀ) of the cells ``a, b, outcome, n``; ``n`` may carry leading axes
    (one removal per row), then so do ``w`` and ``m``."""
    score = np.where(outcome == 0, 1.0, np.where(outcome == 1, 0.0, 0.5))
    index = np.concatenate([a * k + b, b * k + a])
    n = np.asarray(n, dtype=float)
    weight = np.concatenate([score * n, (1.0 - score) * n], axis=-1)
    rows = weight.reshape(-1, index.size)
    # one bincount for every row at once: row r's cells land in r's own block of k² bins
    offset = (np.arange(rows.shape[0]) * k * k)[:, None] + index[None, :]
    w = np.bincount(offset.ravel(), weights=rows.ravel(),
                    minlength=rows.shape[0] * k * k).reshape(n.shape[:-1] + (k, k))
    return w, w + np.swapaxes(w, -1, -2)


def _cells(a, b, outcome, n, k) -> tuple:
    """The cells as arrays, checked (one-line errors)."""
    k = _whole("k", k)
    if k < 2:
        raise RankwiseError(f"a vote log needs at least 2 models; got k = {k}")
    arrays = [np.asarray(x).ravel() for x in (a, b, outcome, n)]
    if len({x.size for x in arrays}) != 1:
        raise RankwiseError("a, b, outcome and n must have one entry per cell; got lengths "
                            + ", ".join(str(x.size) for x in arrays))
    a, b, outcome, n = arrays
    for name, x in (("a", a), ("b", b), ("outcome", outcome)):
        if x.size and (not np.issubdtype(x.dtype, np.integer)):
            raise RankwiseError(f"{name} must hold whole numbers (model indices or outcomes);"
                                f" got dtype {x.dtype}")
    a, b, outcome = a.astype(np.int64), b.astype(np.int64), outcome.astype(np.int8)
    if a.size and (min(a.min(), b.min()) < 0 or max(a.max(), b.max()) >= k):
        raise RankwiseError(f"a model index is outside 0..{k - 1}; give k as the number of"
                            " models")
    if np.any(a == b):
        raise RankwiseError(f"cell {int(np.flatnonzero(a == b)[0])} pits a model against"
                            " itself; drop it from the log")
    if a.size and not np.isin(outcome, (0, 1, 2)).all():
        raise RankwiseError("outcome must be 0 (a wins), 1 (b wins) or 2 (tie)")
    n = n.astype(float) if np.issubdtype(n.dtype, np.number) else n
    if not np.issubdtype(n.dtype, np.number) or not np.isfinite(n).all() or (n < 0).any() \
            or (n != np.round(n)).any():
        raise RankwiseError("n must hold whole, non-negative vote counts per cell")
    if n.sum() <= 0:
        raise RankwiseError("the vote log is empty: no cell has a vote")
    return a, b, outcome, n, k


def _whole(name, value) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise RankwiseError(f"{name} must be a whole number; got {value!r}")
    return int(value)


class _Claim:
    """Refits of one log, counted; the gap θ_X − θ_Y of a removal."""

    def __init__(self, cells, k, start):
        self.a, self.b, self.outcome, self.n = cells
        self.k, self.theta, self.refits, self.fitted = k, start, 0, None
        self.score = np.where(self.outcome == 0, 1.0, np.where(self.outcome == 1, 0.0, 0.5))

    def fit(self, removed):
        """``(theta, (m, bound, part))`` of the log less ``removed`` votes per cell; ``part``
        labels the connected parts of the log (a model with no vote is a part of its own).

        A log in several parts is fitted part by part, each centred: ratings in different
        parts are not comparable (:func:`_rated_with`), and one fit of them all would solve
        a singular system whose answer varies with the linear algebra library."""
        w, m = _wins(self.a, self.b, self.outcome, self.n - removed, self.k)
        self.refits += 1
        count, part = connected_components(sparse.csr_matrix(m > 0), directed=False)
        if count == 1:
            theta, bound = elo.fit(w, m, ONE_VOTE, self.theta)
            return theta, (m, bound, part)
        theta, bound = np.zeros(self.k), np.zeros(self.k, dtype=int)
        for label in range(count):
            keep = np.flatnonzero(part == label)
            if keep.size < 2:
                continue
            sub = np.ix_(keep, keep)
            start = None if self.theta is None else self.theta[keep]
            theta[keep], bound[keep] = elo.fit(w[sub], m[sub], ONE_VOTE, start)
            theta[keep] -= theta[keep].mean()
        return theta, (m, bound, part)

    def influence(self, theta, fitted, targets):
        """Δd of one vote of every cell (rows) for the gaps θ_X − θ_Y of ``targets``
        (columns: e_X − e_Y).

        A model that won or lost all its votes was taken out of the fit of the others and
        given the bound θ_i at which Σ_j m_ij σ(θ_i − θ_j) = (its wins) ∓ ½: its votes move
        only its bound, by (σ(θ_i − θ_j) − s_i) / D_i with D_i = Σ_j m_ij σ_ij (1 − σ_ij),
        and it follows the others' moves with weights m_ij σ_ij (1 − σ_ij) / D_i."""
        m, bound, part = fitted
        # only the models of X's part (X: the row of +1) move its gaps; the others' votes
        # have no influence
        free = (bound == 0) & (part == part[np.argmax(targets.sum(axis=1))])
        p = 0.5 * (1.0 + np.tanh(0.5 * (theta[:, None] - theta[None, :])))
        h = np.where(free[:, None] & free[None, :], m * p * p.T, 0.0)
        np.fill_diagonal(h, 0.0)
        slope = m * p * p.T                    # the bounds' sensitivities, row by row
        np.fill_diagonal(slope, 0.0)
        slope[:, ~free] = 0.0
        spread = slope.sum(axis=1)
        follow = np.divide(slope, spread[:, None], out=np.zeros_like(slope),
                           where=spread[:, None] > 0)
        # a gap that holds a bounded model holds, through it, the free models it follows
        effective = np.where(free[:, None], targets, 0.0) + follow[~free].T @ targets[~free]
        keep = np.flatnonzero(free)
        u = np.zeros_like(targets)
        if keep.size >= 2:
            info = np.diag(h.sum(axis=1)) - h
            sub = keep[1:]
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("error", linalg.LinAlgWarning)
                    u[sub] = linalg.solve(info[np.ix_(sub, sub)], effective[sub],
                                          assume_a="pos")
            except (linalg.LinAlgError, linalg.LinAlgWarning, ValueError):
                u[sub] = linalg.lstsq(info[np.ix_(sub, sub)], effective[sub])[0]
        pab = p[self.a, self.b]
        both = (free[self.a] & free[self.b])[:, None]
        effect = np.where(both, -(u[self.a] - u[self.b]) * (self.score - pab)[:, None], 0.0)
        inverse = np.divide(1.0, spread, out=np.zeros_like(spread), where=spread > 0)
        side_a = (~free[self.a] & free[self.b])[:, None]
        side_b = (free[self.a] & ~free[self.b])[:, None]
        effect += np.where(side_a, targets[self.a] * ((pab - self.score)
                                                      * inverse[self.a])[:, None], 0.0)
        effect += np.where(side_b, targets[self.b] * ((self.score - pab)
                                                      * inverse[self.b])[:, None], 0.0)
        return effect


def _take(effect, left, gap) -> np.ndarray:
    """Votes per cell, most negative ``effect`` first, whose summed effect closes ``gap`` (at
    least one vote); all cells of negative effect when they cannot."""
    order = np.argsort(effect, kind="stable")
    useful = order[effect[order] < 0]
    take = np.zeros(effect.size)
    if not useful.size:
        return take
    closes = np.cumsum(-effect[useful] * left[useful])
    last = int(np.searchsorted(closes, gap))
    if last >= useful.size:
        take[useful] = left[useful]
        return take
    take[useful[:last]] = left[useful[:last]]
    before = closes[last - 1] if last else 0.0
    c = useful[last]
    take[c] = min(left[c], max(1.0, math.ceil((gap - before) / -effect[c])))
    return take


def _predicted(effect, n, gap) -> np.ndarray:
    """The linearised fewest votes for every column of ``effect`` (∞ where no removal
    closes the gap), vectorised over columns."""
    order = np.argsort(effect, axis=0, kind="stable")
    eff = np.take_along_axis(effect, order, axis=0)
    counts = n[order]
    gain = np.cumsum(np.where(eff < 0, -eff * counts, 0.0), axis=0)
    votes = np.cumsum(counts, axis=0)
    last = np.minimum((gain < gap[None, :]).sum(axis=0), effect.shape[0] - 1)
    cols = np.arange(effect.shape[1])
    ok = gain[last, cols] >= gap
    before_gain = np.where(last > 0, gain[np.maximum(last - 1, 0), cols], 0.0)
    before_votes = np.where(last > 0, votes[np.maximum(last - 1, 0), cols], 0.0)
    per = np.maximum(-eff[last, cols], 1e-300)
    need = before_votes + np.maximum(1.0, np.ceil((gap - before_gain) / per))
    return np.where(ok, need, np.inf)


def _rated_with(fitted, x, others) -> np.ndarray:
    """The models of ``others`` that the refit rates against x: those in x's part of the log,
    x keeping a vote. A model with no vote left has no rating at all, and ratings in parts
    that no vote joins have no common origin, so no removal that cuts X from Y flips "X ahead
    of Y" (taking every vote of X would otherwise flip any claim about X)."""
    m, _, part = fitted
    if not m[x].any():
        return others[:0]
    return others[part[others] == part[x]]


def _greedy(state, x, y, theta, m, removed, max_votes, steps) -> tuple:
    """Take votes by influence and refit until the refit puts y at or above x: ``(removed,
    theta, effect, found)``; ``effect`` is the last influence of one vote of each cell. A
    refit that cuts y from x (:func:`_rated_with`) ends the search unfound: no later removal
    joins them again."""
    target = np.zeros((state.k, 1))
    target[x, 0], target[y, 0] = 1.0, -1.0
    effect = np.zeros(state.n.size)
    rival = np.array([y])
    for _ in range(steps):
        if not _rated_with(m, x, rival).size:
            return removed, theta, effect, False
        gap = theta[x] - theta[y]
        if gap <= FLIPPED_AT:
            return removed, theta, effect, True
        effect = state.influence(theta, m, target)[:, 0]
        take = _take(effect, state.n - removed, gap)
        if not take.any() or (max_votes is not None and removed.sum() + take.sum() > max_votes):
            return removed, theta, effect, False
        removed = removed + take
        theta, m = state.fit(removed)
    found = _rated_with(m, x, rival).size and theta[x] - theta[y] <= FLIPPED_AT
    return removed, theta, effect, bool(found)


def _prune(state, flips, removed, effect, budget) -> tuple:
    """Put votes back while ``flips(removal)`` holds: for each cell of the set (least
    influential first) put back 1 vote, then 2, 4, … while the refit still flips, then halve
    the interval between the most that went back and the fewest that did not; repeat until a
    pass puts nothing back (every cell then failed to give back one vote: the set is
    removal-minimal). ``(removed, minimal)``."""
    while True:
        changed = False
        used = np.flatnonzero(removed > 0)
        for c in used[np.argsort(-effect[used], kind="stable")]:
            ok, fails, galloping = 0.0, removed[c] + 1, True
            while fails - ok > 1:
                if state.refits >= budget:
                    return removed, False
                size = min(max(1.0, 2 * ok), fails - 1) if galloping else (ok + fails) // 2
                trial = removed.copy()
                trial[c] -= size
                if flips(trial):
                    ok = size
                else:
                    fails, galloping = size, False
            if ok:
                removed = removed.copy()
                removed[c] -= ok
                changed = True
        if not changed:
            return removed, True


def _compositions(left, below) -> np.ndarray | None:
    """Every removal (rows: votes per cell ≤ ``left``) of fewer than ``below`` votes in all,
    in order of size, or None when there are more than :data:`EXHAUSTIVE_LIMIT`."""
    rows = np.zeros((1, 0))
    total = np.zeros(1)
    cap = below - 1
    for c in range(left.size):                      # a few cells: the search is small
        values = np.arange(min(left[c], cap) + 1)
        keep = total[:, None] + values[None, :] <= cap
        count = int(keep.sum())
        if count > EXHAUSTIVE_LIMIT:
            return None
        r, v = np.nonzero(keep)
        rows = np.column_stack([rows[r], values[v]])
        total = total[r] + values[v]
    order = np.lexsort(rows.T[::-1])
    order = order[np.argsort(total[order], kind="stable")]
    return rows[order]


def _exhaustive(state, flipped, below) -> tuple:
    """The smallest removal of fewer than ``below`` votes that flips (``flipped(theta,
    fitted)``), refitting every removal in order of size: ``(removal or None, searched)``."""
    rows = _compositions(state.n, below)
    if rows is None:
        return None, False
    for row in rows[1:]:                            # the empty removal is the fit itself
        if flipped(*state.fit(row)):
            return row, True
    return None, True


def vote_influence(a, b, outcome, n, k, x, y) -> np.ndarray:
    """The linearised change of θ_X − θ_Y when one vote of each cell is removed.

    With θ̂ the Bradley–Terry fit of the cells (ties as half a win), J = −∇²ℓ(θ̂) and
    J u = e_X − e_Y (θ_0 held at 0),

        Δd_c = −(u_a − u_b) · (s_c − σ(θ̂_a − θ̂_b)),

    s_c the score of a in cell c (1, 0 or ½): one Newton step of the refit without that vote
    (Broderick, Giordano & Meager 2020). A negative Δd_c narrows X's lead over Y.

    Parameters
    ----------
    a, b, outcome, n, k
        The cells (as :func:`fewest_votes_to_flip`).
    x, y : int
        The models whose gap θ_X − θ_Y is followed.

    Returns
    -------
    numpy.ndarray
        Δd per cell, in log-strength (× 400 / ln 10 for Elo points).

    References
    ----------
    Broderick, T., Giordano, R. & Meager, R. (2020). An automatic finite-sample robustness
    metric: when can dropping a little data make a big difference? arXiv:2011.14999.

    Examples
    --------
    >>> import numpy as np
    >>> d = vote_influence(np.array([0, 0]), np.array([1, 1]), np.array([0, 1]),
    ...                    np.array([12.0, 9.0]), 2, 0, 1)
    >>> bool(d[0] < 0 < d[1])   # dropping a win of 0 narrows its lead; a loss widens it
    True
    """
    a, b, outcome, n, k = _cells(a, b, outcome, n, k)
    state = _Claim((a, b, outcome, n), k, None)
    with one_blas_thread():
        theta, m = state.fit(np.zeros(n.size))
        x, others, _ = _parse_claim(("ahead", x, y), None, None, k, theta)
        target = np.zeros((k, 1))
        target[x, 0], target[others[0], 0] = 1.0, -1.0
        return state.influence(theta, m, target)[:, 0]


def _parse_claim(claim, first, challenger, k, theta) -> tuple:
    """``(x, challengers, text)`` of a claim: x the model said to lead, challengers the
    models it is said to lead."""
    def model(name, value):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) \
                or not 0 <= value < k:
            raise RankwiseError(f"{name} must be a model index in 0..{k - 1}; got {value!r}")
        return int(value)

    if isinstance(claim, str) and claim == "first":
        x = int(np.argmax(theta)) if first is None else model("first", first)
        others = np.delete(np.arange(k), x)
        if challenger is not None:
            y = model("challenger", challenger)
            if y == x:
                raise RankwiseError(f"the challenger must differ from #1 (model {x})")
            others = np.array([y])
        return x, others, "#1 = model {x} ahead of model {y}"
    if isinstance(claim, tuple) and len(claim) == 3 and claim[0] == "ahead":
        if first is not None or challenger is not None:
            raise RankwiseError("first= and challenger= go with claim='first'; the claim"
                                " ('ahead', X, Y) names its own models")
        x, y = model("the claim's X", claim[1]), model("the claim's Y", claim[2])
        if x == y:
            raise RankwiseError(f"the claim ('ahead', {x}, {y}) compares a model with itself")
        return x, np.array([y]), "model {x} ahead of model {y}"
    raise RankwiseError(f"claim must be 'first' or ('ahead', X, Y); got {claim!r}")


def _two_models(state, x, y) -> np.ndarray:
    """The fewest removal for two models: ⌈w_XY − w_YX⌉ of X's wins, cells in input order."""
    w, _ = _wins(state.a, state.b, state.outcome, state.n, state.k)
    need = math.ceil(w[x, y] - w[y, x] - 1e-9)
    wins_x = ((state.a == x) & (state.outcome == 0)) | ((state.b == x) & (state.outcome == 1))
    have = np.where(wins_x, state.n, 0.0)
    before = np.cumsum(have) - have
    return np.clip(need - before, 0.0, have)


def fewest_votes_to_flip(a, b, outcome, n, k, *, claim="first", first=None, challenger=None,
                         max_votes=None) -> VoteFlip:
    """The fewest votes found whose removal flips a claim about a Bradley–Terry fit of votes.

    The claim ``"first"`` is "#1 = X ahead of every other model" (X the fitted #1, or
    ``first``; only ``challenger`` if given); ``("ahead", X, Y)`` is "X ahead of Y". A removal
    flips "X ahead of Y" when the refit (ties as half a win,
    :func:`rankwise.stats.elo.fit`) puts Y at or above X: θ_Y ≥ θ_X − 1e-9 (X keeping a
    vote and joined to Y by a chain of votes). The search
    (module docstring) takes votes by their linearised influence on θ_X − θ_Y,

        Δd_c = −(u_a − u_b)(s_c − σ(θ_a − θ_b)),    J u = e_X − e_Y,

    refits until the refit flips, then puts votes back while it still flips; with two models
    the answer is ⌈w_XY − w_YX⌉ and small searches are done exhaustively (then ``exact``).

    Parameters
    ----------
    a, b : array of int
        The models of each cell (0..k−1), as voted.
    outcome : array of int
        0: a wins, 1: b wins, 2: tie (any kind), per cell.
    n : array of float
        Whole vote counts per cell.
    k : int
        The number of models (≥ 2).
    claim : "first" or ("ahead", X, Y)
        The claim to flip.
    first, challenger : int, optional
        With ``claim="first"``: the model said to be #1 (default: the fitted #1) and the one
        model to try to put at or above it (default: every other model; the answer is the
        smallest over them, the :data:`CHALLENGERS_SEARCHED` most promising by the linearised
        answer searched with refits).
    max_votes : int, optional
        Give up (``found=False``) rather than remove more votes than this.

    Returns
    -------
    VoteFlip
        The votes removed per cell, their total and share, the Elo of X and Y before and
        after, whether the refit confirms the flip, and whether the total is exact.

    References
    ----------
    Huang, J. Y., Shen, Y., Wei, D. & Broderick, T. (2025). Dropping just a handful of
    preferences can change top large language model rankings. arXiv:2508.11847.
    Broderick, T., Giordano, R. & Meager, R. (2020). An automatic finite-sample robustness
    metric: when can dropping a little data make a big difference? arXiv:2011.14999.

    Examples
    --------
    Model 0 leads model 1 by three votes of their head-to-head; both tie with model 2:

    >>> import numpy as np
    >>> a, b = np.array([0, 0, 0, 1]), np.array([1, 1, 2, 2])
    >>> outcome, n = np.array([0, 1, 2, 2]), np.array([8.0, 5, 4, 4])
    >>> out = fewest_votes_to_flip(a, b, outcome, n, 3)
    >>> out.votes, out.exact, out.confirmed, out.cells.tolist(), out.removed.tolist()
    (3, True, True, [0], [3])
    """
    a, b, outcome, n, k = _cells(a, b, outcome, n, k)
    if max_votes is not None:
        max_votes = _whole("max_votes", max_votes)
    with one_blas_thread():       # many small solves: a second BLAS thread only waits
        return _fewest((a, b, outcome, n), k, claim, first, challenger, max_votes)


def _fewest(cells, k, claim, first, challenger, max_votes) -> VoteFlip:
    """:func:`fewest_votes_to_flip` on checked cells."""
    n = cells[3]
    state = _Claim(cells, k, None)
    none = np.zeros(n.size)
    theta, m = state.fit(none)
    state.theta, state.fitted = theta, m
    x, others, text = _parse_claim(claim, first, challenger, k, theta)

    def flipped(t, fitted):
        rivals = _rated_with(fitted, x, others)
        return bool(rivals.size and np.max(t[rivals]) >= t[x] - FLIPPED_AT)

    if flipped(theta, m):
        return _result(state, theta, x, others, text, none, True, True, 0, True,
                       "none: the claim does not hold on the full log")
    if k == 2:
        removed = _two_models(state, x, int(others[0]))
        if max_votes is not None and removed.sum() > max_votes:
            return _result(state, theta, x, others, text, none, False, True,
                           int(removed.sum()), False, "two models: ⌈w_XY − w_YX⌉ of X's wins"
                           " is more than max_votes")
        return _result(state, theta, x, others, text, removed, True, True, 0, True,
                       "two models: ⌈w_XY − w_YX⌉ of X's wins")
    removed, found, minimal, how = _influence_search(state, theta, m, x, others, max_votes,
                                                     flipped)
    # when the influence search found nothing (a #1 that won all its votes has a bound, not a
    # maximum, and no influence), the exhaustive search may still cover every removal
    below = removed.sum() if found else (max_votes if max_votes is not None else n.sum()) + 1
    exact, lower = False, 1
    if below > 1 and k <= EXHAUSTIVE_MODELS:
        row, searched = _exhaustive(state, flipped, below)
        if searched:
            exact, lower = True, int(below)
            if row is not None:
                removed, found, minimal, exact = row, True, True, True
                how = "exhaustive: every removal of fewer votes refitted"
            elif found:
                how += "; exhaustive: no removal of fewer votes flips"
    elif found and below == 1:
        exact = True   # one vote: the fewest there can be
    return _result(state, theta, x, others, text, removed, found, exact, lower, minimal, how)


def _influence_search(state, theta, m, x, others, max_votes, flipped) -> tuple:
    """The influence search (module docstring) over the most promising challengers:
    ``(removed, found, minimal, method)``."""
    targets = np.zeros((state.k, others.size))
    targets[x] = 1.0
    targets[others, np.arange(others.size)] = -1.0
    effect = state.influence(theta, m, targets)
    predicted = _predicted(effect, state.n, theta[x] - theta[others])
    # the smallest linearised answers first; where no linearised removal closes the gap (far
    # from the fit the change is not linear) the smallest gaps
    order = np.lexsort((theta[x] - theta[others], predicted))[:CHALLENGERS_SEARCHED]
    best, best_effect = None, None
    for column in order:
        y = int(others[column])
        starts = [(np.zeros(state.n.size), theta, m)]
        bound = m[1]
        if bound[x] > 0:
            # X won every vote: its rating is a bound, and the linearised influence (first
            # order at a free challenger's finite maximum) cannot see the challenger become
            # a bound itself; its steps take X's votes until X has none. A challenger that won
            # all its votes is rated by a bound on X's footing, so the search also starts from
            # the removal of every vote Y did not win (X's wins over Y among them)
            unbeaten = _not_won(state, y)
            if max_votes is None or unbeaten.sum() <= max_votes:
                starts.append((unbeaten,) + state.fit(unbeaten))
        for start, t, fitted in starts:
            steps = max(1, (MAX_REFITS - state.refits) // 2)
            removed, _, last, found = _greedy(state, x, y, t, fitted, start, max_votes, steps)
            if found and (best is None or removed.sum() < best.sum()):
                best, best_effect = removed, last
    if best is None:
        return np.zeros(state.n.size), False, False, "influence search: no flip found"

    def flips(removal):
        return flipped(*state.fit(removal))

    best, minimal = _prune(state, flips, best, best_effect, state.refits + MAX_REFITS)
    return best, True, minimal, ("influence search: greedy by linearised influence, refitted,"
                                 " then pruned")


def _not_won(state, y) -> np.ndarray:
    """The removal of every vote that model y lost or tied."""
    lost = ((state.a == y) & (state.outcome != 0)) | ((state.b == y) & (state.outcome != 1))
    return np.where(lost, state.n, 0.0)


def _result(state, theta, x, others, text, removed, found, exact, lower, minimal,
            method) -> VoteFlip:
    after, fitted = state.fit(removed) if removed.any() else (theta, state.fitted)
    # the challenger is the highest of the others the refit rates against X (all of them
    # when none is); models level with it (within the fit's tolerance) go to the lowest
    # index, so that the answer is the same whatever rounding the fit leaves
    rated = _rated_with(fitted, x, others)
    rivals = rated if rated.size else others
    y = int(rivals[np.flatnonzero(after[rivals] >= after[rivals].max() - FLIPPED_AT)[0]])
    before_elo, after_elo = elo.to_elo(theta), elo.to_elo(after)
    cells = np.flatnonzero(removed > 0)
    votes = int(removed.sum())
    return VoteFlip(
        claim=text.format(x=x, y=y), first=x, challenger=y, cells=cells,
        removed=removed[cells].astype(np.int64), votes=votes,
        share=votes / float(state.n.sum()),
        elo_before=(float(before_elo[x]), float(before_elo[y])),
        elo_after=(float(after_elo[x]), float(after_elo[y])),
        confirmed=bool(rated.size and after[y] >= after[x] - FLIPPED_AT), found=bool(found),
        exact=bool(exact and found), lower=int(votes if exact and found else lower),
        minimal=bool(minimal and found), method=method, refits=state.refits)
