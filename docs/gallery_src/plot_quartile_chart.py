"""
Quartile charts
===============

A text figure, in the layout of empirical software-engineering papers (for example Menzies et
al. 2010, *Stable rankings for different effort models*): per learner the
minimum, quartiles and maximum of its fold-level values, and a bar with ``-`` from the lower
quartile to the median, ``|`` at the median and ``+`` to the upper quartile, on one scale. The
per-data-set charts follow when the data sets order the learners differently from the overall
chart.
"""

import rankwise
from rankwise.report import render

table = rankwise.load_example("folds_demo", criterion="accuracy")
text = render(rankwise.compare(table), "text", width=88)
print(text[text.index("Quartile charts"):text.index("Methods")].rstrip())
