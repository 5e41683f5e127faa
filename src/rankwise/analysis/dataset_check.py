"""Which data sets carry the claim: the fewest data sets whose removal overturns each claim of
the verdict.

A conclusion drawn from 24 data sets can rest on two of them (Huang, Shen, Wei & Broderick 2025
show it for leaderboards). For each claim the verdict makes, this module finds the smallest set
of data sets whose removal changes it, when :func:`rankwise.compare` is run on the rest with the
same settings:

- *best*: the learner with the best mean rank (the first in column order on a tie) stays it;
- *verdict*: each other learner's decision in the verdict, significantly worse than the
  best-ranked learner (a loser) or not (a winner), by the verdict's procedure after the
  gate (when data sets are removed, the best-ranked learner may change; the claim is
  the learner's decision);
- *gate*: the test that gates the post-hoc tests of Friedman mean ranks (Iman-Davenport's F)
  rejects (or does not);
- *pair*: with the all-pairs family, each pair's decision in the CD diagram (its procedure, on
  Friedman mean ranks, after the gate unless ``force_posthoc``).

Every subset of one, two and three data sets is tried (``MAX_EXACT``), all at once: removing a
data set does not change the ranks within the others, so the rank sums, the Friedman statistic
and the permutation variance of every subset follow by subtraction. So the size reported up to
three is exact, with the number of subsets of that size that overturn the claim. A claim that
survives every subset of three gets a greedy search (remove, one at a time, the data set that
brings it closest to changing), which gives an upper bound. Leave-one-data-set-out is the size-1
pass. A claim that one or two data sets carry is *fragile* and the verdict names it.

The gate's p-value is the one :func:`compare` would compute on the subset: from the F
distribution, or below 20 remaining data sets (``friedman_method="auto"``) from the exact
permutation distribution of Friedman's statistic (computed once per multiset of the rows'
ranks). Where ``compare`` would draw a Monte Carlo p-value (the exact programme too large; once
it is too large for some number of rows, the check takes it as too large for more rows too),
the check uses the F p-value there, because 100,000 arrangements for each of thousands of subsets would
take minutes, and says so in its notes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import chain, combinations, islice

import numpy as np
from scipy import optimize, special, stats

from .._validate import real_array
from ..errors import RankwiseError
from ..names import procedure_title
from ..stats.adjust import adjust_rows, shaffer_multipliers
from ..stats.exact import friedman_sum_of_squares_distribution
from ..stats.omnibus import friedman_method
from ..stats.pairwise import nemenyi_pvalues
from ..stats.results import jsonable

#: Every subset of up to this many data sets is tried.
MAX_EXACT = 3
#: A claim overturned by removing this many data sets or fewer is fragile.
FRAGILE_AT = 2
#: Subsets evaluated at once (memory: CHUNK × (k + pairs) floats).
CHUNK = 8_192
#: Above this many pairs the all-pairs decisions are not checked (the verdict's are).
MAX_PAIR_CLAIMS = 5_000
#: The exact search stops at the subset size whose subsets × (learners + pairs) pass this.
WORK_MAX = 2e8
#: The greedy search goes on with at most max(GREEDY_MIN_CLAIMS, GREEDY_WORK // k) claims
#: (the verdict's first): each walks down every data set with all k learners.
GREEDY_MIN_CLAIMS = 100
GREEDY_WORK = 20_000
#: The greedy search stops when this many data sets are left.
MIN_LEFT = 2
#: Pair procedures with one exhaustive search per table (Bergmann-Hommel) are not checked.
PAIR_PROCEDURES = ("nemenyi", "bonferroni", "holm", "shaffer", "sidak", "benjamini_hochberg",
                   "benjamini_yekutieli")


@dataclass(frozen=True)
class Claim:
    """One claim of the verdict and what overturns it.

    ``smallest``: the fewest data sets whose removal changes it (None: no subset found);
    ``exact``: ``smallest`` is exact (every subset of that size and below was tried) rather than
    a greedy upper bound; ``removed``: one such set of data sets (the first in data-set order);
    ``count``: how many subsets of that size change it (exact sizes only); ``searched``:
    False when the greedy search did not run for it (too many claims; see ``GREEDY_WORK``).
    """

    kind: str
    learners: tuple
    holds: bool
    statement: str
    smallest: int | None
    exact: bool
    removed: tuple
    count: int | None
    searched: bool = True   # False: the greedy search did not run for it (too many claims)

    @property
    def fragile(self) -> bool:
        return self.smallest is not None and self.smallest <= FRAGILE_AT

    def to_dict(self) -> dict:
        return {"kind": self.kind, "learners": list(self.learners), "holds": self.holds,
                "statement": self.statement, "smallest": self.smallest, "exact": self.exact,
                "removed": list(self.removed), "count": self.count, "fragile": self.fragile,
                "searched": self.searched}


@dataclass(frozen=True)
class DatasetCheck:
    """Which data sets carry each claim (see the module docstring).

    Examples
    --------
    >>> import rankwise
    >>> cmp = rankwise.compare(rankwise.load_example("garcia2008"), dataset_check=True)
    >>> check = cmp.dataset_check
    >>> len(check.datasets), len(check.claims) > 0
    (30, True)
    """

    claims: tuple
    datasets: tuple
    leave_one_out: dict   # data set -> indices of the claims its removal alone overturns
    settings: dict
    notes: tuple = ()

    def fragile(self) -> tuple:
        return tuple(c for c in self.claims if c.fragile)

    def sentence(self) -> str:
        """What the verdict says of it: the fragile claims by name, or the least robust one."""
        n = f"{len(self.datasets):,}"
        weak = self.fragile()
        head = "Which data sets carry it:"
        if weak:
            shown = "; ".join(f"'{c.statement}' falls without {_names(c.removed)}"
                              for c in weak[:3])
            more = f"; and {len(weak) - 3} more" if len(weak) > 3 else ""
            return (f"{head} {len(weak)} of the {len(self.claims)} claims rest on one or two of"
                    f" the {n} data sets: {shown}{more}.")
        tried = int(self.settings.get("max_exact", MAX_EXACT))
        found = [c for c in self.claims if c.smallest is not None]
        if not found:
            where = "" if all(c.searched for c in self.claims) else " where it ran"
            return (f"{head} no claim falls when {_any(tried)} of the {n} data sets"
                    f" {'is' if tried == 1 else 'are'} removed, nor along the greedy"
                    f" search{where}.")
        least = min(found, key=lambda c: (c.smallest, not c.exact))
        how = (f"{least.smallest} ({_names(least.removed)})" if least.exact else
               f"these {least.smallest}, found by a greedy search (fewer may do):"
               f" {_names(least.removed)}")
        fewest = min(tried, FRAGILE_AT)
        return (f"{head} no claim falls when {_any(fewest)} of the {n} data sets"
                f" {'is' if fewest == 1 else 'are'} removed; the least robust,"
                f" '{least.statement}', falls without {how}.")

    def to_dict(self) -> dict:
        return jsonable({"claims": [c.to_dict() for c in self.claims],
                         "datasets": list(self.datasets),
                         "leave_one_out": {name: list(ix) for name, ix in
                                           self.leave_one_out.items()},
                         "fragile": [i for i, c in enumerate(self.claims) if c.fragile],
                         "settings": self.settings, "notes": list(self.notes)})


def _any(size: int) -> str:
    """Every subset of up to ``size`` data sets, in words."""
    return {1: "any one", 2: "any one or two", 3: "any one, two or three"}.get(
        size, f"any {size} or fewer")


def _names(names, limit: int = 4) -> str:
    names = list(names)
    if len(names) <= limit:
        return ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1]
    return ", ".join(names[:limit]) + f" and {len(names) - limit} more"


@dataclass(frozen=True)
class _Batch:
    """Many subsets of the table at once: each learner's rank sum (B × k), the sum of squared
    ranks ``a1`` (Friedman's tie correction), the centred sum of squares ``d`` (the
    permutation variance of a rank-sum difference), the data sets left ``n`` (B,), and which
    rows are left (B × N booleans, for the exact permutation p-value only)."""

    rs: np.ndarray
    a1: np.ndarray
    d: np.ndarray
    n: np.ndarray
    left: object   # callable: b -> boolean mask of the rows subset b keeps


class _Subsets:
    """The analysis of the table without some of its data sets, for many subsets at once.

    Everything the claims read is a sum over data sets, so a subset's values are the table's
    minus the removed rows' (see :class:`_Batch`).
    """

    def __init__(self, ranks, *, alpha, convention, method, verdict_procedure,
                 pair_procedure, force, gate_passed=None):
        r = np.asarray(ranks, dtype=float)
        self.n, self.k = r.shape
        self.r = r
        self.total = r.sum(axis=0)
        self.sq = (r ** 2).sum(axis=1)
        self.centred = ((r - r.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
        self.doubled = np.rint(2 * r).astype(np.int64)
        # each row's pattern: which multiset of ranks it has (the permutation p-value reads
        # only these)
        _, self._pattern = np.unique(np.sort(self.doubled, axis=1), axis=0, return_inverse=True)
        self._pattern = self._pattern.ravel()
        self.alpha, self.convention, self.method = alpha, convention, method
        self.vproc, self.pproc, self.force = verdict_procedure, pair_procedure, force
        self.gate_passed = gate_passed  # the table's own gate decision, as compare made it
        k = self.k
        # every pair a < b in the all-pairs family's order; row c of _others: all but c
        self.pairs = np.column_stack(np.triu_indices(k, 1)).astype(np.int64) \
            if pair_procedure else None
        step = np.arange(k - 1)
        self._others = step[None, :] + (step[None, :] >= np.arange(k)[:, None])
        self._dist = {}
        self._too_large = math.inf   # fewest rows on which the exact programme gave up
        self._nemenyi_z = None
        self.approximated = set()   # remaining sizes where Monte Carlo was replaced by F

    # -- batches ------------------------------------------------------------------------------
    def removing(self, removed) -> _Batch:
        """The subsets without the rows ``removed`` (B × s indices)."""
        removed = np.asarray(removed, dtype=np.int64)
        size = removed.shape[1]

        def left(b):
            mask = np.ones(self.n, dtype=bool)
            mask[removed[b]] = False
            return mask
        return _Batch(self.total - self.r[removed].sum(axis=1),
                      self.sq.sum() - self.sq[removed].sum(axis=1),
                      self.centred.sum() - self.centred[removed].sum(axis=1),
                      np.full(removed.shape[0], self.n - size), left)

    def prefixes(self, order) -> _Batch:
        """The subsets without the first 1, 2, … rows of ``order`` (down to ``MIN_LEFT``)."""
        order = np.asarray(order, dtype=np.int64)[: self.n - MIN_LEFT]
        m = np.arange(1, order.size + 1)

        def left(b):
            mask = np.ones(self.n, dtype=bool)
            mask[order[: b + 1]] = False
            return mask
        return _Batch(self.total - np.cumsum(self.r[order], axis=0),
                      self.sq.sum() - np.cumsum(self.sq[order]),
                      self.centred.sum() - np.cumsum(self.centred[order]), self.n - m, left)

    # -- the gate -----------------------------------------------------------------------------
    def gate_p(self, batch: _Batch, exact: bool = True) -> np.ndarray:
        """The gate's p-value for each subset (Iman-Davenport's F from Friedman's statistic), as
        compare computes it (see the module docstring); ``exact=False``: the F p-value
        throughout (a quick first pass)."""
        k, n = self.k, batch.n.astype(float)
        c1 = n * k * (k + 1) ** 2 / 4.0
        flat = batch.a1 - c1 <= 1e-9 * c1
        with np.errstate(divide="ignore", invalid="ignore"):
            sq_sum = (batch.rs ** 2).sum(axis=1)
            if self.convention == "default":
                chi2 = (k - 1) * (sq_sum - n * c1) / (batch.a1 - c1)
            else:
                chi2 = 12.0 / (n * k * (k + 1)) * sq_sum - 3.0 * n * (k + 1)
            chi2 = np.where(flat, 0.0, np.maximum(chi2, 0.0))
            denom = n * (k - 1) - chi2
            agree = ~flat & (denom <= 1e-12 * n * (k - 1))
            f = (n - 1) * chi2 / np.where(agree, 1.0, denom)
        p = np.where(flat, 1.0, stats.f.sf(f, k - 1, (k - 1) * (n - 1)))
        if agree.any():  # every data set ranks the learners alike: the exact probability
            p = np.where(agree, [float(math.factorial(k) ** -(int(m) - 1)) if k < 170 else 0.0
                                 for m in batch.n], p)
        for b in np.flatnonzero(~(flat | agree)) if exact else ():
            chosen = friedman_method(self.method, self.convention, int(batch.n[b]))
            if chosen != "chi2":
                p[b] = self._permutation_p(batch.left(b), chosen, p[b])
        return p

    def _permutation_p(self, left, chosen, fallback) -> float:
        """The exact permutation p-value of the rows ``left`` keeps. The distribution depends
        only on the multiset of the rows' sorted ranks, so it is computed once per multiset
        (in a canonical order); a p-value within 1e-9 of alpha is recomputed in the rows' own
        order, as compare computes it, so that rounding cannot move a decision."""
        rows = self.doubled[left]
        key = tuple(sorted(self._pattern[left].tolist()))
        if key not in self._dist and rows.shape[0] >= self._too_large:
            self._dist[key] = None  # the programme outgrew its bound on fewer rows already
        if key not in self._dist:
            canonical = np.sort(rows, axis=1)[np.argsort(self._pattern[left], kind="stable")]
            self._dist[key] = (friedman_sum_of_squares_distribution(canonical / 2.0)
                               if chosen != "monte-carlo" else None)
        dist = self._dist[key]
        if dist is None:  # beyond the exact programme: F stands in for the Monte Carlo
            self._too_large = min(self._too_large, rows.shape[0])
            self.approximated.add(rows.shape[0])
            return fallback
        observed = int((rows.sum(axis=0) ** 2).sum())
        p = _upper_tail(dist, observed)
        if abs(p - self.alpha) < 1e-9:
            own = friedman_sum_of_squares_distribution(rows / 2.0)
            p = _upper_tail(own, observed) if own is not None else p
        return p

    def gate(self, batch: _Batch, whole: bool = False, exact: bool = True) -> np.ndarray:
        passed = self.gate_p(batch, exact) <= self.alpha
        if whole and self.gate_passed is not None:
            passed[:] = self.gate_passed  # a Monte Carlo p-value the check does not redraw
        return passed

    # -- the pairs ----------------------------------------------------------------------------
    def z(self, batch: _Batch, a, b) -> np.ndarray:
        """z-statistics of rank-sum differences a − b (learner indices, B × m)."""
        if self.convention == "default":
            se = np.sqrt(2.0 * batch.d / (self.k - 1))
        else:
            se = np.sqrt(batch.n * self.k * (self.k + 1) / 6.0)
        diff = np.take_along_axis(batch.rs, a, axis=1) - np.take_along_axis(batch.rs, b, axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(se[:, None] > 0, diff / se[:, None], 0.0)

    def best(self, batch: _Batch) -> np.ndarray:
        return np.argmin(batch.rs, axis=1)   # the first of the best on ties, as the verdict

    def losers(self, batch: _Batch, gate) -> np.ndarray:
        """B × k: each learner significantly worse than each subset's best (the verdict)."""
        best = self.best(batch)
        b = self._others[best]
        z = self.z(batch, np.broadcast_to(best[:, None], b.shape), b)
        apv = adjust_rows(_two_sided(z), self.vproc, convention=self.convention)
        out = np.zeros(batch.rs.shape, dtype=bool)
        np.put_along_axis(out, b, apv <= self.alpha, axis=1)
        return out & gate[:, None]

    def significant_pairs(self, batch: _Batch, gate, which=None) -> np.ndarray:
        """B × pairs: each pair's decision by the diagram's procedure (``which``: only these
        pairs, for a single-step procedure)."""
        pairs = self.pairs if which is None else self.pairs[np.atleast_1d(which)]
        shape = (batch.rs.shape[0], len(pairs))
        z = self.z(batch, *(np.broadcast_to(col, shape) for col in pairs.T))
        if self.pproc == "nemenyi":
            sig = self._nemenyi(z)
        else:
            m = len(self.pairs)
            p = _two_sided(z)
            if self.pproc in SINGLE_STEP:
                sig = SINGLE_STEP[self.pproc](p, m) <= self.alpha
            elif self.pproc in ("holm", "shaffer"):
                sig = self._step_down(p)
            else:
                sig = adjust_rows(p, self.pproc, k=self.k, convention=self.convention) \
                    <= self.alpha
        return sig if self.force else sig & gate[:, None]

    def _step_down(self, p) -> np.ndarray:
        """Holm's or Shaffer's decisions, APV ≤ alpha, without the APVs: each row rejects its
        R smallest p-values, R the length of the run of sorted p_(i) with t_i·p_(i) ≤ alpha
        (t_i non-increasing, so tied p-values share a decision). Sorting values, not indices,
        halves the time of 161,700 rows of 435 pairs."""
        m = p.shape[1]
        t = shaffer_multipliers(self.k) if self.pproc == "shaffer" else m - np.arange(m)
        ps = np.sort(p, axis=1)
        run = np.logical_and.accumulate(t * ps <= self.alpha, axis=1).sum(axis=1)
        cut = np.where(run > 0, ps[np.arange(p.shape[0]), np.maximum(run - 1, 0)], -1.0)
        return p <= cut[:, None]

    def _nemenyi(self, z) -> np.ndarray:
        """Nemenyi's decision, APV ≤ alpha, read from |z| against the critical value (the
        studentized range); within 1e-8 of it the APV itself decides."""
        if self._nemenyi_z is None:
            self._nemenyi_z = optimize.brentq(
                lambda v: float(nemenyi_pvalues(np.array([v]), self.k)[0]) - self.alpha,
                1e-6, 60.0, xtol=1e-14)
        az = np.abs(z)
        sig = az >= self._nemenyi_z
        near = np.abs(az - self._nemenyi_z) < 1e-8 * self._nemenyi_z
        if near.any():
            sig[near] = nemenyi_pvalues(az[near], self.k) <= self.alpha
        return sig

    def state(self, batch: _Batch, want_pairs=True, whole=False) -> dict:
        gate = self.gate(batch, whole)
        out = {"best": self.best(batch), "gate": gate, "loser": self.losers(batch, gate)}
        if want_pairs and self.pairs is not None:
            out["pair"] = self.significant_pairs(batch, gate)
        return out


#: Pair procedures whose decision of a pair reads only its own p-value (m: the number of pairs).
SINGLE_STEP = {
    "bonferroni": lambda p, m: np.minimum(p * m, 1.0),
    "sidak": lambda p, m: _sidak(p, m),
}


def _sidak(p, m):
    with np.errstate(divide="ignore"):  # p = 1: log(0) and an APV of 1, as in adjust()
        return np.minimum(-np.expm1(m * np.log1p(-p)), 1.0)


def _two_sided(z):
    """2·P(Z ≥ |z|), as the post-hoc engine computes it (``norm.sf`` is ``ndtr`` of −|z|)."""
    return np.minimum(1.0, 2 * special.ndtr(-np.abs(z)))


def _upper_tail(dist, observed: int) -> float:
    values, probs = dist
    return float(min(1.0, probs[values >= observed].sum()))


@dataclass(frozen=True)
class _Spec:
    """A claim as the search reads it: ``where`` is the learner's or the pair's index."""

    kind: str
    names: tuple
    where: int | None
    holds: bool
    statement: str

    def kept(self, state: dict) -> np.ndarray:
        """Whether each subset of a batch's state leaves the claim as it was."""
        if self.kind == "best":
            return state["best"] == self.where
        if self.kind == "gate":
            return state["gate"] == self.holds
        if self.kind == "verdict":
            return state["loser"][:, self.where] == self.holds
        return state["pair"][:, self.where] == self.holds

    def kept_in(self, sub: _Subsets, batch: _Batch, exact: bool = True) -> np.ndarray:
        """The same for one claim alone, computing only what it reads (``exact=False``: the
        gate by its F p-value throughout)."""
        if self.kind == "best":
            return sub.best(batch) == self.where
        gate = sub.gate(batch, exact=exact)
        if self.kind == "gate":
            return gate == self.holds
        if self.kind == "verdict":
            return sub.losers(batch, gate)[:, self.where] == self.holds
        if sub.pproc == "nemenyi" or sub.pproc in SINGLE_STEP:
            return sub.significant_pairs(batch, gate, self.where)[:, 0] == self.holds
        return sub.significant_pairs(batch, gate)[:, self.where] == self.holds


def _claims(sub: _Subsets, learners, full) -> list:
    """The claims of the whole table (``full``: its state)."""
    best = int(full["best"][0])
    bname = learners[best]
    gate = bool(full["gate"][0])
    out = [_Spec("best", (bname,), best, True, f"{bname} has the best mean rank"),
           _Spec("gate", (), None, gate, "the Iman-Davenport test detects a difference" if gate
                 else "the Iman-Davenport test detects no difference")]
    for j, name in enumerate(learners):
        if j != best:
            lost = bool(full["loser"][0, j])
            out.append(_Spec("verdict", (name, bname), j, lost,
                             f"{name} is {'' if lost else 'not '}significantly worse than"
                             f" {bname}"))
    if "pair" in full:
        for i, (a, b) in enumerate(sub.pairs):
            sig = bool(full["pair"][0, i])
            out.append(_Spec("pair", (learners[a], learners[b]), i, sig,
                             f"{learners[a]} and {learners[b]} "
                             f"{'differ' if sig else 'do not differ'} significantly"))
    return out


def dataset_check(ranks, learners, datasets, *, alpha: float = 0.05,
                  convention: str = "default", friedman_method: str = "auto",
                  verdict_procedure: str = "holm", pair_procedure: str | None = None,
                  force_posthoc: bool = False, max_exact: int = MAX_EXACT,
                  gate_passed: bool | None = None) -> DatasetCheck:
    """Which data sets carry each claim of the verdict (see the module docstring).

    Parameters
    ----------
    ranks : array_like, N × k
        Each data set's ranks (1 = best, mid-ranks), as :func:`compare` makes them.
    learners, datasets : sequences of str
        Column and row names.
    alpha, convention, friedman_method, verdict_procedure, force_posthoc
        As in :func:`rankwise.compare`.
    pair_procedure : str or None
        The CD diagram's all-pairs procedure, to check every pair's decision; None: the
        verdict's claims only.
    max_exact : int
        Every subset of up to this many data sets is tried (default 3).
    gate_passed : bool, optional
        The whole table's gate decision as :func:`compare` made it (it may rest on a Monte
        Carlo p-value, which the check does not redraw).

    Examples
    --------
    >>> import rankwise
    >>> t = rankwise.load_example("garcia2008")
    >>> ranks = rankwise.rank_within_datasets(t)
    >>> check = rankwise.dataset_check(ranks, t.learners, t.datasets)
    >>> type(check).__name__, len(check.datasets)
    ('DatasetCheck', 30)
    """
    r = real_array(ranks)
    if r.ndim != 2:
        raise RankwiseError(f"the data-set check takes an N × k matrix of ranks; got shape"
                            f" {r.shape}")
    n, k = r.shape
    if k < 3 or n < 3:
        raise RankwiseError("the data-set check needs at least 3 learners and 3 data sets")
    if np.isnan(r).any():
        raise RankwiseError("the data-set check needs a complete table (no missing cells)")
    if len(learners) != k or len(datasets) != n:
        raise RankwiseError(f"the ranks are {n} data sets × {k} learners, but {len(datasets)}"
                            f" data set and {len(learners)} learner names were given")
    # Each row must be a ranking (1 = best, mid-ranks): its values sum to k(k+1)/2 and lie in
    # 1..k. Scores given instead would call the worst learner the best.
    if (np.abs(r.sum(axis=1) - k * (k + 1) / 2.0) > 1e-9 * k * k).any() \
            or (r < 1).any() or (r > k).any():
        raise RankwiseError("the data-set check takes each data set's ranks (1 = best,"
                            " mid-ranks for ties), not scores: rank them first with"
                            " rankwise.rank_within_datasets(table)")
    pair_procedure, notes = _pair_procedure(pair_procedure, k)
    sub = _Subsets(r, alpha=alpha, convention=convention, method=friedman_method,
                   verdict_procedure=verdict_procedure, pair_procedure=pair_procedure,
                   force=force_posthoc, gate_passed=gate_passed)
    specs = _claims(sub, list(learners), sub.state(sub.removing(np.empty((1, 0))), whole=True))
    found, loo = {}, {}
    max_exact = _affordable(max_exact, n, k, 0 if sub.pairs is None else len(sub.pairs), notes)
    for size in range(1, min(max_exact, n - MIN_LEFT) + 1):
        open_ = [i for i in range(len(specs)) if i not in found]
        if size == 1:
            loo = _leave_one_out(sub, specs, datasets)
        if open_:
            found.update({i: (size, *hit) for i, hit in _exhaustive(sub, specs, open_,
                                                                     size).items()})
    searched = _greedy_claims(sub, specs, found, notes)
    out = []
    for i, spec in enumerate(specs):
        if i in found:
            size, first, count = found[i]
            out.append(Claim(spec.kind, spec.names, spec.holds, spec.statement, size, True,
                             tuple(datasets[j] for j in first), count))
        else:
            greedy = _greedy(sub, spec) if i in searched else None
            out.append(Claim(spec.kind, spec.names, spec.holds, spec.statement,
                             len(greedy) if greedy else None, False,
                             tuple(datasets[j] for j in greedy or ()), None,
                             searched=i in searched))
    if sub.approximated:
        sizes = ", ".join(str(m) for m in sorted(sub.approximated))
        notes.append(f"With {sizes} data sets left, the gate's exact permutation p-value is"
                     " beyond reach (compare draws a Monte Carlo one there); the check uses"
                     " the F p-value on those subsets.")
    settings = {"max_exact": max_exact, "fragile_at": FRAGILE_AT, "alpha": alpha,
                "verdict_procedure": verdict_procedure, "pair_procedure": pair_procedure,
                "gate": "iman_davenport", "friedman_method": friedman_method,
                "force_posthoc": force_posthoc, "search_beyond": "greedy (an upper bound)"}
    return DatasetCheck(tuple(out), tuple(datasets), loo, settings, tuple(notes))


def _affordable(max_exact, n, k, pairs, notes) -> int:
    """The largest subset size up to ``max_exact`` whose every subset fits ``WORK_MAX``."""
    size = max_exact
    while size > 1 and math.comb(n, size) * (k + pairs) > WORK_MAX:
        size -= 1
    if size < max_exact:
        tried = "Each data set was removed on its own" if size == 1 else \
            f"Every subset of up to {size} data sets was removed"
        notes.append(f"{tried}, not {max_exact} at a time as well: with {k:,} learners and"
                     f" {n:,} data sets the {math.comb(n, max_exact):,} subsets of {max_exact}"
                     " would take too long.")
    return size


def _greedy_claims(sub, specs, found, notes) -> set:
    """The claims the greedy search goes on with (see ``GREEDY_WORK``): those of the verdict
    first, learners by mean rank, then the pairs."""
    left = [i for i in range(len(specs)) if i not in found]
    order = {j: r for r, j in enumerate(np.argsort(sub.total, kind="stable"))}
    left.sort(key=lambda i: (specs[i].kind == "pair",
                             order.get(specs[i].where, -1) if specs[i].kind == "verdict" else -1,
                             i))
    most = max(GREEDY_MIN_CLAIMS, GREEDY_WORK // sub.k)
    if len(left) > most:
        notes.append(f"The greedy search beyond the exact sizes ran for {most} of"
                     f" the {len(left):,} claims that survived them (the verdict's first, best"
                     " mean rank first); the others are marked as not searched.")
    return set(left[:most])


def _pair_procedure(procedure, k) -> tuple:
    """``(procedure or None, notes)``: the all-pairs procedure the check can follow."""
    if procedure is None:
        return None, []
    if procedure not in PAIR_PROCEDURES:
        return None, [f"The all-pairs decisions are not checked ({procedure_title(procedure)}"
                      " needs a search of its own for every subset); the verdict's are."]
    if k * (k - 1) // 2 > MAX_PAIR_CLAIMS:
        return None, [f"The all-pairs decisions are not checked (more than"
                      f" {MAX_PAIR_CLAIMS:,} pairs); the verdict's are."]
    return procedure, []


def _batches(n, size):
    """Every subset of ``size`` rows, in lexicographic order, ``CHUNK`` at a time."""
    combos = combinations(range(n), size)
    while True:
        block = np.fromiter(chain.from_iterable(islice(combos, CHUNK)), dtype=np.int64)
        if block.size == 0:
            return
        yield block.reshape(-1, size)


def _exhaustive(sub, specs, open_, size) -> dict:
    """``{claim: (first overturning subset, how many)}`` over every subset of ``size``."""
    want_pairs = any(specs[i].kind == "pair" for i in open_)
    hits = {}
    for removed in _batches(sub.n, size):
        state = sub.state(sub.removing(removed), want_pairs)
        for i in open_:
            broken = ~specs[i].kept(state)
            count = int(np.count_nonzero(broken))
            if count:
                first, before = hits.get(i, (tuple(int(j) for j in removed[np.argmax(broken)]),
                                             0))
                hits[i] = (first, before + count)
    return hits


def _leave_one_out(sub, specs, datasets) -> dict:
    """``{data set: claims its removal alone overturns}``."""
    state = sub.state(sub.removing(np.arange(sub.n)[:, None]))
    kept = np.array([spec.kept(state) for spec in specs])   # claims × data sets
    return {name: tuple(int(i) for i in np.flatnonzero(~kept[:, j]))
            for j, name in enumerate(datasets) if not kept[:, j].all()}


def _greedy(sub, spec) -> tuple | None:
    """Data sets removed in the order that most helps to change the claim (see ``_order``),
    until it changes: the removed data sets (an upper bound), or None down to ``MIN_LEFT``."""
    order = _order(sub, spec)
    if sub.n - MIN_LEFT < 1:
        return None
    # a quick pass with the gate's F p-value proposes where the claim falls; each proposal
    # is then checked as compare decides it, so the bound reported is one compare confirms
    for m in np.flatnonzero(~spec.kept_in(sub, sub.prefixes(order), exact=False)) + 1:
        prefix = sub.removing(np.sort(order[:m])[None, :])
        if not spec.kept_in(sub, prefix)[0]:
            return tuple(sorted(int(j) for j in order[:m]))
    return None


def _order(sub, spec) -> np.ndarray:
    """The data sets, most helpful to change the claim first: those where the claim's better
    learner leads its rival most (best: the runner-up; a decision: the pair), or for the gate
    those whose ranks agree most (or least) with the mean ranks."""
    r, total = sub.r, sub.total
    if spec.kind == "gate":
        centre = (sub.k + 1) / 2.0
        agree = (r - centre) @ (total / sub.n - centre)
        return np.argsort(-agree if spec.holds else agree, kind="stable")
    if spec.kind == "best":
        a = spec.where
        b = int(np.argsort(total, kind="stable")[1 if np.argmin(total) == a else 0])
    elif spec.kind == "verdict":
        a, b = int(np.argmin(total)), spec.where
    else:
        a, b = (int(v) for v in sub.pairs[spec.where])
    if total[a] > total[b]:
        a, b = b, a   # a: the better of the two
    lead = r[:, b] - r[:, a]
    # a decision that holds (or the best) weakens as a's lead shrinks; one that does not
    # (not significant) needs it to grow
    weaken = spec.kind == "best" or spec.holds
    return np.argsort(-lead if weaken else lead, kind="stable")
