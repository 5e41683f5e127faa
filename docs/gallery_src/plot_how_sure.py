"""
How sure: rank sets and fragile claims
======================================

Every learner's 95% confidence set for its rank, jointly for all of them (Mogstad et al. 2023):
the bar spans the ranks it can have, the dot is its estimated rank, filled when it could be the
best. With the data-set check, a learner whose verdict rests on one or two data sets is marked
with them: removing those data sets and rerunning the same analysis changes the claim.
"""

import textwrap

import rankwise
from rankwise.report import figures

cmp = rankwise.compare(rankwise.load_example("garcia2008"), rank_sets=True,
                       dataset_check=True)
print(textwrap.fill(cmp.dataset_check.sentence(), 88))
fig = figures(cmp)["rank_sets"]
