"""
Mean ranks with intervals, for many learners
============================================

With more learners than ``top`` (30 by default) the reports show the best 30 in every table and
figure, and one more figure shows every learner: its mean rank with a bootstrap interval over
data sets, best first, the learners the verdict cannot separate from the best filled. Here 40
made-up learners over 25 data sets.
"""

import numpy as np
import pandas as pd

import rankwise
from rankwise.report import figures

rng = np.random.default_rng(7)
skill = np.linspace(0.0, 0.08, 40)
scores = 0.75 + skill + rng.normal(0, 0.04, size=(25, 40))
table = pd.DataFrame(scores, index=[f"data{i:02d}" for i in range(25)],
                     columns=[f"learner{j:02d}" for j in range(40)])
cmp = rankwise.compare(table, criterion="accuracy")
drawn = figures(cmp)
print(sorted(drawn))
intervals = drawn["rank_intervals"]
