"""Numbers a benchmark's builder can publish before anyone submits: its signal-to-noise ratio
and its decision accuracy.

After Heineman et al. (2025), "Signal and Noise: A Framework for Reducing Uncertainty in
Language Model Evaluation" (arXiv 2508.13144; code at allenai/signal-and-noise). There, for a
benchmark and a set of models with scores m_i,

- **signal** is the relative dispersion of the models' scores, max_{i,j} |m_i − m_j| / m̄;
- **noise** is the relative standard deviation of one model's score over its last
  checkpoints, σ / m̄;
- **SNR** is signal / noise;
- **decision accuracy** is the share of model pairs that a small scale (or budget) orders as
  the large scale does.

Here a "model" is a learner and the checkpoints are repeats (seeds, repeats of a
cross-validation, last checkpoints):

- :func:`signal_to_noise`: signal = range of the learners' mean scores, noise = the pooled
  within-learner standard deviation over repeats, SNR = signal / noise;
- :func:`decision_accuracy`: the share of pairs two score vectors order alike, in
  O(k log² k) time and O(k) memory (10,000 learners take milliseconds);
- :func:`suite_decision_accuracy`: how well a random subset of n' data sets orders the
  learners' mean ranks as all n data sets do;
- :func:`budget_decision_accuracy`: how well each budget (checkpoint, training size) orders the
  learners as the largest budget does, and the smallest budget that reaches a target.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validate import decimals as check_decimals, finite, real_scores, seed as check_seed
from .._validate import whole
from ..defaults import DEFAULT_DECIMALS
from ..errors import RankwiseError
from ..stats.results import jsonable

#: Pairs compared at once when the draws of a suite are scored in one array: a few tens of MB.
PAIR_CELLS = 1 << 22
#: The reference: quoted in every docstring that computes one of its numbers.
REFERENCE = ("Heineman et al. (2025), Signal and Noise: A Framework for Reducing Uncertainty"
             " in Language Model Evaluation, arXiv 2508.13144")


def _num(x) -> str:
    """A number for a sentence: 3 significant digits, whole numbers up to a million as such."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if 1000 <= abs(x) < 1e6:
        return f"{x:,.0f}"
    return f"{x:.3g}"


def _flag(name: str, value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise RankwiseError(f"{name} must be True or False; got {value!r}")
    return bool(value)


# -- signal and noise -----------------------------------------------------------------------

@dataclass(frozen=True)
class SignalNoise:
    """The signal, noise and SNR of a benchmark from its learners' scores over repeats.

    ``signal``, ``noise`` and ``snr`` are in the form ``relative`` names: absolute (the range
    and the pooled sd, in the score's units) or relative (both divided by the grand mean).
    The SNR is the same in both forms: the mean cancels.
    """

    learners: tuple
    means: tuple
    sds: tuple
    n_repeats: int
    relative: bool
    signal: float
    noise: float
    snr: float
    spread: float
    pooled_sd: float
    grand_mean: float
    relative_signal: float | None
    relative_noise: float | None
    se_mean: float
    se_means: tuple
    best: str
    higher_is_better: bool

    def to_dict(self) -> dict:
        return jsonable({
            "learners": list(self.learners), "means": list(self.means), "sds": list(self.sds),
            "n_repeats": self.n_repeats, "relative": self.relative, "signal": self.signal,
            "noise": self.noise, "snr": self.snr, "spread": self.spread,
            "pooled_sd": self.pooled_sd, "grand_mean": self.grand_mean,
            "relative_signal": self.relative_signal, "relative_noise": self.relative_noise,
            "se_mean": self.se_mean, "se_means": list(self.se_means), "best": self.best,
            "higher_is_better": self.higher_is_better})

    def sentence(self) -> str:
        over = ", as a share of the grand mean" if self.relative else ""
        signal = f"Signal {_num(self.signal)} (range of the learners' means{over})"
        noise = f"noise {_num(self.noise)} (pooled sd over {self.n_repeats} repeats{over})"
        if math.isnan(self.snr):
            return f"{signal}, {noise}: every score is the same, so the SNR is undefined."
        if math.isinf(self.snr):
            return (f"{signal}, {noise}: SNR inf (no learner's score varies over the"
                    " repeats).")
        return f"{signal}, {noise}: SNR {_num(self.snr)}."


def signal_to_noise(values, *, higher_is_better=True, learners=None,
                    relative=False) -> SignalNoise:
    r"""The signal-to-noise ratio of a benchmark, from its learners' scores over repeats.

    With :math:`x_{ir}` learner i's benchmark score in repeat r (k learners, R repeats),
    :math:`m_i` its mean over the repeats, :math:`s_i` its standard deviation and
    :math:`\bar m` the grand mean,

    .. math::

        \text{signal} = \max_i m_i - \min_i m_i, \qquad
        \text{noise} = s_p = \sqrt{\tfrac{1}{k}\textstyle\sum_i s_i^2}, \qquad
        s_i^2 = \tfrac{1}{R-1}\textstyle\sum_r (x_{ir} - m_i)^2, \qquad
        \text{SNR} = \text{signal} / \text{noise}.

    With ``relative``, signal and noise are both divided by :math:`\bar m`, as in Heineman
    et al. (2025): signal :math:`\max_{i,j}|m_i - m_j| / \bar m`, noise
    :math:`s_p / \bar m`. The SNR is the same; only the units of the two parts change.

    Parameters
    ----------
    values : array_like, shape (k, R)
        Learners × repeats (seeds, repeats of a cross-validation, or last checkpoints); each
        entry one complete benchmark score (the mean over the data sets of that repeat).
    higher_is_better : bool
        Which learner is ``best`` (the signal and noise do not depend on it).
    learners : sequence of str, optional
        Names of the k learners (default ``"1"``, ``"2"``, ...).
    relative : bool
        Report signal and noise relative to the grand mean. Default False: the absolute
        form, invariant to adding a constant to every score, and meaningful for scores that
        can be negative or whose mean is near 0 (a loss, an error difference), where a
        relative measure divides by nearly nothing. Needs every score > 0.

    Returns
    -------
    SignalNoise
        ``signal``, ``noise``, ``snr`` in the chosen form; ``spread`` (the range) and
        ``pooled_sd`` always absolute; ``relative_signal`` and ``relative_noise`` when every
        score is > 0 (else None); per learner ``means``, ``sds`` and ``se_means``
        (:math:`s_i/\sqrt R`); ``se_mean`` = :math:`s_p/\sqrt R`, the standard error of one
        learner's mean over the repeats.

    Notes
    -----
    Differences from the reference code (``snr/metrics.py`` of allenai/signal-and-noise):
    there the noise is ``np.std`` (ddof = 0) of one model's last checkpoints. Here every
    learner contributes its own repeats and the variances are pooled with ddof = 1, so the
    noise is an unbiased variance estimate whatever R, and it does not hinge on which single
    model is chosen. With equal repeats the pooled variance is the mean of the :math:`s_i^2`.

    Zero noise (every learner repeats its score exactly) gives SNR = inf when the learners
    differ, and NaN when every score is the same; neither warns.

    References
    ----------
    Heineman et al. (2025), Signal and Noise: A Framework for Reducing Uncertainty in Language
    Model Evaluation, arXiv 2508.13144.

    Examples
    --------
    Learner A scores 0.80, 0.82, 0.84 (mean 0.82, sd 0.02), B 0.70, 0.71, 0.72 (mean 0.71,
    sd 0.01). Signal 0.82 − 0.71 = 0.11; noise √((0.02² + 0.01²)/2) = 0.015811;
    SNR 6.957; relative to the grand mean 0.765: 0.14379 and 0.020668.

    >>> from rankwise.planning.signal import signal_to_noise
    >>> res = signal_to_noise([[0.80, 0.82, 0.84], [0.70, 0.71, 0.72]], learners=["A", "B"])
    >>> round(res.signal, 6), round(res.noise, 6), round(res.snr, 3)
    (0.11, 0.015811, 6.957)
    >>> round(res.relative_signal, 5), round(res.relative_noise, 6), res.best
    (0.14379, 0.020668, 'A')
    >>> import textwrap
    >>> print(textwrap.fill(res.sentence(), 80))
    Signal 0.11 (range of the learners' means), noise 0.0158 (pooled sd over 3
    repeats): SNR 6.96.
    """
    higher_is_better = _flag("higher_is_better", higher_is_better)
    relative = _flag("relative", relative)
    x = _repeat_table(values)
    k, r = x.shape
    names = _learner_names(learners, k)
    # Scaled by the largest magnitude first: squares of scores near 1e300 would overflow and
    # those near 1e-300 underflow; range and sd scale back by the same factor, the SNR not.
    scale = float(np.max(np.abs(x)))
    if scale == 0.0:
        scale = 1.0
    z = x / scale
    means = z.mean(axis=1)
    variances = ((z - means[:, None]) ** 2).sum(axis=1) / (r - 1)
    pooled = math.sqrt(float(variances.mean()))
    spread = float(means.max() - means.min())
    grand = float(means.mean())
    snr = (spread / pooled if pooled > 0 else math.inf if spread > 0 else math.nan)
    positive = bool((x > 0).all())
    rel_signal = spread / grand if positive else None
    rel_noise = pooled / grand if positive else None
    if relative and not positive:
        raise RankwiseError("relative=True needs every score > 0 (signal and noise are divided"
                            " by the mean); use relative=False, the absolute form, for scores"
                            " that can be 0 or negative")
    sds = np.sqrt(variances)
    best = int(np.argmax(means) if higher_is_better else np.argmin(means))
    return SignalNoise(
        learners=names, means=tuple((means * scale).tolist()),
        sds=tuple((sds * scale).tolist()), n_repeats=r, relative=relative,
        signal=rel_signal if relative else spread * scale,
        noise=rel_noise if relative else pooled * scale, snr=snr, spread=spread * scale,
        pooled_sd=pooled * scale, grand_mean=grand * scale, relative_signal=rel_signal,
        relative_noise=rel_noise, se_mean=pooled * scale / math.sqrt(r),
        se_means=tuple((sds * scale / math.sqrt(r)).tolist()), best=names[best],
        higher_is_better=higher_is_better)


def _repeat_table(values) -> np.ndarray:
    """A learners × repeats table of finite scores, at least 2 × 2."""
    if np.ndim(values) != 2:
        raise RankwiseError(f"values must be a 2-D table (learners × repeats), got"
                            f" {np.ndim(values)}-D")
    k, r = np.shape(values)
    if k < 2:
        raise RankwiseError(f"need at least 2 learners (rows of values), got {k}")
    if r < 2:
        raise RankwiseError(f"need at least 2 repeats (columns of values) to measure the"
                            f" noise, got {r}")
    return real_scores(values, missing_ok=False)


def _learner_names(learners, k: int) -> tuple:
    if learners is None:
        return tuple(str(i + 1) for i in range(k))
    if isinstance(learners, str) or len(learners) != k:
        raise RankwiseError(f"learners must name each of the {k} rows of values; got"
                            f" {learners!r}")
    return tuple(str(name) for name in learners)


# -- decision accuracy ----------------------------------------------------------------------

def decision_accuracy(small, large, *, higher_is_better=True) -> float:
    r"""The share of learner pairs that ``small`` orders as ``large`` does.

    Over the pairs i < j that ``large`` does not tie,

    .. math::

        \text{accuracy} = \frac{C + T/2}{P}, \qquad P = \binom{k}{2} - T_{\text{large}},

    with C the pairs both order the same way and T the pairs ``small`` ties: a tie in
    ``small`` is half right. Pairs that ``large`` ties are left out: there is no order to
    get right. Scores compare as given (exact equality is a tie); round them first for ties
    within a tolerance.

    Computed as Kendall's tau is, without the k × k table: the discordant pairs are the
    inversions of ``small`` once the learners are sorted by ``large`` (ties in ``large``
    broken by ``small`` so they add none), counted by merging blocks of doubling width;
    the ties by counting equal values. O(k log² k) time, O(k) memory.

    Parameters
    ----------
    small, large : array_like, shape (k,)
        The k learners' scores at the small scale (budget, subset) and at the large one.
    higher_is_better : bool
        Accepted for a uniform call; the result does not depend on it, since flipping the
        direction flips both orders.

    Returns
    -------
    float
        In [0, 1]; 1 when every pair ``large`` orders is ordered alike.

    References
    ----------
    Heineman et al. (2025), Signal and Noise: A Framework for Reducing Uncertainty in Language
    Model Evaluation, arXiv 2508.13144 (decision accuracy, their ``decision_acc_fast``, which
    counts a tie as agreeing only when both sides tie; here a tie in ``small`` is half right
    and a tie in ``large`` is not scored).

    Examples
    --------
    Of the 6 pairs of 4 learners one (2nd and 3rd) is swapped: 5/6. A tie in ``small`` on
    that pair counts 1/2: 5.5/6. A tie in ``large`` leaves the pair out: 5/5.

    >>> from rankwise.planning.signal import decision_accuracy
    >>> round(decision_accuracy([1, 2, 3, 4], [1, 3, 2, 4]), 6)
    0.833333
    >>> round(decision_accuracy([1, 2, 2, 4], [1, 3, 2, 4]), 6)
    0.916667
    >>> decision_accuracy([1, 3, 2, 4], [1, 2, 2, 4])
    1.0
    """
    _flag("higher_is_better", higher_is_better)
    s, g = _score_vectors(small, large)
    return _accuracy(s, g)


def _score_vectors(small, large):
    s = real_scores(small, missing_ok=False)
    g = real_scores(large, missing_ok=False)
    if s.ndim != 1 or g.ndim != 1:
        raise RankwiseError(f"small and large must be vectors (one score per learner); got"
                            f" shapes {s.shape} and {g.shape}")
    if s.size != g.size:
        raise RankwiseError(f"small and large need one score per learner each; got {s.size}"
                            f" and {g.size}")
    if s.size < 2:
        raise RankwiseError(f"need at least 2 learners, got {s.size}")
    return s, g


def _tied_pairs(codes: np.ndarray) -> int:
    # counted by sorting, not bincount: joint codes reach k², far more bins than values
    counts = np.unique(codes, return_counts=True)[1].astype(np.int64)
    return int((counts * (counts - 1) // 2).sum())


def _inversions(codes: np.ndarray) -> int:
    """Pairs a < b with codes[a] > codes[b] (codes: whole numbers from 0). At width w each
    element of a right half-block is compared with the sorted left half-block beside it; a
    pair meets in exactly one such step. Keys ``block · m + code`` keep blocks apart in one
    sorted array, so each width is one sort and two binary searches."""
    n = codes.size
    m = int(codes.max()) + 1
    pos = np.arange(n, dtype=np.int64)
    total = 0
    width = 1
    while width < n:
        block = pos // (2 * width)
        right = (pos // width) % 2 == 1
        keys = block * m + codes
        left = np.sort(keys[~right])
        end = np.searchsorted(left, (block[right] + 1) * m, side="left")
        above = np.searchsorted(left, keys[right], side="right")
        total += int((end - above).sum())
        width *= 2
    return total


def _accuracy(small: np.ndarray, large: np.ndarray) -> float:
    """Decision accuracy of two checked vectors (see :func:`decision_accuracy`)."""
    k = small.size
    _, cs = np.unique(small, return_inverse=True)
    _, cl = np.unique(large, return_inverse=True)
    cs, cl = cs.astype(np.int64).ravel(), cl.astype(np.int64).ravel()
    pairs = k * (k - 1) // 2
    tied_large = _tied_pairs(cl)
    scored = pairs - tied_large
    if scored == 0:
        raise RankwiseError(f"large ties all {k} learners: it orders no pair, so there is no"
                            " order to agree with")
    tied_small = _tied_pairs(cs) - _tied_pairs(cl * (int(cs.max()) + 1) + cs)
    order = np.lexsort((cs, cl))
    discordant = _inversions(cs[order])
    # exact in integers; the one division last
    return (2 * (scored - discordant) - tied_small) / (2 * scored)


# -- decision accuracy of a subset of the data sets -----------------------------------------

@dataclass(frozen=True)
class SuiteAccuracy:
    """How well random subsets of a suite order the learners as the whole suite does.

    Per size: the mean decision accuracy over the draws, its 2.5 and 97.5 % points, and the
    chance that the subset's best learner is the whole suite's.
    """

    sizes: tuple
    n_datasets: int
    n_learners: int
    draws: int
    seed: int
    accuracy: tuple
    lower: tuple
    upper: tuple
    same_best: tuple
    higher_is_better: bool

    def to_dict(self) -> dict:
        return jsonable({
            "sizes": list(self.sizes), "n_datasets": self.n_datasets,
            "n_learners": self.n_learners, "draws": self.draws, "seed": self.seed,
            "accuracy": list(self.accuracy), "lower": list(self.lower),
            "upper": list(self.upper), "same_best": list(self.same_best),
            "higher_is_better": self.higher_is_better})

    def sentence(self) -> str:
        shown = range(len(self.sizes))
        if len(shown) > 6:  # one sentence: the first, the last and four between
            shown = sorted({round(i * (len(shown) - 1) / 5) for i in range(6)})
        parts = ", ".join(f"{self.accuracy[i]:.2f} on {self.sizes[i]}" for i in shown)
        return (f"Decision accuracy of a random subset of the {self.n_datasets} data sets"
                f" (mean of {self.draws} draws): {parts} data sets.")


def suite_decision_accuracy(values, sizes, *, higher_is_better=True, draws=200, seed=0,
                            decimals=DEFAULT_DECIMALS) -> SuiteAccuracy:
    r"""Decision accuracy of a suite cut to n' of its n data sets, for each n' in ``sizes``.

    For each size, ``draws`` subsets of n' data sets are drawn without replacement
    (``np.random.default_rng(seed)``). On each, the learners' mean ranks (rank within each
    data set, 1 = best, ties mid-ranked, scores rounded to ``decimals`` places as
    :func:`rankwise.mean_ranks` rounds them)
    are compared with the mean ranks on all n data sets by :func:`decision_accuracy`:

    .. math::

        \text{accuracy}(n') = \frac{1}{D}\sum_{d=1}^{D}
            \operatorname{DA}\bigl(\bar R^{(d)}, \bar R\bigr).

    ``same_best`` is the chance that the subset's best learner is the suite's: per draw the
    share of the subset's (tied) best learners that are among the suite's best, i.e. the
    chance that one picked at random is.

    A data set's ranks do not depend on the subset, so they are computed once and each draw
    sums rows; the draws are scored in one array of pairs (in chunks), or one by one with the
    O(k log² k) count when the learners are too many for a table of pairs.

    Parameters
    ----------
    values : array_like, shape (n, k)
        Data sets × learners, complete.
    sizes : sequence of int
        Subset sizes n', each from 1 to n.
    higher_is_better : bool
        Whether a higher score is better (rank 1 is the best).
    draws : int
        Subsets drawn per size.
    seed : int
        Seed of the generator; the same seed gives the same result.
    decimals : int or None, default 12
        Scores are rounded to this many decimals before they are ranked, as everywhere in
        rankwise (None: not rounded; needed for scores far below 1e-12, which would all
        round to 0).

    Returns
    -------
    SuiteAccuracy
        Per size (in the order given): ``accuracy``, ``lower``, ``upper``, ``same_best``.

    References
    ----------
    Heineman et al. (2025), Signal and Noise: A Framework for Reducing Uncertainty in Language
    Model Evaluation, arXiv 2508.13144.

    Examples
    --------
    Three data sets rank learners A, B, C as (1, 2, 3), (1, 2, 3) and (3, 2, 1); on all three
    the mean ranks order A, B, C. One data set alone agrees fully (the first two) or not at
    all (the third): 2/3 expected. Two agree fully (the first two) or tie everyone (either
    with the third: each pair 1/2): 1/3 + 2/3 · 1/2 = 2/3 expected. All three agree: 1.

    >>> from rankwise.planning.signal import suite_decision_accuracy
    >>> table = [[3, 2, 1], [3, 2, 1], [1, 2, 3]]
    >>> res = suite_decision_accuracy(table, [1, 2, 3], draws=2000)
    >>> [round(a, 1) for a in res.accuracy]
    [0.7, 0.7, 1.0]
    >>> res.lower[0], res.upper[0], res.same_best[-1]
    (0.0, 1.0, 1.0)
    """
    higher_is_better = _flag("higher_is_better", higher_is_better)
    draws = whole("draws", draws, 1)
    seed = check_seed(seed)
    decimals = check_decimals(decimals)
    x = _suite_table(values)
    n, k = x.shape
    sizes = _sizes(sizes, n)
    from ..stats.ranking import rank_within_datasets

    ranks = rank_within_datasets(x, higher_is_better, decimals)
    full = ranks.sum(axis=0)  # rank sums: halves, exact, so ties are exact ties
    if (full == full[0]).all():
        rounded = "" if decimals is None else f" (scores rounded to {decimals} decimals)"
        raise RankwiseError(f"all {n} data sets tie all {k} learners' mean ranks{rounded}: the"
                            " suite orders no pair, so there is no order to agree with")
    best = full == full.min()
    rng = np.random.default_rng(seed)
    rows = []
    for size in sizes:
        # the first n' of a random permutation per draw: subsets without replacement
        picks = np.argsort(rng.random((draws, n)), axis=1)[:, :size]
        chosen = np.zeros((draws, n))
        np.put_along_axis(chosen, picks, 1.0, axis=1)
        # one product, not a draws × n' × k gather: 0/1 times half-integers sums exactly
        sums = chosen @ ranks
        acc = _draw_accuracies(sums, full)
        top = sums == sums.min(axis=1, keepdims=True)
        hit = (top & best).sum(axis=1) / top.sum(axis=1)
        low, high = np.percentile(acc, [2.5, 97.5])
        rows.append((float(acc.mean()), float(low), float(high), float(hit.mean())))
    accuracy, lower, upper, same = (tuple(col) for col in zip(*rows))
    return SuiteAccuracy(sizes=tuple(sizes), n_datasets=n, n_learners=k, draws=draws,
                         seed=seed, accuracy=accuracy, lower=lower, upper=upper,
                         same_best=same, higher_is_better=higher_is_better)


def _suite_table(values) -> np.ndarray:
    if np.ndim(values) != 2:
        raise RankwiseError(f"values must be a 2-D table (data sets × learners), got"
                            f" {np.ndim(values)}-D")
    n, k = np.shape(values)
    if n < 1 or k < 2:
        raise RankwiseError(f"need at least 1 data set and 2 learners, got {n} × {k}")
    return real_scores(values, missing_ok=False)


def _sizes(sizes, n: int) -> list:
    if isinstance(sizes, (str, bytes)) or not hasattr(sizes, "__iter__"):
        sizes = [sizes]
    out = [whole("each of sizes", s, 1, n) for s in sizes]
    if not out:
        raise RankwiseError(f"sizes must name at least one subset size (1 to {n})")
    return out


def _draw_accuracies(sums: np.ndarray, full: np.ndarray) -> np.ndarray:
    """Decision accuracy of each row of ``sums`` (draws × k rank sums) against ``full``."""
    draws, k = sums.shape
    i, j = np.triu_indices(k, 1)
    if i.size > PAIR_CELLS:  # too many pairs for a table: one draw at a time, in O(k log² k)
        return np.array([_accuracy(row, full) for row in sums])
    sign_full = np.sign(full[i] - full[j])
    scored = sign_full != 0  # the caller made sure some pair is ordered
    i, j, sign_full = i[scored], j[scored], sign_full[scored]
    out = np.empty(draws)
    step = max(1, PAIR_CELLS // i.size)
    for start in range(0, draws, step):
        sign = np.sign(sums[start:start + step, i] - sums[start:start + step, j])
        # agreeing pairs count 2, ties 1, disagreeing 0: halves without a float per pair
        points = (sign == sign_full).sum(axis=1) * 2 + (sign == 0).sum(axis=1)
        out[start:start + step] = points / (2 * i.size)
    return out


# -- decision accuracy of a budget ----------------------------------------------------------

@dataclass(frozen=True)
class BudgetAccuracy:
    """Decision accuracy of each budget against the largest, and where it reaches a target.

    Per budget (ascending) the share of learner pairs ordered as at the largest budget;
    ``reached_at`` the smallest budget that reaches ``target``, ``sustained_from`` the
    smallest from which every larger one does.
    """

    budgets: tuple
    accuracy: tuple
    target: float
    reached_at: float | None
    sustained_from: float | None
    n_learners: int
    higher_is_better: bool

    def to_dict(self) -> dict:
        return jsonable({
            "budgets": list(self.budgets), "accuracy": list(self.accuracy),
            "target": self.target, "reached_at": self.reached_at,
            "sustained_from": self.sustained_from, "n_learners": self.n_learners,
            "higher_is_better": self.higher_is_better})

    def sentence(self) -> str:
        largest = _num(self.budgets[-1])
        if self.reached_at is None:
            return (f"No budget below {largest} orders {self.target:.0%} of the"
                    f" {self.n_learners} learners' pairs as the largest budget does.")
        text = (f"Budget {_num(self.reached_at)} is the smallest that orders"
                f" {self.target:.0%} of the {self.n_learners} learners' pairs as the largest"
                f" budget ({largest}) does")
        if self.sustained_from != self.reached_at:
            text += f"; every budget from {_num(self.sustained_from)} on does"
        return text + "."


def budget_decision_accuracy(values_by_budget, budgets, *, higher_is_better=True,
                             target=0.9) -> BudgetAccuracy:
    r"""Decision accuracy of each budget against the largest one.

    With :math:`x_{b\cdot}` the k learners' benchmark scores at budget b (a checkpoint, a
    training size, a number of data sets) and B the largest budget,

    .. math::

        \text{accuracy}(b) = \operatorname{DA}(x_{b\cdot}, x_{B\cdot})

    (:func:`decision_accuracy`; the largest budget's is 1). ``reached_at`` is the smallest
    budget whose accuracy is at least ``target``; ``sustained_from`` the smallest from which
    every larger budget's is too (they differ when the accuracy dips on the way).

    Parameters
    ----------
    values_by_budget : array_like, shape (b, k)
        Budgets × learners: benchmark scores at each budget.
    budgets : sequence of float, shape (b,)
        The budgets, distinct, in any order (the results are sorted by budget).
    higher_is_better : bool
        Accepted for a uniform call; decision accuracy does not depend on it.
    target : float
        The accuracy to reach, in (0, 1]; default 0.9.

    Returns
    -------
    BudgetAccuracy
        ``budgets`` ascending with their ``accuracy``; ``reached_at``, ``sustained_from``
        (None when no budget below the largest reaches the target).

    References
    ----------
    Heineman et al. (2025), Signal and Noise: A Framework for Reducing Uncertainty in Language
    Model Evaluation, arXiv 2508.13144.

    Examples
    --------
    Against the order 1 < 2 < 3 < 4 at budget 8: budget 1 has it (1.0), budget 2 swaps one
    pair of six (5/6), budgets 4 and 8 have it again.

    >>> from rankwise.planning.signal import budget_decision_accuracy
    >>> res = budget_decision_accuracy([[1, 2, 3, 4], [1, 3, 2, 4], [1, 2, 3, 5],
    ...                                 [2, 3, 4, 5]], [1, 2, 4, 8])
    >>> [round(a, 4) for a in res.accuracy], res.reached_at, res.sustained_from
    ([1.0, 0.8333, 1.0, 1.0], 1, 4)
    """
    _flag("higher_is_better", higher_is_better)
    target = finite("target", target, 0, strict=True)
    if target > 1:
        raise RankwiseError(f"target must be a share in (0, 1]; got {target!r}")
    x, b = _budget_table(values_by_budget, budgets)
    order = np.argsort(b, kind="stable")
    x, b = x[order], b[order]
    acc = [_accuracy(row, x[-1]) for row in x[:-1]] + [1.0]
    ok = np.array(acc) >= target
    # below the largest budget only: the largest always agrees with itself
    reached = next((i for i in range(len(b) - 1) if ok[i]), None)
    sustained = None
    if reached is not None:
        sustained = len(b) - 1
        while sustained > 0 and ok[sustained - 1]:
            sustained -= 1
    values = b.tolist()
    return BudgetAccuracy(
        budgets=tuple(values), accuracy=tuple(float(a) for a in acc), target=target,
        reached_at=None if reached is None else values[reached],
        sustained_from=None if reached is None else values[sustained],
        n_learners=x.shape[1], higher_is_better=bool(higher_is_better))


def _budget_table(values_by_budget, budgets):
    if np.ndim(values_by_budget) != 2:
        raise RankwiseError(f"values_by_budget must be a 2-D table (budgets × learners), got"
                            f" {np.ndim(values_by_budget)}-D")
    nb, k = np.shape(values_by_budget)
    if nb < 2 or k < 2:
        raise RankwiseError(f"need at least 2 budgets and 2 learners, got {nb} × {k}")
    x = real_scores(values_by_budget, missing_ok=False)
    b = np.asarray(budgets)
    if b.ndim != 1 or b.size != nb or b.dtype.kind not in "iuf" or not np.isfinite(b).all():
        raise RankwiseError(f"budgets must be {nb} finite numbers, one per row of"
                            f" values_by_budget; got {budgets!r}")
    if np.unique(b).size != nb:
        raise RankwiseError(f"budgets must be distinct; got {budgets!r}")
    return x, b
