"""
Curves: does the rank band keep its level?
==========================================

Learners whose curves have one distribution (each problem its own curve; each learner's curve on
it that curve plus a random walk along the budget, so ranks are correlated over budgets, as real
curves are): every true mean rank is (k + 1)/2 at every budget. How often does the band of
``rankwise curves`` cover all of them together? It should be about 95% of the time: more with
few problems (the floor on degenerate resamples makes the band conservative there), 95% from
about 20 problems on (in 1,000 simulations: 93.8% at 40 problems, 95.0% at 80). A small run here
(the slow test runs 300 replicates at 20 problems), so each point carries its Monte Carlo
error.
"""

import matplotlib.pyplot as plt
import numpy as np

from rankwise.stats.curves import null_band_coverage

sizes = [6, 10, 20, 40]
reps = 200
cover = [null_band_coverage(reps=reps, problems=n, learners=5, budgets=8, draws=1000,
                            seed=n) for n in sizes]
se = [np.sqrt(c * (1 - c) / reps) for c in cover]
fig, ax = plt.subplots(figsize=(6.4, 3.0))
ax.errorbar(sizes, cover, yerr=[2 * s for s in se], fmt="o-", color="#1f4e79")
for n, c in zip(sizes, cover):
    print(f"{n} problems: the band covers every mean rank in {c:.3f} of {reps} runs")
ax.axhline(0.95, color="0.5", linestyle="--", linewidth=1)
ax.set_xlabel("problems")
ax.set_ylabel("simultaneous coverage (± 2 SE)")
ax.set_ylim(0.7, 1.0)
fig.tight_layout()
