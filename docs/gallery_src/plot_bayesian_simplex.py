"""
Bayesian signed-rank test on the simplex
========================================

With ``bayesian="signed-rank"`` and a region of practical equivalence (here 0.01 in accuracy),
each pair of the verdict gets the posterior of (P(a better), P(equivalent), P(b better)); each
point is one posterior draw (Benavoli et al. 2017).
"""

import rankwise
from rankwise.report import figures

cmp = rankwise.compare(rankwise.load_example("garcia2008"),
                       bayesian=rankwise.BayesianOptions("signed-rank", rope=0.01))
for pair in cmp.bayesian[:2]:
    print(pair.a, pair.b, pair.p_a, pair.p_rope, pair.p_b, pair.decision)
simplex = figures(cmp)["bayesian_simplex"]
