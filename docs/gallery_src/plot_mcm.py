"""
Multi-comparison matrix
=======================

Every pair on its own two columns (Ismail-Fawaz et al. 2023): the mean difference (row −
column), the row's wins / ties / losses over the data sets and the Wilcoxon p-value (here
Holm-adjusted), coloured by the mean difference, bold where significant. No cell depends on
the other learners, so the matrix answers the question of the pool check below it.
"""

import textwrap

import rankwise
from rankwise.report import figures

cmp = rankwise.compare(rankwise.load_example("garcia2008"), mcm="holm", pool_check=True)
matrix = figures(cmp)["mcm"]
print(textwrap.fill(cmp.pool_check.sentence(), 88))
