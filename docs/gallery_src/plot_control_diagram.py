"""
Comparison with a control
=========================

The verdict drawn: every learner against the best-ranked one (the diamond), filled where the
verdict's procedure (Holm's, by default) finds it significantly different at alpha.
"""

import textwrap

import rankwise
from rankwise.report import figures

cmp = rankwise.compare(rankwise.load_example("garcia2008"))
print(textwrap.fill(cmp.verdict.text.split(" Size of each")[0], 88))
control = figures(cmp)["control_diagram"]
