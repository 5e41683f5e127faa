"""Contrast estimation based on medians (Doksum 1967; García et al. 2010 §3.3); see
``docs/reference/contrast-estimation.md``."""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from .ranking import DEFAULT_DECIMALS, round_scores


def contrast_estimation(x, decimals: int | None = DEFAULT_DECIMALS) -> dict:
    """Contrast estimation based on medians (Doksum 1967; García et al. 2010 §3.3).

    Z_uv = median_i(x_iu − x_iv), m_u = mean_v Z_uv (Z_uu = 0, Z_vu = −Z_uv), and the estimate
    of M_u − M_v is m_u − m_v. A positive value means u has the higher score (whatever the
    direction of the criterion).
    """
    x = round_scores(check.score_matrix(x), decimals)
    n, k = x.shape
    z = np.zeros((k, k))
    for u in range(k):
        for v in range(u + 1, k):
            z[u, v] = np.median(round_scores(x[:, u] - x[:, v], decimals))
            z[v, u] = -z[u, v]
    m = z.mean(axis=1)
    return {"medians": z, "m": m, "estimates": m[:, None] - m[None, :]}
