"""
Which learner is the best? (posterior)
======================================

The Bayesian Plackett-Luce model of García & Herrera's (2008) table of 5 learners over 30
data sets (``--bayesian plackett-luce``, the ``bayes`` extra). Left: each learner's posterior
probability of being the best. Right: the posterior of its weight, the probability that it
ranks first on a new data set. With ``--verdict bayesian`` the verdict says the same in
words, then the frequentist verdict that the other figures show.
"""

import textwrap

import rankwise
from rankwise.report import figures

cmp = rankwise.compare(rankwise.load_example("garcia2008"), bayesian="plackett-luce",
                       verdict="bayesian")
p_best = figures(cmp)["p_best"]
print(textwrap.fill(cmp.verdict.bayesian.statement, 88))
