"""Contrast estimation based on medians (Doksum 1967; García et al. 2010 §3.3); see
``docs/reference/contrast-estimation.md``."""

from __future__ import annotations

from .._validate import score_input
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from .. import _validate as check
from .ranking import DEFAULT_DECIMALS, round_scores
from .results import AttributesOnly
from ._docs import shared_docs

PARALLEL_MIN_CELLS = 1_000_000
#: Differences held at once by one worker (16 MB of float64).
BLOCK_CELLS = 2_000_000


@dataclass(frozen=True, eq=False)
class ContrastEstimation(AttributesOnly):
    """Contrast estimation: ``medians`` (the k × k matrix Z), ``m`` (one value per learner) and
    ``estimates`` (the k × k matrix of m_u − m_v).

    Examples
    --------
    >>> from rankwise import contrast_estimation, load_example
    >>> res = contrast_estimation(load_example("garcia2010"))
    >>> res.estimates.shape
    (4, 4)
    >>> round(float(res.estimates[0, 1]), 4), round(float(res.estimates[1, 0]), 4)
    (0.0225, -0.0225)
    """

    medians: np.ndarray
    m: np.ndarray
    estimates: np.ndarray

    def to_dict(self) -> dict:
        return {"medians": self.medians, "m": self.m, "estimates": self.estimates}


@score_input
@shared_docs
def contrast_estimation(x, decimals: int | None = DEFAULT_DECIMALS) -> ContrastEstimation:
    """Contrast estimation based on medians (Doksum 1967; García et al. 2010 §3.3).

    Z_uv = median_i(x_iu − x_iv), m_u = mean_v Z_uv (Z_uu = 0, Z_vu = −Z_uv), and the estimate of
    M_u − M_v is m_u − m_v. A positive value means u has the higher score (whatever the direction
    of the criterion).

    Parameters
    ----------
    {{x}}
    {{decimals}}

    Returns
    -------
    ContrastEstimation
        ``medians`` (the k × k matrix Z), ``m`` and ``estimates`` (the k × k matrix of
        m_u − m_v); rankwise 0.5 returned them as a dict, whose access keeps working for one
        release with a DeprecationWarning.

    References
    ----------
    Doksum, K. (1967). Ann. Math. Stat. 38, 878–883.

    Examples
    --------
    García et al. (2010), Table 6 prints 0.02257 for PDFC − NNEP from unrounded accuracies; the
    bundled 3-decimal table gives 0.0225 (ERRATA G19, G20):

    >>> from rankwise import contrast_estimation, load_example
    >>> est = contrast_estimation(load_example("garcia2010").values).estimates
    >>> round(float(est[0, 1]), 5), round(float(est[0, 3]), 5)
    (0.0225, 0.05925)
    """
    x = round_scores(check.score_matrix(x), decimals)
    n, k = x.shape
    z = np.zeros((k, k))
    # One learner against all later ones at a time (k − 1 vectorised selections instead of
    # k(k − 1)/2 medians), learners as rows so that each difference vector is contiguous.
    # Rounding is monotone, so it commutes with order statistics: the two middle order
    # statistics of the raw differences are selected and only they are rounded, which gives
    # exactly the median of the rounded differences.
    xt = np.ascontiguousarray(x.T)
    lo, hi = (n - 1) // 2, n // 2
    # Each worker owns a bounded buffer of difference rows that it reuses (fresh 40 MB arrays
    # cost more in page faults than the subtraction itself), and selects only the lower middle
    # order statistic in place; the upper one is the minimum of what lies above it.
    rows_per_block = max(1, BLOCK_CELLS // max(n, 1))

    def rows(us):
        buf = np.empty((min(rows_per_block, k - 1), n))
        for u in us:
            for start in range(u + 1, k, rows_per_block):
                stop = min(start + rows_per_block, k)
                d = buf[:stop - start]
                np.subtract(xt[u], xt[start:stop], out=d)
                d.partition(lo, axis=1)
                low = d[:, lo]
                high = d[:, hi:].min(axis=1) if hi != lo else low
                z[u, start:stop] = (round_scores(low, decimals)
                                    + round_scores(high, decimals)) / 2

    if n * k < PARALLEL_MIN_CELLS:
        rows(range(k - 1))
    else:  # numpy's selection releases the GIL; the workers fill their own rows of z
        # Learner u has k − u − 1 later learners: dealing the rows out alternately from both
        # ends gives the two workers about the same number of pairs.
        order = [u for pair in zip(range(k - 1), range(k - 2, -1, -1)) for u in pair]
        order = list(dict.fromkeys(order))
        with ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(rows, (order[0::2], order[1::2])))
    z -= np.triu(z, 1).T
    m = z.mean(axis=1)
    return ContrastEstimation(z, m, m[:, None] - m[None, :])
