"""Biased samples of data sets, as in Demšar (2006, §4.1.1).

The probability of picking data set i is proportional to 1/(1 + e^(−k·d_i)), where d_i is the
difference in favour of the first learner (or of the control over the mean of the others) on
that data set, in the criterion's direction, and k is the bias. A sample of N data sets is drawn
without replacement by successive sampling with these weights (each pick proportional to the
weights of the data sets not yet picked), computed for many samples at once with the
Gumbel-top-N method: the N largest of log w_i + G_i with G_i independent standard Gumbel
variables are a successive sample (Vieira 2014; Kool et al. 2019).
"""

from __future__ import annotations

import numpy as np
from scipy import special


def selection_weights(d, bias: float) -> np.ndarray:
    """1/(1 + e^(−bias·d_i)), normalised to sum to 1 (uniform at bias 0). Where bias·d_i
    overflows (huge differences) the weight is the formula's limit, 0 or 1."""
    with np.errstate(over="ignore"):
        w = special.expit(bias * np.asarray(d, dtype=float))
    return w / w.sum()


def draw_samples(weights, size: int, draws: int, rng: np.random.Generator) -> np.ndarray:
    """``draws`` × ``size`` row indices: successive samples without replacement, each row
    sorted (the order of the data sets within a sample does not matter to any test)."""
    w = np.asarray(weights, dtype=float)
    with np.errstate(divide="ignore"):  # a weight of 0 (underflow) is never picked first
        keys = np.log(w)[None, :] + rng.gumbel(size=(draws, w.size))
    top = np.argpartition(-keys, size - 1, axis=1)[:, :size]
    return np.sort(top, axis=1)
