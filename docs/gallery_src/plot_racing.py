"""
Racing: when is the answer settled?
===================================

Ten configurations over 90 data sets, half of them clearly worse. The race takes the data
sets in a seeded random order and eliminates a configuration as soon as another one beats it
with an e-value of at least k(k - 1)/alpha: the worse half is gone after a fraction of the
data sets, and what a full experiment would have spent on them was not needed. The second
figure is the reason for the e-values: under ten equal learners, F-Race's repeated Friedman
tests eliminate somebody in far more than alpha of the races, the anytime-valid race in fewer,
at every data set the race may stop.
"""

import textwrap

import numpy as np

import rankwise
from rankwise.report.race import race_figure, rates_figure
from rankwise.stats.racing import null_error_rates

rng = np.random.default_rng(5)
scores = rng.normal(size=(90, 10)) + np.r_[1.5, np.zeros(4), -1.5 * np.ones(5)]
result = rankwise.race(scores, learners=[f"config_{j}" for j in range(10)])
for e in result.eliminations:
    print(f"{e.learner} out after {e.step} data sets, beaten by {e.by}")
print(textwrap.fill(f"{result.saved:.0%} of the experiment was not needed.", 88))
fig = race_figure(result)

# %%
# The same race rule on 300 tables of ten equal learners over 100 data sets (every
# elimination is wrong), against F-Race's repeated Friedman tests:

rates = null_error_rates(k=10, n=100, reps=300, alpha=0.05)
print(f"anytime-valid race: {rates['anytime'][-1]:.3f};"
      f" repeated Friedman tests: {rates['frace'][-1]:.3f}")
fig_rates = rates_figure(rates, alpha=0.05)
