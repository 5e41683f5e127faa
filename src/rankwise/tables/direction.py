"""Which way a criterion points: is a higher or a lower value better?

A criterion name is split into words (``test_error`` → test, error; ``valLoss`` → val, loss;
``false alarm rate`` → false, alarm, rate) and the words are looked up in two lists. A name with
a lower-is-better word and no higher-is-better word is lower-is-better, and the other way round.
scikit-learn's negated scorers (``neg_mean_squared_error``) are higher-is-better: the leading
``neg`` flips the direction of the words after it. A name that matches neither list, or both,
gives no direction: the caller assumes higher-is-better and says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Words that mark a criterion whose smaller values are better.
LOWER_WORDS = frozenset({
    "error", "errors", "err", "loss", "losses", "logloss", "nll", "deviance", "perplexity",
    "mse", "rmse", "mae", "mape", "smape", "msle", "rmsle", "medae", "brier", "hinge",
    "pf", "fpr", "fnr", "fdr", "far", "alarm", "alarms", "miss", "misses", "misclassification",
    "time", "times", "runtime", "walltime", "cputime", "seconds", "secs", "sec", "ms",
    "duration", "latency", "elapsed", "cost", "regret", "memory", "rank",
    # mlr3's and mlr's measure names (classif.ce, classif.mmce, classif.bbrier)
    "ce", "mmce", "bbrier", "mbrier",
})
#: Words that mark a criterion whose larger values are better.
HIGHER_WORDS = frozenset({
    "accuracy", "acc", "auc", "auroc", "roc", "aupr", "auprc", "pd", "recall", "tpr", "tnr",
    "sensitivity", "specificity", "precision", "ppv", "npv", "f1", "fmeasure", "fscore",
    "kappa", "mcc", "gmean", "r2", "ndcg", "bleu", "rouge", "iou", "dice", "jaccard", "hits",
    "likelihood", "gain", "throughput", "speedup",
    # mlr3's and the AutoML benchmark's names (classif.bacc, regr.rsq, balacc)
    "bacc", "balacc", "rsq", "fbeta", "mauc",
})
#: Decides only when no other word does ("brier_score" is lower-is-better, "f1_score" higher).
WEAK_HIGHER_WORDS = frozenset({"score", "scores"})
#: Whole names kept from earlier releases (they are also found through their words).
LOWER_IS_BETTER = frozenset({
    "error", "error_rate", "err", "pf", "false_alarm", "false_alarm_rate", "fpr", "fnr",
    "runtime", "time", "fit_time", "predict_time", "train_time", "test_time", "loss", "log_loss",
    "logloss", "brier", "mse", "rmse", "mae", "mape",
})
HIGHER_IS_BETTER = frozenset({
    "accuracy", "acc", "auc", "roc_auc", "pd", "recall", "tpr", "sensitivity", "specificity",
    "precision", "f1", "f_measure", "balanced_accuracy", "kappa", "mcc", "g_mean", "r2",
})
_NEGATIONS = ("neg", "negative", "minus")
# "f_measure", "g_mean", "roc_auc" and friends: join these pairs before the look-up.
_JOINED = {("f", "measure"): "fmeasure", ("f", "score"): "fscore", ("g", "mean"): "gmean",
           ("log", "loss"): "logloss", ("r", "2"): "r2", ("f", "1"): "f1"}


@dataclass(frozen=True)
class Direction:
    """What a criterion name says: ``higher_is_better`` (None when it says nothing) and the word
    that decided it."""

    higher_is_better: bool | None
    word: str | None = None
    negated: bool = False


def words(name: str) -> list:
    """The lower-case words of a criterion name (camelCase, digits and punctuation split)."""
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", str(name))
    parts = [w for w in re.split(r"[^0-9a-zA-Z]+", spaced.lower()) if w]
    out = []
    i = 0
    while i < len(parts):
        pair = tuple(parts[i:i + 2])
        if pair in _JOINED:
            out.append(_JOINED[pair])
            i += 2
        else:
            out.append(parts[i])
            i += 1
    return out


def direction_of(name: str | None) -> Direction:
    """The direction a criterion name implies, from its words.

    Examples
    --------
    >>> names = ("test_error", "val_loss", "fit_time", "mean_squared_error", "accuracy",
    ...          "foo")
    >>> [direction_of(n).higher_is_better for n in names]
    [False, False, False, False, True, None]
    >>> direction_of("neg_mean_squared_error")
    Direction(higher_is_better=True, word='error', negated=True)
    """
    if name is None or not str(name).strip():
        return Direction(None)
    found = words(name)
    negated = bool(found) and found[0] in _NEGATIONS
    lower = [w for w in found if w in LOWER_WORDS]
    higher = [w for w in found if w in HIGHER_WORDS]
    if not lower and not higher:
        higher = [w for w in found if w in WEAK_HIGHER_WORDS]
    if lower and not higher:
        return Direction(negated, lower[0], negated)
    if higher and not lower:
        return Direction(not negated, higher[0], negated)
    return Direction(None)


def criterion_direction(criterion: str | None) -> bool | None:
    """True/False when ``criterion`` names a higher/lower-is-better criterion, else None.

    Examples
    --------
    >>> from rankwise.tables import criterion_direction
    >>> [criterion_direction(c) for c in ("accuracy", "test_error", "xyz")]
    [True, False, None]
    """
    return direction_of(criterion).higher_is_better
