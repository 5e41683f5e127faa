"""
Another reasonable analysis: the specification curve
====================================================

The verdict rerun for every combination of a grid of defensible choices (here the rounding of
the scores and what decides the verdict), each the same analysis as ``compare`` with those
options. Top: the share of the verdict's claims each analysis makes (filled: the same best
learner); bottom: the choices that define it.
"""

import textwrap

import rankwise
from rankwise.report import figures

grid = {"decimals": [12, 2],
        "basis": ["friedman-holm", "wilcoxon-holm", "sign-holm", "mcm"]}
cmp = rankwise.compare(rankwise.load_example("garcia2010"), multiverse=grid)
print(textwrap.fill(cmp.multiverse.sentence(), 88))
fig = figures(cmp)["multiverse"]
