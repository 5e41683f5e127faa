# TEMPORARY STUB (replaced by the real module)
from dataclasses import dataclass
import numpy as np
from scipy import stats, special
from .racing import BETS

def paired_difference_interval(b, c, n, confidence=0.95, method="tango"):
    b, c, n = (np.asarray(v, float) for v in (b, c, n))
    d = (b - c) / n
    se = np.sqrt(np.maximum((b + c) / n - d * d, 1e-12) / n)
    z = stats.norm.ppf(0.5 + confidence / 2)
    return d - z * se, d + z * se

def pass_at_k(n, c, k):
    n, c = np.asarray(n), np.asarray(c)
    return 1 - np.exp(special.gammaln(n - c + 1) - special.gammaln(n - c - k + 1) - special.gammaln(n + 1) + special.gammaln(n - k + 1)) * (n - c >= k)

def pass_hat_k(n, c, k):
    n, c = np.asarray(n), np.asarray(c)
    return np.where(c >= k, np.exp(special.gammaln(c + 1) - special.gammaln(c - k + 1) - special.gammaln(n + 1) + special.gammaln(n - k + 1)), 0.0)

@dataclass
class Split:
    within: float
    between: float

def trial_variance_from_sums(n, s, q):
    m = s / n
    within = float(np.sum(q - s * m) / max(np.sum(n - 1), 1))
    return Split(within, float(np.var(m, ddof=1)) if len(m) > 1 else 0.0)

def _mix(x, log):
    lam = BETS[None, :]
    lw = np.log1p(-lam * x[:, None]).sum(axis=0) if len(x) else np.zeros(len(BETS))
    top = lw.max()
    return top + np.log(np.exp(lw - top).mean())

def regression_evalue(d, margin=0.0, log=False):
    x = (np.asarray(d, float) + margin) / (1 + margin)
    v = _mix(x, log)
    return v if log else np.exp(v)

def noninferiority_evalue(d, margin=0.0, log=False):
    x = -(np.asarray(d, float) + margin) / (1 + abs(margin))
    v = _mix(x, log)
    return v if log else np.exp(v)
