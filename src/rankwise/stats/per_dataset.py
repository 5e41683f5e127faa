"""Tests of two learners on one data set, from their results on the same cross-validation folds.

- :func:`corrected_resampled_ttest`: Nadeau & Bengio's (2003) corrected resampled t-test of
  r × k-fold cross-validation, as WEKA's Experimenter runs it (``PairedCorrectedTTester``;
  Bouckaert & Frank 2004);
- :func:`five_by_two_t`: Dietterich's (1998) 5×2cv paired t-test;
- :func:`five_by_two_f`: Alpaydın's (1999) combined 5×2cv F-test.

The folds of one data set share training instances, so their results are correlated and the
plain paired t-test over them rejects far too often; each test here corrects for that in its
own way. They answer "is b better than a *on this data set*?"; whether b is better over data
sets is the question of the tests across data sets (Demšar 2006, §3).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from .. import _validate as check
from ..errors import RankwiseError
from ._docs import shared_docs
from .ranking import DEFAULT_DECIMALS
from .results import TestResult
from .two_learners import Distribution
from .two_learners import degenerate_t as _degenerate
from .two_learners import differences
from .two_learners import t_pvalue as _p_value
from .two_learners import unit_differences as _unit


@shared_docs
def corrected_resampled_ttest(a, b, *, test_train_ratio: float, higher_is_better: bool = True,
                              alternative: str = "two-sided", confidence: float = 0.95,
                              decimals: int | None = DEFAULT_DECIMALS) -> TestResult:
    r"""Corrected resampled t-test of b against a on one data set (Nadeau & Bengio 2003).

    With d_j = b_j − a_j on the n = r·k test folds of r repetitions of k-fold cross-validation
    (in the direction of the scores: positive means b is better), their mean d̄ and variance s²
    (n − 1 in the denominator), and n₂/n₁ the ratio of test to training instances,

    .. math:: t = \frac{\bar d}{\sqrt{(1/n + n_2/n_1)\,s^2}} \sim t_{n-1}

    The plain paired t-test over folds uses 1/n alone and rejects far too often, because the
    folds' training sets overlap. WEKA's Experimenter computes exactly this test
    (``PairedCorrectedTTester``; n₂/n₁ there is the ratio of the mean numbers of test and
    training instances over the folds); for k-fold cross-validation n₂/n₁ ≈ 1/(k − 1).

    Parameters
    ----------
    a, b : array_like, shape (n,)
        The two learners' results on the same folds, in the same order.
    test_train_ratio : float
        n₂/n₁, test over training instances (> 0).
    {{higher_is_better}}
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        ``"greater"``: b is better than a (in the direction of the scores); ``"less"``: worse.
    confidence : float, default 0.95
        Level of the corrected interval of the mean difference in ``details``.
    {{decimals}}

    Returns
    -------
    TestResult
        ``statistic`` t, ``pvalue``, ``df`` (n − 1,), ``details``: ``mean_difference`` (b − a,
        positive = b better), ``sd_difference``, ``n``, ``test_train_ratio``, ``ci_low``,
        ``ci_high`` (the corrected interval of the mean difference), ``confidence``,
        ``alternative``.

    References
    ----------
    Nadeau, C. and Bengio, Y. (2003). Inference for the generalization error. Machine
    Learning 52, 239–281. Bouckaert, R. R. and Frank, E. (2004). Evaluating the replicability
    of significance tests for comparing learning algorithms. PAKDD 2004, 3–12.

    Examples
    --------
    Ten folds of one data set (10-fold cross-validation: n₂/n₁ = 1/9):

    >>> from rankwise.stats.per_dataset import corrected_resampled_ttest
    >>> a = [0.80, 0.82, 0.79, 0.85, 0.81, 0.78, 0.84, 0.80, 0.83, 0.82]
    >>> b = [0.83, 0.84, 0.80, 0.86, 0.85, 0.80, 0.85, 0.84, 0.83, 0.85]
    >>> r = corrected_resampled_ttest(a, b, test_train_ratio=1 / 9)
    >>> round(r.statistic, 4), round(r.pvalue, 4), r.df
    (3.3354, 0.0087, (9,))
    """
    alternative = check.alternative(alternative)
    ratio = _ratio(test_train_ratio)
    confidence = check.confidence(confidence)
    d = differences(a, b, higher_is_better, decimals)
    n = d.size
    if n < 2:
        raise RankwiseError("the corrected t-test needs the results of at least two folds")
    unit, size = _unit(d)
    mean_u, sd_u = float(unit.mean()), float(unit.std(ddof=1))
    mean, sd = mean_u * size, sd_u * size   # Python floats: an overflow is inf, not a warning
    scale = math.sqrt(1.0 / n + ratio)
    dist = Distribution(stats.t, n - 1)
    if sd_u == 0:
        t, p = _degenerate(mean, alternative)
        half = 0.0
        notes = ("every fold gives the same difference: the t statistic is degenerate",)
    else:
        t = mean_u / (scale * sd_u)
        p = _p_value(dist, t, alternative)
        half = float(dist.ppf(0.5 + confidence / 2)) * scale * sd
        notes = ()
    return TestResult(
        test="corrected_t", statistic=t, pvalue=p, method="t", convention="default",
        df=(n - 1,), details={"mean_difference": mean, "sd_difference": sd, "n": n,
                              "test_train_ratio": ratio, "ci_low": mean - half,
                              "ci_high": mean + half, "confidence": confidence,
                              "alternative": alternative},
        notes=notes)


def _ratio(value) -> float:
    try:
        ratio = float(value)
    except (TypeError, ValueError):
        raise RankwiseError(f"the test-to-training ratio must be a number; got {value!r}") \
            from None
    if not (0 < ratio < math.inf):
        raise RankwiseError(f"the test-to-training ratio must be positive and finite; got"
                            f" {value!r}")
    return ratio


def _five_by_two(a, b, higher_is_better, decimals) -> np.ndarray:
    """The 5 × 2 differences p_i^(j) (repetition i, fold j), positive = b better."""
    a, b = check.real_array(a), check.real_array(b)
    if a.shape != (5, 2) or b.shape != (5, 2):
        raise RankwiseError(f"the 5x2cv tests need 5 repetitions x 2 folds of results per"
                            f" learner (arrays of shape 5 x 2); got {a.shape} and {b.shape}")
    return differences(a.ravel(), b.ravel(), higher_is_better, decimals).reshape(5, 2)


@shared_docs
def five_by_two_t(a, b, *, higher_is_better: bool = True, alternative: str = "two-sided",
                  decimals: int | None = DEFAULT_DECIMALS) -> TestResult:
    r"""Dietterich's (1998) 5×2cv paired t-test of b against a on one data set.

    Five repetitions of 2-fold cross-validation; p_i^(j) = b − a on fold j of repetition i,
    p̄_i their mean and s_i² = (p_i^(1) − p̄_i)² + (p_i^(2) − p̄_i)²:

    .. math:: t = \frac{p_1^{(1)}}{\sqrt{\frac15 \sum_{i=1}^5 s_i^2}} \sim t_5

    Parameters
    ----------
    a, b : array_like, shape (5, 2)
        Results on fold j (columns) of repetition i (rows), the same folds for both.
    {{higher_is_better}}
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
    {{decimals}}

    Returns
    -------
    TestResult
        ``statistic`` t, ``pvalue``, ``df`` (5,), ``details``: ``first_difference``
        (p_1^(1)), ``variance_sum`` (Σ s_i²), ``alternative``.

    References
    ----------
    Dietterich, T. G. (1998). Approximate statistical tests for comparing supervised
    classification learning algorithms. Neural Computation 10(7), 1895–1923.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.stats.per_dataset import five_by_two_t
    >>> a = np.array([[.80, .82], [.79, .81], [.83, .80], [.78, .80], [.81, .82]])
    >>> b = a + np.array([[.03, .01], [.02, .02], [.01, .03], [.02, .01], [.03, .02]])
    >>> r = five_by_two_t(a, b)
    >>> round(r.statistic, 4), round(r.pvalue, 4)
    (3.0, 0.0301)
    """
    alternative = check.alternative(alternative)
    p, size = _unit(_five_by_two(a, b, higher_is_better, decimals))
    s2 = ((p - p.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    total = float(s2.sum())
    first = float(p[0, 0])
    if total == 0:
        t, pv = _degenerate(first, alternative)
        notes = ("the two folds of every repetition give the same difference: the statistic"
                 " is degenerate",)
    else:
        t = first / math.sqrt(total / 5.0)
        pv = _p_value(Distribution(stats.t, 5), t, alternative)
        notes = ()
    return TestResult(test="five_by_two_t", statistic=t, pvalue=pv, method="t",
                      convention="default", df=(5,),
                      details={"first_difference": first * size,
                               "variance_sum": total * size * size, "n": 10,
                               "alternative": alternative}, notes=notes)


@shared_docs
def five_by_two_f(a, b, *, higher_is_better: bool = True,
                  decimals: int | None = DEFAULT_DECIMALS) -> TestResult:
    r"""Alpaydın's (1999) combined 5×2cv F-test of b against a on one data set (two-sided).

    With p_i^(j) and s_i² as in :func:`five_by_two_t`,

    .. math:: F = \frac{\sum_{i=1}^5 \sum_{j=1}^2 (p_i^{(j)})^2}{2 \sum_{i=1}^5 s_i^2}
              \sim F_{10,5}

    It uses all ten differences instead of the first one, and has a lower type-I error and
    higher power than the 5×2cv t-test (Alpaydın 1999).

    Parameters
    ----------
    a, b : array_like, shape (5, 2)
        Results on fold j (columns) of repetition i (rows), the same folds for both.
    {{higher_is_better}}
    {{decimals}}

    Returns
    -------
    TestResult
        ``statistic`` F, ``pvalue``, ``df`` (10, 5), ``details``: ``mean_difference`` (of the
        ten, positive = b better), ``sum_of_squares`` (Σ p²), ``variance_sum`` (Σ s_i²).

    References
    ----------
    Alpaydın, E. (1999). Combined 5 × 2 cv F test for comparing supervised classification
    learning algorithms. Neural Computation 11(8), 1885–1892.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.stats.per_dataset import five_by_two_f
    >>> a = np.array([[.80, .82], [.79, .81], [.83, .80], [.78, .80], [.81, .82]])
    >>> b = a + np.array([[.03, .01], [.02, .02], [.01, .03], [.02, .01], [.03, .02]])
    >>> r = five_by_two_f(a, b)
    >>> round(r.statistic, 4), round(r.pvalue, 4)
    (4.6, 0.053)
    """
    p, size = _unit(_five_by_two(a, b, higher_is_better, decimals))
    s2 = ((p - p.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    total = float(s2.sum())
    squares = float((p ** 2).sum())
    if total == 0:
        f = 0.0 if squares == 0 else math.inf
        pv = 1.0 if squares == 0 else 0.0
        notes = ("the two folds of every repetition give the same difference: the statistic"
                 " is degenerate",)
    else:
        f = squares / (2.0 * total)
        pv = float(stats.f.sf(f, 10, 5))
        notes = ()
    return TestResult(test="five_by_two_f", statistic=f, pvalue=pv, method="F",
                      convention="default", df=(10, 5),
                      details={"mean_difference": float(p.mean()) * size,
                               "sum_of_squares": squares * size * size,
                               "variance_sum": total * size * size, "n": 10,
                               "alternative": "two-sided"},
                      notes=notes)


__all__ = ["corrected_resampled_ttest", "five_by_two_t", "five_by_two_f"]
