"""
Scott-Knott ESD groups
======================

Box plots of each learner's scores over the data sets, best mean first, one colour per
Scott-Knott ESD group (group 1 = best), here built on each data set's ranks.
"""

import textwrap

import rankwise
from rankwise.report import figures

cmp = rankwise.compare(rankwise.load_example("garcia2008"), groups="scott-knott-esd-np")
print(textwrap.fill(cmp.groups.sentence(), 88))
boxes = figures(cmp)["groups"]
