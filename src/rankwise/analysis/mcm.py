"""The multi-comparison matrix (Ismail-Fawaz et al. 2023): every pair on its own two columns.

For every pair (row r, column c) of learners: the mean difference r − c of their scores, the
data sets r wins, ties and loses against c, and the two-sided Wilcoxon signed-ranks p-value
with Pratt's zero rule, optionally Holm-adjusted over the k(k−1)/2 pairs. The learners are
ordered by mean score, best first. Nothing in a pair depends on the other learners (only the
Holm adjustment does, through the number of pairs), which is the point of the matrix.

Two conventions, as everywhere in rankwise:

- ``default``: the scores (and their differences) are rounded to ``decimals`` places before they
  are compared, so printed ties are ties; wins are read in the table's direction; the p-value is
  exact up to 50 data sets, ties and zeros included (the permutation distribution over the
  mid-ranks), and normal above; Holm's procedure is the step-down procedure (adjusted p-values
  ≤ alpha).
- ``paper``: the numbers of the ``multi-comp-matrix`` package's ``get_analysis``: raw floats
  compared as they are, the p-value of the scipy the package pins (1.11: "exact" with at most 50
  data sets and no zero difference, even with tied |d|, where it refers the truncated mid-rank
  sum to the tie-free distribution; else the tie-corrected normal approximation), significance
  as p < alpha, and its "Holm" flags, which compare the i-th smallest p with alpha/(m − i + 1)
  without stopping at the first retained hypothesis (so they can flag a pair that Holm's
  procedure retains).
"""

from __future__ import annotations

from .._validate import score_input
from dataclasses import dataclass

import numpy as np

from ..defaults import DEFAULT_DECIMALS
from ..stats._docs import shared_docs
from ..stats.adjust import adjust
from ..stats.pairwise import pairwise_statistics
from ..stats.ranking import round_scores
from ..stats.results import jsonable
from ..stats.summary import win_tie_loss_matrix


@dataclass(frozen=True)
class MultiComparisonMatrix:
    """Pairs (``a``, ``b`` index ``learners``, a before b in ``order``) as columns."""

    learners: tuple
    order: tuple  # learner indices, best mean score first
    means: np.ndarray
    a: np.ndarray
    b: np.ndarray
    mean_difference: np.ndarray  # mean(a) − mean(b)
    wins: np.ndarray  # data sets a is better on
    ties: np.ndarray
    losses: np.ndarray
    pvalue: np.ndarray
    apv_holm: np.ndarray | None
    significant: np.ndarray
    alpha: float
    convention: str
    holm: bool
    method: np.ndarray  # "exact" or "normal", per pair

    def to_dict(self) -> dict:
        return jsonable({
            "order": [self.learners[j] for j in self.order],
            "means": dict(zip(self.learners, self.means)),
            "alpha": self.alpha, "convention": self.convention, "holm": self.holm,
            "test": "wilcoxon", "zero_method": "pratt",
            "pairs": {"a": self.a, "b": self.b, "mean_difference": self.mean_difference,
                      "wins": self.wins, "ties": self.ties, "losses": self.losses,
                      "pvalue": self.pvalue, "apv_holm": self.apv_holm,
                      "significant": self.significant, "method": list(self.method)},
        })

    def matrix(self, field: str) -> np.ndarray:
        """A k × k matrix of ``field`` in ``order`` (row against column; NaN on the diagonal)."""
        k = len(self.learners)
        pos = np.empty(k, dtype=np.int64)
        pos[list(self.order)] = np.arange(k)
        out = np.full((k, k), np.nan)
        values = np.asarray(getattr(self, field), dtype=float)
        sym = {"mean_difference": -1.0, "wins": None, "losses": None}.get(field, 1.0)
        out[pos[self.a], pos[self.b]] = values
        if field == "wins":
            out[pos[self.b], pos[self.a]] = self.losses
        elif field == "losses":
            out[pos[self.b], pos[self.a]] = self.wins
        else:
            out[pos[self.b], pos[self.a]] = sym * values
        return out


def _scipy_exact(d: np.ndarray) -> np.ndarray:
    """Per pair (column of ``d``): whether the package's Wilcoxon p-value is "exact". The
    package pins scipy 1.11, whose rule is: at most 50 data sets and no zero difference, tied
    |d| or not (scipy 1.13 and later take the normal approximation on ties as well)."""
    n = d.shape[0]
    zeros = (d == 0).any(axis=0)
    return (n <= 50) & ~zeros


def _scipy111_exact_pvalues(d: np.ndarray) -> np.ndarray:
    """Two-sided p-values of scipy 1.11's "exact" Wilcoxon test for the columns of ``d`` (no
    zeros): R⁺ is the sum of the mid-ranks of |d| over the positive differences, truncated to
    an integer (``int(r_plus)``), and referred to the distribution of R⁺ without ties; 1 at
    its centre, else twice the smaller tail, at most 1. With tied |d| this is not an exact
    test (the tie-free distribution, a truncated statistic); it is what the package prints."""
    from scipy.stats import rankdata

    n = d.shape[0]
    counts = np.zeros(n * (n + 1) // 2 + 1)
    counts[0] = 1.0
    for r in range(1, n + 1):  # subsets of {1..n} by their sum
        counts[r:] = counts[r:] + counts[:-r].copy()
    pmf = counts / counts.sum()
    below = np.cumsum(pmf)  # P(R⁺ ≤ r)
    above = np.cumsum(pmf[::-1])[::-1]  # P(R⁺ ≥ r)
    ranks = rankdata(np.abs(d), axis=0)
    r_plus = np.floor((ranks * (d > 0)).sum(axis=0) + 1e-9).astype(np.int64)
    p = np.minimum(2.0 * np.minimum(below[r_plus], above[r_plus]), 1.0)
    return np.where(r_plus == (len(pmf) - 1) // 2, 1.0, p)


def package_holm_flags(p, alpha: float) -> np.ndarray:
    """The ``multi-comp-matrix`` package's "Holm" flags: the i-th smallest of m p-values is
    flagged when it is below alpha/(m − i + 1), each on its own. Holm's procedure stops at the
    first p above its threshold; these flags do not, so a larger p can be flagged while a
    smaller one is not (kept under ``convention="paper"`` to reproduce the package)."""
    p = np.asarray(p, dtype=float)
    ranks = np.empty(len(p), dtype=np.int64)
    ranks[np.argsort(p, kind="stable")] = np.arange(len(p))
    return p < alpha / (len(p) - ranks)


@score_input
@shared_docs
def multi_comparison_matrix(x, learners, *, higher_is_better: bool | None = None,
                            decimals: int | None = DEFAULT_DECIMALS, convention: str = "default",
                            holm: bool = False, alpha: float = 0.05) -> MultiComparisonMatrix:
    """The multi-comparison matrix of an n × k score table (Ismail-Fawaz et al. 2023).

    For every pair, a being the better-placed learner by mean score: the mean difference a − b,
    a's wins, ties and losses over the data sets, and the two-sided Wilcoxon signed-ranks p-value
    with Pratt's zero rule, optionally Holm-adjusted. See the module docstring for the two
    conventions.

    Parameters
    ----------
    {{x_learners}}
    higher_is_better : bool, default True
        Direction of the scores (wins and the order).
    decimals : int or None, default 12
        Rounding of scores and differences before they are compared (default convention).
    convention : {"default", "paper"}
        ``"paper"``: the ``multi-comp-matrix`` package's numbers.
    holm : bool, default False
        Also Holm-adjust the p-values over the k(k−1)/2 pairs.
    alpha : float, default 0.05
        Level of the ``significant`` flags.

    Returns
    -------
    MultiComparisonMatrix
        Columns over the pairs (``a``, ``b``, ``mean_difference``, ``wins``, ``ties``,
        ``losses``, ``pvalue``, ``apv_holm``, ``significant``), the ``order`` and the ``means``;
        ``matrix(field)`` gives one field as a k × k matrix.

    References
    ----------
    Ismail-Fawaz, A. et al. (2023). An approach to multiple comparison benchmark evaluations
    that is stable under manipulation of the comparate set. arXiv:2305.11921.

    Examples
    --------
    García & Herrera (2008): C4.5 beats Kernel on 27 of 30 data sets; the p-value is the one-pair
    Wilcoxon test's:

    >>> from rankwise import load_example, multi_comparison_matrix, wilcoxon
    >>> t = load_example("garcia2008")
    >>> m = multi_comparison_matrix(t.values, t.learners)
    >>> i = next(i for i in range(len(m.a)) if (m.a[i], m.b[i]) == (0, 3))
    >>> int(m.wins[i]), int(m.ties[i]), int(m.losses[i])
    (27, 0, 3)
    >>> pratt = wilcoxon(t.values[:, 0], t.values[:, 3], zero_method="pratt")
    >>> bool(m.pvalue[i] == pratt.pvalue)
    True
    """
    x = np.asarray(x, dtype=float)
    n, k = x.shape
    paper = convention == "paper"
    values = x if paper else round_scores(x, decimals)
    means = values.mean(axis=0)
    order = tuple(int(j) for j in np.argsort(-means if higher_is_better else means,
                                             kind="stable"))
    pos = np.empty(k, dtype=np.int64)
    pos[list(order)] = np.arange(k)
    ia, ib = np.triu_indices(k, 1)
    # a is the better-placed learner of each pair, as the matrix reads (row above column)
    swap = pos[ia] > pos[ib]
    a = np.where(swap, ib, ia)
    b = np.where(swap, ia, ib)
    places = None if paper else decimals
    wtl = win_tie_loss_matrix(values, higher_is_better, places)[a, b]
    wins, ties, losses = wtl[:, 0], wtl[:, 1], wtl[:, 2]
    mean_difference = means[a] - means[b]
    common = dict(higher_is_better=higher_is_better, convention="default", decimals=places,
                  zero_method="pratt")
    if paper:
        # Raw differences, as scipy sees them, oriented as the package passes them: the truncated
        # statistic makes x − y and y − x differ. The package computes both orientations, keys
        # its pair (a, b) by the first, and its "Holm" step then copies the value of the pair
        # in input order over the other.
        first, second = (np.minimum(a, b), np.maximum(a, b)) if holm else (a, b)
        diff = values[:, first] - values[:, second]
        exact = _scipy_exact(diff)
        p_normal = pairwise_statistics(values, "wilcoxon", wilcoxon_method="normal",
                                       **common).pvalues
        pvalue = p_normal[a, b].copy()
        if exact.any():
            pvalue[exact] = _scipy111_exact_pvalues(diff[:, exact])
        method = np.where(exact, "exact", "normal")
    else:
        pvalue = pairwise_statistics(values, "wilcoxon", wilcoxon_method="auto",
                                     **common).pvalues[a, b]
        method = np.full(len(a), "exact" if n <= 50 else "normal")
    apv = adjust(pvalue, "holm") if holm and len(pvalue) else None
    if paper:
        significant = package_holm_flags(pvalue, alpha) if holm else pvalue < alpha
    else:
        significant = (apv if holm else pvalue) <= alpha
    return MultiComparisonMatrix(tuple(learners), order, means, a, b, mean_difference, wins,
                                 ties, losses, pvalue, apv, significant, alpha, convention,
                                 bool(holm), method)
