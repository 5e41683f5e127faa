"""Does the pool matter? The pair decisions and the verdict, recomputed for other pools.

Mean-rank post-hoc tests decide "A differs from B" from ranks that every other learner shapes:
remove a third learner, or add one, and the decision on A vs B can change although no score of A
or B did (Benavoli, Corani & Mangili 2016, JMLR 17(5)). This module recomputes, for every other
pool one learner away from the table's,

- *without L*: learner L left out, for each L;
- *clone of L*: a copy of L added that loses every tie with L (on each data set it ranks just
  below L and above every learner L beats), for each L; the copy of the worst learner is the
  "dominated clone" of the literature,

the decision of every pair of the chosen all-pairs family (significant by the diagram's
procedure at alpha, after the gate) and the verdict's top group (the learners not significantly
worse than the best, by the verdict's procedure), and reports which pools change which. The
decisions of each pool are computed by the same engine as the analysis, all pairs at once, so
2k pools of k = 50 learners take seconds.

Rank-based rankings (``friedman``, ``friedman_exact``, ``friedman_conover``) depend on the scores
only through each data set's order, so a pool is given to the engine as its ranks; the pairwise
``wilcoxon`` and ``sign`` rankings keep the scores (the clone's halfway between the learner's and
the next worse score on each data set) (their p-values do not depend on the pool;
their adjusted p-values do, through the number of pairs). ``friedman_aligned`` and ``quade``
mix the data sets' values and are refused, with the reason. Nemenyi's test needs the z-tests of
mean ranks; with another ranking the check uses Holm's procedure and says so.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import RankwiseError
from ..names import (ALL_PAIRS_PROCEDURES, OPTIONAL_PROCEDURES, RANK_BASED, procedure_title,
                     ranking_title)
from ..stats.ranking import midranks
from ..stats.results import jsonable

#: Above this many learners the 2k reanalyses take minutes (k = 200: 6 s with Holm's
#: procedure, growing as k³); the check is refused with the reason.
POOL_MAX_LEARNERS = 300
#: Rankings the pool check can recompute (see the module docstring).
POOL_RANKINGS = ("friedman", "friedman_exact", "friedman_conover", "wilcoxon", "sign")
RANKS_ONLY = ("friedman", "friedman_exact", "friedman_conover")


@dataclass(frozen=True)
class PoolCheck:
    """What changes when one learner leaves the pool or a dominated copy of one joins it.

    ``a``, ``b`` index every pair of ``learners`` (a < b); ``significant`` is the table's own
    decision of each pair; ``flipped_by[i]`` names the pools that change pair i's decision.
    ``winners`` is the verdict's top group; ``verdict_changes`` lists, per pool that changes
    it, the learners that join or leave that group.

    Examples
    --------
    >>> import rankwise
    >>> cmp = rankwise.compare(rankwise.load_example("garcia2010"), pool_check=True)
    >>> check = cmp.pool_check
    >>> check.ranking, check.procedure, check.winners, len(check.pools)
    ('friedman', 'nemenyi', ('PDFC', 'NNEP', 'IS-CHC+1NN'), 8)
    """

    ranking: str
    procedure: str
    verdict_procedure: str
    alpha: float
    learners: tuple
    a: np.ndarray
    b: np.ndarray
    significant: np.ndarray
    flipped_by: tuple
    pools: tuple
    winners: tuple
    verdict_changes: tuple

    @property
    def stable(self) -> np.ndarray:
        return np.array([not f for f in self.flipped_by], dtype=bool)

    @property
    def n_unstable(self) -> int:
        return int(sum(bool(f) for f in self.flipped_by))

    @property
    def pool_stable(self) -> bool:
        return self.n_unstable == 0 and not self.verdict_changes

    def unstable_pairs(self) -> list:
        """``[(a, b, decision, pools)]`` of the pairs some pool flips, in table order."""
        out = []
        for i, pools in enumerate(self.flipped_by):
            if pools:
                a, b = self.learners[self.a[i]], self.learners[self.b[i]]
                out.append((a, b, "significant" if self.significant[i] else "not detected",
                            pools))
        return out

    def sentence(self, limit: int = 3) -> str:
        """One sentence for the verdict: is it pool-stable, and if not, what depends on whom."""
        fam = f"{procedure_title(self.procedure)} on {ranking_title(self.ranking)}"
        n_pools = len(self.pools)
        if self.pool_stable:
            return (f"Pool check: no decision of the all-pairs family ({fam}) and no member of"
                    f" the verdict's top group changes when any one learner is left out or a"
                    f" dominated copy of any learner is added ({n_pools} pools).")
        parts = []
        if self.verdict_changes:
            shown = "; ".join(f"{pool}: {_change(added, removed)}"
                              for pool, added, removed in self.verdict_changes[:limit])
            more = len(self.verdict_changes) - limit
            parts.append(f"the verdict's top group changes in {len(self.verdict_changes)} of"
                         f" {n_pools} pools ({shown}{f'; and {more} more' if more > 0 else ''})")
        if self.n_unstable:
            shown = "; ".join(f"{a} vs {b} ({', '.join(p[:2])}{', ...' if len(p) > 2 else ''})"
                              for a, b, _, p in self.unstable_pairs()[:limit])
            more = self.n_unstable - limit
            parts.append(f"{self.n_unstable} of {len(self.a)} pair decisions depend on who else"
                         f" is in the pool: {shown}{f'; and {more} more' if more > 0 else ''}")
        advice = ("" if self.ranking in ("wilcoxon", "sign") else
                  " The pairwise Wilcoxon family (--ranking wilcoxon) compares each pair on its"
                  " own two columns, so its p-values do not depend on the pool.")
        return f"Pool check ({fam}): " + "; ".join(parts) + "." + advice

    def to_dict(self) -> dict:
        return jsonable({
            "ranking": self.ranking, "procedure": self.procedure,
            "verdict_procedure": self.verdict_procedure, "alpha": self.alpha,
            "pools": list(self.pools), "pool_stable": self.pool_stable,
            "winners": list(self.winners),
            "verdict_changes": [{"pool": p, "joins": list(a), "leaves": list(r)}
                                for p, a, r in self.verdict_changes],
            "pairs": {"a": self.a, "b": self.b, "significant": self.significant,
                      "stable": self.stable, "flipped_by": [list(f) for f in self.flipped_by]},
            "n_unstable": self.n_unstable,
        })


def _change(added, removed) -> str:
    bits = []
    if added:
        bits.append("joins: " + ", ".join(added))
    if removed:
        bits.append("leaves: " + ", ".join(removed))
    return " / ".join(bits)


def clone_ranks(ranks: np.ndarray, j: int) -> np.ndarray:
    """The ranks of the table with a copy of learner ``j`` appended that loses every tie with
    ``j``: on each data set it takes the place just below ``j``'s tie group."""
    r = ranks
    t = r[:, j:j + 1]
    group = (r == t).sum(axis=1, keepdims=True)
    last = t + (group - 1) / 2.0  # the worst position of j's tie group
    out = np.where(r > last, r + 1.0, r)
    return np.hstack([out, last + 1.0])


def clone_scores(x: np.ndarray, j: int, higher_is_better: bool) -> np.ndarray:
    """Scores of a copy of learner ``j`` that loses every tie with it and beats every learner it
    beats: on each data set halfway between ``j``'s score and the next worse one (one unit
    worse where ``j`` is the worst)."""
    v = x[:, j:j + 1]
    if higher_is_better:
        below = np.where(x < v, x, -np.inf).max(axis=1, keepdims=True)
        out = np.where(np.isfinite(below), (v + below) / 2, v - 1.0)
    else:
        above = np.where(x > v, x, np.inf).min(axis=1, keepdims=True)
        out = np.where(np.isfinite(above), (v + above) / 2, v + 1.0)
    return out


def _decisions(x, ranks, hib, options, ranking, procedure, verdict_procedure, decimals):
    """Pair decisions (k × k booleans) and the verdict's top group of one pool."""
    from types import SimpleNamespace

    from .posthoc import Pairwise

    k = x.shape[1]
    names = tuple(str(i) for i in range(k))
    settings = SimpleNamespace(**{**options, "decimals": decimals})
    engine = Pairwise(x, names, settings, higher_is_better=hib, tests={}, ranks=ranks)
    alpha = options["alpha"]
    sig = np.zeros((k, k), dtype=bool)
    if engine.gate(ranking).passed:
        fam, _, _ = engine.family(ranking, "all_pairs", (procedure,), None)
        hit = fam.rejected(procedure, alpha)
        sig[fam.a, fam.b] = sig[fam.b, fam.a] = hit
    winners = np.ones(k, dtype=bool)
    if engine.gate("friedman").passed:
        best = int(np.argmin(ranks.mean(axis=0)))
        fam, _, _ = engine.family("friedman", "control", (verdict_procedure,), best)
        winners[fam.b[fam.rejected(verdict_procedure, alpha)]] = False
    return sig, winners


def pool_check(x, ranks, learners, hib, options, ranking: str = "friedman",
               procedure: str = "nemenyi", verdict_procedure: str = "holm") -> PoolCheck:
    """Recompute the decisions for every pool one learner away (see the module docstring).

    ``x``: the rounded n × k scores; ``ranks``: their within-data-set ranks (1 = best);
    ``options``: the analysis options (alpha, convention, the Wilcoxon and sign rules, ...).
    """
    if ranking not in POOL_RANKINGS:
        raise RankwiseError(
            f"the pool check recomputes the {', '.join(POOL_RANKINGS)} rankings; {ranking!r}"
            " mixes the data sets' values (aligned ranks, Quade's weights), so leaving a"
            " learner out changes more than the pool")
    if procedure not in ALL_PAIRS_PROCEDURES + OPTIONAL_PROCEDURES:
        raise RankwiseError(f"the pool check's procedure must be an all-pairs procedure"
                            f" ({', '.join(ALL_PAIRS_PROCEDURES)}); got {procedure!r}")
    if procedure == "nemenyi" and ranking not in RANK_BASED:
        procedure = "holm"  # Nemenyi needs the z-tests of mean ranks; Holm is the default then
    n, k = x.shape
    if k < 4:
        raise RankwiseError("the pool check needs at least 4 learners: leaving one out must"
                            " leave 3 for a post-hoc comparison")
    learners = tuple(learners)
    ranks_only = ranking in RANKS_ONLY

    decimals = options["decimals"]

    def run(values, r, places=decimals):
        # Rank-based rankings see only each data set's order: give them the ranks as scores.
        if ranks_only:
            return _decisions(-r, r, True, options, ranking, procedure, verdict_procedure, None)
        return _decisions(values, r, hib, options, ranking, procedure, verdict_procedure, places)

    base_sig, base_win = run(x, ranks)
    ia, ib = np.triu_indices(k, 1)
    flips = [[] for _ in ia]
    pools = []
    verdict_changes = []
    pair_row = {(int(a), int(b)): i for i, (a, b) in enumerate(zip(ia, ib))}

    def record(label, sig, win, index):
        """``index[j]``: the column of original learner j in this pool (-1: not in it)."""
        pools.append(label)
        present = index >= 0
        sub = np.flatnonzero(present)
        pos = index[sub]
        changed = sig[np.ix_(pos, pos)] != base_sig[np.ix_(sub, sub)]
        for u, v in zip(*np.nonzero(np.triu(changed, 1))):
            flips[pair_row[(int(sub[u]), int(sub[v]))]].append(label)
        now = win[pos]
        before = base_win[sub]
        joins = tuple(learners[j] for j, w, b in zip(sub, now, before) if w and not b)
        leaves = tuple(learners[j] for j, w, b in zip(sub, now, before) if b and not w)
        if joins or leaves:
            verdict_changes.append((label, joins, leaves))

    for j in range(k):
        keep = np.delete(np.arange(k), j)
        r = midranks(x[:, keep], descending=hib)
        sig, win = run(x[:, keep], r)
        index = np.full(k, -1)
        index[keep] = np.arange(k - 1)
        record(f"without {learners[j]}", sig, win, index)
    for j in range(k):
        r = clone_ranks(ranks, j)
        # The clone's scores sit halfway between two scores rounded to ``decimals`` places, so
        # one more place keeps them apart (and changes no difference between the others).
        sig, win = run(np.hstack([x, clone_scores(x, j, hib)]), r,
                       None if decimals is None else decimals + 1)
        record(f"clone of {learners[j]}", sig, win, np.arange(k))
    return PoolCheck(ranking, procedure, verdict_procedure, options["alpha"], learners, ia, ib,
                     base_sig[ia, ib], tuple(tuple(f) for f in flips), tuple(pools),
                     tuple(learners[j] for j in np.argsort(ranks.mean(axis=0), kind="stable")
                           if base_win[j]),
                     tuple(verdict_changes))
