"""Along the budget, the trend of each learner's rank (Page's test) and where the decisions
settle: the checkpoints' own decisions (:func:`decisions_settle`) and the test of each rank
against its rank at the last checkpoint (:func:`rank_settle`), apart from compare_curves so
that each module reads at once."""
from __future__ import annotations

import numpy as np
from scipy import stats

from ..defaults import DEFAULT_DECIMALS
from ..stats.adjust import adjust


def trend(curves, means: np.ndarray, idx: np.ndarray, budgets) -> dict:
    from ..stats.family import page_trend

    if len(idx) < 3 or len(curves.problems) < 2:
        return {}
    means = means[..., idx]  # (l, p, c), higher better
    names = [f"{b:g}" for b in budgets]
    n_p, m = means.shape[1], means.shape[2]
    if m > 8 or (n_p > 12 and m > 3) or n_p > 20:
        return _trend_normal(curves.learners, means, names)
    out = {}
    for l, learner in enumerate(curves.learners):
        x = means[l]
        if np.isnan(x).any():
            continue
        out[learner] = page_trend(x, names, learners=names, higher_is_better=True)
    return out


def _trend_normal(learners, means: np.ndarray, names: list) -> dict:
    """Page's test of every learner at once where scipy's ``page_trend_test`` takes its normal
    approximation ("auto": more than 8 checkpoints, or more than 20 problems, or more than 12
    and more than 3): the same statistic, p-value and result as :func:`page_trend` gives."""
    from ..stats.family import page_normal_pvalue
    from ..stats.ranking import round_scores
    from ..stats.results import TestResult

    x = round_scores(means, DEFAULT_DECIMALS)
    ranks = stats.rankdata(x, axis=-1)  # 1 = worst along the checkpoints, mid-ranks
    n, m = x.shape[1], x.shape[2]
    sums = ranks.sum(axis=1)  # (l, m)
    big_l, pvalue = page_normal_pvalue(ranks)  # the variance given each learner's ties
    out = {}
    for i, learner in enumerate(learners):
        if np.isnan(x[i]).any():
            continue
        srt = np.sort(ranks[i], axis=1)
        tied = bool((srt[:, 1:] == srt[:, :-1]).any())
        details = {"n": n, "k": m, "order": list(names), "rank_sums": sums[i].tolist(),
                   "pvalue_method": "asymptotic given the ties" if tied else "asymptotic"}
        out[learner] = TestResult("page", float(big_l[i]), float(pvalue[i]), "asymptotic",
                                  "default", None, details,
                                  ("one-sided: the alternative is that performance increases"
                                   " along the order given",))
    return out


def _signed_rank_pvalue(d) -> float:
    """scipy's ``wilcoxon(d, zero_method="zsplit")`` (method ``auto``), with its sign-flip
    permutation branch (at most 13 differences with ties or zeros: every 2^n flip, through
    scipy's generic permutation test, seconds per call) computed instead as the exact
    conditional distribution of the signed-rank sum by convolution, the same numbers
    (the tests compare the two)."""
    from ..stats.ranking import midranks
    from ..stats.two_learners import wilcoxon_exact_pvalue

    d = np.asarray(d, dtype=float)
    ranks = midranks(np.abs(d)[None, :])[0]
    ties = len(np.unique(np.abs(d))) < len(d)
    if len(d) <= 13 and (ties or (d == 0).any()):
        nonzero = d != 0
        return wilcoxon_exact_pvalue(ranks[nonzero], float(ranks[d > 0].sum()))
    return float(stats.wilcoxon(d, zero_method="zsplit").pvalue)


def rank_settle(ranks_at: np.ndarray, budgets, alpha: float) -> tuple:
    """Wilcoxon signed-rank of each learner's within-problem ranks at each checkpoint against
    the last, Holm over every (checkpoint, learner); the first checkpoint from which none
    differs."""
    c, n, k = ranks_at.shape
    p = np.ones((c, k))
    for j in range(c - 1):
        d = ranks_at[j] - ranks_at[-1]
        moved = np.any(d != 0, axis=0)
        if n > 50 and moved.any():
            # scipy's "auto" is the normal approximation above 50 for every column: one call
            p[j, moved] = stats.wilcoxon(d[:, moved], zero_method="zsplit", axis=0).pvalue
            continue
        for l in np.flatnonzero(moved):
            p[j, l] = _signed_rank_pvalue(d[:, l])
    adj = adjust(p[:-1].ravel(), "holm").reshape(c - 1, k) if c > 1 else p[:0]
    settle = None
    for j in range(c - 1, -1, -1):
        if j < c - 1 and (adj[j] < alpha).any():
            break
        settle = float(budgets[j])
    return settle, adj


def decisions_settle(checkpoints) -> float | None:
    """The first checkpoint from which every checkpoint decides as the last one: the same
    learners not significantly worse than the best and the same pairs different (what each
    checkpoint's line prints; the decision changes are read from the same pairs)."""
    def decided(cp) -> tuple:
        d = cp.decision
        return frozenset(d.winners), frozenset(d.pairs)

    settle = None
    if checkpoints:
        last = decided(checkpoints[-1])
        for cp in reversed(checkpoints):
            if decided(cp) != last:
                break
            settle = float(cp.budget)
    return settle
