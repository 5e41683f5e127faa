"""
Adjusted p-values of all pairs
==============================

The heat map of the CD diagram's adjusted p-values, in five classes, outlined where a pair is
significant: for when the groups of a CD diagram overlap and mislead.
"""

import rankwise
from rankwise.report import figures

table = rankwise.load_example("garcia2008")
cmp = rankwise.compare(
    table, posthoc=rankwise.PosthocOptions("all", procedures=["nemenyi", "shaffer"]))
heatmap = figures(cmp, procedure="shaffer")["pvalue_heatmap"]
