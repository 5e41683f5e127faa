"""Generalized stochastic dominance (GSD) of learners whose outcome on a data set is a vector of
criteria, some cardinal (differences mean something: accuracy) and some ordinal (only the order
means something: a time class), after Jansen, Schollmeyer, Rodemann, Blocher & Augustin (2024)
and Jansen, Nalenz, Schollmeyer & Augustin (2023).

The outcomes of two learners X and Y over the n data sets are points of a *preference system*:

- R1 (which outcome is at least as good): a ≥ b when a is at least as good on every criterion;
- R2 (which exchange is at least as good): exchanging b for a is at least as good as exchanging
  d for c when both are R1 pairs, c and d lie between b and a on every ordinal criterion
  (b ≤ d ≤ c ≤ a) and a − b ≥ c − d on every cardinal criterion; equally good when the
  ordinal ends are equal and the cardinal differences too.

A *representation* is a u: points → [0, 1] with u(worst) = 0 and u(best) = 1 (the componentwise
worst and best points of the pair) that keeps both relations (u(a) ≥ u(b); u(a) − u(b) ≥ u(c) −
u(d)). X GSD-dominates Y in the sample when the mean of u over X's outcomes is at least that over
Y's for every representation, i.e. when

    D(X, Y) = min over u of  mean u(X) − mean u(Y)  ≥ 0,

a linear programme (solved by HiGHS, :func:`scipy.optimize.linprog`). Only the covering pairs of
R1 and of R2 are written as constraints: the others follow by transitivity (the tests compare the
optimum with every constraint written out). This is the reference code's ε = 0 programme, whose
statistic is half of D (it divides by the 2n outcomes of both learners).

The test of "Y does not dominate X" (H0: Y ≿ X) permutes the 2n outcomes between the two
learners, as the reference code does, and rejects when D(Y, X) is small: p = (1 + #{D* ≤ D}) /
(B + 1), or the exact share over every split when there are at most ``permutations`` of them.
Robustness to contaminated data sets: when c of the n data sets may be anything, D can move by
at most 2c/n (u is in [0, 1]); the test still rejects with c such sets when the p-value of
D + 2c/n is at most the level.

Examples
--------
Two learners on two data sets, accuracy (cardinal) and time (ordinal, negated: higher is
better). A is better on both criteria everywhere, so A dominates B and not the reverse:

>>> import numpy as np
>>> from rankwise.stats.gsd import gsd_statistic
>>> a = np.array([[0.9, -1.0], [0.8, -2.0]])
>>> b = np.array([[0.7, -3.0], [0.6, -4.0]])
>>> round(gsd_statistic(a, b, cardinal=[True, False]), 6) >= 0
True
>>> round(gsd_statistic(b, a, cardinal=[True, False]), 6) < 0
True
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

#: Below this D is taken as 0 (the solver's feasibility tolerance).
TOLERANCE = 1e-9


def covering(strict) -> np.ndarray:
    """The covering pairs of a strict order given as a boolean matrix (i before j, and no l
    between): every other pair follows from them by transitivity."""
    f = np.asarray(strict, dtype=np.float32)
    return strict & ~((f @ f) > 0)


@dataclass(frozen=True)
class System:
    """The linear programme of one pair: its distinct points and constraints."""

    points: np.ndarray        # p × m, oriented
    low: int                  # index of the worst point (u = 0)
    high: int                 # index of the best point (u = 1)
    a_ub: object              # sparse, A_ub u <= 0
    a_eq: object | None       # sparse, A_eq u == 0


def system(points, cardinal) -> System:
    """The preference system of ``points`` (p × m distinct outcomes, every column
    higher-is-better; ``cardinal``: which columns are cardinal), its worst and best points
    added when they are not among them."""
    from scipy import sparse

    pts = np.asarray(points, dtype=float)
    card = np.asarray(cardinal, dtype=bool)
    lo_pt, hi_pt = pts.min(axis=0), pts.max(axis=0)
    extra = [q for q in (lo_pt, hi_pt) if not (pts == q).all(axis=1).any()]
    if extra:
        pts = np.vstack([pts] + extra)
    low = int(np.flatnonzero((pts == lo_pt).all(axis=1))[0])
    high = int(np.flatnonzero((pts == hi_pt).all(axis=1))[0])
    p = len(pts)
    le = (pts[:, None, :] <= pts[None, :, :]).all(axis=2)
    np.fill_diagonal(le, False)                       # distinct points: le is strict
    ci, cj = np.nonzero(covering(le))                                   # u_i - u_j <= 0
    blocks = [(np.repeat(np.arange(len(ci)), 2), np.c_[ci, cj].ravel(),
               np.tile([1.0, -1.0], len(ci)))]
    n_rows = len(ci)
    eq, n_eq = None, 0
    lo_idx, hi_idx = np.nonzero(le)                   # the R1 pairs: lo ≤ hi
    if len(lo_idx) > 1:
        ordn = ~card
        a, b = pts[hi_idx], pts[lo_idx]
        # R2: pair P = (b, a) at least as good as Q = (d, c)
        g = np.ones((len(a), len(a)), dtype=bool)
        if ordn.any():
            g &= (b[:, None, ordn] <= b[None, :, ordn]).all(axis=2)
            g &= (a[None, :, ordn] <= a[:, None, ordn]).all(axis=2)
        if card.any():
            diff = a[:, card] - b[:, card]
            g &= (diff[:, None, :] >= diff[None, :, :]).all(axis=2)
        np.fill_diagonal(g, False)
        same = g & g.T
        # classes of equally good exchanges (same ordinal ends, same cardinal differences):
        # each member equal to the first of its class
        rep = np.argmax(same | np.eye(len(a), dtype=bool), axis=1)   # first of its class
        member = np.flatnonzero(rep != np.arange(len(a)))
        if member.size:
            r0 = rep[member]
            eq = (np.repeat(np.arange(member.size), 4),
                  np.c_[hi_idx[member], lo_idx[member], hi_idx[r0], lo_idx[r0]].ravel(),
                  np.tile([1.0, -1.0, -1.0, 1.0], member.size))
            n_eq = member.size
        keep = rep == np.arange(len(a))
        kept = np.flatnonzero(keep)
        pi, qj = np.nonzero(covering((g & ~g.T)[np.ix_(keep, keep)]))
        pi, qj = kept[pi], kept[qj]
        # an exchange (d, c) nested in (b, a) on every criterion, cardinal ones too (b <= d and
        # c <= a in R1), says no more than R1 (u(a) >= u(c), u(d) >= u(b)): left to R1
        nested = ((pts[lo_idx[pi]] <= pts[lo_idx[qj]]).all(axis=1)
                  & (pts[hi_idx[qj]] <= pts[hi_idx[pi]]).all(axis=1))
        pi, qj = pi[~nested], qj[~nested]
        # -(u_a - u_b) + (u_c - u_d) <= 0
        blocks.append((n_rows + np.repeat(np.arange(len(pi)), 4),
                       np.c_[hi_idx[pi], lo_idx[pi], hi_idx[qj], lo_idx[qj]].ravel(),
                       np.tile([-1.0, 1.0, 1.0, -1.0], len(pi))))
        n_rows += len(pi)
    rows, cols, vals = (np.concatenate(x) for x in zip(*blocks))
    a_ub = sparse.csr_matrix((vals, (rows, cols)), shape=(max(n_rows, 1), p))
    a_eq = (sparse.csr_matrix((eq[2], (eq[0], eq[1])), shape=(n_eq, p))
            if eq is not None else None)
    return System(pts, low, high, a_ub, a_eq)


_build = system   # the builder, under a name the functions with a ``system`` argument can use


def all_constraints(points, cardinal) -> np.ndarray:
    """Every R1 and R2 constraint written out (no reduction; an equality as its two
    inequalities): dense ``A_ub`` with ``A_ub u <= 0``, for the tests' brute force."""
    pts = np.asarray(points, dtype=float)
    card = np.asarray(cardinal, dtype=bool)
    p = len(pts)
    le = [(i, j) for i in range(p) for j in range(p)
          if i != j and (pts[i] <= pts[j]).all()]
    ub = []
    for i, j in le:
        row = np.zeros(p)
        row[i], row[j] = 1, -1
        ub.append(row)
    for (b, a), (d, c) in itertools.product(le, le):
        if (b, a) == (d, c):
            continue
        o = ~card
        if not ((pts[b, o] <= pts[d, o]).all() and (pts[c, o] <= pts[a, o]).all()
                and (pts[a, card] - pts[b, card] >= pts[c, card] - pts[d, card]).all()):
            continue
        row = np.zeros(p)
        row[a] -= 1
        row[b] += 1
        row[c] += 1
        row[d] -= 1
        ub.append(row)
    return np.array(ub).reshape(-1, p)


def _pooled(x, y):
    """The distinct points of both samples and each observation's index among them."""
    both = np.vstack([x, y])
    pts, inv = np.unique(both, axis=0, return_inverse=True)
    return pts, inv.ravel()


class Solver:
    """One pair's programme kept in HiGHS, re-solved for each objective from the last basis
    (the permutations change only the objective). Uses scipy's bundled HiGHS object where this
    scipy has it, else :func:`scipy.optimize.linprog` each time (the tests compare the two)."""

    def __init__(self, sys: System, warm: bool = True):
        self.sys = sys
        self.highs = _highs(sys) if warm else None

    def __call__(self, c) -> float:
        if self.highs is None:
            return _solve(self.sys, c)
        h, p, cols = self.highs
        h.changeColsCost(p, cols, np.asarray(c, dtype=float))
        h.run()
        if h.getModelStatus().name != "kOptimal":
            return _solve(self.sys, c)
        return float(h.getInfo().objective_function_value)


def _highs(sys: System):
    try:
        from scipy import sparse
        from scipy.optimize._highspy import _core
        h = _core._Highs()
    except (ImportError, AttributeError):   # another scipy: linprog each time
        return None
    h.setOptionValue("output_flag", False)
    h.setOptionValue("presolve", "off")   # the same programme again and again
    a = sys.a_ub if sys.a_eq is None else sparse.vstack([sys.a_ub, sys.a_eq])
    a = sparse.csc_matrix(a)
    a.sort_indices()
    p, rows = len(sys.points), a.shape[0]
    n_ub = sys.a_ub.shape[0]
    lp = _core.HighsLp()
    lp.num_col_, lp.num_row_ = p, rows
    lp.col_cost_ = np.zeros(p)
    low, up = np.zeros(p), np.ones(p)
    up[sys.low], low[sys.high] = 0.0, 1.0
    lp.col_lower_, lp.col_upper_ = low, up
    lp.row_lower_ = np.r_[np.full(n_ub, -np.inf), np.zeros(rows - n_ub)]
    lp.row_upper_ = np.zeros(rows)
    lp.a_matrix_.format_ = _core.MatrixFormat.kColwise
    lp.a_matrix_.start_, lp.a_matrix_.index_ = a.indptr, a.indices
    lp.a_matrix_.value_ = a.data
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = p, rows
    h.passModel(lp)
    return h, p, np.arange(p, dtype=np.int32)


def _solve(sys: System, c) -> float:
    from scipy.optimize import linprog

    bounds = [(0.0, 1.0)] * len(sys.points)
    bounds[sys.low] = (0.0, 0.0)
    bounds[sys.high] = (1.0, 1.0)
    res = linprog(c, A_ub=sys.a_ub, b_ub=np.zeros(sys.a_ub.shape[0]),
                  A_eq=sys.a_eq, b_eq=None if sys.a_eq is None else np.zeros(sys.a_eq.shape[0]),
                  bounds=bounds, method="highs")
    if res.status != 0:
        raise ArithmeticError(f"the GSD programme was not solved: {res.message}")
    return float(res.fun)


def _objective(idx_x, idx_y, n_points, n) -> np.ndarray:
    c = np.zeros(n_points)
    np.add.at(c, idx_x, 1.0 / n)
    np.add.at(c, idx_y, -1.0 / n)
    return c


def gsd_statistic(x, y, cardinal) -> float:
    """D(X, Y) = min over the representations u of mean u(X) − mean u(Y) (≥ 0: X dominates
    Y in the sample). ``x``, ``y``: n × m outcomes (oriented, higher is better).

    Examples
    --------
    One cardinal criterion: the representations include u = the value rescaled to [0, 1], so
    D is the difference of the means over the range at most:

    >>> import numpy as np
    >>> from rankwise.stats.gsd import gsd_statistic
    >>> round(gsd_statistic(np.array([[3.0], [1.0]]), np.array([[2.0], [0.0]]), [True]), 6)
    0.333333
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    pts, inv = _pooled(x, y)
    sys = _build(pts, cardinal)
    n = len(x)
    return _solve(sys, _objective(inv[:n], inv[n:], len(sys.points), n))


@dataclass(frozen=True)
class PairTest:
    """The permutation test of H0: ``other`` GSD-dominates ``learner``."""

    statistic: float          # D(other, learner)
    pvalue: float
    exact: bool               # every split enumerated
    permutations: int         # splits used
    null: np.ndarray          # the D* of the splits
    robust: int               # contaminated data sets under which the test still rejects
    curtailed: bool = False   # stopped once p > level was certain: pvalue is a lower bound


def pair_test(x, y, cardinal, *, permutations: int, seed, level: float,
              warm: bool = True, system: System | None = None,
              curtail: bool = False) -> PairTest:
    """H0: Y ≿ X (Y GSD-dominates X); the statistic D(Y, X) over the 2n outcomes' splits.
    ``level``: the level at which ``robust`` (the contaminated data sets the rejection
    survives) is counted. ``system``: the pair's programme when the caller has it (the same
    for (x, y) and (y, x): the distinct outcomes of both). ``curtail``: stop the random splits
    as soon as so many are at or below the observed statistic that p > ``level`` whatever the
    rest give (the decision is the full test's; the p-value is then a lower bound).

    Examples
    --------
    X better than Y on both criteria on every one of 8 data sets: Y does not dominate X.

    >>> import numpy as np
    >>> from rankwise.stats.gsd import pair_test
    >>> x = np.c_[np.linspace(0.9, 0.97, 8), -np.arange(8.0)]
    >>> y = np.c_[np.linspace(0.5, 0.57, 8), -np.arange(8.0) - 10]
    >>> t = pair_test(x, y, [True, False], permutations=500, seed=1, level=0.05)
    >>> t.pvalue < 0.05, t.robust >= 0
    (True, True)
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    n = len(x)
    pts, inv = _pooled(x, y)
    sys = _build(pts, cardinal) if system is None else system
    p = len(sys.points)
    solve = Solver(sys, warm)
    observed = solve(_objective(inv[n:], inv[:n], p, n))
    total = math.comb(2 * n, n)
    cache = {}
    values = []
    if total <= permutations:
        splits = (np.array(s) for s in itertools.combinations(range(2 * n), n))
        exact = True
    else:
        rng = np.random.default_rng(seed)
        splits = (rng.permutation(2 * n)[:n] for _ in range(permutations))
        exact = False
    # p = (1 + hits) / (B + 1) > level for sure once hits reaches this
    enough = math.floor(level * (permutations + 1)) if curtail and not exact else None
    hits = 0
    for first in splits:
        mask = np.zeros(2 * n, dtype=bool)
        mask[first] = True
        c = _objective(inv[mask], inv[~mask], p, n)   # the first n play Y
        key = c.tobytes()
        if key not in cache:
            cache[key] = solve(c)
        values.append(cache[key])
        hits += cache[key] <= observed + TOLERANCE
        if enough is not None and hits >= enough:
            null = np.array(values)
            return PairTest(observed, (1 + hits) / (permutations + 1), False, len(null), null,
                            -1, True)
    null = np.array(values)

    def pval(t):
        hits = int((null <= t + TOLERANCE).sum())
        return hits / len(null) if exact else (1 + hits) / (len(null) + 1)

    pvalue = pval(observed)
    robust = -1
    for c in range(n + 1):
        if pval(observed + 2.0 * c / n) <= level:
            robust = c
        else:
            break
    return PairTest(observed, pvalue, exact, len(null), null, robust)


def relation(values, cardinal, systems: dict | None = None) -> np.ndarray:
    """k × k matrix of D(i, j) for every ordered pair (``values``: n × k × m, oriented); the
    diagonal is 0.

    ``systems``: filled with each pair's programme, by (i, j) with i < j, for the tests.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.stats.gsd import front, relation
    >>> v = np.array([[[3.0], [1.0]], [[2.0], [0.0]]])   # 2 data sets x 2 learners
    >>> d = relation(v, [True])
    >>> bool(d[0, 1] >= 0), front(d).tolist()
    (True, [True, False])
    """
    n, k, m = values.shape
    d = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            # one programme for both directions: only the objective changes
            pts, inv = _pooled(values[:, i], values[:, j])
            sys = _build(pts, cardinal)
            if systems is not None:
                systems[i, j] = sys
            solve = Solver(sys)
            c = _objective(inv[:n], inv[n:], len(sys.points), n)
            d[i, j], d[j, i] = solve(c), solve(-c)
    return d


def front(d) -> np.ndarray:
    """The GSD front from the matrix of D: the learners no other strictly dominates (j
    dominates i and i does not dominate j).

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.stats.gsd import front
    >>> front(np.array([[0.0, 0.2], [-0.2, 0.0]])).tolist()
    [True, False]
    """
    return ~strict(d).any(axis=0)


def strict(d) -> np.ndarray:
    """k × k booleans from the matrix of D: ``[i, j]`` when i dominates j and j does not
    dominate i."""
    dom = np.asarray(d) >= -TOLERANCE
    np.fill_diagonal(dom, False)
    return dom & ~dom.T


def null_rejection_rate(reps: int, n: int, *, permutations: int = 99, level: float = 0.05,
                        seed=0) -> float:
    """The share of ``reps`` simulated pairs whose test rejects at ``level`` when both learners'
    outcomes come from one distribution (a normal cardinal criterion, an ordinal one of four
    classes) on ``n`` data sets: the type-I error, which should be at most ``level``.

    Examples
    --------
    >>> from rankwise.stats.gsd import null_rejection_rate
    >>> null_rejection_rate(10, 5, permutations=19, seed=1) <= 0.2
    True
    """
    rng = np.random.default_rng(seed)
    rejected = 0
    for _ in range(reps):
        x = np.c_[rng.normal(size=n), rng.integers(0, 4, n)]
        y = np.c_[rng.normal(size=n), rng.integers(0, 4, n)]
        t = pair_test(x, y, [True, False], permutations=permutations,
                      seed=int(rng.integers(1 << 30)), level=level)
        rejected += t.pvalue <= level
    return rejected / reps
