"""
Leaderboard: do the Elo intervals keep their level?
===================================================

Tables of 5 learners that are all alike (the null) over 30 data sets: how often does the 95 %
bootstrap interval of each Elo rating hold its true value (1000), and how often does the
tied-with-#1 set hold every learner (all are tied for first)? With TabArena's 100 resamples the
intervals are a little narrow; with 1,000 they keep their level (the slow test
``test_elo_intervals_and_the_tied_set_keep_their_level`` runs the larger simulation). A small
run here, so the bars carry their Monte Carlo error.
"""

import matplotlib.pyplot as plt

from rankwise.analysis.board_coverage import coverage

runs = {rounds: coverage(k=5, n=30, reps=40, draws=rounds, seed=3)
        for rounds in (100, 1000)}
fig, ax = plt.subplots(figsize=(6.4, 3.2))
for i, (rounds, c) in enumerate(runs.items()):
    ax.errorbar([i - 0.1], [c["interval_coverage"]], yerr=[2 * c["interval_se"]],
                fmt="o", color="#1f4e79", label="Elo intervals" if i == 0 else None)
    ax.errorbar([i + 0.1], [c["tied_coverage"]], yerr=[2 * c["tied_se"]], fmt="s",
                color="#b5651d", label="tied-with-#1 set" if i == 0 else None)
    print(f"{rounds} resamples: intervals {c['interval_coverage']:.3f},"
          f" tied set {c['tied_coverage']:.3f}")
ax.axhline(0.95, color="0.5", linestyle="--", linewidth=1)
ax.set_xticks([0, 1])
ax.set_xticklabels([f"{r} resamples" for r in runs])
ax.set_ylabel("share holding the truth (± 2 SE)")
ax.set_ylim(0.7, 1.02)
ax.legend(loc="lower right", fontsize=8)
fig.tight_layout()
