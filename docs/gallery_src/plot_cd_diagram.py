"""
Critical-difference diagram
===========================

All pairs of learners on one axis of mean ranks (1 = best). Bars join each group of learners
that the all-pairs procedure does not separate; for the Nemenyi test the critical difference is
drawn above the axis (Demšar 2006, §3.2.4). The data: García & Herrera (2008), five classifiers
over 30 data sets.
"""

import rankwise
from rankwise.report import figures

cmp = rankwise.compare(rankwise.load_example("garcia2008"))
print(f"CD = {cmp.critical_difference.nemenyi:.4f}")
cd_nemenyi = figures(cmp)["cd_diagram"]

# %%
# Any all-pairs procedure can draw the bars; Bergmann-Hommel's separates more pairs than
# Nemenyi's, and then no single critical difference applies, so none is drawn.

cd_bergmann = figures(cmp, procedure="bergmann_hommel")["cd_diagram"]
