"""
Data set by data set: the forest plot
=====================================

Each learner's mean difference from the base learner on each data set, with its corrected
resampled t-test interval (Nadeau & Bengio 2003), filled where the test finds it significant:
WEKA's Experimenter table as a figure, on a file WEKA 3.6's Experimenter wrote.
"""

import textwrap

import rankwise
from rankwise.report import figures

cmp = rankwise.compare(rankwise.load_example("weka"), per_dataset=True,
                       posthoc=rankwise.PosthocOptions(control="rules.ZeroR"))
print(textwrap.fill(cmp.per_dataset.sentence(), 88))
fig = figures(cmp)["per_dataset"]
