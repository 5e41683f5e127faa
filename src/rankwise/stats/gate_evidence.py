"""E-values of a regression gate, valid whenever the gate is looked at.

A gate that runs a fixed-n test after every batch of items and stops at the first rejection
rejects a true null far more often than its level (:func:`null_simulation` measures it). An
e-value E ≥ 0 with expectation at most 1 under the null can instead be multiplied over
independent batches, and by Ville's inequality the running product ever reaches 1/α with
probability at most α, at whatever look the gate stops (Ramdas, Grünwald, Vovk & Shafer 2023).

The e-values here bet on paired differences d ∈ [−1, 1] (candidate − baseline; a 0/1 score
gives −1 for a regression, +1 for an improvement, 0 for a tie): a bettor who stakes the
fraction λ of her wealth on "the candidate is worse" multiplies it by 1 − λ(dᵢ + δ) per item,
a factor of mean at most 1 while E[d] ≥ −δ. The e-value is the average of the wealth over the
bets λ of :data:`rankwise.stats.racing.BETS` scaled into the range that keeps every factor
positive (Waudby-Smith & Ramdas 2024, betting confidence sequences; an average of test
martingales is one, so the e-value is also valid at every item, not only at the batch's end).
"""

from __future__ import annotations

import numpy as np

from .._validate import finite, level, real_array, seed as check_seed, whole
from ..defaults import DEFAULT_SEED
from ..errors import RankwiseError
from .gate_paired import one_sided_mcnemar
from .racing import BETS, log_evalue


def _differences(d) -> np.ndarray:
    x = np.atleast_1d(real_array(d))
    bad = ~(np.isfinite(x) & (np.abs(x) <= 1))
    if bad.any():
        raise RankwiseError(f"d must be differences scaled into [-1, 1] (candidate -"
                            f" baseline); got {x.flat[np.flatnonzero(bad)[0]]!r}"
                            f" ({int(bad.sum())} such)")
    return x


def _margin(margin) -> float:
    m = finite("margin", margin, 0)
    if m >= 1:
        raise RankwiseError(f"margin must lie in [0, 1) on the scale of d; got {margin!r}")
    return m


def _log_mean_wealth(logs: np.ndarray) -> np.ndarray:
    """log of the mean over the last axis (the bets) of exp(logs), without overflow."""
    top = logs.max(axis=-1)
    return top + np.log(np.exp(logs - top[..., None]).mean(axis=-1))


#: The values of a difference of 0/1 scores: a regression, a tie, an improvement.
TERNARY = np.array([-1.0, 0.0, 1.0])


def _log_counts(counts: np.ndarray, x: np.ndarray, bets: np.ndarray) -> np.ndarray:
    """log of the mean over the bets λ of ∏ (1 + λx)^count, from ``counts`` (..., V) of the
    values ``x`` (V,): Σ_v n_v log(1 + λx_v), the form of
    :func:`rankwise.stats.racing.log_evalue`."""
    return _log_mean_wealth(counts @ np.log1p(np.multiply.outer(x, bets)))


def _log_evalue(d: np.ndarray, margin: float, sign: float) -> np.ndarray:
    """log of the mean over the bets λ of ∏ᵢ (1 + sign · λ(dᵢ + δ)) along the last axis.

    Differences of 0/1 scores take three values only, and their counts give the wealth at a
    fraction of the cost of a logarithm per item and bet."""
    bets = BETS / (1 - sign * margin)
    if np.all((d == 0) | (np.abs(d) == 1)):
        counts = np.stack([(d < 0).sum(axis=-1), (d == 0).sum(axis=-1),
                           (d > 0).sum(axis=-1)], axis=-1).astype(float)
        return _log_counts(counts, sign * (TERNARY + margin), bets)
    return _log_mean_wealth(np.stack([np.log1p(sign * lam * (d + margin)).sum(axis=-1)
                                      for lam in bets], axis=-1))


def _out(log_e: np.ndarray, log: bool):
    if not log:
        with np.errstate(over="ignore"):   # beyond 1e308 the evidence is inf
            log_e = np.exp(log_e)
    return log_e[()] if log_e.ndim == 0 else log_e


def regression_evalue(d, margin: float = 0.0, *, log: bool = False):
    """E-value against "the candidate is not worse than the margin", H0: E[d] ≥ −margin.

    Parameters
    ----------
    d : array_like, shape (..., n)
        Paired differences candidate − baseline scaled into [−1, 1] (for 0/1 scores: −1 a
        regression, +1 an improvement, 0 a tie), the items along the last axis.
    margin : float in [0, 1), default 0
        How much worse (on the scale of d) the candidate may be.
    log : bool, default False
        Return log E (never overflows) instead of E (inf beyond about 1e308).

    Returns
    -------
    E : float or array over the leading axes; 1 for no items. Large E is evidence of a
    regression beyond the margin: reject H0 at level α where E ≥ 1/α.

    Notes
    -----
    E = (1/|Λ|) Σ_{λ∈Λ} ∏ᵢ (1 − λ(dᵢ + δ)), Λ = BETS/(1 + δ) (19 bets from 0.05 to 0.95
    before scaling, so every factor is at least 0.05). Under H0 each factor has mean
    1 − λ(E[d] + δ) ≤ 1, so E[E] ≤ 1. E grows with the regressions and falls as the margin
    widens. For 0/1 items and δ = 0 it is exp(``racing.log_evalue(b, c)``) with b regressions
    and c improvements: the racing pairs' e-value.

    References
    ----------
    Waudby-Smith & Ramdas (2024), JRSS B 86:1–27; Ramdas et al. (2023), Stat. Sci.
    38:576–601; Shafer (2021), JRSS A 184:407–431.

    Examples
    --------
    120 items: 14 regressions, 3 improvements, the rest ties:

    >>> import numpy as np
    >>> from rankwise.stats.gate import regression_evalue
    >>> d = np.r_[-np.ones(14), np.ones(3), np.zeros(103)]
    >>> round(float(regression_evalue(d)), 1), round(float(regression_evalue(d, 0.05)), 2)
    (22.4, 1.34)
    """
    return _out(_log_evalue(_differences(d), _margin(margin), -1.0), log)


def noninferiority_evalue(d, margin: float, *, log: bool = False):
    """E-value against "the candidate is worse than the margin", H0: E[d] ≤ −margin.

    The mirror of :func:`regression_evalue`: E = mean over λ ∈ BETS/(1 − δ) of
    ∏ᵢ (1 + λ(dᵢ + δ)); large E is evidence that the candidate is within the margin
    (non-inferior; superior with margin 0). Every factor is at least 0.05; E grows with d and
    with the margin. Same parameters and references as :func:`regression_evalue`.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.stats.gate import noninferiority_evalue
    >>> d = np.r_[-np.ones(4), np.ones(5), np.zeros(111)]
    >>> round(float(noninferiority_evalue(d, 0.05)), 1)
    5.5
    """
    return _out(_log_evalue(_differences(d), _margin(margin), 1.0), log)


def eprocess(evalues, *, log: bool = False) -> np.ndarray:
    """The running product of the e-values of successive looks, as logs (a log-sum).

    ``evalues``: shape (..., looks), each the e-value of one look's new, independent items
    (``log=True``: their logs, as :func:`regression_evalue` gives them with ``log=True``).
    Returns log ∏_{j≤t} E_j for every look t, the same shape. Under H0 the product is a test
    supermartingale: :func:`alarm` stopping at its first crossing of 1/α errs with
    probability at most α. (:func:`regression_evalue` of all the items so far is another
    e-process: use either, not the better of the two.)

    Examples
    --------
    >>> from rankwise.stats.gate import eprocess, alarm
    >>> log_e = eprocess([2.0, 0.5, 8.0, 3.0])
    >>> [round(float(v), 3) for v in log_e], alarm(log_e, 0.05)
    ([0.693, 0.0, 2.079, 3.178], 4)
    """
    v = np.atleast_1d(real_array(evalues))
    if np.isnan(v).any() or (not log and (v < 0).any()):
        raise RankwiseError("e-values must be numbers >= 0 (log=True: their logs), none NaN")
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.cumsum(v if log else np.log(v), axis=-1)


def alarm(log_e, alpha: float):
    """The first look (1, 2, …) at which the log e-process reaches log(1/α); 0 where it never
    does. ``log_e``: shape (..., looks); returns an int (array over the leading axes)."""
    threshold = -np.log(level("alpha", alpha))
    hit = np.atleast_1d(real_array(log_e)) >= threshold
    if hit.shape[-1] == 0:                     # no look yet
        return np.zeros(hit.shape[:-1], dtype=int) if hit.ndim > 1 else 0
    first = np.where(hit.any(axis=-1), hit.argmax(axis=-1) + 1, 0)
    return int(first) if first.ndim == 0 else first


def null_simulation(reps: int = 2000, looks: int = 20, n: int = 50, alpha: float = 0.05,
                    seed: int = DEFAULT_SEED, effect: float = 0.0, *,
                    discordant: float = 0.2) -> dict:
    """How often a gate looked at after every batch raises a false alarm (or, with
    ``effect`` < 0, how often it catches a true regression), by simulation.

    Each of ``reps`` replicates takes ``looks`` batches of ``n`` paired 0/1 items; an item is a
    regression (d = −1) with probability (discordant − effect)/2, an improvement (d = +1) with
    (discordant + effect)/2, a tie otherwise, so E[d] = ``effect``. Returns, per gate, the share
    of replicates that raise the alarm by the last look (``rate``) and its Monte Carlo
    standard error (``se``):

    - ``eprocess``: the product over looks of :func:`regression_evalue` of each batch
      (from the batch's counts, as :func:`regression_evalue` takes 0/1 differences);
    - ``pooled_evalue``: :func:`regression_evalue` of all the items so far, at every look;
    - ``repeated_mcnemar``: the exact one-sided McNemar test of all the items so far at level
      α at every look, stopping at its first rejection (the naive gate).

    With effect = 0 (the null) the first two stay below α; the repeated test does not.

    Examples
    --------
    >>> from rankwise.stats.gate import null_simulation
    >>> r = null_simulation(reps=400, looks=10, n=50, seed=1)
    >>> r["eprocess"]["rate"] <= 0.05 < r["repeated_mcnemar"]["rate"]
    True
    """
    reps, looks, n = whole("reps", reps), whole("looks", looks), whole("n", n)
    a = level("alpha", alpha)
    discordant = finite("discordant", discordant, 0, strict=True)
    effect = finite("effect", effect)
    if discordant > 1 or abs(effect) > discordant:
        raise RankwiseError(f"need abs(effect) <= discordant <= 1; got effect = {effect:g},"
                            f" discordant = {discordant:g}")
    rng = np.random.default_rng(check_seed(seed))
    # each look's (regressions, ties, improvements): the counts are all the e-values need
    batch = rng.multinomial(n, [(discordant - effect) / 2, 1 - discordant,
                                (discordant + effect) / 2], size=(reps, looks)).astype(float)
    b, c = np.cumsum(batch[..., 0], axis=1), np.cumsum(batch[..., 2], axis=1)
    hits = {"eprocess": alarm(eprocess(_log_counts(batch, -TERNARY, BETS), log=True), a) > 0,
            "pooled_evalue": alarm(log_evalue(b, c), a) > 0,
            "repeated_mcnemar": (one_sided_mcnemar(b, c) <= a).any(axis=1)}
    out = {}
    for name, hit in hits.items():
        rate = float(hit.mean())
        out[name] = {"rate": rate, "se": float(np.sqrt(max(rate * (1 - rate), 1e-12) / reps))}
    return out
