"""Ratings from vote logs: arena votes and judge verdicts as Bradley–Terry evidence.

A vote log has one row per vote ``model_a, model_b, winner`` (Chatbot Arena / LMArena,
MT-Bench judgments, arena-hard verdicts, head-to-head LLM-as-judge). Models are indexed
0..k−1 and a log is reduced to unique *cells* (a, b, outcome) with a count ``n`` (or a
summed weight): outcome 0 = a wins, 1 = b wins, 2 = tie (FastChat's "tie" and
"tie (bothbad)" are both ties). A cell keeps the order of the vote (a vs b and b vs a are
different cells); no fit depends on it.

Ties are one of three named conventions (``ties=``):

- ``"half"``: a tie is half a win to each side (FastChat's ``compute_mle_elo``, which
  duplicates every vote and labels a tie once each way). The Bradley–Terry log-likelihood
  with ``w[i, j]`` = wins of i over j plus half their ties is
  ℓ(θ) = Σ_{i≠j} w[i, j] log σ(θ_i − θ_j), fitted by :func:`rankwise.stats.elo.fit`
  (Newton's method, and its *bound* for a model that wins or loses every vote).
- ``"davidson"``: Davidson (1970), ties with probability ν √(π_i π_j)/(π_i + π_j + ν √(π_i π_j)).
- ``"rao-kupper"``: Rao & Kupper (1967), P(i beats j) = π_i/(π_i + η π_j).

(:mod:`rankwise.stats.battle_ties` has both formulas and their solver.) Ratings are Elo
points: Elo_i = 1000 + 400 (θ_i − mean θ)/ln 10 (scale 400, base 10, mean 1000), and
``anchor`` shifts them so that the anchor model is at 1000.

A model that wins every vote it takes part in (or loses every one, no tie among them) has an
infinite maximum-likelihood strength; it is taken out, the others are fitted, and it gets the
strength at which its expected score equals its observed score less half its lightest vote:
a *lower bound* (flag +1) or an *upper bound* (flag −1). Nothing is infinite.

The bootstrap (:func:`bootstrap`) resamples the N votes as a multinomial draw on the unique
cells' counts (never on rows; equal in law to drawing N rows with replacement), or resamples
prompts with replacement (a cluster bootstrap), every round warm-started from the point fit.

References
----------
Bradley, R. A. & Terry, M. E. (1952). Rank analysis of incomplete block designs. I.
Biometrika 39, 324-345.
Chiang, W.-L. et al. (2024). Chatbot Arena: an open platform for evaluating LLMs by human
preference. ICML 2024 (FastChat's ``elo_analysis.py``).
Davidson, R. R. (1970). JASA 65, 317-328. Rao, P. V. & Kupper, L. L. (1967). JASA 62, 194-204.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import linalg, sparse

from .. import _validate as check
from ..defaults import LEADERBOARD_ROUNDS, LEADERBOARD_SEED
from ..errors import RankwiseError
from . import battle_ties, elo

#: The tie conventions of :func:`fit` (module docstring).
TIES = ("half", "davidson", "rao-kupper")
#: What a bootstrap round resamples.
OVER = ("battles", "prompts")
#: FastChat's constants: scale, base and initial (mean) rating.
SCALE, BASE, INITIAL = elo.SCALE, elo.BASE, elo.INITIAL
#: Bootstrap rounds whose counts are drawn at once (rounds × cells floats in memory); the
#: draws are the same whatever the batch (one generator, drawn in order).
BATCH = 64


@dataclass(frozen=True)
class Cells:
    """A vote log reduced to unique cells (a, b, outcome) with their summed weight ``n``.

    ``inverse[v]`` is the cell of vote v, ``k`` the number of models, ``lightest`` the
    smallest positive weight of one vote (1 for counts), ``weight`` each vote's weight
    (None for plain counts).

    Examples
    --------
    >>> from rankwise.stats.battles import cells
    >>> c = cells([0, 0, 1, 0], [1, 1, 0, 1], [0, 0, 2, 1])
    >>> c.a.tolist(), c.b.tolist(), c.outcome.tolist(), c.n.tolist(), c.inverse.tolist()
    ([0, 0, 1], [1, 1, 0], [0, 1, 2], [2.0, 1.0, 1.0], [0, 0, 2, 1])
    """

    a: np.ndarray
    b: np.ndarray
    outcome: np.ndarray
    n: np.ndarray
    inverse: np.ndarray
    k: int
    lightest: float
    weight: np.ndarray | None = None

    @property
    def votes(self) -> int:
        """The number of votes the cells were made from."""
        return int(self.inverse.size)


def _indices(name: str, values) -> np.ndarray:
    x = np.asarray(values)
    if x.ndim != 1:
        raise RankwiseError(f"{name} must be a flat list of whole numbers; got an array of"
                            f" shape {x.shape}")
    if x.dtype.kind not in "iu":
        if x.dtype.kind not in "fb" or (x.size and not np.all(np.isfinite(x))) or (
                x.size and not np.all(x == np.round(x))) or x.dtype.kind == "b":
            raise RankwiseError(f"{name} must hold whole numbers (model indices 0..k-1 or"
                                f" outcomes 0, 1, 2); got {x.dtype} values")
    return x.astype(np.int64)


def cells(a, b, outcome, weight=None, k: int | None = None) -> Cells:
    """Reduce votes to unique cells (a, b, outcome) with their count or summed weight.

    The key of a vote is ``(a · k + b) · 3 + outcome`` (one int64), and ``np.unique`` of the
    keys gives the cells and the cell of every vote, in one sort.

    Parameters
    ----------
    a, b : array of int
        The two models of each vote, indices 0..k−1 (a ≠ b).
    outcome : array of int
        0 = a wins, 1 = b wins, 2 = a tie.
    weight : array of float, optional
        A weight ≥ 0 per vote (default 1: counts).
    k : int, optional
        The number of models (default: the largest index + 1); at least 2.

    Returns
    -------
    Cells

    References
    ----------
    FastChat ``preprocess_battles_to_arrays`` (``elo_analysis.py``) counts unique
    (a, b, outcome) rows the same way.

    Examples
    --------
    >>> from rankwise.stats.battles import cells
    >>> c = cells([0, 1, 2], [1, 2, 0], [0, 0, 1], weight=[1.0, 0.5, 2.0])
    >>> c.n.tolist(), c.k, c.lightest
    ([1.0, 0.5, 2.0], 3, 0.5)
    """
    a, b, outcome = _indices("a", a), _indices("b", b), _indices("outcome", outcome)
    if not a.size == b.size == outcome.size:
        raise RankwiseError(f"a, b and outcome must have one entry per vote; got {a.size},"
                            f" {b.size} and {outcome.size} entries")
    if a.size == 0:
        raise RankwiseError("the vote log is empty: give at least one vote (model_a, model_b,"
                            " winner)")
    if min(a.min(), b.min()) < 0:
        raise RankwiseError("model indices must be 0..k-1; got a negative index")
    top = int(max(a.max(), b.max())) + 1
    k = top if k is None else check.whole("k", k, 2)
    if k < 2:
        raise RankwiseError("a vote log needs at least two models; got one (every vote names"
                            " the same model)")
    if top > k:
        raise RankwiseError(f"model index {top - 1} is outside 0..{k - 1}; raise k or"
                            " re-index the models")
    same = np.flatnonzero(a == b)
    if same.size:
        raise RankwiseError(f"vote {int(same[0])} has model {int(a[same[0]])} battling itself;"
                            " drop such votes (a model cannot beat itself)")
    bad = np.flatnonzero((outcome < 0) | (outcome > 2))
    if bad.size:
        raise RankwiseError(f"vote {int(bad[0])} has outcome {int(outcome[bad[0]])}; outcomes"
                            " are 0 (a wins), 1 (b wins) or 2 (a tie)")
    if weight is None:
        w, lightest = None, 1.0
    else:
        w = np.asarray(weight, dtype=float)
        if w.shape != a.shape:
            raise RankwiseError(f"weight must have one entry per vote ({a.size}); got shape"
                                f" {w.shape}")
        wrong = np.flatnonzero(~np.isfinite(w) | (w < 0))
        if wrong.size:
            raise RankwiseError(f"vote {int(wrong[0])} has weight {w[wrong[0]]!r}; weights must"
                                " be finite and ≥ 0")
        if not (w > 0).any():
            raise RankwiseError("every vote has weight 0: nothing to fit; give positive"
                                " weights")
        lightest = float(w[w > 0].min())
    key = (a * k + b) * 3 + outcome
    unique, inverse = np.unique(key, return_inverse=True)
    n = np.bincount(inverse, weights=w, minlength=unique.size).astype(float)
    return Cells(a=unique // 3 // k, b=unique // 3 % k, outcome=(unique % 3).astype(np.int8),
                 n=n, inverse=inverse.ravel(), k=k, lightest=lightest, weight=w)


def _as_cells(c, k) -> Cells:
    if isinstance(c, Cells):
        if k is not None and check.whole("k", k, 2) != c.k:
            return cells(c.a, c.b, c.outcome, c.n, k)
        return c
    try:
        a, b, outcome, n = c
    except (TypeError, ValueError):
        raise RankwiseError("cells must come from rankwise.stats.battles.cells (or be a tuple"
                            " a, b, outcome, n)") from None
    return cells(a, b, outcome, n, k)


class _Pairs:
    """The map from cells to unordered pairs {i < j} and their columns (wins of i, wins of
    j, ties), so that any vector of cell counts becomes pair counts in one ``bincount``."""

    def __init__(self, c: Cells):
        lo, hi = np.minimum(c.a, c.b), np.maximum(c.a, c.b)
        keys, self.index = np.unique(lo * c.k + hi, return_inverse=True)
        self.index = self.index.ravel()
        self.lo, self.hi = keys // c.k, keys % c.k
        flipped = c.a > c.b
        # 0: the lower index won, 1: the higher won, 2: a tie
        self.column = np.where(c.outcome == 2, 2,
                               np.where(flipped, 1 - c.outcome, c.outcome)).astype(np.int64)
        self.k, self.size = c.k, keys.size

    def counts(self, n: np.ndarray) -> np.ndarray:
        """(pairs × 3) counts: wins of lo, wins of hi, ties."""
        return np.bincount(self.index * 3 + self.column, weights=n,
                           minlength=self.size * 3).reshape(self.size, 3)

    def matrices(self, counts: np.ndarray) -> tuple:
        """(wins, ties): k × k wins of row over column and symmetric ties."""
        wins, ties = np.zeros((self.k, self.k)), np.zeros((self.k, self.k))
        wins[self.lo, self.hi], wins[self.hi, self.lo] = counts[:, 0], counts[:, 1]
        ties[self.lo, self.hi] = ties[self.hi, self.lo] = counts[:, 2]
        return wins, ties


@dataclass(frozen=True)
class BattleFit:
    """A Bradley–Terry fit of a vote log.

    ``theta`` are log-strengths (natural log, mean 0), ``elo`` the ratings (scale 400,
    base 10, mean 1000, or the anchor at 1000), ``tie`` the Davidson ν or Rao–Kupper η
    (NaN for ties as half), ``bound`` +1/−1 where a rating is a lower/upper bound (0
    otherwise), ``loglik`` the log-likelihood at the fit, ``iterations`` the Newton steps
    of the tie model's solver (None for ties as half, fitted by
    :func:`rankwise.stats.elo.fit`), ``note`` anything the reader must know.

    Examples
    --------
    >>> from rankwise.stats.battles import cells, fit
    >>> result = fit(cells([0, 1, 1, 2, 2, 0], [1, 0, 2, 1, 0, 2], [0, 0, 0, 2, 1, 1]))
    >>> result.ties, result.elo.round(1).tolist(), result.bound.tolist()
    ('half', [1000.0, 1059.6, 940.4], [0, 0, 0])
    """

    theta: np.ndarray
    elo: np.ndarray
    ties: str
    tie: float
    bound: np.ndarray
    loglik: float
    iterations: int | None
    anchor: int | None
    note: str = ""


def _anchor(anchor, k: int):
    if anchor is None:
        return None
    return check.whole("anchor", anchor, 0, k - 1)


def ratings(theta: np.ndarray, anchor: int | None = None, offset: float | None = None):
    """Elo points of log-strengths (rows: rounds): 1000 + 400 (θ − mean θ)/ln 10.

    Parameters
    ----------
    theta : array
        Log-strengths (natural log), one row per round.
    anchor : int, optional
        Shift every row so that this model is at 1000.
    offset : float, optional
        Shift every row by this many points instead (the point fit's anchor shift, for
        bootstrap draws).

    Returns
    -------
    numpy.ndarray

    References
    ----------
    Elo (1978); FastChat's scale 400, base 10, initial 1000.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.stats.battles import ratings
    >>> ratings(np.array([0.0, np.log(10.0)])).tolist()
    [800.0, 1200.0]
    """
    points = INITIAL + SCALE * (theta - theta.mean(axis=-1, keepdims=True)) / math.log(BASE)
    if offset is not None:
        return points + offset
    if anchor is not None:
        return points + (INITIAL - points[..., anchor:anchor + 1])
    return points


def _peel(wins: np.ndarray, ties: np.ndarray) -> tuple:
    """Models that won (+1) or lost (−1) every vote among those still in, taken out one
    after another (as :func:`rankwise.stats.elo.fit` peels): (order, sides)."""
    k = wins.shape[0]
    alive = np.ones(k, dtype=bool)
    order, sides = [], []
    while alive.sum() > 1:
        both = alive[:, None] & alive[None, :]
        won = np.where(both, wins, 0.0).sum(axis=1)
        lost = np.where(both, wins.T, 0.0).sum(axis=1)
        fought = won + lost + np.where(both, ties, 0.0).sum(axis=1)
        top = alive & (fought > 0) & (won >= fought)
        bottom = alive & (fought > 0) & (lost >= fought) & ~top
        if not (top | bottom).any():
            break
        for i in np.flatnonzero(top | bottom):
            order.append(int(i))
            sides.append(1 if top[i] else -1)
            alive[i] = False
    return order, sides


def _fit_half(wins, ties, lightest, start):
    w = wins + 0.5 * ties
    theta, bound = elo.fit(w, w + w.T, lightest, start)
    return theta - theta.mean(), bound, None


#: The log of the largest tie parameter (Davidson's ν, Rao–Kupper's η) taken as a maximum; a
#: fit that runs past it has none (the fit is then ties as half, said).
TIE_PARAMETER_MOST = float(np.log(1e6))
#: The largest spread of log-strengths (about 5,200 Elo) taken as a maximum of a tie model.
SPREAD_MOST = 30.0


def _fit_tied(model: str, wins, ties, lightest, start, extra0):
    """(theta, bound, iterations, extra): the tie model with peeling."""
    k = wins.shape[0]
    order, sides = _peel(wins, ties)
    alive = np.ones(k, dtype=bool)
    alive[order] = False
    keep = np.flatnonzero(alive)
    theta, bound = np.zeros(k), np.zeros(k, dtype=int)
    extra, iterations = np.nan, 0
    if keep.size >= 2:
        sub = np.ix_(keep, keep)
        w, t = wins[sub], ties[sub]
        lo, hi = np.triu_indices(keep.size, 1)
        pairs = (lo, hi, w[lo, hi], w[hi, lo], t[lo, hi])
        used = pairs[2] + pairs[3] + pairs[4] > 0
        pairs = tuple(p[used] for p in pairs)
        if pairs[4].sum() > 0 and (pairs[2].sum() + pairs[3].sum()) > 0:
            theta_keep, extra, iterations = battle_ties.newton(
                model, keep.size, pairs, None if start is None else start[keep], extra0)
            theta[keep] = theta_keep
            # a model that never won a decided vote but tied can have no finite maximum: its
            # strength goes to 0 as the tie parameter grows without end (nu = 6.7e7 seen)
            # and a group that beat every model outside it has an infinite gap (the strengths
            # run apart): both are fitted as ties as half, which bounds them
            if not extra < TIE_PARAMETER_MOST or not np.ptp(theta_keep) < SPREAD_MOST:
                extra = np.nan
        else:
            theta[keep] = elo.fit(w + 0.5 * t, w + w.T + t, lightest,
                                  None if start is None else start[keep])[0]
    # in elo.fit's order: a model peeled in one pass with its only opponents waits for them
    for i, side, met in elo.put_back(order, sides, alive, wins + wins.T + ties > 0):
        games = wins[i, met] + wins[met, i] + ties[i, met]
        score = float(wins[i, met].sum() + 0.5 * ties[i, met].sum())
        theta[i] = battle_ties.bound(model, side, theta[met], games, score, lightest,
                                     0.0 if np.isnan(extra) else extra)
        bound[i] = side
    return theta - theta.mean(), bound, iterations, extra


def _loglik(ties_mode: str, theta, extra, wins, ties) -> float:
    lo, hi = np.triu_indices(wins.shape[0], 1)
    pairs = (lo, hi, wins[lo, hi], wins[hi, lo], ties[lo, hi])
    if ties_mode == "half" or np.isnan(extra):
        d = theta[lo] - theta[hi]
        x, y = pairs[2] + 0.5 * pairs[4], pairs[3] + 0.5 * pairs[4]
        return float(np.sum(-x * np.logaddexp(0.0, -d) - y * np.logaddexp(0.0, d)))
    return battle_ties.loglik(ties_mode, theta, extra, pairs)


def _ties_mode(ties) -> str:
    if ties not in TIES:
        raise RankwiseError(f"unknown ties mode {ties!r}; use one of {', '.join(TIES)}")
    return ties


def fit(cells_, k: int | None = None, ties: str = "half", anchor: int | None = None,
        start: np.ndarray | None = None) -> BattleFit:
    """Bradley–Terry maximum likelihood on a vote log, ties by a named convention.

    With π = e^θ: P(i beats j) = π_i/(π_i + π_j) (``"half"``: a tie is half a win to each,
    ℓ = Σ w_ij log σ(θ_i − θ_j)); Davidson and Rao–Kupper as in the module docstring of
    :mod:`rankwise.stats.battle_ties`. Elo_i = 1000 + 400 (θ_i − mean θ)/ln 10.

    Parameters
    ----------
    cells_ : Cells
        From :func:`cells` (or a tuple a, b, outcome, n).
    k : int, optional
        The number of models (default: the cells').
    ties : {"half", "davidson", "rao-kupper"}
    anchor : int, optional
        The model put at 1000 (default: the mean is 1000).
    start : array, optional
        Log-strengths to start from (a warm start).

    Returns
    -------
    BattleFit
        With a tie model and no tie in the log (or no win), the tie parameter has no finite
        maximum: the fit is then ties as half (the same likelihood for θ) and ``note`` says so.

    References
    ----------
    Bradley & Terry (1952); Davidson (1970); Rao & Kupper (1967); Hunter, D. R. (2004). MM
    algorithms for generalized Bradley-Terry models. Ann. Statist. 32, 384-406.

    Examples
    --------
    >>> from rankwise.stats.battles import cells, fit
    >>> c = cells([0, 0, 0, 1, 1, 2], [1, 1, 2, 2, 0, 0], [0, 2, 0, 1, 0, 2])
    >>> r = fit(c, ties="davidson")
    >>> r.ties, r.bound.tolist(), round(r.tie, 3)
    ('davidson', [0, 0, 0], 1.056)
    """
    c = _as_cells(cells_, k)
    ties = _ties_mode(ties)
    anchor = _anchor(anchor, c.k)
    pairs = _Pairs(c)
    wins, tie_matrix = pairs.matrices(pairs.counts(c.n))
    if start is not None:
        start = np.asarray(start, dtype=float)
        if start.shape != (c.k,) or not np.all(np.isfinite(start)):
            raise RankwiseError(f"start must hold {c.k} finite log-strengths, one per model;"
                                f" got shape {start.shape}")
    note = ""
    if ties == "half":
        theta, bound, iterations = _fit_half(wins, tie_matrix, c.lightest, start)
        extra = np.nan
    else:
        theta, bound, iterations, extra = _fit_tied(ties, wins, tie_matrix, c.lightest,
                                                    start, None)
        if np.isnan(extra):
            note = (f"{ties} ties: the log has no tie (or no win) among the models fitted, or"
                    " a model never won (or never lost) a decided vote, so the tie model has"
                    " no finite maximum; fitted with ties as half")
            # the whole fit as half, bounds too (not the tie model's bounds at ν = 1)
            theta, bound, iterations = _fit_half(wins, tie_matrix, c.lightest, start)
    if (bound != 0).any():
        shown = ", ".join(f"{i} ({'lower' if bound[i] > 0 else 'upper'})"
                          for i in np.flatnonzero(bound))
        note = (note + "; " if note else "") + (
            f"models that won or lost every vote get a bound, not a rating: {shown}")
    tie_value = float(np.exp(extra)) if not np.isnan(extra) else float("nan")
    return BattleFit(theta=theta, elo=ratings(theta, anchor), ties=ties, tie=tie_value,
                     bound=bound, loglik=_loglik(ties, theta, extra, wins, tie_matrix),
                     iterations=iterations, anchor=anchor, note=note)


def _units(c: Cells, slot: np.ndarray):
    """(slot of each unit, weight of one vote in it, votes in it): the resampling units of a
    bootstrap over battles. A *slot* is a pair's column (wins of the lower index, wins of the
    higher, ties): no fit depends on the order of a vote's two models, so the cells of a slot
    are merged, which keeps the multinomial's law and halves its categories. Unweighted votes:
    the slots; weighted: the unique (slot, weight) pairs, so a resampled vote keeps its
    weight."""
    if c.weight is None:
        votes = np.bincount(slot, weights=c.n, minlength=slot.max() + 1)
        used = np.flatnonzero(votes > 0)
        return used, np.ones(used.size), votes[used]
    keys = np.stack([slot[c.inverse].astype(float), c.weight], axis=1)
    unique, counts = np.unique(keys, axis=0, return_counts=True)
    return unique[:, 0].astype(np.int64), unique[:, 1], counts.astype(float)


def bootstrap(cells_, k: int | None = None, rounds: int = LEADERBOARD_ROUNDS,
              seed: int = LEADERBOARD_SEED, ties: str = "half", over: str = "battles",
              prompt=None, anchor: int | None = None, batch: int = BATCH) -> np.ndarray:
    """Bootstrap Elo ratings of a vote log: a (rounds × k) array of draws.

    Over ``"battles"`` every round draws N votes with replacement, done as one multinomial
    draw of N over the unique cells with probabilities n_c/N (FastChat's
    ``get_bootstrap_result_elo_mle_with_tie``; equal in law to resampling rows). Over
    ``"prompts"`` every round draws the P prompts with replacement (a multinomial of P over
    equal shares) and a cell's count is Σ over its votes of its prompt's draw count (one
    sparse product for a batch of rounds): a cluster bootstrap, for votes that share a
    prompt. Every round is refitted (:func:`fit`) from the point fit's strengths; all rounds'
    counts come from one ``np.random.default_rng(seed)`` drawn in order, so the draws do not
    depend on ``batch``. Each round is centred (mean 1000) and then moved by the point fit's
    anchor offset (as :mod:`rankwise.stats.elo` does), so the anchor's own interval is not
    zero.

    Parameters
    ----------
    cells_ : Cells
    k : int, optional
    rounds : int
    seed : int
    ties : {"half", "davidson", "rao-kupper"}
    over : {"battles", "prompts"}
    prompt : array of int, optional
        A prompt (cluster) id per vote, in the order given to :func:`cells`; needed for
        ``over="prompts"``.
    anchor : int, optional
    batch : int
        Rounds whose counts are drawn at once (memory: batch × cells floats).

    Returns
    -------
    numpy.ndarray
        Shape (rounds, k).

    References
    ----------
    Efron, B. & Tibshirani, R. (1993). An Introduction to the Bootstrap. Chapman & Hall.
    FastChat PR #3523 (bootstrap on unique outcomes with multinomial weights).

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.stats.battles import bootstrap, cells
    >>> c = cells([0, 1, 2, 0, 1, 2] * 5, [1, 2, 0, 2, 0, 1] * 5, [0, 0, 1, 2, 1, 0] * 5)
    >>> draws = bootstrap(c, rounds=20, seed=1)
    >>> draws.shape, bool(np.allclose(draws.mean(axis=1), 1000))
    ((20, 3), True)
    """
    c = _as_cells(cells_, k)
    ties = _ties_mode(ties)
    if over not in OVER:
        raise RankwiseError(f"unknown bootstrap unit {over!r}; use one of {', '.join(OVER)}")
    rounds = check.whole("rounds", rounds, 1)
    seed = check.seed(seed)
    batch = check.whole("batch", batch, 1)
    anchor = _anchor(anchor, c.k)
    point = fit(c, ties=ties, anchor=anchor)
    offset = float(point.elo.mean() - INITIAL)
    pairs = _Pairs(c)
    slot = pairs.index * 3 + pairs.column
    slots = pairs.size * 3
    rng = np.random.default_rng(seed)
    if over == "battles":
        unit_slot, unit_weight, unit_votes = _units(c, slot)
        total = int(round(unit_votes.sum()))
        share = unit_votes / unit_votes.sum()
        spread = sparse.csr_matrix((unit_weight, (unit_slot, np.arange(unit_slot.size))),
                                   shape=(slots, unit_slot.size))

        def draw(size):
            taken = rng.multinomial(total, share, size=size).astype(float)
            return np.asarray((spread @ taken.T).T).reshape(size, pairs.size, 3)
    else:
        if prompt is None:
            raise RankwiseError("a bootstrap over prompts needs a prompt id per vote (prompt=)")
        ids = _indices("prompt", prompt)
        if ids.size != c.votes:
            raise RankwiseError(f"prompt must have one id per vote ({c.votes}); got {ids.size}")
        _, cluster = np.unique(ids, return_inverse=True)
        cluster = cluster.ravel()
        groups = int(cluster.max()) + 1
        per_vote = np.ones(c.votes) if c.weight is None else c.weight
        member = sparse.csr_matrix((per_vote, (slot[c.inverse], cluster)),
                                   shape=(slots, groups))
        equal = np.full(groups, 1.0 / groups)

        def draw(size):
            taken = rng.multinomial(groups, equal, size=size).astype(float)
            return np.asarray((member @ taken.T).T).reshape(size, pairs.size, 3)
    tie_start = np.log(point.tie) if not np.isnan(point.tie) else None
    out = np.empty((rounds, c.k))
    done = 0
    chord = _Chord(pairs, pairs.counts(c.n), point) if ties == "half" and not point.bound.any() else None
    while done < rounds:
        size = min(batch, rounds - done)
        drawn = draw(size)
        if chord is not None:
            theta, converged = chord.solve(drawn)
        else:
            theta, converged = np.zeros((size, c.k)), np.zeros(size, dtype=bool)
        for r in np.flatnonzero(~converged):     # a round the chord left: its own Newton
            wins, tie_matrix = pairs.matrices(drawn[r])
            if ties == "half":
                theta[r] = _fit_half(wins, tie_matrix, c.lightest, point.theta)[0]
            else:
                theta[r] = _fit_tied(ties, wins, tie_matrix, c.lightest, point.theta,
                                     tie_start)[0]
        out[done:done + size] = ratings(theta, offset=offset)
        done += size
    return out


#: Chord iterations of a batch of bootstrap rounds before the rounds still moving are left to
#: their own Newton method.
CHORD_ITERATIONS = 60


class _Chord:
    """Ties-as-half rounds of a bootstrap solved together by chord iterations: Newton's
    method with the Hessian of the point fit (factorised once) in place of each round's own,
    as :func:`rankwise.stats.elo.fit_totals_rounds` does for score tables. A round's
    gradient is wins_i − Σ_j n_ij σ(θ_i − θ_j) on its own counts; a resampled round lies
    close to the point fit, so each iteration shrinks the error by a roughly constant factor
    and the step reaches :data:`rankwise.stats.elo.TOLERANCE`, the tolerance of the Newton
    steps. A round in which a model wins or loses everything (a bound), or whose steps do not
    shrink, is left to :func:`rankwise.stats.elo.fit`."""

    def __init__(self, pairs: _Pairs, counts: np.ndarray, point: BattleFit):
        self.pairs, self.k = pairs, pairs.k
        self.start = point.theta - point.theta[0]
        w = self.weighted(counts[None])[0]
        n = w + w.T
        p = self._sigma(self.start[None, :])[0]
        np.fill_diagonal(p, 0.0)
        a = n * p * p.T
        hessian = np.diag(a.sum(axis=1)) - a
        try:
            self.factor = linalg.cho_factor(hessian[1:, 1:])
        except (linalg.LinAlgError, ValueError):
            self.factor = None

    def weighted(self, counts: np.ndarray) -> np.ndarray:
        """(rounds × k × k) w[i, j]: wins of i over j plus half their ties, from the
        (rounds × pairs × 3) pair counts."""
        w = np.zeros((counts.shape[0], self.k, self.k))
        half = 0.5 * counts[:, :, 2]
        w[:, self.pairs.lo, self.pairs.hi] = counts[:, :, 0] + half
        w[:, self.pairs.hi, self.pairs.lo] = counts[:, :, 1] + half
        return w

    @staticmethod
    def _sigma(x: np.ndarray) -> np.ndarray:
        """σ(x_i − x_j) = e_i / (e_i + e_j) per round: k exponentials and k² divisions (the
        diagonal is multiplied by n_ii = 0)."""
        e = np.exp(np.maximum(x - x.max(axis=1, keepdims=True), -700.0))
        return e[:, :, None] / (e[:, :, None] + e[:, None, :])

    def solve(self, drawn: np.ndarray) -> tuple:
        """(theta, converged) of every round (pairs × 3 counts) of ``drawn``."""
        rounds = drawn.shape[0]
        x = np.tile(self.start, (rounds, 1))
        converged = np.zeros(rounds, dtype=bool)
        if self.factor is None:
            return x, converged
        w = self.weighted(drawn)
        n = w + w.transpose(0, 2, 1)
        wins, fought = w.sum(axis=2), n.sum(axis=2)
        extreme = ((fought > 0) & ((wins >= fought) | (wins <= 0))).any(axis=1)
        live = np.flatnonzero(~extreme)
        before = np.full(rounds, np.inf)
        for iteration in range(CHORD_ITERATIONS):
            if not live.size:
                break
            gradient = wins[live] - np.einsum("rij,rij->ri", n[live], self._sigma(x[live]))
            step = linalg.cho_solve(self.factor, gradient[:, 1:].T).T
            x[live, 1:] += step
            moved = np.abs(step).max(axis=1)
            converged[live[moved < elo.TOLERANCE]] = True
            keep = (moved >= elo.TOLERANCE) & np.isfinite(moved) & (
                (iteration < 4) | (moved <= 0.5 * before[live]))
            before[live] = moved
            live = live[keep]
        return x - x.mean(axis=1, keepdims=True), converged


@dataclass(frozen=True)
class WinProbability:
    """P(row beats column) under Bradley–Terry with ties as half, and its bootstrap interval
    (``lower``/``upper`` None without draws); the diagonal is 0.5 by the formula.

    Examples
    --------
    >>> from rankwise.stats.battles import win_probability
    >>> win_probability([1000.0, 1400.0]).p.round(4).tolist()
    [[0.5, 0.0909], [0.9091, 0.5]]
    """

    p: np.ndarray
    lower: np.ndarray | None
    upper: np.ndarray | None
    confidence: float


def _win(ri: np.ndarray, rj: np.ndarray) -> np.ndarray:
    # 1/(1 + 10^((R_j − R_i)/400)) as a logistic, no overflow
    return 0.5 * (1.0 + np.tanh(0.5 * math.log(BASE) * (ri - rj) / SCALE))


def win_probability(ratings_, draws=None, confidence: float = 0.95) -> WinProbability:
    """The k × k matrix of P(row beats column) = 1/(1 + 10^((R_col − R_row)/400)).

    Parameters
    ----------
    ratings_ : array or BattleFit
        Elo ratings (scale 400, base 10), or a fit whose ``elo`` is taken.
    draws : array, optional
        (rounds × k) bootstrap ratings (:func:`bootstrap`): the interval of every entry is
        the (1 − confidence)/2 and (1 + confidence)/2 quantiles of the entry over the rounds.
    confidence : float

    Returns
    -------
    WinProbability

    References
    ----------
    Elo, A. E. (1978). The Rating of Chessplayers, Past and Present. Arco.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.stats.battles import win_probability
    >>> draws = np.array([[1000.0, 1100.0], [1000.0, 1300.0], [1000.0, 1200.0]])
    >>> w = win_probability([1000.0, 1200.0], draws, confidence=0.5)
    >>> [round(float(m[1, 0]), 4) for m in (w.p, w.lower, w.upper)]
    [0.7597, 0.6999, 0.8044]
    """
    points = np.asarray(ratings_.elo if isinstance(ratings_, BattleFit) else ratings_,
                        dtype=float)
    if points.ndim != 1 or points.size < 2 or not np.all(np.isfinite(points)):
        raise RankwiseError("ratings must be a flat list of at least two finite Elo ratings")
    confidence = check.confidence(confidence)
    p = _win(points[:, None], points[None, :])
    if draws is None:
        return WinProbability(p=p, lower=None, upper=None, confidence=confidence)
    d = np.asarray(draws, dtype=float)
    if d.ndim != 2 or d.shape[1] != points.size or not np.all(np.isfinite(d)):
        raise RankwiseError(f"draws must be finite, one column per model ({points.size});"
                            f" got shape {d.shape}")
    lower, upper = np.empty_like(p), np.empty_like(p)
    q = [(1 - confidence) / 2, (1 + confidence) / 2]
    rows = max(1, 4_000_000 // max(1, d.shape[0] * points.size))   # rounds × rows × k at once
    for lo in range(0, points.size, rows):
        hi = min(lo + rows, points.size)
        block = _win(d[:, lo:hi, None], d[:, None, :])
        lower[lo:hi], upper[lo:hi] = np.quantile(block, q, axis=0)
    return WinProbability(p=p, lower=lower, upper=upper, confidence=confidence)


def online_elo(a, b, outcome, k_factor: float = 4.0, scale: float = SCALE,
               base: float = BASE, initial: float = INITIAL, k: int | None = None):
    """FastChat's online Elo (``compute_elo``): votes applied one after another.

    Before vote v between a and b, E_a = 1/(1 + base^((R_b − R_a)/scale)); after it
    R_a += K (S_a − E_a) and R_b += K ((1 − S_a) − (1 − E_a)), with S_a = 1, 0 or ½ (a tie).
    A named convention, not an estimate: the ratings depend on the *order* of the votes
    (the same votes shuffled give other ratings; recent votes weigh more), which is why
    :func:`fit` (the order-free maximum likelihood) is the default elsewhere. The update
    is sequential by nature, so it is one pass over the votes in Python.

    Parameters
    ----------
    a, b, outcome : arrays of int
        As :func:`cells`, in the order the votes were cast.
    k_factor, scale, base, initial : float
        FastChat's K = 4, SCALE = 400, BASE = 10, INIT_RATING = 1000.
    k : int, optional

    Returns
    -------
    numpy.ndarray
        The k ratings after the last vote (a model without a vote stays at ``initial``).

    References
    ----------
    Elo (1978); FastChat ``fastchat/serve/monitor/elo_analysis.py`` ``compute_elo``.

    Examples
    --------
    >>> from rankwise.stats.battles import online_elo
    >>> online_elo([0, 0], [1, 1], [0, 2]).round(3).tolist()
    [1001.977, 998.023]
    """
    c = cells(a, b, outcome, k=k)           # the checks, one wording
    for name, value in (("k_factor", k_factor), ("scale", scale), ("base", base)):
        check.positive(name, value)
    check.finite("initial", initial)
    first, second = c.a[c.inverse].tolist(), c.b[c.inverse].tolist()
    score = np.array([1.0, 0.0, 0.5])[c.outcome[c.inverse]].tolist()
    rating = [float(initial)] * c.k
    for i, j, s in zip(first, second, score):
        expected = 1.0 / (1.0 + base ** ((rating[j] - rating[i]) / scale))
        rating[i] += k_factor * (s - expected)
        rating[j] -= k_factor * (s - expected)
    return np.array(rating)
