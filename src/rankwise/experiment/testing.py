"""Deliberately misbehaving learners, for testing the runner (and for trying its failure
handling). They live in the package so that worker processes can import them by path. Also the
fold results of two equally good learners, which the per-data-set tests' null simulation and
its gallery figure share."""

from __future__ import annotations

import os
import signal
import time

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin


class _Majority(ClassifierMixin, BaseEstimator):
    def fit(self, X, y):
        values, counts = np.unique(np.asarray(y), return_counts=True)
        self.classes_ = values
        self.majority_ = values[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(len(X), self.majority_, dtype=object)


class ScorelessClassifier(_Majority):
    """Predicts the majority class and gives no scores: AUC is undefined, precision of the
    (minority) positive class too."""


class FailingClassifier(_Majority):
    """Raises in fit; with ``min_features`` only on data sets with at least that many features
    (a learner that crashes on some data sets and not on others)."""

    def __init__(self, min_features: int = 0):
        self.min_features = min_features

    def fit(self, X, y):
        if np.shape(X)[1] < self.min_features:
            return super().fit(X, y)
        raise ValueError("this learner always fails" if not self.min_features else
                         f"this learner fails with {self.min_features} or more features")


class DyingClassifier(_Majority):
    """Kills its own process in fit (as a segfaulting extension would)."""

    def fit(self, X, y):
        os.kill(os.getpid(), signal.SIGKILL)


class SlowClassifier(_Majority):
    """Sleeps ``delay`` seconds in fit."""

    def __init__(self, delay: float = 0.2):
        self.delay = delay

    def fit(self, X, y):
        time.sleep(self.delay)
        return super().fit(X, y)


class RecordingClassifier(_Majority):
    """Appends a fingerprint of its training data to the file ``log`` (one line per fit)."""

    def __init__(self, log: str = "", random_state=None):
        self.log = log
        self.random_state = random_state

    def fit(self, X, y):
        import hashlib

        digest = hashlib.sha256(np.ascontiguousarray(np.asarray(X, dtype=float)).tobytes())
        with open(self.log, "a") as fh:
            fh.write(f"{digest.hexdigest()[:16]} {len(y)} {self.random_state}\n")
        return super().fit(X, y)


class StubbornClassifier(_Majority):
    """Sleeps ``delay`` seconds in fit and swallows every exception meanwhile, the time limit's
    alarm included (as a learner stuck in C code would ignore it)."""

    def __init__(self, delay: float = 30.0):
        self.delay = delay

    def fit(self, X, y):
        end = time.monotonic() + self.delay
        while time.monotonic() < end:
            try:
                time.sleep(0.05)
            except BaseException:  # noqa: BLE001 - deliberately deaf
                pass
        return super().fit(X, y)


def equal_learners_fold_accuracies(rng, n: int, repeats: int = 10,
                                   folds: int = 10) -> np.ndarray:
    """``(2, repeats × folds)`` test accuracies of two learners of equal true accuracy under
    repeats × folds cross-validation of one data set of ``n`` instances drawn from ``rng``:
    each thresholds one of two exchangeable noisy features at the midpoint of its training
    class means (equal accuracy, different predictions)."""
    y = rng.integers(0, 2, n)
    x = y[:, None] + rng.normal(0, 1.2, (n, 2))
    acc = np.empty((2, repeats * folds))
    for r in range(repeats):
        order = rng.permutation(n)
        for f in range(folds):
            test = order[f::folds]
            train = np.setdiff1d(order, test)
            for j in range(2):
                cut = (x[train][y[train] == 0, j].mean() + x[train][y[train] == 1, j].mean()) / 2
                acc[j, r * folds + f] = ((x[test, j] > cut) == y[test]).mean()
    return acc
