"""Contrast estimation based on medians (Doksum 1967; García et al. 2010 §3.3); see
``docs/reference/contrast-estimation.md``."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .. import _validate as check
from .ranking import DEFAULT_DECIMALS, round_scores

PARALLEL_MIN_CELLS = 1_000_000


def contrast_estimation(x, decimals: int | None = DEFAULT_DECIMALS) -> dict:
    """Contrast estimation based on medians (Doksum 1967; García et al. 2010 §3.3).

    Z_uv = median_i(x_iu − x_iv), m_u = mean_v Z_uv (Z_uu = 0, Z_vu = −Z_uv), and the estimate
    of M_u − M_v is m_u − m_v. A positive value means u has the higher score (whatever the
    direction of the criterion).
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

    def row(u):
        part = np.partition(xt[[u]] - xt[u + 1:], (lo, hi), axis=1)
        z[u, u + 1:] = (round_scores(part[:, lo], decimals)
                        + round_scores(part[:, hi], decimals)) / 2

    if n * k < PARALLEL_MIN_CELLS:
        for u in range(k - 1):
            row(u)
    else:  # numpy's selection releases the GIL; each thread fills its own rows
        with ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(row, range(k - 1)))
    z -= np.triu(z, 1).T
    m = z.mean(axis=1)
    return {"medians": z, "m": m, "estimates": m[:, None] - m[None, :]}
