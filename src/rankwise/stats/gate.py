"""Statistics of a regression gate: is the candidate worse than the baseline?

The candidate and the baseline answer the same items, so every quantity is paired; ``d``
denotes a difference candidate − baseline (or ``x − y``), and a margin δ ≥ 0 says how much
worse the candidate may be before it counts as a regression. Everything is vectorised: a
sample is the last axis of an array, the leading axes are independent comparisons (tasks,
model pairs), and counts broadcast. This module gathers the gate's functions from three:

- :mod:`rankwise.stats.gate_paired`: :func:`tost_paired` (equivalence),
  :func:`one_sided_paired_t`, :func:`one_sided_wilcoxon` and :func:`one_sided_mcnemar`
  (non-inferiority, superiority, regression), :func:`paired_difference_interval` (Tango,
  Newcombe, Wald);
- :mod:`rankwise.stats.trials`: :func:`pass_at_k`, :func:`pass_hat_k` and
  :func:`trial_variance` (repeated trials of the same items);
- :mod:`rankwise.stats.gate_evidence`: :func:`regression_evalue`,
  :func:`noninferiority_evalue`, :func:`eprocess`, :func:`alarm` and :func:`null_simulation`
  (a gate that may be looked at after every batch).
"""

from .gate_evidence import (alarm, eprocess, noninferiority_evalue, null_simulation,
                            regression_evalue)
from .gate_paired import (PAIRED_INTERVALS, SIDES, OneSided, Tost, one_sided_mcnemar,
                          one_sided_paired_t, one_sided_wilcoxon, paired_difference_interval,
                          tost_paired)
from .trials import (TrialVariance, pass_at_k, pass_hat_k, trial_variance,
                     trial_variance_from_sums)

__all__ = ["OneSided", "PAIRED_INTERVALS", "SIDES", "Tost", "TrialVariance", "alarm",
           "eprocess", "noninferiority_evalue", "null_simulation", "one_sided_mcnemar",
           "one_sided_paired_t", "one_sided_wilcoxon", "paired_difference_interval",
           "pass_at_k", "pass_hat_k", "regression_evalue", "tost_paired", "trial_variance",
           "trial_variance_from_sums"]
