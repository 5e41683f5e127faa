"""Evaluation criteria for the experiment runner.

Each criterion gives ``(value, None)`` or, where it is undefined, ``(None, reason)``: an undefined
criterion is recorded as missing with its reason, never as 0 and never as a crash.

Binary problems use the data set's positive class (the minority class unless the experiment names
one): pd = recall = TP/(TP+FN), pf = FP/(FP+TN), precision = TP/(TP+FP), f1 = 2TP/(2TP+FP+FN),
AUC from the positive-class score. Multi-class problems average one-vs-rest values over the
classes of the test fold (macro average) where each is defined; AUC is one-vs-rest macro AUC from
``predict_proba`` (or ``decision_function``). balanced_accuracy is the mean recall over the
classes present in the test fold; accuracy the fraction correct.
"""

from __future__ import annotations

import numpy as np

#: criterion -> True when higher is better
CRITERIA = {"accuracy": True, "auc": True, "pd": True, "pf": False, "precision": True, "f1": True,
            "balanced_accuracy": True, "fit_time": False, "predict_time": False}
TIMES = ("fit_time", "predict_time")


def _ratio(num, den, reason):
    return (float(num) / float(den), None) if den > 0 else (None, reason)


def _binary_counts(y_true, y_pred, positive):
    t = y_true == positive
    p = y_pred == positive
    return int((t & p).sum()), int((~t & p).sum()), int((t & ~p).sum()), int((~t & ~p).sum())


def _one_class(name, y_true, y_pred, positive):
    tp, fp, fn, tn = _binary_counts(y_true, y_pred, positive)
    if name == "pd":
        return _ratio(tp, tp + fn, "no positive examples in the test fold")
    if name == "pf":
        return _ratio(fp, fp + tn, "no negative examples in the test fold")
    if name == "precision":
        return _ratio(tp, tp + fp, "no predicted positives")
    return _ratio(2 * tp, 2 * tp + fp + fn, "no positive examples and no predicted positives")


def _auc(y_true, score, positive):
    from sklearn.metrics import roc_auc_score

    t = y_true == positive
    if t.all() or not t.any():
        return None, "the test fold has a single class"
    return float(roc_auc_score(t, score)), None


def evaluate(names, y_true, y_pred, scores, classes, positive):
    """``{criterion: (value or None, reason or None)}`` for one test fold.

    ``scores`` is an (n, len(classes)) array of class scores, or None when the learner gives
    none; ``classes`` are the learner's classes in column order.
    """
    y_true = np.asarray(y_true, dtype=object)
    y_pred = np.asarray(y_pred, dtype=object)
    out = {}
    present = [c for c in classes if (y_true == c).any()]
    binary = len(classes) == 2 and positive is not None
    for name in names:
        if name in TIMES:
            continue
        if name == "accuracy":
            out[name] = (float((y_true == y_pred).mean()), None)
        elif name == "balanced_accuracy":
            out[name] = (float(np.mean([(y_pred[y_true == c] == c).mean() for c in present])),
                         None)
        elif name == "auc":
            if scores is None:
                out[name] = (None, "the learner gives no scores (no predict_proba or"
                             " decision_function)")
            elif binary:
                out[name] = _auc(y_true, scores[:, list(classes).index(positive)], positive)
            else:
                vals = [_auc(y_true, scores[:, list(classes).index(c)], c)[0] for c in present]
                vals = [v for v in vals if v is not None]
                out[name] = ((float(np.mean(vals)), None) if vals else
                             (None, "no class has both positives and negatives in the test fold"))
        elif binary:
            out[name] = _one_class(name, y_true, y_pred, positive)
        else:
            vals = [_one_class(name, y_true, y_pred, c)[0] for c in classes]
            vals = [v for v in vals if v is not None]
            out[name] = ((float(np.mean(vals)), None) if vals else
                         (None, f"{name} is undefined for every class of the test fold"))
    return out


def class_scores(estimator, X, classes):
    """(n, len(classes)) scores from predict_proba or decision_function, or None."""
    if hasattr(estimator, "predict_proba"):
        try:
            return np.asarray(estimator.predict_proba(X), dtype=float)
        except (AttributeError, NotImplementedError):
            pass
    if hasattr(estimator, "decision_function"):
        try:
            d = np.asarray(estimator.decision_function(X), dtype=float)
        except (AttributeError, NotImplementedError):
            return None
        if d.ndim == 1:  # binary: the score of classes[1]
            return np.column_stack([-d, d])
        return d
    return None
